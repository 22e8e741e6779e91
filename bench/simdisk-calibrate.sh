#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# simdisk-calibrate.sh [LABEL]: the seed 002 experiment on simdisk.  Boots
# the LABEL kernel (default 7.x, the one with queue/zoned_qd1_writes) in the
# test VM, runs tests/vm/tests/simdisk-calibrate.sh there (fio zonemode=zbd,
# 1 MiB sequential writes across zone boundaries, QD 1..128, with
# zoned_qd1_writes 0 and 1) and prints the table next to the seed's figures
# for a 30 TB SMR disk.  Parameters: see the guest script and docs/simdisk.md.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/tests/vm/common.sh"
label=${1:-7.x}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_guest_script "$label" simdisk-calibrate "$tmp/log" ||
	die "calibration run failed (log: $tmp/log)"
# fio: MB/s the guest saw; model: media rate while destaging (model clock)
printf '%-5s %10s %10s %10s %10s %10s %10s\n' QD "fio qd1=0" "model" "fio qd1=1" "model" \
	"seed base" "seed qd1"
grep -ao '# RESULT [0-9].*' "$tmp/log" | awk '
	BEGIN {
		split("244 244 245 242 222 211 193 112", base)
		split("245 245 245 245 246 245 244 246", patched)
	}
	{
		bw[$3, $4] = $5; mod[$3, $4] = $6
		if (!($3 in seen)) { seen[$3] = 1; order[++n] = $3 }
	}
	END {
		for (i = 1; i <= n; i++)
			printf "%-5s %10s %10s %10s %10s %10s %10s\n", order[i],
				bw[order[i], 0], mod[order[i], 0], bw[order[i], 1],
				mod[order[i], 1], base[i], patched[i]
	}'
