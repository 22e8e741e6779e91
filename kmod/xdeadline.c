// SPDX-License-Identifier: GPL-2.0
/*
 * xdeadline: a deadline I/O scheduler for blk-mq that scales with the number
 * of submitting CPUs and carries the HDD/SMR ideas that never reached
 * mainline.
 *
 * Scheduling follows mq-deadline's contract (same knobs, units and
 * defaults): per-priority, per-direction FIFOs with expiry and sector-sorted
 * trees, fifo_batch, writes_starved, front_merges and priority aging.  On
 * top of that, each of these is a sysfs knob:
 *
 *  serialize_dispatch  only one context runs the dispatch logic; has_work
 *                      tells the others there is nothing for them, and
 *                      the dispatcher looks again before it stops, so
 *                      nothing is stranded.
 *  defer_insert        when the scheduler lock is contended, insertions only
 *                      append to a list under a light lock; the dispatcher
 *                      sorts them in.  When the lock is free, requests are
 *                      inserted (and insert-merged) at once, which keeps the
 *                      merges that upstream's always-deferred variant lost.
 *  merge_skip          skip bio-merge lookups while the lock is contended.
 *  dispatch_batch      move up to N requests per lock hold to a ready list
 *                      handed out without the scheduler lock.
 *  nr_sched_batch      at most N requests per blk-mq dispatch round.
 *  head_request        C-LOOK: restart a sweep at the lowest sector instead
 *                      of the oldest request when no deadline expired.
 *  zoned_qd1_writes    zoned devices: one write in flight, zone by zone.
 *  congestion_threshold  serialize_dispatch, defer_insert and dispatch_batch
 *                      engage only while more than this percentage of the
 *                      scheduler lock's acquisitions had to wait (EWMA):
 *                      on a lightly contended lock they only move requests
 *                      to other CPUs.  0 keeps them always engaged.
 *
 * See man/xdeadline.4 for the knob reference.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/percpu.h>
#include <linux/ioprio.h>
#include <linux/jiffies.h>
#include <linux/log2.h>

#include "xd_compat.h"
#include "schedctl_nl_kapi.h"
#include "xsched_common.h"

#define XD_NAME "xdeadline"

/* Stock mq-deadline defaults, so existing tunings carry over. */
#define XD_READ_EXPIRE		(HZ / 2)
#define XD_WRITE_EXPIRE		(5 * HZ)
#define XD_PRIO_AGING_EXPIRE	(10 * HZ)
#define XD_WRITES_STARVED	2
#define XD_FIFO_BATCH		16
#define XD_DISPATCH_BATCH	8
#define XD_MAX_BATCH		256
/* The scheduler lock is never taken from interrupt context. */
#define XD_IRQSAFE		false
/* Upper bound for the expiry knobs, in milliseconds (one hour). */
#define XD_MAX_EXPIRE_MS	3600000

enum xd_prio {
	XD_RT,
	XD_BE,
	XD_IDLE,
	XD_NR_PRIO,
};

static const char *const xd_prio_name[XD_NR_PRIO] = { "rt", "be", "idle" };
static const char *const xd_dir_name[2] = { "read", "write" };

/* Bits of rq->elv.priv[1]: per-request state set at dispatch. */
#define XD_RQ_QD1_WRITE		1UL	/* counted in qd1_writes */
#define XD_RQ_DISPATCHED	2UL	/* handed to the driver */
#define XD_RQ_IN_FLIGHT		4UL	/* counted in its level's in_flight */

/* Counters updated outside the scheduler lock, summed when read. */
struct xd_pcpu_stats {
	struct xsched_pcpu_stats core;
	u64 completed[XD_NR_PRIO];	/* dispatched, then completed */
	u64 qd1_holds;			/* has_work: writes held back */
	u64 nr_sched_batch_cuts;
	u64 parked;			/* local_dispatch: best-effort */
	u64 local_dispatched[2];	/* parked, then dispatched here */
};

struct xd_per_prio {
	struct rb_root sort_list[2];
	struct list_head fifo_list[2];
	/* Sector after the last request dispatched in each direction. */
	sector_t next_pos[2];
	/* Protected by xd_data.lock. */
	u64 inserted;
	u64 dispatched[2];
	unsigned int queued;		/* in the FIFOs or the at-head list */
	/*
	 * Dispatched and not completed, counted once requests of more than
	 * one level have been seen (mixed_prio): with queued, how busy the
	 * level is for the priority rules, without a walk of per-CPU sums.
	 */
	atomic_t in_flight;
};

struct xd_data {
	/*
	 * First: elevator_data points here.  Ready list, deferred insertions,
	 * dispatch serialization, netlink registration, shared knobs.
	 */
	struct xsched_core core;
	/* nr_sched_batch round tracking, under core.ready_lock. */
	struct request *round_last;
	unsigned int round_count;

	/* Main scheduler lock: sort trees, FIFOs, dispatch state. */
	spinlock_t lock ____cacheline_aligned_in_smp;
	struct xsched_cong cong;		/* of lock, under lock */
	/*
	 * Requests in the FIFOs (all levels), and the writes among them:
	 * written under lock, read locklessly by has_work and bio_merge.
	 */
	unsigned int nr_sorted;
	unsigned int nr_sorted_writes;
	struct list_head dispatch;		/* at-head requests */
	struct xd_per_prio per_prio[XD_NR_PRIO];
	int last_dir;
	unsigned int batching;
	unsigned int starved;
	/* A zone of a zoned device being written under zoned_qd1_writes. */
	bool qd1_zone_valid;
	u64 qd1_zone;
	/* Ever seen a request that is not best-effort? */
	bool mixed_prio;
	/* Protected by lock. */
	u64 request_merged;
	u64 insert_merged;
	u64 expired[2];
	u64 batches;
	u64 qd1_waits;
	u64 zone_boosted;
	u64 requeued;
	int qd1_max_in_flight;

	/* Writes in flight under zoned_qd1_writes. */
	atomic_t qd1_writes ____cacheline_aligned_in_smp;

	struct xd_pcpu_stats __percpu *pcpu;
	struct request_queue *q;
	bool zoned;

	/* Tunables (sysfs), read locklessly with READ_ONCE(). */
	int fifo_expire[2];			/* jiffies */
	int prio_aging_expire;			/* jiffies */
	int fifo_batch;
	int writes_starved;
	int front_merges;
	int nr_sched_batch;
	int head_request;
	int zoned_qd1_writes;
};

static_assert(offsetof(struct xd_data, core) == 0);

static enum xd_prio xd_ioprio_to_prio(unsigned short ioprio)
{
	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_RT:
		return XD_RT;
	case IOPRIO_CLASS_IDLE:
		return XD_IDLE;
	default:
		return XD_BE;
	}
}

static enum xd_prio xd_rq_prio(struct request *rq)
{
	return xd_ioprio_to_prio(req_get_ioprio(rq));
}

static struct xd_data *xd_of(struct request_queue *q)
{
	return q->elevator->elevator_data;
}

static u64 xd_zone_of(struct xd_data *dd, struct request *rq)
{
	return blk_rq_pos(rq) >> ilog2(xd_zone_sectors(dd->q));
}

static bool xd_qd1_active(struct xd_data *dd)
{
	return dd->zoned && READ_ONCE(dd->zoned_qd1_writes);
}

