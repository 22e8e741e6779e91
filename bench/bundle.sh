#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/bundle.sh [LABEL...]: build build/bench/schedctl-bench.tar.gz, a
# self-contained benchmark for many-core x86-64 hosts with no network, no
# package manager and any glibc: this machine's qemu-system-x86_64 with
# every shared library it loads and its own dynamic loader, the firmware it
# needs, the TCG accelerator module, each kernel label's kernel and
# benchmark initramfs (default 7.x and 6.1, run in that order),
# bench/table.awk and bench/bundle/run-bundle.sh (POSIX sh + awk only).
# Prints the archive's path.  Unpack anywhere and run ./run-bundle.sh.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
. "$bench/../tests/vm/common.sh"

labels=${*:-7.x 6.1}
out=${BENCH_OUT:-$REPO_DIR/build/bench}
mkdir -p "$out"

name=schedctl-bench
dir="$out/bundle-build/$name"
rm -rf "$dir"
mkdir -p "$dir"/{bin,lib/qemu,share,kernel}
qemu=$(command -v qemu-system-x86_64) || die "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
cp -L "$qemu" "$dir/bin/"

# Shared libraries, the loader, and the TCG module (Debian 12 builds TCG
# as a module) with whatever it links in addition.
moddir=$(dirname "$(dpkg -L qemu-system-x86 2>/dev/null | grep '/accel-tcg-x86_64\.so$' | head -n1)")
[ -f "$moddir/accel-tcg-x86_64.so" ] || moddir=/usr/lib/x86_64-linux-gnu/qemu
mods=
if [ -f "$moddir/accel-tcg-x86_64.so" ]; then
	cp -L "$moddir/accel-tcg-x86_64.so" "$dir/lib/qemu/"
	mods="$moddir/accel-tcg-x86_64.so"
fi
ldd "$qemu" $mods | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $1 !~ /:$/ { print $1 }' |
	sort -u | while read -r lib; do
		case "$lib" in
		*/ld-linux-x86-64.so.2) cp -L "$lib" "$dir/lib/ld-linux-x86-64.so.2" ;;
		*) cp -L "$lib" "$dir/lib/" ;;
		esac
	done
[ -e "$dir/lib/ld-linux-x86-64.so.2" ] || die "no dynamic loader found by ldd"
[ -e "$dir/lib/libc.so.6" ] || die "libc.so.6 missing from the bundle"

# Firmware: SeaBIOS and the option ROMs a -kernel boot loads.  No NIC and
# no VGA are configured, so no iPXE or VGA BIOS is needed; the std VGA BIOS
# is small and kept in case a user drops "-vga none".
for f in bios-256k.bin kvmvapic.bin linuxboot_dma.bin linuxboot.bin multiboot_dma.bin vgabios-stdvga.bin; do
	src=
	for d in /usr/share/qemu /usr/share/seabios; do
		[ -e "$d/$f" ] && src="$d/$f" && break
	done
	[ -n "$src" ] || die "firmware $f not found"
	cp -L "$src" "$dir/share/$f"
done

# One directory per kernel label, in the order given (kernel/ORDER).
: >"$dir/kernel/ORDER"
for label in $labels; do
	initrd=$("$bench/mkinitrd.sh" "$label" "$out/bundle-build")
	(
		. "$SCHEDCTL_CACHE/kernels/$label.env"
		mkdir -p "$dir/kernel/$label"
		cp -L "$VMLINUZ" "$dir/kernel/$label/vmlinuz"
		cp "$initrd" "$dir/kernel/$label/initrd.gz"
		echo "kernel $label: $KREL (Debian $SUITE $KDEBVER)" >"$dir/kernel/$label/INFO"
	)
	echo "$label" >>"$dir/kernel/ORDER"
done
cp "$bench/table.awk" "$dir/"
cp "$bench/bundle/run-bundle.sh" "$dir/"
chmod +x "$dir/run-bundle.sh"
{
	cat "$dir"/kernel/*/INFO
	echo "qemu: $("$qemu" --version | head -n1)"
	echo "built: $(date -u '+%Y-%m-%d %H:%M UTC') on $(. /etc/os-release && echo "$PRETTY_NAME")"
	echo "schedctl: $(git -C "$REPO_DIR" describe --always --dirty 2>/dev/null || echo unknown)"
} >"$dir/BUILD-INFO"
tar -C "$out/bundle-build" -czf "$out/$name.tar.gz" "$name"
size=$(stat -c %s "$out/$name.tar.gz")
[ "$size" -lt $((64 * 1024 * 1024)) ] || die "bundle is $size bytes, over 64 MiB"
msg "$name.tar.gz: $((size / 1024 / 1024)) MiB"
echo "$out/$name.tar.gz"
