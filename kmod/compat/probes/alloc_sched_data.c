// SPDX-License-Identifier: GPL-2.0
/* 7.x: optional alloc_sched_data/free_sched_data elevator methods. */
#include "xd_kernel.h"
_Static_assert(sizeof(((struct elevator_mq_ops *)0)->alloc_sched_data) > 0, "");
