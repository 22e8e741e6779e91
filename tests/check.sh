#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh unit|packaging|vm|blktests|all [LABEL...]: run the test suites and
# end with one line "N passed, N failed" summing them all.
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
shift || true
logs=build/check
mkdir -p "$logs"
: >"$logs/summary"
: >"$logs/suites"

run() {		# run NAME CMD...: run a suite, keep its closing counts
	local name=$1
	shift
	echo "== $name"
	"$@" 2>&1 | tee "$logs/$name.log"
	counts "$name"
}

counts() {	# counts NAME: the closing counts of $logs/NAME.log to the summary
	echo "$1" >>"$logs/suites"
	tail -n 20 "$logs/$1.log" | grep -E '[0-9]+ passed, [0-9]+ failed' | tail -n1 >>"$logs/summary" ||
		echo "$1: 0 passed, 1 failed" >>"$logs/summary"
}

unit_btfgen() {
	python3 tests/unit/test_btfgen.py 2>&1
	rc=$?
	# unittest prints "Ran N tests" and "OK" / "FAILED (failures=F, errors=E)"
	n=$(grep -o 'Ran [0-9]* test' "$logs/unit-btfgen.log" | awk '{print $2}')
	f=$(grep -o 'failures=[0-9]*\|errors=[0-9]*' "$logs/unit-btfgen.log" |
		awk -F= '{s += $2} END {print s + 0}')
	echo "btfgen: $((${n:-0} - f)) passed, $((f + (rc != 0 && f == 0))) failed"
}

# In the full run the blktests lane runs beside everything else, from
# the start: it needs neither the unit suites nor the packages, and its
# guests and the VM suite's boot through the host's VM slots (vm_slot in
# tests/vm/common.sh, one guest per host CPU, the longest first), so the
# debug kernel's long boots start while the rest builds and overlap the
# others' instead of following them.  The Debian kernels' blktests boots
# assert no timing: they take a fill slot at nice 19 (BLKTESTS_FILL=1)
# and run on the CPU time that the VM suites' guests leave idle, beside
# them, not after them.  Its output is printed when the VM suite is done.
#
# The full run's guests in the VM slots run at the caller's nice and
# everything else 10 higher (VM_SLOT_NICE; as root, where make check
# runs in CI): the builds, the packages, the unit suites and the scripts
# around the guests take what CPU the guests leave.  Beside the two debug
# kernel's guests, the run's longest, they had slowed those guests' first
# tests two- to fourfold (session 31: `10-xdeadline-knobs` 41 s there,
# 10 s with one other guest beside it).
bt_pid=
if [ "$what" = all ] && [ "${CHECK_SERIAL:-0}" = 0 ]; then
	VM_SLOT_NICE=$(nice)
	export VM_SLOT_NICE
	renice -n $((VM_SLOT_NICE + 10)) -p $$ >/dev/null
	echo "== blktests (in the background, from the start)"
	BLKTESTS_FILL=${BLKTESTS_FILL:-1} tests/blktests/run.sh "$@" >"$logs/blktests.log" 2>&1 &
	bt_pid=$!
fi
unit_suites() {	# unit_suites RUN: the unit suites, each through RUN
	"$1" unit-btfgen unit_btfgen
	"$1" unit-cli make -s --no-print-directory -C cli check
	"$1" manpages tests/unit/test-manpages.sh
	"$1" make tests/unit/test-make.sh
	"$1" docpaths tests/unit/test-docpaths.sh
	"$1" blktests-judge tests/unit/test-blktests-judge.sh
	"$1" vm-slot tests/unit/test-vm-slot.sh
	"$1" benchplot tests/unit/test-benchplot.sh
	"$1" checkpatch tests/checkpatch.sh
}
log_only() {	# log_only NAME CMD...: run a suite into its log only
	local name=$1
	shift
	"$@" >"$logs/$name.log" 2>&1
}
show_log() {	# show_log NAME CMD...: print a suite's log, keep its counts
	echo "== $1"
	cat "$logs/$1.log"
	counts "$1"
}

# In the full run the unit suites need nothing and nothing needs them:
# they run in the background at nice 10 and mostly use the CPU the guests
# leave idle (the Debian kernels' VM suites wait on their devices about
# half the time), instead of competing at full weight with the first two
# guests' boots and the packages.  Their output is printed at the end.
# Check's per-test timeout (4 s) counts wall time: at nice 19 beside the
# guests 23 of the CLI's Check tests ran past it (a run on 2026-12-03),
# so it is ten times longer there (CK_TIMEOUT_MULTIPLIER).
unit_pid=
case $what in
unit)
	unit_suites run
	;;
