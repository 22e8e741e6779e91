// SPDX-License-Identifier: GPL-2.0
/*
 * xbfq: a proportional-share I/O scheduler for blk-mq (BFQ class) built for
 * scalability.  Design summary (details in docs/xbfq.md, knobs in
 * man/xbfq.4):
 *
 *  - One queue per I/O context (a thread, or the tasks sharing one with
 *    CLONE_IO) and direction of synchrony, kept in the elevator's
 *    per-(I/O context, device) icq: prepare_request finds the request's
 *    queue there without a lock of ours.  The icq and each request (from
 *    prepare_request to finish_request) hold a reference to their queue;
 *    exit_icq (the task exited, or xbfq is leaving the device) drops the
 *    icq's, and the last reference frees the queue.  A queue no task can
 *    add to any more is neither idled for nor kept lingering in vsum, so
 *    it and its group go with their last request, not at the device's
 *    next one.  A per-instance fallback queue takes requests without an
 *    icq.
 *  - Weights from the I/O priority: level L of the RT or BE class weighs
 *    100 * (8 - L); IDLE queues weigh 100.  Classes are strictly ordered
 *    (RT, then BE, then IDLE, the last only after the others have been
 *    idle for idle_class_delay, or for one request once it has waited
 *    200 ms, as BFQ, but without waiting for the slot in service to end).
 *  - Within a class, queues are scheduled by budget-based WF2Q+ (its
 *    service trees in xbfq-wf2q.c): each busy queue has a virtual start S
 *    and finish F = S + budget / weight; the eligible queue (S <= V) with
 *    the smallest F is served until its budget (sectors) is used, it times
 *    out (timeout_sync) or it empties.  It is then charged the service it
 *    received (a non-raised queue that timed out is charged its whole
 *    budget) and its next budget follows from why it expired (budget
 *    feedback), within a largest budget from the device's peak rate,
 *    measured over slots that used their budget or timed out (those of
 *    20 ms or less timed together, to their requests' completion).
 *  - Device idling with an hrtimer for sync queues, where service
 *    guarantees need it (another active queue is lighter) or where it
 *    boosts throughput (a sequential queue on a rotational device, no
 *    raised queue active); at least 20 ms for raised queues.  Into idle
 *    periods kept for guarantees only, other queues' requests are
 *    injected, as far as the in-service queue's measured request service
 *    times allow.
 *  - Write control: writes may hold only part of the scheduler tags; on
 *    rotational devices no async request goes to the drive while a sync
 *    one is in it, and at most a few while sync queues are active, as
 *    the drive would serve a stream of writes before the read.
 *  - low_latency: interactive and soft real-time weight raising, never soft
 *    real-time for totally seeky queues, and burst detection (queues created
 *    in a large burst get neither raising nor idling unless other queues
 *    were active when the burst began).
 *  - cgroup v2 weights (xbfq-cgroup.c): once a cgroup below the root does
 *    I/O on the device, each cgroup is a group, scheduled in its
 *    parent's tree by the same B-WF2Q+ (xbfq-wf2q.c); a sync queue
 *    follows its process's cgroup when idle (xb_follow_group()); the
 *    device idles for an emptied queue while other groups are active.
 *  - Scalability as in xdeadline (xsched_common.h): serialize_dispatch,
 *    defer_insert (only when the lock is contended; insert merges are
 *    kept), merge_skip and dispatch_batch; and local_dispatch, which
 *    picks an insertion's requests at once if nothing else is queued and
 *    parks them on the inserting CPU, whose dispatch hands them out
 *    without the lock.
 *
 * This file is the scheduler's core: the elevator operations, the queues
 * and the icq, request selection, dispatch and completion, busy periods,
 * slots and budgets, idling and injection, weight raising, bursts, queue
 * merging, the knobs and counters, module init and exit.  The service
 * trees are in xbfq-wf2q.c, control groups in xbfq-cgroup.c, the types
 * and the helpers the files inline in xbfq.h.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/percpu.h>
#include <linux/ioprio.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/math64.h>
#include <linux/iocontext.h>
#include <linux/refcount.h>

#include "xd_compat.h"
#include "xd_hrtimer.h"
#include "schedctl_nl_kapi.h"
#include "xsched_common.h"
#include "xbfq.h"

static const char *const xb_class_name[XB_NR_CLASS] = { "rt", "be", "idle" };

static const char *const xb_exp_name[XB_NR_EXP] = {
	"budget", "timeout", "empty", "idle", "preempt",
};

static struct xb_data *xb_of(struct request_queue *q)
{
	return q->elevator->elevator_data;
}

static struct xb_queue *xb_rq_queue(struct request *rq)
{
	return rq->elv.priv[0];
}

static unsigned long xb_rq_state(struct request *rq)
{
	return (unsigned long)rq->elv.priv[1];
}

/* Set @rq's XB_RQ_* flags; its class stays. */
static void xb_rq_set_state(struct request *rq, unsigned long flags)
{
	rq->elv.priv[1] = (void *)((xb_rq_state(rq) & XB_RQ_KEEP) | flags);
}

/* The class @rq was counted in when inserted. */
static int xb_rq_cls(struct request *rq)
{
	return (xb_rq_state(rq) & XB_RQ_CLS_MASK) >> XB_RQ_CLS_SHIFT;
}

/* ---- weights and active-weight accounting --------------------------- */

static unsigned int xb_slot_weight(struct xb_data *xbd, int cls, int level,
				   int raised)
{
	return xb_base_weight(cls, level) *
	       (raised ? READ_ONCE(xbd->wr_coeff) : 1);
}

static void xb_ioprio_to_class(unsigned short ioprio, u8 *cls, u8 *level)
{
	int l = IOPRIO_PRIO_LEVEL(ioprio);

	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		*cls = XB_RT;
		break;
	case IOPRIO_CLASS_IDLE:
		*cls = XB_IDLE;
		l = XB_NR_LEVELS - 1;
		break;
	case IOPRIO_CLASS_BE:
		*cls = XB_BE;
		break;
	default:
		*cls = XB_BE;
		l = IOPRIO_BE_NORM;
		break;
	}
	*level = clamp(l, 0, XB_NR_LEVELS - 1);
}

static int xb_slot_of(struct xb_queue *xq)
{
	return (xq->cls * XB_NR_LEVELS + xq->level) * 2 + (xq->wr_coeff > 1);
}

static int xb_slot_cls(int slot)
{
	return slot / (XB_NR_LEVELS * 2);
}

/* Most of the last 32 requests far from the previous one. */
static bool xb_seeky(struct xb_queue *xq)
{
	return hweight32(xq->seek_hist) > 19;
}

/*
 * A stream: none of its last 8 position samples far from the request
 * before (4-8 MiB into a stream of 1 MiB reads), so that readers that
 * started a second before a raised queue count already.
 */
static bool xb_known_sequential(struct xb_queue *xq)
{
	return xq->seek_samples >= 8 && !(xq->seek_hist & 0xff);
}

/*
 * Count @xq in nr_active_seq while it is active and a known stream; on
 * rotational devices only, the one user (xb_raised_keeps_head()).
 */
static void xb_seq_refresh(struct xb_data *xbd, struct xb_queue *xq)
{
	bool want = xq->slot >= 0 && xq->sync && xb_known_sequential(xq);

	if (want == xq->seq_counted)
		return;
	xq->seq_counted = want;
	if (want)
		xbd->nr_active_seq++;
	else
		xbd->nr_active_seq--;
}

/*
 * For xb_raised_reserve(): @xq, raised and sync, came or went; reads keep
 * tags for it for XB_RESERVE_MS, or twice its mean think time if that is
 * longer (a periodic reader on a slow device: 320 ms apart on the debug
 * kernel's), up to XB_RESERVE_MAX_MS.  Only ever extended.
 */
static void xb_raised_reserve_extend(struct xb_data *xbd,
				     struct xb_queue *xq)
{
	u64 ms = XB_RESERVE_MS;
	unsigned long until;

	if (xq->ttime_samples >= 4)
		ms = clamp_t(u64, div_u64(2 * xq->ttime_ns, NSEC_PER_MSEC),
			     XB_RESERVE_MS, XB_RESERVE_MAX_MS);
	until = jiffies + msecs_to_jiffies(ms);
	if (time_after(until, xbd->raised_sync_until))
		WRITE_ONCE(xbd->raised_sync_until, until);
}

/*
 * A queue is active while it has requests queued or in flight; the counts
 * per (class, level, raised) tell whether the service guarantees of a queue
 * need idling.  @now: the caller's clock reading, or 0 to read it here if
 * the queue goes inactive.
 */
void xb_update_active(struct xb_data *xbd, struct xb_queue *xq, u64 now)
{
	int want = (xq->queued || xq->inflight || xq->nr_head) ?
		   xb_slot_of(xq) : -1;
	int *counts = &xbd->slot_count[0][0][0];
	u64 *left = &xbd->slot_left_ns[0][0][0];

	if (want == xq->slot)
		return;
	if (xq->slot >= 0) {
		if (!--counts[xq->slot]) {
			xbd->slot_busy_mask &= ~BIT_ULL(xq->slot);
			xbd->slot_left_mask |= BIT_ULL(xq->slot);
		}
		left[xq->slot] = now ? now : ktime_get_ns();
		xbd->nr_active--;
		xbd->nr_active_raised -= xq->slot & 1;
		if (xq->sync && xb_slot_cls(xq->slot) != XB_IDLE &&
		    !--xbd->nr_active_sync)
			xbd->sync_left_ns = left[xq->slot];
		if (unlikely(xbd->groups_on) && !--xq->grp->nr_active)
			xbd->nr_groups_active--;
	}
	if (want >= 0) {
		counts[want]++;
		xbd->slot_busy_mask |= BIT_ULL(want);
		xbd->nr_active++;
		xbd->nr_active_raised += want & 1;
		if (xq->sync && xb_slot_cls(want) != XB_IDLE)
			xbd->nr_active_sync++;
		if (unlikely(xbd->groups_on) && !xq->grp->nr_active++)
			xbd->nr_groups_active++;
	}
	xq->slot = want;
	if (xq->sync && xq->wr_coeff > 1)
		xb_raised_reserve_extend(xbd, xq);
	if (xbd->rotational)
		xb_seq_refresh(xbd, xq);
}

/*
 * Does some other active queue have a lower class or a lower weight than
 * @xq?  If not (all weights equal, or @xq the lightest), the device can be
 * left to other queues while @xq is empty without breaking its share.  A
 * queue that went inactive less than slice_idle ago still counts: it is
 * most likely between two requests.  Only slots of @xq's class and below
 * can hold one, and only those with a queue active or recently left are
 * looked at (the masks): @xq alone costs no loop and no clock read.
 */
static bool xb_others_lighter(struct xb_data *xbd, struct xb_queue *xq)
{
	unsigned int w = xb_slot_weight(xbd, xq->cls, xq->level,
					 xq->wr_coeff > 1);
	u64 mask = xbd->slot_busy_mask | xbd->slot_left_mask;
	u64 recent = 0;
	int i;

	BUILD_BUG_ON(XB_NR_CLASS * XB_NR_LEVELS * 2 > 64);
	/* Higher classes cannot be lighter; @xq's own slot is as heavy. */
	mask &= ~(BIT_ULL(xq->cls * XB_NR_LEVELS * 2) - 1);
	if (xq->slot >= 0)
		mask &= ~BIT_ULL(xq->slot);
	while (mask) {
		int c, l, r;

		i = __ffs64(mask);
		mask &= mask - 1;
		c = i / (XB_NR_LEVELS * 2);
		l = (i / 2) % XB_NR_LEVELS;
		r = i & 1;
		if (c == xq->cls && xb_slot_weight(xbd, c, l, r) >= w)
			continue;
		if (!(xbd->slot_busy_mask & BIT_ULL(i))) {
			if (!recent)
				recent = ktime_get_ns() -
					 READ_ONCE(xbd->slice_idle_ns);
			if (!xb_after(xbd->slot_left_ns[c][l][r], recent)) {
				xbd->slot_left_mask &= ~BIT_ULL(i);
				continue;
			}
		}
		return true;
	}
	return false;
}

unsigned int xb_max_budget(struct xb_data *xbd)
{
	int mb = READ_ONCE(xbd->max_budget);

	return mb ? mb : xbd->auto_max_budget;
}

static unsigned int xb_min_budget(struct xb_data *xbd)
{
	return min_t(unsigned int, XB_MIN_BUDGET, xb_max_budget(xbd));
}

/* The reference drive's rate, in BFQ's units, for this kind of device. */
static u64 xb_wr_ref_rate(struct xb_data *xbd)
{
	return xbd->rotational ? XB_WR_REF_RATE_ROT : XB_WR_REF_RATE_NONROT;
}

/*
 * How long interactive raising lasts, in ms: wr_max_time where set, or
 * with 0 (the default) BFQ's rule: a large application takes longer to
 * load on a slower device, so the time a reference drive needs
 * (XB_WR_REF_*) is scaled by its rate over this device's rate as BFQ
 * estimates it (wr_rate, xb_wr_rate_sample()), within 3-25 s.
 */
static unsigned int xb_wr_duration_ms(struct xb_data *xbd)
{
	unsigned int ms = READ_ONCE(xbd->wr_max_time_ms);
	u64 ref_ms, rate;

	if (ms)
		return ms;
	ref_ms = xbd->rotational ? XB_WR_REF_MS_ROT : XB_WR_REF_MS_NONROT;
	rate = max_t(u64, READ_ONCE(xbd->wr_rate), 1);
	return clamp_t(u64, div64_u64(xb_wr_ref_rate(xbd) * ref_ms, rate),
		       XB_WR_DUR_MIN_MS, XB_WR_DUR_MAX_MS);
}

/*
 * How long @xq may keep the device in one slot: timeout_sync, times the
 * raising factor while @xq is raised as interactive (BFQ's budget timeout
 * does the same), so that an application starting beside greedy queues
 * keeps the device through its burst of reads, not for a tenth of it and
 * then behind every greedy queue's next request.  Its small budget still
 * ends the slot of a greedy raised queue; soft real-time raising does
 * not stretch the slot.
 */
static u64 xb_timeout_ns(struct xb_data *xbd, struct xb_queue *xq)
{
	u64 t = (u64)READ_ONCE(xbd->timeout_ms) * NSEC_PER_MSEC;

	if (xq->wr_coeff > 1 && !xq->wr_softrt)
		t *= xq->wr_coeff;
	return t;
}

static bool xb_totally_seeky(struct xb_queue *xq)
{
	return xq->seek_samples >= 32 && xq->seek_hist == ~0U;
}

