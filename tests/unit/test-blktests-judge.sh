#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The blktests lane's judge (tests/blktests/judge.awk) on made-up guest
# logs, no VM: a clean run passes; a failed test, a test that passed
# without its scheduler ever being active, a missing result, a kernel
# warning and a kmemleak report each fail; what a zoned device does not
# offer is skipped.  Last line: "blktests-judge: N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0 n=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/blktests-judge.XXXXXX")
trap 'rm -rf "$T"' EXIT

judge() {	# judge LOG [NEED_KMEMLEAK]: TAP for label 6.1, xdeadline and xbfq
	awk -f tests/kernel-warnings.awk -f tests/blktests/judge.awk -v pre="$T/pre" -v label=6.1 \
		-v scheds="xdeadline xbfq" -v loop="block/020 block/047" -v sched="zbd/005" \
		-v qemu_rc=0 -v secs=99 -v need_kml="${2:-}" "$1"
}
has() {		# has FILE LINE DESC: FILE has exactly LINE
	if grep -qxF -- "$2" "$1"; then ok "$3"; else
		notok "$3"; echo "# wanted: $2"; sed 's/^/#   /' "$1"; fi
}

echo "ok - 6.1 xdeadline block/014 # SKIP no fault injection" >"$T/pre"
cat >"$T/clean" <<'EOF'
BLKT-HOOK ok
BLKT-KMEMLEAK-HOOK ok
BLKT-LOOP-HOOK ok
BLKT-SIZE-HOOK ok
BLKT-SWITCH-HOOK ok
BLKT-ZONED offered=mq-deadline,xdeadline,none
BLKT-RESULT pass=all test=block/020 status=pass secs=46 seen=mq-deadline,none,xbfq,xdeadline
BLKT-RESULT pass=all test=block/020(zoned) status=pass secs=37 seen=mq-deadline,none,xdeadline
BLKT-RESULT pass=all test=block/047 status=pass secs=23 seen=none,xbfq,xdeadline
BLKT-RESULT pass=xdeadline test=zbd/005 status=pass secs=3 seen=xdeadline
BLKT-RESULT pass=xbfq test=zbd/005 status=skip secs=0 seen= reason=xbfq is not offered for zoned null_blk on 6.1
BLKT-KMEMLEAK-BEGIN
BLKT-KMEMLEAK-END
BLKT-DMESG-BEGIN
[    1.000000] null_blk: module loaded
BLKT-DMESG-END
BLKT-DONE
EOF
judge "$T/clean" >"$T/clean.tap"
has "$T/clean.tap" "6.1: 14 passed, 0 failed, 3 skipped" "a clean run passes"
has "$T/clean.tap" "ok - 6.1 xbfq block/020 (46 s; active: mq-deadline,none,xbfq,xdeadline)" \
	"a loop test counts for each scheduler seen active"
has "$T/clean.tap" "ok - 6.1 xbfq block/020 (zoned) # SKIP xbfq is not offered for zoned null_blk on this kernel" \
	"a zoned repeat skips a scheduler the zoned device does not offer"
has "$T/clean.tap" "ok - 6.1 xbfq zbd/005 # SKIP xbfq is not offered for zoned null_blk on 6.1" \
	"a guest skip keeps its reason"
has "$T/clean.tap" "ok - 6.1 xdeadline block/014 # SKIP no fault injection" \
	"host-side skips are kept"

sed -e 's/test=block\/047 status=pass/test=block\/047 status=fail/' \
	-e 's/test=zbd\/005 status=pass secs=3 seen=xdeadline/test=zbd\/005 status=pass secs=3 seen=mq-deadline/' \
	-e '/test=block\/020 /d' -e 's/^BLKT-KMEMLEAK-END/unreferenced object 0xffff8880 (size 64):\n&/' \
	-e 's/null_blk: module loaded/WARNING: CPU: 1 PID: 9 at block\/elevator.c:1/' \
	-e 's/BLKT-LOOP-HOOK ok/BLKT-LOOP-HOOK missing/' \
	-e 's/BLKT-KMEMLEAK-HOOK ok/BLKT-KMEMLEAK-HOOK missing/' \
	-e 's/BLKT-SIZE-HOOK ok/BLKT-SIZE-HOOK missing/' \
	-e 's/BLKT-SWITCH-HOOK ok/BLKT-SWITCH-HOOK missing/' \
	-e '/BLKT-DONE/d' "$T/clean" >"$T/bad"
