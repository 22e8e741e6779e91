#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The schedctl binary against a fake root (SCHEDCTL_ROOT): commands, exit
# codes, messages, output formats.  Usage: test-cli.sh PATH-TO-SCHEDCTL
# Prints TAP-ish lines; exits non-zero if any check failed.

BIN=${1:?usage: test-cli.sh SCHEDCTL}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
R=$(mktemp -d "${TMPDIR:-/tmp}/schedctl-sh.XXXXXX")
[ -n "$KEEP" ] && echo "# root: $R" || trap 'rm -rf "$R"' EXIT
export SCHEDCTL_ROOT="$R" SCHEDCTL_FAST=1
n=0 fails=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
# check DESC EXPECTED-RC CMD...: runs CMD, output in $R/out, $R/err
check() {
	desc=$1 want=$2
	shift 2
	"$@" >"$R/out" 2>"$R/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$desc"; else
		notok "$desc (rc $rc, want $want)"; sed 's/^/# /' "$R/out" "$R/err"; fi
}
has() {	# has DESC FILE TEXT: fixed string in file
	if grep -qF -- "$3" "$2"; then ok "$1"; else
		notok "$1: no \"$3\""; sed 's/^/# /' "$2"; fi
}
put() { mkdir -p "$(dirname "$R$1")"; printf '%s\n' "$2" >"$R$1"; }

# sda: SATA HDD with mq-deadline; nvme0n1: 4 queues; dm-0: bio-based LVM on sda2
disk() {	# disk NAME SCHED ROT ZONED HWQ MAJOR
	put /sys/block/$1/queue/scheduler "$2"
	put /sys/block/$1/queue/rotational "$3"
	put /sys/block/$1/queue/zoned "$4"
	put /sys/block/$1/queue/nr_requests 64
	put /sys/block/$1/queue/read_ahead_kb 128
	put /sys/block/$1/size 1000
	put /sys/block/$1/dev "$6:0"
	i=0
	while [ $i -lt "$5" ]; do mkdir -p "$R/sys/block/$1/mq/$i"; i=$((i + 1)); done
	mkdir -p "$R/sys/class/block"
	ln -s ../../block/$1 "$R/sys/class/block/$1"
}
put /proc/devices "Block devices:
  8 sd
253 device-mapper
259 blkext"
disk sda "none [mq-deadline] kyber" 1 none 1 8
disk nvme0n1 "[none] mq-deadline" 0 none 4 259
disk dm-0 none 0 none 0 253
put /sys/block/dm-0/dm/uuid LVM-abc
put /sys/block/sda/sda2/partition 2
ln -s ../../block/sda/sda2 "$R/sys/class/block/sda2"
mkdir -p "$R/sys/block/dm-0/slaves" && ln -s ../../sda/sda2 "$R/sys/block/dm-0/slaves/sda2"
put /run/udev/data-fake/sda "ID_BUS=ata
ID_MODEL=ST8000DM004
ID_SERIAL_SHORT=ZA1
DEVLINKS=/dev/disk/by-id/ata-ST8000DM004_ZA1"
put /run/udev/data-fake/nvme0n1 "ID_BUS=nvme
ID_MODEL=Fast"
put /dev/sda ""
mkdir -p "$R/dev/disk/by-id" && ln -s ../../sda "$R/dev/disk/by-id/ata-ST8000DM004_ZA1"
for k in read_expire=500 write_expire=5000 fifo_batch=16 front_merges=1 writes_starved=2; do
	put "/fake/iosched/mq-deadline/${k%=*}" "${k#*=}"
	put "/fake/iosched/xdeadline/${k%=*}" "${k#*=}"
done
put /fake/iosched/xdeadline/head_request 0
put /fake/iosched/kyber/read_lat_nsec 2000000
put /fake/modules/xdeadline-iosched ""
for k in read_expire write_expire fifo_batch front_merges writes_starved; do
	cp "$R/fake/iosched/mq-deadline/$k" "$R/sys/block/sda/queue/iosched/$k" 2>/dev/null ||
		{ mkdir -p "$R/sys/block/sda/queue/iosched"; cp "$R/fake/iosched/mq-deadline/$k" "$R/sys/block/sda/queue/iosched/"; }
