// SPDX-License-Identifier: GPL-2.0
/*
 * The I/O seam (see sysfs.h).  Real mode talks to the kernel, libudev and
 * libkmod; fake mode works on a directory tree and emulates the few kernel
 * behaviours the rest of schedctl relies on:
 *
 *   writing a name to sys/block/X/queue/scheduler  switches: the name must
 *       be in the list, the brackets move, and queue/iosched/ is replaced
 *       by a copy of fake/iosched/<name>/ (or removed), as a real switch
 *       resets the knobs to their defaults;
 *   loading module "<s>-iosched"  succeeds when fake/modules/<s>-iosched
 *       exists, appends <s> to every blk-mq queue/scheduler list and
 *       records the alias in fake/loaded;
 *   fake/fail  lines "PATH ERRNO [COUNT [SKIP]]" make writes to PATH fail
 *       with ERRNO (EIO, EBUSY, ENODEV...), COUNT times or forever, after
 *       letting SKIP writes through; ERRNO
 *       GONE moves sys/block/<dev> away to fake/gone.<dev> and fails
 *       with ENODEV (hot-unplug mid-apply).  Running as root ignores
 *       file modes, so this is the injection mechanism.
 */
#define _GNU_SOURCE
#include "sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <libudev.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char *io_root;		/* "" in real mode, else the root without trailing / */
static bool io_fake;
static bool io_fast;

int sc_io_init(const char *root)
{
	size_t len;

	if (!root)
		root = getenv("SCHEDCTL_ROOT");
	if (!root || !*root)
		root = "/";
	free(io_root);
	io_root = strdup(root);
	if (!io_root)
		return -ENOMEM;
	len = strlen(io_root);
	while (len > 0 && io_root[len - 1] == '/')
		io_root[--len] = '\0';
	io_fake = len > 0;
	io_fast = getenv("SCHEDCTL_FAST") != NULL;
	return 0;
}

void sc_io_fini(void)
{
	free(io_root);
	io_root = NULL;
}

bool sc_io_fake(void)
{
	return io_fake;
}

const char *sc_io_root(void)
{
	return io_root && *io_root ? io_root : "/";
}

char *sc_path(const char *abs)
{
	char *p;

	if (!io_root && sc_io_init(NULL))
		return NULL;
	if (asprintf(&p, "%s%s", io_root, abs) < 0)
		return NULL;
	return p;
}

void sc_strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int sc_strv_pushf(char ***v, size_t *n, const char *fmt, ...)
{
	char *s, **nv;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	*v = nv;
	nv[(*n)++] = s;
	return 0;
}