/* First request at or after @pos in the sort tree of @dir. */
static struct request *xd_from_pos(struct xd_per_prio *pp, int dir,
				   sector_t pos)
{
	struct rb_node *node = pp->sort_list[dir].rb_node;
	struct request *rq, *res = NULL;

	while (node) {
		rq = rb_entry(node, struct request, rb_node);
		if (blk_rq_pos(rq) >= pos) {
			res = rq;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return res;
}

static struct request *xd_lowest(struct xd_per_prio *pp, int dir)
{
	struct rb_node *node = rb_first(&pp->sort_list[dir]);

	return node ? rb_entry(node, struct request, rb_node) : NULL;
}

static struct request *xd_fifo_head(struct xd_per_prio *pp, int dir)
{
	return list_first_entry_or_null(&pp->fifo_list[dir], struct request,
					queuelist);
}

/* Take @rq, of level @pp, out of the FIFO and sort tree it is in. */
static void xd_remove_request(struct xd_data *dd, struct xd_per_prio *pp,
			      struct request *rq)
{
	struct request_queue *q = dd->q;

	pp->queued--;
	WRITE_ONCE(dd->nr_sorted, dd->nr_sorted - 1);
	if (rq_data_dir(rq) == WRITE)
		WRITE_ONCE(dd->nr_sorted_writes, dd->nr_sorted_writes - 1);
	list_del_init(&rq->queuelist);
	if (!RB_EMPTY_NODE(&rq->rb_node))
		elv_rb_del(&pp->sort_list[rq_data_dir(rq)], rq);
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
}

/*
 * Zone rules for writes.  Writes to a sequential zone must reach the device
 * in LBA order, whatever their priority: before zone write plugging (6.1)
 * the scheduler holds several writes of a zone and keeps one in flight per
 * zone (the zone write lock); with zoned_qd1_writes, one write is in flight
 * per device, zone by zone.  Priorities choose which zone goes next; within
 * a zone, the lowest queued write goes first, and a level whose write waits
 * behind a lower-priority one of the same zone dispatches that one on its
 * own turn (counted in zone_boosted) instead of waiting for it to age.
 */
static bool xd_zone_locked(struct request *rq)
{
#ifdef XD_ZONE_WRITE_LOCK
	return !blk_req_can_dispatch_to_zone(rq);
#else
	return false;
#endif
}

static bool xd_zoned_write(struct xd_data *dd, struct request *rq)
{
	return dd->zoned && rq_data_dir(rq) == WRITE;
}

/* The lowest queued write of level @pp in @zone, or NULL. */
static struct request *xd_level_zone_first(struct xd_data *dd,
					   struct xd_per_prio *pp, u64 zone)
{
	sector_t start = zone << ilog2(xd_zone_sectors(dd->q));
	struct request *rq = xd_from_pos(pp, WRITE, start);

	return rq && xd_zone_of(dd, rq) == zone ? rq : NULL;
}

/* The lowest queued write of @zone, of any priority, or NULL. */
static struct request *xd_zone_head(struct xd_data *dd, u64 zone)
{
	struct request *rq, *head = NULL;
	int p;

	for (p = 0; p < XD_NR_PRIO; p++) {
		/* Only best-effort I/O so far: one level to look at. */
		if (!dd->mixed_prio && p != XD_BE)
			continue;
		rq = xd_level_zone_first(dd, &dd->per_prio[p], zone);
		if (rq && (!head || blk_rq_pos(rq) < blk_rq_pos(head)))
			head = rq;
	}
	return head;
}

/*
 * The write to dispatch for a queued write @rq of a zoned device: the
 * lowest queued write of its zone, or NULL while the zone is locked.
 */
static struct request *xd_zone_write(struct xd_data *dd, struct request *rq)
{
	struct request *head = xd_zone_head(dd, xd_zone_of(dd, rq));

	if (head)
		rq = head;
	return xd_zone_locked(rq) ? NULL : rq;
}

/*
 * zoned_qd1_writes: one write in flight.  A priority level keeps the zone
 * being drained while it has writes there, else takes the zone of its
 * oldest write.  The zone never holds back a level with no writes in it,
 * so a higher priority gets the device at the next dispatch.
 */
static struct request *xd_qd1_pick(struct xd_data *dd, struct xd_per_prio *pp)
{
	struct request *rq;

	if (atomic_read(&dd->qd1_writes))
		return NULL;
	if (dd->qd1_zone_valid) {
		rq = xd_level_zone_first(dd, pp, dd->qd1_zone);
		if (rq)
			return xd_zone_write(dd, rq);
	}
	rq = xd_fifo_head(pp, WRITE);
	return rq ? xd_zone_write(dd, rq) : NULL;
}

/* Oldest dispatchable request of @dir, honouring zone constraints. */
static struct request *xd_fifo_pick(struct xd_data *dd, struct xd_per_prio *pp,
				    int dir)
{
	struct request *rq, *w;

	if (dir == READ || !dd->zoned)
		return xd_fifo_head(pp, dir);
	if (xd_qd1_active(dd))
		return xd_qd1_pick(dd, pp);

	list_for_each_entry(rq, &pp->fifo_list[WRITE], queuelist) {
		w = xd_zone_write(dd, rq);
		if (w)
			return w;
	}
	return NULL;
}

/* Next request in sort order after the last dispatch, or NULL. */
static struct request *xd_sorted_next(struct xd_data *dd,
				      struct xd_per_prio *pp, int dir)
{
	struct request *rq;

	if (dir == WRITE && xd_qd1_active(dd))
		return xd_qd1_pick(dd, pp);
	rq = xd_from_pos(pp, dir, pp->next_pos[dir]);
	if (rq && xd_zoned_write(dd, rq))
		return xd_zone_write(dd, rq);
	return rq;
}

static bool xd_fifo_expired(struct xd_per_prio *pp, int dir)
{
	struct request *rq = xd_fifo_head(pp, dir);

	return rq && time_is_before_eq_jiffies((unsigned long)rq->fifo_time);
}

/* Was @rq queued after @latest_start (jiffies)? */
static bool xd_started_after(struct xd_data *dd, struct request *rq,
			     unsigned long latest_start)
{
	unsigned long start = (unsigned long)rq->fifo_time -
			      READ_ONCE(dd->fifo_expire[rq_data_dir(rq)]);

	return time_after(start, latest_start);
}

/* Account @rq as dispatched; it is already off every scheduler list. */
static struct request *xd_start(struct xd_data *dd, struct request *rq)
{
	struct xd_per_prio *pp = rq->elv.priv[0];
	unsigned long state = XD_RQ_DISPATCHED;
	int dir = rq_data_dir(rq);

	pp->dispatched[dir]++;
	if (dd->mixed_prio) {
		atomic_inc(&pp->in_flight);
		state |= XD_RQ_IN_FLIGHT;
	}
	if (dir == WRITE && dd->zoned) {
		if (xd_qd1_active(dd)) {
			dd->qd1_max_in_flight = max(dd->qd1_max_in_flight,
						    atomic_inc_return(&dd->qd1_writes));
			state |= XD_RQ_QD1_WRITE;
			dd->qd1_zone = xd_zone_of(dd, rq);
			dd->qd1_zone_valid = true;
		}
#ifdef XD_ZONE_WRITE_LOCK
		blk_req_zone_write_lock(rq);
#endif
	}
	rq->elv.priv[1] = (void *)state;
	rq->rq_flags |= RQF_STARTED;
	return rq;
}

/*
 * Take @rq, chosen by level @pp, off the scheduler's lists: @rq may be of
 * another level when a zone's order made it go first.
 */
static struct request *xd_take(struct xd_data *dd, struct xd_per_prio *pp,
			       struct request *rq)
{
	struct xd_per_prio *own = rq->elv.priv[0];
	int dir = rq_data_dir(rq);

	if (own != pp)
		dd->zone_boosted++;
	xd_remove_request(dd, own, rq);
	own->next_pos[dir] = blk_rq_pos(rq) + blk_rq_sectors(rq);
	pp->next_pos[dir] = own->next_pos[dir];
	return xd_start(dd, rq);
}

/*
 * Choose the next request of one priority level: continue a batch in sort
 * order, else pick a direction (reads first unless writes were starved too
 * often), then the expired or oldest request, or the next in sort order.
 */
static struct request *xd_pick_prio(struct xd_data *dd, struct xd_per_prio *pp,
				    unsigned long latest_start)
{
	struct request *rq = NULL, *next;
	bool reads, writes;
	int dir;

	lockdep_assert_held(&dd->lock);

	next = xd_sorted_next(dd, pp, dd->last_dir);
	if (next && dd->batching < READ_ONCE(dd->fifo_batch)) {
		rq = next;
		goto found;
	}

	reads = !list_empty(&pp->fifo_list[READ]);
	writes = !list_empty(&pp->fifo_list[WRITE]);
	if (reads && !(writes &&
		       dd->starved++ >= READ_ONCE(dd->writes_starved) &&
		       xd_fifo_pick(dd, pp, WRITE))) {
		dir = READ;
	} else if (writes) {
		dd->starved = 0;
		dir = WRITE;
	} else {
		return NULL;
	}

	next = xd_sorted_next(dd, pp, dir);
	if (xd_fifo_expired(pp, dir)) {
		dd->expired[dir]++;
		rq = xd_fifo_pick(dd, pp, dir);
	} else if (next) {
		rq = next;
	} else if (READ_ONCE(dd->head_request) &&
		   !(dir == WRITE && xd_qd1_active(dd))) {
		/* C-LOOK: wrap to the lowest sector. */
		rq = xd_lowest(pp, dir);
		if (rq && xd_zoned_write(dd, rq))
			rq = xd_zone_write(dd, rq) ?: xd_fifo_pick(dd, pp, dir);
	} else {
		rq = xd_fifo_pick(dd, pp, dir);
	}
	if (!rq) {
		if (dir == WRITE && !list_empty(&pp->fifo_list[WRITE]))
			dd->qd1_waits++;
		return NULL;
	}
	dd->last_dir = dir;
	dd->batching = 0;
	dd->batches++;
found:
	if (xd_started_after(dd, rq, latest_start))
		return NULL;
	dd->batching++;
	return xd_take(dd, pp, rq);
}

/*
 * Requests of priority @p queued or in flight (those dispatched before
 * mixed_prio was set are not counted in flight).
 */
static unsigned int xd_queued(struct xd_data *dd, enum xd_prio p)
{
	struct xd_per_prio *pp = &dd->per_prio[p];

	return pp->queued + atomic_read(&pp->in_flight);
}

static struct request *xd_pick(struct xd_data *dd)
{
	unsigned long now = jiffies;
	struct request *rq;
	int p, busy = 0;

	lockdep_assert_held(&dd->lock);

	/* At-head (requeued) requests first, zone locks permitting. */
	list_for_each_entry(rq, &dd->dispatch, queuelist) {
		if (rq_data_dir(rq) == WRITE && dd->zoned &&
		    (xd_zone_locked(rq) ||
		     (xd_qd1_active(dd) && atomic_read(&dd->qd1_writes))))
			continue;
		list_del_init(&rq->queuelist);
		((struct xd_per_prio *)rq->elv.priv[0])->queued--;
		return xd_start(dd, rq);
	}

	/* Only best-effort I/O so far: one level, no aging to check. */
	if (!dd->mixed_prio)
		return xd_pick_prio(dd, &dd->per_prio[XD_BE], now);

	/* Lower priorities waiting longer than prio_aging_expire go first. */
	for (p = 0; p < XD_NR_PRIO; p++)
		busy += !!xd_queued(dd, p);
	if (busy > 1) {
		for (p = XD_BE; p < XD_NR_PRIO; p++) {
			rq = xd_pick_prio(dd, &dd->per_prio[p],
					  now - READ_ONCE(dd->prio_aging_expire));
			if (rq)
				return rq;
		}
	}

	/* Higher priorities first; lower ones wait while those are busy. */
	for (p = 0; p < XD_NR_PRIO; p++) {
		rq = xd_pick_prio(dd, &dd->per_prio[p], now);
		if (rq || xd_queued(dd, p))
			return rq;
	}
	return NULL;
}

static void xd_insert_one(struct xd_data *dd, struct request *rq,
			  xd_insert_t flags, unsigned long arrival,
			  struct list_head *free)
{
	struct request_queue *q = dd->q;
	enum xd_prio p = xd_rq_prio(rq);
	struct xd_per_prio *pp = &dd->per_prio[p];
	int dir = rq_data_dir(rq);

	lockdep_assert_held(&dd->lock);

	if (p != XD_BE)
		WRITE_ONCE(dd->mixed_prio, true);
	/* A requeued request was counted when first inserted... */
	if (!rq->elv.priv[0])
		pp->inserted++;
	rq->elv.priv[0] = pp;
	/* ...and gives back what its dispatch took. */
	if ((unsigned long)rq->elv.priv[1] & XD_RQ_QD1_WRITE)
		atomic_dec(&dd->qd1_writes);
	if ((unsigned long)rq->elv.priv[1] & XD_RQ_IN_FLIGHT)
		atomic_dec(&pp->in_flight);
	/*
	 * A requeued request ended the nr_sched_batch round that handed it
	 * out: the next round must not start with that round's count.
	 */
	if ((unsigned long)rq->elv.priv[1] & XD_RQ_DISPATCHED) {
		dd->requeued++;
		if (READ_ONCE(dd->round_last) == rq)
			cmpxchg(&dd->round_last, rq, NULL);
	}
	rq->elv.priv[1] = NULL;
#ifdef XD_ZONE_WRITE_LOCK
	blk_req_zone_write_unlock(rq);
#endif

	if (blk_mq_sched_try_insert_merge(q, rq, free)) {
		dd->insert_merged++;
		return;
	}

	pp->queued++;
	if (XD_INSERT_AT_HEAD(flags)) {
		list_add(&rq->queuelist, &dd->dispatch);
		rq->fifo_time = arrival;
		return;
	}

	WRITE_ONCE(dd->nr_sorted, dd->nr_sorted + 1);
	if (dir == WRITE)
		WRITE_ONCE(dd->nr_sorted_writes, dd->nr_sorted_writes + 1);
	elv_rb_add(&pp->sort_list[dir], rq);
	if (xd_rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
	rq->fifo_time = arrival + READ_ONCE(dd->fifo_expire[dir]);
	list_add_tail(&rq->queuelist, &pp->fifo_list[dir]);
}

/*
 * Insert @list, whose requests arrived at @arrival (jiffies), or, if
 * @deferred, each at the time it carries in fifo_time.
 */
static void xd_insert_list(struct xd_data *dd, struct list_head *list,
			   xd_insert_t flags, struct list_head *free,
			   bool deferred, unsigned long arrival)
{
	while (!list_empty(list)) {
		struct request *rq = list_first_entry(list, struct request,
						      queuelist);

		list_del_init(&rq->queuelist);
		xd_insert_one(dd, rq, flags,
			      deferred ? (unsigned long)rq->fifo_time : arrival,
			      free);
	}
}

/*
 * Sort deferred insertions in; the caller holds the scheduler lock.
 * Returns true if there were any.
 */
static noinline bool __xd_drain_deferred(struct xd_data *dd,
					 struct list_head *free)
{
	LIST_HEAD(head);
	LIST_HEAD(tail);

	if (!xsched_defer_take(&dd->core, &head, &tail))
		return false;
	xd_insert_list(dd, &head, XD_INSERT_FLAGS_HEAD, free, true, 0);
	xd_insert_list(dd, &tail, XD_INSERT_FLAGS_TAIL, free, true, 0);
	return true;
}

static __always_inline bool xd_drain_deferred(struct xd_data *dd,
					      struct list_head *free)
{
	return xsched_defer_pending(&dd->core) &&
	       __xd_drain_deferred(dd, free);
}

/*
 * nr_sched_batch: end a blk-mq dispatch round after N requests by returning
 * NULL.  blk-mq re-runs the queue after a delay when a round gets NULL
 * before any request, so a NULL must only ever end a round that already
 * dispatched.  A round has ended once the last request we handed out was
 * started by the driver or recycled; then the count starts again.
 */
static bool xd_round_full(struct xd_data *dd)
{
	int limit = READ_ONCE(dd->nr_sched_batch);
	struct request *last;
	bool full = false;

	if (!limit)
		return false;
	spin_lock(&dd->core.ready_lock);
	/* finish_request clears round_last once that request is done. */
	last = READ_ONCE(dd->round_last);
	if (!last || blk_mq_rq_state(last) != MQ_RQ_IDLE)
		dd->round_count = 0;
	if (dd->round_count >= limit) {
		dd->round_count = 0;
		WRITE_ONCE(dd->round_last, NULL);
		full = true;
	}
	spin_unlock(&dd->core.ready_lock);
	return full;
}

static void xd_round_account(struct xd_data *dd, struct request *rq)
{
	if (!READ_ONCE(dd->nr_sched_batch))
		return;
	spin_lock(&dd->core.ready_lock);
	WRITE_ONCE(dd->round_last, rq);
	dd->round_count++;
	spin_unlock(&dd->core.ready_lock);
}

/* More requests for a batch, for xsched_ready_fill(). */
static struct request *xd_pick_more(struct xsched_core *xc)
{
	return xd_pick(container_of(xc, struct xd_data, core));
}

/*
 * local_dispatch: with nothing queued here to order it against, a
 * best-effort insertion is parked on its CPU, whose dispatch, which blk-mq
 * runs next, hands it out without the scheduler lock: the request
 * mq-deadline would dispatch next anyway, without the lock round trips
 * and without moving it to another CPU.  At-head and requeued requests,
 * other priority classes, zoned writes and nr_sched_batch rounds take the
 * scheduler's path.  Returns true if @list was parked.
 */
static bool xd_may_park(struct xd_data *dd, struct list_head *list,
			xd_insert_t flags)
{
	struct xd_per_prio *pp = &dd->per_prio[XD_BE];
	unsigned long now = jiffies;
	unsigned int nr = 0;
	struct request *rq;

	if (!READ_ONCE(dd->core.local_dispatch) || XD_INSERT_AT_HEAD(flags) ||
	    READ_ONCE(dd->mixed_prio) || READ_ONCE(dd->nr_sched_batch) ||
	    READ_ONCE(dd->nr_sorted) || xsched_has_pending(&dd->core) ||
	    !list_empty_careful(&dd->dispatch))
		return false;
	list_for_each_entry(rq, list, queuelist) {
		if (rq->elv.priv[0] || xd_rq_prio(rq) != XD_BE ||
		    (dd->zoned && rq_data_dir(rq) == WRITE))
			return false;
		nr++;
	}
	/* Counted as inserted once parked; arrival for a later sort-in. */
	list_for_each_entry(rq, list, queuelist) {
		rq->elv.priv[0] = pp;
		rq->fifo_time = now;
	}
	if (xsched_local_park(&dd->core, list, nr, XD_IRQSAFE)) {
		this_cpu_add(dd->pcpu->parked, nr);
		return true;
	}
	list_for_each_entry(rq, list, queuelist)
		rq->elv.priv[0] = NULL;
	return false;
}

/* A parked request handed out by its own CPU. */
static struct request *xd_start_parked(struct xd_data *dd, struct request *rq)
{
	struct xd_per_prio *pp = rq->elv.priv[0];
	unsigned long state = XD_RQ_DISPATCHED;

	this_cpu_inc(dd->pcpu->local_dispatched[rq_data_dir(rq)]);
	if (READ_ONCE(dd->mixed_prio)) {
		atomic_inc(&pp->in_flight);
		state |= XD_RQ_IN_FLIGHT;
	}
	rq->elv.priv[1] = (void *)state;
	rq->rq_flags |= RQF_STARTED;
	return rq;
}

/* Sort every CPU's parked requests in, each at its arrival time. */
static void xd_take_parked(struct xd_data *dd, struct list_head *free)
{
	LIST_HEAD(list);

	lockdep_assert_held(&dd->lock);
	if (xsched_local_pending(&dd->core) &&
	    xsched_local_take(&dd->core, &list, XD_IRQSAFE))
		xd_insert_list(dd, &list, XD_INSERT_FLAGS_TAIL, free, true, 0);
}

/*
 * Anything to dispatch?  Lockless, for has_work and the dispatcher's last
 * look: deferred or ready requests, at-head ones, or sorted ones, unless
 * those are only writes held back by zoned_qd1_writes.
 */
static bool xd_work_queued(struct xd_data *dd)
{
	unsigned int n;

	if (xsched_has_pending(&dd->core) || xsched_local_pending(&dd->core) ||
	    !list_empty_careful(&dd->dispatch))
		return true;
	n = READ_ONCE(dd->nr_sorted);
	if (!n)
		return false;
	if (n != READ_ONCE(dd->nr_sorted_writes) || !xd_qd1_active(dd))
		return true;
	/*
	 * Writes held back by zoned_qd1_writes are not work until the write
	 * in flight completes; its completion re-runs the queue.  Pairs with
	 * the barrier in xd_finish_request(): a write inserted before this
	 * check is seen there if this misses the completion.
	 */
	smp_mb();
	if (!atomic_read(&dd->qd1_writes))
		return true;
	this_cpu_inc(dd->pcpu->qd1_holds);
	return false;
}

static struct request *xd_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct xd_data *dd = xd_of(hctx->queue);
	bool congested = xsched_congested(&dd->core, &dd->cong);
	bool serialize = congested &&
			 READ_ONCE(dd->core.serialize_dispatch);
	bool again = serialize;
	struct request *rq;
	LIST_HEAD(free);
	bool contended;
	int batch;

	/* This CPU's parked requests first, without the scheduler lock. */
	rq = xsched_local_pop(&dd->core, XD_IRQSAFE);
	if (rq)
		return xd_start_parked(dd, rq);
retry:
	if (!xsched_dispatch_begin(&dd->core, serialize))
		return NULL;

	if (xd_round_full(dd)) {
		/* Ends the blk-mq round on purpose: no second look. */
		this_cpu_inc(dd->pcpu->nr_sched_batch_cuts);
		xsched_dispatch_end(&dd->core, serialize);
		return NULL;
	}

	rq = xsched_ready_pop(&dd->core, XD_IRQSAFE);
	if (!rq) {
		/*
		 * Batch only under contention: a request moved to the ready
		 * list can no longer take merges, so on a quiet queue (a slow
		 * disk with a few sequential streams) requests stay in the
		 * sorted structures until the driver asks for them, as with
		 * one-at-a-time dispatch.
		 */
		contended = xsched_dispatch_lock(&dd->core, &dd->lock, false,
						 NULL);
		if (xd_drain_deferred(dd, &free))
			contended = true;
		xd_take_parked(dd, &free);
		xsched_cong_sample(&dd->core, &dd->cong, contended);
		rq = xd_pick(dd);
		batch = contended && congested ?
			READ_ONCE(dd->core.dispatch_batch) : 1;
		if (rq && batch > 1)
			xsched_ready_fill(&dd->core, batch, xd_pick_more);
		spin_unlock(&dd->lock);
		xd_free_requests(&free);
	}
	if (rq)
		xd_round_account(dd, rq);
	xsched_dispatch_end(&dd->core, serialize);

	if (!rq && again) {
		/* Requests left to us by contexts that saw us dispatching. */
		xsched_dispatch_recheck(serialize);
		again = false;
		if (xd_work_queued(dd))
			goto retry;
	}
	return rq;
}

static void xd_insert_requests(struct blk_mq_hw_ctx *hctx,
			       struct list_head *list, xd_insert_t flags)
{
	struct xd_data *dd = xd_of(hctx->queue);
	bool defer = READ_ONCE(dd->core.defer_insert) &&
		     xsched_congested(&dd->core, &dd->cong);
	enum xsched_ins how;
	LIST_HEAD(free);

	xsched_trace_insert(list);
	if (xd_may_park(dd, list, flags))
		return;

	how = xsched_insert_lock(&dd->core, &dd->lock, list,
				 XD_INSERT_AT_HEAD(flags), defer, XD_IRQSAFE,
				 NULL);
	if (how == XSCHED_INS_DEFERRED)
		return;

	/* Keep arrival order: earlier deferred requests go in first. */
	xsched_cong_sample(&dd->core, &dd->cong,
			   xd_drain_deferred(dd, &free) ||
			   how == XSCHED_INS_WAITED);
	xd_insert_list(dd, list, flags, &free, false, jiffies);
	spin_unlock(&dd->lock);
	xd_free_requests(&free);
}

static bool xd_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct xd_data *dd = xd_of(q);

	/*
	 * Nothing sorted, nothing to merge with: skip the lock.  A request
	 * sorted in meanwhile still gets its merges at insertion.
	 */
	if (!READ_ONCE(dd->nr_sorted))
		return false;

	return xsched_bio_merge(&dd->core, &dd->lock, q, bio, nr_segs,
				XD_IRQSAFE);
}

static int xd_request_merge(struct request_queue *q, struct request **rq,
			    struct bio *bio)
{
	struct xd_data *dd = xd_of(q);
	struct xd_per_prio *pp = &dd->per_prio[xd_ioprio_to_prio(bio->bi_ioprio)];

	if (!READ_ONCE(dd->front_merges))
		return ELEVATOR_NO_MERGE;

	return xsched_front_merge(q, &pp->sort_list[bio_data_dir(bio)], bio,
				  rq);
}

static void xd_request_merged(struct request_queue *q, struct request *req,
			      enum elv_merge type)
{
	struct xd_data *dd = xd_of(q);
	struct xd_per_prio *pp = &dd->per_prio[xd_rq_prio(req)];

	/* A front merge moved the start sector: re-sort. */
	if (type == ELEVATOR_FRONT_MERGE) {
		elv_rb_del(&pp->sort_list[rq_data_dir(req)], req);
		elv_rb_add(&pp->sort_list[rq_data_dir(req)], req);
	}
}

/*
 * @next was merged into @req.  @next is either queued here (two queued
 * requests became contiguous) or the request being inserted, merged at
 * insertion (blk_mq_sched_try_insert_merge(), counted in insert_merged),
 * which is on none of our lists and must not be uncounted.
 */
static void xd_requests_merged(struct request_queue *q, struct request *req,
			       struct request *next)
{
	struct xd_data *dd = xd_of(q);

	lockdep_assert_held(&dd->lock);
	if (list_empty(&next->queuelist))
		return;
	dd->request_merged++;

	/* The merged request inherits the earlier deadline. */
	if (!list_empty(&req->queuelist) &&
	    time_before((unsigned long)next->fifo_time,
			(unsigned long)req->fifo_time)) {
		list_move(&req->queuelist, &next->queuelist);
		req->fifo_time = next->fifo_time;
	}
	xd_remove_request(dd, next->elv.priv[0], next);
}

static void xd_prepare_request(struct request *rq)
{
	rq->elv.priv[0] = NULL;
	rq->elv.priv[1] = NULL;
}

static void xd_finish_request(struct request *rq)
{
	struct xd_per_prio *pp = rq->elv.priv[0];
	unsigned long state = (unsigned long)rq->elv.priv[1];
	struct xd_data *dd;
	int p;

	/* Requests that bypassed the scheduler (flush, passthrough). */
	if (!pp)
		return;
	if (!(state & XD_RQ_DISPATCHED))
		return;		/* merged into another request */
	dd = xd_of(rq->q);
	p = pp - dd->per_prio;
	this_cpu_inc(dd->pcpu->completed[p]);
	if (state & XD_RQ_IN_FLIGHT)
		atomic_dec(&pp->in_flight);
	/* The nr_sched_batch round that handed this out is over. */
	if (READ_ONCE(dd->nr_sched_batch) && READ_ONCE(dd->round_last) == rq)
		cmpxchg(&dd->round_last, rq, NULL);

	if (rq_data_dir(rq) != WRITE || !dd->zoned)
		return;
	if (state & XD_RQ_QD1_WRITE)
		atomic_dec(&dd->qd1_writes);
#ifdef XD_ZONE_WRITE_LOCK
	blk_req_zone_write_unlock(rq);
#endif
	/*
	 * Writes held back for this one: run the queue when it is freed.
	 * Pairs with the barrier in xd_has_work(): either this sees a write
	 * queued, or the inserter's has_work sees this write gone.
	 */
	smp_mb();
	if (READ_ONCE(dd->nr_sorted_writes) || xsched_has_pending(&dd->core) ||
	    !list_empty_careful(&dd->dispatch))
		blk_mq_sched_mark_restart_hctx(rq->mq_hctx);
}

static bool xd_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct xd_data *dd = xd_of(hctx->queue);

	/* Ours to hand out, whoever else dispatches. */
	if (xsched_local_mine(&dd->core))
		return true;
	/* The context dispatching takes it, and looks again before it stops. */
	if (xsched_dispatching_elsewhere(&dd->core))
		return false;
	return xd_work_queued(dd);
}

