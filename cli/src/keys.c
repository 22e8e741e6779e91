// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs.h"

/* Order matters: bit i of sc_knob_def.scheds is sc_known_scheds[i]. */
const char *const sc_known_scheds[] = {
	"mq-deadline", "xdeadline", "kyber", "bfq", "xbfq", NULL,
};

#define MD (1u << 0)
#define XD (1u << 1)
#define KY (1u << 2)
#define BFQ (1u << 3)
#define XB (1u << 4)
#define IMAX INT_MAX

/* Ranges as the kernel accepts them (man/xdeadline.4, man/xbfq.4). */
const struct sc_knob_def sc_knobs[] = {
	{ "read_expire", 0, 3600000, MD | XD },
	{ "write_expire", 0, 3600000, MD | XD },
	{ "writes_starved", INT_MIN, IMAX, MD | XD },
	{ "front_merges", 0, 1, MD | XD },
	{ "async_depth", 1, IMAX, MD | XD | XB },
	{ "fifo_batch", 0, IMAX, MD | XD },
	{ "prio_aging_expire", 0, IMAX, MD | XD },
	{ "serialize_dispatch", 0, 1, XD | XB },
	{ "defer_insert", 0, 1, XD | XB },
	{ "merge_skip", 0, 1, XD | XB },
	{ "dispatch_batch", 1, 256, XD | XB },
	{ "nr_sched_batch", 0, IMAX, XD },
	{ "head_request", 0, 1, XD },
	{ "zoned_qd1_writes", 0, 1, XD },
	{ "congestion_threshold", 0, 100, XD | XB },
	{ "local_dispatch", 0, 1, XD | XB },
	{ "read_lat_nsec", 0, LLONG_MAX, KY },
	{ "write_lat_nsec", 0, LLONG_MAX, KY },
	{ "back_seek_max", 0, IMAX, BFQ | XB },
	{ "back_seek_penalty", 1, IMAX, BFQ | XB },
	{ "fifo_expire_async", 0, IMAX, BFQ | XB },
	{ "fifo_expire_sync", 0, IMAX, BFQ | XB },
	{ "low_latency", 0, 1, BFQ | XB },
	{ "max_budget", 0, IMAX, BFQ | XB },
	{ "slice_idle", 0, IMAX, BFQ | XB },
	{ "slice_idle_us", 0, IMAX, BFQ | XB },
	{ "strict_guarantees", 0, 1, BFQ | XB },
	{ "timeout_sync", 1, IMAX, BFQ | XB },
	{ "idle_class_delay", 0, 3600000, XB },
	{ "wr_coeff", 2, 100, XB },
	{ "wr_max_time", 0, 3600000, XB },
	{ "injection", 0, 1, XB },
	{ "queue_merging", 0, 1, XB },
	{ NULL, 0, 0, 0 },
};

const struct sc_knob_def sc_queue_attrs[] = {
	{ "nr_requests", 1, IMAX, 0 },
	{ "read_ahead_kb", 0, IMAX, 0 },
	{ "rotational", 0, 1, 0 },
	{ "max_sectors_kb", 1, IMAX, 0 },
	{ "nomerges", 0, 2, 0 },
	{ "rq_affinity", 0, 2, 0 },
	{ "add_random", 0, 1, 0 },
	{ "iostats", 0, 1, 0 },
	{ "wbt_lat_usec", -1, LLONG_MAX, 0 },
	{ "async_depth", 1, IMAX, 0 },
	{ "zoned_qd1_writes", 0, 1, 0 },
	{ NULL, 0, 0, 0 },
};

bool sc_is_integer(const char *s, long long *out)
{
	char *end;
	long long v;

	if (!*s || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	if (out)
		*out = v;
	return true;
}

static const struct sc_knob_def *find(const struct sc_knob_def *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '_' && *s != '-')
			return false;
	return true;
}

