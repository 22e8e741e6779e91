# SPDX-License-Identifier: GPL-2.0
# judge.awk: turn the serial log of a blktests lane guest (guest-init's
# BLKT-* lines) into TAP for one kernel label.  Last line
# "LABEL: N passed, N failed, N skipped".
#
# Variables (-v): label; scheds, the schedulers under test; loop, the tests
# run once over every scheduler; sched, the tests run once per scheduler;
# pre, a file of TAP skip lines decided on the host; qemu_rc and secs, how
# the VM ended; need_kml, non-empty where the kernel must have kmemleak.
# Load tests/kernel-warnings.awk before it (awk -f ... -f judge.awk).
#
# A test that passed counts for a scheduler only if that scheduler was seen
# active during it; an expected test without a result fails, and so do a
# guest that did not reach its end, any warning line in the kernel log and
# any object kmemleak reports after the tests.
function field(name,   i) {
	for (i = 1; i <= NF; i++)
		if (index($i, name "=") == 1) return substr($i, length(name) + 2)
	return ""
}
function tap(ok, desc) {
	if (ok) { passed++; print "ok - " desc } else { failed++; print "not ok - " desc }
}
BEGIN {
	ns = split(scheds, S, " ")
	nl = split(loop, L, " "); for (i = 1; i <= nl; i++) want["all " L[i]] = 1
	nz = split(sched, Z, " ")
	for (i = 1; i <= nz; i++) for (j = 1; j <= ns; j++) want[S[j] " " Z[i]] = 1
	while ((getline line < pre) > 0) { print line; skipped++ }
}
/BLKT-BOOT / { print "# " label ": " $0; next }
/BLKT-SCHEDULERS / || /BLKT-KMEMLEAK cleared/ { print "# " label ": " $0; next }
/BLKT-KMEMLEAK-BEGIN/ { inkml = 1; kml = 1; next }
/BLKT-KMEMLEAK-END/ { inkml = 0; next }
inkml { kmemleak_line($0); next }
/BLKT-ZONED / {
	print "# " label ": " $0
	split(field("offered"), tmp, ","); for (k in tmp) zoned[tmp[k]] = 1
	next
}
/BLKT-FATAL/ { print "# " $0; fatal++; next }
/BLKT-HOOK / { tap($2 == "ok", label ": zoned hook (BLKT_ZONED_SCHED) applied to zbd/005 and zbd/006"); next }
/BLKT-SIZE-HOOK / { tap($2 == "ok", label ": size hook (BLKT_015_COUNT) applied to block/015"); next }
/BLKT-SWITCH-HOOK / { tap($2 == "ok", label ": switch hook (BLKT_005_TIMEOUT, BLKT_005_SLACK) applied to block/005"); next }
/BLKT-SWITCH047-HOOK / { tap($2 == "ok", label ": concurrent-switch hook (turns, accepted switches logged) applied to block/047"); next }
/BLKT-KMEMLEAK-HOOK / { tap($2 == "ok", label ": kmemleak hook (BLKT_KMEMLEAK_EACH) applied to check"); next }
/BLKT-LOOP-HOOK / { tap($2 == "ok", label ": loop hook (BLKT_UNDER_TEST) applied to block/014, 015, 020 and 021"); next }
/BLKT-BEGIN / { print "# " label ": " $0; next }
/BLKT-RESULT / {
	pass = field("pass"); t = field("test"); st = field("status")
	seen = field("seen"); dt = field("secs")
	reason = $0; sub(/.* reason=/, "", reason)
	delete got; split(seen, tmp, ","); for (k in tmp) got[tmp[k]] = 1
	delete want[pass " " t]
	for (j = 1; j <= ns; j++) {
		s = S[j]
		if (pass != "all" && pass != s) continue
		d = label " " s " " t
		if (t ~ /\(zoned\)$/) {
			sub(/\(zoned\)$/, " (zoned)", d)
			if (!(s in zoned)) {
				skipped++
				print "ok - " d " # SKIP " s " is not offered for zoned null_blk on this kernel"
				continue
			}
		}
		if (st == "skip") {
			skipped++
			print "ok - " d " # SKIP " (index($0, " reason=") ? reason : "not run by blktests (reasons above)")
		} else if (st != "pass") {
			tap(0, d ": blktests " st " (" dt " s" (pass == "all" ? ", loops over every scheduler" : "") ")")
		} else if (!(s in got)) {
			tap(0, d ": passed, but " s " was never the active scheduler (seen: " seen ")")
		} else {
			tap(1, d " (" dt " s; active: " seen ")")
		}
	}
	next
}
/BLKT-DMESG-BEGIN/ { indmesg = 1; next }
/BLKT-DMESG-END/ { indmesg = 0; kernel_log_end(); next }
/BLKT-DONE/ { done = 1; next }
indmesg {
	kernel_log_line($0)
	next
}
/Kernel panic/ { print "# " $0; panic = 1 }
/^# / { print "  " $0 }
END {
	kernel_log_end()
	for (k in want) tap(0, label " " k ": no result (the guest stopped before it)")
	tap(done && !fatal, label ": the guest ran to its end (qemu rc " qemu_rc ", " secs " s" (panic ? ", kernel panic" : "") ")")
	tap(!warn, label ": no kernel warnings in the guest log")
	if (kml || need_kml)
		tap(kml && !leaks, label ": kmemleak scan after the tests" \
			(!kml ? ": none in the log (kmemleak off?)" : leaks ? ": " leaks " unreferenced object(s)" : ": no leak"))
	printf "%s: %d passed, %d failed, %d skipped\n", label, passed, failed, skipped
}
