// SPDX-License-Identifier: GPL-2.0
/*
 * The schedctl generic netlink family through libnl-genl-3: find the
 * family and check its version, read device snapshots (GET_DEV do and
 * dump) and a device's groups (GET_GROUPS dump), follow the events
 * group.  See netlink.h and docs/netlink.md.
 */
#define _GNU_SOURCE
#include "netlink.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>
#include <netlink/genl/genl.h>

#include "groups.h"
#include "schedctl_nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* Requests are retried this often when a dump was interrupted. */
#define SC_NL_DUMP_TRIES 10
/*
 * The longest wait for a reply.  stats and monitor block SIGINT outside
 * their waits, so a reply that never came would otherwise hang them.
 */
#define SC_NL_REPLY_TIMEOUT_S 10

struct sc_nl {
	struct nl_sock *sk;
	int family;		/* generic netlink id of "schedctl" */
	unsigned int version;	/* its CTRL_ATTR_VERSION */
	bool events;
};

/* ---- decoding ------------------------------------------------------- */

static struct nla_policy dev_policy[SCHEDCTL_A_MAX + 1] = {
	[SCHEDCTL_A_DEV_NAME] = { .type = NLA_STRING },
	[SCHEDCTL_A_DEV_MAJOR] = { .type = NLA_U32 },
	[SCHEDCTL_A_DEV_MINOR] = { .type = NLA_U32 },
	[SCHEDCTL_A_SCHED] = { .type = NLA_STRING },
	[SCHEDCTL_A_KNOBS] = { .type = NLA_NESTED },
	[SCHEDCTL_A_COUNTERS] = { .type = NLA_NESTED },
	[SCHEDCTL_A_STATES] = { .type = NLA_NESTED },
	[SCHEDCTL_A_KNOB_NAME] = { .type = NLA_STRING },
	[SCHEDCTL_A_KNOB_VALUE] = { .type = NLA_U64 },
	[SCHEDCTL_A_KNOB_OLD] = { .type = NLA_U64 },
	[SCHEDCTL_A_STATE_NAME] = { .type = NLA_STRING },
	[SCHEDCTL_A_STATE_VALUE] = { .type = NLA_U64 },
	[SCHEDCTL_A_STATE_OLD] = { .type = NLA_U64 },
	[SCHEDCTL_A_GROUP_CGID] = { .type = NLA_U64 },
	[SCHEDCTL_A_GROUP_WEIGHT] = { .type = NLA_U32 },
	[SCHEDCTL_A_GROUP_BUSY] = { .type = NLA_U8 },
	[SCHEDCTL_A_GROUP_ACTIVE] = { .type = NLA_U32 },
	[SCHEDCTL_A_GROUP_SERVED] = { .type = NLA_U64 },
};

static struct nla_policy entry_policy[SCHEDCTL_A_ENTRY_MAX + 1] = {
	[SCHEDCTL_A_ENTRY_NAME] = { .type = NLA_STRING },
	[SCHEDCTL_A_ENTRY_VALUE] = { .type = NLA_U64 },
};

