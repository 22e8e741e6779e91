# SPDX-License-Identifier: GPL-2.0
# xdeadline on null_blk with one and with several hardware queues and on
# scsi_debug: autoload, every knob read, written and rejected when bad.
. /tests/lib.sh

# put FILE VALUE: write VALUE to FILE, as echo VALUE >FILE does (bash's
# builtin: no process, where the debug kernel's guest takes about 0.1 s
# to start one; this test's 600 of them took most of its 71 s there).
put() { echo "$2" >"$1"; }
# knob_case DEV KNOB GOOD BAD...: GOOD reads back; each BAD is refused with
# the old value kept.
knob_case() {
	local d=$1 k=$2 good=$3 f bad v
	shift 3
	f=/sys/block/$d/queue/iosched/$k
	check "$d: $k accepts $good" put "$f" "$good"
	read -r v <"$f"
	is "$v" "$good" "$d: $k reads back $good"
	for bad in "$@"; do
		check_fails "$d: $k refuses '$bad'" put "$f" "$bad"
		read -r v <"$f"
		is "$v" "$good" "$d: $k kept $good after '$bad'"
	done
}

knobs_test() {
	local d=$1
	check "$d: switch to xdeadline" sched_set "$d" xdeadline
	is "$(sched_current "$d")" xdeadline "$d: xdeadline active"
	is "$(knob "$d" read_expire)" 500 "$d: read_expire default 500 ms"
	is "$(knob "$d" write_expire)" 5000 "$d: write_expire default 5000 ms"
	is "$(knob "$d" fifo_batch)" 16 "$d: fifo_batch default"
	is "$(knob "$d" writes_starved)" 2 "$d: writes_starved default"
	is "$(knob "$d" front_merges)" 1 "$d: front_merges default"
	is "$(knob "$d" prio_aging_expire)" 10000 "$d: prio_aging_expire default"
	is "$(knob "$d" dispatch_batch)" 8 "$d: dispatch_batch default"
	is "$(knob "$d" nr_sched_batch)" 0 "$d: nr_sched_batch default"
	is "$(knob "$d" head_request)" 0 "$d: head_request default"
	is "$(knob "$d" zoned_qd1_writes)" 0 "$d: zoned_qd1_writes off (not zoned)"
	is "$(knob "$d" congestion_threshold)" 75 "$d: congestion_threshold default 75"
	is "$(knob "$d" local_dispatch)" "$((1 - $(cat "/sys/block/$d/queue/rotational")))" \
		"$d: local_dispatch default: on unless rotational"
	knob_case "$d" read_expire 200 abc -1 3600001 ""
	knob_case "$d" write_expire 1000 1e3 -5
	knob_case "$d" prio_aging_expire 4000 x
	knob_case "$d" fifo_batch 8 -1 eight
	knob_case "$d" writes_starved 3 -1
	knob_case "$d" front_merges 0 2 -1
	knob_case "$d" serialize_dispatch 0 2
	knob_case "$d" defer_insert 0 5
	knob_case "$d" merge_skip 0 -1
	knob_case "$d" dispatch_batch 16 0 257
	knob_case "$d" congestion_threshold 0 101 -1
	knob_case "$d" local_dispatch 0 2 -1
	knob_case "$d" nr_sched_batch 4 -1 4x
	knob_case "$d" head_request 1 2
	if [ -e "/sys/block/$d/queue/iosched/async_depth" ]; then
		knob_case "$d" async_depth 32 0 z
		# A new nr_requests resets async_depth to it: the new value,
		# though the block layer stores it only after depth_updated.
		check "$d: nr_requests 96" sh -c "echo 96 > /sys/block/$d/queue/nr_requests"
		is "$(cat "/sys/block/$d/queue/iosched/async_depth")" 96 \
			"$d: async_depth follows nr_requests"
	else
		check "$d: queue/async_depth is the kernel's (7.x)" test -e "/sys/block/$d/queue/async_depth"
	fi
	check_fails "$d: zoned_qd1_writes refused on a non-zoned device" \
		sh -c "echo 1 > /sys/block/$d/queue/iosched/zoned_qd1_writes"
	check "$d: I/O with the changed knobs" dd if="/dev/$d" of=/dev/null bs=4k count=256 iflag=direct
	check "$d: back to none" sched_set "$d" none
}

modprobe -r xdeadline 2>/dev/null
sq=$(nullb_create sq submit_queues=1 size=64)
check "autoload: writing xdeadline loads the module" sched_set "$sq" xdeadline
check "xdeadline module loaded" grep -q '^xdeadline ' /proc/modules
knobs_test "$sq"

mq=$(nullb_create mq submit_queues=2 size=64)
cmp_ok "$(ls /sys/block/$mq/mq | grep -c '^[0-9]')" -ge 2 "$mq has several hardware queues"
knobs_test "$mq"

check "load scsi_debug and sd_mod" sh -c "modprobe sd_mod && modprobe scsi_debug dev_size_mb=32"
sd=
for i in 1 2 3 4 5 6 7 8 9 10; do
	for b in /sys/block/sd*; do
		grep -qs scsi_debug "$b/device/model" && sd=${b##*/}
	done
	[ -z "$sd" ] || break
	sleep 0.5
done
check "scsi_debug disk present" test -n "$sd"
[ -z "$sd" ] || knobs_test "$sd"
modprobe -r scsi_debug

nullb_remove sq
nullb_remove mq
check "unload xdeadline" rmmod xdeadline
done_testing
