#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-debug-kernel.sh: build the `debug` kernel label from Debian's own
# linux-source package (sid by default; DEBUG_SUITE=trixie for trixie's),
# configured with tests/vm/debug-kernel.config: a small guest kernel with
# lockdep, KASAN, kmemleak, DEBUG_LIST and block-layer fault injection.
#
# The result is cached in $SCHEDCTL_CACHE/kernels/debug-<version>-<key>,
# where <key> hashes the config fragment and the host compiler, so a warm
# run only writes the env file.  Built with the host's gcc (our modules are
# built with the same one, on the host), in the unpacked source tree, which
# then serves as both KDIR (make -C KDIR M=...) and KSRC (block/*.h).
#
# Writes $SCHEDCTL_CACHE/kernels/debug.env with the variables fetch-kernel.sh
# documents, plus KSRC, HOST_BUILT=1 (build-root.sh: build on the host) and
# REQUIRE_DETECTORS=1 (run-vm.sh: a run without kmemleak or lockdep fails),
# LABEL_VM_TIMEOUT and LABEL_APPEND (everything runs several times slower:
# more time per test, the data runs at an eighth of their size,
# xd.scale=12, the slow devices of the policy tests eight times slower,
# xd.devtime=800;
# 30-simdisk-model, which measures simdisk's timing model against its
# parameters within 5-10 %, neither a scheduler nor a netlink test, cannot
# hold its timing there and is skipped, xd.skip; 50-xbfq-seqidle, whose
# QD 1 readers there think 15-60 ms between reads, as long as a seek and
# past the idle time, leaves out what depends on that where xd.devtime
# is above 100).
set -euo pipefail
. "$(dirname "$0")/common.sh"

suite=${DEBUG_SUITE:-sid}
frag="$VM_DIR/debug-kernel.config"
jobs=${DEBUG_KERNEL_JOBS:-$(nproc)}
for t in gcc make flex bison bc depmod; do
	command -v "$t" >/dev/null || die "$t missing (make deps installs it)"
done
[ -e /usr/include/libelf.h ] || die "libelf-dev missing (objtool needs it; make deps installs it)"

conf=$(apt_conf_for_suite "$suite")
apt_update_suite "$conf"
export APT_CONFIG=$conf
# linux-source depends on the current linux-source-<series>.
series=$(apt-cache depends linux-source | sed -n 's/^ *Depends: linux-source-\([0-9.]*\)$/\1/p' |
	head -n1)
[ -n "$series" ] || die "cannot resolve $suite's linux-source package"
debver=$(apt-cache show "linux-source-$series" | sed -n 's/^Version: //p' | sort -V | tail -n1)
[ -n "$debver" ] || die "no version of linux-source-$series in $suite"

key=$({ cat "$frag"; gcc --version | head -n1; } | sha256sum | cut -c1-12)
kdir="$SCHEDCTL_CACHE/kernels/debug-$debver-$key"
src="$kdir/src"
mkdir -p "$SCHEDCTL_CACHE/kernels"
exec 9>"$SCHEDCTL_CACHE/kernels/.debug.lock"
flock 9
if [ ! -e "$kdir/.complete" ]; then
	msg "building the debug kernel from linux-source-$series $debver ($suite), $jobs jobs"
	start=$(date +%s)
	# An interrupted build resumes: kbuild rebuilds only what is stale.
	if [ ! -e "$kdir/.unpacked" ]; then
		rm -rf "$kdir"
		mkdir -p "$kdir/debs" "$src"
		(cd "$kdir/debs" && apt-get -q download "linux-source-$series=$debver" >/dev/null) ||
			die "cannot download linux-source-$series=$debver"
		dpkg-deb --fsys-tarfile "$kdir"/debs/linux-source-*.deb |
			tar -xO "./usr/src/linux-source-$series.tar.xz" |
			tar -xJ -C "$src" --strip-components=1 ||
			die "cannot unpack linux-source-$series"
		rm -rf "$kdir/debs"
		touch "$kdir/.unpacked"
	fi
	mk() { make -C "$src" -s ARCH=x86_64 LOCALVERSION=-xdebug "$@"; }
	mk allnoconfig KCONFIG_ALLCONFIG="$frag" >"$kdir/build.log" 2>&1 ||
		{ tail -n 40 "$kdir/build.log" >&2; die "allnoconfig failed"; }
	# Every line of the fragment must have survived (a symbol renamed
	# upstream, or a dependency the fragment forgot, drops it silently).
	missing=$(grep '^CONFIG_' "$frag" | while read -r l; do
		grep -qx "$l" "$src/.config" || echo "$l"
	done)
	[ -z "$missing" ] || die "debug-kernel.config lines not in the .config: $(echo $missing)"
	mk -j"$jobs" bzImage modules >>"$kdir/build.log" 2>&1 ||
		{ tail -n 40 "$kdir/build.log" >&2; die "debug kernel build failed (see $kdir/build.log)"; }
	mk modules_install INSTALL_MOD_PATH="$kdir/root" >>"$kdir/build.log" 2>&1 ||
		{ tail -n 40 "$kdir/build.log" >&2; die "modules_install failed"; }
	echo "$debver" >"$kdir/debver"
	msg "debug kernel built in $(($(date +%s) - start)) s"
	touch "$kdir/.complete"
