#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# simdisk-datasheet.sh [LABEL]: simdisk against a drive datasheet (Seagate
# Constellation SAS ST9500430SS, Product Manual Rev. E).  Boots the LABEL
# kernel (default 7.x) in the test VM, runs
# tests/vm/tests/simdisk-datasheet.sh there and prints the datasheet's
# figures next to the model's, measured on its clock.  See docs/simdisk.md,
# "Calibration against a datasheet".
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/tests/vm/common.sh"
label=${1:-7.x}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run_guest_script "$label" simdisk-datasheet "$tmp/log" ||
	die "datasheet run failed (log: $tmp/log)"
grep -ao '# DS .*' "$tmp/log" | awk '
	{ v[$3, $4] = $5 }
	END {
		printf "%-26s %10s %10s %10s\n", "", "datasheet", "model", "model"
		printf "%-26s %10s %10s %10s\n", "seek_full_us", "", v["ends", "seek_full_us"], v["avg", "seek_full_us"]
		row("single-track seek, ms", "0.5", "single_track_us", 1000)
		row("full-stroke seek, ms", "17.35", "full_stroke_us", 1000)
		row("average seek, ms", "8.0", "average_seek_us", 1000)
		row("average latency, ms", "4.16", "rot_latency_us", 1000)
		row("outer rate (busy), MB/s", "142", "outer_MBps", 1)
		row("outer rate (media), MB/s", "142", "outer_media_MBps", 1)
		row("inner rate (busy), MB/s", "75", "inner_MBps", 1)
		row("inner rate (media), MB/s", "75", "inner_media_MBps", 1)
		printf "%-26s %10s %10s\n", "random 4 KiB QD 1, IOPS", "", v["ends", "random_iops"] " / " v["avg", "random_iops"]
		printf "read cache %s x %s sectors: lone 128 KiB QD 1 reader %s MB/s (model clock), %s MB/s (fio)\n",
			v["cache", "read_segments"], v["cache", "segment_sectors"],
			v["cache", "lone_MBps"], v["cache", "lone_fio_MBps"]
	}
	function row(name, sheet, key, div) {
		printf "%-26s %10s %10.2f %10.2f\n", name, sheet, v["ends", key] / div, v["avg", key] / div
	}'
