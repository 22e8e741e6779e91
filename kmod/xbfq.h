/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xbfq's shared definitions: its constants, the per-queue, per-icq,
 * per-class and per-device types, what each file of the module calls in
 * the other, and the small helpers both inline.  The module is one
 * elevator, xbfq.ko, built from (Kbuild, xbfq-y):
 *
 *  - xbfq-iosched.c: the scheduler's core, the elevator operations and
 *    everything but the service trees (see its top comment);
 *  - xbfq-wf2q.c: the B-WF2Q+ service trees: per class within a group,
 *    and the groups' own trees (hierarchical scheduling);
 *  - xbfq-cgroup.c: the blkcg policy (cgroup v2 io.xbfq.weight) and the
 *    groups of a device: which group a request's cgroup maps to, their
 *    lifetime and weights, the debugfs groups file.
 *
 * Nothing here is visible outside the module.
 */
#ifndef XBFQ_H
#define XBFQ_H

#include <linux/kernel.h>
#include <linux/hrtimer.h>
#include <linux/iocontext.h>
#include <linux/math64.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>

#include "xsched_common.h"

#define XB_NAME "xbfq"

/* Classes, in strict priority order. */
enum { XB_RT, XB_BE, XB_IDLE, XB_NR_CLASS };
#define XB_NR_LEVELS		8
#define XB_BASE_WEIGHT(level)	(100 * (XB_NR_LEVELS - (level)))
#define XB_IDLE_WEIGHT		100
/* A group's weight unless its cgroup's io.xbfq.weight says otherwise. */
#define XB_GROUP_WEIGHT		100

/*
 * Virtual time: sectors << XB_VT_SHIFT / weight, sectors capped at
 * XB_MAX_BUDGET_LIMIT (a huge discard costs one maximal budget) so the
 * shift cannot overflow.  32 bits of fraction keep one sector visible
 * against a class's weight sum (vsum) of up to 2^32: with 16, three
 * weight-raised queues (30 x 800) already advanced V by nothing per
 * small request.
 */
#define XB_VT_SHIFT		32

/* BFQ-compatible defaults. */
#define XB_SLICE_IDLE_NS	(8 * NSEC_PER_MSEC)
#define XB_WR_MIN_IDLE_NS	(20 * NSEC_PER_MSEC)
/*
 * Reads keep tags for raised queues this long after one was active, or
 * twice its mean think time, up to XB_RESERVE_MAX_MS.
 */
#define XB_RESERVE_MS		100
#define XB_RESERVE_MAX_MS	1000
#define XB_TIMEOUT_MS		125
#define XB_FIFO_SYNC_MS		125
#define XB_FIFO_ASYNC_MS	250
#define XB_BACK_SEEK_MAX	16384	/* KiB */
#define XB_BACK_SEEK_PENALTY	2
/* The IDLE class gets a request through after waiting this long (HZ / 5). */
#define XB_IDLE_STARVE_NS	(200 * NSEC_PER_MSEC)
/*
 * A slot shorter than this is no peak-rate sample alone: its requests
 * may all sit in the driver's tags (xb_rate_window_add()).
 */
#define XB_RATE_MIN_NS		(20 * NSEC_PER_MSEC)
/* An async queue is charged this many times its service (not raised). */
#define XB_ASYNC_CHARGE		3
/*
 * Async requests in a rotational drive while sync queues of the RT or BE
 * class are active (xb_async_held()).
 */
#define XB_ASYNC_DRIVE_SYNC	4
/* Budgets, in sectors. */
#define XB_DEF_MAX_BUDGET	16384
#define XB_MIN_BUDGET		64
#define XB_MAX_BUDGET_LIMIT	(1 << 20)
/* Ours. */
#define XB_IDLE_CLASS_DELAY_MS	20
#define XB_WR_COEFF		30
/*
 * Interactive raising time: by default (wr_max_time 0, automatic) as
 * BFQ's, a reference drive's time scaled by its rate over the device's
 * rate as BFQ estimates it (wr_rate), within
 * XB_WR_DUR_MIN_MS-XB_WR_DUR_MAX_MS; a fixed time in ms where
 * wr_max_time is set.  BFQ's reference pairs, converted to
 * sectors per second (its 14000 and 33000 sectors/us << 16): a
 * rotational drive and a non-rotational one.
 */
