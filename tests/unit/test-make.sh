#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A plain "make" in a fresh copy of the tree (every file git tracks or
# would track, as "make dist" packs it) builds the CLI, whatever the
# kernel headers; "make install" then installs it with its completion.
# Last line: "make: N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0 n=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
T=$(mktemp -d "${TMPDIR:-/tmp}/schedctl-make.XXXXXX")
trap 'rm -rf "$T"' EXIT

mkdir "$T/src"
git ls-files -co --exclude-standard | grep -v '^build/' | tar -cf - -T - | tar -xf - -C "$T/src"
if make -C "$T/src" -j2 KVER=no-such-kernel >"$T/make.log" 2>&1; then ok "plain make succeeds"; else
	notok "plain make succeeds"; tail -n 20 "$T/make.log" | sed 's/^/# /'; fi
if [ -x "$T/src/build/cli/schedctl" ]; then ok "plain make builds build/cli/schedctl"; else
	notok "plain make builds build/cli/schedctl"; fi
grep -q "no headers for no-such-kernel: skipping modules" "$T/make.log" &&
	ok "modules skipped with a message where there are no headers" ||
	notok "modules skipped with a message where there are no headers"
"$T/src/build/cli/schedctl" --version >/dev/null 2>&1 && ok "the built schedctl runs" ||
	notok "the built schedctl runs"
if make -C "$T/src/cli" install DESTDIR="$T/root" PREFIX=/usr >"$T/install.log" 2>&1 &&
	[ -f "$T/root/usr/share/bash-completion/completions/schedctl" ] &&
	[ -x "$T/root/usr/sbin/schedctl" ]; then
	ok "make install: schedctl and its bash completion"
else
	notok "make install: schedctl and its bash completion"; tail -n 5 "$T/install.log" | sed 's/^/# /'
fi

echo "make: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
