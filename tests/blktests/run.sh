#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh [LABEL...]: the blktests lane.  Runs the upstream block-layer test
# suite's scheduler tests in QEMU (TCG) on each kernel label (default: 6.1
# 6.12 7.x debug) with our schedulers loaded, one boot per kernel, and prints TAP
# per kernel, scheduler and test; last line "blktests: N passed, N failed".
#
# blktests comes from ../shared/thirdparty/ beside the repository (pinned
# tarball, checksum verified) or from BLKTESTS_SRC= (a blktests tree or
# tarball).  Without either the lane says so and is skipped.  It is
# unpacked and built in $SCHEDCTL_CACHE/blktests/, never in the repository.
#
# Variables: BLKTESTS_SCHEDS (default "xdeadline xbfq"; "mq-deadline bfq"
# runs the same tests on the stock schedulers, for comparison),
# BLKTESTS_TIMEOUT (blktests' TIMEOUT, default 20), BLKTESTS_JOBS (VMs at
# once, default 4), BLKTESTS_VM_TIMEOUT (seconds per boot, default 1500
# or the label's LABEL_BLKTESTS_TIMEOUT or LABEL_VM_TIMEOUT),
# BLKTESTS_TESTS (override the test list, e.g. "block/021 zbd/005"),
# BLKTESTS_FILL=1 (the Debian kernels' boots in a fill slot; make check).
# Logs: build/blktests/<label>.log (serial console), <label>.tap.
set -uo pipefail
. "$(dirname "$0")/../vm/common.sh"
BT_DIR=$(cd "$(dirname "$0")" && pwd)

labels=${*:-6.1 6.12 7.x debug}
out="$REPO_DIR/build/blktests"
mkdir -p "$out"

PIN=blktests-a608cb5.tar.gz
PIN_SHA256=b862224e547dbcc65c0b10b5e0b804647bf08af0c610ae28fb1fc60c4811ad4e
SCHEDS=${BLKTESTS_SCHEDS:-xdeadline xbfq}
TIMEOUT=${BLKTESTS_TIMEOUT:-20}

# Tests that loop over every registered scheduler (block/005 switches at
# random among them every 0.2 s): one run covers all schedulers.
# block/014, 015, 020 and 021 loop over the schedulers under test only (the
# loop hook in guest-init).  block/014 and block/015 need null_blk fault
# injection.
LOOP_TESTS="block/005 block/014 block/015 block/020 block/021 block/047"
DEV_TESTS="block/005"		# need a TEST_DEV: the guest's vda
FAULT_TESTS="block/014 block/015"
# Tests that run on the default scheduler (set by a udev rule) or on the
# one zbd/005 and zbd/006 switch to (the hook): once per scheduler, on the
# fallback zoned null_blk.
SCHED_TESTS="zbd/001 zbd/002 zbd/003 zbd/004 zbd/005 zbd/006"
if [ -n "${BLKTESTS_TESTS:-}" ]; then
	keep() { for t in $1; do case " $BLKTESTS_TESTS " in *" $t "*) echo "$t" ;; esac; done | xargs; }
	LOOP_TESTS=$(keep "$LOOP_TESTS")
	SCHED_TESTS=$(keep "$SCHED_TESTS")
fi

# Exclusions: "LABEL TEST reason".  Only a test that a stock scheduler
# fails too on that kernel may be excluded, and the reason names it.
EXCLUDES=(
)

passed=0
failed=0
skipped=0

src=${BLKTESTS_SRC:-}
if [ -z "$src" ]; then
	src=$(cd "$REPO_DIR/.." && pwd)/shared/thirdparty/$PIN
	if [ ! -e "$src" ]; then
		echo "# SKIP the blktests lane: no $src (../shared is not beside this" \
			"repository) and BLKTESTS_SRC is not set"
		echo "blktests: 0 passed, 0 failed (lane skipped)"
		exit 0
	fi
	if [ "$(sha256sum <"$src" | cut -d' ' -f1)" != "$PIN_SHA256" ]; then
		echo "not ok - blktests: $src does not match the pinned sha256 $PIN_SHA256"
		echo "blktests: 0 passed, 1 failed"
		exit 1
	fi
