#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/selftest.sh [LABEL]: prove the benchmark harness works, fast.
#  1. the parsers on a canned serial log (with console noise, a garbled
#     line and a skipped scheduler): JSON medians and ratios, and the
#     table (bench/testdata/canned.md);
#  1b. the same for a canned simdisk (smr) log: the model-clock figures,
#     ratios and table (bench/testdata/canned-simdisk.md);
#  2. one tiny boot (1 s runs, 1 repeat, seed000 only, none + xdeadline +
#     an absent scheduler that must be skipped): JSON rows with IOPS > 0
#     for each scheduler and cell, and the table.
# Last line: "bench: N passed, N failed"; exits non-zero on a failure.
set -uo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
label=${1:-${KERNEL:-7.x}}
out=$bench/../build/bench/selftest
rm -rf "$out"
mkdir -p "$out"
passed=0
failed=0
verdict() {	# verdict RC DESC
	if [ "$1" = 0 ]; then passed=$((passed + 1)); echo "ok - $2"
	else failed=$((failed + 1)); echo "not ok - $2"; fi
}

# 1. Canned log.
python3 "$bench/report.py" "$bench/testdata/canned.log" --json "$out/canned.json"
verdict $? "report.py accepts the canned log"
python3 - "$out/canned.json" <<'EOF'
import json, sys
b = json.load(open(sys.argv[1]))["boots"][0]
rows = {(r["cell"], r["sched"]): r for r in b["summary"]}
assert b["garbled"] == 1 and b["skipped"] == ["xbfq"], (b["garbled"], b["skipped"])
assert len(b["runs"]) == 18, len(b["runs"])
assert all(r["fio_terse"] for r in b["runs"])
st = [r["sched_stats"] for r in b["runs"] if "sched_stats" in r]
assert st == [{"inserted": "1200", "merge_skipped": "7", "deferred": "3"}], st
ls = [r["lock_stat"] for r in b["runs"] if "lock_stat" in r]
assert ls == [{"&dd->lock": {"contentions": 12, "acquisitions": 2400},
               "&xbd->lock": {"contentions": 0, "acquisitions": 0}}], ls
r = rows[("seed000-hq1-j2", "xdeadline")]
assert r["median"]["iops"] == 95000 and r["vs_none"] == 0.95 and r["vs_mq-deadline"] == 2.1111, r
r = rows[("merge-write-j4", "mq-deadline")]
assert r["median"]["avgkib"] == 21.0 and r["median"]["merges"] == 2000 and r["median"]["p99"] == 200, r
EOF
verdict $? "canned log: medians, ratios, skips, lock_stat and garbled lines in the JSON"
awk -f "$bench/table.awk" "$bench/testdata/canned.log" >"$out/canned.md"
cmp -s "$out/canned.md" "$bench/testdata/canned.md"
verdict $? "canned log: table.awk prints the expected table"
diff "$bench/testdata/canned.md" "$out/canned.md" | sed 's/^/# /'

# 1b. Canned simdisk log (an smr cell of a 7.x boot): the model's figures,
# the disk's stats and the model-clock table.
python3 "$bench/report.py" "$bench/testdata/canned-simdisk.log" --json "$out/canned-simdisk.json"
verdict $? "report.py accepts the canned simdisk log"
python3 - "$out/canned-simdisk.json" <<'EOF2'
import json, sys
b = json.load(open(sys.argv[1]))["boots"][0]
rows = {(r["cell"], r["sched"]): r for r in b["summary"]}
assert len(b["runs"]) == 6 and all(r["disk_stats"]["busy_ns"] for r in b["runs"]), b["runs"]
assert b["runs"][0]["model_mbps"] == 81.429 and b["runs"][0]["seeks"] > 0, b["runs"][0]
r = rows[("smr-randzone-z16", "xdeadline:queue.zoned_qd1_writes=0,zoned_qd1_writes=1")]
assert r["model_median"]["model_mbps"] == 79.152 and r["vs_mq-deadline_model"] == 0.969, r
assert rows[("smr-randzone-z16", "mq-deadline")]["vs_mq-deadline_model"] == 1.0
EOF2
verdict $? "canned simdisk log: model medians and model-clock ratios in the JSON"
awk -f "$bench/table.awk" "$bench/testdata/canned-simdisk.log" >"$out/canned-simdisk.md"
cmp -s "$out/canned-simdisk.md" "$bench/testdata/canned-simdisk.md"
verdict $? "canned simdisk log: table.awk prints the model-clock table"
diff "$bench/testdata/canned-simdisk.md" "$out/canned-simdisk.md" | sed 's/^/# /'

# 2. One tiny boot.
scheds="none xdeadline nosuch-sched"
BENCH_OUT=$out SCHEDS=$scheds WORKLOADS=seed000 RUNTIME=1 REPEATS=1 VM_TIMEOUT=150 \
	"$bench/run.sh" "$label" >"$out/run.out" 2>&1
verdict $? "run.sh: a tiny boot on $label succeeds"
sed 's/^/# /' "$out/run.out" | tail -n 12
python3 - "$out/$label.json" <<'EOF'
import json, sys
b = json.load(open(sys.argv[1]))["boots"][0]
cells = {r["cell"] for r in b["runs"]}
assert len(cells) == 3, cells
for c in cells:
    for s in ("none", "xdeadline"):
        got = [r for r in b["runs"] if r["cell"] == c and r["sched"] == s]
        assert len(got) == 1 and got[0]["iops"] > 0 and got[0]["avgkib"] > 0, (c, s, got)
assert b["skipped"] == ["nosuch-sched"], b["skipped"]
assert all(r["vs_none"] for r in b["summary"])
EOF
verdict $? "tiny boot: JSON has a run with IOPS > 0 for each scheduler and cell, absent one skipped"
n=$(grep -c '^| seed000-.* | \(none\|xdeadline\) | 1 | ' "$out/$label.md")
[ "$n" = 6 ]
verdict $? "tiny boot: the table has 6 rows (got $n)"

echo "bench: $passed passed, $failed failed"
[ "$failed" = 0 ]
