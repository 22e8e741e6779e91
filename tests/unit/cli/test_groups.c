// SPDX-License-Identifier: GPL-2.0
/* schedctl groups: debugfs sched/groups, GET_GROUPS netlink messages,
 * cgroup2 mount, ids to paths, where weights come from, and the command's
 * output and errors, over netlink (a fake reader) and debugfs. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>

#include "commands.h"
#include "fake.h"
#include "groups.h"
#include "netlink.h"
#include "schedctl_nl.h"
#include "sysfs.h"
#include "tests.h"

static const char *root;
static char out[65536], err[65536];

#define MOUNTINFO \
	"22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n" \
	"23 22 0:22 / /proc rw - proc proc rw\n" \
	"30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev - cgroup2 cgroup2 rw,nsdelegate\n" \
	"31 22 0:7 / /sys/kernel/debug rw,nosuid master:2 - debugfs debugfs rw"

/* the inode number of a directory below the root */
static unsigned long long ino(const char *rel)
{
	char p[4096];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	ck_assert_msg(stat(p, &st) == 0, "stat %s", p);
	return (unsigned long long)st.st_ino;
}

static void mkdirs(const char *rel)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s/.keep", rel);
	fake_put(p, "");
}

/*
 * nullb0 (250:0) on xbfq, sda (8:0) on mq-deadline; cgroups /xbcg/{a,b,c}:
 * b overrides 250:0 (this disk), a only 250:1 (another one), c none.
 */
static void setup(void)
{
	struct fake_disk nullb = { .name = "nullb0", .sched = "none [xbfq] mq-deadline",
				   .hwq = 1, .major = 250 };
	struct fake_disk sda = { .name = "sda", .sched = "none [mq-deadline] xbfq",
				 .rotational = 1, .hwq = 1 };
	char groups[1024];

	root = fake_root();
	fake_disk(&nullb);
	fake_disk(&sda);
	fake_put("/proc/self/mountinfo", MOUNTINFO);
	mkdirs("/sys/fs/cgroup/xbcg/a");
	mkdirs("/sys/fs/cgroup/xbcg/b");
	mkdirs("/sys/fs/cgroup/xbcg/c");
	mkdirs("/sys/fs/cgroup/system.slice/x.service");
	fake_put("/sys/fs/cgroup/xbcg/io.xbfq.weight", "default 100");
	fake_put("/sys/fs/cgroup/xbcg/a/io.xbfq.weight", "default 300\n250:1 700");
	fake_put("/sys/fs/cgroup/xbcg/b/io.xbfq.weight", "default 100\n8:0 200\n250:0 400");
	fake_put("/sys/fs/cgroup/xbcg/c/io.xbfq.weight", "default 100");
	snprintf(groups, sizeof(groups),
		 "cgid 1 weight 100 busy 0 active 0 served 17\n"
		 "cgid %llu weight 100 busy 1 active 0 served 6000\n"
		 "cgid %llu weight 300 busy 1 active 1 served 1000\n"
		 "cgid %llu weight 400 busy 1 active 2 served 4000\n"
		 "cgid %llu weight 100 busy 0 active 0 served 1000\n"
		 "cgid 4242424242 weight 100 busy 0 active 0 served 5",
		 ino("/sys/fs/cgroup/xbcg"), ino("/sys/fs/cgroup/xbcg/a"),
		 ino("/sys/fs/cgroup/xbcg/b"), ino("/sys/fs/cgroup/xbcg/c"));
	fake_put("/sys/kernel/debug/block/nullb0/sched/groups", groups);
}

static void teardown(void)
{
	fake_cleanup();
}

/* "schedctl groups ARGS..." with stdout and stderr in out[] and err[] */
static int groups(const char *a1, const char *a2, const char *a3, const char *a4)
{
	char *argv[6] = { strdup("schedctl groups") };
	int argc = 1, rc;

	for (const char *a[] = { a1, a2, a3, a4, NULL }, **p = a; *p; p++)
		argv[argc++] = strdup(*p);
	rc = fake_run(cmd_groups, argc, argv, out, sizeof(out), err, sizeof(err));
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	return rc;
}

#define HAS(buf, s) ck_assert_msg(strstr(buf, s), "no \"%s\" in:\n%s", s, buf)
#define HASNT(buf, s) ck_assert_msg(!strstr(buf, s), "\"%s\" in:\n%s", s, buf)

/* out[] with runs of spaces (the column padding) squeezed to one */
static const char *squeezed(void)
{
	static char sq[sizeof(out)];
	char *d = sq;

	for (const char *s = out; *s; s++)
		if (!(*s == ' ' && d > sq && d[-1] == ' '))
			*d++ = *s;
	*d = '\0';
	return sq;
}

