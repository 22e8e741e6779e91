// SPDX-License-Identifier: GPL-2.0
/*
 * schedctl_nl: the "schedctl" generic netlink family, shared by the
 * schedctl I/O schedulers.
 *
 * Each scheduler registers every device it is attached to.  Userspace can
 * then read any device's scheduler, knobs, counters and state (GET, also
 * as a dump, unprivileged), set a knob (SET_KNOB, CAP_SYS_ADMIN) and listen
 * on the "events" multicast group for scheduler attach and detach, knob
 * changes (from sysfs or netlink) and state changes; a scheduler with
 * control groups (xbfq) also lists them (GET_GROUPS, a dump,
 * unprivileged).  The wire format is in
 * uapi/schedctl_nl.h and docs/netlink.md.
 *
 * Locking: sc_lock (a mutex) protects the list of instances and is held
 * while an instance's callbacks run, so an instance is never used after
 * schedctl_nl_unregister() returned.  Schedulers call us from init_sched,
 * exit_sched and sysfs stores, with their elevator locks held and maybe a
 * frozen queue: nothing under sc_lock allocates memory or waits for I/O.
 * Notification messages are allocated before taking sc_lock, filled under
 * it and sent after dropping it.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/capability.h>
#include <linux/err.h>
#include <net/genetlink.h>

#include "schedctl_nl.h"
#include "schedctl_nl_kapi.h"
#include "nl_compat.h"

/* Room for one device's message; xdeadline needs about 2.5 KiB. */
#define SC_MSG_SIZE	8192

enum { SC_MCGRP_EVENTS_IDX };

static DEFINE_MUTEX(sc_lock);
static LIST_HEAD(sc_list);
/* Bumped on every change of sc_list: dumps flag NLM_F_DUMP_INTR. */
static unsigned int sc_gen;

static struct genl_family sc_family;

#define SC_REPLY_ONLY { .type = NLA_REJECT, \
			.reject_message = "attribute only valid in replies" }

static const struct nla_policy sc_policy[SCHEDCTL_A_MAX + 1] = {
	[SCHEDCTL_A_PAD]		= SC_REPLY_ONLY,
	[SCHEDCTL_A_DEV_NAME]		= { .type = NLA_NUL_STRING,
					    .len = SCHEDCTL_NAME_MAX },
	[SCHEDCTL_A_DEV_MAJOR]		= { .type = NLA_U32 },
	[SCHEDCTL_A_DEV_MINOR]		= { .type = NLA_U32 },
	[SCHEDCTL_A_SCHED]		= { .type = NLA_NUL_STRING,
					    .len = SCHEDCTL_NAME_MAX },
	[SCHEDCTL_A_KNOBS]		= SC_REPLY_ONLY,
	[SCHEDCTL_A_COUNTERS]		= SC_REPLY_ONLY,
	[SCHEDCTL_A_STATES]		= SC_REPLY_ONLY,
	[SCHEDCTL_A_KNOB_NAME]		= { .type = NLA_NUL_STRING,
					    .len = SCHEDCTL_NAME_MAX },
	[SCHEDCTL_A_KNOB_VALUE]		= { .type = NLA_U64 },
	[SCHEDCTL_A_KNOB_OLD]		= SC_REPLY_ONLY,
	[SCHEDCTL_A_STATE_NAME]		= SC_REPLY_ONLY,
	[SCHEDCTL_A_STATE_VALUE]	= SC_REPLY_ONLY,
	[SCHEDCTL_A_STATE_OLD]		= SC_REPLY_ONLY,
	[SCHEDCTL_A_GROUP_CGID]		= SC_REPLY_ONLY,
	[SCHEDCTL_A_GROUP_WEIGHT]	= SC_REPLY_ONLY,
	[SCHEDCTL_A_GROUP_BUSY]		= SC_REPLY_ONLY,
	[SCHEDCTL_A_GROUP_ACTIVE]	= SC_REPLY_ONLY,
	[SCHEDCTL_A_GROUP_SERVED]	= SC_REPLY_ONLY,
};

