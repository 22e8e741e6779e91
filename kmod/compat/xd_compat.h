/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place for kernel API differences between the kernels schedctl
 * supports (Debian's 6.1, 6.12 and newest).  Differences are keyed on the
 * features that compat/probes/ detected in the target kernel's headers or
 * BTF (generated/xd_features.h), so stable backports are handled; a version
 * number is used only where no type changed (documented at that spot).
 *
 * Constants below are ones BTF cannot carry (preprocessor macros of the
 * private block/ headers); each is checked against the kernels we test.
 */
#ifndef XD_COMPAT_H
#define XD_COMPAT_H

#include "xd_kernel.h"
#include "xd_features.h"

/* insert_requests(): bool at_head before 6.5, blk_insert_t flags since. */
#ifdef XD_INSERT_TAKES_FLAGS
#define xd_insert_t			blk_insert_t
/* BLK_MQ_INSERT_AT_HEAD in block/blk-mq.h: 0x01 in 6.5 through 7.2. */
#define XD_INSERT_FLAGS_HEAD		((__force blk_insert_t)0x01)
#define XD_INSERT_FLAGS_TAIL		((__force blk_insert_t)0)
#define XD_INSERT_AT_HEAD(flags)	(!!((__force unsigned int)(flags) & 0x01))
#else
#define xd_insert_t			bool
#define XD_INSERT_FLAGS_HEAD		true
#define XD_INSERT_FLAGS_TAIL		false
#define XD_INSERT_AT_HEAD(flags)	(flags)
#endif

/* elevator_type.elevator_attrs became a pointer to const in 7.x. */
#ifdef XD_ELV_ATTRS_CONST
#define XD_ELV_ATTRS_CONST_QUAL const
#else
#define XD_ELV_ATTRS_CONST_QUAL
#endif

static inline bool xd_queue_rotational(struct request_queue *q)
{
#ifdef BLK_FEAT_ROTATIONAL
	return q->limits.features & BLK_FEAT_ROTATIONAL;
#else
	return !test_bit(QUEUE_FLAG_NONROT, &q->queue_flags);
#endif
}

/* Zone size in sectors; zoned devices keep it in chunk_sectors everywhere. */
static inline unsigned int xd_zone_sectors(struct request_queue *q)
{
	return q->limits.chunk_sectors;
}

/*
 * blk_mq_alloc_data.shallow_depth counted bits per sbitmap word until
 * "lib/sbitmap: convert shallow_depth from one word to the whole sbitmap"
 * (6.17; backported to 6.12.43 and 6.16.y).  No type changed with it, so
 * no probe can see it.  Kernels that still lock zones in the scheduler
 * (before 6.10) certainly count per word; every later kernel is read as
 * whole-bitmap, which for an unpatched 6.10 to 6.16 kernel only means
 * throttling less than async_depth asks, never more.
 */
#ifdef XD_ZONE_WRITE_LOCK
#define XD_SHALLOW_DEPTH_PER_WORD 1
#endif

/*
 * Per-process scheduler data through the elevator's I/O context queue
 * (icq): the I/O context's icq index exists only with CONFIG_BLK_ICQ
 * (selected by BFQ; Debian's kernels have it).  Since 5.16 the scheduler
 * itself looks the icq up (ioc_find_get_icq() in prepare_request, whose
 * I/O context reference finish_request drops) and the two lookups are
 * exported; they are declared in block/blk.h, private, with the same
 * prototypes on every kernel we support.
 */
#ifdef CONFIG_BLK_ICQ
#define XD_ICQ 1
struct io_cq *ioc_find_get_icq(struct request_queue *q);
struct io_cq *ioc_lookup_icq(struct request_queue *q);
#endif

/* rq_mergeable() of block/blk.h, which is private. */
static inline bool xd_rq_mergeable(struct request *rq)
{
	if (blk_rq_is_passthrough(rq))
		return false;
	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
	case REQ_OP_WRITE_ZEROES:
	case REQ_OP_ZONE_APPEND:
		return false;
	default:
		break;
	}
	if (rq->cmd_flags & REQ_NOMERGE_FLAGS)
		return false;
	if (rq->rq_flags & RQF_NOMERGE_FLAGS)
		return false;
	return true;
}

static inline void xd_free_requests(struct list_head *list)
{
	while (!list_empty(list)) {
		struct request *rq = list_first_entry(list, struct request,
						      queuelist);

		list_del_init(&rq->queuelist);
		blk_mq_free_request(rq);
	}
}

/* What wbt_{dis,en}able_default() take: the disk from 6.2, the queue before. */
#if defined(XD_WBT_DEFAULT_DISK)
#define XD_WBT_DEV(q)	((q)->disk)
#elif defined(XD_WBT_DEFAULT_QUEUE)
#define XD_WBT_DEV(q)	(q)
#endif

/*
 * The block layer's default writeback throttling off while the scheduler
 * runs, and back to its default when it leaves, as bfq: the scheduler
 * limits writes' tags itself, and wbt's one queue of waiting writers
 * would hand them out in turn whatever the scheduler's weights.  A wbt
 * the administrator set (wbt_lat_usec) is left alone.  Where the kernel
 * has the queue flag, it also keeps wbt's own re-enabling off meanwhile.
 */
static inline void xd_wbt_disable_default(struct request_queue *q)
{
#ifdef XD_QUEUE_FLAG_DISABLE_WBT
	blk_queue_flag_set(QUEUE_FLAG_DISABLE_WBT_DEF, q);
#endif
#ifdef XD_WBT_DEV
	wbt_disable_default(XD_WBT_DEV(q));
#endif
}

static inline void xd_wbt_enable_default(struct request_queue *q)
{
#ifdef XD_QUEUE_FLAG_DISABLE_WBT
	blk_queue_flag_clear(QUEUE_FLAG_DISABLE_WBT_DEF, q);
#endif
#ifdef XD_WBT_DEV
	wbt_enable_default(XD_WBT_DEV(q));
#endif
}

#endif /* XD_COMPAT_H */
