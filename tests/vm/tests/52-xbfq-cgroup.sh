# SPDX-License-Identifier: GPL-2.0
# xbfq's cgroup v2 weights (io.xbfq.weight, docs/xbfq.md "Control
# groups"): the file's syntax and errors; proportional shares among
# sibling cgroups (100:200:400, 100:100), hierarchical shares (two
# children of one parent against its sibling), a per-device override;
# the debugfs groups file and counters; data integrity with writers in
# three cgroups; a reader moved to another cgroup mid-run; the overrides
# surviving a scheduler switch; weights lost with the module.
#
# The shares are measured as in 50-xbfq-fair (a slow null_blk serving one
# request at a time, low_latency off, slice_idle stretched with the
# device), with one fio per cgroup.  Separate fio processes start and end
# at different moments, and a light reader that runs alone for part of a
# second gains a share it was never owed, so what each cgroup read is
# taken from the kernel's own per-cgroup counters (io.stat rbytes of the
# device) over one window in which every reader is running; fio's own
# totals are printed beside them.
. /tests/lib.sh

T=$CG/xbcg
# A share run's measuring window, and each reader's run time: the window
# plus a margin for the readers' start-up, which takes longer on the
# debug kernel (stretched device time).  A slot lasts up to timeout_sync
# (125 ms): in 10 s the lightest of 100:200:400 gets about 11 slots, so
# one slot more or less is 9%, inside the 15% asked (7 s measured 231
# and 461 once on 6.1, one slot off).
# The margin: every reader must have started 0.3 s before the window
# opens; on the debug kernel, with other VMs on the host, three readers
# once took more than 6 s to start.
WIN=10
RUNTIME=$((WIN + 5))
[ "$XD_DEVTIME" -le 100 ] || RUNTIME=$((WIN + 12))
PIDS=
cg_setup

# wr NAME VALUE: write VALUE to NAME's io.xbfq.weight; the shell's error
# message (busybox: "sh: write error: Invalid argument"), if any, in WERR.
wr() { WERR=$( { echo "$2" >"$T/$1/io.xbfq.weight"; } 2>&1); }
# refused NAME VALUE ERROR: the write fails with ERROR (strerror's text)
# and leaves the file as it was.
refused() {
	local old
	old=$(cat "$T/$1/io.xbfq.weight")
	if wr "$1" "$2"; then
		not_ok "'$2' refused"
	else
		case $WERR in
		*"$3"*) ok "'$2' refused: $3" ;;
		*) not_ok "'$2' refused with '$3' (got '$WERR')" ;;
		esac
	fi
	is "$(cat "$T/$1/io.xbfq.weight")" "$old" "'$2': io.xbfq.weight unchanged"
}
# rbytes NAME: the bytes cgroup NAME has read from $dev.
rbytes() { iostat "$1" "$MM" rbytes; }
samples() { local n; for n in "$@"; do printf '%s ' "$(rbytes "$n")"; done; }
# grew "S0" "S1": every number of S1 is above its place in S0.
grew() {
	echo "$1|$2" | awk -F'|' '{ n = split($1, a, " "); split($2, b, " ")
		for (i = 1; i <= n; i++) if (b[i] + 0 <= a[i] + 0) exit 1 }'
}
# wait_grow "S0" NAME...: wait (at most 20 s) until each cgroup NAME
# read more than S0 says.
wait_grow() {
	local s0="$1" i=0
	shift
	while ! grew "$s0" "$(samples "$@")"; do
		i=$((i + 1))
		[ $i -lt 200 ] || return 1
		sleep 0.1
	done
}
fname() { echo "$1" | tr / -; }
# terse_err JOB: fio's error field (terse v3 field 5) for JOB.
terse_err() { awk -F';' -v j="$(fname "$1")" '$3 == j { print $5 }' "/tmp/cg-$(fname "$1").out"; }
terse_kib() { awk -F';' -v j="$(fname "$1")" '$3 == j { print $6 }' "/tmp/cg-$(fname "$1").out"; }

