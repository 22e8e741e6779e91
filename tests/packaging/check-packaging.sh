#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-packaging.sh: build the .debs and the RPMs, install the .debs on this
# host, check their files, build the modules with DKMS for Debian 12's 6.1
# headers (BTF from the kernel image, no kernel source), then purge and
# check that nothing is left.  Needs root on Debian 12.  Last line:
# "packaging: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/vm/common.sh
passed=0
failed=0
t() {	# t DESC CMD...: one assertion
	local desc=$1
	shift
	if "$@" >>build/packaging.log 2>&1; then
		passed=$((passed + 1)); echo "ok - $desc"
	else
		failed=$((failed + 1)); echo "not ok - $desc"
	fi
}
finish() { echo "packaging: $passed passed, $failed failed"; [ "$failed" = 0 ]; exit; }
mkdir -p build
: >build/packaging.log
ver=$(cat VERSION)

t "make deb builds both packages, lintian reports no errors" make -s deb
# DEB_READY=FILE (make check's full run): created once the .debs are
# built (or not), for the VM suite, which waits for it.
[ -z "${DEB_READY:-}" ] || touch "$DEB_READY"
debs=$(ls build/deb/schedctl_"$ver"_*.deb build/deb/schedctl-dkms_"$ver"_all.deb 2>/dev/null)
[ "$(echo "$debs" | wc -w)" = 2 ] || finish
t "make rpm builds the CLI and DKMS packages" make -s rpm
rpms=$(find build/rpm/RPMS -name '*.rpm' 2>/dev/null)
t "the RPM ships the CLI, the rule and the config" sh -c \
	"rpm -qlp $(echo "$rpms" | grep -v dkms | head -n1) | grep -qx /usr/sbin/schedctl &&
	 rpm -qlp $(echo "$rpms" | grep -v dkms | head -n1) | grep -qx /usr/lib/udev/rules.d/60-schedctl.rules &&
	 rpm -qlp $(echo "$rpms" | grep -v dkms | head -n1) | grep -qx /etc/schedctl.conf &&
	 rpm -qlp $(echo "$rpms" | grep -v dkms | head -n1) | grep -qx /usr/share/bash-completion/completions/schedctl"
t "the DKMS RPM ships the module sources" sh -c \
	"rpm -qlp $(echo "$rpms" | grep dkms | head -n1) | grep -qx /usr/src/schedctl-$ver/dkms.conf"

# Every module Kbuild builds must be one DKMS installs.
for m in $(sed -n 's/^obj-m *+\?= *\(.*\)\.o/\1/p' kmod/Kbuild); do
	t "dkms.conf names module $m" grep -q "BUILT_MODULE_NAME\[[0-9]*\]=\"$m\"" packaging/dkms.conf
done

t "no linux-source package is installed" sh -c "! dpkg -l 'linux-source*' 2>/dev/null | grep -q '^ii'"
# The 6.1 headers come from the VM harness's build root (installed on the
# host); the image's BTF stands in for /boot/vmlinuz-<release>.
"$VM_DIR/fetch-kernel.sh" 6.1 >/dev/null 2>&1 && . "$SCHEDCTL_CACHE/kernels/6.1.env" &&
	"$VM_DIR/build-root.sh" 6.1 >/dev/null 2>&1
# The DKMS post-install step builds for every kernel with headers; BTF= (passed
# down through apt, dpkg and dkms to kmod/Makefile) stands in for the
# /boot/vmlinuz-<release> a real system has.
t "apt installs the built .debs (DKMS builds for $KREL)" env DEBIAN_FRONTEND=noninteractive BTF="$VMLINUZ" \
	apt-get install -y -q -o DPkg::Lock::Timeout=300 --no-install-recommends \
	$(for d in $debs; do echo "./$d"; done)
for f in /usr/sbin/schedctl /usr/lib/udev/rules.d/60-schedctl.rules \
	/usr/lib/schedctl/schedctl.conf /etc/schedctl.conf \
	/usr/share/man/man8/schedctl.8.gz /usr/share/man/man5/schedctl.conf.5.gz \
	/usr/share/man/man4/xdeadline.4.gz /usr/src/schedctl-"$ver"/dkms.conf \
	/usr/src/schedctl-"$ver"/compat/btfgen.py /usr/share/bash-completion/completions/schedctl; do
	t "installed: $f" test -e "$f"
done
t "the installed schedctl runs" /usr/sbin/schedctl --version
t "dkms knows schedctl/$ver" sh -c "dkms status schedctl | grep -q '$ver'"
t "dkms builds the modules for $KREL from headers and BTF" \
	env BTF="$VMLINUZ" dkms build -m schedctl -v "$ver" -k "$KREL" --force
t "dkms built xdeadline.ko" test -e "/var/lib/dkms/schedctl/$ver/$KREL/x86_64/module/xdeadline.ko"
# apt waits for a dpkg lock that another apt on the host holds; dpkg fails.
t "apt-get purge removes both packages" env DEBIAN_FRONTEND=noninteractive \
	apt-get purge -y -q -o DPkg::Lock::Timeout=300 schedctl schedctl-dkms
for f in /usr/sbin/schedctl /usr/lib/udev/rules.d/60-schedctl.rules /usr/lib/schedctl \
	/etc/schedctl.conf /etc/schedctl.d /usr/src/schedctl-"$ver" /var/lib/dkms/schedctl; do
	t "purged: $f is gone" test ! -e "$f"
done
finish
