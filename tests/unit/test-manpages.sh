#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Man pages: clean under mandoc -Tlint -Wwarning and groff -ww, and
# complete: every schedctl command, long option, policy key, section kind
# and class in the code appears in its page, and every xdeadline knob in
# kmod/xdeadline.c's attribute list in xdeadline(4).  The lists come from
# the sources, not from this file.  Last line: "manpages: N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0 n=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }

# lint
for page in man/schedctl.8 man/schedctl.conf.5 man/xdeadline.4 man/xbfq.4; do
	if [ ! -f "$page" ]; then notok "$page exists"; continue; fi
	out=$(mandoc -Tlint -Wwarning "$page" 2>&1)
	if [ $? -eq 0 ] && [ -z "$out" ]; then ok "mandoc lint $page"; else
		notok "mandoc lint $page"; echo "$out" | sed 's/^/# /'; fi
	out=$(groff -man -ww -z "$page" 2>&1)
	if [ $? -eq 0 ] && [ -z "$out" ]; then ok "groff -ww $page"; else
		notok "groff -ww $page"; echo "$out" | sed 's/^/# /'; fi
done

# in_page PAGE WORD WHAT: WORD as written in roff (a - may be \-),
# delimited by something that is not a name character
in_page() {
	pat=$(printf '%s' "$2" | sed 's/[.[*^$]/\\&/g; s/-/\\\\?-/g')
	if grep -Eq "(^|[^A-Za-z0-9_.-])${pat}([^A-Za-z0-9_-]|\$)" "$1"; then
		ok "$3 $2 in $1"
	else
		notok "$3 $2 in $1"
	fi
}
# extract FILE START: the quoted first fields of the table that starts
# at a line matching START, up to its closing "};"
table_names() {
	awk -v start="$2" '
		index($0, start) { on = 1; next }
		on && /^};/ { on = 0 }
		on && match($0, /^[ \t]*(CMD\()?\{? ?"[^"]+"/) {
			s = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", s); sub(/"$/, "", s); print s
		}' "$1"
}

S=cli/src
cmds=$(table_names $S/main.c "commands[] = {")
[ -n "$cmds" ] && ok "found the commands in $S/main.c" || notok "found the commands in $S/main.c"
for c in $cmds; do in_page man/schedctl.8 "$c" command; done

opts=$(grep -ohE '\{ "[a-z][a-z-]+", ('"'"'.'"'"'|OPT_[A-Z_]+)' $S/commands.c | sed 's/^{ "//; s/".*//' | sort -u)
[ -n "$opts" ] && ok "found the long options in $S/commands.c" || notok "found the long options in $S/commands.c"
for o in $opts; do in_page man/schedctl.8 "--$o" option; done

knobs=$(table_names $S/keys.c "sc_knobs[] = {")
qattrs=$(table_names $S/keys.c "sc_queue_attrs[] = {")
[ -n "$knobs" ] && [ -n "$qattrs" ] && ok "found the keys in $S/keys.c" || notok "found the keys in $S/keys.c"
for k in scheduler zoned_qd1_writes $knobs; do in_page man/schedctl.conf.5 "$k" key; done
for k in $qattrs; do in_page man/schedctl.conf.5 "queue.$k" key; done
grep -q 'iosched\.' $S/keys.c && in_page man/schedctl.conf.5 "iosched." key

kinds=$(grep -A3 'sc_sect_kinds\[\] = {' $S/policy.c | sed '/};/q' | grep -oE '"[a-z]+"' | tr -d '"')
[ -n "$kinds" ] && ok "found the section kinds in $S/policy.c" || notok "found the section kinds in $S/policy.c"
for k in $kinds; do
	[ "$k" = default ] && want="[default]" || want="[$k:"
	if grep -qF -- "$want" man/schedctl.conf.5; then ok "section $want in man/schedctl.conf.5"
	else notok "section $want in man/schedctl.conf.5"; fi
done
classes=$(grep -A3 'sc_classes\[\] = {' $S/classify.c | sed '/};/q' | grep -oE '"[a-z-]+"' | tr -d '"')
[ -n "$classes" ] && ok "found the classes in $S/classify.c" || notok "found the classes in $S/classify.c"
for c in $classes; do in_page man/schedctl.conf.5 "$c" class; in_page man/schedctl.8 "$c" class; done

# Each scheduler's sysfs attribute table (PFX_attrs[] of PFX_ATTR(name)
# entries): every knob in its page, and known to the CLI.
sched_knobs() {	# sched_knobs FILE PFX
	awk -v pfx="$2" '$0 ~ pfx "_attrs\\[\\] = \\{" { on = 1; next }
		on && /__ATTR_NULL/ { on = 0 }
		on && match($0, toupper(pfx) "_ATTR\\([a-z0-9_]+\\)") {
			print substr($0, RSTART + 8, RLENGTH - 9) }' "$1"
}
# SCHEDULER:PREFIX:FILE, FILE the source with the attribute table.
for s in xdeadline:xd:xdeadline.c xbfq:xb:xbfq-iosched.c; do
	name=${s%%:*}
	pfx=${s#*:} && pfx=${pfx%%:*}
	src=kmod/${s##*:}
	kn=$(sched_knobs "$src" "$pfx")
	[ -n "$kn" ] && ok "found the knobs in $src" || notok "found the knobs in $src"
	for k in $kn; do in_page "man/$name.4" "$k" knob; done
	for k in $kn; do
		if printf '%s\n' $knobs | grep -qx "$k"; then ok "schedctl knows $name knob $k"; else
			notok "schedctl knows $name knob $k"; fi
	done
done

echo "manpages: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
