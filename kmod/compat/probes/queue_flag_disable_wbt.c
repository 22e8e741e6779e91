// SPDX-License-Identifier: GPL-2.0
/*
 * 6.19+ (7.x here): a queue flag keeps the default writeback throttling
 * off while a scheduler asks for it (wbt_enable_default() honours it).
 */
#include "xd_kernel.h"
_Static_assert(QUEUE_FLAG_DISABLE_WBT_DEF >= 0, "");
