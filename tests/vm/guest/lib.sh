# SPDX-License-Identifier: GPL-2.0
# TAP helpers and device helpers for guest test scripts (sourced).
T_N=0
T_FAIL=0

ok() { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
not_ok() { T_N=$((T_N + 1)); T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - $*"; }
diag() { echo "# $*"; }
# check DESC CMD...: pass if CMD succeeds.
check() {
	local desc=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then ok "$desc"; else not_ok "$desc"; sed 's/^/#   /' /tmp/check.out; fi
}
# check_fails DESC CMD...: pass if CMD fails.
check_fails() {
	local desc=$1
	shift
	if "$@" >/dev/null 2>&1; then not_ok "$desc"; else ok "$desc"; fi
}
# is GOT WANT DESC
is() { if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3 (got '$1', want '$2')"; fi; }
isnt() { if [ "$1" != "$2" ]; then ok "$3"; else not_ok "$3 (got '$1', want anything else)"; fi; }
# cmp_ok A OP B DESC, OP one of -eq -ne -lt -le -gt -ge
cmp_ok() { if [ "$1" "$2" "$3" ] 2>/dev/null; then ok "$4"; else not_ok "$4 ($1 $2 $3 is false)"; fi; }
done_testing() { echo "1..$T_N"; [ "$T_FAIL" -eq 0 ]; }

NULLB=/sys/kernel/config/nullb

# XD_SCALE: the data runs' size in percent of the default (xd.scale=PCT on
# the kernel command line).  The debug kernel, several times slower under
# KASAN and lockdep, runs them smaller; what they assert stays the same.
# XD_DEVTIME: the service time of the slow null_blk devices that the
# policy tests (fairness, idle class) use, in percent (xd.devtime=PCT):
# their shares show only while the device, not the CPU, is the bottleneck,
# and under KASAN and lockdep the CPU's cost per request nears 1 ms.
# XD_REFERENCE: 1 (xd.reference=1) adds the rounds that a comparison test
# only prints, for docs/benchmarks.md's tables (mq-deadline beside bfq and
# xbfq; bfq where its ratio is not asserted); make check leaves them out.
XD_SCALE=100
XD_DEVTIME=100
XD_REFERENCE=0
for a in $(cat /proc/cmdline); do
	case $a in
	xd.scale=*) XD_SCALE=${a#xd.scale=} ;;
	xd.devtime=*) XD_DEVTIME=${a#xd.devtime=} ;;
	xd.reference=*) XD_REFERENCE=${a#xd.reference=} ;;
	esac
done
# STOCK: 1 where a proof runs the stock scheduler's rounds (bfq,
# mq-deadline) beside xbfq's and asserts the ratio; 0 on a stretched
# device (xd.devtime above 100: the debug kernel, whose guest under KASAN
# and lockdep is too slow for a side-by-side measure to mean much, and
# whose VM suite is make check's longest guest).  There a proof runs
# xbfq's side only, under the detectors, with the checks that compare
# with nothing; xd.reference=1 adds the stock rounds back, printed.
STOCK=1
[ "$XD_DEVTIME" -le 100 ] || STOCK=$XD_REFERENCE
# scaled N: N * XD_SCALE / 100, at least 1.
scaled() {
	local n=$(($1 * XD_SCALE / 100))
	[ "$n" -ge 1 ] || n=1
	echo "$n"
}
# scaled_mib N MIN: a data size of N MiB, scaled, at least MIN MiB (a
# zoned writer keeps crossing a zone boundary); printed as "SIZEm".
scaled_mib() {
	local n
	n=$(scaled "$1")
	[ "$n" -ge "$2" ] || n=$2
	echo "${n}m"
}
# devtime T: a device service time T, or a wait paced by the device's
# service (any unit), scaled by XD_DEVTIME.
devtime() { echo $(($1 * XD_DEVTIME / 100)); }
# iosched_devtime DEV KNOB: scale DEV's I/O scheduler time knob KNOB by
# XD_DEVTIME, as devtime.  Where devtime stretches a test's device (a slow
# guest CPU, the debug kernel), its processes' CPU time between requests
# grows alike; a scheduler window that this time must fit in (slice_idle,
# idle_class_delay) is stretched with it (unchanged at XD_DEVTIME 100).
iosched_devtime() {
	local f="/sys/block/$1/queue/iosched/$2"
	devtime "$(cat "$f")" >"$f"
}

# nullb_create NAME [attr=value...]: create and power on a configfs null_blk
# device; prints the block device name.
nullb_create() {
	local name=$1 kv
	shift
	lsmod | grep -q '^null_blk ' || modprobe null_blk nr_devices=0 || return 1
	mkdir "$NULLB/$name" || return 1
	for kv in "$@"; do
		echo "${kv#*=}" >"$NULLB/$name/${kv%%=*}" || { echo "cannot set $kv" >&2; return 1; }
	done
	echo 1 >"$NULLB/$name/power" || return 1
	if [ -e "/sys/block/$name" ]; then
		echo "$name"
	else
		echo "nullb$(cat "$NULLB/$name/index")"
	fi
}

nullb_remove() {
	echo 0 >"$NULLB/$1/power" 2>/dev/null
	rmdir "$NULLB/$1"
}

# sched_set DEV NAME: switch scheduler; 7.x may answer EBUSY, so retry.
sched_set() {
	local i=0
	while [ $i -lt 50 ]; do
		echo "$2" >"/sys/block/$1/queue/scheduler" 2>/dev/null && return 0
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}

sched_current() { sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$1/queue/scheduler"; }

# knob DEV NAME: read an iosched knob (bash's read: no process started).
knob() { local v; read -r v <"/sys/block/$1/queue/iosched/$2" && printf '%s\n' "$v"; }

# xd_stat DEV NAME: one counter from the scheduler's debugfs stats
# (xdeadline's or xbfq's).
xd_stat() { awk -v k="$2" '$1 == k { print $2 }' "/sys/kernel/debug/block/$1/sched/stats"; }
# XB_FIELD: an awk function for the lines of xbfq's debugfs queues
# listing ("pid PID sync|async CLASS/LEVEL", then NAME VALUE pairs):
# field(NAME) is the value after the word NAME, "" where the line has
# none.  Prepend it to a program: awk "$XB_FIELD"' ... field("rqs") ...'.
XB_FIELD='function field(k,  i) { for (i = 4; i < NF; i++) if ($i == k) return $(i + 1); return "" }'
# xb_bursts FILE: in how many bursts the sync queues of a saved copy of
# xbfq's debugfs queues listing were created (1: all in one; each line's
# "burst ID").  Creations less than 180 ms apart form a burst, in the
# guest's clock: a host that stalls the guest for longer splits one.
xb_bursts() {
	awk "$XB_FIELD"' $1 == "pid" && $3 == "sync" && field("burst") != "" {
		b[field("burst")] = 1
	} END { for (k in b) n++; print n + 0 }' "$1"
}
# xb_busiest_sync DEV: xbfq's debugfs line ("pid PID sync CLASS/LEVEL
# ...") of DEV's sync queue with the most requests served.
xb_busiest_sync() {
	awk "$XB_FIELD"' $1 == "pid" && $3 == "sync" && field("rqs") + 0 > best {
		best = field("rqs") + 0
		l = $0
	} END { print l }' "/sys/kernel/debug/block/$1/sched/queues"
}

# stall_watch / stall_end: the longest stall of the guest between the
# two, in ms.  Under TCG the guest's clock is the host's: a host that
# leaves QEMU without a CPU stalls the guest, and time jumps with no
# progress, which a test that counts work in a time window, or bounds a
# latency, reads as the scheduler's.  A watcher at nice -20 wakes every
# 50 ms (a shell builtin's timeout: no process started) and keeps the
# largest overshoot of its wake-up; a guest that only runs busy (its own
# work, at normal nice) delays it by a few ms.  A test may run a round
# again when the round saw a stall longer than it can absorb; one with
# no stall is judged as it is, so a scheduler that is slow on its own
# still fails.
stall_watch() {
	local t=$EPOCHREALTIME
	rm -f /tmp/stall.max /tmp/stall.fifo
	mkfifo /tmp/stall.fifo
	echo 0 >/tmp/stall.max
	# From the caller's clock read: a stall before the watcher's first
	# wake-up counts too.
	(
		exec 9<>/tmp/stall.fifo
		max=0
		p0=${t%.*}${t#*.}
		while :; do
			read -r -t 0.05 -u 9 _
			t=$EPOCHREALTIME
			p=${t%.*}${t#*.}
			g=$(((p - p0) / 1000 - 50))
			if [ "$g" -gt "$max" ]; then
				max=$g
				echo "$max" >/tmp/stall.max
			fi
			p0=$p
		done
	) &
	STALL_PID=$!
	renice -n -20 -p "$STALL_PID" >/dev/null 2>&1
}
stall_end() {
	kill "$STALL_PID" 2>/dev/null
	wait "$STALL_PID" 2>/dev/null
	cat /tmp/stall.max 2>/dev/null || echo 0
	rm -f /tmp/stall.max /tmp/stall.fifo
}
# stall_again ROUND: after stall_watch and a round's measurement: true
# (run the round again) if the round saw a stall over STALL_MS and it was
# not the third; says so either way.
# On the debug kernel (xd.devtime above 100) the watcher's own wake-ups
# came 160-210 ms late now and then in a make check run (KASAN, lockdep
# and kmemleak under TCG beside the other guests), where the tests'
# device times and idle windows are stretched eightfold: 400 ms there.
STALL_MS=150
[ "$XD_DEVTIME" -le 100 ] || STALL_MS=400
stall_again() {
	local st
	st=$(stall_end)
	[ "$st" -gt "$STALL_MS" ] || return 1
	if [ "$1" -ge 3 ]; then
		diag "round $1: the guest stalled $st ms; no round left, judged as it is"
		return 1
	fi
	diag "round $1: the guest stalled $st ms (over $STALL_MS): again"
	return 0
}

# bfq_learn_no_queueing DEV: make a fresh bfq on DEV learn that the drive
# does not queue (bfq_data.hw_tag 0).  bfq learns it only from completions
# with more than 3 requests outstanding, which QD 1 readers never have;
# until then it idles for a sequential reader only while the reader's
# think time stays under slice_idle / 2, which a TCG guest on a loaded
# host does not always keep.  Reads at QD 8, served one at a time
# (strict_guarantees), show it at most one command in flight: bfq decides
# after 32 completions with more than 3 requests outstanding
# (BFQ_HW_QUEUE_SAMPLES); 64 reads leave the last few, with fewer
# outstanding, out.  (It was 200: 8.5 s a call on the debug kernel's
# slow drive, a third of 50-xbfq-seqidle's time there.)
bfq_learn_no_queueing() {
	local q=/sys/block/$1/queue/iosched rc
	echo 1 >"$q/strict_guarantees" || return 1
	fio_run --name=hwtag --filename="/dev/$1" --rw=randread --bs=4k \
		--iodepth=8 --ioengine=io_uring --direct=1 --number_ios=64 --size=64m
	rc=$?
	echo 0 >"$q/strict_guarantees"
	return $rc
}

# dirty_limits DIRTY BACKGROUND: page-cache dirty limits in bytes (a
# writeback flood that starts early and stays bounded); dirty_restore
# puts the ratios back (writing a ratio zeroes its _bytes twin).
dirty_limits() {
	DIRTY_OLD="$(cat /proc/sys/vm/dirty_ratio) $(cat /proc/sys/vm/dirty_background_ratio)"
	echo "$1" >/proc/sys/vm/dirty_bytes
	echo "$2" >/proc/sys/vm/dirty_background_bytes
}
dirty_restore() {
	set -- $DIRTY_OLD
	echo "$1" >/proc/sys/vm/dirty_ratio
	echo "$2" >/proc/sys/vm/dirty_background_ratio
}

# terse_p99 FILE JOB: the p99 completion latency in microseconds of job
# JOB in fio's terse (version 3) output FILE, run with
# --percentile_list=99: the field that reads "99.000000%=N".
terse_p99() {
	awk -F';' -v job="$2" '$3 == job {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^99.0*%=/) { sub(/.*=/, "", $i); print $i; exit }
	}' "$1"
}

# fio_run ARGS...: fio with terse errors; prints nothing on success.
fio_run() { fio --output=/tmp/fio.out "$@" >/tmp/fio.err 2>&1 || { cat /tmp/fio.err /tmp/fio.out >&2; return 1; }; }

# zwrite DEV NAME ARGS...: sequential writes to the zoned device DEV
# (fio's zbd mode, O_DIRECT, io_uring) with checksums, verified.
zwrite() {
	local dev=$1 name=$2
	shift 2
	fio_run --name="$name" --filename="/dev/$dev" --zonemode=zbd \
		--rw=write --direct=1 --ioengine=io_uring --verify=crc32c \
		--verify_fatal=1 --group_reporting "$@"
}

# switch_stress SCHED: switch a null_blk device to SCHED and away (to none
# and mq-deadline in turn) 200 times (scaled) while fio writes and verifies on it;
# checks every switch, that fio neither hung nor saw an error, and that the
# device still serves I/O.  Removes the device; unloading SCHED is left to
# the caller.
switch_stress() {
	local sched="$1" dev fio_pid n=0 fails=0 other rounds
	rounds=$(scaled 200)
	dev=$(nullb_create sw submit_queues=2 size=64 memory_backed=1)
	rm -f /tmp/sw.out
	fio --output=/tmp/sw.out --name=sw --filename="/dev/$dev" --rw=randrw --bs=4k \
		--direct=1 --ioengine=io_uring --iodepth=16 --numjobs=2 --size=32m \
		--offset_increment=32m --verify=crc32c --verify_fatal=1 --loops=1000 \
		--time_based --runtime=300 >/dev/null 2>&1 &
	fio_pid=$!
	sleep 1
	while [ $n -lt "$rounds" ]; do
		sched_set "$dev" "$sched" || fails=$((fails + 1))
		other=none
		[ $((n % 2)) = 0 ] || other=mq-deadline
		sched_set "$dev" "$other" || fails=$((fails + 1))
		n=$((n + 1))
	done
	is "$fails" 0 "$rounds round trips to $sched, every switch accepted"
	check "fio still running (no hang)" kill -0 $fio_pid
	kill -INT $fio_pid
	wait $fio_pid
	diag "fio exit status $?"
	check "fio saw no I/O or verify error" sh -c "grep -q 'err= 0' /tmp/sw.out && ! grep -q 'verify: bad' /tmp/sw.out"
	check "device idle afterwards" dd if="/dev/$dev" of=/dev/null bs=4k count=64 iflag=direct
	nullb_remove sw
}

# integrity_verify DEV LABEL RW BS SIZE [FIO-ARGS...]: one check: two
# io_uring jobs, 32m apart, write SIZE (NNm, scaled) each of pattern RW in
# blocks of BS with crc32c checksums and verify them; FIO-ARGS may add more
# jobs.
integrity_verify() {
	local dev="$1" label="$2" rw="$3" bs="$4" size="$5"
	shift 5
	case $size in *m) size="$(scaled "${size%m}")m" ;; esac
	check "$label: $rw bs=$bs verify, no errors" fio_run --name=v --filename="/dev/$dev" \
		--rw="$rw" --bs="$bs" --direct=1 --ioengine=io_uring --iodepth=16 \
		--numjobs=2 --offset_increment=32m --size="$size" --verify=crc32c \
		--verify_fatal=1 --do_verify=1 --group_reporting "$@"
}

# integrity_settings DEV DEFAULTS SEQ_BS SETTING...: for each SETTING,
# "NAME KNOB=VALUE...", reset DEV's iosched knobs to DEFAULTS (a list of
# KNOB=VALUE), apply the setting's own, then call the caller's
# `verify LABEL RW BS` for random 4k writes and for sequential (merging)
# writes of SEQ_BS.
integrity_settings() {
	local dev="$1" defaults="$2" seq_bs="$3" s name kv
	shift 3
	for s in "$@"; do
		# shellcheck disable=SC2086 # split the setting into its words
		set -- $s
		name=$1
		shift
		for kv in $defaults "$@"; do
			echo "${kv#*=}" >"/sys/block/$dev/queue/iosched/${kv%%=*}"
		done
		diag "setting $name${*:+: $*}"
		verify "$name" randwrite 4k
		verify "$name" write "$seq_bs"
	done
}

# integrity_balance DEV: after integrity_settings, DEV's scheduler counters
# (debugfs) balance: nothing in flight, every dispatched request completed;
# and the sequential writes were merged and went through the ready list.
# inserted_balance DEV DESC: every request DEV's scheduler counted as
# inserted was dispatched once (a requeue dispatches it again) or merged
# away, at insertion or while queued.
inserted_balance() {
	local d=$1
	is "$(xd_stat "$d" inserted)" \
		"$(($(xd_stat "$d" dispatched) - $(xd_stat "$d" requeued) + \
		$(xd_stat "$d" merged_insert) + $(xd_stat "$d" merged_request)))" "$2"
}

integrity_balance() {
	local d=$1
	is "$(xd_stat "$d" in_flight)" 0 "nothing left in flight"
	is "$(xd_stat "$d" dispatched)" "$(xd_stat "$d" completed)" "dispatched equals completed"
	inserted_balance "$d" "inserted = dispatched - requeued + merged at insertion + merged queued"
	cmp_ok "$(xd_stat "$d" merged_bio)" -gt 0 "sequential writes were merged"
	cmp_ok "$(xd_stat "$d" ready_dispatched)" -gt 0 "the ready list (dispatch_batch) was used"
}

# --- fault injection (tests 18-xdeadline-faults, 51-xbfq-faults) ------------
# null_blk's configfs fault injection (timeout_inject, requeue_inject) needs
# CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION: the debug kernel has it,
# Debian's kernels do not.

# nullb_has_faults: true where null_blk devices have the fault directories.
nullb_has_faults() {
	local rc=1
	lsmod | grep -q '^null_blk ' || modprobe null_blk nr_devices=0 || return 1
	mkdir "$NULLB/faultprobe" 2>/dev/null || return 1
	[ -d "$NULLB/faultprobe/timeout_inject" ] && [ -d "$NULLB/faultprobe/requeue_inject" ] && rc=0
	rmdir "$NULLB/faultprobe"
	return $rc
}

# nullb_fault NAME timeout|requeue PERCENT TIMES: make PERCENT % of NAME's
# commands time out (never complete; blk-mq's timeout handler fails them)
# or come back to blk-mq, at most TIMES times (-1: no limit).  verbose=0:
# no stack trace per injected fault (the log judge fails on those).
nullb_fault() {
	local d="$NULLB/$1/$2_inject"
	echo 0 >"$d/verbose" && echo 1 >"$d/interval" && echo "$3" >"$d/probability" &&
		echo "$4" >"$d/times"
}
# nullb_fault_left NAME KIND: how many of TIMES are left.
nullb_fault_left() { cat "$NULLB/$1/$2_inject/times"; }

# dev_idle DEV: wait up to 30 s until blk-mq has no request of DEV in flight.
dev_idle() {
	local i=0
	while [ $i -lt 300 ]; do
		# shellcheck disable=SC2046 # "READS WRITES"
		set -- "$1" $(cat "/sys/block/$1/inflight")
		[ "$2" = 0 ] && [ "$3" = 0 ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "still in flight: $(cat "/sys/block/$1/inflight")" >&2
	return 1
}

# sched_balanced DEV SCHED: the scheduler's own counters balance: nothing
# in flight or queued, and (xdeadline) every dispatch completed or came
# back as a requeue.
sched_balanced() {
	is "$(xd_stat "$1" in_flight)" 0 "$2: nothing in flight in the scheduler"
	case $2 in
	xdeadline)
		is "$(xd_stat "$1" dispatched)" \
			"$(($(xd_stat "$1" completed) + $(xd_stat "$1" requeued)))" \
			"$2: dispatched = completed + requeued" ;;
	xbfq)
		is "$(xd_stat "$1" queued)" 0 "$2: nothing queued"
		cmp_ok "$(xd_stat "$1" dispatched)" -ge "$(xd_stat "$1" completed)" \
			"$2: dispatched >= completed" ;;
	esac
}

# fault_suite SCHED: SCHED under injected faults, on memory-backed null_blk
# (data kept, so fio can verify it).
#  1. requeues: a fifth of the commands come back to blk-mq (half through
#     the BUSY path, half through blk_mq_requeue_request, which hands them
#     back to the scheduler); fio writes and verifies: no error, no bad
#     data, the requeues seen by the scheduler, counters balanced.
#  2. timeouts and a switch storm: some commands never complete and fail
#     when blk-mq's timeout (1 s here) fires; fio keeps reading verified
#     data and writing elsewhere while the scheduler is switched away and
#     back; every injected timeout must reach fio as an error (nothing
#     lost), fio must finish by itself (nothing stranded), the device be
#     idle afterwards and the data read back intact.
#  3. zoned: a zoned device that requeues, sequential writes per zone with
#     verify: no write error (a requeued write must not overtake its zone's
#     write pointer), data intact, counters balanced.
fault_suite() {
	local s=$1 dev rq n fails other pid inj left err
	if ! nullb_has_faults; then
		diag "SKIP: null_blk has no fault injection here (CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION)"
		echo "1..0 # SKIP null_blk without fault injection"
		return 0
	fi

	# 1. requeues, one hardware queue: every second injection is a
	# requeue through the scheduler.
	dev=$(nullb_create frq submit_queues=1 size=64 memory_backed=1 hw_queue_depth=8)
	check "$s: selected" sched_set "$dev" "$s"
	check "$s: requeue_inject set" nullb_fault frq requeue 20 400
	check "$s: random writes + verify under requeues, no error" fio_run --name=rq \
		--filename="/dev/$dev" --rw=randwrite --bs=4k --direct=1 --ioengine=io_uring \
		--iodepth=16 --numjobs=2 --offset_increment=16m --size=4m --verify=crc32c \
		--verify_fatal=1 --do_verify=1 --group_reporting
	check "$s: sequential (merging) writes + verify under requeues" fio_run --name=sq \
		--filename="/dev/$dev" --rw=write --bs=16k --direct=1 --ioengine=io_uring \
		--iodepth=16 --offset=40m --size=8m --verify=crc32c --verify_fatal=1 --do_verify=1
	inj=$((400 - $(nullb_fault_left frq requeue)))
	cmp_ok "$inj" -gt 20 "$s: null_blk requeued commands ($inj)"
	check "$s: device idle" dev_idle "$dev"
	sched_balanced "$dev" "$s"
	case $s in
	xdeadline) cmp_ok "$(xd_stat "$dev" requeued)" -gt 0 "$s: requeues came back to it" ;;
	xbfq) cmp_ok "$(xd_stat "$dev" dispatched)" -gt "$(xd_stat "$dev" completed)" \
		"$s: requeued requests were dispatched again" ;;
	esac
	check "$s: back to none" sched_set "$dev" none
	nullb_remove frq

	# 2. timeouts under a switch storm, two hardware queues.
	dev=$(nullb_create fto submit_queues=2 size=64 memory_backed=1 hw_queue_depth=8)
	echo 1000 >"/sys/block/$dev/queue/io_timeout"
	check "$s: selected" sched_set "$dev" "$s"
	check "$s: pattern written and verified" fio_run --name=pat --filename="/dev/$dev" \
		--rw=write --bs=64k --direct=1 --ioengine=io_uring --iodepth=8 --size=16m \
		--verify=crc32c --do_verify=1
	check "$s: timeout_inject set" nullb_fault fto timeout 2 12
	# ETIMEDOUT (110) and EIO (5) are expected, and counted.
	rm -f /tmp/fto.json
	fio --output-format=json --output=/tmp/fto.json \
		--name=rd --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
		--ioengine=io_uring --iodepth=8 --size=16m --number_ios=$(scaled 3000) \
		--continue_on_error=io --ignore_error=110,5:110,5 \
		--name=wr --filename="/dev/$dev" --rw=randwrite --bs=4k --direct=1 \
		--ioengine=io_uring --iodepth=8 --offset=32m --size=16m --number_ios=$(scaled 3000) \
		--continue_on_error=io --ignore_error=110,5:110,5 >/tmp/fto.err 2>&1 &
	pid=$!
	n=0
	fails=0
	while [ $n -lt 20 ] && kill -0 $pid 2>/dev/null; do
		other=none
		[ $((n % 2)) = 0 ] || other=mq-deadline
		sched_set "$dev" "$other" || fails=$((fails + 1))
		sched_set "$dev" "$s" || fails=$((fails + 1))
		n=$((n + 1))
	done
	is "$fails" 0 "$s: $n round trips during injected timeouts, every switch accepted"
	rq=0
	while kill -0 $pid 2>/dev/null && [ $rq -lt 1200 ]; do sleep 0.1; rq=$((rq + 1)); done
	diag "$s: fio ran $((rq / 10)) s after the switches"
	check "$s: fio finished by itself within 120 s (nothing stranded)" sh -c "! kill -0 $pid 2>/dev/null"
	kill -KILL $pid 2>/dev/null
	wait $pid
	check "$s: fio exited cleanly" test $? = 0
	left=$(nullb_fault_left fto timeout)
	inj=$((12 - left))
	err=$(sed -n 's/.*"total_err" *: *\([0-9]*\).*/\1/p' /tmp/fto.json | awk '{s += $1} END {print s + 0}')
	cmp_ok "$inj" -gt 0 "$s: null_blk timed out commands ($inj)"
	cmp_ok "$err" -ge "$inj" "$s: every timed-out command reached fio as an error ($err errors)"
	echo 0 >"$NULLB/fto/timeout_inject/probability"
	check "$s: device idle" dev_idle "$dev"
	sched_balanced "$dev" "$s"
	check "$s: the pattern is intact" fio_run --name=pat --filename="/dev/$dev" \
		--rw=write --bs=64k --direct=1 --ioengine=io_uring --iodepth=8 --size=16m \
		--verify=crc32c --verify_only=1
	check "$s: back to none" sched_set "$dev" none
	nullb_remove fto

	# 3. zoned with requeues.
	dev=$(nullb_create fzq submit_queues=1 size=64 memory_backed=1 zoned=1 zone_size=4 \
		zone_nr_conv=0 hw_queue_depth=8)
	check "$s: selected on the zoned device" sched_set "$dev" "$s"
	check "$s: requeue_inject set" nullb_fault fzq requeue 20 -1
	check "$s: zoned sequential writers + verify under requeues, no error" fio_run \
		--name=z --filename="/dev/$dev" --zonemode=zbd --rw=write --bs=16k --direct=1 \
		--ioengine=io_uring --iodepth=8 --numjobs=2 --offset_increment=32m --size=16m \
		--verify=crc32c --verify_fatal=1 --do_verify=1 --group_reporting
	echo 0 >"$NULLB/fzq/requeue_inject/probability"
	check "$s: device idle" dev_idle "$dev"
	sched_balanced "$dev" "$s"
	check "$s: back to none" sched_set "$dev" none
	nullb_remove fzq
}

