// SPDX-License-Identifier: GPL-2.0
/* schedctl groups: debugfs sched/groups, cgroup2 mount, ids to paths,
 * where weights come from, and the command's output and errors. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "commands.h"
#include "fake.h"
#include "groups.h"
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

Suite *suite_groups(void)
{
	Suite *s = suite_create("groups");
	TCase *tc = tcase_create("parse");
	TCase *cmd = tcase_create("command");

	tcase_add_test(tc, parse_lines);
	tcase_add_test(tc, parse_bad);
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
	return s;
}
