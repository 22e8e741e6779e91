// SPDX-License-Identifier: GPL-2.0
/* 6.13+: drivers set max_hw_zone_append_sectors, not max_zone_append_sectors. */
#include <linux/blkdev.h>
_Static_assert(sizeof(((struct queue_limits *)0)->max_hw_zone_append_sectors) > 0, "");