#define XB_WR_MAX_TIME_MS	0
#define XB_WR_REF_RATE_ROT	213623
#define XB_WR_REF_MS_ROT	7000
#define XB_WR_REF_RATE_NONROT	503540
#define XB_WR_REF_MS_NONROT	2500
#define XB_WR_DUR_MIN_MS	3000
#define XB_WR_DUR_MAX_MS	25000
/*
 * The rate the automatic raising time is scaled by (wr_rate) comes from
 * windows of dispatches, as BFQ's peak rate: at least XB_WRR_MIN_SAMPLES
 * of them over XB_WRR_MIN_NS, closed at XB_WRR_REF_NS, when the device
 * idles XB_WRR_IDLE_NS, or at a completion so late that the window's
 * largest request went at under about 1000 sectors per second
 * (XB_WRR_LATE_NS_PER_SECTOR).  A dispatch is sequential if it follows
 * a request in flight or a completion within XB_WRR_SEQ_NS, within
 * XB_WRR_SEEK_THR of the last one's end (on a non-rotational device,
 * also if it is at least XB_WRR_SMALL_NONROT).  BFQ's values.
 */
#define XB_WRR_MIN_SAMPLES	32
#define XB_WRR_MIN_NS		(300 * NSEC_PER_MSEC)
#define XB_WRR_REF_NS		NSEC_PER_SEC
#define XB_WRR_IDLE_NS		(100 * NSEC_PER_MSEC)
#define XB_WRR_SEQ_NS		(2 * NSEC_PER_MSEC)
#define XB_WRR_LATE_NS_PER_SECTOR	(1024 * NSEC_PER_USEC)
#define XB_WRR_SEEK_THR		800	/* sectors */
#define XB_WRR_SMALL_NONROT	64	/* sectors */
#define XB_WRR_MAX_RATE		20000000ULL	/* sectors per second */
#define XB_WR_SOFTRT_NS		(300 * NSEC_PER_MSEC)
/* Interactive raising ends after this much service (BFQ's 120000). */
#define XB_WR_MAX_SERVICE	120000	/* sectors */
#define XB_WR_REIDLE_NS		(2000 * NSEC_PER_MSEC)
#define XB_SOFTRT_RATE		7000	/* sectors per second */
#define XB_SOFTRT_MAX_BURST	1024	/* sectors per busy period */
#define XB_BURST_INTERVAL_NS	(180 * NSEC_PER_MSEC)
#define XB_LARGE_BURST		8
#define XB_SEEK_DIST		2048	/* sectors */
#define XB_COOP_DIST		XB_SEEK_DIST	/* "next to" another stream */
#define XB_COOP_SAMPLES		32	/* requests before a split is judged */
#define XB_DISPATCH_BATCH	1
#define XB_MAX_BATCH		256
#define XB_MAX_INJECT		16
#define XB_INJECT_LARGE_SECTORS	24	/* BFQ's BFQQ_SECT_THR_NONROT */
/* Other groups with busy queues looked at for one injection, at most. */
#define XB_INJECT_GROUPS	8
#define XB_MAX_MS		3600000
/* Completions take the scheduler lock: all locks are irq-safe. */
#define XB_IRQSAFE		true

/* Why an in-service queue stopped being served. */
enum {
	XB_EXP_BUDGET,		/* budget used up */
	XB_EXP_TIMEOUT,		/* timeout_sync passed */
	XB_EXP_EMPTY,		/* no requests, no idling */
	XB_EXP_IDLE,		/* idled for slice_idle, nothing came */
	XB_EXP_PREEMPT,		/* a higher class or raised queue arrived */
	XB_NR_EXP,
};

/* Bits of rq->elv.priv[1]. */
#define XB_RQ_DISPATCHED	1UL	/* handed to the driver */
#define XB_RQ_ALONE		2UL	/* nothing else was in flight */
#define XB_RQ_INJECTED		4UL	/* dispatched into another's idle time */
#define XB_RQ_QUEUED		8UL	/* in its queue's sort tree and FIFO */
#define XB_RQ_SHARED		16UL	/* other queues' requests in flight */
#define XB_RQ_NONIDLE		32UL	/* counted in nonidle_inflight */
#define XB_RQ_HELD		64UL	/* counted in its queue's held */
#define XB_RQ_SYNC_IO		128UL	/* counted in sync_inflight */
/* The class it was counted in at insertion (inserted_*, dispatched_*...). */
#define XB_RQ_CLS_SHIFT		8
#define XB_RQ_CLS_MASK		(3UL << XB_RQ_CLS_SHIFT)
#define XB_RQ_ASYNC_IO		(1UL << 10)	/* counted in async_inflight */
/* What a request keeps from its insertion to its completion. */
#define XB_RQ_KEEP		(XB_RQ_CLS_MASK | XB_RQ_HELD)
/* Groups' tag limits look at most this many levels below the root. */
#define XB_LIMIT_LEVELS		8

