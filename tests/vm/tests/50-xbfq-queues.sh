# SPDX-License-Identifier: GPL-2.0
# Per-process queues through the I/O context (icq): two processes, and
# two threads of one process (each thread has its own I/O context, as
# under BFQ), get a queue each; a process's queues are freed as soon as
# it has exited and its last request is done.
. /tests/lib.sh

dev=$(nullb_create xbq submit_queues=1 size=512 irqmode=2 \
	completion_nsec="$(devtime 200000)" hw_queue_depth=2)
check "switch to xbfq" sched_set "$dev" xbfq
Q=/sys/kernel/debug/block/$dev/sched/queues

# busy_queues MIN: sync queues of the listing that served at least MIN
# requests.
busy_queues() {
	awk -v min="$1" '$1 == "pid" && $3 == "sync" {
		for (i = 4; i < NF; i++) if ($i == "rqs") r = $(i + 1)
		if (r >= min) n++
	} END { print n + 0 }' "$Q"
}

for mode in processes threads; do
	opt=
	[ $mode = threads ] && opt=--thread
	f0=$(xd_stat "$dev" queues_freed)
	fio --output=/tmp/q.out $opt --name=j --filename="/dev/$dev" --rw=randread \
		--bs=4k --direct=1 --ioengine=psync --numjobs=2 --size=256m \
		--time_based --runtime=3 >/dev/null 2>&1 &
	pid=$!
	sleep 2
	sed 's/^/# /' "$Q"
	is "$(busy_queues 10)" 2 "two $mode: a queue each, both served"
	wait $pid
	is "$?" 0 "two $mode: fio exited cleanly"
	# A queue idle for slice_idle still weighs in its class a while;
	# the next dispatch lets go of it.
	sleep 0.1
	dd if="/dev/$dev" of=/dev/null bs=4k count=4 iflag=direct 2>/dev/null
	cmp_ok "$(($(xd_stat "$dev" queues_freed) - f0))" -ge 2 \
		"two $mode: their queues freed once they exited"
done

dev_idle "$dev"
is "$(xd_stat "$dev" in_flight)" 0 "nothing left in flight"
is "$(xd_stat "$dev" queued)" 0 "nothing left queued"
for c in rt be idle; do
	is "$(xd_stat "$dev" dispatched_$c)" "$(xd_stat "$dev" completed_$c)" \
		"dispatched_$c equals completed_$c"
done
inserted_balance "$dev" "inserted = dispatched - requeued + merged"
check "back to none" sched_set "$dev" none
nullb_remove xbq
done_testing
