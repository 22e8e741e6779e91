# SPDX-License-Identifier: GPL-2.0
# Zoned writes of mixed I/O priorities under xdeadline, zoned_qd1_writes 0
# and 1, on a zoned null_blk (256 MiB, 4 MiB zones): writers at RT, BE and
# IDLE in different zones, and one sequential writer with half its writes
# real-time (per-I/O priorities), at QD 1 and 32.  Every run: no write
# error, done within 4x + 3 s of mq-deadline's time for the same writes at
# one priority on the same kind of device, at most one write in flight with
# the knob on, counters balanced.  Then a real-time writer is served first
# where no zone rule forbids it.
. /tests/lib.sh

now() { awk '{ print $1 }' /proc/uptime; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
within() { awk -v t="$1" -v b="$2" 'BEGIN { exit !(t <= b) }'; }

# zfio LAYOUT QD [PRIO]: the writes of LAYOUT at QD on $dev, time-bounded;
# PRIO=0 writes everything at the default priority (the reference).
zfio() {
	local layout=$1 qd=$2 prio=${3:-1} rt= be= idle= mix=
	if [ "$prio" = 1 ]; then
		rt=--prioclass=1 be=--prioclass=2 idle=--prioclass=3
		mix="--cmdprio_percentage=50 --cmdprio_class=1"
	fi
	# sizes scaled by xd.scale, each at least two zones
	local m32 m16
	m32=$(scaled_mib 32 8) m16=$(scaled_mib 16 8)
	set -- --filename="/dev/$dev" --zonemode=zbd --rw=write --bs=16k \
		--direct=1 --ioengine=io_uring --iodepth="$qd"
	case $layout in
	2zones)	# a BE and an RT writer, 32 MiB each, in different zones
		set -- "$@" --name=be --offset=0 --size=$m32 $be \
			--name=rt --offset=128m --size=$m32 $rt ;;
	3zones)	# RT, BE and IDLE writers, 16 MiB each
		set -- "$@" --name=rt --offset=0 --size=$m16 $rt \
			--name=be --offset=64m --size=$m16 $be \
			--name=idle --offset=128m --size=$m16 $idle ;;
	mixed)	# one writer, half of its writes real-time
		set -- "$@" --name=mixed --offset=0 --size=$m32 $mix ;;
	esac
	timeout 90 fio --output=/tmp/zfio.out "$@" >/tmp/zfio.err 2>&1 ||
		{ tail -n 5 /tmp/zfio.err >&2; return 1; }
}

# fresh QD1 [SCHED]: a new zoned null_blk under SCHED (xdeadline), with
# zoned_qd1_writes=QD1; sets $dev.
n=0
fresh() {
	[ $n -gt 0 ] && nullb_remove zp$n
	n=$((n + 1))
	dev=$(nullb_create zp$n submit_queues=1 size=256 zoned=1 zone_size=4 \
		zone_nr_conv=0)
	sched_set "$dev" "${2:-xdeadline}" || return 1
	[ "${2:-xdeadline}" = xdeadline ] || return 0
	echo "$1" >/sys/block/$dev/queue/iosched/zoned_qd1_writes
}

# The reference: mq-deadline, the same writes at one priority.
for l in 2zones 3zones mixed; do
	for qd in 1 32; do
		[ $l != mixed ] && [ $qd = 1 ] && continue
		fresh 0 mq-deadline
		t0=$(now)
		check "mq-deadline: $l QD $qd at one priority" zfio $l $qd 0
		ref=$(elapsed "$t0" "$(now)")
		eval "ref_${l}_$qd=$ref"
	done
done

