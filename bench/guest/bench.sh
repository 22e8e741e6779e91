# SPDX-License-Identifier: GPL-2.0
# Guest side of the scheduler benchmark (busybox sh + fio).  Installed as
# /tests/bench.sh and run by the harness's /init for xd.tests=bench.
#
# Settings come from the kernel command line (lists separated by "/"):
#   bench.scheds=none/mq-deadline/xdeadline:defer_insert=0   schedulers;
#       "NAME:knob=val,knob=val" is a variant: NAME with iosched knobs set;
#       "queue.ATTR=val" sets /sys/block/DEV/queue/ATTR instead
#   bench.workloads=seed000/seed001/merge/cpu
#   bench.runtime=SECONDS  bench.repeats=N  bench.ramp=SECONDS
#   bench.jobs=N           "many jobs" count (default: the vCPU count)
#   bench.hddjobs=N        jobs of the hdd cells (default 16, seed 004)
#   bench.hddncq=N         the hdd disk's NCQ depth (default 32)
#   bench.smrzones=N       zones written per sequential smr run (default 3)
#   bench.profile=1        sample every run with perf (cpu-clock, all CPUs)
#   bench.cgroup=1         run fio in a cgroup below the root (io and, where
#                          the kernel has it, memory controllers on), as
#                          under systemd: xbfq's and bfq's group layers on
#       and print its top kernel symbols as "BENCH-PROFILE cell sched rep
#       PERCENT SYMBOL" lines (bench/profile.sh tabulates them)
#   bench.workloads may also name hdd, hddseq and smr (simdisk, tests/simdisk/):
#   their runs add the model's figures (model_mbps=... busy_pct=...) to
#   BENCH-RUN and print "BENCH-DISKSTAT cell sched rep <simdisk stats>".
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
hddjobs=16
hddncq=32
smrzones=3
profile=0
cgroup=0
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	bench.scheds=*) scheds=${arg#*=} ;;
	bench.workloads=*) workloads=${arg#*=} ;;
	bench.runtime=*) runtime=${arg#*=} ;;
	bench.repeats=*) repeats=${arg#*=} ;;
	bench.ramp=*) ramp=${arg#*=} ;;
	bench.jobs=*) jobs=${arg#*=} ;;
	bench.hddjobs=*) hddjobs=${arg#*=} ;;
	bench.hddncq=*) hddncq=${arg#*=} ;;
	bench.smrzones=*) smrzones=${arg#*=} ;;
	bench.profile=*) profile=${arg#*=} ;;
	bench.cgroup=*) cgroup=${arg#*=} ;;
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

# incg: the prefix that starts fio in the cgroup (bench.cgroup=1).
incg=
if [ "$cgroup" = 1 ]; then
	cg_setup
	mkdir -p "$CG/bench"
	printf '#!/bin/sh\necho $$ >%s/bench/cgroup.procs && exec "$@"\n' "$CG" >/tmp/incg
	chmod +x /tmp/incg
	incg=/tmp/incg
	diag "fio runs in $CG/bench"
fi

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
# A knob "queue.ATTR=val" is a queue attribute (/sys/block/DEV/queue/ATTR,
# e.g. 7.x's queue.zoned_qd1_writes), set before the scheduler's knobs and
# put back to its previous value by the next use.
# Writing the current scheduler's name is a no-op that would keep the
# previous variant's knobs and counters, so detach it first.
qrestore=
use() {
	local dev=$1 base=${2%%:*} kv
	for kv in $qrestore; do
		echo "${kv#*=}" >"/sys/block/$dev/queue/${kv%%=*}" 2>/dev/null
	done
	qrestore=
	if [ "$base" != none ] && [ "$(sched_current "$dev")" = "$base" ]; then
		sched_set "$dev" none || return 1
	fi
	sched_set "$dev" "$base" || return 1
	case "$2" in *:*) ;; *) return 0 ;; esac
	for kv in $(echo "${2#*:}" | tr , ' '); do
		case "$kv" in
		queue.*)
			kv=${kv#queue.}
			qrestore="$qrestore ${kv%%=*}=$(cat "/sys/block/$dev/queue/${kv%%=*}")"
			echo "${kv#*=}" >"/sys/block/$dev/queue/${kv%%=*}" || return 1
			;;
		esac
	done
	for kv in $(echo "${2#*:}" | tr , ' '); do
		case "$kv" in queue.*) continue ;; esac
		echo "${kv#*=}" >"/sys/block/$dev/queue/iosched/${kv%%=*}" || return 1
	done
}

