// SPDX-License-Identifier: GPL-2.0
/*
 * xbfq's control groups: a blkcg policy of its own, the cgroup v2 file
 * io.xbfq.weight, xbfq's fields in io.stat, and the groups of a device
 * (docs/xbfq.md, "Control groups"; the design and its departures:
 * docs/design/xbfq-cgroups.md).
 *
 *  - The file, in each cgroup but the root: "default W" and one
 *    "MAJ:MIN W" line per device override (W 1-1000, default 100), kept
 *    in the cgroup's policy data (struct xb_cg, at most XB_CG_MAX_DEVS
 *    overrides) whether or not the device exists or runs xbfq.  Writes
 *    take xb_cg_lock and bump xb_cg_gen; a group rereads its weight the
 *    next time it becomes busy or is requeued after a generation change.
 *  - The policy is registered at module load (module parameter cgroups
 *    says whether it did; xbfq runs without groups if not) and activated
 *    on each device xbfq runs on, deactivated when xbfq leaves it.
 *  - A (cgroup, device) pair's policy data (struct xb_pd) points to the
 *    group, allocated at the cgroup's first request on the device, under
 *    xbd->lock, with its ancestors' groups, the first of them switching
 *    the device's group layer on (xb_groups_start()).  The root cgroup
 *    maps to xbd->top.  A group is referenced by its pd until the
 *    cgroup goes offline on the device (pd_offline, which takes xbd->lock
 *    inside the block layer's queue and blkcg locks), by each queue in
 *    it and by each child group; the last reference frees it.
 *
 * The scheduling of groups is in xbfq-wf2q.c; which queue moves to which
 * group, and when, in xbfq-iosched.c (xb_follow_group()).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/kdev_t.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "xd_compat.h"
#include "xbfq.h"

bool xb_cg_enabled;
module_param_named(cgroups, xb_cg_enabled, bool, 0444);
MODULE_PARM_DESC(cgroups,
		 "Y if xbfq registered its blkcg policy (io.xbfq.weight)");

/* Free every group of @xbd; none should be left once its queues are gone. */
void xb_cg_free_groups(struct xb_data *xbd)
{
	struct xb_group *g, *tmp;

	lockdep_assert_held(&xbd->lock);
	WARN_ON_ONCE(!list_empty(&xbd->groups));
	list_for_each_entry_safe(g, tmp, &xbd->groups, link) {
		list_del(&g->link);
		kfree_rcu(g, rcu);
	}
	xbd->nr_groups = 0;
	xbd->groups_gen++;
}

/* Drop a reference to @g, freeing it and, upwards, its parents. */
void xb_group_put(struct xb_data *xbd, struct xb_group *g)
{
	lockdep_assert_held(&xbd->lock);
	while (g != &xbd->top && g != &xbd->root && !--g->ref) {
		struct xb_group *p = g->parent;

		WARN_ON_ONCE(g->busy || g->nr_active || g->nr_busy_kids ||
			     g->held || xb_group_own_busy(g));
		if (g->in_kwsum) {
			list_del(&g->kidle_link);
			p->kwsum -= g->weight;
		}
		list_del(&g->link);
		xbd->nr_groups--;
		xbd->groups_gen++;
		/* xb_group_over_limit() may still be looking at it. */
		kfree_rcu(g, rcu);
		g = p;
	}
}

/* The group after @g in debugfs's order: top, then the linked ones. */
static struct xb_group *xb_group_next(struct xb_data *xbd, struct xb_group *g)
{
	struct list_head *next = g == &xbd->top ? xbd->groups.next :
						  g->link.next;

	return next == &xbd->groups ? NULL :
				      list_entry(next, struct xb_group, link);
}

/* What debugfs and netlink show of @g. */
static void xb_group_report(struct xb_data *xbd, struct xb_group *g,
			    struct schedctl_group *r)
{
	xb_group_refresh_weight(xbd, g);	/* top has no cgroup: kept */
	r->cgid = g->cgid;
	r->weight = g->weight;
	r->busy = g->busy || g->nr_busy_kids || xb_group_own_busy(g);
	r->active = g->nr_active;
	r->served = g->served;
}

