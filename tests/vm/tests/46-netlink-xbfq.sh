# SPDX-License-Identifier: GPL-2.0
# xbfq on the schedctl netlink family: modprobe loads schedctl_nl with xbfq;
# a device with xbfq is in the dump with its sysfs knobs and debugfs
# counters, the counters move by a fio job's I/O count, and attach, knob
# writes (sysfs and netlink; slice_idle and slice_idle_us are one field)
# and detach arrive as events, in order.
. /tests/lib.sh
. /tests/netlink.sh
need_nltest

# Start with no device on our schedulers (earlier tests may leave some).
for f in /sys/block/*/queue/scheduler; do
	case $(cat "$f") in *"[xdeadline]"* | *"[xbfq]"*) d=${f#/sys/block/}; sched_set "${d%%/*}" none ;; esac
done
modprobe -r xbfq 2>/dev/null
modprobe -r xdeadline 2>/dev/null
modprobe -r schedctl_nl 2>/dev/null
check "modprobe xbfq" modprobe xbfq
check "schedctl_nl loaded as a dependency" grep -q '^schedctl_nl ' /proc/modules
check "xbfq uses schedctl_nl" sh -c "grep '^schedctl_nl ' /proc/modules | grep -q xbfq"
check "empty dump succeeds" nl_dump
is "$(wc -l </tmp/nl.dump)" 0 "no device listed before xbfq is attached"

# Dump: scheduler, dev_t, knobs as sysfs, counters as debugfs.
dev=$(nullb_create xbnl submit_queues=2 size=64)
check "switch to xbfq" sched_set "$dev" xbfq
nl_check_dump "$dev" xbfq
is "$(nl "$dev" knob slice_idle)" 8 "slice_idle default 8"
is "$(nl "$dev" knob slice_idle_us)" 8000 "slice_idle_us default 8000"
is "$(grep -c " state " /tmp/nl.dump)" 0 "xbfq has no states"
nltest dump "$dev" >/tmp/nl.get
check "GET of one device equals its dump" cmp /tmp/nl.get /tmp/nl.dump

# Counters against fio's I/O count.
nl_fio "$dev" inserted dispatched completed dispatched_be completed_be
read -r r w </tmp/nl.rw
for c in inserted dispatched completed dispatched_be completed_be; do
	is "$(nl_moved "$dev" "$c")" "$((r + w))" "$c moved by fio's I/O count"
done
is "$(nl "$dev" counter in_flight)" 0 "nothing in flight"
is "$(nl "$dev" counter queued)" 0 "nothing queued"
is "$(nl "$dev" counter dispatched)" "$(xd_stat "$dev" dispatched)" "netlink and debugfs agree"
cmp_ok "$(nl "$dev" counter queues_created)" -ge 1 "queues_created counts fio's queue"
if [ -x /usr/sbin/schedctl ]; then
	/usr/sbin/schedctl stats "$dev" >/tmp/st.out 2>&1
	is "$?" 0 "schedctl stats $dev succeeds"
	check "schedctl stats lists xbfq's dispatched" grep -q dispatched /tmp/st.out
fi

# Events: attach, knob writes from sysfs and netlink, detach.
sched_set "$dev" none
monitor_start 6
check "attach xbfq" sched_set "$dev" xbfq
check "sysfs: slice_idle 8 -> 4" iosched "$dev" slice_idle 4
is "$(knob "$dev" slice_idle_us)" 4000 "slice_idle_us follows slice_idle"
check "sysfs: slice_idle 4 again (no event)" iosched "$dev" slice_idle 4
check_fails "sysfs: wr_coeff 1 refused (no event)" iosched "$dev" wr_coeff 1
check_fails "sysfs: low_latency -1 refused (no event)" iosched "$dev" low_latency -1
check_fails "sysfs: slice_idle 3600001 refused (no event)" iosched "$dev" slice_idle 3600001
check "sysfs: slice_idle_us 4000 -> 2500" iosched "$dev" slice_idle_us 2500
is "$(knob "$dev" slice_idle)" 2 "slice_idle follows slice_idle_us (rounded down)"
check "netlink: low_latency 1 -> 0" nltest change "$dev" low_latency 0
is "$(knob "$dev" low_latency)" 0 "netlink change visible in sysfs"
check_fails "netlink: wr_coeff 101 refused (no event)" nltest change "$dev" wr_coeff 101
check_fails "netlink: timeout_sync 0 refused (no event)" nltest change "$dev" timeout_sync 0
check "netlink: dispatch_batch 1 -> 256" nltest change "$dev" dispatch_batch 256
check_fails "netlink: dispatch_batch 257 refused (no event)" nltest change "$dev" dispatch_batch 257
check "detach xbfq" sched_set "$dev" none
cat >/tmp/mon.want <<EOT
attach $dev xbfq
knob $dev xbfq slice_idle 8 4
knob $dev xbfq slice_idle_us 4000 2500
knob $dev xbfq low_latency 1 0
knob $dev xbfq dispatch_batch 1 256
detach $dev xbfq
EOT
monitor_check /tmp/mon.want "knobs"

# A switch between xbfq and xdeadline: detach of one, attach of the other.
modprobe xdeadline
sched_set "$dev" xbfq
monitor_start 2
check "xbfq -> xdeadline" sched_set "$dev" xdeadline
printf 'detach %s xbfq\nattach %s xdeadline\n' "$dev" "$dev" >/tmp/mon.want
monitor_check /tmp/mon.want "switch"

# Device removal with xbfq attached: detach.
sched_set "$dev" xbfq
monitor_start 1
nullb_remove xbnl
printf 'detach %s xbfq\n' "$dev" >/tmp/mon.want
monitor_check /tmp/mon.want "removal"
nl_dump
is "$(wc -l </tmp/nl.dump)" 0 "a removed device leaves the dump"
# xdeadline first (rmmod: schedctl_nl is still used by xbfq), then xbfq
# with its dependency.
check "unload xdeadline" rmmod xdeadline
check "unload xbfq and schedctl_nl" modprobe -r xbfq
check_fails "schedctl_nl unloaded with xbfq" grep -q '^schedctl_nl ' /proc/modules
done_testing
