// SPDX-License-Identifier: GPL-2.0
/*
 * The one place that changes a device.  Order:
 *
 *   1. check every key and value (nothing written on error, exit 2)
 *   2. pick the scheduler: the first candidate that is listed, or whose
 *      module "<name>-iosched" loads (libkmod)
 *   3. check knobs against that scheduler where we know its knobs
 *   4. snapshot the knobs of the scheduler we leave (the device lock,
 *      /run/schedctl/<dev>.lock, is held from before the first read)
 *   5. switch (EBUSY: retry with backoff, bounded), check the knobs that
 *      only the new scheduler could tell us about, write the knobs, then
 *      the queue attributes
 *   6. on a failed write: undo the queue attributes, switch back, restore
 *      every snapshotted knob (a switch reset them), report the key and
 *      strerror; exit 1, or 3 if undoing failed too.
 *
 * Only values that differ are written, so re-applying is cheap and a
 * "change" uevent caused by our own switch finds nothing to do.
 */
#define _GNU_SOURCE
#include "apply.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "keys.h"
#include "sysfs.h"

unsigned int sc_lock_timeout_ms = 3000;

/* EBUSY backoff: 10, 20, ... 640 ms, at most 1.27 s in all. */
#define SWITCH_TRIES 8
#define SWITCH_DELAY_MS 10

struct item {
	struct sc_key k;
	const struct sc_req *req;
	char *path;		/* sysfs file */
	char *old;		/* value before we wrote, NULL if unread */
	char *val;		/* the value to write: integers normalised ("+12": "12") */
	bool skip;
	bool written;
	bool later;		/* knob of a scheduler we do not know: check after switch */
};

struct snap {			/* knob values of the scheduler we leave */
	char **names;
	char **values;
	size_t n;
};

/* A line for the report (what was skipped or chosen, and why). */
#define note(rep, ...) sc_strv_pushf(&(rep)->notes, &(rep)->nnotes, __VA_ARGS__)

/* A skipped setting: a note "KEY: skipped: WHY", and an entry in skips. */
static void skip(struct sc_report *rep, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void skip(struct sc_report *rep, const char *key, const char *fmt, ...)
{
	struct sc_skip *ns;
	char *why = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		why = NULL;
	va_end(ap);
	if (!why)
		return;
	note(rep, "%s: skipped: %s", key, why);
	ns = realloc(rep->skips, (rep->nskips + 1) * sizeof(*ns));
	if (!ns || !(ns[rep->nskips].key = strdup(key))) {
		if (ns)
			rep->skips = ns;
		free(why);
		return;
	}
	rep->skips = ns;
	ns[rep->nskips++].why = why;
}

static int fail(struct sc_report *rep, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rep->err, sizeof(rep->err), fmt, ap);
	va_end(ap);
	return code;
}

static void add_err(struct sc_report *rep, const char *fmt, ...)
{
	size_t l = strlen(rep->err);
	va_list ap;

	if (l + 3 >= sizeof(rep->err))
		return;
	strcpy(rep->err + l, "; ");
	va_start(ap, fmt);
	vsnprintf(rep->err + l + 2, sizeof(rep->err) - l - 2, fmt, ap);
	va_end(ap);
}

static void change(struct sc_report *rep, const char *key, const char *old, const char *new)
{
	struct sc_change *nc = realloc(rep->c, (rep->n + 1) * sizeof(*nc));

	if (!nc)
		return;
	rep->c = nc;
	nc[rep->n].key = strdup(key);
	nc[rep->n].old = old ? strdup(old) : NULL;
	nc[rep->n].new = strdup(new);
	nc[rep->n].state = SC_CH_DONE;
	rep->n++;
}

/* The rollback of key's change succeeded (undone) or failed. */
static void undone(struct sc_report *rep, const char *key, bool ok)
{
	for (size_t i = rep->n; i-- > 0;)
		if (!strcmp(rep->c[i].key, key)) {
			rep->c[i].state = ok ? SC_CH_UNDONE : SC_CH_KEPT;
			return;
		}
}

void sc_report_free(struct sc_report *rep)
{
	for (size_t i = 0; i < rep->n; i++) {
		free(rep->c[i].key);
		free(rep->c[i].old);
		free(rep->c[i].new);
	}
	free(rep->c);
	sc_strv_free(rep->notes, rep->nnotes);
	for (size_t i = 0; i < rep->nskips; i++) {
		free(rep->skips[i].key);
		free(rep->skips[i].why);
	}
	free(rep->skips);
	memset(rep, 0, sizeof(*rep));
}