# simdisk_hdd STRETCH PARAM...: load simdisk as the 7200 rpm HDD model
# (docs/simdisk.md) with its mechanics slowed STRETCH / 100 times (a
# stretched xd.devtime), plus the module parameters PARAM.
simdisk_hdd() {
	local t=$1
	shift
	modprobe simdisk rpm=$((7200 * 100 / t)) seek_t2t_us=$((1000 * t / 100)) \
		seek_full_us=$((16000 * t / 100)) outer_mbps=$((250 * 100 / t)) \
		inner_mbps=$((120 * 100 / t)) "$@"
}

# An application's start under load (the xbfq issue's proof 2), on
# simdisk's HDD model (read cache and look-ahead on, as 30-simdisk-model):
# used by 50-xbfq-startup and by bench/xbfq-startup.sh's guest script.
# startup_setup NFILES: load simdisk (stretched by xd.devtime) and bfq,
# bound the page cache's dirty data to 64 MiB; the application reads
# NFILES files.
startup_setup() {
	STARTUP_FILES=$1 STARTUP_DEV=simdisk0
	check "load simdisk (HDD model, NCQ depth 32)" simdisk_hdd "$XD_DEVTIME" \
		capacity_gb=1000 ncq_depth=32 zero_reads=0
	check "bfq available" modprobe bfq
	dirty_limits $((64 << 20)) $((16 << 20))
}
startup_teardown() {
	dirty_restore
	check "back to none" sched_set $STARTUP_DEV none
	check "unload simdisk" rmmod simdisk
}

