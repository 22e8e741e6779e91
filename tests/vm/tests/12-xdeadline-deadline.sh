# SPDX-License-Identifier: GPL-2.0
# Deadlines and priorities on a slow device (1 ms per request, one at a
# time; xd.devtime stretches it where the guest's CPU is slow), where
# xdeadline's queue decides who waits.
. /tests/lib.sh

dev=$(nullb_create slow submit_queues=1 size=1024 irqmode=2 completion_nsec=$(devtime 1000000) hw_queue_depth=1)
check "switch to xdeadline" sched_set "$dev" xdeadline
# nr_requests defaults to twice the device depth (2 here): allow a queue.
check "nr_requests 256" sh -c "echo 256 > /sys/block/$dev/queue/nr_requests"

# A low-sector read arrives while sequential readers keep the sort order
# busy above it: only its deadline gets it served.
# read_expire 100 ms, stretched with the device (xd.devtime): the stream's
# 64 queued reads (64 ms at 1 ms each) must not expire themselves, or
# the deadline queue is a FIFO and the low read waits behind all of them.
expire=$(devtime 100)
echo $expire >"/sys/block/$dev/queue/iosched/read_expire"
# One deep sequential stream always has requests queued above the head.
# (read:4k leaves holes, so nothing merges and the stream stays deep.)
# The bound below is in the guest's clock: a round in which the host
# stalled the guest (stall_again) runs again, up to three.
for round in 1 2 3; do
	stall_watch
	fio --output=/tmp/bg.out --name=bg --filename="/dev/$dev" --rw=read:4k --bs=4k \
		--direct=1 --ioengine=io_uring --iodepth=64 --numjobs=1 --offset=512m \
		--time_based --runtime=6 >/dev/null 2>&1 &
	bg=$!
	sleep 1
	check "low read behind a sorted batch" fio_run --name=low --filename="/dev/$dev" \
		--rw=randread --bs=4k --direct=1 --ioengine=psync --size=64m --time_based \
		--runtime=3 --lat_percentiles=1
	wait $bg
	stall_again $round || break
done
max_ms=$(sed -n 's/.* clat (\([mu]\)sec): min=[^,]*, max=\([0-9.k]*\),.*/\1 \2/p' /tmp/fio.out |
	awk '{v = $2; if (v ~ /k$/) { sub(/k$/, "", v); v *= 1000 } if ($1 == "u") v /= 1000; print int(v)}')
diag "low read max completion latency: ${max_ms} ms (read_expire $expire ms)"
# Bound: read_expire, plus two batches (fifo_batch 16 plus a ready list of
# dispatch_batch 8) at the device's pace, plus 452 ms for the guest (TCG):
# 600 ms at 1 ms a request.  Without the deadline the read would wait for
# the whole 5 s stream.
bound=$((expire + 2 * 24 * $(devtime 1000000) / 1000000 + 452))
cmp_ok "${max_ms:-99999}" -le "$bound" "read served within read_expire + 2 batches + 452 ms ($bound ms)"
cmp_ok "$(xd_stat "$dev" expired_read)" -gt 0 "read deadlines expired and were honoured"

# RT before BE: an RT and a BE reader, each keeping 8 reads queued, compete
# for 3 s; RT always has work queued, so BE waits (prio_aging_expire 10 s).
fio --output=/tmp/prio.out --output-format=terse --terse-version=3 \
	--name=rt --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
	--ioengine=io_uring --iodepth=8 --prioclass=1 --time_based --runtime=3 \
	--name=be --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
	--ioengine=io_uring --iodepth=8 --prioclass=2 --time_based --runtime=3 >/dev/null 2>&1
# terse v3: field 3 is the job name, field 6 read I/Os (kB, bw, iops...) -> field 8 = read IOPS
rt=$(awk -F';' '$3 == "rt" { s += $8 } END { print s + 0 }' /tmp/prio.out)
be=$(awk -F';' '$3 == "be" { s += $8 } END { print s + 0 }' /tmp/prio.out)
diag "IOPS: rt $rt, be $be"
cmp_ok "$rt" -gt 0 "RT readers made progress"
cmp_ok "$rt" -ge $((4 * be)) "RT class served before BE (>= 4x the IOPS)"
cmp_ok "$(xd_stat "$dev" inserted_rt)" -gt 0 "requests counted as RT"
sed 's/^/# /' "/sys/kernel/debug/block/$dev/sched/stats"

check "back to none" sched_set "$dev" none
nullb_remove slow
done_testing
