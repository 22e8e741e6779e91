// SPDX-License-Identifier: GPL-2.0
/* 6.7+: a dump's parsed attributes live in a struct genl_info. */
#include <net/genetlink.h>
static struct nlattr **__maybe_unused xd_probe_gid(struct netlink_callback *cb)
{
	return genl_info_dump(cb)->attrs;
}