# startup_load KIND: four sequential readers (1 MiB, QD 1, O_DIRECT) or
# four writers through the page cache, 100 GiB apart; pids in
# STARTUP_PIDS.  startup_unload stops them and writes the dirty pages.
startup_load() {
	local i g=$((1 << 30))
	STARTUP_PIDS=
	for i in 1 2 3 4; do
		if [ "$1" = readers ]; then
			fio --name=r$i --filename=/dev/$STARTUP_DEV \
				--offset=$((i * 100 * g)) --size=$((50 * g)) --rw=read \
				--bs=1M --direct=1 --ioengine=psync --invalidate=0 \
				--time_based --runtime=600 --output=/dev/null \
				>/dev/null 2>&1 &
		else
			dd if=/dev/zero of=/dev/$STARTUP_DEV bs=1M \
				seek=$((i * 100 * 1024)) count=100000 status=none \
				2>/dev/null &
		fi
		STARTUP_PIDS="$STARTUP_PIDS $!"
	done
}
startup_unload() {
	kill $STARTUP_PIDS 2>/dev/null
	wait $STARTUP_PIDS 2>/dev/null
	sync
}

# startup_app: the application, a new process reading STARTUP_FILES files
# of 64 KiB, 4 MiB apart (fio, strided, QD 1); prints "MS KIB", fio's run
# time of the job and what it read.
startup_app() {
	fio --output-format=terse --terse-version=3 --output=/tmp/app.out \
		--name=app --filename=/dev/$STARTUP_DEV --offset=20g \
		--size=$((STARTUP_FILES * 4))m --io_size=$((STARTUP_FILES * 64))k \
		--zonemode=strided --zonesize=64k --zoneskip=$((4096 - 64))k \
		--rw=read --bs=64k --direct=1 --ioengine=psync --invalidate=0 \
		>/tmp/app.err 2>&1 || { cat /tmp/app.err >&2; return 1; }
	# terse v3: field 6 KiB read, field 9 run time in ms
	awk -F';' '$3 == "app" { print $9, $6; exit }' /tmp/app.out
}

