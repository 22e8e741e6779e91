# SPDX-License-Identifier: GPL-2.0
# Guest side of the scheduler benchmark (busybox sh + fio).  Installed as
# /tests/bench.sh and run by the harness's /init for xd.tests=bench.
#
# Settings come from the kernel command line (lists separated by "/"):
#   bench.scheds=none/mq-deadline/xdeadline:defer_insert=0   schedulers;
#       "NAME:knob=val,knob=val" is a variant: NAME with iosched knobs set
#   bench.workloads=seed000/seed001/merge/cpu
#   bench.runtime=SECONDS  bench.repeats=N  bench.ramp=SECONDS
#   bench.jobs=N           "many jobs" count (default: the vCPU count)
#
# For every workload cell the schedulers run interleaved on one device
# (A B C A B C ...).  Each run prints one line
#   BENCH-RUN cell=... sched=... rep=... key=value ...
# the raw fio terse line as "BENCH-TERSE cell sched rep <terse>" and, where
# the scheduler has a debugfs stats file, "BENCH-SCHEDSTAT cell sched rep k=v...".
# The host (bench/report.py, bench/table.awk) aggregates them.
. /tests/lib.sh

scheds="none/mq-deadline/kyber/bfq/xdeadline"
workloads="seed000/seed001/merge/cpu"
runtime=3
repeats=3
ramp=0
ncpu=$(nproc)
jobs=$ncpu
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	bench.scheds=*) scheds=${arg#*=} ;;
	bench.workloads=*) workloads=${arg#*=} ;;
	bench.runtime=*) runtime=${arg#*=} ;;
	bench.repeats=*) repeats=${arg#*=} ;;
	bench.ramp=*) ramp=${arg#*=} ;;
	bench.jobs=*) jobs=${arg#*=} ;;
	esac
done
scheds=$(echo "$scheds" | tr / ' ')
workloads=$(echo "$workloads" | tr / ' ')

# Schedulers that are modules of the distro kernel, shipped by bench/run.sh
# outside the harness's module tree.
for ko in /bench/modules/*.ko; do
	[ -e "$ko" ] && insmod "$ko" 2>/dev/null
done
modprobe xdeadline 2>/dev/null
modprobe xbfq 2>/dev/null

echo "BENCH-BEGIN kernel=$(uname -r) cpus=$ncpu jobs=$jobs runtime=$runtime repeats=$repeats ramp=$ramp"

# Keep only schedulers the kernel offers (probe on a throwaway device).
probe=$(nullb_create probe size=64) || { not_ok "create a null_blk device"; done_testing; exit 1; }
avail=
for s in $scheds; do
	base=${s%%:*}
	if sched_set "$probe" "$base"; then
		avail="$avail $s"
	else
		echo "BENCH-SKIP sched=$s reason=unavailable"
		diag "scheduler $base not available on $(uname -r): skipped"
	fi
done
sched_set "$probe" none
nullb_remove probe
scheds=$avail
[ -n "$scheds" ] && ok "schedulers available:$scheds" || not_ok "no scheduler available"

# use DEV SCHED: switch DEV to SCHED ("name:knob=val,..."), set its knobs.
# Writing the current scheduler's name is a no-op that would keep the
# previous variant's knobs and counters, so detach it first.
use() {
	local dev=$1 base=${2%%:*} kv
	if [ "$base" != none ] && [ "$(sched_current "$dev")" = "$base" ]; then
		sched_set "$dev" none || return 1
	fi
	sched_set "$dev" "$base" || return 1
	case "$2" in *:*) ;; *) return 0 ;; esac
	for kv in $(echo "${2#*:}" | tr , ' '); do
		echo "${kv#*=}" >"/sys/block/$dev/queue/iosched/${kv%%=*}" || return 1
	done
}

# devstat DEV: read-ios read-merges read-sectors write-ios write-merges write-sectors
devstat() { awk '{ print $1, $2, $3, $5, $6, $7 }' "/sys/block/$1/stat"; }

fails=0
# run CELL DEV SCHED REP NJOBS FIO-ARGS...: one measured fio run.
run() {
	local cell=$1 dev=$2 sched=$3 rep=$4 nj=$5 before after line st
	shift 5
	if ! use "$dev" "$sched"; then
		fails=$((fails + 1))
		echo "BENCH-ERROR cell=$cell sched=$sched rep=$rep what=switch"
		return
	fi
	sync
	before=$(devstat "$dev")
	if ! fio --output=/tmp/fio.out --output-format=terse --terse-version=3 \
		--filename="/dev/$dev" --group_reporting=1 --time_based=1 \
		--runtime="$runtime" --ramp_time="$ramp" --numjobs="$nj" --thread "$@" \
		>/tmp/fio.err 2>&1; then
		fails=$((fails + 1))
		echo "BENCH-ERROR cell=$cell sched=$sched rep=$rep what=fio"
		sed 's/^/# fio: /' /tmp/fio.err | head -n 5
		return
	fi
	after=$(devstat "$dev")
	line=$(grep '^3;' /tmp/fio.out | tail -n 1)
	echo "BENCH-TERSE $cell $sched $rep $line"
	# xdeadline's (and xbfq's) debugfs counters, reset by the switch.
	st=/sys/kernel/debug/block/$dev/sched/stats
	[ ! -r "$st" ] || echo "BENCH-SCHEDSTAT $cell $sched $rep $(awk 'NF == 2 { printf "%s=%s ", $1, $2 }' "$st")"
	# terse v3: 6-46 read, 47-87 write (iops 8/49, KiB/s 7/48, clat
	# percentiles 18-37/59-78 as "P%=usec"), 88 usr%, 89 sys%.
	echo "$line" | awk -F';' -v cell="$cell" -v sched="$sched" -v rep="$rep" -v nj="$nj" \
		-v before="$before" -v after="$after" '
	function pct(base, want,   i, kv) {
		for (i = base; i < base + 20; i++) {
			split($i, kv, "%=")
			if (kv[1] + 0 == want && kv[1] != "0") return kv[2] + 0
		}
		return 0
	}
	{
		iops = $8 + $49; kib = $7 + $48
		usr = $88; sys = $89; sub(/%/, "", usr); sub(/%/, "", sys)
		rd = ($8 >= $49) ? 18 : 59
		split(before, b, " "); split(after, a, " ")
		rios = a[1] - b[1]; rmrg = a[2] - b[2]; rsec = a[3] - b[3]
		wios = a[4] - b[4]; wmrg = a[5] - b[5]; wsec = a[6] - b[6]
		ios = rios + wios
		avgkib = ios ? (rsec + wsec) / 2 / ios : 0
		cpu = iops ? (usr + sys) / 100 * nj * 1e6 / iops : 0
		scpu = iops ? sys / 100 * nj * 1e6 / iops : 0
		printf "BENCH-RUN cell=%s sched=%s rep=%s jobs=%s iops=%.0f kibps=%.0f usr=%.2f sys=%.2f cpu_us_io=%.3f sys_us_io=%.3f p50=%d p99=%d p999=%d rios=%d rmerges=%d rsect=%d wios=%d wmerges=%d wsect=%d merges=%d avgkib=%.2f\n", \
			cell, sched, rep, nj, iops, kib, usr, sys, cpu, scpu, \
			pct(rd, 50), pct(rd, 99), pct(rd, 99.9), \
			rios, rmrg, rsec, wios, wmrg, wsec, rmrg + wmrg, avgkib
	}'
}

# cell NAME DEV NJOBS FIO-ARGS...: all schedulers, interleaved, REPEATS times.
cell() {
	local name=$1 dev=$2 nj=$3 rep=1 s
	shift 3
	while [ $rep -le "$repeats" ]; do
		for s in $scheds; do
			run "$name" "$dev" "$s" "$rep" "$nj" "$@"
		done
		rep=$((rep + 1))
	done
	use "$dev" none
}

fast="irqmode=0 completion_nsec=0 hw_queue_depth=1024 size=1024 memory_backed=0 blocksize=512"
seed000="--name=scaletest --bs=512 --gtod_reduce=1 --invalidate=1 --ioengine=io_uring
	--norandommap --rw=randread --buffered=0 --fixedbufs=1 --iodepth=4
	--iodepth_batch_submit=4 --iodepth_batch_complete=4"

for w in $workloads; do
	case "$w" in
	seed000)
		# Jens Axboe's scalability job: 1 and N hardware queues.
		d1=$(nullb_create sq submit_queues=1 $fast)
		cell "seed000-hq1-j1" "$d1" 1 $seed000
		cell "seed000-hq1-j$jobs" "$d1" "$jobs" $seed000
		nullb_remove sq
		if [ "$ncpu" -gt 1 ]; then
			dn=$(nullb_create mq submit_queues="$ncpu" $fast)
			cell "seed000-hq$ncpu-j$jobs" "$dn" "$jobs" $seed000
			nullb_remove mq
		fi
		;;
	seed001)
		# Ming Lei's batch-dispatch job: 4 KiB randwrite, QD 32, batch 8.
		dn=$(nullb_create mq1 submit_queues="$ncpu" $fast)
		cell "seed001-hq$ncpu-j$jobs" "$dn" "$jobs" --name=randwrite --rw=randwrite \
			--bs=4k --direct=1 --ioengine=io_uring --iodepth=32 \
			--iodepth_batch_submit=8 --iodepth_batch_complete=8
		nullb_remove mq1
		;;
	merge)
		# An HDD-like device (1 ms per request, 8 tags: at most 8000
		# requests/s, so the device and not TCG is the bottleneck) with
		# 4 sequential streams of 4 KiB I/O, each in its own region:
		# throughput depends on requests merging while they wait for a tag.
		ds=$(nullb_create slow submit_queues=1 irqmode=2 completion_nsec=1000000 \
			hw_queue_depth=8 size=4096 memory_backed=0 blocksize=512)
		# (The static fio has no libaio; io_uring at QD 16 per stream.)
		seq="--bs=4k --direct=1 --ioengine=io_uring --iodepth=16 --size=512m --offset_increment=512m"
		cell "merge-write-j4" "$ds" 4 --name=seqwrite --rw=write $seq
		cell "merge-read-j4" "$ds" 4 --name=seqread --rw=read $seq
		nullb_remove slow
		;;
	cpu)
		# Per-I/O cost and latency: one job, QD 1, 4 KiB random reads.
		d1=$(nullb_create cpu submit_queues=1 $fast)
		cell "cpu-4k-qd1-j1" "$d1" 1 --name=qd1 --rw=randread --bs=4k \
			--direct=1 --ioengine=io_uring --iodepth=1 --norandommap \
			--percentile_list=50:99:99.9
		nullb_remove cpu
		;;
	*)
		echo "BENCH-ERROR cell=$w what=unknown-workload"
		fails=$((fails + 1))
		;;
	esac
done
echo "BENCH-END fails=$fails"
is "$fails" 0 "benchmark runs without errors"
done_testing
