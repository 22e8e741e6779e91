/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scalability and elevator glue shared by the schedctl schedulers,
 * xdeadline (xdeadline.c) and xbfq (xbfq-iosched.c): what both do the
 * same way around their own scheduling logic.
 *
 *  - struct xsched_core, the first member of each scheduler's per-queue
 *    data (so elevator_data points at it): netlink registration, per-CPU
 *    counter pointer, the shared knobs, and the state of the ideas below,
 *    each lock and the serialization bit on its own cache line.
 *  - serialize_dispatch: xsched_dispatch_begin() / xsched_dispatch_end();
 *    has_work reports no work while another context dispatches
 *    (xsched_dispatching_elsewhere()), and that context looks again
 *    before it stops (xsched_dispatch_recheck()).
 *  - defer_insert: xsched_insert_lock() queues the requests on a lightly
 *    locked list when the scheduler lock is contended; the next holder of
 *    that lock takes them with xsched_defer_take() and sorts them in.
 *  - merge_skip: xsched_bio_merge(); xsched_front_merge() for
 *    request_merge.
 *  - dispatch_batch: xsched_ready_fill() and xsched_ready_pop(), the ready
 *    list handed out without the scheduler lock.
 *  - congestion: how often the scheduler lock had to be waited for
 *    (xsched_cong_sample()); serialized dispatch, deferred insertion and
 *    batch dispatch engage only while it is above congestion_threshold
 *    (xsched_congested()), because on a lightly contended lock each of
 *    them moves requests to another CPU and costs more than it saves.
 *  - async_depth: the limit_depth, depth_updated and init_hctx ops.
 *  - init_sched, sysfs knob show/store and counter summing boilerplate.
 *  - xsched_trace_insert(): the block_rq_insert tracepoint (blktrace's "I"
 *    events), as the in-tree schedulers fire it.
 *
 * The scheduler lock itself stays in each scheduler's data, on a cache line
 * with the state it protects; the helpers that take it are passed it.
 * xdeadline never takes its locks from interrupt context, xbfq's
 * completions do: @irqsafe (a constant in each scheduler) says whether the
 * locks a helper takes without the scheduler lock held must disable
 * interrupts.  Helpers called with the scheduler lock held take the other
 * locks plainly either way.
 *
 * Lock order: the scheduler lock before insert_lock and ready_lock; the
 * latter two are never held together.
 */
#ifndef XSCHED_COMMON_H
#define XSCHED_COMMON_H

#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/jiffies.h>
#include <linux/spinlock.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/blk-mq.h>
#include <trace/events/block.h>

#include "xd_compat.h"
#include "schedctl_nl_kapi.h"

/*
 * Fire block_rq_insert for each request of @list, which enters the
 * scheduler (blktrace shows it as "I", as under mq-deadline and bfq).
 * Whatever happens next, parking, deferral or a merge at insertion, it
 * was inserted.  A static branch while no one traces.
 */
static inline void xsched_trace_insert(struct list_head *list)
{
	struct request *rq;

	if (!trace_block_rq_insert_enabled())
		return;
	list_for_each_entry(rq, list, queuelist)
		trace_block_rq_insert(rq);
}

/* Per-CPU counters of the shared paths; first in each scheduler's own. */
struct xsched_pcpu_stats {
	u64 bio_merged;
	u64 bio_merge_skipped;
	u64 dispatch_skipped;
	u64 deferred;
	u64 ready_dispatched;
	u64 lock_waits;
};

struct xsched_core {
	/* Registration with schedctl_nl (netlink stats and events). */
	struct schedctl_inst nl;
	/* The xsched_pcpu_stats part of the scheduler's per-CPU counters. */
	struct xsched_pcpu_stats __percpu *pcpu;

	/* Tunables (sysfs), read locklessly with READ_ONCE(). */
	int async_depth;
	int serialize_dispatch;
	int defer_insert;
	int merge_skip;
	int dispatch_batch;
	int congestion_threshold;	/* percent; 0: always engaged */
	int local_dispatch;

	/* Dispatch serialization. */
	unsigned long run_state ____cacheline_aligned_in_smp;

	/* Requests chosen in order, handed out without the scheduler lock. */
	spinlock_t ready_lock ____cacheline_aligned_in_smp;
	struct list_head ready;