/* the first line of the squeezed table whose first field is first; "" if none */
static const char *line_of(const char *first)
{
	static char line[1024];
	size_t fl = strlen(first);

	for (const char *l = squeezed(); l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (!strncmp(l, first, fl) && (l[fl] == ' ' || l[fl] == '\n' || !l[fl])) {
			snprintf(line, sizeof(line), "%.*s", (int)strcspn(l, "\n"), l);
			return line;
		}
	}
	return "";
}

static void fake_rm(const char *rel)
{
	char *p = sc_path(rel);

	ck_assert_int_eq(unlink(p), 0);
	free(p);
}

/* ---- parsing -------------------------------------------------------- */

START_TEST(parse_lines)
{
	struct sc_group *g;
	size_t n, bad = 0;

	ck_assert_int_eq(sc_groups_parse("cgid 1 weight 100 busy 0 active 0 served 17\n"
					 "\n"
					 "cgid 18446744073709551615 weight 1000 busy 1 active 3 "
					 "served 123456789012\n"
					 "served 9 active 2 busy 1 weight 7 cgid 42 new 5\n",
					 &g, &n, &bad), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(g[0].cgid, 1);
	ck_assert_uint_eq(g[0].weight, 100);
	ck_assert_uint_eq(g[0].served, 17);
	ck_assert_uint_eq(g[1].cgid, 18446744073709551615ULL);
	ck_assert_uint_eq(g[1].weight, 1000);
	ck_assert_uint_eq(g[1].busy, 1);
	ck_assert_uint_eq(g[1].active, 3);
	ck_assert_uint_eq(g[1].served, 123456789012ULL);
	/* keys in another order, an unknown pair ignored */
	ck_assert_uint_eq(g[2].cgid, 42);
	ck_assert_uint_eq(g[2].weight, 7);
	ck_assert_uint_eq(g[2].active, 2);
	ck_assert_uint_eq(g[2].served, 9);
	ck_assert_ptr_null(g[2].path);
	sc_groups_free(g, n);

	ck_assert_int_eq(sc_groups_parse("", &g, &n, &bad), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(g);
}
END_TEST

START_TEST(parse_bad)
{
	static const char *const bad_lines[] = {
		"cgid 2 weight 100 busy 0 active 0",			/* no served */
		"cgid 2 weight x busy 0 active 0 served 1",		/* not a number */
		"cgid 2 weight -1 busy 0 active 0 served 1",		/* a sign */
		"cgid 2 weight 100 busy 2 active 0 served 1",		/* busy 0|1 */
		"cgid 2 weight 4294967296 busy 0 active 0 served 1",	/* too large */
		"cgid 2 cgid 3 weight 1 busy 0 active 0 served 1",	/* twice */
		"cgid 2 weight 1 busy 0 active 0 served",		/* no value */
		"cgid 18446744073709551616 weight 1 busy 0 active 0 served 1",
	};
	struct sc_group *g;
	size_t n;

	for (size_t i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		char text[256];
		size_t bad = 0;

		snprintf(text, sizeof(text), "cgid 1 weight 100 busy 0 active 0 served 0\n\n%s\n",
			 bad_lines[i]);
		ck_assert_msg(sc_groups_parse(text, &g, &n, &bad) == -EINVAL, "accepted: %s",
			      bad_lines[i]);
		ck_assert_uint_eq(bad, 3);
		ck_assert_ptr_null(g);
	}
}
END_TEST

/* ---- GET_GROUPS messages, built as the kernel builds them ----------- */

#define FAMILY 0x1d	/* any generic netlink id */

enum { A_CGID, A_WEIGHT, A_BUSY, A_ACTIVE, A_SERVED, A_N };

struct gmsg {
	uint8_t cmd;
	bool dev;		/* DEV_NAME, _MAJOR, _MINOR, SCHED */
	unsigned int omit;	/* 1 << A_*: left out */
	unsigned int small;	/* 1 << A_*: one byte long */
	unsigned long long cgid, served;
	unsigned int weight, active;
	uint8_t busy;
};

static struct nl_msg *group_msg(const struct gmsg *d)
{
	struct nl_msg *m = nlmsg_alloc();

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(genlmsg_put(m, 0, 0, FAMILY, 0, NLM_F_MULTI, d->cmd,
					  SCHEDCTL_GENL_VERSION));
	if (d->dev) {
		ck_assert_int_eq(nla_put_string(m, SCHEDCTL_A_DEV_NAME, "nullb0"), 0);
		ck_assert_int_eq(nla_put_u32(m, SCHEDCTL_A_DEV_MAJOR, 250), 0);
		ck_assert_int_eq(nla_put_u32(m, SCHEDCTL_A_DEV_MINOR, 0), 0);
		ck_assert_int_eq(nla_put_string(m, SCHEDCTL_A_SCHED, "xbfq"), 0);
	}
	for (int a = 0; a < A_N; a++) {
		static const int type[A_N] = { SCHEDCTL_A_GROUP_CGID, SCHEDCTL_A_GROUP_WEIGHT,
					       SCHEDCTL_A_GROUP_BUSY, SCHEDCTL_A_GROUP_ACTIVE,
					       SCHEDCTL_A_GROUP_SERVED };

		if (d->omit & (1u << a))
			continue;
		if (d->small & (1u << a)) {
			ck_assert_int_eq(nla_put_u8(m, type[a], 1), 0);
			continue;
		}
		switch (a) {
		case A_CGID:
		case A_SERVED:
			/* nla_put_u64_64bit: a PAD where the u64 would be unaligned */
			ck_assert_int_eq(nla_put(m, SCHEDCTL_A_PAD, 0, NULL), 0);
			ck_assert_int_eq(nla_put_u64(m, type[a], a == A_CGID ? d->cgid : d->served),
					 0);
			break;
		case A_WEIGHT:
		case A_ACTIVE:
			ck_assert_int_eq(nla_put_u32(m, type[a],
						     a == A_WEIGHT ? d->weight : d->active), 0);
			break;
		default:
			ck_assert_int_eq(nla_put_u8(m, type[a], d->busy), 0);
		}
	}
	return m;
}

static const struct gmsg good = {
	.cmd = SCHEDCTL_CMD_GET_GROUPS, .dev = true, .cgid = 18446744073709551615ULL,
	.served = (1ULL << 40) + 7, .weight = 1000, .active = 4294967295u, .busy = 1,
};

START_TEST(nl_parse_group)
{
	struct gmsg d = good;
	struct nl_msg *m = group_msg(&d);
	struct sc_group g;

	/* an attribute from a newer kernel is ignored */
	ck_assert_int_eq(nla_put_u32(m, SCHEDCTL_A_MAX + 5, 3), 0);
	g.path = (char *)"junk";
	ck_assert_int_eq(sc_nl_parse_group(nlmsg_hdr(m), &g), 0);
	ck_assert_uint_eq(g.cgid, 18446744073709551615ULL);
	ck_assert_uint_eq(g.weight, 1000);
	ck_assert_uint_eq(g.busy, 1);
	ck_assert_uint_eq(g.active, 4294967295u);
	ck_assert_uint_eq(g.served, (1ULL << 40) + 7);
	ck_assert_ptr_null(g.path);
	nlmsg_free(m);

	/* the root's group; the device attributes are not needed */
	d = (struct gmsg){ .cmd = SCHEDCTL_CMD_GET_GROUPS, .cgid = 1, .weight = 100,
			   .served = 17 };
	m = group_msg(&d);
	ck_assert_int_eq(sc_nl_parse_group(nlmsg_hdr(m), &g), 0);
	ck_assert_uint_eq(g.cgid, 1);
	ck_assert_uint_eq(g.weight, 100);
	ck_assert_uint_eq(g.busy, 0);
	ck_assert_uint_eq(g.active, 0);
	ck_assert_uint_eq(g.served, 17);
	nlmsg_free(m);
}
END_TEST

START_TEST(nl_parse_group_missing)
{
	static const char *const names[A_N] = { "CGID", "WEIGHT", "BUSY", "ACTIVE", "SERVED" };

	for (int a = 0; a < A_N; a++) {
		struct gmsg d = good;
		struct nl_msg *m;
		struct sc_group g;

		d.omit = 1u << a;
		m = group_msg(&d);
		ck_assert_msg(sc_nl_parse_group(nlmsg_hdr(m), &g) == -EINVAL,
			      "accepted without GROUP_%s", names[a]);
		ck_assert_ptr_null(g.path);
		nlmsg_free(m);
	}
}
END_TEST

START_TEST(nl_parse_group_bad)
{
	static const char *const names[A_N] = { "CGID", "WEIGHT", "BUSY", "ACTIVE", "SERVED" };
	struct gmsg d;
	struct nl_msg *m;
	struct nlmsghdr *nlh;
	struct nlattr *a, *served = NULL;
	struct sc_group g;
	int rem;

	/* too short for its type (policy): all but BUSY, a u8 itself */
	for (int i = 0; i < A_N; i++) {
		if (i == A_BUSY)
			continue;
		d = good;
		d.small = 1u << i;
		m = group_msg(&d);
		ck_assert_msg(sc_nl_parse_group(nlmsg_hdr(m), &g) == -EINVAL,
			      "accepted a one-byte GROUP_%s", names[i]);
		nlmsg_free(m);
	}
	/* BUSY is 0 or 1 */
	d = good;
	d.busy = 2;
	m = group_msg(&d);
	ck_assert_int_eq(sc_nl_parse_group(nlmsg_hdr(m), &g), -EINVAL);
	nlmsg_free(m);
	/* another command with the same attributes */
	d = good;
	d.cmd = SCHEDCTL_CMD_GET_DEV;
	m = group_msg(&d);
	ck_assert_int_eq(sc_nl_parse_group(nlmsg_hdr(m), &g), -EINVAL);
	nlmsg_free(m);
	/* no room for the generic netlink header */
	m = group_msg(&good);
	nlh = nlmsg_hdr(m);
	nlh->nlmsg_len = NLMSG_HDRLEN + 2;
	ck_assert_int_eq(sc_nl_parse_group(nlh, &g), -EINVAL);
	nlmsg_free(m);
	/* the last attribute (SERVED) runs past the message's end */
	m = group_msg(&good);
	nlh = nlmsg_hdr(m);
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0), genlmsg_attrlen(nlmsg_data(nlh), 0),
			  rem)
		if (nla_type(a) == SCHEDCTL_A_GROUP_SERVED)
			served = a;
	ck_assert_ptr_nonnull(served);
	served->nla_len += 8;
	ck_assert_int_eq(sc_nl_parse_group(nlh, &g), -EINVAL);
	nlmsg_free(m);
	/* the good message, unchanged, is accepted: the cases above fail for
	 * their one reason */
	m = group_msg(&good);
	ck_assert_int_eq(sc_nl_parse_group(nlmsg_hdr(m), &g), 0);
	nlmsg_free(m);
}
END_TEST

