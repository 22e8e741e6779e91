# SPDX-License-Identifier: GPL-2.0
# `make demo`: three null_blk devices that look like an NVMe SSD, an HDD and
# an SMR drive, and xdeadline at work on them.  Not part of `make check`.
. /tests/lib.sh

modprobe xdeadline
nvme=$(nullb_create nvme0 submit_queues=4 size=256)
hdd=$(nullb_create hdd0 submit_queues=1 size=256)
echo 1 >"/sys/block/$hdd/queue/rotational" 2>/dev/null
smr=$(nullb_create smr0 submit_queues=1 size=1024 zoned=1 zone_size=64 zone_nr_conv=1)
echo 1 >"/sys/block/$smr/queue/rotational" 2>/dev/null

show() {
	d=$1
	q=/sys/block/$d/queue
	printf '# %-7s hw_queues=%-2s rotational=%s zoned=%-12s scheduler: %s\n' "$d" \
		"$(ls /sys/block/$d/mq | grep -c "^[0-9]")" "$(cat $q/rotational)" \
		"$(cat $q/zoned)" "$(cat $q/scheduler)"
}
diag "== the kernel's choices"
for d in $nvme $hdd $smr; do show "$d"; done

sched_set "$hdd" xdeadline && echo 1 >"/sys/block/$hdd/queue/iosched/head_request"
sched_set "$smr" xdeadline
diag "== after choosing xdeadline for the HDD and SMR devices"
for d in $nvme $hdd $smr; do show "$d"; done
diag "xdeadline knobs on $smr:"
for k in /sys/block/$smr/queue/iosched/*; do diag "  $(basename "$k") = $(cat "$k")"; done

diag "== 4 sequential writers on the SMR device (zoned_qd1_writes=1)"
fio_run --name=smr --filename="/dev/$smr" --rw=write --bs=64k --direct=1 \
	--ioengine=io_uring --iodepth=8 --numjobs=4 --offset_increment=64m \
	--size=32m --zonemode=zbd --group_reporting
grep -E 'WRITE:' /tmp/fio.out | sed 's/^ */# /'
diag "xdeadline counters on $smr:"
sed 's/^/#   /' "/sys/kernel/debug/block/$smr/sched/stats" | grep -E 'dispatched |completed |qd1|expired'

diag "== random 4k reads, 2 jobs, 3 s each: none vs mq-deadline vs xdeadline on $hdd"
for s in none mq-deadline xdeadline; do
	sched_set "$hdd" "$s"
	fio_run --name=r --filename="/dev/$hdd" --rw=randread --bs=4k --direct=1 \
		--ioengine=io_uring --iodepth=4 --numjobs=2 --time_based --runtime=3 \
		--group_reporting
	diag "  $s: $(grep -o 'IOPS=[^,]*' /tmp/fio.out | head -1)"
done
ok "demo finished"
done_testing
