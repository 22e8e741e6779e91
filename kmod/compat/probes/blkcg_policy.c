// SPDX-License-Identifier: GPL-2.0
/* The kernel has control groups for block I/O: xbfq's blkcg policy builds. */
#include "xd_kernel.h"
#ifndef CONFIG_BLK_CGROUP
#error "no CONFIG_BLK_CGROUP"
#endif
_Static_assert(__builtin_types_compatible_p(
	typeof(&blkcg_policy_register), int (*)(struct blkcg_policy *)), "");
_Static_assert(sizeof(((struct blkcg_gq *)0)->pd[0]) ==
	       sizeof(struct blkg_policy_data *), "");
