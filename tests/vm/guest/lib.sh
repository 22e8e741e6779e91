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
# cmp_ok A OP B DESC, OP one of -eq -ne -lt -le -gt -ge
cmp_ok() { if [ "$1" "$2" "$3" ] 2>/dev/null; then ok "$4"; else not_ok "$4 ($1 $2 $3 is false)"; fi; }
done_testing() { echo "1..$T_N"; [ "$T_FAIL" -eq 0 ]; }

NULLB=/sys/kernel/config/nullb

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

# knob DEV NAME: read an iosched knob.
knob() { cat "/sys/block/$1/queue/iosched/$2"; }

# xd_stat DEV NAME: one counter from the scheduler's debugfs stats
# (xdeadline's or xbfq's).
xd_stat() { awk -v k="$2" '$1 == k { print $2 }' "/sys/kernel/debug/block/$1/sched/stats"; }

# fio_run ARGS...: fio with terse errors; prints nothing on success.
fio_run() { fio --output=/tmp/fio.out "$@" >/tmp/fio.err 2>&1 || { cat /tmp/fio.err /tmp/fio.out >&2; return 1; }; }

# switch_stress SCHED: switch a null_blk device to SCHED and away (to none
# and mq-deadline in turn) 200 times while fio writes and verifies on it;
# checks every switch, that fio neither hung nor saw an error, and that the
# device still serves I/O.  Removes the device; unloading SCHED is left to
# the caller.
switch_stress() {
	local sched="$1" dev fio_pid n=0 fails=0 other
	dev=$(nullb_create sw submit_queues=2 size=64 memory_backed=1)
	rm -f /tmp/sw.out
	fio --output=/tmp/sw.out --name=sw --filename="/dev/$dev" --rw=randrw --bs=4k \
		--direct=1 --ioengine=io_uring --iodepth=16 --numjobs=2 --size=32m \
		--offset_increment=32m --verify=crc32c --verify_fatal=1 --loops=1000 \
		--time_based --runtime=300 >/dev/null 2>&1 &
	fio_pid=$!
	sleep 1
	while [ $n -lt 200 ]; do
		sched_set "$dev" "$sched" || fails=$((fails + 1))
		other=none
		[ $((n % 2)) = 0 ] || other=mq-deadline
		sched_set "$dev" "$other" || fails=$((fails + 1))
		n=$((n + 1))
	done
	is "$fails" 0 "200 round trips to $sched, every switch accepted"
	check "fio still running (no hang)" kill -0 $fio_pid
	kill -INT $fio_pid
	wait $fio_pid
	diag "fio exit status $?"
	check "fio saw no I/O or verify error" sh -c "grep -q 'err= 0' /tmp/sw.out && ! grep -q 'verify: bad' /tmp/sw.out"
	check "device idle afterwards" dd if="/dev/$dev" of=/dev/null bs=4k count=64 iflag=direct
	nullb_remove sw
}

# integrity_verify DEV LABEL RW BS SIZE [FIO-ARGS...]: one check: two
# io_uring jobs, 32m apart, write SIZE each of pattern RW in blocks of BS
# with crc32c checksums and verify them; FIO-ARGS may add more jobs.
integrity_verify() {
	local dev="$1" label="$2" rw="$3" bs="$4" size="$5"
	shift 5
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
integrity_balance() {
	local d=$1 requeued
	is "$(xd_stat "$d" in_flight)" 0 "nothing left in flight"
	is "$(xd_stat "$d" dispatched)" "$(xd_stat "$d" completed)" "dispatched equals completed"
	# Every inserted request was dispatched once or merged away (xbfq
	# counts no requeues).
	requeued=$(xd_stat "$d" requeued)
	is "$(xd_stat "$d" inserted)" \
		"$(($(xd_stat "$d" dispatched) - ${requeued:-0} + \
		$(xd_stat "$d" merged_insert) + $(xd_stat "$d" merged_request)))" \
		"inserted = dispatched - requeued + merged at insertion + merged queued"
	cmp_ok "$(xd_stat "$d" merged_bio)" -gt 0 "sequential writes were merged"
	cmp_ok "$(xd_stat "$d" ready_dispatched)" -gt 0 "the ready list (dispatch_batch) was used"
}
