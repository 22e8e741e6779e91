// SPDX-License-Identifier: GPL-2.0
/*
 * nltest: exercise the schedctl generic netlink family (kmod/schedctl_nl.c)
 * from userspace.  Output is one record per line, easy to read in sh.
 *
 *   nltest [--drop-privs UID] dump [DEV]
 *       DEV SCHED dev MAJOR:MINOR
 *       DEV SCHED knob|counter|state NAME VALUE
 *   nltest [--drop-privs UID] monitor N [SECONDS]
 *       "# listening" once subscribed, then per event:
 *       attach DEV SCHED | detach DEV SCHED
 *       knob DEV SCHED NAME OLD NEW | state DEV SCHED NAME OLD NEW
 *       exits 0 after N events, 1 on timeout (default 30 s)
 *   nltest [--drop-privs UID] change DEV KNOB VALUE
 *       prints "ok", or "error ERRNAME: strerror: extack message"
 *   nltest [--drop-privs UID] groups DEV
 *       DEV SCHED group CGID WEIGHT BUSY ACTIVE SERVED, one per group
 *       (GET_GROUPS), or the error as change prints it
 *   nltest version
 *       prints the family's version (CTRL_ATTR_VERSION) and ours
 *   nltest malformed [DEV]
 *       sends malformed requests, prints TAP; DEV (with xdeadline) adds
 *       the SET_KNOB value checks
 *
 * dump, monitor and change use libnl-genl-3; malformed builds its messages
 * by hand on a raw socket, so that it can send what libnl would refuse to.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>

#include "schedctl_nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("nltest: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static const char *errname(int err)
{
	switch (err) {
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case ENODEV: return "ENODEV";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EMSGSIZE: return "EMSGSIZE";
	case ENOMEM: return "ENOMEM";
	case 0: return "OK";
	default: return "E?";
	}
}

/* ---- extended ACK --------------------------------------------------- */

struct ack {
	int error;		/* errno, positive; 0 for success */
	bool done;
	bool has_ext;		/* a message or a missing-attribute TLV */
	char msg[256];
	int miss_type;
};

/*
 * Parse the TLVs after an NLMSG_ERROR or NLMSG_DONE payload.  @payload is
 * where the TLVs start, @end the end of the message.
 */
static void parse_ack_tlvs(struct ack *a, const char *p, const char *end)
{
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *nla = (const void *)p;
		int len = nla->nla_len;

		if (len < NLA_HDRLEN || p + len > end)
			break;
		switch (nla->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			snprintf(a->msg, sizeof(a->msg), "%.*s",
				 len - NLA_HDRLEN, p + NLA_HDRLEN);
			a->msg[strcspn(a->msg, "\n")] = 0;
			a->has_ext = true;
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			memcpy(&a->miss_type, p + NLA_HDRLEN, 4);
			a->has_ext = true;
			break;
		}
		p += NLA_ALIGN(len);
	}
}

static void parse_error_msg(struct ack *a, const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	const char *tlv;

	a->error = -e->error;
	a->done = true;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	tlv = (const char *)e + sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		tlv += NLMSG_ALIGN(e->msg.nlmsg_len) - sizeof(e->msg);
	parse_ack_tlvs(a, tlv, end);
}

static void parse_done_msg(struct ack *a, const struct nlmsghdr *nlh)
{
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	int err = 0;

	if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
		memcpy(&err, NLMSG_DATA(nlh), sizeof(int));
	a->error = -err;
	a->done = true;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		parse_ack_tlvs(a, (const char *)NLMSG_DATA(nlh) + sizeof(int),
			       end);
}

static void print_ack_error(const struct ack *a)
{
	printf("error %s: %s", errname(a->error), strerror(a->error));
	if (a->msg[0])
		printf(": %s", a->msg);
	if (a->miss_type)
		printf(" (missing attribute %d)", a->miss_type);
	printf("\n");
}

/* ---- privileges ----------------------------------------------------- */

static void drop_privs(const char *arg)
{
	char *end;
	long uid = strtol(arg, &end, 10);

	if (*end || uid <= 0)
		die("bad uid '%s'", arg);
	if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid((uid_t)uid))
		die("cannot drop privileges to %ld: %s", uid, strerror(errno));
	if (setuid(0) == 0)
		die("could regain root after dropping privileges");
}

/* ---- libnl side ----------------------------------------------------- */

struct conn {
	struct nl_sock *sk;
	int family;
};

