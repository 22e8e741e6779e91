// SPDX-License-Identifier: GPL-2.0
/* 6.9+: blk_mq_alloc_disk() takes the queue_limits to start with. */
#include <linux/blk-mq.h>
_Static_assert(__builtin_types_compatible_p(typeof(&__blk_mq_alloc_disk),
	struct gendisk *(*)(struct blk_mq_tag_set *, struct queue_limits *,
			    void *, struct lock_class_key *)), "");
