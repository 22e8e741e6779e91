/* SPDX-License-Identifier: GPL-2.0 */
/*
 * schedctl stats and monitor without the socket: counter rates from two
 * snapshots, event lines.  Pure functions, unit-tested (test_stats.c).
 */
#ifndef SCHEDCTL_STATS_H
#define SCHEDCTL_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "netlink.h"

/* One counter of one device; strings point into the current snapshot. */
struct sc_stat_row {
	const char *dev, *sched, *name;
	uint64_t value;		/* the counter now */
	bool has_rate;		/* false: totals only, or a gauge */
	double rate;		/* per second over the interval */
};

/*
 * Counters that are a level, not a running count (in_flight, ...): shown
 * as they are, never as a rate.
 */
bool sc_stats_is_gauge(const char *name);

/*
 * A row for every counter of every device in cur, in cur's order.  With
 * prev, also the rate over cur->t - prev->t: the difference to prev's
 * value, or, for a device that was not in prev (or had another scheduler
 * there) and a counter that went backwards (the scheduler was attached
 * again), the value itself, as counters start at 0 on attach.  Rows are
 * freed with free(); 0 or -ENOMEM.
 */
int sc_stats_rows(const struct sc_nl_snap *prev, const struct sc_nl_snap *cur,
		  struct sc_stat_row **rows, size_t *n);

/*
 * Every counter of every device in s as metrics, for scrapers:
 * openmetrics, the OpenMetrics 1.0 text format (ends with "# EOF"), else
 * the Prometheus text format 0.0.4 (node_exporter's textfile collector).
 * A counter NAME is the family schedctl_NAME, samples schedctl_NAME_total
 * (a level such as in_flight: a gauge, schedctl_NAME), with the labels
 * device, major, minor and scheduler; characters not allowed in a metric
 * name become "_".  0, or -errno from writing.
 */
int sc_stats_metrics(const struct sc_nl_snap *s, bool openmetrics, FILE *f);

/* "12.50" */
void sc_stats_fmt_rate(double rate, char *buf, size_t len);

/*
 * One line for an event, without the newline:
 *   attach DEV SCHED | detach DEV SCHED
 *   knob DEV SCHED NAME OLD -> NEW | state DEV SCHED NAME OLD -> NEW
 * or, json, one JSON object:
 *   {"event":"knob","device":"sda","major":8,"minor":0,
 *    "sched":"xdeadline","name":"fifo_batch","old":16,"new":8}
 * Caller frees; NULL when out of memory.
 */
char *sc_event_format(const struct sc_nl_event *ev, bool json);

#endif