done
mkdir -p "$R/usr/lib/schedctl"
cp "$(dirname "$0")/../../../cli/policy/schedctl.conf" "$R/usr/lib/schedctl/schedctl.conf"

# help and usage
check "--help" 0 "$BIN" --help
check "-h" 0 "$BIN" -h
has "-h is help" "$R/out" "Usage: schedctl"
for c in list get set classify apply check reset stats monitor groups; do
	check "$c --help" 0 "$BIN" $c --help
	check "$c -h" 0 "$BIN" $c -h
	has "$c -h is help" "$R/out" "Usage: schedctl $c"
done
check "no command: usage error" 2 "$BIN"
check "unknown command" 2 "$BIN" frobnicate
has "unknown command message" "$R/err" 'schedctl: unknown command "frobnicate"'
check "set without KEY=VALUE" 2 "$BIN" set sda
check "bad option" 2 "$BIN" list --bogus

# list
check "list" 0 "$BIN" list
has "list header" "$R/out" "NAME"
has "list sda class" "$R/out" "hdd"
check "list -J" 0 "$BIN" list -J
has "json array" "$R/out" '"blockdevices": ['
if grep -q '"hwq"' "$R/out"; then notok "HWQ is not a default column"; else ok "HWQ is not a default column"; fi
check "list -J -o +HWQ" 0 "$BIN" list -J -o +HWQ
has "json number" "$R/out" '"hwq": 4'
has "-o +COL keeps the defaults" "$R/out" '"policy": "class:nvme"'
check "list -o +hwq,rota" 0 "$BIN" list -o +hwq,rota
[ "$(head -n1 "$R/out" | tr -s ' ')" = "NAME CLASS TRAN MODEL SCHED POLICY HWQ ROTA" ] &&
	ok "-o +COL: header" || { notok "-o +COL: header"; sed 's/^/# /' "$R/out"; }
check "list -o NAME,SCHED -n" 0 "$BIN" list -o name,sched -n
if [ "$(awk '$1 == "nvme0n1" {print $2}' "$R/out")" = none ]; then ok "list -o columns"; else notok "list -o columns"; fi
check "list -o bogus" 2 "$BIN" list -o bogus

# get
check "get sda" 0 "$BIN" get sda
has "get scheduler" "$R/out" "mq-deadline"
has "get knob" "$R/out" "read_expire"
has "get queue attr" "$R/out" "queue.nr_requests"
check "get sda read_expire -J" 0 "$BIN" get -J sda read_expire
has "get json" "$R/out" '"value": "500"'
check "get unknown key" 2 "$BIN" get sda nosuch
check "get unknown device" 2 "$BIN" get sdz
has "unknown device message" "$R/err" "schedctl: sdz: no such block device"
check "get partition" 0 "$BIN" get sda2 scheduler
has "partition note" "$R/err" "sda2 is a partition; using its disk sda"
check "get by-id link" 0 "$BIN" get /dev/disk/by-id/ata-ST8000DM004_ZA1 scheduler
check "get /dev/sda" 0 "$BIN" get /dev/sda scheduler
check "get bio-based dm" 0 "$BIN" get dm-0
has "no scheduler, slaves named, on stderr" "$R/err" "schedctl: dm-0: no I/O scheduler (bio-based); scheduling happens on sda"
check "get -n: only values on stdout" 0 "$BIN" get -n dm-0 scheduler
[ "$(tr -s ' ' <"$R/out")" = "scheduler none" ] && ok "get -n: no note mixed in" ||
	{ notok "get -n: no note mixed in"; sed 's/^/# /' "$R/out"; }
disk dm-1 none 0 none 0 253
printf 'LVM-a\033[31mred\n' >"$R/sys/block/dm-1/dm/uuid" 2>/dev/null ||
	{ mkdir -p "$R/sys/block/dm-1/dm"; printf 'LVM-a\033[31mred\n' >"$R/sys/block/dm-1/dm/uuid"; }
