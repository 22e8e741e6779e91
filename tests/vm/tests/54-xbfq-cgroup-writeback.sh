# SPDX-License-Identifier: GPL-2.0
# Writeback shares between weighted cgroups (docs/xbfq.md "Control
# groups"), beside bfq: cgroups a and b, io weights 100 and 400, each
# floods its own partition of one slow disk with buffered writes whose
# writeback each writer starts itself (sync_file_range(WRITE): async
# bios, tagged with the writer's cgroup on every kernel; a partition of
# its own gives each writer a block-device inode of its own, which
# cgroup writeback would otherwise give one owner).  The disk (memory
# backed, to keep the partition table) serves one request of at most
# 64 KiB at a time in 4 ms, slower than the writers can fill it even on
# a loaded host; 64 scheduler tags.  Measured between 2 s and the end
# of a run of at least 8 s: each cgroup's written bytes (io.stat
# wbytes, the kernel's own count), and for xbfq each group's served sectors
# (debugfs), summed over two rounds.  Asserted: under xbfq the writes
# reach both groups, both make progress, io.stat and the groups agree,
# the tag limits acted (group_limited) and, where the memory controller
# gives each cgroup its own writeback (below), the split is the weights'
# within -37%/+50% (2.5 to 6; measured 3.5-4.9 a round on every kernel,
# bfq 1.0-3.3), and writeback throttling is as under bfq while xbfq runs
# (the default's off) and back to its default after.  Without the tag
# limits and with wbt on, xbfq split 1:1; with limits of one tag, as
# BFQ's, 0.3:1 to 30:1 (docs/xbfq.md "Control groups").  bfq's split
# asserts nothing of ours: its two rounds run with xd.reference=1 only
# (printed; make check selects bfq for its writeback throttling only).
. /tests/lib.sh

T=$CG/xbwb
cg_setup

dev=$(nullb_create xbwb submit_queues=1 size=256 memory_backed=1 irqmode=2 \
	completion_nsec="$(devtime 4000000)" hw_queue_depth=1)
MM=$(cat "/sys/block/$dev/dev")
check "requests of at most 64 KiB" sh -c "echo 64 >/sys/block/$dev/queue/max_sectors_kb"
# wbt_state: the default writeback throttling's latency and state
# ("2000/1": on by default; bfq turns it off while it runs).
wbt_state() {
	echo "$(cat "/sys/block/$dev/queue/wbt_lat_usec" 2>/dev/null)/$(cat \
		"/sys/kernel/debug/block/$dev/rqos/wbt/enabled" 2>/dev/null)"
}
# An MBR with two partitions of 100 MiB: p1 from sector 2048, p2 from
# sector 206848 (type 0x83; LBA start and length little-endian).
le32() {	# le32 N: N's 4 bytes, little-endian
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) \
		$(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"
}
mbr_entry() {	# mbr_entry START SECTORS: the 16 bytes of a partition entry
	printf '\0\0\0\0\203\0\0\0'
	le32 "$1"
	le32 "$2"
}
{
	head -c 446 /dev/zero
	mbr_entry 2048 204800
	mbr_entry 206848 204800
	head -c 32 /dev/zero
	printf '\125\252'
} >/tmp/wb.mbr
check "write an MBR with two partitions" dd if=/tmp/wb.mbr of="/dev/$dev" bs=512 count=1 conv=fsync
check "re-read the partition table" blockdev --rereadpt "/dev/$dev"
# part N: the name of partition N (nullb0p1, xbwb1: a "p" after a digit)
part() {
	local x
	for x in "/sys/block/$dev/$dev"*; do
		[ "$(cat "$x/partition" 2>/dev/null)" = "$1" ] && echo "${x##*/}"
	done
}
i=0
while { [ -z "$(part 2)" ] || [ ! -b "/dev/$(part 2)" ]; } && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
P1=$(part 1) P2=$(part 2)
check "both partitions are there" test -b "/dev/$P1" -a -b "/dev/$P2"
is "$(cat "/sys/block/$dev/$P2/size")" 204800 "the second has 204800 sectors"