fi
echo "# blktests from $src; schedulers: $SCHEDS; TIMEOUT=$TIMEOUT"

verdict() {	# verdict OK DESC
	if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok - $2"
	else failed=$((failed + 1)); echo "not ok - $2"; fi
}

if ! rootcpio=$("$BT_DIR/build-image.sh" root "$src"); then
	verdict 1 "blktests: build the guest root"
	echo "blktests: $passed passed, $failed failed"
	exit 1
fi

# leave_out LABEL TEST REASON: drop TEST from prepare()'s $loop and $sched
# and report it skipped for every scheduler, with REASON, in LABEL.pre.
leave_out() {
	local s
	loop=$(echo " $loop " | sed "s| $2 | |")
	sched=$(echo " $sched " | sed "s| $2 | |")
	for s in $SCHEDS; do
		echo "ok - $1 $s $2 # SKIP $3"
	done >>"$out/$1.pre"
}

# prepare LABEL: everything a boot needs; writes $out/LABEL.vars, and the
# skips decided here to $out/LABEL.pre.  Prints TAP for what failed.
prepare() {
	local label=$1 kodir config initrd stage m t x loop sched kmods= append fill slack
	unset KSRC LABEL_VM_TIMEOUT LABEL_BLKTESTS_TIMEOUT LABEL_BLKTESTS_SKIP LABEL_BLKTESTS_015_COUNT LABEL_BLKTESTS_005_TIMEOUT LABEL_BLKTESTS_005_SLACK LABEL_BLKTESTS_KMEMLEAK_EACH REQUIRE_KMEMLEAK REQUIRE_DETECTORS HOST_BUILT	# some labels' env
	if ! "$VM_DIR/fetch-kernel.sh" "$label" >&2 || ! . "$SCHEDCTL_CACHE/kernels/$label.env"; then
		verdict 1 "$label: fetch kernel"
		return 1
	fi
	echo "# $label: kernel $KREL ($KDEBVER)"
	# Built only if the sources changed since (the VM suite's build).
	kodir=$("$VM_DIR/build-modules.sh" "$label") || { verdict 1 "$label: build modules"; return 1; }
	config=$("$BT_DIR/build-image.sh" config "$label") ||
		{ verdict 1 "$label: kernel config"; return 1; }
	# Without MSI, virtio-pci needs its INTx routed; ACPI's _PRT method
	# ran into the AML loop timeout under TCG on the debug kernel (30 s
	# per device, then no interrupt at all): route from the BIOS's table.
	append=
	grep -q '^CONFIG_PCI_MSI=y' "$config" || append="acpi=noirq"

	loop=
	for t in $LOOP_TESTS; do
		case " $FAULT_TESTS " in
		*" $t "*)
			if ! grep -q '^CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION=y' "$config"; then
				for s in $SCHEDS; do
					echo "ok - $label $s $t # SKIP kernel without CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION"
				done >>"$out/$label.pre"
				continue
			fi
			;;
		esac
		loop="$loop $t"
	done
	sched=$SCHED_TESTS
	# A label's env may leave out tests that its kernel adds nothing to
	# (LABEL_BLKTESTS_SKIP, the debug kernel's: zone tests that send next
	# to no I/O through the scheduler, run on Debian's kernels).
	for t in ${LABEL_BLKTESTS_SKIP:-}; do
		case " $loop $sched " in *" $t "*) ;; *) continue ;; esac
		leave_out "$label" "$t" "left out on this kernel (LABEL_BLKTESTS_SKIP): run on the Debian kernels"
	done
	for x in "${EXCLUDES[@]}"; do
		set -- $x
		[ "$1" = "$label" ] || continue
		t=$2
		shift 2
		leave_out "$label" "$t" "excluded: $*"
	done

	# Drivers for the root disk, and schedulers under test (bfq), where
	# they are modules.
	for m in virtio_pci virtio_blk $SCHEDS; do
		if find "$MODDIR/kernel" -name "$m.ko*" -print -quit | grep -q .; then
			kmods="$kmods $m"
		fi
	done
	# With BLKTESTS_FILL=1 (make check's full run) a Debian kernel's boot
	# takes a fill slot (vm_slot: at nice 19, on the CPU time that the VM
	# suites' guests leave idle), where the guest may wait seconds for a
	# host CPU: block/005 gives fio 120 s, not 15, to end after its
	# runtime there, and the boot's time limit is twice as long (6.1's
	# boot took 1007 s there in a run, beside the builds and both debug
	# guests at first, against 271 s in a VM slot).  The debug kernel's
	# boot, the longest, keeps a VM slot.
	#
	# The guest's clock is the host's, so a guest the host leaves without
	# a CPU sees time jump: 6.12's soft-lockup watchdog reported "CPU#0
	# stuck for 22s" in a fill slot in CI (session 23) where the same
	# boot in a VM slot never did.  Such a boot raises the wall-clock
	# detectors to their ceilings: a soft lockup after 120 s, not 20
	# (watchdog_thresh=60), an RCU stall after 300 s, not 21; a real
	# lockup lasts and is still reported, a host's pause is not.
	fill=0 slack=${LABEL_BLKTESTS_005_SLACK:-}
	if [ "${BLKTESTS_FILL:-0}" = 1 ] && [ -z "${HOST_BUILT:-}" ]; then
		fill=1 slack=${slack:-120}
		append="${append:+$append }watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=300"
	fi
	stage=$(mktemp -d)
	mkdir -p "$stage/blkt"
	cp "$BT_DIR/initramfs-init" "$stage/init"
	cp "$BT_DIR/guest-init" "$stage/blkt/guest-init"
	cp "$config" "$stage/blkt/kconfig"
	cat >"$stage/blkt/conf" <<EOC