check "classify: control characters" 0 "$BIN" classify dm-1
has "classify escapes them" "$R/out" 'dm uuid "LVM-a\x1b[31mred"'
if grep -q "$(printf '\033')" "$R/out"; then notok "no raw ESC in classify"; else ok "no raw ESC in classify"; fi
rm -rf "$R/sys/block/dm-1" "$R/sys/class/block/dm-1"

# classify
check "classify sda" 0 "$BIN" classify sda
has "classify class and reason" "$R/out" "sda: class hdd (queue/rotational=1"
has "classify policy" "$R/out" "sda: policy class:hdd"
has "classify origin" "$R/out" "head_request = 1"
check "classify -J" 0 "$BIN" classify -J nvme0n1
has "classify json" "$R/out" '"class": "nvme"'
check "classify dm-0" 0 "$BIN" classify dm-0
has "classify stacked" "$R/out" "class stacked"

# set
check "set -n is refused" 2 "$BIN" set -n sda scheduler=xdeadline
has "set -n: use --dry-run" "$R/err" "to write nothing, use --dry-run"
check "apply -n is refused" 2 "$BIN" apply -n
check "reset -n is refused" 2 "$BIN" reset -n
check "set dry-run" 0 "$BIN" set --dry-run sda scheduler=xdeadline head_request=1
has "dry-run output" "$R/out" "sda: would set scheduler: mq-deadline -> xdeadline"
has "dry-run wrote nothing" "$R/sys/block/sda/queue/scheduler" "[mq-deadline]"
check "set" 0 "$BIN" set sda scheduler=xdeadline head_request=1 queue.read_ahead_kb=1024
has "set output" "$R/out" "sda: head_request: 0 -> 1"
has "set switched" "$R/sys/block/sda/queue/scheduler" "[xdeadline]"
has "set knob" "$R/sys/block/sda/queue/iosched/head_request" "1"
check "set bad value" 2 "$BIN" set sda read_expire=abc
has "bad value message" "$R/err" 'schedctl: sda: read_expire: expected a decimal integer, got "abc"'
check "set unknown key" 2 "$BIN" set sda frob=1
printf '%s\n' "/sys/block/sda/queue/iosched/fifo_batch EIO" >"$R/fake/fail"
check "set fails, rolled back" 1 "$BIN" set sda scheduler=mq-deadline fifo_batch=4
has "rollback message" "$R/err" 'schedctl: sda: fifo_batch: Input/output error (value "4"); previous settings restored'
has "rollback: scheduler back" "$R/sys/block/sda/queue/scheduler" "[xdeadline]"
has "rollback: knob back" "$R/sys/block/sda/queue/iosched/head_request" "1"
has "rolled-back change marked" "$R/out" "sda: scheduler: xdeadline -> mq-deadline (rolled back)"
if grep -q -- "-> mq-deadline$" "$R/out"; then notok "no rolled-back change reported as done"; else ok "no rolled-back change reported as done"; fi
rm "$R/fake/fail"
# pyjson FILE DESC SCRIPT: assertions in Python on the JSON in FILE (d)
pyjson() {
	if python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
$3" "$1" >"$R/py" 2>&1; then ok "$2"; else notok "$2"; sed 's/^/# /' "$R/py" "$1"; fi
}
printf '%s\n' "/sys/block/sda/queue/iosched/fifo_batch EIO" >"$R/fake/fail"
printf '[class:hdd]\nscheduler = mq-deadline\nfifo_batch = 4\nqueue.wbt_lat_usec = 0\n' >"$R/pol.conf"
check "apply -J, rolled back" 1 "$BIN" apply -J -c "$R/pol.conf" sda
pyjson "$R/out" "apply -J report of a rollback" '
d = d["devices"]
assert len(d) == 1 and d[0]["name"] == "sda", d
s = d[0]
assert s["status"] == "failed" and s["class"] == "hdd" and s["policy"] == "class:hdd", s
assert s["changes"] == [{"key": "scheduler", "from": "xdeadline", "to": "mq-deadline",
                         "state": "rolled-back"}], s["changes"]
assert s["skipped"] == [{"key": "queue.wbt_lat_usec",
                         "reason": "this kernel has no queue/wbt_lat_usec"}], s["skipped"]