# startup_round SCHED KIND LEAD: under SCHED, the application starts LEAD
# seconds after load KIND; prints "MS KIB BUSY" (BUSY: the sectors the
# load moved meanwhile, from the device's stat).
startup_round() {
	local r out s0 s1
	sched_set $STARTUP_DEV "$1" || return 1
	startup_load "$2"
	sleep "$3"
	s0=$(awk '{ print $3 + $7 }' /sys/block/$STARTUP_DEV/stat)
	out=$(startup_app)
	r=$?
	s1=$(awk '{ print $3 + $7 }' /sys/block/$STARTUP_DEV/stat)
	startup_unload
	[ $r = 0 ] || return 1
	set -- $out
	echo "$1 $2 $((s1 - s0 - 2 * $2))"
}

# startup_checked SCHED KIND LEAD WHAT: startup_round and its checks,
# named WHAT: the application ran and read all its files, the load kept
# the disk busy.  Its time in ms in STARTUP_MS (0 if it did not run).
startup_checked() {
	local res
	res=$(startup_round "$1" "$2" "$3")
	check "$4: the application ran" [ -n "$res" ]
	set -- "$4" $res 0 0 0
	STARTUP_MS=$2
	diag "$1: the application took $2 ms for $3 KiB; the load moved $(($4 / 2048)) MiB meanwhile"
	is "$3" $((STARTUP_FILES * 64)) "$1: the application read all its files"
	cmp_ok "$4" -gt 0 "$1: the load kept the disk busy"
}

