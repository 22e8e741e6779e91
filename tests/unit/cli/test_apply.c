// SPDX-License-Identifier: GPL-2.0
/* Ordered apply, validation and rollback against a fake device tree. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <fcntl.h>
#include <unistd.h>

#include "apply.h"
#include "fake.h"
#include "sysfs.h"
#include "tests.h"

#define SCHED "/sys/block/sda/queue/scheduler"
#define KNOB(k) "/sys/block/sda/queue/iosched/" k
#define QUEUE(k) "/sys/block/sda/queue/" k

static struct sc_report rep;

static void setup(void)
{
	struct fake_disk sda = {
		.name = "sda", .sched = "none [mq-deadline] kyber", .rotational = 1, .hwq = 1,
		.driver = "sd", .subsystem = "scsi", .props = "ID_BUS=ata",
	};

	setenv("SCHEDCTL_FAST", "1", 1);
	fake_root();
	fake_disk(&sda);
	fake_schedulers();
	/* the current scheduler's knobs, one of them tuned */
	fake_put(KNOB("read_expire"), "123");
	fake_put(KNOB("write_expire"), "5000");
	fake_put(KNOB("fifo_batch"), "16");
	fake_put("/fake/modules/xdeadline-iosched", "");
	memset(&rep, 0, sizeof(rep));
}

static void teardown(void)
{
	sc_report_free(&rep);
	fake_cleanup();
}

#define REQ(...) ((const struct sc_req[]){ __VA_ARGS__ })
#define N(a) (sizeof(a) / sizeof((a)[0]))

static int apply(const struct sc_req *r, size_t n, unsigned int flags)
{
	sc_report_free(&rep);
	return sc_apply("sda", r, n, flags, &rep);
}

START_TEST(switch_with_autoload)
{
	const struct sc_req r[] = { { "scheduler", "xdeadline", NULL }, { "head_request", "1", NULL },
				    { "queue.nr_requests", "32", NULL } };

	ck_assert_int_eq(apply(r, N(r), 0), 0);
	ck_assert_str_eq(fake_get(SCHED), "none mq-deadline kyber [xdeadline]");
	ck_assert_str_eq(fake_get("/fake/loaded"), "xdeadline-iosched");
	ck_assert_str_eq(fake_get(KNOB("head_request")), "1");
	ck_assert_str_eq(fake_get(KNOB("read_expire")), "500");	/* reset by the switch */
	ck_assert_str_eq(fake_get(QUEUE("nr_requests")), "32");
	ck_assert_uint_eq(rep.n, 4);
	ck_assert_str_eq(rep.c[0].key, "module");
	ck_assert_str_eq(rep.c[1].key, "scheduler");
	ck_assert_str_eq(rep.c[1].old, "mq-deadline");
	ck_assert_str_eq(rep.c[2].key, "head_request");
	ck_assert_str_eq(rep.c[2].old, "0");
	ck_assert_str_eq(rep.c[3].old, "64");
	/* again: nothing to do */
	ck_assert_int_eq(apply(r, N(r), 0), 0);
	ck_assert_uint_eq(rep.n, 0);
}
END_TEST

START_TEST(fallback)
{
	const struct sc_req r[] = { { "scheduler", "adios, bfq, kyber", NULL } };

	ck_assert_int_eq(apply(r, N(r), 0), 0);
	ck_assert_str_eq(fake_get(SCHED), "none mq-deadline [kyber]");
	ck_assert_uint_eq(rep.nnotes, 3);
	ck_assert_str_eq(rep.notes[0], "scheduler adios: not available (no module adios-iosched)");
	ck_assert_str_eq(rep.notes[2], "scheduler kyber: fallback, earlier choices unavailable");
}
END_TEST

