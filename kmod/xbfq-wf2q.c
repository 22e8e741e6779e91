// SPDX-License-Identifier: GPL-2.0
/*
 * xbfq's B-WF2Q+ service trees: which group, and within a group's class
 * (RT, BE or IDLE), which busy queue is served next.
 *
 * Queues.  Each class of a group keeps its busy queues, but the
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
 * Groups (control groups, xbfq-cgroup.c).  Once the group layer is on,
 * each group is an entity of its parent group's tree while it has busy
 * queues or busy child groups, with the same rules one level up: start
 * S = max(F, the parent's V), finish F = S + max_budget / weight while it
 * waits; the parent's V advances by each dispatched request's charge
 * over the weights of its busy children (kwsum).  A queue is picked by
 * descending from xbd->root through the eligible child with the
 * smallest F at each level (each one marked in service in its parent,
 * off the tree) to a group with busy queues of its own, then by class
 * order within that group.  When the queue's slot ends, every group on
 * its path is charged what it was served in the slot (F = S + served /
 * weight) and requeued with S = F, or leaves its parent's tree if it has
 * nothing busy left.  Until a cgroup below the root does I/O on the
 * device, none of this runs: all queues are in xbd->top and picked from
 * its classes directly.
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
	struct xb_class *c = xb_cls(xq);

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
struct xb_queue *xb_class_pick(struct xb_data *xbd, struct xb_class *c)
{
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
	struct xb_class *c = xb_cls(xq);

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
	struct xb_class *c = xb_cls(xq);

	xb_tree_del(xbd, xq);
	c->nr_busy--;
	c->wsum -= xq->weight;
	xq->busy = false;
	if (xb_queue_orphaned(xbd, xq))
		xb_vsum_leave(xbd, xq);
	else
		xb_vsum_linger(xbd, xq, now);
	xb_group_queue_idle(xbd, xq->grp);
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
	struct xb_class *c = xb_cls(xq);

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
	c = xb_cls(xq);
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

/* ---- groups --------------------------------------------------------------- */

void xb_group_init(struct xb_group *g, struct xb_group *parent)
{
	int c;

	for (c = 0; c < XB_NR_CLASS; c++) {
		g->cls[c].elig = RB_ROOT;
		g->cls[c].pend = RB_ROOT;
	}
	RB_CLEAR_NODE(&g->node);
	g->kelig = RB_ROOT;
	g->kpend = RB_ROOT;
	INIT_LIST_HEAD(&g->kidle);
	INIT_LIST_HEAD(&g->kidle_link);
	g->parent = parent;
	g->weight = XB_GROUP_WEIGHT;
	INIT_LIST_HEAD(&g->link);
}

static void xb_kid_insert(struct rb_root *root, struct xb_group *g,
			  bool by_finish)
{
	struct rb_node **p = &root->rb_node, *parent = NULL;
	u64 key = by_finish ? g->vfinish : g->vstart;

	while (*p) {
		struct xb_group *e = rb_entry(*p, struct xb_group, node);

		parent = *p;
		if (xb_after(by_finish ? e->vfinish : e->vstart, key))
			p = &(*p)->rb_left;
		else
			p = &(*p)->rb_right;
	}
	rb_link_node(&g->node, parent, p);
	rb_insert_color(&g->node, root);
}

static void xb_kid_add(struct xb_group *p, struct xb_group *g)
{
	bool pend = xb_after(g->vstart, p->kvtime);

	xb_kid_insert(pend ? &p->kpend : &p->kelig, g, !pend);
	g->tree = pend ? XB_TREE_PEND : XB_TREE_ELIG;
}

static void xb_kid_del(struct xb_group *p, struct xb_group *g)
{
	if (g->tree == XB_TREE_ELIG)
		rb_erase(&g->node, &p->kelig);
	else if (g->tree == XB_TREE_PEND)
		rb_erase(&g->node, &p->kpend);
	g->tree = XB_TREE_NONE;
}

/* Move @p's children that became eligible (S <= V) to its eligible tree. */
static void xb_kid_update_eligible(struct xb_group *p)
{
	struct rb_node *n;

	while ((n = rb_first(&p->kpend))) {
		struct xb_group *g = rb_entry(n, struct xb_group, node);

		if (xb_after(g->vstart, p->kvtime))
			break;
		rb_erase(n, &p->kpend);
		xb_kid_insert(&p->kelig, g, true);
		g->tree = XB_TREE_ELIG;
	}
}

/*
 * An idle child's weight leaves @p's kwsum once V passed its F: until
 * then it is owed nothing and owes nothing, and a group whose process
 * thinks between two requests does not come back to find V raced ahead
 * at the others' rate (BFQ's idle tree; xbfq's queues linger in vsum).
 */
static void xb_kid_forget(struct xb_group *p)
{
	struct xb_group *g, *tmp;

	list_for_each_entry_safe(g, tmp, &p->kidle, kidle_link) {
		if (xb_after(g->vfinish, p->kvtime))
			continue;
		list_del_init(&g->kidle_link);
		p->kwsum -= g->weight;
		g->in_kwsum = false;
	}
}

/* The eligible child of @p with the smallest F, off the tree. */
static struct xb_group *xb_kid_pick(struct xb_group *p)
{
	struct xb_group *g;
	struct rb_node *n;

	xb_kid_update_eligible(p);
	if (RB_EMPTY_ROOT(&p->kelig)) {
		n = rb_first(&p->kpend);
		if (!n)
			return NULL;
		/* Nobody eligible: V jumps to the smallest start time. */
		p->kvtime = rb_entry(n, struct xb_group, node)->vstart;
		xb_kid_update_eligible(p);
	}
	xb_kid_forget(p);
	g = rb_entry(rb_first(&p->kelig), struct xb_group, node);
	xb_kid_del(p, g);
	return g;
}