all)
	if [ "${CHECK_SERIAL:-0}" = 0 ]; then
		# (at the run's nice, 10 above the guests': at 19 a CLI test's
		# 5 s bound on a parse under ASan took 6.9 s, session 31)
		echo "== unit suites (in the background, at nice 10)"
		CK_TIMEOUT_MULTIPLIER=10 bash -c "$(declare -f unit_suites log_only unit_btfgen); logs=$logs; unit_suites log_only" &
		unit_pid=$!
	else
		unit_suites run
	fi
	;;
esac
# In the full run the packaging suite runs in the background too (at the
# builds' nice), and the VM suite, whose guests get schedctl from its .deb, starts
# as soon as that is built (DEB_READY), not after the RPMs, the install
# with its DKMS builds and the purge: the debug kernel's VM suite, the
# run's longest guest, starts that much earlier.  Its output is printed
# after the VM suite's.
pkg_pid=
case $what in
packaging)
	run packaging tests/packaging/check-packaging.sh
	;;
all)
	if [ "${CHECK_SERIAL:-0}" = 0 ]; then
		echo "== packaging (in the background; the VM suite starts once the .deb is built)"
		rm -f "$logs/deb-ready"
		DEB_READY=$logs/deb-ready tests/packaging/check-packaging.sh \
			>"$logs/packaging.log" 2>&1 &
		pkg_pid=$!
		while [ ! -e "$logs/deb-ready" ] && kill -0 "$pkg_pid" 2>/dev/null; do
			sleep 1
		done
	else
		run packaging tests/packaging/check-packaging.sh
	fi
	;;
esac
case $what in
vm | all)
	# After the packaging suite, the guest gets its schedctl from the .deb.
	[ "$what" = all ] && export VM_GUEST_FROM_DEB=1
	# The benchmark harness runs and parses (one tiny boot); `make bench`
	# is the real thing.  Its boot waits for a VM slot beside the VM
	# suite's guests and, the shortest, fills one in at the end.
	bench/selftest.sh >"$logs/bench-selftest.log" 2>&1 &
	bs_pid=$!
	run vm tests/vm/check-vm.sh "$@"
	echo "== bench-selftest"
	wait "$bs_pid"
	cat "$logs/bench-selftest.log"
	counts bench-selftest
	;;
esac
if [ -n "$pkg_pid" ]; then
	wait "$pkg_pid"
	show_log packaging
fi
if [ -n "$unit_pid" ]; then
	wait "$unit_pid"
	unit_suites show_log
fi
case $what in
blktests | all)
	# The upstream block-layer test suite on the same kernels.
	if [ -n "$bt_pid" ]; then
		echo "== blktests"
		wait "$bt_pid"
		cat "$logs/blktests.log"
		counts blktests
	else
		run blktests tests/blktests/run.sh "$@"
	fi
	;;
esac

# Every failed assertion again, with its suite, right above the total: a
# long run's log is often read from its end only (CI shows its tail).
# The kernel label is the last "# LABEL: ..." header above the line.
# The judges' "# kernel: " lines (the guest's warnings, which fail it)
# and "# kernel| " lines (the first report's body) come along, the first
# 32 of each suite: the evidence, not only the count.
while read -r name; do
	awk -v suite="$name" '
		/^# ([0-9][0-9.]*x?|debug)(: | \()/ { label = $2; sub(/:$/, "", label) }
		/(^|: )not ok/ || /:-?[0-9]+:[EFS]:/ || (/^# kernel[:|] / && kern++ < 32) {
			print suite (label != "" ? " " label : "") ": " $0
		}' "$logs/$name.log"
done <"$logs/suites" >"$logs/failures"
if [ -s "$logs/failures" ]; then
	echo "== failures ($(wc -l <"$logs/failures"))"
	head -n 60 "$logs/failures"
fi

awk '{
	for (i = 1; i <= NF; i++) {
		if ($(i + 1) ~ /^passed/) p += $i
		if ($(i + 1) ~ /^failed/) f += $i
	}
} END { printf "%d passed, %d failed\n", p, f; exit f ? 1 : 0 }' "$logs/summary"