static void conn_open(struct conn *c)
{
	int one = 1;

	c->sk = nl_socket_alloc();
	if (!c->sk)
		die("nl_socket_alloc failed");
	if (genl_connect(c->sk))
		die("cannot connect to generic netlink");
	setsockopt(nl_socket_get_fd(c->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	c->family = genl_ctrl_resolve(c->sk, SCHEDCTL_GENL_NAME);
	if (c->family < 0)
		die("family %s not found (is schedctl_nl loaded?)",
		    SCHEDCTL_GENL_NAME);
}

struct req {
	struct ack ack;
	bool interrupted;	/* NLM_F_DUMP_INTR: the list changed */
	int (*valid)(struct nl_msg *msg, void *arg);
	void *arg;
};

static int req_valid(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;

	return r->valid ? r->valid(msg, r->arg) : NL_OK;
}

static int req_intr(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;

	(void)msg;
	r->interrupted = true;
	return NL_OK;
}

static int req_finish(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;

	parse_done_msg(&r->ack, nlmsg_hdr(msg));
	return NL_STOP;
}

static int req_ack(struct nl_msg *msg, void *arg)
{
	struct req *r = arg;

	(void)msg;
	r->ack.done = true;
	r->ack.error = 0;
	return NL_STOP;
}

static int req_err(struct sockaddr_nl *nla, struct nlmsgerr *err, void *arg)
{
	struct req *r = arg;

	(void)nla;
	parse_error_msg(&r->ack, (struct nlmsghdr *)((char *)err -
						      NLMSG_HDRLEN));
	return NL_STOP;
}

/*
 * Send @msg (freed), feed replies to @valid until the ACK or DONE.  Sets
 * *@intr when a dump was interrupted by a change (retry it).
 */
static struct ack transact(struct conn *c, struct nl_msg *msg,
			   int (*valid)(struct nl_msg *, void *), void *arg,
			   bool *intr)
{
	struct req r = { .valid = valid, .arg = arg };
	struct nl_cb *cb = nl_cb_alloc(NL_CB_CUSTOM);

	if (!cb)
		die("nl_cb_alloc failed");
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, req_valid, &r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, req_finish, &r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, req_ack, &r);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, req_intr, &r);
	nl_cb_err(cb, NL_CB_CUSTOM, req_err, &r);
	if (nl_send_auto(c->sk, msg) < 0)
		die("send failed");
	nlmsg_free(msg);
	while (!r.ack.done) {
		int err = nl_recvmsgs(c->sk, cb);

		if (err < 0 && !r.ack.done)
			die("receive failed: %s", nl_geterror(err));
	}
	nl_cb_put(cb);
	if (intr)
		*intr = r.interrupted;
	return r.ack;
}

static struct nl_msg *new_req(struct conn *c, int flags, uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, c->family, 0,
				 flags, cmd, SCHEDCTL_GENL_VERSION))
		die("cannot build a message");
	return msg;
}

/* Device and scheduler of a message: DEV SCHED. */
static void dev_prefix(struct nlattr **tb, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s",
		 tb[SCHEDCTL_A_DEV_NAME] ?
		 nla_get_string(tb[SCHEDCTL_A_DEV_NAME]) : "?",
		 tb[SCHEDCTL_A_SCHED] ? nla_get_string(tb[SCHEDCTL_A_SCHED]) :
		 "?");
}

static void print_list(FILE *out, const char *pfx, const char *kind,
		       struct nlattr *list)
{
	struct nlattr *entry, *e[SCHEDCTL_A_ENTRY_MAX + 1];
	int rem;

	if (!list)
		return;
	nla_for_each_nested(entry, list, rem) {
		if (nla_parse_nested(e, SCHEDCTL_A_ENTRY_MAX, entry, NULL) ||
		    !e[SCHEDCTL_A_ENTRY_NAME] || !e[SCHEDCTL_A_ENTRY_VALUE])
			continue;
		fprintf(out, "%s %s %s %llu\n", pfx, kind,
			nla_get_string(e[SCHEDCTL_A_ENTRY_NAME]),
			(unsigned long long)nla_get_u64(e[SCHEDCTL_A_ENTRY_VALUE]));
	}
}

static int dump_one(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[SCHEDCTL_A_MAX + 1];
	FILE *out = arg;
	char pfx[128];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, SCHEDCTL_A_MAX, NULL))
		return NL_SKIP;
	dev_prefix(tb, pfx, sizeof(pfx));
	if (tb[SCHEDCTL_A_DEV_MAJOR] && tb[SCHEDCTL_A_DEV_MINOR])
		fprintf(out, "%s dev %u:%u\n", pfx,
			nla_get_u32(tb[SCHEDCTL_A_DEV_MAJOR]),
			nla_get_u32(tb[SCHEDCTL_A_DEV_MINOR]));
	print_list(out, pfx, "knob", tb[SCHEDCTL_A_KNOBS]);
	print_list(out, pfx, "counter", tb[SCHEDCTL_A_COUNTERS]);
	print_list(out, pfx, "state", tb[SCHEDCTL_A_STATES]);
	return NL_OK;
}