fi

krel=$(cat "$src/include/config/kernel.release")
cat >"$SCHEDCTL_CACHE/kernels/debug.env" <<EOV
KREL=$krel
KDEBVER=$debver
SUITE=$suite
KROOT=$kdir/root
VMLINUZ=$src/arch/x86/boot/bzImage
MODDIR=$kdir/root/lib/modules/$krel
KDIR=$src
KSRC=$src
HOST_BUILT=1
REQUIRE_DETECTORS=1
LABEL_VM_TIMEOUT=3600
# The blktests boot took 29.5 min in one run on 2026-12-02 and was
# stopped at 3600 s before its zoned passes in a later one (a slower
# host, block/015 alone 1859 s against 633 s, other guests beside it for
# its last 16 min).
LABEL_BLKTESTS_TIMEOUT=4800
# block/015 reads 128 MiB per scheduler here, not 2 GiB (1859 s for the
# two schedulers at 2 GiB in that slow run, 633 s in a faster one; 113 s
# at 256 MiB on 2026-12-03): still thousands of requeues per scheduler.
LABEL_BLKTESTS_015_COUNT=32768
# block/005: 60 s of reads (not TIMEOUT's 20), so that each of the four
# schedulers gets its turns (22 switches in one run, 3 to 10 each), and
# 120 s for fio to end after them (not 15): with the disk frozen for a
# switch most of the time, fio ended 9 to 15+ s late after 20 s of reads
# and 29 s late after 60 s (tests/blktests/guest-init, the switch hook).
LABEL_BLKTESTS_005_TIMEOUT=60
LABEL_BLKTESTS_005_SLACK=120
# blktests' kmemleak scan after every test: off (about 14 s a test here,
# a quarter of the boot); the scans at the end of the boot find any leak
# (tests/blktests/guest-init, the kmemleak hook).
LABEL_BLKTESTS_KMEMLEAK_EACH=0
# zbd/001-003 (sysfs and ioctls, zone reports, zone resets) send next to
# no I/O through a scheduler: the detectors have nothing of ours to check
# there (19-38 s each, with its setup, per scheduler).  zbd/004-006
# (writes across zones, write ordering at high QD, zone resets under
# writes) took 182 s for the two schedulers, a sixth of this boot, the
# longest in make check's VM slots; the zoned write paths of both
# schedulers run under the detectors in the VM suite here (15-, 16-
# xdeadline-zoned-*, 32-simdisk-zoned, 50-xbfq-zoned) and in block/020
# and 021's zoned passes.  All six run on the three Debian kernels.
LABEL_BLKTESTS_SKIP="zbd/001 zbd/002 zbd/003 zbd/004 zbd/005 zbd/006"
LABEL_APPEND="xd.test_timeout=900 xd.scale=12 xd.devtime=800 xd.skip=30-simdisk-model"
HDR_DEBS=""
EOV
msg "debug: $krel (linux-source-$series $debver, config $key)"