judge "$T/bad" >"$T/bad.tap"
has "$T/bad.tap" "not ok - 6.1 xdeadline block/047: blktests fail (23 s, loops over every scheduler)" \
	"a failed loop test fails for each scheduler"
has "$T/bad.tap" "not ok - 6.1 xdeadline zbd/005: passed, but xdeadline was never the active scheduler (seen: mq-deadline)" \
	"a pass without the scheduler active fails"
has "$T/bad.tap" "not ok - 6.1 all block/020: no result (the guest stopped before it)" \
	"a missing result fails"
has "$T/bad.tap" "not ok - 6.1: no kernel warnings in the guest log" "a kernel warning fails"

# The first report's body comes with it (which locks, which frames).
sed 's/^\[    1.000000\] null_blk: module loaded$/[ 1.0] WARNING: suspicious RCU usage\
[ 1.0] 1 lock held by sh\/9:\
[ 1.0] Call Trace:\
[ 1.0]  xb_pd_stat+0x1\/0x2 [xbfq]/' "$T/clean" >"$T/body"
judge "$T/body" >"$T/body.tap"
has "$T/body.tap" "# kernel: [ 1.0] WARNING: suspicious RCU usage" "a warning line is shown"
has "$T/body.tap" "# kernel| [ 1.0] 1 lock held by sh/9:" "the report's body is shown after it"
has "$T/body.tap" "# kernel| [ 1.0]  xb_pd_stat+0x1/0x2 [xbfq]" "down to its frames"

# A debug trap whose saved flags no CPU would save (bits 22-31) is the
# emulator's: shown, not counted; with ordinary flags it counts.
sed 's/^\[    1.000000\] null_blk: module loaded$/[ 1.0] WARNING: CPU: 0 PID: 1 at arch\/x86\/kernel\/traps.c:1120 exc_debug_kernel+0xca\/0x160\
[ 1.0] RSP: 0000:fffffe6847a90f28 EFLAGS: 4144a002\
[ 1.0] Call Trace:\
[ 1.0]  <#DB>\
[ 1.0] RSP: 0018:ffffd39600c17a30 EFLAGS: 4144af82\
[ 1.0]  __d_alloc+0x2b\/0x220\
[ 1.0] ---[ end trace 0000000000000000 ]---/' "$T/clean" >"$T/emu"
judge "$T/emu" >"$T/emu.tap"
has "$T/emu.tap" "ok - 6.1: no kernel warnings in the guest log" \
	"a debug trap with reserved flag bits set does not count"
has "$T/emu.tap" "# kernel (emulator, not counted): [ 1.0] RSP: 0018:ffffd39600c17a30 EFLAGS: 4144af82" \
	"it is shown"
sed 's/EFLAGS: 4144a\(f8\)*/EFLAGS: 00000/' "$T/emu" >"$T/db"
judge "$T/db" >"$T/db.tap"
has "$T/db.tap" "not ok - 6.1: no kernel warnings in the guest log" \
	"with ordinary flags it counts"
sed '/end trace/d' "$T/db" >"$T/dbcut"
judge "$T/dbcut" >"$T/dbcut.tap"
has "$T/dbcut.tap" "not ok - 6.1: no kernel warnings in the guest log" \
	"and so when its report is cut short"
has "$T/bad.tap" "not ok - 6.1: kmemleak scan after the tests: 1 unreferenced object(s)" \
	"a kmemleak report fails"
has "$T/bad.tap" "not ok - 6.1: loop hook (BLKT_UNDER_TEST) applied to block/014, 015, 020 and 021" \
	"a loop hook that did not apply fails"
has "$T/bad.tap" "not ok - 6.1: kmemleak hook (BLKT_KMEMLEAK_EACH) applied to check" \
	"a kmemleak hook that did not apply fails"
has "$T/bad.tap" "not ok - 6.1: size hook (BLKT_015_COUNT) applied to block/015" \
	"a size hook that did not apply fails"
has "$T/bad.tap" "not ok - 6.1: switch hook (BLKT_005_TIMEOUT, BLKT_005_SLACK) applied to block/005" \
	"a switch hook that did not apply fails"
has "$T/bad.tap" "not ok - 6.1: the guest ran to its end (qemu rc 0, 99 s)" \
	"a guest that never finished fails"

sed '/BLKT-KMEMLEAK/d' "$T/clean" >"$T/nokml"
judge "$T/nokml" 1 >"$T/nokml.tap"
has "$T/nokml.tap" "not ok - 6.1: kmemleak scan after the tests: none in the log (kmemleak off?)" \
	"a label that needs kmemleak fails without its scan"

echo "blktests-judge: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
