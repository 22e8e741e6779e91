/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-kernel interface of schedctl_nl.ko, the registry of scheduler
 * instances behind the "schedctl" generic netlink family.  A scheduler
 * registers each device it is attached to (from init_sched) and unregisters
 * it before freeing its data (from exit_sched); every callback below runs
 * in process context with the registry mutex held, so it must not sleep on
 * I/O, allocate memory or take the locks the scheduler holds around the
 * schedctl_nl_*() calls (the elevator's sysfs lock, the queue freeze).
 * Taking the scheduler's own spinlocks is fine.
 */
#ifndef SCHEDCTL_NL_KAPI_H
#define SCHEDCTL_NL_KAPI_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/blkdev.h>
#include <linux/netlink.h>

/* Upper bound of schedctl_sched_ops.nr_states. */
#define SCHEDCTL_MAX_STATES	8

/* A control group of a scheduler's device (SCHEDCTL_CMD_GET_GROUPS). */
struct schedctl_group {
	u64 cgid;				/* cgroup id */
	u64 served;				/* sectors, with descendants */
	u32 weight;				/* in effect on the device */
	u32 active;				/* its queues with requests */
	bool busy;				/* requests waiting */
};

struct schedctl_sched_ops {
	const char *name;			/* the elevator name */
	unsigned int nr_knobs;
	const char *const *knob_names;
	/* Knob value in the units of its sysfs file. */
	u64 (*knob_get)(void *priv, unsigned int knob);
	/* Validate and set; 0 or -errno with a message in @extack (or NULL). */
	int (*knob_set)(void *priv, unsigned int knob, u64 val,
			struct netlink_ext_ack *extack);
	unsigned int nr_counters;
	const char *const *counter_names;
	/* Fill @vals[0..nr_counters-1]. */
	void (*counters_get)(void *priv, u64 *vals);
	/* Derived state; a change after a knob write is announced. */
	unsigned int nr_states;
	const char *const *state_names;
	u64 (*state_get)(void *priv, unsigned int state);
	/*
	 * Optional, for a scheduler with control groups: copy up to @n of
	 * the device's groups, from the @from-th in the scheduler's order,
	 * to @out and return how many; set @gen to a number that changes
	 * whenever groups come or go.
	 */
	unsigned int (*groups_get)(void *priv, unsigned int from,
				   struct schedctl_group *out, unsigned int n,
				   unsigned int *gen);
};

/* One registered device; embed it in the scheduler's per-queue data. */
struct schedctl_inst {
	/* Private to schedctl_nl.ko. */
	struct list_head node;
	const struct schedctl_sched_ops *ops;
	void *priv;
	u64 *vals;
	char disk_name[DISK_NAME_LEN];
	u32 major;
	u32 minor;
	bool registered;
};

int schedctl_nl_register(struct schedctl_inst *inst,
			 const struct schedctl_sched_ops *ops,
			 struct request_queue *q, void *priv);
void schedctl_nl_unregister(struct schedctl_inst *inst);
/* Set a knob from sysfs: knob_set(), then announce old and new value. */
int schedctl_nl_knob_write(struct schedctl_inst *inst, unsigned int knob,
			   u64 val);

#endif /* SCHEDCTL_NL_KAPI_H */