START_TEST(autoload_unknown_scheduler)
{
	const struct sc_req r[] = { { "scheduler", "adios, kyber", NULL } };

	/* a scheduler schedctl has no knob table for, loaded by alias */
	fake_put("/fake/modules/adios-iosched", "");
	fake_put(SCHED, "none [mq-deadline] kyber adiox");
	ck_assert_int_eq(apply(r, N(r), SC_DRY_RUN), 0);
	ck_assert_str_eq(rep.c[0].key, "module");	/* dry run: would load, would use */
	ck_assert_str_eq(rep.c[1].new, "adios");
	ck_assert_int_eq(apply(r, N(r), 0), 0);
	ck_assert_str_eq(fake_get("/fake/loaded"), "adios-iosched");
	ck_assert_str_eq(fake_get(SCHED), "none mq-deadline kyber adiox [adios]");
}
END_TEST

START_TEST(none_available)
{
	const struct sc_req r[] = { { "scheduler", "adios, bfq", NULL }, { "read_expire", "1", NULL } };

	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "sda: scheduler: none of \"adios, bfq\" is available "
				  "(offered: none [mq-deadline] kyber)");
	ck_assert_str_eq(fake_get(SCHED), "none [mq-deadline] kyber");
	ck_assert_str_eq(fake_get(KNOB("read_expire")), "123");
}
END_TEST

START_TEST(rollback_after_switch)
{
	const struct sc_req r[] = { { "scheduler", "xdeadline", NULL }, { "read_expire", "300", NULL },
				    { "head_request", "1", NULL } };

	fake_put("/fake/fail", KNOB("head_request") " EIO");
	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "sda: head_request: Input/output error (value \"1\"); "
				  "previous settings restored");
	/* the old scheduler, and its tuned knob as it was, not its default */
	ck_assert_str_eq(fake_get(SCHED), "none [mq-deadline] kyber xdeadline");
	ck_assert_str_eq(fake_get(KNOB("read_expire")), "123");
	ck_assert(!fake_exists(KNOB("head_request")));
	/* what was made is reported as rolled back, not as done */
	ck_assert_uint_eq(rep.n, 3);
	ck_assert_str_eq(rep.c[0].key, "module");
	ck_assert_int_eq(rep.c[0].state, SC_CH_DONE);	/* it stays loaded */
	ck_assert_str_eq(rep.c[1].key, "scheduler");
	ck_assert_int_eq(rep.c[1].state, SC_CH_UNDONE);
	ck_assert_str_eq(rep.c[2].key, "read_expire");
	ck_assert_int_eq(rep.c[2].state, SC_CH_UNDONE);
}
END_TEST

START_TEST(rollback_without_switch)
{
	const struct sc_req r[] = { { "read_expire", "300", NULL }, { "fifo_batch", "4", NULL },
				    { "queue.read_ahead_kb", "512", NULL }, { "queue.nr_requests", "8", NULL } };

	fake_put("/fake/fail", QUEUE("nr_requests") " EINVAL");
	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "sda: queue.nr_requests: Invalid argument (value \"8\"); "
				  "previous settings restored");
	ck_assert_str_eq(fake_get(KNOB("read_expire")), "123");
	ck_assert_str_eq(fake_get(KNOB("fifo_batch")), "16");
	ck_assert_str_eq(fake_get(QUEUE("read_ahead_kb")), "128");
	ck_assert_str_eq(fake_get(SCHED), "none [mq-deadline] kyber");
	ck_assert_uint_eq(rep.n, 3);
	for (size_t i = 0; i < rep.n; i++)
		ck_assert_int_eq(rep.c[i].state, SC_CH_UNDONE);
}
END_TEST

START_TEST(rollback_fails)
{
	const struct sc_req r[] = { { "read_expire", "300", NULL }, { "fifo_batch", "4", NULL } };

	/* read_expire: the write goes through, undoing it fails */
	fake_put("/fake/fail", KNOB("read_expire") " EPERM 1 1\n" KNOB("fifo_batch") " EIO");
	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_PARTIAL);
	ck_assert_str_eq(rep.err, "sda: fifo_batch: Input/output error (value \"4\"); "
				  "rollback of read_expire failed: Operation not permitted");
	ck_assert_str_eq(fake_get(KNOB("read_expire")), "300");
	ck_assert_uint_eq(rep.n, 1);
	ck_assert_str_eq(rep.c[0].key, "read_expire");
	ck_assert_int_eq(rep.c[0].state, SC_CH_KEPT);
}
END_TEST

