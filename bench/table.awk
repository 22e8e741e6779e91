# SPDX-License-Identifier: GPL-2.0
# table.awk: turn a benchmark's serial log (BENCH-* lines from
# bench/guest/bench.sh) into a markdown table of medians and ratios.
# POSIX awk only: it also runs from the portable bundle on hosts with no
# python.  Usage: awk -f table.awk SERIAL.LOG
#
# "spread" is (max - min) / median of a cell's IOPS: the run-to-run noise.
# Ratios compare medians of IOPS (the same block size in a cell, so also
# bandwidth) with `none` and `mq-deadline` in the same cell of the same boot.
# Cells on simdisk (runs with model_mbps=...) get a second table on the
# disk model's clock, with ratios of the model's MB/s.

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
	if (kv($0, "model_mbps") != "") {
		model[c] = 1
		nm = split("model_mbps model_iops busy_pct mean_seek_us rot_us_cmd streamed_pct", m, " ")
		for (i = 1; i <= nm; i++) val[k, m[i]] = val[k, m[i]] " " kv($0, m[i])
	}
	next
}
END {
	printf "kernel %s, %s vCPUs, %s s per run, %s repeats interleaved; medians\n\n", \
		kernel, cpus, runtime, repeats
	for (ci = 1; ci <= nc; ci++) if (!(cells[ci] in model)) nplain++
	if (nplain) {
	print "| cell | scheduler | runs | IOPS | spread | MiB/s | vs none | vs mq-deadline | sys % | CPU us/IO | p99 us | merges | avg KiB |"
	print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	}
	for (ci = 1; ci <= nc; ci++) {
		c = cells[ci]
		if (c in model) continue
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
	# simdisk cells: the disk model's clock (media MB/s and commands/s
	# over the time its actuator was busy); ratios of model MB/s.
	first = 1
	for (ci = 1; ci <= nc; ci++) {
		c = cells[ci]
		if (!(c in model)) continue
		if (first) {
			if (nplain) print ""
			print "simdisk cells, model clock (MB/s = 10^6 B/s of media transfer over actuator busy time; ratios of model MB/s):"
			print ""
			print "| cell | scheduler | runs | model MB/s | spread | model IO/s | vs none | vs mq-deadline | busy % | mean seek us | rot wait us/cmd | streamed % | fio MiB/s | fio IOPS | p99 us | avg KiB |"
			print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
			first = 0
		}
		base_none = median(val[c, "none", "model_mbps"])
		base_dl = median(val[c, "mq-deadline", "model_mbps"])
		for (si_ = 1; si_ <= ns; si_++) {
			s = scheds[si_]; k = c SUBSEP s
			if (!n[k]) continue
			mb = median(val[k, "model_mbps"])
			p99 = median(val[k, "p99"])
			printf "| %s | %s | %d | %.2f | %s | %s | %s | %s | %.0f | %d | %d | %.0f | %.2f | %s | %s | %.1f |\n", \
				c, s, n[k], mb, spread(val[k, "model_mbps"], mb), si(median(val[k, "model_iops"])), \
				ratio(mb, base_none), ratio(mb, base_dl), median(val[k, "busy_pct"]), \
				median(val[k, "mean_seek_us"]), median(val[k, "rot_us_cmd"]), \
				median(val[k, "streamed_pct"]), median(val[k, "kibps"]) / 1024, \
				si(median(val[k, "iops"])), (p99 > 0 ? sprintf("%d", p99) : "-"), \
				median(val[k, "avgkib"])
		}
	}
	if (skipped != "") printf "\nskipped (not available):%s\n", skipped
	if (errors) printf "\n%d run(s) failed (BENCH-ERROR in the log)\n", errors
	if (bad) printf "\n%d garbled result line(s) ignored\n", bad
}
