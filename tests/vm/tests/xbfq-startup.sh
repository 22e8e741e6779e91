# SPDX-License-Identifier: GPL-2.0
# Responsiveness (the xbfq issue's proof 2, seed 003's case), run by
# bench/xbfq-startup.sh (its name does not start with a digit, so make
# check does not run it): the time an application takes to read its
# files while the disk is kept busy, on simdisk's HDD model (read cache
# and look-ahead on, as 30-simdisk-model).  The application is one new
# process reading NFILES files of 64 KiB, 4 MiB apart (fio, strided, one
# read per file at QD 1): 12.5 MiB in 200 seeks.  The load is four
# sequential readers at QD 1 in 1 MiB commands, then four sequential
# writers through the page cache (the flusher writes), each in its own
# part of the disk.  The application starts LEAD seconds after the load:
# 1 s (the load's own new queues are still weight-raised by both
# schedulers) and 4 s (past xbfq's 3 s raising; bfq computes its raising
# time from the device's rate and does not show it).  Per load and lead:
# mq-deadline once, then bfq and xbfq twice each in the order bfq, xbfq,
# xbfq, bfq.  Each round prints "# RESULT KIND LEAD SCHED MS"; the
# checks are only that every application read all its files and that the
# load kept the disk busy.
. /tests/lib.sh

t=$XD_DEVTIME
check "load simdisk (HDD model, NCQ depth 32)" modprobe simdisk capacity_gb=1000 \
	rpm=$((7200 * 100 / t)) seek_t2t_us=$((1000 * t / 100)) \
	seek_full_us=$((16000 * t / 100)) outer_mbps=$((250 * 100 / t)) \
	inner_mbps=$((120 * 100 / t)) ncq_depth=32 zero_reads=0
check "bfq available" modprobe bfq
dev=simdisk0
G=$((1 << 30))
NFILES=200

dirty_limits $((64 << 20)) $((16 << 20))

# load KIND: start the background load (pids in LOAD_PIDS)
load() {
	local i
	LOAD_PIDS=
	for i in 1 2 3 4; do
		if [ "$1" = readers ]; then
			fio --name=r$i --filename=/dev/$dev --offset=$((i * 100 * G)) \
				--size=$((50 * G)) --rw=read --bs=1M --direct=1 \
				--ioengine=psync --invalidate=0 --time_based \
				--runtime=600 --output=/dev/null >/dev/null 2>&1 &
		else
			dd if=/dev/zero of=/dev/$dev bs=1M seek=$((i * 100 * 1024)) \
				count=100000 status=none 2>/dev/null &
		fi
		LOAD_PIDS="$LOAD_PIDS $!"
	done
}
unload() {
	kill $LOAD_PIDS 2>/dev/null
	wait $LOAD_PIDS 2>/dev/null
	sync
}

# app: the application's files read by a new process; prints "MS KIB"
# (fio's own run time of the job and what it read)
app() {
	fio --output-format=terse --terse-version=3 --output=/tmp/app.out \
		--name=app --filename=/dev/$dev --offset=$((20 * G)) \
		--size=$((NFILES * 4))m --io_size=$((NFILES * 64))k \
		--zonemode=strided --zonesize=64k \
		--zoneskip=$((4096 - 64))k --rw=read --bs=64k --direct=1 \
		--ioengine=psync --invalidate=0 >/tmp/app.err 2>&1 ||
		{ cat /tmp/app.err >&2; return 1; }
	# terse v3: field 6 KiB read, field 9 run time in ms
	awk -F';' '$3 == "app" { print $9, $6; exit }' /tmp/app.out
}

# round SCHED KIND: one application start under SCHED and load KIND;
# prints "MS KIB BUSY" (BUSY: the load's sectors moved meanwhile, per
# /sys/block/DEV/stat)
round() {
	local s=$1 r out s0 s1
	sched_set $dev "$s" || return 1
	load "$2"
	sleep "$LEAD"
	s0=$(awk '{ print $3 + $7 }' /sys/block/$dev/stat)
	out=$(app)
	r=$?
	s1=$(awk '{ print $3 + $7 }' /sys/block/$dev/stat)
	unload
	[ $r = 0 ] || return 1
	set -- $out
	echo "$1 $2 $((s1 - s0 - 2 * $2))"
}

order="mq-deadline bfq xbfq xbfq bfq"
for kind in readers writers; do
	for LEAD in 1 4; do
		for s in $order; do
			res=$(round "$s" $kind)
			check "$kind, lead $LEAD s, $s: the application ran" [ -n "$res" ]
			set -- $res 0 0 0
			echo "# RESULT $kind $LEAD $s $1"
			diag "$kind, lead $LEAD s, $s: the application took $1 ms for $2 KiB; the load moved $(($3 / 2048)) MiB meanwhile"
			is "$2" $((NFILES * 64)) "$kind, lead $LEAD s, $s: the application read all its files"
			cmp_ok "$3" -gt 0 "$kind, lead $LEAD s, $s: the load kept the disk busy"
			[ $s != xbfq ] ||
				diag "$(tr '\n' ' ' </sys/kernel/debug/block/$dev/sched/stats)"
		done
	done
done
dirty_restore
check "back to none" sched_set $dev none
check "unload simdisk" rmmod simdisk
done_testing
