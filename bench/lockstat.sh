#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/lockstat.sh [LABEL]: the scheduler lock's contention per 1000 I/Os
# for every scheduler the kernel has (on the debug kernel: mq-deadline,
# bfq and ours; kyber is not built there), from lockdep's lock statistics
# (/proc/lock_stat) on the debug kernel (default label debug, which has
# LOCK_STAT).  Two CPUs truly in parallel (multi-threaded TCG, 2 vCPUs), the
# seed 000 and seed 001 cells, REPEATS (default 3) interleaved runs each.
# The debug kernel (KASAN, lockdep) runs several times slower than a
# production one, so its absolute rates mean nothing and its contention
# is that of a slower CPU; compare the schedulers with each other.  The
# table: build/bench/lockstat/LABEL.md; last, bench/ratios.py prints the
# IOPS ratios and the contention table.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
label=${1:-debug}
out=${BENCH_OUT:-$bench/../build/bench}/lockstat
mkdir -p "$out"
VM_ACCEL=tcg,thread=multi VM_SMP=2 \
	SCHEDS="${SCHEDS:-mq-deadline kyber bfq xbfq xdeadline xdeadline:local_dispatch=0}" \
	WORKLOADS="seed000 seed001" REPEATS="${REPEATS:-3}" \
	RUNTIME="${RUNTIME:-2}" BENCH_OUT="$out" \
	"$bench/run.sh" "$label" >/dev/null
python3 "$bench/ratios.py" "$out/$label.json"