/* ---- knobs, counters and state for sysfs, debugfs and netlink -------- */

/* The knobs, in sysfs order; each is an int of struct xd_data. */
enum xd_knob_id {
	XD_K_READ_EXPIRE,
	XD_K_WRITE_EXPIRE,
	XD_K_WRITES_STARVED,
	XD_K_FRONT_MERGES,
#ifndef XD_QUEUE_ASYNC_DEPTH
	XD_K_ASYNC_DEPTH,
#endif
	XD_K_FIFO_BATCH,
	XD_K_PRIO_AGING_EXPIRE,
	XD_K_SERIALIZE_DISPATCH,
	XD_K_DEFER_INSERT,
	XD_K_MERGE_SKIP,
	XD_K_DISPATCH_BATCH,
	XD_K_NR_SCHED_BATCH,
	XD_K_HEAD_REQUEST,
	XD_K_ZONED_QD1_WRITES,
	XD_K_CONGESTION_THRESHOLD,
	XD_K_LOCAL_DISPATCH,
	XD_K_NR
};

struct xd_knob {
	size_t off;		/* of the int in struct xd_data */
	int min, max;		/* valid values, in user units */
	bool ms;		/* milliseconds outside, jiffies inside */
	bool zoned_only;	/* settable on zoned devices only */
};