static int sc_check_version(const struct genlmsghdr *hdr,
			    struct netlink_ext_ack *extack)
{
	if (hdr->version < 1 || hdr->version > SCHEDCTL_GENL_VERSION) {
		NL_SET_ERR_MSG_MOD(extack,
				   "unsupported schedctl protocol version");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* A device is named by DEV_NAME or by DEV_MAJOR with DEV_MINOR. */
static int sc_check_selector(struct nlattr **attrs,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *maj = attrs[SCHEDCTL_A_DEV_MAJOR];
	struct nlattr *min = attrs[SCHEDCTL_A_DEV_MINOR];

	if (!!maj != !!min) {
		NL_SET_ERR_MSG_ATTR(extack, maj ? maj : min,
				    "DEV_MAJOR and DEV_MINOR go together");
		return -EINVAL;
	}
	if (!attrs[SCHEDCTL_A_DEV_NAME] && !maj) {
		NL_SET_ERR_MSG_MOD(extack,
				   "no device: need DEV_NAME or DEV_MAJOR and DEV_MINOR");
		return -EINVAL;
	}
	return 0;
}

static bool sc_match(const struct schedctl_inst *inst, struct nlattr **attrs)
{
	if (attrs[SCHEDCTL_A_DEV_NAME] &&
	    strcmp(inst->disk_name, nla_data(attrs[SCHEDCTL_A_DEV_NAME])))
		return false;
	if (attrs[SCHEDCTL_A_DEV_MAJOR] &&
	    (inst->major != nla_get_u32(attrs[SCHEDCTL_A_DEV_MAJOR]) ||
	     inst->minor != nla_get_u32(attrs[SCHEDCTL_A_DEV_MINOR])))
		return false;
	if (attrs[SCHEDCTL_A_SCHED] &&
	    strcmp(inst->ops->name, nla_data(attrs[SCHEDCTL_A_SCHED])))
		return false;
	return true;
}

static struct schedctl_inst *sc_find(struct nlattr **attrs,
				     struct netlink_ext_ack *extack)
{
	struct schedctl_inst *inst;

	lockdep_assert_held(&sc_lock);
	list_for_each_entry(inst, &sc_list, node)
		if (sc_match(inst, attrs))
			return inst;
	NL_SET_ERR_MSG_ATTR(extack, attrs[SCHEDCTL_A_DEV_NAME] ?
			    attrs[SCHEDCTL_A_DEV_NAME] :
			    attrs[SCHEDCTL_A_DEV_MAJOR],
			    "no such device with a schedctl scheduler");
	return ERR_PTR(-ENODEV);
}

static int sc_put_dev(struct sk_buff *skb, const struct schedctl_inst *inst)
{
	if (nla_put_string(skb, SCHEDCTL_A_DEV_NAME, inst->disk_name) ||
	    nla_put_u32(skb, SCHEDCTL_A_DEV_MAJOR, inst->major) ||
	    nla_put_u32(skb, SCHEDCTL_A_DEV_MINOR, inst->minor) ||
	    nla_put_string(skb, SCHEDCTL_A_SCHED, inst->ops->name))
		return -EMSGSIZE;
	return 0;
}

static int sc_put_list(struct sk_buff *skb, int type, unsigned int n,
		       const char *const *names, const u64 *vals)
{
	struct nlattr *list, *entry;
	unsigned int i;

	list = nla_nest_start(skb, type);
	if (!list)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		entry = nla_nest_start(skb, SCHEDCTL_A_LIST_ENTRY);
		if (!entry ||
		    nla_put_string(skb, SCHEDCTL_A_ENTRY_NAME, names[i]) ||
		    nla_put_u64_64bit(skb, SCHEDCTL_A_ENTRY_VALUE, vals[i],
				      SCHEDCTL_A_ENTRY_PAD)) {
			nla_nest_cancel(skb, list);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, entry);
	}
	nla_nest_end(skb, list);
	return 0;
}

/* One SCHEDCTL_CMD_GET_DEV message for @inst. */
static int sc_fill_dev(struct sk_buff *skb, struct schedctl_inst *inst,
		       u32 portid, u32 seq, int flags,
		       struct netlink_callback *cb)
{
	const struct schedctl_sched_ops *ops = inst->ops;
	unsigned int i;
	void *hdr;