/*
 * Send command CMD (with NLM_F_DUMP unless DEV is named and DUMP is
 * false), DEV as DEV_NAME if given, print each reply through VALID; a
 * dump interrupted by a concurrent change is retried, then printed.
 */
static int run_request(uint8_t cmd, bool dump, const char *dev,
		       int (*valid)(struct nl_msg *, void *))
{
	struct nl_msg *msg;
	bool intr = false;
	struct conn c;
	struct ack a;
	int tries = 0;
	char *text;
	size_t len;
	FILE *out;

	conn_open(&c);
	do {
		out = open_memstream(&text, &len);
		if (!out)
			die("open_memstream failed");
		msg = new_req(&c, dump ? NLM_F_DUMP : 0, cmd);
		if (dev)
			nla_put_string(msg, SCHEDCTL_A_DEV_NAME, dev);
		a = transact(&c, msg, valid, out, &intr);
		fclose(out);
		if (intr && ++tries < 10) {
			free(text);
			continue;
		}
		break;
	} while (1);
	if (a.error) {
		free(text);
		print_ack_error(&a);
		return 1;
	}
	fputs(text, stdout);
	free(text);
	if (intr) {
		printf("# dump interrupted by changes %d times\n", tries);
		return 1;
	}
	return 0;
}

/* Every device (a dump), or DEV (a GET). */
static int cmd_dump(int argc, char **argv)
{
	return run_request(SCHEDCTL_CMD_GET_DEV, argc < 2,
			   argc > 1 ? argv[1] : NULL, dump_one);
}

static int group_one(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[SCHEDCTL_A_MAX + 1];
	FILE *out = arg;
	char pfx[128];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, SCHEDCTL_A_MAX, NULL))
		return NL_SKIP;
	dev_prefix(tb, pfx, sizeof(pfx));
	if (!tb[SCHEDCTL_A_GROUP_CGID] || !tb[SCHEDCTL_A_GROUP_WEIGHT] ||
	    !tb[SCHEDCTL_A_GROUP_BUSY] || !tb[SCHEDCTL_A_GROUP_ACTIVE] ||
	    !tb[SCHEDCTL_A_GROUP_SERVED]) {
		fprintf(out, "%s group incomplete\n", pfx);
		return NL_OK;
	}
	fprintf(out, "%s group %llu %u %u %u %llu\n", pfx,
		(unsigned long long)nla_get_u64(tb[SCHEDCTL_A_GROUP_CGID]),
		nla_get_u32(tb[SCHEDCTL_A_GROUP_WEIGHT]),
		nla_get_u8(tb[SCHEDCTL_A_GROUP_BUSY]),
		nla_get_u32(tb[SCHEDCTL_A_GROUP_ACTIVE]),
		(unsigned long long)nla_get_u64(tb[SCHEDCTL_A_GROUP_SERVED]));
	return NL_OK;
}

/* The groups of DEV (a GET_GROUPS dump). */
static int cmd_groups(int argc, char **argv)
{
	if (argc < 2)
		die("groups: need DEV");
	return run_request(SCHEDCTL_CMD_GET_GROUPS, true, argv[1], group_one);
}

static int cmd_change(int argc, char **argv)
{
	unsigned long long v;
	struct nl_msg *msg;
	struct conn c;
	struct ack a;
	char *end;

	if (argc != 4)
		die("usage: change DEV KNOB VALUE");
	errno = 0;
	v = strtoull(argv[3], &end, 0);
	if (errno || *end)
		die("bad value '%s'", argv[3]);
	conn_open(&c);
	msg = new_req(&c, 0, SCHEDCTL_CMD_SET_KNOB);
	nla_put_string(msg, SCHEDCTL_A_DEV_NAME, argv[1]);
	nla_put_string(msg, SCHEDCTL_A_KNOB_NAME, argv[2]);
	nla_put_u64(msg, SCHEDCTL_A_KNOB_VALUE, v);
	a = transact(&c, msg, NULL, NULL, NULL);
	if (a.error) {
		print_ack_error(&a);
		return 1;
	}
	printf("ok\n");
	return 0;
}

