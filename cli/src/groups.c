// SPDX-License-Identifier: GPL-2.0
/* xbfq's cgroup groups on a disk (see groups.h). */
#define _GNU_SOURCE
#include "groups.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sysfs.h"

/* ---- sched/groups -------------------------------------------------- */

void sc_groups_free(struct sc_group *g, size_t n)
{
	if (!g)
		return;
	for (size_t i = 0; i < n; i++)
		free(g[i].path);
	free(g);
}

/* A decimal number, digits only (no sign, no spaces), at most max. */
static bool parse_dec(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v <= max;
}

enum { K_CGID, K_WEIGHT, K_BUSY, K_ACTIVE, K_SERVED, K_N };

static int parse_line(char *line, struct sc_group *g)
{
	static const char *const keys[K_N] = { "cgid", "weight", "busy", "active", "served" };
	static const unsigned long long max[K_N] = { ULLONG_MAX, UINT_MAX, 1, UINT_MAX, ULLONG_MAX };
	unsigned long long v[K_N];
	unsigned int seen = 0;
	char *save = NULL, *key, *val;

	for (key = strtok_r(line, " \t", &save); key; key = strtok_r(NULL, " \t", &save)) {
		int k;

		val = strtok_r(NULL, " \t", &save);
		if (!val)
			return -EINVAL;
		for (k = 0; k < K_N; k++)
			if (!strcmp(key, keys[k]))
				break;
		if (k == K_N)
			continue;	/* a later module's addition */
		if (seen & (1u << k) || !parse_dec(val, max[k], &v[k]))
			return -EINVAL;
		seen |= 1u << k;
	}
	if (seen != (1u << K_N) - 1)
		return -EINVAL;
	g->cgid = v[K_CGID];
	g->weight = (unsigned int)v[K_WEIGHT];
	g->busy = (unsigned int)v[K_BUSY];
	g->active = (unsigned int)v[K_ACTIVE];
	g->served = v[K_SERVED];
	g->path = NULL;
	return 0;
}

int sc_groups_parse(const char *text, struct sc_group **g, size_t *n, size_t *bad_line)
{
	struct sc_group *v = NULL;
	size_t cnt = 0, line_no = 0;
	char *dup = strdup(text), *pos = dup;

	*g = NULL;
	*n = 0;
	if (!dup)
		return -ENOMEM;
	while (pos && *pos) {
		char *line = pos, *nl = strchr(pos, '\n');
		struct sc_group *nv;

		pos = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		line_no++;
		if (!line[strspn(line, " \t")])
			continue;
		nv = realloc(v, (cnt + 1) * sizeof(*v));
		if (!nv) {
			free(v);
			free(dup);
			return -ENOMEM;
		}
		v = nv;
		if (parse_line(line, &v[cnt])) {
			*bad_line = line_no;
			free(v);
			free(dup);
			return -EINVAL;
		}
		cnt++;
	}
	free(dup);
	*g = v;
	*n = cnt;
	return 0;
}

/* ---- mounts -------------------------------------------------------- */

/* Undo the kernel's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/*
 * mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE
 * SOURCE SUPEROPTS"; mounts: "SOURCE MOUNTPOINT FSTYPE OPTS 0 0".  The
 * mount point of the first line for fstype whose ROOT is "/", else of the
 * first line for fstype (mounts has no ROOT: the first).
 */
static int find_in(char *text, bool mountinfo, const char *fstype, char **mnt)
{
	char *save_line = NULL, *line, *first = NULL;

	for (line = strtok_r(text, "\n", &save_line); line;
	     line = strtok_r(NULL, "\n", &save_line)) {
		char *f[16], *save = NULL, *tok, *type = NULL, *point, *root = NULL;
		size_t nf = 0;

		for (tok = strtok_r(line, " ", &save); tok && nf < 16; tok = strtok_r(NULL, " ", &save))
			f[nf++] = tok;
		if (mountinfo) {
			if (nf < 7)
				continue;
			for (size_t i = 6; i + 1 < nf; i++)
				if (!strcmp(f[i], "-")) {
					type = f[i + 1];
					break;
				}
			root = f[3];
			point = f[4];
		} else {
			if (nf < 3)
				continue;
			type = f[2];
			point = f[1];
		}
		if (!type || strcmp(type, fstype))
			continue;
		if (!first)
			first = point;
		if (!mountinfo || !strcmp(root, "/")) {
			first = point;
			break;
		}
	}
	if (!first)
		return -ENOENT;
	*mnt = strdup(first);
	if (!*mnt)
		return -ENOMEM;
	unescape(*mnt);
	return 0;
}