	lockdep_assert_held(&sc_lock);
	hdr = genlmsg_put(skb, portid, seq, &sc_family, flags,
			  SCHEDCTL_CMD_GET_DEV);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	if (sc_put_dev(skb, inst))
		goto cancel;
	for (i = 0; i < ops->nr_knobs; i++)
		inst->vals[i] = ops->knob_get(inst->priv, i);
	if (sc_put_list(skb, SCHEDCTL_A_KNOBS, ops->nr_knobs, ops->knob_names,
			inst->vals))
		goto cancel;
	ops->counters_get(inst->priv, inst->vals);
	if (sc_put_list(skb, SCHEDCTL_A_COUNTERS, ops->nr_counters,
			ops->counter_names, inst->vals))
		goto cancel;
	for (i = 0; i < ops->nr_states; i++)
		inst->vals[i] = ops->state_get(inst->priv, i);
	if (sc_put_list(skb, SCHEDCTL_A_STATES, ops->nr_states,
			ops->state_names, inst->vals))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* One SCHEDCTL_CMD_GET_GROUPS message: @inst's group @g. */
static int sc_fill_group(struct sk_buff *skb, struct schedctl_inst *inst,
			 const struct schedctl_group *g,
			 struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &sc_family, NLM_F_MULTI, SCHEDCTL_CMD_GET_GROUPS);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (sc_put_dev(skb, inst) ||
	    nla_put_u64_64bit(skb, SCHEDCTL_A_GROUP_CGID, g->cgid,
			      SCHEDCTL_A_PAD) ||
	    nla_put_u32(skb, SCHEDCTL_A_GROUP_WEIGHT, g->weight) ||
	    nla_put_u8(skb, SCHEDCTL_A_GROUP_BUSY, g->busy) ||
	    nla_put_u32(skb, SCHEDCTL_A_GROUP_ACTIVE, g->active) ||
	    nla_put_u64_64bit(skb, SCHEDCTL_A_GROUP_SERVED, g->served,
			      SCHEDCTL_A_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* ---- notifications --------------------------------------------------- */

/* A buffer for notifications, or NULL when nobody listens. */
static struct sk_buff *sc_ntf_alloc(gfp_t gfp)
{
	if (!genl_has_listeners(&sc_family, &init_net, SC_MCGRP_EVENTS_IDX))
		return NULL;
	return genlmsg_new(SC_MSG_SIZE, gfp);
}

/* Start a notification of @cmd about @inst in @skb; NULL if no room. */
static void *sc_ntf_start(struct sk_buff *skb, struct schedctl_inst *inst,
			  u8 cmd)
{
	void *hdr = genlmsg_put(skb, 0, 0, &sc_family, 0, cmd);

	if (!hdr)
		return NULL;
	if (sc_put_dev(skb, inst)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

/* Append a KNOB_NTF or STATE_NTF message. */
static void sc_ntf_change(struct sk_buff *skb, struct schedctl_inst *inst,
			  u8 cmd, const char *name, u64 old, u64 new)
{
	bool knob = cmd == SCHEDCTL_CMD_KNOB_NTF;
	void *hdr = sc_ntf_start(skb, inst, cmd);

	if (!hdr)
		return;
	if (nla_put_string(skb, knob ? SCHEDCTL_A_KNOB_NAME :
			   SCHEDCTL_A_STATE_NAME, name) ||
	    nla_put_u64_64bit(skb, knob ? SCHEDCTL_A_KNOB_OLD :
			      SCHEDCTL_A_STATE_OLD, old, SCHEDCTL_A_PAD) ||
	    nla_put_u64_64bit(skb, knob ? SCHEDCTL_A_KNOB_VALUE :
			      SCHEDCTL_A_STATE_VALUE, new, SCHEDCTL_A_PAD)) {
		genlmsg_cancel(skb, hdr);
		return;
	}
	genlmsg_end(skb, hdr);
}

/* Send what was appended to @skb (maybe several messages); frees @skb. */
static void sc_ntf_send(struct sk_buff *skb, gfp_t gfp)
{
	if (!skb)
		return;
	if (!skb->len) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&sc_family, skb, 0, SC_MCGRP_EVENTS_IDX, gfp);
}

/*
 * Set a knob with sc_lock held and append the notifications for it to
 * @ntf (if any): the knob's old and new value when it changed, then each
 * state that changed with it.
 */
static int sc_knob_set_locked(struct schedctl_inst *inst, unsigned int knob,
			      u64 val, struct netlink_ext_ack *extack,
			      struct sk_buff *ntf)
{
	const struct schedctl_sched_ops *ops = inst->ops;
	u64 state[SCHEDCTL_MAX_STATES];
	unsigned int i;
	u64 old, new;
	int err;

	lockdep_assert_held(&sc_lock);
	for (i = 0; i < ops->nr_states; i++)
		state[i] = ops->state_get(inst->priv, i);
	old = ops->knob_get(inst->priv, knob);
	err = ops->knob_set(inst->priv, knob, val, extack);
	if (err)
		return err;
	new = ops->knob_get(inst->priv, knob);
	if (!ntf || new == old)
		return 0;
	sc_ntf_change(ntf, inst, SCHEDCTL_CMD_KNOB_NTF, ops->knob_names[knob],
		      old, new);
	for (i = 0; i < ops->nr_states; i++) {
		u64 now = ops->state_get(inst->priv, i);

		if (now != state[i])
			sc_ntf_change(ntf, inst, SCHEDCTL_CMD_STATE_NTF,
				      ops->state_names[i], state[i], now);
	}
	return 0;
}

/* ---- scheduler interface --------------------------------------------- */

/**
 * schedctl_nl_register - make a device's scheduler instance visible
 * @inst: embedded in the scheduler's per-queue data, zeroed
 * @ops: the scheduler's description, static
 * @q: the queue the scheduler is attached to
 * @priv: passed to @ops' callbacks
 *
 * Call from init_sched once the instance can answer the callbacks.
 * Announces SCHEDCTL_CMD_ATTACH_NTF.  Returns 0 or -errno.
 */
int schedctl_nl_register(struct schedctl_inst *inst,
			 const struct schedctl_sched_ops *ops,
			 struct request_queue *q, void *priv)
{
	unsigned int n = max3(ops->nr_knobs, ops->nr_counters, ops->nr_states);
	struct sk_buff *ntf;
	void *hdr;

	if (ops->nr_states > SCHEDCTL_MAX_STATES)
		return -EINVAL;
	/* Process context, but maybe under a queue freeze: no I/O. */
	inst->vals = kcalloc(max(n, 1U), sizeof(*inst->vals), GFP_NOIO);
	if (!inst->vals)
		return -ENOMEM;
	inst->ops = ops;
	inst->priv = priv;
	if (q->disk) {
		strscpy(inst->disk_name, q->disk->disk_name,
			sizeof(inst->disk_name));
		inst->major = MAJOR(disk_devt(q->disk));
		inst->minor = MINOR(disk_devt(q->disk));
	}

	ntf = sc_ntf_alloc(GFP_NOIO);
	mutex_lock(&sc_lock);
	list_add_tail(&inst->node, &sc_list);
	inst->registered = true;
	sc_gen++;
	if (ntf) {
		hdr = sc_ntf_start(ntf, inst, SCHEDCTL_CMD_ATTACH_NTF);
		if (hdr)
			genlmsg_end(ntf, hdr);
	}
	mutex_unlock(&sc_lock);
	sc_ntf_send(ntf, GFP_NOIO);
	return 0;
}
EXPORT_SYMBOL_GPL(schedctl_nl_register);

/**
 * schedctl_nl_unregister - remove a scheduler instance
 * @inst: registered with schedctl_nl_register(), or not registered at all
 *
 * Call from exit_sched before freeing what the callbacks use; once this
 * returns, no callback of @inst runs.  Announces SCHEDCTL_CMD_DETACH_NTF.
 */
void schedctl_nl_unregister(struct schedctl_inst *inst)
{
	struct sk_buff *ntf;
	void *hdr;

	if (!inst->registered)
		return;
	ntf = sc_ntf_alloc(GFP_NOIO);
	mutex_lock(&sc_lock);
	list_del(&inst->node);
	inst->registered = false;
	sc_gen++;
	if (ntf) {
		hdr = sc_ntf_start(ntf, inst, SCHEDCTL_CMD_DETACH_NTF);
		if (hdr)
			genlmsg_end(ntf, hdr);
	}
	mutex_unlock(&sc_lock);
	sc_ntf_send(ntf, GFP_NOIO);
	kfree(inst->vals);
	inst->vals = NULL;
}
EXPORT_SYMBOL_GPL(schedctl_nl_unregister);

/**
 * schedctl_nl_knob_write - set a knob on behalf of its sysfs file
 * @inst: a registered instance
 * @knob: index into the scheduler's knob_names
 * @val: new value, in the sysfs file's units
 *
 * Validates and sets through the scheduler's knob_set and announces the
 * change (SCHEDCTL_CMD_KNOB_NTF, then STATE_NTF for changed states).
 * Returns 0 or the -errno of knob_set.
 */
int schedctl_nl_knob_write(struct schedctl_inst *inst, unsigned int knob,
			   u64 val)
{
	struct sk_buff *ntf;
	int err = -ENODEV;

	if (!inst->registered || knob >= inst->ops->nr_knobs)
		return -EINVAL;
	/*
	 * Called from the scheduler's sysfs store, under the elevator's
	 * sysfs_lock, which an elevator switch takes with the queue frozen:
	 * reclaim here must not wait for I/O (lockdep: fs_reclaim ->
	 * q_usage_counter -> elevator_lock -> sysfs_lock).
	 */
	ntf = sc_ntf_alloc(GFP_NOIO);
	mutex_lock(&sc_lock);
	if (inst->registered)
		err = sc_knob_set_locked(inst, knob, val, NULL, ntf);
	mutex_unlock(&sc_lock);
	sc_ntf_send(ntf, GFP_NOIO);
	return err;
}
EXPORT_SYMBOL_GPL(schedctl_nl_knob_write);

/* ---- commands -------------------------------------------------------- */

static int sc_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct schedctl_inst *inst;
	struct sk_buff *msg;
	int err;

	err = sc_check_version(info->genlhdr, info->extack);
	if (err)
		return err;
	err = sc_check_selector(info->attrs, info->extack);
	if (err)
		return err;
	msg = genlmsg_new(SC_MSG_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&sc_lock);
	inst = sc_find(info->attrs, info->extack);
	if (IS_ERR(inst))
		err = PTR_ERR(inst);
	else
		err = sc_fill_dev(msg, inst, info->snd_portid, info->snd_seq,
				  0, NULL);
	mutex_unlock(&sc_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * What a dumpit returns after filling @skb: a full buffer (-EMSGSIZE)
 * continues in the next one, unless nothing fit at all.
 */
static int sc_dump_done(struct sk_buff *skb, int err)
{
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}

/* Dump every instance; DEV_NAME, DEV_MAJOR/MINOR and SCHED filter. */
static int sc_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = sc_dump_attrs(cb);
	struct schedctl_inst *inst;
	long idx = 0, start = cb->args[0];
	int err = 0;

	/*
	 * Request checks on the first call, not in a .start callback: 6.1
	 * hands .start no extack (its message would be lost), while a
	 * dumpit error comes back in NLMSG_DONE with its extack everywhere.
	 */
	if (!cb->args[1]) {
		err = sc_check_version(nlmsg_data(cb->nlh), cb->extack);
		if (err)
			return err;
		if (!attrs[SCHEDCTL_A_DEV_MAJOR] !=
		    !attrs[SCHEDCTL_A_DEV_MINOR]) {
			NL_SET_ERR_MSG_MOD(cb->extack,
					   "DEV_MAJOR and DEV_MINOR go together");
			return -EINVAL;
		}
		cb->args[1] = 1;
	}
	mutex_lock(&sc_lock);
	cb->seq = sc_gen;
	list_for_each_entry(inst, &sc_list, node) {
		if (idx < start || !sc_match(inst, attrs)) {
			idx++;
			continue;
		}
		err = sc_fill_dev(skb, inst, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, NLM_F_MULTI, cb);
		if (err)
			break;
		idx++;
	}
	mutex_unlock(&sc_lock);
	cb->args[0] = idx;
	return sc_dump_done(skb, err);
}

/* Groups copied from the scheduler per round, between messages. */
#define SC_GROUPS_BATCH	16

/*
 * Dump one device's groups.  The scheduler copies a batch at a time under
 * its own lock; cb->args[0] is the index of the next group, and the dump
 * is flagged NLM_F_DUMP_INTR if devices or the device's groups came or
 * went between two parts.
 */
static int sc_groups_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = sc_dump_attrs(cb);
	struct schedctl_group *buf;
	struct schedctl_inst *inst;
	unsigned long idx = cb->args[0];
	unsigned int i, n, gen;
	int err = 0;

	if (!cb->args[1]) {
		err = sc_check_version(nlmsg_data(cb->nlh), cb->extack);
		if (!err)
			err = sc_check_selector(attrs, cb->extack);
		if (err)
			return err;
		cb->args[1] = 1;
	}
	buf = kmalloc_array(SC_GROUPS_BATCH, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&sc_lock);
	inst = sc_find(attrs, cb->extack);
	if (IS_ERR(inst)) {
		err = PTR_ERR(inst);
		goto out;
	}
	if (!inst->ops->groups_get) {
		NL_SET_ERR_MSG_MOD(cb->extack, "the scheduler has no groups");
		err = -EOPNOTSUPP;
		goto out;
	}
	do {
		n = inst->ops->groups_get(inst->priv, idx, buf,
					  SC_GROUPS_BATCH, &gen);
		cb->seq = sc_gen ^ (gen << 16);
		for (i = 0; i < n; i++) {
			err = sc_fill_group(skb, inst, &buf[i], cb);
			if (err)
				goto out;
			idx++;
		}
	} while (n == SC_GROUPS_BATCH);
out:
	mutex_unlock(&sc_lock);
	kfree(buf);
	cb->args[0] = idx;
	return sc_dump_done(skb, err);
}

static int sc_set_knob_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct schedctl_inst *inst;
	struct sk_buff *ntf;
	const char *name;
	unsigned int i;
	int err;

	/* Like writing the sysfs file; the core checked CAP_NET_ADMIN. */
	if (!netlink_capable(skb, CAP_SYS_ADMIN)) {
		NL_SET_ERR_MSG_MOD(info->extack, "CAP_SYS_ADMIN needed");
		return -EPERM;
	}
	err = sc_check_version(info->genlhdr, info->extack);
	if (err)
		return err;
	err = sc_check_selector(attrs, info->extack);
	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, SCHEDCTL_A_KNOB_NAME) ||
	    GENL_REQ_ATTR_CHECK(info, SCHEDCTL_A_KNOB_VALUE)) {
		NL_SET_ERR_MSG_MOD(info->extack, "need KNOB_NAME and KNOB_VALUE");
		return -EINVAL;
	}
	name = nla_data(attrs[SCHEDCTL_A_KNOB_NAME]);

