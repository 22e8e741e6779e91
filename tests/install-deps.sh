#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh: install what `make check`, `make demo` and `make bench`
# need on Debian 12, as root.  Elsewhere, or without root, it only lists
# what is missing and fails.
set -euo pipefail

# build and VM harness
pkgs="make gcc python3 perl git cpio xz-utils zstd kmod busybox-static
qemu-system-x86 mmdebstrap binutils pkg-config"
# the debug kernel (tests/vm/build-debug-kernel.sh)
pkgs="$pkgs flex bison bc libelf-dev libssl-dev"
# the CLI, its unit tests and man page lint
pkgs="$pkgs libsmartcols-dev libudev-dev libkmod-dev libinih-dev
libnl-genl-3-dev libjson-c-dev check mandoc groff-base
python3-prometheus-client bash-completion"
# bench charts
pkgs="$pkgs gnuplot-nox"
# packaging
pkgs="$pkgs dpkg-dev debhelper dh-dkms dkms fakeroot lintian rpm"

missing=
for p in $pkgs; do
	dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

if [ ! -r /etc/debian_version ] || [ "$(id -u)" != 0 ] ||
	! grep -q '^12' /etc/debian_version; then
	echo "install-deps.sh: missing Debian 12 packages:$missing" >&2
	echo "install-deps.sh: run as root on Debian 12, or install them yourself" >&2
	exit 1
fi
echo "install-deps.sh: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -q update >/dev/null
apt-get -q install -y --no-install-recommends $missing >/dev/null
