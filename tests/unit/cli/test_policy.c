// SPDX-License-Identifier: GPL-2.0
/* Policy files: the parser, every error with file:line, precedence across
 * files, and matching. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <ini.h>

#include "fake.h"
#include "keys.h"
#include "policy.h"
#include "sysfs.h"
#include "tests.h"

static char err[1024];

static int parse(struct sc_policy *p, const char *text)
{
	memset(p, 0, sizeof(*p));
	err[0] = '\0';
	return sc_policy_parse(p, "t.conf", text, err, sizeof(err));
}

/* text must fail with exactly this message */
static void bad(const char *text, const char *msg)
{
	struct sc_policy p;

	ck_assert_int_ne(parse(&p, text), 0);
	ck_assert_str_eq(err, msg);
	sc_policy_free(&p);
}

START_TEST(valid_file)
{
	struct sc_policy p;

	ck_assert_int_eq(parse(&p, "# comment\n; also\n\n[default]\nscheduler = mq-deadline\n"
				   "[class:hdd]\n  scheduler=xdeadline ,mq-deadline  \nhead_request = 1\n"
				   "queue.read_ahead_kb = 1024\n[model:ST8000*]\nread_expire = 250\n"
				   "[id:ata-X]\niosched.some_knob = fast\n"), 0);
	ck_assert_uint_eq(p.n, 4);
	ck_assert_int_eq(p.s[0].kind, SC_SECT_DEFAULT);
	ck_assert_ptr_null(p.s[0].pattern);
	ck_assert_int_eq(p.s[1].kind, SC_SECT_CLASS);
	ck_assert_str_eq(p.s[1].pattern, "hdd");
	ck_assert_int_eq(p.s[1].line, 6);
	ck_assert_uint_eq(p.s[1].n, 3);
	ck_assert_str_eq(p.s[1].e[0].value, "xdeadline ,mq-deadline");
	ck_assert_int_eq(p.s[1].e[1].line, 8);
	ck_assert_str_eq(p.s[2].name, "model:ST8000*");
	ck_assert_str_eq(p.s[3].e[0].key, "iosched.some_knob");
	sc_policy_free(&p);
}
END_TEST

START_TEST(odd_input)
{
	struct sc_policy p;
	char *longv;

	ck_assert_int_eq(parse(&p, ""), 0);
	ck_assert_uint_eq(p.n, 0);
	sc_policy_free(&p);
	ck_assert_int_eq(parse(&p, "   \n\t\n# only comments\n"), 0);
	ck_assert_uint_eq(p.n, 0);
	sc_policy_free(&p);
	/* CRLF, no final newline, a header repeated in the same file */
	ck_assert_int_eq(parse(&p, "[class:ssd]\r\nscheduler = none\r\n[default]\r\n"
				   "[class:ssd]\r\nfifo_batch = 8"), 0);
	ck_assert_uint_eq(p.n, 2);
	ck_assert_uint_eq(p.s[0].n, 2);
	ck_assert_str_eq(p.s[0].e[0].value, "none");
	ck_assert_str_eq(p.s[0].e[1].value, "8");
	sc_policy_free(&p);
	/* exactly SC_LINE_MAX is fine */
	longv = malloc(SC_LINE_MAX + 64);
	snprintf(longv, SC_LINE_MAX + 64, "[default]\n#%0*d\n", SC_LINE_MAX - 1, 0);
	ck_assert_int_eq(parse(&p, longv), 0);
	sc_policy_free(&p);
	snprintf(longv, SC_LINE_MAX + 64, "[default]\n#%0*d\n", SC_LINE_MAX, 0);
	ck_assert_int_ne(parse(&p, longv), 0);
	ck_assert_str_eq(err, "t.conf:2: line longer than 4096 bytes");
	sc_policy_free(&p);
	free(longv);
}
END_TEST

