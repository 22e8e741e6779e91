# SPDX-License-Identifier: GPL-2.0
# `make demo`: udevd and schedctl's rule classify an emulated NVMe SSD and
# SATA HDD at boot (coldplug) and an SMR disk (simdisk, host-managed)
# hotplugged later, and apply the shipped policy to each.  Not part of
# `make check`.
. /tests/lib.sh

say() { sed 's/^/# /'; }
wait_disk() {	# wait_disk NAME: up to 20 s for /sys/block/NAME
	local i=0
	while [ $i -lt 200 ] && [ ! -e "/sys/block/$1" ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "/sys/block/$1" ]
}

syslogd -O /tmp/syslog
/lib/systemd/systemd-udevd --daemon --resolve-names=never
diag "== boot: udev coldplug (udevadm trigger), the policy applied by 60-schedctl.rules"
udevadm trigger --action=add --subsystem-match=pci
udevadm settle -t 60
udevadm trigger --action=add --subsystem-match=block
udevadm settle -t 60
nvme=$(ls /sys/block | grep '^nvme' | head -n1)
hdd=$(ls /sys/block | grep '^sd' | head -n1)
check "an NVMe SSD appeared ($nvme)" test -n "$nvme"
check "a SATA HDD appeared ($hdd)" test -n "$hdd"
schedctl list -o name,class,tran,model,rota,zoned,hwq,sched,policy | say

diag "== hotplug: a host-managed SMR disk (simdisk) is added"
modprobe simdisk zoned=1 capacity_gb=64 zone_size_mb=64 conv_zones=4
wait_disk simdisk0
udevadm settle -t 60
check "an SMR disk appeared (simdisk0)" test -e /sys/block/simdisk0
schedctl list -o name,class,tran,model,rota,zoned,hwq,sched,policy | say

for d in $nvme $hdd simdisk0; do
	diag "== schedctl classify $d"
	schedctl classify "$d" | say
done
diag "== schedctl get $hdd (knobs set by the [class:hdd] policy)"
schedctl get "$hdd" | grep -E 'scheduler|head_request|read_expire' | say
diag "== schedctl get simdisk0"
schedctl get simdisk0 | grep -E 'scheduler|zoned' | say
diag "== schedctl's messages in syslog (from udev)"
grep schedctl /tmp/syslog | sed 's/^.*schedctl/schedctl/' | head -n 20 | say

is "$(sched_current "$nvme")" none "NVMe SSD ($nvme): none"
is "$(sched_current "$hdd")" xdeadline "SATA HDD ($hdd): xdeadline"
is "$(knob "$hdd" head_request)" 1 "SATA HDD: head_request=1"
is "$(sched_current simdisk0)" xdeadline "SMR disk: xdeadline"

diag "== 4 sequential writers on the SMR disk through xdeadline"
check "fio: 4 writers, one zone each" fio_run --name=smr --filename=/dev/simdisk0 \
	--rw=write --bs=256k --direct=1 --ioengine=io_uring --iodepth=8 --numjobs=4 \
	--offset=256m --offset_increment=128m --size=64m --zonemode=zbd --group_reporting
grep -E 'WRITE:' /tmp/fio.out | sed 's/^ */# /'
schedctl stats simdisk0 2>/dev/null | grep -E 'dispatched |completed |qd1' | say
udevadm control --exit
done_testing