for qd1 in 0 1; do
	for l in 2zones 3zones mixed; do
		for qd in 1 32; do
			[ $l != mixed ] && [ $qd = 1 ] && continue
			what="qd1=$qd1: $l QD $qd, mixed priorities"
			fresh $qd1
			t0=$(now)
			check "$what: no write error" zfio $l $qd
			t=$(elapsed "$t0" "$(now)")
			eval "ref=\$ref_${l}_$qd"
			bound=$(awk -v r="$ref" 'BEGIN { printf "%.2f", 4 * r + 3 }')
			within "$t" "$bound"
			is $? 0 "$what: done in ${t}s, bound ${bound}s (mq-deadline at one priority ${ref}s)"
			if [ $qd1 = 1 ]; then
				is "$(xd_stat "$dev" qd1_max_in_flight)" 1 \
					"$what: at most one write in flight"
			fi
			is "$(xd_stat "$dev" in_flight)" 0 "$what: nothing in flight"
			is "$(xd_stat "$dev" dispatched)" "$(xd_stat "$dev" completed)" \
				"$what: dispatched equals completed"
			is "$(xd_stat "$dev" qd1_writes_in_flight)" 0 \
				"$what: no qd1 write left counted"
			case $l in
			mixed)
				cmp_ok "$(xd_stat "$dev" dispatched_write_rt)" -gt 0 \
					"$what: real-time writes went through" ;;
			3zones)
				cmp_ok "$(xd_stat "$dev" dispatched_write_idle)" -gt 0 \
					"$what: idle writes went through" ;;
			esac
			diag "$what: zone_boosted $(xd_stat "$dev" zone_boosted) qd1_waits $(xd_stat "$dev" qd1_waits)"
		done
	done
done
nullb_remove zp$n

# Real-time first: four RT and four BE writers, each in its own zone, with
# one write in flight (zoned_qd1_writes=1) on a device that takes 1 ms a
# write (xd.devtime scales it where the guest's CPU is slow), 64 writes
# of 64 KiB each (a zone), so writes queue in the scheduler: the RT
# writers finish long before the BE ones.  The device, not the guest's
# CPU, must be the bottleneck: at 100 us a write a slow or busy host made
# the run CPU-bound, and RT's lead shrank to nothing (RT 6165 ms, BE
# 7283 ms on the debug kernel).  Each writer is synchronous (psync): with
# a tiny device queue, io_uring retries a write that found no tag from a
# worker, out of order, which 6.1 (no zone write plugging) cannot take
# under any scheduler.
rtfirst() {
	timeout 120 fio --output-format=json --output=/tmp/rt.json \
		--filename="/dev/$dev" --zonemode=zbd --rw=write --bs=64k \
		--direct=1 --ioengine=psync --size=4m --numjobs=4 \
		--offset_increment=4m \
		--name=rt --offset=0 --prioclass=1 \
		--name=be --offset=64m --prioclass=2 >/tmp/rt.err 2>&1 ||
		{ tail -n 5 /tmp/rt.err | while IFS= read -r l; do diag "fio: $l"; done; return 1; }
}
dev=$(nullb_create zprt submit_queues=1 size=256 zoned=1 zone_size=4 \
	zone_nr_conv=0 irqmode=2 completion_nsec=$(devtime 1000000) hw_queue_depth=4)
check "rt-first: select xdeadline" sched_set "$dev" xdeadline
echo 1 >/sys/block/$dev/queue/iosched/zoned_qd1_writes
check "rt-first: 4 RT and 4 BE zoned writers" rtfirst
# the longest job_runtime (ms) of each job name
awk '/"jobname"/ { gsub(/[",]/, "", $3); name = $3 }
	/"job_runtime"/ { gsub(/,/, "", $3); if ($3 > max[name]) max[name] = $3 }
	END { print max["rt"] + 0, max["be"] + 0 }' /tmp/rt.json >/tmp/rt.times
read -r rt be </tmp/rt.times
diag "rt-first: RT writers done in ${rt} ms, BE writers in ${be} ms"
cmp_ok "$rt" -gt 0 "rt-first: RT writers ran"
cmp_ok "$((rt * 5))" -le "$((be * 4))" "rt-first: RT writers done in at most 4/5 of the BE writers' time (equal shares: about the same time)"
is "$(xd_stat "$dev" qd1_max_in_flight)" 1 "rt-first: at most one write in flight"
is "$(xd_stat "$dev" in_flight)" 0 "rt-first: nothing in flight"
nullb_remove zprt
done_testing