assert "previous settings restored" in s["error"], s["error"]'
rm "$R/fake/fail"
check "set +12 normalised" 0 "$BIN" set sda fifo_batch=+12
has "normalised value written" "$R/sys/block/sda/queue/iosched/fifo_batch" "12"
if grep -q '+' "$R/sys/block/sda/queue/iosched/fifo_batch"; then notok "no + written"; else ok "no + written"; fi
has "normalised value reported" "$R/out" "sda: fifo_batch: 16 -> 12"
check "set head_request=0" 0 "$BIN" set sda head_request=0
check "apply -J dry run" 0 "$BIN" apply -J --dry-run sda nvme0n1
pyjson "$R/out" "apply -J dry run report" '
d = {x["name"]: x for x in d["devices"]}
assert d["nvme0n1"]["status"] == "unchanged", d
assert d["sda"]["status"] == "would-change", d["sda"]
assert d["sda"]["changes"] and all(c["state"] == "dry-run" for c in d["sda"]["changes"]), d["sda"]
assert d["sda"]["error"] is None'
check "set on bio-based" 1 "$BIN" set dm-0 scheduler=none
has "bio-based message" "$R/err" "dm-0: scheduler: device has no I/O scheduler (bio-based)"

# apply
check "apply --dry-run" 0 "$BIN" apply --dry-run
has "apply dry-run nvme unchanged" "$R/out" "nvme0n1: unchanged"
check "apply sda" 0 "$BIN" apply sda
check "apply again: nothing to do" 0 "$BIN" apply -q sda
if [ -s "$R/out" ]; then notok "apply -q idempotent is silent"; sed 's/^/# /' "$R/out"; else ok "apply -q idempotent is silent"; fi
check "apply unknown device touches nothing" 2 "$BIN" apply sda sdz
put /etc/schedctl.d/50-bad.conf "[class:hdd]
scheduler = xdeadline
head_request == 1"
check "apply with a policy error" 2 "$BIN" apply sda
has "policy error file:line" "$R/err" '/etc/schedctl.d/50-bad.conf:3: head_request: expected a decimal integer, got "= 1"'
check "list still works with a policy error" 0 "$BIN" list
# a broken drop-in is skipped, the rest of the policy still applies
check "head_request=0" 0 "$BIN" set sda head_request=0
check "apply: broken drop-in skipped, exit 2" 2 "$BIN" apply sda
has "the rest applied" "$R/out" "sda: head_request: 0 -> 1"
has "the applied knob" "$R/sys/block/sda/queue/iosched/head_request" "1"
check "check: the broken file" 2 "$BIN" check
has "check names FILE:LINE" "$R/err" '/etc/schedctl.d/50-bad.conf:3: head_request'
has "check names the good files" "$R/out" "/usr/lib/schedctl/schedctl.conf: ok"
check "check FILE: broken" 2 "$BIN" check -q "$R/etc/schedctl.d/50-bad.conf"
check "check FILE: good" 0 "$BIN" check "$R/usr/lib/schedctl/schedctl.conf"
has "check FILE ok" "$R/out" "schedctl.conf: ok"
check "apply -J lists policy errors" 2 "$BIN" apply -J --dry-run sda
pyjson "$R/out" "apply -J policy_errors" '
assert len(d["policy_errors"]) == 1 and "50-bad.conf:3:" in d["policy_errors"][0], d'
rm "$R/etc/schedctl.d/50-bad.conf"
mkfifo "$R/etc/schedctl.d/50-fifo.conf"
ln -s /dev/zero "$R/etc/schedctl.d/51-zero.conf"
check "a FIFO and /dev/zero drop-in cannot block apply" 2 timeout 20 "$BIN" apply sda
has "FIFO named" "$R/err" "/etc/schedctl.d/50-fifo.conf: not a regular file (skipped unread)"
has "/dev/zero named" "$R/err" "/etc/schedctl.d/51-zero.conf: not a regular file (skipped unread)"
rm "$R/etc/schedctl.d/50-fifo.conf" "$R/etc/schedctl.d/51-zero.conf"
put /etc/schedctl.d/.#50-x.conf "garbage"
check "hidden drop-ins are not read" 0 "$BIN" check -q
rm "$R/etc/schedctl.d/.#50-x.conf"
check "check, all good" 0 "$BIN" check -q
[ -s "$R/out" ] && notok "check -q prints nothing" || ok "check -q prints nothing"
put /etc/schedctl.d/50-mine.conf "[id:ata-ST8000*]
read_expire = 250"
check "apply with a drop-in" 0 "$BIN" apply sda
has "drop-in applied" "$R/sys/block/sda/queue/iosched/read_expire" "250"
check "classify names the winner" 0 "$BIN" classify sda
has "winner" "$R/out" "sda: policy id:ata-ST8000*+class:hdd"
check "apply -c FILE" 0 "$BIN" apply --dry-run -c "$R/etc/schedctl.d/50-mine.conf" sda
check "back to mq-deadline" 0 "$BIN" set sda scheduler=mq-deadline
printf '%s\n' "/sys/block/sda/queue/iosched/head_request EIO" >"$R/fake/fail"
check "apply all, one device fails" 1 "$BIN" apply
has "the others are still done" "$R/out" "nvme0n1: unchanged"
has "failure named" "$R/err" 'sda: head_request: Input/output error (value "1"); previous settings restored'
has "failed device restored" "$R/sys/block/sda/queue/scheduler" "[mq-deadline]"
rm "$R/fake/fail"
# reset: only disks on our schedulers, to the kernel's default
check "sda on xdeadline" 0 "$BIN" set sda scheduler=xdeadline
check "nvme on mq-deadline" 0 "$BIN" set nvme0n1 scheduler=mq-deadline
check "reset --dry-run" 0 "$BIN" reset --dry-run
has "reset dry-run output" "$R/out" "sda: would set scheduler: xdeadline -> mq-deadline"
check "reset" 0 "$BIN" reset
has "reset sda" "$R/sys/block/sda/queue/scheduler" "[mq-deadline]"
has "reset leaves others" "$R/sys/block/nvme0n1/queue/scheduler" "[mq-deadline]"
check "reset a named multi-queue disk" 0 "$BIN" reset nvme0n1
has "reset nvme to none" "$R/sys/block/nvme0n1/queue/scheduler" "[none]"
[ -d "$R/run/schedctl" ] && [ "$(stat -c %a "$R/run/schedctl")" = 700 ] && ok "lock dir 0700" || notok "lock dir 0700"

