# SPDX-License-Identifier: GPL-2.0
# Soft real-time (the xbfq issue's proof 4): a periodic reader, 64 KiB
# every 40 ms, beside four greedy readers (random 64 KiB reads, 8 in
# flight each) on a device that serves one request at a time in 1 ms,
# with 64 scheduler tags, so that the scheduler, not the tag allocator,
# decides who waits.  A read that takes longer than its period missed its
# deadline.  The periodic reader starts 5 s after the greedy readers, once
# their interactive raising is over under both schedulers (started at
# 3 s, among raised greedy ones, xbfq's first read waited 233-243 ms
# until a raised queue's first budget was made small; docs/xbfq.md).  A
# round of bfq, then xbfq: xbfq's reader must keep its pace (95% of its
# reads) and miss no more deadlines than bfq's did (two of slack in some
# 150 reads, for the TCG guest's hiccups), with a p99 under the period
# (two rounds each before session 44; a CI run of each Debian kernel
# then: p99 5-15 ms under both, one miss in 1200 reads, bfq's).  Where
# xbfq's misses are over the bar, a second round of each, xbfq first,
# and the sums decide.  With xd.reference=1, a round of
# mq-deadline first, printed for docs/benchmarks.md (make check leaves
# it out: it asserts nothing).
# Then the same with the device's default 2 scheduler tags (16 in flight
# for each greedy reader), where the tag allocator decides first: the
# same bars for the periodic reader (but the p90 of its reads over both
# rounds under the period, not the p99: some reads miss there under
# both), xbfq's reserve for
# raised queues acted (reads_reserved), and the greedy readers did not
# pay for it: their reads while the periodic reader ran, over two
# rounds, at least 0.8x bfq's (0.93-1.07x measured; a reserve that
# idled for the periodic reader gave them 0.55-0.65x).  Before the
# reserve xbfq missed 59-77 deadlines of 200 to bfq's 28-44 there
# (docs/xbfq.md); there two rounds each, in the order bfq, xbfq, xbfq,
# bfq (a drift of the host's speed weighs on both alike).  On the debug
# kernel's slow guest xbfq's side runs alone (STOCK in lib.sh), one
# round of each part: at 64 tags its pace and p99 are asserted, at 2
# tags the reserve (both schedulers fall behind there: session 43, bfq
# 12-16 misses of 36 reads, xbfq 9-11).
. /tests/lib.sh

period_ms=$((40 * XD_DEVTIME / 100))
pace=$((6000 / period_ms))	# reads in 6 s
dev=$(nullb_create xbsr submit_queues=1 size=4096 hw_queue_depth=1 \
	irqmode=2 completion_nsec="$(devtime 1000000)")

# run SCHED TAGS: "READS MISSES P99_US P90_US GREEDY" of the periodic reader
# and the device's reads while it ran; with TAGS 64 scheduler tags and
# the greedy readers at QD 8, else the default (2) and QD 16
run() {
	local s=$1 g qd=16 r1 r2
	sched_set "$dev" "$s" || return 1
	if [ "$2" = 64 ]; then
		echo 64 >"/sys/block/$dev/queue/nr_requests" || return 1
		qd=8
	fi
	fio --name=g --filename="/dev/$dev" --size=3g --rw=randread --bs=64k \
		--direct=1 --ioengine=io_uring --iodepth=$qd --numjobs=4 \
		--time_based --runtime=12 >/dev/null 2>&1 &
	g=$!
	sleep 5
	rm -f /tmp/sr_clat.*.log
	read -r r1 _ </sys/block/$dev/stat
	fio --name=p --filename="/dev/$dev" --offset=3584m --size=512m \
		--rw=read --bs=64k --direct=1 --ioengine=psync \
		--rate_iops=$((1000 / period_ms)) --time_based --runtime=6 \
		--write_lat_log=/tmp/sr --log_avg_msec=0 >/tmp/sr.out 2>&1 ||
		{ cat /tmp/sr.out >&2; wait $g; return 1; }
	read -r r2 _ </sys/block/$dev/stat
	[ "$s" != xbfq ] ||
		awk '$1 ~ /^(wr_|injected|idle_armed|expired_preempt|reads_reserved)/ {
			printf "%s %s ", $1, $2 }' \
			"/sys/kernel/debug/block/$dev/sched/stats" >/tmp/sr.ctr
	# the greedy readers' last second measures nothing
	kill -INT $g 2>/dev/null
	wait $g
	# clat log lines: msec, latency ns, direction, size, offset; each
	# miss is also noted in /tmp/sr.miss
	awk -F', *' -v d=$((period_ms * 1000000)) -v s="$s" '
		{ n++; v[n] = $2 }
		$2 > d { m++; printf "%s at %d ms: %d us; ", s, $1, $2 / 1000 >>"/tmp/sr.miss" }
		END {
			for (i = 2; i <= n; i++) {	# insertion sort, n < 200
				x = v[i]
				for (j = i - 1; j > 0 && v[j] > x; j--) v[j + 1] = v[j]
				v[j + 1] = x
			}
			k = int(n * 0.99)
			q = int(n * 0.9)
			printf "%d %d %d %d ", n + 0, m + 0, int(v[k > 0 ? k : 1] / 1000),
				int(v[q > 0 ? q : 1] / 1000)
		}' /tmp/sr_clat.1.log
	echo $((r2 - r1))
}