SCHEDS="$SCHEDS"
LOOP_TESTS="$(echo $loop)"
DEV_TESTS="$DEV_TESTS"
SCHED_TESTS="$(echo $sched)"
TIMEOUT=$TIMEOUT
BLKT_015_COUNT=${LABEL_BLKTESTS_015_COUNT:-}
BLKT_005_TIMEOUT=${LABEL_BLKTESTS_005_TIMEOUT:-}
BLKT_005_SLACK=$slack
BLKT_KMEMLEAK_EACH=${LABEL_BLKTESTS_KMEMLEAK_EACH:-}
INITRD_MODULES="$(echo $kmods)"
EOC
	initrd="$out/initrd-$label.gz"
	if ! GUEST_TREE= EXTRA_KMODS="$kmods" EXTRA_GUEST_FILES="$stage/." \
		"$VM_DIR/mkinitramfs.sh" "$label" "$kodir" "$initrd" >&2; then
		rm -rf "$stage"
		verdict 1 "$label: build initramfs"
		return 1
	fi
	rm -rf "$stage"
	cat >"$out/$label.vars" <<EOV
VMLINUZ=$VMLINUZ
KREL=$KREL
INITRD=$initrd
VM_LIMIT=$((${BLKTESTS_VM_TIMEOUT:-${LABEL_BLKTESTS_TIMEOUT:-${LABEL_VM_TIMEOUT:-1500}}} * (fill + 1)))
NEED_KMEMLEAK=${REQUIRE_DETECTORS:-${REQUIRE_KMEMLEAK:-}}
SLOT_GUESS=${HOST_BUILT:+1100}
FILL=$fill
APPEND="$append"
LOOP="$(echo $loop)"
SCHED="$(echo $sched)"
EOV
}

