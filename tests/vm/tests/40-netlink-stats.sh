# SPDX-License-Identifier: GPL-2.0
# The schedctl netlink dump (nltest dump): modprobe loads schedctl_nl with
# xdeadline; every device with xdeadline is listed with its dev_t, every
# knob as sysfs shows it and every counter as debugfs shows it; after a fio
# job of a known number of I/Os the counters moved by exactly that many.
. /tests/lib.sh
. /tests/netlink.sh
need_nltest

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
nl_check_dump "$dev" xdeadline
is "$(nl "$dev" state zoned)" 0 "state zoned=0"
is "$(nl "$dev" state qd1_active)" 0 "state qd1_active=0"
nltest dump "$dev" >/tmp/nl.get
check "GET of one device equals its dump" cmp /tmp/nl.get /tmp/nl.dump
check_fails "GET of a device without xdeadline fails" nltest dump nosuchdisk

# Counters against fio's I/O count.
nl_fio "$dev" inserted dispatched completed dispatched_read_be dispatched_write_be
read -r r w </tmp/nl.rw
for c in dispatched completed inserted; do
	is "$(nl_moved "$dev" "$c")" "$((r + w))" "$c moved by fio's I/O count"
done
is "$(nl_moved "$dev" dispatched_read_be)" "$r" "dispatched_read_be = fio reads"
is "$(nl_moved "$dev" dispatched_write_be)" "$w" "dispatched_write_be = fio writes"
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
check "unload xdeadline" rmmod xdeadline
done_testing