int sc_key_parse(const char *key, struct sc_key *k, char *err, size_t len)
{
	const struct sc_knob_def *def = NULL;

	memset(k, 0, sizeof(*k));
	if (!strcmp(key, "scheduler")) {
		k->kind = SC_KEY_SCHED;
		k->known = true;
		snprintf(k->attr, sizeof(k->attr), "scheduler");
		return 0;
	}
	if (!strcmp(key, "zoned_qd1_writes")) {
		k->kind = SC_KEY_ZONED_QD1;
		def = find(sc_knobs, key);
	} else if (!strncmp(key, "queue.", 6)) {
		k->kind = SC_KEY_QUEUE;
		def = find(sc_queue_attrs, key + 6);
		if (!def) {
			snprintf(err, len, "unknown queue attribute \"%s\"", key + 6);
			return -EINVAL;
		}
	} else if (!strncmp(key, "iosched.", 8)) {
		k->kind = SC_KEY_IOSCHED;
		if (!valid_name(key + 8) || strchr(key + 8, '-') || strlen(key + 8) >= sizeof(k->attr)) {
			snprintf(err, len, "bad knob name \"%s\"", key + 8);
			return -EINVAL;
		}
		def = find(sc_knobs, key + 8);
		snprintf(k->attr, sizeof(k->attr), "%s", key + 8);
	} else {
		k->kind = SC_KEY_IOSCHED;
		def = find(sc_knobs, key);
		if (!def && find(sc_queue_attrs, key)) {
			snprintf(err, len, "unknown key \"%s\" (a queue attribute: queue.%s)", key, key);
			return -EINVAL;
		}
		if (!def) {
			snprintf(err, len,
				 "unknown key \"%s\" (expected scheduler, a knob name, iosched.KNOB or queue.ATTR)",
				 key);
			return -EINVAL;
		}
	}
	if (def) {
		snprintf(k->attr, sizeof(k->attr), "%s", def->name);
		k->min = def->min;
		k->max = def->max;
		k->known = true;
	}
	return 0;
}

int sc_sched_list_parse(const char *value, char ***names, size_t *n, char *err, size_t len)
{
	char *dup = strdup(value), *tok, *save = NULL;
	char **v = NULL;
	size_t cnt = 0;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *e, **nv;

		while (isspace((unsigned char)*tok))
			tok++;
		e = tok + strlen(tok);
		while (e > tok && isspace((unsigned char)e[-1]))
			*--e = '\0';
		if (!valid_name(tok)) {
			snprintf(err, len, "bad scheduler name \"%s\" (expected names like "
				 "mq-deadline, separated by commas)", tok);
			goto bad;
		}
		nv = realloc(v, (cnt + 1) * sizeof(*v));
		if (!nv)
			goto bad;
		v = nv;
		if (!(v[cnt] = strdup(tok)))
			goto bad;
		cnt++;
	}
	if (!cnt || value[strlen(value) - 1] == ',' || value[0] == ',' || strstr(value, ",,")) {
		snprintf(err, len, "expected a scheduler name or a list \"a, b\", got \"%s\"", value);
		goto bad;
	}
	free(dup);
	if (names) {
		*names = v;
		*n = cnt;
	} else {
		sc_strv_free(v, cnt);
	}
	return 0;
bad:
	free(dup);
	sc_strv_free(v, cnt);
	return -EINVAL;
}

int sc_value_check(const struct sc_key *k, const char *value, char *err, size_t len)
{
	long long v;

	if (k->kind == SC_KEY_SCHED)
		return sc_sched_list_parse(value, NULL, NULL, err, len);
	if (!*value) {
		snprintf(err, len, "empty value");
		return -EINVAL;
	}
	if (!k->known) {	/* iosched.NAME of a scheduler we do not know */
		for (const char *s = value; *s; s++)
			if (isspace((unsigned char)*s) || !isprint((unsigned char)*s)) {
				snprintf(err, len, "value \"%s\" has whitespace or control characters",
					 value);
				return -EINVAL;
			}
		return 0;
	}
	if (!sc_is_integer(value, &v)) {
		snprintf(err, len, "expected a decimal integer, got \"%s\"", value);
		return -EINVAL;
	}
	if (v < k->min || v > k->max) {
		snprintf(err, len, "value %s out of range %lld..%lld", value, k->min, k->max);
		return -ERANGE;
	}
	return 0;
}

int sc_sched_has_knob(const char *sched, const char *knob)
{
	const struct sc_knob_def *def;
	int i;

	for (i = 0; sc_known_scheds[i]; i++)
		if (!strcmp(sc_known_scheds[i], sched))
			break;
	if (!strcmp(sched, "none"))
		return 0;
	if (!sc_known_scheds[i])
		return -1;
	def = find(sc_knobs, knob);
	return def && (def->scheds & (1u << i));
}