static bool same_value(const char *a, const char *b)
{
	long long x, y;

	if (sc_is_integer(a, &x) && sc_is_integer(b, &y))
		return x == y;
	return !strcmp(a, b);
}

static bool listed(char **avail, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(avail[i], s))
			return true;
	return false;
}

static bool gone_errno(int e)
{
	return e == -ENOENT || e == -ENODEV || e == -ENXIO;
}

/* Message for a failed write of key. */
static void write_err(struct sc_report *rep, const char *dev, const char *key,
		      const char *value, int e)
{
	if (gone_errno(e) && sc_device_gone(dev))
		fail(rep, SC_EXIT_FAIL, "device %s went away", dev);
	else
		fail(rep, SC_EXIT_FAIL, "%s: %s: %s (value \"%s\")", dev, key, strerror(-e), value);
}

static int switch_sched(const char *dev, const char *name)
{
	char *p = sc_qpath(dev, "scheduler");
	unsigned int delay = SWITCH_DELAY_MS;
	int r = -ENOMEM;

	if (!p)
		return r;
	for (int i = 0; i < SWITCH_TRIES; i++) {
		r = sc_write(p, name);
		if (r != -EBUSY)
			break;
		if (i + 1 < SWITCH_TRIES) {
			sc_sleep_ms(delay);
			delay *= 2;
		}
	}
	free(p);
	return r;
}

static void snap_free(struct snap *s)
{
	sc_strv_free(s->names, s->n);
	sc_strv_free(s->values, s->n);
}

static int snap_knobs(const char *dev, struct snap *s)
{
	char *dir = sc_qpath(dev, "iosched");
	int r;

	memset(s, 0, sizeof(*s));
	if (!dir)
		return -ENOMEM;
	r = sc_list_dir(dir, &s->names, &s->n);
	if (r == -ENOENT) {	/* "none" has no iosched/ */
		free(dir);
		return 0;
	}
	if (!r && !(s->values = calloc(s->n + 1, sizeof(char *))))
		r = -ENOMEM;
	for (size_t i = 0; !r && i < s->n; i++) {
		char *p;

		if (asprintf(&p, "%s/%s", dir, s->names[i]) < 0)
			continue;
		if (sc_read(p, &s->values[i]))
			s->values[i] = NULL;	/* write-only or racing: skip */
		free(p);
	}
	free(dir);
	return r;
}

/* Put the device back as it was.  0, or the number of failures. */
static int rollback(const char *dev, struct item *it, size_t n, const char *old_sched,
		    bool switched, struct snap *sn, struct sc_report *rep)
{
	int bad = 0, r;

	for (size_t i = n; i-- > 0;) {
		if (!it[i].written || it[i].k.kind != SC_KEY_QUEUE)
			continue;
		r = sc_write(it[i].path, it[i].old);
		undone(rep, it[i].req->key, !r);
		if (r) {
			add_err(rep, "rollback of %s failed: %s", it[i].req->key, strerror(-r));
			bad++;
		}
	}
	if (switched) {
		r = switch_sched(dev, old_sched);
		/* the knobs written went with the scheduler, or stay with it */
		undone(rep, "scheduler", !r);
		for (size_t i = 0; i < n; i++)
			if (it[i].written && it[i].k.kind != SC_KEY_QUEUE)
				undone(rep, it[i].req->key, !r);
		if (r) {
			add_err(rep, "rollback to scheduler %s failed: %s", old_sched, strerror(-r));
			return bad + 1;
		}
		for (size_t i = 0; i < sn->n; i++) {
			char *p, *cur = NULL;

			if (!sn->values[i] || asprintf(&p, "/sys/block/%s/queue/iosched/%s",
						       dev, sn->names[i]) < 0)
				continue;
			if (sc_read(p, &cur) || !same_value(cur, sn->values[i])) {
				r = sc_write(p, sn->values[i]);
				if (r) {
					add_err(rep, "rollback of %s failed: %s", sn->names[i],
						strerror(-r));
					bad++;
				}
			}
			free(cur);
			free(p);
		}
		return bad;
	}
	for (size_t i = n; i-- > 0;) {
		if (!it[i].written || it[i].k.kind == SC_KEY_QUEUE)
			continue;
		r = sc_write(it[i].path, it[i].old);
		undone(rep, it[i].req->key, !r);
		if (r) {
			add_err(rep, "rollback of %s failed: %s", it[i].req->key, strerror(-r));
			bad++;
		}
	}
	return bad;
}

