# SPDX-License-Identifier: GPL-2.0
# The schedctl netlink dump (nltest dump): modprobe loads schedctl_nl with
# xdeadline; every device with xdeadline is listed with its dev_t, every
# knob as sysfs shows it and every counter as debugfs shows it; after a fio
# job of a known number of I/Os the counters moved by exactly that many.
. /tests/lib.sh

# nltest comes from GUEST_TREE (make -C tests/nltest install DESTDIR=...).
command -v nltest >/dev/null || { not_ok "nltest in the guest (GUEST_TREE)"; done_testing; exit 1; }

# nl DEV KIND NAME: one value from the dump ("DEV SCHED KIND NAME VALUE").
nl() { awk -v d="$1" -v k="$2" -v n="$3" '$1 == d && $3 == k && $4 == n { print $5 }' /tmp/nl.dump; }
nl_dump() { nltest dump >/tmp/nl.dump; }

modprobe -r xdeadline 2>/dev/null
modprobe -r schedctl_nl 2>/dev/null
check "modprobe xdeadline" modprobe xdeadline
check "schedctl_nl loaded first, as a dependency" grep -q '^schedctl_nl ' /proc/modules
check "xdeadline uses schedctl_nl" sh -c "grep '^schedctl_nl ' /proc/modules | grep -q xdeadline"
check "family version matches the UAPI header" nltest version
check "empty dump succeeds" nl_dump
is "$(wc -l </tmp/nl.dump)" 0 "no device listed before xdeadline is attached"

dev=$(nullb_create st submit_queues=2 size=64)
check "switch to xdeadline" sched_set "$dev" xdeadline
check "dump" nl_dump
is "$(awk '{ print $1 }' /tmp/nl.dump | sort -u)" "$dev" "dump lists exactly $dev"
is "$(awk -v d="$dev" '$1 == d && $3 == "dev" { print $2 " " $4 }' /tmp/nl.dump)" \
	"xdeadline $(cat /sys/block/$dev/dev)" "scheduler and dev_t as in sysfs"
n=0
bad=
for f in /sys/block/$dev/queue/iosched/*; do
	n=$((n + 1))
	[ "$(nl "$dev" knob "${f##*/}")" = "$(cat "$f")" ] || bad="$bad ${f##*/}"
done
is "$bad" "" "every sysfs knob in the dump with its value"
is "$(grep -c " knob " /tmp/nl.dump)" "$n" "no knob in the dump that sysfs lacks"
bad=
n=0
while read -r name val; do
	n=$((n + 1))
	[ "$(nl "$dev" counter "$name")" = "$val" ] || bad="$bad $name"
done <"/sys/kernel/debug/block/$dev/sched/stats"
is "$bad" "" "every debugfs counter in the dump with its value"
is "$(grep -c " counter " /tmp/nl.dump)" "$n" "no counter in the dump that debugfs lacks"
is "$(nl "$dev" state zoned)" 0 "state zoned=0"
is "$(nl "$dev" state qd1_active)" 0 "state qd1_active=0"
nltest dump "$dev" >/tmp/nl.get
check "GET of one device equals its dump" cmp /tmp/nl.get /tmp/nl.dump
check_fails "GET of a device without xdeadline fails" nltest dump nosuchdisk

# Counters against fio: psync, one I/O at a time, so nothing merges.
nl_dump
for c in inserted dispatched completed dispatched_read_be dispatched_write_be; do
	eval "b_$c=$(nl "$dev" counter $c)"
done
check "fio: 1024 random 4k I/Os, direct, read/write mix" \
	fio_run --name=nl --filename="/dev/$dev" --rw=randrw --bs=4k --direct=1 \
	--ioengine=psync --size=4m --randseed=42
set -- $(sed -n 's/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p' /tmp/fio.out)
r=${1:-0}
w=${2:-0}
diag "fio issued $r reads, $w writes"
is "$((r + w))" 1024 "fio issued 1024 I/Os"
nl_dump
is "$(($(nl "$dev" counter dispatched) - b_dispatched))" "$((r + w))" "dispatched moved by fio's I/O count"
is "$(($(nl "$dev" counter completed) - b_completed))" "$((r + w))" "completed moved by fio's I/O count"
is "$(($(nl "$dev" counter inserted) - b_inserted))" "$((r + w))" "inserted moved by fio's I/O count"
is "$(($(nl "$dev" counter dispatched_read_be) - b_dispatched_read_be))" "$r" "dispatched_read_be = fio reads"
is "$(($(nl "$dev" counter dispatched_write_be) - b_dispatched_write_be))" "$w" "dispatched_write_be = fio writes"
is "$(nl "$dev" counter in_flight)" 0 "nothing in flight"
is "$(nl "$dev" counter dispatched)" "$(xd_stat "$dev" dispatched)" "netlink and debugfs agree"

mq=$(nullb_create st2 submit_queues=1 size=64)
check "second device to xdeadline" sched_set "$mq" xdeadline
nl_dump
is "$(awk '$3 == "dev" { print $1 }' /tmp/nl.dump | sort | tr '\n' ' ')" \
	"$(printf '%s\n' "$dev" "$mq" | sort | tr '\n' ' ')" "dump lists both devices"
# A dump longer than one datagram: every device once, none twice.
many=
for i in 3 4 5 6 7 8; do
	d=$(nullb_create "st$i" submit_queues=1 size=16)
	sched_set "$d" xdeadline
	many="$many $d"
done
nl_dump
is "$(awk '$3 == "dev"' /tmp/nl.dump | wc -l)" 8 "dump of 8 devices lists 8"
is "$(awk '$3 == "dev" { print $1 }' /tmp/nl.dump | sort -u | wc -l)" 8 "each exactly once"
is "$(grep -c ' counter dispatched ' /tmp/nl.dump)" 8 "each with its counters"
for i in 3 4 5 6 7 8; do nullb_remove "st$i"; done
check "switch the first back to none" sched_set "$dev" none
nl_dump
is "$(awk '$3 == "dev" { print $1 }' /tmp/nl.dump)" "$mq" "only the device with xdeadline stays listed"
nullb_remove st2
nl_dump
is "$(wc -l </tmp/nl.dump)" 0 "a removed device leaves the dump"
nullb_remove st
check "unload xdeadline" modprobe -r xdeadline
done_testing
