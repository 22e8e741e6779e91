# SPDX-License-Identifier: GPL-2.0
# Harness smoke test: a module built from kmod/ loads, is selected on a
# null_blk device, does I/O, shows its attributes, and unloads cleanly.
. /tests/lib.sh

check "modprobe xdeadline" modprobe xdeadline
dev=$(nullb_create smoke submit_queues=1 size=64)
check "null_blk device created" test -b "/dev/$dev"
check "xdeadline listed" grep -qw xdeadline "/sys/block/$dev/queue/scheduler"
check "switch to xdeadline" sched_set "$dev" xdeadline
is "$(sched_current "$dev")" xdeadline "xdeadline active"
is "$(knob "$dev" fifo_batch)" 16 "iosched/fifo_batch reads the default"
check "4 MiB of direct reads" dd if="/dev/$dev" of=/dev/null bs=4k count=1024 iflag=direct
cmp_ok "$(xd_stat "$dev" dispatched)" -ge 1024 "debugfs counts the dispatched reads"
check "switch back to none" sched_set "$dev" none
nullb_remove smoke
check "rmmod xdeadline" rmmod xdeadline
check_fails "module gone" grep -q '^xdeadline ' /proc/modules
done_testing
