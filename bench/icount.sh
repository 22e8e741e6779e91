#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/icount.sh [LABEL...]: CPU cost per I/O, without noise.  QEMU's
# -icount shift=0,sleep=off makes the guest clock count instructions (one
# per ns), so guest-clock IOPS of a 1-job cell give instructions per I/O,
# the same from run to run whatever else the host does.  One vCPU, every
# scheduler interleaved, REPEATS (default 3) runs of RUNTIME (default 1)
# guest seconds, cells cpu-4k-qd1-j1, seed000-hq1-j1 and seed001-hq1-j1
# (the write path: 4 KiB randwrite, QD 32, batch 8), per kernel label
# (default 6.1 6.12 7.x).  Then one boot with PROFILE=1 per label for the
# lock model (bench/lockmodel.py).  Tables: build/bench/icount/.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
labels=${*:-6.1 6.12 7.x}
out=${BENCH_OUT:-$bench/../build/bench}/icount
scheds=${SCHEDS:-none mq-deadline kyber bfq xbfq xbfq:local_dispatch=0 xdeadline xdeadline:local_dispatch=0}
mkdir -p "$out"
for label in $labels; do
	VM_QEMU_ARGS="-icount shift=0,sleep=off" VM_SMP=1 SCHEDS="$scheds" \
		WORKLOADS="cpu seed000 seed001" REPEATS="${REPEATS:-3}" RUNTIME="${RUNTIME:-1}" \
		BENCH_OUT="$out/$label" "$bench/run.sh" "$label" >/dev/null
	PROFILE=1 VM_QEMU_ARGS="-icount shift=0,sleep=off" VM_SMP=1 SCHEDS="$scheds" \
		WORKLOADS="cpu seed000 seed001" REPEATS=1 RUNTIME="${RUNTIME:-1}" \
		BENCH_OUT="$out/$label-profile" "$bench/run.sh" "$label" >/dev/null
	python3 "$bench/lockmodel.py" "$out/$label/$label.json" \
		"$out/$label-profile/$label.log" | tee "$out/$label.md"
done
