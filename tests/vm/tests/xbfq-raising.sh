# SPDX-License-Identifier: GPL-2.0
# xbfq's interactive raising time, automatic (wr_max_time 0, the default
# since session 30) against a fixed 3 s (the default before), beside bfq:
# run by bench/xbfq-raising.sh (its name does not start with a digit, so
# make check does not run it).  The application and the loads are
# 50-xbfq-startup's (startup_* in the guest lib): NFILES files of 64 KiB
# (200 scaled by xd.scale; the bench uses xd.scale=300, 600 files, 37.5
# MiB: longer to load than 3 s), four sequential readers or four
# writers, the application 1 or 4 s after them.  A new scheduler
# instance each round (its peak rate unknown when the load starts), in
# the order bfq, automatic, 3 s, 3 s, automatic, bfq.  Then the same
# 4 s cases on a warm instance: 20 s of the four readers first, so that
# the peak rate is measured before the load starts (bfq, automatic,
# automatic, bfq).  Each round prints "# RESULT KIND LEAD VARIANT MS";
# the checks are only that every application read all its files and
# that the load kept the disk busy.
. /tests/lib.sh

startup_setup "$(scaled 200)"
Q=/sys/block/$STARTUP_DEV/queue/iosched

# rnd VARIANT SCHED WR KIND LEAD [WARM]: a round under a new instance of
# SCHED, xbfq's wr_max_time set to WR (none for bfq), after WARM s of
# the four readers if given
rnd() {
	sched_set $STARTUP_DEV none
	sched_set $STARTUP_DEV "$2"
	[ -z "$3" ] || echo "$3" >"$Q/wr_max_time"
	if [ -n "${6:-}" ]; then
		startup_load readers
		sleep "$6"
		startup_unload
		sleep 3
	fi
	startup_checked "$2" "$4" "$5" "$4, lead $5 s, $1"
	echo "# RESULT $4 $5 $1 $STARTUP_MS"
	[ "$2" != xbfq ] ||
		diag "$(tr '\n' ' ' </sys/kernel/debug/block/$STARTUP_DEV/sched/stats)"
}
for kind in readers writers; do
	for lead in 1 4; do
		rnd bfq bfq "" $kind $lead
		rnd automatic xbfq 0 $kind $lead
		rnd 3s xbfq 3000 $kind $lead
		rnd 3s xbfq 3000 $kind $lead
		rnd automatic xbfq 0 $kind $lead
		rnd bfq bfq "" $kind $lead
	done
done
for kind in readers writers; do
	rnd bfq-warm bfq "" $kind 4 20
	rnd automatic-warm xbfq 0 $kind 4 20
	rnd automatic-warm xbfq 0 $kind 4 20
	rnd bfq-warm bfq "" $kind 4 20
done
startup_teardown
done_testing