static int cmd_version(void)
{
	struct nl_cache *cache;
	struct genl_family *f;
	struct conn c;

	conn_open(&c);
	if (genl_ctrl_alloc_cache(c.sk, &cache))
		die("cannot read the genl controller");
	f = genl_ctrl_search_by_name(cache, SCHEDCTL_GENL_NAME);
	if (!f)
		die("family %s not found", SCHEDCTL_GENL_NAME);
	printf("kernel %u userspace %u\n", genl_family_get_version(f),
	       SCHEDCTL_GENL_VERSION);
	return genl_family_get_version(f) == SCHEDCTL_GENL_VERSION ? 0 : 1;
}

struct mon {
	long left;
};

static void print_change(const char *what, const char *pfx, struct nlattr *name,
			 struct nlattr *old, struct nlattr *val)
{
	printf("%s %s %s %llu %llu\n", what, pfx,
	       name ? nla_get_string(name) : "?",
	       old ? (unsigned long long)nla_get_u64(old) : 0ULL,
	       val ? (unsigned long long)nla_get_u64(val) : 0ULL);
}

static int monitor_one(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *tb[SCHEDCTL_A_MAX + 1];
	struct mon *m = arg;
	char pfx[128];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, SCHEDCTL_A_MAX, NULL))
		return NL_SKIP;
	dev_prefix(tb, pfx, sizeof(pfx));
	switch (g->cmd) {
	case SCHEDCTL_CMD_ATTACH_NTF:
		printf("attach %s\n", pfx);
		break;
	case SCHEDCTL_CMD_DETACH_NTF:
		printf("detach %s\n", pfx);
		break;
	case SCHEDCTL_CMD_KNOB_NTF:
		print_change("knob", pfx, tb[SCHEDCTL_A_KNOB_NAME],
			     tb[SCHEDCTL_A_KNOB_OLD], tb[SCHEDCTL_A_KNOB_VALUE]);
		break;
	case SCHEDCTL_CMD_STATE_NTF:
		print_change("state", pfx, tb[SCHEDCTL_A_STATE_NAME],
			     tb[SCHEDCTL_A_STATE_OLD],
			     tb[SCHEDCTL_A_STATE_VALUE]);
		break;
	default:
		printf("unknown-event %u %s\n", g->cmd, pfx);
		break;
	}
	fflush(stdout);
	m->left--;
	return NL_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmd_monitor(int argc, char **argv)
{
	double timeout = argc > 2 ? atof(argv[2]) : 30, deadline;
	struct mon m = { .left = argc > 1 ? atol(argv[1]) : 1 };
	struct conn c;
	int grp;

	conn_open(&c);
	grp = genl_ctrl_resolve_grp(c.sk, SCHEDCTL_GENL_NAME,
				    SCHEDCTL_MCGRP_EVENTS);
	if (grp < 0)
		die("no multicast group %s", SCHEDCTL_MCGRP_EVENTS);
	nl_socket_disable_seq_check(c.sk);
	nl_socket_modify_cb(c.sk, NL_CB_VALID, NL_CB_CUSTOM, monitor_one, &m);
	if (nl_socket_add_membership(c.sk, grp))
		die("cannot join group %s", SCHEDCTL_MCGRP_EVENTS);
	printf("# listening\n");
	fflush(stdout);
	deadline = now_s() + timeout;
	while (m.left > 0) {
		struct pollfd p = { .fd = nl_socket_get_fd(c.sk),
				    .events = POLLIN };
		double left = deadline - now_s();

		if (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) <= 0)
			break;
		nl_recvmsgs_default(c.sk);
	}
	if (m.left > 0) {
		printf("# timeout, %ld event(s) missing\n", m.left);
		return 1;
	}
	return 0;
}

/* ---- malformed: raw messages ---------------------------------------- */

static int raw_fd;
static int raw_family;
static unsigned int raw_seq = 100;
static int tap_n, tap_fail;

struct buf {
	char *d;
	size_t len, cap;
};

static void buf_put(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->d = realloc(b->d, b->cap);
		if (!b->d)
			die("out of memory");
	}
	memcpy(b->d + b->len, p, n);
	b->len += n;
}

static void buf_pad(struct buf *b)
{
	static const char zero[4];

	buf_put(b, zero, NLA_ALIGN(b->len) - b->len);
}

/* Attribute with a declared payload length @dlen and actual data @n. */
static void put_raw_attr(struct buf *b, uint16_t type, uint16_t nla_len,
			 const void *data, size_t n)
{
	struct nlattr a = { .nla_len = nla_len, .nla_type = type };

	buf_put(b, &a, sizeof(a));
	buf_put(b, data, n);
	buf_pad(b);
}

