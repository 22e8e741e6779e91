# SPDX-License-Identifier: GPL-2.0
# simdisk against a drive datasheet (not part of `make check`: run by name,
# see bench/simdisk-datasheet.sh).  The drive: Seagate Constellation SAS
# ST9500430SS (Product Manual, Rev. E): 7200 rpm, 500 GB, internal data
# rate 75-142 MB/s, access time without controller overhead (read):
# average 8.0 ms, single track 0.5 ms, full stroke 17.35 ms; average
# rotational latency 4.16 ms.  The model is loaded with these figures twice:
# "ends" (seek_full_us = the full stroke) and "avg" (seek_full_us chosen so
# that the model's average seek over all seek lengths is the datasheet's
# 8.0 ms: full = t2t + (avg - t2t) * 15 / 8, since the mean of
# sqrt(|U - V|) over uniform U, V is 8/15).  Measured on the model's clock
# with the read cache off (datasheets give mechanical figures):
#   - single-track seek: 4 KiB reads one track apart;
#   - full-stroke seek: 4 KiB reads alternating between the first and the
#     last sector;
#   - average seek and rotational latency: random 4 KiB reads at QD 1
#     over the whole disk (uniform LBAs);
#   - sustained rate at the outer and inner edge: 1 MiB reads at QD 32,
#     over the busy time and over the transfer time.
# Then, with the read cache (defaults), a lone 128 KiB reader at QD 1.
# Lines "# DS CONFIG KEY VALUE" carry the figures; assertions are loose
# (the model follows its parameters).
. /tests/lib.sh

dev=simdisk0
D=/sys/kernel/debug/simdisk/$dev
st() { awk -v k="$1" '$1 == k { print $2 }' "$D/stats"; }
geo() { awk -v k="$1" '$1 == k { print $2 }' "$D/geometry"; }
ds() { echo "# DS $cfg $1 $2"; }
common="capacity_gb=500 rpm=7200 seek_t2t_us=500 outer_mbps=142 inner_mbps=75 \
ncq_depth=32 zero_reads=0"

for cfg in ends avg; do
	case $cfg in
	ends) full=17350 ;;
	avg) full=$((500 + (8000 - 500) * 15 / 8)) ;;
	esac
	# shellcheck disable=SC2086 # word splitting of the parameter list
	check "$cfg: load simdisk (seek_full_us=$full, no read cache)" modprobe simdisk \
		$common seek_full_us=$full read_cache=0
	cap=$(($(cat /sys/block/$dev/size) * 512))
	spt=$(geo spt_outer)
	ds seek_full_us "$full"

	echo 0 >"$D/stats"
	check "$cfg: single-track seeks" fio_run --name=t2t --filename=/dev/$dev \
		--rw=read:$((spt * 512 - 4096)) --bs=4k --number_ios=200 \
		--ioengine=psync --direct=1
	ds single_track_us "$(st mean_seek_us)"

	last=$((cap / 4096 - 1))
	dd if=/dev/$dev of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
	echo 0 >"$D/stats"
	i=0
	while [ $i -lt 20 ]; do
		dd if=/dev/$dev of=/dev/null bs=4k count=1 skip=$last iflag=direct 2>/dev/null
		dd if=/dev/$dev of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null
		i=$((i + 1))
	done
	ds full_stroke_us "$(st mean_seek_us)"

	echo 0 >"$D/stats"
	check "$cfg: random 4 KiB reads at QD 1" fio_run --name=rnd --filename=/dev/$dev \
		--rw=randread --bs=4k --iodepth=1 --ioengine=psync --direct=1 \
		--norandommap --runtime=10 --time_based
	ds average_seek_us "$(st mean_seek_us)"
	ds rot_latency_us "$(($(st rot_wait_ns) / $(st commands) / 1000))"
	ds random_iops "$(awk -v c="$(st commands)" -v t="$(st busy_ns)" 'BEGIN { printf "%d", c / (t / 1e9) }')"
	# the mean of some 800 uniform waits over 8.33 ms: 4.17 +- 0.09 ms
	cmp_ok "$(($(st rot_wait_ns) / $(st commands) / 1000))" -ge 3750 "$cfg: rotational latency >= 3.75 ms"
	cmp_ok "$(($(st rot_wait_ns) / $(st commands) / 1000))" -le 4580 "$cfg: rotational latency <= 4.58 ms"

	for edge in outer inner; do
		off=0
		[ $edge = inner ] && off=$(((cap - 268435456) / 1048576 * 1048576))
		echo 0 >"$D/stats"
		check "$cfg: $edge edge, 1 MiB reads at QD 32" fio_run --name=seq \
			--filename=/dev/$dev --rw=read --bs=1M --size=256m --offset=$off \
			--iodepth=32 --ioengine=io_uring --direct=1
		# over the busy time (the first seek and the rotations lost when
		# the guest let the queue run dry included) and over the
		# transfer time alone (the media rate)
		ds ${edge}_MBps "$(awk -v s="$(st read_sectors)" -v t="$(st busy_ns)" \
			'BEGIN { printf "%.1f", s * 512 / (t / 1e9) / 1e6 }')"
		ds ${edge}_media_MBps "$(awk -v s="$(st read_sectors)" -v t="$(st transfer_ns)" \
			'BEGIN { printf "%.1f", s * 512 / (t / 1e9) / 1e6 }')"
	done
	check "$cfg: unload" rmmod simdisk
done

cfg=cache
# shellcheck disable=SC2086
check "load simdisk with the read cache (defaults)" modprobe simdisk $common seek_full_us=17350
ds read_segments "$(geo read_segments)"
ds segment_sectors "$(geo segment_sectors)"
echo 0 >"$D/stats"
check "lone 128 KiB reader at QD 1" fio_run --name=lone --filename=/dev/$dev \
	--rw=read --bs=128k --size=256m --ioengine=psync --direct=1 --output-format=terse
ds lone_MBps "$(awk -v m="$(st read_sectors)" -v c="$(st cache_hit_sectors)" \
	-v b="$(st busy_ns)" -v r="$(st readahead_ns)" \
	'BEGIN { printf "%.1f", (m + c) * 512 / ((b + r) / 1e9) / 1e6 }')"
ds lone_fio_MBps "$(awk -F';' '{ printf "%.1f", $7 * 1024 / 1e6 }' /tmp/fio.out)"
diag "$(tr '\n' ' ' <"$D/stats")"
check "unload" rmmod simdisk
done_testing