	/* Deferred insertions. */
	spinlock_t insert_lock ____cacheline_aligned_in_smp;
	struct list_head ins_head;
	struct list_head ins_tail;

	/*
	 * Parked requests (local_dispatch): the CPUs with some, on a cache
	 * line of its own, and the per-CPU lists.
	 */
	struct cpumask *local_mask;
	struct xsched_local __percpu *local;
};

/* Bits of xsched_core.run_state. */
enum { XSCHED_DISPATCHING };

/*
 * Congestion of a scheduler lock: an EWMA (weight 1/256) of the lock's
 * acquisitions by insertion and dispatch that found it held, 0 (none) to
 * XSCHED_CONG_ONE (all).  Kept by each scheduler on its lock's cache line
 * and written only under that lock.  A slow average: under virtualization
 * a preempted lock holder makes short bursts of waits (with weight 1/16,
 * two CPUs waiting 5% of the time crossed 50% often enough to engage the
 * paths for a tenth of their requests).
 */
#define XSCHED_CONG_SHIFT	8
#define XSCHED_CONG_ONE		(1 << 16)
/* Default congestion_threshold, percent of acquisitions that waited. */
#define XSCHED_CONG_THRESHOLD	75

struct xsched_cong {
	int level;
	bool on;	/* above the threshold; off again below half of it */
};

/* The core of the scheduler attached to @q. */
static inline struct xsched_core *xsched_of(struct request_queue *q)
{
	return q->elevator->elevator_data;
}

/*
 * Set up @xc, whose per-CPU counters are @pcpu, with the defaults of the
 * shared knobs; @dispatch_batch is the scheduler's own.
 */
static inline void xsched_core_init(struct xsched_core *xc,
				    struct xsched_pcpu_stats __percpu *pcpu,
				    struct request_queue *q, int dispatch_batch)
{
	spin_lock_init(&xc->ready_lock);
	spin_lock_init(&xc->insert_lock);
	INIT_LIST_HEAD(&xc->ready);
	INIT_LIST_HEAD(&xc->ins_head);
	INIT_LIST_HEAD(&xc->ins_tail);
	xc->pcpu = pcpu;
	xc->async_depth = q->nr_requests;
	xc->serialize_dispatch = 1;
	xc->defer_insert = 1;
	xc->merge_skip = 1;
	xc->dispatch_batch = dispatch_batch;
	xc->congestion_threshold = XSCHED_CONG_THRESHOLD;
}

/* Nothing on the ready or deferred lists (for exit_sched's checks). */
static inline bool xsched_core_empty(struct xsched_core *xc)
{
	return list_empty(&xc->ready) && list_empty(&xc->ins_head) &&
	       list_empty(&xc->ins_tail) &&
	       (!xc->local_mask || cpumask_empty(xc->local_mask));
}

/* Deferred insertions waiting?  Lockless. */
static __always_inline bool xsched_defer_pending(struct xsched_core *xc)
{
	return !list_empty_careful(&xc->ins_head) ||
	       !list_empty_careful(&xc->ins_tail);
}

/* Requests on the ready or deferred lists?  Lockless, for has_work. */
static inline bool xsched_has_pending(struct xsched_core *xc)
{
	return !list_empty_careful(&xc->ready) || xsched_defer_pending(xc);
}

/* ---- locks, irq-safe or not ------------------------------------------ */

static __always_inline void xsched_lock(spinlock_t *lock, bool irqsafe,
					unsigned long *flags)
{
	if (irqsafe)
		spin_lock_irqsave(lock, *flags);
	else
		spin_lock(lock);
}

static __always_inline bool xsched_trylock(spinlock_t *lock, bool irqsafe,
					   unsigned long *flags)
{
	if (irqsafe)
		return spin_trylock_irqsave(lock, *flags);
	return spin_trylock(lock);
}

static __always_inline void xsched_unlock(spinlock_t *lock, bool irqsafe,
					  unsigned long *flags)
{
	if (irqsafe)
		spin_unlock_irqrestore(lock, *flags);
	else
		spin_unlock(lock);
}

/*
 * Take the scheduler lock @lock for dispatch: true if it was held
 * elsewhere and had to be waited for (counted in lock_waits, as the
 * insertions that found it held are).  @flags as for xsched_lock().
 */