# share LABEL NAME...: one sequential O_DIRECT reader of 64 KiB (fio,
# psync, 1 GiB apart, $RUNTIME s) started inside each cgroup NAME; once
# all of them are reading, what each cgroup read in the same $WIN s, in
# KiB, goes to KIB in NAME's order.  Checks that every reader ran through
# the window and ended without an error.
share() {
	local label=$1 n i=0 s0 s1 s2 alive=0 errs=0 p
	shift
	s0=$(samples "$@")
	PIDS=
	for n in "$@"; do
		sh -c "$CGRUN" "$T/$n" fio --output="/tmp/cg-$(fname "$n").out" \
			--output-format=terse --terse-version=3 --name="$(fname "$n")" \
			--filename="/dev/$dev" --rw=read --bs=64k --direct=1 \
			--ioengine=psync --offset=${i}g --size=1g --time_based \
			--runtime=$RUNTIME >/dev/null 2>&1 &
		PIDS="$PIDS $!"
		i=$((i + 1))
	done
	wait_grow "$s0" "$@" || diag "$label: not every reader started within 20 s"
	sleep 0.3
	s1=$(samples "$@")
	sleep $WIN
	for p in $PIDS; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
	s2=$(samples "$@")
	# Measured: the readers stop here, not at their run time's end (fio's
	# exit status after SIGINT is 128; its error field says the rest).
	for p in $PIDS; do kill -INT "$p" 2>/dev/null; done
	for p in $PIDS; do
		wait "$p"
		case $? in 0 | 128) ;; *) errs=$((errs + 1)) ;; esac
	done
	PIDS=
	for n in "$@"; do
		[ "$(terse_err "$n")" = 0 ] || errs=$((errs + 1))
	done
	is "$alive" $# "$label: every reader ran through the window"
	is "$errs" 0 "$label: every reader ended without an error"
	KIB=$(echo "$s1|$s2" | awk -F'|' '{ n = split($1, a, " "); split($2, b, " ")
		for (i = 1; i <= n; i++) printf "%d ", (b[i] - a[i]) / 1024 }')
	# The device's rate: 64 KiB per devtime(1 ms).
	RATE=$(echo "$KIB" | awk -v w=$WIN -v ns="$(devtime 1000000)" '{
		for (i = 1; i <= NF; i++) t += $i
		printf "%d", 100 * t / w / (64 * 1e9 / ns) }')
	diag "$label: the window ran the device at $RATE% of its rate"
	i=1
	for n in "$@"; do
		diag "$label: $n read $(echo "$KIB" | cut -d' ' -f$i) KiB in the window" \
			"($(terse_kib "$n") KiB in fio's whole run)"
		i=$((i + 1))
	done
}
# within "KIB" "N/D LO HI"...: every ratio (x100) of the Nth number of
# KIB to the Dth (D may be a sum, "1+2") lies in [LO, HI]; asserts nothing.
within() {
	local kib=$1
	shift
	echo "$kib" | awk -v spec="$*" '{
		n = split(spec, s, " ")
		for (i = 1; i + 2 <= n; i += 3) {
			split(s[i], nd, "/"); m = split(nd[2], dd, "+"); d = 0
			for (j = 1; j <= m; j++) d += $(dd[j])
			r = int(100 * $(nd[1]) / (d + (d == 0)))
			if (r < s[i + 1] || r > s[i + 2]) exit 1
		}
	}'
}
# share_retry LABEL "SPEC" NAME...: share; where the shares miss SPEC
# (within's), once more, and the second window decides.  Shares show
# only while the device is the bottleneck: with a second guest on the
# host, a window once ran it at 27% (the readers' vCPU descheduled past
# slice_idle: idle periods that expire) and 400:100 measured 280.  Until
# session 44 only a window at under half the device's rate was measured
# again, but make check's windows run it at 40-69% anyway, and one at
# 57% measured 100:100 at 89/100 (7.x, make check, session 44, beside
# the debug kernel's guest; the other 15 CI values at hand 98-102).  A
# window in which the host stalled the guest (stall_again) is measured
# again too, whatever it measured; three windows at most.
share_retry() {
	local label=$1 spec=$2 round=1 name=$1 again=0
	shift 2
	while :; do
		stall_watch
		share "$name" "$@"
		round=$((round + 1))
		name="$label (round $round)"
		stall_again $((round - 1)) && continue
		within "$KIB" "$spec" && return 0
		[ $again = 0 ] && [ $round -le 3 ] || return 0
		again=1
		diag "$label: out of range in a window at $RATE% of the device's rate: measured once more"
	done
}
# weights NAME=W...: set the default weight of each cgroup NAME (a check).
weights() {
	local kv s=
	for kv in "$@"; do s="$s echo ${kv#*=} >$T/${kv%%=*}/io.xbfq.weight &&"; done
	check "weights $*" sh -c "$s true"
}
# qcg ID: how many lines of $dev's debugfs queues show cgroup id ID.
qcg() {
	awk -v id="$1" "$XB_FIELD"' field("cgid") + 0 == id + 0 { n++ } END { print n + 0 }' \
		"/sys/kernel/debug/block/$dev/sched/queues"
}
# ratio A B: 100 x A / B
ratio() { echo $(($1 * 100 / ($2 + ($2 == 0)))); }
in_range() {	# in_range VALUE LO HI DESC (x100)
	cmp_ok "$1" -ge "$2" "$4: at least $2/100"
	cmp_ok "$1" -le "$3" "$4: at most $3/100"
}