static int can_write(const char *dev, struct sc_report *rep)
{
	char *p = sc_qpath(dev, "scheduler"), *full;
	int r = 0;

	if (!p)
		return -ENOMEM;
	full = sc_path(p);
	if (!sc_io_fake() && geteuid() != 0 && full && access(full, W_OK) && errno == EACCES)
		r = fail(rep, SC_EXIT_FAIL,
			 "%s: permission denied: changing I/O scheduler settings needs root", dev);
	free(full);
	free(p);
	return r;
}

/* Check one knob/queue item against the file system: exists, value kind. */
static int check_item(const char *dev, struct item *it, const char *sched, unsigned int flags,
		      struct sc_report *rep)
{
	const char *key = it->req->key;
	char *cur = NULL;

	if (sc_read(it->path, &cur)) {
		if (flags & SC_LENIENT) {
			it->skip = true;
			if (it->k.kind == SC_KEY_QUEUE)
				skip(rep, key, "this kernel has no queue/%s", it->k.attr);
			else
				skip(rep, key, "not a knob of %s", sched);
			return 0;
		}
		if (it->k.kind == SC_KEY_QUEUE)
			return fail(rep, SC_EXIT_USAGE, "%s: %s: this kernel or device has no queue/%s",
				    dev, key, it->k.attr);
		return fail(rep, SC_EXIT_USAGE, "%s: %s: not a knob of scheduler %s", dev, key, sched);
	}
	if (sc_is_integer(cur, NULL) && !sc_is_integer(it->val, NULL)) {
		free(cur);
		return fail(rep, SC_EXIT_USAGE, "%s: %s: expected a decimal integer, got \"%s\"",
			    dev, key, it->req->value);
	}
	free(it->old);
	it->old = cur;
	return 0;
}

static int plan_items(const char *dev, struct item *it, size_t n, const char *eff,
		      bool switching, unsigned int flags, struct sc_report *rep)
{
	char *zq = NULL;
	bool native_qd1 = false, zoned = false;

	if ((zq = sc_qpath(dev, "zoned_qd1_writes")))
		native_qd1 = sc_exists(zq);
	free(zq);
	if ((zq = sc_qpath(dev, "zoned"))) {
		char *z = NULL;

		zoned = !sc_read(zq, &z) && strcmp(z, "none");
		free(z);
		free(zq);
	}
	for (size_t i = 0; i < n; i++) {
		struct item *x = &it[i];
		int has;

		if (x->k.kind == SC_KEY_SCHED)
			continue;
		if (x->k.kind == SC_KEY_ZONED_QD1) {
			if (!zoned) {
				if (flags & SC_LENIENT) {
					x->skip = true;
					skip(rep, x->req->key, "device is not zoned");
					continue;
				}
				return fail(rep, SC_EXIT_USAGE, "%s: %s: device is not zoned", dev,
					    x->req->key);
			}
			/* 7.1+: the native attribute serializes before the
			 * scheduler sees the bios; the knob would change nothing. */
			x->k.kind = native_qd1 ? SC_KEY_QUEUE : SC_KEY_IOSCHED;
			note(rep, "%s: using %s", x->req->key,
			     native_qd1 ? "the native queue/zoned_qd1_writes"
					: "the scheduler's knob (no queue/zoned_qd1_writes)");
		}
		if (x->k.kind == SC_KEY_QUEUE) {
			x->path = sc_qpath(dev, x->k.attr);
		} else {
			if (asprintf(&x->path, "/sys/block/%s/queue/iosched/%s", dev, x->k.attr) < 0)
				x->path = NULL;
		}
		if (!x->path)
			return fail(rep, SC_EXIT_FAIL, "out of memory");
		if (x->k.kind == SC_KEY_IOSCHED) {
			has = sc_sched_has_knob(eff, x->k.attr);
			if (has == 0) {
				if (flags & SC_LENIENT) {
					x->skip = true;
					skip(rep, x->req->key, "not a knob of %s", eff);
					continue;
				}
				return fail(rep, SC_EXIT_USAGE, "%s: %s: not a knob of scheduler %s",
					    dev, x->req->key, eff);
			}
			if (switching) {
				/* values are the new scheduler's defaults: read after */
				x->later = has < 0;
				continue;
			}
		}
		if (check_item(dev, x, eff, flags, rep))
			return rep->err[0] ? SC_EXIT_USAGE : 0;
	}
	return 0;
}