# boot LABEL: boot the prepared guest in a VM slot (vm_slot: the longest
# guests first, by what this label's boot took last here, else 1100 s
# for the debug kernel and 170 s for Debian's); the serial log goes to
# $out/LABEL.log
boot() {
	local SLOT_GUESS= FILL= key=
	. "$out/$1.vars"
	[ -n "${BLKTESTS_TESTS:-}" ] || key="blktests-$1"
	VM_SLOT_FILL=${FILL:-0} VM_SLOT_PRIO=${SLOT_GUESS:-170} VM_SLOT_KEY=$key \
		vm_slot boot_now "$@"
}
boot_now() {
	local label=$1 t0
	. "$out/$label.vars"
	rm -f "$out/$label-test.img"
	truncate -s 1G "$out/$label-test.img"
	# The root comes in the initramfs, after the label's part (a
	# compressed and an uncompressed cpio archive, one after the other,
	# are one initramfs): the kernel unpacks it at boot.  Unpacked by
	# busybox tar from a raw disk instead (before session 31), it took
	# the debug kernel until 290 s of uptime.  The kernel takes an
	# uncompressed archive only at an offset that is a multiple of 4 and
	# skips the zeros before it: the compressed part is padded.
	{ cp "$INITRD" "$out/$label-boot.img" && truncate -s %4 "$out/$label-boot.img" &&
		cat "$rootcpio" >>"$out/$label-boot.img"; } ||
		{ echo "qemu_rc=1 secs=0" >"$out/$label.rc"; return 1; }
	t0=$(date +%s)
	# no_timer_check: the kernel's boot-time check that the timer
	# interrupt works counts ticks over a short busy wait; a guest in a
	# fill slot, starved at nice 19 beside two busy guests, failed it and
	# panicked ("IO-APIC + timer doesn't work!", 6.1, session 17).
	timeout "$VM_LIMIT" qemu-system-x86_64 \
		-accel "${VM_ACCEL:-tcg,thread=single}" -smp "${VM_SMP:-2}" -m "${VM_MEM:-3072}" \
		-nographic -no-reboot -kernel "$VMLINUZ" -initrd "$out/$label-boot.img" \
		-append "console=ttyS0 panic=-1 loglevel=3 edd=off no_timer_check $APPEND ${VM_APPEND:-}" \
		-drive "file=$out/$label-test.img,if=none,id=test,format=raw,cache=unsafe" \
		-device virtio-blk-pci,drive=test,num-queues=1 \
		>"$out/$label.log" 2>&1 </dev/null
	echo "qemu_rc=$? secs=$(($(date +%s) - t0))" >"$out/$label.rc"
	rm -f "$out/$label-test.img" "$out/$label-boot.img"
}

# judge LABEL: TAP from the serial log; last line "LABEL: N passed, N failed"
judge() {
	local label=$1 qemu_rc secs
	. "$out/$label.vars"
	. "$out/$label.rc"
	tr -d '\r' <"$out/$label.log" | awk -f "$BT_DIR/../kernel-warnings.awk" -f "$BT_DIR/judge.awk" -v pre="$out/$label.pre" \
		-v label="$label" -v scheds="$SCHEDS" -v loop="$LOOP" -v sched="$SCHED" \
		-v qemu_rc="$qemu_rc" -v secs="$secs" -v need_kml="$NEED_KMEMLEAK"
}

count() {	# count TAPFILE: add its "N passed, N failed, N skipped"
	local line
	line=$(tail -n1 "$1")
	passed=$((passed + $(echo "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')))
	failed=$((failed + $(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')))
	skipped=$((skipped + $(echo "$line" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')))
}

# Each label boots as soon as it is built (the build steps share caches
# and apt lists, so they run one after the other), up to BLKTESTS_JOBS
# kernels at once, each in a VM slot (TCG runs each guest on one host
# thread; vm_slot caps the guests on the host, with the VM suite's when
# make check runs both lanes side by side).  The debug kernel (KASAN,
# lockdep) is the slowest by far: it is built first, so its guest starts
# while the others build, and the slots go to the longest guests first.
case " $labels " in
*" debug "*) labels="debug $(echo " $labels " | sed 's/ debug / /g')" ;;
esac
ready=
t0=$(date +%s)
for label in $labels; do
	rm -f "$out/$label.vars" "$out/$label.rc" "$out/$label.pre"
	: >"$out/$label.pre"
	prepare "$label" || continue
	ready="$ready $label"
	while [ "$(jobs -rp | wc -l)" -ge "${BLKTESTS_JOBS:-4}" ]; do
		wait -n
	done
	echo "# $label: booting"
	boot "$label" &
done
wait
for label in $ready; do
	judge "$label" | tee "$out/$label.tap"
	count "$out/$label.tap"
done
echo "# blktests lane: $(($(date +%s) - t0)) s of wall time, builds and boots"
echo "blktests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
