// SPDX-License-Identifier: GPL-2.0
/* 7.x: depth_updated is called once per queue, not per hardware context. */
#include "xd_kernel.h"
_Static_assert(__builtin_types_compatible_p(
	typeof(((struct elevator_mq_ops *)0)->depth_updated),
	void (*)(struct request_queue *)), "");
