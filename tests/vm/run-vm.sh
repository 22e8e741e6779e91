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
# slower.  The Debian kernels' default, 1800 s, is twice their suites'
# length (780-890 s; 900 s killed 7.x's guest in its last test on a
# slower host): a hung test is the guest's to kill (xd.test_timeout,
# 240 s there), with a diagnosis.  VM_BASE_APPEND comes before it
# (check-vm.sh's default data size, which the debug kernel's own
# overrides), VM_APPEND after.
vm_slot timeout "${VM_TIMEOUT:-${LABEL_VM_TIMEOUT:-1800}}" qemu-system-x86_64 \
	-accel "${VM_ACCEL:-tcg,thread=single}" -smp "${VM_SMP:-2}" -m "${VM_MEM:-2048}" \
	-nographic -no-reboot -kernel "$VMLINUZ" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 loglevel=3 xd.tests=$tests ${VM_BASE_APPEND:-} ${LABEL_APPEND:-} ${VM_APPEND:-}" \
	${VM_QEMU_ARGS:-} >"$log" 2>&1 </dev/null
qemu_rc=$?

tr -d '\r' <"$log" | awk -v label="$label" -v qemu_rc="$qemu_rc" \
	-v need_det="${REQUIRE_DETECTORS:-}" \
	-f "$(dirname "$0")/../kernel-warnings.awk" -f "$(dirname "$0")/judge.awk"
