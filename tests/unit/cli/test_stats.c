// SPDX-License-Identifier: GPL-2.0
/*
 * schedctl stats and monitor without a kernel: rates from two snapshots,
 * the protocol version check, decoding of GET_DEV messages and events
 * built here as the kernel builds them, and the event lines.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>

#include "netlink.h"
#include "schedctl_nl.h"
#include "stats.h"
#include "tests.h"

#define FAMILY 0x1d	/* any generic netlink id */

/* ---- snapshots by hand ---------------------------------------------- */

static void add_dev(struct sc_nl_snap *s, const char *name, const char *sched, unsigned int minor,
		    const char *const *names, const uint64_t *vals, size_t n)
{
	struct sc_nl_dev *d;

	s->dev = realloc(s->dev, (s->n + 1) * sizeof(*s->dev));
	ck_assert_ptr_nonnull(s->dev);
	d = &s->dev[s->n++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->sched, sizeof(d->sched), "%s", sched);
	d->major = 252;
	d->minor = minor;
	d->counters.v = calloc(n, sizeof(*d->counters.v));
	ck_assert_ptr_nonnull(d->counters.v);
	d->counters.n = n;
	for (size_t i = 0; i < n; i++) {
		d->counters.v[i].name = strdup(names[i]);
		d->counters.v[i].value = vals[i];
	}
}

static const char *const names3[] = { "dispatched", "completed", "in_flight" };

static const struct sc_stat_row *row(const struct sc_stat_row *r, size_t n, const char *dev,
				     const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].dev, dev) && !strcmp(r[i].name, name))
			return &r[i];
	ck_abort_msg("no row %s %s", dev, name);
	return NULL;
}