static sector_t xb_dist(sector_t a, sector_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * Does waiting for @xq's next request pay in throughput, whatever the
 * weights?  On a rotational device, serving another queue's region between
 * two requests of a sequential stream costs two seeks and rotational
 * waits, while waiting costs at most the think time, which
 * xb_should_idle() has bounded by the idle time.  BFQ idles there at equal
 * weights too (and also on non-rotational devices without internal
 * queueing, where no seek is saved: xbfq does not, see docs/xbfq.md).  Not
 * for a seeky queue (its next request needs a seek anyway), and not while
 * weight-raised queues are active: their latency comes before throughput.
 */
static bool xb_idling_boosts_throughput(struct xb_data *xbd,
					struct xb_queue *xq)
{
	return xbd->rotational && !xb_seeky(xq) && !xbd->nr_active_raised;
}

/* ---- busy periods and slots: raising, budgets, charging ------------------ */

/*
 * The service charged for @sectors of @xq: an async queue pays
 * XB_ASYNC_CHARGE times what it got unless it is weight-raised (BFQ's
 * async charge factor), so writeback yields to sync I/O of equal weight.
 */
static u64 xb_charge(struct xb_queue *xq, u64 sectors)
{
	if (!xq->sync && xq->wr_coeff == 1)
		return sectors * XB_ASYNC_CHARGE;
	return sectors;
}

/* Make an idle queue busy: timestamps, then its class's tree. */
static void xb_activate(struct xb_data *xbd, struct xb_queue *xq, u64 now)
{
	struct xb_class *c = xb_cls(xq);
	bool fresh = !xq->ever_busy;
	/* Nothing queued or in flight before: truly idle until now. */
	bool was_idle = xq->was_idle;
	u64 gap = was_idle ? now - max(xq->last_done_ns, xq->last_empty_ns) : 0;
	bool raised = xq->wr_coeff > 1 && xb_after(xq->wr_end_ns, now);

	/* Weight raising decisions (low_latency). */
	if (READ_ONCE(xbd->low_latency) && xq->cls == XB_BE && xq->sync &&
	    !xb_burst_unprotected(xq)) {
		if (fresh || (was_idle && xq->last_empty_ns &&
			      now - xq->last_empty_ns > XB_WR_REIDLE_NS)) {
			xq->wr_coeff = READ_ONCE(xbd->wr_coeff);
			xq->wr_softrt = false;
			xq->wr_served = 0;
			xq->wr_end_ns = now + (u64)xb_wr_duration_ms(xbd) *
					      NSEC_PER_MSEC;
			xbd->wr_interactive++;
		} else if (was_idle && !xb_totally_seeky(xq) &&
			   xq->last_busy_served <= XB_SOFTRT_MAX_BURST &&
			   xq->ttime_samples >= 8 &&
			   xq->ttime_ns >= READ_ONCE(xbd->slice_idle_ns) &&
			   !xb_after(xq->softrt_next_ns, now) &&
			   gap >= max_t(u64, READ_ONCE(xbd->slice_idle_ns),
					NSEC_PER_MSEC)) {
			/* Came back no sooner than a low-rate stream would. */
			if (xq->wr_coeff == 1 || xq->wr_softrt) {
				xq->wr_coeff = READ_ONCE(xbd->wr_coeff);
				xq->wr_softrt = true;
				xq->wr_end_ns = now + XB_WR_SOFTRT_NS;
				xbd->wr_softrt++;
			}
		}
	}
	xb_wr_update(xbd, xq, now);
	xq->softrt_update = false;
	if (was_idle) {
		/* A new backlogged period: soft real-time rate anchor. */
		xq->last_busy_served = xq->busy_served;
		xq->busy_served = 0;
		xq->busy_start_ns = now;
		xq->io_bound = false;
	}
	xq->ever_busy = true;

	xq->weight = xb_base_weight(xq->cls, xq->level) * xq->wr_coeff;
	xq->busy = true;
	if (xq->cls == XB_IDLE && !c->nr_busy)
		xbd->idle_wait_ns = now;
	c->nr_busy++;
	c->wsum += xq->weight;
	xb_vsum_enter(xbd, xq);
	if (!xq->budget)
		xq->budget = xb_max_budget(xbd);
	/*
	 * A raising period starts: a budget near the queue's backlog, not its
	 * last one or the largest (a new queue), so that its finish time and
	 * so its wait behind other raised queues stay short (BFQ: twice its
	 * minimum budget, a sixteenth of the largest).
	 */
	if (!raised && xq->wr_coeff > 1)
		xq->budget = min(xq->budget, xb_max_budget(xbd) / 16);
	xq->budget = clamp(xq->budget, xb_min_budget(xbd), xb_max_budget(xbd));
	/* Never start behind V (no credit for idleness), nor before F. */
	xq->vstart = xb_after(xq->vfinish, c->vtime) ? xq->vfinish : c->vtime;
	xq->vfinish = xq->vstart + xb_vt(xq->budget, xq->weight);
	xb_tree_add(xbd, xq);
	xb_group_queue_busy(xbd, xq->grp);
	xb_update_active(xbd, xq, now);
}

static void xb_cancel_idle(struct xb_data *xbd)
{
	if (!xbd->idling)
		return;
	xbd->idling = false;
	hrtimer_try_to_cancel(&xbd->timer);
}

/*
 * When a queue that went empty may come back and be raised as soft
 * real-time (BFQ's soft_rt_next_start): a soft real-time stream asks for
 * little bandwidth, so no sooner than its service since it became busy
 * allows at XB_SOFTRT_RATE, nor than slice_idle and four ticks from now,
 * nor than the bar it had.  Set only once nothing is queued or in flight:
 * a queue that expires with reads in flight is set at their last
 * completion (softrt_update), so that a greedy reader whose submissions
 * come in bursts is not taken for a low-rate stream.  An I/O-bound queue
 * (it used a whole budget this busy period) is barred for a second.
 */
static void xb_softrt_set_next(struct xb_data *xbd, struct xb_queue *xq,
			       u64 now)
{
	u64 next = xq->busy_start_ns +
		   div_u64(xq->busy_served * NSEC_PER_SEC, XB_SOFTRT_RATE);

	next = max(next, now + READ_ONCE(xbd->slice_idle_ns) +
			 jiffies_to_nsecs(4));
	if (xq->io_bound)
		next = max(next, now + NSEC_PER_SEC);
	if (xb_after(next, xq->softrt_next_ns))
		xq->softrt_next_ns = next;
	xq->softrt_update = false;
}

/* The estimate is now @peak; the automatic budget follows it. */
static void xb_set_peak_rate(struct xb_data *xbd, u64 peak)
{
	WRITE_ONCE(xbd->peak_rate, peak);
	xbd->auto_max_budget =
		clamp_t(u64, div_u64(peak * READ_ONCE(xbd->timeout_ms), 1000),
			2 * XB_MIN_BUDGET, XB_MAX_BUDGET_LIMIT);
}

/*
 * Peak rate from a slot of @xq that kept the device busy for @elapsed ns
 * (it used its budget or its timeout), and the automatic budget from it.
 * As BFQ's estimator, a seeky queue's slot may raise the estimate, not
 * lower it: seeks say how the workload uses the device, not how fast it
 * is.  Nor does it make the first estimate: BFQ starts from a reference
 * rate that seeky samples cannot lower, xbfq from none, and a random
 * reader's first slot (one 4 KiB read per 20 ms) set 378 sectors/s, so
 * a budget of 128 sectors for every queue, on a device that wrote 2 MiB/s
 * beside it.  Slots of 20 ms or less are timed by xb_rate_window_add()
 * instead.  Returns whether the estimate changed.
 */
static bool xb_sample_peak_rate(struct xb_data *xbd, struct xb_queue *xq,
				u64 elapsed)
{
	u64 rate, peak = xbd->peak_rate;
	bool seeky = xb_seeky(xq);

	if (xq->served < 2 * XB_MIN_BUDGET)
		return false;
	rate = div64_u64((u64)xq->served * NSEC_PER_SEC, elapsed);
	if (seeky && (!peak || rate <= peak))
		return false;
	if (rate > peak)
		peak = rate;
	else
		peak = (7 * peak + rate) / 8;
	xb_set_peak_rate(xbd, peak);
	return true;
}

/*
 * A slot of @xq that used its budget within 20 ms is no sample: its
 * requests may all sit in the driver's tags, dispatched but not served.
 * Yet a low estimate makes every slot that short once the device runs
 * some 6 times faster than it (a budget is the estimate's sectors in
 * timeout_sync), and then nothing corrected it: a 512 KiB reader that
 * read 1,105,920 sectors/s left an estimate of 135,006 made by a 4 KiB
 * reader before it.  So such slots add up in a window that closes when
 * the requests @xq dispatched until its last short slot have left the
 * drive (xb_rate_window_done(): as many as it dispatched less those in
 * flight; a requeued one counts as gone), at least 20 ms after the
 * window's first slot began: the device served the window's sectors in
 * that time, and more for other queues maybe, so the rate is a lower
 * bound of the device's.
 * It may raise the estimate, never lower it, and a seeky queue's window
 * does not make the first one.
 */
static void xb_rate_window_add(struct xb_queue *xq)
{
	if (!xq->win_start_ns) {
		xq->win_start_ns = xq->slot_start_ns;
		xq->win_sectors = 0;
	}
	xq->win_sectors += xq->served;
	xq->win_until = xq->dispatched_rqs;
}

/* A request of @xq completed at @now: does its rate window close? */
static void xb_rate_window_done(struct xb_data *xbd, struct xb_queue *xq,
				u64 now)
{
	u64 elapsed = now - xq->win_start_ns, rate, peak = xbd->peak_rate;

	if (xq->dispatched_rqs - xq->inflight < xq->win_until ||
	    elapsed <= XB_RATE_MIN_NS)
		return;
	xq->win_start_ns = 0;
	if (xq->win_sectors < 2 * XB_MIN_BUDGET || (!peak && xb_seeky(xq)))
		return;
	rate = div64_u64(xq->win_sectors * NSEC_PER_SEC, elapsed);
	if (rate > peak) {
		xb_set_peak_rate(xbd, rate);
		xbd->rate_windows++;
	}
}

/*
 * The raising time's rate (wr_rate) is BFQ's estimate of the device's
 * rate, not peak_rate.  peak_rate sizes budgets and follows the fastest
 * slot at once: one stream on a disk measures the media rate within a
 * slot or two.  The raising time scaled by that is the shortest BFQ's
 * rule gives, and an application that loads for longer loses its
 * raising where bfq, whose estimate moves slowly from two thirds of the
 * reference rate, keeps it (on simdisk's disk model, 3.7 s against
 * bfq's 10.2 s: 600 files in 5.3 s under bfq, and 11 s under xbfq in a
 * round whose slot expired).  So the raising time follows BFQ's
 * estimator: the device's aggregate rate over windows of dispatches
 * (switches and seeks included), filtered towards each window's rate
 * with a weight from a tenth to a half, more the more sequential and
 * the longer the window; a window mostly not sequential may raise the
 * estimate, not lower it.  It starts at two thirds of the reference
 * rate, as BFQ's.
 */
static void xb_wr_rate_reset(struct xb_data *xbd, struct request *rq,
			     u64 now)
{
	xbd->wrr_delta_ns = 0;
	if (!rq) {
		xbd->wrr_samples = 0;	/* a new window at the next dispatch */
		return;
	}
	xbd->wrr_first_ns = now;
	xbd->wrr_samples = 1;
	xbd->wrr_seq = 0;
	xbd->wrr_sectors = blk_rq_sectors(rq);
	xbd->wrr_max_size = blk_rq_sectors(rq);
}

/* Close the window: its rate into wr_rate if it is a sample, then reset. */
static void xb_wr_rate_update(struct xb_data *xbd, struct request *rq,
			      u64 now)
{
	u64 delta = xbd->wrr_delta_ns, est = xbd->wr_rate, rate;
	unsigned int weight, div;

	if (xbd->wrr_samples < XB_WRR_MIN_SAMPLES || delta < XB_WRR_MIN_NS)
		goto reset;
	/* Up to the last completion, where that came after the dispatches. */
	if (xb_after(xbd->wrr_last_done_ns, xbd->wrr_first_ns + delta))
		delta = xbd->wrr_last_done_ns - xbd->wrr_first_ns;
	rate = div64_u64(xbd->wrr_sectors * NSEC_PER_SEC, delta);
	if ((xbd->wrr_seq < (3 * xbd->wrr_samples) >> 2 && rate <= est) ||
	    rate > XB_WRR_MAX_RATE)
		goto reset;
	weight = 9 * xbd->wrr_seq / xbd->wrr_samples;
	weight = min_t(u64, 8, div64_u64((u64)weight * delta, XB_WRR_REF_NS));
	div = 10 - weight;
	WRITE_ONCE(xbd->wr_rate,
		   max_t(u64, 1, div_u64(est * (div - 1), div) +
				 div_u64(rate, div)));
reset:
	xb_wr_rate_reset(xbd, rq, now);
}

static bool xb_wr_rate_seeky(struct xb_data *xbd, struct request *rq)
{
	return xbd->wrr_last_pos &&
	       xb_dist(blk_rq_pos(rq), xbd->wrr_last_pos) > XB_WRR_SEEK_THR &&
	       (xbd->rotational || blk_rq_sectors(rq) < XB_WRR_SMALL_NONROT);
}

/* @rq is dispatched at @now, before it counts as in flight. */
static void xb_wr_rate_sample(struct xb_data *xbd, struct request *rq,
			      u64 now)
{
	unsigned int sectors = blk_rq_sectors(rq);

	if (!xbd->wrr_samples) {
		xb_wr_rate_reset(xbd, rq, now);
	} else if (now - xbd->wrr_last_disp_ns > XB_WRR_IDLE_NS &&
		   !xbd->inflight) {
		/* Idle for long: the window ended at its last dispatch. */
		xb_wr_rate_update(xbd, rq, now);
	} else {
		xbd->wrr_samples++;
		if ((xbd->inflight ||
		     now - xbd->wrr_last_done_ns < XB_WRR_SEQ_NS) &&
		    !xb_wr_rate_seeky(xbd, rq))
			xbd->wrr_seq++;
		xbd->wrr_sectors += sectors;
		xbd->wrr_max_size = xbd->wrr_samples % 32 ?
				    max(xbd->wrr_max_size, sectors) : sectors;
		xbd->wrr_delta_ns = now - xbd->wrr_first_ns;
		if (xbd->wrr_delta_ns >= XB_WRR_REF_NS)
			xb_wr_rate_update(xbd, rq, now);
	}
	xbd->wrr_last_pos = blk_rq_pos(rq) + sectors;
	xbd->wrr_last_disp_ns = now;
}

/*
 * A request completed at @now.  One so late that the window's largest
 * request was served at under about 1000 sectors per second ends the
 * window there: it says nothing of the device's rate.
 */
static void xb_wr_rate_done(struct xb_data *xbd, u64 now)
{
	u64 gap = now - xbd->wrr_last_done_ns;

	if (gap > XB_WRR_SEQ_NS &&
	    (u64)xbd->wrr_max_size * XB_WRR_LATE_NS_PER_SECTOR < gap)
		xb_wr_rate_update(xbd, NULL, now);
	xbd->wrr_last_done_ns = now;
}

/*
 * End the in-service slot of @xq: charge its service to its finish time,
 * feed the budget back, and requeue or deactivate it.
 */
static void xb_expire(struct xb_data *xbd, struct xb_queue *xq, int reason,
		      u64 now)
{
	unsigned int maxb = xb_max_budget(xbd), minb = xb_min_budget(xbd);
	u64 elapsed = now - xq->slot_start_ns;
	u64 charge = xb_charge(xq, xq->served);

	lockdep_assert_held(&xbd->lock);

	/*
	 * A seeky queue that could not use half its budget within the
	 * timeout is charged the whole budget: a fair share of time rather
	 * than of sectors.  Raised queues are charged what they got.
	 */
	if (reason == XB_EXP_TIMEOUT && xq->wr_coeff == 1 && xb_seeky(xq) &&
	    xq->served < xq->budget / 2)
		charge = xq->budget;
	xq->vfinish = xq->vstart + xb_vt(charge, xq->weight);

	if (reason == XB_EXP_BUDGET || reason == XB_EXP_TIMEOUT) {
		if (elapsed <= XB_RATE_MIN_NS)
			xb_rate_window_add(xq);
		else if (xb_sample_peak_rate(xbd, xq, elapsed))
			maxb = xb_max_budget(xbd);
	}

	/* Budget feedback. */
	switch (reason) {
	case XB_EXP_BUDGET:
		xq->budget = min(xq->budget * 2, maxb);
		break;
	case XB_EXP_TIMEOUT:
		xq->budget = xq->served;
		break;
	case XB_EXP_EMPTY:
	case XB_EXP_IDLE:
		xq->budget = max(xq->served, xq->budget / 2);
		break;
	default:
		break;
	}
	xq->budget = clamp(xq->budget, minb, maxb);
	xbd->expired[reason]++;
	if (reason == XB_EXP_BUDGET || reason == XB_EXP_TIMEOUT)
		xq->io_bound = true;

	xbd->in_service = NULL;
	xbd->kept = false;
	xb_cancel_idle(xbd);
	/* Its groups first: they are requeued, then maybe taken out. */
	if (unlikely(xbd->groups_on))
		xb_group_expire(xbd, xq->grp);
	if (xq->queued) {
		xb_wr_update(xbd, xq, now);
		xb_set_weight(xbd, xq);
		xq->vstart = xq->vfinish;
		xq->vfinish = xq->vstart + xb_vt(xq->budget, xq->weight);
		xb_tree_add(xbd, xq);
	} else {
		xb_deactivate(xbd, xq, now);
		xq->last_empty_ns = now;
		if (xq->inflight)
			xq->softrt_update = true;
		else
			xb_softrt_set_next(xbd, xq, now);
	}
	xb_update_active(xbd, xq, now);
	if (xq->prio_pending)
		xb_set_prio(xbd, xq, xq->new_cls, xq->new_level, now);
	xb_put_ref_locked(xbd, xq);
}

/*
 * Keeping an empty slot.  A queue in service that empties, with nothing
 * queued anywhere and no reason to idle for it (xb_should_idle()), keeps
 * its slot without a timer (xbd->kept, since its last completion at
 * kept_ns): if its own next request comes within slice_idle, of the same
 * priority and cgroup, and the slot has budget and time left, the slot
 * goes on (xb_kept_resumes()).  A process alone at queue depth 1 is then
 * served without being expired, deactivated, activated and picked again
 * at every request.  Any other insertion, and a dispatch that finds the
 * queue still empty, first ends the slot as if it had ended at that
 * completion (xb_end_kept()); nothing was dispatched meanwhile, so no
 * virtual time moved, and the queue's charge, budget feedback and times
 * are those the completion would have given it.
 */
static bool xb_may_keep(struct xb_data *xbd, struct xb_queue *xq)
{
	return !xbd->nr_queued && !xbd->groups_on && xq->cls != XB_IDLE &&
	       !xq->prio_pending && READ_ONCE(xbd->slice_idle_ns) &&
	       !xb_queue_orphaned(xbd, xq);
}

static void xb_end_kept(struct xb_data *xbd)
{
	xb_expire(xbd, xbd->in_service, XB_EXP_EMPTY, xbd->kept_ns);
}

/*
 * Does @rq, of priority class @cls and level @level, about to be inserted
 * into @xq, resume the kept slot?
 */
static bool xb_kept_resumes(struct xb_data *xbd, struct xb_queue *xq,
			    struct request *rq, u8 cls, u8 level, u64 now)
{
	struct xb_group *g;

	if (xq != xbd->in_service || xq->merged ||
	    xq->served >= xq->budget ||
	    now - xbd->kept_ns > READ_ONCE(xbd->slice_idle_ns) ||
	    now - xq->slot_start_ns > xb_timeout_ns(xbd, xq))
		return false;
	/* A request from another cgroup moves the queue (xb_follow_group()). */
	if (xbd->cg_active) {
		g = xb_rq_group(xbd, rq);
		if (g && g != xq->grp)
			return false;
	}
	return cls == xq->cls && level == xq->level;
}

/* ---- request selection within a queue -------------------------------- */

static void xb_pos_del(struct xb_data *xbd, struct xb_queue *xq);

static void xb_add_rq(struct xb_queue *xq, struct request *rq)
{
	elv_rb_add(&xq->sort, rq);
	list_add_tail(&rq->queuelist, &xq->fifo);
	xb_rq_set_state(rq, XB_RQ_QUEUED);
	xq->queued++;
}

static void xb_del_rq(struct xb_data *xbd, struct xb_queue *xq,
		      struct request *rq)
{
	struct request_queue *q = xbd->q;

	list_del_init(&rq->queuelist);
	if (!RB_EMPTY_NODE(&rq->rb_node))
		elv_rb_del(&xq->sort, rq);
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
	xb_rq_set_state(rq, 0);
	xq->queued--;
	xbd->nr_queued--;
	/* Queued requests hold references: last_busy stays valid. */
	if (!xq->queued) {
		if (xbd->last_busy == xq)
			xbd->last_busy = NULL;
		xb_pos_del(xbd, xq);
	}
}

static struct request *xb_rq_from_pos(struct xb_queue *xq, sector_t pos,
				      struct request **before)
{
	struct rb_node *node = xq->sort.rb_node;
	struct request *rq, *res = NULL, *prev = NULL;

	while (node) {
		rq = rb_entry(node, struct request, rb_node);
		if (blk_rq_pos(rq) >= pos) {
			res = rq;
			node = node->rb_left;
		} else {
			prev = rq;
			node = node->rb_right;
		}
	}
	*before = prev;
	return res;
}

static struct request *xb_queue_pick_rq(struct xb_data *xbd,
					struct xb_queue *xq)
{
	struct request *rq, *fwd, *back;
	sector_t pos = xq->next_pos;

	rq = list_first_entry(&xq->fifo, struct request, queuelist);
	if (time_is_before_eq_jiffies((unsigned long)rq->fifo_time)) {
		xbd->fifo_expired++;
		return rq;
	}
	fwd = xb_rq_from_pos(xq, pos, &back);
	if (back) {
		sector_t bdist = pos - blk_rq_pos(back);

		/* back_seek_max is in KiB: two sectors each. */
		if (bdist > (sector_t)READ_ONCE(xbd->back_seek_max) * 2)
			back = NULL;
		else if (fwd && bdist * READ_ONCE(xbd->back_seek_penalty) >=
			 blk_rq_pos(fwd) - pos)
			back = NULL;
	}
	if (back) {
		xbd->back_seeks++;
		return back;
	}
	if (fwd)
		return fwd;
	return rb_entry(rb_first(&xq->sort), struct request, rb_node);
}

/* ---- zoned devices ------------------------------------------------------ */

/*
 * Kernels whose block layer leaves the order of writes to a sequential
 * zone to the scheduler (zone write locking, before 6.10) get it from
 * here, as from mq-deadline: a write goes only while no other write to
 * its zone is in flight, and only as the lowest write of that zone
 * queued in its queue.  Later kernels plug zone writes above the
 * scheduler, which then sees one write per zone at a time.  Writes of
 * one zone from several processes are ordered only by the processes
 * themselves, as with any per-process scheduler.
 */
#ifdef XD_ZONE_WRITE_LOCK
/* Is @rq the lowest write of its zone in @xq's sort tree? */
static bool xb_zone_first_write(struct request *rq)
{
	unsigned int zone = blk_rq_zone_no(rq);
	struct rb_node *n;

	for (n = rb_prev(&rq->rb_node); n; n = rb_prev(n)) {
		struct request *prev = rb_entry(n, struct request, rb_node);

		if (blk_rq_zone_no(prev) != zone)
			return true;
		if (blk_req_needs_zone_write_lock(prev))
			return false;
	}
	return true;
}

/*
 * The request of @xq to dispatch instead of @rq, chosen by the queue's
 * own rules: @rq itself if it may go, else the first in sector order
 * that may, or NULL if none may now (a completing write of the zone
 * re-runs the queue).
 */
static struct request *xb_zone_filter(struct xb_queue *xq, struct request *rq)
{
	struct rb_node *n;

	if (!blk_req_needs_zone_write_lock(rq) ||
	    (blk_req_can_dispatch_to_zone(rq) && xb_zone_first_write(rq)))
		return rq;
	for (n = rb_first(&xq->sort); n; n = rb_next(n)) {
		rq = rb_entry(n, struct request, rb_node);
		if (!blk_req_needs_zone_write_lock(rq) ||
		    (blk_req_can_dispatch_to_zone(rq) && xb_zone_first_write(rq)))
			return rq;
	}
	return NULL;
}

/* The first at-head (requeued) request whose zone allows it, or NULL. */
static struct request *xb_head_pick(struct xb_data *xbd)
{
	struct request *rq;

	list_for_each_entry(rq, &xbd->dispatch, queuelist)
		if (blk_req_can_dispatch_to_zone(rq))
			return rq;
	return NULL;
}
#else
static struct request *xb_zone_filter(struct xb_queue *xq, struct request *rq)
{
	return rq;
}

static struct request *xb_head_pick(struct xb_data *xbd)
{
	return list_first_entry_or_null(&xbd->dispatch, struct request,
					queuelist);
}
#endif

/* Account @rq (already off every list) as dispatched from @xq. */
static struct request *xb_start(struct xb_data *xbd, struct xb_queue *xq,
				struct request *rq, unsigned long flags,
				u64 now)
{
	unsigned int sectors = blk_rq_sectors(rq);

	xb_wr_rate_sample(xbd, rq, now);
	if (!xbd->inflight)
		flags |= XB_RQ_ALONE;
	else if (xbd->inflight > xq->inflight)
		flags |= XB_RQ_SHARED;
	if (!xq->sync) {
		flags |= XB_RQ_ASYNC_IO;
		xbd->async_inflight++;
		xbd->async_waiting = false;
	}
	if (xq->cls != XB_IDLE) {
		flags |= XB_RQ_NONIDLE;
		xbd->nonidle_inflight++;
		if (xq->sync) {
			flags |= XB_RQ_SYNC_IO;
			xbd->sync_inflight++;
		}
	} else {
		xbd->idle_wait_ns = now;
	}
	xb_rq_set_state(rq, XB_RQ_DISPATCHED | flags);
	rq->fifo_time = now;		/* from now on: dispatch time, ns */
	xq->inflight++;
	xbd->inflight++;
	xbd->dispatched[xb_rq_cls(rq)]++;
	xq->dispatched_rqs++;
	xq->next_pos = blk_rq_pos(rq) + sectors;
	xq->busy_served += sectors;
#ifdef XD_ZONE_WRITE_LOCK
	blk_req_zone_write_lock(rq);
#endif
	rq->rq_flags |= RQF_STARTED;
	return rq;
}

/* @rq of @xq, dispatched with @state, left the drive or was requeued. */
static void xb_drive_done(struct xb_data *xbd, struct xb_queue *xq,
			  unsigned long state)
{
	xq->inflight--;
	xbd->inflight--;
	if (state & XB_RQ_NONIDLE)
		xbd->nonidle_inflight--;
	if (state & XB_RQ_SYNC_IO)
		xbd->sync_inflight--;
	if (state & XB_RQ_ASYNC_IO)
		xbd->async_inflight--;
}

/* Dispatch @rq from the in-service queue: charge V and the slot. */
static struct request *xb_take(struct xb_data *xbd, struct xb_queue *xq,
			       struct request *rq, u64 now)
{
	struct xb_class *c = xb_cls(xq);
	unsigned int sectors = blk_rq_sectors(rq);
	/* Sector-less requests (flush-like) still cost something. */
	u64 charge = xb_charge(xq, clamp_t(unsigned int, sectors, 1,
					   XB_MAX_BUDGET_LIMIT));

	xb_del_rq(xbd, xq, rq);
	xq->served += sectors;
	xq->wr_served += sectors;
	c->vtime += div64_u64(charge << XB_VT_SHIFT, max_t(u64, c->vsum, 1));
	xb_group_charge(xbd, xq->grp, charge, sectors);
	return xb_start(xbd, xq, rq, 0, now);
}

static u64 xb_idle_ns(struct xb_data *xbd, struct xb_queue *xq)
{
	u64 sl = READ_ONCE(xbd->slice_idle_ns);

	if (xq->wr_coeff > 1)
		sl = max_t(u64, sl, XB_WR_MIN_IDLE_NS);
	return sl;
}

/*
 * May @rq of @other go into the idle time of @xq, the in-service queue?
 * As BFQ: while @xq is weight-raised and thinks briefly between requests
 * (its latency is what the raising is for), only a raised queue may; and
 * on a non-rotational device a large request only into an empty device,
 * since the drive would serve it ahead of @xq's next, small request and
 * make that wait far longer than the injection saves.
 */
static bool xb_may_inject(struct xb_data *xbd, struct xb_queue *xq,
			  struct xb_queue *other, struct request *rq)
{
	bool short_think = xq->ttime_samples < 4 ||
			   xq->ttime_ns <= xb_idle_ns(xbd, xq);

	if (xq->wr_coeff > 1 && short_think && other->wr_coeff == 1)
		return false;
	return xbd->rotational || !xbd->inflight ||
	       blk_rq_sectors(rq) < XB_INJECT_LARGE_SECTORS;
}

/*
 * Must an async request wait before it goes to the drive?  On rotational
 * devices only.  A drive serves the commands it holds by positioning
 * time, so writes that each continue the one before are always nearer
 * than a sync read elsewhere, and the read waits until the drive ages it
 * (simdisk: 500 ms): a process reading its files one at a time beside
 * the flusher got two reads a second, whatever its share, because the
 * writes were in the drive before its read was dispatched (docs/xbfq.md,
 * "Writes in the drive").  So, as CFQ did: no async request goes to the
 * drive while a sync request of the RT or BE class is in it, and while
 * sync queues of those classes are active, or one was less than
 * slice_idle ago (a process between two requests), at most
 * XB_ASYNC_DRIVE_SYNC async requests are in the drive.  A sync read then
 * waits for a few writes, not for the drive's aging.  Nothing waits for
 * a timer: a held request waits for a sync completion or an async one,
 * and each such completion runs the queue (xb_finish_request()).  The
 * async queue keeps its slot meanwhile; its budget and timeout still end
 * it.
 */
static bool xb_async_held(struct xb_data *xbd, u64 now)
{
	if (!xbd->rotational)
		return false;
	if (xbd->sync_inflight)
		return true;
	if (xbd->async_inflight < XB_ASYNC_DRIVE_SYNC)
		return false;
	return xbd->nr_active_sync ||
	       xb_after(xbd->sync_left_ns + READ_ONCE(xbd->slice_idle_ns), now);
}

/* xb_async_held() said yes: count it once per wait. */
static void xb_async_wait(struct xb_data *xbd)
{
	if (!xbd->async_waiting)
		xbd->async_held++;
	xbd->async_waiting = true;
}

/*
 * May @other, a queue of class @c, inject into the idle time of @xq?  Its
 * request in *@rqp if so; *@refused if it had one that failed the rules.
 */
static bool xb_inject_try(struct xb_data *xbd, struct xb_queue *xq,
			  struct xb_queue *other, u64 now,
			  struct request **rqp, bool *refused)
{
	struct request *rq;

	if (!other->sync && xb_async_held(xbd, now)) {
		xb_async_wait(xbd);
		return false;
	}
	rq = xb_zone_filter(other, xb_queue_pick_rq(xbd, other));
	if (!rq)
		return false;
	if (!xb_may_inject(xbd, xq, other, rq)) {
		*refused = true;
		return false;
	}
	*rqp = rq;
	return true;
}

/*
 * The first queue of class @c owed service (S <= V), in finish time
 * order, whose next request may go into the idle time of @xq
 * (xb_inject_try()).  In another group's class (@foreign) then the
 * others, in start time order: V there advances only with that group's
 * own service, so its queues wait as pending while it is not served.
 */
static struct xb_queue *xb_inject_find(struct xb_data *xbd,
				       struct xb_queue *xq, struct xb_class *c,
				       bool foreign, u64 now,
				       struct request **rqp, bool *refused)
{
	struct xb_queue *other;
	struct rb_node *n;

	xb_update_eligible(c);
	for (n = rb_first(&c->elig); n; n = rb_next(n)) {
		other = rb_entry(n, struct xb_queue, node);
		if (xb_inject_try(xbd, xq, other, now, rqp, refused))
			return other;
	}
	for (n = foreign ? rb_first(&c->pend) : NULL; n; n = rb_next(n)) {
		other = rb_entry(n, struct xb_queue, node);
		if (xb_inject_try(xbd, xq, other, now, rqp, refused))
			return other;
	}
	return NULL;
}

/*
 * Has a group other than @xq's active queues?  Then the device waits for
 * @xq as for a lighter queue: a group's share is kept only while its
 * queues hold the device between their requests (BFQ idles whenever
 * several groups are active, too).
 */
static bool xb_other_groups_active(struct xb_data *xbd, struct xb_queue *xq)
{
	return xbd->groups_on &&
	       xbd->nr_groups_active > (xq->grp->nr_active ? 1 : 0);
}

/*
 * May a request of another group go into the idle time of @xq, the
 * queue in service, waited for while other groups are active?  Within
 * @xq's injection limit counted over the other queues' requests in
 * flight, and only into a driver tag that @xq's next request does not
 * need: beside @xq's requests in flight into any free one, into a device
 * where @xq has none in flight (an empty one too, as BFQ) only while a
 * tag stays free after it.  The injection feedback times requests from
 * their dispatch, so it sees what an injected request costs @xq in the
 * drive, but not a wait for a driver tag in the scheduler; with the
 * spare tag there is none, and on a device with one driver tag no other
 * group's request goes while @xq is waited for.
 */
static bool xb_may_inject_groups(struct xb_data *xbd, struct xb_queue *xq)
{
	unsigned int spare = xq->inflight ? 0 : 1;

	return xbd->inflight + spare < xbd->hw_depth &&
	       xbd->inflight - xq->inflight < xq->inject_limit;
}

/*
 * Nothing of @xq's own group to inject: a queue of the same class in
 * another busy group, as BFQ's injection takes any active queue.  The
 * root cgroup's own queues (top) first, then up to XB_INJECT_GROUPS of
 * the linked groups with busy queues of that class, taking turns: the
 * search starts after the group that injected last.
 */
static struct xb_queue *xb_inject_find_groups(struct xb_data *xbd,
					      struct xb_queue *xq, u64 now,
					      struct request **rqp,
					      bool *refused)
{
	struct xb_group *cand[XB_INJECT_GROUPS], *g;
	struct xb_queue *other;
	unsigned int n = 0, i, k;

	if (!xb_other_groups_active(xbd, xq))
		return NULL;
	if (xq->grp != &xbd->top && xbd->top.cls[xq->cls].nr_busy) {
		other = xb_inject_find(xbd, xq, &xbd->top.cls[xq->cls], true,
				       now, rqp, refused);
		if (other)
			return other;
	}
	list_for_each_entry(g, &xbd->groups, link) {
		if (g == xq->grp || !g->cls[xq->cls].nr_busy)
			continue;
		cand[n++] = g;
		if (n == XB_INJECT_GROUPS)
			break;
	}
	for (i = 0; i < n; i++) {
		k = (xbd->inject_turn + i) % n;
		other = xb_inject_find(xbd, xq, &cand[k]->cls[xq->cls], true,
				       now, rqp, refused);
		if (other) {
			xbd->inject_turn = k + 1;
			return other;
		}
	}
	return NULL;
}

/*
 * Inject a request of another queue of the same class into the idle time
 * of @xq: from @xq's own group within @xq's injection limit
 * (xb_inject_find()), else from another group into the driver tags @xq
 * leaves free (xb_may_inject_groups(), xb_inject_find_groups()).
 */
static struct request *xb_inject(struct xb_data *xbd, struct xb_queue *xq,
				 u64 now)
{
	struct xb_queue *other = NULL;
	struct request *rq = NULL;
	bool refused = false;
	u64 charge, vt;

	if (!READ_ONCE(xbd->injection) || READ_ONCE(xbd->strict_guarantees))
		return NULL;
	/* Another queue's request would cost the seek idling saves. */
	if (xb_idling_boosts_throughput(xbd, xq))
		return NULL;
	if (xbd->inflight < xq->inject_limit)
		other = xb_inject_find(xbd, xq, xb_cls(xq), false, now, &rq,
				       &refused);
	if (!other && unlikely(xbd->groups_on) && xb_may_inject_groups(xbd, xq))
		other = xb_inject_find_groups(xbd, xq, now, &rq, &refused);
	if (!other) {
		xbd->inject_refused += refused;
		return NULL;
	}
	xb_del_rq(xbd, other, rq);
	/* Charged to the queue that got the service: S and F move on. */
	xb_tree_del(xbd, other);
	charge = xb_charge(other, blk_rq_sectors(rq));
	vt = xb_vt(charge, other->weight);
	if (other->grp == xq->grp) {
		/* A queue of the same group: the path in service pays. */
		xb_group_charge(xbd, other->grp, charge, blk_rq_sectors(rq));
	} else {
		/* Its own groups pay, waiting in their trees or not. */
		xb_group_charge_waiting(xbd, other->grp, charge,
					blk_rq_sectors(rq));
		xbd->injected_groups++;
	}
	other->vstart += vt;
	other->vfinish += vt;
	if (other->queued) {
		xb_tree_add(xbd, other);
	} else {
		xb_deactivate(xbd, other, now);
		other->vfinish = other->vstart;
		other->last_empty_ns = now;
	}
	other->injected_rqs++;
	xbd->injected++;
	if (!xbd->inflight)
		xbd->injected_empty++;
	return xb_start(xbd, other, rq, XB_RQ_INJECTED, now);
}

static void xb_arm_timer(struct xb_data *xbd, u64 when)
{
	hrtimer_start(&xbd->timer, ns_to_ktime(when), HRTIMER_MODE_ABS);
}

/*
 * Does @xq, raised, not a stream and thinking briefly, keep a rotational
 * device against active streams (sync queues known to be sequential),
 * between its requests and through its slot (no WF2Q+ yield,
 * xb_should_yield(), nor preemption by a stream's earlier finish time,
 * xb_insert_one())?  This matters while the streams are raised as well:
 * streams no longer raised are lighter, so the device waits for @xq
 * anyway (xb_others_lighter()), and their finish times come far later
 * than @xq's.
 *
 * Moving on would put a stream's large request on the drive beside
 * @xq's, which the drive may serve first, and @xq's next request then
 * waits for a round of the streams: an application that started 1 s
 * after four sequential readers, all still raised as new queues, got
 * one read per round and took twice bfq's time; once its budget had
 * grown past the streams', it also yielded to them between its reads,
 * and was preempted by each that came back.  Its share of sectors over
 * time is unchanged: the slot still ends with its budget.
 *
 * Not where no stream is active: several new random readers, all
 * raised, each kept the device for its whole budget, up to seconds (a
 * read waited up to 2.4 s, against bfq's 0.26).
 */
static bool xb_raised_keeps_head(struct xb_data *xbd, struct xb_queue *xq)
{
	return xbd->rotational && xq->wr_coeff > 1 && xbd->nr_active_seq &&
	       !xb_known_sequential(xq) &&
	       (xq->ttime_samples < 4 || xq->ttime_ns <= xb_idle_ns(xbd, xq));
}

/*
 * Does @xq, in service, keep the device against @other, which has an
 * earlier finish time: no yield to it between @xq's requests
 * (xb_should_yield()) and no preemption by it when it becomes busy
 * (xb_insert_one())?  Where @xq is a raised queue that keeps the head
 * against streams (above); and where @xq is a sync queue for which
 * idling boosts throughput and @other a stream as well: moving the head
 * from stream to stream between requests costs two seeks each time
 * (eight sequential readers on simdisk got 0.74x bfq's throughput with
 * low_latency=0, 68 preemptions in 5 s), and BFQ does not preempt such a
 * queue for one of equal weight.  A queue that is not a stream (an
 * application's scattered reads) still takes over by its finish time:
 * one that had loaded for longer than its raising, beside four readers,
 * otherwise waited for a slot of each (30-34 s against bfq's 5.3).
 * Shares follow the finish times, slot by slot.
 */
static bool xb_keeps_head(struct xb_data *xbd, struct xb_queue *xq,
			  struct xb_queue *other)
{
	return xb_raised_keeps_head(xbd, xq) ||
	       (xq->sync && xb_idling_boosts_throughput(xbd, xq) &&
		other->sync && xb_known_sequential(other));
}

/* Must the device wait for @xq (sync, in service, empty)? */
static bool xb_should_idle(struct xb_data *xbd, struct xb_queue *xq)
{
	if (!xq->sync || !READ_ONCE(xbd->slice_idle_ns) ||
	    xq->cls == XB_IDLE || xb_queue_orphaned(xbd, xq))
		return false;
	if (READ_ONCE(xbd->strict_guarantees))
		return true;
	/*
	 * A long think time makes waiting pointless, for a raised queue too
	 * (BFQ idles for it whatever its think time): a reader of 64 KiB
	 * every 40 ms, raised, had the device wait 20 ms after each of its
	 * reads, and four greedy readers beside it read 2547-2857 times in
	 * 8 s against 4897-5023 without that wait (2 tags, 7.2; bfq
	 * 4386-4604).  A raised queue that keeps the head against streams
	 * has a short think time by definition (xb_raised_keeps_head()).
	 */
	if (xq->ttime_samples >= 4 && xq->ttime_ns > xb_idle_ns(xbd, xq))
		return false;
	if (xb_idling_boosts_throughput(xbd, xq))
		return true;
	/* Parallel workers: for their throughput only (as BFQ). */
	if (xb_burst_unprotected(xq))
		return false;
	return xb_raised_keeps_head(xbd, xq) ||
	       xb_others_lighter(xbd, xq) || xb_other_groups_active(xbd, xq);
}

/* Start waiting for @xq, the in-service queue, until @from + its idle time. */
static void xb_start_idling(struct xb_data *xbd, struct xb_queue *xq, u64 from)
{
	xbd->idling = true;
	xbd->idle_armed++;
	if (xb_idling_boosts_throughput(xbd, xq))
		xbd->idle_throughput++;
	else if (xb_raised_keeps_head(xbd, xq))
		xbd->idle_raised++;
	xbd->idle_deadline_ns = from + xb_idle_ns(xbd, xq);
	xb_arm_timer(xbd, xbd->idle_deadline_ns);
}

/* Has an RT or BE queue requests queued, or an RT or BE request in flight? */
static bool xb_nonidle_busy(struct xb_data *xbd)
{
	return xbd->top.cls[XB_RT].nr_busy || xbd->top.cls[XB_BE].nr_busy ||
	       xbd->nonidle_inflight;
}

/*
 * With groups: the group xb_group_descend() picks, then its classes in
 * strict order (no IDLE-class delay: that is kept for the root's own
 * queues while there are no groups).
 */
static struct xb_queue *xb_pick_group_queue(struct xb_data *xbd)
{
	struct xb_group *g = xb_group_descend(xbd);
	int c;

	if (!g)
		return NULL;
	for (c = XB_RT; c < XB_NR_CLASS; c++)
		if (g->cls[c].nr_busy)
			return xb_class_pick(xbd, &g->cls[c]);
	return NULL;
}

/*
 * Anti-starvation: has the IDLE class waited XB_IDLE_STARVE_NS while the
 * others kept the device?  Then one of its requests goes through.  BFQ
 * checks this only where it picks a new queue; xbfq also ends a slot in
 * progress for it (xb_pick()), since a raised queue's slot lasts up to
 * wr_coeff times timeout_sync (3.75 s by default) and a budget from the
 * peak-rate estimate as long: a random reader's slot on a slow device
 * otherwise starved an IDLE reader for seconds (1 read in 3.5 s).
 */
static bool xb_idle_class_starved(struct xb_data *xbd, u64 now)
{
	return unlikely(xbd->top.cls[XB_IDLE].nr_busy) && !xbd->groups_on &&
	       xb_nonidle_busy(xbd) &&
	       now - xbd->idle_wait_ns >= XB_IDLE_STARVE_NS;
}

static struct xb_queue *xb_pick_queue(struct xb_data *xbd, u64 now)
{
	struct xb_class *cls = xbd->top.cls, *idle = &cls[XB_IDLE];
	u64 until;
	int c;

	if (unlikely(xbd->groups_on))
		return xb_pick_group_queue(xbd);

	/* xb_pick() ends the IDLE queue's slot after that one request. */
	if (xb_idle_class_starved(xbd, now)) {
		xbd->idle_starved++;
		return xb_class_pick(xbd, idle);
	}
	for (c = XB_RT; c < XB_IDLE; c++)
		if (cls[c].nr_busy)
			return xb_class_pick(xbd, &cls[c]);
	if (!idle->nr_busy)
		return NULL;
	/* The idle class only after the others have been quiet a while. */
	if (xbd->nonidle_inflight)
		return NULL;
	until = xbd->nonidle_done_ns +
		(u64)READ_ONCE(xbd->idle_class_delay_ms) * NSEC_PER_MSEC;
	if (xb_after(until, now)) {
		xb_arm_timer(xbd, until);
		return NULL;
	}
	return xb_class_pick(xbd, idle);
}

static void xb_set_in_service(struct xb_data *xbd, struct xb_queue *xq,
			      u64 now)
{
	xbd->in_service = xq;
	xq->served = 0;
	xq->slot_start_ns = now;
	xb_get_ref(xq);
}

static struct request *xb_pick(struct xb_data *xbd)
{
	u64 now = ktime_get_ns();
	struct xb_queue *xq, *yq;
	struct request *rq;
	int guard;

	lockdep_assert_held(&xbd->lock);

	/* A kept slot that no request of its queue resumed ends. */
	if (unlikely(xbd->kept) && !xbd->in_service->queued)
		xb_end_kept(xbd);
	xb_linger_expire(xbd, now, false);
	rq = xb_head_pick(xbd);
	if (rq) {
		xq = xb_rq_queue(rq);
		list_del_init(&rq->queuelist);
		xbd->nr_queued--;
		xq->nr_head--;
		xb_start(xbd, xq, rq, 0, now);
		xb_update_active(xbd, xq, now);
		return rq;
	}

	for (guard = 0; guard < 4 * XB_NR_CLASS + 4; guard++) {
		xq = xbd->in_service;
		if (!xq) {
			xq = xb_pick_queue(xbd, now);
			if (!xq)
				return NULL;
			xb_set_in_service(xbd, xq, now);
		}
		/* The IDLE class starved: it goes next (xb_pick_queue()). */
		if (xq->cls != XB_IDLE && xb_idle_class_starved(xbd, now)) {
			xb_expire(xbd, xq, XB_EXP_PREEMPT, now);
			continue;
		}
		/* Not while it keeps the head (xb_keeps_head()). */
		yq = xb_should_yield(xbd, xq);
		if (yq && !xb_keeps_head(xbd, xq, yq)) {
			xb_expire(xbd, xq, XB_EXP_PREEMPT, now);
			continue;
		}
		if (xq->queued) {
			if (xq->served >= xq->budget) {
				xb_expire(xbd, xq, XB_EXP_BUDGET, now);
				continue;
			}
			if (now - xq->slot_start_ns > xb_timeout_ns(xbd, xq)) {
				xb_expire(xbd, xq, XB_EXP_TIMEOUT, now);
				continue;
			}
			/* Writes wait for sync I/O in the drive. */
			if (!xq->sync && xb_async_held(xbd, now)) {
				xb_async_wait(xbd);
				return NULL;
			}
			rq = xb_zone_filter(xq, xb_queue_pick_rq(xbd, xq));
			/* Zone writes in flight hold all of it back: wait. */
			if (!rq)
				return NULL;
			xb_cancel_idle(xbd);
			rq = xb_take(xbd, xq, rq, now);
			/* Let through against starvation: one request. */
			if (xq->cls == XB_IDLE && !xbd->groups_on &&
			    xb_nonidle_busy(xbd))
				xb_expire(xbd, xq, XB_EXP_PREEMPT, now);
			return rq;
		}
		/*
		 * In service and empty: wait for it, or move on.  Past its
		 * timeout too while other groups are active (as BFQ): it
		 * then expires with its next request queued and keeps its
		 * group busy, where expiring it empty would leave the group
		 * idle and its credit to the others.
		 */
		if (xb_should_idle(xbd, xq) &&
		    (now - xq->slot_start_ns <= xb_timeout_ns(xbd, xq) ||
		     xb_other_groups_active(xbd, xq))) {
			if (xq->inflight)
				return xb_inject(xbd, xq, now);
			if (!xbd->idling)
				xb_start_idling(xbd, xq,
						max(now, xq->last_done_ns));
			if (xb_after(xbd->idle_deadline_ns, now))
				return xb_inject(xbd, xq, now);
			xb_expire(xbd, xq, XB_EXP_IDLE, now);
			continue;
		}
		xb_expire(xbd, xq, XB_EXP_EMPTY, now);
	}
	WARN_ON_ONCE(1);
	return NULL;
}

/* ---- queues: creation, references, the icq ------------------------------ */

static void xb_init_queue(struct xb_data *xbd, struct xb_queue *xq,
			  pid_t pid, bool sync)
{
	xq->xbd = xbd;
	xq->pid = pid;
	xq->sync = sync;
	refcount_set(&xq->ref, 1);
	xq->sort = RB_ROOT;
	INIT_LIST_HEAD(&xq->fifo);
	INIT_LIST_HEAD(&xq->all);
	INIT_LIST_HEAD(&xq->linger);
	RB_CLEAR_NODE(&xq->node);
	RB_CLEAR_NODE(&xq->pos_node);
	xq->slot = -1;
	xq->cls = XB_BE;
	xq->level = IOPRIO_BE_NORM;
	xq->wr_coeff = 1;
	xq->inject_limit = 1;
	xq->grp = &xbd->top;
}

static void xb_coop_leave(struct xb_data *xbd, struct xb_queue *xq,
			  bool split);

/* Free @xq, whose last reference is gone; lock held. */
static void xb_free_queue(struct xb_data *xbd, struct xb_queue *xq)
{
	lockdep_assert_held(&xbd->lock);
	/* Busy, queued, in flight, lingering and hosting all hold one. */
	WARN_ON_ONCE(xq->busy || xq->queued || xq->inflight || xq->nr_head ||
		     xq->nr_coop || xq->slot >= 0 || xbd->in_service == xq ||
		     xbd->last_busy == xq);
	if (xq->merged)
		xb_coop_leave(xbd, xq, false);
	xb_pos_del(xbd, xq);
	xb_group_put(xbd, xq->grp);
	spin_lock(&xbd->qlock);
	list_del(&xq->all);
	xbd->nr_queues--;
	xbd->queues_freed++;
	spin_unlock(&xbd->qlock);
	kfree(xq);
}

void xb_put_ref_locked(struct xb_data *xbd, struct xb_queue *xq)
{
	lockdep_assert_held(&xbd->lock);
	if (refcount_dec_and_test(&xq->ref))
		xb_free_queue(xbd, xq);
}

/* Without lock: only the last reference takes it, to free the queue. */
static void xb_put_ref(struct xb_data *xbd, struct xb_queue *xq)
{
	unsigned long flags;

	if (refcount_dec_and_lock_irqsave(&xq->ref, &xbd->lock, &flags)) {
		xb_free_queue(xbd, xq);
		spin_unlock_irqrestore(&xbd->lock, flags);
	}
}

static struct xb_icq *xb_icq(struct io_cq *icq)
{
	return container_of(icq, struct xb_icq, icq);
}

#ifdef XD_ICQ
/*
 * io_uring's io-wq workers do I/O for their process.  They share its I/O
 * context (CLONE_IO) only if it had one when they were created, which it
 * has not if the process never submitted to a block device itself: 6.1
 * and later punt a direct write that would block (or be split) to a
 * worker before it is ever tried inline.  Each worker would then look
 * like a new process of its own, weight raised and in bursts.  So the
 * workers and the main thread of a process have one "process queue" for
 * each direction, found by tgid and the main thread's start time when
 * one of them creates its icq's queue.  Other threads keep their own.
 */
static bool xb_proc_task(void)
{
	return (current->flags & PF_IO_WORKER) || thread_group_leader(current);
}

/*
 * The burst now under way became large: its members created so far (the
 * last queues on the list, of this burst's id) join it, as in BFQ, which
 * marks its whole burst list.  Their raising ends at their next
 * timestamping (xb_wr_update()).  qlock held; read under the scheduler
 * lock, hence WRITE_ONCE.
 */
static void xb_mark_large_burst(struct xb_data *xbd)
{
	struct xb_queue *pq;

	lockdep_assert_held(&xbd->qlock);
	xbd->bursts_large++;
	list_for_each_entry_reverse(pq, &xbd->queues, all) {
		if (pq->burst_id != xbd->burst_id)
			break;
		WRITE_ONCE(pq->large_burst, true);
	}
}

/*
 * The queue for @sync requests of the I/O context of @xic, created at its
 * first such request; NULL if that allocation fails.  Without a lock of
 * ours unless it has to be created: the tasks sharing one I/O context
 * (CLONE_IO) may race to create it, qlock decides.
 */
static struct xb_queue *xb_icq_queue(struct xb_data *xbd, struct xb_icq *xic,
				     bool sync)
{
	struct xb_queue *xq = READ_ONCE(xic->xq[sync]), *pq;
	unsigned long flags;
	u64 now;

	if (likely(xq))
		return xq;
	xq = kzalloc_node(sizeof(*xq), GFP_NOWAIT | __GFP_NOWARN, xbd->q->node);
	if (!xq)
		return NULL;
	xb_init_queue(xbd, xq, current->pid, sync);
	if (xb_proc_task()) {
		xq->proc = true;
		xq->pid = current->tgid;
		xq->proc_start = current->group_leader->start_time;
	}
	now = ktime_get_ns();

	spin_lock_irqsave(&xbd->qlock, flags);
	pq = xic->xq[sync];
	if (pq) {
		/* Another task of this I/O context was first. */
		spin_unlock_irqrestore(&xbd->qlock, flags);
		kfree(xq);
		return pq;
	}
	if (xq->proc) {
		/* Join the process queue, if its main thread or a worker made one. */
		list_for_each_entry(pq, &xbd->queues, all) {
			if (pq->proc && pq->sync == sync &&
			    pq->pid == xq->pid &&
			    pq->proc_start == xq->proc_start &&
			    refcount_inc_not_zero(&pq->ref)) {
				atomic_inc(&pq->nr_icq);
				/* The new reference is this icq's; publish. */
				smp_store_release(&xic->xq[sync], pq);
				spin_unlock_irqrestore(&xbd->qlock, flags);
				kfree(xq);
				return pq;
			}
		}
	}
	/* Burst detection on queue creation. */
	if (now - xbd->last_create_ns < XB_BURST_INTERVAL_NS) {
		xbd->burst_size++;
	} else {
		xbd->burst_size = 1;
		xbd->burst_id++;
		xbd->burst_protected = READ_ONCE(xbd->nr_active) > 0;
	}
	xbd->last_create_ns = now;
	xq->burst_id = xbd->burst_id;
	xq->burst_protected = xbd->burst_protected;
	xq->large_burst = xbd->burst_size >= XB_LARGE_BURST;
	if (xbd->burst_size == XB_LARGE_BURST)
		xb_mark_large_burst(xbd);
	atomic_set(&xq->nr_icq, 1);
	list_add_tail(&xq->all, &xbd->queues);
	xbd->nr_queues++;
	xbd->queues_created++;
	/* Its reference (set by xb_init_queue()) is the icq's; publish. */
	smp_store_release(&xic->xq[sync], xq);
	spin_unlock_irqrestore(&xbd->qlock, flags);
	return xq;
}

/*
 * The submitting task's icq for @q, with a reference on its I/O context
 * (dropped in xb_finish_request()), or NULL: in interrupt context (no
 * task to charge), if the block layer could not allocate one, or for an
 * icq already exited (nothing would free a queue created now).
 */
static struct io_cq *xb_get_icq(struct request_queue *q)
{
	struct io_cq *icq;

	if (in_interrupt())
		return NULL;
	icq = ioc_find_get_icq(q);
	if (icq && unlikely(READ_ONCE(icq->flags) & ICQ_EXITED)) {
		put_io_context(icq->ioc);
		return NULL;
	}
	return icq;
}

/*
 * The submitting task's icq for @q, if it has one yet, to merge a bio;
 * no reference (the task keeps its I/O context while it submits).
 * ioc_lookup_icq() wants the device's queue_lock held until 6.18 (since
 * then it is RCU only, but no type changed to tell): taken on every
 * kernel, before ours, never under it.
 */
static struct xb_icq *xb_current_icq(struct request_queue *q)
{
	struct io_cq *icq;
	unsigned long flags;

	if (!current->io_context || in_interrupt())
		return NULL;
	spin_lock_irqsave(&q->queue_lock, flags);
	icq = ioc_lookup_icq(q);
	spin_unlock_irqrestore(&q->queue_lock, flags);
	return icq ? xb_icq(icq) : NULL;
}

/*
 * @xq lost its last task (the caller holds a reference): if it lingers
 * in vsum, it leaves now; if it is in service with nothing queued or in
 * flight, the device stops waiting for it.  Nothing else would: both are
 * undone only at the next dispatch (the idle timer runs the hardware
 * queues, which do not look at an empty scheduler), so the queue, and
 * with it its group, would live on until the device's next request.
 * True if other queues wait for the device.
 */
bool xb_release_orphan(struct xb_data *xbd, struct xb_queue *xq)
{
	lockdep_assert_held(&xbd->lock);
	if (!xb_queue_orphaned(xbd, xq))
		return false;
	if (!xq->busy) {
		/* Its share lingering in vsum is nobody's now. */
		xb_vsum_leave(xbd, xq);
		return false;
	}
	if (xbd->in_service != xq || xq->queued || xq->nr_head ||
	    xq->inflight)
		return false;
	xb_expire(xbd, xq, XB_EXP_EMPTY, ktime_get_ns());
	if (!xbd->nr_queued)
		return false;
	xbd->orphan_kicks++;
	return true;
}

/*
 * The last task using the icq's I/O context exited, or xbfq leaves the
 * device (ioc_clear_queue() before exit_sched): the icq lets go of its
 * queues.  Called with the I/O context's lock (and maybe the device's
 * queue_lock) held and interrupts off; no task can submit through the
 * icq any more.  Requests still queued or in flight keep their queue.
 */
static void xb_exit_icq(struct io_cq *icq)
{
	struct xb_icq *xic = xb_icq(icq);
	struct request_queue *kick_q = icq->q;
	bool kick = false;
	int sync;

	for (sync = 0; sync < 2; sync++) {
		struct xb_queue *xq = xic->xq[sync];
		struct xb_data *xbd;
		unsigned long flags;

		if (!xq)
			continue;
		xbd = xq->xbd;
		spin_lock_irqsave(&xbd->lock, flags);
		WRITE_ONCE(xic->xq[sync], NULL);
		/* Its process is gone: it shares nobody's queue any more. */
		if (atomic_dec_and_test(&xq->nr_icq) && xq->merged)
			xb_coop_leave(xbd, xq, false);
		kick = xb_release_orphan(xbd, xq) || kick;
		xb_put_ref_locked(xbd, xq);
		spin_unlock_irqrestore(&xbd->lock, flags);
	}
	if (kick)
		xb_run_queues_unlocked(kick_q);	/* under ioc->lock */
}
#else
/* Without CONFIG_BLK_ICQ there are no icqs: one queue, the fallback. */
static struct io_cq *xb_get_icq(struct request_queue *q)
{
	return NULL;
}

static struct xb_icq *xb_current_icq(struct request_queue *q)
{
	return NULL;
}

static struct xb_queue *xb_icq_queue(struct xb_data *xbd, struct xb_icq *xic,
				     bool sync)
{
	return NULL;
}
#endif /* XD_ICQ */

/* ---- queue merging ------------------------------------------------------ */

/*
 * Processes that read or write interleaved parts of one region (threads
 * of a dump or a database scan each taking every Nth chunk) look almost
 * sequential one by one, yet served one slot at a time the disk skips
 * over the others' chunks and pays a rotation or a seek each time.  When a
 * new request of one sync queue lands next to where the in-service queue
 * is working (or the queue last inserted into, for processes that start
 * together, before either is served), its process is merged into that
 * queue: its later requests go there, one stream sorted by sector,
 * merging with the host's.  The request that found the host moves there
 * too.
 *
 * Merging gives up the merged processes' separate shares, so it needs
 * equal weights and raising, and a device where the order matters:
 * rotational, or without internal queueing (a device that reorders among
 * many queued commands gains nothing).  A shared queue whose stream turns
 * seeky (the processes went apart) is split: each guest goes back to its
 * own queue at its next request.
 */
static bool xb_merging_on(struct xb_data *xbd)
{
	return READ_ONCE(xbd->queue_merging) &&
	       (xbd->rotational || !xbd->internal_queueing);
}

/* xq stops sending to its host (split: the host turned seeky); lock held. */
static void xb_coop_leave(struct xb_data *xbd, struct xb_queue *xq,
			  bool split)
{
	struct xb_queue *host = xq->merged;

	lockdep_assert_held(&xbd->lock);
	xq->merged = NULL;
	host->nr_coop--;
	if (split)
		xbd->queues_split++;
	xb_put_ref_locked(xbd, host);
}

static bool xb_near(sector_t a, sector_t b)
{
	return xb_dist(a, b) <= XB_COOP_DIST;
}

/*
 * Can xq's process, with a request at pos, join host?  Raising must match,
 * but a queue that was never busy has not been raised yet: it takes the
 * host's state (the usual case: two processes started together).  The
 * host's head position counts only once it dispatched something: before,
 * it is 0, and a process starting at sector 0 would join any host.
 */
static bool xb_coop_match(struct xb_data *xbd, struct xb_queue *xq,
			  struct xb_queue *host, sector_t pos)
{
	return host && host != xq && host->sync && host != &xbd->fallback &&
	       host->grp == xq->grp &&
	       host->cls != XB_IDLE && host->cls == xq->cls &&
	       host->level == xq->level &&
	       (host->wr_coeff == xq->wr_coeff || !xq->ever_busy) &&
	       (xb_near(pos, host->last_end) ||
		(host->dispatched_rqs && xb_near(pos, host->next_pos)));
}

/*
 * The position tree: the queues that could host (sync, requests queued,
 * not a guest), by where their last request ended, so that a process
 * finds a partner by position among all of them, not only among the
 * queue in service and the one last inserted into (BFQ's pos tree).
 * Kept only while merging is on; lock held throughout.
 */
static void xb_pos_del(struct xb_data *xbd, struct xb_queue *xq)
{
	if (RB_EMPTY_NODE(&xq->pos_node))
		return;
	rb_erase(&xq->pos_node, &xbd->pos_tree);
	RB_CLEAR_NODE(&xq->pos_node);
}

static void xb_pos_update(struct xb_data *xbd, struct xb_queue *xq)
{
	struct rb_node **p = &xbd->pos_tree.rb_node, *parent = NULL;

	if (!xq->queued || !xq->sync || xq->merged || xq == &xbd->fallback ||
	    !xb_merging_on(xbd)) {
		xb_pos_del(xbd, xq);
		return;
	}
	if (!RB_EMPTY_NODE(&xq->pos_node)) {
		if (xq->pos_key == xq->last_end)
			return;
		rb_erase(&xq->pos_node, &xbd->pos_tree);
	}
	xq->pos_key = xq->last_end;
	while (*p) {
		parent = *p;
		if (xq->pos_key < rb_entry(parent, struct xb_queue,
					   pos_node)->pos_key)
			p = &parent->rb_left;
		else
			p = &parent->rb_right;
	}
	rb_link_node(&xq->pos_node, parent, p);
	rb_insert_color(&xq->pos_node, &xbd->pos_tree);
}

/* Of the queues placed nearest @pos below and above, one @xq may join. */
static struct xb_queue *xb_pos_lookup(struct xb_data *xbd,
				      struct xb_queue *xq, sector_t pos)
{
	struct rb_node *n = xbd->pos_tree.rb_node, *lo = NULL, *hi = NULL;
	struct xb_queue *h;

	while (n) {
		h = rb_entry(n, struct xb_queue, pos_node);
		if (h->pos_key <= pos) {
			lo = n;
			n = n->rb_right;
		} else {
			hi = n;
			n = n->rb_left;
		}
	}
	/* @xq itself may be placed there: look past it. */
	if (lo && rb_entry(lo, struct xb_queue, pos_node) == xq)
		lo = rb_prev(lo);
	if (hi && rb_entry(hi, struct xb_queue, pos_node) == xq)
		hi = rb_next(hi);
	if (lo) {
		h = rb_entry(lo, struct xb_queue, pos_node);
		if (xb_coop_match(xbd, xq, h, pos))
			return h;
	}
	if (hi) {
		h = rb_entry(hi, struct xb_queue, pos_node);
		if (xb_coop_match(xbd, xq, h, pos))
			return h;
	}
	return NULL;
}

/* Move @rq, of @xq, and its reference to @host; lock held. */
static struct xb_queue *xb_coop_move(struct xb_data *xbd, struct xb_queue *xq,
				     struct xb_queue *host, struct request *rq)
{
	xb_get_ref(host);
	rq->elv.priv[0] = host;
	/* The last reference if the process has exited: xq goes. */
	xb_put_ref_locked(xbd, xq);
	return host;
}

/*
 * Where a new request rq of xq should queue; lock held.  A merged
 * process sends it to its host, unless the host was marked for a split
 * or the process's priority no longer matches the host's: then it goes
 * back to its own queue.  Otherwise a sync request may find a host.
 */
static struct xb_queue *xb_coop_redirect(struct xb_data *xbd,
					 struct xb_queue *xq,
					 struct request *rq)
{
	sector_t pos = blk_rq_pos(rq);
	struct xb_queue *host = xq->merged;
	bool by_pos = false;

	lockdep_assert_held(&xbd->lock);
	if (host) {
		if (!host->coop_split && host->cls == xq->cls &&
		    host->level == xq->level)
			return xb_coop_move(xbd, xq, host, rq);
		xb_coop_leave(xbd, xq, host->coop_split);
	}
	if (!xq->sync || xq == &xbd->fallback || !xb_merging_on(xbd))
		return xq;
	host = xbd->in_service;
	if (!xb_coop_match(xbd, xq, host, pos)) {
		host = xbd->last_busy;
		if (!xb_coop_match(xbd, xq, host, pos)) {
			host = xb_pos_lookup(xbd, xq, pos);
			if (!host)
				return xq;
			by_pos = true;
		}
	}
	/* One level: a host is no guest, a guest hosts no one. */
	if (xq->nr_coop || host->merged || (host->nr_coop && host->coop_split))
		return xq;
	xq->merged = host;
	xb_pos_del(xbd, xq);
	xb_get_ref(host);
	if (!host->nr_coop++) {
		host->coop_split = false;
		host->coop_samples = 0;
	}
	xbd->queues_merged++;
	xbd->queues_merged_by_pos += by_pos;
	return xb_coop_move(xbd, xq, host, rq);
}

/* Judge a shared queue's stream once it has enough samples; lock held. */
static void xb_coop_judge(struct xb_queue *xq)
{
	if (!xq->nr_coop || xq->coop_split)
		return;
	if (xq->coop_samples < XB_COOP_SAMPLES)
		xq->coop_samples++;
	else if (xb_seeky(xq))
		xq->coop_split = true;
}

/* ---- groups' tag limits --------------------------------------------------- */

/*
 * Tasks that wait for scheduler tags get them in turn, whatever their
 * cgroups' weights: two cgroups' writers that each hold a few requests
 * and wait for more (a writeback flood, with more requests ready than
 * tags) then get equal numbers of tags, the scheduler finds at most a
 * few of each group's requests queued at a time, and the device's time
 * goes 1:1 whatever order it serves them in.  As BFQ
 * (bfqq_request_over_limit()), a group that holds its weight's share of
 * the tags a request may take, or more, allocates with a smaller depth,
 * so the tags go to the others (xb_limit_depth()).
 *
 * held counts, per group and its ancestors below the root, the requests
 * inserted and not completed while the group layer is on (a request
 * holds its tag from before insertion: those waiting in a plug are not
 * seen yet), and hwsum and hcount, per parent, the weights and the
 * number of the children that hold any: the tags are shared among the
 * groups that hold tags.  Not among the busy ones, as BFQ: a group whose
 * writer waits for a tag has nothing queued, is not busy, and would
 * leave the others no limit (seen: 0.79:1 at weights 4:1).  Under
 * xbd->lock; read locklessly.
 */
static void xb_group_hold(struct xb_data *xbd, struct xb_group *g, int n)
{
	for (; g && g != &xbd->root; g = g->parent) {
		unsigned int held = g->held + n;
		struct xb_group *p = g->parent;

		if (!held != !g->held) {
			WRITE_ONCE(p->hwsum, held ? p->hwsum + g->weight :
						    p->hwsum - g->weight);
			WRITE_ONCE(p->hcount, held ? p->hcount + 1 :
						     p->hcount - 1);
		}
		WRITE_ONCE(g->held, held);
	}
}

/* @rq, inserted into @xq, counts in @xq's group's held until it ends. */
static void xb_rq_hold(struct xb_data *xbd, struct xb_queue *xq,
		       struct request *rq)
{
	xq->held++;
	xb_group_hold(xbd, xq->grp, 1);
	rq->elv.priv[1] = (void *)(xb_rq_state(rq) | XB_RQ_HELD);
}

static void xb_rq_unhold(struct xb_data *xbd, struct xb_queue *xq,
			 struct request *rq)
{
	if (!(xb_rq_state(rq) & XB_RQ_HELD))
		return;
	xq->held--;
	xb_group_hold(xbd, xq->grp, -1);
	rq->elv.priv[1] = (void *)(xb_rq_state(rq) & ~XB_RQ_HELD);
}

/* ---- insertion ---------------------------------------------------------- */

/*
 * May @xq change groups now?  Only while nothing of it is queued, in
 * flight, in service or busy in a tree, and no guest sends its requests
 * here: its counts and times all belong to its group.
 */
static bool xb_queue_may_move(struct xb_data *xbd, struct xb_queue *xq)
{
	return xq->slot < 0 && !xq->busy && xbd->in_service != xq &&
	       !xq->nr_coop;
}

/*
 * A sync queue follows its process into the group of the cgroup its new
 * request comes from, at the first moment it is idle (async queues stay
 * in xbd->top: docs/xbfq.md).
 */
static void xb_follow_group(struct xb_data *xbd, struct xb_queue *xq,
			    struct request *rq)
{
	struct xb_group *g;

	if (!xq->sync || xq == &xbd->fallback || !xb_queue_may_move(xbd, xq))
		return;
	g = xb_rq_group(xbd, rq);
	if (!g || g == xq->grp)
		return;
	xb_vsum_leave(xbd, xq);		/* the request holds a reference */
	xb_group_hold(xbd, xq->grp, -(int)xq->held);
	xb_group_put(xbd, xq->grp);
	g->ref++;
	xq->grp = g;
	xb_group_hold(xbd, g, xq->held);
	/* Its old times mean nothing in the new group's trees. */
	xq->vfinish = xb_cls(xq)->vtime;
	if (xq->ever_busy)
		xbd->group_moves++;
}

/*
 * The queue of @g's buffered writes of priority class @cls, level @level,
 * created at its first; NULL without memory.  Lock held (qlock nests
 * inside).
 */
static struct xb_queue *xb_group_async(struct xb_data *xbd,
				       struct xb_group *g, u8 cls, u8 level)
{
	struct xb_queue *aq = g->async[cls][level];

	if (aq)
		return aq;
	aq = kzalloc_node(sizeof(*aq), GFP_NOWAIT | __GFP_NOWARN, xbd->q->node);
	if (!aq)
		return NULL;
	xb_init_queue(xbd, aq, 0, false);
	aq->grp_async = true;
	aq->grp = g;
	g->ref++;
	spin_lock(&xbd->qlock);
	list_add_tail(&aq->all, &xbd->queues);
	xbd->nr_queues++;
	xbd->queues_created++;
	spin_unlock(&xbd->qlock);
	/* Its reference (set by xb_init_queue()) is the group's, and so
	 * is the right to add requests (nr_icq), until the group goes.
	 */
	atomic_set(&aq->nr_icq, 1);
	g->async[cls][level] = aq;
	return aq;
}

/*
 * An async request (writeback) is charged to the cgroup that dirtied its
 * pages: its bio carries that cgroup, and the request moves from its
 * task's async queue (the flusher's, in xbd->top) to that cgroup's
 * group's queue of the request's priority, as BFQ's per-group async
 * queues.  Requests of the root cgroup, or without one, stay.
 */
static struct xb_queue *xb_async_redirect(struct xb_data *xbd,
					  struct xb_queue *xq,
					  struct request *rq)
{
	struct xb_group *g;
	struct xb_queue *aq;
	u8 cls, level;

	if (op_is_sync(rq->cmd_flags))
		return xq;
	g = xb_rq_group(xbd, rq);
	if (!g || g == &xbd->top || g == xq->grp)
		return xq;
	xb_ioprio_to_class(req_get_ioprio(rq), &cls, &level);
	aq = xb_group_async(xbd, g, cls, level);
	if (!aq)
		return xq;
	xb_get_ref(aq);
	rq->elv.priv[0] = aq;
	/* The last reference if the task has exited: xq goes. */
	xb_put_ref_locked(xbd, xq);
	return aq;
}

static void xb_insert_one(struct xb_data *xbd, struct request *rq,
			  xd_insert_t flags, unsigned long arrival,
			  struct list_head *free, u64 now)
{
	struct request_queue *q = xbd->q;
	struct xb_queue *xq = xb_rq_queue(rq);
	struct xb_queue *iq, *moved = NULL;
	unsigned long state = xb_rq_state(rq);
	u8 cls, level;

	lockdep_assert_held(&xbd->lock);

	xb_ioprio_to_class(req_get_ioprio(rq), &cls, &level);
	if (unlikely(xbd->kept)) {
		if (xb_kept_resumes(xbd, xq, rq, cls, level, now)) {
			xbd->kept = false;
			xbd->slots_resumed++;
		} else {
			xb_end_kept(xbd);
		}
	}

	/* A requeued request gives back what its dispatch took. */
	if (state & XB_RQ_DISPATCHED) {
		xb_drive_done(xbd, xq, state);
		xbd->requeued++;
#ifdef XD_ZONE_WRITE_LOCK
		blk_req_zone_write_unlock(rq);
#endif
	}
	xb_rq_set_state(rq, 0);
	if (!(state & XB_RQ_DISPATCHED) && xbd->cg_active) {
		xb_follow_group(xbd, xq, rq);
		xq = xb_async_redirect(xbd, xq, rq);
	}

	/*
	 * The I/O priority may change between requests (ionice): the queue
	 * follows its latest request's at once, busy or not (the one in
	 * service at the end of its slot).  The shared fallback queue
	 * changes only while idle.
	 */
	if (cls == xq->cls && level == xq->level) {
		xq->prio_pending = false;
	} else if (xq != &xbd->fallback || (!xq->busy && xq->slot < 0)) {
		xb_set_prio(xbd, xq, cls, level, now);
		if (xq->busy && xq != xbd->in_service)
			moved = xq;
	}
	if (!(state & XB_RQ_DISPATCHED) && !XD_INSERT_AT_HEAD(flags))
		xq = xb_coop_redirect(xbd, xq, rq);

	/*
	 * Counted once, merged at insertion or not, in the class of the
	 * queue it joins; requeues are not new.
	 */
	if (!(state & XB_RQ_DISPATCHED)) {
		xbd->inserted[xq->cls]++;
		rq->elv.priv[1] = (void *)((unsigned long)xq->cls <<
					   XB_RQ_CLS_SHIFT);
	}
	/* Only queued requests are in the merge hash (and last_merge). */
	if (xbd->nr_queued && blk_mq_sched_try_insert_merge(q, rq, free)) {
		xbd->insert_merged++;
		xb_update_active(xbd, xq, now);
		return;
	}
	xbd->nr_queued++;
	if (xbd->groups_on && !(state & XB_RQ_HELD))
		xb_rq_hold(xbd, xq, rq);

	if (XD_INSERT_AT_HEAD(flags)) {
		list_add(&rq->queuelist, &xbd->dispatch);
		xq->nr_head++;
		xb_update_active(xbd, xq, now);
		return;
	}

	/* Think time, from what the queue submits. */
	if (!xq->queued && !xq->inflight && xq->last_done_ns) {
		u64 tt = now - xq->last_done_ns;

		tt = min_t(u64, tt, 2 * NSEC_PER_SEC);
		xq->ttime_ns = xq->ttime_samples ?
			       (7 * xq->ttime_ns + tt) / 8 : tt;
		if (xq->ttime_samples < 64)
			xq->ttime_samples++;
	}
	/*
	 * A request that goes on exactly where the last one ended, within
	 * XB_SEEK_DIST of the last seek, is most likely a piece of the I/O
	 * that seeked (the block layer splits at max_sectors_kb: 7.x splits
	 * a 1 MiB read in two): no sample, or random 1 MiB reads would look
	 * half sequential.
	 */
	{
		sector_t pos = blk_rq_pos(rq);
		bool far = xb_dist(pos, xq->last_end) > XB_SEEK_DIST;

		if (far || pos != xq->last_end ||
		    xb_dist(pos, xq->seek_pos) >= XB_SEEK_DIST) {
			xq->seek_hist = (xq->seek_hist << 1) | far;
			if (xq->seek_samples < 32)
				xq->seek_samples++;
			if (far)
				xq->seek_pos = pos;
		}
		xq->last_end = pos + blk_rq_sectors(rq);
		xb_coop_judge(xq);
		if (xbd->rotational)
			xb_seq_refresh(xbd, xq);
	}

	xq->was_idle = xq->slot < 0;
	xb_add_rq(xq, rq);
	xb_pos_update(xbd, xq);
	xbd->last_busy = xq;
	if (xd_rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
	rq->fifo_time = arrival +
		msecs_to_jiffies(READ_ONCE(xbd->fifo_expire[xq->sync]));
	xb_update_active(xbd, xq, now);

	iq = xbd->in_service;
	if (xq->busy) {
		/* Moved up to a higher class than the one served: preempt. */
		if (xq == moved && iq && xq->cls < iq->cls &&
		    xq->grp == iq->grp)
			xb_expire(xbd, iq, XB_EXP_PREEMPT, now);
		return;
	}
	if (iq == xq) {
		/* It was idling for this: serve it at the next dispatch. */
		xb_cancel_idle(xbd);
		return;
	}
	xb_activate(xbd, xq, now);

	/*
	 * Preemption: a higher class, or a raised queue while a non-raised
	 * one is served, need not wait for the end of the slot; nor need an
	 * eligible queue with an earlier finish time (WF2Q+ order); the
	 * preempted queue is charged only what it received and, if empty,
	 * keeps its weight in vsum for a while (see xb_vsum_enter()).  Only
	 * within a group: groups wait for the end of the slot; nor by finish
	 * time while the served queue keeps the head (xb_keeps_head()).
	 */
	if (iq && iq->grp == xq->grp && (xq->cls < iq->cls ||
		   (xq->cls == iq->cls && xq->tree == XB_TREE_ELIG &&
		    (xq->wr_coeff > iq->wr_coeff ||
		     (xb_after(iq->vfinish, xq->vfinish) &&
		      !xb_keeps_head(xbd, iq, xq))))))
		xb_expire(xbd, iq, XB_EXP_PREEMPT, now);
}

/*
 * Insert @list, whose requests arrived at @arrival (jiffies), or, if
 * @deferred, each at the time it carries in fifo_time.
 */
static void xb_insert_list(struct xb_data *xbd, struct list_head *list,
			   xd_insert_t flags, struct list_head *free, u64 now,
			   bool deferred, unsigned long arrival)
{
	while (!list_empty(list)) {
		struct request *rq = list_first_entry(list, struct request,
						      queuelist);

		list_del_init(&rq->queuelist);
		xb_insert_one(xbd, rq, flags,
			      deferred ? (unsigned long)rq->fifo_time : arrival,
			      free, now);
	}
}

/*
 * Sort deferred insertions in; returns true if there were any.  @now may
 * be 0 (the caller has not read the clock): read only if there are.
 */
static bool xb_drain_deferred(struct xb_data *xbd, struct list_head *free,
			      u64 now)
{
	LIST_HEAD(head);
	LIST_HEAD(tail);

	if (!xsched_defer_take(&xbd->core, &head, &tail))
		return false;
	if (!now)
		now = ktime_get_ns();
	xb_insert_list(xbd, &head, XD_INSERT_FLAGS_HEAD, free, now, true, 0);
	xb_insert_list(xbd, &tail, XD_INSERT_FLAGS_TAIL, free, now, true, 0);
	return true;
}

/*
 * local_dispatch: an insertion that finds nothing queued here (what is
 * ready or parked is picked already) has nothing to be ordered against,
 * and the dispatch blk-mq runs next on this CPU would pick its requests.
 * Pick them now, under the lock the insertion holds, with the full
 * accounting of a dispatch (slot, budget, V, idling), and park them on
 * this CPU, whose dispatch hands them out without the scheduler lock and
 * so completes them here rather than on the CPU of whichever context
 * dispatched.  xb_may_park() returns how many may be picked, the
 * insertion's size, or 0 for none; picking stops where a
 * dispatch would return nothing (idling, zone writes in flight, the IDLE
 * class's delay).  Must the picks wait, they wait on the ready list,
 * where any dispatcher takes them, behind this CPU's earlier ones.
 *
 * Only while the device has a driver tag for each of them (in flight,
 * parked ones included, plus these within one hardware queue's depth): a
 * parked request that has to wait for a tag is one xbfq can no longer
 * put behind a request that arrives meanwhile and would go first (a
 * raised or higher-class queue's read behind a writer's picks).
 */
static unsigned int xb_may_park(struct xb_data *xbd, struct list_head *list,
				xd_insert_t flags)
{
	struct request *rq;
	unsigned int nr = 0;

	if (!READ_ONCE(xbd->core.local_dispatch) ||
	    XD_INSERT_AT_HEAD(flags) || xbd->nr_queued)
		return 0;
	list_for_each_entry(rq, list, queuelist)
		nr++;
	return xbd->inflight + nr <= xbd->hw_depth ? nr : 0;
}

static void xb_park_picked(struct xb_data *xbd, unsigned int nr)
{
	LIST_HEAD(list);
	struct request *rq;
	unsigned int n = 0;

	lockdep_assert_held(&xbd->lock);
	while (n < nr && (rq = xb_pick(xbd))) {
		list_add_tail(&rq->queuelist, &list);
		n++;
	}
	if (n && !xsched_local_park(&xbd->core, &list, n, XB_IRQSAFE))
		xsched_ready_add(&xbd->core, &list, false);
}

static void xb_insert_requests(struct blk_mq_hw_ctx *hctx,
			       struct list_head *list, xd_insert_t flags)
{
	struct xb_data *xbd = xb_of(hctx->queue);
	bool defer = READ_ONCE(xbd->core.defer_insert) &&
		     xsched_congested(&xbd->core, &xbd->cong);
	unsigned long irqflags;
	enum xsched_ins how;
	unsigned int park;
	LIST_HEAD(free);
	u64 now;

	xsched_trace_insert(list);
	how = xsched_insert_lock(&xbd->core, &xbd->lock, list,
				 XD_INSERT_AT_HEAD(flags), defer, XB_IRQSAFE,
				 &irqflags);
	if (how == XSCHED_INS_DEFERRED)
		return;
	/* One clock read for the whole insertion. */
	now = ktime_get_ns();
	xsched_cong_sample(&xbd->core, &xbd->cong,
			   xb_drain_deferred(xbd, &free, now) ||
			   how == XSCHED_INS_WAITED);
	park = xb_may_park(xbd, list, flags);
	xb_insert_list(xbd, list, flags, &free, now, false, jiffies);
	if (park)
		xb_park_picked(xbd, park);
	spin_unlock_irqrestore(&xbd->lock, irqflags);
	xd_free_requests(&free);
}

/* ---- dispatch ------------------------------------------------------------ */

/* Anything queued, sorted in or not, or parked on any CPU?  Lockless. */
static bool xb_work_queued(struct xb_data *xbd)
{
	return READ_ONCE(xbd->nr_queued) || xsched_has_pending(&xbd->core) ||
	       xsched_local_pending(&xbd->core);
}

/*
 * Requests parked on other CPUs (local_dispatch) whose own dispatch has
 * not come: they are picked already, so any dispatcher hands them out;
 * the first is returned, the rest go to the ready list.  Lockless.
 */
static struct request *xb_take_parked(struct xb_data *xbd)
{
	struct request *rq;
	LIST_HEAD(list);

	if (!xsched_local_pending(&xbd->core) ||
	    !xsched_local_take(&xbd->core, &list, XB_IRQSAFE))
		return NULL;
	rq = list_first_entry(&list, struct request, queuelist);
	list_del_init(&rq->queuelist);
	if (!list_empty(&list))
		xsched_ready_add(&xbd->core, &list, XB_IRQSAFE);
	this_cpu_inc(xbd->pcpu->core.ready_dispatched);
	return rq;
}

/* More requests for a batch, for xsched_ready_fill(). */
static struct request *xb_pick_more(struct xsched_core *xc)
{
	return xb_pick(container_of(xc, struct xb_data, core));
}

static struct request *xb_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct xb_data *xbd = xb_of(hctx->queue);
	bool congested = xsched_congested(&xbd->core, &xbd->cong);
	bool serialize = congested &&
			 READ_ONCE(xbd->core.serialize_dispatch);
	bool again = serialize;
	struct request *rq;
	unsigned long flags;
	bool contended;
	LIST_HEAD(free);
	int batch;

	/* This CPU's parked requests first, without the scheduler lock. */
	rq = xsched_local_pop(&xbd->core, XB_IRQSAFE);
	if (rq) {
		this_cpu_inc(xbd->pcpu->local_dispatched);
		return rq;
	}
retry:
	if (!xsched_dispatch_begin(&xbd->core, serialize))
		return NULL;

	rq = xsched_ready_pop(&xbd->core, XB_IRQSAFE);
	if (!rq)
		rq = xb_take_parked(xbd);
	if (rq)
		goto out;

	contended = xsched_dispatch_lock(&xbd->core, &xbd->lock, true, &flags);
	if (xb_drain_deferred(xbd, &free, 0))
		contended = true;
	xsched_cong_sample(&xbd->core, &xbd->cong, contended);
	rq = xb_pick(xbd);
	batch = congested ? READ_ONCE(xbd->core.dispatch_batch) : 1;
	if (rq && batch > 1)
		xsched_ready_fill(&xbd->core, batch, xb_pick_more);
	spin_unlock_irqrestore(&xbd->lock, flags);
	xd_free_requests(&free);
out:
	xsched_dispatch_end(&xbd->core, serialize);
	if (!rq && again) {
		/* Requests left to us by contexts that saw us dispatching. */
		xsched_dispatch_recheck(serialize);
		again = false;
		if (xb_work_queued(xbd))
			goto retry;
	}
	return rq;
}

static bool xb_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct xb_data *xbd = xb_of(hctx->queue);

	/* Ours to hand out, whoever else dispatches. */
	if (xsched_local_mine(&xbd->core))
		return true;
	if (xsched_dispatching_elsewhere(&xbd->core))
		return false;
	return xb_work_queued(xbd);
}

