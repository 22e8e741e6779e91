# SPDX-License-Identifier: GPL-2.0
# Where a periodic reader's time goes when the scheduler tags run out:
# run by bench/xbfq-tagwait.sh (its name does not start with a digit, so
# make check does not run it).  The workload of 50-xbfq-softrt with the
# device's default 2 scheduler tags (a null_blk that serves one request
# at a time in 1 ms): four greedy readers (random 64 KiB reads, io_uring,
# 16 in flight each), 5 s later a reader of 64 KiB every 40 ms for 8 s.
# Rounds in the order bfq, xbfq, xbfq, bfq, and bfq with its blk trace
# on (bfq+blk), which counts bfq's limits; there the trace's lines carry
# no timestamps (the blk tracer turns them off), so its times are -1.
# For each round, from the
# block layer's trace events of the periodic reader's reads (bio queued,
# request inserted, dispatched, completed) and blk-mq's sched_tags
# sampled every 50 ms, one line
#   # RESULT SCHED READS MISSES WAIT_US FREE SCHED_US DEV_US TAGS WAITERS GREEDY LIMITED
# READS and MISSES (over 40 ms) from fio's latency log; WAIT_US the mean
# time from bio to insertion (the wait for a tag), FREE the reads that
# got theirs within 1 ms, SCHED_US insertion to dispatch, DEV_US the
# device; TAGS and WAITERS the mean tags in use and tasks waiting for
# one (x100); GREEDY the device's reads in the 8 s; LIMITED bfq's "too
# many requests" messages in the bfq+blk round (allocations its
# limit_depth held to one tag a word), xbfq's group_limited and
# reads_reserved counters (allocations its limit_depth limited); -1
# where not available.  On standard error (the guest's log), for xbfq,
# its sync queues' debugfs lines at 2, 4 and 6 s into the periodic
# reader and its raising counters after each round.  The checks are only
# that each round ran.
. /tests/lib.sh

dev=$(nullb_create xbtw submit_queues=1 size=4096 hw_queue_depth=1 \
	irqmode=2 completion_nsec="$(devtime 1000000)")
T=/sys/kernel/tracing
[ -d $T/events/block ] || T=/sys/kernel/debug/tracing
EV="block_bio_queue block_rq_insert block_rq_issue block_rq_complete"

# events 0|1: the block events of the periodic reader's sectors off or on
events() {
	local e
	for e in $EV; do
		echo 'sector >= 7340032' >$T/events/block/$e/filter
		echo "$1" >$T/events/block/$e/enable
	done
}

# run SCHED [BLK]: prints the RESULT fields after SCHED; with BLK and
# bfq, its blk trace on for its limit count
run() {
	local s=$1 g sp qp r1 r2 lim=-1 blk=0
	sched_set "$dev" "$s" || return 1
	fio --name=g --filename="/dev/$dev" --size=3g --rw=randread --bs=64k \
		--direct=1 --ioengine=io_uring --iodepth=16 --numjobs=4 \
		--time_based --runtime=14 >/dev/null 2>&1 &
	g=$!
	sleep 5
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 40000 >$T/buffer_size_kb
	events 1
	if [ -n "${2:-}" ] && [ -e /sys/block/$dev/trace/enable ] &&
		echo blk >$T/current_tracer 2>/dev/null; then
		echo notify >/sys/block/$dev/trace/act_mask
		echo 1 >/sys/block/$dev/trace/enable
		blk=1
	fi
	l0=0
	[ "$s" != xbfq ] ||
		l0=$(($(xd_stat "$dev" group_limited) + $(xd_stat "$dev" reads_reserved)))
	echo 1 >$T/tracing_on
	read -r r1 _ </sys/block/$dev/stat
	(while :; do
		awk -F= '$1 == "busy" { b = $2 } $1 == "ws_active" { w = $2 }
			END { print b + 0, w + 0 }' \
			/sys/kernel/debug/block/$dev/hctx0/sched_tags
		sleep 0.05
	done >/tmp/tw.samp) &
	sp=$!
	qp=
	if [ "$s" = xbfq ]; then
		(for t in 2 4 6; do
			sleep 2
			grep -E "^pid [0-9]+ sync " /sys/kernel/debug/block/$dev/sched/queues |
				sed "s/^/# sync queues at ${t}s: /"
		done >&2) &
		qp=$!
	fi
	rm -f /tmp/tw_clat.*.log
	fio --name=p --filename="/dev/$dev" --offset=3584m --size=512m \
		--rw=read --bs=64k --direct=1 --ioengine=psync --rate_iops=25 \
		--time_based --runtime=8 --write_lat_log=/tmp/tw \
		--log_avg_msec=0 >/tmp/tw.out 2>&1 ||
		{ cat /tmp/tw.out >&2; kill $sp $qp; wait $g; return 1; }
	echo 0 >$T/tracing_on
	kill $sp
	wait $sp $qp 2>/dev/null
	read -r r2 _ </sys/block/$dev/stat
	if [ "$s" = xbfq ]; then
		lim=$(($(xd_stat "$dev" group_limited) + $(xd_stat "$dev" reads_reserved) - l0))
		diag "xbfq: $(grep -E '^(wr_interactive|wr_softrt|active_raised) ' \
			"/sys/kernel/debug/block/$dev/sched/stats" | tr '\n' ' ')" >&2
	fi
	if [ $blk = 1 ]; then
		echo 0 >/sys/block/$dev/trace/enable
		lim=$(grep -c 'too many requests' $T/trace)
	fi
	wait $g
	events 0
	[ $blk = 0 ] || echo nop >$T/current_tracer
	awk -F', *' '{ n++; if ($2 > 40000000) m++ } END { printf "%d %d ", n, m + 0 }' \
		/tmp/tw_clat.1.log
	# the periodic reader's reads, keyed by sector: Q, I, D, C times
	awk '
		/ block_(bio_queue|rq_insert|rq_issue|rq_complete): / {
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^[0-9]+\.[0-9]+:$/) t = substr($i, 1, length($i) - 1)
				if ($i == "+") s = $(i - 1)
			}
			if ($0 ~ /block_bio_queue/) q[s] = t
			else if ($0 ~ /block_rq_insert/) ins[s] = t
			else if ($0 ~ /block_rq_issue/) d[s] = t
			else if ((s in q) && (s in ins) && (s in d)) {
				n++
				w = (ins[s] - q[s]) * 1e6
				sw += w; f += w < 1000
				si += (d[s] - ins[s]) * 1e6; sd += (t - d[s]) * 1e6
			}
		}
		END {
			if (n) printf "%d %d %d %d ", sw / n, f, si / n, sd / n
			else printf "-1 -1 -1 -1 "
		}' $T/trace
	awk '{ n++; b += $1; w += $2 } END { printf "%d %d ", n ? b * 100 / n : -1, n ? w * 100 / n : -1 }' /tmp/tw.samp
	echo "$((r2 - r1)) $lim"
}

for s in bfq xbfq xbfq bfq bfq+blk; do
	b=
	[ "$s" = bfq+blk ] && b=1
	res=$(run ${s%+blk} $b)
	check "$s: the round ran" [ -n "$res" ]
	echo "# RESULT $s $res"
done
check "device idle" dev_idle "$dev"
check "back to none" sched_set "$dev" none
nullb_remove xbtw
done_testing