START_TEST(values_normalised)
{
	const struct sc_req r[] = { { "read_expire", "+300", NULL }, { "fifo_batch", "0008", NULL },
				    { "write_expire", "5000", NULL } };

	ck_assert_int_eq(apply(r, N(r), 0), 0);
	ck_assert_str_eq(fake_get(KNOB("read_expire")), "300");
	ck_assert_str_eq(fake_get(KNOB("fifo_batch")), "8");
	ck_assert_uint_eq(rep.n, 2);
	ck_assert_str_eq(rep.c[0].new, "300");
	ck_assert_str_eq(rep.c[1].new, "8");
	ck_assert_int_eq(rep.c[1].state, SC_CH_DONE);
}
END_TEST

START_TEST(ebusy_retry)
{
	const struct sc_req r[] = { { "scheduler", "kyber", NULL } };

	fake_put("/fake/fail", SCHED " EBUSY 3");
	ck_assert_int_eq(apply(r, N(r), 0), 0);
	ck_assert_str_eq(fake_get(SCHED), "none mq-deadline [kyber]");
	ck_assert_str_eq(fake_get("/fake/fail"), SCHED " EBUSY 0");
}
END_TEST

START_TEST(ebusy_gives_up)
{
	const struct sc_req r[] = { { "scheduler", "kyber", NULL } };

	fake_put("/fake/fail", SCHED " EBUSY 100");
	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "sda: scheduler: Device or resource busy (value \"kyber\"); "
				  "still busy after 8 tries");
	ck_assert_str_eq(fake_get("/fake/fail"), SCHED " EBUSY 92");
	ck_assert_str_eq(fake_get(SCHED), "none [mq-deadline] kyber");
}
END_TEST

START_TEST(dry_run_writes_nothing)
{
	const struct sc_req r[] = { { "scheduler", "xdeadline", NULL }, { "head_request", "1", NULL },
				    { "queue.nr_requests", "32", NULL }, { "queue.read_ahead_kb", "128", NULL } };

	ck_assert_int_eq(apply(r, N(r), SC_DRY_RUN), 0);
	ck_assert_str_eq(fake_get(SCHED), "none [mq-deadline] kyber");
	ck_assert(!fake_exists("/fake/loaded"));
	ck_assert(!fake_exists("/run/schedctl"));
	ck_assert_str_eq(fake_get(QUEUE("nr_requests")), "64");
	ck_assert_uint_eq(rep.n, 4);	/* module, scheduler, head_request, nr_requests */
	ck_assert_str_eq(rep.c[0].new, "xdeadline-iosched");
	ck_assert_ptr_null(rep.c[2].old);	/* the new scheduler's default */
	ck_assert_str_eq(rep.c[3].key, "queue.nr_requests");
}
END_TEST

START_TEST(validation_before_writing)
{
	const struct sc_req unknown[] = { { "scheduler", "kyber", NULL }, { "read_expire", "1", NULL } };
	const struct sc_req bad[] = { { "queue.nr_requests", "8", NULL }, { "read_expire", "abc", NULL } };
	const struct sc_req twice[] = { { "fifo_batch", "1", NULL }, { "fifo_batch", "2", NULL } };
	const struct sc_req noq[] = { { "queue.max_sectors_kb", "64", NULL } };
	const struct sc_req other[] = { { "iosched.unknown_knob", "1", NULL } };

	ck_assert_int_eq(apply(unknown, 2, 0), SC_EXIT_USAGE);
	ck_assert_str_eq(rep.err, "sda: read_expire: not a knob of scheduler kyber");
	ck_assert_str_eq(fake_get(SCHED), "none [mq-deadline] kyber");
	ck_assert_int_eq(apply(bad, 2, 0), SC_EXIT_USAGE);
	ck_assert_str_eq(rep.err, "sda: read_expire: expected a decimal integer, got \"abc\"");
	ck_assert_str_eq(fake_get(QUEUE("nr_requests")), "64");
	ck_assert_int_eq(apply(twice, 2, 0), SC_EXIT_USAGE);
	ck_assert_str_eq(rep.err, "sda: fifo_batch given twice");
	ck_assert_int_eq(apply(noq, 1, 0), SC_EXIT_USAGE);
	ck_assert_str_eq(rep.err, "sda: queue.max_sectors_kb: this kernel or device has no queue/max_sectors_kb");
	ck_assert_int_eq(apply(other, 1, 0), SC_EXIT_USAGE);
	ck_assert_str_eq(rep.err, "sda: iosched.unknown_knob: not a knob of scheduler mq-deadline");
}
END_TEST