enum { XB_TREE_NONE, XB_TREE_ELIG, XB_TREE_PEND };

/* Counters updated outside the scheduler lock, summed when read. */
struct xb_pcpu_stats {
	struct xsched_pcpu_stats core;
	u64 queue_alloc_failed;
	u64 local_dispatched;	/* parked, then handed out by its CPU */
	u64 group_limited;	/* tag allocations held to one tag */
	u64 reads_reserved;	/* reads kept off the raised queues' tags */
	u64 done_waits;		/* completions that found the lock held */
};

struct xb_data;
struct xb_group;
struct xb_cg;
struct seq_file;
struct blkcg_gq;

struct xb_queue {
	struct rb_node node;		/* in its class's ELIG or PEND tree */
	struct list_head all;		/* on xbd->queues, under qlock */
	struct list_head linger;	/* on xbd->linger */
	struct xb_data *xbd;
	/* Identity, immutable: the task that created it, for debugfs. */
	pid_t pid;
	bool sync;
	/* A process queue (xb_proc_task()): its process, tgid and start. */
	bool proc;
	bool grp_async;			/* one of its group's async queues */
	u64 proc_start;
	/* icqs pointing here (a group, for its async queue's) */
	atomic_t nr_icq;
	/* Its icq's, each request's and those noted at xb_get_ref(). */
	refcount_t ref;

	/* The rest under xbd->lock. */
	struct rb_root sort;		/* queued requests by sector */
	struct list_head fifo;		/* queued requests by arrival */
	unsigned int queued;		/* in sort and fifo */
	unsigned int nr_head;		/* on xbd->dispatch */
	unsigned int inflight;
	/* Its requests counted in its group's held (XB_RQ_HELD). */
	unsigned int held;
	u8 cls, level;
	/*
	 * The group whose class trees it is scheduled in (xbd->top unless
	 * its process's cgroup is below the root's); changed only while the
	 * queue is idle (xb_queue_may_move()).  It holds a group reference.
	 */
	struct xb_group *grp;
	/* A priority change waiting for the end of the queue's slot. */
	bool prio_pending;
	u8 new_cls, new_level;
	u8 tree;
	bool busy;			/* counted in its class (tree or service) */
	bool in_vsum;			/* weight counted in its class's vsum */
	unsigned int vsum_weight;
	u64 linger_until;
	bool ever_busy;
	int slot;			/* active-weight slot, -1 if inactive */
	unsigned int weight;		/* effective weight while busy */
	u64 vstart, vfinish;
	unsigned int budget, served;
	u64 slot_start_ns;
	sector_t next_pos, last_end;
	sector_t seek_pos;		/* where the last seeky request began */
	u32 seek_hist;
	unsigned int seek_samples;
	u64 last_done_ns, last_empty_ns;
	u64 ttime_ns;
	unsigned int ttime_samples;
	/* Weight raising. */
	unsigned int wr_coeff;
	bool wr_softrt;
	u64 wr_end_ns;
	u64 wr_served;			/* sectors since interactive raising began */
	u64 busy_served;		/* sectors since it last became busy */
	u64 busy_start_ns;		/* when it last became busy */
	u64 last_busy_served;		/* sectors in the last busy period */
	bool io_bound;			/* used a whole budget this busy period */
	bool was_idle;			/* nothing queued or in flight before */
	bool seq_counted;		/* in xbd->nr_active_seq */
	u64 softrt_next_ns;		/* earliest soft real-time return */
	bool softrt_update;		/* set it at the last completion */
	/* Burst membership, set at creation (large_burst also later). */
	bool large_burst;
	bool burst_protected;
	u32 burst_id;			/* the burst it was created in */
	/* Injection: service times of its requests, alone and not. */
	u64 base_st_ns;
	unsigned int inject_limit;
	unsigned int inject_probe;
	u64 dispatched_rqs, injected_rqs;
	/*
	 * A peak-rate sample from slots too short to time
	 * (xb_rate_window_add()): since when, how many sectors, and how
	 * many of its requests must have left the drive to close it;
	 * win_start_ns 0 if none.
	 */
	u64 win_start_ns, win_sectors, win_until;
	/*
	 * Queue merging: merged, where this process's new requests go
	 * instead (a reference on it); nr_coop, how many queues send theirs
	 * here; coop_split, the shared stream turned seeky and its guests
	 * should leave; coop_samples, requests seen since it became shared.
	 */
	struct xb_queue *merged;
	unsigned int nr_coop;
	bool coop_split;
	unsigned int coop_samples;
	/*
	 * In xbd->pos_tree while it could host (sync, requests queued, no
	 * guest itself), keyed by pos_key, its last_end when it was placed.
	 */
	struct rb_node pos_node;
	sector_t pos_key;
};

