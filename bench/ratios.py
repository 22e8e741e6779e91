#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ratios.py JSON...: for each benchmark JSON (bench/report.py), one row
per cell: median IOPS of each scheduler, with the spread of its runs
((max - min) / median), and the ratios xdeadline / mq-deadline and
xbfq / bfq of the medians, all within that boot."""
import json
import statistics
import sys

PAIRS = [("xdeadline", "mq-deadline"), ("xbfq", "bfq")]


def main():
    print("| boot | cell | " + " | ".join(
        ["none", "mq-deadline", "kyber", "bfq", "xbfq", "xdeadline"]) +
        " | xdeadline/mq-deadline | xbfq/bfq |")
    print("|---" * 10 + "|")
    for path in sys.argv[1:]:
        doc = json.load(open(path))
        for boot in doc["boots"]:
            cells = {}
            for r in boot["runs"]:
                cells.setdefault(r["cell"], {}).setdefault(
                    r["sched"], []).append(r["iops"])
            name = path.rsplit("/", 1)[-1].replace(".json", "")
            for cell, by in cells.items():
                med = {s: statistics.median(v) for s, v in by.items()}
                row = []
                for s in ["none", "mq-deadline", "kyber", "bfq", "xbfq",
                          "xdeadline"]:
                    if s not in by:
                        row.append("-")
                        continue
                    v = by[s]
                    spread = (max(v) - min(v)) / med[s] * 100 if med[s] else 0
                    row.append(f"{med[s] / 1000:.0f}k ±{spread:.0f}%")
                for a, b in PAIRS:
                    row.append(f"{med[a] / med[b]:.2f}x"
                               if a in med and b in med and med[b] else "-")
                print(f"| {name} | {cell} | " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
