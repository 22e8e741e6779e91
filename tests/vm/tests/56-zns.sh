# SPDX-License-Identifier: GPL-2.0
# QEMU's emulated NVMe ZNS namespace (the device of the xbfq issue's
# zoned bug: on 6.1 any scheduler may take it and stock bfq reorders its
# writes): xbfq and xdeadline keep each zone's writes in order there.
# One zone written at QD 128 and four writers with their own zones, with
# checksums verified, as 50-xbfq-zoned on zoned null_blk.  check-vm.sh
# adds the namespace to the Debian kernels' guests (not the debug
# kernel's, whose nvme driver is built in and would probe it at boot);
# where there is none, skipped.  Stock bfq and mq-deadline passed the
# same writes there on 6.1 too (a scratch run, session 36): this shows
# that xbfq and xdeadline work on the device, not a reordering caught.
. /tests/lib.sh

# An NVMe controller (PCI class 0x010802) only where check-vm.sh adds
# the namespace; its driver is in the initramfs only there.
if ! grep -qs '^0x010802' /sys/bus/pci/devices/*/class; then
	echo "1..0 # SKIP no NVMe controller in this guest"
	exit 0
fi
modprobe nvme 2>/dev/null
dev=
i=0
while [ $i -lt 50 ] && ! ls /sys/block/ | grep -q '^nvme'; do
	[ -e /sys/module/nvme ] || break
	sleep 0.1
	i=$((i + 1))
done
for d in /sys/block/nvme*; do
	[ -e "$d/queue/zoned" ] || continue
	[ "$(cat "$d/queue/zoned")" = host-managed ] && dev=${d##*/} && break
done
if [ -z "$dev" ]; then
	echo "1..0 # SKIP no zoned NVMe namespace in this guest"
	exit 0
fi
diag "$dev: $(cat /sys/block/$dev/queue/chunk_sectors) sectors a zone, $(cat /sys/block/$dev/queue/nr_zones) zones, scheduler: $(cat /sys/block/$dev/queue/scheduler)"

base=0
for s in xbfq xdeadline; do
	check "$s selectable on the ZNS namespace" sched_set "$dev" $s
	check "$s: nr_requests 256" sh -c "echo 256 > /sys/block/$dev/queue/nr_requests"
	check "$s: one zone at QD 128: no write error, data verified" \
		zwrite "$dev" qd128 --bs=4k --iodepth=128 --offset=${base}m --size=4m
	check "$s: 4 writers, own zones, QD 32: no write error, data verified" \
		zwrite "$dev" four --bs=16k --iodepth=32 --numjobs=4 --offset=$((base + 32))m \
		--offset_increment=64m --size=16m
	cmp_ok "$(xd_stat "$dev" dispatched)" -gt 0 "$s: writes went through it"
	is "$(xd_stat "$dev" in_flight)" 0 "$s: nothing left in flight"
	check "$s: back to none" sched_set "$dev" none
	base=$((base + 512))
done
done_testing
