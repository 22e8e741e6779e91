# SPDX-License-Identifier: GPL-2.0
# The udev rule from the package under a real systemd-udevd: policy applied
# within seconds of hotplug (null_blk through configfs, scsi_debug plain
# and host-managed zoned), re-applied on "change", an admin drop-in
# matching a model, and messages in syslog.  udevd is stopped at the end so
# later tests see no policy.
. /tests/lib.sh

# wait_sched DEV NAME: up to 10 s for DEV to reach scheduler NAME.
wait_sched() {
	local i=0
	while [ $i -lt 100 ]; do
		[ -e "/sys/block/$1/queue/scheduler" ] && [ "$(sched_current "$1")" = "$2" ] && return 0
		sleep 0.1; i=$((i + 1))
	done
	return 1
}
# scsi_disk MODEL_PARAMS...: load scsi_debug and print its disk's name.
scsi_disk() {
	local i=0 m
	modprobe scsi_debug "$@" || return 1
	while [ $i -lt 100 ]; do
		for m in /sys/block/sd*/device/model; do
			grep -qs scsi_debug "$m" && { echo "$m" | cut -d/ -f4; return 0; }
		done
		sleep 0.1; i=$((i + 1))
	done
	return 1
}

# udevd_gone DEV: up to 60 s for udevd and its workers to exit after
# `udevadm control --exit`.  A CI run on the debug kernel found udevd
# idle in epoll_wait 60 s after it (the exit message never handled, and
# udevadm's status not read): the message is sent again every 10 s, its
# failures said, and after 30 s udevd gets SIGTERM, its other way to
# exit (said too: not the test's point, which is that no udevd is left
# for the next tests).  If they still do not go, show what every process
# and blocked task waits on, and the state of DEV's queue, so that a
# failure says where it hung.
udevd_gone() {
	local t0 t next=0 termed=0 rc
	t0=$(date +%s)
	while pidof systemd-udevd >/dev/null; do
		t=$(($(date +%s) - t0))
		if [ $t -ge 60 ]; then
			udev_hang_report "$1"
			return 1
		fi
		if [ $t -ge 30 ] && [ $termed = 0 ]; then
			diag "udevd still there after $t s: SIGTERM"
			kill -TERM $(pidof systemd-udevd) 2>/dev/null
			termed=1
		elif [ $t -ge $next ] && [ $t -lt 30 ]; then
			[ $next = 0 ] || diag "udevd still there after $t s: --exit sent again"
			udevadm control -t 5 --exit >/tmp/udevctl.out 2>&1
			rc=$?
			[ $rc = 0 ] || diag "udevadm control --exit: rc $rc: $(head -c 200 /tmp/udevctl.out)"
			next=$((t + 10))
		fi
		sleep 0.1
	done
}
udev_hang_report() {
	local d f c n
	for d in /proc/[0-9]*; do
		c=$(cat "$d/cmdline" 2>/dev/null | tr '\0' ' ')
		[ -n "$c" ] || continue	# a kernel thread: sysrq-w below shows those blocked
		echo "pid ${d#/proc/} $(cut -d' ' -f2,3 "$d/stat" 2>/dev/null) wchan $(cat "$d/wchan" 2>/dev/null): $c"
		sed 's/^/    /' "$d/stack" 2>/dev/null
	done
	for f in /sys/kernel/debug/block/"$1"/sched/* /sys/kernel/debug/block/"$1"/hctx*/busy \
			/sys/kernel/debug/block/"$1"/hctx*/dispatch /sys/kernel/debug/block/"$1"/hctx*/state \
			/sys/kernel/debug/block/"$1"/requeue_list /sys/kernel/debug/block/"$1"/state; do
		[ -f "$f" ] && sed "s|^|${f#/sys/kernel/debug/block/}: |" "$f" 2>/dev/null | head -20
	done
	# Blocked tasks, kernel threads included: only what sysrq-w logs.
	n=$(dmesg | wc -l)
	echo w >/proc/sysrq-trigger 2>/dev/null && dmesg | tail -n +$((n + 1)) | head -200
}

