# SPDX-License-Identifier: GPL-2.0
# Switch to and from xbfq 200 times while fio writes and verifies:
# no I/O error, no hang, no request lost.
. /tests/lib.sh

dev=$(nullb_create sw submit_queues=2 size=64 memory_backed=1)
fio --output=/tmp/sw.out --name=sw --filename="/dev/$dev" --rw=randrw --bs=4k \
	--direct=1 --ioengine=io_uring --iodepth=16 --numjobs=2 --size=32m \
	--offset_increment=32m --verify=crc32c --verify_fatal=1 --loops=1000 \
	--time_based --runtime=300 >/dev/null 2>&1 &
fio_pid=$!
sleep 1
n=0
fails=0
while [ $n -lt 200 ]; do
	sched_set "$dev" xbfq || fails=$((fails + 1))
	other=none
	[ $((n % 2)) = 0 ] || other=mq-deadline
	sched_set "$dev" "$other" || fails=$((fails + 1))
	n=$((n + 1))
done
is "$fails" 0 "200 round trips to xbfq, every switch accepted"
check "fio still running (no hang)" kill -0 $fio_pid
kill -INT $fio_pid
wait $fio_pid
rc=$?
diag "fio exit status $rc"
check "fio saw no I/O or verify error" sh -c "grep -q 'err= 0' /tmp/sw.out && ! grep -q 'verify: bad' /tmp/sw.out"
check "device idle afterwards" dd if="/dev/$dev" of=/dev/null bs=4k count=64 iflag=direct
nullb_remove sw
check "unload xbfq" rmmod xbfq
done_testing
