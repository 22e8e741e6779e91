# SPDX-License-Identifier: GPL-2.0
# Zoned null_blk with many zones and sequential writers at QD 32: no write
# errors with zoned_qd1_writes 0 or 1; with 1, never more than one write in
# flight (64 MiB a writer, scaled by xd.scale).  On 6.1 this also proves xdeadline's own zone write locking.
. /tests/lib.sh

run_writers() {
	fio_run --name=z --filename="/dev/$dev" --zonemode=zbd --rw=write \
		--bs=16k --direct=1 --ioengine=io_uring --iodepth=32 --numjobs=4 \
		--offset_increment=64m --size="$(scaled_mib 64 8)" --group_reporting
}

for qd1 in 0 1; do
	dev=$(nullb_create zoned$qd1 submit_queues=1 size=256 zoned=1 zone_size=4 zone_nr_conv=0)
	is "$(cat /sys/block/$dev/queue/zoned)" host-managed "$dev is host-managed"
	check "xdeadline selectable on a zoned device" sched_set "$dev" xdeadline
	check "zoned_qd1_writes=$qd1 accepted" sh -c "echo $qd1 > /sys/block/$dev/queue/iosched/zoned_qd1_writes"
	check "qd1=$qd1: 4 sequential writers at QD 32, no write errors" run_writers
	cmp_ok "$(xd_stat "$dev" dispatched_write_be)" -gt 0 "qd1=$qd1: writes went through xdeadline"
	if [ $qd1 = 1 ]; then
		is "$(xd_stat "$dev" qd1_max_in_flight)" 1 "qd1=1: at most one write in flight"
		cmp_ok "$(xd_stat "$dev" qd1_waits)" -gt 0 "qd1=1: writes were held back"
	fi
	is "$(xd_stat "$dev" in_flight)" 0 "qd1=$qd1: nothing left in flight"
	check "back to none" sched_set "$dev" none
	nullb_remove zoned$qd1
done
done_testing