mkdir "$T"
check "enable io below it" sh -c "echo +io >$T/cgroup.subtree_control"
# With the memory controller each cgroup's dirty pages have a writeback
# context (and a dirty limit) of their own.  Without it (the debug
# kernel: no CONFIG_MEMCG, so no cgroup writeback) both writers dirty
# pages against one limit, and once they reach it the kernel's dirty
# throttling, which slows every writer of the disk alike, can set their
# rates instead of the scheduler: there a CI run on 2026-12-06 split one
# round 1.16:1 (3.31-3.97 in the four runs before).  So the split is
# asserted where the memory controller is on (every Debian kernel) and
# printed where it is not.
memcg=0
grep -qw memory "$T/cgroup.controllers" && echo +memory >"$T/cgroup.subtree_control" && memcg=1
mkdir "$T/a" "$T/b"
wbytes() { iostat "$1" "$MM" wbytes; }
served() { grp "$dev" "$1" served; }
secs=$(scaled 10)
[ "$secs" -ge 8 ] || secs=8

# flood SCHED: both writers for $secs; sets W_A, W_B (bytes written
# between 2 s and the end) and, under xbfq, S_A, S_B (sectors served
# from 2 s until the disk is idle again) and D_A, D_B (bytes written
# over the same span).  io.stat counts a bio when it is submitted, the
# groups' served sectors when the scheduler dispatches it, so at the
# end of the run what waits in the queue (up to 64 tags of 64 KiB) is
# in the first and not yet in the second: the two are compared once
# sync has waited for all of it, with served read before io.stat at
# 2 s (what waited then is served later, so served may exceed io.stat
# by up to that much).
flood() {
	local g p a0 b0 sa0 sb0
	for g in a b; do
		p=$P1
		[ $g = b ] && p=$P2
		sh -c "$CGRUN" "$T/$g" fio --output="/tmp/wb-$g.out" --output-format=terse \
			--terse-version=3 --name="$g" --filename="/dev/$p" --rw=write \
			--bs=64k --size=96m --ioengine=psync --direct=0 \
			--sync_file_range=write:1 --time_based --runtime="$secs" \
			>"/tmp/wb-$g.err" 2>&1 &
	done
	sleep 2
	if [ "$1" = xbfq ]; then
		sa0=$(served a) sb0=$(served b)
	fi
	a0=$(wbytes a) b0=$(wbytes b)
	if [ "$1" = xbfq ] && [ "$2" = 1 ]; then
		# What each group's async queue holds mid-run.
		sleep 2
		diag "xbfq, 4 s in: $(tr '\n' '|' <"/sys/kernel/debug/block/$dev/sched/groups")"
		grep ' async ' "/sys/kernel/debug/block/$dev/sched/queues" | sed 's/^/#   /'
	fi
	wait
	W_A=$(($(wbytes a) - a0)) W_B=$(($(wbytes b) - b0))
	for g in a b; do
		[ -s "/tmp/wb-$g.out" ] || { diag "$1: fio $g failed"; sed 's/^/#   /' "/tmp/wb-$g.err"; }
	done
	sync
	if [ "$1" = xbfq ]; then
		S_A=$(($(served a) - sa0)) S_B=$(($(served b) - sb0))
		D_A=$(($(wbytes a) - a0)) D_B=$(($(wbytes b) - b0))
	fi
}
# served_covers GROUP SECTORS BYTES: a group's served sectors against its
# io.stat bytes (flood): at least as many (1% for the reads' skew), and
# at most what can wait at 2 s more (65 requests of 64 KiB a round).
served_covers() {
	cmp_ok "$(($2 * 512 * 100))" -ge "$(($3 * 99))" \
		"xbfq: group $1's served sectors cover its io.stat bytes"
	cmp_ok "$(($2 * 512))" -le "$(($3 + 2 * 65 * 65536))" \
		"xbfq: group $1's served sectors: at most 2 x 65 requests more than io.stat"
}
# ratio X Y: X / Y with two decimals ("-" if Y is 0)
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.2f", x / y; else print "-" }'; }