/*
 * The elevator's per-(I/O context, device) data: allocated zeroed by the
 * block layer when a task first submits to the device (ioc_find_get_icq()
 * in xb_prepare_request()), handed to xb_exit_icq() when the last task
 * using the I/O context exits or xbfq leaves the device.
 */
struct xb_icq {
	struct io_cq icq;		/* first: the core's part */
	/*
	 * Async and sync queue, created at the first request of each kind
	 * under xbd->qlock, published with a release store; each holds a
	 * reference.  Cleared only by xb_exit_icq(), when no task can
	 * submit through this icq any more.
	 */
	struct xb_queue *xq[2];
};

struct xb_class {
	struct rb_root elig;		/* S <= V, by finish time */
	struct rb_root pend;		/* S > V, by start time */
	u64 vtime;
	u64 wsum;			/* weights of busy queues */
	u64 vsum;			/* ... and of recently busy ones */
	unsigned int nr_busy;
};

/*
 * A group: the queues of one cgroup on one device, and the groups of its
 * child cgroups.  Two are built in: xbd->top, the root cgroup's own
 * queues (all of them while no cgroup below the root has done I/O), and
 * xbd->root, whose tree holds top and the groups of the root's child
 * cgroups.  A group is an entity of its parent's tree while it is busy
 * (a busy queue of its own, or a busy child group), with a weight from
 * its cgroup's io.xbfq.weight; below the root, cgroup v2 puts processes
 * only in leaves, so a group has queues or child groups, not both (a
 * queue that has not yet followed its process may briefly break that:
 * its own queues are then served first).  Everything under xbd->lock.
 */
struct xb_group {
	struct xb_class cls[XB_NR_CLASS];	/* its own queues */
	/* As an entity of its parent's tree. */
	struct rb_node node;
	u8 tree;
	bool busy;
	unsigned int weight;
	u64 vstart, vfinish;
	u64 slot_served;			/* charged in this slot */
	/*
	 * Counted in the parent's kwsum: while busy, and after, on the
	 * parent's kidle list, until the parent's V passes its F.
	 */
	bool in_kwsum;
	struct list_head kidle_link;
	/* Its child groups' tree: eligible by F, pending by S. */
	struct rb_root kelig, kpend;
	struct list_head kidle;			/* idle, still in kwsum */
	u64 kvtime, kwsum;
	unsigned int nr_busy_kids;
	struct xb_group *kin_service;		/* the child served, off tree */
	/* Identity and lifetime (xbfq-cgroup.c). */
	struct xb_group *parent;
	int ref;				/* pd, queues, child groups */
	struct list_head link;			/* on xbd->groups */
	struct xb_cg *cg;			/* its cgroup's weights */
	u64 cgid;
	unsigned int cfg_gen;
	unsigned int nr_active;			/* its queues active */
	u64 served;				/* sectors, while groups_on */
	/*
	 * Requests inserted and not yet completed in its queues and its
	 * child groups', while groups_on; the weights and the number of its
	 * child groups that hold any (held > 0).  Written under xbd->lock, read
	 * locklessly by xb_limit_depth() (xb_group_over_limit()).
	 */
	unsigned int held;
	u64 hwsum;
	unsigned int hcount;			/* child groups holding any */
	struct rcu_head rcu;			/* freed after a grace period */
	/*
	 * Its cgroup's buffered writes (async requests whose bio carries
	 * the cgroup, from writeback), one queue per I/O priority class and
	 * level, as BFQ's: each created at its first request, a reference
	 * held until the cgroup goes offline (xb_pd_offline()).
	 */
	struct xb_queue *async[XB_NR_CLASS][XB_NR_LEVELS];
};

