# SPDX-License-Identifier: GPL-2.0
# Keeping an empty slot (docs/xbfq.md): a process alone at queue depth 1,
# on a device that needs no idling, keeps its slot between its requests
# (slots_kept, slots_resumed) rather than being expired and picked again
# at each; what it writes so verifies.  Another process's request ends
# the kept slot at once: two such processes both get the device.  A
# class change (ionice) of a process whose slot is kept applies at its
# next request.
. /tests/lib.sh

dev=$(nullb_create kept submit_queues=1 size=512 memory_backed=1)
check "switch to xbfq" sched_set "$dev" xbfq
Q=/sys/kernel/debug/block/$dev/sched/queues
st() { v=$(xd_stat "$dev" "$1"); echo "${v:-0}"; }
snap() { k0=$(st slots_kept); r0=$(st slots_resumed); e0=$(st expired_empty); d0=$(st dispatched); }
delta() {
	kept=$(($(st slots_kept) - k0))
	res=$(($(st slots_resumed) - r0))
	emp=$(($(st expired_empty) - e0))
	disp=$(($(st dispatched) - d0))
	diag "$1: dispatched $disp, slots kept $kept, resumed $res, expired empty $emp"
}

# One process, random 4k writes one at a time, then their verification.
snap
check "alone: random 4k writes at QD1, verified" fio_run --name=w \
	--filename="/dev/$dev" --rw=randwrite --bs=4k --direct=1 \
	--ioengine=psync --size="$(scaled 16)m" --verify=crc32c \
	--verify_fatal=1 --do_verify=1
delta alone
cmp_ok "$disp" -ge "$(($(scaled 16) * 512))" "alone: every write and its read-back dispatched"
cmp_ok "$res" -ge $((disp * 8 / 10)) "alone: at least 80% of requests resumed a kept slot"
cmp_ok "$emp" -le $((disp / 5)) "alone: at most 20% of slots ended empty"

# Two processes, each one read at a time: a kept slot ends at the other's
# request.  On memory-backed null_blk both readers are bound by their
# CPUs, not by the device, so their split follows their vCPUs' time as
# much as the scheduler's order: in one 6.12 boot, three rounds each,
# none split 0.94-1.36:1, bfq 0.69-1.45:1, xbfq 1.15-1.38:1 (1.00-1.32:1
# before kept slots), and a make check run gave xbfq 0.68:1.  Only a
# slot that held the other reader off would go far outside that.
snap
fio --output=/tmp/kept.out --output-format=terse --terse-version=3 \
	--name=a --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
	--ioengine=psync --offset=0 --size=256m --time_based --runtime=3 \
	--name=b --filename="/dev/$dev" --rw=randread --bs=4k --direct=1 \
	--ioengine=psync --offset=256m --size=256m --time_based --runtime=3 \
	>/dev/null 2>&1
delta pair
# terse v3: field 3 job name, field 6 KiB read
a=$(awk -F';' '$3 == "a" { print $6 }' /tmp/kept.out)
b=$(awk -F';' '$3 == "b" { print $6 }' /tmp/kept.out)
diag "a read ${a:-0} KiB, b ${b:-0} KiB"
cmp_ok "${b:-0}" -gt 0 "pair: both readers made progress"
ratio=$(( ${a:-0} * 100 / (${b:-0} + (${b:-0} == 0)) ))
cmp_ok "$ratio" -ge 50 "pair: a:b at least 0.5:1"
cmp_ok "$ratio" -le 200 "pair: a:b at most 2:1"
cmp_ok "$emp" -gt 0 "pair: slots ended (kept or not) as the other came"

# ionice on a process alone at QD1: its queue is in service with its slot
# kept between requests; it moves to the IDLE class within a second.
busy_s=6
[ "$XD_DEVTIME" -le 100 ] || busy_s=20
fio --output=/tmp/kept1.out --name=one --filename="/dev/$dev" --rw=randread \
	--bs=4k --direct=1 --ioengine=psync --size=256m --time_based \
	--runtime=$busy_s >/dev/null 2>&1 &
fio_pid=$!
sleep 1.5
line=$(xb_busiest_sync "$dev")
diag "before: $line"
set -- $line
job=${2:-0}
is "${4:-}" be/4 "one: its queue starts in BE level 4"
i0=$(st inserted_idle)
check "ionice -c 3 -p $job" ionice -c 3 -p "$job"
sleep 1
set -- $(grep "^pid $job sync " "$Q")
is "${4:-}" idle/7 "one: its queue moved to the IDLE class"
cmp_ok "$(($(st inserted_idle) - i0))" -gt 0 "one: its requests inserted as IDLE"
wait $fio_pid
is "$?" 0 "one: fio exited cleanly"

sed 's/^/# /' "/sys/kernel/debug/block/$dev/sched/stats"
is "$(st in_flight)" 0 "nothing left in flight"
check "back to none" sched_set "$dev" none
nullb_remove kept
done_testing
