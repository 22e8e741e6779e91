#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# xbfq-startup.sh [LABEL...]: responsiveness beside bfq and mq-deadline
# (the xbfq issue's proof 2).  Boots each LABEL's kernel (default 7.x) in
# the test VM, runs tests/vm/tests/xbfq-startup.sh there (an application
# reading 200 files of 64 KiB on simdisk's HDD model while four sequential
# readers, then four writers, keep the disk busy) and prints, per load and
# lead time, the application's time under each scheduler: mq-deadline's
# one round, the mean of bfq's and of xbfq's two rounds, and xbfq / bfq.
# About 4 min per kernel on an idle 2-core host.  VM_APPEND="xd.scale=300
# xd.test_timeout=3000" reads 600 files instead (an application that
# loads for longer than the shortest raising time, 3 s); a round beside
# the writers can take a minute under bfq there.  bench/xbfq-raising.sh
# compares xbfq's raising times on that application.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/tests/vm/common.sh"
[ $# -gt 0 ] || set -- 7.x
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %-8s %5s %12s %9s %9s %11s\n' kernel load "lead" "mq-deadline" bfq xbfq "xbfq/bfq"
for label in "$@"; do
	guest_results "$label" xbfq-startup "$tmp" >"$tmp/$label.res"
	awk -v k="$label" '
		{
			key = $3 " " $4
			if (!(key in seen)) { seen[key] = 1; order[++n] = key }
			sum[key, $5] += $6; cnt[key, $5]++
		}
		END {
			for (i = 1; i <= n; i++) {
				split(order[i], a, " ")
				m = sum[order[i], "mq-deadline"]
				b = sum[order[i], "bfq"] / cnt[order[i], "bfq"]
				x = sum[order[i], "xbfq"] / cnt[order[i], "xbfq"]
				printf "%-6s %-8s %4ss %10d ms %6d ms %6d ms %10.2fx\n", k,
					a[1], a[2], m, b, x, x / b
			}
		}' "$tmp/$label.res"
done
