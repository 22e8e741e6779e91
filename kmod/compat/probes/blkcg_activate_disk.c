// SPDX-License-Identifier: GPL-2.0
/* 6.5+: blkcg_(de)activate_policy() take the disk, not the request queue. */
#include "xd_kernel.h"
_Static_assert(__builtin_types_compatible_p(
	typeof(&blkcg_activate_policy),
	int (*)(struct gendisk *, const struct blkcg_policy *)), "");