/*
 * @g has something busy now: it and every idle ancestor below the root
 * enter their parents' trees, no earlier than the parent's V (no credit
 * for idleness) nor than their last F.
 */
void xb_group_activate(struct xb_data *xbd, struct xb_group *g)
{
	lockdep_assert_held(&xbd->lock);
	while (g != &xbd->root && !g->busy) {
		struct xb_group *p = g->parent;

		xb_group_refresh_weight(xbd, g);
		g->busy = true;
		g->vstart = xb_after(g->vfinish, p->kvtime) ? g->vfinish :
							     p->kvtime;
		g->vfinish = g->vstart + xb_vt(xb_max_budget(xbd), g->weight);
		xb_kid_add(p, g);
		if (g->in_kwsum) {
			list_del_init(&g->kidle_link);
		} else {
			p->kwsum += g->weight;
			g->in_kwsum = true;
		}
		p->nr_busy_kids++;
		g = p;
	}
}

/* @g may have nothing busy left: leave the parent's tree, upwards. */
void xb_group_deactivate(struct xb_data *xbd, struct xb_group *g)
{
	lockdep_assert_held(&xbd->lock);
	while (g != &xbd->root && g->busy && !g->nr_busy_kids &&
	       !xb_group_own_busy(g)) {
		struct xb_group *p = g->parent;

		xb_kid_del(p, g);
		if (p->kin_service == g)
			p->kin_service = NULL;
		g->busy = false;
		/* Its F is what it was charged: the S it was requeued at. */
		g->vfinish = g->vstart;
		list_add_tail(&g->kidle_link, &p->kidle);
		p->nr_busy_kids--;
		g = p;
	}
}

/*
 * The group whose queues are served next: from the root, the eligible
 * child with the smallest F at each level, marked in service in its
 * parent, down to a group with busy queues of its own.  NULL if nothing
 * is busy.
 */
struct xb_group *xb_group_descend(struct xb_data *xbd)
{
	struct xb_group *g = &xbd->root;

	lockdep_assert_held(&xbd->lock);
	while (!xb_group_own_busy(g)) {
		struct xb_group *k;

		k = g->nr_busy_kids ? xb_kid_pick(g) : NULL;
		if (!k) {
			/* Only the root may have nothing busy. */
			WARN_ON_ONCE(g != &xbd->root);
			return NULL;
		}
		g->kin_service = k;
		k->slot_served = 0;
		g = k;
	}
	return g;
}

/*
 * The slot of a queue of @g ended: every group on its path is charged
 * what it was served in the slot and waits in its parent's tree again
 * (xb_group_deactivate() takes out those left with nothing busy).
 */
void xb_group_expire(struct xb_data *xbd, struct xb_group *g)
{
	lockdep_assert_held(&xbd->lock);
	for (; g != &xbd->root; g = g->parent) {
		struct xb_group *p = g->parent;

		if (p->kin_service != g)
			continue;
		p->kin_service = NULL;
		g->vstart += xb_vt(g->slot_served, g->weight);
		g->slot_served = 0;
		xb_group_refresh_weight(xbd, g);
		g->vfinish = g->vstart + xb_vt(xb_max_budget(xbd), g->weight);
		xb_kid_add(p, g);
	}
}

/*
 * A queue of @g got @charge of service injected into another group's
 * idle time.  Each group on its path pays, as a queue injected from
 * does in its class: one that waits in its parent's tree moves on by
 * it there (S and F), one that is in service (an ancestor it shares
 * with the path served) has it added to its slot's service, charged
 * when the slot ends; every parent's V advances by it.
 */
void xb_group_charge_waiting(struct xb_data *xbd, struct xb_group *g,
			     u64 charge, unsigned int sectors)
{
	lockdep_assert_held(&xbd->lock);
	charge = clamp_t(u64, charge, 1, XB_MAX_BUDGET_LIMIT);
	for (; g != &xbd->root; g = g->parent) {
		struct xb_group *p = g->parent;
		u64 vt;

		g->served += sectors;
		p->kvtime += div64_u64(charge << XB_VT_SHIFT,
				       max_t(u64, p->kwsum, 1));
		if (p->kin_service == g) {
			g->slot_served += charge;
			continue;
		}
		if (!g->busy || g->tree == XB_TREE_NONE)
			continue;
		vt = xb_vt(charge, g->weight);
		xb_kid_del(p, g);
		g->vstart += vt;
		g->vfinish += vt;
		xb_kid_add(p, g);
	}
}

/*
 * The first group below the root was linked: from now on everything is
 * scheduled through groups.  top enters the root's tree if it is busy,
 * marked in service there if the queue in service is its own.
 */
void xb_groups_start(struct xb_data *xbd)
{
	struct xb_group *top = &xbd->top;

	lockdep_assert_held(&xbd->lock);
	if (xbd->groups_on)
		return;
	WRITE_ONCE(xbd->groups_on, true);	/* xb_limit_depth() reads it */
	/* Counted per group from now on; until now all were top's. */
	top->nr_active = xbd->nr_active;
	xbd->nr_groups_active = !!top->nr_active;
	if (!xb_group_own_busy(top))
		return;
	xb_group_activate(xbd, top);
	if (xbd->in_service) {
		xb_kid_del(&xbd->root, top);
		xbd->root.kin_service = top;
	}
}