struct xb_data {
	/*
	 * First: elevator_data points here.  Ready list, deferred insertions,
	 * dispatch serialization, netlink registration, shared knobs.
	 */
	struct xsched_core core;

	/* Main lock (irq-safe: completions take it). */
	spinlock_t lock ____cacheline_aligned_in_smp;
	struct xsched_cong cong;		/* of lock, under lock */
	struct list_head dispatch;		/* at-head requests */
	struct xb_group top;			/* the root cgroup's own queues */
	struct xb_group root;			/* top and the cgroups' groups */
	/*
	 * Control groups: the group layer is on once a cgroup below the
	 * root did I/O here (groups_on, never off again); until then
	 * everything is in top and scheduled as if there were no groups.
	 */
	bool groups_on;
	bool cg_active;				/* the policy is active here */
	struct list_head groups;		/* linked groups, not top/root */
	unsigned int nr_groups;
	unsigned int groups_gen;		/* bumped as groups come and go */
	unsigned int nr_groups_active;		/* groups with active queues */
	u64 group_moves;
	u64 orphan_kicks;			/* xb_release_orphan() handed on */
	dev_t devt;
	struct xb_queue *in_service;
	struct xb_queue *last_busy;		/* last inserted into, if queued */
	struct list_head linger;		/* recently busy, by time */
	unsigned int nr_queued;			/* requests held here */
	unsigned int inflight;			/* dispatched, not completed */
	unsigned int nonidle_inflight;
	u64 nonidle_done_ns;
	/*
	 * Writes in the drive beside sync I/O (xb_async_held()): sync
	 * requests of the RT and BE classes and async requests in flight,
	 * sync queues of those classes active, since when none is, and
	 * whether an async request waits for a completion.
	 */
	unsigned int sync_inflight, async_inflight;
	unsigned int nr_active_sync;
	u64 sync_left_ns;
	bool async_waiting;
	u64 async_held;
	/* Since when the IDLE class waits: became busy, or last dispatch. */
	u64 idle_wait_ns;
	int slot_count[XB_NR_CLASS][XB_NR_LEVELS][2];
	/* When each slot last lost an active queue. */
	u64 slot_left_ns[XB_NR_CLASS][XB_NR_LEVELS][2];
	/*
	 * Bit per slot, in slot_count's order: slots with active queues,
	 * and slots left empty whose slot_left_ns may still be recent
	 * (cleared once seen old), so that xb_others_lighter() looks only
	 * at those.
	 */
	u64 slot_busy_mask;
	u64 slot_left_mask;
	unsigned int nr_active;
	unsigned int nr_active_raised;		/* of them weight-raised */
	/* jiffies: until then reads keep tags for raised queues */
	unsigned long raised_sync_until;
	/* Of them known to be sequential (rotational devices only). */
	unsigned int nr_active_seq;
	u64 idle_deadline_ns;			/* in-service idling until */
	bool idling;
	/* The queue in service is empty and keeps its slot: xb_may_keep(). */
	bool kept;
	u64 kept_ns;				/* since its last completion */
	u64 slots_kept, slots_resumed;
	/*
	 * Measured peak rate, sectors per second, for max_budget=0; 0
	 * until the first sample.
	 */
	u64 peak_rate;
	unsigned int auto_max_budget;
	/*
	 * The raising time's device rate, sectors per second, for
	 * wr_max_time=0: BFQ's estimator, apart from peak_rate
	 * (xb_wr_rate_sample()), and its window of dispatches.  Protected
	 * by lock.
	 */
	u64 wr_rate;
	u64 wrr_first_ns, wrr_delta_ns, wrr_last_disp_ns, wrr_last_done_ns;
	u64 wrr_sectors;
	sector_t wrr_last_pos;
	unsigned int wrr_samples, wrr_seq, wrr_max_size;
	/* Protected by lock. */
	u64 inserted[XB_NR_CLASS];
	u64 dispatched[XB_NR_CLASS];
	u64 completed[XB_NR_CLASS];
	u64 expired[XB_NR_EXP];
	u64 insert_merged, request_merged, requeued;
	u64 idle_armed, idle_throughput, idle_raised, injected, inject_refused;
	u64 injected_groups;			/* ... from another group */
	u64 injected_empty;			/* ... into an empty device */
	unsigned int inject_turn;		/* xb_inject_find_groups() */
	u64 wr_interactive, wr_softrt;
	u64 fifo_expired, back_seeks, idle_starved;
	u64 rate_windows;		/* xb_rate_window_done() raised it */

