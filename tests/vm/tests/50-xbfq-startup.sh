# SPDX-License-Identifier: GPL-2.0
# Responsiveness (the xbfq issue's proof 2, seed 003's case): the time a
# new process takes to read 200 files of 64 KiB (scaled by xd.scale:
# 100 at make check's xd.scale=50), 4 MiB apart, on
# simdisk's HDD model while four sequential readers, then four writers
# through the page cache, keep the disk busy (startup_* in the guest
# lib).  It starts 4 s after the load, once neither scheduler raises the
# load's own new queues (each got the 59 MiB that ends a raising), and,
# beside the readers, also 1 s after, while both schedulers still raise
# them (xbfq then keeps the drive for the raised application between its
# reads: before session 26, 1.5-1.9x bfq's time).  Then, where ratios
# are asserted, a large application beside the readers at 4 s: 600
# files (37.5 MiB, not scaled), about 5.3 s to load, longer than the
# raising time that the disk's media rate gives (3.7 s here): in a make
# check run one of two xbfq rounds took 11.0 s against bfq's 5.3 while
# xbfq scaled its raising time by peak_rate; it follows BFQ's estimate
# (wr_rate) since session 40.
# One round of bfq and one of xbfq per case, in turn (bfq
# first for the readers at 4 s, xbfq first for the others), on the same
# device: xbfq's time at most 1.1x bfq's (over two rounds each if the
# first is over); the application read all its files and the load kept
# the disk busy meanwhile; in the readers' cases xbfq kept the drive for
# the raised application against the streams (idle_raised grew).  Then
# the other side of that rule: four new random readers, all raised, no
# stream among them: no queue keeps the drive (idle_raised stays 0) and
# xbfq's slowest read took at most twice bfq's (with the rule applied
# to them, one waited 2.4 s against bfq's 0.26; a second run of each
# where the first is over, the sums decide).  The full table with
# mq-deadline and the writers at 1 s is bench/xbfq-startup.sh's.  Where
# xd.scale shrinks the tests (the debug kernel), fewer files; where
# xd.devtime stretches the drive (8x there), no ratio is asserted (a
# round there takes a minute or more; docs/xbfq.md has the printed
# ratios); xbfq's rounds run with their checks, bfq's only with
# xd.reference=1, which prints the ratio.
. /tests/lib.sh

# round KIND LEAD SUFFIX SCHED...: one round of each SCHED that runs
# here (bfq only where its ratio is asserted or printed), the
# application LEAD s after the load, adding its time to ms_SCHED; the
# checks are named after $big and KIND
round() {
	local kind=$1 lead=$2 suffix=$3 s
	shift 3
	for s in "$@"; do
		[ "$s" = xbfq ] || [ $assert = 1 ] || [ "$XD_REFERENCE" != 0 ] ||
			continue
		# A new instance, counters at 0: selecting the scheduler the
		# device already runs keeps the old one.
		sched_set $STARTUP_DEV none
		startup_checked "$s" "$kind" "$lead" "$big$kind at ${lead}s, $s$suffix"
		eval "ms_$s=\$((\${ms_$s:-0} + STARTUP_MS))"
		[ "$s" != xbfq ] ||
			kept=$((kept + $(xd_stat $STARTUP_DEV idle_raised)))
	done
}

