/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences for the test-only simdisk driver (tests/simdisk/),
 * keyed on the compat/probes/sd_*.c feature probes (generated/xd_features.h).
 * Checked against Debian's 6.1, 6.12 and 7.2 kernels.
 */
#ifndef SD_COMPAT_H
#define SD_COMPAT_H

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include "xd_features.h"
#include "xd_hrtimer.h"

/* What simdisk asks of its request queue, set at or after allocation. */
struct sd_qparams {
	unsigned int lbs;		/* logical block size, bytes */
	unsigned int pbs;		/* physical block size, bytes */
	unsigned int max_sectors;	/* largest command, 512 B sectors */
	unsigned int zone_sectors;	/* 0: not zoned (conventional drive) */
	unsigned int max_append;	/* zone append limit, sectors */
	bool write_cache;
};

/* BLK_MQ_F_SHOULD_MERGE went away in 6.14: merging became the default. */
#ifdef XD_SD_MQ_SHOULD_MERGE
#define SD_MQ_FLAGS	BLK_MQ_F_SHOULD_MERGE
#else
#define SD_MQ_FLAGS	0
#endif

/*
 * A rotational (and maybe host-managed zoned) disk: 6.9+ passes the limits
 * to blk_mq_alloc_disk(), 6.11+ carries the rotational, zoned and write
 * cache features in them; 6.1 sets everything on the queue afterwards.
 */
static inline struct gendisk *sd_alloc_disk(struct blk_mq_tag_set *set,
					    const struct sd_qparams *p,
					    void *data)
{
	struct gendisk *disk;
#ifdef XD_SD_ALLOC_DISK_LIM
	struct queue_limits lim = {
		.logical_block_size	= p->lbs,
		.physical_block_size	= p->pbs,
		.max_hw_sectors		= p->max_sectors,
	};

#ifdef XD_SD_LIMITS_FEATURES
	lim.features |= BLK_FEAT_ROTATIONAL;
	if (p->write_cache)
		lim.features |= BLK_FEAT_WRITE_CACHE;
	if (p->zone_sectors) {
		lim.features |= BLK_FEAT_ZONED;
		lim.chunk_sectors = p->zone_sectors;
#ifdef XD_SD_HW_ZONE_APPEND
		lim.max_hw_zone_append_sectors = p->max_append;
#else
		lim.max_zone_append_sectors = p->max_append;
#endif
	}
#endif
	disk = blk_mq_alloc_disk(set, &lim, data);
#else
	disk = blk_mq_alloc_disk(set, data);
#endif
	if (IS_ERR(disk))
		return disk;
#ifndef XD_SD_LIMITS_FEATURES
	blk_queue_flag_clear(QUEUE_FLAG_NONROT, disk->queue);
	blk_queue_write_cache(disk->queue, p->write_cache, false);
#endif
#ifndef XD_SD_ALLOC_DISK_LIM
	blk_queue_logical_block_size(disk->queue, p->lbs);
	blk_queue_physical_block_size(disk->queue, p->pbs);
	blk_queue_max_hw_sectors(disk->queue, p->max_sectors);
#endif
#ifdef XD_SD_REVALIDATE_CB
	/* Before zone write plugging (6.10) zoned disks needed zone locking. */
	if (p->zone_sectors) {
		disk_set_zoned(disk, BLK_ZONED_HM);
		blk_queue_flag_set(QUEUE_FLAG_ZONE_RESETALL, disk->queue);
		blk_queue_required_elevator_features(disk->queue,
						     ELEVATOR_F_ZBD_SEQ_WRITE);
	}
#endif
	return disk;
}

/* Check the zones through report_zones and size the kernel's zone state. */
static inline int sd_revalidate_zones(struct gendisk *disk,
				      const struct sd_qparams *p)
{
#ifdef XD_SD_REVALIDATE_CB
	int ret = blk_revalidate_disk_zones(disk, NULL);

	if (ret)
		return ret;
	blk_queue_max_zone_append_sectors(disk->queue, p->max_append);
	return 0;
#else
	return blk_revalidate_disk_zones(disk);
#endif
}

/*
 * report_zones(): a callback and its data before 7.x, an opaque
 * blk_report_zones_args fed through disk_report_zone() since.  The driver
 * implements sd_report_zones_impl() with an sd_report_fn; sd_report_zones()
 * below is the block_device_operations method for this kernel.
 */
typedef int (*sd_report_fn)(struct blk_zone *zone, unsigned int idx,
			    void *ctx);

static int sd_report_zones_impl(struct gendisk *disk, sector_t sector,
				unsigned int nr_zones, sd_report_fn fn,
				void *ctx);

#ifdef XD_SD_REPORT_ZONES_ARGS
struct sd_report_ctx {
	struct gendisk *disk;
	struct blk_report_zones_args *args;
};

static inline int sd_report_one(struct blk_zone *zone, unsigned int idx,
				void *ctx)
{
	struct sd_report_ctx *c = ctx;

	return disk_report_zone(c->disk, zone, idx, c->args);
}

static int sd_report_zones(struct gendisk *disk, sector_t sector,
			   unsigned int nr_zones,
			   struct blk_report_zones_args *args)
{
	struct sd_report_ctx c = { .disk = disk, .args = args };

	return sd_report_zones_impl(disk, sector, nr_zones, sd_report_one, &c);
}
#else
static int sd_report_zones(struct gendisk *disk, sector_t sector,
			   unsigned int nr_zones, report_zones_cb cb,
			   void *data)
{
	return sd_report_zones_impl(disk, sector, nr_zones, cb, data);
}
#endif

#endif /* SD_COMPAT_H */