void sc_kv_free(struct sc_kv *kv, size_t n)
{
	if (!kv)
		return;
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void sc_sleep_ms(unsigned int ms)
{
	unsigned long us = (unsigned long)ms * (io_fast ? 10 : 1000);
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int read_path(const char *path, char **out)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r;

		if (cap - len < 4097) {
			char *nb = realloc(buf, cap + 8192);

			if (!nb) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
			cap += 8192;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (err) {
		free(buf);
		return err;
	}
	if (!buf && !(buf = malloc(1)))
		return -ENOMEM;
	buf[len] = '\0';
	while (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	*out = buf;
	return 0;
}

/*
 * A configuration file: only a regular file (or /dev/null, which masks),
 * at most max bytes.  Opened O_NONBLOCK so that a FIFO cannot block the
 * open; fstat() then refuses it before any read.
 */
int sc_read_conf(const char *abs, bool rooted, size_t max, char **out, size_t *len)
{
	char *p = rooted ? sc_path(abs) : strdup(abs), *buf;
	struct stat st;
	ssize_t r;
	size_t got = 0;
	int fd;

	*out = NULL;
	*len = 0;
	if (!p)
		return -ENOMEM;
	fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	free(p);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3) {
		close(fd);	/* /dev/null: empty */
		*out = strdup("");
		return *out ? 0 : -ENOMEM;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if ((unsigned long long)st.st_size > max) {
		close(fd);
		return -EFBIG;
	}
	buf = malloc(max + 2);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	/* it may grow meanwhile: read at most max + 1 */
	while (got <= max) {
		r = read(fd, buf + got, max + 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			close(fd);
			free(buf);
			return e;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got > max) {
		free(buf);
		return -EFBIG;
	}
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return 0;
}

int sc_read(const char *abs, char **out)
{
	char *p = sc_path(abs);
	int r;

	if (!p)
		return -ENOMEM;
	r = read_path(p, out);
	free(p);
	return r;
}

bool sc_exists(const char *abs)
{
	char *p = sc_path(abs);
	bool r = p && access(p, F_OK) == 0;

	free(p);
	return r;
}

bool sc_is_dir(const char *abs)
{
	char *p = sc_path(abs);
	struct stat st;
	bool r = p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);

	free(p);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_path(const char *path, char ***names, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **v = NULL;
	size_t cnt = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char **nv;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		nv = realloc(v, (cnt + 1) * sizeof(*v));
		if (!nv || !(nv[cnt] = strdup(de->d_name))) {
			v = nv ? nv : v;
			sc_strv_free(v, cnt);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*names = v;
	*n = cnt;
	return 0;
}

int sc_list_dir(const char *abs, char ***names, size_t *n)
{
	char *p = sc_path(abs);
	int r;

	if (!p)
		return -ENOMEM;
	r = list_path(p, names, n);
	free(p);
	return r;
}

int sc_realpath(const char *abs, char **out)
{
	char *p = sc_path(abs), *rp;
	size_t rl;

	if (!p)
		return -ENOMEM;
	rp = realpath(p, NULL);
	free(p);
	if (!rp)
		return -errno;
	rl = strlen(io_root);
	if (rl) {
		if (strncmp(rp, io_root, rl) || (rp[rl] && rp[rl] != '/')) {
			free(rp);
			return -EXDEV;	/* a link out of the fake root */
		}
		memmove(rp, rp + rl, strlen(rp + rl) + 1);
		if (!*rp)
			strcpy(rp, "/");
	}
	*out = rp;
	return 0;
}

/* ---- fake mode ---------------------------------------------------- */

static const struct {
	const char *name;
	int err;
} errnames[] = {
	{ "EIO", EIO }, { "EINVAL", EINVAL }, { "EBUSY", EBUSY },
	{ "ENOENT", ENOENT }, { "ENODEV", ENODEV }, { "ENXIO", ENXIO },
	{ "EACCES", EACCES }, { "EPERM", EPERM }, { "ENOMEM", ENOMEM },
	{ "EAGAIN", EAGAIN }, { "ERANGE", ERANGE },
};

/* 0: no injected failure; else -errno (and COUNT consumed). */
static int fake_injected(const char *abs)
{
	char *text = NULL, *line, *save = NULL, *copy = NULL;
	int res = 0;
	size_t off = 0;

	if (sc_read("/fake/fail", &text))
		return 0;
	copy = strdup(text);
	if (!copy) {
		free(text);
		return 0;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char path[4096], en[32];
		int count = -1, skip = 0, nf;

		nf = sscanf(line, "%4095s %31s %d %d", path, en, &count, &skip);
		off = (size_t)(line - text);
		if (nf < 2 || strcmp(path, abs))
			continue;
		if (nf >= 3 && count <= 0)
			continue;
		if (nf >= 3) {
			/* Rewrite the line with one use consumed. */
			char *rest = strchr(copy + off, '\n');
			char *p = sc_path("/fake/fail");
			FILE *f = p ? fopen(p, "w") : NULL;

			if (f) {
				fprintf(f, "%.*s%s %s %d", (int)off, copy, path, en,
					skip > 0 ? count : count - 1);
				if (nf == 4)
					fprintf(f, " %d", skip > 0 ? skip - 1 : 0);
				fprintf(f, "\n%s", rest ? rest + 1 : "");
				fclose(f);
			}
			free(p);
			if (skip > 0)
				break;	/* this write still succeeds */
		}
		res = -EIO;
		if (!strcmp(en, "GONE")) {
			/* hot-unplug during the write: the device's sysfs
			 * directory disappears, the write gets ENODEV */
			char dev[256], *from = NULL, *to = NULL;

			if (sscanf(abs, "/sys/block/%255[^/]", dev) == 1 &&
			    asprintf(&from, "%s/sys/block/%s", io_root, dev) >= 0 &&
			    asprintf(&to, "%s/fake/gone.%s", io_root, dev) >= 0)
				rename(from, to);
			free(from);
			free(to);
			res = -ENODEV;
		}
		for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
			if (!strcmp(en, errnames[i].name))
				res = -errnames[i].err;
		break;
	}
	free(copy);
	free(text);
	return res;
}

static int copy_file(const char *from, const char *to)
{
	char *data = NULL;
	FILE *f;
	int r = read_path(from, &data);

	if (r)
		return r;
	f = fopen(to, "w");
	if (!f) {
		free(data);
		return -errno;
	}
	fprintf(f, "%s\n", data);
	free(data);
	return fclose(f) ? -errno : 0;
}

static void rm_dir_files(const char *dir)
{
	char **v;
	size_t n;

	if (list_path(dir, &v, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		char *p;

		if (asprintf(&p, "%s/%s", dir, v[i]) >= 0) {
			unlink(p);
			free(p);
		}
	}
	sc_strv_free(v, n);
	rmdir(dir);
}

/* Emulate a write to queue/scheduler. */
static int fake_switch(const char *abs, const char *val)
{
	char *list = NULL, *tok, *save = NULL, *out = NULL, *p = NULL;
	char *dir = NULL, *tmpl = NULL, want[64];
	size_t outlen = 0;
	bool found = false;
	FILE *f;
	int r;

	if (sscanf(val, "%63s", want) != 1)
		return -EINVAL;
	r = sc_read(abs, &list);
	if (r)
		return r;
	f = open_memstream(&out, &outlen);
	if (!f) {
		free(list);
		return -ENOMEM;
	}
	for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		size_t l = strlen(tok);

		if (tok[0] == '[' && l > 1 && tok[l - 1] == ']') {
			tok[l - 1] = '\0';
			tok++;
		}
		if (!strcmp(tok, want)) {
			found = true;
			fprintf(f, "%s[%s]", ftell(f) ? " " : "", tok);
		} else {
			fprintf(f, "%s%s", ftell(f) ? " " : "", tok);
		}
	}
	fclose(f);
	free(list);
	if (!found) {
		free(out);
		return -EINVAL;
	}
	p = sc_path(abs);
	f = p ? fopen(p, "w") : NULL;
	if (!f) {
		r = -errno;
		free(p);
		free(out);
		return r ? r : -ENOMEM;
	}
	fprintf(f, "%s\n", out);
	fclose(f);
	free(out);

	/* Knobs reset: queue/iosched becomes a copy of the template. */
	if (asprintf(&dir, "%.*siosched", (int)(strrchr(p, '/') - p + 1), p) < 0)
		dir = NULL;
	free(p);
	if (!dir)
		return -ENOMEM;
	rm_dir_files(dir);
	if (asprintf(&tmpl, "%s/fake/iosched/%s", io_root, want) >= 0) {
		char **v;
		size_t n;

		if (!list_path(tmpl, &v, &n)) {
			mkdir(dir, 0755);
			for (size_t i = 0; i < n; i++) {
				char *a, *b;

				if (asprintf(&a, "%s/%s", tmpl, v[i]) < 0)
					continue;
				if (asprintf(&b, "%s/%s", dir, v[i]) >= 0) {
					copy_file(a, b);
					free(b);
				}
				free(a);
			}
			sc_strv_free(v, n);
		}
		free(tmpl);
	}
	free(dir);
	return 0;
}

static bool is_sched_file(const char *abs)
{
	const char *pre = "/sys/block/", *suf = "/queue/scheduler";
	size_t l = strlen(abs), sl = strlen(suf);

	return !strncmp(abs, pre, strlen(pre)) && l > strlen(pre) + sl &&
	       !strcmp(abs + l - sl, suf) &&
	       !memchr(abs + strlen(pre), '/', l - sl - strlen(pre));
}

static int write_path(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t w;
	int fd = open(path, O_WRONLY | O_CLOEXEC | (io_fake ? O_TRUNC : 0));

	if (fd < 0)
		return -errno;
	w = write(fd, val, len);
	if (w < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (close(fd) && errno != EINTR)
		return -errno;
	return (size_t)w == len ? 0 : -EIO;
}

int sc_write(const char *abs, const char *val)
{
	char *p;
	int r;

	if (io_fake) {
		r = fake_injected(abs);
		if (r)
			return r;
		if (is_sched_file(abs))
			return fake_switch(abs, val);
	}
	p = sc_path(abs);
	if (!p)
		return -ENOMEM;
	r = write_path(p, val);
	free(p);
	return r;
}

/* ---- udev ---------------------------------------------------------- */

static bool io_udev_env;


void sc_io_udev_env(bool on)
{
	io_udev_env = on;
}

static int kv_add(struct sc_kv **kv, size_t *n, const char *k, size_t kl, const char *v)
{
	struct sc_kv *nk = realloc(*kv, (*n + 1) * sizeof(**kv));

	if (!nk)
		return -ENOMEM;
	*kv = nk;
	nk[*n].key = strndup(k, kl);
	nk[*n].value = strdup(v);
	if (!nk[*n].key || !nk[*n].value) {
		free(nk[*n].key);
		free(nk[*n].value);
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

static int props_from_lines(char *text, struct sc_kv **kv, size_t *n)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq || line[0] == '#')
			continue;
		if (kv_add(kv, n, line, (size_t)(eq - line), eq + 1))
			return -ENOMEM;
	}
	return 0;
}

int sc_udev_props(const char *name, struct sc_kv **props, size_t *n)
{
	struct udev *udev;
	struct udev_device *dev;
	struct udev_list_entry *e;
	const char *devpath = getenv("DEVPATH");
	int r = 0;

	*props = NULL;
	*n = 0;
	/* Under udev RUN, the event's own properties are in the environment
	 * and are newer than the database. */
	if (io_udev_env && devpath) {
		const char *b = strrchr(devpath, '/');

		if (b && !strcmp(b + 1, name)) {
			for (char **e2 = environ; *e2; e2++) {
				char *eq = strchr(*e2, '=');

				if (eq && kv_add(props, n, *e2, (size_t)(eq - *e2), eq + 1))
					return -ENOMEM;
			}
			return 0;
		}
	}
	if (io_fake) {
		char *path, *text;

		if (asprintf(&path, "/run/udev/data-fake/%s", name) < 0)
			return -ENOMEM;
		r = sc_read(path, &text);
		free(path);
		if (r)
			return r == -ENOENT ? 0 : r;
		r = props_from_lines(text, props, n);
		free(text);
		return r;
	}
	udev = udev_new();
	if (!udev)
		return -ENOMEM;
	dev = udev_device_new_from_subsystem_sysname(udev, "block", name);
	if (!dev) {
		udev_unref(udev);
		return 0;	/* no udev database entry: no properties */
	}
	udev_list_entry_foreach(e, udev_device_get_properties_list_entry(dev)) {
		const char *k = udev_list_entry_get_name(e);
		const char *v = udev_list_entry_get_value(e);

		if (kv_add(props, n, k, strlen(k), v ? v : "")) {
			r = -ENOMEM;
			break;
		}
	}
	udev_device_unref(dev);
	udev_unref(udev);
	return r;
}

/* /sys/class/block/X points into the device tree: .../block/sda or
 * .../block/sda/sda1 for a partition. */
static int fake_block_parent(const char *sys, char *disk, size_t len)
{
	char *p = NULL, *rp = NULL, *slash;
	int r, part = 0;

	if (asprintf(&p, "/sys/class/block/%s", sys) < 0)
		return -ENOMEM;
	r = sc_realpath(p, &rp);
	free(p);
	if (r) {
		/* Some fake trees only have /sys/block. */
		if (asprintf(&p, "/sys/block/%s", sys) < 0)
			return -ENOMEM;
		r = sc_exists(p) ? 0 : -ENODEV;
		free(p);
		if (!r)
			snprintf(disk, len, "%s", sys);
		return r;
	}
	if (asprintf(&p, "%s/partition", rp) < 0) {
		free(rp);
		return -ENOMEM;
	}
	if (sc_exists(p)) {
		slash = strrchr(rp, '/');
		*slash = '\0';
		slash = strrchr(rp, '/');
		snprintf(disk, len, "%s", slash ? slash + 1 : rp);
		part = 1;
	} else {
		snprintf(disk, len, "%s", sys);
	}
	free(p);
	free(rp);
	if (asprintf(&p, "/sys/block/%s", disk) < 0)
		return -ENOMEM;
	r = sc_exists(p) ? part : -ENODEV;
	free(p);
	return r;
}

int sc_block_parent(const char *sys, char *disk, size_t len)
{
	struct udev_device *dev, *parent;
	const char *type, *name;
	struct udev *udev;
	int r = -ENODEV;

	if (io_fake)
		return fake_block_parent(sys, disk, len);
	udev = udev_new();
	if (!udev)
		return -ENOMEM;
	dev = udev_device_new_from_subsystem_sysname(udev, "block", sys);
	if (dev) {
		type = udev_device_get_devtype(dev);
		parent = type && !strcmp(type, "partition")
				 ? udev_device_get_parent_with_subsystem_devtype(dev, "block", "disk")
				 : NULL;
		name = udev_device_get_sysname(parent ? parent : dev);
		if (name && (!type || !strcmp(type, "disk") || parent)) {
			snprintf(disk, len, "%s", name);
			r = parent ? 1 : 0;
		}
		udev_device_unref(dev);	/* parent belongs to dev */
	}
	udev_unref(udev);
	return r;
}

/* ---- modules ------------------------------------------------------- */

bool sc_module_exists(const char *alias)
{
	struct kmod_ctx *ctx;
	struct kmod_list *list = NULL;
	bool found;

	if (io_fake) {
		char *p;

		if (asprintf(&p, "/fake/modules/%s", alias) < 0)
			return false;
		found = sc_exists(p);
		free(p);
		return found;
	}
	ctx = kmod_new(NULL, NULL);
	if (!ctx)
		return false;
	found = kmod_module_new_from_lookup(ctx, alias, &list) == 0 && list;
	kmod_module_unref_list(list);
	kmod_unref(ctx);
	return found;
}

static int fake_load(const char *alias)
{
	char **v = NULL, *p, sched[64];
	size_t n = 0, al = strlen(alias);
	const char *suf = "-iosched";
	FILE *f;

	if (!sc_module_exists(alias))
		return -ENOENT;
	if (al <= strlen(suf) || strcmp(alias + al - strlen(suf), suf) ||
	    al - strlen(suf) >= sizeof(sched))
		return 0;
	snprintf(sched, sizeof(sched), "%.*s", (int)(al - strlen(suf)), alias);
	sc_list_dir("/sys/block", &v, &n);
	for (size_t i = 0; i < n; i++) {
		char *rel, *list = NULL;
		bool present = false;

		if (asprintf(&rel, "/sys/block/%s/queue/scheduler", v[i]) < 0)
			continue;
		if (!sc_read(rel, &list) && strchr(list, '[')) {
			char *dup = strdup(list), *tok, *save = NULL;

			for (tok = dup ? strtok_r(dup, " ", &save) : NULL; tok;
			     tok = strtok_r(NULL, " ", &save)) {
				size_t tl = strlen(tok);

				if (tok[0] == '[') {
					tok++;
					tl -= 2;
				}
				if (strlen(sched) == tl && !strncmp(tok, sched, tl))
					present = true;
			}
			free(dup);
			if (!present && (p = sc_path(rel))) {
				if ((f = fopen(p, "w"))) {
					fprintf(f, "%s %s\n", list, sched);
					fclose(f);
				}
				free(p);
			}
		}
		free(list);
		free(rel);
	}
	sc_strv_free(v, n);
	if ((p = sc_path("/fake/loaded"))) {
		if ((f = fopen(p, "a"))) {
			fprintf(f, "%s\n", alias);
			fclose(f);
		}
		free(p);
	}
	return 0;
}

int sc_module_load(const char *alias)
{
	struct kmod_ctx *ctx;
	struct kmod_list *list = NULL, *l;
	int r = -ENOENT;

	if (io_fake)
		return fake_load(alias);
	ctx = kmod_new(NULL, NULL);
	if (!ctx)
		return -ENOMEM;
	if (kmod_module_new_from_lookup(ctx, alias, &list) == 0) {
		kmod_list_foreach(l, list) {
			struct kmod_module *m = kmod_module_get_module(l);

			r = kmod_module_probe_insert_module(m, KMOD_PROBE_APPLY_BLACKLIST,
							    NULL, NULL, NULL, NULL);
			kmod_module_unref(m);
			if (r > 0)	/* blacklisted */
				r = -EPERM;
			if (r == 0)
				break;
		}
		kmod_module_unref_list(list);
	}
	kmod_unref(ctx);
	return r;
}

/* ---- locking ------------------------------------------------------- */

int sc_lock(const char *dev, int timeout_ms)
{
	char *dir = sc_path("/run/schedctl"), *p = NULL;
	int fd, waited = 0;

	if (!dir)
		return -ENOMEM;
	if (mkdir(dir, 0700) && errno != EEXIST) {
		int e = -errno;

		free(dir);
		return e;
	}
	if (asprintf(&p, "%s/%s.lock", dir, dev) < 0)
		p = NULL;
	free(dir);
	if (!p)
		return -ENOMEM;
	fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(p);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = -errno;

			close(fd);
			return e;
		}
		if (waited >= timeout_ms) {
			close(fd);
			return -EWOULDBLOCK;
		}
		/* real time, not scaled: another process holds it */
		usleep(10000);
		waited += 10;
	}
	return fd;
}

void sc_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}
