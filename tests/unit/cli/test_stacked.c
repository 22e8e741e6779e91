// SPDX-License-Identifier: GPL-2.0
/* Applying to a stacked device applies to its member disks; warnings about
 * other writers of queue/scheduler. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "device.h"
#include "fake.h"
#include "sysfs.h"
#include "tests.h"

static char polfile[4096];
static char out[65536], err[65536];

static void setup(void)
{
	struct fake_disk sda = {
		.name = "sda", .sched = "none [mq-deadline] kyber", .rotational = 1, .hwq = 1,
		.driver = "sd", .subsystem = "scsi", .props = "ID_BUS=ata",
	};
	struct fake_disk sdb = {
		.name = "sdb", .sched = "[none] mq-deadline kyber", .rotational = 0, .hwq = 1,
		.driver = "sd", .subsystem = "scsi", .props = "ID_BUS=ata",
	};
	struct fake_disk dm = { .name = "dm-0", .sched = "none", .major = 253 };
	const char *root;

	setenv("SCHEDCTL_FAST", "1", 1);
	root = fake_root();
	fake_disk(&sda);
	fake_disk(&sdb);
	fake_disk(&dm);
	fake_schedulers();
	fake_put("/sys/block/dm-0/dm/uuid", "LVM-xyz");
	fake_put("/sys/block/sda/sda1/partition", "1");
	fake_symlink("../../block/sda/sda1", "/sys/class/block/sda1");
	fake_put("/sys/block/sda/sda2/partition", "2");
	fake_symlink("../../block/sda/sda2", "/sys/class/block/sda2");
	fake_symlink("../../sda/sda1", "/sys/block/dm-0/slaves/sda1");
	fake_symlink("../../sda/sda2", "/sys/block/dm-0/slaves/sda2");
	fake_symlink("../../sdb", "/sys/block/dm-0/slaves/sdb");
	fake_put("/pol/p.conf", "[class:hdd]\nscheduler = kyber\n"
				"[class:ssd]\nqueue.read_ahead_kb = 512\n");
	snprintf(polfile, sizeof(polfile), "%s/pol/p.conf", root);
}

static void teardown(void)
{
	fake_cleanup();
}

/* Run a command with stdout and stderr in out[] and err[]. */
static int run(int (*cmd)(int, char **), int argc, char **argv)
{
	return fake_run(cmd, argc, argv, out, sizeof(out), err, sizeof(err));
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

#define HAS(buf, s) ck_assert_msg(strstr(buf, s), "no \"%s\" in:\n%s", s, buf)

START_TEST(members)
{
	char **v;
	size_t n;

	ck_assert_int_eq(sc_device_members("dm-0", &v, &n), 0);
	ck_assert_uint_eq(n, 2);	/* sda1 and sda2 are one disk */
	ck_assert_str_eq(v[0], "sda");
	ck_assert_str_eq(v[1], "sdb");
	sc_strv_free(v, n);
	ck_assert_int_eq(sc_device_members("sda", &v, &n), 0);
	ck_assert_uint_eq(n, 0);
	sc_strv_free(v, n);
}
END_TEST

START_TEST(members_nested)
{
	struct fake_disk md = { .name = "md0", .sched = "none", .major = 9 };
	char **v;
	size_t n;

	fake_disk(&md);
	fake_symlink("../../dm-0", "/sys/block/md0/slaves/dm-0");
	fake_symlink("../../sdb", "/sys/block/md0/slaves/sdb");
	ck_assert_int_eq(sc_device_members("md0", &v, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(v[0], "sda");
	ck_assert_str_eq(v[1], "sdb");
	sc_strv_free(v, n);
}
END_TEST

START_TEST(apply_propagates)
{
	char *argv[] = { "apply", "-c", polfile, "dm-0", NULL };

	ck_assert_int_eq(run(cmd_apply, 4, argv), 0);
	HAS(out, "dm-0: no I/O scheduler; scheduling happens on sda, sdb");
	HAS(out, "sda: scheduler: mq-deadline -> kyber");
	HAS(out, "sdb: queue.read_ahead_kb: 128 -> 512");
	ck_assert_int_eq(count(out, "sda: scheduler"), 1);
	ck_assert_ptr_nonnull(strstr(fake_get("/sys/block/sda/queue/scheduler"), "[kyber]"));
	ck_assert_str_eq(fake_get("/sys/block/sdb/queue/read_ahead_kb"), "512");
	ck_assert_str_eq(fake_get("/sys/block/sdb/queue/scheduler"), "[none] mq-deadline kyber");
}
END_TEST

START_TEST(apply_propagates_dry_run)
{
	char *argv[] = { "apply", "--dry-run", "-c", polfile, "dm-0", NULL };

	ck_assert_int_eq(run(cmd_apply, 5, argv), 0);
	HAS(out, "dm-0: no I/O scheduler; scheduling happens on sda, sdb");
	HAS(out, "sda: would set scheduler: mq-deadline -> kyber");
	HAS(out, "sdb: would set queue.read_ahead_kb: 128 -> 512");
	ck_assert_str_eq(fake_get("/sys/block/sda/queue/scheduler"), "none [mq-deadline] kyber");
	ck_assert_str_eq(fake_get("/sys/block/sdb/queue/read_ahead_kb"), "128");
	ck_assert_str_eq(err, "");	/* clean tree: no warnings */
}
END_TEST

START_TEST(apply_all_once)
{
	char *argv[] = { "apply", "-c", polfile, NULL };
	char *again[] = { "apply", "-c", polfile, "dm-0", "sda", "sdb", NULL };

	ck_assert_int_eq(run(cmd_apply, 3, argv), 0);
	HAS(out, "scheduling happens on sda, sdb");
	ck_assert_int_eq(count(out, "sda: scheduler: mq-deadline -> kyber"), 1);
	ck_assert_int_eq(count(out, "sda: "), 1);
	ck_assert_int_eq(count(out, "sdb: "), 1);
	ck_assert_ptr_nonnull(strstr(fake_get("/sys/block/sda/queue/scheduler"), "[kyber]"));
	ck_assert_int_eq(run(cmd_apply, 6, again), 0);
	ck_assert_int_eq(count(out, "sda: unchanged"), 1);
	ck_assert_int_eq(count(out, "sdb: unchanged"), 1);
}
END_TEST

static size_t conflicts(char ***v)
{
	size_t n;

	ck_assert_int_eq(sc_conflicts(v, &n), 0);
	return n;
}

START_TEST(conflicts_clean)
{
	char **v;

	fake_put("/usr/lib/udev/rules.d/60-schedctl.rules",
		 "ACTION==\"add\", ATTR{queue/scheduler}=\"x\"\n");
	fake_put("/etc/udev/rules.d/70-other.rules",
		 "# ATTR{queue/scheduler}=\"bfq\"\nKERNEL==\"sd*\", ATTR{queue/rotational}=\"0\"\n");
	fake_put("/etc/tlp.conf", "#DISK_IOSCHED=\"bfq\"\nTLP_ENABLE=1\n");
	fake_put("/usr/lib/tuned/balanced/tuned.conf", "[cpu]\ngovernor=x\n");
	fake_put("/etc/tuned/active_profile", "balanced\n");
	ck_assert_uint_eq(conflicts(&v), 0);
	sc_strv_free(v, 0);
}
END_TEST

START_TEST(conflicts_udev)
{
	char **v;
	size_t n;

	fake_put("/etc/udev/rules.d/60-ioschedulers.rules",
		 "# set it\n\nACTION==\"add\", ATTR{queue/scheduler}=\"bfq\"\n");
	fake_put("/lib/udev/rules.d/61-x.rules", "ATTR{queue/scheduler}=\"kyber\"\n");
	fake_put("/usr/lib/udev/rules.d/60-ioschedulers.rules",	/* masked by /etc */
		 "ATTR{queue/scheduler}=\"bfq\"\n");
	fake_put("/lib/udev/rules.d/README", "queue/scheduler\n");
	n = conflicts(&v);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(v[0], "udev rule also sets queue/scheduler "
			       "(/etc/udev/rules.d/60-ioschedulers.rules:3)");
	ck_assert_str_eq(v[1], "udev rule also sets queue/scheduler (/lib/udev/rules.d/61-x.rules:1)");
	sc_strv_free(v, n);
}
END_TEST

START_TEST(conflicts_tuned)
{
	char **v;
	size_t n;

	fake_put("/etc/tuned/active_profile", "throughput-performance\n");
	fake_put("/usr/lib/tuned/throughput-performance/tuned.conf",
		 "[main]\nsummary=x\n[disk]\n# comment\nelevator = mq-deadline\n");
	n = conflicts(&v);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(v[0], "tuned profile throughput-performance also sets queue/scheduler "
			       "(/usr/lib/tuned/throughput-performance/tuned.conf:5)");
	sc_strv_free(v, n);
	fake_put("/etc/tuned/active_profile", "mine\n");	/* no tuned.conf to read */
	n = conflicts(&v);
	ck_assert_uint_eq(n, 1);
	HAS(v[0], "tuned profile mine is active");
	sc_strv_free(v, n);
}
END_TEST

START_TEST(conflicts_tlp_saptune)
{
	char **v;
	size_t n;

	fake_put("/etc/tlp.conf", "TLP_ENABLE=1\n  DISK_IOSCHED=\"bfq bfq\"\n");
	fake_put("/etc/tlp.d/10-x.conf", "#DISK_IOSCHED=\"none\"\nDISK_IOSCHED=\"mq-deadline\"\n");
	fake_put("/etc/sysconfig/saptune", "TUNE_FOR_SOLUTIONS=\"HANA\"\n");
	fake_put("/var/lib/saptune/saved_state/1680701", "x");
	n = conflicts(&v);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(v[0], "TLP also sets queue/scheduler (/etc/tlp.conf:2)");
	ck_assert_str_eq(v[1], "TLP also sets queue/scheduler (/etc/tlp.d/10-x.conf:2)");
	ck_assert_str_eq(v[2], "saptune also sets queue/scheduler (/etc/sysconfig/saptune)");
	ck_assert_str_eq(v[3], "saptune also sets queue/scheduler (/var/lib/saptune/saved_state)");
	sc_strv_free(v, n);
}
END_TEST

START_TEST(conflicts_where_shown)
{
	char *dry[] = { "apply", "--dry-run", "-c", polfile, "sda", NULL };
	char *udev[] = { "apply", "--dry-run", "--udev", "-c", polfile, "sda", NULL };
	char *cls[] = { "classify", "-c", polfile, "sda", NULL };
	char *list[] = { "list", NULL };
	const char *w = "schedctl: warning: TLP also sets queue/scheduler (/etc/tlp.conf:1)";

	fake_put("/etc/tlp.conf", "DISK_IOSCHED=\"bfq\"\n");
	ck_assert_int_eq(run(cmd_apply, 5, dry), 0);
	HAS(err, w);
	ck_assert_int_eq(count(err, "warning:"), 1);
	ck_assert_int_eq(run(cmd_classify, 4, cls), 0);
	HAS(err, w);
	ck_assert_int_eq(count(err, "warning:"), 1);
	ck_assert_int_eq(run(cmd_list, 1, list), 0);
	ck_assert_ptr_null(strstr(err, "warning"));
	setenv("DEVNAME", "/dev/sda", 1);
	ck_assert_int_eq(run(cmd_apply, 6, udev), 0);
	ck_assert_ptr_null(strstr(err, "warning"));
}
END_TEST

Suite *suite_stacked(void)
{
	Suite *s = suite_create("stacked");
	TCase *tc = tcase_create("stacked");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, members);
	tcase_add_test(tc, members_nested);
	tcase_add_test(tc, apply_propagates);
	tcase_add_test(tc, apply_propagates_dry_run);
	tcase_add_test(tc, apply_all_once);
	tcase_add_test(tc, conflicts_clean);
	tcase_add_test(tc, conflicts_udev);
	tcase_add_test(tc, conflicts_tuned);
	tcase_add_test(tc, conflicts_tlp_saptune);
	tcase_add_test(tc, conflicts_where_shown);
	suite_add_tcase(s, tc);
	return s;
}
