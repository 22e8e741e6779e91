// SPDX-License-Identifier: GPL-2.0
/*
 * xbfq's B-WF2Q+ service trees: within a class (RT, BE or IDLE), which
 * busy queue is served next.  Each class keeps its busy queues, but the
 * one in service, in two rbtrees, eligible (S <= V) by finish time F and
 * pending (S > V) by start time S, and two weight sums: wsum, of the busy
 * queues, and vsum, which its virtual time V advances by, of the busy
 * queues and those that went idle less than slice_idle ago (on the
 * linger list).
 *
 * Decided here: which tree a queue waits in, the next queue of a class
 * (the eligible one with the smallest F; V jumps to the smallest S when
 * none is eligible), the weight sums as queues go idle, linger and come
 * back, and where a queue whose I/O priority changed goes (the new
 * class's tree, at that class's V).
 *
 * Decided in xbfq-iosched.c: when a queue becomes busy, with what raising
 * and budget, and the S and F it starts with (xb_activate()); when its
 * slot ends, what it is charged and its next budget (xb_expire()); V's
 * advance per request (xb_take()); the order of the classes
 * (xb_pick_queue()); idling and injection.  The tree operations on the
 * request path (xb_tree_del(), xb_set_weight(), xb_vsum_leave(),
 * xb_linger_expire(), xb_should_yield()) are static inline in xbfq.h.
 *
 * All of it runs under xbd->lock.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/rbtree.h>

#include "xbfq.h"

static void xb_tree_insert(struct rb_root *root, struct xb_queue *xq,
			   bool by_finish)
{
	struct rb_node **p = &root->rb_node, *parent = NULL;
	u64 key = by_finish ? xq->vfinish : xq->vstart;

	while (*p) {
		struct xb_queue *e = rb_entry(*p, struct xb_queue, node);
		u64 ekey = by_finish ? e->vfinish : e->vstart;

		parent = *p;
		if (xb_after(ekey, key))
			p = &(*p)->rb_left;
		else
			p = &(*p)->rb_right;
	}
	rb_link_node(&xq->node, parent, p);
	rb_insert_color(&xq->node, root);
}

void xb_tree_add(struct xb_data *xbd, struct xb_queue *xq)
{
	struct xb_class *c = &xbd->cls[xq->cls];

	if (xb_after(xq->vstart, c->vtime)) {
		xb_tree_insert(&c->pend, xq, false);
		xq->tree = XB_TREE_PEND;
	} else {
		xb_tree_insert(&c->elig, xq, true);
		xq->tree = XB_TREE_ELIG;
	}
}

/* Move queues that became eligible (S <= V) to the eligible tree. */
void xb_update_eligible(struct xb_class *c)
{
	struct rb_node *n;

	while ((n = rb_first(&c->pend))) {
		struct xb_queue *xq = rb_entry(n, struct xb_queue, node);

		if (xb_after(xq->vstart, c->vtime))
			break;
		rb_erase(n, &c->pend);
		xb_tree_insert(&c->elig, xq, true);
		xq->tree = XB_TREE_ELIG;
	}
}

/* The eligible queue with the smallest finish time, off its tree. */
struct xb_queue *xb_class_pick(struct xb_data *xbd, int cls)
{
	struct xb_class *c = &xbd->cls[cls];
	struct xb_queue *xq;
	struct rb_node *n;

	xb_update_eligible(c);
	if (RB_EMPTY_ROOT(&c->elig)) {
		n = rb_first(&c->pend);
		if (!n)
			return NULL;
		/* Nobody eligible: V jumps to the smallest start time. */
		c->vtime = rb_entry(n, struct xb_queue, node)->vstart;
		xb_update_eligible(c);
	}
	xq = rb_entry(rb_first(&c->elig), struct xb_queue, node);
	xb_tree_del(xbd, xq);
	return xq;
}

/*
 * Virtual time advances by service / vsum, where vsum also counts queues
 * that went idle less than slice_idle ago: a queue between two
 * synchronous requests has not given up its share, and letting V race
 * ahead at the rate of the remaining queues would take it away.
 */
/* Called for a queue that has requests or is in service: not the last put. */
void xb_vsum_enter(struct xb_data *xbd, struct xb_queue *xq)
{
	struct xb_class *c = &xbd->cls[xq->cls];

	if (xq->in_vsum)
		c->vsum -= xq->vsum_weight;
	c->vsum += xq->weight;
	xq->vsum_weight = xq->weight;
	xq->in_vsum = true;
	if (!list_empty(&xq->linger)) {
		list_del_init(&xq->linger);
		xb_put_ref_locked(xbd, xq);
	}
}

static void xb_vsum_linger(struct xb_data *xbd, struct xb_queue *xq,
			   u64 now)
{
	xq->linger_until = now + max_t(u64, READ_ONCE(xbd->slice_idle_ns),
				       NSEC_PER_MSEC);
	if (list_empty(&xq->linger)) {
		list_add_tail(&xq->linger, &xbd->linger);
		xb_get_ref(xq);
	} else {
		list_move_tail(&xq->linger, &xbd->linger);
	}
}

void xb_deactivate(struct xb_data *xbd, struct xb_queue *xq, u64 now)
{
	struct xb_class *c = &xbd->cls[xq->cls];

	xb_tree_del(xbd, xq);
	c->nr_busy--;
	c->wsum -= xq->weight;
	xq->busy = false;
	xb_vsum_linger(xbd, xq, now);
}

/*
 * The I/O priority of @xq's requests changed to class @cls, level @level.
 * An idle queue just takes it; a busy one waiting in its class's tree
 * moves to the new class's tree at once, starting at that class's
 * virtual time (its place in the old class means nothing there); the
 * queue in service finishes its slot first: xb_expire() comes back here.
 */
void xb_set_prio(struct xb_data *xbd, struct xb_queue *xq, u8 cls,
		 u8 level, u64 now)
{
	struct xb_class *c = &xbd->cls[xq->cls];

	lockdep_assert_held(&xbd->lock);
	if (xq == xbd->in_service) {
		xq->prio_pending = true;
		xq->new_cls = cls;
		xq->new_level = level;
		return;
	}
	xq->prio_pending = false;
	if (xq->busy) {
		xb_tree_del(xbd, xq);
		c->nr_busy--;
		c->wsum -= xq->weight;
	}
	xb_vsum_leave(xbd, xq);
	xq->cls = cls;
	xq->level = level;
	c = &xbd->cls[cls];
	xq->vfinish = c->vtime;
	if (xq->busy) {
		xb_wr_update(xbd, xq, now);
		xq->weight = xb_base_weight(cls, level) * xq->wr_coeff;
		if (cls == XB_IDLE && !c->nr_busy)
			xbd->idle_wait_ns = now;
		c->nr_busy++;
		c->wsum += xq->weight;
		xb_vsum_enter(xbd, xq);
		xq->vstart = c->vtime;
		xq->vfinish = xq->vstart + xb_vt(xq->budget, xq->weight);
		xb_tree_add(xbd, xq);
	}
	xb_update_active(xbd, xq, now);
}
