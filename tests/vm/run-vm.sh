#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-vm.sh LABEL INITRD LOG [TESTS]: boot a kernel label under QEMU (TCG)
# with INITRD, run TESTS (comma list of guest test names, default all), keep
# the whole serial log in LOG and judge it.  Prints the TAP results and one
# line "LABEL: N passed, N failed"; exits non-zero on any failed assertion,
# a test script that exited non-zero, a missing end marker (hang, panic,
# timeout) or a kernel warning in the guest's log: WARNING/BUG/Oops (which
# covers lockdep's reports, KASAN, "BUG: sleeping function called from
# invalid context"), list corruption, hung tasks, soft lockups, RCU stalls,
# on kernels with kmemleak any unreferenced object its scan after the tests
# finds, and on kernels with lockdep a lockdep that turned itself off.  A
# label whose env sets REQUIRE_DETECTORS fails without either of them.
set -uo pipefail
. "$(dirname "$0")/common.sh"

label=${1:?usage: run-vm.sh LABEL INITRD LOG [TESTS]}
initrd=${2:?}
log=${3:?}
tests=${4:-all}
. "$SCHEDCTL_CACHE/kernels/$label.env"

# A label's env may ask for more time (LABEL_VM_TIMEOUT) and add to the
# kernel command line (LABEL_APPEND): the debug kernel is several times
# slower.
timeout "${VM_TIMEOUT:-${LABEL_VM_TIMEOUT:-900}}" qemu-system-x86_64 \
	-accel "${VM_ACCEL:-tcg,thread=single}" -smp "${VM_SMP:-2}" -m "${VM_MEM:-2048}" \
	-nographic -no-reboot -kernel "$VMLINUZ" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 loglevel=3 xd.tests=$tests ${LABEL_APPEND:-} ${VM_APPEND:-}" \
	${VM_QEMU_ARGS:-} >"$log" 2>&1 </dev/null
qemu_rc=$?

tr -d '\r' <"$log" | awk -v label="$label" -v qemu_rc="$qemu_rc" \
	-v need_det="${REQUIRE_DETECTORS:-}" '
	/XD-SKIP / { sub(/.*XD-SKIP /, ""); print "# " $0 ": skipped on " label; next }
	/XD-TEST-BEGIN / { sub(/.*XD-TEST-BEGIN /, ""); cur = $0; print "# test " cur; next }
	/XD-TEST-END / {
		sub(/.*XD-TEST-END /, "")
		if ($2 != "rc=0") { failed++; print "not ok - " $1 " exited with " $2 }
		if ($3 != "") print "# " $1 " took " $3
		ends++; cur = ""; next
	}
	/XD-DMESG-BEGIN/ { indmesg = 1; next }
	/XD-DMESG-END/ { indmesg = 0; next }
	/XD-DONE/ { done = 1; next }
	/XD-LOCKDEP / {
		lockdep = 1
		if ($NF != 1) { failed++; print "not ok - " label ": lockdep was off at the end (" $0 ")" }
		next
	}
	/XD-KMEMLEAK-BEGIN/ { inkml = 1; kml = 1; next }
	/XD-KMEMLEAK-END/ { inkml = 0; next }
	inkml {
		# the kmemleak file after the last scan: every report starts
		# with "unreferenced object"; show it with its backtrace
		if ($0 ~ /unreferenced object/) leaks++
		if (leaks && shown++ < 200) print "# kmemleak: " $0
		next
	}
	indmesg {
		# the debug kernel says so at boot
		if ($0 ~ /RCU lockdep checking is enabled/) next
		if ($0 ~ /WARNING:|BUG:|Oops|Call Trace|lockdep|KASAN|UBSAN|possible circular|possible recursive|inconsistent lock state|suspicious RCU|general protection|hung_task|blocked for more than|soft lockup|list_(add|del) corruption|list corruption|rcu_(sched|preempt) detected stall|detected stalls on CPU|kmemleak: .*(suspected memory leak|disabled|pool empty)/) {
			warn++; print "# kernel: " $0
		}
		next
	}
	/Kernel panic/ { print "# " $0; panic = 1 }
	cur != "" && /^(not )?ok [0-9]+/ {
		if ($1 == "not") failed++; else passed++
		print cur ": " $0; next
	}
	cur != "" && /^#/ { print "  " $0 }
	END {
		if (!done) { failed++; print "not ok - " label ": the guest never finished (qemu rc " qemu_rc (panic ? ", kernel panic" : "") ")" }
		if (warn) { failed++; print "not ok - " label ": " warn " kernel warning line(s) in the guest log" }
		if (leaks) { failed++; print "not ok - " label ": kmemleak found " leaks " unreferenced object(s)" }
		else if (need_det && !kml) { failed++; print "not ok - " label ": no kmemleak scan in the guest log (kmemleak off?)" }
		else if (kml) { passed++; print "ok - " label ": kmemleak scan after the tests: no leak" }
		if (need_det && !lockdep) { failed++; print "not ok - " label ": no lockdep state in the guest log" }
		printf "%s: %d passed, %d failed\n", label, passed, failed
		exit failed ? 1 : 0
	}'
