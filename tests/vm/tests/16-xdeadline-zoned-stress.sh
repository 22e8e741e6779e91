# SPDX-License-Identifier: GPL-2.0
# The zoned write paths of xdeadline under stress, time-bounded:
#  - lost wake-ups: has_work reports writes held back by zoned_qd1_writes
#    as no work and the completing write re-runs the queue, so many short
#    writers of every priority class on a device with one tag and the
#    smallest scheduler queue, completions inline, from softirq and from a
#    timer, must all finish (a missed wake-up leaves a writer stuck);
#  - simdisk's SMR model (rotational, host-managed): writers of three
#    classes, in their own zones and sharing one, with zoned_qd1_writes 0
#    and 1: no write refused by the disk, done in bounded time.
. /tests/lib.sh

# burst: 24 synchronous writers, RT, BE and IDLE in turn, each writes 1 MiB
# (scaled: xd.scale) into its own zone; three rounds into fresh zones.
burst() {
	local r
	for r in 0 1 2; do
		timeout 60 fio --output=/tmp/burst.out --filename="/dev/$dev" \
			--zonemode=zbd --rw=write --bs=16k --direct=1 \
			--ioengine=psync --size=4m --io_size="$(scaled 1024)k" \
			--name=rt --numjobs=8 --offset=$((r * 96))m \
			--offset_increment=12m --prioclass=1 \
			--name=be --numjobs=8 --offset=$((r * 96 + 4))m \
			--offset_increment=12m --prioclass=2 \
			--name=idle --numjobs=8 --offset=$((r * 96 + 8))m \
			--offset_increment=12m --prioclass=3 \
			>/tmp/burst.err 2>&1 ||
			{ tail -n 5 /tmp/burst.err /tmp/burst.out >&2; return 1; }
	done
}

n=0
for irq in 0 1 2; do
	for qd1 in 1 0; do
		what="irqmode=$irq qd1=$qd1"
		n=$((n + 1))
		dev=$(nullb_create zs$n submit_queues=1 size=512 zoned=1 \
			zone_size=4 zone_nr_conv=0 irqmode=$irq \
			completion_nsec=20000 hw_queue_depth=1)
		check "$what: select xdeadline" sched_set "$dev" xdeadline
		echo $qd1 >/sys/block/$dev/queue/iosched/zoned_qd1_writes
		# the smallest scheduler queue the kernel takes
		for nr in 1 2 4; do
			echo $nr >/sys/block/$dev/queue/nr_requests 2>/dev/null && break
		done
		diag "$what: nr_requests $(cat /sys/block/$dev/queue/nr_requests)"
		check "$what: 24 writers of 3 classes, one tag, 3 rounds, within 60 s each" burst
		[ $qd1 = 1 ] && is "$(xd_stat "$dev" qd1_max_in_flight)" 1 \
			"$what: at most one write in flight"
		is "$(xd_stat "$dev" in_flight)" 0 "$what: nothing in flight"
		is "$(xd_stat "$dev" dispatched)" "$(xd_stat "$dev" completed)" \
			"$what: dispatched equals completed"
		for c in rt be idle; do
			cmp_ok "$(xd_stat "$dev" dispatched_write_$c)" -gt 0 \
				"$what: $c writes went through"
		done
		diag "$what: qd1_waits $(xd_stat "$dev" qd1_waits) zone_boosted $(xd_stat "$dev" zone_boosted)"
		nullb_remove zs$n
	done
done

# simdisk's SMR model: 64 MiB zones, NCQ 32.  zw QD1 SHARED: three
# writers (RT, BE, IDLE) in their own zones, or, SHARED=1, one writer
# with half its writes RT after the other two.
zmb=64
check "load simdisk as an SMR disk" modprobe simdisk zoned=1 capacity_gb=16 \
	zone_size_mb=$zmb conv_zones=2 ncq_depth=32
sdev=simdisk0
st() { awk -v k="$1" '$1 == k { print $2 }' "/sys/kernel/debug/simdisk/$sdev/stats"; }
# On 7.1+ the block layer's own zoned_qd1_writes serializes rotational
# zoned disks before the scheduler; turn it off so xdeadline's knob decides.
[ -e /sys/block/$sdev/queue/zoned_qd1_writes ] &&
	echo 0 >/sys/block/$sdev/queue/zoned_qd1_writes
# sfio ZONE: RT, BE and IDLE writers in zones ZONE..ZONE+2, and in ZONE+3 one
# writer with half its writes RT (PRIO=0: all at the default priority).
sfio() {
	local rt=--prioclass=1 be=--prioclass=2 idle=--prioclass=3
	local mix="--cmdprio_percentage=50 --cmdprio_class=1"

	[ "${2:-1}" = 0 ] && rt= be= idle= mix=
	timeout 60 fio --output=/tmp/sw.out --filename=/dev/$sdev \
		--zonemode=zbd --rw=write --bs=64k --direct=1 --ioengine=io_uring \
		--iodepth=8 --size=${zmb}m --io_size=4m \
		--name=rt --offset=$(($1 * zmb))m $rt \
		--name=be --offset=$((($1 + 1) * zmb))m $be \
		--name=idle --offset=$((($1 + 2) * zmb))m $idle \
		--name=mixed --offset=$((($1 + 3) * zmb))m $mix >/tmp/sw.err 2>&1 ||
		{ tail -n 5 /tmp/sw.err /tmp/sw.out >&2; return 1; }
}
z=4
for s in mq-deadline xdeadline:0 xdeadline:1; do
	check "simdisk: select ${s%:*}" sched_set $sdev ${s%:*}
	prio=1
	case $s in
	*:*)	qd1=${s#*:}; what="simdisk qd1=$qd1"
		echo $qd1 >/sys/block/$sdev/queue/iosched/zoned_qd1_writes ;;
	*)	what="simdisk $s, one priority"; prio=0 ;;
	esac
	errs=$(st zone_write_errors)
	t0=$(awk '{ print $1 }' /proc/uptime)
	check "$what: 4 writers of 4 MiB at QD 8 in their zones" sfio $z $prio
	t=$(awk -v a="$t0" '{ printf "%.2f", $1 - a }' /proc/uptime)
	if [ $prio = 0 ]; then
		ref=$t
		bound=$(awk -v r="$ref" 'BEGIN { printf "%.2f", 4 * r + 3 }')
		diag "$what: ${t}s"
	else
		awk -v t="$t" -v b="$bound" 'BEGIN { exit !(t <= b) }'
		is $? 0 "$what: RT, BE, IDLE and mixed done in ${t}s, bound ${bound}s (mq-deadline at one priority ${ref}s)"
		is "$(xd_stat $sdev in_flight)" 0 "$what: nothing in flight"
	fi
	is "$(st zone_write_errors)" "$errs" "$what: no write refused by the disk"
	z=$((z + 4))
done
is "$(xd_stat $sdev qd1_max_in_flight)" 1 "simdisk qd1=1: at most one write in flight"
check "simdisk: back to mq-deadline" sched_set $sdev mq-deadline
check "unload simdisk" rmmod simdisk
done_testing