/* debugfs sched/groups: the root cgroup's group first, then the others. */
int xb_groups_show(void *data, struct seq_file *m)
{
	struct request_queue *q = data;
	struct xb_data *xbd = q->elevator->elevator_data;
	struct schedctl_group r;
	struct xb_group *g;
	unsigned long flags;

	spin_lock_irqsave(&xbd->lock, flags);
	for (g = &xbd->top; g; g = xb_group_next(xbd, g)) {
		xb_group_report(xbd, g, &r);
		seq_printf(m, "cgid %llu weight %u busy %d active %u served %llu held %u\n",
			   r.cgid, r.weight, r.busy, r.active, r.served,
			   g->held);
	}
	spin_unlock_irqrestore(&xbd->lock, flags);
	return 0;
}

/*
 * netlink GET_GROUPS: up to @n groups, from the @from-th in debugfs's
 * order; @gen changes whenever a group is linked or freed.
 */
unsigned int xb_nl_groups_get(void *priv, unsigned int from,
			      struct schedctl_group *out, unsigned int n,
			      unsigned int *gen)
{
	struct xb_data *xbd = priv;
	struct xb_group *g;
	unsigned int i = 0, k = 0;
	unsigned long flags;

	spin_lock_irqsave(&xbd->lock, flags);
	*gen = xbd->groups_gen;
	for (g = &xbd->top; g && k < n; g = xb_group_next(xbd, g))
		if (i++ >= from)
			xb_group_report(xbd, g, &out[k++]);
	spin_unlock_irqrestore(&xbd->lock, flags);
	return k;
}

#ifdef XD_BLKCG_POLICY

#define XB_CG_MIN_WEIGHT	1
#define XB_CG_MAX_WEIGHT	1000
#define XB_CG_MAX_DEVS		16

struct xb_cg_dev {
	dev_t dev;
	unsigned int weight;
};

/* A cgroup's io.xbfq.weight: its policy data. */
struct xb_cg {
	struct blkcg_policy_data cpd;
	/* Under xb_cg_lock. */
	unsigned int weight;
	unsigned int nr_dev;
	struct xb_cg_dev dev[XB_CG_MAX_DEVS];
};

/* A (cgroup, device) pair's policy data: its group there, if linked. */
struct xb_pd {
	struct blkg_policy_data pd;
	/* Under the device's xbd->lock; g also read under RCU alone. */
	struct xb_group *g;
	bool offline;
};

/* Innermost: taken under xbd->lock, never the other way round. */
static DEFINE_SPINLOCK(xb_cg_lock);
static atomic_t xb_cg_gen = ATOMIC_INIT(1);
static struct blkcg_policy xb_policy;

static struct blkcg *xb_css_blkcg(struct cgroup_subsys_state *css)
{
	return container_of(css, struct blkcg, css);
}

static struct xb_cg *xb_cg_of(struct blkcg *blkcg)
{
	struct blkcg_policy_data *cpd = blkcg->cpd[xb_policy.plid];

	return cpd ? container_of(cpd, struct xb_cg, cpd) : NULL;
}

static struct xb_pd *xb_pd_of(struct blkcg_gq *blkg)
{
	struct blkg_policy_data *pd = blkg->pd[xb_policy.plid];

	return pd ? container_of(pd, struct xb_pd, pd) : NULL;
}

/* @cg's weight on device @dev: its override there, or its default. */
static unsigned int xb_cg_weight(struct xb_cg *cg, dev_t dev)
{
	unsigned long flags;
	unsigned int i, w;

	spin_lock_irqsave(&xb_cg_lock, flags);
	w = cg->weight;
	for (i = 0; i < cg->nr_dev; i++) {
		if (cg->dev[i].dev == dev) {
			w = cg->dev[i].weight;
			break;
		}
	}
	spin_unlock_irqrestore(&xb_cg_lock, flags);
	return w;
}

