#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every path into this repository named in docs/, man/ and the READMEs
# exists: words that start with one of its top-level directories
# ("kmod/compat/xd_compat.h", "tests/vm/tests/50-xbfq-*.sh": a glob must
# match), and source file names given without a directory
# so, or it is an output that a Makefile or script in the tree writes,
# "xd_features.h").  Placeholders (NN-name.sh, <label>, $VAR, UPPERCASE
# parts), build outputs (build/, kmod/generated/) and absolute paths
# (installed files, the VM guest's /tests/lib.sh) are not repository
# paths.  Last line: "docpaths: N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0 n=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }

files=$(git ls-files -co --exclude-standard)
docs="README.md cli/README.md $(ls docs/*.md man/*.[0-9])"
tops="kmod|cli|tests|docs|man|bench|packaging|udev-rules"

# candidates: DOC<TAB>WORD, roff escapes (\-, \fB) undone
for d in $docs; do
	sed -e 's/\\-/-/g; s/\\f[BIRP]//g; s/\\&//g' "$d" |
		grep -oE "[A-Za-z0-9_./*<>\$-]+" |
		grep -E "^(\./)?($tops)/|^[A-Za-z0-9_/-]+\.(c|h|py|sh|spec|rules|md)$" |
		sed -e 's/[.,:;)]*$//' -e 's|^\./||' -e "s|^|$d	|"
done | sort -u >"${TMPDIR:-/tmp}/docpaths.$$"
trap 'rm -f "${TMPDIR:-/tmp}/docpaths.$$"' EXIT

while IFS='	' read -r doc w; do
	case $w in
	/* | *'<'* | *'>'* | *'$'* | build/* | kmod/generated/* | *.ko) continue ;;
	esac
	# placeholders: NN-name.sh, LABEL, DEV
	printf '%s' "$w" | grep -qE '(^|/)NN|[A-Z]{3,}' && case $w in *README.md) ;; *) continue ;; esac
	case $w in
	kmod/* | cli/* | tests/* | docs/* | man/* | bench/* | packaging/* | udev-rules/*)
		w=${w%/}
		if printf '%s\n' "$files" | grep -q "^$(printf '%s' "$w" | sed 's/[.]/\\./g; s/\*/[^\/]*/g')\(/\|\$\)"; then
			ok "$doc: $w"
		else
			notok "$doc: $w does not exist"
		fi
		;;
	*)
		base=${w##*/}
		if printf '%s\n' "$files" | grep -q "\(^\|/\)$(printf '%s' "$w" | sed 's/[.]/\\./g')\$"; then
			ok "$doc: $w"
		elif printf '%s\n' "$files" | grep -E '(^|/)(Makefile|Kbuild)$|\.(sh|py)$' |
			xargs grep -lF -- "$base" 2>/dev/null | grep -qv '^tests/unit/test-docpaths.sh$'; then
			ok "$doc: $w (written by the build)"
		else
			notok "$doc: no file $w in the tree"
		fi
		;;
	esac
done <"${TMPDIR:-/tmp}/docpaths.$$"

echo "docpaths: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