START_TEST(totals_without_prev)
{
	struct sc_nl_snap cur = { .t = 10 };
	struct sc_stat_row *r;
	size_t n;

	add_dev(&cur, "nullb0", "xdeadline", 0, names3, (const uint64_t[]){ 1024, 1020, 4 }, 3);
	ck_assert_int_eq(sc_stats_rows(NULL, &cur, &r, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(r[0].name, "dispatched");
	ck_assert_str_eq(r[2].name, "in_flight");
	for (size_t i = 0; i < n; i++) {
		ck_assert(!r[i].has_rate);
		ck_assert_str_eq(r[i].dev, "nullb0");
		ck_assert_str_eq(r[i].sched, "xdeadline");
	}
	ck_assert_uint_eq(r[0].value, 1024);
	free(r);
	sc_nl_snap_free(&cur);
}
END_TEST

START_TEST(rates_over_interval)
{
	struct sc_nl_snap prev = { .t = 100 }, cur = { .t = 102 };
	struct sc_stat_row *r;
	size_t n;

	add_dev(&prev, "nullb0", "xdeadline", 0, names3, (const uint64_t[]){ 1000, 990, 10 }, 3);
	add_dev(&cur, "nullb0", "xdeadline", 0, names3, (const uint64_t[]){ 1500, 1491, 9 }, 3);
	ck_assert_int_eq(sc_stats_rows(&prev, &cur, &r, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert(r[0].has_rate);
	ck_assert(fabs(r[0].rate - 250.0) < 1e-9);
	ck_assert(fabs(r[1].rate - 250.5) < 1e-9);
	ck_assert_uint_eq(r[0].value, 1500);
	/* a level, not a count: its value, no rate */
	ck_assert(!r[2].has_rate);
	ck_assert_uint_eq(r[2].value, 9);
	free(r);
	sc_nl_snap_free(&prev);
	sc_nl_snap_free(&cur);
}
END_TEST

START_TEST(attach_reset_and_new_counter)
{
	static const char *const reordered[] = { "completed", "new_counter", "dispatched" };
	struct sc_nl_snap prev = { .t = 1 }, cur = { .t = 1.5 };
	struct sc_stat_row *r;
	size_t n;

	add_dev(&prev, "sda", "xdeadline", 0, names3, (const uint64_t[]){ 500, 500, 0 }, 3);
	add_dev(&prev, "sdb", "xdeadline", 16, names3, (const uint64_t[]){ 100, 100, 0 }, 3);
	add_dev(&prev, "sdc", "xbfq", 32, names3, (const uint64_t[]){ 100, 100, 0 }, 3);
	add_dev(&prev, "sdd", "xdeadline", 48, names3, (const uint64_t[]){ 100, 100, 0 }, 3);
	/* sda: counters went back (attached again); sdb: other order and a
	 * new counter; sdc: other scheduler now; sdd: gone; sde: new */
	add_dev(&cur, "sda", "xdeadline", 0, names3, (const uint64_t[]){ 20, 10, 0 }, 3);
	add_dev(&cur, "sdb", "xdeadline", 16, reordered, (const uint64_t[]){ 150, 7, 160 }, 3);
	add_dev(&cur, "sdc", "xdeadline", 32, names3, (const uint64_t[]){ 40, 40, 0 }, 3);
	add_dev(&cur, "sde", "xdeadline", 64, names3, (const uint64_t[]){ 5, 5, 0 }, 3);
	ck_assert_int_eq(sc_stats_rows(&prev, &cur, &r, &n), 0);
	ck_assert_uint_eq(n, 12);
	ck_assert(fabs(row(r, n, "sda", "dispatched")->rate - 40) < 1e-9);
	ck_assert(fabs(row(r, n, "sda", "completed")->rate - 20) < 1e-9);
	ck_assert(fabs(row(r, n, "sdb", "dispatched")->rate - 120) < 1e-9);
	ck_assert(fabs(row(r, n, "sdb", "completed")->rate - 100) < 1e-9);
	ck_assert(fabs(row(r, n, "sdb", "new_counter")->rate - 14) < 1e-9);
	ck_assert(fabs(row(r, n, "sdc", "dispatched")->rate - 80) < 1e-9);
	ck_assert(fabs(row(r, n, "sde", "completed")->rate - 10) < 1e-9);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_ne(r[i].dev, "sdd");
	free(r);
	sc_nl_snap_free(&prev);
	sc_nl_snap_free(&cur);
}
END_TEST

START_TEST(no_devices_no_time)
{
	struct sc_nl_snap prev = { .t = 5 }, cur = { .t = 5 };
	struct sc_stat_row *r;
	size_t n;

	ck_assert_int_eq(sc_stats_rows(&prev, &cur, &r, &n), 0);
	ck_assert_uint_eq(n, 0);
	free(r);
	/* no time passed: no rate rather than a division by zero */
	add_dev(&prev, "sda", "xdeadline", 0, names3, (const uint64_t[]){ 1, 1, 0 }, 3);
	add_dev(&cur, "sda", "xdeadline", 0, names3, (const uint64_t[]){ 2, 2, 0 }, 3);
	ck_assert_int_eq(sc_stats_rows(&prev, &cur, &r, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert(!r[0].has_rate);
	free(r);
	sc_nl_snap_free(&prev);
	sc_nl_snap_free(&cur);
}
END_TEST

START_TEST(gauges_and_rate_format)
{
	char buf[32];

	ck_assert(sc_stats_is_gauge("in_flight"));
	ck_assert(sc_stats_is_gauge("qd1_writes_in_flight"));
	ck_assert(sc_stats_is_gauge("qd1_max_in_flight"));
	ck_assert(sc_stats_is_gauge("congestion_pct"));
	ck_assert(sc_stats_is_gauge("parked"));
	ck_assert(!sc_stats_is_gauge("local_dispatched"));
	ck_assert(sc_stats_is_gauge("congested"));
	ck_assert(sc_stats_is_gauge("active_queues"));
	ck_assert(sc_stats_is_gauge("groups"));
	ck_assert(!sc_stats_is_gauge("group_moves"));
	ck_assert(!sc_stats_is_gauge("queues_created"));
	ck_assert(!sc_stats_is_gauge("dispatched"));
	ck_assert(!sc_stats_is_gauge("flight"));
	sc_stats_fmt_rate(1024, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1024.00");
	sc_stats_fmt_rate(1.0 / 3, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.33");
	sc_stats_fmt_rate(0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.00");
}
END_TEST

/* ---- metrics, parsed by prometheus_client --------------------------- */

/* Write the metrics of s, parse them with parse-metrics.py; its output. */
static const char *parsed(const struct sc_nl_snap *s, bool om)
{
	static char out[4096];
	const char *script = getenv("METRICS_PARSER");
	char path[] = "/tmp/schedctl-metrics.XXXXXX", *cmd;
	int fd = mkstemp(path);
	FILE *f, *p;
	size_t n;

	ck_assert_msg(script, "METRICS_PARSER must be set (make -C cli check)");
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sc_stats_metrics(s, om, f), 0);
	fclose(f);
	ck_assert_int_ge(asprintf(&cmd, "/usr/bin/python3 '%s' %s '%s'", script,
				  om ? "openmetrics" : "prometheus", path), 0);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	ck_assert_msg(pclose(p) == 0, "%s failed: %s", cmd, out);
	free(cmd);
	unlink(path);
	return out;
}

START_TEST(metrics_parse)
{
	static const char *const xb[] = { "dispatched", "weird-name.x", "in_flight" };
	struct sc_nl_snap cur = { .t = 1 }, none = { .t = 1 };
	const char *want =
		"schedctl_dispatched counter schedctl_dispatched_total "
		"device=nullb0,major=252,minor=0,scheduler=xdeadline 1024\n"
		"schedctl_dispatched counter schedctl_dispatched_total "
		"device=nullb1,major=252,minor=1,scheduler=xbfq 7\n"
		"schedctl_completed counter schedctl_completed_total "
		"device=nullb0,major=252,minor=0,scheduler=xdeadline 1020\n"
		"schedctl_in_flight gauge schedctl_in_flight "
		"device=nullb0,major=252,minor=0,scheduler=xdeadline 4\n"
		"schedctl_in_flight gauge schedctl_in_flight "
		"device=nullb1,major=252,minor=1,scheduler=xbfq 2\n"
		"schedctl_weird_name_x counter schedctl_weird_name_x_total "
		"device=nullb1,major=252,minor=1,scheduler=xbfq 3\n";

	add_dev(&cur, "nullb0", "xdeadline", 0, names3, (const uint64_t[]){ 1024, 1020, 4 }, 3);
	add_dev(&cur, "nullb1", "xbfq", 1, xb, (const uint64_t[]){ 7, 3, 2 }, 3);
	ck_assert_str_eq(parsed(&cur, true), want);
	/* Debian's python3-prometheus-client, not one from pip. The Prometheus parser names a counter family with _total */
	ck_assert_ptr_nonnull(strstr(parsed(&cur, false), "schedctl_dispatched counter "
				     "schedctl_dispatched_total device=nullb0"));
	ck_assert_str_eq(parsed(&none, true), "");
	sc_nl_snap_free(&cur);
}
END_TEST

START_TEST(metrics_text)
{
	struct sc_nl_snap cur = { .t = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	add_dev(&cur, "a\"b", "xdeadline", 0, names3, (const uint64_t[]){ 1, 2, 3 }, 3);
	ck_assert_int_eq(sc_stats_metrics(&cur, true, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "# TYPE schedctl_dispatched counter\n"));
	ck_assert_ptr_nonnull(strstr(buf, "schedctl_dispatched_total{device=\"a\\\"b\",major=\"252\","
				     "minor=\"0\",scheduler=\"xdeadline\"} 1\n"));
	ck_assert_str_eq(buf + len - 6, "# EOF\n");
	free(buf);
	sc_nl_snap_free(&cur);
}
END_TEST

START_TEST(version_check)
{
	char err[256] = "";

	ck_assert_int_eq(sc_nl_check_version(SCHEDCTL_GENL_VERSION, false, err, sizeof(err)), 0);
	ck_assert_int_eq(sc_nl_check_version(SCHEDCTL_GENL_VERSION, true, err, sizeof(err)), 0);
	/* a newer kernel may still serve our requests, but its events... */
	ck_assert_int_eq(sc_nl_check_version(SCHEDCTL_GENL_VERSION + 1, false, err, sizeof(err)), 0);
	ck_assert_int_eq(sc_nl_check_version(SCHEDCTL_GENL_VERSION + 1, true, err, sizeof(err)),
			 -SC_NL_EVERSION);
	ck_assert_ptr_nonnull(strstr(err, "update schedctl"));
	/* an older kernel refuses our requests */
	ck_assert_int_eq(sc_nl_check_version(SCHEDCTL_GENL_VERSION - 1, false, err, sizeof(err)),
			 -SC_NL_EVERSION);
	ck_assert_ptr_nonnull(strstr(err, "older than"));
	ck_assert_ptr_nonnull(strstr(err, "kernel modules"));
}
END_TEST

/* ---- messages built as the kernel builds them ----------------------- */

static struct nl_msg *new_msg(uint8_t cmd, uint8_t version)
{
	struct nl_msg *m = nlmsg_alloc();

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(genlmsg_put(m, 0, 0, FAMILY, 0, 0, cmd, version));
	return m;
}

static void put_dev(struct nl_msg *m, const char *name, const char *sched)
{
	ck_assert_int_eq(nla_put_string(m, SCHEDCTL_A_DEV_NAME, name), 0);
	ck_assert_int_eq(nla_put_u32(m, SCHEDCTL_A_DEV_MAJOR, 252), 0);
	ck_assert_int_eq(nla_put_u32(m, SCHEDCTL_A_DEV_MINOR, 3), 0);
	ck_assert_int_eq(nla_put_string(m, SCHEDCTL_A_SCHED, sched), 0);
}

static void put_list(struct nl_msg *m, int type, const char *const *names,
		     const uint64_t *vals, size_t n)
{
	struct nlattr *list = nla_nest_start(m, type);

	ck_assert_ptr_nonnull(list);
	for (size_t i = 0; i < n; i++) {
		struct nlattr *e = nla_nest_start(m, SCHEDCTL_A_LIST_ENTRY);

		ck_assert_int_eq(nla_put_string(m, SCHEDCTL_A_ENTRY_NAME, names[i]), 0);
		ck_assert_int_eq(nla_put_u64(m, SCHEDCTL_A_ENTRY_VALUE, vals[i]), 0);
		nla_nest_end(m, e);
	}
	nla_nest_end(m, list);
}

START_TEST(parse_dev_message)
{
	static const char *const knobs[] = { "read_expire", "fifo_batch" };
	static const char *const counters[] = { "dispatched", "completed" };
	static const char *const states[] = { "zoned" };
	struct nl_msg *m = new_msg(SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION);
	struct sc_nl_dev d;
	struct nlattr *list, *e;

	put_dev(m, "nullb3", "xdeadline");
	put_list(m, SCHEDCTL_A_KNOBS, knobs, (const uint64_t[]){ 500, 16 }, 2);
	put_list(m, SCHEDCTL_A_COUNTERS, counters,
		 (const uint64_t[]){ 1ULL << 40, 7 }, 2);
	/* things a newer kernel may add are ignored (docs/netlink.md rule 6):
	 * an entry with an unknown attribute, an entry of an unknown kind, an
	 * entry without a value, an unknown top-level attribute */
	list = nla_nest_start(m, SCHEDCTL_A_STATES);
	e = nla_nest_start(m, SCHEDCTL_A_LIST_ENTRY);
	nla_put_string(m, SCHEDCTL_A_ENTRY_NAME, states[0]);
	nla_put_u64(m, SCHEDCTL_A_ENTRY_VALUE, 1);
	nla_put_u32(m, SCHEDCTL_A_ENTRY_MAX + 3, 9);
	nla_nest_end(m, e);
	e = nla_nest_start(m, SCHEDCTL_A_LIST_MAX + 1);
	nla_put_string(m, SCHEDCTL_A_ENTRY_NAME, "future");
	nla_put_u64(m, SCHEDCTL_A_ENTRY_VALUE, 2);
	nla_nest_end(m, e);
	e = nla_nest_start(m, SCHEDCTL_A_LIST_ENTRY);
	nla_put_string(m, SCHEDCTL_A_ENTRY_NAME, "novalue");
	nla_nest_end(m, e);
	nla_nest_end(m, list);
	nla_put_u32(m, SCHEDCTL_A_MAX + 7, 1);

	ck_assert_int_eq(sc_nl_parse_dev(nlmsg_hdr(m), &d), 0);
	ck_assert_str_eq(d.name, "nullb3");
	ck_assert_str_eq(d.sched, "xdeadline");
	ck_assert_uint_eq(d.major, 252);
	ck_assert_uint_eq(d.minor, 3);
	ck_assert_uint_eq(d.knobs.n, 2);
	ck_assert_str_eq(d.knobs.v[1].name, "fifo_batch");
	ck_assert_uint_eq(d.knobs.v[1].value, 16);
	ck_assert_uint_eq(d.counters.n, 2);
	ck_assert_str_eq(d.counters.v[0].name, "dispatched");
	ck_assert_uint_eq(d.counters.v[0].value, 1ULL << 40);
	ck_assert_uint_eq(d.states.n, 1);
	ck_assert_str_eq(d.states.v[0].name, "zoned");
	ck_assert_uint_eq(d.states.v[0].value, 1);
	sc_nl_dev_free(&d);
	nlmsg_free(m);

	/* no device name: refused */
	m = new_msg(SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION);
	nla_put_string(m, SCHEDCTL_A_SCHED, "xdeadline");
	ck_assert_int_ne(sc_nl_parse_dev(nlmsg_hdr(m), &d), 0);
	nlmsg_free(m);
	/* a mis-sized u32: refused by the policy */
	m = new_msg(SCHEDCTL_CMD_GET_DEV, SCHEDCTL_GENL_VERSION);
	nla_put_string(m, SCHEDCTL_A_DEV_NAME, "sda");
	nla_put_string(m, SCHEDCTL_A_SCHED, "xdeadline");
	nla_put_u8(m, SCHEDCTL_A_DEV_MAJOR, 8);
	ck_assert_int_ne(sc_nl_parse_dev(nlmsg_hdr(m), &d), 0);
	nlmsg_free(m);
}
END_TEST

static char *event_line(struct nl_msg *m, bool json)
{
	struct sc_nl_event ev;

	ck_assert_int_eq(sc_nl_parse_event(nlmsg_hdr(m), &ev), 0);
	nlmsg_free(m);
	return sc_event_format(&ev, json);
}

static void line_is(char *got, const char *want)
{
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, want);
	free(got);
}

static struct nl_msg *change_msg(uint8_t cmd, const char *name, uint64_t old, uint64_t new)
{
	bool knob = cmd == SCHEDCTL_CMD_KNOB_NTF;
	struct nl_msg *m = new_msg(cmd, SCHEDCTL_GENL_VERSION);

	put_dev(m, "nullb3", "xdeadline");
	nla_put_string(m, knob ? SCHEDCTL_A_KNOB_NAME : SCHEDCTL_A_STATE_NAME, name);
	nla_put_u64(m, knob ? SCHEDCTL_A_KNOB_OLD : SCHEDCTL_A_STATE_OLD, old);
	nla_put_u64(m, knob ? SCHEDCTL_A_KNOB_VALUE : SCHEDCTL_A_STATE_VALUE, new);
	return m;
}

START_TEST(events_text)
{
	struct nl_msg *m = new_msg(SCHEDCTL_CMD_ATTACH_NTF, SCHEDCTL_GENL_VERSION);
	struct sc_nl_event ev;
	char want[64];

	put_dev(m, "nullb3", "xdeadline");
	line_is(event_line(m, false), "attach nullb3 xdeadline");
	m = new_msg(SCHEDCTL_CMD_DETACH_NTF, SCHEDCTL_GENL_VERSION);
	put_dev(m, "nullb3", "xdeadline");
	line_is(event_line(m, false), "detach nullb3 xdeadline");
	line_is(event_line(change_msg(SCHEDCTL_CMD_KNOB_NTF, "fifo_batch", 16, 8), false),
		"knob nullb3 xdeadline fifo_batch 16 -> 8");
	line_is(event_line(change_msg(SCHEDCTL_CMD_STATE_NTF, "qd1_active", 0, 1), false),
		"state nullb3 xdeadline qd1_active 0 -> 1");
	/* a command newer than us: shown, not dropped (by its number, which
	 * moves with SCHEDCTL_CMD_MAX) */
	m = new_msg(SCHEDCTL_CMD_MAX + 2, SCHEDCTL_GENL_VERSION);
	put_dev(m, "nullb3", "xdeadline");
	snprintf(want, sizeof(want), "event%d nullb3 xdeadline", SCHEDCTL_CMD_MAX + 2);
	line_is(event_line(m, false), want);
	/* a knob event without its values is malformed */
	m = new_msg(SCHEDCTL_CMD_KNOB_NTF, SCHEDCTL_GENL_VERSION);
	put_dev(m, "nullb3", "xdeadline");
	nla_put_string(m, SCHEDCTL_A_KNOB_NAME, "fifo_batch");
	ck_assert_int_ne(sc_nl_parse_event(nlmsg_hdr(m), &ev), 0);
	nlmsg_free(m);
}
END_TEST

START_TEST(events_json)
{
	struct nl_msg *m = new_msg(SCHEDCTL_CMD_ATTACH_NTF, SCHEDCTL_GENL_VERSION);
	struct sc_nl_event ev = { .kind = SC_EV_DETACH, .dev = "we\"ird\\\n", .sched = "x" };

	put_dev(m, "nullb3", "xdeadline");
	line_is(event_line(m, true),
		"{\"event\":\"attach\",\"device\":\"nullb3\",\"major\":252,\"minor\":3,"
		"\"sched\":\"xdeadline\"}");
	line_is(event_line(change_msg(SCHEDCTL_CMD_KNOB_NTF, "read_expire", 500, 300), true),
		"{\"event\":\"knob\",\"device\":\"nullb3\",\"major\":252,\"minor\":3,"
		"\"sched\":\"xdeadline\",\"name\":\"read_expire\",\"old\":500,\"new\":300}");
	line_is(event_line(change_msg(SCHEDCTL_CMD_STATE_NTF, "qd1_active", 1, 0), true),
		"{\"event\":\"state\",\"device\":\"nullb3\",\"major\":252,\"minor\":3,"
		"\"sched\":\"xdeadline\",\"name\":\"qd1_active\",\"old\":1,\"new\":0}");
	/* escaping; no dev_t */
	line_is(sc_event_format(&ev, true),
		"{\"event\":\"detach\",\"device\":\"we\\\"ird\\\\\\u000a\",\"sched\":\"x\"}");
}
END_TEST

Suite *suite_stats(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("rates");
	TCase *tm = tcase_create("messages");

	tcase_add_test(tc, totals_without_prev);
	tcase_add_test(tc, rates_over_interval);
	tcase_add_test(tc, attach_reset_and_new_counter);
	tcase_add_test(tc, no_devices_no_time);
	tcase_add_test(tc, gauges_and_rate_format);
	tcase_add_test(tc, version_check);
	tcase_add_test(tc, metrics_parse);
	tcase_add_test(tc, metrics_text);
	suite_add_tcase(s, tc);
	tcase_add_test(tm, parse_dev_message);
	tcase_add_test(tm, events_text);
	tcase_add_test(tm, events_json);
	suite_add_tcase(s, tm);
	return s;
}
