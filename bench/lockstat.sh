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
# is that of a slower CPU; compare the schedulers with each other.  One
# boot of bench/mttcg.sh with these settings: the table is
# build/bench/lockstat/LABEL-boot1.md; last, bench/ratios.py prints the
# IOPS ratios and the contention table.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
BENCH_NAME=lockstat BOOTS=1 REPEATS="${REPEATS:-3}" \
	SCHEDS="${SCHEDS:-mq-deadline kyber bfq xbfq xbfq:local_dispatch=0 xdeadline xdeadline:local_dispatch=0}" \
	exec "$bench/mttcg.sh" "${1:-debug}"
