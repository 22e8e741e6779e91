# SPDX-License-Identifier: GPL-2.0
# local_dispatch: a best-effort request inserted while xdeadline holds
# nothing to order it against is parked on its CPU and handed out by that
# CPU without the scheduler lock; everything else takes the scheduler's
# path.  Nothing is lost, nothing stays parked, the counters balance, on a
# fast device, a tag-starved one (other CPUs sort parked requests in) and
# with mixed priorities (parking stops).
. /tests/lib.sh

# balanced DEV LABEL: idle device, nothing parked, every request counted.
balanced() {
	local d=$1 what=$2
	is "$(xd_stat "$d" parked)" 0 "$what: nothing left parked"
	is "$(xd_stat "$d" in_flight)" 0 "$what: nothing left in flight"
	inserted_balance "$d" "$what: inserted = dispatched - requeued + merged"
}

# verify_jobs DEV LABEL JOBS DEPTH [FIO ARGS...]: random writes with
# checksums from JOBS jobs spread over the CPUs, then verified (8 MiB per
# job, scaled by xd.scale).
verify_jobs() {
	local d=$1 what=$2 jobs=$3 depth=$4
	shift 4
	check "$what: $jobs jobs write and verify" fio_run --name=local \
		--filename="/dev/$d" --direct=1 --ioengine=io_uring --rw=randwrite \
		--bs=4k --size="$(scaled 8)m" --numjobs="$jobs" --offset_increment=8m \
		--iodepth="$depth" --verify=crc32c --verify_fatal=1 \
		--cpus_allowed=0-1 --cpus_allowed_policy=split "$@"
}

dev=$(nullb_create local submit_queues=2 size=64 memory_backed=1 hw_queue_depth=64)
check "switch to xdeadline" sched_set "$dev" xdeadline
is "$(knob "$dev" local_dispatch)" 1 "non-rotational: local_dispatch on"

# A fast device: almost every request finds nothing queued.
verify_jobs "$dev" fast 2 4
loc=$(xd_stat "$dev" local_dispatched)
disp=$(xd_stat "$dev" dispatched)
diag "fast: local_dispatched $loc of $disp"
cmp_ok $((loc * 2)) -gt "$disp" "fast: most requests handed out by their own CPU"
balanced "$dev" fast

# local_dispatch=0: nothing parks.
echo 0 >"/sys/block/$dev/queue/iosched/local_dispatch"
verify_jobs "$dev" off 2 4
is "$(xd_stat "$dev" local_dispatched)" "$loc" "off: no request handed out locally"
balanced "$dev" off
check "back to none" sched_set "$dev" none
nullb_remove local

# One tag for 8 jobs: requests queue up, parked ones are sorted in by
# whichever CPU dispatches first, and the queue is sorted from then on.
dev=$(nullb_create starved submit_queues=1 size=64 memory_backed=1 hw_queue_depth=1)
check "starved: switch to xdeadline" sched_set "$dev" xdeadline
verify_jobs "$dev" starved 8 8
loc=$(xd_stat "$dev" local_dispatched)
disp=$(xd_stat "$dev" dispatched)
diag "starved: local_dispatched $loc of $disp"
cmp_ok "$loc" -lt "$disp" "starved: queued requests took the scheduler's path"
balanced "$dev" starved

# Once a request of another class is seen, parking stops for good.
check "starved: an RT request" fio_run --name=rt --filename="/dev/$dev" \
	--direct=1 --rw=randread --bs=4k --size=1m --prioclass=1
loc=$(xd_stat "$dev" local_dispatched)
verify_jobs "$dev" mixed 2 4
is "$(xd_stat "$dev" local_dispatched)" "$loc" "mixed priorities: nothing parked"
balanced "$dev" mixed
check "starved: back to none" sched_set "$dev" none

# Rotational: off by default (the default is taken when attached).
echo 1 >"/sys/block/$dev/queue/rotational"
check "rotational: xdeadline" sched_set "$dev" xdeadline
is "$(knob "$dev" local_dispatch)" 0 "rotational: local_dispatch off"
verify_jobs "$dev" rotational 2 4
is "$(xd_stat "$dev" local_dispatched)" 0 "rotational: nothing parked"
check "rotational: back to none" sched_set "$dev" none
nullb_remove starved
done_testing
