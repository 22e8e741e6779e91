#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch-kernel.sh LABEL: download and unpack the current Debian kernel of a
# supported generation (6.1 = bookworm, 6.12 = trixie, 7.x = sid).  The
# `debug` label is built from source instead (build-debug-kernel.sh).
#
# "Current" is resolved from the suite's linux-headers-amd64 metapackage each
# time, because the mirror drops superseded kernels. Pin a release with
# KREL_6_1, KREL_6_12 or KREL_7_x (for example KREL_6_1=6.1.0-57-amd64).
#
# Writes $SCHEDCTL_CACHE/kernels/LABEL.env with:
#   KREL     kernel release (uname -r)
#   KDEBVER  Debian package version
#   SUITE    Debian suite
#   KROOT    unpacked image, modules, headers and kbuild packages
#   VMLINUZ  bootable kernel image inside KROOT
#   MODDIR   module directory inside KROOT
#   KDIR     kernel build directory inside KROOT (absolute paths in its
#            Makefiles point at /usr/src, so build where KROOT is mounted at /)
#   HDR_DEBS headers and kbuild .debs (for installing into a build root)
set -euo pipefail
. "$(dirname "$0")/common.sh"
cache_lock

label=${1:?usage: fetch-kernel.sh 6.1|6.12|7.x|debug}
[ "$label" != debug ] || exec "$VM_DIR/build-debug-kernel.sh"
suite=$(suite_of_label "$label")
conf=$(apt_conf_for_suite "$suite")
apt_update_suite "$conf"
export APT_CONFIG=$conf

pinvar="KREL_$(echo "$label" | tr . _)"
krel=${!pinvar:-}
if [ -z "$krel" ]; then
	krel=$(apt-cache depends linux-headers-amd64 |
		sed -n 's/^ *Depends: linux-headers-\(.*-amd64\)$/\1/p' | head -n1)
	[ -n "$krel" ] || die "cannot resolve the current kernel of $suite"
fi

# Names of the packages that make up one kernel; they differ by generation:
# 7.x splits the image into linux-binary-unsigned-* and linux-modules-*.
pkgs="linux-headers-$krel"
pkgs+=" $(apt-cache depends "linux-headers-$krel" |
	sed -n 's/^ *Depends: \(linux-\(headers\|kbuild\)-[^ ]*\)$/\1/p' | tr '\n' ' ')"
if apt-cache show "linux-image-$krel-unsigned" >/dev/null 2>&1; then
	pkgs+=" linux-image-$krel-unsigned"
elif apt-cache show "linux-binary-unsigned-$krel" >/dev/null 2>&1; then
	pkgs+=" linux-binary-unsigned-$krel linux-modules-$krel"
else
	die "no unsigned image package found for $krel"
fi
kdebver=$(apt-cache show "linux-headers-$krel" | sed -n 's/^Version: //p' | sort -V | tail -n1)

kdir="$SCHEDCTL_CACHE/kernels/$krel"
if [ ! -e "$kdir/.complete" ]; then
	msg "fetching $krel ($suite, $kdebver): $pkgs"
	rm -rf "$kdir"
	mkdir -p "$kdir/debs" "$kdir/root"
	(cd "$kdir/debs" && apt-get -q download $pkgs >/dev/null) ||
		die "download of $pkgs failed"
	for d in "$kdir"/debs/*.deb; do
		dpkg-deb -x "$d" "$kdir/root"
	done
	touch "$kdir/.complete"
fi

root="$kdir/root"
vmlinuz=
for f in "$root/boot/vmlinuz-$krel" "$root/usr/lib/modules/$krel/vmlinuz.unsigned" \
	"$root/usr/lib/modules/$krel/vmlinuz"; do
	[ -e "$f" ] && vmlinuz=$f && break
done
[ -n "$vmlinuz" ] || die "no vmlinuz in $root"
moddir=$root/lib/modules/$krel
[ -d "$moddir" ] || moddir=$root/usr/lib/modules/$krel

mkdir -p "$SCHEDCTL_CACHE/kernels"
cat >"$SCHEDCTL_CACHE/kernels/$label.env" <<EOV
KREL=$krel
KDEBVER=$kdebver
SUITE=$suite
KROOT=$root
VMLINUZ=$vmlinuz
MODDIR=$moddir
KDIR=/usr/src/linux-headers-$krel
HDR_DEBS="$(ls "$kdir"/debs/linux-headers-*.deb "$kdir"/debs/linux-kbuild-*.deb | tr '\n' ' ')"
EOV
msg "$label: $krel ($kdebver)"
