#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-vm.sh [LABEL...]: for each kernel label (default: 6.1 6.12 7.x
# debug) fetch the current Debian kernel (or build the debug kernel from
# Debian's source), build kmod/ for it from BTF (from the kernel tree for
# debug), boot it under QEMU and run the guest tests.  Also proves that a failing guest
# assertion fails the run, and builds 6.1 through the KSRC= path.
# Logs: build/vm/<label>.log.  Last line: "N passed, N failed".
set -uo pipefail
. "$(dirname "$0")/common.sh"

labels=${*:-6.1 6.12 7.x debug}
# The data runs (fio with verify, switch storms, fault suites, zoned
# writers) at half their full size on Debian's kernels (xd.scale=50, the
# guest lib's `scaled`): what they assert is unchanged, and make check's
# time stays within its 40 min; the debug kernel's env sets its own
# (xd.scale=12).  VM_BASE_APPEND= runs them at full size.
export VM_BASE_APPEND=${VM_BASE_APPEND-xd.scale=50}
out="$REPO_DIR/build/vm"
mkdir -p "$out"
passed=0
failed=0

# The installed files of schedctl for the guest: from the built .deb when
# the packaging suite ran first (so packaging mistakes fail here), else
# from `make install`.
tree="$REPO_DIR/build/guest-tree"
rm -rf "$tree"
deb=$(ls "$REPO_DIR"/build/deb/schedctl_*_amd64.deb 2>/dev/null | head -n1)
if [ -n "${VM_GUEST_FROM_DEB:-}" ] && [ -n "$deb" ]; then
	echo "# guest schedctl from ${deb#"$REPO_DIR"/}"
	dpkg-deb -x "$deb" "$tree"
else
	echo "# guest schedctl from make install"
	make -s -C "$REPO_DIR" install DESTDIR="$tree" PREFIX=/usr >/dev/null
fi || { echo "not ok - install schedctl for the guest"; exit 1; }
# The netlink test tool (tests 4x-netlink-*).
make -s -C "$REPO_DIR/tests/nltest" install DESTDIR="$tree" >/dev/null ||
	{ echo "not ok - build nltest for the guest"; exit 1; }
export GUEST_TREE=$tree

