// SPDX-License-Identifier: GPL-2.0
/* 6.1+: genl_family.resv_start_op (strict header and policy checks). */
#include <net/genetlink.h>
_Static_assert(sizeof(((struct genl_family *)0)->resv_start_op) > 0, "");