int sc_find_mount(const char *fstype, char **mnt)
{
	static const char *const files[] = { "/proc/self/mountinfo", "/proc/mounts" };
	int r = -ENOENT;

	*mnt = NULL;
	for (size_t i = 0; i < 2; i++) {
		char *text;

		r = sc_read(files[i], &text);
		if (r == -ENOMEM)
			return r;
		if (r)
			continue;
		r = find_in(text, i == 0, fstype, mnt);
		free(text);
		return r;
	}
	return -ENOENT;
}

/* ---- cgroup ids to paths -------------------------------------------- */

/* nftw() has no argument for its callback: the walk in progress. */
static struct {
	struct sc_group *g;
	size_t n, left;
	size_t base_len;	/* of the walked directory's full path */
	int err;
} walk;

static int walk_one(const char *fpath, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag != FTW_D && flag != FTW_DNR)	/* an unreadable one is still a cgroup */
		return 0;
	for (size_t i = 0; i < walk.n; i++) {
		const char *rel = fpath + walk.base_len;

		if (walk.g[i].path || walk.g[i].cgid != (unsigned long long)st->st_ino)
			continue;
		walk.g[i].path = strdup(*rel ? rel : "/");
		if (!walk.g[i].path) {
			walk.err = -ENOMEM;
			return 1;
		}
		if (!--walk.left)
			return 1;	/* all found */
	}
	return 0;
}

int sc_cgroup_resolve(const char *mnt, struct sc_group *g, size_t n)
{
	char *base = sc_path(mnt);
	size_t left = 0;
	int r;

	if (!base)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		left += !g[i].path;
	if (!left) {
		free(base);
		return 0;
	}
	walk.base_len = strlen(base);
	while (walk.base_len > 0 && base[walk.base_len - 1] == '/')
		base[--walk.base_len] = '\0';
	walk.g = g;
	walk.n = n;
	walk.left = left;
	walk.err = 0;
	/* "" is the real root "/": walk it as "/" and strip nothing */
	r = nftw(walk.base_len ? base : "/", walk_one, 16, FTW_PHYS | FTW_MOUNT);
	free(base);
	walk.g = NULL;
	if (r < 0)
		return errno ? -errno : -EIO;
	return walk.err;
}

/* ---- io.xbfq.weight ------------------------------------------------- */

bool sc_weight_has_override(const char *text, unsigned int maj, unsigned int min)
{
	/* "default W" first, then "MAJ:MIN W" lines */
	for (const char *l = text; l && *l;) {
		unsigned int a, b, w;

		if (l[0] >= '0' && l[0] <= '9' && sscanf(l, "%u:%u %u", &a, &b, &w) == 3 &&
		    a == maj && b == min)
			return true;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return false;
}

enum sc_weight_source sc_weight_source(const char *mnt, const char *path, unsigned int maj,
				       unsigned int min)
{
	char *p, *text;
	bool over;

	/* mnt "/" and path "/" add nothing: no "//" */
	if (asprintf(&p, "%s%s/io.xbfq.weight", strcmp(mnt, "/") ? mnt : "",
		     strcmp(path, "/") ? path : "") < 0)
		return SC_WSRC_UNKNOWN;
	if (sc_read(p, &text)) {
		free(p);
		return SC_WSRC_UNKNOWN;
	}
	free(p);
	over = sc_weight_has_override(text, maj, min);
	free(text);
	return over ? SC_WSRC_OVERRIDE : SC_WSRC_DEFAULT;
}
