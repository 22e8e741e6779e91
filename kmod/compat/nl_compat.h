/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic netlink API differences for schedctl_nl.c, keyed on the probes
 * in compat/probes/ (generated/xd_features.h) like the rest of compat/.
 */
#ifndef SC_NL_COMPAT_H
#define SC_NL_COMPAT_H

#include <net/genetlink.h>
#include "xd_features.h"

/*
 * The attributes the core parsed (and validated against the family
 * policy) for a dump: genl_dumpit_info()->attrs up to 6.6, then in a
 * struct genl_info reached with genl_info_dump().
 */
static inline struct nlattr **sc_dump_attrs(struct netlink_callback *cb)
{
#ifdef XD_GENL_INFO_DUMP
	return genl_info_dump(cb)->attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * Every command of the family is "new": the core rejects a non-zero
 * reserved header field and, for commands without a policy, every
 * attribute.  Zero is the default; it is set explicitly where the field
 * exists so that the intent is visible.  Kernels without the field (before
 * 6.1) are not supported and never validated the header.
 */
static inline void sc_family_strict(struct genl_family *family)
{
#ifdef XD_GENL_RESV_START_OP
	family->resv_start_op = 0;
#endif
}

#endif /* SC_NL_COMPAT_H */
