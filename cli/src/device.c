// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "device.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *sc_qpath(const char *dev, const char *attr)
{
	char *p;

	if (asprintf(&p, "/sys/block/%s/queue/%s", dev, attr) < 0)
		return NULL;
	return p;
}

bool sc_device_gone(const char *dev)
{
	char *p;
	bool gone;

	if (asprintf(&p, "/sys/block/%s", dev) < 0)
		return false;
	gone = !sc_exists(p);
	free(p);
	return gone;
}

static int strv_push(char ***v, size_t *n, const char *s, size_t len)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strndup(s, len);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

int sc_parse_sched_list(const char *line, char **cur, char ***avail, size_t *n)
{
	const char *p = line;

	*cur = NULL;
	*avail = NULL;
	*n = 0;
	while (*p) {
		const char *s;
		size_t len;
		bool br = false;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		s = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		len = (size_t)(p - s);
		if (s[0] == '[' && len > 2 && s[len - 1] == ']') {
			s++;
			len -= 2;
			br = true;
		}
		if (strv_push(avail, n, s, len))
			goto oom;
		if (br && !*cur && !(*cur = strndup(s, len)))
			goto oom;
	}
	return 0;
oom:
	free(*cur);
	*cur = NULL;
	sc_strv_free(*avail, *n);
	*avail = NULL;
	*n = 0;
	return -ENOMEM;
}

/* "/dev/cciss/c0d0" -> "cciss!c0d0", as the kernel names it in sysfs. */
static int dev_to_sysname(const char *devpath, char *out, size_t len)
{
	const char *s = devpath + strlen("/dev/");

	if (strlen(s) >= len)
		return -ENAMETOOLONG;
	for (size_t i = 0; ; i++) {
		out[i] = s[i] == '/' ? '!' : s[i];
		if (!s[i])
			break;
	}
	return 0;
}

int sc_device_resolve(const char *arg, char name[SC_NAME_MAX], char part[SC_NAME_MAX])
{
	char sys[SC_NAME_MAX], *rp = NULL;
	int r;

	part[0] = '\0';
	if (!*arg)
		return -ENODEV;
	if (strchr(arg, '/')) {
		r = sc_realpath(arg, &rp);
		if (r)
			return r == -ENOENT ? -ENODEV : r;
		if (strncmp(rp, "/dev/", 5)) {
			free(rp);
			return -ENODEV;
		}
		r = dev_to_sysname(rp, sys, sizeof(sys));
		free(rp);
		if (r)
			return r;
	} else {
		if (strlen(arg) >= sizeof(sys))
			return -ENODEV;
		strcpy(sys, arg);
	}
	if (strchr(sys, '/') || !strcmp(sys, ".") || !strcmp(sys, ".."))
		return -ENODEV;
	r = sc_block_parent(sys, name, SC_NAME_MAX);
	if (r < 0)
		return r;
	if (r == 1)
		snprintf(part, SC_NAME_MAX, "%s", sys);
	return 0;
}

const char *sc_prop(const struct sc_device *d, const char *key)
{
	for (size_t i = 0; i < d->nprops; i++)
		if (!strcmp(d->props[i].key, key))
			return d->props[i].value;
	return NULL;
}

char *sc_block_attr(const char *dev, const char *attr)
{
	char *p, *v = NULL;

	if (asprintf(&p, "/sys/block/%s/%s", dev, attr) < 0)
		return NULL;
	if (sc_read(p, &v))
		v = NULL;
	free(p);
	return v;
}

static int read_int(const char *dev, const char *attr, int dflt)
{
	char *v = sc_block_attr(dev, attr), *end;
	long l;

	if (!v)
		return dflt;
	l = strtol(v, &end, 10);
	if (end == v)
		l = dflt;
	free(v);
	return (int)l;
}

static char *link_base(const char *dev, const char *attr)
{
	char *p, *rp = NULL, *b = NULL;

	if (asprintf(&p, "/sys/block/%s/%s", dev, attr) < 0)
		return NULL;
	if (!sc_realpath(p, &rp)) {
		char *s = strrchr(rp, '/');

		b = strdup(s ? s + 1 : rp);
	}
	free(rp);
	free(p);
	return b;
}