/* The idle timer only makes blk-mq look at the queue again. */
static enum hrtimer_restart xb_timer_fn(struct hrtimer *t)
{
	struct xb_data *xbd = container_of(t, struct xb_data, timer);

	blk_mq_run_hw_queues(xbd->q, true);
	return HRTIMER_NORESTART;
}

/* ---- merging --------------------------------------------------------- */

struct xb_bio_ctx {
	struct xb_data *xbd;
	struct xb_queue *own;		/* the submitting task's queue */
};

/* Around the merge lookup, under lock: whose bio it is. */
static void xb_bio_around(void *arg, bool begin)
{
	struct xb_bio_ctx *ctx = arg;
	struct xb_data *xbd = ctx->xbd;
	struct xb_queue *own = begin ? ctx->own : NULL;

	xbd->bio_own = own;
	xbd->bio_target = own && own->merged ? own->merged : own;
}

/*
 * A bio may merge only with requests of its task's own queue or of the
 * queue its task was merged into; the task's queue comes from its icq,
 * looked up before the lock is taken.  A task without an icq or a queue
 * for the bio's direction yet merges nothing.  With nothing queued there
 * is nothing to merge with (queued requests are the only ones in the
 * merge hash and sort trees): no lookup, no lock.
 */
static bool xb_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct xb_data *xbd = xb_of(q);
	struct xb_bio_ctx ctx = { .xbd = xbd };
	struct xb_icq *xic;

	if (!READ_ONCE(xbd->nr_queued))
		return false;
	xic = xb_current_icq(q);
	if (xic)
		ctx.own = READ_ONCE(xic->xq[op_is_sync(bio->bi_opf)]);
	return __xsched_bio_merge(&xbd->core, &xbd->lock, q, bio, nr_segs,
				  XB_IRQSAFE, xb_bio_around, &ctx);
}

