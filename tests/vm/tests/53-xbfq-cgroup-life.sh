# SPDX-License-Identifier: GPL-2.0
# xbfq's groups torn down under load (docs/design/xbfq-cgroups.md, §6
# test 4): what the kernel log judge and, on the debug kernel, lockdep,
# KASAN and kmemleak must see pass without a report, and what the
# scheduler's own counters must show afterwards (no group or queue left
# over, nothing queued or in flight).
#  1. A cgroup removed right after its processes were killed with
#     requests queued: direct reads and writes at QD 16 and a buffered
#     writer whose dirty pages outlive the cgroup (their writeback comes
#     after the group went offline), in a loop.
#     Meanwhile netlink dumps the device's groups (GET_GROUPS); then
#     40 more cgroups' groups, more than one dump round, against debugfs.
#  2. The elevator switched xbfq -> none -> xbfq -> mq-deadline ... while
#     writers in two weighted cgroups verify their data.
#  3. The disk removed while a cgroup's requests are queued on it: its
#     processes, killed, exit (no request stranded).
#  4. xbfq unloaded, with every disk switched away, while cgroups with
#     weights exist; loaded again, a cgroup's group comes back with the
#     default weight.
. /tests/lib.sh

T=$CG/xbcl
PIDS=
cg_setup
[ "$(cat /sys/module/xbfq/parameters/cgroups 2>/dev/null)" = Y ] ||
	{ modprobe xbfq; [ "$(cat /sys/module/xbfq/parameters/cgroups 2>/dev/null)" = Y ]; } ||
	cg_skip "xbfq runs without groups"

cleanup() {
	local p g
	[ -d "$T" ] || return 0
	for g in "$T"/*/; do
		[ -d "$g" ] || continue
		echo 1 >"$g/cgroup.kill"
	done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	PIDS=
	for g in "$T"/*/; do
		[ -d "$g" ] || continue
		rmdir_wait "$g" || diag "cannot remove cgroup $g"
	done
	rmdir "$T" || diag "cannot remove cgroup xbcl"
}
finish() {
	cleanup
	cg_restore
}

# cgkill NAME: SIGKILL every process in cgroup NAME (fio's jobs are
# processes of their own), and reap the test's own.
cgkill() {
	local p
	echo 1 >"$T/$1/cgroup.kill"
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	PIDS=
}
# rmdir_wait DIR: remove cgroup DIR once its killed processes are gone
# (a cgroup with a task, even an exiting one, is busy), within 10 s.
rmdir_wait() {
	local i=0
	while ! rmdir "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 100 ] || return 1
		sleep 0.1
	done
}
# wait_stat DEV NAME VALUE: wait up to 20 s for a debugfs counter.
wait_stat() {
	local i=0
	while [ "$(xd_stat "$1" "$2")" != "$3" ]; do
		i=$((i + 1))
		[ $i -lt 200 ] || return 1
		sleep 0.1
	done
}
# ingroup NAME CMD...: CMD in the background in cgroup NAME below $T.
ingroup() {
	local g=$1
	shift
	sh -c "$CGRUN" "$T/$g" "$@" >/dev/null 2>&1 &
	PIDS="$PIDS $!"
}
# linked DEV NAME: cgroup NAME has a group on DEV (debugfs groups).
linked() {
	grep -q "^cgid $(stat -c %i "$T/$2") " "/sys/kernel/debug/block/$1/sched/groups"
}
# wait_linked DEV NAME: within 20 s.
wait_linked() {
	local i=0
	while ! linked "$1" "$2"; do
		i=$((i + 1))
		[ $i -lt 200 ] || return 1
		sleep 0.1
	done
}

# only_parent DESC: within 20 s, the device's groups are down to the
# parent's (the ancestor of every cgroup the test makes, linked with the
# first of them); what is left is printed on failure.
only_parent() {
	local G="/sys/kernel/debug/block/$dev/sched/groups"
	if wait_stat "$dev" groups 1 && grep -q "^cgid $(stat -c %i "$T") " "$G"; then
		ok "$1 (one group left, the parent's)"
	else
		not_ok "$1 (groups $(xd_stat "$dev" groups), want the parent's only)"
		sed 's/^/#   /' "$G" "/sys/kernel/debug/block/$dev/sched/queues"
	fi
}