/* ---- mounts --------------------------------------------------------- */

START_TEST(find_mount)
{
	char *m;

	ck_assert_int_eq(sc_find_mount("cgroup2", &m), 0);
	ck_assert_str_eq(m, "/sys/fs/cgroup");
	free(m);
	ck_assert_int_eq(sc_find_mount("debugfs", &m), 0);
	ck_assert_str_eq(m, "/sys/kernel/debug");
	free(m);
	ck_assert_int_eq(sc_find_mount("tracefs", &m), -ENOENT);
	ck_assert_ptr_null(m);

	/* a bind mount of a subtree ("/sub" root) comes after one of the
	 * whole file system; spaces are \040 */
	fake_put("/proc/self/mountinfo",
		 "40 22 0:26 /sub /mnt/sub rw - cgroup2 cgroup2 rw\n"
		 "41 22 0:26 / /mnt/cg\\040two rw shared:5 - cgroup2 cgroup2 rw");
	ck_assert_int_eq(sc_find_mount("cgroup2", &m), 0);
	ck_assert_str_eq(m, "/mnt/cg two");
	free(m);

	/* without mountinfo: /proc/mounts */
	fake_rm("/proc/self/mountinfo");
	fake_put("/proc/mounts", "sysfs /sys sysfs rw 0 0\ncgroup2 /cg cgroup2 rw 0 0");
	ck_assert_int_eq(sc_find_mount("cgroup2", &m), 0);
	ck_assert_str_eq(m, "/cg");
	free(m);
	ck_assert_int_eq(sc_find_mount("debugfs", &m), -ENOENT);
}
END_TEST