check "the package's rule is installed" test -e /usr/lib/udev/rules.d/60-schedctl.rules
syslogd -O /tmp/syslog
/lib/systemd/systemd-udevd --daemon --resolve-names=never
# --daemon returns before the control socket answers: wait up to 5 s
check "udevd is running" sh -c 'i=0; until udevadm control --ping 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 50 ] || exit 1; sleep 0.1; done'
mkdir -p /etc/schedctl.d
printf '[model:scsi_debug*]\nread_expire = 200\n' >/etc/schedctl.d/50-vm-test.conf

# null_blk is virtual: the shipped policy gives it none (the kernel's
# default for one hardware queue is mq-deadline).
nb=$(nullb_create hp0 submit_queues=1)
check "null_blk ($nb) gets none on add" wait_sched "$nb" none
nbz=$(nullb_create hpz zoned=1 zone_size=64 size=1024)
check "zoned null_blk ($nbz) gets none on add (virtual)" wait_sched "$nbz" none

# scsi_debug is an ssd: xdeadline, autoloaded by the rule's apply.
sd=$(scsi_disk dev_size_mb=64)
check "scsi_debug disk present" test -n "$sd"
check "ssd $sd gets xdeadline on add" wait_sched "$sd" xdeadline
# The rule's schedctl selects the scheduler, then writes the knobs: the
# add event is done (settled) only after both.  Read before settling, the
# debug kernel once showed the default read_expire (500).
udevadm settle -t 10
is "$(knob "$sd" read_expire)" 200 "$sd: the admin drop-in's model section applied"

# Something resets the scheduler; a change event re-applies the policy.
sched_set "$sd" mq-deadline
udevadm trigger --action=change "/sys/block/$sd"
udevadm settle -t 10
check "change event re-applies xdeadline" wait_sched "$sd" xdeadline
is "$(knob "$sd" read_expire)" 200 "and its knobs"

# It turns rotational: a change event makes it an hdd with head_request=1.
echo 1 >"/sys/block/$sd/queue/rotational"
udevadm trigger --action=change "/sys/block/$sd"
udevadm settle -t 10
is "$(knob "$sd" head_request)" 1 "rotational $sd: hdd policy head_request=1 applied"
check "schedctl logged to syslog" grep -q schedctl /tmp/syslog
rmmod scsi_debug 2>/dev/null || { sleep 1; rmmod scsi_debug; }

# Host-managed zoned scsi_debug, made rotational: smr policy, one write in
# flight (the native queue attribute where the kernel has it).
sz=$(scsi_disk dev_size_mb=256 zbc=host-managed zone_size_mb=8)
check "host-managed scsi_debug present" test -n "$sz"
check "zoned $sz gets xdeadline on add" wait_sched "$sz" xdeadline
echo 1 >"/sys/block/$sz/queue/rotational"
udevadm trigger --action=change "/sys/block/$sz"
udevadm settle -t 10
is "$(/usr/sbin/schedctl classify "$sz" | sed -n '1s/.*: class \([^ ]*\).*/\1/p')" smr "$sz: classified smr"
if [ -e "/sys/block/$sz/queue/zoned_qd1_writes" ]; then
	is "$(cat "/sys/block/$sz/queue/zoned_qd1_writes")" 1 "$sz: native zoned_qd1_writes=1"
else
	is "$(knob "$sz" zoned_qd1_writes)" 1 "$sz: xdeadline zoned_qd1_writes=1"
fi

# --exit returns before udevd and its workers are gone; one left behind
# would apply the policy to the next tests' devices.  The event queue is
# drained first, and udevd gets 60 s to go: on the debug kernel beside
# the other guests it once outlasted 10 s (a cold make check run).
t0=$(date +%s)
if ! udevadm settle -t 60 2>/dev/null; then
	diag "udevadm settle: events still queued after 60 s"
	udev_hang_report "$sz" | sed 's/^/#   /'
fi
diag "udevadm settle took $(($(date +%s) - t0)) s"
# (as check, and udevd_gone's own lines shown either way)
if udevd_gone "$sz" >/tmp/udevd.out 2>&1; then
	ok "udevd stopped"
	grep '^# ' /tmp/udevd.out
else
	not_ok "udevd stopped"
	sed 's/^/#   /' /tmp/udevd.out
fi
rm -f /etc/schedctl.d/50-vm-test.conf
nullb_remove hp0
nullb_remove hpz
rmmod scsi_debug 2>/dev/null
killall syslogd 2>/dev/null
done_testing