# stale_queues: the lines of $dev's debugfs queues that nobody can use:
# of a process that exited, or in a group other than the root cgroup's
# and the parent's.  (Live tasks keep theirs: the writeback worker, say;
# the parent's group keeps its async queue for the removed cgroups'
# writeback, charged to the parent.)
stale_queues() {
	awk -v r="$(stat -c %i "$CG")" -v par="$(stat -c %i "$T")" "$XB_FIELD"'
		$1 == "pid" { g = field("cgid") + 0; print $2, (g == r || g == par), $0 }' \
		"/sys/kernel/debug/block/$dev/sched/queues" | while read -r pid kept line; do
		if [ "$kept" = 0 ] || { [ "$pid" != 0 ] && [ ! -d "/proc/$pid" ]; }; then
			echo "$line"
		fi
	done
}

check "create the test's parent cgroup" mkdir "$T"
check "enable io below it" sh -c "echo +io >$T/cgroup.subtree_control"
grep -qw memory "$T/cgroup.controllers" && echo +memory >"$T/cgroup.subtree_control"

# A device that keeps requests queued in the scheduler: four driver tags,
# each request held for 200 us (devtime) by a timer.
dev=$(nullb_create life submit_queues=2 size=256 memory_backed=1 irqmode=2 \
	completion_nsec="$(devtime 200000)" hw_queue_depth=4)
check "switch to xbfq" sched_set "$dev" xbfq

# --- 1. cgroups removed with requests queued ----------------------------------
rounds=$(scaled 24)
n=0 fails=0 unlinked=0
# Meanwhile, netlink dumps of the device's groups as they come and go.
(while :; do nltest groups "$dev" >/dev/null 2>&1; sleep 0.05; done) &
nlp=$!
while [ $n -lt "$rounds" ]; do
	g=r$n
	mkdir "$T/$g"
	ingroup "$g" fio --name=d --filename="/dev/$dev" --rw=randrw --bs=4k --direct=1 \
		--ioengine=io_uring --iodepth=16 --size=64m --offset=$(((n % 2) * 64))m \
		--time_based --runtime=60
	# Buffered: the page cache takes it, writeback follows later.
	ingroup "$g" dd if=/dev/zero of="/dev/$dev" bs=64k count=256 seek=$((2048 + n * 4))
	wait_linked "$dev" "$g" || unlinked=$((unlinked + 1))
	sleep 0.2
	cgkill "$g"
	rmdir_wait "$T/$g" || { fails=$((fails + 1)); diag "round $n: cannot remove $g"; }
	n=$((n + 1))
done
kill "$nlp"
wait "$nlp" 2>/dev/null
is "$unlinked" 0 "$rounds cgroups: each had a group on the device before it was removed"
is "$fails" 0 "$rounds cgroups removed right after their I/O was killed"
check "sync: the removed cgroups' dirty pages written back" sync
check "the device is idle afterwards" dev_idle "$dev"
only_parent "every removed cgroup's group freed"
i=0
while [ -n "$(stale_queues)" ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ -z "$(stale_queues)" ]; then
	ok "no queue left of an exited process or a removed cgroup"
else
	not_ok "no queue left of an exited process or a removed cgroup"
	stale_queues | sed 's/^/#   /'
fi

sched_balanced "$dev" xbfq
check "the device still serves I/O" dd if="/dev/$dev" of=/dev/null bs=4k count=64 iflag=direct

# --- 1b. more groups than netlink copies at once --------------------------------
# GET_GROUPS copies 16 groups per round: 40 cgroups take three.
G=/sys/kernel/debug/block/$dev/sched/groups
i=0
while [ $i -lt 40 ]; do
	mkdir "$T/m$i"
	sh -c "$CGRUN" "$T/m$i" dd if="/dev/$dev" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
	i=$((i + 1))
done
cmp_ok "$(wc -l <"$G")" -ge 42 "40 more cgroups linked (debugfs: $(wc -l <"$G") groups)"
check "netlink GET_GROUPS of them all" sh -c "nltest groups $dev >/tmp/many.nl"
is "$(awk '{ print $4, $5 }' /tmp/many.nl | md5sum)" "$(awk '{ print $2, $4 }' "$G" | md5sum)" \
	"netlink: debugfs's groups (cgroup id, weight), in order, $(wc -l </tmp/many.nl) of them"
i=0
while [ $i -lt 40 ]; do
	rmdir "$T/m$i" || diag "cannot remove m$i"
	i=$((i + 1))
done
only_parent "the 40 cgroups' groups freed"

# --- 2. elevator switches under weighted cgroup writers ------------------------
mkdir "$T/a" "$T/b"
echo 100 >"$T/a/io.xbfq.weight"
echo 400 >"$T/b/io.xbfq.weight"
i=0
for g in a b; do
	rm -f "/tmp/life-$g.out"
	ingroup "$g" fio --output="/tmp/life-$g.out" --name="$g" --filename="/dev/$dev" \
		--rw=randrw --bs=4k --direct=1 --ioengine=io_uring --iodepth=8 \
		--size=32m --offset=$((i * 32))m --verify=crc32c --verify_fatal=1 \
		--loops=1000 --time_based --runtime=300
	i=$((i + 1))
