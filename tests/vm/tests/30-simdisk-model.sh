# SPDX-License-Identifier: GPL-2.0
# simdisk (tests/simdisk/): the disk model's timing under fio.
#  - a sequential 1 MiB read at the outer edge streams at the media rate
#    given by the parameters, within 5%;
#  - random 4 KiB reads at QD 1 over the whole disk reach the IOPS that the
#    model predicts from its parameters, within 10%.
# The expectations are computed here from the module parameters (formulas
# in docs/simdisk.md), not read back from the driver.  Rates are measured
# on the model's own clock (debugfs stats: sectors and commands over the
# time the actuator was busy), because a TCG guest on a loaded host adds
# milliseconds of its own to each I/O; fio's wall-clock figures are shown
# and only checked loosely (at least half the model's).
. /tests/lib.sh

P=/sys/module/simdisk/parameters
check "load simdisk" modprobe simdisk capacity_gb=1000 rpm=7200 \
	seek_t2t_us=1000 seek_full_us=16000 outer_mbps=250 inner_mbps=120 ncq_depth=32 zero_reads=0
dev=simdisk0
D=/sys/kernel/debug/simdisk/$dev
is "$(cat /sys/block/$dev/queue/rotational)" 1 "queue/rotational is 1"
is "$(ls /sys/block/$dev/mq | wc -l)" 1 "one hardware queue"
is "$(cat /sys/block/$dev/queue/zoned)" none "not zoned"
diag "$(tr '\n' ' ' <"$D/geometry")"

terse() { awk -F';' -v f="$1" '{ print $f }' /tmp/fio.out; }
st() { awk -v k="$1" '$1 == k { print $2 }' "$D/stats"; }
outer=$(cat $P/outer_mbps)
inner=$(cat $P/inner_mbps)
cap=$(($(cat /sys/block/$dev/size) * 512))

# Sequential read of the first GiB, 16 commands queued: the drive streams.
echo 0 >"$D/stats"
check "sequential read, 1 MiB, QD 16" fio_run --name=seq --filename=/dev/$dev \
	--rw=read --bs=1M --size=1G --iodepth=32 --ioengine=io_uring --direct=1 \
	--output-format=terse
fiobw=$(terse 7)	# KiB/s
got=$(awk -v s="$(st read_sectors)" -v t="$(st busy_ns)" 'BEGIN { printf "%d", s * 512 / 1024 / (t / 1e9) }')
want=$(awk -v o="$outer" -v i="$inner" -v c="$cap" \
	'BEGIN { x = 536870912 / c; printf "%d", (o - (o - i) * x) * 1e6 / 1024 }')
diag "sequential: model clock $got KiB/s, fio $fiobw KiB/s, expected $want KiB/s"
lo=$((want * 95 / 100))
hi=$((want * 105 / 100))
cmp_ok "$got" -ge "$lo" "sequential read within 5% of the media rate (low)"
cmp_ok "$got" -le "$hi" "sequential read within 5% of the media rate (high)"
cmp_ok "$fiobw" -ge "$((want / 2))" "fio sees at least half the media rate"
cmp_ok "$(st streamed)" -ge "$(($(st reads) * 9 / 10))" "sequential commands streamed without positioning"
diag "$(tr '\n' ' ' <"$D/stats")"

# Random 4 KiB reads at QD 1 across the disk.
echo 0 >"$D/stats"
check "random 4 KiB reads at QD 1" fio_run --name=rnd --filename=/dev/$dev \
	--rw=randread --bs=4k --iodepth=1 --ioengine=psync --direct=1 \
	--norandommap --runtime=10 --time_based --output-format=terse
fioiops=$(terse 8)
got=$(awk -v c="$(st commands)" -v t="$(st busy_ns)" 'BEGIN { printf "%d", c / (t / 1e9) }')
want=$(awk -v o="$outer" -v i="$inner" -v t2t="$(cat $P/seek_t2t_us)" \
	-v full="$(cat $P/seek_full_us)" -v rpm="$(cat $P/rpm)" '
	# busybox awk may lack libm: square root and logarithm by hand
	function sq(v,  g, k) {
		if (v <= 0)
			return 0
		g = 1
		for (k = 0; k < 60 && (g * g - v > v * 1e-9 || v - g * g > v * 1e-9); k++)
			g = (g + v / g) / 2
		return g
	}
	function ln(v,  y, y2, s, p, k) {
		y = (v - 1) / (v + 1); y2 = y * y; s = 0; p = y
		for (k = 1; k < 99; k += 2) { s += p / k; p *= y2 }
		return 2 * s
	}
	function tf(x) {	# track fraction of LBA fraction x
		return b > 0 ? ln(a / (a - b * x)) / ln(a / (a - b)) : x
	}
	BEGIN {
		# LBAs are uniform, tracks hold data in proportion to the
		# media rate a - b x: E[sqrt|T(X) - T(Y)|] on an n x n grid,
		# each diagonal cell by its exact mean (8/15) sqrt(width).
		n = 100; a = o; b = o - i
		for (k = 0; k < n; k++) {
			t[k] = tf((k + 0.5) / n)
			w[k] = tf((k + 1) / n) - tf(k / n)
			xfer += 4096 / (a - b * (k + 0.5) / n) / n	# us
		}
		for (k = 0; k < n; k++) {
			s += 8 / 15 * sq(w[k])
			for (j = 0; j < k; j++)
				s += 2 * sq(t[k] - t[j])
		}
		seek = t2t + (full - t2t) * s / (n * n)
		rot = 30e6 / rpm
		printf "%d %d %d %d\n", 1e6 / (seek + rot + xfer), seek, rot, xfer
	}')
set -- $want
diag "random: model clock $got IOPS, fio $fioiops IOPS, expected $1 IOPS (mean seek $2 us, rotation $3 us, transfer $4 us)"
diag "$(tr '\n' ' ' <"$D/stats")"
cmp_ok "$got" -ge "$(($1 * 90 / 100))" "random QD 1 IOPS within 10% of the model (low)"
cmp_ok "$got" -le "$(($1 * 110 / 100))" "random QD 1 IOPS within 10% of the model (high)"
cmp_ok "$fioiops" -ge "$(($1 / 2))" "fio sees at least half the model's IOPS"
check "unload simdisk" rmmod simdisk
done_testing