static void list_free(struct sc_nl_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* A nest of SCHEDCTL_A_LIST_ENTRY nests; unknown entries are skipped. */
static int parse_list(struct nlattr *list, struct sc_nl_list *out)
{
	struct nlattr *entry, *e[SCHEDCTL_A_ENTRY_MAX + 1];
	size_t cap = 0;
	int rem;

	if (!list)
		return 0;
	nla_for_each_nested(entry, list, rem) {
		if (nla_type(entry) != SCHEDCTL_A_LIST_ENTRY ||
		    nla_parse_nested(e, SCHEDCTL_A_ENTRY_MAX, entry, entry_policy) ||
		    !e[SCHEDCTL_A_ENTRY_NAME] || !e[SCHEDCTL_A_ENTRY_VALUE])
			continue;
		if (out->n == cap) {
			struct sc_nl_entry *v;

			cap = cap ? 2 * cap : 32;
			v = realloc(out->v, cap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			out->v = v;
		}
		out->v[out->n].name = strndup(nla_data(e[SCHEDCTL_A_ENTRY_NAME]),
					      (size_t)nla_len(e[SCHEDCTL_A_ENTRY_NAME]));
		if (!out->v[out->n].name)
			return -ENOMEM;
		out->v[out->n].value = nla_get_u64(e[SCHEDCTL_A_ENTRY_VALUE]);
		out->n++;
	}
	return 0;
}

static void get_str(char *dst, size_t size, struct nlattr *a)
{
	if (a)
		nla_strlcpy(dst, a, size);
	else
		dst[0] = '\0';
}

int sc_nl_parse_dev(const struct nlmsghdr *nlh, struct sc_nl_dev *d)
{
	struct nlattr *tb[SCHEDCTL_A_MAX + 1];
	int r;

	memset(d, 0, sizeof(*d));
	if (genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, SCHEDCTL_A_MAX, dev_policy) ||
	    !tb[SCHEDCTL_A_DEV_NAME] || !tb[SCHEDCTL_A_SCHED])
		return -EINVAL;
	get_str(d->name, sizeof(d->name), tb[SCHEDCTL_A_DEV_NAME]);
	get_str(d->sched, sizeof(d->sched), tb[SCHEDCTL_A_SCHED]);
	if (tb[SCHEDCTL_A_DEV_MAJOR] && tb[SCHEDCTL_A_DEV_MINOR]) {
		d->major = nla_get_u32(tb[SCHEDCTL_A_DEV_MAJOR]);
		d->minor = nla_get_u32(tb[SCHEDCTL_A_DEV_MINOR]);
	}
	r = parse_list(tb[SCHEDCTL_A_KNOBS], &d->knobs);
	if (!r)
		r = parse_list(tb[SCHEDCTL_A_COUNTERS], &d->counters);
	if (!r)
		r = parse_list(tb[SCHEDCTL_A_STATES], &d->states);
	if (r)
		sc_nl_dev_free(d);
	return r;
}

void sc_nl_dev_free(struct sc_nl_dev *d)
{
	list_free(&d->knobs);
	list_free(&d->counters);
	list_free(&d->states);
}

int sc_nl_parse_event(const struct nlmsghdr *nlh, struct sc_nl_event *ev)
{
	struct nlattr *tb[SCHEDCTL_A_MAX + 1];
	const struct genlmsghdr *g;
	struct nlattr *name = NULL, *old = NULL, *val = NULL;

	memset(ev, 0, sizeof(*ev));
	if (!genlmsg_valid_hdr((struct nlmsghdr *)nlh, 0) ||
	    genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, SCHEDCTL_A_MAX, dev_policy))
		return -EINVAL;
	g = nlmsg_data(nlh);
	ev->cmd = g->cmd;
	get_str(ev->dev, sizeof(ev->dev), tb[SCHEDCTL_A_DEV_NAME]);
	get_str(ev->sched, sizeof(ev->sched), tb[SCHEDCTL_A_SCHED]);
	if (tb[SCHEDCTL_A_DEV_MAJOR] && tb[SCHEDCTL_A_DEV_MINOR]) {
		ev->has_devt = true;
		ev->major = nla_get_u32(tb[SCHEDCTL_A_DEV_MAJOR]);
		ev->minor = nla_get_u32(tb[SCHEDCTL_A_DEV_MINOR]);
	}
	switch (g->cmd) {
	case SCHEDCTL_CMD_ATTACH_NTF:
		ev->kind = SC_EV_ATTACH;
		break;
	case SCHEDCTL_CMD_DETACH_NTF:
		ev->kind = SC_EV_DETACH;
		break;
	case SCHEDCTL_CMD_KNOB_NTF:
		ev->kind = SC_EV_KNOB;
		name = tb[SCHEDCTL_A_KNOB_NAME];
		old = tb[SCHEDCTL_A_KNOB_OLD];
		val = tb[SCHEDCTL_A_KNOB_VALUE];
		break;
	case SCHEDCTL_CMD_STATE_NTF:
		ev->kind = SC_EV_STATE;
		name = tb[SCHEDCTL_A_STATE_NAME];
		old = tb[SCHEDCTL_A_STATE_OLD];
		val = tb[SCHEDCTL_A_STATE_VALUE];
		break;
	default:
		ev->kind = SC_EV_UNKNOWN;
		return 0;
	}
	if (!ev->dev[0] || ((ev->kind == SC_EV_KNOB || ev->kind == SC_EV_STATE) &&
			    (!name || !old || !val)))
		return -EINVAL;
	get_str(ev->name, sizeof(ev->name), name);
	ev->old = old ? nla_get_u64(old) : 0;
	ev->new = val ? nla_get_u64(val) : 0;
	return 0;
}