/* Called only from the lookup of xb_bio_merge(), under lock. */
static bool xb_allow_merge(struct request_queue *q, struct request *rq,
			   struct bio *bio)
{
	struct xb_data *xbd = xb_of(q);
	struct xb_queue *xq = xb_rq_queue(rq);

	/*
	 * A group's buffered writes merge with writeback of any task: the
	 * block layer merges nothing across cgroups (blk_cgroup_mergeable()).
	 */
	return xq && (xq == xbd->bio_own || xq == xbd->bio_target ||
		      (xq->grp_async && !op_is_sync(bio->bi_opf)));
}

static int xb_request_merge(struct request_queue *q, struct request **rq,
			    struct bio *bio)
{
	struct xb_data *xbd = xb_of(q);
	struct xb_queue *xq = xbd->bio_target;

	lockdep_assert_held(&xbd->lock);
	if (!xq || !xq->queued)
		return ELEVATOR_NO_MERGE;
	return xsched_front_merge(q, &xq->sort, bio, rq);
}

static void xb_request_merged(struct request_queue *q, struct request *req,
			      enum elv_merge type)
{
	struct xb_queue *xq = xb_rq_queue(req);

	if (type == ELEVATOR_FRONT_MERGE && !RB_EMPTY_NODE(&req->rb_node)) {
		elv_rb_del(&xq->sort, req);
		elv_rb_add(&xq->sort, req);
	}
}