/* Reread @g's weight if io.xbfq.weight was written since it last did. */
void xb_group_refresh_weight(struct xb_data *xbd, struct xb_group *g)
{
	unsigned int gen = atomic_read(&xb_cg_gen), w;

	lockdep_assert_held(&xbd->lock);
	if (!g->cg || g->cfg_gen == gen)
		return;
	g->cfg_gen = gen;
	w = xb_cg_weight(g->cg, xbd->devt);
	if (g->in_kwsum)
		g->parent->kwsum = g->parent->kwsum - g->weight + w;
	if (g->held)
		WRITE_ONCE(g->parent->hwsum, g->parent->hwsum - g->weight + w);
	WRITE_ONCE(g->weight, w);
}

/* A group for @blkg, whose parent cgroup's group is @parent. */
static struct xb_group *xb_group_link(struct xb_data *xbd,
				      struct blkcg_gq *blkg, struct xb_pd *xp,
				      struct xb_group *parent)
{
	struct xb_group *g = kzalloc(sizeof(*g), GFP_NOWAIT | __GFP_NOWARN);

	if (!g)
		return NULL;
	xb_group_init(g, parent);
	if (parent != &xbd->root)
		parent->ref++;
	g->ref = 1;			/* the pd's */
	g->cg = xb_cg_of(blkg->blkcg);
	g->cgid = cgroup_id(blkg->blkcg->css.cgroup);
	xb_group_refresh_weight(xbd, g);
	list_add_tail(&g->link, &xbd->groups);
	xbd->nr_groups++;
	xbd->groups_gen++;
	WRITE_ONCE(xp->g, g);
	xb_groups_start(xbd);
	return g;
}

/*
 * The group of @blkg, a cgroup below the root: its pd's, or linked now
 * with any ancestor not yet linked, top down.  Where one cannot be (its
 * cgroup is going away, no memory), the nearest linked ancestor's group
 * serves.
 */
struct xb_group *xb_blkg_group(struct xb_data *xbd, struct blkcg_gq *blkg)
{
	struct xb_pd *xp = xb_pd_of(blkg);

	if (xp && xp->g)
		return xp->g;
	for (;;) {
		struct blkcg_gq *b = blkg;
		struct xb_group *parent, *g;

		/* The highest ancestor of @blkg (or itself) not linked. */
		for (;;) {
			struct blkcg_gq *up = b->parent;

			if (!up->parent) {
				parent = &xbd->root;
				break;
			}
			xp = xb_pd_of(up);
			if (xp && xp->g) {
				parent = xp->g;
				break;
			}
			b = up;
		}
		xp = xb_pd_of(b);
		g = xp && !xp->offline ? xb_group_link(xbd, b, xp, parent) :
					 NULL;
		if (!g)
			return parent == &xbd->root ? &xbd->top : parent;
		if (b == blkg)
			return g;
	}
}

/*
 * The group of the current task's cgroup on @xbd's device, if it is below
 * the root and its group is linked; NULL otherwise.  Lockless, for
 * limit_depth: the caller holds rcu_read_lock(), under which a blkg found
 * in the cgroup's tree, its pd (freed with the blkg, after a grace
 * period, or with the queue frozen) and a group (kfree_rcu()) stay.
 * The task's cgroup, not its next bio's (limit_depth sees no bio): for
 * writeback started by the writer itself, as here, they are the same.
 */
struct xb_group *xb_task_group(struct xb_data *xbd)
{
	struct blkcg *blkcg;
	struct blkcg_gq *blkg;
	struct xb_pd *xp;

	if (!xbd->cg_active)
		return NULL;
	blkcg = xb_css_blkcg(task_css(current, io_cgrp_id));
	blkg = rcu_dereference(blkcg->blkg_hint);
	if (!blkg || blkg->q != xbd->q)
		blkg = xa_load(&blkcg->blkg_tree, xbd->q->id);
	if (!blkg || !blkg->parent)
		return NULL;
	xp = xb_pd_of(blkg);
	return xp ? READ_ONCE(xp->g) : NULL;
}

