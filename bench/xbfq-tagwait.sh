#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# xbfq-tagwait.sh [LABEL...]: a periodic reader beside greedy readers
# where the scheduler tags run out (2 tags), bfq beside xbfq, and where
# the periodic reader's time goes.  Boots each LABEL's kernel (default
# 7.x) in the test VM, runs tests/vm/tests/xbfq-tagwait.sh there and
# prints one row per round: the periodic reader's reads and misses (over
# 40 ms), its mean wait for a tag (bio to insertion) and the reads that
# found one within 1 ms, the mean time in the scheduler and in the
# device, the mean tags in use and tasks waiting for one, the greedy
# readers' reads in the 8 s, and the allocations held to one tag (bfq:
# its "too many requests" messages, in a fifth round, bfq+blk, with its
# blk trace on, where the times are not measured: "-").  About 3 min per
# kernel.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/tests/vm/common.sh"
[ $# -gt 0 ] || set -- 7.x
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %-7s %5s %6s %8s %5s %8s %7s %5s %7s %6s %7s\n' kernel sched \
	reads missed wait_ms free sched_ms dev_ms tags waiting greedy limited
for label in "$@"; do
	guest_results "$label" xbfq-tagwait "$tmp" |
		awk -v k="$label" '
			function ms(us, d) { return us < 0 ? "-" : sprintf("%." d "f", us / 1000) }
			{
				printf "%-6s %-7s %5d %6d %8s %5s %8s %7s %5.2f %7.1f %6d %7s\n",
					k, $3, $4, $5, ms($6, 1), $7 < 0 ? "-" : $7,
					ms($8, 2), ms($9, 2), $10 / 100, $11 / 100, $12,
					$13 < 0 ? "-" : $13
			}'
done
