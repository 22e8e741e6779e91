# SPDX-License-Identifier: GPL-2.0
# schedctl stats and monitor (the installed CLI over the schedctl netlink
# family): counters against a fio job of a known size, per-second rates
# with --interval and --count, events in order with --count and --timeout,
# SIGINT/SIGTERM, unprivileged use, an empty list, and the messages when
# the module is not loaded or goes away.
. /tests/lib.sh

S=/usr/sbin/schedctl
check "schedctl is installed" test -x $S

# jval FILE DEV COUNTER [FIELD]: FIELD (value) of a counter in stats -J
# output (libsmartcols writes one key per line).
jval() {
	awk -v d="$2" -v c="$3" -v f="\"${4:-value}\":" '
		$1 == "\"device\":" { dev = $2; gsub(/[",]/, "", dev) }
		$1 == "\"counter\":" { ctr = $2; gsub(/[",]/, "", ctr) }
		$1 == f && dev == d && ctr == c { v = $2; gsub(/[",]/, "", v); print v }' "$1"
}
# monitor_start OUT ARGS...: schedctl monitor in the background, once it
# listens (its "listening" line on stderr).
monitor_start() {
	out=$1
	shift
	rm -f "$out" "$out.err"
	$S monitor "$@" >"$out" 2>"$out.err" &
	mon_pid=$!
	i=0
	while ! grep -q listening "$out.err" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# same_file WANT GOT DESC
same_file() {
	if cmp -s "$1" "$2"; then ok "$3"; else
		not_ok "$3"; diff "$1" "$2" | sed 's/^/#   /'; fi
}

# Start with no device on our schedulers (earlier tests may leave some).
for f in /sys/block/*/queue/scheduler; do
	case $(cat "$f") in *"[xdeadline]"* | *"[xbfq]"*) d=${f#/sys/block/}; sched_set "${d%%/*}" none ;; esac
done
rmmod xdeadline 2>/dev/null
rmmod xbfq 2>/dev/null
rmmod schedctl_nl 2>/dev/null
check "modprobe xdeadline" modprobe xdeadline

# No device on our schedulers: say so.
$S stats >/tmp/st.out 2>&1
is "$?" 0 "stats with no device on xdeadline succeeds"
check "and says that no device uses one" grep -q "no device uses a scheduler from schedctl" /tmp/st.out
$S stats -J >/tmp/st.json 2>/tmp/st.err
is "$?" 0 "stats -J with no device succeeds"
check "stats -J: an empty stats array" grep -q '"stats"' /tmp/st.json
is "$(grep -c '"device"' /tmp/st.json)" 0 "stats -J: no rows"

dev=$(nullb_create ss submit_queues=1 size=64)
check "null_blk $dev" test -b "/dev/$dev"
sched_set "$dev" none
$S stats "$dev" >/tmp/st.out 2>/tmp/st.err
is "$?" 1 "stats of a device without xdeadline fails"
check "and says why" grep -q "$dev: no statistics" /tmp/st.err

# Events: attach, a knob written through sysfs and one through schedctl set.
monitor_start /tmp/mon.out --count 3 --timeout 10
check "switch to xdeadline" sched_set "$dev" xdeadline
check "sysfs: fifo_batch 16 -> 8" sh -c "echo 8 >/sys/block/$dev/queue/iosched/fifo_batch"
check "schedctl set read_expire=300" $S set "$dev" read_expire=300
wait $mon_pid
is "$?" 0 "monitor --count 3 exits 0 after 3 events"
is "$(cat /tmp/mon.out.err)" "schedctl: listening for scheduler events" "monitor: nothing else on stderr"
cat >/tmp/mon.want <<EOT
attach $dev xdeadline
knob $dev xdeadline fifo_batch 16 -> 8
knob $dev xdeadline read_expire 500 -> 300
EOT
same_file /tmp/mon.want /tmp/mon.out "monitor: attach and knob changes, in order"

monitor_start /tmp/mon.out -J --count 2 --timeout 10
echo 4 >"/sys/block/$dev/queue/iosched/fifo_batch"
echo 4 >"/sys/block/$dev/queue/iosched/fifo_batch"	# unchanged: no event
sched_set "$dev" none
wait $mon_pid
is "$?" 0 "monitor -J --count 2 exits 0"
cat >/tmp/mon.want <<EOT
{"event":"knob","device":"$dev","major":$(cut -d: -f1 /sys/block/$dev/dev),"minor":$(cut -d: -f2 /sys/block/$dev/dev),"sched":"xdeadline","name":"fifo_batch","old":8,"new":4}
{"event":"detach","device":"$dev","major":$(cut -d: -f1 /sys/block/$dev/dev),"minor":$(cut -d: -f2 /sys/block/$dev/dev),"sched":"xdeadline"}
EOT
same_file /tmp/mon.want /tmp/mon.out "monitor -J: one JSON object per event"
sched_set "$dev" xdeadline

$S monitor --count 1 --timeout 1 >/tmp/mon.out 2>/tmp/mon.err
is "$?" 1 "monitor --count 1 --timeout 1 without events: exit 1"
check "and says so" grep -q "timeout after 0 of 1 events" /tmp/mon.err
$S monitor --timeout 1 >/tmp/mon.out 2>/tmp/mon.err
is "$?" 0 "monitor --timeout 1 alone: exit 0"
for sig in INT TERM; do
	monitor_start /tmp/mon.out
	kill -$sig $mon_pid
	wait $mon_pid
	is "$?" 0 "monitor: SIG$sig ends it with status 0"
done

# Counters against fio: psync, one I/O at a time, so nothing merges.
check "stats -J before" sh -c "$S stats $dev -J >/tmp/st0.json"
check "fio: 1024 random 4k I/Os, direct, read/write mix" \
	fio_run --name=st --filename="/dev/$dev" --rw=randrw --bs=4k --direct=1 \
	--ioengine=psync --size=4m --randseed=42
set -- $(sed -n 's/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p' /tmp/fio.out)
n=$((${1:-0} + ${2:-0}))
diag "fio issued ${1:-0} reads, ${2:-0} writes"
is "$n" 1024 "fio issued 1024 I/Os"
check "stats -J after (by /dev path)" sh -c "$S stats /dev/$dev -J >/tmp/st1.json"
for c in dispatched completed; do
	b=$(jval /tmp/st0.json "$dev" $c)
	a=$(jval /tmp/st1.json "$dev" $c)
	is "$((a - b))" "$n" "stats: $c moved by fio's I/O count ($b -> $a)"
done
is "$(jval /tmp/st1.json "$dev" dispatched_read_be)" \
	"$(($(jval /tmp/st0.json "$dev" dispatched_read_be) + ${1:-0}))" "dispatched_read_be = fio reads"
is "$(jval /tmp/st1.json "$dev" in_flight)" 0 "in_flight 0"
is "$(jval /tmp/st1.json "$dev" dispatched)" "$(xd_stat "$dev" dispatched)" "stats and debugfs agree"
is "$(grep -c '"counter"' /tmp/st1.json)" "$(wc -l <"/sys/kernel/debug/block/$dev/sched/stats")" \
	"stats -J: every debugfs counter"
$S stats "$dev" >/tmp/st.out
sed -n '1,3p' /tmp/st.out | while IFS= read -r l; do diag "$l"; done
check "table: header" grep -q '^DEVICE  *SCHED  *COUNTER  *VALUE$' /tmp/st.out
check "table: dispatched row" grep -q "^$dev  *xdeadline  *dispatched  *$(jval /tmp/st1.json "$dev" dispatched)\$" /tmp/st.out
# Metrics for scrapers (the format is parsed by a real parser in the unit tests)
check "stats --openmetrics" sh -c "$S stats --openmetrics $dev >/tmp/st.om"
check "openmetrics: dispatched counter" grep -q \
	"^schedctl_dispatched_total{device=\"$dev\",major=\"[0-9]*\",minor=\"[0-9]*\",scheduler=\"xdeadline\"} $(jval /tmp/st1.json "$dev" dispatched)\$" /tmp/st.om
check "openmetrics: in_flight gauge" grep -q "^# TYPE schedctl_in_flight gauge\$" /tmp/st.om
is "$(tail -n1 /tmp/st.om)" "# EOF" "openmetrics: ends with # EOF"
check "stats --prometheus" sh -c "$S stats --prometheus >/tmp/st.prom"
check "prometheus: TYPE names the _total sample" grep -q "^# TYPE schedctl_dispatched_total counter\$" /tmp/st.prom

# Rates: two reports a second apart while fio does 200 IOPS (25 where
# xd.devtime says the guest's CPU is 8x slower: at 200 a debug kernel's
# guest has no CPU to spare, and fio's pacing falls behind and catches up
# in bursts, 253/s then 197/s).  fio paces from its own start: measure
# after its first seconds.
iops=$((200 * 100 / XD_DEVTIME))
fio --name=rate --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 --ioengine=psync \
	--rate_iops=$iops --time_based --runtime=6 --output=/tmp/fio2.out >/dev/null 2>&1 &
fio_pid=$!
sleep 2
t0=$(date +%s)
$S stats --interval 1 --count 2 "$dev" >/tmp/iv.out 2>/tmp/iv.err
is "$?" 0 "stats --interval 1 --count 2 exits 0"
t1=$(date +%s)
cmp_ok "$((t1 - t0))" -ge 1 "and takes about two seconds"
is "$(grep -c '^DEVICE .* VALUE  *RATE$' /tmp/iv.out)" 2 "two reports, each with a RATE column"
grep -E '^DEVICE|dispatched |in_flight ' /tmp/iv.out | while IFS= read -r l; do diag "$l"; done
rates=$(awk '$3 == "dispatched" { print $5 }' /tmp/iv.out | tr '\n' ' ')
diag "dispatched per second: $rates"
check "dispatched rates near fio's $iops IOPS (+- 50%)" \
	awk -v r="$rates" -v f="$iops" 'BEGIN { n = split(r, a, " "); if (n != 2) exit 1;
		for (i = 1; i <= n; i++) if (a[i] < f / 2 || a[i] > f * 3 / 2) exit 1 }'
check "a gauge has no rate" awk '$3 == "in_flight" && NF != 4 { exit 1 }' /tmp/iv.out
$S stats -J -i 0.5 -c 2 "$dev" >/tmp/iv.json
is "$(grep -c '"stats"' /tmp/iv.json)" 2 "stats -J -i 0.5 -c 2: two JSON documents"
check "with rates" grep -q '"rate": [0-9]*\.[0-9][0-9]' /tmp/iv.json
wait $fio_pid
# A fresh file: polling the last run's two reports would send SIGINT before
# schedctl runs, while the background shell still ignores it.
rm -f /tmp/iv.out
$S stats -i 0.2 "$dev" >/tmp/iv.out 2>&1 &
pid=$!
i=0
while [ "$(cat /tmp/iv.out 2>/dev/null | grep -c '^DEVICE')" -lt 2 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
wait $pid
is "$?" 0 "stats --interval: SIGINT ends it with status 0"
cmp_ok "$(grep -c '^DEVICE' /tmp/iv.out)" -ge 2 "after printing reports"

# Unprivileged: reads and events need no privilege.
su -s /bin/sh nobody -c "$S stats $dev -J" >/tmp/st.user 2>&1
is "$?" 0 "unprivileged stats"
is "$(jval /tmp/st.user "$dev" dispatched)" "$(xd_stat "$dev" dispatched)" \
	"unprivileged stats shows the counters (as debugfs)"
rm -f /tmp/mon.user /tmp/mon.user.err
su -s /bin/sh nobody -c "$S monitor --count 1 --timeout 10" >/tmp/mon.user 2>/tmp/mon.user.err &
pid=$!
i=0
while ! grep -q listening /tmp/mon.user.err && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
old=$(knob "$dev" fifo_batch)	# back at its default after the switches
echo 2 >"/sys/block/$dev/queue/iosched/fifo_batch"
wait $pid
is "$?" 0 "unprivileged monitor"
is "$(cat /tmp/mon.user)" "knob $dev xdeadline fifo_batch $old -> 2" "unprivileged monitor got the event"

# The module going away under a monitor, then not loaded at all.
monitor_start /tmp/mon.out --timeout 10
sched_set "$dev" none
rmmod xdeadline
rmmod xbfq 2>/dev/null
rmmod schedctl_nl
check "schedctl_nl unloaded" test ! -e /sys/module/schedctl_nl
wait $mon_pid
is "$?" 1 "monitor: exit 1 when the module goes away"
is "$(cat /tmp/mon.out)" "detach $dev xdeadline" "after the detach event"
check "and says so" grep -q "schedctl_nl module was unloaded" /tmp/mon.out.err
# resolving the family would autoload schedctl_nl: keep modprobe away
mp=$(cat /proc/sys/kernel/modprobe)
echo /nonexistent >/proc/sys/kernel/modprobe
notloaded="schedctl: the schedctl_nl module is not loaded (no scheduler module from schedctl is in use)"
$S stats >/tmp/st.out 2>/tmp/st.err
is "$?" 1 "stats without schedctl_nl: exit 1"
is "$(cat /tmp/st.err)" "$notloaded" "stats: the not-loaded message"
$S stats -J "$dev" >/tmp/st.out 2>/tmp/st.err
is "$?" 1 "stats -J DEV without schedctl_nl: exit 1"
is "$(cat /tmp/st.err)" "$notloaded" "stats DEV: the not-loaded message"
is "$(cat /tmp/st.out)" "" "nothing on stdout"
$S monitor --timeout 1 >/tmp/st.out 2>/tmp/st.err
is "$?" 1 "monitor without schedctl_nl: exit 1"
is "$(cat /tmp/st.err)" "$notloaded" "monitor: the not-loaded message"
echo "$mp" >/proc/sys/kernel/modprobe
$S stats >/tmp/st.out 2>&1
is "$?" 0 "stats autoloads schedctl_nl (module alias)"
check "schedctl_nl is loaded again" test -e /sys/module/schedctl_nl
rmmod schedctl_nl 2>/dev/null
nullb_remove ss
done_testing
