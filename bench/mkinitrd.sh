#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/mkinitrd.sh LABEL OUTDIR: build kmod/ for a kernel label and a
# benchmark initramfs OUTDIR/initrd-LABEL.gz (the harness's initramfs plus
# bench/guest/bench.sh as /tests/bench.sh and the distro's modular
# schedulers, kyber and bfq, under /bench/modules).  Prints its path.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
. "$bench/../tests/vm/common.sh"

label=${1:?usage: mkinitrd.sh LABEL OUTDIR}
out=${2:?usage: mkinitrd.sh LABEL OUTDIR}
"$VM_DIR/fetch-kernel.sh" "$label" || die "cannot fetch kernel $label"
. "$SCHEDCTL_CACHE/kernels/$label.env"
# Reuse the harness's last module build when nothing it is built from
# changed since (BENCH_REBUILD=1 forces a build).
kodir="$REPO_DIR/build/kmod/$KREL"
if [ -n "${BENCH_REBUILD:-}" ] || [ ! -e "$kodir/build.log" ] || ! ls "$kodir"/*.ko >/dev/null 2>&1 ||
	[ -n "$(find "$REPO_DIR/kmod" "$REPO_DIR/tests/simdisk" "$VM_DIR/build-modules.sh" \
		-newer "$kodir/build.log" 2>/dev/null | head -n1)" ]; then
	kodir=$("$VM_DIR/build-modules.sh" "$label") || die "module build failed"
else
	msg "reusing the modules in $kodir"
fi

# The harness's modules.dep covers only its own modules, so these are
# shipped apart and loaded with insmod (neither has dependencies).
stage="$out/stage-$label"
rm -rf "$stage"
mkdir -p "$stage/tests" "$stage/bench/modules"
cp "$bench/guest/bench.sh" "$stage/tests/bench.sh"
for m in kyber-iosched bfq; do
	f=$(find "$MODDIR/kernel/block" -name "$m.ko*" -print -quit)
	[ -n "$f" ] || { msg "no $m module in $KREL (built in or absent)"; continue; }
	case "$f" in
	*.xz) xz -dc "$f" ;;
	*.zst) zstd -qdc "$f" ;;
	*.gz) gzip -dc "$f" ;;
	*) cat "$f" ;;
	esac >"$stage/bench/modules/$m.ko"
done
# PROFILE=1: the host's perf (and its libraries) for bench.profile.
if [ -n "${PROFILE:-}" ]; then
	perf=$(command -v perf) || die "PROFILE=1 needs perf (apt-get install linux-perf)"
	mkdir -p "$stage/perf/usr/bin"
	cp -L "$perf" "$stage/perf/usr/bin/perf"
	export GUEST_TREE="$stage/perf"
fi
initrd="$out/initrd-$label.gz"
# build-modules.sh holds this lock while it rebuilds the directory, which
# other test runs may do at any time: hold it while the modules are copied.
exec 9>"$(dirname "$kodir")/.$KREL.lock"
flock -s 9
EXTRA_GUEST_FILES="$stage/tests $stage/bench" "$VM_DIR/mkinitramfs.sh" "$label" "$kodir" "$initrd" ||
	die "initramfs build failed"
exec 9>&-
echo "$initrd"
