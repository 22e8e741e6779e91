// SPDX-License-Identifier: GPL-2.0
/* 6.5+: a policy's pd_alloc_fn takes (disk, blkcg, gfp), not (gfp, q, blkcg). */
#include "xd_kernel.h"
_Static_assert(__builtin_types_compatible_p(
	typeof(((struct blkcg_policy *)0)->pd_alloc_fn),
	struct blkg_policy_data *(*)(struct gendisk *, struct blkcg *, gfp_t)),
	"");
