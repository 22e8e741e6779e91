#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/plot.py draws SVG charts with gnuplot from the JSON bench/report.py
# writes: from the canned log in bench/testdata (the ratio chart), and from
# a summary with SMR queue-depth and HDD cells (smr-qd.svg, hdd.svg).
# Last line: "benchplot: N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
pass=0 fail=0 n=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
t() { d=$1; shift; if "$@" >"$T/out" 2>&1; then ok "$d"; else notok "$d"; sed 's/^/# /' "$T/out"; fi; }
T=$(mktemp -d "${TMPDIR:-/tmp}/schedctl-plot.XXXXXX")
trap 'rm -rf "$T"' EXIT
PY=/usr/bin/python3

# svg FILE TEXT...: a well-formed SVG document with each TEXT in a <text>
svg() {
	$PY - "$@" <<'PYEOF'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
texts = {"".join(e.itertext()).strip() for e in root.iter() if e.tag.endswith("text")}
for want in sys.argv[2:]:
    assert any(want in t for t in texts), (want, sorted(texts))
PYEOF
}

$PY bench/report.py bench/testdata/canned.log --json "$T/canned.json" >/dev/null
t "plot.py on the canned log" $PY bench/plot.py "$T/canned.json" --out "$T/c"
t "ratio chart: SVG naming cells and schedulers" svg "$T/c/ratio-vs-none.svg" \
	seed000-hq1-j2 merge-write-j4 xdeadline mq-deadline "ratio to none"
t "no none bars (it is the reference)" sh -c "! grep -q '>none<' '$T/c/ratio-vs-none.svg'"
t "no SMR or HDD chart without such cells" sh -c "[ ! -e '$T/c/smr-qd.svg' ] && [ ! -e '$T/c/hdd.svg' ]"
t "only SVGs are left" sh -c "[ \"\$(ls -A '$T/c')\" = ratio-vs-none.svg ]"

# SMR cells at three queue depths and two HDD cells, as report.py writes them
$PY - "$T/model.json" <<'PYEOF'
import json, sys
rows = []
def row(cell, sched, mbps):
    return {"cell": cell, "sched": sched, "runs": 3, "median": {"iops": 100.0},
            "iops_min": 90.0, "iops_max": 110.0, "vs_none": None, "vs_mq-deadline": None,
            "model_median": {"model_mbps": mbps}, "model_mbps_min": mbps * 0.9,
            "model_mbps_max": mbps * 1.1}
for s, f in (("mq-deadline", 1.0), ("xdeadline:zoned_qd1_writes=1", 1.3)):
    for qd in (1, 8, 32):
        rows.append(row("smr-seqwrite-qd%d" % qd, s, 40 * f + qd))
    for c in ("hdd-seqread-j16", "hdd-randread-j16"):
        rows.append(row(c, s, 100 * f))
json.dump({"boots": [{"meta": {"kernel": "7.2.13+deb14-amd64"}, "summary": rows}]},
          open(sys.argv[1], "w"))
PYEOF
t "plot.py on SMR and HDD cells" $PY bench/plot.py "$T/model.json" --out "$T/m"
t "SMR chart: bandwidth against queue depth" svg "$T/m/smr-qd.svg" "queue depth" \
	"smr-seqwrite mq-deadline" "smr-seqwrite xdeadline:zoned_qd1_writes=1" 1 8 32
t "HDD chart" svg "$T/m/hdd.svg" hdd-seqread-j16 hdd-randread-j16 mq-deadline
t "no ratio chart for model cells" test ! -e "$T/m/ratio-vs-none.svg"
$PY - "$T/model.json" "$T/two.json" <<'PYEOF'
import json, sys
b = json.load(open(sys.argv[1]))["boots"][0]
c = json.loads(json.dumps(b)); c["meta"]["kernel"] = "6.1.0-57-amd64"
json.dump({"boots": [b, c]}, open(sys.argv[2], "w"))
PYEOF
t "two boots: a chart per kernel" sh -c "$PY bench/plot.py '$T/two.json' --out '$T/2' &&
	[ -e '$T/2/hdd-6.1.0-57-amd64.svg' ] && [ -e '$T/2/hdd-7.2.13+deb14-amd64.svg' ]"

echo "benchplot: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