	u64 queues_merged, queues_split, queues_merged_by_pos;
	/* Queues that could host, by position (queue merging); under lock. */
	struct rb_root pos_tree;
	/*
	 * During xb_bio_merge(), under lock: the queues of the submitting
	 * task for the bio's direction, its own and where its requests go.
	 */
	struct xb_queue *bio_own, *bio_target;

	/*
	 * Queue creation and the list of all queues (for debugfs); taken
	 * alone, or under lock to free a queue.
	 */
	spinlock_t qlock ____cacheline_aligned_in_smp;
	struct list_head queues;
	unsigned int nr_queues;
	u64 last_create_ns;
	unsigned int burst_size;
	u32 burst_id;			/* the burst under way */
	bool burst_protected;
	u64 queues_created, queues_freed, bursts_large;

	/* Never freed: used when a queue cannot be allocated. */
	struct xb_queue fallback;

	struct hrtimer timer;
	struct xb_pcpu_stats __percpu *pcpu;
	struct request_queue *q;
	bool rotational;
	bool internal_queueing;		/* the device queues more than one */
	unsigned int hw_depth;		/* driver tags per hardware queue */

	/* Tunables (sysfs), read locklessly with READ_ONCE(). */
	u64 slice_idle_ns;
	int low_latency;
	int timeout_ms;
	int max_budget;			/* 0: automatic */
	int strict_guarantees;
	int back_seek_max;
	int back_seek_penalty;
	int fifo_expire[2];		/* ms: async, sync */
	int idle_class_delay_ms;
	int wr_coeff;
	int wr_max_time_ms;		/* 0: automatic */
	int injection;
	int queue_merging;
};

static_assert(offsetof(struct xb_data, core) == 0);

/* ---- between the files -------------------------------------------------- */

/* The class tree @xq is scheduled in: its class in its group. */
static inline struct xb_class *xb_cls(struct xb_queue *xq)
{
	return &xq->grp->cls[xq->cls];
}


/* xbfq-iosched.c: active-weight accounting, queue references. */
void xb_update_active(struct xb_data *xbd, struct xb_queue *xq, u64 now);
void xb_put_ref_locked(struct xb_data *xbd, struct xb_queue *xq);
unsigned int xb_max_budget(struct xb_data *xbd);

/* xbfq-wf2q.c: the service trees. */
void xb_tree_add(struct xb_data *xbd, struct xb_queue *xq);
void xb_update_eligible(struct xb_class *c);
struct xb_queue *xb_class_pick(struct xb_data *xbd, struct xb_class *c);
void xb_vsum_enter(struct xb_data *xbd, struct xb_queue *xq);
void xb_deactivate(struct xb_data *xbd, struct xb_queue *xq, u64 now);
bool xb_release_orphan(struct xb_data *xbd, struct xb_queue *xq);
void xb_set_prio(struct xb_data *xbd, struct xb_queue *xq, u8 cls,
		 u8 level, u64 now);
void xb_group_init(struct xb_group *g, struct xb_group *parent);
void xb_group_activate(struct xb_data *xbd, struct xb_group *g);
void xb_group_deactivate(struct xb_data *xbd, struct xb_group *g);
struct xb_group *xb_group_descend(struct xb_data *xbd);
void xb_group_expire(struct xb_data *xbd, struct xb_group *g);
void xb_group_charge_waiting(struct xb_data *xbd, struct xb_group *g,
			     u64 charge, unsigned int sectors);
void xb_groups_start(struct xb_data *xbd);

/* xbfq-cgroup.c: the blkcg policy and the groups of a device. */
extern bool xb_cg_enabled;
int xb_cg_register(void);
void xb_cg_unregister(void);
void xb_cg_attach(struct xb_data *xbd);
void xb_cg_detach(struct xb_data *xbd);
void xb_cg_free_groups(struct xb_data *xbd);
struct xb_group *xb_blkg_group(struct xb_data *xbd, struct blkcg_gq *blkg);
void xb_group_put(struct xb_data *xbd, struct xb_group *g);
void xb_group_refresh_weight(struct xb_data *xbd, struct xb_group *g);
struct xb_group *xb_task_group(struct xb_data *xbd);
int xb_groups_show(void *data, struct seq_file *m);
unsigned int xb_nl_groups_get(void *priv, unsigned int from,
			      struct schedctl_group *out, unsigned int n,
			      unsigned int *gen);