done
check "cgroup a's group linked" wait_linked "$dev" a
check "cgroup b's group linked" wait_linked "$dev" b
rounds=$(scaled 60)
n=0 fails=0 relinked=0
while [ $n -lt "$rounds" ]; do
	other=none
	[ $((n % 2)) = 0 ] || other=mq-deadline
	sched_set "$dev" "$other" || fails=$((fails + 1))
	sched_set "$dev" xbfq || fails=$((fails + 1))
	# Every fourth round, let the groups come back before leaving again.
	if [ $((n % 4)) = 3 ]; then
		wait_linked "$dev" a && wait_linked "$dev" b && relinked=$((relinked + 1))
	fi
	n=$((n + 1))
done
is "$fails" 0 "$rounds round trips xbfq -> none|mq-deadline -> xbfq, every switch accepted"
is "$relinked" $((rounds / 4)) "the groups came back after each checked switch to xbfq"
alive=0
for p in $PIDS; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
is "$alive" 2 "both writers still running (no hang)"
for p in $PIDS; do kill -INT "$p" 2>/dev/null; done
for p in $PIDS; do wait "$p" 2>/dev/null; done
PIDS=
for g in a b; do
	check "cgroup $g: fio saw no I/O or verify error" sh -c \
		"grep -q 'err= 0' /tmp/life-$g.out && ! grep -q 'verify: bad' /tmp/life-$g.out"
done
check "the device is idle afterwards" dev_idle "$dev"
sched_balanced "$dev" xbfq
check "cgroups a and b removed" rmdir "$T/a" "$T/b"
only_parent "their groups freed"
sched_set "$dev" none
nullb_remove life

# --- 3. the disk removed under a cgroup's I/O --------------------------------
dev=$(nullb_create lifegone submit_queues=1 size=256 irqmode=2 \
	completion_nsec="$(devtime 1000000)" hw_queue_depth=2)
check "a second device on xbfq" sched_set "$dev" xbfq
# Room for the requests to wait in xbfq (two per tag by default).
echo 64 >"/sys/block/$dev/queue/nr_requests"
mkdir "$T/g"
ingroup g fio --name=g --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
	--ioengine=io_uring --iodepth=32 --size=128m --time_based --runtime=60
check "the cgroup's group linked" wait_linked "$dev" g
sleep 0.3
cmp_ok "$(xd_stat "$dev" queued)" -gt 0 "requests of the cgroup queued in xbfq"
check "the disk removed with the cgroup's requests queued" nullb_remove lifegone
# fio goes on after the removal (its errors end no job, under any
# scheduler); killed, its processes must exit: none waits for a request
# the scheduler stranded.
cgkill g
check "the cgroup's processes exited when killed, its cgroup removed" rmdir_wait "$T/g"

# --- 4. unload with cgroups and weights, load again ---------------------------
dev=$(nullb_create lifemod submit_queues=1 size=64 memory_backed=1)
check "a third device on xbfq" sched_set "$dev" xbfq
mkdir "$T/w"
check "a weight and a device override set" sh -c \
	"echo 700 >$T/w/io.xbfq.weight && echo '$(cat "/sys/block/$dev/dev") 20' >$T/w/io.xbfq.weight"
check "I/O from the weighted cgroup" sh -c "$CGRUN" "$T/w" \
	dd if="/dev/$dev" of=/dev/null bs=64k count=16 iflag=direct
check "its group linked with the override's weight" \
	grep -q "^cgid $(stat -c %i "$T/w") weight 20 " "/sys/kernel/debug/block/$dev/sched/groups"
for d in /sys/block/*; do
	[ "$(sched_current "${d##*/}")" = xbfq ] && sched_set "${d##*/}" none
done
check "xbfq unloaded while cgroups with weights exist" rmmod xbfq
check_fails "no io.xbfq.weight without xbfq.ko" test -e "$T/w/io.xbfq.weight"
check "xbfq loaded again" modprobe xbfq
is "$(cat "$T/w/io.xbfq.weight")" "default 100" "the weights went with the module"
check "back to xbfq" sched_set "$dev" xbfq
check "I/O from the cgroup again" sh -c "$CGRUN" "$T/w" \
	dd if="/dev/$dev" of=/dev/null bs=64k count=16 iflag=direct
check "its group linked with the default weight" \
	grep -q "^cgid $(stat -c %i "$T/w") weight 100 " "/sys/kernel/debug/block/$dev/sched/groups"
sched_set "$dev" none
nullb_remove lifemod

finish
check "the test's cgroups are gone" test ! -d "$T"
done_testing
