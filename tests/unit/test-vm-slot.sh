#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm_slot (tests/vm/common.sh), no VM: at most VM_SLOTS commands run at
# once; a VM_SLOT_FIRST waiter gets the next free slot before guests that
# were waiting longer; a first-mark left by a killed waiter does not hold
# the others back.  Last line: "vm-slot: N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0 n=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/vm-slot.XXXXXX")
# (no EXIT trap: the jobs below run in background subshells, which would
# run it when they end)
export SCHEDCTL_CACHE=$T/cache VM_SLOTS=1
. tests/vm/common.sh

# job NAME SECS: log NAME's start and end, holding the slot SECS seconds
job() { echo "start $1" >>"$T/log"; sleep "$2"; echo "end $1" >>"$T/log"; }

# Waiters poll every 2 s: the plain one at 0.5, 2.5, 4.5 s, the first one
# at 1, 3, 5 s; the holder ends at 3.6 s, so without the priority the
# plain one would take the slot at 4.5 s.
vm_slot job holder 3.6 &
sleep 0.5
vm_slot job plain 0 &
sleep 0.5
VM_SLOT_FIRST=1 vm_slot job first 0 &
wait
order=$(grep '^start' "$T/log" | cut -d' ' -f2 | xargs)
if [ "$order" = "holder first plain" ]; then
	ok "a VM_SLOT_FIRST waiter starts before an earlier plain one"
else
	notok "a VM_SLOT_FIRST waiter starts before an earlier plain one (order: $order)"
fi
if awk '/^start/ { if (busy) bad = 1; busy = 1 } /^end/ { busy = 0 } END { exit bad }' "$T/log"; then
	ok "one slot: never two at once"
else
	notok "one slot: never two at once"; sed 's/^/#   /' "$T/log"
fi

# A stale mark (its waiter was killed) is ignored and removed.
: >"$T/log"
sleep 1000 &
dead=$!
kill "$dead"
wait "$dead" 2>/dev/null
: >"$SCHEDCTL_CACHE/vm-slots/first.$dead"
if timeout 20 bash -c '. tests/vm/common.sh; vm_slot true'; then
	ok "a stale first-mark does not block the others"
else
	notok "a stale first-mark does not block the others"
fi
if [ ! -e "$SCHEDCTL_CACHE/vm-slots/first.$dead" ]; then
	ok "and is removed"
else
	notok "and is removed"
fi
if [ -z "$(ls "$SCHEDCTL_CACHE"/vm-slots/first.* 2>/dev/null)" ]; then
	ok "no mark is left once the first guest ran"
else
	notok "no mark is left once the first guest ran"
fi

rm -rf "$T"
echo "vm-slot: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
