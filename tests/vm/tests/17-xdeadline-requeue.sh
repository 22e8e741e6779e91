# SPDX-License-Identifier: GPL-2.0
# Requeues: simdisk hands every 5th read or write back to blk-mq
# (requeue_every), so requests come back to xdeadline after dispatch.
# Under fio, with nr_sched_batch rounds of 1 and 2 (a requeued request
# ends the round that handed it out) and with the scalability paths
# engaged: no I/O error, done in bounded time, every requeue seen,
# counters balanced.  (simdisk models timing and keeps no data, so data
# integrity is checked on null_blk elsewhere.)
. /tests/lib.sh

check "load simdisk (HDD model, NCQ 8) requeueing every 5th command" \
	modprobe simdisk capacity_gb=64 ncq_depth=8 requeue_every=5
dev=simdisk0
sdstat() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/simdisk/$dev/stats; }
check "select xdeadline" sched_set $dev xdeadline
for s in "nr_sched_batch=1" "nr_sched_batch=2 dispatch_batch=4 congestion_threshold=0" \
	"nr_sched_batch=0 head_request=1"; do
	check "fresh counters" sh -c "echo none > /sys/block/$dev/queue/scheduler && echo xdeadline > /sys/block/$dev/queue/scheduler"
	for kv in $s; do
		echo "${kv#*=}" >/sys/block/$dev/queue/iosched/${kv%%=*}
	done
	echo 0 >/sys/kernel/debug/simdisk/$dev/stats
	check "$s: random reads and writes, 2 jobs at QD 8, within 60 s" \
		timeout 60 fio --output=/tmp/rq.out --name=rq --filename=/dev/$dev \
		--rw=randrw --bs=4k --direct=1 --ioengine=io_uring --iodepth=8 \
		--numjobs=2 --offset_increment=1g --size=2m --group_reporting
	check "$s: no I/O error" grep -q 'err= 0' /tmp/rq.out
	rq=$(sdstat requeues)
	cmp_ok "$rq" -gt 0 "$s: simdisk requeued commands"
	is "$(xd_stat $dev requeued)" "$rq" "$s: xdeadline saw every requeue"
	is "$(xd_stat $dev in_flight)" 0 "$s: nothing in flight"
	case $s in nr_sched_batch=1)
		cmp_ok "$(xd_stat $dev nr_sched_batch_cuts)" -gt 0 "$s: rounds were cut" ;;
	esac
done
check "back to mq-deadline" sched_set $dev mq-deadline
check "unload simdisk" rmmod simdisk
done_testing