# one_round SCHED TAGS WHAT: a round of SCHED (see run), added to the
# sums of rounds
one_round() {
	local s=$1 tags=$2 what=$3 try rc n m p99 p90 gr
	# A stall of the guest is a late read: a run that saw one
	# (stall_again) runs again, up to three; its misses are noted anew.
	for try in 1 2 3; do
		cp /tmp/sr.miss /tmp/sr.miss0
		stall_watch
		run "$s" "$tags" >/tmp/sr.res
		rc=$?
		stall_again $try || break
		mv /tmp/sr.miss0 /tmp/sr.miss
	done
	rm -f /tmp/sr.miss0
	if [ $rc != 0 ]; then
		not_ok "$s$what: periodic reader ran"
		return
	fi
	read -r n m p99 p90 gr </tmp/sr.res
	diag "$s$what ($(cat /sys/block/$dev/queue/nr_requests) tags): $n reads of $pace, $m took over ${period_ms} ms, p99 $p99 us, p90 $p90 us; the device read $gr times meanwhile"
	[ "$s" != xbfq ] || diag "xbfq's counters$what: $(cat /tmp/sr.ctr)"
	case $s in
	bfq) bn=$((bn + n)) bm=$((bm + m)) bg=$((bg + gr)) ;;
	xbfq)
		xn=$((xn + n)) xm=$((xm + m)) xg=$((xg + gr))
		# every read's latency (ns), for the percentiles of all of
		# xbfq's rounds together
		awk -F', *' '{ print $2 }' /tmp/sr_clat.1.log >>/tmp/sr.xlat
		# a second round keeps the first's instance: its counter is
		# the total
		xr=$(awk '{ for (i = 1; i < NF; i++) if ($i == "reads_reserved") print $(i + 1) }' /tmp/sr.ctr)
		;;
	esac
}

# rounds TAGS: the schedulers' rounds with TAGS (see run), the checks
rounds() {
	local tags=$1 what=${2:-} s order nr
	bn=0 bm=0 bg=0 xn=0 xm=0 xg=0 xr=0
	: >/tmp/sr.miss
	: >/tmp/sr.xlat
	if [ "$STOCK" = 0 ]; then
		order=xbfq
	elif [ "$tags" = 64 ]; then
		order="bfq xbfq"
	else
		order="bfq xbfq xbfq bfq"
	fi
	nr=$(echo "$order" | tr ' ' '\n' | grep -c '^xbfq$')
	[ "$XD_REFERENCE" = 0 ] || order="mq-deadline $order"
	for s in $order; do
		one_round "$s" "$tags" "$what"
	done
	# At 64 tags a round of each decides, unless xbfq's misses are over
	# the bar: then a second round of each, the other way round (a host
	# that slowed one round weighs on both; session 43 saw xbfq's
	# round beside a booting debug guest miss 4 with the device's rate
	# at 0.7x), and the sums decide.
	if [ "$tags" = 64 ] && [ "$STOCK" = 1 ] && [ "$XD_DEVTIME" -le 100 ] &&
		[ "$xm" -gt $((bm + 2)) ]; then
		diag "xbfq missed $xm deadlines, bfq $bm: a second round of each"
		one_round xbfq "$tags" "$what"
		one_round bfq "$tags" "$what"
		nr=2
	fi
	# xbfq's reads of every round, sorted: their p99 and p90, in us
	xp=$(sort -n /tmp/sr.xlat | awk '{ v[NR] = $1 } END { k = int(NR * 0.99); print int(v[k > 0 ? k : 1] / 1000) }')
	xq=$(sort -n /tmp/sr.xlat | awk '{ v[NR] = $1 } END { k = int(NR * 0.9); print int(v[k > 0 ? k : 1] / 1000) }')
	[ ! -s /tmp/sr.miss ] || diag "the misses$what (time into the reader's run, latency): $(cat /tmp/sr.miss)"
	if [ "$XD_DEVTIME" -gt 100 ]; then
		[ "$STOCK" = 0 ] ||
			diag "slow guest$what, not asserted: xbfq $xm misses of $xn reads, bfq $bm of $bn"
	else
		cmp_ok "$xm" -le "$((bm + 2))" "xbfq: deadline misses at most bfq's plus two$what ($xm against $bm, of $xn and $bn reads)"
	fi
	if [ "$tags" != 64 ] && [ "$XD_DEVTIME" -gt 100 ]; then
		diag "slow guest$what: xbfq $xn reads of $((nr * pace)), p90 $xq us (not asserted)"
		return
	fi
	cmp_ok "$((xn * 100))" -ge "$((nr * pace * 95))" "xbfq's periodic reader kept its pace$what ($xn reads of $((nr * pace)))"
	if [ "$tags" = 64 ]; then
		cmp_ok "$xp" -lt "$((period_ms * 1000))" "xbfq: p99 $xp us over its $xn reads, under the period$what"
	else
		# Some reads of every scheduler miss here (bfq: 22-34 of
		# 150 a round), so the p99 is one of the misses: the p90
		# A round that a loaded host slows can miss more (make check,
		# session 44, 6.1: one xbfq round 18 misses, p90 91 ms, the
		# other 5, 4 ms; bfq's 27 and 23): the p90 of both rounds'
		# reads together, not the mean of each round's.
		cmp_ok "$xq" -lt "$((period_ms * 1000))" "xbfq: p90 $xq us over its $xn reads, under the period$what"
	fi
}
rounds 64
check "back to none" sched_set "$dev" none
rounds 2 ", 2 tags"
cmp_ok "$xr" -gt 0 "xbfq, 2 tags: reads kept off the raised reader's tag (reads_reserved $xr)"
if [ "$XD_DEVTIME" -le 100 ]; then
	cmp_ok "$((xg * 10))" -ge "$((bg * 8))" "xbfq, 2 tags: the greedy readers read at least 0.8x bfq's ($xg against $bg)"
elif [ "$STOCK" = 1 ]; then
	diag "slow guest, not asserted: the greedy readers read $xg times under xbfq, $bg under bfq"
fi
check "device idle" dev_idle "$dev"
check "back to none" sched_set "$dev" none
nullb_remove xbsr
done_testing
