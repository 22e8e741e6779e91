// SPDX-License-Identifier: GPL-2.0
/* Before 6.2: a policy's pd_stat_fn returns whether it printed (bool). */
#include "xd_kernel.h"
_Static_assert(__builtin_types_compatible_p(
	typeof(((struct blkcg_policy *)0)->pd_stat_fn),
	bool (*)(struct blkg_policy_data *, struct seq_file *)), "");
