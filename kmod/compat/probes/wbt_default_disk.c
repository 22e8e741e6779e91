// SPDX-License-Identifier: GPL-2.0
/* 6.2+: wbt_{dis,en}able_default() take the disk, not the request queue. */
#include "xd_kernel.h"
_Static_assert(__builtin_types_compatible_p(typeof(&wbt_disable_default),
					    void (*)(struct gendisk *)), "");