START_TEST(errors)
{
	bad("[class:hdd\nscheduler = none\n", "t.conf:1: expected \"]\" at the end of the section header");
	bad("\n[disk:sda]\n", "t.conf:2: unknown section kind \"disk\" (expected default, class, model, serial, wwn or id)");
	bad("[hdd]\n", "t.conf:1: expected [default] or [KIND:PATTERN] with KIND one of class, model, serial, wwn, id; got [hdd]");
	bad("[class:floppy]\n", "t.conf:1: unknown class \"floppy\" (expected one of stacked, multipath, virtual, usb, smr, zns, hdd, nvme, nvme-sq, ssd)");
	bad("[model:]\n", "t.conf:1: empty pattern in [model:]");
	bad("[default]\nscheduler xdeadline\n", "t.conf:2: expected \"key = value\" or \"[section]\", got \"scheduler xdeadline\"");
	bad("scheduler = none\n", "t.conf:1: \"scheduler\" outside a section (start with [default] or [class:...])");
	bad("[default]\n = 1\n", "t.conf:2: missing key before \"=\"");
	bad("[default]\nbogus = 1\n", "t.conf:2: unknown key \"bogus\" (expected scheduler, a knob name, iosched.KNOB or queue.ATTR)");
	bad("[default]\nqueue.bogus = 1\n", "t.conf:2: unknown queue attribute \"bogus\"");
	bad("[default]\nread_expire =\n", "t.conf:2: read_expire: expected a value after \"=\"");
	bad("[default]\nread_expire = abc\n", "t.conf:2: read_expire: expected a decimal integer, got \"abc\"");
	bad("[default]\nhead_request = 2\n", "t.conf:2: head_request: value 2 out of range 0..1");
	bad("[default]\nqueue.nr_requests = 0\n", "t.conf:2: queue.nr_requests: value 0 out of range 1..2147483647");
	bad("[default]\nscheduler = a,,b\n", "t.conf:2: scheduler: expected a scheduler name or a list \"a, b\", got \"a,,b\"");
	bad("[default]\nscheduler = Deadline\n", "t.conf:2: scheduler: bad scheduler name \"Deadline\" (expected names like mq-deadline, separated by commas)");
	bad("[default]\nfifo_batch = 1\n\n[class:hdd]\n[default]\nfifo_batch = 2\n",
	    "t.conf:6: duplicate key \"fifo_batch\" in [default] (first set at line 2)");
	bad("[default]\niosched.bad-name = 1\n", "t.conf:2: bad knob name \"bad-name\"");
	bad("[default]\niosched.x = a b\n", "t.conf:2: iosched.x: value \"a b\" has whitespace or control characters");
}
END_TEST

/* Where inih (the line parser) has its own ideas: what we take from it,
 * what the reader in policy.c keeps as it was. */