/* ---- helpers of both files ---------------------------------------------- */

/*
 * Have kblockd run @q's hardware queues, for callers that may hold the
 * queue's queue_lock or an I/O context's lock: the block layer calls
 * pd_offline and exit_icq so.  blk_mq_run_hw_queues() is not for them:
 * where it finds nothing pending (another CPU dispatching, a quiesced
 * queue), 7.2's takes queue_lock to look again: a deadlock under
 * queue_lock, an inversion under ioc->lock (ioc_clear_queue() takes
 * queue_lock first).  This one only queues the work.
 */
static inline void xb_run_queues_unlocked(struct request_queue *q)
{
	blk_mq_delay_run_hw_queues(q, 0);
}

static inline bool xb_after(u64 a, u64 b)
{
	return (s64)(a - b) > 0;
}

static inline u64 xb_vt(u64 sectors, unsigned int weight)
{
	sectors = min_t(u64, sectors, XB_MAX_BUDGET_LIMIT);
	return div_u64(sectors << XB_VT_SHIFT, max(weight, 1U));
}

static inline unsigned int xb_base_weight(int cls, int level)
{
	if (cls == XB_IDLE)
		return XB_IDLE_WEIGHT;
	return XB_BASE_WEIGHT(level);
}

/* Another reference; the caller holds one already, or lock. */
static inline void xb_get_ref(struct xb_queue *xq)
{
	refcount_inc(&xq->ref);
}

/*
 * Can no task add requests to @xq any more?  Its tasks have exited (no
 * icq points to it; for a group's async queue, the group went offline)
 * and no queue sends its requests here.  Such a queue
 * is not waited for and keeps no share lingering.  (A new icq of the
 * same process may still join a process queue; it then starts as a queue
 * that thought too long.)
 */
static inline bool xb_queue_orphaned(struct xb_data *xbd,
				     struct xb_queue *xq)
{
	return xq != &xbd->fallback && !atomic_read(&xq->nr_icq) &&
	       !xq->nr_coop;
}

/*
 * In a large burst of creations that found no other queue active: parallel
 * workers that want throughput, neither raised nor idled for their share.
 * large_burst may be set after creation (xb_mark_large_burst()).
 */
static inline bool xb_burst_unprotected(struct xb_queue *xq)
{
	return READ_ONCE(xq->large_burst) && !xq->burst_protected;
}

/* Weight raising state, refreshed whenever a queue is (re)timestamped. */
static inline void xb_wr_update(struct xb_data *xbd, struct xb_queue *xq,
				u64 now)
{
	if (xq->wr_coeff > 1 &&
	    (!READ_ONCE(xbd->low_latency) || !xb_after(xq->wr_end_ns, now) ||
	     xq->cls != XB_BE || xb_burst_unprotected(xq) ||
	     (!xq->wr_softrt && xq->wr_served > XB_WR_MAX_SERVICE))) {
		/*
		 * The end of interactive raising forgets the bandwidth the
		 * queue took while an application loaded (BFQ does too).
		 * It ends early once the queue got XB_WR_MAX_SERVICE sectors
		 * (about 59 MiB) while raised, as BFQ's max_service_from_wr:
		 * an application has loaded by then, and a greedy reader
		 * that started with it must not keep a raised weight beside
		 * the next application for the rest of wr_max_time; and
		 * once its burst turned out large (BFQ too).
		 */
		if (!xq->wr_softrt)
			xq->softrt_next_ns = now;
		xq->wr_coeff = 1;
		xq->wr_softrt = false;
	}
	if (xq->wr_coeff > 1)
		xq->wr_coeff = READ_ONCE(xbd->wr_coeff);
}

/* ---- service trees: the request path's part ----------------------------- */

/*
 * xbfq-wf2q.c's operations that dispatch, insertion and completion run,
 * here so that they stay inline there, as they were before the split: a
 * call each would cost instructions per I/O.
 */

static inline void xb_tree_del(struct xb_data *xbd, struct xb_queue *xq)
{
	struct xb_class *c = xb_cls(xq);

	if (xq->tree == XB_TREE_ELIG)
		rb_erase(&xq->node, &c->elig);
	else if (xq->tree == XB_TREE_PEND)
		rb_erase(&xq->node, &c->pend);
	xq->tree = XB_TREE_NONE;
}