#define XD_KNOB(id, field, lo, hi, is_ms)				\
	[id] = { .off = offsetof(struct xd_data, field), .min = lo,	\
		 .max = hi, .ms = is_ms }

static const struct xd_knob xd_knobs[XD_K_NR] = {
	XD_KNOB(XD_K_READ_EXPIRE, fifo_expire[READ], 0, XD_MAX_EXPIRE_MS, true),
	XD_KNOB(XD_K_WRITE_EXPIRE, fifo_expire[WRITE], 0, XD_MAX_EXPIRE_MS,
		true),
	XD_KNOB(XD_K_WRITES_STARVED, writes_starved, 0, INT_MAX, false),
	XD_KNOB(XD_K_FRONT_MERGES, front_merges, 0, 1, false),
#ifndef XD_QUEUE_ASYNC_DEPTH
	XD_KNOB(XD_K_ASYNC_DEPTH, core.async_depth, 1, INT_MAX, false),
#endif
	XD_KNOB(XD_K_FIFO_BATCH, fifo_batch, 0, INT_MAX, false),
	XD_KNOB(XD_K_PRIO_AGING_EXPIRE, prio_aging_expire, 0,
		XD_MAX_EXPIRE_MS, true),
	XD_KNOB(XD_K_SERIALIZE_DISPATCH, core.serialize_dispatch, 0, 1,
		false),
	XD_KNOB(XD_K_DEFER_INSERT, core.defer_insert, 0, 1, false),
	XD_KNOB(XD_K_MERGE_SKIP, core.merge_skip, 0, 1, false),
	XD_KNOB(XD_K_DISPATCH_BATCH, core.dispatch_batch, 1, XD_MAX_BATCH,
		false),
	XD_KNOB(XD_K_NR_SCHED_BATCH, nr_sched_batch, 0, INT_MAX, false),
	XD_KNOB(XD_K_HEAD_REQUEST, head_request, 0, 1, false),
	[XD_K_ZONED_QD1_WRITES] = {
		.off = offsetof(struct xd_data, zoned_qd1_writes),
		.min = 0, .max = 1, .zoned_only = true,
	},
	XD_KNOB(XD_K_CONGESTION_THRESHOLD, core.congestion_threshold, 0, 100,
		false),
	XD_KNOB(XD_K_LOCAL_DISPATCH, core.local_dispatch, 0, 1, false),
};

