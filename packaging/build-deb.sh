#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-deb.sh VERSION: build the Debian packages from build/dist's tarball
# into build/deb/ (binary packages only, unsigned) and run lintian on them.
set -euo pipefail
cd "$(dirname "$0")/.."
ver=${1:?usage: build-deb.sh VERSION}
out=build/deb
rm -rf "$out"
mkdir -p "$out"
tar -xzf "build/dist/schedctl-$ver.tar.gz" -C "$out"
src="$out/schedctl-$ver"
cp -a packaging/debian "$src/debian"
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 ||
	{ tail -n 40 "$out/build.log" >&2; echo "build-deb.sh: dpkg-buildpackage failed" >&2; exit 1; }
ls "$out"/*.deb
if command -v lintian >/dev/null; then
	# Errors fail the build; warnings are printed for the reviewer.
	lintian --fail-on error "$out"/*.changes
fi
