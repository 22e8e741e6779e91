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
	fifo_expire_sync=125 fifo_expire_async=250 congestion_threshold=75; do
	is "$(cat "$K/${kv%%=*}" 2>/dev/null)" "${kv#*=}" "default ${kv%%=*}"
done
# Invalid values are refused and keep the old value.
for kb in slice_idle=-1 low_latency=2 timeout_sync=0 strict_guarantees=x \
	back_seek_penalty=0 dispatch_batch=0 dispatch_batch=257 wr_coeff=1 \
	congestion_threshold=101 congestion_threshold=-1 \
	max_budget=-5 fifo_expire_sync=abc; do
	old=$(cat "$K/${kb%%=*}")
	check_fails "${kb%%=*} refuses '${kb#*=}'" sh -c "echo '${kb#*=}' > $K/${kb%%=*}"
	is "$(cat "$K/${kb%%=*}")" "$old" "${kb%%=*} kept its value"
done
echo 3 >"$K/slice_idle"
is "$(cat "$K/slice_idle_us")" 3000 "slice_idle and slice_idle_us agree"
echo 8 >"$K/slice_idle"

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
	injection=1 max_budget=0 congestion_threshold=0" 16k \
	"engaged" \
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
integrity_balance "$dev"
is "$(xd_stat "$dev" queued)" 0 "nothing left queued"
cmp_ok "$(xd_stat "$dev" completed_rt)" -gt 0 "RT requests served"
cmp_ok "$(xd_stat "$dev" completed_idle)" -gt 0 "IDLE requests served"
cmp_ok "$(xd_stat "$dev" queues_created)" -ge 4 "one queue per process"
check "back to none" sched_set "$dev" none
nullb_remove xbint
done_testing