cleanup() {
	local p g
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	PIDS=
	for g in p/x p/y p q a b c f; do
		[ -d "$T/$g" ] || continue
		for p in $(cat "$T/$g/cgroup.procs"); do echo "$p" >"$CG/cgroup.procs"; done
		rmdir "$T/$g" || diag "cannot remove cgroup $g"
	done
	[ ! -d "$T" ] || rmdir "$T" || diag "cannot remove cgroup xbcg"
	cg_restore
}

# --- 1. setup ---------------------------------------------------------------
dev=$(nullb_create cgs submit_queues=1 size=4096 irqmode=2 \
	completion_nsec="$(devtime 1000000)" hw_queue_depth=1)
MM=$(cat "/sys/block/$dev/dev")
check "switch to xbfq" sched_set "$dev" xbfq
# With one driver tag the block layer leaves a scheduler two requests
# (nr_requests, twice the depth): with three readers, the one in service
# would wait for a request between its reads, and no idling could keep
# its group's share.  A disk has 64 or more.
check "64 requests" sh -c "echo 64 >/sys/block/$dev/queue/nr_requests"
# As 50-xbfq-fair: weights exact, slice_idle stretched with the device.
echo 0 >"/sys/block/$dev/queue/iosched/low_latency"
iosched_devtime "$dev" slice_idle_us
G=/sys/kernel/debug/block/$dev/sched/groups

cgp=$(cat /sys/module/xbfq/parameters/cgroups 2>/dev/null)
is "$cgp" Y "xbfq registered its blkcg policy (parameter cgroups)"
if [ "$cgp" != Y ]; then
	diag "xbfq runs without groups: nothing more to test"
	dmesg | grep -i xbfq | tail -n 5 | sed 's/^/# dmesg: /'
	sched_set "$dev" none
	nullb_remove cgs
	cleanup
	done_testing
	exit 1
fi
check "debugfs has sched/groups" test -r "$G"
check "I/O from the root cgroup" dd if="/dev/$dev" of=/dev/null bs=64k count=8 iflag=direct
is "$(xd_stat "$dev" groups)" 0 "no group linked while only the root cgroup does I/O"

check "create the test's parent cgroup" mkdir "$T"
check "enable io below it" sh -c "echo +io >$T/cgroup.subtree_control"
grep -qw memory "$T/cgroup.controllers" && echo +memory >"$T/cgroup.subtree_control"
for g in a b c f; do mkdir "$T/$g"; done

# --- 2. the file ------------------------------------------------------------
check_fails "the root cgroup has no io.xbfq.weight" test -e "$CG/io.xbfq.weight"
check "a child of the root has io.xbfq.weight" test -e "$T/io.xbfq.weight"
is "$(cat "$T/f/io.xbfq.weight")" "default 100" "a new cgroup reads 'default 100'"
check "'300' taken" wr f 300
is "$(cat "$T/f/io.xbfq.weight")" "default 300" "'300' reads 'default 300'"
check "'default 50' taken" wr f "default 50"
is "$(cat "$T/f/io.xbfq.weight")" "default 50" "'default 50' reads 'default 50'"
check "'1000' and '1' taken (the range's ends)" sh -c "echo 1000 >$T/f/io.xbfq.weight &&
	echo 1 >$T/f/io.xbfq.weight && echo 'default 50' >$T/f/io.xbfq.weight"
# glibc and busybox: "Numerical result out of range"
ERANGE="result out of range"
EINVAL="Invalid argument"
refused f 0 "$ERANGE"
refused f 1001 "$ERANGE"
refused f "default 0" "$ERANGE"
refused f abc "$EINVAL"
refused f "default abc" "$EINVAL"
refused f 8:16 "$EINVAL"
refused f "8:16 abc" "$EINVAL"
refused f "$MM 0" "$ERANGE"
refused f "$MM 1001" "$ERANGE"
check "'$MM 400' taken" wr f "$MM 400"
check "the override is listed" grep -qx "$MM 400" "$T/f/io.xbfq.weight"
is "$(head -n 1 "$T/f/io.xbfq.weight")" "default 50" "the default stays on the first line"
check "'$MM default' taken" wr f "$MM default"
is "$(cat "$T/f/io.xbfq.weight")" "default 50" "'$MM default' dropped the override"
# At most 16 overrides (devices that do not exist: not checked).
n=0 fails=0
while [ $n -lt 16 ]; do
	wr f "240:$n 500" || fails=$((fails + 1))
	n=$((n + 1))
