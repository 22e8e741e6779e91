# SPDX-License-Identifier: GPL-2.0
# simdisk under each I/O scheduler (none, mq-deadline, xdeadline): a mixed
# random and sequential load completes without errors; then the write cache
# path (writes, flushes, background destage) and module unload after it.
. /tests/lib.sh

st() { awk -v k="$2" '$1 == k { print $2 }' "/sys/kernel/debug/simdisk/$1/stats"; }
mixed() {
	fio_run --filename="/dev/$1" --direct=1 --ioengine=io_uring --runtime=3 \
		--time_based --name=rnd --rw=randrw --rwmixread=70 --bsrange=4k-128k \
		--iodepth=16 --name=seq --rw=read --bs=256k --iodepth=4 --offset=50%
}

check "load simdisk, two disks" modprobe simdisk nr_devices=2 capacity_gb=500 ncq_depth=32
for dev in simdisk0 simdisk1; do
	is "$(cat /sys/block/$dev/queue/rotational)" 1 "$dev is rotational"
done
dev=simdisk0
for s in none mq-deadline xdeadline; do
	check "select $s" sched_set $dev $s
	echo 0 >/sys/kernel/debug/simdisk/$dev/stats
	check "$s: mixed random and sequential load" mixed $dev
	cmp_ok "$(st $dev commands)" -gt 100 "$s: the disk served commands"
	cmp_ok "$(st $dev seeks)" -gt 0 "$s: with seeks"
	diag "$s: $(tr '\n' ' ' </sys/kernel/debug/simdisk/$dev/stats)"
done
check "back to mq-deadline" sched_set $dev mq-deadline
check "unload simdisk" rmmod simdisk

check "load simdisk with a write cache" modprobe simdisk capacity_gb=500 \
	write_cache=1 cache_mb=1
is "$(cat /sys/block/$dev/queue/write_cache)" "write back" "write cache advertised"
# fio issues the fsync of --fsync=N before the next write, so none follows
# the last one: without --end_fsync the last 16 writes may still be in the
# cache when fio exits.  With it, a flush comes after every write, and a
# flush completes only once the cache is empty: nothing is dirty then.
check "random writes with fsync through the cache" fio_run --name=wc \
	--filename=/dev/$dev --direct=1 --ioengine=psync --rw=randwrite \
	--bs=64k --size=64m --fsync=16 --end_fsync=1
cmp_ok "$(st $dev cache_writes)" -gt 0 "writes went into the cache"
cmp_ok "$(st $dev destages)" -gt 0 "the cache was destaged"
# 1024 writes: an fsync after each 16 but the last, then the end_fsync.
cmp_ok "$(st $dev flushes)" -ge 64 "flushes reached the disk, the last after the last write"
is "$(st $dev cache_used_sectors)" 0 "nothing dirty after the last flush"
check "sequential writes at QD 8 fill the cache" fio_run --name=wc2 \
	--filename=/dev/$dev --direct=1 --ioengine=io_uring --rw=write \
	--bs=1M --size=64m --iodepth=8
cmp_ok "$(st $dev cache_waits)" -gt 0 "writes waited for cache space"
check "unload with dirty cache" rmmod simdisk
done_testing