/* The driver name registered for the device's major, from /proc/devices. */
static char *major_driver(const char *dev)
{
	char *devno = sc_block_attr(dev, "dev"), *text = NULL, *line, *save = NULL;
	char *res = NULL;
	bool block = false;
	int major;

	if (!devno)
		return NULL;
	major = atoi(devno);
	free(devno);
	if (sc_read("/proc/devices", &text))
		return NULL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int m;
		char nm[64];

		if (!strncmp(line, "Block devices:", 14))
			block = true;
		else if (block && sscanf(line, "%d %63s", &m, nm) == 2 && m == major) {
			res = strdup(nm);
			break;
		}
	}
	free(text);
	return res;
}

static void read_ids(struct sc_device *d)
{
	const char *links = sc_prop(d, "DEVLINKS");
	const char *pre = "/dev/disk/by-id/";

	if (!links)
		return;
	for (const char *p = links; *p;) {
		const char *s;

		while (*p == ' ')
			p++;
		s = p;
		while (*p && *p != ' ')
			p++;
		if ((size_t)(p - s) > strlen(pre) && !strncmp(s, pre, strlen(pre)))
			strv_push(&d->ids, &d->nids, s + strlen(pre),
				  (size_t)(p - s) - strlen(pre));
	}
}

static void read_stacking(struct sc_device *d)
{
	char **v = NULL, *p;
	size_t n = 0;

	if (asprintf(&p, "/sys/block/%s/slaves", d->name) >= 0) {
		if (!sc_list_dir(p, &d->slaves, &d->nslaves) && d->nslaves) {
			/* slaves of a dm/md may be partitions: name their disks */
			for (size_t i = 0; i < d->nslaves; i++) {
				char disk[SC_NAME_MAX], part[SC_NAME_MAX];

				if (!sc_device_resolve(d->slaves[i], disk, part) && part[0]) {
					char *nd = strdup(disk);

					if (nd) {
						free(d->slaves[i]);
						d->slaves[i] = nd;
					}
				}
			}
		}
		free(p);
	}
	if (asprintf(&p, "/sys/block/%s/holders", d->name) < 0)
		return;
	if (!sc_list_dir(p, &v, &n)) {
		for (size_t i = 0; i < n; i++) {
			char *u = NULL, *q;

			if (asprintf(&q, "/sys/block/%s/dm/uuid", v[i]) < 0)
				continue;
			if (!sc_read(q, &u) && !strncmp(u, "mpath-", 6))
				d->holder_mpath = true;
			free(u);
			free(q);
		}
		sc_strv_free(v, n);
	}
	free(p);
}

int sc_device_load(const char *name, struct sc_device *d)
{
	const char *pv;
	char *s, *p;
	int r;

	memset(d, 0, sizeof(*d));
	if (strlen(name) >= sizeof(d->name))
		return -ENAMETOOLONG;
	strcpy(d->name, name);
	if (sc_device_gone(name))
		return -ENODEV;

	s = sc_block_attr(name, "queue/scheduler");
	if (s) {
		r = sc_parse_sched_list(s, &d->sched, &d->avail, &d->navail);
		free(s);
		if (r)
			return r;
		d->has_sched = d->sched != NULL;
		if (!d->has_sched) {
			sc_strv_free(d->avail, d->navail);
			d->avail = NULL;
			d->navail = 0;
		}
	}
	d->rotational = read_int(name, "queue/rotational", -1);
	d->removable = read_int(name, "removable", 0);
	s = sc_block_attr(name, "queue/zoned");
	snprintf(d->zoned, sizeof(d->zoned), "%s", s ? s : "none");
	free(s);
	if (asprintf(&p, "/sys/block/%s/mq", name) >= 0) {
		char **v;
		size_t n;

		if (!sc_list_dir(p, &v, &n)) {
			d->hwq = (int)n;
			sc_strv_free(v, n);
		}
		free(p);
	}
	d->driver = link_base(name, "device/driver");
	d->subsystem = link_base(name, "device/subsystem");
	d->major_name = major_driver(name);
	d->dm_uuid = sc_block_attr(name, "dm/uuid");
	if (asprintf(&p, "/sys/block/%s/md", name) >= 0) {
		d->md = sc_exists(p);
		free(p);
	}
	r = sc_udev_props(name, &d->props, &d->nprops);
	if (r)
		return r;

	pv = sc_prop(d, "ID_MODEL");
	d->model = pv ? strdup(pv) : sc_block_attr(name, "device/model");
	if (d->model) {	/* sysfs pads SCSI models with spaces */
		size_t l = strlen(d->model);

		while (l && d->model[l - 1] == ' ')
			d->model[--l] = '\0';
	}
	pv = sc_prop(d, "ID_SERIAL_SHORT");
	if (!pv)
		pv = sc_prop(d, "ID_SERIAL");
	d->serial = pv ? strdup(pv) : NULL;
	pv = sc_prop(d, "ID_WWN_WITH_EXTENSION");
	if (!pv)
		pv = sc_prop(d, "ID_WWN");
	d->wwn = pv ? strdup(pv) : sc_block_attr(name, "wwid");	/* NVMe */
	if (!d->wwn)
		d->wwn = sc_block_attr(name, "device/wwid");		/* SCSI */
	read_ids(d);
	read_stacking(d);
	return 0;
}

