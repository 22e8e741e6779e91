# SPDX-License-Identifier: GPL-2.0
# xbfq on the schedctl netlink family: modprobe loads schedctl_nl with xbfq;
# a device with xbfq is in the dump with its sysfs knobs and debugfs
# counters, the counters move by a fio job's I/O count, and attach, knob
# writes (sysfs and netlink; slice_idle and slice_idle_us are one field)
# and detach arrive as events, in order.
. /tests/lib.sh

command -v nltest >/dev/null || { not_ok "nltest in the guest (GUEST_TREE)"; done_testing; exit 1; }

nl() { awk -v d="$1" -v k="$2" -v n="$3" '$1 == d && $3 == k && $4 == n { print $5 }' /tmp/nl.dump; }
nl_dump() { nltest dump >/tmp/nl.dump; }
iosched() { echo "$3" >"/sys/block/$1/queue/iosched/$2"; }

monitor_start() {
	rm -f /tmp/mon.out
	nltest monitor "$1" 30 >/tmp/mon.out 2>&1 &
	mon_pid=$!
	i=0
	while ! grep -q '^# listening' /tmp/mon.out && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
monitor_check() {	# monitor_check EXPECTED-FILE DESC
	wait $mon_pid
	is "$?" 0 "$2: monitor saw every event"
	grep -v '^#' /tmp/mon.out >/tmp/mon.events
	if cmp -s "$1" /tmp/mon.events; then
		ok "$2: events in order"
	else
		not_ok "$2: events in order"
		diff "$1" /tmp/mon.events | sed 's/^/#   /'
	fi
}

# Start with no device on our schedulers (earlier tests may leave some).
for f in /sys/block/*/queue/scheduler; do
	case $(cat "$f") in *"[xdeadline]"* | *"[xbfq]"*) d=${f#/sys/block/}; sched_set "${d%%/*}" none ;; esac
done
modprobe -r xbfq 2>/dev/null
modprobe -r xdeadline 2>/dev/null
modprobe -r schedctl_nl 2>/dev/null
check "modprobe xbfq" modprobe xbfq
check "schedctl_nl loaded as a dependency" grep -q '^schedctl_nl ' /proc/modules
check "xbfq uses schedctl_nl" sh -c "grep '^schedctl_nl ' /proc/modules | grep -q xbfq"
check "empty dump succeeds" nl_dump
is "$(wc -l </tmp/nl.dump)" 0 "no device listed before xbfq is attached"

# Dump: scheduler, dev_t, knobs as sysfs, counters as debugfs.
dev=$(nullb_create xbnl submit_queues=2 size=64)
check "switch to xbfq" sched_set "$dev" xbfq
check "dump" nl_dump
is "$(awk '{ print $1 }' /tmp/nl.dump | sort -u)" "$dev" "dump lists exactly $dev"
is "$(awk -v d="$dev" '$1 == d && $3 == "dev" { print $2 " " $4 }' /tmp/nl.dump)" \
	"xbfq $(cat /sys/block/$dev/dev)" "scheduler xbfq and dev_t as in sysfs"
n=0
bad=
for f in /sys/block/$dev/queue/iosched/*; do
	n=$((n + 1))
	[ "$(nl "$dev" knob "${f##*/}")" = "$(cat "$f")" ] || bad="$bad ${f##*/}"
done
is "$bad" "" "every sysfs knob in the dump with its value"
is "$(grep -c " knob " /tmp/nl.dump)" "$n" "no knob in the dump that sysfs lacks"
is "$(nl "$dev" knob slice_idle)" 8 "slice_idle default 8"
is "$(nl "$dev" knob slice_idle_us)" 8000 "slice_idle_us default 8000"
cp "/sys/kernel/debug/block/$dev/sched/stats" /tmp/xb.stats
nl_dump
bad=
n=0
while read -r name val; do
	n=$((n + 1))
	[ "$(nl "$dev" counter "$name")" = "$val" ] || bad="$bad $name"
done </tmp/xb.stats
is "$bad" "" "every debugfs counter in the dump with its value"
is "$(grep -c " counter " /tmp/nl.dump)" "$n" "no counter in the dump that debugfs lacks"
is "$(grep -c " state " /tmp/nl.dump)" 0 "xbfq has no states"
nltest dump "$dev" >/tmp/nl.get
check "GET of one device equals its dump" cmp /tmp/nl.get /tmp/nl.dump

# Counters against fio: psync, one I/O at a time, so nothing merges.
for c in inserted dispatched completed dispatched_be completed_be; do
	eval "b_$c=$(nl "$dev" counter $c)"
