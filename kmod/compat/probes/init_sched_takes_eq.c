// SPDX-License-Identifier: GPL-2.0
/* 7.x (and 6.16.y stable): the core allocates the elevator_queue. */
#include "xd_kernel.h"
_Static_assert(__builtin_types_compatible_p(
	typeof(((struct elevator_mq_ops *)0)->init_sched),
	int (*)(struct request_queue *, struct elevator_queue *)), "");
