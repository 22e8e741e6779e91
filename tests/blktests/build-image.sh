#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-image.sh root SRC | config LABEL
#
#   root SRC      print the path of a cached cpio archive (newc, not
#                 compressed) of the blktests guest's root: Debian 12
#                 (bookworm) minbase with the programs blktests needs, and
#                 blktests itself, built, at /opt/blktests, all under
#                 newroot/.  SRC: a blktests tarball or tree.  Appended to
#                 a label's initramfs, the kernel unpacks it into the
#                 initramfs's rootfs at boot, so any kernel with an
#                 initramfs boots it, with or without disk filesystems
#                 (the debug kernel has none).
#   config LABEL  print the path of a kernel label's config file.
#
# The archive is keyed by what it is made of and lives in
# $SCHEDCTL_CACHE/blktests/, never in the repository.  blktests is a test
# tool from outside the project: it is unpacked and built only there.
set -euo pipefail
. "$(dirname "$0")/../vm/common.sh"
need_root "build-image.sh"

cache="$SCHEDCTL_CACHE/blktests"
mkdir -p "$cache"

# The guest runs blktests' bash scripts with these programs: fio (also
# zonemode=zbd), blkzone and friends (util-linux), modprobe/modinfo, udevd
# (blktests settles udev after creating devices, and our rule picks the
# scheduler), column (bsdextrautils), killall, pkill.
PKGS=fio,util-linux,kmod,udev,gawk,bc,procps,psmisc,bsdextrautils,file,libaio1,liburing2

rootfs() {	# rootfs: print the cached bookworm root directory
	local key dir
	key=$(echo "$PKGS $MIRROR" | sha256sum | cut -c1-12)
	dir="$cache/rootfs-$key"
	if [ ! -e "$dir/.complete" ]; then
		command -v mmdebstrap >/dev/null || die "mmdebstrap missing (apt-get install mmdebstrap)"
		msg "creating the bookworm root for blktests ($PKGS)"
		rm -rf "$dir"
		mmdebstrap --quiet --variant=minbase --include="$PKGS" \
			--aptopt='Acquire::Check-Valid-Until "false"' \
			--dpkgopt='path-exclude=/usr/share/man/*' \
			--dpkgopt='path-exclude=/usr/share/doc/*' \
			--dpkgopt='path-exclude=/usr/share/locale/*' \
			bookworm "$dir" "$MIRROR" >&2 || die "mmdebstrap failed"
		touch "$dir/.complete"
	fi
	echo "$dir"
}

# src_key SRC: a content hash of a blktests tarball or tree
src_key() {
	if [ -f "$1" ]; then
		sha256sum <"$1" | cut -c1-12
	else
		(cd "$1" && find . -path ./.git -prune -o -type f -print0 | sort -z |
			xargs -0 sha256sum | sha256sum | cut -c1-12)
	fi
}

kconfig() {	# kconfig LABEL: print the path of the kernel's config
	local f
	(
		. "$SCHEDCTL_CACHE/kernels/$1.env"
		for f in "$MODDIR/config" "$KROOT/boot/config-$KREL" "$MODDIR/build/.config" \
			"$KDIR/.config" "$KROOT/usr/src/linux-headers-$KREL/.config"; do
			[ -f "$f" ] && echo "$f" && exit 0
		done
		die "no kernel config found for $KREL"
	)
}

case "${1:-}" in
root)
	src=${2:?usage: build-image.sh root SRC}
	[ -e "$src" ] || die "no blktests source at $src"
	exec 8>"$cache/.lock"
	flock 8
	root=$(rootfs)
	key=$( (basename "$root"; src_key "$src"; sha256sum <"$0") | sha256sum | cut -c1-12)
	img="$cache/root-$key.cpio"
	if [ ! -e "$img" ]; then
		stage=$(mktemp -d "$cache/.stage.XXXXXX")
		trap 'rm -rf "$stage"' EXIT
		# The root, less what the guest never runs: Python and perl's
		# modules come with fio's tools; nothing here runs them.
		cp -a "$root" "$stage/newroot"
		rm -rf "$stage/newroot/.complete" "$stage"/newroot/usr/lib/python3* \
			"$stage/newroot/usr/share/perl" "$stage/newroot/usr/lib/x86_64-linux-gnu/perl" \
			"$stage/newroot/var/cache/apt" "$stage/newroot/var/lib/apt/lists"
		mkdir -p "$stage/newroot/opt/blktests"
		if [ -f "$src" ]; then
			tar -C "$stage/newroot/opt/blktests" --strip-components=1 -xzf "$src"
		else
			cp -a "$src/." "$stage/newroot/opt/blktests/"
			rm -rf "$stage/newroot/opt/blktests/.git"
		fi
		[ -x "$stage/newroot/opt/blktests/check" ] || die "$src is not a blktests tree (no ./check)"
		# Built here: the root is bookworm like this host, so same glibc.
		make -C "$stage/newroot/opt/blktests" -j"$(nproc)" >"$stage/make.log" 2>&1 ||
			{ tail -n 30 "$stage/make.log" >&2; die "building blktests failed"; }
		msg "writing $img"
		(cd "$stage" && find newroot | cpio -o -H newc --quiet) >"$img.partial" ||
			die "cannot write $img"
		mv "$img.partial" "$img"
		# Archives of older keys are dead weight.
		find "$cache" -maxdepth 1 -name 'root-*' ! -name "root-$key.cpio" -delete
	fi
	echo "$img"
	;;
config)
	kconfig "${2:?usage: build-image.sh config LABEL}"
	;;
*)
	die "usage: build-image.sh root SRC | config LABEL"
	;;
esac