static const char *const xd_knob_names[XD_K_NR] = {
	[XD_K_READ_EXPIRE]		= "read_expire",
	[XD_K_WRITE_EXPIRE]		= "write_expire",
	[XD_K_WRITES_STARVED]		= "writes_starved",
	[XD_K_FRONT_MERGES]		= "front_merges",
#ifndef XD_QUEUE_ASYNC_DEPTH
	[XD_K_ASYNC_DEPTH]		= "async_depth",
#endif
	[XD_K_FIFO_BATCH]		= "fifo_batch",
	[XD_K_PRIO_AGING_EXPIRE]	= "prio_aging_expire",
	[XD_K_SERIALIZE_DISPATCH]	= "serialize_dispatch",
	[XD_K_DEFER_INSERT]		= "defer_insert",
	[XD_K_MERGE_SKIP]		= "merge_skip",
	[XD_K_DISPATCH_BATCH]		= "dispatch_batch",
	[XD_K_NR_SCHED_BATCH]		= "nr_sched_batch",
	[XD_K_HEAD_REQUEST]		= "head_request",
	[XD_K_ZONED_QD1_WRITES]		= "zoned_qd1_writes",
	[XD_K_CONGESTION_THRESHOLD]	= "congestion_threshold",
	[XD_K_LOCAL_DISPATCH]		= "local_dispatch",
};

