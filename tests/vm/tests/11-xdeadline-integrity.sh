# SPDX-License-Identifier: GPL-2.0
# Data integrity: fio writes with checksums and verifies them under every
# knob setting, random and sequential (merging) patterns; the counters must
# balance afterwards.  local_dispatch (parking on the submitting CPU) runs
# alone and with the other paths engaged.  congestion_threshold=0 keeps the scalability paths
# engaged (this 2-vCPU guest rarely congests the lock); "adaptive" runs
# with the default, where they engage only under congestion.
. /tests/lib.sh

dev=$(nullb_create integ submit_queues=2 size=128 memory_backed=1 hw_queue_depth=16)
check "switch to xdeadline" sched_set "$dev" xdeadline
verify() { integrity_verify "$dev" "$1" "$2" "$3" 16m; }
integrity_settings "$dev" "serialize_dispatch=1 defer_insert=1 merge_skip=1 \
	dispatch_batch=8 nr_sched_batch=0 head_request=0 fifo_batch=16 \
	congestion_threshold=0 local_dispatch=0" 4k \
	"engaged" \
	"adaptive congestion_threshold=75" \
	"unserialized serialize_dispatch=0 defer_insert=0 merge_skip=0 dispatch_batch=1" \
	"round-of-1 nr_sched_batch=1" \
	"c-look head_request=1 fifo_batch=1" \
	"big-batches dispatch_batch=64 nr_sched_batch=3" \
	"local local_dispatch=1 congestion_threshold=75" \
	"local-engaged local_dispatch=1"

integrity_balance "$dev"
cmp_ok "$(xd_stat "$dev" nr_sched_batch_cuts)" -gt 0 "nr_sched_batch ended rounds"
cmp_ok "$(xd_stat "$dev" local_dispatched)" -gt 0 "local_dispatch: parked requests handed out by their CPU"
is "$(xd_stat "$dev" parked)" 0 "local_dispatch: nothing left parked"

# congestion_threshold=100: the scalability paths never engage, whatever
# the lock sees; 0: always engaged.
check "fresh xdeadline" sh -c "echo none > /sys/block/$dev/queue/scheduler && echo xdeadline > /sys/block/$dev/queue/scheduler"
echo 100 >"/sys/block/$dev/queue/iosched/congestion_threshold"
verify "never-engaged" randwrite 4k
is "$(xd_stat "$dev" congested)" 0 "threshold 100: not congested"
cmp_ok "$(xd_stat "$dev" congestion_pct)" -le 100 "congestion_pct is a percentage"
for c in deferred ready_dispatched dispatch_skipped; do
	is "$(xd_stat "$dev" $c)" 0 "threshold 100: $c stays 0"
done
echo 0 >"/sys/block/$dev/queue/iosched/congestion_threshold"
is "$(xd_stat "$dev" congested)" 1 "threshold 0: engaged"
check "back to none" sched_set "$dev" none
nullb_remove integ
done_testing
