#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-modules.sh LABEL [KSRC]: build kmod/ for a kernel label into
# build/kmod/<release>/ (or build/kmod-ksrc/<release>/ with a KSRC tree).
# The modules are built the way DKMS builds them: kmod's own Makefile,
# private types from BTF (the default) or from KSRC's block/*.h.  A label
# whose env names a KSRC (the debug kernel, built without BTF) always
# builds from that tree.
set -euo pipefail
. "$(dirname "$0")/common.sh"

label=${1:?usage: build-modules.sh LABEL [KSRC]}
ksrc=${2:-}
. "$SCHEDCTL_CACHE/kernels/$label.env"
ksrc=${ksrc:-${KSRC:-}}
root=$("$VM_DIR/build-root.sh" "$label")

sub=kmod
[ -z "$ksrc" ] || sub=kmod-ksrc
out="$REPO_DIR/build/$sub/$KREL"
# One build per output directory at a time (several test runs may share it).
mkdir -p "$REPO_DIR/build/$sub"
exec 9>"$REPO_DIR/build/$sub/.$KREL.lock"
flock 9
# Up to date: the same sources (kmod/, the simdisk driver) and build
# arguments built this output already, as when the VM suite and the
# blktests lane, running side by side, both ask for one kernel.
stamp=$( { cd "$REPO_DIR" && find kmod tests/simdisk -type f ! -path '*/generated/*' \
	-print0 | sort -z | xargs -0 sha256sum; echo "$KREL $KDIR $ksrc"; } | sha256sum | cut -c1-16)
if [ -e "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] &&
	ls "$out"/xdeadline.ko "$out"/xbfq.ko "$out"/simdisk.ko >/dev/null 2>&1; then
	echo "$out"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
cp -a "$REPO_DIR"/kmod/. "$out/"
rm -rf "$out/generated"
# The test-only simdisk driver builds against kmod's compat/ and generated/.
cp -a "$REPO_DIR/tests/simdisk" "$out/simdisk"

args="KVER=$KREL KDIR=$KDIR"
[ -z "$ksrc" ] || args="$args KSRC=$ksrc"
if [ "$root" = / ]; then
	# The 6.1 headers ship no vmlinux; the image in the kernel package does.
	[ -n "$ksrc" ] || args="$args BTF=$VMLINUZ"
	{ make -C "$out" $args && make -C "$KDIR" M="$out/simdisk" modules; } >"$out/build.log" 2>&1 ||
		{ cat "$out/build.log" >&2; die "build for $KREL failed"; }
else
	mkdir -p "$root/build"
	[ -z "$ksrc" ] || die "KSRC builds are only wired up for host-built kernels"
	unshare -m sh -c "mount -t proc proc '$root/proc' &&
		mount --bind '$REPO_DIR/build' '$root/build' &&
		chroot '$root' make -C '/build/$sub/$KREL' $args &&
		chroot '$root' make -C '$KDIR' M='/build/$sub/$KREL/simdisk' modules" >"$out/build.log" 2>&1 ||
		{ cat "$out/build.log" >&2; die "build for $KREL failed"; }
fi
if grep -E 'warning:|error:' "$out/build.log" >&2; then
	die "compiler warnings building for $KREL (see $out/build.log)"
fi
ls "$out"/*.ko >/dev/null || die "no module built for $KREL"
cp "$out/simdisk/simdisk.ko" "$out/" || die "no simdisk.ko built for $KREL"
echo "$stamp" >"$out/.stamp"
echo "$out"
