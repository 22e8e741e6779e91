#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-fio.sh: print the path of a static fio for the guest initramfs,
# building it from Debian 12's fio source on first use (cached).  A static
# binary is 3 MB; the distro's dynamic fio drags in 80 MB of libraries.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cache_lock

out="$SCHEDCTL_CACHE/fio/fio-static"
if [ -x "$out" ]; then
	echo "$out"
	exit 0
fi
d="$SCHEDCTL_CACHE/fio/src"
conf=$(apt_conf_for_suite bookworm)
sed -i 's/^deb \(.*\)$/deb \1\ndeb-src \1/' "$(dirname "$conf")/sources.list"
rm -f "$(dirname "$conf")/updated"
apt_update_suite "$conf"
rm -rf "$d" && mkdir -p "$d"
(cd "$d" && APT_CONFIG=$conf apt-get -q source --download-only fio >/dev/null &&
	dpkg-source -x --no-check ./fio_*.dsc fio >/dev/null) || die "cannot fetch the fio source"
(cd "$d/fio" && ./configure --build-static --disable-native --disable-optimizations \
	--extra-cflags=-O2 >configure.log 2>&1 &&
	make -j"$(nproc)" fio >make.log 2>&1) || die "static fio build failed (see $d/fio)"
strip -o "$out" "$d/fio/fio"
echo "$out"
