#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# mkinitramfs.sh LABEL MODULE_DIR OUT: build the guest initramfs for a
# kernel label: busybox, a static fio, the guest test scripts, the kernel's
# own configfs/null_blk/scsi_debug/bfq modules with their dependencies, our
# modules from MODULE_DIR (with a modules.dep and modules.alias so modprobe
# and elevator autoloading work; EXTRA_KMODS adds more of the kernel's
# modules).  Also Debian 12's udevd (from
# fetch-udev.sh), and GUEST_TREE: an installed tree (DESTDIR) of schedctl,
# copied over the root; its programs get their shared libraries too.
set -euo pipefail
. "$(dirname "$0")/common.sh"

label=${1:?usage: mkinitramfs.sh LABEL MODULE_DIR OUT}
kodir=${2:?}
out=${3:?}
. "$SCHEDCTL_CACHE/kernels/$label.env"
command -v busybox >/dev/null || die "busybox missing (apt-get install busybox-static)"
command -v cpio >/dev/null || die "cpio missing"
fio=$("$VM_DIR/build-fio.sh")
# build-modules.sh rebuilds MODULE_DIR under an exclusive lock, and other
# lanes of make check (the blktests lane, benchmarks) may start it at any
# time: copy the modules under the shared lock.
exec 8>"$(dirname "$kodir")/.$KREL.lock"
flock -s 8

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,proc,sys,dev,tmp,run,mnt,tests}
cp "$(command -v busybox)" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$fio" "$stage/usr/bin/fio"
cp "$VM_DIR/guest/init" "$stage/init"
cp "$VM_DIR/guest/lib.sh" "$stage/tests/lib.sh"
cp "$VM_DIR/guest/netlink.sh" "$stage/tests/netlink.sh"
cp "$VM_DIR"/tests/*.sh "$stage/tests/"
[ -z "${EXTRA_GUEST_FILES:-}" ] || cp -a $EXTRA_GUEST_FILES "$stage/"

# Host ELF programs run in the guest as they are, with the host's libraries.
# LIBPATH: extra library directories for programs from unpacked .debs.
copy_libs() {	# copy_libs FILE...: copy the shared libraries FILEs need
	local f lib
	for f in "$@"; do
		LD_LIBRARY_PATH=${LIBPATH:-} ldd "$f" >/dev/null 2>&1 || continue
		LD_LIBRARY_PATH=${LIBPATH:-} ldd "$f" | awk '
			/not found/ { print "MISSING " $1; next }
			$2 == "=>" && $3 ~ /^\// { print $3; next }
			$1 ~ /^\// { print $1 }' |
		while read -r lib rest; do
			[ "$lib" != MISSING ] || die "$f needs $rest, not on this host"
			mkdir -p "$stage$(dirname "$lib")"
			[ -e "$stage$lib" ] || cp -L "$lib" "$stage$lib"
		done
	done
}
udev=$("$VM_DIR/fetch-udev.sh")
mkdir -p "$stage"/{usr/lib/udev/rules.d,lib/systemd,etc/udev/rules.d,lib64}
ln -s ../usr/lib/udev "$stage/lib/udev"
cp "$udev/bin/udevadm" "$stage/bin/udevadm"
ln -s /bin/udevadm "$stage/lib/systemd/systemd-udevd"
cp "$udev/lib/udev/ata_id" "$udev/lib/udev/scsi_id" "$stage/usr/lib/udev/"
for r in 50-udev-default 60-block 60-persistent-storage 80-drivers; do
	cp "$udev/lib/udev/rules.d/$r.rules" "$stage/usr/lib/udev/rules.d/"
done
shared=$(cd "$udev" && find usr/lib -name 'libsystemd-shared-*.so')
mkdir -p "$stage/$(dirname "$shared")"
cp "$udev/$shared" "$stage/$shared"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' \
	>"$stage/etc/passwd"
for g in nogroup:65534 root:0 tty:5 disk:6 lp:7 kmem:15 dialout:20 cdrom:24 tape:26 \
	audio:29 video:44 input:105 kvm:106 render:107 sgx:108; do
	echo "${g%%:*}:x:${g#*:}:"
done >"$stage/etc/group"
LIBPATH="$udev/$(dirname "$shared")" copy_libs "$udev/bin/udevadm" "$udev"/lib/udev/*_id
if [ -n "${GUEST_TREE:-}" ]; then
	cp -a "$GUEST_TREE"/. "$stage/"
	copy_libs $(find "$GUEST_TREE" -type f -perm -u+x)
fi

# Kernel modules, decompressed, flat, with a generated modules.dep.
md="$stage/lib/modules/$KREL"
mkdir -p "$md"
declare -A seen=() closure=()
# closure[m]: every module m needs, in load order (dependencies first).
# modules.dep lists that closure reversed: modprobe loads from the end.
order=()
add_dep() {	# add_dep MODULE DEP: append DEP and its closure to MODULE's
	local m=$1 d=$2 x
	for x in ${closure[$d]} "$d.ko"; do
		case " ${closure[$m]} " in *" $x "*) ;; *) closure[$m]="${closure[$m]} $x" ;; esac
	done
}
add_module() {
	local name=$1 f deps d cand
	[ -z "${seen[$name]:-}" ] || return 0
	seen[$name]=1
	closure[$name]=
	# built into this kernel (configfs in the debug kernel): nothing to load
	if grep -qs -e "/$name.ko\$" -e "/$(echo "$name" | tr _ -).ko\$" "$MODDIR/modules.builtin"; then
		return 0
	fi
	f=$(find "$MODDIR/kernel" -name "$name.ko*" -print -quit)
	[ -n "$f" ] || f=$(find "$MODDIR/kernel" -name "$(echo "$name" | tr _ -).ko*" -print -quit)
	[ -n "$f" ] || die "module $name not found for $KREL"
	case "$f" in
	*.xz) xz -dc "$f" >"$md/$name.ko" ;;
	*.zst) zstd -qdc "$f" >"$md/$name.ko" ;;
	*.gz) gzip -dc "$f" >"$md/$name.ko" ;;
	*) cp "$f" "$md/$name.ko" ;;
	esac
	# "softdep pre:" names an algorithm module (crct10dif for crc-t10dif
	# on 6.1); without it the module's init fails.  Load it first too.
	deps=
	for d in $(modinfo -F softdep "$md/$name.ko" | sed -n 's/^pre: *//p'); do
		d=$(echo "$d" | tr - _)
		for cand in "${d}_generic" "$d"; do
			if find "$MODDIR/kernel" -name "$cand.ko*" -o -name "$(echo "$cand" | tr _ -).ko*" |
				grep -q .; then
				deps="$deps $cand"
				break
			fi
		done
	done
	for d in $(modinfo -F depends "$md/$name.ko" | tr ',' ' ') $deps; do
		d=$(echo "$d" | tr - _)
		add_module "$d"
		add_dep "$name" "$d"
	done
	order+=("$name")
}
# EXTRA_KMODS: more of the kernel's modules (drivers for emulated hardware).
for m in configfs null_blk scsi_debug sd_mod ${EXTRA_KMODS:-}; do add_module "$m"; done
# Crypto providers that library modules request by alias at init (6.1's
# crc64-rocksoft asks for "crypto-crc64-rocksoft"); optional elsewhere.
# bfq, the reference scheduler the simdisk tests compare against, where the
# kernel has it as a module (Debian's do; the debug kernel has none).
for m in crc64_rocksoft_generic crct10dif_generic bfq; do
	if find "$MODDIR/kernel" -name "$m.ko*" | grep -q .; then add_module "$m"; fi