static void xb_requests_merged(struct request_queue *q, struct request *req,
			       struct request *next)
{
	struct xb_data *xbd = xb_of(q);
	struct xb_queue *xq = xb_rq_queue(next);
	u64 now = 0;		/* read only if needed; see xb_update_active() */

	lockdep_assert_held(&xbd->lock);
	/* The merged request inherits the earlier deadline. */
	if (!list_empty(&req->queuelist) && !list_empty(&next->queuelist) &&
	    xb_rq_queue(req) == xq &&
	    time_before((unsigned long)next->fifo_time,
			(unsigned long)req->fifo_time)) {
		list_move(&req->queuelist, &next->queuelist);
		req->fifo_time = next->fifo_time;
	}
	/* Only a request already queued here is in our structures. */
	if (!(xb_rq_state(next) & XB_RQ_QUEUED))
		return;		/* merged at insertion: insert_merged */
	xbd->request_merged++;
	xb_del_rq(xbd, xq, next);
	xb_rq_unhold(xbd, xq, next);	/* it completes without dispatch */
	if (!xq->queued && xq->busy && xbd->in_service != xq) {
		now = ktime_get_ns();
		xb_deactivate(xbd, xq, now);
		xq->vfinish = xq->vstart;	/* nothing was served */
	}
	xb_update_active(xbd, xq, now);
}