START_TEST(unknown_scheduler_knob_checked_after_switch)
{
	const struct sc_req r[] = { { "scheduler", "adios", NULL }, { "iosched.batch_limit", "x", NULL } };

	fake_put("/fake/modules/adios-iosched", "");
	fake_put("/fake/iosched/adios/batch_limit", "16");
	/* a numeric knob given a word: caught after the switch, rolled back */
	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "sda: iosched.batch_limit: expected a decimal integer, got \"x\"; "
				  "scheduler mq-deadline restored");
	ck_assert_str_eq(fake_get(SCHED), "none [mq-deadline] kyber adios");
	ck_assert_str_eq(fake_get(KNOB("read_expire")), "123");
}
END_TEST

START_TEST(known_knob_missing_after_switch)
{
	/* async_depth moved to queue/ in 7.0: the table says xdeadline has
	 * it, the running module does not */
	const struct sc_req r[] = { { "scheduler", "xdeadline", NULL }, { "async_depth", "4", NULL } };

	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "sda: async_depth: not a knob of scheduler xdeadline; "
				  "scheduler mq-deadline restored");
	ck_assert_str_eq(fake_get(SCHED), "none [mq-deadline] kyber xdeadline");
	ck_assert_str_eq(fake_get(KNOB("read_expire")), "123");
	ck_assert_int_eq(apply(r, N(r), SC_LENIENT), 0);
	ck_assert_str_eq(fake_get(SCHED), "none mq-deadline kyber [xdeadline]");
	ck_assert_str_eq(rep.notes[0], "async_depth: skipped: not a knob of xdeadline");
}
END_TEST

START_TEST(lenient_skips)
{
	const struct sc_req r[] = { { "scheduler", "mq-deadline", NULL }, { "head_request", "1", NULL },
				    { "zoned_qd1_writes", "1", NULL }, { "queue.wbt_lat_usec", "0", NULL },
				    { "fifo_batch", "8", NULL } };

	ck_assert_int_eq(apply(r, N(r), SC_LENIENT), 0);
	ck_assert_uint_eq(rep.n, 1);
	ck_assert_str_eq(rep.c[0].key, "fifo_batch");
	ck_assert_uint_eq(rep.nnotes, 3);
	ck_assert_str_eq(rep.notes[0], "head_request: skipped: not a knob of mq-deadline");
	ck_assert_str_eq(rep.notes[1], "zoned_qd1_writes: skipped: device is not zoned");
	ck_assert_str_eq(rep.notes[2], "queue.wbt_lat_usec: skipped: this kernel has no queue/wbt_lat_usec");
	ck_assert_uint_eq(rep.nskips, 3);
	ck_assert_str_eq(rep.skips[0].key, "head_request");
	ck_assert_str_eq(rep.skips[0].why, "not a knob of mq-deadline");
	ck_assert_str_eq(rep.skips[2].key, "queue.wbt_lat_usec");
}
END_TEST