done
for ko in "$md"/*.ko; do
	modinfo -F alias "$ko" | sed "s/^/alias /; s/\$/ $(basename "$ko" .ko)/"
done >"$md/modules.alias"
for ko in "$kodir"/*.ko; do
	name=$(basename "$ko" .ko)
	cp "$ko" "$md/$name.ko"
	closure[$name]=
	for d in $(modinfo -F depends "$ko" | tr ',' ' '); do add_dep "$name" "$(echo "$d" | tr - _)"; done
	order+=("$name")
	modinfo -F alias "$ko" | sed "s/^/alias /; s/\$/ $name/" >>"$md/modules.alias"
done
for m in "${order[@]}"; do
	# reversed closure: deepest dependency last
	rev=
	for x in ${closure[$m]}; do rev="$x $rev"; done
	echo "$m.ko: $rev"
done >"$md/modules.dep"
# libkmod (udevd's module loading, schedctl) reads only the binary indexes;
# busybox modprobe reads the text files above.  depmod writes both, so run
# it on a copy and keep just its *.bin.
dm=$(mktemp -d)
mkdir -p "$dm/lib/modules/$KREL"
cp "$md"/*.ko "$dm/lib/modules/$KREL/"
for f in modules.builtin modules.builtin.modinfo modules.order; do
	if [ -e "$MODDIR/$f" ]; then cp "$MODDIR/$f" "$dm/lib/modules/$KREL/"
	else : >"$dm/lib/modules/$KREL/$f"; fi
done
depmod -b "$dm" "$KREL" || die "depmod failed for $KREL"
cp "$dm/lib/modules/$KREL"/*.bin "$md/"
rm -rf "$dm"

(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
