// SPDX-License-Identifier: GPL-2.0
/* 7.x: report_zones() gets blk_report_zones_args, fed by disk_report_zone(). */
#include <linux/blkdev.h>
_Static_assert(__builtin_types_compatible_p(typeof(&disk_report_zone),
	int (*)(struct gendisk *, struct blk_zone *, unsigned int,
		struct blk_report_zones_args *)), "");