int sc_nl_parse_group(const struct nlmsghdr *nlh, struct sc_group *g)
{
	struct nlattr *tb[SCHEDCTL_A_MAX + 1];

	memset(g, 0, sizeof(*g));
	if (!genlmsg_valid_hdr((struct nlmsghdr *)nlh, 0) ||
	    ((const struct genlmsghdr *)nlmsg_data(nlh))->cmd != SCHEDCTL_CMD_GET_GROUPS ||
	    genlmsg_parse((struct nlmsghdr *)nlh, 0, tb, SCHEDCTL_A_MAX, dev_policy) ||
	    !tb[SCHEDCTL_A_GROUP_CGID] || !tb[SCHEDCTL_A_GROUP_WEIGHT] ||
	    !tb[SCHEDCTL_A_GROUP_BUSY] || !tb[SCHEDCTL_A_GROUP_ACTIVE] ||
	    !tb[SCHEDCTL_A_GROUP_SERVED] || nla_get_u8(tb[SCHEDCTL_A_GROUP_BUSY]) > 1)
		return -EINVAL;
	g->cgid = nla_get_u64(tb[SCHEDCTL_A_GROUP_CGID]);
	g->weight = nla_get_u32(tb[SCHEDCTL_A_GROUP_WEIGHT]);
	g->busy = nla_get_u8(tb[SCHEDCTL_A_GROUP_BUSY]);
	g->active = nla_get_u32(tb[SCHEDCTL_A_GROUP_ACTIVE]);
	g->served = nla_get_u64(tb[SCHEDCTL_A_GROUP_SERVED]);
	return 0;
}

/* ---- connection ------------------------------------------------------ */

int sc_nl_check_version(unsigned int kver, bool events, char *err, size_t errlen)
{
	if (kver >= SCHEDCTL_GENL_VERSION && (!events || kver == SCHEDCTL_GENL_VERSION))
		return 0;
	if (kver < SCHEDCTL_GENL_VERSION)
		snprintf(err, errlen,
			 "the kernel's schedctl netlink interface is version %u, older than "
			 "version %u of this schedctl: update the schedctl kernel modules",
			 kver, SCHEDCTL_GENL_VERSION);
	else
		snprintf(err, errlen,
			 "the kernel's schedctl netlink interface is version %u and sends "
			 "events this schedctl (version %u) cannot read: update schedctl",
			 kver, SCHEDCTL_GENL_VERSION);
	return -SC_NL_EVERSION;
}

static const char *nl_err(int e)
{
	return nl_geterror(e < 0 ? -e : e);
}

/* The family's version from the controller, or 0 when it is gone. */
static unsigned int family_version(struct nl_sock *sk, int *r)
{
	struct nl_cache *cache = NULL;
	struct genl_family *f;
	unsigned int v = 0;

	*r = genl_ctrl_alloc_cache(sk, &cache);
	if (*r)
		return 0;
	f = genl_ctrl_search_by_name(cache, SCHEDCTL_GENL_NAME);
	if (f) {
		v = (unsigned int)genl_family_get_version(f);
		genl_family_put(f);
	} else {
		*r = -NLE_OBJ_NOTFOUND;
	}
	nl_cache_free(cache);
	return v;
}

static int not_found(char *err, size_t errlen)
{
	/* Loaded, but invisible: the family is in the initial netns only. */
	if (!access("/sys/module/schedctl_nl", F_OK)) {
		snprintf(err, errlen,
			 "the schedctl netlink family is not visible here: it exists only "
			 "in the initial network namespace");
		return -SC_NL_ENETNS;
	}
	snprintf(err, errlen, "the schedctl_nl module is not loaded (no scheduler "
		 "module from schedctl is in use)");
	return -SC_NL_ENOFAMILY;
}