# --- cgroup v2 (52- to 55-xbfq-cgroup-*) -----------------------------------
CG=/sys/fs/cgroup
CG_MOUNTED=0
CG_IO_ADDED=0
CG_MEM_ADDED=0
# CGRUN: sh -c "$CGRUN" DIR CMD...: run CMD in cgroup DIR (the shell
# moves itself, then execs CMD under the same pid).
CGRUN='echo $$ >"$0/cgroup.procs" && exec "$@"'
# cg_restore: undo what cg_setup did.
cg_restore() {
	[ $CG_IO_ADDED = 0 ] || echo -io >"$CG/cgroup.subtree_control"
	[ $CG_MEM_ADDED = 0 ] || echo -memory >"$CG/cgroup.subtree_control"
	[ $CG_MOUNTED = 0 ] || umount "$CG"
}
# cg_teardown NAME...: kill every process in the cgroups NAME below $T,
# reap the test's own, remove them and $T, then undo cg_setup.
cg_teardown() {
	local g
	for g in "$@"; do
		[ -d "$T/$g" ] || continue
		echo 1 >"$T/$g/cgroup.kill"
	done
	wait
	for g in "$@"; do [ -d "$T/$g" ] && rmdir "$T/$g"; done
	[ -d "$T" ] && rmdir "$T"
	cg_restore
}
# cg_skip REASON: skip the whole test, cg_setup undone.
cg_skip() {
	diag "SKIP: $1"
	cg_restore
	echo "1..0 # SKIP $1"
	exit 0
}
# The cgroup tests' own cgroups live below $T (set by each test).
# cg_id NAME: the cgroup id (the directory's inode number) of NAME below
# $T, or of the root cgroup for "/".
cg_id() { if [ "$1" = / ]; then stat -c %i "$CG"; else stat -c %i "$T/$1"; fi; }
# grp DEV NAME KEY: KEY's value on the line of cgroup NAME in DEV's
# debugfs groups file ("cgid ID weight W busy B active N served S held H").
grp() {
	awk -v id="$(cg_id "$2")" -v k="$3" '{
		for (i = 1; i < NF; i += 2) f[$i] = $(i + 1)
		if (f["cgid"] == id) { print f[k]; exit }
	}' "/sys/kernel/debug/block/$1/sched/groups"
}
# iostat NAME MAJ:MIN KEY: KEY's value (0 if none) on device MAJ:MIN's
# line of cgroup NAME's io.stat.
iostat() {
	awk -v d="$2" -v k="$3=" '$1 == d { for (i = 2; i <= NF; i++)
			if (index($i, k) == 1) v = substr($i, length(k) + 1) }
		END { print (v == "" ? 0 : v) }' "$T/$1/io.stat"
}

# cg_setup: cgroup2 at $CG (mounted here if /init did not) with the io
# controller on for its children, and the memory controller where the
# kernel has it (writeback charges a cgroup's dirty pages to it only
# where both are on: cgroup writeback); the test skipped where not.
cg_setup() {
	grep -qw cgroup2 /proc/filesystems || cg_skip "no cgroup2 in this kernel"
	if ! awk '$2 == "/sys/fs/cgroup" && $3 == "cgroup2" { f = 1 } END { exit !f }' /proc/mounts; then
		mount -t cgroup2 none "$CG" 2>/dev/null || cg_skip "cannot mount cgroup2"
		CG_MOUNTED=1
	fi
	grep -qw io "$CG/cgroup.controllers" || cg_skip "no io controller (CONFIG_BLK_CGROUP)"
	if ! grep -qw io "$CG/cgroup.subtree_control"; then
		echo +io >"$CG/cgroup.subtree_control" || cg_skip "cannot enable the io controller"
		CG_IO_ADDED=1
	fi
	if grep -qw memory "$CG/cgroup.controllers" &&
		! grep -qw memory "$CG/cgroup.subtree_control"; then
		echo +memory >"$CG/cgroup.subtree_control" && CG_MEM_ADDED=1
	fi
}