done
is "$fails" 0 "16 overrides taken (devices 240:0-15, which do not exist)"
is "$(grep -c '^240:' "$T/f/io.xbfq.weight")" 16 "all 16 listed"
refused f "240:16 500" "No space left on device"
check "with 16, an existing override can still be changed" wr f "240:3 600"
check "the change is listed" grep -qx "240:3 600" "$T/f/io.xbfq.weight"
n=0
while [ $n -lt 16 ]; do wr f "240:$n default"; n=$((n + 1)); done
is "$(cat "$T/f/io.xbfq.weight")" "default 50" "all 16 dropped"
rmdir "$T/f" && mkdir "$T/f"
is "$(cat "$T/f/io.xbfq.weight")" "default 100" "a weight goes with its cgroup (removed and made again)"

# --- 3. shares among siblings -------------------------------------------------
weights a=100 b=200 c=400
share_retry "100:200:400" "2/1 170 230 3/1 340 460" a b c
set -- $KIB
cmp_ok "${1:-0}" -gt 0 "100:200:400: the lightest cgroup made progress"
r=$(ratio "${2:-0}" "${1:-0}")
diag "b/a x100: $r (weights 200:100, want 200 +- 15%)"
in_range "$r" 170 230 "b:a bandwidth"
r=$(ratio "${3:-0}" "${1:-0}")
diag "c/a x100: $r (weights 400:100, want 400 +- 15%)"
in_range "$r" 340 460 "c:a bandwidth"
sed 's/^/# /' "$G"

weights b=100
share_retry "100:100" "1/2 90 110" a b
set -- $KIB
r=$(ratio "${1:-0}" "${2:-0}")
diag "a/b x100: $r (equal weights, want 100 +- 10%)"
in_range "$r" 90 110 "equal weights a:b"

# --- 4. hierarchy: p (x, y) against q ---------------------------------------
mkdir "$T/p" "$T/q"
check "enable io below p" sh -c "echo +io >$T/p/cgroup.subtree_control"
mkdir "$T/p/x" "$T/p/y"
share_retry "p/x+p/y:q" "3/1+2 85 115 1/2 85 115" p/x p/y q
set -- $KIB
r=$(ratio "${3:-0}" $((${1:-0} + ${2:-0})))
diag "q/(x+y) x100: $r (p and q weigh 100 each, want 100 +- 15%; flat would be 50)"
in_range "$r" 85 115 "q against p's two children"
r=$(ratio "${1:-0}" "${2:-0}")
diag "x/y x100: $r (want 100 +- 15%)"
in_range "$r" 85 115 "x:y inside p"
# One driver tag: a cgroup waited for always has it for its next request.
is "$(xd_stat "$dev" injected_groups)" 0 \
	"one driver tag: no other cgroup's request injected while one is waited for"

