// SPDX-License-Identifier: GPL-2.0
/* Before 6.10: blk_revalidate_disk_zones() takes a driver update callback. */
#include <linux/blkdev.h>
_Static_assert(__builtin_types_compatible_p(typeof(&blk_revalidate_disk_zones),
	int (*)(struct gendisk *, void (*)(struct gendisk *))), "");