START_TEST(zoned_knob_or_native)
{
	const struct sc_req r[] = { { "scheduler", "xdeadline", NULL }, { "zoned_qd1_writes", "1", NULL } };

	fake_put(QUEUE("zoned"), "host-managed");
	ck_assert_int_eq(apply(r, N(r), 0), 0);
	ck_assert_str_eq(fake_get(KNOB("zoned_qd1_writes")), "1");
	/* a 7.1+ kernel: the native attribute, the knob left alone */
	fake_put(QUEUE("zoned_qd1_writes"), "0");
	fake_put(KNOB("zoned_qd1_writes"), "0");
	ck_assert_int_eq(apply(r, N(r), 0), 0);
	ck_assert_str_eq(fake_get(QUEUE("zoned_qd1_writes")), "1");
	ck_assert_str_eq(fake_get(KNOB("zoned_qd1_writes")), "0");
	ck_assert_str_eq(rep.notes[0], "zoned_qd1_writes: using the native queue/zoned_qd1_writes");
}
END_TEST

START_TEST(strict_not_zoned)
{
	const struct sc_req r[] = { { "zoned_qd1_writes", "1", NULL } };

	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_USAGE);
	ck_assert_str_eq(rep.err, "sda: zoned_qd1_writes: device is not zoned");
}
END_TEST

START_TEST(device_went_away)
{
	const struct sc_req r[] = { { "read_expire", "300", NULL }, { "fifo_batch", "4", NULL } };

	fake_put("/fake/fail", KNOB("fifo_batch") " GONE");
	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "device sda went away");
	ck_assert(!fake_exists("/sys/block/sda"));
	/* and before starting */
	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "device sda went away");
}
END_TEST

START_TEST(no_scheduler)
{
	const struct sc_req r[] = { { "scheduler", "mq-deadline", NULL }, { "queue.read_ahead_kb", "4096", NULL } };

	fake_put(SCHED, "none");
	ck_assert_int_eq(apply(r, N(r), 0), SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "sda: scheduler: device has no I/O scheduler (bio-based)");
	ck_assert_int_eq(apply(r, N(r), SC_LENIENT), 0);
	ck_assert_str_eq(fake_get(QUEUE("read_ahead_kb")), "4096");
}
END_TEST

START_TEST(locked)
{
	const struct sc_req r[] = { { "fifo_batch", "4", NULL } };
	char path[4096];
	int fd, r2;

	snprintf(path, sizeof(path), "%s/run/schedctl", sc_io_root());
	fake_put("/run/schedctl/sda.lock", "");
	snprintf(path, sizeof(path), "%s/run/schedctl/sda.lock", sc_io_root());
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(flock(fd, LOCK_EX), 0);
	sc_lock_timeout_ms = 50;
	r2 = apply(r, N(r), 0);
	close(fd);
	ck_assert_int_eq(r2, SC_EXIT_FAIL);
	ck_assert_str_eq(rep.err, "sda: lock /run/schedctl/sda.lock: another schedctl holds it");
	ck_assert_str_eq(fake_get(KNOB("fifo_batch")), "16");
	ck_assert_int_eq(apply(r, N(r), 0), 0);
	ck_assert_str_eq(fake_get(KNOB("fifo_batch")), "4");
}
END_TEST

Suite *suite_apply(void)
{
	Suite *s = suite_create("apply");
	TCase *tc = tcase_create("fake tree");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, switch_with_autoload);
	tcase_add_test(tc, fallback);
	tcase_add_test(tc, autoload_unknown_scheduler);
	tcase_add_test(tc, none_available);
	tcase_add_test(tc, rollback_after_switch);
	tcase_add_test(tc, rollback_without_switch);
	tcase_add_test(tc, rollback_fails);
	tcase_add_test(tc, values_normalised);
	tcase_add_test(tc, ebusy_retry);
	tcase_add_test(tc, ebusy_gives_up);
	tcase_add_test(tc, dry_run_writes_nothing);
	tcase_add_test(tc, validation_before_writing);
	tcase_add_test(tc, unknown_scheduler_knob_checked_after_switch);
	tcase_add_test(tc, known_knob_missing_after_switch);
	tcase_add_test(tc, lenient_skips);
	tcase_add_test(tc, zoned_knob_or_native);
	tcase_add_test(tc, strict_not_zoned);
	tcase_add_test(tc, device_went_away);
	tcase_add_test(tc, no_scheduler);
	tcase_add_test(tc, locked);
	suite_add_tcase(s, tc);
	return s;
}