# --- 5. a per-device override -----------------------------------------------
weights a=100 b=100
check "'$MM 400' on b" wr b "$MM 400"
check_fails "a's file does not list b's override" grep -q "^$MM " "$T/a/io.xbfq.weight"
share_retry "override" "2/1 340 460" a b
set -- $KIB
r=$(ratio "${2:-0}" "${1:-0}")
diag "b/a x100: $r (default 100 each, b's override 400 on $MM, want 400 +- 15%)"
in_range "$r" 340 460 "b (override 400) against a (100)"
is "$(grp "$dev" b weight)" 400 "debugfs groups: b's effective weight 400"
# schedctl groups: the same groups as the CLI shows them, against
# debugfs and the cgroups' files (a, b and c have done I/O; b has an
# override for this disk).
DBG=/sys/kernel/debug/block/$dev/sched/groups
rel=${T#"$CG"}
schedctl groups -n -o cgroup,cgid,weight,source,served "$dev" >/tmp/groups.out 2>/tmp/groups.err
is "$?" 0 "schedctl groups: exit status 0"
is "$(cat /tmp/groups.err)" "" "schedctl groups: nothing on stderr"
is "$(wc -l </tmp/groups.out)" "$(wc -l <"$DBG")" "schedctl groups: a row per debugfs line"
is "$(head -n 1 /tmp/groups.out | awk '{ print $1, $4 }')" "/ root" \
	"schedctl groups: the root cgroup first, SOURCE root"
is "$(awk -v p="$rel" '$1 == p' /tmp/groups.out | wc -l)" 1 "schedctl groups: the parent $rel listed"
for c in a b c; do
	id=$(stat -c %i "$T/$c")
	row=$(awk -v p="$rel/$c" '$1 == p' /tmp/groups.out)
	is "$(echo "$row" | awk '{ print $2 }')" "$id" "schedctl groups: $rel/$c has its directory's inode as CGID"
	is "$(echo "$row" | awk '{ print $3 }')" "$(awk -v id="$id" '$2 == id { print $4 }' "$DBG")" \
		"schedctl groups: $rel/$c's WEIGHT is debugfs's"
	if grep -q "^$MM " "$T/$c/io.xbfq.weight"; then
		want=override w=$(awk -v mm="$MM" '$1 == mm { print $2 }' "$T/$c/io.xbfq.weight")
	else
		want=default w=$(sed -n '1s/^default //p' "$T/$c/io.xbfq.weight")
	fi
	is "$(echo "$row" | awk '{ print $4, $3 }')" "$want $w" "schedctl groups: $rel/$c's SOURCE and WEIGHT"
	cmp_ok "$(echo "$row" | awk '{ print $5 }')" -gt 0 "schedctl groups: $rel/$c served sectors"
done
is "$(awk -v p="$rel/b" '$1 == p { print $3, $4 }' /tmp/groups.out)" "400 override" \
	"schedctl groups: b's override for $MM"
check "schedctl groups -J" sh -c "schedctl groups -J $dev | grep -q '\"source\": \"override\"'"
schedctl groups nosuchdisk >/dev/null 2>&1
is "$?" 2 "schedctl groups: an unknown disk is a usage error"
# netlink GET_GROUPS (nltest): the debugfs lines, in order, also for an
# unprivileged caller; nothing is in flight, so the numbers agree.
awk -v d="$dev" '{ print d, "xbfq group", $2, $4, $6, $8, $10 }' "$DBG" >/tmp/nlg.want
check "netlink GET_GROUPS" sh -c "nltest groups $dev >/tmp/nlg.out"
is "$(md5sum </tmp/nlg.out)" "$(md5sum </tmp/nlg.want)" "netlink GET_GROUPS: debugfs's groups, in its order"
[ "$(md5sum </tmp/nlg.out)" = "$(md5sum </tmp/nlg.want)" ] || diff /tmp/nlg.want /tmp/nlg.out | sed 's/^/# /'
# schedctl groups as nobody, who cannot read debugfs: over netlink.
su -s /bin/sh nobody -c "schedctl groups -n -o cgid,weight,served $dev" >/tmp/groups.user 2>/tmp/groups.user.err
is "$?" 0 "schedctl groups as nobody: exit status 0"
is "$(cat /tmp/groups.user.err)" "" "schedctl groups as nobody: nothing on stderr"
is "$(awk '{ print $1, $2, $3 }' /tmp/groups.user | md5sum)" "$(awk '{ print $2, $4, $10 }' "$DBG" | md5sum)" \
	"schedctl groups as nobody: debugfs's cgroup ids, weights and service, in order"
check "netlink GET_GROUPS, unprivileged (uid 65534)" sh -c "nltest --drop-privs 65534 groups $dev >/tmp/nlg.user"
is "$(md5sum </tmp/nlg.user)" "$(md5sum </tmp/nlg.out)" "netlink GET_GROUPS: the same for an unprivileged caller"
check "'$MM default' on b" wr b "$MM default"
is "$(cat "$T/b/io.xbfq.weight")" "default 100" "b's override gone"

# --- 6. debugfs -------------------------------------------------------------
sed 's/^/# /' "$G"
is "$(awk '{ print $2; exit }' "$G")" "$(cg_id /)" "groups: the root cgroup's group first"
is "$(grp "$dev" a weight)" 100 "groups: a (cgroup id $(cg_id a)) has weight 100"
cmp_ok "$(grp "$dev" a served)" -gt 0 "groups: a was served"
cmp_ok "$(xd_stat "$dev" groups)" -gt 0 "stats: groups linked ($(xd_stat "$dev" groups))"
is "$(awk '{ for (i = 1; i < NF; i += 2) f[$i] = $(i + 1)
	if (f["busy"] != 0 || f["active"] != 0) n++ } END { print n + 0 }' "$G")" 0 \
	"groups: every group idle afterwards (busy 0, active 0)"
