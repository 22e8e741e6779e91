#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh [LABEL]: build the modules and schedctl for the newest Debian
# kernel (or LABEL), boot it in QEMU with an emulated NVMe SSD and SATA HDD,
# hotplug an SMR disk (simdisk), and show udev applying schedctl's policy.
set -euo pipefail
. "$(dirname "$0")/common.sh"
need_root "make demo"
label=${1:-7.x}
out="$REPO_DIR/build/vm"
mkdir -p "$out"
"$VM_DIR/fetch-kernel.sh" "$label"
kodir=$("$VM_DIR/build-modules.sh" "$label")
tree="$out/demo-tree"
rm -rf "$tree"
make -s -C "$REPO_DIR" install DESTDIR="$tree" PREFIX=/usr >/dev/null
GUEST_TREE=$tree EXTRA_KMODS="nvme ahci" \
	"$VM_DIR/mkinitramfs.sh" "$label" "$kodir" "$out/initrd-demo-$label.gz"
# Sparse backing files: the guest sees real NVMe and AHCI controllers.
truncate -s 2G "$out/demo-nvme.img" "$out/demo-hdd.img"
msg "booting $label (TCG, about a minute)"
VM_QEMU_ARGS="-drive file=$out/demo-nvme.img,if=none,id=nv0,format=raw
	-device nvme,serial=SCHEDCTLDEMO1,drive=nv0
	-drive file=$out/demo-hdd.img,if=none,id=hd0,format=raw
	-device ahci,id=ahci -device ide-hd,drive=hd0,bus=ahci.0,rotation_rate=7200,model=DEMO-HDD-7200" \
	"$VM_DIR/run-vm.sh" "$label" "$out/initrd-demo-$label.gz" "$out/demo.log" demo |
	sed -n 's/^  # \{0,1\}//p; /passed/p'
