# SPDX-License-Identifier: GPL-2.0
# Cross-group injection (docs/xbfq.md "Control groups"): cgroups a and b,
# equal weights, one random reader at QD 1 in each, on a device that
# serves up to 8 requests at once, each in 1 ms (scaled with xd.devtime).
# Another group being active, xbfq waits for the group in service between
# its reads: without injection the device serves one read at a time;
# with it, the other group's reads go into the driver tags the served
# group leaves free (into an empty device too, while a tag stays free for
# the served group's next read).  Four rounds, injection off and on in
# turn.  Asserted: with injection on, reads injected across groups
# (injected_groups) and at least 1.3 times the reads of the rounds with
# it off, both groups within 2:1 of each other; with it off, no such
# injection.  Then two rounds with a thinking 3 ms after each read:
# with injection on, b's reads go into a's think time (injected_empty),
# and a keeps at least 0.9x its reads (think time and slice_idle scaled
# with the device's service time, xd.devtime).  b's gain is measured, not
# asserted (docs/benchmarks.md: 3-4x, but 1.1x in one 6.12 boot whose
# guest waited for a far less often).
. /tests/lib.sh

T=$CG/xbinj
cg_setup

dev=$(nullb_create xbinj submit_queues=1 size=1024 irqmode=2 \
	completion_nsec="$(devtime 1000000)" hw_queue_depth=8)
Q=/sys/block/$dev/queue/iosched
check "switch to xbfq" sched_set "$dev" xbfq
# Weights exact (as 52-xbfq-cgroup): no raising of the new queues.
echo 0 >"$Q/low_latency"
# Where devtime stretches the device, the idle window and the thinking
# reader's think time stretch with it (50-xbfq-fair): with an 8 ms read
# and a 3 ms think (the debug kernel), b's injected read was still in
# flight whenever a thought, and the device was never empty (a CI round
# saw injected_empty +0).
iosched_devtime "$dev" slice_idle_us
THINK=$(devtime 3000)
check "create the test's parent cgroup" mkdir "$T"
check "enable io below it" sh -c "echo +io >$T/cgroup.subtree_control"
mkdir "$T/a" "$T/b"

SECS=3
# round INJ [THINK]: both readers for $SECS s with injection=INJ, a's
# thinking THINK us after each read (default none); sets RA and RB (each
# group's reads per second, fio's), KI (injected_groups added) and KE
# (injected_empty added).
round() {
	local g k0 e0 think
	echo "$1" >"$Q/injection"
	k0=$(xd_stat "$dev" injected_groups)
	e0=$(xd_stat "$dev" injected_empty)
	for g in a b; do
		think=0
		[ "$g" = a ] && think=${2:-0}
		sh -c "$CGRUN" "$T/$g" fio --output="/tmp/inj.$g" \
			--output-format=terse --terse-version=3 --name="$g" \
			--filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
			--ioengine=psync --time_based --runtime=$SECS \
			--thinktime="$think" >/dev/null 2>&1 &
	done
	wait
	RA=$(awk -F';' '{ print $8 + 0 }' /tmp/inj.a)
	RB=$(awk -F';' '{ print $8 + 0 }' /tmp/inj.b)
	KI=$(($(xd_stat "$dev" injected_groups) - k0))
	KE=$(($(xd_stat "$dev" injected_empty) - e0))
	diag "injection=$1 think=${2:-0}: a $RA, b $RB reads/s;" \
		"injected_groups +$KI, injected_empty +$KE;" \
		"$(grep -E '^(injected|inject_refused|idle_armed|expired_idle|expired_timeout) ' \
			"/sys/kernel/debug/block/$dev/sched/stats" | tr '\n' ' ')"
}

off=0 on=0 kion=0 kioff=0 ok_split=1 ok_off=1
for r in 1 2; do
	round 0
	off=$((off + RA + RB))
	kioff=$((kioff + KI))
	[ "$RA" -gt 0 ] && [ "$RB" -gt 0 ] || ok_off=0
	round 1
	on=$((on + RA + RB))
	kion=$((kion + KI))
	# Equal weights: neither group under half the other's reads.
	[ $((RA * 2)) -ge "$RB" ] && [ $((RB * 2)) -ge "$RA" ] || ok_split=0
done
diag "reads/s, two rounds summed: injection off $off, on $on"

# a thinks 3 ms (scaled) after each read (under slice_idle, so it is
# waited for): the device is empty while it thinks, and b's reads go into
# that time (injected_empty), with a driver tag left for a's next.
round 0 "$THINK"
toff=$RB aoff=$RA keoff=$KE
round 1 "$THINK"
ton=$RB aon=$RA kethink=$KE
diag "beside a thinking: b's reads/s injection off $toff, on $ton; a's off $aoff, on $aon"
is "$kioff" 0 "injection off: nothing injected across groups"
cmp_ok "$kion" -gt 0 "injection on: reads injected across groups (injected_groups)"
cmp_ok "$((on * 10))" -ge "$((off * 13))" "injection on: at least 1.3x the reads of injection off"
is "$ok_split" 1 "injection on: each group at least half the other's reads (equal weights)"
is "$ok_off" 1 "injection off: both readers read in every round"
cmp_ok "$kethink" -gt 0 "a thinking: b's reads injected into the empty device (injected_empty)"
is "$keoff" 0 "a thinking, injection off: nothing injected into the empty device"
cmp_ok "$((aon * 10))" -ge "$((aoff * 9))" "a thinking: a, the group waited for, reads at least 0.9x with injection on"
check "the device went idle" dev_idle "$dev"
sched_balanced "$dev" xbfq
check "switch away" sched_set "$dev" none
nullb_remove xbinj
cg_teardown a b
done_testing