static void put_attr(struct buf *b, uint16_t type, const void *data, size_t n)
{
	put_raw_attr(b, type, NLA_HDRLEN + n, data, n);
}

static void put_str(struct buf *b, uint16_t type, const char *s)
{
	put_attr(b, type, s, strlen(s) + 1);
}

static void put_u32(struct buf *b, uint16_t type, uint32_t v)
{
	put_attr(b, type, &v, sizeof(v));
}

static void put_u64(struct buf *b, uint16_t type, uint64_t v)
{
	put_attr(b, type, &v, sizeof(v));
}

/* A request: headers, then @attrs; @nl_len 0 for the right length. */
static struct buf mkreq(int family, uint8_t cmd, uint8_t version,
			uint16_t reserved, uint16_t flags,
			const struct buf *attrs)
{
	struct nlmsghdr nlh = {
		.nlmsg_type = family,
		/* Errors are always acked; a dump ends with NLMSG_DONE. */
		.nlmsg_flags = NLM_F_REQUEST | flags |
			       (flags & NLM_F_DUMP ? 0 : NLM_F_ACK),
		.nlmsg_seq = ++raw_seq,
	};
	struct genlmsghdr g = {
		.cmd = cmd, .version = version, .reserved = reserved,
	};
	struct buf b = { 0 };

	nlh.nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN + (attrs ? attrs->len : 0);
	buf_put(&b, &nlh, sizeof(nlh));
	buf_put(&b, &g, sizeof(g));
	if (attrs)
		buf_put(&b, attrs->d, attrs->len);
	return b;
}

/*
 * Send @len bytes of @d; collect replies until an ACK/error or DONE, or
 * @timeout_ms of silence.  Returns false on silence.
 */
static bool raw_xfer(const void *d, size_t len, struct ack *a, int *nmsgs,
		     int timeout_ms)
{
	static char rbuf[1 << 17];

	memset(a, 0, sizeof(*a));
	if (nmsgs)
		*nmsgs = 0;
	/* Nothing left over from an earlier request. */
	while (recv(raw_fd, rbuf, sizeof(rbuf), MSG_DONTWAIT) > 0)
		;
	if (send(raw_fd, d, len, 0) < 0)
		die("send: %s", strerror(errno));
	while (!a->done) {
		struct pollfd p = { .fd = raw_fd, .events = POLLIN };
		struct nlmsghdr *nlh;
		ssize_t n;
		int rem;

		if (poll(&p, 1, timeout_ms) <= 0)
			return false;
		n = recv(raw_fd, rbuf, sizeof(rbuf), 0);
		if (n < 0)
			die("recv: %s", strerror(errno));
		rem = (int)n;
		for (nlh = (void *)rbuf; NLMSG_OK(nlh, rem);
		     nlh = NLMSG_NEXT(nlh, rem)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				parse_error_msg(a, nlh);
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				parse_done_msg(a, nlh);
			} else if (nmsgs) {
				(*nmsgs)++;
			}
		}
	}
	return true;
}