/* ---- ids to paths --------------------------------------------------- */

START_TEST(resolve)
{
	struct sc_group g[5] = {
		{ .cgid = ino("/sys/fs/cgroup/xbcg/b") },
		{ .cgid = ino("/sys/fs/cgroup/system.slice/x.service") },
		{ .cgid = ino("/sys/fs/cgroup") },
		{ .cgid = 4242424242ULL },
		{ .cgid = 0 },
	};

	/* a directory outside the mount, reachable through a symbolic link
	 * inside it: links are not followed */
	mkdirs("/outside/d");
	fake_symlink("../../../outside", "/sys/fs/cgroup/link");
	g[4].cgid = ino("/outside/d");
	ck_assert_int_eq(sc_cgroup_resolve("/sys/fs/cgroup", g, 5), 0);
	ck_assert_str_eq(g[0].path, "/xbcg/b");
	ck_assert_str_eq(g[1].path, "/system.slice/x.service");
	ck_assert_str_eq(g[2].path, "/");
	ck_assert_ptr_null(g[3].path);
	ck_assert_ptr_null(g[4].path);
	for (int i = 0; i < 5; i++)
		free(g[i].path);

	/* a trailing slash changes nothing; a missing mount is an error */
	memset(g, 0, sizeof(g));
	g[0].cgid = ino("/sys/fs/cgroup/xbcg/a");
	ck_assert_int_eq(sc_cgroup_resolve("/sys/fs/cgroup/", g, 1), 0);
	ck_assert_str_eq(g[0].path, "/xbcg/a");
	free(g[0].path);
	g[0].path = NULL;
	ck_assert_int_eq(sc_cgroup_resolve("/nonexistent", g, 1), -ENOENT);
}
END_TEST

/* ---- io.xbfq.weight ------------------------------------------------- */