/* ---- request life cycle ------------------------------------------------- */

/*
 * The request's queue, from the submitting task's icq: no lock of ours
 * (the block layer's lookup takes the queue_lock before 6.18).  The
 * queue's priority and any merge are settled at insertion, under lock.
 */
static void xb_prepare_request(struct request *rq)
{
	struct xb_data *xbd = xb_of(rq->q);
	struct io_cq *icq = xb_get_icq(rq->q);
	struct xb_queue *xq = NULL;

	rq->elv.icq = icq;
	if (icq)
		xq = xb_icq_queue(xbd, xb_icq(icq), op_is_sync(rq->cmd_flags));
	if (unlikely(!xq)) {
		/* No icq, or no memory: share one queue. */
		this_cpu_inc(xbd->pcpu->queue_alloc_failed);
		xq = &xbd->fallback;
	}
	xb_get_ref(xq);
	rq->elv.priv[0] = xq;
	rq->elv.priv[1] = NULL;
}

/* Adapt the injection limit from a completed request's service time. */
static void xb_inject_feedback(struct xb_queue *xq, unsigned long state,
			       u64 st)
{
	if (state & XB_RQ_ALONE) {
		xq->base_st_ns = xq->base_st_ns ? (3 * xq->base_st_ns + st) / 4 : st;
		/* With no injection allowed, probe again now and then. */
		if (!xq->inject_limit && !(++xq->inject_probe % 64))
			xq->inject_limit = 1;
		return;
	}
	if (!(state & XB_RQ_SHARED) || !xq->base_st_ns)
		return;
	if (st <= xq->base_st_ns + xq->base_st_ns / 2) {
		if (xq->inject_limit < XB_MAX_INJECT)
			xq->inject_limit++;
	} else if (xq->inject_limit) {
		xq->inject_limit--;
	}
}

static void xb_finish_request(struct request *rq)
{
	struct xb_queue *xq = xb_rq_queue(rq);
	unsigned long state = xb_rq_state(rq);
	struct xb_data *xbd;
	bool kick = false;
	unsigned long flags;
	u64 now;

	/* Requests that bypassed the scheduler (flush, passthrough). */
	if (!xq)
		return;
	xbd = xb_of(rq->q);
	if (state & XB_RQ_DISPATCHED) {
		now = ktime_get_ns();
		if (!spin_trylock_irqsave(&xbd->lock, flags)) {
			this_cpu_inc(xbd->pcpu->done_waits);
			spin_lock_irqsave(&xbd->lock, flags);
		}
		xb_drive_done(xbd, xq, state);
		xbd->completed[xb_rq_cls(rq)]++;
		if (state & XB_RQ_NONIDLE)
			xbd->nonidle_done_ns = now;
		xq->last_done_ns = now;
		xb_wr_rate_done(xbd, now);
		if (unlikely(xq->win_start_ns))
			xb_rate_window_done(xbd, xq, now);
		xb_rq_unhold(xbd, xq, rq);
		/* Not while raised as interactive, as BFQ. */
		if (xq->softrt_update && !xq->inflight && !xq->queued &&
		    (xq->wr_coeff == 1 || xq->wr_softrt))
			xb_softrt_set_next(xbd, xq, now);
		if (!(state & XB_RQ_INJECTED))
			xb_inject_feedback(xq, state, now - rq->fifo_time);
		xb_update_active(xbd, xq, now);
		if (xbd->in_service == xq && !xq->queued && !xq->inflight) {
			/* Idle for it, or give the device to the others. */
			if (xb_should_idle(xbd, xq)) {
				xb_start_idling(xbd, xq, now);
			} else if (xb_may_keep(xbd, xq)) {
				xbd->kept = true;
				xbd->kept_ns = now;
				xbd->slots_kept++;
			} else {
				xb_expire(xbd, xq, XB_EXP_EMPTY, now);
			}
			kick = xbd->nr_queued;
		} else if (xbd->nr_queued && xbd->in_service &&
			   !xbd->in_service->queued) {
			/* Room for injection may have opened up. */
			kick = true;
		} else if (xbd->nr_queued && !xbd->in_service) {
			kick = true;
		}
		/* A held write may go now. */
		if (xbd->async_waiting && !xb_async_held(xbd, now)) {
			xbd->async_waiting = false;
			kick = true;
		}
#ifdef XD_ZONE_WRITE_LOCK
		/* Writes of this zone may have waited for this one. */
		if (rq->rq_flags & RQF_ZONE_WRITE_LOCKED) {
			blk_req_zone_write_unlock(rq);
			kick |= xbd->nr_queued > 0;
		}
#endif
		spin_unlock_irqrestore(&xbd->lock, flags);
		if (kick)
			blk_mq_run_hw_queues(rq->q, true);
	} else if (state & XB_RQ_HELD) {
		/* Counted, then not dispatched (not expected: merges uncount). */
		spin_lock_irqsave(&xbd->lock, flags);
		xb_rq_unhold(xbd, xq, rq);
		spin_unlock_irqrestore(&xbd->lock, flags);
	}
	rq->elv.priv[0] = NULL;
	xb_put_ref(xbd, xq);
#ifdef XD_ICQ
	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
#endif
}

/* ---- write control: scheduler tags by class ------------------------------ */

