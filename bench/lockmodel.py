#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""lockmodel.py JSON PROFILE-LOG: from an -icount benchmark (bench/icount.sh)
print, per 1-job cell and scheduler, the instructions per I/O (guest
clock: 1 ns per instruction, so 1e9 / IOPS) with their spread and the
part above `none`; then a model of the serialized part: the share of the
profile's samples (PROFILE=1, same cells) in functions that run under
the scheduler's one global lock, times the instructions per I/O, and the
Amdahl bound it implies for N submitting CPUs,
    IOPS(N) <= N * IOPS(1) / (1 + (N - 1) * s),  s = locked / total,
against `none`, which has no global lock (N * its IOPS(1)).  A model:
it ignores cache-line transfers and lock hand-over, which only lower the
real figures, and attributes whole functions (those that take the lock
part-way are counted as locked, an upper bound).  xdeadline's requests
handed out by local_dispatch take the lock neither at insertion nor at
dispatch: its locked share is scaled by the fraction of requests that
were not (counters local_dispatched / dispatched of the same runs).
xbfq's parked requests are picked under the lock their insertion takes:
no scaling.  bfq and xbfq take their lock with interrupts off, and the
guest's profiler samples on a timer interrupt (no NMI under TCG): a
sample due inside such a section is taken where interrupts come back
on, in the unlock.  Their share of the unlock functions that re-enable
interrupts, less `none`'s share of the same functions in the same cell
(blk-mq's own sections), counts as locked too.
Variants ("xdeadline:local_dispatch=0") use their scheduler's function
lists."""
import json
import re
import statistics
import sys

# Block-core helpers that schedulers call with their lock held.
CORE = {"elv_rb_add", "elv_rb_del", "elv_rb_find", "elv_rqhash_add",
        "elv_rqhash_del", "elv_rqhash_find", "elv_rqhash_reposition",
        "elv_merge", "elv_merged_request", "elv_merge_requests",
        "elv_attempt_insert_merge", "blk_mq_sched_try_merge",
        "blk_mq_sched_try_insert_merge", "blk_attempt_req_merge",
        "attempt_merge", "bio_attempt_back_merge", "bio_attempt_front_merge",
        "blk_rq_merge_ok", "elv_rb_former_request", "elv_rb_latter_request",
        "rb_insert_color", "rb_erase", "rb_next", "rb_prev", "rb_first",
        "native_queued_spin_lock_slowpath"}
# Per scheduler: a pattern of its own functions and those that run
# without its global lock.
OWN = {
    "mq-deadline": (r"^(dd_|deadline_)",
                    {"dd_has_work", "dd_limit_depth", "dd_prepare_request",
                     "dd_finish_request", "dd_depth_updated",
                     "dd_init_hctx"}),
    "xdeadline": (r"^(xd_|xsched_)",
                  {"xd_has_work", "xd_work_queued", "xd_prepare_request",
                   "xd_finish_request", "xsched_limit_depth",
                   "xd_round_full", "xd_round_account", "xsched_ready_pop",
                   "xd_free_requests"}),
    "bfq": (r"^(bfq|__bfq)", {"bfq_has_work", "bfq_limit_depth"}),
    "xbfq": (r"^(xb_|__xb_|xsched_)",
             {"xb_has_work", "xb_work_queued", "xsched_limit_depth",
              "xsched_ready_pop", "xsched_local_pop", "xb_take_parked",
              "xsched_local_take"}),
}


def local_fraction(doc):
    """Per (cell, sched): median share of requests dispatched without
    the scheduler lock (xdeadline's local_dispatched / dispatched)."""
    out = {}
    for boot in doc["boots"]:
        for r in boot["runs"]:
            st = r.get("sched_stats") or {}
            try:
                frac = int(st["local_dispatched"]) / int(st["dispatched"])
            except (KeyError, ValueError, ZeroDivisionError):
                continue
            out.setdefault((r["cell"], r["sched"]), []).append(frac)
    return {k: statistics.median(v) for k, v in out.items()}


def ipio(doc):
    out = {}
    for boot in doc["boots"]:
        for r in boot["runs"]:
            if r["jobs"] != 1 or not r["iops"]:
                continue
            out.setdefault((r["cell"], r["sched"]), []).append(1e9 / r["iops"])
    return out


def profile(path):
    pct = {}
    for line in open(path, errors="replace"):
        m = re.search(r"BENCH-PROFILE (\S+) (\S+) (\d+) ([\d.]+) (\S+)", line)
        if m:
            cell, sched, rep, p, sym = m.groups()
            pct.setdefault((cell, sched), {}).setdefault(rep, {})[sym] = \
                float(p)
    # mean over the repeats of each symbol's share
    out = {}
    for key, reps in pct.items():
        syms = {}
        for r in reps.values():
            for s, p in r.items():
                syms[s] = syms.get(s, 0) + p / len(reps)
        out[key] = syms
    return out


# Schedulers whose lock is taken with interrupts off, and the functions
# where the samples due inside their sections land.
IRQSAFE = {"bfq", "xbfq"}
IRQ_UNLOCK = {"_raw_spin_unlock_irqrestore", "_raw_spin_unlock_irq"}
# Those whose requests handed out by local_dispatch skipped the lock.
LOCAL_LOCKLESS = {"xdeadline"}


def locked_share(sched, syms, none_syms):
    sched = sched.split(":")[0]
    if sched not in OWN:
        return None
    pat, free = OWN[sched]
    share = sum(p for s, p in syms.items()
                if (re.match(pat, s) and s not in free) or s in CORE)
    if sched in IRQSAFE:
        share += sum(max(syms.get(s, 0) - (none_syms or {}).get(s, 0), 0)
                     for s in IRQ_UNLOCK)
    return share / 100


def main():
    doc = json.load(open(sys.argv[1]))
    prof = profile(sys.argv[2]) if len(sys.argv) > 2 else {}
    kernel = doc["boots"][0]["meta"].get("kernel", "?")
    ip = ipio(doc)
    local = local_fraction(doc)
    cells = sorted({c for c, _ in ip})
    print(f"Kernel {kernel}, 1 vCPU, -icount shift=0 (1 guest ns = 1 "
          "instruction); medians of the runs, spread = (max - min) / median.")
    print()
    print("| cell | scheduler | runs | instructions/IO | spread | above none |"
          " under the lock (model) | locked share | bound N=16 | N=32 | N=64 |")
    print("|---" * 11 + "|")
    for cell in cells:
        none = statistics.median(ip[(cell, "none")]) if (cell, "none") in ip \
            else None
        for (c, sched), v in sorted(ip.items(),
                                    key=lambda kv: statistics.median(kv[1])):
            if c != cell:
                continue
            med = statistics.median(v)
            spread = (max(v) - min(v)) / med * 100
            above = f"{med - none:.0f}" if none else "-"
            syms = prof.get((cell, sched))
            share = locked_share(sched, syms, prof.get((cell, "none"))) \
                if syms else None
            if share is not None and sched.split(":")[0] in LOCAL_LOCKLESS:
                share *= 1 - local.get((cell, sched), 0)
            cols = ["-"] * 5
            if share is not None and none:
                locked = share * med
                bounds = []
                for n in (16, 32, 64):
                    # IOPS bound relative to none's N * IOPS(1)
                    sched_n = n / med / (1 + (n - 1) * share)
                    bounds.append(f"{sched_n / (n / none):.2f}x none")
                cols = [f"{locked:.0f}", f"{share * 100:.1f}%"] + bounds
            elif sched in ("none", "kyber"):
                cols = ["no global lock", "-", "-", "-", "-"]
            print(f"| {cell} | {sched} | {len(v)} | {med:.0f} | {spread:.2f}% "
                  f"| {above} | " + " | ".join(cols) + " |")


if __name__ == "__main__":
    main()
