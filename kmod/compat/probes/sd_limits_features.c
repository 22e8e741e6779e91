// SPDX-License-Identifier: GPL-2.0
/* 6.11+: queue features (rotational, zoned, write cache) live in the limits. */
#include <linux/blkdev.h>
_Static_assert(sizeof(((struct queue_limits *)0)->features) > 0, "");
_Static_assert(sizeof(BLK_FEAT_ROTATIONAL) > 0, "");