# stats, monitor: netlink is not faked, so only what comes before it here
# (options, DEV resolution) and, where no schedctl_nl can be loaded on this
# host, the message for that; tests/vm/tests/45-schedctl-stats.sh does the rest.
check "stats --count without --interval" 2 "$BIN" stats --count 2
has "stats --count needs --interval" "$R/err" "--count needs --interval"
check "stats --interval 0" 2 "$BIN" stats --interval 0
has "stats bad interval named" "$R/err" 'expected seconds, a number greater than 0, got "0"'
check "stats --interval junk" 2 "$BIN" stats -i 1x
check "stats --count -1" 2 "$BIN" stats -i 1 -c -1
check "stats --openmetrics --interval" 2 "$BIN" stats --openmetrics -i 1
has "metrics take no interval" "$R/err" "--openmetrics takes no --interval"
check "stats --openmetrics --prometheus" 2 "$BIN" stats --openmetrics --prometheus
check "stats two devices" 2 "$BIN" stats sda nvme0n1
check "stats unknown device" 2 "$BIN" stats nosuchdisk
has "stats unknown device named" "$R/err" "nosuchdisk: no such block device"
check "monitor takes no DEV" 2 "$BIN" monitor sda
check "monitor --timeout junk" 2 "$BIN" monitor --timeout never
check "monitor --count 0" 2 "$BIN" monitor --count 0
check "stats --help" 0 "$BIN" stats --help
has "stats --help names --interval" "$R/out" "--interval=SECONDS"
check "monitor --help" 0 "$BIN" monitor --help
has "monitor --help names --timeout" "$R/out" "--timeout=SECONDS"
# groups: the rest (debugfs, cgroup2 tree) is in test_groups.c
check "groups without DISK" 2 "$BIN" groups
check "groups takes one DISK" 2 "$BIN" groups sda nvme0n1
check "groups -o bogus" 2 "$BIN" groups -o bogus sda
has "groups: unknown column named" "$R/err" 'groups: unknown column "bogus"'
check "groups unknown device" 2 "$BIN" groups nosuchdisk
check "groups: not xbfq" 1 "$BIN" groups sda
has "groups: not xbfq message" "$R/err" "schedctl: sda: scheduler is mq-deadline; groups exist only under xbfq"
check "groups --help" 0 "$BIN" groups --help
has "groups --help explains the columns" "$R/out" "SOURCE  where the weight comes from"
if [ ! -e /sys/module/schedctl_nl ] && ! modinfo schedctl_nl >/dev/null 2>&1; then
	notloaded="schedctl: the schedctl_nl module is not loaded (no scheduler module from schedctl is in use)"
	check "stats without schedctl_nl" 1 "$BIN" stats
	has "stats: not loaded" "$R/err" "$notloaded"
	check "stats by-id link without schedctl_nl" 1 "$BIN" stats /dev/disk/by-id/ata-ST8000DM004_ZA1
	check "stats -J DEV (partition) without schedctl_nl" 1 "$BIN" stats -J sda2
	has "stats resolves a partition first" "$R/err" "sda2 is a partition; using its disk sda"
	has "stats DEV: not loaded" "$R/err" "$notloaded"
	[ -s "$R/out" ] && notok "stats: nothing on stdout" || ok "stats: nothing on stdout"
	check "stats --interval without schedctl_nl" 1 "$BIN" stats -i 0.1 -c 2
	check "monitor without schedctl_nl" 1 "$BIN" monitor --timeout 1
	has "monitor: not loaded" "$R/err" "$notloaded"