/* ---- the policy's callbacks ------------------------------------------------ */

static struct blkcg_policy_data *xb_cpd_alloc(gfp_t gfp)
{
	struct xb_cg *cg = kzalloc(sizeof(*cg), gfp);

	if (!cg)
		return NULL;
	cg->weight = XB_GROUP_WEIGHT;
	return &cg->cpd;
}

static void xb_cpd_free(struct blkcg_policy_data *cpd)
{
	kfree(container_of(cpd, struct xb_cg, cpd));
}

#ifdef XD_BLKCG_PD_ALLOC_DISK
static struct blkg_policy_data *xb_pd_alloc(struct gendisk *disk,
					    struct blkcg *blkcg, gfp_t gfp)
{
	int node = disk->queue->node;
#else
static struct blkg_policy_data *xb_pd_alloc(gfp_t gfp, struct request_queue *q,
					    struct blkcg *blkcg)
{
	int node = q->node;
#endif
	struct xb_pd *xp = kzalloc_node(sizeof(*xp), gfp, node);

	return xp ? &xp->pd : NULL;
}

/*
 * The cgroup leaves the device (removed, or xbfq deactivates the policy
 * as it leaves): its group keeps its last weight and lives on while its
 * queues hold it.  Our pds exist only while xbfq is the device's
 * elevator (activated at the end of init, deactivated at the start of
 * exit), so the elevator data is ours.
 */
static void xb_pd_offline(struct blkg_policy_data *pd)
{
	struct xb_pd *xp = container_of(pd, struct xb_pd, pd);
	struct request_queue *q = pd->blkg->q;
	struct xb_data *xbd = q->elevator->elevator_data;
	unsigned long flags;
	bool kick = false;

	spin_lock_irqsave(&xbd->lock, flags);
	xp->offline = true;
	if (xp->g) {
		struct xb_queue **aqs = &xp->g->async[0][0];
		int i;

		xp->g->cg = NULL;
		/* Its buffered writes' queues live on while they have requests. */
		for (i = 0; i < XB_NR_CLASS * XB_NR_LEVELS; i++) {
			struct xb_queue *aq = aqs[i];

			if (!aq)
				continue;
			aqs[i] = NULL;
			atomic_dec(&aq->nr_icq);
			kick |= xb_release_orphan(xbd, aq);
			xb_put_ref_locked(xbd, aq);
		}
		xb_group_put(xbd, xp->g);
		WRITE_ONCE(xp->g, NULL);
	}
	spin_unlock_irqrestore(&xbd->lock, flags);
	if (kick)
		xb_run_queues_unlocked(q);	/* under queue_lock */
}

static void xb_pd_free(struct blkg_policy_data *pd)
{
	struct xb_pd *xp = container_of(pd, struct xb_pd, pd);

	WARN_ON_ONCE(xp->g);
	kfree(xp);
}

/*
 * io.stat: " xbfq.weight=W xbfq.sectors=N" on a cgroup's line for the
 * device: the weight in effect there and the sectors xbfq dispatched for
 * the cgroup and its descendants since its group was linked (0 before its
 * first request here).  Nothing on the root cgroup's line: it has no
 * weight.  The block layer calls this under the disk's queue_lock or the
 * cgroup's blkcg->lock (kernels differ), and takes both to offline and
 * free a pd: while we look at the pd, the elevator data is ours and the
 * pd's group is held.
 */
static bool xb_pd_stat_show(struct blkg_policy_data *pd, struct seq_file *s)
{
	struct xb_pd *xp = container_of(pd, struct xb_pd, pd);
	struct blkcg_gq *blkg = pd->blkg;
	struct xb_data *xbd = blkg->q->elevator->elevator_data;
	struct xb_cg *cg = xb_cg_of(blkg->blkcg);
	struct schedctl_group r = { .weight = XB_GROUP_WEIGHT };
	unsigned long flags;

	if (!blkg->parent || xp->offline)
		return false;
	spin_lock_irqsave(&xbd->lock, flags);
	if (xp->g)
		xb_group_report(xbd, xp->g, &r);
	else if (cg)
		r.weight = xb_cg_weight(cg, xbd->devt);
	spin_unlock_irqrestore(&xbd->lock, flags);
	seq_printf(s, " xbfq.weight=%u xbfq.sectors=%llu", r.weight, r.served);
	return true;
}

#ifdef XD_BLKCG_PD_STAT_BOOL
static bool xb_pd_stat(struct blkg_policy_data *pd, struct seq_file *s)
{
	return xb_pd_stat_show(pd, s);
}
#else
static void xb_pd_stat(struct blkg_policy_data *pd, struct seq_file *s)
{
	xb_pd_stat_show(pd, s);
}
#endif

/* ---- io.xbfq.weight --------------------------------------------------------- */

static int xb_cg_show(struct seq_file *sf, void *v)
{
	struct xb_cg *cg = xb_cg_of(xb_css_blkcg(seq_css(sf)));
	struct xb_cg_dev dev[XB_CG_MAX_DEVS];
	unsigned int w = XB_GROUP_WEIGHT, n = 0, i;

	if (cg) {
		spin_lock_irq(&xb_cg_lock);
		w = cg->weight;
		n = cg->nr_dev;
		memcpy(dev, cg->dev, n * sizeof(dev[0]));
		spin_unlock_irq(&xb_cg_lock);
	}
	seq_printf(sf, "default %u\n", w);
	for (i = 0; i < n; i++)
		seq_printf(sf, "%u:%u %u\n", MAJOR(dev[i].dev),
			   MINOR(dev[i].dev), dev[i].weight);
	return 0;
}

static int xb_cg_parse_weight(const char *s, unsigned int *w)
{
	int ret = kstrtouint(s, 10, w);

	if (ret)
		return ret == -ERANGE ? ret : -EINVAL;
	if (*w < XB_CG_MIN_WEIGHT || *w > XB_CG_MAX_WEIGHT)
		return -ERANGE;
	return 0;
}

static int xb_cg_parse_dev(char *s, dev_t *dev)
{
	char *minor = strchr(s, ':');
	unsigned int ma, mi;

	if (!minor)
		return -EINVAL;
	*minor++ = '\0';
	if (kstrtouint(s, 10, &ma) || kstrtouint(minor, 10, &mi))
		return -EINVAL;
	*dev = MKDEV(ma, mi);
	if (MAJOR(*dev) != ma || MINOR(*dev) != mi)
		return -EINVAL;
	return 0;
}

/* Set (@w > 0) or drop (@w == 0) @cg's override for @dev. */
static int xb_cg_set_dev(struct xb_cg *cg, dev_t dev, unsigned int w)
{
	unsigned int i;

	for (i = 0; i < cg->nr_dev && cg->dev[i].dev != dev; i++)
		;
	if (!w) {
		if (i < cg->nr_dev)
			cg->dev[i] = cg->dev[--cg->nr_dev];
		return 0;
	}
	if (i == cg->nr_dev) {
		if (cg->nr_dev == XB_CG_MAX_DEVS)
			return -ENOSPC;
		cg->nr_dev++;
		cg->dev[i].dev = dev;
	}
	cg->dev[i].weight = w;
	return 0;
}

/* "W", "default W", "MAJ:MIN W" or "MAJ:MIN default". */
static ssize_t xb_cg_write(struct kernfs_open_file *of, char *buf,
			   size_t nbytes, loff_t off)
{
	struct xb_cg *cg = xb_cg_of(xb_css_blkcg(of_css(of)));
	char *p = strim(buf), *tok[2], *t;
	unsigned int n = 0, w = 0;
	bool dflt = true;
	dev_t dev = 0;
	int ret;

	while ((t = strsep(&p, " \t\n"))) {
		if (!*t)
			continue;
		if (n == ARRAY_SIZE(tok))
			return -EINVAL;
		tok[n++] = t;
	}
	if (!n || !cg)
		return -EINVAL;
	if (n == 1) {
		ret = xb_cg_parse_weight(tok[0], &w);
	} else if (!strcmp(tok[0], "default")) {
		ret = xb_cg_parse_weight(tok[1], &w);
	} else {
		dflt = false;
		ret = xb_cg_parse_dev(tok[0], &dev);
		if (!ret && strcmp(tok[1], "default"))
			ret = xb_cg_parse_weight(tok[1], &w);
	}
	if (ret)
		return ret;

	spin_lock_irq(&xb_cg_lock);
	if (dflt)
		cg->weight = w;
	else
		ret = xb_cg_set_dev(cg, dev, w);
	spin_unlock_irq(&xb_cg_lock);
	atomic_inc(&xb_cg_gen);
	return ret ?: nbytes;
}

static struct cftype xb_cg_files[] = {
	{
		.name = "xbfq.weight",
		.flags = CFTYPE_NOT_ON_ROOT,
		.seq_show = xb_cg_show,
		.write = xb_cg_write,
	},
	{ }
};

static struct blkcg_policy xb_policy = {
	.dfl_cftypes	= xb_cg_files,
	.cpd_alloc_fn	= xb_cpd_alloc,
	.cpd_free_fn	= xb_cpd_free,
	.pd_alloc_fn	= xb_pd_alloc,
	.pd_offline_fn	= xb_pd_offline,
	.pd_free_fn	= xb_pd_free,
	.pd_stat_fn	= xb_pd_stat,
};

/* ---- registration, per device ---------------------------------------------- */

int xb_cg_register(void)
{
	int ret = blkcg_policy_register(&xb_policy);

	if (ret) {
		pr_warn("xbfq: blkcg policy not registered (%d): no cgroup weights\n",
			ret);
		return ret;
	}
	xb_cg_enabled = true;
	return 0;
}

void xb_cg_unregister(void)
{
	if (!xb_cg_enabled)
		return;
	blkcg_policy_unregister(&xb_policy);
	xb_cg_enabled = false;
}

/* Activate the policy on xbd's device: its cgroups get pds there. */
void xb_cg_attach(struct xb_data *xbd)
{
	struct request_queue *q = xbd->q;
	int ret;

	if (!xb_cg_enabled)
		return;
#ifdef XD_BLKCG_ACTIVATE_DISK
	ret = blkcg_activate_policy(q->disk, &xb_policy);
#else
	ret = blkcg_activate_policy(q, &xb_policy);
#endif
	if (ret) {
		pr_warn_ratelimited("xbfq: %s: no cgroup weights (%d)\n",
				    q->disk ? q->disk->disk_name : "?", ret);
		return;
	}
	if (q->root_blkg)
		xbd->top.cgid = cgroup_id(q->root_blkg->blkcg->css.cgroup);
	xbd->cg_active = true;
}

/* Deactivate it: every pd goes offline (dropping its group) and is freed. */
void xb_cg_detach(struct xb_data *xbd)
{
	if (!xbd->cg_active)
		return;
#ifdef XD_BLKCG_ACTIVATE_DISK
	blkcg_deactivate_policy(xbd->q->disk, &xb_policy);
#else
	blkcg_deactivate_policy(xbd->q, &xb_policy);
#endif
	xbd->cg_active = false;
}

#else /* !XD_BLKCG_POLICY: the kernel has no block cgroups */

int xb_cg_register(void)
{
	return -EOPNOTSUPP;
}

void xb_cg_unregister(void)
{
}

void xb_cg_attach(struct xb_data *xbd)
{
}

void xb_cg_detach(struct xb_data *xbd)
{
}

void xb_group_refresh_weight(struct xb_data *xbd, struct xb_group *g)
{
}

struct xb_group *xb_task_group(struct xb_data *xbd)
{
	return NULL;
}

#endif /* XD_BLKCG_POLICY */
