#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ratios.py JSON...: for each benchmark JSON (bench/report.py), one row
per cell: median IOPS of each scheduler, with the spread of its runs
((max - min) / median), and the ratios of the medians within that boot:
xdeadline (and any xdeadline:KNOB=V variant) / mq-deadline and
xbfq / bfq.  Then, where the runs carry xdeadline's or xbfq's counters
(lock_waits, dispatched), the scheduler lock's contention: median
insertions and dispatches that found it held per 1000 I/Os."""
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
    """Lock waits per 1000 dispatched requests, median over the runs."""
    rows = []
    for path, doc in docs:
        name = path.rsplit("/", 1)[-1].replace(".json", "")
        for boot in doc["boots"]:
            per = {}
            for r in boot["runs"]:
                st = r.get("sched_stats", {})
                if "lock_waits" not in st or not int(st.get("dispatched", 0)):
                    continue
                per.setdefault((r["cell"], r["sched"]), []).append(
                    int(st["lock_waits"]) * 1000 / int(st["dispatched"]))
            for (cell, sched), v in per.items():
                rows.append((name, cell, sched, statistics.median(v),
                             min(v), max(v)))
    if not rows:
        return
    print()
    print("| boot | cell | scheduler | lock waits per 1000 I/Os (median) "
          "| min | max |")
    print("|---|---|---|---|---|---|")
    for name, cell, sched, med, lo, hi in rows:
        print(f"| {name} | {cell} | {sched} | {med:.1f} | {lo:.1f} "
              f"| {hi:.1f} |")


if __name__ == "__main__":
    main()