else
	echo "# schedctl_nl loaded or loadable here: skipping the not-loaded checks"
fi

# bash completion, against the same fake root, with this binary
COMP=$(dirname "$0")/../../../cli/completion/schedctl.bash
# comp WORD...: the completions when the last WORD is being typed
comp() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_schedctl; [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' comp "$COMP" "$BIN" "$@" 2>&1 | sort | tr '\n' ' '
}
is_comp() {	# is_comp DESC WANT WORD...
	desc=$1 want=$2
	shift 2
	got=$(comp "$@")
	if [ "$got" = "$want" ]; then ok "completion: $desc"; else
		notok "completion: $desc"; echo "# got:  $got"; echo "# want: $want"; fi
}
is_comp "commands" "check classify " c
is_comp "command options" "--dry-run " apply --d
is_comp "disks" "dm-0 nvme0n1 sda " get ""
is_comp "disks after an option" "nvme0n1 " get -J nv
is_comp "keys of the disk's scheduler" "read_expire= " set sda read_
is_comp "queue keys" "queue.nr_requests= queue.read_ahead_kb= queue.rotational= " set sda queue.
is_comp "get keys, no =" "front_merges " get sda fr
is_comp "scheduler names" "scheduler=kyber scheduler=mq-deadline scheduler=none scheduler=xdeadline " set sda scheduler=
is_comp "fallback list" "scheduler=kyber,none " set sda scheduler=kyber,n
is_comp "list columns" "+HWQ " list -o +H
is_comp "list column after a comma" "name,SCHED " list -o name,S
is_comp "stats -c is a count" "" stats -c ""
is_comp "stats takes one DEV" "" stats sda ""
is_comp "stats options" "--openmetrics " stats --op
is_comp "commands with g" "get groups " g
is_comp "groups columns" "+CGID +CGROUP " groups -o +CG
is_comp "groups column after a comma" "weight,SERVED weight,SOURCE " groups -o weight,S
is_comp "groups options" "--noheadings " groups --no
is_comp "groups takes one DISK" "" groups sda ""
is_comp "groups: a DISK after -o COLS" "nvme0n1 " groups -o weight nv

echo "# cli shell: $((n - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