int sc_nl_open(struct sc_nl **out, bool events, char *err, size_t errlen)
{
	struct sc_nl *nl = calloc(1, sizeof(*nl));
	struct timeval reply_timeout = { .tv_sec = SC_NL_REPLY_TIMEOUT_S };
	int one = 1, r, grp, ctrl;

	*out = NULL;
	if (!nl || !(nl->sk = nl_socket_alloc())) {
		free(nl);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r = genl_connect(nl->sk);
	if (r) {
		snprintf(err, errlen, "cannot open a generic netlink socket: %s", nl_err(r));
		r = -EIO;
		goto fail;
	}
	/* the kernel's reasons with errors; harmless where unsupported */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET, SO_RCVTIMEO, &reply_timeout,
		   sizeof(reply_timeout));
	/* this autoloads schedctl_nl (module alias) where it can */
	nl->family = genl_ctrl_resolve(nl->sk, SCHEDCTL_GENL_NAME);
	if (nl->family < 0) {
		if (nl->family == -NLE_OBJ_NOTFOUND) {
			r = not_found(err, errlen);
		} else {
			snprintf(err, errlen, "cannot ask for the schedctl netlink family: %s",
				 nl_err(nl->family));
			r = -EIO;
		}
		goto fail;
	}
	nl->version = family_version(nl->sk, &r);
	if (r) {
		if (r == -NLE_OBJ_NOTFOUND)
			r = not_found(err, errlen);
		else {
			snprintf(err, errlen, "cannot read the generic netlink families: %s",
				 nl_err(r));
			r = -EIO;
		}
		goto fail;
	}
	r = sc_nl_check_version(nl->version, events, err, errlen);
	if (r)
		goto fail;
	if (events) {
		grp = genl_ctrl_resolve_grp(nl->sk, SCHEDCTL_GENL_NAME, SCHEDCTL_MCGRP_EVENTS);
		ctrl = genl_ctrl_resolve_grp(nl->sk, "nlctrl", "notify");
		if (grp < 0) {
			snprintf(err, errlen, "the schedctl family has no \"%s\" group: %s",
				 SCHEDCTL_MCGRP_EVENTS, nl_err(grp));
			r = -EIO;
			goto fail;
		}
		/* bursts of events (many devices switching) must not overrun */
		nl_socket_set_buffer_size(nl->sk, 1 << 20, 0);
		r = nl_socket_add_memberships(nl->sk, grp, ctrl >= 0 ? ctrl : 0, 0);
		if (r) {
			snprintf(err, errlen, "cannot join the schedctl events group: %s",
				 nl_err(r));
			r = -EIO;
			goto fail;
		}
		nl->events = true;
	}
	*out = nl;
	return 0;
fail:
	nl_socket_free(nl->sk);
	free(nl);
	return r;
}

void sc_nl_close(struct sc_nl *nl)
{
	if (!nl)
		return;
	nl_socket_free(nl->sk);
	free(nl);
}

unsigned int sc_nl_kernel_version(const struct sc_nl *nl)
{
	return nl->version;
}

int sc_nl_fd(const struct sc_nl *nl)
{
	return nl_socket_get_fd(nl->sk);
}

/* ---- requests -------------------------------------------------------- */

struct req {
	/* each reply message: 0, or -ENOMEM, or -EPROTO (malformed) */
	int (*one)(struct req *r, struct nlmsghdr *nlh);
	void *out;		/* what one() fills */
	bool done, intr;
	int error;		/* positive errno from the kernel */
	int fail;		/* the first error of one() */
	char msg[256];		/* extended ACK message */
};

/* The TLVs after an NLMSG_ERROR or NLMSG_DONE payload: keep the message. */
static void ack_tlvs(struct req *r, const char *p, const char *end)
{
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			snprintf(r->msg, sizeof(r->msg), "%.*s", a->nla_len - NLA_HDRLEN,
				 p + NLA_HDRLEN);
			r->msg[strcspn(r->msg, "\n")] = '\0';
		}
		p += NLA_ALIGN(a->nla_len);
	}
}

/* GET_DEV replies into a snapshot; malformed devices are left out. */
struct dev_out {
	struct sc_nl_snap *snap;
	size_t cap;
};

