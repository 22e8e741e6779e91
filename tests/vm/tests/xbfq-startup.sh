# SPDX-License-Identifier: GPL-2.0
# Responsiveness (the xbfq issue's proof 2, seed 003's case), run by
# bench/xbfq-startup.sh (its name does not start with a digit, so make
# check does not run it): the time an application takes to read its
# files while the disk is kept busy, on simdisk's HDD model (read cache
# and look-ahead on, as 30-simdisk-model).  The application is one new
# process reading NFILES files of 64 KiB, 4 MiB apart (fio, strided, one
# read per file at QD 1): 12.5 MiB in 200 seeks (200 scaled by xd.scale).  The load is four
# sequential readers at QD 1 in 1 MiB commands, then four sequential
# writers through the page cache (the flusher writes), each in its own
# part of the disk.  The application starts LEAD seconds after the load:
# 1 s (the load's own new queues are still weight-raised by both
# schedulers) and 4 s (their raising is over: each was served the 59 MiB
# that ends it).  Per load and lead:
# mq-deadline once, then bfq and xbfq twice each in the order bfq, xbfq,
# xbfq, bfq.  Each round prints "# RESULT KIND LEAD SCHED MS"; the
# checks are only that every application read all its files and that the
# load kept the disk busy.
. /tests/lib.sh

startup_setup "$(scaled 200)"

order="mq-deadline bfq xbfq xbfq bfq"
for kind in readers writers; do
	for LEAD in 1 4; do
		for s in $order; do
			startup_checked "$s" $kind $LEAD "$kind, lead $LEAD s, $s"
			echo "# RESULT $kind $LEAD $s $STARTUP_MS"
			[ $s != xbfq ] ||
				diag "$(tr '\n' ' ' </sys/kernel/debug/block/$STARTUP_DEV/sched/stats)"
		done
	done
done
startup_teardown
done_testing