static __always_inline bool xsched_dispatch_lock(struct xsched_core *xc,
						 spinlock_t *lock, bool irqsafe,
						 unsigned long *flags)
{
	if (xsched_trylock(lock, irqsafe, flags))
		return false;
	this_cpu_inc(xc->pcpu->lock_waits);
	xsched_lock(lock, irqsafe, flags);
	return true;
}

/* ---- congestion --------------------------------------------------------- */

/* Under the scheduler lock: one more acquisition, that @waited or not. */
static inline void xsched_cong_sample(struct xsched_core *xc,
				      struct xsched_cong *cg, bool waited)
{
	int on = READ_ONCE(xc->congestion_threshold) * XSCHED_CONG_ONE / 100;
	int level = cg->level - (cg->level >> XSCHED_CONG_SHIFT);

	if (waited)
		level += XSCHED_CONG_ONE >> XSCHED_CONG_SHIFT;
	cg->level = level;
	if (level > on)
		WRITE_ONCE(cg->on, true);
	else if (level <= on / 2)
		WRITE_ONCE(cg->on, false);
}

/* Do the scalability paths engage?  Lockless. */
static __always_inline bool xsched_congested(struct xsched_core *xc,
					     struct xsched_cong *cg)
{
	return !READ_ONCE(xc->congestion_threshold) || READ_ONCE(cg->on);
}

/* The congestion as a percentage, for the counters. */
static inline u64 xsched_cong_pct(struct xsched_cong *cg)
{
	return (u64)READ_ONCE(cg->level) * 100 / XSCHED_CONG_ONE;
}

/* ---- serialize_dispatch ---------------------------------------------- */

/*
 * With @serialize (serialize_dispatch, read once by the caller), only one
 * context runs the dispatch logic: false, counted in dispatch_skipped, if
 * another one is at it; the caller then returns NULL at once (blk-mq
 * re-runs the queue).  Otherwise pair with xsched_dispatch_end().
 */
static inline bool xsched_dispatch_begin(struct xsched_core *xc,
					 bool serialize)
{
	if (serialize && (test_bit(XSCHED_DISPATCHING, &xc->run_state) ||
			  test_and_set_bit_lock(XSCHED_DISPATCHING,
						&xc->run_state))) {
		this_cpu_inc(xc->pcpu->dispatch_skipped);
		return false;
	}
	return true;
}

static inline void xsched_dispatch_end(struct xsched_core *xc, bool serialize)
{
	if (serialize)
		clear_bit_unlock(XSCHED_DISPATCHING, &xc->run_state);
}

/*
 * For has_work: is another context running the dispatch logic?  Then it
 * takes what is queued, and this one need not dispatch: returning NULL
 * from dispatch_request instead would make blk-mq arm a delayed re-run
 * of every hardware queue (mod_delayed_work_on, some thousand
 * instructions) each time.  The barrier orders the caller's insertion
 * before the test; xsched_dispatch_recheck() is the other half.
 */
static inline bool xsched_dispatching_elsewhere(struct xsched_core *xc)
{
	if (!READ_ONCE(xc->serialize_dispatch))
		return false;
	/* Our insertion before the test; pairs with xsched_dispatch_recheck. */
	smp_mb();
	return test_bit(XSCHED_DISPATCHING, &xc->run_state);
}

/*
 * After xsched_dispatch_end() of a dispatch that found nothing: with
 * serialize_dispatch, order the end before the caller looks at its queues
 * again, so that a request inserted by a context that saw us dispatching
 * (and left) is seen here.
 */
static inline void xsched_dispatch_recheck(bool serialize)
{
	if (serialize)
		smp_mb__after_atomic();	/* pairs with xsched_dispatching_elsewhere */
}

/* ---- defer_insert ----------------------------------------------------- */

/* What xsched_insert_lock() did. */
enum xsched_ins {
	XSCHED_INS_LOCKED,	/* took the lock at once */
	XSCHED_INS_WAITED,	/* took the lock after waiting for it */
	XSCHED_INS_DEFERRED,	/* queued @list instead: lock not held */
};