START_TEST(override)
{
	const char *t = "default 100\n8:16 400\n250:0 300";

	ck_assert(sc_weight_has_override(t, 8, 16));
	ck_assert(sc_weight_has_override(t, 250, 0));
	ck_assert(!sc_weight_has_override(t, 8, 1));	/* a prefix of 16 */
	ck_assert(!sc_weight_has_override(t, 8, 161));
	ck_assert(!sc_weight_has_override(t, 18, 16));
	ck_assert(!sc_weight_has_override(t, 16, 8));
	ck_assert(!sc_weight_has_override(t, 250, 1));
	ck_assert(!sc_weight_has_override("default 100", 8, 0));
	ck_assert(!sc_weight_has_override("", 8, 0));

	ck_assert_int_eq(sc_weight_source("/sys/fs/cgroup", "/xbcg/b", 250, 0), SC_WSRC_OVERRIDE);
	ck_assert_int_eq(sc_weight_source("/sys/fs/cgroup", "/xbcg/b", 8, 0), SC_WSRC_OVERRIDE);
	ck_assert_int_eq(sc_weight_source("/sys/fs/cgroup", "/xbcg/a", 250, 0), SC_WSRC_DEFAULT);
	ck_assert_int_eq(sc_weight_source("/sys/fs/cgroup", "/xbcg/a", 250, 1), SC_WSRC_OVERRIDE);
	ck_assert_int_eq(sc_weight_source("/sys/fs/cgroup", "/xbcg/gone", 250, 0),
			 SC_WSRC_UNKNOWN);
}
END_TEST

/* ---- the command ---------------------------------------------------- */

START_TEST(table)
{
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 0);
	ck_assert_str_eq(line_of("CGROUP"), "CGROUP WEIGHT SOURCE BUSY ACTIVE SERVED");
	ck_assert_str_eq(line_of("/"), "/ 100 root 0 0 17");
	ck_assert_str_eq(line_of("/xbcg"), "/xbcg 100 default 1 0 6000");
	/* a: an override for another disk only */
	ck_assert_str_eq(line_of("/xbcg/a"), "/xbcg/a 300 default 1 1 1000");
	ck_assert_str_eq(line_of("/xbcg/b"), "/xbcg/b 400 override 1 2 4000");
	ck_assert_str_eq(line_of("/xbcg/c"), "/xbcg/c 100 default 0 0 1000");
	/* removed cgroup, group still linked */
	ck_assert_str_eq(line_of("?"), "? 100 ? 0 0 5");
	ck_assert_str_eq(err, "");
	/* the root's group first, as in debugfs */
	ck_assert_ptr_eq(strstr(out, "\n/ ") + 1, strchr(out, '\n') + 1);
}
END_TEST

START_TEST(noheadings_and_columns)
{
	ck_assert_int_eq(groups("-n", "-o", "source,CGROUP,cgid", "nullb0"), 0);
	HASNT(out, "CGROUP");
	HASNT(out, "WEIGHT");
	ck_assert_uint_eq(strncmp(out, "root", 4), 0);	/* the root's row first */
	{
		char want[128];

		snprintf(want, sizeof(want), "override /xbcg/b %llu", ino("/sys/fs/cgroup/xbcg/b"));
		ck_assert_str_eq(line_of("override"), want);
	}
	ck_assert_int_eq(groups("-o", "+CGID", "nullb0", NULL), 0);
	ck_assert_str_eq(line_of("CGROUP"), "CGROUP WEIGHT SOURCE BUSY ACTIVE SERVED CGID");
	ck_assert_str_eq(line_of("?"), "? 100 ? 0 0 5 4242424242");
	ck_assert_int_eq(groups("-o", "weight,bogus", "nullb0", NULL), 2);
	HAS(err, "schedctl: groups: unknown column \"bogus\" (columns: CGROUP, CGID, WEIGHT, "
		 "SOURCE, BUSY, ACTIVE, SERVED)");
	ck_assert_str_eq(out, "");
}
END_TEST

/* the names of an object's keys, comma-separated */
static void keys_of(json_object *o, char *buf, size_t len)
{
	buf[0] = '\0';
	json_object_object_foreach(o, k, v) {
		(void)v;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "," : "", k);
	}
}

