#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-root.sh LABEL: print the build root for a kernel label, creating it
# on first use.
#
# 6.1 is built on the Debian 12 host with its own gcc-12: the headers
# packages (bookworm's, the host's own suite) are installed with apt, which is
# also what DKMS uses. Newer kernels need the compiler they were built with
# (gcc-14, gcc-16) and kbuild tools linked against a newer glibc, so they are
# built in a cached sid chroot (mmdebstrap) with their headers unpacked at /.
# Prints "/" for the host, also for kernels built here (the debug label).
set -euo pipefail
. "$(dirname "$0")/common.sh"
need_root "build-root.sh"

label=${1:?usage: build-root.sh LABEL}
. "$SCHEDCTL_CACHE/kernels/$label.env"
if [ -n "${HOST_BUILT:-}" ]; then
	echo /
	exit 0
fi

# The compiler named in the kernel's own config, e.g. gcc-14.
kcc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(x86_64-linux-gnu-\)\?\(gcc-[0-9]*\) .*/\2/p' \
	"$KROOT/usr/src/linux-headers-$KREL/.config")
[ -n "$kcc" ] || die "cannot tell which compiler built $KREL"

if [ "$SUITE" = bookworm ]; then
	if ! dpkg -s "linux-headers-$KREL" >/dev/null 2>&1; then
		msg "installing the host headers for $KREL"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
			$HDR_DEBS >/dev/null || die "cannot install headers for $KREL"
	fi
	command -v "$kcc" >/dev/null || die "$kcc missing on the host"
	echo /
	exit 0
fi

# One chroot serves every non-host kernel; its package set names every
# compiler those kernels need, so a new compiler gives a new cache entry.
# Kernels built here (HOST_BUILT) or not unpacked have no say.
ccs=$(for e in "$SCHEDCTL_CACHE"/kernels/*.env; do
	(. "$e"; cfg=$KROOT/usr/src/linux-headers-$KREL/.config
	if [ "$SUITE" != bookworm ] && [ -z "${HOST_BUILT:-}" ] && [ -f "$cfg" ]; then
		sed -n 's/^CONFIG_CC_VERSION_TEXT="\(x86_64-linux-gnu-\)\?\(gcc-[0-9]*\) .*/\2/p' "$cfg"
	fi)
done | sort -u | tr '\n' ',')
case ",$ccs" in *",$kcc,"*) ;; *) ccs="$ccs$kcc," ;; esac
pkgs="make,${ccs}libelf1t64,libssl3t64,zlib1g,dwarves,python3-minimal,xz-utils,zstd,kmod"
key=$(echo "$pkgs" | sha256sum | cut -c1-12)
tarball="$SCHEDCTL_CACHE/chroot/sid-$key.tar.zst"
root="$SCHEDCTL_CACHE/chroot/sid-$key"

mkdir -p "$SCHEDCTL_CACHE/chroot"
exec 9>"$SCHEDCTL_CACHE/chroot/.lock"
flock 9
if [ ! -e "$tarball" ]; then
	command -v mmdebstrap >/dev/null || die "mmdebstrap missing (apt-get install mmdebstrap)"
	msg "creating the sid build chroot ($pkgs)"
	mmdebstrap --quiet --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
		--include="$pkgs" \
		--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		sid "$tarball.partial.tar.zst" "$MIRROR" >&2 || die "mmdebstrap failed"
	mv "$tarball.partial.tar.zst" "$tarball"
	rm -rf "$root"
fi
if [ ! -e "$root/.complete" ]; then
	rm -rf "$root"
	mkdir -p "$root"
	tar -C "$root" --zstd -xf "$tarball"
	touch "$root/.complete"
fi
if [ ! -e "$root/.headers-$KREL" ]; then
	for d in $HDR_DEBS; do dpkg-deb -x "$d" "$root"; done
	touch "$root/.headers-$KREL"
fi
echo "$root"
