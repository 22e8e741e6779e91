# SPDX-License-Identifier: GPL-2.0
# simdisk calibration against seed 002 (not part of `make check`: run by
# name, see bench/simdisk-calibrate.sh; needs a kernel with the
# queue/zoned_qd1_writes attribute, i.e. 7.x).  A 30 TB host-managed SMR
# disk with 256 MiB zones and a write cache; fio writes 1 MiB sequentially
# across zone boundaries at QD 1..128, with zoned_qd1_writes 0 and 1.
# Each point writes its own fresh zones (ZONES of them, then one spare), so
# no resets.  Reported: fio's MB/s (wall clock of the guest) and the
# model's media rate while destaging (destaged bytes over actuator busy
# time), which is what a host faster than the disk would see.
. /tests/lib.sh

ZONES=${SD_CAL_ZONES:-8}
zmb=256
params="zoned=1 capacity_gb=30000 zone_size_mb=$zmb conv_zones=0 \
ncq_depth=32 write_cache=1 cache_mb=64 host_mbps=550 rpm=7200 \
seek_t2t_us=1000 seek_full_us=16000 outer_mbps=250 inner_mbps=120 zero_reads=0 \
max_io_kb=512"
check "load simdisk: $params" modprobe simdisk $params
dev=simdisk0
S=/sys/kernel/debug/simdisk/$dev/stats
st() { awk -v k="$1" '$1 == k { print $2 }' "$S"; }
if [ ! -e /sys/block/$dev/queue/zoned_qd1_writes ]; then
	diag "no queue/zoned_qd1_writes on $(uname -r): skipped"
	done_testing
	exit
fi
kib=$((ZONES * zmb * 1024))
drain() {	# wait until the write cache is destaged
	local i=0
	while [ "$(st cache_used_sectors)" != 0 ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
point=0
echo "# RESULT qd qd1_writes fio_MB/s model_MB/s seeks mean_seek_us rot_wait_ms"
for qd1 in 0 1; do
	echo $qd1 >/sys/block/$dev/queue/zoned_qd1_writes
	for qd in 1 2 4 8 16 32 64 128; do
		echo 0 >"$S"
		off=$((point * (ZONES + 2) * zmb))
		point=$((point + 1))
		check "qd1=$qd1 QD $qd" fio_run --name=cal --filename=/dev/$dev \
			--zonemode=zbd --rw=write --bs=1M --direct=1 \
			--ioengine=io_uring --iodepth=$qd --offset=${off}m \
			--size=$(((ZONES + 1) * zmb))m --io_size=$((ZONES * zmb))m \
			--output-format=terse
		drain
		# terse: the written KiB, then the write bandwidth in KiB/s
		bw=$(awk -F';' -v k=$kib '{ for (i = 47; i < NF; i++)
			if ($i == k) { printf "%d", $(i + 1) * 1.024 / 1000; exit } }' /tmp/fio.out)
		model=$(awk -v s="$(st destage_sectors)" -v t="$(st busy_ns)" \
			'BEGIN { printf "%d", t ? s * 512 * 1000 / t : 0 }')
		echo "# RESULT $qd $qd1 $bw $model $(st seeks) $(st mean_seek_us) $(($(st rot_wait_ns) / 1000000))"
		diag "zone resets $(st zone_resets), write errors $(st zone_write_errors)"
		diag "zones written: $(awk '{ printf "%s:%s ", $1, $2 }' /sys/kernel/debug/simdisk/$dev/zones | tail -c 300)"
	done
done
check "unload" rmmod simdisk
done_testing
