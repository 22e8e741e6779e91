#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/profile.sh LOG CELL [SCHED...]: the BENCH-PROFILE lines of a
# `PROFILE=1 bench/run.sh` log side by side: one row per kernel symbol, one
# column per scheduler (percent of all samples, mean over the repeats),
# largest first.  Under -icount the samples
# count instructions, so a column times the run's instructions per I/O is
# that symbol's share of them.
set -euo pipefail
log=${1:?usage: profile.sh LOG CELL [SCHED...]}
cell=${2:?}
shift 2
tr -d '\r' <"$log" | awk -v cell="$cell" -v want="$*" '
	$1 == "BENCH-PROFILE" && $2 == cell {
		s = $3; if (!(s in seen)) { seen[s] = 1; order[++ns] = s }
		reps[s, $4] = 1; pct[s, $6] += $5
		if (!($6 in known)) { known[$6] = 1; syms[++nsym] = $6 }
	}
	END {
		if (want != "") ns = split(want, order, " ")
		for (i = 1; i <= ns; i++) for (k in reps) { split(k, a, SUBSEP); if (a[1] == order[i]) nrep[order[i]]++ }
		printf "%-40s", "symbol"
		for (i = 1; i <= ns; i++) printf " %12s", order[i]
		printf "\n"
		for (j = 1; j <= nsym; j++) {
			line = sprintf("%-40s", substr(syms[j], 1, 40)); max = 0
			for (i = 1; i <= ns; i++) {
				s = order[i]; v = nrep[s] ? pct[s, syms[j]] / nrep[s] : 0
				if (v > max) max = v
				line = line sprintf(" %12.2f", v)
			}
			if (max >= 0.2) printf "%.2f %s\n", max, line
		}
	}' | { read -r head; echo "$head"; sort -rn | cut -d' ' -f2-; }
