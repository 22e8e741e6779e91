# SPDX-License-Identifier: GPL-2.0
# simdisk (tests/simdisk/): the disk model's timing under fio.
#  - a sequential 1 MiB read at the outer edge streams at the media rate
#    given by the parameters, within 5%;
#  - random 4 KiB reads at QD 1 over the whole disk reach the IOPS that the
#    model predicts from its parameters, within 10%;
#  - read cache and look-ahead (read_cache=1, the default): a lone
#    sequential reader at QD 1 gets the media rate within 5% and hits the
#    cache; two interleaved sequential readers at QD 1 under none pay a seek
#    per command, while bfq, which idles for each reader and so gives it the
#    head for a slice, lets them stream; a write invalidates what it
#    overlaps; read_cache=0 restores the disk without a read cache.
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

# ---- read cache and look-ahead (module defaults: read_cache=1) ----------
# The reader's rate on the model's clock: sectors delivered (from the media
# or from the cache) over the time the actuator spent on them (commands and
# look-ahead transfers; look-ahead positioning while idle delays nobody).
# KiB/s.
mrate() {
	awk -v m="$(st read_sectors)" -v c="$(st cache_hit_sectors)" \
		-v b="$(st busy_ns)" -v r="$(st readahead_ns)" \
		'BEGIN { t = (b + r) / 1e9; printf "%d", (t > 0 ? (m + c) / 2 / t : 0) }'
}
cmds() { echo $(($(st cache_read_hits) + $(st cache_read_partial) + $(st cache_read_misses))); }
mib() { echo $((($(st read_sectors) + $(st cache_hit_sectors)) / 2048)); }
# media rate at byte offset X, KiB/s
media() { awk -v o="$outer" -v i="$inner" -v c="$cap" -v x="$1" \
	'BEGIN { printf "%d", (o - (o - i) * x / c) * 1e6 / 1024 }'; }
lone() {
	fio_run --name=lone --filename=/dev/$dev --rw=read --bs=128k --size="$1" \
		--ioengine=psync --direct=1 --output-format=terse
}
is "$(awk '$1 == "read_segments" { print $2 }' "$D/geometry")" "$(cat $P/read_segments)" \
	"read cache on by default"

# A lone sequential reader at QD 1 (fio psync, 128 KiB): the host leaves a
# gap between commands, during which the drive reads ahead.
echo 0 >"$D/stats"
check "lone sequential reader, 128 KiB at QD 1" lone 256m
lone_fio=$(terse 7)
lone_model=$(mrate)
want=$(media 134217728)
diag "lone reader: model clock $lone_model KiB/s, fio $lone_fio KiB/s, media rate $want KiB/s"
diag "$(tr '\n' ' ' <"$D/stats")"
cmp_ok "$lone_model" -ge "$((want * 95 / 100))" "lone reader at QD 1 streams at the media rate (low)"
cmp_ok "$lone_model" -le "$((want * 105 / 100))" "lone reader at QD 1 streams at the media rate (high)"
cmp_ok "$(($(st cache_read_hits) + $(st cache_read_partial)))" -ge "$(($(cmds) * 9 / 10))" \
	"lone reader: at least 90% of its commands hit the cache"
cmp_ok "$(($(st reads) - $(st streamed)))" -le "$(($(cmds) / 50))" \
	"lone reader: at most 2% of its commands waited for the head"
cmp_ok "$(st seeks)" -le 2 "lone reader: no seeks"