check "switch to none" sched_set "$dev" none
wbt0=$(wbt_state)
check "bfq available" modprobe bfq
for s in bfq xbfq; do
	check "$s: select" sched_set "$dev" "$s"
	echo 64 >"/sys/block/$dev/queue/nr_requests"
	eval "wbt_$s=\$(wbt_state)"
	if [ $s = xbfq ]; then
		diag "wbt latency/state: none $wbt0, bfq $wbt_bfq, xbfq $wbt_xbfq"
		[ "$wbt0" = / ] || {
			is "$wbt_xbfq" "$wbt_bfq" "xbfq: writeback throttling as under bfq"
			isnt "$wbt_xbfq" "$wbt0" "xbfq: not as under none"
		}
	fi
	[ $s = xbfq ] || [ "$XD_REFERENCE" != 0 ] || continue
	[ $s = xbfq ] && lim0=$(xd_stat "$dev" group_limited)
	if [ $s = xbfq ]; then f=io.xbfq.weight; else f=io.bfq.weight; fi
	if [ ! -e "$T/a/$f" ]; then
		diag "SKIP $s: no $f"
		continue
	fi
	echo 100 >"$T/a/$f" && echo 400 >"$T/b/$f"
	TA=0 TB=0 TSA=0 TSB=0 TDA=0 TDB=0 rr=
	for r in 1 2; do
		flood $s $r
		TA=$((TA + W_A)) TB=$((TB + W_B))
		[ $s = xbfq ] && TSA=$((TSA + S_A)) TSB=$((TSB + S_B)) \
			TDA=$((TDA + D_A)) TDB=$((TDB + D_B))
		rr="$rr $(ratio "$W_B" "$W_A")"
	done
	W_A=$TA W_B=$TB S_A=$TSA S_B=$TSB D_A=$TDA D_B=$TDB
	diag "$s: a (100) wrote $((W_A / 1048576)) MiB, b (400) $((W_B / 1048576)) MiB from 2 s to ${secs} s of two rounds: b/a $(ratio "$W_B" "$W_A") (rounds:$rr)"
	eval "${s}_ratio=$(ratio "$W_B" "$W_A")"
	cmp_ok "$W_A" -gt 0 "$s: cgroup a's writes reached the disk"
	cmp_ok "$W_B" -gt 0 "$s: cgroup b's writes reached the disk"
	if [ $s = xbfq ]; then
		diag "xbfq: groups served a $S_A, b $S_B sectors from 2 s to idle, io.stat a $D_A, b $D_B bytes; $(grep -E '^(groups|group_limited|depth_async|expired_budget|expired_timeout|expired_empty|expired_idle|idle_armed|injected) ' \
			"/sys/kernel/debug/block/$dev/sched/stats" | tr '\n' ' ')"
		grep ' async ' "/sys/kernel/debug/block/$dev/sched/queues" | sed 's/^/# /'
		cmp_ok "$S_A" -gt 0 "xbfq: charged to a's group"
		cmp_ok "$S_B" -gt 0 "xbfq: charged to b's group"
		served_covers a "$S_A" "$D_A"
		served_covers b "$S_B" "$D_B"
		cmp_ok "$(xd_stat "$dev" group_limited)" -gt "$lim0" \
			"xbfq: the groups' tag limits held a writer to one tag"
		if [ $memcg = 1 ]; then
			cmp_ok "$((2 * W_B))" -ge "$((5 * W_A))" \
				"xbfq: the heavier cgroup wrote at least 2.5 times as much"
			cmp_ok "$W_B" -le "$((6 * W_A))" \
				"xbfq: and at most 6 times as much"
		else
			diag "xbfq: the split is not asserted: no memory controller, so no cgroup writeback"
		fi
	fi
done
diag "writeback split b/a at weights 400:100: bfq ${bfq_ratio:--}, xbfq ${xbfq_ratio:--}"
check "switch away" sched_set "$dev" none
is "$(wbt_state)" "$wbt0" "writeback throttling back to its default after xbfq"
cg_teardown a b
nullb_remove xbwb
done_testing
