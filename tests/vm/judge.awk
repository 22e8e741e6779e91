# SPDX-License-Identifier: GPL-2.0
# judge.awk: turn the serial log of a VM test guest (tests/vm/guest/init's
# XD-* lines and the tests' TAP) into TAP for one kernel label; last line
# "LABEL: N passed, N failed", exit status non-zero on any failure.  Load
# tests/kernel-warnings.awk before it.
#
# Variables (-v): label; qemu_rc, how QEMU ended; need_det, non-empty where
# the kernel must have kmemleak and lockdep (the debug label).
/XD-SKIP / { sub(/.*XD-SKIP /, ""); print "# " $0 ": skipped on " label; next }
/XD-TEST-BEGIN / { sub(/.*XD-TEST-BEGIN /, ""); cur = $0; print "# test " cur; next }
/XD-TEST-END / {
	sub(/.*XD-TEST-END /, "")
	if ($2 != "rc=0") { failed++; print "not ok - " $1 " exited with " $2 }
	if ($3 != "") print "# " $1 " took " $3
	ends++; cur = ""; next
}
/XD-DMESG-BEGIN/ { indmesg = 1; next }
/XD-DMESG-END/ { indmesg = 0; kernel_log_end(); next }
/XD-DONE/ { done = 1; next }
/XD-LOCKDEP / {
	lockdep = 1
	if ($NF != 1) { failed++; print "not ok - " label ": lockdep was off at the end (" $0 ldstats ")" }
	next
}
/XD-LOCKDEP-STAT / {
	sub(/.*XD-LOCKDEP-STAT /, ""); sub(/^ +/, "")
	print "# lockdep: " $0
	ldstats = ldstats "; " $0
	next
}
/XD-KMEMLEAK-BEGIN/ { inkml = 1; kml = 1; next }
/XD-KMEMLEAK-END/ { inkml = 0; next }
inkml { kmemleak_line($0); next }
indmesg {
	kernel_log_line($0)
	next
}
/Kernel panic/ { print "# " $0; panic = 1 }
cur != "" && /^(not )?ok [0-9]+/ {
	if ($1 == "not") failed++; else passed++
	print cur ": " $0; next
}
cur != "" && /^#/ { print "  " $0 }
END {
	kernel_log_end()
	if (!done) { failed++; print "not ok - " label ": the guest never finished (qemu rc " qemu_rc (panic ? ", kernel panic" : "") ")" }
	if (warn) { failed++; print "not ok - " label ": " warn " kernel warning line(s) in the guest log" }
	if (leaks) { failed++; print "not ok - " label ": kmemleak found " leaks " unreferenced object(s)" }
	else if (need_det && !kml) { failed++; print "not ok - " label ": no kmemleak scan in the guest log (kmemleak off?)" }
	else if (kml) { passed++; print "ok - " label ": kmemleak scan after the tests: no leak" }
	if (need_det && !lockdep) { failed++; print "not ok - " label ": no lockdep state in the guest log" }
	printf "%s: %d passed, %d failed\n", label, passed, failed
	exit failed ? 1 : 0
}