static inline void xb_set_weight(struct xb_data *xbd, struct xb_queue *xq)
{
	unsigned int w = xb_base_weight(xq->cls, xq->level) * xq->wr_coeff;
	struct xb_class *c = xb_cls(xq);

	if (xq->busy)
		c->wsum = c->wsum - xq->weight + w;
	xq->weight = w;
	if (xq->busy)
		xb_vsum_enter(xbd, xq);
}

/* May drop the last reference: @xq is not to be touched after. */
static inline void xb_vsum_leave(struct xb_data *xbd, struct xb_queue *xq)
{
	if (xq->in_vsum) {
		xb_cls(xq)->vsum -= xq->vsum_weight;
		xq->in_vsum = false;
	}
	if (!list_empty(&xq->linger)) {
		list_del_init(&xq->linger);
		xb_put_ref_locked(xbd, xq);
	}
}

static inline void xb_linger_expire(struct xb_data *xbd, u64 now, bool all)
{
	struct xb_queue *xq, *tmp;

	list_for_each_entry_safe(xq, tmp, &xbd->linger, linger) {
		if (!all && xb_after(xq->linger_until, now))
			break;
		xb_vsum_leave(xbd, xq);
	}
}

/*
 * WF2Q+ order between requests: a queue that became eligible meanwhile
 * (V passed its start) and finishes earlier than the served queue's
 * reservation takes over.  A queue just selected has the smallest finish
 * time among the eligible ones, so greedy queues do not alternate.
 * Returns that queue, or NULL.
 */
static inline struct xb_queue *xb_should_yield(struct xb_data *xbd,
					       struct xb_queue *xq)
{
	struct xb_class *c = xb_cls(xq);
	struct xb_queue *first;
	struct rb_node *n;

	if (c->nr_busy < 2)
		return NULL;
	xb_update_eligible(c);
	n = rb_first(&c->elig);
	if (!n)
		return NULL;
	first = rb_entry(n, struct xb_queue, node);
	return xb_after(xq->vfinish, first->vfinish) ? first : NULL;
}

/*
 * Groups on the request path, static inline for the same reason; each is
 * one untaken branch while the group layer is off.
 */

/* Charge @charge (sectors, weighted as the queue's) along @g's path. */
static inline void xb_group_charge(struct xb_data *xbd, struct xb_group *g,
				   u64 charge, unsigned int sectors)
{
	if (likely(!xbd->groups_on))
		return;
	charge = clamp_t(u64, charge, 1, XB_MAX_BUDGET_LIMIT);
	for (; g != &xbd->root; g = g->parent) {
		struct xb_group *p = g->parent;

		g->slot_served += charge;
		g->served += sectors;
		p->kvtime += div64_u64(charge << XB_VT_SHIFT,
				       max_t(u64, p->kwsum, 1));
	}
}

/* A queue of @g's became busy (its class counts it already). */
static inline void xb_group_queue_busy(struct xb_data *xbd,
				       struct xb_group *g)
{
	if (unlikely(xbd->groups_on) && !g->busy)
		xb_group_activate(xbd, g);
}

/* A queue of @g's went idle (its class no longer counts it). */
static inline void xb_group_queue_idle(struct xb_data *xbd,
				       struct xb_group *g)
{
	if (unlikely(xbd->groups_on))
		xb_group_deactivate(xbd, g);
}

/*
 * The group of @rq's cgroup (xbd->top for the root cgroup's), or NULL if
 * the request names no cgroup.  The root's test inline: it is the only
 * one while the group layer is off.
 */
static inline struct xb_group *xb_rq_group(struct xb_data *xbd,
					   struct request *rq)
{
#ifdef XD_BLKCG_POLICY
	struct blkcg_gq *blkg = rq->bio ? rq->bio->bi_blkg : NULL;

	if (!blkg)
		return NULL;
	if (!blkg->parent)
		return &xbd->top;
	return xb_blkg_group(xbd, blkg);
#else
	return NULL;
#endif
}

/* Has @g busy queues of its own? */
static inline bool xb_group_own_busy(struct xb_group *g)
{
	return g->cls[XB_RT].nr_busy || g->cls[XB_BE].nr_busy ||
	       g->cls[XB_IDLE].nr_busy;
}

#endif /* XBFQ_H */
