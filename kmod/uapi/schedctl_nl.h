/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * schedctl generic netlink interface: scheduler statistics and events.
 *
 * The one definition shared by the kernel modules (kmod/schedctl_nl.c and
 * the schedulers registering with it) and userspace.  Rules (see
 * docs/netlink.md): commands and attributes are only ever appended, never
 * renumbered or reused; SCHEDCTL_GENL_VERSION is bumped only for an
 * incompatible change of an existing command or attribute.
 */
#ifndef _UAPI_SCHEDCTL_NL_H
#define _UAPI_SCHEDCTL_NL_H

#include <linux/types.h>

#define SCHEDCTL_GENL_NAME	"schedctl"
#define SCHEDCTL_GENL_VERSION	1
#define SCHEDCTL_MCGRP_EVENTS	"events"

/* Longest strings the kernel accepts in requests (without the NUL). */
#define SCHEDCTL_NAME_MAX	31

enum schedctl_cmd {
	SCHEDCTL_CMD_UNSPEC,
	/*
	 * Request: do (one device, selected by SCHEDCTL_A_DEV_NAME or by
	 * SCHEDCTL_A_DEV_MAJOR and SCHEDCTL_A_DEV_MINOR) or dump (every
	 * device, optionally only those with scheduler SCHEDCTL_A_SCHED).
	 * Reply: one SCHEDCTL_CMD_GET_DEV message per device with DEV_NAME,
	 * DEV_MAJOR, DEV_MINOR, SCHED, KNOBS, COUNTERS and STATES.
	 * Unprivileged.
	 */
	SCHEDCTL_CMD_GET_DEV,
	/*
	 * Set one knob of a device: device selector, SCHEDCTL_A_KNOB_NAME,
	 * SCHEDCTL_A_KNOB_VALUE.  Needs CAP_SYS_ADMIN (and CAP_NET_ADMIN).
	 * The change is announced like a sysfs write (SCHEDCTL_CMD_KNOB_NTF).
	 */
	SCHEDCTL_CMD_SET_KNOB,
	/* Notifications on the SCHEDCTL_MCGRP_EVENTS group only. */
	SCHEDCTL_CMD_ATTACH_NTF,	/* device selector attrs, SCHED */
	SCHEDCTL_CMD_DETACH_NTF,	/* device selector attrs, SCHED */
	SCHEDCTL_CMD_KNOB_NTF,		/* + KNOB_NAME, KNOB_OLD, KNOB_VALUE */
	SCHEDCTL_CMD_STATE_NTF,		/* + STATE_NAME, STATE_OLD, STATE_VALUE */
	/*
	 * Dump only, unprivileged: the control groups the scheduler of one
	 * device keeps (xbfq), one message per group, the root cgroup's own
	 * group first, then the others in the scheduler's order.  Request:
	 * a device selector (required).  Reply: DEV_NAME, DEV_MAJOR,
	 * DEV_MINOR, SCHED, GROUP_CGID, GROUP_WEIGHT, GROUP_BUSY,
	 * GROUP_ACTIVE, GROUP_SERVED.  EOPNOTSUPP for a scheduler without
	 * groups (xdeadline).
	 */
	SCHEDCTL_CMD_GET_GROUPS,

	__SCHEDCTL_CMD_MAX,
	SCHEDCTL_CMD_MAX = __SCHEDCTL_CMD_MAX - 1
};

enum schedctl_attr {
	SCHEDCTL_A_UNSPEC,
	SCHEDCTL_A_PAD,			/* alignment padding for u64 */
	SCHEDCTL_A_DEV_NAME,		/* string: disk name, "nullb0" */
	SCHEDCTL_A_DEV_MAJOR,		/* u32 */
	SCHEDCTL_A_DEV_MINOR,		/* u32 */
	SCHEDCTL_A_SCHED,		/* string: scheduler, "xdeadline" */
	SCHEDCTL_A_KNOBS,		/* nest: SCHEDCTL_A_LIST_ENTRY... */
	SCHEDCTL_A_COUNTERS,		/* nest: SCHEDCTL_A_LIST_ENTRY... */
	SCHEDCTL_A_STATES,		/* nest: SCHEDCTL_A_LIST_ENTRY... */
	SCHEDCTL_A_KNOB_NAME,		/* string */
	SCHEDCTL_A_KNOB_VALUE,		/* u64: new value (SET_KNOB, KNOB_NTF) */
	SCHEDCTL_A_KNOB_OLD,		/* u64: previous value (KNOB_NTF) */
	SCHEDCTL_A_STATE_NAME,		/* string */
	SCHEDCTL_A_STATE_VALUE,		/* u64 */
	SCHEDCTL_A_STATE_OLD,		/* u64 */
	/* A group (GET_GROUPS replies). */
	SCHEDCTL_A_GROUP_CGID,		/* u64: cgroup id (its cgroup2 inode) */
	SCHEDCTL_A_GROUP_WEIGHT,	/* u32: weight in effect on the device */
	SCHEDCTL_A_GROUP_BUSY,		/* u8: 1 if it has requests waiting */
	SCHEDCTL_A_GROUP_ACTIVE,	/* u32: its queues with requests */
	SCHEDCTL_A_GROUP_SERVED,	/* u64: sectors, with its descendants */

	__SCHEDCTL_A_MAX,
	SCHEDCTL_A_MAX = __SCHEDCTL_A_MAX - 1
};

/*
 * SCHEDCTL_A_KNOBS, _COUNTERS and _STATES each hold any number of
 * SCHEDCTL_A_LIST_ENTRY nests, in the scheduler's order, each with one
 * name and one value.  Names make the lists self-describing: a scheduler
 * adds knobs or counters without a change of this file.  Knob values are
 * in the units of the sysfs file of the same name.
 */
enum schedctl_list_attr {
	SCHEDCTL_A_LIST_UNSPEC,
	SCHEDCTL_A_LIST_ENTRY,		/* nest: SCHEDCTL_A_ENTRY_* */

	__SCHEDCTL_A_LIST_MAX,
	SCHEDCTL_A_LIST_MAX = __SCHEDCTL_A_LIST_MAX - 1
};

enum schedctl_entry_attr {
	SCHEDCTL_A_ENTRY_UNSPEC,
	SCHEDCTL_A_ENTRY_PAD,
	SCHEDCTL_A_ENTRY_NAME,		/* string */
	SCHEDCTL_A_ENTRY_VALUE,		/* u64 */

	__SCHEDCTL_A_ENTRY_MAX,
	SCHEDCTL_A_ENTRY_MAX = __SCHEDCTL_A_ENTRY_MAX - 1
};

#endif /* _UAPI_SCHEDCTL_NL_H */
