#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm_slot (tests/vm/common.sh), no VM: at most VM_SLOTS commands run at
# once; a free slot goes to the waiter with the highest VM_SLOT_PRIO,
# whoever waited longer; a mark left by a killed waiter does not hold the
# others back; fill slots are a pool of their own, at nice 19.
# Last line: "vm-slot: N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0 n=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/vm-slot.XXXXXX")
# (no EXIT trap: the jobs below run in background subshells, which would
# run it when they end)
export SCHEDCTL_CACHE=$T/cache VM_SLOTS=1
# (make check's full run exports VM_SLOT_NICE; tested on its own below)
unset VM_SLOT_NICE
. tests/vm/common.sh

# job NAME SECS: log NAME's start (with the nice it runs at) and end,
# holding the slot SECS seconds
job() { echo "start $1 $(nice)" >>"$T/log"; sleep "$2"; echo "end $1" >>"$T/log"; }

# Waiters poll every 2 s: the plain one (no priority) at 0.5, 2.5, 4.5 s,
# the one of priority 100 at 1, 3, 5 s, the one of 1000 at 1.5, 3.5,
# 5.5 s; the holder ends at 3.6 s, so in the order they came, or by
# polling, the plain one would start first.
vm_slot job holder 3.6 &
sleep 0.5
vm_slot job plain 0 &
sleep 0.5
VM_SLOT_PRIO=100 vm_slot job mid 0 &
sleep 0.5
VM_SLOT_PRIO=1000 vm_slot job high 0 &
wait
order=$(grep '^start' "$T/log" | cut -d' ' -f2 | xargs)
if [ "$order" = "holder high mid plain" ]; then
	ok "waiters start by priority, highest first, not in the order they came"
else
	notok "waiters start by priority, highest first, not in the order they came (order: $order)"
fi
if awk '/^start/ { if (busy) bad = 1; busy = 1 } /^end/ { busy = 0 } END { exit bad }' "$T/log"; then
	ok "one slot: never two at once"
else
	notok "one slot: never two at once"; sed 's/^/#   /' "$T/log"
fi

# Fill slots (VM_SLOT_FILL=1): a pool of their own beside the VM slots,
# VM_FILL_SLOTS of them, whose commands run at nice 19.
: >"$T/log"
# (a VM slot's command keeps the caller's nice: 10 where make check runs
# the unit suites in the background)
base=$(nice)
vm_slot job vm 3 &
sleep 0.5
VM_SLOT_FILL=1 vm_slot job fill1 1 &
sleep 0.5
VM_SLOT_FILL=1 vm_slot job fill2 0 &
wait
if [ "$(sed -n 2p "$T/log")" = "start fill1 19" ]; then
	ok "a fill slot runs beside a busy VM slot, at nice 19"
else
	notok "a fill slot runs beside a busy VM slot, at nice 19"; sed 's/^/#   /' "$T/log"
fi
if awk '/^start fill/ { if (busy) bad = 1; busy = 1 } /^end fill/ { busy = 0 } END { exit bad }' "$T/log" &&
	grep -q '^start fill2 19$' "$T/log" && grep -q "^start vm $base\$" "$T/log"; then
	ok "one fill slot: never two fill commands at once; a VM slot's command keeps its nice"
else
	notok "one fill slot: never two fill commands at once; a VM slot's command keeps its nice"; sed 's/^/#   /' "$T/log"
fi

# A stale mark (its waiter was killed) is ignored and removed.
: >"$T/log"
sleep 1000 &
dead=$!
kill "$dead"
wait "$dead" 2>/dev/null
echo 5000 >"$SCHEDCTL_CACHE/vm-slots/wait.$dead"
if timeout 20 bash -c '. tests/vm/common.sh; vm_slot true'; then
	ok "a stale mark of a higher priority does not block the others"
else
	notok "a stale mark of a higher priority does not block the others"
fi
if [ ! -e "$SCHEDCTL_CACHE/vm-slots/wait.$dead" ]; then
	ok "and is removed"
else
	notok "and is removed"
fi
if [ -z "$(ls "$SCHEDCTL_CACHE"/vm-slots/*wait.* 2>/dev/null)" ]; then
	ok "no mark is left once the guests ran"
else
	notok "no mark is left once the guests ran"
fi

# VM_SLOT_NICE: a VM slot's command runs at that nice, even below the
# caller's (as root; make check's full run runs the rest 10 higher), and
# the caller is back at its own nice after it.
if [ "$(id -u)" = 0 ]; then
	: >"$T/log"
	export T
	nice -n 5 bash -c '. tests/vm/common.sh
		job() { echo "start $1 $(nice)" >>"$T/log"; }
		VM_SLOT_NICE=$(($(nice) - 5)) vm_slot job low
		echo "after $(nice)" >>"$T/log"'
	c=$((base + 5 > 19 ? 19 : base + 5))	# the caller's nice there
	if [ "$(cat "$T/log")" = "$(printf 'start low %s\nafter %s' "$((c - 5))" "$c")" ]; then
		ok "VM_SLOT_NICE: the command runs at that nice, below the caller's, and the caller keeps its own"
	else
		notok "VM_SLOT_NICE: the command runs at that nice, below the caller's, and the caller keeps its own"
		sed 's/^/#   /' "$T/log"
	fi
else
	ok "VM_SLOT_NICE # SKIP not root: only root lowers a nice"
fi

rm -rf "$T"
echo "vm-slot: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
