#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/run.sh [LABEL]: build the modules and a benchmark initramfs for one
# kernel label (default $KERNEL or 7.x), boot it once under QEMU and run
# every scheduler on the same devices, interleaved, REPEATS times.
# Writes build/bench/<label>.{log,json,md}; prints the table last.
#
# Environment:
#   KERNEL=7.x         kernel label (6.1, 6.12, 7.x)
#   SCHEDS="none mq-deadline kyber bfq xbfq xdeadline xdeadline:defer_insert=0"
#                      schedulers; NAME:knob=val,knob=val is a variant;
#                      ones the kernel lacks are skipped
#   WORKLOADS="seed000 seed001 merge cpu"   also hdd, hddseq and smr (simdisk, not
#                      in the default list; docs/benchmarks.md "HDD and SMR")
#   HDD_JOBS=16 HDD_NCQ=32 SMR_ZONES=3   jobs and NCQ depth of the hdd
#                      cells, zones written per sequential smr run
#   RUNTIME=3 REPEATS=3 RAMP=0   seconds per run, repeats, fio ramp_time
#   JOBS=                        the "many jobs" count (default: vCPUs)
#   VM_SMP=2 VM_MEM=2048 VM_ACCEL=tcg,thread=single   passed to run-vm.sh
#   BENCH_OUT=build/bench        where logs, JSON, tables and the initramfs go
#   CGROUP=1           run fio in a cgroup below the root, as under systemd
#                      (xbfq's and bfq's group layers on; docs/benchmarks.md)
#   PROFILE=1          also sample each run with the host's perf in the guest
#                      (cpu-clock; under -icount an instruction profile) and
#                      keep the top symbols as BENCH-PROFILE lines in the log;
#                      bench/profile.sh prints them side by side
set -uo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
. "$bench/../tests/vm/common.sh"

label=${1:-${KERNEL:-7.x}}
scheds=${SCHEDS:-none mq-deadline kyber bfq xbfq xdeadline xdeadline:defer_insert=0}
workloads=${WORKLOADS:-seed000 seed001 merge cpu}
runtime=${RUNTIME:-3}
repeats=${REPEATS:-3}
ramp=${RAMP:-0}
out=${BENCH_OUT:-$REPO_DIR/build/bench}
mkdir -p "$out"
t0=$(date +%s)

initrd=$("$bench/mkinitrd.sh" "$label" "$out") || die "cannot build the benchmark initramfs"
. "$SCHEDCTL_CACHE/kernels/$label.env"

# Upper bound for the boot: every run plus fio start-up and switching.
nsched=$(echo $scheds | wc -w)
nruns=$((nsched * repeats * (3 * $(echo " $workloads " | grep -c ' seed000 ') +
	$(echo " $workloads " | grep -c ' seed001 ') +
	2 * $(echo " $workloads " | grep -c ' merge ') + $(echo " $workloads " | grep -c ' cpu ') +
	4 * $(echo " $workloads " | grep -c ' hdd ') + 4 * $(echo " $workloads " | grep -c ' smr ') +
	5 * $(echo " $workloads " | grep -c ' hddseq '))))
# smr runs also wait for simdisk's write cache to drain: allow 10 s more each.
nsmr=$((nsched * repeats * 4 * $(echo " $workloads " | grep -c ' smr ')))
timeout_s=${VM_TIMEOUT:-$((300 + nruns * (runtime + ramp + 8) + nsmr * 10))}
append="bench.scheds=$(echo $scheds | tr ' ' /) bench.workloads=$(echo $workloads | tr ' ' /)"
# The whole benchmark is one guest "test": its watchdog gets the boot's limit.
append="$append xd.test_timeout=$timeout_s"
append="$append bench.runtime=$runtime bench.repeats=$repeats bench.ramp=$ramp"
[ -z "${JOBS:-}" ] || append="$append bench.jobs=$JOBS"
[ -z "${HDD_JOBS:-}" ] || append="$append bench.hddjobs=$HDD_JOBS"
[ -z "${HDD_NCQ:-}" ] || append="$append bench.hddncq=$HDD_NCQ"
[ -z "${SMR_ZONES:-}" ] || append="$append bench.smrzones=$SMR_ZONES"
[ -z "${PROFILE:-}" ] || append="$append bench.profile=1"
[ -z "${CGROUP:-}" ] || append="$append bench.cgroup=1"
msg "$label ($KREL): $nruns runs of ${runtime}s (timeout ${timeout_s}s); log $out/$label.log"
VM_TIMEOUT=$timeout_s VM_APPEND="$append ${VM_APPEND:-}" \
	"$VM_DIR/run-vm.sh" "$label" "$initrd" "$out/$label.log" bench >"$out/$label.tap"
vm_rc=$?
sed -n 's/^  # \{0,1\}/  /p; /^not ok/p' "$out/$label.tap" >&2

python3 "$bench/report.py" "$out/$label.log" --json "$out/$label.json"
report_rc=$?
{
	echo "Host: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)," \
		"QEMU ${VM_ACCEL:-tcg,thread=single} -smp ${VM_SMP:-2}, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "Kernel: $KREL (Debian $SUITE $KDEBVER)"
	echo
	awk -f "$bench/table.awk" "$out/$label.log"
} >"$out/$label.md"
msg "done in $(($(date +%s) - t0)) s: $out/$label.json, $out/$label.md"
cat "$out/$label.md"
[ $vm_rc = 0 ] && [ $report_rc = 0 ]
