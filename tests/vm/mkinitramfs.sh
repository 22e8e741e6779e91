#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh LABEL MODULE_DIR OUT: build the guest initramfs for a
# kernel label: busybox, a static fio, the guest test scripts, the kernel's
# own configfs/null_blk/scsi_debug modules with their dependencies, and our
# modules from MODULE_DIR (with a modules.dep and modules.alias so modprobe
# and elevator autoloading work).
set -euo pipefail
. "$(dirname "$0")/common.sh"

label=${1:?usage: mkinitramfs.sh LABEL MODULE_DIR OUT}
kodir=${2:?}
out=${3:?}
. "$SCHEDCTL_CACHE/kernels/$label.env"
command -v busybox >/dev/null || die "busybox missing (apt-get install busybox-static)"
command -v cpio >/dev/null || die "cpio missing"
fio=$("$VM_DIR/build-fio.sh")

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,proc,sys,dev,tmp,run,mnt,tests}
cp "$(command -v busybox)" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$fio" "$stage/usr/bin/fio"
cp "$VM_DIR/guest/init" "$stage/init"
cp "$VM_DIR/guest/lib.sh" "$stage/tests/lib.sh"
cp "$VM_DIR"/tests/*.sh "$stage/tests/"
[ -z "${EXTRA_GUEST_FILES:-}" ] || cp -a $EXTRA_GUEST_FILES "$stage/"

# Kernel modules, decompressed, flat, with a generated modules.dep.
md="$stage/lib/modules/$KREL"
mkdir -p "$md"
declare -A seen=()
dep_line=()
add_module() {
	local name=$1 f deps d
	[ -z "${seen[$name]:-}" ] || return 0
	seen[$name]=1
	f=$(find "$MODDIR/kernel" -name "$name.ko*" -print -quit)
	[ -n "$f" ] || f=$(find "$MODDIR/kernel" -name "$(echo "$name" | tr _ -).ko*" -print -quit)
	[ -n "$f" ] || die "module $name not found for $KREL"
	case "$f" in
	*.xz) xz -dc "$f" >"$md/$name.ko" ;;
	*.zst) zstd -qdc "$f" >"$md/$name.ko" ;;
	*.gz) gzip -dc "$f" >"$md/$name.ko" ;;
	*) cp "$f" "$md/$name.ko" ;;
	esac
	deps=$(modinfo -F depends "$md/$name.ko" | tr ',' ' ')
	local line="$name.ko:"
	for d in $deps; do
		d=$(echo "$d" | tr - _)
		add_module "$d"
		line="$line $d.ko"
	done
	dep_line+=("$line")
}
for m in configfs null_blk scsi_debug sd_mod; do add_module "$m"; done
for ko in "$kodir"/*.ko; do
	name=$(basename "$ko" .ko)
	cp "$ko" "$md/$name.ko"
	deps=$(modinfo -F depends "$ko" | tr ',' ' ')
	line="$name.ko:"
	for d in $deps; do line="$line $d.ko"; done
	dep_line+=("$line")
	modinfo -F alias "$ko" | sed "s/^/alias /; s/\$/ $name/" >>"$md/modules.alias"
done
printf '%s\n' "${dep_line[@]}" >"$md/modules.dep"
touch "$md/modules.alias"

(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
