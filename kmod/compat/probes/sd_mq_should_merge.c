// SPDX-License-Identifier: GPL-2.0
/* Before 6.14: blk-mq merges only for tag sets with BLK_MQ_F_SHOULD_MERGE. */
#include <linux/blk-mq.h>
_Static_assert(BLK_MQ_F_SHOULD_MERGE != 0, "");