static int one_dev(struct req *r, struct nlmsghdr *nlh)
{
	struct dev_out *o = r->out;
	struct sc_nl_snap *s = o->snap;

	if (!genlmsg_valid_hdr(nlh, 0) ||
	    ((struct genlmsghdr *)nlmsg_data(nlh))->cmd != SCHEDCTL_CMD_GET_DEV)
		return 0;
	if (s->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 8;
		struct sc_nl_dev *d = realloc(s->dev, cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		s->dev = d;
		o->cap = cap;
	}
	if (sc_nl_parse_dev(nlh, &s->dev[s->n]) == -ENOMEM)
		return -ENOMEM;
	if (s->dev[s->n].name[0])
		s->n++;
	return 0;
}

/* GET_GROUPS replies, in order; a malformed one fails the request (a
 * group left out would shift the others, the root's first). */
struct groups_out {
	struct sc_group *g;
	size_t n, cap;
};

static int one_group(struct req *r, struct nlmsghdr *nlh)
{
	struct groups_out *o = r->out;

	if (o->n == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 16;
		struct sc_group *g = realloc(o->g, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		o->g = g;
		o->cap = cap;
	}
	if (sc_nl_parse_group(nlh, &o->g[o->n]))
		return -EPROTO;
	o->n++;
	return 0;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;
	int e = r->one(r, nlmsg_hdr(msg));

	if (e && !r->fail)
		r->fail = e;
	return e ? NL_SKIP : NL_OK;
}

static int on_finish(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	int err = 0;

	if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
		memcpy(&err, NLMSG_DATA(nlh), sizeof(int));
	r->error = -err;
	r->done = true;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		ack_tlvs(r, (const char *)NLMSG_DATA(nlh) + sizeof(int), end);
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;

	(void)msg;
	r->done = true;
	return NL_STOP;
}

static int on_intr(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;

	(void)msg;
	r->intr = true;
	return NL_OK;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct req *r = arg;
	const struct nlmsghdr *nlh = (const void *)((const char *)e - NLMSG_HDRLEN);
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	const char *tlv = (const char *)e + sizeof(*e);

	(void)nla;
	r->error = -e->error;
	r->done = true;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			tlv += NLMSG_ALIGN(e->msg.nlmsg_len) - sizeof(e->msg);
		ack_tlvs(r, tlv, end);
	}
	return NL_STOP;
}

static int dev_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sc_nl_dev *)a)->name, ((const struct sc_nl_dev *)b)->name);
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * One request (a dump, or a do) for device dev (NULL: none named) and its
 * replies, each to r->one: 0 or -errno with a message in err (for an
 * error from the kernel, its strerror and extended ACK message).
 */
static int request(struct sc_nl *nl, uint8_t cmd, bool dump, const char *dev, struct req *r,
		   char *err, size_t errlen)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nl_cb *cb = nl_cb_alloc(NL_CB_CUSTOM);
	int e = 0;

	if (!msg || !cb ||
	    !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, dump ? NLM_F_DUMP : 0,
			 cmd, SCHEDCTL_GENL_VERSION) ||
	    (dev && nla_put_string(msg, SCHEDCTL_A_DEV_NAME, dev))) {
		snprintf(err, errlen, "cannot build a netlink request");
		e = -ENOMEM;
		goto out;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, r);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_intr, r);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, r);
	e = nl_send_auto(nl->sk, msg);
	if (e < 0) {
		snprintf(err, errlen, "cannot send a netlink request: %s", nl_err(e));
		e = -EIO;
		goto out;
	}
	e = 0;
	while (!r->done) {
		int n = nl_recvmsgs(nl->sk, cb);

		if (n == -NLE_AGAIN && !r->done) {
			snprintf(err, errlen, "no reply from the kernel within %d s",
				 SC_NL_REPLY_TIMEOUT_S);
			e = -ETIMEDOUT;
			goto out;
		}
		if (n < 0 && !r->done) {
			snprintf(err, errlen, "cannot read the netlink reply: %s", nl_err(n));
			e = -EIO;
			goto out;
		}
	}
	if (r->fail == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
		e = -ENOMEM;
	} else if (r->error) {
		e = -r->error;
		snprintf(err, errlen, "%s%s%s", strerror(r->error), r->msg[0] ? ": " : "",
			 r->msg);
	} else if (r->fail) {
		snprintf(err, errlen, "the kernel sent a malformed reply");
		e = r->fail;
	}
out:
	nl_cb_put(cb);
	nlmsg_free(msg);
	return e;
}

/* One GET_DEV request (dump: dev NULL) and its replies. */
static int get_once(struct sc_nl *nl, const char *dev, struct req *r, char *err, size_t errlen)
{
	int e = request(nl, SCHEDCTL_CMD_GET_DEV, !dev, dev, r, err, errlen);

	if (e == -EOPNOTSUPP && r->error == EOPNOTSUPP)
		snprintf(err, errlen, "the kernel refused protocol version %u of this "
			 "schedctl (it speaks version %u)%s%s", SCHEDCTL_GENL_VERSION,
			 nl->version, r->msg[0] ? ": " : "", r->msg);
	return e;
}

int sc_nl_get(struct sc_nl *nl, const char *dev, struct sc_nl_snap *s, char *err, size_t errlen)
{
	int e;

	memset(s, 0, sizeof(*s));
	for (int tries = 1;; tries++) {
		struct dev_out o = { .snap = s };
		struct req r = { .one = one_dev, .out = &o };

		e = get_once(nl, dev, &r, err, errlen);
		if (e || !r.intr || tries == SC_NL_DUMP_TRIES)
			break;
		sc_nl_snap_free(s);	/* devices came or went: read again */
	}
	if (e) {
		sc_nl_snap_free(s);
		return e;
	}
	qsort(s->dev, s->n, sizeof(*s->dev), dev_cmp);
	s->t = mono_now();
	return 0;
}

