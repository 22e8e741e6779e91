# SPDX-License-Identifier: GPL-2.0
# simdisk as a host-managed SMR disk: write pointer enforcement (a write
# off the write pointer fails), zone reset rewinds the write pointer,
# conventional zones take writes anywhere, and zoned fio writers run
# without errors under the schedulers each kernel allows.
. /tests/lib.sh

zmb=64
check "load zoned simdisk" modprobe simdisk zoned=1 capacity_gb=64 \
	zone_size_mb=$zmb conv_zones=2 ncq_depth=32
dev=simdisk0
D=/sys/kernel/debug/simdisk/$dev
Q=/sys/block/$dev/queue
st() { awk -v k="$1" '$1 == k { print $2 }' "$D/stats"; }
wp() { awk -v z="$1" '$1 == "zone" && $2 == z { print $4 }' "$D/geometry"; }
is "$(cat $Q/zoned)" host-managed "host-managed"
is "$(cat $Q/rotational)" 1 "rotational"
is "$(cat $Q/chunk_sectors)" $((zmb * 2048)) "chunk_sectors is the zone size"
is "$(cat $Q/nr_zones)" $((64000000000 / (zmb * 1048576))) "nr_zones"
if [ -e $Q/zoned_qd1_writes ]; then
	is "$(cat $Q/zoned_qd1_writes)" 1 "zoned_qd1_writes defaults to 1 (rotational)"
fi

# write OFFSET SIZE: one direct write, no zone handling by fio
wr() {
	fio_run --name=w --filename=/dev/$dev --rw=write --bs="$2" --size="$2" \
		--offset="$1" --direct=1 --ioengine=psync --zonemode=none
}
# report: fio in zbd mode reports every zone when it starts; since zone
# write plugging a failed write leaves the zone unusable until a report
# (or reset) re-reads its write pointer, as with a real drive.
report() {
	fio_run --name=rep --filename=/dev/$dev --zonemode=zbd --rw=read \
		--bs=4k --size=${zmb}M --number_ios=1 --direct=1
}
z=$((2 * zmb * 1048576))	# first sequential zone
zs=$((z / 512))
is "$(wp 2)" $zs "zone 2 starts empty"
check_fails "write off the write pointer fails" wr $((z + 4096)) 4k
is "$(st zone_write_errors)" 1 "the disk rejected it"
check "report zones" report
check "write 1 MiB at the write pointer" wr $z 1M
check "write 1 MiB at the advanced write pointer" wr $((z + 1048576)) 1M
is "$(wp 2)" $((zs + 4096)) "write pointer advanced by 2 MiB"
check_fails "rewrite at the zone start fails" wr $z 1M
check "report zones" report
check "reset the zone (fio trim in zbd mode)" fio_run --name=r \
	--filename=/dev/$dev --zonemode=zbd --rw=trim --bs=${zmb}M \
	--size=${zmb}M --offset=$z
is "$(st zone_resets)" 1 "one zone reset reached the disk"
is "$(wp 2)" $zs "reset rewound the write pointer"
check "write at the zone start after the reset" wr $z 1M
check "conventional zone: write anywhere" wr 4096 4k

scheds="mq-deadline xdeadline"
# Before zone write plugging (6.10) only zone-locking schedulers are safe.
case "$(uname -r)" in 6.1.*) ;; *) scheds="none $scheds" ;; esac
for s in $scheds; do
	check "select $s" sched_set $dev $s
	errs=$(st zone_write_errors)
	check "$s: 4 zoned writers at QD 8" fio_run --name=zw --filename=/dev/$dev \
		--zonemode=zbd --rw=write --bs=256k --direct=1 --ioengine=io_uring \
		--iodepth=8 --numjobs=4 --offset=$((8 * zmb))m \
		--offset_increment=$((2 * zmb))m --size=$((2 * zmb))m --group_reporting
	is "$(st zone_write_errors)" "$errs" "$s: no write refused by the disk"
done
diag "$(tr '\n' ' ' <"$D/stats")"
check "unload" rmmod simdisk
done_testing
