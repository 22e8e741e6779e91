# SPDX-License-Identifier: GPL-2.0
# Data integrity under xbfq: fio writes with checksums and verifies them
# under several knob settings, with mixed priorities; the counters must
# balance afterwards.  Also the knobs: names, defaults, validation.
. /tests/lib.sh

dev=$(nullb_create xbint submit_queues=2 size=128 memory_backed=1 hw_queue_depth=16)
check "switch to xbfq" sched_set "$dev" xbfq
K=/sys/block/$dev/queue/iosched

# BFQ-compatible defaults.
for kv in slice_idle=8 slice_idle_us=8000 low_latency=1 timeout_sync=125 \
	max_budget=0 strict_guarantees=0 back_seek_max=16384 back_seek_penalty=2 \
	fifo_expire_sync=125 fifo_expire_async=250 congestion_threshold=75 \
	wr_max_time=0 local_dispatch=1; do
	is "$(cat "$K/${kv%%=*}" 2>/dev/null)" "${kv#*=}" "default ${kv%%=*}"
done
# Invalid values are refused and keep the old value.
for kb in slice_idle=-1 low_latency=2 timeout_sync=0 strict_guarantees=x \
	back_seek_penalty=0 dispatch_batch=0 dispatch_batch=257 wr_coeff=1 \
	congestion_threshold=101 congestion_threshold=-1 \
	max_budget=-5 fifo_expire_sync=abc local_dispatch=2; do
	old=$(cat "$K/${kb%%=*}")
	check_fails "${kb%%=*} refuses '${kb#*=}'" sh -c "echo '${kb#*=}' > $K/${kb%%=*}"
	is "$(cat "$K/${kb%%=*}")" "$old" "${kb%%=*} kept its value"
done
echo 3 >"$K/slice_idle"
is "$(cat "$K/slice_idle_us")" 3000 "slice_idle and slice_idle_us agree"
echo 8 >"$K/slice_idle"

# The raising time: with wr_max_time 0 (automatic, the default) a reference
# drive's time scaled by its rate over the device's rate as BFQ estimates
# it (wr_rate, not peak_rate), within 3-25 s; the estimate starts at two
# thirds of the reference rate: 2.5 s x 3/2 on a non-rotational device,
# 7 s x 3/2 on a rotational one.  wr_duration (ms) is the time in use; a
# wr_max_time other than 0 is the time.
# wr_auto_ms RATE: the expected automatic time on this (non-rotational)
# device
wr_auto_ms() {
	local t=$((503540 * 2500 / $1))
	[ $t -ge 3000 ] || t=3000
	[ $t -le 25000 ] || t=25000
	echo $t
}
is "$(xd_stat "$dev" peak_rate)" 0 "no peak rate measured yet"
is "$(xd_stat "$dev" wr_rate)" 335693 "the raising time's rate starts at two thirds of the reference (non-rotational)"
is "$(xd_stat "$dev" wr_duration)" 3750 "by default automatic, before a measurement: 3750 ms (non-rotational)"
echo 5000 >"$K/wr_max_time"
is "$(cat "$K/wr_max_time")" 5000 "wr_max_time 5000 taken"
is "$(xd_stat "$dev" wr_duration)" 5000 "wr_max_time 5000 is the raising time"
echo 0 >"$K/wr_max_time"
is "$(xd_stat "$dev" wr_duration)" 3750 "wr_max_time 0: automatic again"
check "switch to none" sched_set "$dev" none
echo 1 >"/sys/block/$dev/queue/rotational"
check "xbfq on the device marked rotational" sched_set "$dev" xbfq
is "$(xd_stat "$dev" wr_rate)" 142415 "the raising time's rate starts at two thirds of the reference (rotational)"
is "$(xd_stat "$dev" wr_duration)" 10500 "by default automatic, before a measurement: 10500 ms (rotational)"
is "$(cat "$K/local_dispatch")" 0 "local_dispatch off by default on a rotational device"
check "switch to none" sched_set "$dev" none
echo 0 >"/sys/block/$dev/queue/rotational"
check "back to xbfq" sched_set "$dev" xbfq
# The rest of the test runs with the automatic time (the default), to
# compare it with the peak rate measured meanwhile.

verify() {	# verify LABEL RW BS: with an RT and an IDLE job beside (all scaled)
	integrity_verify "$dev" "$1" "$2" "$3" 12m \
		--name=v2 --filename="/dev/$dev" --rw="$2" --bs="$3" --direct=1 \
		--ioengine=psync --offset=64m --size="$(scaled 8)m" --prioclass=1 \
		--verify=crc32c --verify_fatal=1 --do_verify=1 \
		--name=v3 --filename="/dev/$dev" --rw="$2" --bs="$3" --direct=1 \
		--ioengine=psync --offset=96m --size="$(scaled 4)m" --prioclass=3 \
		--verify=crc32c --verify_fatal=1 --do_verify=1
}
integrity_settings "$dev" "serialize_dispatch=1 defer_insert=1 merge_skip=1 \
	dispatch_batch=1 slice_idle=8 strict_guarantees=0 low_latency=1 \
	injection=1 max_budget=0 congestion_threshold=0 local_dispatch=1" 16k \
	"engaged" \
	"unparked local_dispatch=0" \
	"adaptive congestion_threshold=75" \
	"unserialized serialize_dispatch=0 defer_insert=0 merge_skip=0" \
	"batches dispatch_batch=16" \
	"strict strict_guarantees=1 low_latency=0" \
	"tiny-budgets max_budget=8 slice_idle=0 injection=0"

# Buffered writes go through the flusher's async queue.
check "buffered write and read back" sh -c "dd if=/dev/urandom of=/tmp/pat bs=64k count=32 2>/dev/null &&
	dd if=/tmp/pat of=/dev/$dev bs=64k seek=1000 2>/dev/null && sync &&
	echo 3 > /proc/sys/vm/drop_caches &&
	dd if=/dev/$dev of=/tmp/back bs=64k skip=1000 count=32 iflag=direct 2>/dev/null &&
	cmp /tmp/pat /tmp/back"

sed 's/^/# /' "/sys/kernel/debug/block/$dev/sched/stats"
rate=$(xd_stat "$dev" wr_rate)
is "$(xd_stat "$dev" wr_duration)" "$(wr_auto_ms "$rate")" \
	"wr_duration follows the raising time's rate ($rate sectors/s)"
diag "the raising time's rate $rate sectors/s, the peak rate $(xd_stat "$dev" peak_rate)"
integrity_balance "$dev"
is "$(xd_stat "$dev" queued)" 0 "nothing left queued"
cmp_ok "$(xd_stat "$dev" local_dispatched)" -gt 0 "local_dispatch: parked requests handed out by their CPU"
is "$(xd_stat "$dev" parked)" 0 "local_dispatch: nothing left parked"
cmp_ok "$(xd_stat "$dev" completed_rt)" -gt 0 "RT requests served"
cmp_ok "$(xd_stat "$dev" completed_idle)" -gt 0 "IDLE requests served"
cmp_ok "$(xd_stat "$dev" queues_created)" -ge 4 "one queue per process"
check "back to none" sched_set "$dev" none
nullb_remove xbint
done_testing
