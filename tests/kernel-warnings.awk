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
#
# One report is the emulator's, not the kernel's: exc_debug_kernel's
# WARNING (a single-step debug trap taken in kernel mode) whose saved
# flags have bits 22-31 set.  Those bits of EFLAGS are reserved (Intel
# SDM vol. 1, 3.4.3) and no CPU saves them as 1; QEMU's TCG did, in
# fio's path lookup on 6.12 (flags 4144af82, no block-layer frame).
# Such a report is held until its end trace, then shown as "# kernel
# (emulator, not counted): "; held with ordinary flags, it counts as any
# other.  The judges call kernel_log_end() where
# the log ends, for a report cut short.
function kernel_log_line(line) {
	if (dbn) {
		dbuf[dbn++] = line
		if (line ~ /EFLAGS: [0-9a-fA-F]/ && eflags_reserved(line))
			dbemu = 1
		if (line ~ /---\[ end trace/ || dbn >= 120)
			kernel_log_end()
		return
	}
	if (line ~ /WARNING: .* exc_debug_kernel/) {
		dbn = 1
		dbuf[0] = line
		dbemu = 0
		return
	}
	kernel_log_count(line)
}

# kernel_log_end(): the held report, if any, shown and judged.
function kernel_log_end(   i, n) {
	n = dbn
	dbn = 0
	for (i = 0; i < n; i++)
		if (dbemu)
			print "# kernel (emulator, not counted): " dbuf[i]
		else
			kernel_log_count(dbuf[i])
}

# eflags_reserved(line): does the line's "EFLAGS: HEX" have any of bits
# 22-31 set?
function eflags_reserved(line,   v) {
	v = line
	sub(/.*EFLAGS: /, "", v)
	sub(/[^0-9a-fA-F].*/, "", v)
	while (length(v) < 8)
		v = "0" v
	return length(v) > 8 || substr(v, 1, 2) != "00" || substr(v, 3, 1) ~ /[4-9a-fA-F]/
}

function kernel_log_count(line) {
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
