# SPDX-License-Identifier: GPL-2.0
# xbfq on a zoned device: selectable (on 6.1 it must declare that it
# orders zone writes itself), and sequential writers at a deep queue
# depth, one zone at QD 128 and four writers with their own zones, get
# no write errors and read their data back; counters balance.  Enough
# tags for every write in flight: on 6.1, io_uring retries a write that
# found no tag from a worker thread, out of order, under any scheduler.
. /tests/lib.sh

dev=$(nullb_create xbzoned submit_queues=1 size=256 zoned=1 zone_size=4 \
	zone_nr_conv=0 memory_backed=1 hw_queue_depth=256)
is "$(cat "/sys/block/$dev/queue/zoned")" host-managed "$dev is host-managed"
check "xbfq selectable on a zoned device" sched_set "$dev" xbfq
is "$(sched_current "$dev")" xbfq "xbfq active"
check "nr_requests 256" sh -c "echo 256 > /sys/block/$dev/queue/nr_requests"
check "one zone at QD 128: no write error, data verified" \
	zwrite "$dev" qd128 --bs=4k --iodepth=128 --size=4m
check "4 writers, own zones, QD 32: no write error, data verified" \
	zwrite "$dev" four --bs=16k --iodepth=32 --numjobs=4 --offset=32m \
	--offset_increment=64m --size="$(scaled_mib 32 8)"
cmp_ok "$(xd_stat "$dev" dispatched)" -gt 0 "writes went through xbfq"
is "$(xd_stat "$dev" in_flight)" 0 "nothing left in flight"
is "$(xd_stat "$dev" queued)" 0 "nothing left queued"
is "$(xd_stat "$dev" dispatched)" "$(xd_stat "$dev" completed)" "dispatched equals completed"
check "back to none" sched_set "$dev" none
nullb_remove xbzoned
done_testing