done
check "fio: 1024 random 4k I/Os, direct, read/write mix" \
	fio_run --name=nl --filename="/dev/$dev" --rw=randrw --bs=4k --direct=1 \
	--ioengine=psync --size=4m --randseed=42
set -- $(sed -n 's/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p' /tmp/fio.out)
r=${1:-0}
w=${2:-0}
diag "fio issued $r reads, $w writes"
is "$((r + w))" 1024 "fio issued 1024 I/Os"
nl_dump
for c in inserted dispatched completed dispatched_be completed_be; do
	eval "b=\$b_$c"
	is "$(($(nl "$dev" counter $c) - b))" "$((r + w))" "$c moved by fio's I/O count"
done
is "$(nl "$dev" counter in_flight)" 0 "nothing in flight"
is "$(nl "$dev" counter queued)" 0 "nothing queued"
is "$(nl "$dev" counter dispatched)" "$(xd_stat "$dev" dispatched)" "netlink and debugfs agree"
cmp_ok "$(nl "$dev" counter queues_created)" -ge 1 "queues_created counts fio's queue"
if [ -x /usr/sbin/schedctl ]; then
	/usr/sbin/schedctl stats "$dev" >/tmp/st.out 2>&1
	is "$?" 0 "schedctl stats $dev succeeds"
	check "schedctl stats lists xbfq's dispatched" grep -q dispatched /tmp/st.out
fi

# Events: attach, knob writes from sysfs and netlink, detach.
sched_set "$dev" none
monitor_start 6
check "attach xbfq" sched_set "$dev" xbfq
check "sysfs: slice_idle 8 -> 4" iosched "$dev" slice_idle 4
is "$(knob "$dev" slice_idle_us)" 4000 "slice_idle_us follows slice_idle"
check "sysfs: slice_idle 4 again (no event)" iosched "$dev" slice_idle 4
check_fails "sysfs: wr_coeff 1 refused (no event)" iosched "$dev" wr_coeff 1
check_fails "sysfs: low_latency -1 refused (no event)" iosched "$dev" low_latency -1
check_fails "sysfs: slice_idle 3600001 refused (no event)" iosched "$dev" slice_idle 3600001
check "sysfs: slice_idle_us 4000 -> 2500" iosched "$dev" slice_idle_us 2500
is "$(knob "$dev" slice_idle)" 2 "slice_idle follows slice_idle_us (rounded down)"
check "netlink: low_latency 1 -> 0" nltest change "$dev" low_latency 0
is "$(knob "$dev" low_latency)" 0 "netlink change visible in sysfs"
check_fails "netlink: wr_coeff 101 refused (no event)" nltest change "$dev" wr_coeff 101
check_fails "netlink: timeout_sync 0 refused (no event)" nltest change "$dev" timeout_sync 0
check "netlink: dispatch_batch 1 -> 256" nltest change "$dev" dispatch_batch 256
check_fails "netlink: dispatch_batch 257 refused (no event)" nltest change "$dev" dispatch_batch 257
check "detach xbfq" sched_set "$dev" none
cat >/tmp/mon.want <<EOT
attach $dev xbfq
knob $dev xbfq slice_idle 8 4
knob $dev xbfq slice_idle_us 4000 2500
knob $dev xbfq low_latency 1 0
knob $dev xbfq dispatch_batch 1 256
detach $dev xbfq
EOT
monitor_check /tmp/mon.want "knobs"

# A switch between xbfq and xdeadline: detach of one, attach of the other.
modprobe xdeadline
sched_set "$dev" xbfq
monitor_start 2
check "xbfq -> xdeadline" sched_set "$dev" xdeadline
printf 'detach %s xbfq\nattach %s xdeadline\n' "$dev" "$dev" >/tmp/mon.want
monitor_check /tmp/mon.want "switch"

# Device removal with xbfq attached: detach.
sched_set "$dev" xbfq
monitor_start 1
nullb_remove xbnl
printf 'detach %s xbfq\n' "$dev" >/tmp/mon.want
monitor_check /tmp/mon.want "removal"
nl_dump
is "$(wc -l </tmp/nl.dump)" 0 "a removed device leaves the dump"
# xdeadline first (rmmod: schedctl_nl is still used by xbfq), then xbfq
# with its dependency.
check "unload xdeadline" rmmod xdeadline
check "unload xbfq and schedctl_nl" modprobe -r xbfq
check_fails "schedctl_nl unloaded with xbfq" grep -q '^schedctl_nl ' /proc/modules
done_testing