START_TEST(json)
{
	json_object *doc, *arr, *o, *v;
	char keys[256];

	ck_assert_int_eq(groups("-J", "nullb0", NULL, NULL), 0);
	doc = json_tokener_parse(out);
	ck_assert_msg(doc != NULL, "not JSON:\n%s", out);
	keys_of(doc, keys, sizeof(keys));
	ck_assert_str_eq(keys, "groups");
	ck_assert(json_object_object_get_ex(doc, "groups", &arr));
	ck_assert(json_object_is_type(arr, json_type_array));
	ck_assert_uint_eq(json_object_array_length(arr), 6);
	for (size_t i = 0; i < 6; i++) {
		o = json_object_array_get_idx(arr, i);
		keys_of(o, keys, sizeof(keys));
		ck_assert_str_eq(keys, "cgroup,weight,source,busy,active,served");
		json_object_object_foreach(o, k, val) {
			bool str = !strcmp(k, "cgroup") || !strcmp(k, "source");

			ck_assert_msg(json_object_is_type(val, str ? json_type_string : json_type_int),
				      "%s: %s", k, json_object_to_json_string(o));
		}
	}
	o = json_object_array_get_idx(arr, 0);
	ck_assert(json_object_object_get_ex(o, "cgroup", &v));
	ck_assert_str_eq(json_object_get_string(v), "/");
	ck_assert(json_object_object_get_ex(o, "source", &v));
	ck_assert_str_eq(json_object_get_string(v), "root");
	o = json_object_array_get_idx(arr, 3);
	ck_assert(json_object_object_get_ex(o, "cgroup", &v));
	ck_assert_str_eq(json_object_get_string(v), "/xbcg/b");
	ck_assert(json_object_object_get_ex(o, "source", &v));
	ck_assert_str_eq(json_object_get_string(v), "override");
	ck_assert(json_object_object_get_ex(o, "weight", &v));
	ck_assert_int_eq(json_object_get_int(v), 400);
	ck_assert(json_object_object_get_ex(o, "served", &v));
	ck_assert_int_eq(json_object_get_int64(v), 4000);
	json_object_put(doc);

	ck_assert_int_eq(groups("-J", "-o", "cgid,cgroup", "nullb0"), 0);
	doc = json_tokener_parse(out);
	ck_assert_msg(doc != NULL, "not JSON:\n%s", out);
	ck_assert(json_object_object_get_ex(doc, "groups", &arr));
	o = json_object_array_get_idx(arr, 5);
	keys_of(o, keys, sizeof(keys));
	ck_assert_str_eq(keys, "cgid,cgroup");
	ck_assert(json_object_object_get_ex(o, "cgid", &v));
	ck_assert_int_eq(json_object_get_int64(v), 4242424242LL);
	json_object_put(doc);
}
END_TEST

START_TEST(errors)
{
	ck_assert_int_eq(groups("sda", NULL, NULL, NULL), 1);
	ck_assert_str_eq(err, "schedctl: sda: scheduler is mq-deadline; groups exist only under "
			      "xbfq\n");
	ck_assert_str_eq(out, "");

	ck_assert_int_eq(groups("nosuch", NULL, NULL, NULL), 2);
	HAS(err, "schedctl: nosuch: no such block device");

	/* switched away between the check and the read: the file is gone */
	fake_put("/sys/block/nullb0/queue/scheduler", "[none] xbfq mq-deadline");
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 1);
	HAS(err, "nullb0: scheduler is none; groups exist only under xbfq");

	fake_put("/sys/block/nullb0/queue/scheduler", "none [xbfq] mq-deadline");
	fake_put("/proc/self/mountinfo", "22 1 0:21 / /sys rw - sysfs sysfs rw\n"
					 "30 22 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw");
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 1);
	HAS(err, "nullb0: debugfs is not mounted; as root: mount -t debugfs none "
		 "/sys/kernel/debug");

	fake_put("/proc/self/mountinfo", MOUNTINFO);
	fake_rm("/sys/kernel/debug/block/nullb0/sched/groups");
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 1);
	HAS(err, "nullb0: cannot read /sys/kernel/debug/block/nullb0/sched/groups: No such file");

	fake_put("/sys/kernel/debug/block/nullb0/sched/groups", "cgid 1 weight 100\n");
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 1);
	HAS(err, "nullb0: sched/groups line 1: not \"cgid ID weight W busy B active N served S\"");
	ck_assert_str_eq(out, "");
}
END_TEST

/* debugfs mounted elsewhere; a partition is resolved to its disk */
START_TEST(elsewhere)
{
	char groups_text[256];

	fake_put("/proc/self/mountinfo",
		 "30 22 0:26 / /cg rw - cgroup2 cgroup2 rw\n"
		 "31 22 0:7 / /dbg rw - debugfs none rw");
	mkdirs("/cg/u");
	snprintf(groups_text, sizeof(groups_text),
		 "cgid 1 weight 100 busy 0 active 0 served 0\n"
		 "cgid %llu weight 250 busy 0 active 0 served 8", ino("/cg/u"));
	fake_put("/dbg/block/nullb0/sched/groups", groups_text);
	fake_put("/cg/u/io.xbfq.weight", "default 100\n250:0 250");
	fake_put("/sys/block/nullb0/nullb0p1/partition", "1");
	fake_symlink("../../block/nullb0/nullb0p1", "/sys/class/block/nullb0p1");
	ck_assert_int_eq(groups("-n", "nullb0p1", NULL, NULL), 0);
	ck_assert_str_eq(line_of("/u"), "/u 250 override 0 0 8");
	HAS(err, "nullb0p1 is a partition; using its disk nullb0");
}
END_TEST

