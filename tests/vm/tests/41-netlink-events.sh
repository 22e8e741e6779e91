# SPDX-License-Identifier: GPL-2.0
# The schedctl "events" multicast group: attaching and detaching xdeadline,
# knob writes through sysfs and netlink (old and new value; no event for an
# unchanged or refused value) and the zoned QD1 state, in order.
. /tests/lib.sh
. /tests/netlink.sh
need_nltest

modprobe xdeadline

dev=$(nullb_create ev submit_queues=1 size=64)
sched_set "$dev" none
monitor_start 5
check "attach xdeadline" sched_set "$dev" xdeadline
check "sysfs: fifo_batch 16 -> 8" iosched "$dev" fifo_batch 8
check "sysfs: fifo_batch 8 again (no event)" iosched "$dev" fifo_batch 8
check_fails "sysfs: front_merges 5 refused (no event)" iosched "$dev" front_merges 5
check "sysfs: read_expire 500 -> 300" iosched "$dev" read_expire 300
check "netlink: writes_starved 2 -> 4" nltest change "$dev" writes_starved 4
is "$(knob "$dev" writes_starved)" 4 "netlink change visible in sysfs"
check_fails "netlink: head_request 2 refused (no event)" nltest change "$dev" head_request 2
check "detach xdeadline" sched_set "$dev" none
cat >/tmp/mon.want <<EOT
attach $dev xdeadline
knob $dev xdeadline fifo_batch 16 8
knob $dev xdeadline read_expire 500 300
knob $dev xdeadline writes_starved 2 4
detach $dev xdeadline
EOT
monitor_check /tmp/mon.want "knobs"

# A switch between our scheduler and another: detach, then attach.
sched_set "$dev" xdeadline
monitor_start 2
check "xdeadline -> mq-deadline" sched_set "$dev" mq-deadline
check "mq-deadline -> xdeadline" sched_set "$dev" xdeadline
printf 'detach %s xdeadline\nattach %s xdeadline\n' "$dev" "$dev" >/tmp/mon.want
monitor_check /tmp/mon.want "switch"

# Device removal with xdeadline attached: detach.
monitor_start 1
nullb_remove ev
printf 'detach %s xdeadline\n' "$dev" >/tmp/mon.want
monitor_check /tmp/mon.want "removal"

# Zoned: zoned_qd1_writes toggles the qd1_active state.
z=$(nullb_create evz submit_queues=1 size=64 zoned=1 zone_size=4 zone_nr_conv=0)
check "xdeadline on zoned $z" sched_set "$z" xdeadline
check "zoned_qd1_writes starts at 0 (non-rotational)" test "$(knob "$z" zoned_qd1_writes)" = 0
monitor_start 4
check "zoned_qd1_writes 0 -> 1" iosched "$z" zoned_qd1_writes 1
check "zoned_qd1_writes 1 -> 0 via netlink" nltest change "$z" zoned_qd1_writes 0
cat >/tmp/mon.want <<EOT
knob $z xdeadline zoned_qd1_writes 0 1
state $z xdeadline qd1_active 0 1
knob $z xdeadline zoned_qd1_writes 1 0
state $z xdeadline qd1_active 1 0
EOT
monitor_check /tmp/mon.want "zoned qd1"
sched_set "$z" none
nullb_remove evz
check "unload xdeadline" rmmod xdeadline
done_testing
