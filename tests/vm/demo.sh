#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh [LABEL]: build the modules for the newest Debian kernel (or LABEL),
# boot it in QEMU and show xdeadline on NVMe-, HDD- and SMR-like devices.
set -euo pipefail
. "$(dirname "$0")/common.sh"
need_root "make demo"
label=${1:-7.x}
"$VM_DIR/fetch-kernel.sh" "$label"
kodir=$("$VM_DIR/build-modules.sh" "$label")
mkdir -p "$REPO_DIR/build/vm"
"$VM_DIR/mkinitramfs.sh" "$label" "$kodir" "$REPO_DIR/build/vm/initrd-$label.gz"
msg "booting $label (TCG, about a minute)"
"$VM_DIR/run-vm.sh" "$label" "$REPO_DIR/build/vm/initrd-$label.gz" \
	"$REPO_DIR/build/vm/demo.log" demo | sed -n 's/^  # \{0,1\}//p; /passed/p'