startup_setup "$(scaled 200)"
assert=1
[ "$XD_DEVTIME" -le 100 ] || assert=0
big=
# startup_case KIND LEAD SCHED...: the rounds of one case and its checks
startup_case() {
	kind=$1 lead=$2
	shift 2
	ms_bfq= ms_xbfq= kept=0
	round "$kind" "$lead" "" "$@"
	# shellcheck disable=SC2154 # set by round's eval
	if [ $assert = 1 ]; then
		# One round each is noisy on a loaded host: in make check's
		# runs beside the other guests (sessions 15-17) the writers'
		# case gave 0.86-1.17x; on a quiet host three rounds each of
		# xbfq before and after session 17's change, 0.93-1.02x.  A
		# first ratio over the bar gets a second round of each, in
		# the same order, and the sums decide; sums still over it, a
		# third (session 41's CI, 6.12, writers at 4 s: xbfq 1077 and
		# 1041 ms, bfq 929 and 967, 1.117x, where 25 earlier CI runs
		# gave xbfq 893-1050 ms, bfq 897-1023, with no change to
		# xbfq on 6.12 between them).  A real regression fails all.
		rounds="one round"
		for n in second third; do
			[ $((ms_xbfq * 10)) -gt $((ms_bfq * 11)) ] || break
			diag "$big$kind at ${lead}s: so far xbfq $ms_xbfq ms, bfq $ms_bfq ms: a $n round of each"
			round "$kind" "$lead" ", $n round" "$@"
			rounds="$([ $n = second ] && echo two || echo three) rounds"
		done
		cmp_ok "$((ms_xbfq * 10))" -le "$((ms_bfq * 11))" \
			"$big$kind at ${lead}s: xbfq's application time ($ms_xbfq ms, $rounds) at most 1.1x bfq's ($ms_bfq ms)"
	elif [ -n "$ms_bfq" ]; then
		diag "$big$kind at ${lead}s: xbfq $ms_xbfq ms, bfq $ms_bfq ms (not asserted with xd.devtime=$XD_DEVTIME)"
	fi
	if [ "$kind" = readers ] && [ $assert = 1 ]; then
		cmp_ok "$kept" -gt 0 "$big$kind at ${lead}s: xbfq kept the drive for the raised application against the streams (idle_raised)"
	elif [ "$kind" = readers ]; then
		diag "$big$kind at ${lead}s: idle_raised $kept"
	fi
}
startup_case readers 4 bfq xbfq
startup_case writers 4 xbfq bfq
startup_case readers 1 xbfq bfq
if [ $assert = 1 ]; then
	STARTUP_FILES=600 big="600 files: "
	startup_case readers 4 bfq xbfq
fi

# rand SCHED: four new random readers (4 KiB, QD 1) for 3 s under SCHED;
# the slowest read of any of them, in ms, in RAND_MS.  A stall of the
# guest is a slow read: a run that saw one (stall_again) runs again, up
# to three.
rand() {
	local try
	for try in 1 2 3; do
		stall_watch
		sched_set $STARTUP_DEV none
		check "random readers, $1: selected" sched_set $STARTUP_DEV "$1"
		check "random readers, $1: four readers ran" fio --output-format=terse \
			--terse-version=3 --output=/tmp/rand.out --name=rand \
			--filename=/dev/$STARTUP_DEV --rw=randread --bs=4k --direct=1 \
			--ioengine=psync --numjobs=4 --offset_increment=100g --size=50g \
			--time_based --runtime=3 --invalidate=0
		stall_again $try || break
	done
	# terse v3: field 15 is the read completion latency's maximum, us
	RAND_MS=$(awk -F';' '$15 > m { m = $15 } END { print int(m / 1000) }' /tmp/rand.out)
}
# rand_round SUFFIX: one run of each, xbfq first (bfq's where it runs,
# STOCK in lib.sh); adds the slowest reads to xb_ms and bfq_ms.
xb_ms=0 bfq_ms=0
rand_round() {
	rand xbfq
	xb_ms=$((xb_ms + RAND_MS))
	is "$(xd_stat $STARTUP_DEV idle_raised)" 0 "random readers$1, no stream: no raised queue kept the drive (idle_raised)"
	[ "$STOCK" = 1 ] || return 0
	rand bfq
	bfq_ms=$((bfq_ms + RAND_MS))
}
rand_round ""
diag "random readers: slowest read xbfq $xb_ms ms, bfq $bfq_ms ms"
# With no queue keeping the drive, both schedulers pass the four reads to
# simdisk's queue at once and its seek order decides the slowest: in one
# boot, eight runs each in turn gave xbfq 127-206 ms, bfq 136-206; make
# check runs saw 127-232 against 133-407, and once 313 against 153.  A
# first ratio over the bar gets a second run of each and the sums decide;
# the defect this guards against (a raised queue keeping the drive) gave
# 2.4 s against 0.26 and fails both.
if [ $assert = 1 ] && [ "$xb_ms" -gt $((2 * bfq_ms)) ]; then
	rand_round ", second run"
	diag "random readers: two runs: slowest reads xbfq $xb_ms ms, bfq $bfq_ms ms"
	rounds="two runs each"
else
	rounds="one run each"
fi
[ $assert = 0 ] ||
	cmp_ok "$xb_ms" -le $((2 * bfq_ms)) "random readers: xbfq's slowest read at most twice bfq's ($rounds)"
startup_teardown
done_testing
