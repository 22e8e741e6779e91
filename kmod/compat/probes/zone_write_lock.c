// SPDX-License-Identifier: GPL-2.0
/*
 * Before zone write plugging (6.10), zoned devices only accept schedulers
 * that declare ELEVATOR_F_ZBD_SEQ_WRITE and lock zones themselves.
 */
#include "xd_kernel.h"
_Static_assert(sizeof(((struct elevator_type *)0)->elevator_features) > 0, "");
static int __maybe_unused xd_probe_zwl(struct request *rq)
{
	return blk_req_needs_zone_write_lock(rq) + ELEVATOR_F_ZBD_SEQ_WRITE;
}
