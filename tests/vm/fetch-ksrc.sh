#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch-ksrc.sh LABEL: print a directory holding the private block/ headers
# of the label's exact kernel version, unpacked from Debian's linux-source
# package (cached).  It serves the KSRC= build path of kmod/Makefile, which
# needs a tree with block/*.h and nothing else, and the kernel's
# scripts/checkpatch.pl (tests/checkpatch.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"
cache_lock

label=${1:?usage: fetch-ksrc.sh LABEL}
. "$SCHEDCTL_CACHE/kernels/$label.env"
series=${KDEBVER%.*}
series=${series%%-*}
dir="$SCHEDCTL_CACHE/ksrc/$KDEBVER"
if [ ! -e "$dir/.complete" ]; then
	rm -rf "$dir" && mkdir -p "$dir"
	export APT_CONFIG=$(apt_conf_for_suite "$SUITE")
	(cd "$dir" && apt-get -q download "linux-source-$series=$KDEBVER" >/dev/null) ||
		die "cannot download linux-source-$series=$KDEBVER"
	dpkg-deb --fsys-tarfile "$dir"/linux-source-*.deb |
		tar -xO "./usr/src/linux-source-$series.tar.xz" |
		tar -xJ -C "$dir" --strip-components=1 --wildcards "linux-source-$series/block/*.h" \
			"linux-source-$series/scripts/checkpatch.pl" \
			"linux-source-$series/scripts/spelling.txt" \
			"linux-source-$series/scripts/const_structs.checkpatch"
	rm -f "$dir"/linux-source-*.deb
	touch "$dir/.complete"
fi
echo "$dir"