START_TEST(inih_edges)
{
	struct sc_policy p;
	char line[512];
	int max = INI_MAX_LINE - 2;	/* a key line, '\n' and '\0' fit inih's buffer */

	/* inline comments after " ;"; a ";" without a blank before is data */
	ck_assert_int_eq(parse(&p, "[default]\nread_expire = 250 ; ms\nscheduler = none\t;x\n"
				   "iosched.x = a;b\n"), 0);
	ck_assert_str_eq(p.s[0].e[0].value, "250");
	ck_assert_str_eq(p.s[0].e[1].value, "none");
	ck_assert_str_eq(p.s[0].e[2].value, "a;b");
	sc_policy_free(&p);
	bad("[default]\nfifo_batch = 8;x\n", "t.conf:2: fifo_batch: expected a decimal integer, got \"8;x\"");
	bad("[default]\nfifo_batch = ; none\n", "t.conf:2: fifo_batch: expected a value after \"=\"");
	/* "#" is not an inline comment */
	bad("[default]\nfifo_batch = 8 # x\n", "t.conf:2: fifo_batch: expected a decimal integer, got \"8 # x\"");
	/* a header is the whole line */
	bad("[default] ; x\n", "t.conf:1: expected \"]\" at the end of the section header");
	/* a UTF-8 BOM at the start of a file only */
	ck_assert_int_eq(parse(&p, "\xef\xbb\xbf[default]\nfifo_batch = 1\n"), 0);
	ck_assert_uint_eq(p.s[0].n, 1);
	sc_policy_free(&p);
	bad("[default]\n\xef\xbb\xbf" "fifo_batch = 1\n",
	    "t.conf:2: unknown key \"\xef\xbb\xbf" "fifo_batch\" (expected scheduler, a knob name, iosched.KNOB or queue.ATTR)");
	/* an indented line is a key of its own, not inih's continuation */
	ck_assert_int_eq(parse(&p, "[default]\nscheduler = none\n    fifo_batch = 8\n"), 0);
	ck_assert_uint_eq(p.s[0].n, 2);
	ck_assert_str_eq(p.s[0].e[0].value, "none");
	ck_assert_str_eq(p.s[0].e[1].key, "fifo_batch");
	ck_assert_int_eq(p.s[0].e[1].line, 3);
	sc_policy_free(&p);
	/* no "key: value"; "=" in a value is data */
	bad("[default]\nscheduler: none\n", "t.conf:2: expected \"key = value\" or \"[section]\", got \"scheduler: none\"");
	bad("[default]\nqueue.a:b = 1\n", "t.conf:2: unknown queue attribute \"a:b\"");
	bad("x:y = 1\n", "t.conf:1: \"x:y\" outside a section (start with [default] or [class:...])");
	ck_assert_int_eq(parse(&p, "[default]\niosched.x = a=b:c\n"), 0);
	ck_assert_str_eq(p.s[0].e[0].value, "a=b:c");
	sc_policy_free(&p);
	/* the first error wins, also one inih finds; the last line without
	 * a newline */
	bad("[default]\nnothing here\nbogus = 1\n", "t.conf:2: expected \"key = value\" or \"[section]\", got \"nothing here\"");
	bad("[default]\nfifo_batch = 1\nscheduler", "t.conf:3: expected \"key = value\" or \"[section]\", got \"scheduler\"");
	/* section names are not cut at inih's 50 bytes */
	ck_assert_int_eq(parse(&p, "[id:nvme-Samsung_SSD_970_EVO_Plus_1TB_S4EWNX0N123456X_1-part9999]\n"
				   "fifo_batch = 1\n"), 0);
	ck_assert_str_eq(p.s[0].name, "id:nvme-Samsung_SSD_970_EVO_Plus_1TB_S4EWNX0N123456X_1-part9999");
	ck_assert_uint_eq(p.s[0].n, 1);
	sc_policy_free(&p);
	/* key lines fit inih's line buffer; white space at the ends is free */
	snprintf(line, sizeof(line), "[default]\n  iosched.x = %0*d  \n", max - 12, 0);
	ck_assert_int_eq(parse(&p, line), 0);
	ck_assert_uint_eq(strlen(p.s[0].e[0].value), (size_t)max - 12);
	sc_policy_free(&p);
	snprintf(line, sizeof(line), "[default]\niosched.x = %0*d\n", max - 11, 0);
	snprintf(err, sizeof(err), "t.conf:2: \"key = value\" line longer than %d bytes", max);
	{
		char want[sizeof(err)];

		memcpy(want, err, sizeof(want));
		bad(line, want);
	}
}
END_TEST

static void disk(struct sc_device *d, const char *model, const char *serial, const char *id)
{
	memset(d, 0, sizeof(*d));
	strcpy(d->name, "sda");
	d->model = model ? strdup(model) : NULL;
	d->serial = serial ? strdup(serial) : NULL;
	if (id) {
		d->ids = calloc(1, sizeof(char *));
		d->ids[0] = strdup(id);
		d->nids = 1;
	}
}

static const char *val(const struct sc_resolved *r, const char *key, const char **from)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->set[i].key, key)) {
			if (from)
				*from = r->set[i].from->name;
			return r->set[i].value;
		}
	return NULL;
}

START_TEST(matching)
{
	struct sc_policy p;
	struct sc_resolved r;
	struct sc_device d;
	const char *from;
	char *name;

	/* written least specific last on purpose: file order must not matter
	 * across ranks */
	ck_assert_int_eq(parse(&p, "[id:ata-ST8000_ZA1]\nread_expire = 100\n"
				   "[model:ST8000*]\nread_expire = 200\nfifo_batch = 4\n"
				   "[class:hdd]\nscheduler = xdeadline\nread_expire = 300\nfifo_batch = 8\nhead_request = 1\n"
				   "[class:s?d]\nwrite_expire = 1\n"
				   "[serial:ZA*]\nwrites_starved = 3\n"
				   "[default]\nscheduler = mq-deadline\nfront_merges = 0\n"), 0);
	disk(&d, "ST8000DM004", "ZA1", "ata-ST8000_ZA1");
	ck_assert_int_eq(sc_policy_resolve(&p, &d, "hdd", &r), 0);
	ck_assert_str_eq(r.set[0].key, "scheduler");	/* always first */
	ck_assert_str_eq(val(&r, "scheduler", &from), "xdeadline");
	ck_assert_str_eq(from, "class:hdd");
	ck_assert_str_eq(val(&r, "read_expire", &from), "100");
	ck_assert_str_eq(from, "id:ata-ST8000_ZA1");
	ck_assert_str_eq(val(&r, "fifo_batch", &from), "4");
	ck_assert_str_eq(from, "model:ST8000*");
	ck_assert_str_eq(val(&r, "head_request", NULL), "1");
	ck_assert_str_eq(val(&r, "front_merges", NULL), "0");
	ck_assert_str_eq(val(&r, "writes_starved", NULL), "3");
	ck_assert_ptr_null(val(&r, "write_expire", NULL));
	name = sc_resolved_name(&r);
	ck_assert_str_eq(name, "serial:ZA*+id:ata-ST8000_ZA1+model:ST8000*+class:hdd+default");
	free(name);
	sc_resolved_free(&r);
	sc_device_free(&d);

	/* another model, an ssd: the class glob and default only */
	disk(&d, "Samsung SSD 870", NULL, NULL);
	ck_assert_int_eq(sc_policy_resolve(&p, &d, "ssd", &r), 0);
	ck_assert_str_eq(val(&r, "scheduler", NULL), "mq-deadline");
	ck_assert_str_eq(val(&r, "write_expire", &from), "1");
	ck_assert_str_eq(from, "class:s?d");
	ck_assert_ptr_null(val(&r, "read_expire", NULL));
	sc_resolved_free(&r);
	sc_device_free(&d);
	sc_policy_free(&p);
}
END_TEST

