// SPDX-License-Identifier: GPL-2.0
/* 7.x: elevator_type.elevator_attrs points to const entries. */
#include "xd_kernel.h"
_Static_assert(__builtin_types_compatible_p(
	typeof(((struct elevator_type *)0)->elevator_attrs),
	const struct elv_fs_entry *), "");
