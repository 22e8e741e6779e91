// SPDX-License-Identifier: GPL-2.0
/* 6.5+: insert_requests takes blk_insert_t flags instead of bool at_head. */
#include "xd_kernel.h"
_Static_assert(__builtin_types_compatible_p(
	typeof(((struct elevator_mq_ops *)0)->insert_requests),
	void (*)(struct blk_mq_hw_ctx *, struct list_head *, blk_insert_t)), "");