static int *xd_knob_ptr(struct xd_data *dd, unsigned int knob)
{
	return (int *)((char *)dd + xd_knobs[knob].off);
}

static u64 xd_knob_get(void *priv, unsigned int knob)
{
	int v = READ_ONCE(*xd_knob_ptr(priv, knob));

	return xd_knobs[knob].ms ? jiffies_to_msecs(v) : v;
}

/* Process context, under schedctl_nl's mutex; no scheduler lock needed. */
static int xd_knob_set(void *priv, unsigned int knob, u64 val,
		       struct netlink_ext_ack *extack)
{
	const struct xd_knob *k = &xd_knobs[knob];
	struct xd_data *dd = priv;

	if (k->zoned_only && !dd->zoned) {
		NL_SET_ERR_MSG(extack, "xdeadline: knob needs a zoned device");
		return -EINVAL;
	}
	if (val < k->min || val > k->max) {
		NL_SET_ERR_MSG(extack, "xdeadline: value out of range");
		return -EINVAL;
	}
	WRITE_ONCE(*xd_knob_ptr(dd, knob),
		   k->ms ? msecs_to_jiffies(val) : (int)val);
	return 0;
}

/* The counters of debugfs sched/stats and of the netlink dump. */
enum xd_counter_id {
	/* inserted, dispatched read and write, completed; per priority */
	XD_C_PER_PRIO,
	XD_C_INSERTED = XD_C_PER_PRIO + 4 * XD_NR_PRIO,
	XD_C_DISPATCHED,
	XD_C_COMPLETED,
	XD_C_IN_FLIGHT,
	XD_C_MERGED_BIO,
	XD_C_MERGED_INSERT,
	XD_C_MERGED_REQUEST,
	XD_C_EXPIRED_READ,
	XD_C_EXPIRED_WRITE,
	XD_C_BATCHES,
	XD_C_MERGE_SKIPPED,
	XD_C_DISPATCH_SKIPPED,
	XD_C_DEFERRED,
	XD_C_READY_DISPATCHED,
	XD_C_NR_SCHED_BATCH_CUTS,
	XD_C_QD1_WAITS,
	XD_C_QD1_WRITES_IN_FLIGHT,
	XD_C_QD1_MAX_IN_FLIGHT,
	XD_C_ZONE_BOOSTED,
	XD_C_CONGESTION_PCT,
	XD_C_CONGESTED,
	XD_C_REQUEUED,
	XD_C_LOCAL_DISPATCHED,
	XD_C_PARKED,
	XD_C_LOCK_WAITS,
	XD_C_NR
};