is "$(xd_stat "$dev" in_flight)" 0 "nothing left in flight"
# io.stat: xbfq's fields on each cgroup's line for the disk, the same
# numbers as debugfs (nothing is in flight); the parent's sectors count
# its children's; nothing of xbfq's on the root cgroup's line.
sum=0
for c in a b c; do
	line=$(grep "^$MM " "$T/$c/io.stat")
	diag "io.stat of $c: $line"
	is "$(iostat $c "$MM" xbfq.weight)" "$(grp "$dev" $c weight)" "io.stat: $c's xbfq.weight is debugfs's"
	sec=$(iostat $c "$MM" xbfq.sectors)
	is "$sec" "$(grp "$dev" $c served)" "io.stat: $c's xbfq.sectors is debugfs's served"
	sum=$((sum + sec))
done
cmp_ok "$(iostat . "$MM" xbfq.sectors)" -ge "$sum" "io.stat: the parent's xbfq.sectors at least a's, b's and c's ($sum)"
is "$(iostat . "$MM" xbfq.weight)" 100 "io.stat: the parent's xbfq.weight (default)"
check "io.stat of the root cgroup has the disk" grep -q "^$MM " "$CG/io.stat"
check_fails "io.stat: no xbfq fields on the root cgroup's line" grep -q "^$MM .*xbfq\\." "$CG/io.stat"

# --- 7. integrity: writers in three cgroups -----------------------------------
fdev=$(nullb_create cgf submit_queues=2 size=128 memory_backed=1 hw_queue_depth=16)
check "switch the fast device to xbfq" sched_set "$fdev" xbfq
weights a=100 b=200 c=400
i=0
for g in a b c; do
	sh -c "$CGRUN" "$T/$g" fio --output="/tmp/cg-v$g.out" --output-format=terse \
		--terse-version=3 --name="v$g" --filename="/dev/$fdev" --rw=randwrite \
		--bs=4k --direct=1 --ioengine=io_uring --iodepth=8 --offset=$((i * 32))m \
		--size="$(scaled 4)m" --verify=crc32c --verify_fatal=1 --do_verify=1 \
		>"/tmp/cg-v$g.err" 2>&1 &
	PIDS="$PIDS $!"
	i=$((i + 1))
done
errs=0
for p in $PIDS; do wait "$p" || errs=$((errs + 1)); done
PIDS=
for g in a b c; do
	[ "$(terse_err "v$g")" = 0 ] || { errs=$((errs + 1)); sed 's/^/#   /' "/tmp/cg-v$g.err"; }
done
is "$errs" 0 "random writes + verify from cgroups at 100, 200, 400: no error"
# Buffered writes from cgroup c, written back asynchronously (no
# REQ_SYNC), each bio carrying c: xbfq charges them to c's group through
# its async queue ("pid 0 async ... cgid C" in debugfs), not to the
# writing task's async queue in the root cgroup's group.  Twice:
#  1. fio writes and starts each 64 KiB's writeback itself
#     (sync_file_range(SYNC_FILE_RANGE_WRITE): WB_SYNC_NONE, the bio
#     tagged with the task's cgroup, on every kernel);
#  2. dd writes, and the flusher writes back in the background: the
#     bios carry c only with cgroup writeback (the memory controller on;
#     the debug kernel has none).  A holder keeps the disk open: the last
#     close would write the pages back itself, synchronously.
# Deltas are taken before anything reads from the root cgroup.
FMM=$(cat "/sys/block/$fdev/dev")
wbytes() { iostat "$1" "$FMM" wbytes; }
# c_async [PRIO]: how many async queues of cgroup c's group debugfs
# lists (of priority PRIO only, "be/4" say).
c_async() {
	awk -v id="$(cg_id c)" -v p="${1:-}" "$XB_FIELD"' $1 == "pid" && $2 == 0 &&
		$3 == "async" && (p == "" || $4 == p) && field("cgid") + 0 == id + 0 { n++ }
		END { print n + 0 }' \
		"/sys/kernel/debug/block/$fdev/sched/queues"
}
# charged LABEL: c's 2 MiB (io.stat), c's group's served, root's not.
charged() {
	local wb dc dr
	wb=$(($(wbytes c) - w0))
	dc=$(($(grp "$fdev" c served) - c0))
	dr=$(($(grp "$fdev" / served) - root0))
	diag "$1: c's io.stat wbytes +$wb; groups served: c +$dc, root +$dr sectors"
	grep ' async ' "/sys/kernel/debug/block/$fdev/sched/queues" | sed 's/^/# /'
	cmp_ok "$wb" -ge 2097152 "$1: the kernel tagged c's 2 MiB with c (io.stat wbytes)"
	cmp_ok "$dc" -ge 4096 "$1: charged to c's group"
	cmp_ok "$dr" -lt 4096 "$1: not to the root cgroup's group"
	is "$(c_async)" 1 "$1: debugfs: c's group has one async queue"
}
root0=$(grp "$fdev" / served)
c0=$(grp "$fdev" c served)
w0=$(wbytes c)
sh -c "$CGRUN" "$T/c" fio --output=/tmp/cg-wb.out --output-format=terse \
	--terse-version=3 --name=wb --filename="/dev/$fdev" --rw=write --bs=64k \
	--size=2m --offset=96m --ioengine=psync --direct=0 \
	--sync_file_range=write:1 --verify=crc32c --do_verify=0 >/tmp/cg-wb.err 2>&1
