#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch-udev.sh: print a directory holding Debian 12's udev (systemd-udevd,
# udevadm, its helpers and rules, and libsystemd-shared), unpacked from the
# .debs and cached, so the guest can run a real udevd for hotplug tests
# without installing udev on the host.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cache_lock

conf=$(apt_conf_for_suite bookworm)
apt_update_suite "$conf"
ver=$(APT_CONFIG=$conf apt-cache policy udev | sed -n 's/^ *Candidate: *//p')
[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "no udev package in bookworm"
out="$SCHEDCTL_CACHE/udev/$ver"
if [ -x "$out/bin/udevadm" ]; then
	echo "$out"
	exit 0
fi
tmp=$(mktemp -d "$SCHEDCTL_CACHE/udev/.tmp.XXXXXX" 2>/dev/null ||
	{ mkdir -p "$SCHEDCTL_CACHE/udev" && mktemp -d "$SCHEDCTL_CACHE/udev/.tmp.XXXXXX"; })
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && APT_CONFIG=$conf apt-get -q download "udev=$ver" "libsystemd-shared=$ver" \
	>/dev/null 2>&1) || die "cannot download udev $ver"
mkdir "$tmp/root"
for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done
[ -x "$tmp/root/bin/udevadm" ] || die "udev $ver has no bin/udevadm"
rm -rf "$out"
mv "$tmp/root" "$out"
echo "$out"