static void tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	if (!ok)
		tap_fail++;
	printf("%sok %d - ", ok ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/*
 * Expect the request to fail with one of @e1/@e2 (0: any error), with an
 * extack message or missing-attribute TLV when @ext.
 */
static void expect(const char *what, struct buf req, int e1, int e2, bool ext)
{
	struct ack a;
	bool ok;

	if (!raw_xfer(req.d, req.len, &a, NULL, 2000)) {
		tap(false, "%s: no reply", what);
		free(req.d);
		return;
	}
	ok = a.error && (!e1 || a.error == e1 || (e2 && a.error == e2)) &&
	     (!ext || a.has_ext);
	tap(ok, "%s: %s%s%s%s", what, errname(a.error),
	    a.msg[0] ? " \"" : "", a.msg, a.msg[0] ? "\"" : "");
	if (!ok)
		printf("# want %s%s%s%s, got %s (%d)%s\n", errname(e1),
		       e2 ? " or " : "", e2 ? errname(e2) : "",
		       ext ? " with extack" : "", errname(a.error), a.error,
		       a.has_ext ? " with extack" : " without extack");
	free(req.d);
}

static struct buf attrs_dev(const char *dev)
{
	struct buf b = { 0 };

	put_str(&b, SCHEDCTL_A_DEV_NAME, dev);
	return b;
}

static void expect_get(const char *what, struct buf attrs, int e1, int e2,
		       bool ext)
{
	expect(what, mkreq(raw_family, SCHEDCTL_CMD_GET_DEV,
			   SCHEDCTL_GENL_VERSION, 0, 0, &attrs), e1, e2, ext);
	free(attrs.d);
}

static void expect_set(const char *what, const char *dev, const char *knob,
		       const void *val, size_t vlen, int e1, bool ext)
{
	struct buf b = { 0 };

	if (dev)
		put_str(&b, SCHEDCTL_A_DEV_NAME, dev);
	if (knob)
		put_str(&b, SCHEDCTL_A_KNOB_NAME, knob);
	if (val)
		put_attr(&b, SCHEDCTL_A_KNOB_VALUE, val, vlen);
	expect(what, mkreq(raw_family, SCHEDCTL_CMD_SET_KNOB,
			   SCHEDCTL_GENL_VERSION, 0, 0, &b), e1, 0, ext);
	free(b.d);
}

/* A good request still answers (the socket and family survived). */
static void expect_good(const char *what, const char *dev)
{
	struct buf attrs = dev ? attrs_dev(dev) : (struct buf){ 0 };
	struct buf req = mkreq(raw_family, SCHEDCTL_CMD_GET_DEV,
			       SCHEDCTL_GENL_VERSION, 0,
			       dev ? 0 : NLM_F_DUMP, &attrs);
	struct ack a;
	int n = 0;
	bool got = raw_xfer(req.d, req.len, &a, &n, 2000);

	tap(got && !a.error && (n > 0 || !dev), "%s: %s, %d message(s)",
	    what, got ? errname(a.error) : "no reply", n);
	free(req.d);
	free(attrs.d);
}

static int cmd_malformed(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : NULL;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char big[60000], longname[41];
	struct buf b = { 0 }, req;
	uint64_t v64;
	uint32_t v32;
	uint16_t v16 = 8;
	int one = 1;
	struct conn c;
	struct ack a;

	conn_open(&c);
	raw_family = c.family;
	raw_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (raw_fd < 0 || bind(raw_fd, (void *)&sa, sizeof(sa)))
		die("raw netlink socket: %s", strerror(errno));
	setsockopt(raw_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));

	expect_good("baseline dump works", NULL);

	/* Commands and headers. */
	expect("unknown command 99",
	       mkreq(raw_family, 99, SCHEDCTL_GENL_VERSION, 0, 0, NULL),
	       EOPNOTSUPP, 0, false);
	expect("command 0 (UNSPEC)",
	       mkreq(raw_family, SCHEDCTL_CMD_UNSPEC, SCHEDCTL_GENL_VERSION, 0,
		     0, NULL), EOPNOTSUPP, 0, false);
	expect("notification command sent as a request",
	       mkreq(raw_family, SCHEDCTL_CMD_KNOB_NTF, SCHEDCTL_GENL_VERSION,
		     0, 0, NULL), EOPNOTSUPP, 0, false);
	b = attrs_dev("nullb0");
	expect("GET with version 0",
	       mkreq(raw_family, SCHEDCTL_CMD_GET_DEV, 0, 0, 0, &b),
	       EOPNOTSUPP, 0, true);
	expect("GET with a newer version",
	       mkreq(raw_family, SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION + 1,
		     0, 0, &b), EOPNOTSUPP, 0, true);
	expect("dump with version 99",
	       mkreq(raw_family, SCHEDCTL_CMD_GET_DEV, 99, 0, NLM_F_DUMP, NULL),
	       EOPNOTSUPP, 0, true);
	expect("SET_KNOB with a newer version",
	       mkreq(raw_family, SCHEDCTL_CMD_SET_KNOB,
		     SCHEDCTL_GENL_VERSION + 1, 0, 0, &b), EOPNOTSUPP, 0, true);
	expect("reserved header field set",
	       mkreq(raw_family, SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION,
		     1, 0, &b), EINVAL, 0, false);
	free(b.d);
	b = (struct buf){ 0 };
	expect("unregistered family id",
	       mkreq(0x7ff0, SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION, 0, 0,
		     NULL), ENOENT, 0, false);

	req = mkreq(raw_family, SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION, 0,
		    0, NULL);
	((struct nlmsghdr *)req.d)->nlmsg_len = NLMSG_HDRLEN + 2;
	req.len = NLMSG_HDRLEN + 2;
	expect("truncated generic netlink header", req, EINVAL, 0, false);

	req = mkreq(raw_family, SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION, 0,
		    NLM_F_DUMP, NULL);
	((struct nlmsghdr *)req.d)->nlmsg_len = 4096;
	tap(!raw_xfer(req.d, req.len, &a, NULL, 300),
	    "nlmsg_len beyond the datagram: dropped without a reply");
	free(req.d);
	expect_good("socket still works after the dropped message", NULL);

	/* Attributes. */
	put_str(&b, 200, "x");
	expect_get("unknown attribute type 200", b, EINVAL, 0, true);
	b = (struct buf){ 0 };
	put_str(&b, SCHEDCTL_A_MAX + 1, "x");
	expect_get("attribute type SCHEDCTL_A_MAX + 1", b, EINVAL, 0, true);
	b = (struct buf){ 0 };
	put_attr(&b, SCHEDCTL_A_DEV_NAME, "nullb0", 6);
	expect_get("DEV_NAME without its NUL", b, EINVAL, ERANGE, true);
	b = (struct buf){ 0 };
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	put_str(&b, SCHEDCTL_A_DEV_NAME, longname);
	expect_get("DEV_NAME of 40 characters", b, EINVAL, ERANGE, true);
	b = (struct buf){ 0 };
	memset(big, 'b', sizeof(big));
	big[sizeof(big) - 1] = 0;
	put_attr(&b, SCHEDCTL_A_DEV_NAME, big, sizeof(big));
	expect_get("oversized DEV_NAME (60000 bytes)", b, EINVAL, ERANGE,
		   true);
	b = (struct buf){ 0 };
	put_attr(&b, SCHEDCTL_A_DEV_MAJOR, &v16, sizeof(v16));
	put_u32(&b, SCHEDCTL_A_DEV_MINOR, 0);
	expect_get("DEV_MAJOR of 2 bytes", b, EINVAL, ERANGE, true);
	b = (struct buf){ 0 };
	v64 = 7;
	put_attr(&b, SCHEDCTL_A_DEV_MAJOR, &v64, sizeof(v64));
	put_u32(&b, SCHEDCTL_A_DEV_MINOR, 0);
	expect_get("DEV_MAJOR of 8 bytes", b, EINVAL, ERANGE, true);
	b = (struct buf){ 0 };
	put_raw_attr(&b, SCHEDCTL_A_DEV_NAME | NLA_F_NESTED, 12, "nullb0\0", 8);
	expect_get("string attribute flagged NLA_F_NESTED", b, EINVAL, 0, true);
	b = (struct buf){ 0 };
	put_raw_attr(&b, SCHEDCTL_A_DEV_NAME, 2, "", 0);
	expect_get("attribute with nla_len 2", b, EINVAL, 0, true);
	b = (struct buf){ 0 };
	put_raw_attr(&b, SCHEDCTL_A_DEV_NAME, 200, "nullb0\0", 8);
	expect_get("attribute longer than the message", b, EINVAL, 0, true);
	b = (struct buf){ 0 };
	put_attr(&b, SCHEDCTL_A_KNOBS, NULL, 0);
	expect_get("reply-only attribute KNOBS in a request", b, EINVAL, 0,
		   true);
	b = (struct buf){ 0 };
	put_u64(&b, SCHEDCTL_A_KNOB_OLD, 1);
	expect_get("reply-only attribute KNOB_OLD in a request", b, EINVAL, 0,
		   true);
	b = (struct buf){ 0 };
	put_u32(&b, SCHEDCTL_A_PAD, 0);
	expect_get("PAD attribute in a request", b, EINVAL, 0, true);
	expect_get("GET without a device", (struct buf){ 0 }, EINVAL, 0, true);
	b = (struct buf){ 0 };
	put_u32(&b, SCHEDCTL_A_DEV_MAJOR, 252);
	expect_get("GET with DEV_MAJOR but no DEV_MINOR", b, EINVAL, 0, true);
	b = attrs_dev("nosuchdisk");
	expect_get("GET of an unknown device", b, ENODEV, 0, true);
	b = (struct buf){ 0 };
	put_str(&b, 222, "x");
	req = mkreq(raw_family, SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION, 0,
		    NLM_F_DUMP, &b);
	expect("dump with an unknown attribute", req, EINVAL, 0, true);
	free(b.d);
	b = (struct buf){ 0 };
	put_u32(&b, SCHEDCTL_A_DEV_MINOR, 0);
	req = mkreq(raw_family, SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION, 0,
		    NLM_F_DUMP, &b);
	expect("dump with DEV_MINOR but no DEV_MAJOR", req, EINVAL, 0, true);
	free(b.d);

	/* GET_GROUPS: a dump of one device's groups. */
	b = attrs_dev("nosuchdisk");
	expect("GET_GROUPS as a do request (it is a dump)",
	       mkreq(raw_family, SCHEDCTL_CMD_GET_GROUPS, SCHEDCTL_GENL_VERSION,
		     0, 0, &b), EOPNOTSUPP, 0, false);
	expect("GET_GROUPS with version 99",
	       mkreq(raw_family, SCHEDCTL_CMD_GET_GROUPS, 99, 0, NLM_F_DUMP,
		     &b), EOPNOTSUPP, 0, true);
	expect("GET_GROUPS of an unknown device",
	       mkreq(raw_family, SCHEDCTL_CMD_GET_GROUPS, SCHEDCTL_GENL_VERSION,
		     0, NLM_F_DUMP, &b), ENODEV, 0, true);
	free(b.d);
	expect("GET_GROUPS without a device",
	       mkreq(raw_family, SCHEDCTL_CMD_GET_GROUPS, SCHEDCTL_GENL_VERSION,
		     0, NLM_F_DUMP, NULL), EINVAL, 0, true);
	b = attrs_dev("nullb0");
	put_u64(&b, SCHEDCTL_A_GROUP_CGID, 1);
	expect("GET_GROUPS with the reply-only GROUP_CGID",
	       mkreq(raw_family, SCHEDCTL_CMD_GET_GROUPS, SCHEDCTL_GENL_VERSION,
		     0, NLM_F_DUMP, &b), EINVAL, 0, true);
	free(b.d);
	if (dev) {
		b = attrs_dev(dev);
		expect("GET_GROUPS of an xdeadline device (no groups)",
		       mkreq(raw_family, SCHEDCTL_CMD_GET_GROUPS,
			     SCHEDCTL_GENL_VERSION, 0, NLM_F_DUMP, &b),
		       EOPNOTSUPP, 0, true);
		free(b.d);
	}

	/* SET_KNOB (as root). */
	v64 = 1;
	expect_set("SET_KNOB without a device", NULL, "fifo_batch", &v64, 8,
		   EINVAL, true);
	expect_set("SET_KNOB without KNOB_VALUE", "nullb0", "fifo_batch", NULL,
		   0, EINVAL, true);
	expect_set("SET_KNOB without KNOB_NAME", "nullb0", NULL, &v64, 8,
		   EINVAL, true);
	v32 = 1;
	expect_set("SET_KNOB with a 4-byte KNOB_VALUE", "nullb0", "fifo_batch",
		   &v32, 4, EINVAL, true);
	expect_set("SET_KNOB of an unknown device", "nosuchdisk", "fifo_batch",
		   &v64, 8, ENODEV, true);
	if (dev) {
		v64 = 5;
		expect_set("SET_KNOB of an unknown knob", dev, "no_such_knob",
			   &v64, 8, ENOENT, true);
		expect_set("SET_KNOB front_merges=5 (out of range)", dev,
			   "front_merges", &v64, 8, EINVAL, true);
		v64 = 1ULL << 32;
		expect_set("SET_KNOB fifo_batch=2^32 (out of range)", dev,
			   "fifo_batch", &v64, 8, EINVAL, true);
		v64 = 0;
		expect_set("SET_KNOB dispatch_batch=0 (below minimum)", dev,
			   "dispatch_batch", &v64, 8, EINVAL, true);
		expect_good("GET of the device still works", dev);
	}
	expect_good("dump still works at the end", NULL);
	printf("1..%d\n", tap_n);
	return tap_fail ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: nltest [--drop-privs UID] dump [DEV]\n"
		"       nltest [--drop-privs UID] monitor N [SECONDS]\n"
		"       nltest [--drop-privs UID] change DEV KNOB VALUE\n"
		"       nltest [--drop-privs UID] groups DEV\n"
		"       nltest version\n"
		"       nltest malformed [DEV]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--drop-privs")) {
		drop_privs(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc < 2)
		usage();
	argc--;
	argv++;
	if (!strcmp(argv[0], "dump"))
		return cmd_dump(argc, argv);
	if (!strcmp(argv[0], "monitor"))
		return cmd_monitor(argc, argv);
	if (!strcmp(argv[0], "change"))
		return cmd_change(argc, argv);
	if (!strcmp(argv[0], "groups"))
		return cmd_groups(argc, argv);
	if (!strcmp(argv[0], "version"))
		return cmd_version();
	if (!strcmp(argv[0], "malformed"))
		return cmd_malformed(argc, argv);
	usage();
	return 2;
}