int sc_apply(const char *dev, const struct sc_req *req, size_t n, unsigned int flags,
	     struct sc_report *rep)
{
	struct item *it = calloc(n + 1, sizeof(*it));
	char *sp = NULL, *line = NULL, *cur = NULL, **avail = NULL, **cands = NULL;
	size_t navail = 0, ncands = 0;
	const char *target = NULL;
	struct snap sn = { 0 };
	bool switched = false, has_sched;
	int rc = SC_EXIT_OK, lock = -1, r;
	char err[256];

	memset(rep, 0, sizeof(*rep));
	if (!it)
		return fail(rep, SC_EXIT_FAIL, "out of memory");

	/* 1. keys and values */
	for (size_t i = 0; i < n; i++) {
		it[i].req = &req[i];
		if (sc_key_parse(req[i].key, &it[i].k, err, sizeof(err))) {
			rc = fail(rep, SC_EXIT_USAGE, "%s: %s", dev, err);
			goto out;
		}
		if (sc_value_check(&it[i].k, req[i].value, err, sizeof(err))) {
			rc = fail(rep, SC_EXIT_USAGE, "%s: %s: %s", dev, req[i].key, err);
			goto out;
		}
		{
			long long v;
			int l = sc_is_integer(req[i].value, &v) ?
					asprintf(&it[i].val, "%lld", v) :
					asprintf(&it[i].val, "%s", req[i].value);

			if (l < 0) {
				it[i].val = NULL;
				rc = fail(rep, SC_EXIT_FAIL, "out of memory");
				goto out;
			}
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(req[j].key, req[i].key)) {
				rc = fail(rep, SC_EXIT_USAGE, "%s: %s given twice", dev, req[i].key);
				goto out;
			}
		if (it[i].k.kind == SC_KEY_SCHED &&
		    sc_sched_list_parse(req[i].value, &cands, &ncands, err, sizeof(err))) {
			rc = fail(rep, SC_EXIT_USAGE, "%s: scheduler: %s", dev, err);
			goto out;
		}
	}

	/* 2. the scheduler */
	if (sc_device_gone(dev)) {
		rc = fail(rep, SC_EXIT_FAIL, "device %s went away", dev);
		goto out;
	}
	if (!(flags & SC_DRY_RUN)) {
		/* before reading anything: another schedctl may be changing it */
		if ((rc = can_write(dev, rep)))
			goto out;
		lock = sc_lock(dev, (int)sc_lock_timeout_ms);
		if (lock < 0) {
			rc = fail(rep, SC_EXIT_FAIL, "%s: lock /run/schedctl/%s.lock: %s", dev, dev,
				  lock == -EWOULDBLOCK ? "another schedctl holds it"
						       : strerror(-lock));
			goto out;
		}
	}
	sp = sc_qpath(dev, "scheduler");
	if (!sp || sc_read(sp, &line) || sc_parse_sched_list(line, &cur, &avail, &navail))
		cur = NULL;
	has_sched = cur != NULL;
	if (!has_sched) {
		for (size_t i = 0; i < n; i++) {
			if (it[i].k.kind != SC_KEY_SCHED && it[i].k.kind != SC_KEY_IOSCHED)
				continue;
			if (!(flags & SC_LENIENT)) {
				rc = fail(rep, SC_EXIT_FAIL,
					  "%s: %s: device has no I/O scheduler (bio-based)", dev,
					  req[i].key);
				goto out;
			}
			it[i].skip = true;
			skip(rep, req[i].key, "no I/O scheduler (bio-based)");
		}
	}
	if (has_sched && ncands) {
		for (size_t c = 0; c < ncands && !target; c++) {
			char *alias = NULL;

			if (!strcmp(cands[c], cur) || listed(avail, navail, cands[c])) {
				target = cands[c];
			} else if (asprintf(&alias, "%s-iosched", cands[c]) < 0) {
				alias = NULL;
				continue;
			} else if (!sc_module_exists(alias)) {
				note(rep, "scheduler %s: not available (no module %s)", cands[c], alias);
			} else if (flags & SC_DRY_RUN) {
				change(rep, "module", NULL, alias);
				target = cands[c];
			} else if ((r = sc_module_load(alias))) {
				note(rep, "scheduler %s: loading %s failed: %s", cands[c], alias,
				     strerror(-r));
			} else {
				change(rep, "module", NULL, alias);
				free(line);
				line = NULL;
				free(cur);
				cur = NULL;
				sc_strv_free(avail, navail);
				avail = NULL;
				navail = 0;
				if (!sc_read(sp, &line) &&
				    !sc_parse_sched_list(line, &cur, &avail, &navail) && cur &&
				    listed(avail, navail, cands[c]))
					target = cands[c];
				else if (!cur) {
					rc = fail(rep, SC_EXIT_FAIL, "device %s went away", dev);
					goto out;
				} else
					note(rep, "scheduler %s: module %s loaded but not offered",
					     cands[c], alias);
			}
			if (target && c > 0)
				note(rep, "scheduler %s: fallback, earlier choices unavailable", target);
			free(alias);
		}
		if (!target) {
			for (size_t i = 0; i < n; i++)
				if (it[i].k.kind == SC_KEY_SCHED)
					rc = fail(rep, SC_EXIT_FAIL,
						  "%s: scheduler: none of \"%s\" is available (offered: %s)",
						  dev, req[i].value, line ? line : "");
			goto out;
		}
	}
	if (!target)
		target = cur;

