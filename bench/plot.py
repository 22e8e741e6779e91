#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""plot.py JSON --out DIR: draw the results that bench/report.py wrote as
SVG charts with gnuplot (Debian's gnuplot-nox), one set per boot:

  ratio-vs-none.svg  per cell, each scheduler's median IOPS over none's in
                     the same boot, with its spread (the run with the
                     fewest and the one with the most IOPS, over none's
                     median); cells with a disk model (hdd, smr) are left
                     to the charts below
  smr-qd.svg         smr-WORKLOAD-qdN cells: the model's bandwidth (MB/s,
                     median, min to max) against the queue depth N, one
                     line per scheduler and workload
  hdd.svg            hdd-* cells: the model's bandwidth per scheduler
                     (median, min to max)

A chart without cells to show is not drawn.  With more than one boot in
JSON, file names get "-KERNEL" before ".svg".  Prints the files written.
"""
import argparse
import json
import os
import re
import subprocess
import sys

TERM = "set terminal svg size {w},{h} dynamic noenhanced font 'sans,11' background rgb 'white'"


def q(s):
    """A gnuplot string literal."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def order(rows, key):
    out = []
    for r in rows:
        if r[key] not in out:
            out.append(r[key])
    return out


def gnuplot(script, path):
    r = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if r.returncode != 0 or not os.path.exists(path):
        sys.exit(f"plot.py: gnuplot failed for {path}: {r.stderr.strip()}")
    print(path)


def histogram(path, title, ylabel, cells, scheds, val, dat, ref=None):
    """Clustered bars with error bars: val(cell, sched) -> (y, lo, hi) or None."""
    with open(dat, "w") as f:
        for c in cells:
            cols = []
            for s in scheds:
                v = val(c, s)
                cols += [f"{x:.6g}" for x in v] if v else ["?"] * 3
            f.write(q(c) + " " + " ".join(cols) + "\n")
    w = max(640, 260 + len(cells) * max(120, 24 * len(scheds)))
    plots = [f"{q(dat)} using {2 + 3 * i}:{3 + 3 * i}:{4 + 3 * i}:xtic(1) title {q(s)}"
             for i, s in enumerate(scheds)]
    script = "\n".join([
        TERM.format(w=w, h=480), f"set output {q(path)}", f"set title {q(title)}",
        f"set ylabel {q(ylabel)}", 'set datafile missing "?"',
        "set style data histograms", "set style histogram errorbars gap 2 lw 1",
        "set style fill solid 0.7 border -1", "set boxwidth 0.9", "set yrange [0:*]",
        "set xtics nomirror", "set key outside right top", "set grid ytics",
        f"set arrow from graph 0, first {ref} to graph 1, first {ref} nohead dt 2" if ref else "",
        "plot " + ", \\\n     ".join(plots), ""])
    gnuplot(script, path)


def charts(boot, out, suffix):
    rows = boot.get("summary", [])
    kernel = boot.get("meta", {}).get("kernel", "?")
    written = 0
    by = {(r["cell"], r["sched"]): r for r in rows}

    # 1. ratio to none, with the spread, for the cells without a disk model
    plain = [r for r in rows if "model_median" not in r and r.get("vs_none") is not None]
    cells = order(plain, "cell")
    scheds = [s for s in order(plain, "sched") if s != "none"]

    def ratio(c, s):
        r, n = by.get((c, s)), by.get((c, "none"))
        if not r or not n or not n["median"]["iops"]:
            return None
        base = n["median"]["iops"]
        return (r["vs_none"], r["iops_min"] / base, r["iops_max"] / base)

    if cells and scheds:
        histogram(os.path.join(out, f"ratio-vs-none{suffix}.svg"),
                  f"IOPS over none's, median and spread ({kernel})", "ratio to none",
                  cells, scheds, ratio, os.path.join(out, f".ratio{suffix}.dat"), ref=1)
        written += 1

    # 2. SMR: the model's bandwidth against the queue depth
    series = {}
    for r in rows:
        m = re.match(r"^(smr-.+)-qd(\d+)$", r["cell"])
        if m and "model_median" in r:
            series.setdefault((m.group(1), r["sched"]), []).append(
                (int(m.group(2)), r["model_median"]["model_mbps"],
                 r["model_mbps_min"], r["model_mbps_max"]))
    if series:
        path = os.path.join(out, f"smr-qd{suffix}.svg")
        plots = []
        for i, ((wl, s), pts) in enumerate(sorted(series.items())):
            dat = os.path.join(out, f".smr{suffix}.{i}.dat")
            with open(dat, "w") as f:
                for p in sorted(pts):
                    f.write("%d %.6g %.6g %.6g\n" % p)
            plots.append(f"{q(dat)} using 1:2:3:4 with yerrorlines lw 2 pt 7 title {q(wl + ' ' + s)}")
        qds = sorted({p[0] for pts in series.values() for p in pts})
        script = "\n".join([
            TERM.format(w=800, h=480), f"set output {q(path)}",
            f"set title {q(f'SMR: model bandwidth against queue depth ({kernel})')}",
            'set xlabel "queue depth"', 'set ylabel "MB/s (model clock)"',
            "set logscale x 2", f"set xrange [{qds[0] / 1.5}:{qds[-1] * 1.5}]",
            "set xtics (" + ", ".join(f'"{d}" {d}' for d in qds) + ")",
            "set yrange [0:*]", "set key outside right top", "set grid",
            "plot " + ", \\\n     ".join(plots), ""])
        gnuplot(script, path)
        written += 1

    # 3. HDD cells: the model's bandwidth per scheduler
    hdd = [r for r in rows if r["cell"].startswith("hdd-") and "model_median" in r]
    if hdd:
        def mbps(c, s):
            r = by.get((c, s))
            if not r:
                return None
            return (r["model_median"]["model_mbps"], r["model_mbps_min"], r["model_mbps_max"])

        histogram(os.path.join(out, f"hdd{suffix}.svg"),
                  f"HDD: model bandwidth, median and spread ({kernel})", "MB/s (model clock)",
                  order(hdd, "cell"), order(hdd, "sched"), mbps,
                  os.path.join(out, f".hdd{suffix}.dat"))
        written += 1
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    with open(a.json) as f:
        boots = json.load(f)["boots"]
    os.makedirs(a.out, exist_ok=True)
    n = 0
    for b in boots:
        suffix = "-" + re.sub(r"[^A-Za-z0-9._+-]", "_", b.get("meta", {}).get("kernel", "?")) \
            if len(boots) > 1 else ""
        n += charts(b, a.out, suffix)
    if not n:
        print(f"plot.py: {a.json}: no cells to chart", file=sys.stderr)
    for name in os.listdir(a.out):
        if name.startswith(".") and name.endswith(".dat"):
            os.remove(os.path.join(a.out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
