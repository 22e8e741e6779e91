# SPDX-License-Identifier: GPL-2.0
# Netlink readers racing scheduler switches and device removal: dumps and
# GETs keep succeeding (or report a vanished device cleanly) while
# xdeadline attaches, detaches and devices come and go; no kernel warning.
. /tests/lib.sh
. /tests/netlink.sh

# nltest comes from GUEST_TREE (make -C tests/nltest install DESTDIR=...).
need_nltest

modprobe xdeadline
keep=$(nullb_create lt0 submit_queues=2 size=64)
sched_set "$keep" xdeadline

# Readers: dumps, GETs and an event listener, until /tmp/lt.stop exists.
rm -f /tmp/lt.stop /tmp/lt.fail
(
	while [ ! -e /tmp/lt.stop ]; do
		nltest dump >/tmp/lt.dump || cat /tmp/lt.dump >>/tmp/lt.fail
	done
) &
r1=$!
(
	while [ ! -e /tmp/lt.stop ]; do
		nltest dump nullb1 >/dev/null 2>&1
		# ENODEV while the kept device is switched away, else a reply.
		nltest dump "$keep" >/tmp/lt.get ||
			grep -q '^error ENODEV' /tmp/lt.get || cat /tmp/lt.get >>/tmp/lt.fail
	done
) &
r2=$!
nltest monitor 100000 600 >/dev/null 2>&1 &
r3=$!

fails=0
n=0
while [ $n -lt 15 ]; do
	d=$(nullb_create lt1 submit_queues=1 size=16) || fails=$((fails + 1))
	sched_set "$d" xdeadline || fails=$((fails + 1))
	echo 4 >"/sys/block/$d/queue/iosched/fifo_batch" || fails=$((fails + 1))
	sched_set "$keep" none || fails=$((fails + 1))
	sched_set "$keep" xdeadline || fails=$((fails + 1))
	nullb_remove lt1
	n=$((n + 1))
done
touch /tmp/lt.stop
wait $r1 $r2
kill $r3
is "$fails" 0 "15 rounds of create, attach, knob write, switch and removal"
is "$(cat /tmp/lt.fail 2>/dev/null)" "" "no dump or GET failed meanwhile"
check "dump afterwards" sh -c "nltest dump | grep -q '^$keep xdeadline dev '"
is "$(nltest dump | awk '$3 == "dev"' | wc -l)" 1 "only the kept device is listed"
sched_set "$keep" none
nullb_remove lt0
check "unload xdeadline" rmmod xdeadline
done_testing
