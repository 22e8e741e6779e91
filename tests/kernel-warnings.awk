# SPDX-License-Identifier: GPL-2.0
# kernel-warnings.awk: the one list of kernel log lines that fail a guest,
# and the reading of kmemleak's report, shared by the VM test judge (tests/vm/judge.awk) and the blktests lane's
# judge (tests/blktests/judge.awk); load it first with another -f.
#
# kernel_warning(line) is 1 for a line of the kernel log that reports a
# problem: WARNING/BUG/Oops and a call trace (which cover lockdep's
# reports, KASAN, UBSAN and "BUG: sleeping function called from invalid
# context"), general protection faults, list corruption, hung tasks, soft
# lockups, RCU stalls, and kmemleak suspecting a leak or turning itself
# off.  The debug kernel's boot notice about RCU lockdep checking is not
# one.
function kernel_warning(line) {
	if (line ~ /RCU lockdep checking is enabled/)
		return 0
	return line ~ /WARNING:|BUG:|Oops|Call Trace|lockdep|KASAN|UBSAN|possible circular|possible recursive|inconsistent lock state|suspicious RCU|general protection|hung_task|blocked for more than|soft lockup|list_(add|del) corruption|list corruption|rcu_(sched|preempt) detected stall|detected stalls on CPU|kmemleak: .*(suspected memory leak|disabled|pool empty)/
}

# kernel_log_line(line): one line of a guest's kernel log, as the judges
# read it.  A warning counts (global warn) and is shown as "# kernel: ";
# the 24 lines after the first one follow as "# kernel| ", the body of
# that first report (which locks, which frames), so that a failure read
# from a log's end says what happened, not only how often.
function kernel_log_line(line) {
	if (kernel_warning(line)) {
		if (!warn++)
			kctx = 24
		print "# kernel: " line
	} else if (kctx > 0) {
		kctx--
		print "# kernel| " line
	}
}

# kmemleak_line(line): one line of /sys/kernel/debug/kmemleak as a guest
# printed it after its last scan.  Every report starts with "unreferenced
# object"; counts them in the global leaks and shows the first 200 lines
# from the first report on (with their backtraces) as TAP comments.
function kmemleak_line(line) {
	if (line ~ /unreferenced object/)
		leaks++
	if (leaks && shown++ < 200)
		print "# kmemleak: " line
}