static const char *const xd_counter_names[XD_C_NR] = {
	"inserted_rt", "dispatched_read_rt", "dispatched_write_rt",
	"completed_rt",
	"inserted_be", "dispatched_read_be", "dispatched_write_be",
	"completed_be",
	"inserted_idle", "dispatched_read_idle", "dispatched_write_idle",
	"completed_idle",
	"inserted", "dispatched", "completed", "in_flight",
	"merged_bio", "merged_insert", "merged_request",
	"expired_read", "expired_write", "batches",
	"merge_skipped", "dispatch_skipped", "deferred", "ready_dispatched",
	"nr_sched_batch_cuts", "qd1_waits", "qd1_writes_in_flight",
	"qd1_max_in_flight", "zone_boosted", "congestion_pct", "congested",
	"requeued", "local_dispatched", "parked", "lock_waits",
};

/* Sum the per-CPU counters, then read the locked ones. */
static void xd_counters_get(void *priv, u64 *v)
{
	struct xd_data *dd = priv;
	struct xd_pcpu_stats sum = {};
	int cpu, p;

	for_each_possible_cpu(cpu) {
		struct xd_pcpu_stats *s = per_cpu_ptr(dd->pcpu, cpu);

		for (p = 0; p < XD_NR_PRIO; p++)
			sum.completed[p] += s->completed[p];
		xsched_pcpu_add(&sum.core, &s->core);
		sum.nr_sched_batch_cuts += s->nr_sched_batch_cuts;
		sum.qd1_holds += s->qd1_holds;
		sum.parked += s->parked;
		sum.local_dispatched[READ] += s->local_dispatched[READ];
		sum.local_dispatched[WRITE] += s->local_dispatched[WRITE];
	}

	memset(v, 0, XD_C_NR * sizeof(*v));
	spin_lock(&dd->lock);
	for (p = 0; p < XD_NR_PRIO; p++) {
		struct xd_per_prio *pp = &dd->per_prio[p];
		u64 *pv = &v[XD_C_PER_PRIO + 4 * p];

		pv[0] = pp->inserted;
		pv[1] = pp->dispatched[READ];
		pv[2] = pp->dispatched[WRITE];
		pv[3] = sum.completed[p];
		/* Parked requests are best-effort. */
		if (p == XD_BE) {
			pv[0] += sum.parked;
			pv[1] += sum.local_dispatched[READ];
			pv[2] += sum.local_dispatched[WRITE];
		}
		v[XD_C_INSERTED] += pv[0];
		v[XD_C_DISPATCHED] += pv[1] + pv[2];
		v[XD_C_COMPLETED] += pv[3];
	}
	/* A requeued request was dispatched twice and completes once. */
	v[XD_C_IN_FLIGHT] = v[XD_C_DISPATCHED] - v[XD_C_COMPLETED] -
			    dd->requeued;
	v[XD_C_MERGED_BIO] = sum.core.bio_merged;
	v[XD_C_MERGED_INSERT] = dd->insert_merged;
	v[XD_C_MERGED_REQUEST] = dd->request_merged;
	v[XD_C_EXPIRED_READ] = dd->expired[READ];
	v[XD_C_EXPIRED_WRITE] = dd->expired[WRITE];
	v[XD_C_BATCHES] = dd->batches;
	v[XD_C_MERGE_SKIPPED] = sum.core.bio_merge_skipped;
	v[XD_C_DISPATCH_SKIPPED] = sum.core.dispatch_skipped;
	v[XD_C_DEFERRED] = sum.core.deferred;
	v[XD_C_READY_DISPATCHED] = sum.core.ready_dispatched;
	v[XD_C_LOCK_WAITS] = sum.core.lock_waits;
	v[XD_C_NR_SCHED_BATCH_CUTS] = sum.nr_sched_batch_cuts;
	/* held back at dispatch, or reported as no work for them */
	v[XD_C_QD1_WAITS] = dd->qd1_waits + sum.qd1_holds;
	v[XD_C_QD1_WRITES_IN_FLIGHT] = atomic_read(&dd->qd1_writes);
	v[XD_C_QD1_MAX_IN_FLIGHT] = dd->qd1_max_in_flight;
	v[XD_C_ZONE_BOOSTED] = dd->zone_boosted;
	v[XD_C_CONGESTION_PCT] = xsched_cong_pct(&dd->cong);
	v[XD_C_CONGESTED] = xsched_congested(&dd->core, &dd->cong);
	v[XD_C_REQUEUED] = dd->requeued;
	v[XD_C_LOCAL_DISPATCHED] = sum.local_dispatched[READ] +
				   sum.local_dispatched[WRITE];
	v[XD_C_PARKED] = xsched_local_count(&dd->core);
	spin_unlock(&dd->lock);
}

/* Derived state; netlink announces a change caused by a knob write. */
enum { XD_S_ZONED, XD_S_QD1_ACTIVE, XD_S_NR };

static const char *const xd_state_names[XD_S_NR] = {
	[XD_S_ZONED]		= "zoned",
	[XD_S_QD1_ACTIVE]	= "qd1_active",
};

static u64 xd_state_get(void *priv, unsigned int state)
{
	struct xd_data *dd = priv;

	return state == XD_S_ZONED ? dd->zoned : xd_qd1_active(dd);
}

static const struct schedctl_sched_ops xd_nl_ops = {
	.name		= XD_NAME,
	.nr_knobs	= XD_K_NR,
	.knob_names	= xd_knob_names,
	.knob_get	= xd_knob_get,
	.knob_set	= xd_knob_set,
	.nr_counters	= XD_C_NR,
	.counter_names	= xd_counter_names,
	.counters_get	= xd_counters_get,
	.nr_states	= XD_S_NR,
	.state_names	= xd_state_names,
	.state_get	= xd_state_get,
};