void sc_device_free(struct sc_device *d)
{
	free(d->sched);
	sc_strv_free(d->avail, d->navail);
	free(d->model);
	free(d->serial);
	free(d->wwn);
	sc_strv_free(d->ids, d->nids);
	free(d->driver);
	free(d->subsystem);
	free(d->major_name);
	free(d->dm_uuid);
	sc_strv_free(d->slaves, d->nslaves);
	sc_kv_free(d->props, d->nprops);
	memset(d, 0, sizeof(*d));
}

int sc_device_list(char ***names, size_t *n)
{
	return sc_list_dir("/sys/block", names, n);
}

/* ---- members of stacked devices ---------------------------------------- */

static bool strv_has(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static bool disk_has_sched(const char *name)
{
	char *p = sc_qpath(name, "scheduler"), *line = NULL, *cur = NULL, **av = NULL;
	size_t nav = 0;
	bool has = false;

	if (p && !sc_read(p, &line) && !sc_parse_sched_list(line, &cur, &av, &nav))
		has = cur != NULL;
	free(cur);
	sc_strv_free(av, nav);
	free(line);
	free(p);
	return has;
}

static void members_of(const char *name, char ***out, size_t *n, int depth)
{
	char **v = NULL, *p;
	size_t nv = 0;

	if (depth > 16 || asprintf(&p, "/sys/block/%s/slaves", name) < 0)
		return;
	if (!sc_list_dir(p, &v, &nv)) {
		for (size_t i = 0; i < nv; i++) {
			char disk[SC_NAME_MAX], part[SC_NAME_MAX];

			if (sc_device_resolve(v[i], disk, part))
				continue;
			if (disk_has_sched(disk)) {
				if (!strv_has(*out, *n, disk))
					strv_push(out, n, disk, strlen(disk));
			} else {
				members_of(disk, out, n, depth + 1);	/* dm on md, ... */
			}
		}
	}
	sc_strv_free(v, nv);
	free(p);
}

int sc_device_members(const char *name, char ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	members_of(name, out, n, 0);
	return 0;
}

/* ---- other writers of queue/scheduler ---------------------------------- */

/* Next line of *pos (NUL-terminated in place); NULL at the end. */
static char *next_line(char **pos)
{
	char *s = *pos, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, '\n');
	if (e) {
		*e = '\0';
		*pos = e + 1;
	} else {
		*pos = s + strlen(s);
	}
	return s;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void scan_udev_rules(char ***out, size_t *n)
{
	static const char *const dirs[] = {
		"/etc/udev/rules.d", "/run/udev/rules.d", "/usr/lib/udev/rules.d",
		"/lib/udev/rules.d", NULL,
	};
	char **seen = NULL;
	size_t nseen = 0;

	for (const char *const *d = dirs; *d; d++) {
		char **v = NULL;
		size_t nv = 0;

		if (sc_list_dir(*d, &v, &nv))
			continue;
		for (size_t i = 0; i < nv; i++) {
			size_t l = strlen(v[i]);
			char *p, *text = NULL, *pos, *line;
			int ln = 0;

			/* udev reads *.rules; a name in an earlier dir masks later ones */
			if (l < 7 || strcmp(v[i] + l - 6, ".rules") || strv_has(seen, nseen, v[i]))
				continue;
			strv_push(&seen, &nseen, v[i], l);
			if (!strcmp(v[i], "60-schedctl.rules") ||
			    asprintf(&p, "%s/%s", *d, v[i]) < 0)
				continue;
			if (!sc_read(p, &text)) {
				pos = text;
				while ((line = next_line(&pos))) {
					ln++;
					if (*skip_ws(line) != '#' && strstr(line, "queue/scheduler"))
						sc_strv_pushf(out, n,
							      "udev rule also sets queue/scheduler (%s:%d)",
							      p, ln);
				}
			}
			free(text);
			free(p);
		}
		sc_strv_free(v, nv);
	}
	sc_strv_free(seen, nseen);
}

/* 1: elevator in [disk] (*line set), 0: no, -1: no such file */
static int tuned_elevator(const char *file, int *line_no)
{
	char *text = NULL, *pos, *line;
	bool disk = false;
	int ln = 0, r = 0;

	if (sc_read(file, &text))
		return -1;
	pos = text;
	while ((line = next_line(&pos))) {
		const char *s = skip_ws(line);

		ln++;
		if (*s == '[') {
			disk = !strncmp(s, "[disk]", 6);
		} else if (disk && !strncmp(s, "elevator", 8) &&
			   *skip_ws(s + 8) == '=') {
			*line_no = ln;
			r = 1;
			break;
		}
	}
	free(text);
	return r;
}

static void scan_tuned(char ***out, size_t *n)
{
	char *act = NULL, *save = NULL;

	if (sc_read("/etc/tuned/active_profile", &act))
		return;
	for (char *prof = strtok_r(act, " \t\n", &save); prof; prof = strtok_r(NULL, " \t\n", &save)) {
		static const char *const bases[] = { "/etc/tuned", "/usr/lib/tuned", NULL };
		int found = -1, ln = 0;

		if (strchr(prof, '/') || !strcmp(prof, "..") || !strcmp(prof, "."))
			continue;
		for (const char *const *b = bases; *b && found < 0; b++) {
			char *f;

			if (asprintf(&f, "%s/%s/tuned.conf", *b, prof) < 0)
				continue;
			found = tuned_elevator(f, &ln);
			if (found > 0)
				sc_strv_pushf(out, n,
					      "tuned profile %s also sets queue/scheduler (%s:%d)",
					      prof, f, ln);
			free(f);
		}
		if (found < 0)
			sc_strv_pushf(out, n,
				      "tuned profile %s is active and may also set queue/scheduler "
				      "(/etc/tuned/active_profile)", prof);
	}
	free(act);
}

static void scan_tlp_file(const char *file, char ***out, size_t *n)
{
	char *text = NULL, *pos, *line;
	int ln = 0;

	if (sc_read(file, &text))
		return;
	pos = text;
	while ((line = next_line(&pos))) {
		ln++;
		if (!strncmp(skip_ws(line), "DISK_IOSCHED=", 13))
			sc_strv_pushf(out, n, "TLP also sets queue/scheduler (%s:%d)", file, ln);
	}
	free(text);
}

static void scan_tlp(char ***out, size_t *n)
{
	char **v = NULL;
	size_t nv = 0;

	scan_tlp_file("/etc/tlp.conf", out, n);
	if (sc_list_dir("/etc/tlp.d", &v, &nv))
		return;
	for (size_t i = 0; i < nv; i++) {
		size_t l = strlen(v[i]);
		char *p;

		if (l > 5 && !strcmp(v[i] + l - 5, ".conf") &&
		    asprintf(&p, "/etc/tlp.d/%s", v[i]) >= 0) {
			scan_tlp_file(p, out, n);
			free(p);
		}
	}
	sc_strv_free(v, nv);
}

static void scan_saptune(char ***out, size_t *n)
{
	static const char *const state = "/var/lib/saptune/saved_state";
	char **v = NULL, *text = NULL;
	size_t nv = 0;
	bool active = false;

	if (sc_exists("/etc/sysconfig/saptune"))
		sc_strv_pushf(out, n, "saptune also sets queue/scheduler (/etc/sysconfig/saptune)");
	if (sc_is_dir(state))
		active = !sc_list_dir(state, &v, &nv) && nv;
	else
		active = !sc_read(state, &text) && *text;
	if (active)
		sc_strv_pushf(out, n, "saptune also sets queue/scheduler (%s)", state);
	sc_strv_free(v, nv);
	free(text);
}

int sc_conflicts(char ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	scan_udev_rules(out, n);
	scan_tuned(out, n);
	scan_tlp(out, n);
	scan_saptune(out, n);
	return 0;
}
