# SPDX-License-Identifier: GPL-2.0
# The block_rq_insert tracepoint (blktrace's "I" events, perf's
# block:block_rq_insert): xdeadline and xbfq fire it for every request
# they take in, as mq-deadline does, parked and deferred ones included,
# so that blktrace shows insertions under them too.  Random reads from
# two CPUs with merging off (nomerges=2: two reads of adjacent blocks
# could otherwise become one request): one request issued per read, and
# one insertion event per request.
. /tests/lib.sh

T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T 2>/dev/null || T=/sys/kernel/debug/tracing
check "tracefs has block_rq_insert" [ -d $T/events/block/block_rq_insert ]
buf=$(cat $T/buffer_size_kb)
echo 8192 >$T/buffer_size_kb
dev=$(nullb_create trins submit_queues=2 size=64 memory_backed=1 hw_queue_depth=64)
mm=$(tr : , <"/sys/block/$dev/dev")
echo 2 >"/sys/block/$dev/queue/nomerges"
n=$(($(scaled 4) * 256 * 2))

for s in mq-deadline xdeadline xbfq; do
	check "$s: selected" sched_set "$dev" "$s"
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/block/block_rq_insert/enable
	echo 1 >$T/events/block/block_rq_issue/enable
	echo 1 >$T/tracing_on
	check "$s: two jobs read $n blocks" fio_run --name=t --filename="/dev/$dev" \
		--direct=1 --ioengine=io_uring --rw=randread --bs=4k \
		--size="$(scaled 4)m" --numjobs=2 --offset_increment=4m --iodepth=4 \
		--cpus_allowed=0-1 --cpus_allowed_policy=split
	echo 0 >$T/tracing_on
	ins=$(grep -c "block_rq_insert: $mm " $T/trace)
	iss=$(grep -c "block_rq_issue: $mm " $T/trace)
	diag "$s: $ins insert events, $iss issue events"
	is "$iss" "$n" "$s: every read issued as a request of its own"
	is "$ins" "$iss" "$s: an insert event for each request issued"
done
echo 0 >$T/events/block/block_rq_insert/enable
echo 0 >$T/events/block/block_rq_issue/enable
echo 1 >$T/tracing_on
echo "${buf%% *}" >$T/buffer_size_kb
check "back to none" sched_set "$dev" none
nullb_remove trins
check "unload xdeadline and xbfq" rmmod xdeadline xbfq
done_testing