/*
 * Start inserting @list: take @lock, the scheduler lock.  With @defer
 * (defer_insert, engaged) and @lock held elsewhere, stamp each request
 * with its arrival time (jiffies in fifo_time, where deferred requests
 * carry it) and queue @list for the dispatcher to sort in instead.
 * @flags holds the saved irq state if @irqsafe (else unused, may be NULL).
 */
static __always_inline enum xsched_ins
xsched_insert_lock(struct xsched_core *xc, spinlock_t *lock,
		   struct list_head *list, bool at_head, bool defer,
		   bool irqsafe, unsigned long *flags)
{
	unsigned long now;
	struct request *rq;
	u64 n = 0;

	if (xsched_trylock(lock, irqsafe, flags))
		return XSCHED_INS_LOCKED;
	this_cpu_inc(xc->pcpu->lock_waits);
	if (!defer) {
		xsched_lock(lock, irqsafe, flags);
		return XSCHED_INS_WAITED;
	}
	/* Contended: queue for the dispatcher to sort in. */
	now = jiffies;
	list_for_each_entry(rq, list, queuelist) {
		rq->fifo_time = now;
		n++;
	}
	xsched_lock(&xc->insert_lock, irqsafe, flags);
	list_splice_tail_init(list, at_head ? &xc->ins_head : &xc->ins_tail);
	xsched_unlock(&xc->insert_lock, irqsafe, flags);
	this_cpu_add(xc->pcpu->deferred, n);
	return XSCHED_INS_DEFERRED;
}

/*
 * Take the deferred insertions onto @head (at-head ones) and @tail; the
 * caller holds the scheduler lock and sorts them in, @head first.  Returns
 * true if there were any.
 */

static inline bool xsched_defer_take(struct xsched_core *xc,
				     struct list_head *head,
				     struct list_head *tail)
{
	if (!xsched_defer_pending(xc))
		return false;
	spin_lock(&xc->insert_lock);
	list_splice_init(&xc->ins_head, head);
	list_splice_init(&xc->ins_tail, tail);
	spin_unlock(&xc->insert_lock);
	return !list_empty(head) || !list_empty(tail);
}

/* ---- local_dispatch ---------------------------------------------------- */

/*
 * A CPU's parked requests: inserted when the scheduler held nothing to
 * order them against, handed out by that CPU's next dispatch without the
 * scheduler lock (xsched_local_pop()), or taken over by any other
 * dispatcher into the scheduler's structures (xsched_local_take()).  At
 * most one insertion's requests are parked per CPU.  A scheduler whose
 * lock is taken from completions (hardirq) and held while it parks
 * passes @irqsafe: a dispatcher holding a CPU's list lock must not be
 * interrupted into that scheduler lock.
 */
struct xsched_local {
	spinlock_t lock;
	struct list_head list;
	unsigned int nr;	/* parked, for the gauge */
};

static inline int xsched_local_init(struct xsched_core *xc, int node)
{
	int cpu;

	xc->local = alloc_percpu(struct xsched_local);
	if (!xc->local)
		return -ENOMEM;
	xc->local_mask = kzalloc_node(max_t(size_t, cpumask_size(),
					    L1_CACHE_BYTES), GFP_KERNEL, node);
	if (!xc->local_mask) {
		free_percpu(xc->local);
		xc->local = NULL;
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		struct xsched_local *l = per_cpu_ptr(xc->local, cpu);

		spin_lock_init(&l->lock);
		INIT_LIST_HEAD(&l->list);
	}
	return 0;
}

static inline void xsched_local_free(struct xsched_core *xc)
{
	kfree(xc->local_mask);
	free_percpu(xc->local);
}

/* Requests parked on any CPU?  Lockless, for has_work. */
static __always_inline bool xsched_local_pending(struct xsched_core *xc)
{
	return !cpumask_empty(xc->local_mask);
}

/* Requests parked on this CPU?  Lockless, for has_work. */
static __always_inline bool xsched_local_mine(struct xsched_core *xc)
{
	return cpumask_test_cpu(raw_smp_processor_id(), xc->local_mask);
}

/*
 * Park @list, whose requests the caller found it may hand out unordered,
 * on this CPU; false (and @list untouched) if this CPU has some parked
 * already.  Preemption may move us meanwhile: the list is then another
 * CPU's, which that CPU or any dispatcher takes as well.
 */
