// SPDX-License-Identifier: GPL-2.0
/* 7.x: async_depth is a queue attribute (queue/async_depth), not ours. */
#include "xd_kernel.h"
_Static_assert(sizeof(((struct request_queue *)0)->async_depth) > 0, "");