	/* 3. knobs against the scheduler we will have */
	if ((rc = plan_items(dev, it, n, has_sched ? target : "none",
			     has_sched && strcmp(target, cur), flags, rep)))
		goto out;

	if (flags & SC_DRY_RUN) {
		if (has_sched && strcmp(target, cur))
			change(rep, "scheduler", cur, target);
		for (size_t i = 0; i < n; i++) {
			if (it[i].skip || it[i].k.kind == SC_KEY_SCHED)
				continue;
			if (!it[i].old || !same_value(it[i].old, it[i].val))
				change(rep, req[i].key, it[i].old, it[i].val);
		}
		goto out;
	}

	/* 4. snapshot */
	if (has_sched && strcmp(target, cur) && (r = snap_knobs(dev, &sn))) {
		rc = fail(rep, SC_EXIT_FAIL, "%s: reading knobs: %s", dev, strerror(-r));
		goto out;
	}

	/* 5. write */
	if (has_sched && strcmp(target, cur)) {
		r = switch_sched(dev, target);
		if (r) {
			write_err(rep, dev, "scheduler", target, r);
			if (r == -EBUSY)
				add_err(rep, "still busy after %d tries", SWITCH_TRIES);
			rc = SC_EXIT_FAIL;
			goto out;
		}
		switched = true;
		change(rep, "scheduler", cur, target);
		for (size_t i = 0; i < n; i++) {
			if (it[i].skip || it[i].k.kind != SC_KEY_IOSCHED)
				continue;
			if (check_item(dev, &it[i], target, flags, rep)) {
				rc = SC_EXIT_FAIL;
				if (rollback(dev, it, n, cur, switched, &sn, rep))
					rc = SC_EXIT_PARTIAL;
				else
					add_err(rep, "scheduler %s restored", cur);
				goto out;
			}
		}
	}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			struct item *x = &it[i];

			if (x->skip || x->k.kind == SC_KEY_SCHED ||
			    (pass == 0) != (x->k.kind == SC_KEY_IOSCHED))
				continue;
			if (x->old && same_value(x->old, x->val))
				continue;
			r = sc_write(x->path, x->val);
			if (r) {
				bool gone = gone_errno(r) && sc_device_gone(dev);

				write_err(rep, dev, req[i].key, x->val, r);
				rc = SC_EXIT_FAIL;
				if (!gone) {
					if (rollback(dev, it, n, cur, switched, &sn, rep))
						rc = SC_EXIT_PARTIAL;
					else
						add_err(rep, "previous settings restored");
				}
				goto out;
			}
			x->written = true;
			change(rep, req[i].key, x->old, x->val);
		}
	}
out:
	sc_unlock(lock);
	snap_free(&sn);
	for (size_t i = 0; i < n; i++) {
		free(it[i].path);
		free(it[i].old);
		free(it[i].val);
	}
	free(it);
	free(sp);
	free(line);
	free(cur);
	sc_strv_free(avail, navail);
	sc_strv_free(cands, ncands);
	return rc;
}