static inline bool xsched_local_park(struct xsched_core *xc,
				     struct list_head *list, unsigned int nr,
				     bool irqsafe)
{
	int cpu = raw_smp_processor_id();
	struct xsched_local *l = per_cpu_ptr(xc->local, cpu);
	unsigned long flags;
	bool parked = false;

	xsched_lock(&l->lock, irqsafe, &flags);
	if (list_empty(&l->list)) {
		list_splice_tail_init(list, &l->list);
		l->nr = nr;
		/* Under l->lock: the bit and the list change together. */
		cpumask_set_cpu(cpu, xc->local_mask);
		parked = true;
	}
	xsched_unlock(&l->lock, irqsafe, &flags);
	return parked;
}

/* The oldest request parked on this CPU, or NULL. */
static inline struct request *xsched_local_pop(struct xsched_core *xc,
					       bool irqsafe)
{
	int cpu = raw_smp_processor_id();
	struct xsched_local *l;
	struct request *rq;
	unsigned long flags;

	if (!cpumask_test_cpu(cpu, xc->local_mask))
		return NULL;
	l = per_cpu_ptr(xc->local, cpu);
	xsched_lock(&l->lock, irqsafe, &flags);
	rq = list_first_entry_or_null(&l->list, struct request, queuelist);
	if (rq) {
		list_del_init(&rq->queuelist);
		if (!--l->nr)
			cpumask_clear_cpu(cpu, xc->local_mask);
	}
	xsched_unlock(&l->lock, irqsafe, &flags);
	return rq;
}

/*
 * Move every CPU's parked requests to the tail of @list, oldest CPU list
 * first as found; the caller holds its scheduler lock and sorts them in.
 * Returns true if there were any.
 */
static inline bool xsched_local_take(struct xsched_core *xc,
				     struct list_head *list, bool irqsafe)
{
	unsigned long flags;
	bool any = false;
	int cpu;

	for_each_cpu(cpu, xc->local_mask) {
		struct xsched_local *l = per_cpu_ptr(xc->local, cpu);

		xsched_lock(&l->lock, irqsafe, &flags);
		if (l->nr) {
			list_splice_tail_init(&l->list, list);
			l->nr = 0;
			any = true;
		}
		cpumask_clear_cpu(cpu, xc->local_mask);
		xsched_unlock(&l->lock, irqsafe, &flags);
	}
	return any;
}

/* Requests parked on all CPUs, for counters; racy but never torn. */
static inline unsigned int xsched_local_count(struct xsched_core *xc)
{
	unsigned int n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(per_cpu_ptr(xc->local, cpu)->nr);
	return n;
}

/* ---- merge_skip --------------------------------------------------------- */

/*
 * The bio_merge op, under @lock, the scheduler lock; with merge_skip set,
 * skip the lookup while @lock is contended.  @around, if not NULL, is
 * called with @arg under @lock right before the lookup (@begin true) and
 * right after it (false): the scheduler's allow_merge and request_merge
 * run in between.
 */
static __always_inline bool __xsched_bio_merge(struct xsched_core *xc,
					       spinlock_t *lock,
					       struct request_queue *q,
					       struct bio *bio,
					       unsigned int nr_segs,
					       bool irqsafe,
					       void (*around)(void *arg,
							      bool begin),
					       void *arg)
{
	struct request *free = NULL;
	unsigned long flags;
	bool merged;

	if (READ_ONCE(xc->merge_skip)) {
		if (!xsched_trylock(lock, irqsafe, &flags)) {
			this_cpu_inc(xc->pcpu->bio_merge_skipped);
			return false;
		}
	} else {
		xsched_lock(lock, irqsafe, &flags);
	}
	if (around)
		around(arg, true);
	merged = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	if (around)
		around(arg, false);
	xsched_unlock(lock, irqsafe, &flags);

	if (free)
		blk_mq_free_request(free);
	if (merged)
		this_cpu_inc(xc->pcpu->bio_merged);
	return merged;
}

static __always_inline bool xsched_bio_merge(struct xsched_core *xc,
					     spinlock_t *lock,
					     struct request_queue *q,
					     struct bio *bio,
					     unsigned int nr_segs,
					     bool irqsafe)
{
	return __xsched_bio_merge(xc, lock, q, bio, nr_segs, irqsafe, NULL,
				  NULL);
}