# Two sequential readers at QD 1, half the disk apart, in 1 MiB commands:
# long enough on the media (4 ms) that the other reader's next command is
# queued when one ends, however slow the guest; with short commands and a
# slow guest the drive idles between them and reads ahead for both.
two() {
	fio_run --ioengine=psync --direct=1 --rw=read --bs=1M --runtime=5 \
		--time_based --group_reporting --output-format=terse \
		--name=a --filename=/dev/$dev --offset=0 \
		--name=b --filename=/dev/$dev --offset=$((cap / 2 / 1048576 * 1048576))
}
# bfq idles for a sequential reader on a rotational disk once it knows
# that the drive does not queue commands (bfq_learn_no_queueing in
# lib.sh; without it, CI saw bfq pay as many seeks as none).  Then:
# low_latency off, since weight-raising newly started queues (the whole
# of a 5 s run) turns idling off; slice_idle 25 ms, so that a reader the
# host stalls for a few ms does not lose its slice.
bfq_setup() {
	check "bfq: 64 random reads at QD 8, one at a time" bfq_learn_no_queueing $dev
	echo 0 >/sys/block/$dev/queue/iosched/low_latency
	echo 25 >/sys/block/$dev/queue/iosched/slice_idle
}
check "bfq available" modprobe bfq
for s in none bfq; do
	check "select $s" sched_set $dev $s
	[ $s = bfq ] && bfq_setup
	echo 0 >"$D/stats"
	check "$s: two interleaved sequential readers at QD 1" two
	eval "${s}_fio=$(terse 7) ${s}_model=$(mrate) ${s}_mib=$(mib) ${s}_seeks=$(st seeks)"
	diag "$s: two readers: model clock $(mrate) KiB/s, fio $(terse 7) KiB/s, $(mib) MiB, $(cmds) commands, $(st seeks) seeks"
	diag "$s: $(tr '\n' ' ' <"$D/stats")"
done
# shellcheck disable=SC2154 # set by the eval above
{
cmp_ok "$none_seeks" -ge "$((none_mib / 2))" "none: the readers pay a seek per switch, about one per MiB"
cmp_ok "$none_model" -lt "$((lone_model / 2))" "none: two readers get less than half of one reader (model clock)"
cmp_ok "$((bfq_seeks * none_mib * 2))" -le "$((none_seeks * bfq_mib))" \
	"bfq: a seek per slice: at most half of none's seeks per MiB"
cmp_ok "$((bfq_model * 2))" -ge "$((none_model * 3))" "bfq: at least 1.5x none's aggregate (model clock)"
cmp_ok "$((bfq_fio * 10))" -ge "$((none_fio * 12))" "bfq: at least 1.2x none's aggregate (fio)"
}
check "back to mq-deadline" sched_set $dev mq-deadline

# A write clears the cache segment it overlaps.
rd() { fio_run --name=r --filename=/dev/$dev --rw=read --bs=256k --size=256k \
	--offset="$1" --direct=1 --ioengine=psync; }
wr4k() { fio_run --name=w --filename=/dev/$dev --rw=write --bs=4k --size=4k \
	--offset="$1" --direct=1 --ioengine=psync; }
o=$((cap / 4 / 1048576 * 1048576))
echo 0 >"$D/stats"
check "read 256 KiB (a miss; look-ahead follows)" rd $o
check "read the next 256 KiB" rd $((o + 262144))
is "$(st cache_read_hits)" 1 "it was read ahead: a cache hit"
check "write 4 KiB into the 256 KiB after that" wr4k $((o + 589824))
is "$(st cache_invalidations)" 1 "the write cleared the segment"
check "read those 256 KiB" rd $((o + 524288))
is "$(st cache_read_hits)" 1 "not a hit"
is "$(st cache_read_misses)" 2 "but a miss"
diag "$(tr '\n' ' ' <"$D/stats")"
check "unload simdisk" rmmod simdisk

# read_cache=0: the disk without a read cache, as before it had one.
check "load simdisk with read_cache=0" modprobe simdisk capacity_gb=1000 rpm=7200 \
	seek_t2t_us=1000 seek_full_us=16000 outer_mbps=250 inner_mbps=120 ncq_depth=32 \
	zero_reads=0 read_cache=0
is "$(awk '$1 == "read_segments" { print $2 }' "$D/geometry")" 0 "no read cache"
check "lone sequential reader without read cache" lone 64m
nc_fio=$(terse 7)
nc_model=$(awk -v s="$(st read_sectors)" -v t="$(st busy_ns)" 'BEGIN { printf "%d", s / 2 / (t / 1e9) }')
diag "no read cache: model clock $nc_model KiB/s, fio $nc_fio KiB/s"
diag "$(tr '\n' ' ' <"$D/stats")"
is "$(($(cmds) + $(st readahead_sectors) + $(st cache_hit_sectors)))" 0 "no cache lookups, no look-ahead"
cmp_ok "$nc_model" -le "$((want / 2))" "without look-ahead a QD 1 reader loses a revolution per command"
cmp_ok "$((nc_fio * 3 / 2))" -le "$lone_fio" "fio: the read cache is at least 1.5x faster at QD 1"
check "unload simdisk" rmmod simdisk
done_testing
