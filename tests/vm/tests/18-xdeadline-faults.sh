# SPDX-License-Identifier: GPL-2.0
# xdeadline under injected faults (null_blk timeout_inject and
# requeue_inject; the debug kernel, skipped elsewhere): requeues with fio
# verify, timeouts during a scheduler switch storm, a zoned device that
# requeues.  No I/O lost or corrupted, nothing stranded, counters balanced;
# the log judge adds lockdep, KASAN and kmemleak.  See fault_suite in
# tests/vm/guest/lib.sh.
. /tests/lib.sh

check "modprobe xdeadline" modprobe xdeadline
fault_suite xdeadline
done_testing
