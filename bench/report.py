#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py LOG [LOG...] --json OUT: parse the BENCH-* lines of benchmark
serial logs (bench/guest/bench.sh) into one JSON document with every run
(the parsed values, fio's raw terse line, the scheduler's debugfs stats
where it has them) and, per cell and scheduler,
the medians and the ratios of median IOPS to `none` and `mq-deadline` of
the same boot; for simdisk cells also the medians of the model's figures
and the ratios of median model-clock throughput (vs_*_model).  Exits 1 when a log holds no result or a run failed.
The markdown table comes from bench/table.awk (shared with the bundle)."""
import argparse
import json
import re
import statistics
import sys

INT = {"rep", "jobs", "p50", "p99", "p999", "rios", "rmerges", "rsect",
       "wios", "wmerges", "wsect", "merges"}
MEDIANS = ["iops", "kibps", "usr", "sys", "cpu_us_io", "sys_us_io", "p50",
           "p99", "p999", "merges", "rmerges", "wmerges", "avgkib"]
REQUIRED = set(MEDIANS) | {"cell", "sched", "rep", "jobs"}
# simdisk cells (hdd, smr) also carry the disk model's own figures.
MODEL = ["model_mbps", "model_iops", "busy_pct", "seeks", "mean_seek_us",
         "rot_us_cmd", "streamed_pct"]
INT |= {"seeks", "mean_seek_us", "rot_us_cmd", "sd_cmds", "zone_errors"}


def fields(text):
    out = {}
    for tok in text.split():
        k, sep, v = tok.partition("=")
        if sep:
            out[k] = v
    return out


def convert(rec):
    for k, v in list(rec.items()):
        if k in ("cell", "sched", "kernel"):
            continue
        try:
            rec[k] = int(v) if k in INT else float(v)
        except ValueError:
            return None
    return rec


def parse(path):
    boot = {"log": path, "meta": {}, "skipped": [], "errors": [], "garbled": 0,
            "complete": False, "runs": []}
    terse, schedstat, diskstat, lockstat = {}, {}, {}, {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            m = re.search(r"BENCH-(BEGIN|RUN|TERSE|SCHEDSTAT|DISKSTAT|LOCKSTAT|SKIP|ERROR|END)( .*)?$", line)
            if not m:
                continue
            kind, rest = m.group(1), (m.group(2) or "").strip()
            if kind == "BEGIN":
                boot["meta"] = fields(rest)
            elif kind == "SKIP":
                boot["skipped"].append(fields(rest).get("sched", "?"))
            elif kind == "ERROR":
                boot["errors"].append(fields(rest))
            elif kind == "END":
                boot["complete"] = True
            elif kind == "TERSE":
                parts = rest.split(" ", 3)
                if len(parts) == 4:
                    terse[tuple(parts[:3])] = parts[3]
            elif kind == "LOCKSTAT":
                # cell sched rep CLASS contentions=N acquisitions=N
                parts = rest.split(" ", 4)
                if len(parts) == 5:
                    lockstat.setdefault(tuple(parts[:3]), {})[parts[3]] = \
                        {k: int(v) for k, v in fields(parts[4]).items()}
            elif kind in ("SCHEDSTAT", "DISKSTAT"):
                parts = rest.split(" ", 3)
                if len(parts) == 4:
                    st = schedstat if kind == "SCHEDSTAT" else diskstat
                    if kind == "DISKSTAT":
                        toks = parts[3].split()
                        st[tuple(parts[:3])] = dict(zip(toks[0::2], toks[1::2]))
                    else:
                        st[tuple(parts[:3])] = fields(parts[3])
            else:
                rec = fields(rest)
                rec = convert(rec) if REQUIRED <= rec.keys() else None
                if rec is None:
                    boot["garbled"] += 1
                    continue
                boot["runs"].append(rec)
    for rec in boot["runs"]:
        key = (rec["cell"], rec["sched"], str(rec["rep"]))
        rec["fio_terse"] = terse.get(key)
        if key in schedstat:
            rec["sched_stats"] = schedstat[key]
        if key in diskstat:
            rec["disk_stats"] = diskstat[key]
        if key in lockstat:
            rec["lock_stat"] = lockstat[key]
    return boot


def summarize(runs):
    cells, scheds, groups = [], [], {}
    for r in runs:
        if r["cell"] not in cells:
            cells.append(r["cell"])
        if r["sched"] not in scheds:
            scheds.append(r["sched"])
        groups.setdefault((r["cell"], r["sched"]), []).append(r)
    rows = []
    for c in cells:
        med = {s: {k: statistics.median(r[k] for r in groups[(c, s)]) for k in MEDIANS}
               for s in scheds if (c, s) in groups}
        for s, m in med.items():
            iops = [r["iops"] for r in groups[(c, s)]]
            row = {"cell": c, "sched": s, "runs": len(iops), "median": m,
                   "iops_min": min(iops), "iops_max": max(iops)}
            for base in ("none", "mq-deadline"):
                b = med.get(base, {}).get("iops", 0)
                row["vs_" + base] = round(m["iops"] / b, 4) if b else None
            if all("model_mbps" in r for r in groups[(c, s)]):
                mm = {k: statistics.median(r.get(k, 0) for r in groups[(c, s)]) for k in MODEL}
                row["model_median"] = mm
                tp = [r["model_mbps"] for r in groups[(c, s)]]
                row["model_mbps_min"], row["model_mbps_max"] = min(tp), max(tp)
                for base in ("none", "mq-deadline"):
                    g = groups.get((c, base), [])
                    b = statistics.median(r.get("model_mbps", 0) for r in g) if g else 0
                    row["vs_" + base + "_model"] = round(mm["model_mbps"] / b, 4) if b else None
            rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--json", required=True)
    a = ap.parse_args()
    boots = []
    ok = True
    for path in a.logs:
        boot = parse(path)
        boot["summary"] = summarize(boot["runs"])
        boots.append(boot)
        if not boot["runs"] or boot["errors"] or not boot["complete"]:
            ok = False
            print(f"report.py: {path}: {len(boot['runs'])} runs, {len(boot['errors'])} errors, "
                  f"{'complete' if boot['complete'] else 'no BENCH-END'}", file=sys.stderr)
    with open(a.json, "w") as f:
        json.dump({"boots": boots}, f, indent=1)
        f.write("\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