	ntf = sc_ntf_alloc(GFP_KERNEL);
	mutex_lock(&sc_lock);
	inst = sc_find(attrs, info->extack);
	if (IS_ERR(inst)) {
		err = PTR_ERR(inst);
		goto out;
	}
	for (i = 0; i < inst->ops->nr_knobs; i++)
		if (!strcmp(inst->ops->knob_names[i], name))
			break;
	if (i == inst->ops->nr_knobs) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[SCHEDCTL_A_KNOB_NAME],
				    "the scheduler has no such knob");
		err = -ENOENT;
		goto out;
	}
	err = sc_knob_set_locked(inst, i,
				 nla_get_u64(attrs[SCHEDCTL_A_KNOB_VALUE]),
				 info->extack, ntf);
	if (err)
		NL_SET_BAD_ATTR(info->extack, attrs[SCHEDCTL_A_KNOB_VALUE]);
out:
	mutex_unlock(&sc_lock);
	sc_ntf_send(ntf, GFP_KERNEL);
	return err;
}

static const struct genl_ops sc_ops[] = {
	{
		.cmd	= SCHEDCTL_CMD_GET_DEV,
		.doit	= sc_get_doit,
		.dumpit	= sc_get_dumpit,
	},
	{
		.cmd	= SCHEDCTL_CMD_SET_KNOB,
		.doit	= sc_set_knob_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= SCHEDCTL_CMD_GET_GROUPS,
		.dumpit	= sc_groups_dumpit,
	},
};

static const struct genl_multicast_group sc_mcgrps[] = {
	[SC_MCGRP_EVENTS_IDX] = { .name = SCHEDCTL_MCGRP_EVENTS },
};

static struct genl_family sc_family = {
	.name		= SCHEDCTL_GENL_NAME,
	.version	= SCHEDCTL_GENL_VERSION,
	.maxattr	= SCHEDCTL_A_MAX,
	.policy		= sc_policy,
	/* Block devices are global; the family lives in init_net only. */
	.netnsok	= false,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= sc_ops,
	.n_ops		= ARRAY_SIZE(sc_ops),
	.mcgrps		= sc_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(sc_mcgrps),
};

static int __init sc_init(void)
{
	sc_family_strict(&sc_family);
	return genl_register_family(&sc_family);
}

static void __exit sc_exit(void)
{
	/* Every scheduler module that registers instances depends on us. */
	genl_unregister_family(&sc_family);
}

module_init(sc_init);
module_exit(sc_exit);

MODULE_AUTHOR("schedctl developers");
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("schedctl generic netlink interface for I/O schedulers");
MODULE_ALIAS_GENL_FAMILY(SCHEDCTL_GENL_NAME);
