#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ratios.py JSON...: for each benchmark JSON (bench/report.py), one row
per cell: median IOPS of each scheduler, with the spread of its runs
((max - min) / median), and the ratios of the medians within that boot:
xdeadline (and any xdeadline:KNOB=V variant) / mq-deadline and
xbfq / bfq.  Then, where the runs carry them, the scheduler lock's
contention per 1000 I/Os: xdeadline's and xbfq's lock_waits, and the
debug kernel's lock_stat contentions for every scheduler."""
import json
import statistics
import sys

ORDER = ["none", "mq-deadline", "kyber", "bfq", "xbfq", "xdeadline"]
REFERENCE = {"xdeadline": "mq-deadline", "xbfq": "bfq"}


def main():
    docs = [(p, json.load(open(p))) for p in sys.argv[1:]]
    seen = []
    for _, doc in docs:
        for boot in doc["boots"]:
            for r in boot["runs"]:
                if r["sched"] not in seen:
                    seen.append(r["sched"])
    scheds = [s for s in ORDER if s in seen] + \
        [s for s in seen if s not in ORDER]
    pairs = [(s, REFERENCE[s.split(":")[0]]) for s in scheds
             if s.split(":")[0] in REFERENCE and
             REFERENCE[s.split(":")[0]] in scheds]
    print("| boot | cell | " + " | ".join(scheds) + " | " +
          " | ".join(f"{a}/{b}" for a, b in pairs) + " |")
    print("|---" * (2 + len(scheds) + len(pairs)) + "|")
    for path, doc in docs:
        for boot in doc["boots"]:
            cells = {}
            for r in boot["runs"]:
                cells.setdefault(r["cell"], {}).setdefault(
                    r["sched"], []).append(r["iops"])
            name = path.rsplit("/", 1)[-1].replace(".json", "")
            for cell, by in cells.items():
                med = {s: statistics.median(v) for s, v in by.items()}
                row = []
                for s in scheds:
                    if s not in by:
                        row.append("-")
                        continue
                    v = by[s]
                    spread = (max(v) - min(v)) / med[s] * 100 if med[s] else 0
                    row.append(f"{med[s] / 1000:.0f}k ±{spread:.0f}%")
                for a, b in pairs:
                    row.append(f"{med[a] / med[b]:.2f}x"
                               if a in med and b in med and med[b] else "-")
                print(f"| {name} | {cell} | " + " | ".join(row) + " |")
    contention(docs)


def contention(docs):
    """The scheduler lock's contention per 1000 I/Os, median over the
    runs: lock_waits (xdeadline's and xbfq's own counter of insertions and
    dispatches that waited, per dispatched request), xbfq's done_waits
    (completions that waited, per dispatched request) and, where the
    kernel has lock_stat (the debug kernel), its contentions of the
    scheduler's lock class (per I/O fio did)."""
    rows = []
    for path, doc in docs:
        name = path.rsplit("/", 1)[-1].replace(".json", "")
        for boot in doc["boots"]:
            per = {}
            for r in boot["runs"]:
                key = (r["cell"], r["sched"])
                st = r.get("sched_stats", {})
                dis = int(st.get("dispatched", 0))
                if "lock_waits" in st and dis:
                    per.setdefault(key, ([], [], []))[0].append(
                        int(st["lock_waits"]) * 1000 / dis)
                if "done_waits" in st and dis:
                    per.setdefault(key, ([], [], []))[2].append(
                        int(st["done_waits"]) * 1000 / dis)
                ios = r.get("rios", 0) + r.get("wios", 0)
                if "lock_stat" in r and ios:
                    c = sum(v.get("contentions", 0)
                            for v in r["lock_stat"].values())
                    per.setdefault(key, ([], [], []))[1].append(c * 1000 / ios)
            for (cell, sched), (own, ls, done) in per.items():
                rows.append((name, cell, sched, own, done, ls))
    if not rows:
        return

    def show(v):
        if not v:
            return "-"
        return f"{statistics.median(v):.1f} ({min(v):.1f}-{max(v):.1f})"
    print()
    print("| boot | cell | scheduler | lock_waits per 1000 I/Os "
          "| done_waits per 1000 I/Os "
          "| lock_stat contentions per 1000 I/Os |")
    print("|---|---|---|---|---|---|")
    for name, cell, sched, own, done, ls in rows:
        print(f"| {name} | {cell} | {sched} | {show(own)} | {show(done)} "
              f"| {show(ls)} |")


if __name__ == "__main__":
    main()
