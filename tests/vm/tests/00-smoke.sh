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

# The harness's stall watcher (stall_watch, stall_end in lib.sh): a
# watcher held still for twice STALL_MS, as a host that leaves the guest
# without a CPU holds the whole guest, reads as a stall of at least 3/4
# of that; the stall_again rule then runs the round again, and not in
# round 3.
hold=$((2 * STALL_MS))
hold_s=$(awk -v m=$hold 'BEGIN { printf "%.3f", m / 1000 }')
# hold_watcher: stop the watcher for hold ms
hold_watcher() {
	sleep 0.2
	kill -STOP "$STALL_PID"
	sleep "$hold_s"
	kill -CONT "$STALL_PID"
	sleep 0.2
}
stall_watch
hold_watcher
kept=$STALL_PID
st=$(stall_end)
diag "stall watcher, held $hold ms: longest stall $st ms"
cmp_ok "$st" -ge $((hold * 3 / 4)) "stall watcher: a $hold ms pause reads as a stall of $((hold * 3 / 4)) ms or more"
check_fails "stall watcher: gone after stall_end" kill -0 "$kept"
stall_watch
hold_watcher
check "stall_again: round 1 with a stall runs again" stall_again 1
stall_watch
hold_watcher
check_fails "stall_again: round 3 with a stall is judged as it is" stall_again 3
done_testing