# usable DEV SCHED: can this variant run on DEV?  A queue attribute the
# kernel lacks, or none on a zoned disk before zone write plugging (6.10),
# skips it (one BENCH-SKIP per variant and reason).
skipped_once=
usable() {
	local dev=$1 s=$2 kv why=
	for kv in $(echo "${s#*:}" | tr , ' '); do
		case "$s:$kv" in
		*:*:queue.*) kv=${kv#queue.}
			[ -e "/sys/block/$dev/queue/${kv%%=*}" ] || why="no-queue-${kv%%=*}" ;;
		esac
	done
	if [ "${s%%:*}" = none ] && [ "$(cat "/sys/block/$dev/queue/zoned")" != none ]; then
		case "$(uname -r)" in 5.*|6.[0-9].*|6.[0-9]-*) why=zoned-before-6.10 ;; esac
	fi
	[ -z "$why" ] && return 0
	case " $skipped_once " in *" $s/$why "*) ;; *)
		skipped_once="$skipped_once $s/$why"
		echo "BENCH-SKIP sched=$s reason=$why"
		diag "$s on $dev: $why, skipped" ;;
	esac
	return 1
}

# simdisk's own statistics (model clock), where DEV is a simdisk.
sdstat() { awk -v k="$2" '$1 == k { print $2 }' "/sys/kernel/debug/simdisk/$1/stats"; }
sddrain() {	# wait (at most 60 s) until the write cache is destaged
	local i=0
	while [ "$(sdstat "$1" cache_used_sectors)" != 0 ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
uptime_cs() { awk '{ printf "%d", $1 * 100 }' /proc/uptime; }
# fresh_mb: when set (zoned cells), each run writes from its own fresh
# offset (fresh_next MiB, advanced by fresh_mb), so no zone is reset.
fresh_mb=0
fresh_next=0

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
	local sd=/sys/kernel/debug/simdisk/$dev/stats model= t0 t1 off=
	if [ "$fresh_mb" -gt 0 ]; then
		off=--offset=${fresh_next}m
		fresh_next=$((fresh_next + fresh_mb))
	fi
	if [ -e "$sd" ]; then
		sddrain "$dev"
		echo 0 >"$sd"
	fi
	before=$(devstat "$dev")
	# lockdep's lock statistics (the debug kernel): from zero per run
	[ -w /proc/lock_stat ] && echo 0 >/proc/lock_stat
	t0=$(uptime_cs)
	local prof=
	# One sample per 20 us of CPU time (per 20000 instructions under icount).
	[ "$profile" = 1 ] && prof="perf record -q -a -e cpu-clock -c 20000 -o /tmp/perf.data --"
	if ! $prof $incg fio --output=/tmp/fio.out --output-format=terse --terse-version=3 \
		--filename="/dev/$dev" --group_reporting=1 --time_based=1 \
		--runtime="$runtime" --ramp_time="$ramp" --numjobs="$nj" --thread "$@" $off \
		>/tmp/fio.err 2>&1; then
		fails=$((fails + 1))
		echo "BENCH-ERROR cell=$cell sched=$sched rep=$rep what=fio"
		sed 's/^/# fio: /' /tmp/fio.err | head -n 5
		return
	fi
	after=$(devstat "$dev")
	if [ -e "$sd" ]; then
		# The model clock: media sectors (reads, and writes or, with the
		# write cache, its destages, waited for) over the time the
		# actuator was busy; busy_pct is that time over the wall time of
		# fio and the drain.
		sddrain "$dev"
		t1=$(uptime_cs)
		model=$(awk -v wall_cs=$((t1 - t0)) '
			NF == 2 { v[$1] = $2 }
			END {
				# with the write cache, writes reach the media as destages
				sec = v["read_sectors"] + v["destage_sectors"]
				if (!v["cache_writes"]) sec += v["write_sectors"]
				b = v["busy_ns"]; c = v["commands"]
				printf "model_mbps=%.3f model_iops=%.1f busy_pct=%.1f seeks=%d mean_seek_us=%d rot_us_cmd=%d streamed_pct=%.1f sd_cmds=%d zone_errors=%d", \
					b ? sec * 512 * 1000 / b : 0, b ? c * 1e9 / b : 0, \
					wall_cs ? b / 1e7 / wall_cs * 100 : 0, v["seeks"], v["mean_seek_us"], \
					c ? v["rot_wait_ns"] / 1000 / c : 0, c ? v["streamed"] * 100 / c : 0, \
					c, v["zone_write_errors"]
			}' "$sd")
		echo "BENCH-DISKSTAT $cell $sched $rep $(tr '\n' ' ' <"$sd")"
	fi
	line=$(grep '^3;' /tmp/fio.out | tail -n 1)
	echo "BENCH-TERSE $cell $sched $rep $line"
	if [ "$profile" = 1 ]; then
		perf report -i /tmp/perf.data --stdio --no-children --sort sym \
			--percent-limit 0.2 2>/dev/null |
			awk -v p="BENCH-PROFILE $cell $sched $rep" \
				'$1 ~ /%$/ { sub(/%/, "", $1); print p, $1, $NF }'
		rm -f /tmp/perf.data
	fi
	# The scheduler lock's contention where the kernel has lock_stat:
	# every I/O scheduler's lock class (mq-deadline's and xdeadline's
	# dd->lock, kyber's domain and context locks, bfq's bfqd->lock, xbfq's
	# xbd->lock), summed over the classes of that name; only the running
	# scheduler's move (a second class of one name is NAME#2; a class
	# without acquisitions since the reset is not listed: "none" then).
	# Columns: contentions, then acquisitions.
	[ ! -r /proc/lock_stat ] || awk -v p="BENCH-LOCKSTAT $cell $sched $rep" '
		$1 ~ /^&(dd|kqd|khd|kcq|bfqd|xbd)->lock(#[0-9]+)?:$/ {
			n = $1; sub(/(#[0-9]+)?:$/, "", n); c[n] += $3; a[n] += $9; any = 1
		}
		END {
			for (k in c) printf "%s %s contentions=%d acquisitions=%d\n", p, k, c[k], a[k]
			if (!any) printf "%s none contentions=0 acquisitions=0\n", p
		}' /proc/lock_stat
	# xdeadline's (and xbfq's) debugfs counters, reset by the switch.
	st=/sys/kernel/debug/block/$dev/sched/stats
	[ ! -r "$st" ] || echo "BENCH-SCHEDSTAT $cell $sched $rep $(awk 'NF == 2 { printf "%s=%s ", $1, $2 }' "$st")"
	# terse v3: 6-46 read, 47-87 write (iops 8/49, KiB/s 7/48, clat
	# percentiles 18-37/59-78 as "P%=usec"), 88 usr%, 89 sys%.
	echo "$line" | awk -F';' -v cell="$cell" -v sched="$sched" -v rep="$rep" -v nj="$nj" -v model="$model" \
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
		printf "BENCH-RUN cell=%s sched=%s rep=%s jobs=%s iops=%.0f kibps=%.0f usr=%.2f sys=%.2f cpu_us_io=%.3f sys_us_io=%.3f p50=%d p99=%d p999=%d rios=%d rmerges=%d rsect=%d wios=%d wmerges=%d wsect=%d merges=%d avgkib=%.2f%s\n", \
			cell, sched, rep, nj, iops, kib, usr, sys, cpu, scpu, \
			pct(rd, 50), pct(rd, 99), pct(rd, 99.9), \
			rios, rmrg, rsec, wios, wmrg, wsec, rmrg + wmrg, avgkib, \
			(model != "" ? " " model : "")
	}'
}

# cell NAME DEV NJOBS FIO-ARGS...: all schedulers, interleaved, REPEATS times.
cell() {
	local name=$1 dev=$2 nj=$3 rep=1 s
	shift 3
	local these=
	for s in $scheds; do
		usable "$dev" "$s" && these="$these $s"
	done
	while [ $rep -le "$repeats" ]; do
		for s in $these; do
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
	hdd)
		# simdisk as a 7200 rpm CMR disk (no write cache, NCQ $hddncq).  Seed
		# 004's job (psync, direct, 512 B, $hddjobs jobs at QD 1 each),
		# every job on its own 16 GiB region, so the sequential streams
		# interleave at the disk; then random 4 KiB reads over the whole
		# disk (the reviewer's "sequential and random separately").
		modprobe simdisk capacity_gb=1000 ncq_depth=$hddncq zero_reads=0 || {
			echo "BENCH-ERROR cell=hdd what=modprobe-simdisk"; fails=$((fails + 1)); continue; }
		hj=$hddjobs
		seq="--ioengine=psync --direct=1 --bs=512 --size=16g --offset_increment=16g"
		cell "hdd-seqread-j$hj" simdisk0 "$hj" --name=seqread --rw=read $seq
		cell "hdd-seqwrite-j$hj" simdisk0 "$hj" --name=seqwrite --rw=write $seq
		cell "hdd-mixed-j$hj" simdisk0 "$hj" --name=mixed --rw=rw --rwmixread=50 $seq
		cell "hdd-randread-j$hj" simdisk0 "$hj" --name=randread --rw=randread \
			--ioengine=psync --direct=1 --bs=4k --norandommap
		rmmod simdisk
		;;
	hddseq)
		# Sequential streams of their own, 1 MiB at QD 1, 100 GB apart,
		# on simdisk's 7200 rpm disk with its read cache (look-ahead):
		# 1, 2, 4 and 8 readers, 4 writers.  A lone reader streams; more
		# pay a seek at every switch between them unless the scheduler
		# idles for each (BFQ's throughput idling; issue 16's first
		# proof, docs/benchmarks.md "Sequential streams").
		modprobe simdisk capacity_gb=1000 ncq_depth=32 zero_reads=0 || {
			echo "BENCH-ERROR cell=hddseq what=modprobe-simdisk"; fails=$((fails + 1)); continue; }
		seq="--ioengine=psync --direct=1 --bs=1m --size=16g --offset_increment=100g"
		for hj in 1 2 4 8; do
			cell "hddseq-read-j$hj" simdisk0 "$hj" --name=seqread --rw=read $seq
		done
		cell "hddseq-write-j4" simdisk0 4 --name=seqwrite --rw=write $seq
		rmmod simdisk
		;;
	smr)
		# simdisk as a host-managed SMR disk with a write cache, as in
		# the seed 002 calibration (docs/simdisk.md), smaller: 4 TB.
		# 512 KiB commands (1 MiB unsplit zoned writes hit a kernel bug,
		# docs/simdisk.md).  Every run writes fresh zones from its own
		# offset (no resets) and stops after its data or RUNTIME.
		modprobe simdisk zoned=1 capacity_gb=4000 zone_size_mb=256 conv_zones=0 \
			ncq_depth=32 write_cache=1 cache_mb=64 zero_reads=0 max_io_kb=512 || {
			echo "BENCH-ERROR cell=smr what=modprobe-simdisk"; fails=$((fails + 1)); continue; }
		z=$smrzones
		zb="--zonemode=zbd --direct=1 --ioengine=io_uring --bs=512k --time_based=0"
		# Seed 002's first table: one sequential writer across zone
		# boundaries, QD 1, 8 and 32.
		fresh_mb=$(((z + 2) * 256))
		for qd in 1 8 32; do
			cell "smr-seqwrite-qd$qd" simdisk0 1 --name=seqw --rw=write $zb \
				--iodepth=$qd --size=$(((z + 1) * 256))m --io_size=$((z * 256))m
		done
		# Its second table: 4 writers (QD 8 each) to randomly chosen
		# zones among 16.
		fresh_mb=$((17 * 256))
		cell "smr-randzone-z16" simdisk0 4 --name=randz --rw=randwrite $zb \
			--iodepth=8 --size=$((16 * 256))m --io_size=$((z * 64))m
		fresh_mb=0
		rmmod simdisk
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
