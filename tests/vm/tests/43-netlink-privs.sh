# SPDX-License-Identifier: GPL-2.0
# Reading schedctl netlink needs no privilege; changing a knob needs
# CAP_SYS_ADMIN.  nltest --drop-privs UID drops to an unprivileged uid
# before opening its socket.
. /tests/lib.sh
. /tests/netlink.sh

# nltest comes from GUEST_TREE (make -C tests/nltest install DESTDIR=...).
need_nltest

NOBODY=65534
modprobe xdeadline
dev=$(nullb_create pr submit_queues=1 size=64)
check "switch to xdeadline" sched_set "$dev" xdeadline

check "unprivileged dump" sh -c "nltest --drop-privs $NOBODY dump >/tmp/pr.user"
nltest dump | grep -v ' counter ' >/tmp/pr.root
grep -v ' counter ' /tmp/pr.user >/tmp/pr.user.nc
check "unprivileged dump shows what root sees" cmp /tmp/pr.root /tmp/pr.user.nc
check "unprivileged GET" sh -c "nltest --drop-privs $NOBODY dump $dev | grep -q ' knob fifo_batch 16$'"

out=$(nltest --drop-privs $NOBODY change "$dev" fifo_batch 4)
rc=$?
diag "$out"
cmp_ok "$rc" -ne 0 "unprivileged change fails"
case "$out" in *EPERM*) ok "unprivileged change refused with EPERM" ;; *) not_ok "unprivileged change refused with EPERM (got '$out')" ;; esac
is "$(knob "$dev" fifo_batch)" 16 "fifo_batch unchanged"

rm -f /tmp/pr.mon
nltest --drop-privs $NOBODY monitor 1 20 >/tmp/pr.mon 2>&1 &
pid=$!
i=0
while ! grep -q '^# listening' /tmp/pr.mon && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "root change" sh -c "nltest change $dev fifo_batch 4 | grep -qx ok"
wait $pid
is "$?" 0 "unprivileged listener got the event"
is "$(grep -v '^#' /tmp/pr.mon)" "knob $dev xdeadline fifo_batch 16 4" "the event"
is "$(knob "$dev" fifo_batch)" 4 "root change visible in sysfs"

out=$(nltest change "$dev" front_merges 7)
diag "$out"
case "$out" in *EINVAL*"out of range"*) ok "bad value refused with EINVAL and a message" ;; *) not_ok "bad value refused with EINVAL and a message (got '$out')" ;; esac
out=$(nltest change "$dev" no_such_knob 1)
case "$out" in *ENOENT*"no such knob"*) ok "unknown knob refused with ENOENT and a message" ;; *) not_ok "unknown knob refused (got '$out')" ;; esac
out=$(nltest change "$dev" zoned_qd1_writes 1)
case "$out" in *EINVAL*zoned*) ok "zoned_qd1_writes refused on a non-zoned device" ;; *) not_ok "zoned_qd1_writes refused on a non-zoned device (got '$out')" ;; esac

sched_set "$dev" none
nullb_remove pr
done_testing