/*
 * The request_merge lookup for a front merge of @bio: a request in the
 * sector-sorted tree @sort that starts where @bio ends.
 */
static inline int xsched_front_merge(struct request_queue *q,
				     struct rb_root *sort, struct bio *bio,
				     struct request **rq)
{
	sector_t end = bio_end_sector(bio);
	struct request *cand;

	cand = elv_rb_find(sort, end);
	if (cand && blk_rq_pos(cand) == end && elv_bio_merge_ok(cand, bio)) {
		*rq = cand;
		if (req_op(cand) == REQ_OP_DISCARD &&
		    queue_max_discard_segments(q) > 1)
			return ELEVATOR_DISCARD_MERGE;
		return ELEVATOR_FRONT_MERGE;
	}
	return ELEVATOR_NO_MERGE;
}

/* ---- the ready list (dispatch_batch) ---------------------------------- */

/* The first ready request, or NULL; without the scheduler lock. */
static __always_inline struct request *xsched_ready_pop(struct xsched_core *xc,
							bool irqsafe)
{
	struct request *rq;
	unsigned long flags;

	if (list_empty_careful(&xc->ready))
		return NULL;
	xsched_lock(&xc->ready_lock, irqsafe, &flags);
	rq = list_first_entry_or_null(&xc->ready, struct request, queuelist);
	if (rq)
		list_del_init(&rq->queuelist);
	xsched_unlock(&xc->ready_lock, irqsafe, &flags);
	if (rq)
		this_cpu_inc(xc->pcpu->ready_dispatched);
	return rq;
}

/*
 * Append @list, requests picked already, to the ready list.  @irqsafe as
 * for xsched_lock(); false where the caller holds its scheduler lock.
 */
static __always_inline void xsched_ready_add(struct xsched_core *xc,
					     struct list_head *list,
					     bool irqsafe)
{
	unsigned long flags;

	xsched_lock(&xc->ready_lock, irqsafe, &flags);
	list_splice_tail(list, &xc->ready);
	xsched_unlock(&xc->ready_lock, irqsafe, &flags);
}

/*
 * The caller, holding the scheduler lock, has picked one request of a
 * batch of @batch: move up to @batch - 1 more, chosen by @pick in
 * scheduling order, to the ready list.
 */
static __always_inline void
xsched_ready_fill(struct xsched_core *xc, int batch,
		  struct request *(*pick)(struct xsched_core *xc))
{
	LIST_HEAD(more);
	struct request *next;
	int n;

	for (n = 1; n < batch; n++) {
		next = pick(xc);
		if (!next)
			break;
		list_add_tail(&next->queuelist, &more);
	}
	if (!list_empty(&more))
		xsched_ready_add(xc, &more, false);
}

/* ---- async_depth -------------------------------------------------------- */

/* The async_depth in force: the queue's on 7.x, else the knob. */
static inline unsigned int xsched_async_depth(struct request_queue *q)
{
#ifdef XD_QUEUE_ASYNC_DEPTH
	return READ_ONCE(q->async_depth);
#else
	return READ_ONCE(xsched_of(q)->async_depth);
#endif
}

/*
 * Limit the allocation described by @data to @depth scheduler tags of
 * nr_requests: the shallow depth is per sbitmap word on older kernels
 * (rounded up, at least one tag a word), of the whole map on newer ones.
 * A word holds 1 << shift bits, or fewer where the map is smaller: a map
 * of 2 or 3 tags (a device of one command) is one word of a long's
 * shift, where half of 64 bits would be no limit on 2.
 */
static inline void xsched_set_shallow_depth(struct blk_mq_alloc_data *data,
					    unsigned int depth)
{
#ifdef XD_SHALLOW_DEPTH_PER_WORD
	struct sbitmap_queue *bt = &data->hctx->sched_tags->bitmap_tags;
	unsigned int nrr = data->q->nr_requests;
	unsigned int bits = min(1U << bt->sb.shift, bt->sb.depth);

	depth = (depth * bits + nrr - 1) / nrr;
#endif
	data->shallow_depth = max(depth, 1U);
}

