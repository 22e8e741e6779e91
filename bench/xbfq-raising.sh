#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# xbfq-raising.sh [LABEL...]: xbfq's interactive raising time, automatic
# (the default) against a fixed 3 s, beside bfq.  Boots each LABEL's
# kernel (default 7.x) in the test VM, runs tests/vm/tests/xbfq-raising.sh
# there (an application of 64 KiB files on simdisk's HDD model, 1 or 4 s
# after four sequential readers or four writers; a new instance each
# round, and the 4 s cases again on an instance warmed by 20 s of reads)
# and prints each case's rounds, in seconds, per variant.  Run it with
# VM_APPEND="xd.scale=300 xd.test_timeout=3000" (600 files, longer to
# load than 3 s): about 10 min per kernel on an idle 2-core host; a
# round beside the writers can take a minute under bfq.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/tests/vm/common.sh"
[ $# -gt 0 ] || set -- 7.x
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-6s %-8s %5s  %s\n' kernel load lead "variant: rounds (s)"
for label in "$@"; do
	guest_results "$label" xbfq-raising "$tmp" >"$tmp/$label.res"
	awk -v k="$label" '
		{
			key = $3 " " $4
			if (!(key in seen)) { seen[key] = 1; order[++n] = key }
			v = $5
			if (!((key, v) in c)) { vs[key] = vs[key] " " v; c[key, v] = 0 }
			r[key, v] = r[key, v] sprintf("%s%.1f", c[key, v]++ ? ", " : "", $6 / 1000)
		}
		END {
			for (i = 1; i <= n; i++) {
				split(order[i], a, " ")
				line = ""
				m = split(vs[order[i]], w, " ")
				for (j = 1; j <= m; j++)
					line = line (j > 1 ? "; " : "") w[j] " " r[order[i], w[j]]
				printf "%-6s %-8s %4ss  %s\n", k, a[1], a[2], line
			}
		}' "$tmp/$label.res"
done