/*
 * Writes may hold only part of the scheduler tags, so that a writeback
 * flood leaves some for sync reads (BFQ's limits): sync writes up to
 * async_depth tags (by default three quarters of nr_requests), async
 * writes two thirds of that; while a weight-raised queue is active, half
 * and a quarter of it.  Sync reads are not limited.  Read locklessly: a
 * stale raised count only moves one allocation between the two limits.
 */
static unsigned int xb_write_depth(struct xb_data *xbd, bool sync)
{
	unsigned int d = xsched_async_depth(xbd->q);

	if (READ_ONCE(xbd->nr_active_raised))
		d = sync ? d / 2 : d / 4;
	else if (!sync)
		d = d * 2 / 3;
	return max(d, 1U);
}

/*
 * Reads keep a quarter of the tags (at least one) free for weight-raised
 * sync queues, as BFQ's limit_depth does in effect: where the tags run
 * out, the reads of others take every tag freed, and a raised process,
 * an application starting or a periodic reader, waits for one behind
 * them, not in the scheduler, whatever its weight (a reader of 64 KiB
 * every 40 ms beside four greedy readers at QD 16 on 2 tags: 30-67 ms
 * from bio to insertion on average, 59-77 reads of 200 over 40 ms,
 * against bfq's 15-24 ms and 28-44; docs/xbfq.md).  BFQ gets there by
 * limiting each queue to its weight's share of the tags, which rounds
 * to none for a greedy queue beside a raised one.  Here: while a raised
 * sync queue is active, or was less than XB_RESERVE_MS or twice its think
 * time ago (a periodic reader is inactive most of its period:
 * xb_raised_reserve_extend()), the reads of a task whose
 * sync queue on this device is not raised take at most the other three
 * quarters.  Writes have their own limits (xb_write_depth()).
 */
static unsigned int xb_read_reserve_depth(unsigned int nr_requests)
{
	return nr_requests - max(nr_requests / 4, 1U);
}

/*
 * Is the current task's sync queue on @xbd's device raised?  No lock:
 * its I/O context's last-used icq (the hint), if for this device (not
 * raised otherwise).  The icq is freed after an RCU grace period, and
 * its queue lives as long as the icq points to it, which the task's own
 * reference on its I/O context keeps.
 */
static bool xb_current_raised(struct xb_data *xbd)
{
#ifdef XD_ICQ
	struct io_context *ioc = current->io_context;
	struct xb_queue *xq;
	struct io_cq *icq;
	bool raised = false;

	if (!ioc)
		return false;
	rcu_read_lock();
	icq = rcu_dereference(ioc->icq_hint);
	if (icq && icq->q == xbd->q) {
		xq = READ_ONCE(xb_icq(icq)->xq[1]);
		raised = xq && READ_ONCE(xq->wr_coeff) > 1;
	}
	rcu_read_unlock();
	return raised;
#else
	return true;	/* no icq to tell: no reserve */
#endif
}

/* Must a read of the current task keep off the raised queues' tags? */
static bool xb_raised_reserve(struct xb_data *xbd)
{
	if (xbd->q->nr_requests < 2)
		return false;
	if (!READ_ONCE(xbd->nr_active_raised) &&
	    time_after(jiffies, READ_ONCE(xbd->raised_sync_until)))
		return false;
	return !xb_current_raised(xbd);
}

/* Groups' tag limits (see xb_group_hold()). */

/*
 * If the current task's group, or one of its ancestors, holds its share
 * of @limit tags or more: that share (at least 1); else 0.  Each level's
 * share is its parent's times the group's weight over the weights of
 * the siblings holding tags, itself included (hwsum).  A group that
 * holds nothing is not limited (nor its task at all), nor the root
 * cgroup's tasks.
 *
 * Only the lighter groups are limited: one whose weight is at least the
 * mean of those holding tags at its level (hcount) is not, there.  An
 * allocation keeps its limited depth while it sleeps: with BFQ's one
 * tag, a heavier group limited once (at the start, while it held more
 * than its share) waited for that one tag while its requests completed,
 * its held fell to 0, and the lighter group, then alone and unlimited,
 * took every other tag (seen mid-run: a 12 tags, b none; 0.31:1 at
 * weights 4:1).  The heavier group needs no limit: with the lighter ones
 * limited it gets the tags they cannot take.
 */
static unsigned int xb_group_over_limit(struct xb_data *xbd,
					unsigned int limit)
{
	struct xb_group *chain[XB_LIMIT_LEVELS], *g;
	unsigned int over = 0;
	int n = 0;

	rcu_read_lock();
	for (g = xb_task_group(xbd); g && g != &xbd->root; g = g->parent) {
		if (!READ_ONCE(g->held) || n == XB_LIMIT_LEVELS)
			goto out;
		chain[n++] = g;
	}
	while (n--) {
		unsigned int w;
		u64 wsum;

		g = chain[n];
		wsum = READ_ONCE(g->parent->hwsum);
		if (!wsum)
			continue;
		w = READ_ONCE(g->weight);
		limit = max_t(u64, div64_u64((u64)limit * w + wsum / 2, wsum), 1);
		if ((u64)w * READ_ONCE(g->parent->hcount) < wsum &&
		    READ_ONCE(g->held) >= limit) {
			over = limit;
			break;
		}
	}
out:
	rcu_read_unlock();
	return over;
}

/*
 * Writes within the write limits; and a task whose group holds its
 * share of tags waits for one within that share's depth of the tag map.
 * Not for one tag, as BFQ: the allocation keeps its depth while it
 * sleeps, and the heavier group's allocations take that tag as often
 * as any, so a lighter group's writer waited for it while its queue ran
 * dry and got a tenth to a thirtieth of what its weight asks (b/a 9-30
 * at weights 4:1 on 7.2, 6.12 and the debug kernel; 4.4 on 6.1, which
 * counts the depth per word of the map, where one is one tag a word).
 * With the share's depth: 3.9-4.7 on every kernel.
 */
static void xb_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	struct xb_data *xbd = xb_of(data->q);
	bool read = op_is_sync(opf) && !op_is_write(opf);
	unsigned int depth = read ? 0 : xb_write_depth(xbd, op_is_sync(opf));
	unsigned int share = 0;

	if (unlikely(READ_ONCE(xbd->groups_on)))
		share = xb_group_over_limit(xbd, depth ?: data->q->nr_requests);
	if (share) {
		this_cpu_inc(xbd->pcpu->group_limited);
		depth = share;
	} else if (read && xb_raised_reserve(xbd)) {
		this_cpu_inc(xbd->pcpu->reads_reserved);
		depth = xb_read_reserve_depth(data->q->nr_requests);
	}
	if (depth)
		xsched_limit_tags(data, depth);
}

static unsigned int xb_default_async_depth(unsigned int nr_requests)
{
	return max(nr_requests * 3 / 4, 1U);
}

/*
 * The limits go down to one tag: tell each hardware queue's tag map so
 * it wakes waiters in batches that small.  Where async_depth is ours,
 * a new nr_requests resets it to its default.
 */
#ifdef XD_DEPTH_UPDATED_TAKES_Q
static void xb_depth_updated(struct request_queue *q)
{
	xsched_min_shallow_depth(q, 1);
}
#else
static void xb_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	struct request_queue *q = hctx->queue;

	WRITE_ONCE(xb_of(q)->core.async_depth,
		   xb_default_async_depth(xsched_hctx_nr_requests(hctx)));
	sbitmap_queue_min_shallow_depth(&hctx->sched_tags->bitmap_tags, 1);
}

static int xb_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int hctx_idx)
{
	xb_depth_updated(hctx);
	return 0;
}
#endif

/* ---- knobs and counters for sysfs, debugfs and netlink ---------------- */

/* The knobs, in sysfs order. */
enum xb_knob_id {
	XB_K_SLICE_IDLE,
	XB_K_SLICE_IDLE_US,
	XB_K_LOW_LATENCY,
	XB_K_TIMEOUT_SYNC,
	XB_K_MAX_BUDGET,
	XB_K_STRICT_GUARANTEES,
	XB_K_BACK_SEEK_MAX,
	XB_K_BACK_SEEK_PENALTY,
	XB_K_FIFO_EXPIRE_SYNC,
	XB_K_FIFO_EXPIRE_ASYNC,
	XB_K_IDLE_CLASS_DELAY,
	XB_K_WR_COEFF,
	XB_K_WR_MAX_TIME,
	XB_K_INJECTION,
	XB_K_QUEUE_MERGING,
#ifndef XD_QUEUE_ASYNC_DEPTH
	XB_K_ASYNC_DEPTH,
#endif
	XB_K_SERIALIZE_DISPATCH,
	XB_K_DEFER_INSERT,
	XB_K_MERGE_SKIP,
	XB_K_DISPATCH_BATCH,
	XB_K_CONGESTION_THRESHOLD,
	XB_K_LOCAL_DISPATCH,
	XB_K_NR
};

/*
 * A knob is an int of struct xb_data, or (unit_ns != 0) a view of the u64
 * nanoseconds slice_idle_ns in units of unit_ns: slice_idle (ms) and
 * slice_idle_us share that field.  min and max are in the sysfs units.
 */
struct xb_knob {
	const char *name;
	size_t off;
	int min, max;
	u32 unit_ns;
};

#define XB_KNOB(id, kname, field, lo, hi)				\
	[id] = { .name = kname, .off = offsetof(struct xb_data, field),	\
		 .min = lo, .max = hi }
#define XB_KNOB_NS(id, kname, lo, hi, unit)				\
	[id] = { .name = kname,						\
		 .off = offsetof(struct xb_data, slice_idle_ns),	\
		 .min = lo, .max = hi, .unit_ns = unit }

static const struct xb_knob xb_knobs[XB_K_NR] = {
	XB_KNOB_NS(XB_K_SLICE_IDLE, "slice_idle", 0, XB_MAX_MS, NSEC_PER_MSEC),
	XB_KNOB_NS(XB_K_SLICE_IDLE_US, "slice_idle_us", 0, INT_MAX,
		   NSEC_PER_USEC),
	XB_KNOB(XB_K_LOW_LATENCY, "low_latency", low_latency, 0, 1),
	XB_KNOB(XB_K_TIMEOUT_SYNC, "timeout_sync", timeout_ms, 1, XB_MAX_MS),
	XB_KNOB(XB_K_MAX_BUDGET, "max_budget", max_budget, 0,
		XB_MAX_BUDGET_LIMIT),
	XB_KNOB(XB_K_STRICT_GUARANTEES, "strict_guarantees",
		strict_guarantees, 0, 1),
	XB_KNOB(XB_K_BACK_SEEK_MAX, "back_seek_max", back_seek_max, 0,
		INT_MAX / 2),
	XB_KNOB(XB_K_BACK_SEEK_PENALTY, "back_seek_penalty",
		back_seek_penalty, 1, INT_MAX),
	XB_KNOB(XB_K_FIFO_EXPIRE_SYNC, "fifo_expire_sync", fifo_expire[1], 1,
		XB_MAX_MS),
	XB_KNOB(XB_K_FIFO_EXPIRE_ASYNC, "fifo_expire_async", fifo_expire[0],
		1, XB_MAX_MS),
	XB_KNOB(XB_K_IDLE_CLASS_DELAY, "idle_class_delay",
		idle_class_delay_ms, 0, XB_MAX_MS),
	XB_KNOB(XB_K_WR_COEFF, "wr_coeff", wr_coeff, 2, 100),
	XB_KNOB(XB_K_WR_MAX_TIME, "wr_max_time", wr_max_time_ms, 0,
		XB_MAX_MS),
	XB_KNOB(XB_K_INJECTION, "injection", injection, 0, 1),
	XB_KNOB(XB_K_QUEUE_MERGING, "queue_merging", queue_merging, 0, 1),
#ifndef XD_QUEUE_ASYNC_DEPTH
	XB_KNOB(XB_K_ASYNC_DEPTH, "async_depth", core.async_depth, 1,
		INT_MAX),
#endif
	XB_KNOB(XB_K_SERIALIZE_DISPATCH, "serialize_dispatch",
		core.serialize_dispatch, 0, 1),
	XB_KNOB(XB_K_DEFER_INSERT, "defer_insert", core.defer_insert, 0, 1),
	XB_KNOB(XB_K_MERGE_SKIP, "merge_skip", core.merge_skip, 0, 1),
	XB_KNOB(XB_K_DISPATCH_BATCH, "dispatch_batch", core.dispatch_batch,
		1, XB_MAX_BATCH),
	XB_KNOB(XB_K_CONGESTION_THRESHOLD, "congestion_threshold",
		core.congestion_threshold, 0, 100),
	XB_KNOB(XB_K_LOCAL_DISPATCH, "local_dispatch", core.local_dispatch,
		0, 1),
};

/* schedctl_sched_ops wants the names alone; filled from xb_knobs. */
static const char *xb_knob_names[XB_K_NR];

static void *xb_knob_ptr(struct xb_data *xbd, unsigned int knob)
{
	return (char *)xbd + xb_knobs[knob].off;
}

/* The knob's value in its sysfs units. */
static u64 xb_knob_get(void *priv, unsigned int knob)
{
	const struct xb_knob *k = &xb_knobs[knob];

	if (k->unit_ns)
		return div_u64(READ_ONCE(*(u64 *)xb_knob_ptr(priv, knob)),
			       k->unit_ns);
	return READ_ONCE(*(int *)xb_knob_ptr(priv, knob));
}

/* Process context, under schedctl_nl's mutex; no scheduler lock needed. */
static int xb_knob_set(void *priv, unsigned int knob, u64 val,
		       struct netlink_ext_ack *extack)
{
	const struct xb_knob *k = &xb_knobs[knob];

	if (val < k->min || val > k->max) {
		NL_SET_ERR_MSG(extack, "xbfq: value out of range");
		return -EINVAL;
	}
	if (k->unit_ns)
		WRITE_ONCE(*(u64 *)xb_knob_ptr(priv, knob), val * k->unit_ns);
	else
		WRITE_ONCE(*(int *)xb_knob_ptr(priv, knob), (int)val);
	return 0;
}

/* The counters of debugfs sched/stats and of the netlink dump, in order. */
enum xb_counter_id {
	/* inserted, dispatched, completed; per class */
	XB_C_PER_CLASS,
	XB_C_INSERTED = XB_C_PER_CLASS + 3 * XB_NR_CLASS,
	XB_C_DISPATCHED,
	XB_C_COMPLETED,
	XB_C_IN_FLIGHT,
	XB_C_QUEUED,
	XB_C_MERGED_BIO,
	XB_C_MERGED_INSERT,
	XB_C_MERGED_REQUEST,
	XB_C_EXPIRED,
	XB_C_IDLE_ARMED = XB_C_EXPIRED + XB_NR_EXP,
	XB_C_INJECTED,
	XB_C_WR_INTERACTIVE,
	XB_C_WR_SOFTRT,
	XB_C_FIFO_EXPIRED,
	XB_C_BACK_SEEKS,
	XB_C_ACTIVE_QUEUES,
	XB_C_AUTO_MAX_BUDGET,
	XB_C_PEAK_RATE,
	XB_C_MERGE_SKIPPED,
	XB_C_DISPATCH_SKIPPED,
	XB_C_DEFERRED,
	XB_C_READY_DISPATCHED,
	XB_C_QUEUE_ALLOC_FAILED,
	XB_C_QUEUES,
	XB_C_QUEUES_CREATED,
	XB_C_QUEUES_FREED,
	XB_C_BURSTS_LARGE,
	XB_C_QUEUES_MERGED,
	XB_C_QUEUES_SPLIT,
	XB_C_CONGESTION_PCT,
	XB_C_CONGESTED,
	XB_C_REQUEUED,
	XB_C_LOCK_WAITS,
	XB_C_IDLE_THROUGHPUT,
	XB_C_IDLE_STARVED,
	XB_C_ACTIVE_RAISED,
	XB_C_DEPTH_SYNC_WRITE,
	XB_C_DEPTH_ASYNC,
	XB_C_QUEUES_MERGED_BY_POS,
	XB_C_INJECT_REFUSED,
	XB_C_WR_DURATION,
	XB_C_LOCAL_DISPATCHED,
	XB_C_PARKED,
	XB_C_GROUPS,
	XB_C_GROUP_MOVES,
	XB_C_ORPHAN_KICKS,
	XB_C_GROUP_LIMITED,
	XB_C_IDLE_RAISED,
	XB_C_ACTIVE_STREAMS,
	XB_C_SLOTS_KEPT,
	XB_C_SLOTS_RESUMED,
	XB_C_ASYNC_HELD,
	XB_C_INJECTED_GROUPS,
	XB_C_INJECTED_EMPTY,
	XB_C_DONE_WAITS,
	XB_C_RATE_WINDOWS,
	XB_C_WR_RATE,
	XB_C_READS_RESERVED,
	XB_C_NR
};

static const char *const xb_counter_names[XB_C_NR] = {
	"inserted_rt", "dispatched_rt", "completed_rt",
	"inserted_be", "dispatched_be", "completed_be",
	"inserted_idle", "dispatched_idle", "completed_idle",
	"inserted", "dispatched", "completed", "in_flight", "queued",
	"merged_bio", "merged_insert", "merged_request",
	"expired_budget", "expired_timeout", "expired_empty", "expired_idle",
	"expired_preempt",
	"idle_armed", "injected", "wr_interactive", "wr_softrt",
	"fifo_expired", "back_seeks", "active_queues", "auto_max_budget",
	"peak_rate", "merge_skipped", "dispatch_skipped", "deferred",
	"ready_dispatched", "queue_alloc_failed",
	"queues", "queues_created", "queues_freed", "bursts_large",
	"queues_merged", "queues_split", "congestion_pct", "congested",
	"requeued", "lock_waits", "idle_throughput", "idle_starved",
	"active_raised", "depth_sync_write", "depth_async",
	"queues_merged_by_pos", "inject_refused", "wr_duration",
	"local_dispatched", "parked", "groups", "group_moves",
	"orphan_kicks", "group_limited", "idle_raised", "active_streams",
	"slots_kept", "slots_resumed", "async_held", "injected_groups",
	"injected_empty", "done_waits", "rate_windows", "wr_rate",
	"reads_reserved",
};