/*
 * May a batch of @need scheduler tags be taken with no shallow depth,
 * under a limit of @depth of @nrr tags?  A shallow depth bounds where
 * in each word of the map a tag may be taken (below @depth/@nrr of the
 * word: rounded down here, per word or in proportion by kernel), not
 * how many are held, and a batch takes the free bits among @need from
 * its word's first free bit.  So a batch goes unlimited only where, in
 * every word it could land in, it would stay under that bound with
 * room for one more batch: the first free bit is at most the bits in
 * use, so those plus twice @need must fit.  Then the tags held lie
 * under each word's bound and their number under the limit, unless
 * other CPUs take more than @need tags of one word between this read
 * and the batch.  A racy read of the map: bits freed but not yet
 * cleared count as in use, which errs on the side of the limit.  Not
 * sbitmap_weight(): that walks every word twice (set, then cleared)
 * with no early stop, once per batch on the allocation path.  Every
 * word but maybe the last is full, so one share serves them all.
 */
static inline bool xsched_batch_fits(const struct sbitmap *sb,
				     unsigned int need, unsigned int depth,
				     unsigned int nrr)
{
	unsigned int word = 1U << sb->shift;
	unsigned int full = word * depth / nrr;
	unsigned int i;

	for (i = 0; i < sb->map_nr; i++) {
		unsigned int bits = __map_depth(sb, i);
		unsigned int bound = bits == word ? full : bits * depth / nrr;

		if (hweight_long(READ_ONCE(sb->map[i].word)) + 2 * need > bound)
			return false;
	}
	return true;
}

/*
 * Hold the allocation described by @data to @depth scheduler tags.
 *
 * A shallow depth turns off blk-mq's batched tag allocation (a plug's
 * tags taken in one go), so it is set only where the limit can bite:
 * not at or above nr_requests, and not for a batch that fits under it
 * wherever it lands (xsched_batch_fits()).  The shallow depth itself is
 * no exact count of tags either (per word, or in proportion to each
 * word).
 */
static inline void xsched_limit_tags(struct blk_mq_alloc_data *data,
				     unsigned int depth)
{
	unsigned int nrr = data->q->nr_requests;

	if (depth >= nrr)
		return;
	if (data->nr_tags > 1 &&
	    xsched_batch_fits(&data->hctx->sched_tags->bitmap_tags.sb,
			      data->nr_tags, depth, nrr))
		return;
	xsched_set_shallow_depth(data, depth);
}

/* Throttle async I/O and writes to async_depth tags (stock semantics). */
static inline void xsched_limit_depth(blk_opf_t opf,
				      struct blk_mq_alloc_data *data)
{
	if (op_is_sync(opf) && !op_is_write(opf))
		return;
	xsched_limit_tags(data, xsched_async_depth(data->q));
}

#ifdef XD_DEPTH_UPDATED_TAKES_Q
/* Tell every hardware queue's tag map the smallest limit we ask for. */
static inline void xsched_min_shallow_depth(struct request_queue *q,
					    unsigned int depth)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	queue_for_each_hw_ctx(q, hctx, i)
		sbitmap_queue_min_shallow_depth(&hctx->sched_tags->bitmap_tags,
						depth);
}

static inline void xsched_depth_updated(struct request_queue *q)
{
	xsched_min_shallow_depth(q, q->async_depth);
}
#else
/*
 * The nr_requests that @hctx's scheduler tags now have.  The block layer
 * calls depth_updated for each hardware queue right after resizing its
 * scheduler tags, but stores the new q->nr_requests only after the last
 * one: there, q->nr_requests is still the old value.
 */
static inline unsigned int xsched_hctx_nr_requests(struct blk_mq_hw_ctx *hctx)
{
	struct blk_mq_tags *tags = hctx->sched_tags;

	return tags->bitmap_tags.sb.depth + tags->nr_reserved_tags;
}

static inline void xsched_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	struct request_queue *q = hctx->queue;

	WRITE_ONCE(xsched_of(q)->async_depth, xsched_hctx_nr_requests(hctx));
	sbitmap_queue_min_shallow_depth(&hctx->sched_tags->bitmap_tags, 1);
}

static inline int xsched_init_hctx(struct blk_mq_hw_ctx *hctx,
				   unsigned int hctx_idx)
{
	xsched_depth_updated(hctx);
	return 0;
}
#endif