START_TEST(no_cgroup2)
{
	fake_put("/proc/self/mountinfo", "31 22 0:7 / /sys/kernel/debug rw - debugfs debugfs rw");
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 0);
	ck_assert_str_eq(err, "schedctl: warning: no cgroup2 file system is mounted: cgroup "
			      "paths unknown, shown by id (CGID)\n");	/* once */
	ck_assert_str_eq(line_of("CGROUP"), "CGROUP CGID WEIGHT SOURCE BUSY ACTIVE SERVED");
	ck_assert_str_eq(line_of("/"), "/ 1 100 root 0 0 17");
	{
		char want[128];

		snprintf(want, sizeof(want), "\n? %llu 400 ? 1 2 4000\n",
			 ino("/sys/fs/cgroup/xbcg/b"));
		HAS(squeezed(), want);
	}
	HAS(squeezed(), "\n? 4242424242 100 ? 0 0 5\n");
	/* -o is kept as given */
	ck_assert_int_eq(groups("-o", "cgroup,weight", "nullb0", NULL), 0);
	ck_assert_str_eq(line_of("CGROUP"), "CGROUP WEIGHT");

	/* only the root's group: nothing to resolve, no mount looked for */
	fake_put("/sys/kernel/debug/block/nullb0/sched/groups",
		 "cgid 1 weight 100 busy 0 active 0 served 0");
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 0);
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(line_of("/"), "/ 100 root 0 0 0");
}
END_TEST

/* ---- the command over netlink (a fake reader) ------------------------ */

static struct {
	int ret;		/* 0: the groups below */
	const char *msg;	/* its message otherwise */
	const char *switch_to;	/* the disk's scheduler line once asked */
	struct sc_group g[4];
	size_t n;
	int calls;
	char disk[64];
} nl;

static int fake_nl_read(const char *disk, struct sc_group **g, size_t *n, char *e, size_t elen)
{
	nl.calls++;
	snprintf(nl.disk, sizeof(nl.disk), "%s", disk);
	if (nl.switch_to)
		fake_put("/sys/block/nullb0/queue/scheduler", nl.switch_to);
	*g = NULL;
	*n = 0;
	if (nl.ret) {
		snprintf(e, elen, "%s", nl.msg);
		return nl.ret;
	}
	*g = calloc(nl.n, sizeof(**g));
	ck_assert_ptr_nonnull(*g);
	memcpy(*g, nl.g, nl.n * sizeof(**g));
	*n = nl.n;
	return 0;
}

static int (*real_nl_read)(const char *, struct sc_group **, size_t *, char *, size_t);

static void nl_setup(void)
{
	setup();
	memset(&nl, 0, sizeof(nl));
	nl.g[0] = (struct sc_group){ .cgid = 1, .weight = 100, .served = 99 };
	nl.g[1] = (struct sc_group){ .cgid = ino("/sys/fs/cgroup/xbcg/b"), .weight = 500,
				     .busy = 1, .active = 3, .served = 12345 };
	nl.g[2] = (struct sc_group){ .cgid = 777, .weight = 50, .served = 1 };
	nl.n = 3;
	real_nl_read = sc_groups_nl_read;
	sc_groups_nl_read = fake_nl_read;
}

static void nl_teardown(void)
{
	sc_groups_nl_read = real_nl_read;
	teardown();
}

/* without debugfs: neither mounted nor its file there */
START_TEST(nl_table)
{
	fake_rm("/sys/kernel/debug/block/nullb0/sched/groups");
	fake_put("/proc/self/mountinfo", "30 22 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw");
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 0);
	ck_assert_int_eq(nl.calls, 1);
	ck_assert_str_eq(nl.disk, "nullb0");
	ck_assert_str_eq(err, "");
	ck_assert_str_eq(line_of("CGROUP"), "CGROUP WEIGHT SOURCE BUSY ACTIVE SERVED");
	ck_assert_str_eq(line_of("/"), "/ 100 root 0 0 99");
	ck_assert_str_eq(line_of("/xbcg/b"), "/xbcg/b 500 override 1 3 12345");
	ck_assert_str_eq(line_of("?"), "? 50 ? 0 0 1");
	/* in the kernel's order, the root's group first */
	ck_assert_ptr_eq(strstr(out, "\n/ ") + 1, strchr(out, '\n') + 1);
	ck_assert(strstr(out, "/xbcg/b") < strstr(out, "\n?"));

	/* a partition: the disk's name is asked for */
	fake_put("/sys/block/nullb0/nullb0p1/partition", "1");
	fake_symlink("../../block/nullb0/nullb0p1", "/sys/class/block/nullb0p1");
	ck_assert_int_eq(groups("-n", "-o", "cgroup,cgid", "nullb0p1"), 0);
	ck_assert_str_eq(nl.disk, "nullb0");
	ck_assert_str_eq(line_of("?"), "? 777");
}
END_TEST