int sc_nl_get_groups(struct sc_nl *nl, const char *dev, struct sc_group **g, size_t *n,
		     char *err, size_t errlen)
{
	struct groups_out o = { 0 };
	int e;

	*g = NULL;
	*n = 0;
	for (int tries = 1;; tries++) {
		struct req r = { .one = one_group, .out = &o };

		e = request(nl, SCHEDCTL_CMD_GET_GROUPS, true, dev, &r, err, errlen);
		/* genetlink's answer to a command the family lacks: no message */
		if (e == -EOPNOTSUPP && !r.msg[0]) {
			snprintf(err, errlen, "the schedctl_nl module has no GET_GROUPS command "
				 "(it is older than this schedctl)");
			e = -SC_NL_ENOCMD;
		}
		if (e || !r.intr)
			break;
		/* groups came or went: a torn list, read again */
		sc_groups_free(o.g, o.n);
		memset(&o, 0, sizeof(o));
		if (tries == SC_NL_DUMP_TRIES) {
			snprintf(err, errlen, "the groups changed during each of %d reads; "
				 "try again", SC_NL_DUMP_TRIES);
			e = -EAGAIN;
			break;
		}
	}
	if (e) {
		sc_groups_free(o.g, o.n);
		return e;
	}
	*g = o.g;
	*n = o.n;
	return 0;
}

void sc_nl_snap_free(struct sc_nl_snap *s)
{
	for (size_t i = 0; i < s->n; i++)
		sc_nl_dev_free(&s->dev[i]);
	free(s->dev);
	s->dev = NULL;
	s->n = 0;
}

const struct sc_nl_dev *sc_nl_snap_find(const struct sc_nl_snap *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->dev[i].name, name))
			return &s->dev[i];
	return NULL;
}

/* ---- events ---------------------------------------------------------- */

struct evread {
	struct sc_nl *nl;
	sc_nl_event_cb cb;
	void *arg;
	bool gone, stop;
};

/* A controller notification: is it our family going away? */
static bool family_deleted(const struct sc_nl *nl, struct nlmsghdr *nlh)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	const struct genlmsghdr *g;

	if (!genlmsg_valid_hdr(nlh, 0))
		return false;
	g = nlmsg_data(nlh);
	if (g->cmd != CTRL_CMD_DELFAMILY || genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, NULL))
		return false;
	if (tb[CTRL_ATTR_FAMILY_ID] && nla_len(tb[CTRL_ATTR_FAMILY_ID]) >= 2)
		return nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]) == nl->family;
	return tb[CTRL_ATTR_FAMILY_NAME] &&
	       !strncmp(nla_data(tb[CTRL_ATTR_FAMILY_NAME]), SCHEDCTL_GENL_NAME,
			(size_t)nla_len(tb[CTRL_ATTR_FAMILY_NAME]));
}

/* Events carry sequence number 0: no sequence check for them. */
static int seq_any(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct evread *er = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct sc_nl_event ev;

	if (nlh->nlmsg_type == GENL_ID_CTRL) {
		if (family_deleted(er->nl, nlh)) {
			er->gone = true;
			return NL_STOP;
		}
		return NL_SKIP;
	}
	if (nlh->nlmsg_type != er->nl->family || sc_nl_parse_event(nlh, &ev))
		return NL_SKIP;
	if (!er->cb(&ev, er->arg)) {
		er->stop = true;
		return NL_STOP;
	}
	return NL_OK;
}

int sc_nl_read_events(struct sc_nl *nl, sc_nl_event_cb cb, void *arg)
{
	struct evread er = { nl, cb, arg, false, false };
	struct nl_cb *c = nl_cb_alloc(NL_CB_CUSTOM);
	int n;

	if (!c)
		return -ENOMEM;
	nl_cb_set(c, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, seq_any, NULL);
	nl_cb_set(c, NL_CB_VALID, NL_CB_CUSTOM, on_event, &er);
	n = nl_recvmsgs(nl->sk, c);
	nl_cb_put(c);
	if (er.gone)
		return 1;
	if (n < 0 && !er.stop)
		return n == -NLE_NOMEM ? -ENOBUFS : -EIO;
	return 0;
}
