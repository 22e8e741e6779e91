// SPDX-License-Identifier: GPL-2.0
/* Counter rates and event lines for schedctl stats and monitor. */
#define _GNU_SOURCE
#include "stats.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool sc_stats_is_gauge(const char *name)
{
	/* Levels, not counts of events: shown as they are, not as rates. */
	static const char *const levels[] = {
		"congestion_pct", "congested",		/* both schedulers */
		"parked",				/* xdeadline, xbfq */
		"queued", "queues", "active_queues",	/* xbfq */
		"peak_rate", "auto_max_budget", "groups",
	};
	size_t n = strlen(name), k = strlen("in_flight");

	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcmp(name, levels[i]))
			return true;
	/* in_flight, qd1_writes_in_flight, qd1_max_in_flight */
	return n >= k && !strcmp(name + n - k, "in_flight");
}

/* prev's value of counter i of cur (same position, usually), or false. */
static bool prev_value(const struct sc_nl_dev *p, const struct sc_nl_dev *c, size_t i,
		       uint64_t *v)
{
	const char *name = c->counters.v[i].name;

	if (i < p->counters.n && !strcmp(p->counters.v[i].name, name)) {
		*v = p->counters.v[i].value;
		return true;
	}
	for (size_t k = 0; k < p->counters.n; k++)
		if (!strcmp(p->counters.v[k].name, name)) {
			*v = p->counters.v[k].value;
			return true;
		}
	return false;
}

int sc_stats_rows(const struct sc_nl_snap *prev, const struct sc_nl_snap *cur,
		  struct sc_stat_row **rows, size_t *n)
{
	double secs = prev ? cur->t - prev->t : 0;
	size_t total = 0, k = 0;

	*rows = NULL;
	*n = 0;
	for (size_t d = 0; d < cur->n; d++)
		total += cur->dev[d].counters.n;
	if (!total)
		return 0;
	*rows = calloc(total, sizeof(**rows));
	if (!*rows)
		return -ENOMEM;
	for (size_t d = 0; d < cur->n; d++) {
		const struct sc_nl_dev *c = &cur->dev[d];
		const struct sc_nl_dev *p = prev ? sc_nl_snap_find(prev, c->name) : NULL;

		/* another scheduler, or another device of the same name */
		if (p && (strcmp(p->sched, c->sched) || p->major != c->major ||
			  p->minor != c->minor))
			p = NULL;
		for (size_t i = 0; i < c->counters.n; i++) {
			struct sc_stat_row *r = &(*rows)[k++];
			uint64_t now = c->counters.v[i].value, then = 0;

			r->dev = c->name;
			r->sched = c->sched;
			r->name = c->counters.v[i].name;
			r->value = now;
			if (!prev || secs <= 0 || sc_stats_is_gauge(r->name))
				continue;
			if (!p || !prev_value(p, c, i, &then) || then > now)
				then = 0;	/* since attach */
			r->has_rate = true;
			r->rate = (double)(now - then) / secs;
		}
	}
	*n = k;
	return 0;
}

/* schedctl_NAME: [a-zA-Z_:][a-zA-Z0-9_:]* */
static void metric_name(const char *counter, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "schedctl_");

	for (const char *c = counter; *c && o + 1 < len; c++)
		buf[o++] = (isalnum((unsigned char)*c) && isascii((unsigned char)*c)) || *c == '_'
				   ? *c : '_';
	buf[o < len ? o : len - 1] = '\0';
}

