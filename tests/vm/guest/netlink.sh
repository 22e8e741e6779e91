# SPDX-License-Identifier: GPL-2.0
# Helpers for the schedctl netlink guest tests (sourced after lib.sh, from
# /tests/netlink.sh).  nltest comes from GUEST_TREE
# (make -C tests/nltest install DESTDIR=...).
# busybox ash has local:
# shellcheck disable=SC3043

# need_nltest: fail the test script at once when nltest is missing.
need_nltest() {
	command -v nltest >/dev/null && return 0
	not_ok "nltest in the guest (GUEST_TREE)"
	done_testing
	exit 1
}

# nl_dump: the whole dump ("DEV SCHED KIND NAME VALUE" lines) to /tmp/nl.dump.
nl_dump() { nltest dump >/tmp/nl.dump; }
# nl DEV KIND NAME: one value from /tmp/nl.dump.
nl() { awk -v d="$1" -v k="$2" -v n="$3" '$1 == d && $3 == k && $4 == n { print $5 }' /tmp/nl.dump; }
# iosched DEV KNOB VALUE: write a knob through sysfs.
iosched() { echo "$3" >"/sys/block/$1/queue/iosched/$2"; }

# nl_check_dump DEV SCHED: with SCHED attached to DEV, the only device on
# our schedulers, the dump lists DEV alone with SCHED and its dev_t, every
# iosched knob as sysfs shows it and every counter as debugfs shows it,
# and no other knob or counter.  Leaves that dump in /tmp/nl.dump.
nl_check_dump() {
	local dev="$1" sched="$2" f n=0 bad='' name val
	check "dump" nl_dump
	is "$(awk '{ print $1 }' /tmp/nl.dump | sort -u)" "$dev" "dump lists exactly $dev"
	is "$(awk -v d="$dev" '$1 == d && $3 == "dev" { print $2 " " $4 }' /tmp/nl.dump)" \
		"$sched $(cat "/sys/block/$dev/dev")" "scheduler $sched and dev_t as in sysfs"
	for f in "/sys/block/$dev/queue/iosched/"*; do
		n=$((n + 1))
		[ "$(nl "$dev" knob "${f##*/}")" = "$(cat "$f")" ] || bad="$bad ${f##*/}"
	done
	is "$bad" "" "every sysfs knob in the dump with its value"
	is "$(grep -c " knob " /tmp/nl.dump)" "$n" "no knob in the dump that sysfs lacks"
	# The counters: debugfs first, then a dump right after it.
	cp "/sys/kernel/debug/block/$dev/sched/stats" /tmp/nl.stats
	nl_dump
	bad=
	n=0
	while read -r name val; do
		n=$((n + 1))
		[ "$(nl "$dev" counter "$name")" = "$val" ] || bad="$bad $name"
	done </tmp/nl.stats
	is "$bad" "" "every debugfs counter in the dump with its value"
	is "$(grep -c " counter " /tmp/nl.dump)" "$n" "no counter in the dump that debugfs lacks"
}

# nl_fio DEV COUNTER...: note DEV's COUNTERs from a fresh dump, run fio's
# 1024 random 4k direct I/Os on DEV (psync, one at a time, so nothing
# merges), write "READS WRITES" that fio issued to /tmp/nl.rw, and dump
# again; then nl_moved DEV COUNTER prints how far a noted counter moved.
nl_fio() {
	local dev="$1" c r w
	shift
	rm -f /tmp/nl.rw
	nl_dump
	for c in "$@"; do
		eval "nl_b_$c=\$(nl \"\$dev\" counter \"\$c\")"
	done
	check "fio: 1024 random 4k I/Os, direct, read/write mix" \
		fio_run --name=nl --filename="/dev/$dev" --rw=randrw --bs=4k --direct=1 \
		--ioengine=psync --size=4m --randseed=42
	# shellcheck disable=SC2046 # two numbers
	set -- $(sed -n 's/.*issued rwts: total=\([0-9]*\),\([0-9]*\),.*/\1 \2/p' /tmp/fio.out)
	r=${1:-0}
	w=${2:-0}
	diag "fio issued $r reads, $w writes"
	is "$((r + w))" 1024 "fio issued 1024 I/Os"
	echo "$r $w" >/tmp/nl.rw
	nl_dump
}
nl_moved() {	# nl_moved DEV COUNTER
	local before
	eval "before=\$nl_b_$2"
	echo $(($(nl "$1" counter "$2") - before))
}

# monitor_start N: nltest monitor (N events, 30 s at most) in the
# background, once it listens; its output goes to a fresh /tmp/mon.out.
monitor_start() {
	local i=0
	rm -f /tmp/mon.out
	nltest monitor "$1" 30 >/tmp/mon.out 2>&1 &
	mon_pid=$!
	while ! grep -q '^# listening' /tmp/mon.out && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# monitor_check EXPECTED-FILE DESC: the monitor got all its events, and
# they are EXPECTED-FILE's lines, in order.
monitor_check() {
	wait "$mon_pid"
	is "$?" 0 "$2: monitor saw every event"
	grep -v '^#' /tmp/mon.out >/tmp/mon.events
	if cmp -s "$1" /tmp/mon.events; then
		ok "$2: events in order"
	else
		not_ok "$2: events in order"
		diff "$1" /tmp/mon.events | sed 's/^/#   /'
	fi
}