count() {	# count LOGFILE: add the "N passed, N failed" of a run
	local line
	line=$(tail -n1 "$1")
	passed=$((passed + $(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')))
	failed=$((failed + $(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')))
}
verdict() {	# verdict OK DESC
	if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok - $2"
	else failed=$((failed + 1)); echo "not ok - $2"; fi
}

# Each label's VM runs in the background as soon as its kernel and
# initramfs are ready, in a VM slot (vm_slot in common.sh: at most one
# guest per host CPU, shared with the blktests lane); the results are
# printed in label order when all are done.  The debug kernel's VM is the
# slowest by far (KASAN and lockdep under TCG): the slots go to the
# longest guests first (VM_SLOT_PRIO, VM_SLOT_KEY: the time the label's
# whole suite took last here, else 1500 s for the debug kernel and 600 s
# for Debian's), so the short guests fill in around the long ones instead
# of one starting last.  VM_PARALLEL=0 runs the labels one after the
# other, in the foreground.
case " $labels " in
*" debug "*) labels="debug $(echo " $labels " | sed 's/ debug / /g')" ;;
esac
bg_labels=
for label in $labels; do
	unset HOST_BUILT KSRC REQUIRE_DETECTORS	# set only by some labels' env
	if ! "$VM_DIR/fetch-kernel.sh" "$label" || ! . "$SCHEDCTL_CACHE/kernels/$label.env"; then
		verdict 1 "$label: fetch kernel"
		continue
	fi
	if [ -n "${HOST_BUILT:-}" ]; then
		echo "# $label: built from Debian $SUITE's linux-source $KDEBVER, kernel $KREL"
		how="from the kernel tree (KSRC)"
	else
		echo "# $label: Debian $SUITE, kernel $KREL ($KDEBVER)"
		how="from BTF"
	fi
	if ! kodir=$("$VM_DIR/build-modules.sh" "$label"); then
		verdict 1 "$label: build modules $how"
		continue
	fi
	verdict 0 "$label: build modules $how"
	initrd="$out/initrd-$label.gz"
	# The Debian kernels' guests also get QEMU's emulated NVMe ZNS
	# namespace (1 GiB, sparse, 4 MiB zones) and the nvme module, which
	# only 56-zns loads, last: no earlier test sees the namespace.  Not
	# the debug kernel's: its nvme driver is built in.
	zns_args=
	if [ -z "${HOST_BUILT:-}" ]; then
		rm -f "$out/zns-$label.img"
		truncate -s 1G "$out/zns-$label.img"
		zns_args="-drive file=$out/zns-$label.img,id=zns0,format=raw,if=none
			-device nvme,serial=schedctlzns,id=nvme0
			-device nvme-ns,drive=zns0,bus=nvme0,nsid=1,zoned=true,zoned.zone_size=4M,zoned.zone_capacity=4M,logical_block_size=4096,physical_block_size=4096"
	fi
	if ! EXTRA_KMODS="${EXTRA_KMODS:-}${zns_args:+ nvme}" \
		"$VM_DIR/mkinitramfs.sh" "$label" "$kodir" "$initrd"; then
		verdict 1 "$label: build initramfs"
		continue
	fi
	[ -n "${HOST_BUILT:-}" ] || selftest_label=${selftest_label:-$label}
	if [ "${VM_PARALLEL:-1}" != 0 ]; then
		echo "# $label: VM running in the background, results below"
		key= guess=600
		[ "${VM_TESTS:-all}" != all ] || key=vm-$label
		[ -z "${HOST_BUILT:-}" ] || guess=1500
		VM_SLOT_PRIO=$guess VM_SLOT_KEY=$key \
			VM_QEMU_ARGS="${VM_QEMU_ARGS:-} $zns_args" \
			"$VM_DIR/run-vm.sh" "$label" "$initrd" \
			"$out/$label.log" "${VM_TESTS:-all}" >"$out/$label.tap" &
		bg_labels="$bg_labels $label"
		continue
	fi
	VM_QEMU_ARGS="${VM_QEMU_ARGS:-} $zns_args" \
		"$VM_DIR/run-vm.sh" "$label" "$initrd" "$out/$label.log" "${VM_TESTS:-all}" |
		tee "$out/$label.tap"
	count "$out/$label.tap"
done

# The KSRC= fallback must detect the same features as the BTF path.  (These
# builds run while the guests do: after them, they would add to the run.)
case " $labels " in
*" 6.1 "*)
	. "$SCHEDCTL_CACHE/kernels/6.1.env"
	ksrc=$("$VM_DIR/fetch-ksrc.sh" 6.1) &&
		"$VM_DIR/build-modules.sh" 6.1 "$ksrc" >/dev/null &&
		cmp -s "$REPO_DIR/build/kmod/$KREL/generated/xd_features.h" \
			"$REPO_DIR/build/kmod-ksrc/$KREL/generated/xd_features.h"
	verdict $? "6.1: KSRC build detects the same features as the BTF build"
	;;
esac

# The debug kernel's tree and 7.x's BTF come from the same Debian source
# while sid has one kernel: both builds must detect the same features.
case " $labels " in
*" debug "*" 7.x "*)
	dbg=$(. "$SCHEDCTL_CACHE/kernels/debug.env" && echo "$KDEBVER $KREL")
	new=$(. "$SCHEDCTL_CACHE/kernels/7.x.env" && echo "$KDEBVER $KREL")
	if [ "${dbg% *}" = "${new% *}" ]; then
		cmp -s "$REPO_DIR/build/kmod-ksrc/${dbg#* }/generated/xd_features.h" \
			"$REPO_DIR/build/kmod/${new#* }/generated/xd_features.h"
		verdict $? "debug: the KSRC build detects the same features as 7.x's BTF build"
	fi
	;;
esac

# The harness must turn a failing guest assertion into a failed run.
if [ -n "${selftest_label:-}" ]; then
	"$VM_DIR/run-vm.sh" "$selftest_label" "$out/initrd-$selftest_label.gz" \
		"$out/selftest.log" selftest-fail >"$out/selftest.tap"
	rc=$?
	grep -q '1 passed, 3 failed' "$out/selftest.tap" &&
		grep -q '^selftest-fail: not ok 9998 - selftest-fail: left running after the test, killed: \[[0-9]*\] sleep 4322 ;' \
			"$out/selftest.tap" && [ $rc != 0 ]
	verdict $? "harness: a failing guest assertion, or a process a test leaves running, fails the run"
	# ... and a hung test must cost that test, not the boot.
	VM_APPEND="xd.test_timeout=5" VM_TIMEOUT=300 "$VM_DIR/run-vm.sh" "$selftest_label" \
		"$out/initrd-$selftest_label.gz" "$out/selftest-hang.log" \
		selftest-hang,selftest-after >"$out/selftest-hang.tap"
	rc=$?
	grep -q '^selftest-hang: not ok 9999 - selftest-hang: still running after 5 s' \
		"$out/selftest-hang.tap" &&
		grep -q '^not ok - selftest-hang exited with rc=137' "$out/selftest-hang.tap" &&
		grep -q "^selftest-after: ok 1 - the hung test's processes are gone" \
			"$out/selftest-hang.tap" &&
		grep -q '^  # task .* \[S.*: sleep 4321' "$out/selftest-hang.tap" &&
		grep -q ': 2 passed, 2 failed$' "$out/selftest-hang.tap" && [ $rc != 0 ]
	verdict $? "harness: a hung guest test is killed after xd.test_timeout, with a diagnosis"
fi

if [ -n "$bg_labels" ]; then
	wait
	for label in $bg_labels; do
		echo "# $label (ran in the background)"
		cat "$out/$label.tap"
		count "$out/$label.tap"
	done
fi

echo "vm: $passed passed, $failed failed"
[ "$failed" = 0 ]