/* no schedctl family here, or a module without GET_GROUPS: debugfs */
START_TEST(nl_fallback)
{
	static const struct {
		int ret;
		const char *msg;
	} cases[] = {
		{ -SC_NL_ENOFAMILY, "the schedctl_nl module is not loaded" },
		{ -SC_NL_ENETNS, "the schedctl netlink family is not visible here" },
		{ -SC_NL_ENOCMD, "the schedctl_nl module has no GET_GROUPS command" },
	};
	struct sc_group *g = NULL;
	size_t n = 5;
	char e[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		nl.ret = cases[i].ret;
		nl.msg = cases[i].msg;
		ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 0);
		ck_assert_int_eq(nl.calls, (int)i + 1);
		ck_assert_str_eq(err, "");
		ck_assert_str_eq(line_of("/"), "/ 100 root 0 0 17");	/* debugfs's */
		ck_assert_str_eq(line_of("/xbcg/b"), "/xbcg/b 400 override 1 2 4000");
	}

	/* a failing fallback says why it was taken */
	fake_put("/proc/self/mountinfo", "30 22 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw");
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 1);
	HAS(err, "schedctl: nullb0: debugfs is not mounted; as root: mount -t debugfs none "
		 "/sys/kernel/debug\n");
	HAS(err, "schedctl: nullb0: groups read from debugfs, not netlink, because the "
		 "schedctl_nl module has no GET_GROUPS command\n");
	ck_assert_str_eq(out, "");

	/* the real reader does not use netlink on a fake tree */
	e[0] = '\0';
	ck_assert_int_eq(real_nl_read("nullb0", &g, &n, e, sizeof(e)), -SC_NL_ENOFAMILY);
	ck_assert_ptr_null(g);
	ck_assert_uint_eq(n, 0);
	HAS(e, "fake tree");
}
END_TEST

/* other errors are the answer: no debugfs */
START_TEST(nl_errors)
{
	static const struct {
		int ret;
		const char *msg;
	} cases[] = {
		{ -ENODEV, "No such device: schedctl_nl: no such device with a schedctl scheduler" },
		{ -EOPNOTSUPP, "Operation not supported: schedctl_nl: the scheduler has no groups" },
		{ -EAGAIN, "the groups changed during each of 10 reads; try again" },
		{ -EPROTO, "the kernel sent a malformed reply" },
		{ -ETIMEDOUT, "no reply from the kernel within 10 s" },
		{ -SC_NL_EVERSION, "the kernel's schedctl netlink interface is version 0" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char want[256];

		nl.ret = cases[i].ret;
		nl.msg = cases[i].msg;
		ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 1);
		snprintf(want, sizeof(want), "schedctl: nullb0: %s\n", cases[i].msg);
		ck_assert_str_eq(err, want);
		ck_assert_str_eq(out, "");
	}

	/* ENODEV, EOPNOTSUPP: the disk switched away from xbfq meanwhile */
	nl.switch_to = "none [mq-deadline] xbfq";
	nl.ret = -ENODEV;
	nl.msg = "No such device";
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 1);
	ck_assert_str_eq(err, "schedctl: nullb0: scheduler is mq-deadline; groups exist only "
			      "under xbfq\n");
	fake_put("/sys/block/nullb0/queue/scheduler", "none [xbfq] mq-deadline");
	nl.switch_to = "none [xdeadline] xbfq";
	nl.ret = -EOPNOTSUPP;
	nl.msg = "Operation not supported: the scheduler has no groups";
	ck_assert_int_eq(groups("nullb0", NULL, NULL, NULL), 1);
	ck_assert_str_eq(err, "schedctl: nullb0: scheduler is xdeadline; groups exist only "
			      "under xbfq\n");
	ck_assert_str_eq(out, "");

	/* not xbfq in sysfs: netlink is not asked */
	nl.calls = 0;
	ck_assert_int_eq(groups("sda", NULL, NULL, NULL), 1);
	ck_assert_int_eq(nl.calls, 0);
	ck_assert_str_eq(err, "schedctl: sda: scheduler is mq-deadline; groups exist only under "
			      "xbfq\n");
}
END_TEST

Suite *suite_groups(void)
{
	Suite *s = suite_create("groups");
	TCase *tc = tcase_create("parse");
	TCase *cmd = tcase_create("command");

	tcase_add_test(tc, parse_lines);
	tcase_add_test(tc, parse_bad);
	suite_add_tcase(s, tc);
	tc = tcase_create("netlink");
	tcase_add_test(tc, nl_parse_group);
	tcase_add_test(tc, nl_parse_group_missing);
	tcase_add_test(tc, nl_parse_group_bad);
	suite_add_tcase(s, tc);
	tc = tcase_create("tree");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, find_mount);
	tcase_add_test(tc, resolve);
	tcase_add_test(tc, override);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(cmd, setup, teardown);
	tcase_add_test(cmd, table);
	tcase_add_test(cmd, noheadings_and_columns);
	tcase_add_test(cmd, json);
	tcase_add_test(cmd, errors);
	tcase_add_test(cmd, elsewhere);
	tcase_add_test(cmd, no_cgroup2);
	suite_add_tcase(s, cmd);
	tc = tcase_create("command-netlink");
	tcase_add_checked_fixture(tc, nl_setup, nl_teardown);
	tcase_add_test(tc, nl_table);
	tcase_add_test(tc, nl_fallback);
	tcase_add_test(tc, nl_errors);
	suite_add_tcase(s, tc);
	return s;
}
