#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/mttcg.sh [LABEL...]: contention with two CPUs truly in parallel.
# Multi-threaded TCG, 2 vCPUs on the host's cores (run it on an otherwise
# idle 2-core or larger host), the seed 000 and seed 001 cells, every
# scheduler interleaved, REPEATS (default 5) runs each, BOOTS (default 2)
# boots per kernel label (default 7.x 6.1).  Each boot's table is
# build/bench/mttcg/LABEL-bootN.md (BENCH_NAME replaces mttcg); last,
# bench/ratios.py prints each cell's median ratios (xdeadline to
# mq-deadline, xbfq to bfq) per boot.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
labels=${*:-7.x 6.1}
boots=${BOOTS:-2}
out=${BENCH_OUT:-$bench/../build/bench}/${BENCH_NAME:-mttcg}
mkdir -p "$out"
for label in $labels; do
	for b in $(seq 1 "$boots"); do
		VM_ACCEL=tcg,thread=multi VM_SMP=2 \
			SCHEDS="${SCHEDS:-none mq-deadline kyber bfq xbfq xbfq:local_dispatch=0 xdeadline xdeadline:local_dispatch=0}" \
			WORKLOADS="seed000 seed001" REPEATS="${REPEATS:-5}" \
			RUNTIME="${RUNTIME:-2}" BENCH_OUT="$out/$label-boot$b" \
			"$bench/run.sh" "$label" >/dev/null
		cp "$out/$label-boot$b/$label.md" "$out/$label-boot$b.md"
		cp "$out/$label-boot$b/$label.json" "$out/$label-boot$b.json"
	done
done
python3 "$bench/ratios.py" "$out"/*-boot*.json
