# SPDX-License-Identifier: GPL-2.0
# table.awk: turn a benchmark's serial log (BENCH-* lines from
# bench/guest/bench.sh) into a markdown table of medians and ratios.
# POSIX awk only: it also runs from the portable bundle on hosts with no
# python.  Usage: awk -f table.awk SERIAL.LOG
#
# "spread" is (max - min) / median of a cell's IOPS: the run-to-run noise.
# Ratios compare medians of IOPS (the same block size in a cell, so also
# bandwidth) with `none` and `mq-deadline` in the same cell of the same boot.

function kv(line, key,   n, i, f, p) {
	n = split(line, f, " ")
	for (i = 1; i <= n; i++) {
		p = index(f[i], "=")
		if (p && substr(f[i], 1, p - 1) == key) return substr(f[i], p + 1)
	}
	return ""
}
function median(list,   n, v, i, j, t) {
	n = split(list, v, " ")
	if (n == 0) return 0
	for (i = 2; i <= n; i++) {
		t = v[i] + 0
		for (j = i - 1; j >= 1 && v[j] + 0 > t; j--) v[j + 1] = v[j]
		v[j + 1] = t
	}
	if (n % 2) return v[(n + 1) / 2] + 0
	return (v[n / 2] + v[n / 2 + 1]) / 2
}
function spread(list, med,   n, v, i, lo, hi) {	# (max - min) / median, in %
	n = split(list, v, " ")
	if (n < 2 || med <= 0) return "-"
	lo = hi = v[1] + 0
	for (i = 2; i <= n; i++) {
		if (v[i] + 0 < lo) lo = v[i] + 0
		if (v[i] + 0 > hi) hi = v[i] + 0
	}
	return sprintf("%.0f%%", (hi - lo) * 100 / med)
}
function si(x) {
	if (x >= 1e6) return sprintf("%.2fM", x / 1e6)
	if (x >= 1e5) return sprintf("%.0fk", x / 1e3)
	if (x >= 1e3) return sprintf("%.1fk", x / 1e3)
	return sprintf("%.0f", x)
}
function ratio(a, b) { return (b > 0) ? sprintf("%.2fx", a / b) : "-" }

{ sub(/\r$/, "") }
/BENCH-BEGIN / {
	sub(/.*BENCH-BEGIN /, "")
	kernel = kv($0, "kernel"); cpus = kv($0, "cpus")
	runtime = kv($0, "runtime"); repeats = kv($0, "repeats")
	next
}
/BENCH-SKIP / { sub(/.*BENCH-SKIP /, ""); skipped = skipped " " kv($0, "sched"); next }
/BENCH-ERROR / { sub(/.*BENCH-ERROR /, ""); errors++; next }
/BENCH-RUN / {
	sub(/.*BENCH-RUN /, "")
	c = kv($0, "cell"); s = kv($0, "sched")
	if (c == "" || s == "" || kv($0, "avgkib") == "") { bad++; next }
	if (!(c in cseen)) { cseen[c] = 1; cells[++nc] = c }
	if (!(s in sseen)) { sseen[s] = 1; scheds[++ns] = s }
	k = c SUBSEP s
	n[k]++
	nm = split("iops kibps sys cpu_us_io p99 merges avgkib", m, " ")
	for (i = 1; i <= nm; i++) val[k, m[i]] = val[k, m[i]] " " kv($0, m[i])
	next
}
END {
	printf "kernel %s, %s vCPUs, %s s per run, %s repeats interleaved; medians\n\n", \
		kernel, cpus, runtime, repeats
	print "| cell | scheduler | runs | IOPS | spread | MiB/s | vs none | vs mq-deadline | sys % | CPU us/IO | p99 us | merges | avg KiB |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for (ci = 1; ci <= nc; ci++) {
		c = cells[ci]
		base_none = median(val[c, "none", "iops"])
		base_dl = median(val[c, "mq-deadline", "iops"])
		for (si_ = 1; si_ <= ns; si_++) {
			s = scheds[si_]; k = c SUBSEP s
			if (!n[k]) continue
			iops = median(val[k, "iops"])
			p99 = median(val[k, "p99"])
			printf "| %s | %s | %d | %s | %s | %.1f | %s | %s | %.1f | %.2f | %s | %s | %.1f |\n", \
				c, s, n[k], si(iops), spread(val[k, "iops"], iops), median(val[k, "kibps"]) / 1024, \
				ratio(iops, base_none), ratio(iops, base_dl), \
				median(val[k, "sys"]), median(val[k, "cpu_us_io"]), \
				(p99 > 0 ? sprintf("%d", p99) : "-"), si(median(val[k, "merges"])), \
				median(val[k, "avgkib"])
		}
	}
	if (skipped != "") printf "\nskipped (not available):%s\n", skipped
	if (errors) printf "\n%d run(s) failed (BENCH-ERROR in the log)\n", errors
	if (bad) printf "\n%d garbled result line(s) ignored\n", bad
}