is "$?" 0 "buffered writes of 2 MiB from cgroup c, written back by sync_file_range"
charged "sync_file_range"
check "read back intact (direct, from the root cgroup)" fio --name=wb \
	--filename="/dev/$fdev" --rw=write --bs=64k --size=2m --offset=96m \
	--ioengine=psync --direct=1 --verify=crc32c --verify_only=1 --output=/dev/null
if grep -qw memory "$T/cgroup.subtree_control"; then
	root0=$(grp "$fdev" / served)
	c0=$(grp "$fdev" c served)
	w0=$(wbytes c)
	exp0=$(cat /proc/sys/vm/dirty_expire_centisecs)
	wb0=$(cat /proc/sys/vm/dirty_writeback_centisecs)
	sleep 60 <"/dev/$fdev" &
	holder=$!
	check "buffered write of 2 MiB from cgroup c" sh -c "$CGRUN" "$T/c" sh -c "
		dd if=/dev/urandom of=/tmp/cgpat bs=64k count=32 2>/dev/null &&
		dd if=/tmp/cgpat of=/dev/$fdev bs=64k seek=1600 2>/dev/null"
	# Dirty data expires at once: the flusher's next round takes it.
	echo 1 >/proc/sys/vm/dirty_expire_centisecs
	echo 10 >/proc/sys/vm/dirty_writeback_centisecs
	i=0
	while [ $(($(wbytes c) - w0)) -lt 2097152 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo "$exp0" >/proc/sys/vm/dirty_expire_centisecs
	echo "$wb0" >/proc/sys/vm/dirty_writeback_centisecs
	charged "the flusher"
	kill "$holder"
	wait "$holder" 2>/dev/null
	check "read back intact" sh -c "sync && echo 3 >/proc/sys/vm/drop_caches &&
		dd if=/dev/$fdev of=/tmp/cgback bs=64k skip=1600 count=32 iflag=direct 2>/dev/null &&
		cmp /tmp/cgpat /tmp/cgback"
else
	diag "no memory controller: no cgroup writeback, the flusher's bios carry the root cgroup"
fi
# One async queue per priority class and level in a group, as BFQ's: an
# IDLE-class writer of c gets one of its own, beside the BE one, and its
# writes are served as IDLE.
i0=$(xd_stat "$fdev" inserted_idle)
sh -c "$CGRUN" "$T/c" ionice -c 3 fio --output=/tmp/cg-wbi.out --name=wbi \
	--filename="/dev/$fdev" --rw=write --bs=64k --size=1m --offset=104m \
	--ioengine=psync --direct=0 --sync_file_range=write:1 >/tmp/cg-wbi.err 2>&1
is "$?" 0 "buffered writes of 1 MiB from cgroup c at the IDLE class, by sync_file_range"
grep ' async ' "/sys/kernel/debug/block/$fdev/sched/queues" | sed 's/^/# /'
is "$(c_async)" 2 "debugfs: c's group has two async queues, one per priority"
is "$(c_async idle/7)" 1 "debugfs: one of them in the IDLE class"
cmp_ok "$(($(xd_stat "$fdev" inserted_idle) - i0))" -gt 0 "the IDLE writer's writes inserted as IDLE"
sed 's/^/# /' "/sys/kernel/debug/block/$fdev/sched/groups"
for g in a b c; do
	cmp_ok "$(grp "$fdev" $g served)" -gt 0 "fast device: $g's group served"
done
cmp_ok "$(xd_stat "$fdev" groups)" -ge 3 "fast device: at least a, b and c linked ($(xd_stat "$fdev" groups))"
check "fast device idle" dev_idle "$fdev"
sched_balanced "$fdev" xbfq
check "fast device back to none" sched_set "$fdev" none
nullb_remove cgf

# --- 8. a reader moved from a to b ----------------------------------------------
# --thread: the job is a thread of the process whose pid moves.
weights b=100
moves0=$(xd_stat "$dev" group_moves)
served0=$(grp "$dev" b served)
s0=$(samples a)
sh -c "$CGRUN" "$T/a" fio --thread --output=/tmp/cg-mv.out --output-format=terse \
	--terse-version=3 --name=mv --filename="/dev/$dev" --rw=read --bs=64k \
	--direct=1 --ioengine=psync --size=1g --time_based --runtime=6 >/dev/null 2>&1 &
pid=$!
PIDS=$pid
wait_grow "$s0" a || diag "the reader did not start within 20 s"
sleep 1
cmp_ok "$(qcg "$(cg_id a)")" -gt 0 "queues: the reader's queue shows a's cgroup id"
check "move the reader's process to b" sh -c "echo $pid >$T/b/cgroup.procs"
s0=$(rbytes b)
sleep 1.5
cmp_ok "$(rbytes b)" -gt "$s0" "the moved reader reads from b (io.stat)"
cmp_ok "$(qcg "$(cg_id b)")" -gt 0 "queues: the reader's queue shows b's cgroup id"
wait "$pid"
is "$?" 0 "the moved reader finished without an error"
PIDS=
is "$(terse_err mv)" 0 "fio saw no I/O error"
diag "group_moves $moves0 -> $(xd_stat "$dev" group_moves); b served ${served0:-0} -> $(grp "$dev" b served) sectors; the reader read $(terse_kib mv) KiB"
cmp_ok "$(xd_stat "$dev" group_moves)" -ge $((${moves0:-0} + 1)) "stats: group_moves counted the move"
cmp_ok "$(grp "$dev" b served)" -gt "${served0:-0}" "groups: b's group served after the move"

# --- 9. overrides survive a switch away and back ------------------------------
check "'$MM 300' on a while on xbfq" wr a "$MM 300"
check "switch to none" sched_set "$dev" none
check "the override is still listed on none" grep -qx "$MM 300" "$T/a/io.xbfq.weight"
check "io.stat on none: a's line is there" grep -q "^$MM " "$T/a/io.stat"
check_fails "io.stat on none: no xbfq fields" grep -q "^$MM .*xbfq\\." "$T/a/io.stat"
check "'$MM 400' on b while on none (the device is not checked)" wr b "$MM 400"
check "back to xbfq" sched_set "$dev" xbfq
check "a's override listed after the switch" grep -qx "$MM 300" "$T/a/io.xbfq.weight"
check "b's override listed after the switch" grep -qx "$MM 400" "$T/b/io.xbfq.weight"
is "$(xd_stat "$dev" groups)" 0 "a new instance: no group linked before cgroup I/O"
# a and b did I/O before: their pds come with the policy's activation,
# unlinked until their first request on this instance.
is "$(iostat a "$MM" xbfq.weight) $(iostat a "$MM" xbfq.sectors)" "300 0" \
	"io.stat before a's first request: its override, no sectors"
is "$(iostat b "$MM" xbfq.weight) $(iostat b "$MM" xbfq.sectors)" "400 0" \
	"io.stat before b's first request: its override, no sectors"
for g in a b; do
	check "I/O from $g after the switch" sh -c "$CGRUN" "$T/$g" \
		dd if="/dev/$dev" of=/dev/null bs=64k count=16 iflag=direct
done
is "$(grp "$dev" a weight)" 300 "groups: a's override (300) applies to the new instance"
is "$(grp "$dev" b weight)" 400 "groups: b's override (400) applies to the new instance"
cmp_ok "$(iostat a "$MM" xbfq.sectors)" -ge 2048 "io.stat: a's 1 MiB in xbfq.sectors"
cmp_ok "$(xd_stat "$dev" groups)" -gt 0 "groups linked again"
wr a "$MM default"
wr b "$MM default"
is "$(xd_stat "$dev" in_flight)" 0 "nothing left in flight"
sed 's/^/# /' "/sys/kernel/debug/block/$dev/sched/stats"
check "back to none" sched_set "$dev" none
nullb_remove cgs

# --- 10. weights go with the module; cleanup ---------------------------------
weights f=300
check "unload xbfq (no disk uses it)" rmmod xbfq
check_fails "no io.xbfq.weight without xbfq.ko" test -e "$T/f/io.xbfq.weight"
check "load xbfq again" modprobe xbfq
is "$(cat "$T/f/io.xbfq.weight" 2>/dev/null)" "default 100" "the weight went with the module"
cleanup
check_fails "the test's cgroups are gone" test -d "$T"
done_testing