START_TEST(same_rank_later_wins)
{
	struct sc_policy p;
	struct sc_resolved r;
	struct sc_device d;

	ck_assert_int_eq(parse(&p, "[class:hdd]\nread_expire = 1\n[class:*]\nread_expire = 2\n"), 0);
	disk(&d, NULL, NULL, NULL);
	ck_assert_int_eq(sc_policy_resolve(&p, &d, "hdd", &r), 0);
	ck_assert_str_eq(val(&r, "read_expire", NULL), "2");
	ck_assert_uint_eq(r.nwon, 1);
	ck_assert_uint_eq(r.nmatched, 2);
	sc_resolved_free(&r);
	sc_device_free(&d);
	sc_policy_free(&p);
}
END_TEST

static void setup_root(void)
{
	fake_root();
}

START_TEST(precedence)
{
	struct sc_policy p;
	struct sc_resolved r;
	struct sc_device d;
	const char *from;

	fake_put("/usr/lib/schedctl/schedctl.conf",
		 "[class:hdd]\nscheduler = xdeadline\nread_expire = 1\nwrite_expire = 1\nfifo_batch = 1");
	fake_put("/etc/schedctl.conf", "[class:hdd]\nread_expire = 2");
	fake_put("/usr/lib/schedctl/schedctl.d/10-a.conf", "[class:hdd]\nwrite_expire = 3\nwrites_starved = 3");
	fake_put("/usr/lib/schedctl/schedctl.d/20-masked.conf", "[class:hdd]\nfifo_batch = 99");
	fake_put("/etc/schedctl.d/20-masked.conf", "[class:hdd]\nfront_merges = 0");
	fake_put("/etc/schedctl.d/30-b.conf", "[class:hdd]\nwrites_starved = 4");
	fake_put("/etc/schedctl.d/40-not-conf.txt", "this is not parsed");
	ck_assert_int_eq(sc_policy_load(&p, NULL, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.nfiles, 5);
	ck_assert_str_eq(p.files[0], "/usr/lib/schedctl/schedctl.conf");
	ck_assert_str_eq(p.files[1], "/etc/schedctl.conf");
	ck_assert_str_eq(p.files[2], "/usr/lib/schedctl/schedctl.d/10-a.conf");
	ck_assert_str_eq(p.files[3], "/etc/schedctl.d/20-masked.conf");
	ck_assert_str_eq(p.files[4], "/etc/schedctl.d/30-b.conf");
	disk(&d, NULL, NULL, NULL);
	ck_assert_int_eq(sc_policy_resolve(&p, &d, "hdd", &r), 0);
	ck_assert_str_eq(val(&r, "scheduler", NULL), "xdeadline");
	ck_assert_str_eq(val(&r, "read_expire", NULL), "2");
	ck_assert_str_eq(val(&r, "write_expire", NULL), "3");
	ck_assert_str_eq(val(&r, "fifo_batch", NULL), "1");	/* 99 was masked */
	ck_assert_str_eq(val(&r, "front_merges", NULL), "0");
	ck_assert_str_eq(val(&r, "writes_starved", &from), "4");
	ck_assert_int_eq(r.set[r.n - 1].line, 2);
	sc_resolved_free(&r);
	sc_device_free(&d);
	sc_policy_free(&p);
}
END_TEST

START_TEST(error_in_dropin)
{
	struct sc_policy p;

	fake_put("/usr/lib/schedctl/schedctl.conf", "[class:hdd]\nscheduler = xdeadline");
	fake_put("/etc/schedctl.d/50-x.conf", "[class:hdd]\n\nhead_request = yes");
	ck_assert_int_ne(sc_policy_load(&p, NULL, err, sizeof(err)), 0);
	ck_assert_str_eq(err, "/etc/schedctl.d/50-x.conf:3: head_request: expected a decimal integer, got \"yes\"");
	sc_policy_free(&p);
}
END_TEST

START_TEST(no_files)
{
	struct sc_policy p;

	ck_assert_int_eq(sc_policy_load(&p, NULL, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.n, 0);
	sc_policy_free(&p);
	ck_assert_int_ne(sc_policy_load(&p, "/nonexistent/x.conf", err, sizeof(err)), 0);
	ck_assert_str_eq(err, "/nonexistent/x.conf: No such file or directory");
	sc_policy_free(&p);
}
END_TEST

/* The files that cannot hurt the boot: every one an error naming it, the
 * other files still read. */
static void put_good(void)
{
	fake_put("/usr/lib/schedctl/schedctl.conf", "[class:hdd]\nscheduler = xdeadline");
	fake_put("/etc/schedctl.d/60-good.conf", "[class:hdd]\nread_expire = 7");
}

static void load_one_error(const char *msg)
{
	struct sc_policy p;

	ck_assert_int_eq(sc_policy_load(&p, NULL, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, msg);
	ck_assert_uint_eq(p.nerrs, 1);
	ck_assert_str_eq(p.errs[0], msg);
	/* the others are read */
	ck_assert_uint_eq(p.n, 2);
	ck_assert_str_eq(p.files[0], "/usr/lib/schedctl/schedctl.conf");
	ck_assert_str_eq(p.files[p.nfiles - 1], "/etc/schedctl.d/60-good.conf");
	ck_assert_str_eq(p.s[1].e[0].value, "7");
	sc_policy_free(&p);
}

static char *rooted(const char *rel)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s%s", sc_io_root(), rel);
	return path;
}

START_TEST(fifo_dropin)
{
	put_good();
	mkdir(rooted("/etc/schedctl.d"), 0755);
	ck_assert_int_eq(mkfifo(rooted("/etc/schedctl.d/50-fifo.conf"), 0644), 0);
	load_one_error("/etc/schedctl.d/50-fifo.conf: not a regular file (skipped unread)");
}
END_TEST

START_TEST(dev_zero_dropin)
{
	put_good();
	fake_symlink("/dev/zero", "/etc/schedctl.d/50-zero.conf");
	load_one_error("/etc/schedctl.d/50-zero.conf: not a regular file (skipped unread)");
}
END_TEST

START_TEST(dev_null_masks)
{
	struct sc_policy p;

	put_good();
	fake_put("/usr/lib/schedctl/schedctl.d/70-x.conf", "[class:hdd]\nread_expire = 1");
	fake_symlink("/dev/null", "/etc/schedctl.d/70-x.conf");
	ck_assert_int_eq(sc_policy_load(&p, NULL, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.n, 2);	/* the vendor drop-in is masked */
	sc_policy_free(&p);
}
END_TEST

START_TEST(too_large)
{
	char *big = malloc(SC_POLICY_MAX + 2);

	ck_assert_ptr_nonnull(big);
	memset(big, '#', SC_POLICY_MAX + 1);
	big[SC_POLICY_MAX + 1] = '\0';
	put_good();
	fake_put("/etc/schedctl.d/50-big.conf", big);
	free(big);
	load_one_error("/etc/schedctl.d/50-big.conf: larger than 4194304 bytes (skipped unread)");
}
END_TEST

START_TEST(nul_byte)
{
	FILE *f;

	put_good();
	fake_put("/etc/schedctl.d/50-nul.conf", "");
	f = fopen(rooted("/etc/schedctl.d/50-nul.conf"), "w");
	ck_assert_ptr_nonnull(f);
	fwrite("[class:hdd]\nfifo_batch = 1\0\nread_expire = 9\n", 1, 45, f);
	fclose(f);
	load_one_error("/etc/schedctl.d/50-nul.conf:2: NUL byte (a binary file?)");
}
END_TEST

START_TEST(dropin_dir_is_a_file)
{
	put_good();
	fake_put("/usr/lib/schedctl/schedctl.d", "not a directory");
	fake_put("/etc/schedctl.conf", "[class:hdd]\nread_expire = 7");
	{
		struct sc_policy p;

		ck_assert_int_eq(sc_policy_load(&p, NULL, err, sizeof(err)), -EINVAL);
		ck_assert_str_eq(err, "/usr/lib/schedctl/schedctl.d: not a directory (skipped)");
		ck_assert_uint_eq(p.nerrs, 1);
		ck_assert_uint_eq(p.n, 3);
		sc_policy_free(&p);
	}
}
END_TEST

START_TEST(hidden_files_skipped)
{
	struct sc_policy p;

	put_good();
	fake_put("/etc/schedctl.d/.#50-edit.conf", "garbage");
	fake_put("/etc/schedctl.d/.hidden.conf", "[class:hdd]\nread_expire = 1");
	ck_assert_msg(sc_policy_load(&p, NULL, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(p.nfiles, 2);
	sc_policy_free(&p);
}
END_TEST

START_TEST(broken_file_skipped_whole)
{
	struct sc_policy p;
	struct sc_resolved r;
	struct sc_device d;

	put_good();
	/* its good first section is dropped too: a file is all or nothing */
	fake_put("/etc/schedctl.d/50-bad.conf", "[class:hdd]\nfifo_batch = 3\n[class:ssd]\nbogus = 1");
	load_one_error("/etc/schedctl.d/50-bad.conf:4: unknown key \"bogus\" (expected scheduler, a knob "
		       "name, iosched.KNOB or queue.ATTR)");
	ck_assert_int_eq(sc_policy_load(&p, NULL, err, sizeof(err)), -EINVAL);
	disk(&d, NULL, NULL, NULL);
	ck_assert_int_eq(sc_policy_resolve(&p, &d, "hdd", &r), 0);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_str_eq(val(&r, "read_expire", NULL), "7");
	sc_resolved_free(&r);
	sc_device_free(&d);
	sc_policy_free(&p);
}
END_TEST

START_TEST(bad_globs)
{
	bad("[model:[]\nread_expire = 1", "t.conf:1: pattern \"[\" has an unclosed \"[\" (a literal [ is \"\\[\")");
	bad("[model:ST[0-9]\nread_expire = 1", "t.conf:1: pattern \"ST[0-9\" has an unclosed \"[\" (a literal [ is \"\\[\")");
	bad("[serial:x\\]\nread_expire = 1", "t.conf:1: pattern \"x\\\" ends with \"\\\" (a literal [ is \"\\[\")");
	bad("[id:[[:digit]]\nread_expire = 1", "t.conf:1: pattern \"[[:digit]\" has an unclosed \"[:\" class (a literal [ is \"\\[\")");
	{
		struct sc_policy p;

		ck_assert_msg(parse(&p, "[model:ST[0-9]*]\n[id:x\\[1]\n[wwn:[!]a]*]\n[serial:[[:digit:]]*]\n") == 0,
			      "%s", err);
		sc_policy_free(&p);
	}
}
END_TEST

START_TEST(linear_parse)
{
	/* 60,000 keys in one section: quadratic took 31 s; allow 5 s with ASan */
	size_t n = 60000, cap = n * 32 + 16, off = 0;
	char *text = malloc(cap);
	struct sc_policy p;
	struct sc_resolved r;
	struct sc_device d;
	struct timespec a, b;

	ck_assert_ptr_nonnull(text);
	off += (size_t)snprintf(text, cap, "[default]\n");
	for (size_t i = 0; i < n; i++)
		off += (size_t)snprintf(text + off, cap - off, "iosched.k%zu = %zu\n", i, i);
	clock_gettime(CLOCK_MONOTONIC, &a);
	ck_assert_int_eq(parse(&p, text), 0);
	disk(&d, NULL, NULL, NULL);
	ck_assert_int_eq(sc_policy_resolve(&p, &d, "hdd", &r), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ck_assert_uint_eq(r.n, n);
	ck_assert_double_lt((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9, 5.0);
	free(text);
	sc_resolved_free(&r);
	sc_device_free(&d);
	sc_policy_free(&p);
	/* and a duplicate is still found, with its first line */
	bad("[default]\niosched.a = 1\niosched.b = 1\niosched.a = 2",
	    "t.conf:4: duplicate key \"iosched.a\" in [default] (first set at line 2)");
}
END_TEST

START_TEST(shipped_defaults_parse)
{
	struct sc_policy p;
	char path[4096];
	const char *dir = getenv("POLICY_DIR");

	snprintf(path, sizeof(path), "%s/schedctl.conf", dir ? dir : "cli/policy");
	ck_assert_msg(sc_policy_load(&p, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_ge(p.n, 6);
	sc_policy_free(&p);
	snprintf(path, sizeof(path), "%s/schedctl.conf.admin", dir ? dir : "cli/policy");
	ck_assert_msg(sc_policy_load(&p, path, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(p.n, 0);	/* a template: all commented out */
	sc_policy_free(&p);
}
END_TEST

START_TEST(keys_and_values)
{
	struct sc_key k;
	char e[256];

	ck_assert_int_eq(sc_key_parse("scheduler", &k, e, sizeof(e)), 0);
	ck_assert_int_eq(k.kind, SC_KEY_SCHED);
	ck_assert_int_eq(sc_key_parse("queue.read_ahead_kb", &k, e, sizeof(e)), 0);
	ck_assert_int_eq(k.kind, SC_KEY_QUEUE);
	ck_assert_str_eq(k.attr, "read_ahead_kb");
	ck_assert_int_eq(sc_key_parse("zoned_qd1_writes", &k, e, sizeof(e)), 0);
	ck_assert_int_eq(k.kind, SC_KEY_ZONED_QD1);
	ck_assert_int_eq(sc_key_parse("iosched.zoned_qd1_writes", &k, e, sizeof(e)), 0);
	ck_assert_int_eq(k.kind, SC_KEY_IOSCHED);
	ck_assert(k.known);
	ck_assert_int_eq(sc_key_parse("iosched.adios_knob", &k, e, sizeof(e)), 0);
	ck_assert(!k.known);
	ck_assert_int_eq(sc_value_check(&k, "anything", e, sizeof(e)), 0);
	ck_assert_int_eq(sc_key_parse("queue.wbt_lat_usec", &k, e, sizeof(e)), 0);
	ck_assert_int_eq(sc_value_check(&k, "-1", e, sizeof(e)), 0);
	ck_assert_int_ne(sc_value_check(&k, "-2", e, sizeof(e)), 0);
	ck_assert_int_ne(sc_value_check(&k, " 1", e, sizeof(e)), 0);
	ck_assert_int_ne(sc_value_check(&k, "1x", e, sizeof(e)), 0);
	ck_assert_int_ne(sc_value_check(&k, "99999999999999999999999", e, sizeof(e)), 0);
	ck_assert_int_eq(sc_sched_has_knob("mq-deadline", "head_request"), 0);
	ck_assert_int_eq(sc_sched_has_knob("xdeadline", "head_request"), 1);
	ck_assert_int_eq(sc_sched_has_knob("adios", "head_request"), -1);
	ck_assert_int_eq(sc_sched_has_knob("none", "read_expire"), 0);
}
END_TEST

Suite *suite_policy(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("parse");
	TCase *tf = tcase_create("files");

	tcase_add_test(tc, valid_file);
	tcase_add_test(tc, odd_input);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, inih_edges);
	tcase_add_test(tc, matching);
	tcase_add_test(tc, same_rank_later_wins);
	tcase_add_test(tc, keys_and_values);
	tcase_add_test(tc, shipped_defaults_parse);
	tcase_add_test(tc, bad_globs);
	tcase_add_test(tc, linear_parse);
	tcase_set_timeout(tc, 20);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(tf, setup_root, fake_cleanup);
	tcase_add_test(tf, precedence);
	tcase_add_test(tf, error_in_dropin);
	tcase_add_test(tf, no_files);
	tcase_add_test(tf, fifo_dropin);
	tcase_add_test(tf, dev_zero_dropin);
	tcase_add_test(tf, dev_null_masks);
	tcase_add_test(tf, too_large);
	tcase_add_test(tf, nul_byte);
	tcase_add_test(tf, dropin_dir_is_a_file);
	tcase_add_test(tf, hidden_files_skipped);
	tcase_add_test(tf, broken_file_skipped_whole);
	suite_add_tcase(s, tf);
	return s;
}
