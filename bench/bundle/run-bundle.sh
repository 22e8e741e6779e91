#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-bundle.sh: the schedctl scheduler benchmark, self-contained (made by
# bench/bundle.sh).  Boots each bundled kernel in turn in the bundled QEMU
# with one vCPU per host core (multi-threaded TCG), runs every scheduler on
# the same null_blk devices interleaved, and prints each kernel's table of
# medians last.  Needs only a POSIX sh, awk and an x86-64 Linux kernel; no
# root.  The defaults run two kernels in about 8 minutes at 16 vCPUs.
#
# Environment (defaults in brackets):
#   KERNELS [every bundled label, as in kernel/ORDER]
#   SMP [host CPUs]  MEM [2048] (MiB)  ACCEL [tcg,thread=multi]
#   SCHEDS ["none mq-deadline kyber bfq xbfq xdeadline xdeadline:local_dispatch=0"]
#          NAME:knob=val,... = a variant
#   WORKLOADS ["seed000 seed001"]  (also: merge cpu)
#   RUNTIME [2] s per run   REPEATS [2]   RAMP [0]   JOBS [= SMP]
#   TIMEOUT [seconds per kernel; estimated]   OUT [./results-<time>]
here=$(cd "$(dirname "$0")" && pwd)
ncpu=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null ||
	grep -c '^processor' /proc/cpuinfo)
smp=${SMP:-$ncpu}
mem=${MEM:-2048}
accel=${ACCEL:-tcg,thread=multi}
scheds=${SCHEDS:-none mq-deadline kyber bfq xbfq xdeadline xdeadline:local_dispatch=0}
workloads=${WORKLOADS:-seed000 seed001}
runtime=${RUNTIME:-2}
repeats=${REPEATS:-2}
ramp=${RAMP:-0}
kernels=${KERNELS:-$(cat "$here/kernel/ORDER")}
outdir=${OUT:-$PWD/results-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$outdir" || exit 1

nsched=$(echo $scheds | wc -w)
nruns=0
for w in $workloads; do
	case $w in seed000) n=3 ;; merge) n=2 ;; *) n=1 ;; esac
	nruns=$((nruns + n * nsched * repeats))
done
timeout_s=${TIMEOUT:-$((240 + nruns * (runtime + ramp + 10)))}

append="console=ttyS0 panic=-1 loglevel=3 xd.tests=bench"
append="$append bench.scheds=$(echo $scheds | tr ' ' /) bench.workloads=$(echo $workloads | tr ' ' /)"
append="$append bench.runtime=$runtime bench.repeats=$repeats bench.ramp=$ramp"
[ -z "${JOBS:-}" ] || append="$append bench.jobs=$JOBS"

cpu=$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "run-bundle: host $ncpu CPUs ($cpu); guest $smp vCPUs, $accel, $mem MiB"

# Run QEMU through the bundled loader and libraries only: nothing from the
# host's /usr is used (the module dir and firmware dir are bundled too).
QEMU_MODULE_DIR=$here/lib/qemu
export QEMU_MODULE_DIR
unset LD_LIBRARY_PATH LD_PRELOAD

# run_kernel LABEL: boot one bundled kernel, run the benchmark, write
# OUT/LABEL/table.md; returns 1 if it did not finish cleanly.
run_kernel() {
	kdir=$here/kernel/$1
	[ -e "$kdir/vmlinuz" ] || { echo "run-bundle: no kernel $1 in this bundle" >&2; return 1; }
	out=$outdir/$1
	mkdir -p "$out" || return 1
	log=$out/serial.log
	echo "run-bundle: $1: $nruns runs of ${runtime}s ($workloads); up to ${timeout_s}s; log $log"
	"$here/lib/ld-linux-x86-64.so.2" --library-path "$here/lib" "$here/bin/qemu-system-x86_64" \
		-L "$here/share" -accel "$accel" -smp "$smp" -m "$mem" \
		-nographic -vga none -nic none -no-reboot \
		-kernel "$kdir/vmlinuz" -initrd "$kdir/initrd.gz" \
		-append "$append" ${QEMU_ARGS:-} </dev/null >"$log" 2>&1 &
	qpid=$!

	# Progress every 15 s; stop QEMU at the timeout.
	start=$(date +%s)
	while kill -0 "$qpid" 2>/dev/null; do
		sleep 5
		now=$(date +%s)
		if [ $((now - start)) -ge "$timeout_s" ]; then
			echo "run-bundle: $1: timeout after ${timeout_s}s, stopping QEMU" >&2
			kill "$qpid" 2>/dev/null
			break
		fi
		if [ $(((now - start) % 15)) -lt 5 ]; then
			echo "run-bundle: $1: $((now - start))s: $(grep -c 'BENCH-RUN ' "$log") of $nruns runs done"
		fi
	done
	wait "$qpid"
	qrc=$?

	krc=0
	if ! grep -q 'BENCH-END fails=0' "$log"; then
		echo "run-bundle: $1: the benchmark did not finish cleanly (qemu rc $qrc); see $log" >&2
		grep -a 'BENCH-ERROR\|Kernel panic\|not ok\|qemu' "$log" | head -n 10 >&2
		krc=1
	fi
	{
		echo "Host: $ncpu CPUs, $cpu; QEMU $accel -smp $smp; $(date -u '+%Y-%m-%d %H:%M UTC')"
		sed -n 's/^kernel [^:]*: /Kernel: /p' "$kdir/INFO"
		echo
		tr -d '\r' <"$log" | awk -f "$here/table.awk"
	} >"$out/table.md"
	return $krc
}

rc=0
for k in $kernels; do
	run_kernel "$k" || rc=1
done
for k in $kernels; do
	[ -e "$outdir/$k/table.md" ] || continue
	echo
	cat "$outdir/$k/table.md"
done
exit $rc
