// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "fake.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysfs.h"

static char root[256];

static void mkparents(const char *path)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			ck_abort_msg("mkdir %s: %s", buf, strerror(errno));
		*p = '/';
	}
}

const char *fake_root(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/schedctl-test.XXXXXX", tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(root));
	ck_assert_int_eq(sc_io_init(root), 0);
	fake_put("/proc/devices",
		 "Character devices:\n  1 mem\n\nBlock devices:\n  7 loop\n  8 sd\n"
		 "  9 md\n 43 nbd\n252 zram\n253 device-mapper\n251 virtblk\n250 nullb\n259 blkext\n");
	fake_put("/sys/block/.keep", "");
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/sys/block/.keep", root);
		unlink(p);	/* an empty /sys/block */
	}
	return root;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

void fake_cleanup(void)
{
	if (root[0])
		nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	sc_io_fini();
	root[0] = '\0';
}

void fake_put(const char *rel, const char *content)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	mkparents(path);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "fopen %s: %s", path, strerror(errno));
	fprintf(f, "%s%s", content, *content ? "\n" : "");
	fclose(f);
}

const char *fake_get(const char *rel)
{
	static char buf[8192];
	char path[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return buf;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return buf;
}

bool fake_exists(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	return access(path, F_OK) == 0;
}

void fake_symlink(const char *target, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	mkparents(path);
	ck_assert_msg(symlink(target, path) == 0, "symlink %s: %s", path, strerror(errno));
}

void fake_disk(const struct fake_disk *d)
{
	char p[512], v[64];

	if (d->sched) {
		snprintf(p, sizeof(p), "/sys/block/%s/queue/scheduler", d->name);
		fake_put(p, d->sched);
	}
	snprintf(p, sizeof(p), "/sys/block/%s/queue/rotational", d->name);
	snprintf(v, sizeof(v), "%d", d->rotational);
	fake_put(p, v);
	snprintf(p, sizeof(p), "/sys/block/%s/queue/zoned", d->name);
	fake_put(p, d->zoned ? d->zoned : "none");
	snprintf(p, sizeof(p), "/sys/block/%s/queue/nr_requests", d->name);
	fake_put(p, "64");
	snprintf(p, sizeof(p), "/sys/block/%s/queue/read_ahead_kb", d->name);
	fake_put(p, "128");
	snprintf(p, sizeof(p), "/sys/block/%s/size", d->name);
	fake_put(p, "2097152");
	snprintf(p, sizeof(p), "/sys/block/%s/removable", d->name);
	fake_put(p, "0");
	snprintf(p, sizeof(p), "/sys/block/%s/dev", d->name);
	snprintf(v, sizeof(v), "%d:0", d->major ? d->major : 8);
	fake_put(p, v);
	for (int i = 0; i < d->hwq; i++) {
		snprintf(p, sizeof(p), "/sys/block/%s/mq/%d/cpu_list", d->name, i);
		fake_put(p, "0");
	}
	if (d->driver) {
		snprintf(p, sizeof(p), "/sys/bus/x/drivers/%s/.keep", d->driver);
		fake_put(p, "");
		snprintf(p, sizeof(p), "/sys/block/%s/device/driver", d->name);
		snprintf(v, sizeof(v), "../../../bus/x/drivers/%s", d->driver);
		fake_symlink(v, p);
	}
	if (d->subsystem) {
		snprintf(p, sizeof(p), "/sys/bus/%s/.keep", d->subsystem);
		fake_put(p, "");
		snprintf(p, sizeof(p), "/sys/block/%s/device/subsystem", d->name);
		snprintf(v, sizeof(v), "../../../bus/%s", d->subsystem);
		fake_symlink(v, p);
	}
	snprintf(p, sizeof(p), "/sys/class/block/%s", d->name);
	snprintf(v, sizeof(v), "../../block/%s", d->name);
	fake_symlink(v, p);
	if (d->props) {
		snprintf(p, sizeof(p), "/run/udev/data-fake/%s", d->name);
		fake_put(p, d->props);
	}
}

void fake_schedulers(void)
{
	static const char *const md[] = {
		"read_expire=500", "write_expire=5000", "writes_starved=2", "front_merges=1",
		"fifo_batch=16", "prio_aging_expire=10000", NULL,
	};
	static const char *const xd[] = {
		"serialize_dispatch=1", "defer_insert=1", "merge_skip=1", "dispatch_batch=8",
		"nr_sched_batch=0", "head_request=0", "zoned_qd1_writes=0", NULL,
	};
	char p[256];

	for (const char *const *k = md; *k; k++) {
		const char *eq = strchr(*k, '=');

		snprintf(p, sizeof(p), "/fake/iosched/mq-deadline/%.*s", (int)(eq - *k), *k);
		fake_put(p, eq + 1);
		snprintf(p, sizeof(p), "/fake/iosched/xdeadline/%.*s", (int)(eq - *k), *k);
		fake_put(p, eq + 1);
	}
	for (const char *const *k = xd; *k; k++) {
		const char *eq = strchr(*k, '=');

		snprintf(p, sizeof(p), "/fake/iosched/xdeadline/%.*s", (int)(eq - *k), *k);
		fake_put(p, eq + 1);
	}
	fake_put("/fake/iosched/kyber/read_lat_nsec", "2000000");
	fake_put("/fake/iosched/kyber/write_lat_nsec", "10000000");
}

static void slurp(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

int fake_run(int (*cmd)(int, char **), int argc, char **argv,
	     char *out, size_t outlen, char *err, size_t errlen)
{
	char outfile[4096], errfile[4096];
	int o = dup(1), e = dup(2), fo, fe, rc;

	snprintf(outfile, sizeof(outfile), "%s/run.out", root);
	snprintf(errfile, sizeof(errfile), "%s/run.err", root);
	fflush(stdout);
	fflush(stderr);
	fo = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert(fo >= 0 && fe >= 0);
	dup2(fo, 1);
	dup2(fe, 2);
	rc = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(o, 1);
	dup2(e, 2);
	close(o);
	close(e);
	close(fo);
	close(fe);
	slurp(outfile, out, outlen);
	slurp(errfile, err, errlen);
	return rc;
}
