# SPDX-License-Identifier: GPL-2.0
# Malformed, oversized, unknown and wrongly versioned schedctl netlink
# requests (nltest malformed): each rejected with the expected error and,
# where the core or we can say why, an extended ACK message.  The harness
# checks the kernel log for warnings afterwards.
. /tests/lib.sh
. /tests/netlink.sh

# nltest comes from GUEST_TREE (make -C tests/nltest install DESTDIR=...).
need_nltest

modprobe xdeadline
dev=$(nullb_create mal submit_queues=1 size=64)
check "switch to xdeadline" sched_set "$dev" xdeadline
nltest malformed "$dev" >/tmp/mal.out 2>&1
rc=$?
while read -r line; do
	case "$line" in
	"ok "*) ok "${line#ok * - }" ;;
	"not ok "*) not_ok "${line#not ok * - }" ;;
	"#"*) echo "$line" ;;
	"1.."*) ;;
	*) diag "$line" ;;
	esac
done </tmp/mal.out
is "$rc" 0 "nltest malformed exit status"
is "$(knob "$dev" front_merges)" 1 "refused SET_KNOB changed nothing (front_merges)"
is "$(knob "$dev" fifo_batch)" 16 "refused SET_KNOB changed nothing (fifo_batch)"
check "device still serves I/O" dd if="/dev/$dev" of=/dev/null bs=4k count=64 iflag=direct
sched_set "$dev" none
nullb_remove mal
check "unload xdeadline and schedctl_nl" sh -c \
	"modprobe -r xdeadline; modprobe -r schedctl_nl 2>/dev/null; ! grep -q '^schedctl_nl ' /proc/modules"
done_testing
