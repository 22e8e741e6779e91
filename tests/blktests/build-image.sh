#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-image.sh root SRC | modules LABEL | config LABEL: print the path of a cached disk
# image for the blktests lane, building it on first use.
#
#   root SRC       ext4 image of a Debian 12 (bookworm) minbase root with
#                  the programs blktests needs and blktests itself, built,
#                  at /opt/blktests.  SRC: a blktests tarball or tree.
#   modules LABEL  ext4 image holding the kernel's whole module tree (with
#                  its depmod indexes) and its config, as <release>/ at the
#                  top; the guest mounts it on /lib/modules.
#   config LABEL   (no image) the path of the kernel's config file.
#
# Both are keyed by what they are made of and live in
# $SCHEDCTL_CACHE/blktests/, never in the repository.  blktests is a test
# tool from outside the project: it is unpacked and built only there.
set -euo pipefail
. "$(dirname "$0")/../vm/common.sh"
need_root "build-image.sh"

cache="$SCHEDCTL_CACHE/blktests"
mkdir -p "$cache"
exec 8>"$cache/.lock"
flock 8

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
			"$KROOT/usr/src/linux-headers-$KREL/.config"; do
			[ -f "$f" ] && echo "$f" && exit 0
		done
		die "no kernel config found for $KREL"
	)
}

# mkimage DIR OUT SIZE: an ext4 image of DIR, atomically
mkimage() {
	rm -f "$2.partial"
	mkfs.ext4 -q -F -d "$1" "$2.partial" "$3" >"$2.log" 2>&1 ||
		{ cat "$2.log" >&2; die "mkfs.ext4 of $1 failed"; }
	rm -f "$2.log"
	mv "$2.partial" "$2"
}

case "${1:-}" in
root)
	src=${2:?usage: build-image.sh root SRC}
	[ -e "$src" ] || die "no blktests source at $src"
	root=$(rootfs)
	key=$( (basename "$root"; src_key "$src"; sha256sum <"$0") | sha256sum | cut -c1-12)
	img="$cache/root-$key.img"
	if [ ! -e "$img" ]; then
		stage=$(mktemp -d "$cache/.stage.XXXXXX")
		trap 'rm -rf "$stage"' EXIT
		mkdir -p "$stage/blktests"
		if [ -f "$src" ]; then
			tar -C "$stage/blktests" --strip-components=1 -xzf "$src"
		else
			cp -a "$src/." "$stage/blktests/"
			rm -rf "$stage/blktests/.git"
		fi
		[ -x "$stage/blktests/check" ] || die "$src is not a blktests tree (no ./check)"
		# Built here: the root is bookworm like this host, so same glibc.
		make -C "$stage/blktests" -j"$(nproc)" >"$stage/make.log" 2>&1 ||
			{ tail -n 30 "$stage/make.log" >&2; die "building blktests failed"; }
		msg "writing $img"
		cp -a "$root" "$stage/root"
		rm -f "$stage/root/.complete"
		mv "$stage/blktests" "$stage/root/opt/blktests"
		mkdir -p "$stage/root/usr/lib/modules"
		mkimage "$stage/root" "$img" 2G
		# Images of older keys are dead weight (hundreds of MB each).
		find "$cache" -maxdepth 1 -name 'root-*.img' ! -name "root-$key.img" -delete
	fi
	echo "$img"
	;;
config)
	kconfig "${2:?usage: build-image.sh config LABEL}"
	;;
modules)
	label=${2:?usage: build-image.sh modules LABEL}
	. "$SCHEDCTL_CACHE/kernels/$label.env"
	config=$(kconfig "$label")
	key=$( (echo "$KREL"; sha256sum <"$VMLINUZ"; sha256sum <"$0") | sha256sum | cut -c1-12)
	img="$cache/modules-$KREL-$key.img"
	if [ ! -e "$img" ]; then
		stage=$(mktemp -d "$cache/.stage.XXXXXX")
		trap 'rm -rf "$stage"' EXIT
		mkdir -p "$stage/lib/modules"
		cp -a "$MODDIR" "$stage/lib/modules/$KREL"
		rm -f "$stage/lib/modules/$KREL/build" "$stage/lib/modules/$KREL/source"
		cp "$config" "$stage/lib/modules/$KREL/config"
		depmod -b "$stage" "$KREL" || die "depmod failed for $KREL"
		msg "writing $img"
		size=$(du -sm "$stage" | awk '{print $1 * 2 + 64}')
		mkimage "$stage/lib/modules" "$img" "${size}M"
		find "$cache" -maxdepth 1 -name "modules-$KREL-*.img" ! -name "modules-$KREL-$key.img" -delete
	fi
	echo "$img"
	;;
*)
	die "usage: build-image.sh root SRC | modules LABEL | config LABEL"
	;;
esac
