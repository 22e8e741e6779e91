# SPDX-License-Identifier: GPL-2.0
# The peak rate estimate (docs/xbfq.md, "Budgets"): from the slots that
# a queue ended by its budget or its timeout; a seeky queue's slot may
# raise it, not lower it, nor make the first estimate.  On a new xbfq
# instance without raising (low_latency=0, so slots end by the 125 ms
# timeout), a random reader of 4 KiB at QD 4 on a device that serves each
# read in 1 ms (scaled with xd.devtime): its slots end by timeout or
# budget (asserted, so that samples were taken) and leave no estimate:
# peak_rate 0, auto_max_budget still 16384.  Before the rule its first
# slot made the estimate (a random reader's slot in a run of
# 50-xbfq-writeback: 378 sectors/s, a budget of 128 sectors for every
# queue), and a stream's slots, that short, then ended within 20 ms, too
# soon to be samples: the sequential reader after it read 325,674
# sectors/s with the estimate stuck at the random reader's 22,021 and
# the budget at 2752.  Then a sequential reader of 64 KiB: its slots
# make the estimate, at least half the rate it read at.  Last, on a new
# instance, 4 KiB then 512 KiB sequential reads (below).
# Beside it the raising time's rate (wr_rate, BFQ's estimator): it
# starts at two thirds of the reference rate (335,693 sectors/s here)
# and the random reader, slower than that and seeky, leaves it there.
# On the new instance the 512 KiB reader's windows move it at least a
# quarter of the way from where the 4 KiB reader left it to the rate it
# reads at, or within an eighth of that rate (the 64 KiB reader's rate
# is too near the start to tell: 320,000-370,000 sectors/s under TCG).
. /tests/lib.sh

dev=$(nullb_create xbpr submit_queues=1 size=1024 irqmode=2 \
	completion_nsec="$(devtime 1000000)" hw_queue_depth=8)
Q=/sys/block/$dev/queue/iosched
check "switch to xbfq" sched_set "$dev" xbfq
echo 0 >"$Q/low_latency"
is "$(xd_stat "$dev" peak_rate)" 0 "a new instance: no estimate"

# reader RW BS: one reader at QD 4 for 3 s; prints the sectors it read
# per second
reader() {
	local r0 r1
	r0=$(awk '{ print $3 }' "/sys/block/$dev/stat")
	fio --name=r --filename="/dev/$dev" --rw="$1" --bs="$2" --direct=1 \
		--ioengine=io_uring --iodepth=4 --size=1g --time_based \
		--runtime=3 >/dev/null 2>&1
	r1=$(awk '{ print $3 }' "/sys/block/$dev/stat")
	echo $(((r1 - r0) / 3))
}

ended() { echo $(($(xd_stat "$dev" expired_budget) + $(xd_stat "$dev" expired_timeout))); }
e0=$(ended)
rrate=$(reader randread 4k)
e1=$(ended)
diag "random reader: $rrate sectors/s; slots ended by budget or timeout: $((e1 - e0));" \
	"peak_rate $(xd_stat "$dev" peak_rate), auto_max_budget $(xd_stat "$dev" auto_max_budget)"
cmp_ok "$((e1 - e0))" -gt 0 "random reader: slots ended by budget or timeout (samples taken)"
is "$(xd_stat "$dev" peak_rate)" 0 "random reader: no estimate from seeky slots"
is "$(xd_stat "$dev" auto_max_budget)" 16384 "random reader: the automatic budget stays at its default"
is "$(xd_stat "$dev" wr_rate)" 335693 "random reader: the raising time's rate stays at its start"

srate=$(reader read 64k)
e2=$(ended)
peak=$(xd_stat "$dev" peak_rate)
diag "sequential reader: $srate sectors/s; slots ended by budget or timeout: $((e2 - e1));" \
	"peak_rate $peak, auto_max_budget $(xd_stat "$dev" auto_max_budget)"
cmp_ok "$((peak * 2))" -ge "$srate" "sequential reader: an estimate, at least half its rate ($peak, $srate sectors/s)"
cmp_ok "$(xd_stat "$dev" auto_max_budget)" -gt 128 "sequential reader: the automatic budget above its floor"

# A low estimate from small requests is corrected by larger ones: on a new
# instance a sequential reader of 4 KiB makes an estimate the device beats
# many times over, then a reader of 512 KiB ends every slot by the
# budget that estimate gives within 20 ms.  Such slots are timed together
# to the completion of their requests (rate_windows): the estimate must
# reach half the rate that reader reads at.  Before, it stayed near the
# first (7.2: 135,006 sectors/s against 1,105,920 read).
check "a new instance" sched_set "$dev" none
check "switch to xbfq" sched_set "$dev" xbfq
echo 0 >"$Q/low_latency"
small=$(reader read 4k)
peak=$(xd_stat "$dev" peak_rate)
diag "4 KiB reader: $small sectors/s; peak_rate $peak, auto_max_budget $(xd_stat "$dev" auto_max_budget)"
cmp_ok "$peak" -gt 0 "4 KiB reader: an estimate"
w4=$(xd_stat "$dev" wr_rate)
big=$(reader read 512k)
w512=$(xd_stat "$dev" wr_rate)
d0=$((w4 - big)) d1=$((w512 - big))
diag "the raising time's rate: $w4 after the 4 KiB reader, $w512 after the 512 KiB reader"
# (two or three windows of 1 s, each moving it a half to a quarter of the
# way: 6.1 saw 75,554 then 744,188 with the reader at 1,274,880, 0.44 of
# the way left; or within an eighth of its rate, where the 4 KiB reader
# left it near: the debug kernel, 198,180 then 164,218, the reader at
# 153,941)
near=0
[ $((4 * ${d1#-})) -le $((3 * ${d0#-})) ] || [ $((8 * ${d1#-})) -le "$big" ] || near=1
is "$near" 0 "512 KiB reader: the raising time's rate at least a quarter of the way to its rate, or within an eighth of it ($w4, then $w512; $big sectors/s)"
peak=$(xd_stat "$dev" peak_rate)
diag "512 KiB reader: $big sectors/s; peak_rate $peak, auto_max_budget $(xd_stat "$dev" auto_max_budget)," \
	"rate_windows $(xd_stat "$dev" rate_windows)"
cmp_ok "$((peak * 2))" -ge "$big" "512 KiB reader: the estimate reaches half its rate ($peak, $big sectors/s)"
cmp_ok "$(xd_stat "$dev" rate_windows)" -gt 0 "512 KiB reader: short slots timed together (rate_windows)"
check "the device went idle" dev_idle "$dev"
sched_balanced "$dev" xbfq
check "switch away" sched_set "$dev" none
nullb_remove xbpr
done_testing