/* ---- init_sched --------------------------------------------------------- */

/*
 * Last step of init_data: register with schedctl_nl (from here on netlink
 * readers see this instance, whose data starts with @xc), then attach it
 * to @q.  On failure nothing is attached; the caller frees its data.
 */
static inline int xsched_attach(struct xsched_core *xc,
				const struct schedctl_sched_ops *ops,
				struct request_queue *q,
				struct elevator_queue *eq)
{
	int ret;

	ret = schedctl_nl_register(&xc->nl, ops, q, xc);
	if (ret)
		return ret;
	eq->elevator_data = xc;
	/* One set of queues for the whole device, like mq-deadline. */
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);
	q->elevator = eq;
#ifdef XD_QUEUE_ASYNC_DEPTH
	q->async_depth = q->nr_requests;
	xsched_depth_updated(q);
#endif
	return 0;
}

/*
 * XSCHED_INIT_SCHED(prefix) defines the init_sched op <prefix>_init_sched
 * around int <prefix>_init_data(q, eq): where the elevator core passes the
 * elevator_queue, directly; elsewhere init_sched allocates it first.
 */
#ifdef XD_INIT_SCHED_TAKES_EQ
#define XSCHED_INIT_SCHED(prefix)					\
static int prefix##_init_sched(struct request_queue *q,			\
			       struct elevator_queue *eq)		\
{									\
	return prefix##_init_data(q, eq);				\
}
#else
static inline int
xsched_alloc_init_sched(struct request_queue *q, struct elevator_type *e,
			int (*init_data)(struct request_queue *q,
					 struct elevator_queue *eq))
{
	struct elevator_queue *eq;
	int ret;

	eq = elevator_alloc(q, e);
	if (!eq)
		return -ENOMEM;
	ret = init_data(q, eq);
	if (ret)
		kobject_put(&eq->kobj);
	return ret;
}

#define XSCHED_INIT_SCHED(prefix)					\
static int prefix##_init_sched(struct request_queue *q,			\
			       struct elevator_type *e)			\
{									\
	return xsched_alloc_init_sched(q, e, prefix##_init_data);	\
}
#endif

/* ---- sysfs knobs and counters ----------------------------------------- */

/*
 * A decimal int, then the knob's own checks (netlink shares them);
 * -EINVAL for anything else.  The change is announced on netlink.
 */
static inline ssize_t xsched_knob_store(struct elevator_queue *e,
					unsigned int knob, const char *page,
					size_t count)
{
	struct xsched_core *xc = e->elevator_data;
	int v, ret;

	if (kstrtoint(page, 10, &v) || v < 0)
		return -EINVAL;
	ret = schedctl_nl_knob_write(&xc->nl, knob, v);
	return ret ? ret : count;
}

/*
 * The sysfs show and store functions <prefix>_<name>_show/_store of knob
 * @id: the value as <prefix>_knob_get() has it in the knob's units, and
 * xsched_knob_store().  XSCHED_ATTR(prefix, name) is its elv_fs_entry.
 */
#define XSCHED_KNOB_ATTR(prefix, name, id)				\
static ssize_t prefix##_##name##_show(struct elevator_queue *e,		\
				      char *page)			\
{									\
	return sysfs_emit(page, "%llu\n",				\
			  prefix##_knob_get(e->elevator_data, id));	\
}									\
static ssize_t prefix##_##name##_store(struct elevator_queue *e,	\
				       const char *page, size_t count)	\
{									\
	return xsched_knob_store(e, id, page, count);			\
}

#define XSCHED_ATTR(prefix, name) \
	__ATTR(name, 0644, prefix##_##name##_show, prefix##_##name##_store)

/* Add one CPU's shared counters @s to @sum. */
static inline void xsched_pcpu_add(struct xsched_pcpu_stats *sum,
				   const struct xsched_pcpu_stats *s)
{
	sum->bio_merged += s->bio_merged;
	sum->bio_merge_skipped += s->bio_merge_skipped;
	sum->dispatch_skipped += s->dispatch_skipped;
	sum->deferred += s->deferred;
	sum->ready_dispatched += s->ready_dispatched;
	sum->lock_waits += s->lock_waits;
}

#endif /* XSCHED_COMMON_H */
