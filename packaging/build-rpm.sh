#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-rpm.sh VERSION: build the RPMs from build/dist's tarball into
# build/rpm/ with rpmbuild.  On Debian, rpm has no database of the build
# dependencies, so they are not checked (--nodeps); the build itself
# proves the spec.
set -euo pipefail
cd "$(dirname "$0")/.."
ver=${1:?usage: build-rpm.sh VERSION}
top=$PWD/build/rpm
rm -rf "$top"
mkdir -p "$top"/{SOURCES,SPECS,BUILD,RPMS,SRPMS}
cp "build/dist/schedctl-$ver.tar.gz" "$top/SOURCES/"
cp packaging/rpm/schedctl.spec "$top/SPECS/"
rpmbuild --nodeps --define "_topdir $top" --define "version_override $ver" \
	-bb "$top/SPECS/schedctl.spec" >"$top/build.log" 2>&1 ||
	{ tail -n 40 "$top/build.log" >&2; echo "build-rpm.sh: rpmbuild failed" >&2; exit 1; }
find "$top/RPMS" -name '*.rpm' | sort