/* Sum the per-CPU counters, then read the locked ones. */
static void xb_counters_get(void *priv, u64 *v)
{
	struct xb_data *xbd = priv;
	struct xb_pcpu_stats sum = {};
	unsigned long flags;
	int cpu, c;

	for_each_possible_cpu(cpu) {
		struct xb_pcpu_stats *s = per_cpu_ptr(xbd->pcpu, cpu);

		xsched_pcpu_add(&sum.core, &s->core);
		sum.queue_alloc_failed += s->queue_alloc_failed;
		sum.local_dispatched += s->local_dispatched;
		sum.group_limited += s->group_limited;
		sum.reads_reserved += s->reads_reserved;
		sum.done_waits += s->done_waits;
	}

	memset(v, 0, XB_C_NR * sizeof(*v));
	spin_lock_irqsave(&xbd->lock, flags);
	for (c = 0; c < XB_NR_CLASS; c++) {
		u64 *cv = &v[XB_C_PER_CLASS + 3 * c];

		cv[0] = xbd->inserted[c];
		cv[1] = xbd->dispatched[c];
		cv[2] = xbd->completed[c];
		v[XB_C_INSERTED] += cv[0];
		v[XB_C_DISPATCHED] += cv[1];
		v[XB_C_COMPLETED] += cv[2];
	}
	v[XB_C_IN_FLIGHT] = xbd->inflight;
	v[XB_C_QUEUED] = xbd->nr_queued;
	v[XB_C_MERGED_BIO] = sum.core.bio_merged;
	v[XB_C_MERGED_INSERT] = xbd->insert_merged;
	v[XB_C_MERGED_REQUEST] = xbd->request_merged;
	for (c = 0; c < XB_NR_EXP; c++)
		v[XB_C_EXPIRED + c] = xbd->expired[c];
	v[XB_C_IDLE_ARMED] = xbd->idle_armed;
	v[XB_C_IDLE_THROUGHPUT] = xbd->idle_throughput;
	v[XB_C_IDLE_RAISED] = xbd->idle_raised;
	v[XB_C_ACTIVE_STREAMS] = xbd->nr_active_seq;
	v[XB_C_IDLE_STARVED] = xbd->idle_starved;
	v[XB_C_INJECTED] = xbd->injected;
	v[XB_C_INJECT_REFUSED] = xbd->inject_refused;
	v[XB_C_WR_INTERACTIVE] = xbd->wr_interactive;
	v[XB_C_WR_SOFTRT] = xbd->wr_softrt;
	v[XB_C_FIFO_EXPIRED] = xbd->fifo_expired;
	v[XB_C_BACK_SEEKS] = xbd->back_seeks;
	v[XB_C_ACTIVE_QUEUES] = xbd->nr_active;
	v[XB_C_AUTO_MAX_BUDGET] = xbd->auto_max_budget;
	v[XB_C_PEAK_RATE] = xbd->peak_rate;
	v[XB_C_WR_DURATION] = xb_wr_duration_ms(xbd);
	v[XB_C_MERGE_SKIPPED] = sum.core.bio_merge_skipped;
	v[XB_C_DISPATCH_SKIPPED] = sum.core.dispatch_skipped;
	v[XB_C_DEFERRED] = sum.core.deferred;
	v[XB_C_READY_DISPATCHED] = sum.core.ready_dispatched;
	v[XB_C_LOCK_WAITS] = sum.core.lock_waits;
	v[XB_C_DONE_WAITS] = sum.done_waits;
	v[XB_C_RATE_WINDOWS] = xbd->rate_windows;
	v[XB_C_WR_RATE] = READ_ONCE(xbd->wr_rate);
	v[XB_C_QUEUE_ALLOC_FAILED] = sum.queue_alloc_failed;
	v[XB_C_LOCAL_DISPATCHED] = sum.local_dispatched;
	v[XB_C_PARKED] = xsched_local_count(&xbd->core);
	v[XB_C_QUEUES_MERGED] = xbd->queues_merged;
	v[XB_C_QUEUES_SPLIT] = xbd->queues_split;
	v[XB_C_CONGESTION_PCT] = xsched_cong_pct(&xbd->cong);
	v[XB_C_CONGESTED] = xsched_congested(&xbd->core, &xbd->cong);
	v[XB_C_REQUEUED] = xbd->requeued;
	v[XB_C_ACTIVE_RAISED] = xbd->nr_active_raised;
	v[XB_C_DEPTH_SYNC_WRITE] = xb_write_depth(xbd, true);
	v[XB_C_DEPTH_ASYNC] = xb_write_depth(xbd, false);
	v[XB_C_QUEUES_MERGED_BY_POS] = xbd->queues_merged_by_pos;
	v[XB_C_GROUPS] = xbd->nr_groups;
	v[XB_C_GROUP_MOVES] = xbd->group_moves;
	v[XB_C_ORPHAN_KICKS] = xbd->orphan_kicks;
	v[XB_C_GROUP_LIMITED] = sum.group_limited;
	v[XB_C_READS_RESERVED] = sum.reads_reserved;
	v[XB_C_SLOTS_KEPT] = xbd->slots_kept;
	v[XB_C_SLOTS_RESUMED] = xbd->slots_resumed;
	v[XB_C_ASYNC_HELD] = xbd->async_held;
	v[XB_C_INJECTED_GROUPS] = xbd->injected_groups;
	v[XB_C_INJECTED_EMPTY] = xbd->injected_empty;
	spin_lock(&xbd->qlock);
	v[XB_C_QUEUES] = xbd->nr_queues;
	v[XB_C_QUEUES_CREATED] = xbd->queues_created;
	v[XB_C_QUEUES_FREED] = xbd->queues_freed;
	v[XB_C_BURSTS_LARGE] = xbd->bursts_large;
	spin_unlock(&xbd->qlock);
	spin_unlock_irqrestore(&xbd->lock, flags);
}

/* No derived state: no knob changes anything but its own value. */
static const struct schedctl_sched_ops xb_nl_ops = {
	.name		= XB_NAME,
	.nr_knobs	= XB_K_NR,
	.knob_names	= xb_knob_names,
	.knob_get	= xb_knob_get,
	.knob_set	= xb_knob_set,
	.nr_counters	= XB_C_NR,
	.counter_names	= xb_counter_names,
	.counters_get	= xb_counters_get,
	.groups_get	= xb_nl_groups_get,
};

/* ---- init / exit ------------------------------------------------------- */

static int xb_init_data(struct request_queue *q, struct elevator_queue *eq)
{
	struct xb_data *xbd;
	int ret;

	xbd = kzalloc_node(sizeof(*xbd), GFP_KERNEL, q->node);
	if (!xbd)
		return -ENOMEM;
	xbd->pcpu = alloc_percpu(struct xb_pcpu_stats);
	if (!xbd->pcpu) {
		kfree(xbd);
		return -ENOMEM;
	}

	ret = xsched_local_init(&xbd->core, q->node);
	if (ret) {
		free_percpu(xbd->pcpu);
		kfree(xbd);
		return ret;
	}
	xsched_core_init(&xbd->core, &xbd->pcpu->core, q, XB_DISPATCH_BATCH);
	spin_lock_init(&xbd->lock);
	spin_lock_init(&xbd->qlock);
	INIT_LIST_HEAD(&xbd->dispatch);
	INIT_LIST_HEAD(&xbd->queues);
	INIT_LIST_HEAD(&xbd->linger);
	xbd->pos_tree = RB_ROOT;
	xb_group_init(&xbd->root, NULL);
	xb_group_init(&xbd->top, &xbd->root);
	INIT_LIST_HEAD(&xbd->groups);
	xbd->devt = disk_devt(q->disk);
	xbd->q = q;
	xbd->rotational = xd_queue_rotational(q);
	xbd->hw_depth = q->tag_set ? q->tag_set->queue_depth : 1;
	xbd->internal_queueing = xbd->hw_depth > 1;
	/* Its first reference is its own: never freed. */
	xb_init_queue(xbd, &xbd->fallback, 0, true);
	xd_hrtimer_setup(&xbd->timer, xb_timer_fn, CLOCK_MONOTONIC,
			 HRTIMER_MODE_ABS);

	xbd->auto_max_budget = XB_DEF_MAX_BUDGET;
	xbd->slice_idle_ns = XB_SLICE_IDLE_NS;
	xbd->low_latency = 1;
	xbd->timeout_ms = XB_TIMEOUT_MS;
	xbd->back_seek_max = XB_BACK_SEEK_MAX;
	xbd->back_seek_penalty = XB_BACK_SEEK_PENALTY;
	xbd->fifo_expire[1] = XB_FIFO_SYNC_MS;
	xbd->fifo_expire[0] = XB_FIFO_ASYNC_MS;
	xbd->idle_class_delay_ms = XB_IDLE_CLASS_DELAY_MS;
	xbd->wr_coeff = XB_WR_COEFF;
	xbd->wr_max_time_ms = XB_WR_MAX_TIME_MS;
	xbd->wr_rate = xb_wr_ref_rate(xbd) * 2 / 3;
	xbd->injection = 1;
	xbd->queue_merging = 1;
	xbd->core.local_dispatch = !xbd->rotational;

	/* Last: from here on netlink readers see this instance. */
	ret = xsched_attach(&xbd->core, &xb_nl_ops, q, eq);
	if (ret) {
		xsched_local_free(&xbd->core);
		free_percpu(xbd->pcpu);
		kfree(xbd);
		return ret;
	}
#ifdef XD_QUEUE_ASYNC_DEPTH
	q->async_depth = xb_default_async_depth(q->nr_requests);
	xb_depth_updated(q);
#endif
	/* Groups where the policy registered; without them if it fails. */
	xb_cg_attach(xbd);
	/* Our write limits and group shares, not wbt's turns (as bfq). */
	xd_wbt_disable_default(q);
	return 0;
}

XSCHED_INIT_SCHED(xb)

static void xb_exit_sched(struct elevator_queue *e)
{
	struct xb_data *xbd = e->elevator_data;
	unsigned long flags;

	/* First, so that no netlink reader sees the instance go away. */
	schedctl_nl_unregister(&xbd->core.nl);
	hrtimer_cancel(&xbd->timer);
	/* The groups lose their cgroups; their queues still hold them. */
	xb_cg_detach(xbd);
	xd_wbt_enable_default(xbd->q);
	/*
	 * The queue is frozen: every request has completed, and the block
	 * layer has exited every icq (ioc_clear_queue()), so only the queue
	 * in service and the lingering ones still hold references.
	 */
	spin_lock_irqsave(&xbd->lock, flags);
	if (xbd->in_service)
		xb_expire(xbd, xbd->in_service, XB_EXP_EMPTY, ktime_get_ns());
	xb_linger_expire(xbd, 0, true);
	WARN_ON_ONCE(xbd->nr_queued || xbd->inflight || xbd->nr_active ||
		     xbd->nr_active_seq);
	WARN_ON_ONCE(!xsched_core_empty(&xbd->core) ||
		     !list_empty(&xbd->dispatch));
	/* A queue left would still be an icq's: leak it rather than free. */
	WARN_ON_ONCE(!list_empty(&xbd->queues));
	WARN_ON_ONCE(refcount_read(&xbd->fallback.ref) != 1);
	/* Every queue gone, so is every group: free any left. */
	xb_cg_free_groups(xbd);
	spin_unlock_irqrestore(&xbd->lock, flags);
	hrtimer_cancel(&xbd->timer);

	xsched_local_free(&xbd->core);
	free_percpu(xbd->pcpu);
	kfree(xbd);
}

/* ---- sysfs knobs ---------------------------------------------------------- */

#define XB_KNOB_ATTR(name, id)	XSCHED_KNOB_ATTR(xb, name, id)

XB_KNOB_ATTR(slice_idle, XB_K_SLICE_IDLE)
XB_KNOB_ATTR(slice_idle_us, XB_K_SLICE_IDLE_US)
XB_KNOB_ATTR(low_latency, XB_K_LOW_LATENCY)
XB_KNOB_ATTR(timeout_sync, XB_K_TIMEOUT_SYNC)
XB_KNOB_ATTR(max_budget, XB_K_MAX_BUDGET)
XB_KNOB_ATTR(strict_guarantees, XB_K_STRICT_GUARANTEES)
XB_KNOB_ATTR(back_seek_max, XB_K_BACK_SEEK_MAX)
XB_KNOB_ATTR(back_seek_penalty, XB_K_BACK_SEEK_PENALTY)
XB_KNOB_ATTR(fifo_expire_sync, XB_K_FIFO_EXPIRE_SYNC)
XB_KNOB_ATTR(fifo_expire_async, XB_K_FIFO_EXPIRE_ASYNC)
XB_KNOB_ATTR(idle_class_delay, XB_K_IDLE_CLASS_DELAY)
XB_KNOB_ATTR(wr_coeff, XB_K_WR_COEFF)
XB_KNOB_ATTR(wr_max_time, XB_K_WR_MAX_TIME)
XB_KNOB_ATTR(injection, XB_K_INJECTION)
XB_KNOB_ATTR(queue_merging, XB_K_QUEUE_MERGING)
#ifndef XD_QUEUE_ASYNC_DEPTH
XB_KNOB_ATTR(async_depth, XB_K_ASYNC_DEPTH)
#endif
XB_KNOB_ATTR(serialize_dispatch, XB_K_SERIALIZE_DISPATCH)
XB_KNOB_ATTR(defer_insert, XB_K_DEFER_INSERT)
XB_KNOB_ATTR(merge_skip, XB_K_MERGE_SKIP)
XB_KNOB_ATTR(dispatch_batch, XB_K_DISPATCH_BATCH)
XB_KNOB_ATTR(congestion_threshold, XB_K_CONGESTION_THRESHOLD)
XB_KNOB_ATTR(local_dispatch, XB_K_LOCAL_DISPATCH)

#define XB_ATTR(name)		XSCHED_ATTR(xb, name)

static XD_ELV_ATTRS_CONST_QUAL struct elv_fs_entry xb_attrs[] = {
	XB_ATTR(slice_idle),
	XB_ATTR(slice_idle_us),
	XB_ATTR(low_latency),
	XB_ATTR(timeout_sync),
	XB_ATTR(max_budget),
	XB_ATTR(strict_guarantees),
	XB_ATTR(back_seek_max),
	XB_ATTR(back_seek_penalty),
	XB_ATTR(fifo_expire_sync),
	XB_ATTR(fifo_expire_async),
	XB_ATTR(idle_class_delay),
	XB_ATTR(wr_coeff),
	XB_ATTR(wr_max_time),
	XB_ATTR(injection),
	XB_ATTR(queue_merging),
#ifndef XD_QUEUE_ASYNC_DEPTH
	XB_ATTR(async_depth),
#endif
	XB_ATTR(serialize_dispatch),
	XB_ATTR(defer_insert),
	XB_ATTR(merge_skip),
	XB_ATTR(dispatch_batch),
	XB_ATTR(congestion_threshold),
	XB_ATTR(local_dispatch),
	__ATTR_NULL
};

/* ---- debugfs counters ------------------------------------------------------- */

static int xb_stats_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	u64 v[XB_C_NR];
	int i;

	xb_counters_get(xb_of(q), v);
	for (i = 0; i < XB_C_NR; i++)
		seq_printf(m, "%s %llu\n", xb_counter_names[i], v[i]);
	return 0;
}

/* One line per queue with its scheduling state. */
static int xb_queues_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct xb_data *xbd = xb_of(q);
	struct xb_queue *xq;
	unsigned long flags;
	int c;

	spin_lock_irqsave(&xbd->lock, flags);
	/* The root cgroup's classes; the groups' are in sched/groups. */
	for (c = 0; c < XB_NR_CLASS; c++)
		seq_printf(m, "class %s vtime %llu wsum %llu vsum %llu busy %u\n",
			   xb_class_name[c], xbd->top.cls[c].vtime,
			   xbd->top.cls[c].wsum, xbd->top.cls[c].vsum,
			   xbd->top.cls[c].nr_busy);
	spin_lock(&xbd->qlock);
	list_for_each_entry(xq, &xbd->queues, all)
		seq_printf(m,
			   "pid %d %s %s/%u w %u wr %u busy %d svc %s S %llu F %llu budget %u queued %u inflight %u rqs %llu inj %llu ttime %llu limit %u guests %u into %d cgid %llu burst %u large %d\n",
			   xq->pid, xq->sync ? "sync" : "async",
			   xb_class_name[xq->cls], xq->level, xq->weight,
			   xq->wr_coeff, xq->busy,
			   xbd->in_service == xq ? "yes" : "no",
			   xq->vstart, xq->vfinish, xq->budget,
			   xq->queued, xq->inflight, xq->dispatched_rqs,
			   xq->injected_rqs, xq->ttime_ns,
			   xq->inject_limit, xq->nr_coop,
			   xq->merged ? xq->merged->pid : -1, xq->grp->cgid,
			   xq->burst_id, READ_ONCE(xq->large_burst));
	spin_unlock(&xbd->qlock);
	spin_unlock_irqrestore(&xbd->lock, flags);
	return 0;
}

static const struct blk_mq_debugfs_attr xb_queue_debugfs[] = {
	{ "stats", 0400, xb_stats_show },
	{ "queues", 0400, xb_queues_show },
	{ "groups", 0400, xb_groups_show },
	{},
};

static struct elevator_type xb_type = {
	.ops = {
		.depth_updated		= xb_depth_updated,
#ifndef XD_DEPTH_UPDATED_TAKES_Q
		.init_hctx		= xb_init_hctx,
#endif
		.limit_depth		= xb_limit_depth,
		.insert_requests	= xb_insert_requests,
		.dispatch_request	= xb_dispatch_request,
		.prepare_request	= xb_prepare_request,
		.finish_request		= xb_finish_request,
		.next_request		= elv_rb_latter_request,
		.former_request		= elv_rb_former_request,
		.allow_merge		= xb_allow_merge,
		.bio_merge		= xb_bio_merge,
		.request_merge		= xb_request_merge,
		.requests_merged	= xb_requests_merged,
		.request_merged		= xb_request_merged,
		.has_work		= xb_has_work,
		.init_sched		= xb_init_sched,
		.exit_sched		= xb_exit_sched,
#ifdef XD_ICQ
		/* Zeroed icqs need no init_icq: queues come with requests. */
		.exit_icq		= xb_exit_icq,
#endif
	},
#ifdef XD_ICQ
	.icq_size		= sizeof(struct xb_icq),
	.icq_align		= __alignof__(struct xb_icq),
#endif
	.queue_debugfs_attrs	= xb_queue_debugfs,
	.elevator_attrs		= xb_attrs,
	.elevator_name		= XB_NAME,
#ifdef XD_ZONE_WRITE_LOCK
	.elevator_features	= ELEVATOR_F_ZBD_SEQ_WRITE,
#endif
	.elevator_owner		= THIS_MODULE,
};
MODULE_ALIAS("xbfq-iosched");

static int __init xb_init(void)
{
	int i, ret;

	for (i = 0; i < XB_K_NR; i++)
		xb_knob_names[i] = xb_knobs[i].name;
	/* Without its blkcg policy, xbfq still loads: no groups. */
	xb_cg_register();
	ret = elv_register(&xb_type);
	if (ret)
		xb_cg_unregister();
	return ret;
}

static void __exit xb_exit(void)
{
	elv_unregister(&xb_type);
	xb_cg_unregister();
}

module_init(xb_init);
module_exit(xb_exit);

MODULE_AUTHOR("schedctl developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Scalable proportional-share (BFQ-class) I/O scheduler");