static int xd_init_data(struct request_queue *q, struct elevator_queue *eq)
{
	struct xd_data *dd;
	int p, ret;

	dd = kzalloc_node(sizeof(*dd), GFP_KERNEL, q->node);
	if (!dd)
		return -ENOMEM;
	dd->pcpu = alloc_percpu(struct xd_pcpu_stats);
	if (!dd->pcpu) {
		kfree(dd);
		return -ENOMEM;
	}

	xsched_core_init(&dd->core, &dd->pcpu->core, q, XD_DISPATCH_BATCH);
	ret = xsched_local_init(&dd->core, q->node);
	if (ret) {
		free_percpu(dd->pcpu);
		kfree(dd);
		return ret;
	}
	spin_lock_init(&dd->lock);
	INIT_LIST_HEAD(&dd->dispatch);
	for (p = 0; p < XD_NR_PRIO; p++) {
		struct xd_per_prio *pp = &dd->per_prio[p];

		pp->sort_list[READ] = RB_ROOT;
		pp->sort_list[WRITE] = RB_ROOT;
		INIT_LIST_HEAD(&pp->fifo_list[READ]);
		INIT_LIST_HEAD(&pp->fifo_list[WRITE]);
	}
	atomic_set(&dd->qd1_writes, 0);
	dd->q = q;
	dd->zoned = blk_queue_is_zoned(q) && xd_zone_sectors(q) &&
		    is_power_of_2(xd_zone_sectors(q));
	dd->last_dir = WRITE;
	dd->fifo_expire[READ] = XD_READ_EXPIRE;
	dd->fifo_expire[WRITE] = XD_WRITE_EXPIRE;
	dd->prio_aging_expire = XD_PRIO_AGING_EXPIRE;
	dd->fifo_batch = XD_FIFO_BATCH;
	dd->writes_starved = XD_WRITES_STARVED;
	dd->front_merges = 1;
	dd->zoned_qd1_writes = dd->zoned && xd_queue_rotational(q);
	/* On a disk, seek order matters more than the CPU cost per I/O. */
	dd->core.local_dispatch = !xd_queue_rotational(q);

	/* Last: from here on netlink readers see this instance. */
	ret = xsched_attach(&dd->core, &xd_nl_ops, q, eq);
	if (ret) {
		xsched_local_free(&dd->core);
		free_percpu(dd->pcpu);
		kfree(dd);
		return ret;
	}
	return 0;
}

XSCHED_INIT_SCHED(xd)

static void xd_exit_sched(struct elevator_queue *e)
{
	struct xd_data *dd = e->elevator_data;
	int p;

	/* First, so that no netlink reader sees the instance go away. */
	schedctl_nl_unregister(&dd->core.nl);
	/* The queue is frozen: every request has completed. */
	WARN_ON_ONCE(!xsched_core_empty(&dd->core) || !list_empty(&dd->dispatch));
	for (p = 0; p < XD_NR_PRIO; p++) {
		WARN_ON_ONCE(!list_empty(&dd->per_prio[p].fifo_list[READ]));
		WARN_ON_ONCE(!list_empty(&dd->per_prio[p].fifo_list[WRITE]));
	}
	xsched_local_free(&dd->core);
	free_percpu(dd->pcpu);
	kfree(dd);
}

/* ---- sysfs knobs ---------------------------------------------------- */

#define XD_KNOB_ATTR(name, id)	XSCHED_KNOB_ATTR(xd, name, id)

XD_KNOB_ATTR(read_expire, XD_K_READ_EXPIRE)
XD_KNOB_ATTR(write_expire, XD_K_WRITE_EXPIRE)
XD_KNOB_ATTR(prio_aging_expire, XD_K_PRIO_AGING_EXPIRE)
XD_KNOB_ATTR(fifo_batch, XD_K_FIFO_BATCH)
XD_KNOB_ATTR(writes_starved, XD_K_WRITES_STARVED)
XD_KNOB_ATTR(front_merges, XD_K_FRONT_MERGES)
XD_KNOB_ATTR(serialize_dispatch, XD_K_SERIALIZE_DISPATCH)
XD_KNOB_ATTR(defer_insert, XD_K_DEFER_INSERT)
XD_KNOB_ATTR(merge_skip, XD_K_MERGE_SKIP)
XD_KNOB_ATTR(dispatch_batch, XD_K_DISPATCH_BATCH)
XD_KNOB_ATTR(nr_sched_batch, XD_K_NR_SCHED_BATCH)
XD_KNOB_ATTR(head_request, XD_K_HEAD_REQUEST)
#ifndef XD_QUEUE_ASYNC_DEPTH
XD_KNOB_ATTR(async_depth, XD_K_ASYNC_DEPTH)
#endif
XD_KNOB_ATTR(zoned_qd1_writes, XD_K_ZONED_QD1_WRITES)
XD_KNOB_ATTR(congestion_threshold, XD_K_CONGESTION_THRESHOLD)
XD_KNOB_ATTR(local_dispatch, XD_K_LOCAL_DISPATCH)

#define XD_ATTR(name)		XSCHED_ATTR(xd, name)

static XD_ELV_ATTRS_CONST_QUAL struct elv_fs_entry xd_attrs[] = {
	XD_ATTR(read_expire),
	XD_ATTR(write_expire),
	XD_ATTR(writes_starved),
	XD_ATTR(front_merges),
#ifndef XD_QUEUE_ASYNC_DEPTH
	XD_ATTR(async_depth),
#endif
	XD_ATTR(fifo_batch),
	XD_ATTR(prio_aging_expire),
	XD_ATTR(serialize_dispatch),
	XD_ATTR(defer_insert),
	XD_ATTR(merge_skip),
	XD_ATTR(dispatch_batch),
	XD_ATTR(nr_sched_batch),
	XD_ATTR(head_request),
	XD_ATTR(zoned_qd1_writes),
	XD_ATTR(congestion_threshold),
	XD_ATTR(local_dispatch),
	__ATTR_NULL
};

/* ---- debugfs counters ----------------------------------------------- */

static int xd_stats_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	u64 v[XD_C_NR];
	int i;

	xd_counters_get(xd_of(q), v);
	for (i = 0; i < XD_C_NR; i++)
		seq_printf(m, "%s %llu\n", xd_counter_names[i], v[i]);
	return 0;
}

static const struct blk_mq_debugfs_attr xd_queue_debugfs[] = {
	{ "stats", 0400, xd_stats_show },
	{},
};

static struct elevator_type xd_type = {
	.ops = {
		.depth_updated		= xsched_depth_updated,
#ifndef XD_DEPTH_UPDATED_TAKES_Q
		.init_hctx		= xsched_init_hctx,
#endif
		.limit_depth		= xsched_limit_depth,
		.insert_requests	= xd_insert_requests,
		.dispatch_request	= xd_dispatch_request,
		.prepare_request	= xd_prepare_request,
		.finish_request		= xd_finish_request,
		.next_request		= elv_rb_latter_request,
		.former_request		= elv_rb_former_request,
		.bio_merge		= xd_bio_merge,
		.request_merge		= xd_request_merge,
		.requests_merged	= xd_requests_merged,
		.request_merged		= xd_request_merged,
		.has_work		= xd_has_work,
		.init_sched		= xd_init_sched,
		.exit_sched		= xd_exit_sched,
	},
	.queue_debugfs_attrs	= xd_queue_debugfs,
	.elevator_attrs		= xd_attrs,
	.elevator_name		= XD_NAME,
#ifdef XD_ZONE_WRITE_LOCK
	.elevator_features	= ELEVATOR_F_ZBD_SEQ_WRITE,
#endif
	.elevator_owner		= THIS_MODULE,
};
MODULE_ALIAS("xdeadline-iosched");

static int __init xd_init(void)
{
	return elv_register(&xd_type);
}

static void __exit xd_exit(void)
{
	elv_unregister(&xd_type);
}

module_init(xd_init);
module_exit(xd_exit);

MODULE_AUTHOR("schedctl developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Scalable deadline I/O scheduler with HDD and SMR knobs");