/* A label value: backslash, double quote and newline escaped. */
static void label_value(FILE *f, const char *v)
{
	for (const char *c = v; *c; c++) {
		if (*c == '\\' || *c == '"')
			fprintf(f, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", f);
		else
			fputc(*c, f);
	}
}

int sc_stats_metrics(const struct sc_nl_snap *s, bool openmetrics, FILE *f)
{
	char fam[SC_NL_NAME_MAX + 16], other[SC_NL_NAME_MAX + 16];

	/* one family per counter name, its samples together, in order seen */
	for (size_t d = 0; d < s->n; d++) {
		for (size_t i = 0; i < s->dev[d].counters.n; i++) {
			const char *name = s->dev[d].counters.v[i].name;
			bool gauge = sc_stats_is_gauge(name), seen = false;
			const char *type = gauge ? "gauge" : "counter";
			const char *sfx = gauge ? "" : "_total";

			metric_name(name, fam, sizeof(fam));
			for (size_t e = 0; e <= d && !seen; e++)
				for (size_t k = 0; k < s->dev[e].counters.n && !seen; k++) {
					if (e == d && k == i)
						break;
					metric_name(s->dev[e].counters.v[k].name, other, sizeof(other));
					seen = !strcmp(other, fam);
				}
			if (seen)
				continue;
			if (openmetrics) {
				fprintf(f, "# TYPE %s %s\n", fam, type);
				fprintf(f, "# HELP %s schedctl scheduler %s %s (see xdeadline(4), xbfq(4)).\n",
					fam, type, name);
			} else {
				fprintf(f, "# HELP %s%s schedctl scheduler %s %s (see xdeadline(4), xbfq(4)).\n",
					fam, sfx, type, name);
				fprintf(f, "# TYPE %s%s %s\n", fam, sfx, type);
			}
			for (size_t e = d; e < s->n; e++) {
				const struct sc_nl_dev *dev = &s->dev[e];

				for (size_t k = 0; k < dev->counters.n; k++) {
					metric_name(dev->counters.v[k].name, other, sizeof(other));
					if (strcmp(other, fam))
						continue;
					fprintf(f, "%s%s{device=\"", fam, sfx);
					label_value(f, dev->name);
					fprintf(f, "\",major=\"%u\",minor=\"%u\",scheduler=\"", dev->major,
						dev->minor);
					label_value(f, dev->sched);
					fprintf(f, "\"} %llu\n", (unsigned long long)dev->counters.v[k].value);
					break;	/* one sample per device */
				}
			}
		}
	}
	if (openmetrics)
		fputs("# EOF\n", f);
	return fflush(f) || ferror(f) ? -EIO : 0;
}

void sc_stats_fmt_rate(double rate, char *buf, size_t len)
{
	snprintf(buf, len, "%.2f", rate);
}

static void json_str(FILE *f, const char *key, const char *s)
{
	fprintf(f, "\"%s\":\"", key);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static const char *const kind_names[] = {
	[SC_EV_ATTACH] = "attach",
	[SC_EV_DETACH] = "detach",
	[SC_EV_KNOB] = "knob",
	[SC_EV_STATE] = "state",
	[SC_EV_UNKNOWN] = "unknown",
};

char *sc_event_format(const struct sc_nl_event *ev, bool json)
{
	bool change = ev->kind == SC_EV_KNOB || ev->kind == SC_EV_STATE;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	if (!json) {
		if (ev->kind == SC_EV_UNKNOWN)
			fprintf(f, "event%u", ev->cmd);
		else
			fputs(kind_names[ev->kind], f);
		fprintf(f, " %s %s", ev->dev[0] ? ev->dev : "?", ev->sched[0] ? ev->sched : "?");
		if (change)
			fprintf(f, " %s %llu -> %llu", ev->name, (unsigned long long)ev->old,
				(unsigned long long)ev->new);
	} else {
		fputc('{', f);
		json_str(f, "event", kind_names[ev->kind]);
		if (ev->kind == SC_EV_UNKNOWN)
			fprintf(f, ",\"command\":%u", ev->cmd);
		fputc(',', f);
		json_str(f, "device", ev->dev);
		if (ev->has_devt)
			fprintf(f, ",\"major\":%u,\"minor\":%u", ev->major, ev->minor);
		fputc(',', f);
		json_str(f, "sched", ev->sched);
		if (change) {
			fputc(',', f);
			json_str(f, "name", ev->name);
			fprintf(f, ",\"old\":%llu,\"new\":%llu", (unsigned long long)ev->old,
				(unsigned long long)ev->new);
		}
		fputc('}', f);
	}
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
