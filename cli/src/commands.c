// SPDX-License-Identifier: GPL-2.0
/* The commands: argument parsing per command, then device, classify,
 * policy and apply calls, and output. */
#define _GNU_SOURCE
#include "commands.h"

#include <argp.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "apply.h"
#include "classify.h"
#include "device.h"
#include "groups.h"
#include "keys.h"
#include "log.h"
#include "netlink.h"
#include "output.h"
#include "policy.h"
#include "stats.h"
#include "sysfs.h"

/* --dry-run has no short option: -n is --noheadings in every command */
#define OPT_DRY_RUN 0x100
#define OPT_OPENMETRICS 0x101
#define OPT_PROMETHEUS 0x102

struct opts {
	bool json, all, noheadings, dry_run, udev, syslog, quiet;
	bool writes;		/* set, apply, reset: -n is refused, not ignored */
	const char *output;
	const char *config;
	char **args;
	int nargs;
	int min_args, max_args;	/* max -1: any */
	double interval, timeout;	/* stats, monitor; 0: none */
	int metrics;			/* stats: 0, OPT_OPENMETRICS, OPT_PROMETHEUS */
	long count;			/* 0: no limit */
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct opts *o = state->input;

	switch (key) {
	case 'J':
		o->json = true;
		break;
	case 'a':
		o->all = true;
		break;
	case 'n':
		if (o->writes)
			argp_error(state, "-n is --noheadings, which this command does not "
					  "have; to write nothing, use --dry-run");
		o->noheadings = true;
		break;
	case OPT_DRY_RUN:
		o->dry_run = true;
		break;
	case 'o':
		o->output = arg;
		break;
	case 'c':
		o->config = arg;
		break;
	case 'u':
		o->udev = true;
		o->syslog = true;
		o->quiet = true;
		break;
	case 's':
		o->syslog = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case ARGP_KEY_ARGS:
		o->args = state->argv + state->next;
		o->nargs = state->argc - state->next;
		break;
	case ARGP_KEY_END:
		if (o->nargs < o->min_args)
			argp_error(state, "too few arguments");
		if (o->max_args >= 0 && o->nargs > o->max_args)
			argp_error(state, "too many arguments");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* -h, as in util-linux: the same as --help */
static error_t parse_help(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	if (key != 'h')
		return ARGP_ERR_UNKNOWN;
	argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
	return 0;
}

static const struct argp_option help_options[] = {
	{ NULL, 'h', NULL, 0, "give this help list (as --help)", -1 },
	{ 0 },
};
static const struct argp help_argp = { help_options, parse_help, NULL, NULL, NULL, NULL, NULL };
static const struct argp_child help_child[] = { { &help_argp, 0, NULL, -1 }, { 0 } };

static void parse_with(argp_parser_t parser, const struct argp_option *options,
		       const char *args_doc, const char *doc, int argc, char **argv,
		       struct opts *o)
{
	struct argp a = { options, parser, args_doc, doc, help_child, NULL, NULL };

	argp_parse(&a, argc, argv, 0, NULL, o);
}

static void parse_cmd(const struct argp_option *options, const char *args_doc,
		      const char *doc, int argc, char **argv, struct opts *o)
{
	parse_with(parse_opt, options, args_doc, doc, argc, argv, o);
}

/* ---- shared helpers ------------------------------------------------ */

static int open_device(const char *arg, struct sc_device *d)
{
	char name[SC_NAME_MAX], part[SC_NAME_MAX];
	int r = sc_device_resolve(arg, name, part);

	if (r) {
		sc_error("%s: %s", arg, r == -ENODEV ? "no such block device" : strerror(-r));
		return SC_EXIT_USAGE;
	}
	if (part[0] && !sc_log_is_syslog())
		fprintf(stderr, "schedctl: %s is a partition; using its disk %s\n", part, name);
	r = sc_device_load(name, d);
	if (r) {
		sc_device_free(d);
		sc_error("%s: %s", name, r == -ENODEV ? "device went away" : strerror(-r));
		return SC_EXIT_FAIL;
	}
	return 0;
}

static char *join(char **v, size_t n, const char *sep)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? sep : "", v[i]);
	fclose(f);
	return out;
}

/* "no I/O scheduler; scheduling happens on sdb, sdc"; on stderr where
 * stdout is data (get) */
static void no_sched_note_to(const struct sc_device *d, bool to_stderr)
{
	char *s = join(d->slaves, d->nslaves, ", ");

	if (to_stderr && !sc_log_is_syslog())
		fprintf(stderr, "schedctl: %s: no I/O scheduler%s%s\n", d->name,
			d->nslaves ? " (bio-based); scheduling happens on " : "",
			d->nslaves && s ? s : "");
	else if (d->nslaves)
		sc_info("%s: no I/O scheduler (bio-based); scheduling happens on %s", d->name, s);
	else
		sc_info("%s: no I/O scheduler", d->name);
	free(s);
}

static void no_sched_note(const struct sc_device *d)
{
	no_sched_note_to(d, false);
}

/*
 * Text from udev and sysfs (models, serials) or policy files, for a
 * terminal: control characters as \xHH, as libsmartcols prints them in
 * tables.  Never NULL for non-NULL s (the original if out of memory).
 */
static const char *safe(const char *s, char **buf)
{
	FILE *f;
	size_t len = 0;

	*buf = NULL;
	if (!s || !strpbrk(s, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
			    "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f"))
		return s;
	f = open_memstream(buf, &len);
	if (!f)
		return s;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c < 0x20 || *c == 0x7f)
			fprintf(f, "\\x%02x", *c);
		else
			fputc(*c, f);
	}
	fclose(f);
	return *buf ? *buf : s;
}

/* "warning: udev rule also sets queue/scheduler (FILE:LINE)", once per run */
static void warn_conflicts(void)
{
	char **v = NULL;
	size_t n = 0;

	sc_conflicts(&v, &n);
	for (size_t i = 0; i < n; i++)
		sc_warn("%s", v[i]);
	sc_strv_free(v, n);
}

/*
 * The policy files.  A file with an error is skipped, loudly: every error
 * is printed (as a warning with warn_only), and the result is
 * SC_EXIT_USAGE with p holding the other files, so that one typo in a
 * drop-in does not keep the rest of the policy from every disk.  Only
 * "-c FILE" with an error, or no memory, leaves p empty (and freed).
 */
static int load_policy(const char *only, struct sc_policy *p, bool warn_only)
{
	char err[1024];
	int r = sc_policy_load(p, only, err, sizeof(err));

	if (!r)
		return 0;
	if (r == -ENOMEM) {
		sc_error("reading the policy: %s", strerror(ENOMEM));
		sc_policy_free(p);
		return SC_EXIT_FAIL;
	}
	for (size_t i = 0; i < p->nerrs; i++) {
		if (warn_only)
			sc_warn("%s", p->errs[i]);
		else
			sc_error("%s", p->errs[i]);
	}
	if (only)
		sc_policy_free(p);
	return SC_EXIT_USAGE;
}

/* ---- list ---------------------------------------------------------- */

enum { C_NAME, C_CLASS, C_TRAN, C_MODEL, C_ROTA, C_ZONED, C_HWQ, C_SCHED, C_AVAIL, C_POLICY, C_NCOLS };

static const struct sc_out_col list_cols[C_NCOLS] = {
	[C_NAME] = { "NAME", "kernel name", false, false },
	[C_CLASS] = { "CLASS", "device class (schedctl classify)", false, false },
	[C_TRAN] = { "TRAN", "transport", false, false },
	[C_MODEL] = { "MODEL", "model", false, false },
	[C_ROTA] = { "ROTA", "rotational", true, true },
	[C_ZONED] = { "ZONED", "zoned model", false, false },
	[C_HWQ] = { "HWQ", "hardware queues", true, true },
	[C_SCHED] = { "SCHED", "current scheduler", false, false },
	[C_AVAIL] = { "AVAILABLE", "available schedulers", false, false },
	[C_POLICY] = { "POLICY", "policy sections that apply", false, false },
};

/* as lsblk: the default columns, and what -o +COL can add */
static const int list_default[] = { C_NAME, C_CLASS, C_TRAN, C_MODEL, C_SCHED, C_POLICY };

/*
 * -o COLUMNS of command cmd: indexes into all[] (nall columns) in *cols,
 * which has room for 2 * nall; NULL or "+COL,..." starts with the nd
 * defaults.  0, or a message and -EINVAL (-ENOMEM).
 */
static int parse_columns_of(const char *cmd, const struct sc_out_col *all, int nall,
			    const int *dflt, size_t nd, const char *list, int *cols, size_t *n)
{
	char *dup, *tok, *save = NULL;

	*n = 0;
	if (!list || *list == '+') {	/* "+COL,...": the defaults and those */
		for (size_t i = 0; i < nd; i++)
			cols[(*n)++] = dflt[i];
		if (!list)
			return 0;
		list++;
	}
	dup = strdup(list);
	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i;

		for (i = 0; i < nall; i++)
			if (!strcasecmp(tok, all[i].name))
				break;
		if (i == nall || *n == (size_t)nall * 2) {
			char *names = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&names, &len);

			for (int k = 0; f && k < nall; k++)
				fprintf(f, "%s%s", k ? ", " : "", all[k].name);
			if (f)
				fclose(f);
			sc_error("%s: unknown column \"%s\" (columns: %s)", cmd, tok,
				 names ? names : "?");
			free(names);
			free(dup);
			return -EINVAL;
		}
		cols[(*n)++] = i;
	}
	free(dup);
	return *n ? 0 : -EINVAL;
}

static int parse_columns(const char *list, int *cols, size_t *n)
{
	return parse_columns_of("list", list_cols, C_NCOLS, list_default,
				sizeof(list_default) / sizeof(list_default[0]), list, cols, n);
}

int cmd_list(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "json", 'J', NULL, 0, "JSON output (like lsblk -J)", 0 },
		{ "output", 'o', "COLUMNS", 0,
		  "comma-separated columns: NAME, CLASS, TRAN, MODEL, ROTA, ZONED, HWQ, SCHED, "
		  "AVAILABLE, POLICY; +COLUMNS adds to the default ones (NAME, CLASS, TRAN, "
		  "MODEL, SCHED, POLICY)", 0 },
		{ "all", 'a', NULL, 0, "also list empty devices (size 0)", 0 },
		{ "noheadings", 'n', NULL, 0, "no header line", 0 },
		{ "config", 'c', "FILE", 0, "read only this policy file", 0 },
		{ 0 },
	};
	struct opts o = { .max_args = 0 };
	struct sc_policy pol = { 0 };
	struct sc_out_col cols[C_NCOLS * 2];
	int sel[C_NCOLS * 2], rc = 0;
	size_t nsel, nnames = 0;
	char **names = NULL;
	bool have_pol;
	struct sc_out *out;
	int prc;

	parse_cmd(options, "", "List every whole disk with its class, scheduler and policy.",
		  argc, argv, &o);
	if (parse_columns(o.output, sel, &nsel))
		return SC_EXIT_USAGE;
	for (size_t i = 0; i < nsel; i++)
		cols[i] = list_cols[sel[i]];
	prc = load_policy(o.config, &pol, true);
	have_pol = !prc || (prc == SC_EXIT_USAGE && !o.config);
	if (prc && !have_pol)
		sc_warn("POLICY column left empty");
	out = sc_out_new("blockdevices", cols, nsel, o.json, o.noheadings);
	if (!out || sc_device_list(&names, &nnames)) {
		sc_error("list: cannot read /sys/block");
		sc_out_free(out);
		sc_policy_free(&pol);
		return SC_EXIT_FAIL;
	}
	for (size_t i = 0; i < nnames; i++) {
		struct sc_device d;
		struct sc_class c;
		struct sc_resolved res = { 0 };
		char *vals[C_NCOLS] = { 0 }, rota[16], hwq[16], *size;
		const char *row[C_NCOLS];

		size = sc_block_attr(names[i], "size");
		if (!o.all && size && !strcmp(size, "0")) {
			free(size);
			continue;
		}
		free(size);
		if (sc_device_load(names[i], &d)) {
			sc_device_free(&d);	/* went away meanwhile */
			continue;
		}
		sc_classify(&d, &c);
		snprintf(rota, sizeof(rota), "%d", d.rotational);
		snprintf(hwq, sizeof(hwq), "%d", d.hwq);
		vals[C_AVAIL] = join(d.avail, d.navail, " ");
		if (have_pol && !sc_policy_resolve(&pol, &d, c.name, &res))
			vals[C_POLICY] = sc_resolved_name(&res);
		row[C_NAME] = d.name;
		row[C_CLASS] = c.name;
		row[C_TRAN] = c.transport[0] ? c.transport : NULL;
		row[C_MODEL] = d.model;
		row[C_ROTA] = d.rotational >= 0 ? rota : NULL;
		row[C_ZONED] = d.zoned;
		row[C_HWQ] = hwq;
		row[C_SCHED] = d.has_sched ? d.sched : NULL;
		row[C_AVAIL] = d.navail ? vals[C_AVAIL] : NULL;
		row[C_POLICY] = vals[C_POLICY];
		{
			const char *r2[C_NCOLS * 2];

			for (size_t k = 0; k < nsel; k++)
				r2[k] = row[sel[k]];
			if (sc_out_row(out, r2))
				rc = SC_EXIT_FAIL;
		}
		free(vals[C_AVAIL]);
		free(vals[C_POLICY]);
		sc_resolved_free(&res);
		sc_device_free(&d);
	}
	sc_out_print(out);
	sc_out_free(out);
	sc_strv_free(names, nnames);
	sc_policy_free(&pol);
	return rc;
}

/* ---- get ----------------------------------------------------------- */

static bool wanted(const struct opts *o, const char *key)
{
	if (o->nargs <= 1)
		return true;
	for (int i = 1; i < o->nargs; i++)
		if (!strcmp(o->args[i], key))
			return true;
	return false;
}

static int get_row(struct sc_out *out, const struct opts *o, bool *seen, const char *key,
		   const char *value)
{
	const char *row[2] = { key, value };

	if (!wanted(o, key))
		return 0;
	for (int i = 1; i < o->nargs; i++)
		if (!strcmp(o->args[i], key))
			seen[i] = true;
	return sc_out_row(out, row);
}

int cmd_get(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "json", 'J', NULL, 0, "JSON output", 0 },
		{ "noheadings", 'n', NULL, 0, "no header line", 0 },
		{ 0 },
	};
	static const struct sc_out_col cols[] = {
		{ "KEY", "setting", false, false },
		{ "VALUE", "value", false, false },
	};
	struct opts o = { .min_args = 1, .max_args = -1 };
	struct sc_device d;
	struct sc_out *out;
	char **knobs = NULL, *dir, *avail;
	size_t nknobs = 0;
	bool *seen;
	int rc;

	parse_cmd(options, "DEV [KEY...]",
		  "Show the scheduler, its iosched knobs and the queue attributes schedctl "
		  "manages (all, or the KEYs named as in \"schedctl set\").",
		  argc, argv, &o);
	rc = open_device(o.args[0], &d);
	if (rc)
		return rc;
	seen = calloc((size_t)o.nargs + 1, sizeof(*seen));
	out = sc_out_new("settings", cols, 2, o.json, o.noheadings);
	if (!seen || !out) {
		free(seen);
		sc_out_free(out);
		sc_device_free(&d);
		return SC_EXIT_FAIL;
	}
	if (!d.has_sched && !o.json)
		no_sched_note_to(&d, true);	/* never mixed into the values */
	avail = join(d.avail, d.navail, " ");
	get_row(out, &o, seen, "scheduler", d.has_sched ? d.sched : "none");
	if (d.has_sched)
		get_row(out, &o, seen, "available", avail);
	free(avail);
	dir = sc_qpath(d.name, "iosched");
	if (dir && d.has_sched && !sc_list_dir(dir, &knobs, &nknobs)) {
		for (size_t i = 0; i < nknobs; i++) {
			char *p, *v = NULL, *key;
			struct sc_key k;
			char err[128];

			if (asprintf(&p, "%s/%s", dir, knobs[i]) < 0)
				continue;
			if (!sc_read(p, &v)) {
				/* the name "set" takes: plain where we know the knob */
				bool plain = !sc_key_parse(knobs[i], &k, err, sizeof(err)) &&
					     k.kind == SC_KEY_IOSCHED;

				if (asprintf(&key, "%s%s", plain ? "" : "iosched.", knobs[i]) >= 0) {
					get_row(out, &o, seen, key, v);
					free(key);
				}
			}
			free(v);
			free(p);
		}
	}
	free(dir);
	sc_strv_free(knobs, nknobs);
	for (const struct sc_knob_def *q = sc_queue_attrs; q->name; q++) {
		char *p = sc_qpath(d.name, q->name), *v = NULL, *key;

		if (p && !sc_read(p, &v) && asprintf(&key, "queue.%s", q->name) >= 0) {
			get_row(out, &o, seen, key, v);
			free(key);
		}
		free(v);
		free(p);
	}
	rc = 0;
	for (int i = 1; i < o.nargs; i++) {
		const char *a = o.args[i];
		struct sc_key k;
		char err[256];

		if (seen[i])
			continue;
		rc = SC_EXIT_USAGE;
		if (sc_key_parse(a, &k, err, sizeof(err)))
			sc_error("%s: %s", d.name, err);
		else if (!d.has_sched && k.kind != SC_KEY_QUEUE)
			sc_error("%s: no setting \"%s\" (device has no I/O scheduler)", d.name, a);
		else
			sc_error("%s: no setting \"%s\" (not offered by %s%s)", d.name, a,
				 k.kind == SC_KEY_QUEUE ? "this kernel or device" : "scheduler ",
				 k.kind == SC_KEY_QUEUE ? "" : d.sched);
	}
	if (!rc)
		sc_out_print(out);
	sc_out_free(out);
	free(seen);
	sc_device_free(&d);
	return rc;
}

/* ---- set, apply: reporting ------------------------------------------ */

/*
 * Changes as made, or, after a failed write, marked as rolled back (or
 * not, where that failed too): what is printed is what is in effect.
 */
static void print_report(const char *dev, const struct sc_report *rep, bool dry,
			 const char *why, bool quiet)
{
	static const char *const mark[] = {
		[SC_CH_DONE] = "",
		[SC_CH_UNDONE] = " (rolled back)",
		[SC_CH_KEPT] = " (rollback failed: still in effect)",
	};

	for (size_t i = 0; i < rep->n; i++) {
		const struct sc_change *c = &rep->c[i];

		if (!strcmp(c->key, "module"))
			sc_info("%s: %s module %s", dev, dry ? "would load" : "loaded", c->new);
		else
			sc_info("%s: %s%s: %s -> %s%s%s%s", dev, dry ? "would set " : "", c->key,
				c->old ? c->old : "(default)", c->new, mark[c->state],
				why ? "  # " : "", why ? why : "");
	}
	if (!quiet)
		for (size_t i = 0; i < rep->nnotes; i++)
			sc_info("%s: note: %s", dev, rep->notes[i]);
	if (!rep->n && !quiet && !rep->err[0])
		sc_info("%s: unchanged", dev);
}

int cmd_set(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "dry-run", OPT_DRY_RUN, NULL, 0, "check and print what would change; write nothing", 0 },
		{ NULL, 'n', NULL, OPTION_HIDDEN, NULL, 0 },
		{ 0 },
	};
	struct opts o = { .min_args = 2, .max_args = -1, .writes = true };
	struct sc_device d;
	struct sc_req *req;
	struct sc_report rep;
	char **dup;
	int rc;

	parse_cmd(options, "DEV KEY=VALUE...",
		  "Set the scheduler (first), iosched knobs, then queue attributes.  Keys: "
		  "scheduler, a knob name (read_expire), iosched.KNOB, queue.ATTR "
		  "(queue.nr_requests), zoned_qd1_writes.  Everything is checked before "
		  "writing; if a write fails, the previous scheduler and values are restored.",
		  argc, argv, &o);
	req = calloc((size_t)o.nargs, sizeof(*req));
	dup = calloc((size_t)o.nargs, sizeof(*dup));
	if (!req || !dup) {
		free(req);
		free(dup);
		return SC_EXIT_FAIL;
	}
	rc = 0;
	for (int i = 1; i < o.nargs && !rc; i++) {
		char *eq;

		dup[i] = strdup(o.args[i]);
		eq = dup[i] ? strchr(dup[i], '=') : NULL;
		if (!eq || eq == dup[i]) {
			sc_error("set: expected KEY=VALUE, got \"%s\"", o.args[i]);
			rc = SC_EXIT_USAGE;
			break;
		}
		*eq = '\0';
		req[i - 1].key = dup[i];
		req[i - 1].value = eq + 1;
	}
	if (!rc)
		rc = open_device(o.args[0], &d);
	if (!rc) {
		rc = sc_apply(d.name, req, (size_t)o.nargs - 1, o.dry_run ? SC_DRY_RUN : 0, &rep);
		print_report(d.name, &rep, o.dry_run, NULL, false);
		if (rc)
			sc_error("%s", rep.err);
		sc_report_free(&rep);
		sc_device_free(&d);
	}
	for (int i = 0; i < o.nargs; i++)
		free(dup[i]);
	free(dup);
	free(req);
	return rc;
}

/* ---- classify -------------------------------------------------------- */

int cmd_classify(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "json", 'J', NULL, 0, "JSON output", 0 },
		{ "config", 'c', "FILE", 0, "read only this policy file", 0 },
		{ 0 },
	};
	static const struct sc_out_col cols[] = {
		{ "NAME", NULL, false, false }, { "CLASS", NULL, false, false },
		{ "WHY", NULL, false, false }, { "POLICY", NULL, false, false },
		{ "SCHEDULING", NULL, false, false },
	};
	struct opts o = { .min_args = 1, .max_args = 1 };
	struct sc_policy pol;
	struct sc_resolved res = { 0 };
	struct sc_device d;
	struct sc_class c;
	char *pname = NULL, *slaves = NULL, *esc;
	int rc, prc;

	parse_cmd(options, "DEV",
		  "Show the disk's class, the properties that decided it, and the policy "
		  "sections and settings that apply.", argc, argv, &o);
	rc = open_device(o.args[0], &d);
	if (rc)
		return rc;
	warn_conflicts();
	sc_classify(&d, &c);
	prc = load_policy(o.config, &pol, false);
	if (prc && (prc != SC_EXIT_USAGE || o.config)) {
		/* still say what we know */
		if (!o.json) {
			sc_info("%s: class %s (%s)", d.name, c.name, safe(c.why, &esc));
			free(esc);
		}
		sc_device_free(&d);
		return prc;
	}
	rc = prc;	/* a broken file was skipped: the rest, and exit 2 */
	if (sc_policy_resolve(&pol, &d, c.name, &res) || !(pname = sc_resolved_name(&res))) {
		rc = SC_EXIT_FAIL;
		goto out;
	}
	slaves = d.has_sched ? strdup(d.name) : join(d.slaves, d.nslaves, ",");
	if (o.json) {
		struct sc_out *out = sc_out_new("classification", cols, 5, true, false);
		const char *row[5] = { d.name, c.name, c.why, res.nwon ? pname : NULL,
				       slaves && *slaves ? slaves : NULL };

		if (out && !sc_out_row(out, row))
			sc_out_print(out);
		sc_out_free(out);
		goto out;
	}
	sc_info("%s: class %s (%s)", d.name, c.name, safe(c.why, &esc));
	free(esc);
	if (!d.has_sched)
		no_sched_note(&d);
	if (!res.nmatched) {
		sc_info("%s: no policy section matches", d.name);
		goto out;
	}
	sc_info("%s: policy %s", d.name, safe(pname, &esc));
	free(esc);
	for (size_t i = 0; i < res.n; i++) {
		char *e2, *e3;

		sc_info("  %s = %s\t# [%s] %s:%d", res.set[i].key, safe(res.set[i].value, &e2),
			safe(res.set[i].from->name, &esc), safe(res.set[i].from->file, &e3),
			res.set[i].line);
		free(esc);
		free(e2);
		free(e3);
	}
	for (size_t i = 0; i < res.nmatched; i++) {
		bool won = false;

		for (size_t k = 0; k < res.nwon; k++)
			won |= res.won[k] == res.matched[i];
		if (!won)
			sc_info("  (matched, all overridden: [%s] %s:%d)", res.matched[i]->name,
				res.matched[i]->file, res.matched[i]->line);
	}
out:
	free(slaves);
	free(pname);
	sc_resolved_free(&res);
	sc_device_free(&d);
	sc_policy_free(&pol);
	return rc;
}

/* ---- apply ----------------------------------------------------------- */

struct done {			/* disks applied in this run */
	char **v;
	size_t n;
};

static bool done_has(const struct done *dn, const char *name)
{
	for (size_t i = 0; i < dn->n; i++)
		if (!strcmp(dn->v[i], name))
			return true;
	return false;
}

static void done_add(struct done *dn, const char *name)
{
	char **nv = realloc(dn->v, (dn->n + 1) * sizeof(*nv));

	if (!nv)
		return;
	dn->v = nv;
	if ((nv[dn->n] = strdup(name)))
		dn->n++;
}

/* apply -J: one object per device, in "devices" */
static json_object *json_str_or_null(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static const char *const change_states[] = {
	[SC_CH_DONE] = "done",
	[SC_CH_UNDONE] = "rolled-back",
	[SC_CH_KEPT] = "rollback-failed",
};

/*
 * status: "changed", "unchanged", "would-change" (dry run), "failed"
 * (exit 1: nothing left changed), "partial" (exit 3), "invalid" (exit 2),
 * "skipped" (no policy, no scheduler), "members" (applied to its members).
 */
static void json_device(json_object *devs, const char *name, const char *cls,
			const char *policy, const char *status, const struct sc_report *rep,
			bool dry, char **mem, size_t nmem, const char *err)
{
	json_object *d = json_object_new_object(), *ch = json_object_new_array(),
		    *sk = json_object_new_array(), *nt = json_object_new_array(), *m = NULL;

	for (size_t i = 0; rep && i < rep->n; i++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "key", json_object_new_string(rep->c[i].key));
		json_object_object_add(c, "from", json_str_or_null(rep->c[i].old));
		json_object_object_add(c, "to", json_object_new_string(rep->c[i].new));
		json_object_object_add(c, "state", json_object_new_string(
				dry ? "dry-run" : change_states[rep->c[i].state]));
		json_object_array_add(ch, c);
	}
	for (size_t i = 0; rep && i < rep->nskips; i++) {
		json_object *k = json_object_new_object();

		json_object_object_add(k, "key", json_object_new_string(rep->skips[i].key));
		json_object_object_add(k, "reason", json_object_new_string(rep->skips[i].why));
		json_object_array_add(sk, k);
	}
	for (size_t i = 0; rep && i < rep->nnotes; i++)
		if (!strstr(rep->notes[i], ": skipped: "))
			json_object_array_add(nt, json_object_new_string(rep->notes[i]));
	if (nmem) {
		m = json_object_new_array();
		for (size_t i = 0; i < nmem; i++)
			json_object_array_add(m, json_object_new_string(mem[i]));
	}
	json_object_object_add(d, "name", json_object_new_string(name));
	json_object_object_add(d, "class", json_str_or_null(cls));
	json_object_object_add(d, "policy", json_str_or_null(policy));
	json_object_object_add(d, "status", json_object_new_string(status));
	json_object_object_add(d, "changes", ch);
	json_object_object_add(d, "skipped", sk);
	json_object_object_add(d, "notes", nt);
	if (m)
		json_object_object_add(d, "members", m);
	json_object_object_add(d, "error", json_str_or_null(err && *err ? err : NULL));
	json_object_array_add(devs, d);
}

static const char *apply_status(int rc, const struct sc_report *rep, bool dry)
{
	if (rc == SC_EXIT_PARTIAL)
		return "partial";
	if (rc == SC_EXIT_USAGE)
		return "invalid";
	if (rc)
		return "failed";
	if (!rep->n)
		return "unchanged";
	return dry ? "would-change" : "changed";
}

static int apply_one(const char *name, const struct sc_policy *pol, const struct opts *o,
		     struct done *dn, json_object *devs)
{
	struct sc_resolved res = { 0 };
	struct sc_report rep = { 0 };
	struct sc_device d;
	struct sc_class c = { 0 };
	struct sc_req *req = NULL;
	char *pname = NULL, **mem = NULL, err[sizeof(((struct sc_report *)0)->err)] = "";
	const char *status = "skipped";
	size_t nmem = 0;
	bool propagated = false, text = !devs;
	int rc, worst = 0;

	if (done_has(dn, name))
		return 0;
	done_add(dn, name);
	rc = sc_device_load(name, &d);
	if (rc) {
		sc_device_free(&d);
		sc_error("device %s went away", name);
		if (devs) {
			snprintf(err, sizeof(err), "device %s went away", name);
			json_device(devs, name, NULL, NULL, "failed", NULL, o->dry_run, NULL, 0, err);
		}
		return SC_EXIT_FAIL;
	}
	if (!d.has_sched) {
		/* stacked: the policy goes to the disks that do the scheduling */
		sc_device_members(name, &mem, &nmem);
		if (nmem) {
			char *s = join(mem, nmem, ", ");

			if (!o->quiet && text)
				sc_info("%s: no I/O scheduler; scheduling happens on %s", name,
					s ? s : "");
			free(s);
			propagated = true;
			status = "members";
			for (size_t i = 0; i < nmem; i++) {
				rc = apply_one(mem[i], pol, o, dn, devs);
				worst = rc > worst ? rc : worst;
			}
			rc = 0;
		}
	}
	sc_classify(&d, &c);
	if (sc_policy_resolve(pol, &d, c.name, &res) || !(pname = sc_resolved_name(&res))) {
		rc = SC_EXIT_FAIL;
		status = "failed";
		snprintf(err, sizeof(err), "%s: out of memory", name);
		goto out;
	}
	if (!res.n) {
		if (!o->quiet && text)
			sc_info("%s: no policy for class %s", name, c.name);
		goto out;
	}
	if (!d.has_sched && res.n == 1 && !strcmp(res.set[0].key, "scheduler")) {
		if (!o->quiet && !propagated && text)
			no_sched_note(&d);
		goto out;
	}
	req = calloc(res.n, sizeof(*req));
	if (!req) {
		rc = SC_EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < res.n; i++)
		req[i] = (struct sc_req){ res.set[i].key, res.set[i].value, NULL };
	rc = sc_apply(name, req, res.n, SC_LENIENT | (o->dry_run ? SC_DRY_RUN : 0), &rep);
	if (!propagated)
		status = apply_status(rc, &rep, o->dry_run);
	if (text)
		print_report(name, &rep, o->dry_run, o->quiet ? NULL : pname, o->quiet);
	if (rc) {
		sc_error("%s", rep.err);
		snprintf(err, sizeof(err), "%s", rep.err);
	}
out:
	if (devs)
		json_device(devs, name, c.name, res.nwon ? pname : NULL, status, &rep, o->dry_run,
			    mem, nmem, err);
	sc_strv_free(mem, nmem);
	sc_report_free(&rep);
	free(req);
	free(pname);
	sc_resolved_free(&res);
	sc_device_free(&d);
	return rc > worst ? rc : worst;
}

int cmd_apply(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "dry-run", OPT_DRY_RUN, NULL, 0, "print what would change; write nothing", 0 },
		{ NULL, 'n', NULL, OPTION_HIDDEN, NULL, 0 },
		{ "udev", 'u', NULL, 0,
		  "run from a udev rule: log to syslog, only changes and errors, "
		  "take the event's properties from the environment, shorter waits", 0 },
		{ "syslog", 's', NULL, 0, "log to syslog instead of stdout and stderr", 0 },
		{ "quiet", 'q', NULL, 0, "print only changes and errors", 0 },
		{ "config", 'c', "FILE", 0, "read only this policy file", 0 },
		{ "json", 'J', NULL, 0,
		  "a JSON report per device instead of lines: changes (from, to, state), "
		  "skipped settings and why, notes, error", 0 },
		{ 0 },
	};
	struct opts o = { .min_args = 0, .max_args = -1, .writes = true };
	struct sc_policy pol;
	char (*names)[SC_NAME_MAX] = NULL, **all = NULL;
	size_t n = 0, nall = 0;
	struct done dn = { 0 };
	json_object *top = NULL, *devs = NULL;
	int rc = 0, worst = 0;

	parse_cmd(options, "[DEV...]",
		  "Apply the policy files to the DEVs, or to every disk, and print what "
		  "changed.  The files are parsed completely first: a file with an error is "
		  "skipped (exit status 2), the others are applied.", argc, argv, &o);
	sc_log_syslog(o.syslog);
	if (o.udev) {
		sc_io_udev_env(true);
		sc_lock_timeout_ms = 2000;
	}
	rc = load_policy(o.config, &pol, false);
	if (rc && (rc != SC_EXIT_USAGE || o.config))
		return rc;
	worst = rc;	/* a broken file was skipped: apply the rest, exit 2 */
	if (o.dry_run && !o.udev)
		warn_conflicts();
	if (o.json) {
		json_object *pe = json_object_new_array();

		top = json_object_new_object();
		devs = json_object_new_array();
		for (size_t i = 0; i < pol.nerrs; i++)
			json_object_array_add(pe, json_object_new_string(pol.errs[i]));
		json_object_object_add(top, "policy_errors", pe);
		json_object_object_add(top, "devices", devs);
	}
	if (o.nargs) {
		names = calloc((size_t)o.nargs, sizeof(*names));
		for (int i = 0; names && i < o.nargs; i++) {
			char part[SC_NAME_MAX];
			int r = sc_device_resolve(o.args[i], names[n], part);

			if (r) {
				sc_error("%s: %s", o.args[i],
					 r == -ENODEV ? "no such block device" : strerror(-r));
				worst = SC_EXIT_USAGE;
				continue;
			}
			if (part[0] && !o.syslog)
				fprintf(stderr, "schedctl: %s is a partition; using its disk %s\n",
					part, names[n]);
			n++;
		}
		if (!names)
			worst = SC_EXIT_FAIL;
		if (n < (size_t)o.nargs || !names) {	/* bad arguments: touch nothing */
			free(names);
			sc_policy_free(&pol);
			json_object_put(top);
			return worst;
		}
		for (size_t i = 0; i < n; i++) {
			rc = apply_one(names[i], &pol, &o, &dn, devs);
			worst = rc > worst ? rc : worst;
		}
	} else {
		if (sc_device_list(&all, &nall)) {
			sc_error("apply: cannot read /sys/block");
			worst = SC_EXIT_FAIL;
		}
		for (size_t i = 0; i < nall; i++) {
			char *size = sc_block_attr(all[i], "size");
			bool empty = size && !strcmp(size, "0");

			free(size);
			if (empty)	/* unused loop devices and such; udev
					 * sends "change" when they get media */
				continue;
			rc = apply_one(all[i], &pol, &o, &dn, devs);
			worst = rc > worst ? rc : worst;
		}
	}
	if (top) {
		printf("%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_SPACED |
								   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(top);
	}
	free(names);
	sc_strv_free(all, nall);
	sc_strv_free(dn.v, dn.n);
	sc_policy_free(&pol);
	return worst;
}

/* ---- check ---------------------------------------------------------- */

int cmd_check(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "quiet", 'q', NULL, 0, "print only errors", 0 },
		{ 0 },
	};
	struct opts o = { .min_args = 0, .max_args = -1 };
	struct sc_policy pol;
	char err[1024];
	int rc = 0;

	parse_cmd(options, "[FILE...]",
		  "Check the policy files (or the FILEs) as apply reads them, without "
		  "looking at any device: every error as FILE:LINE: message, exit status 2 "
		  "if there is one.", argc, argv, &o);
	if (!o.nargs) {
		int r = sc_policy_load(&pol, NULL, err, sizeof(err));

		if (r == -ENOMEM) {
			sc_error("reading the policy: %s", strerror(ENOMEM));
			return SC_EXIT_FAIL;
		}
		for (size_t i = 0; i < pol.nerrs; i++)
			sc_error("%s", pol.errs[i]);
		if (!o.quiet)
			for (size_t i = 0; i < pol.nfiles; i++)
				sc_info("%s: ok", pol.files[i]);
		rc = pol.nerrs ? SC_EXIT_USAGE : 0;
		sc_policy_free(&pol);
		return rc;
	}
	for (int i = 0; i < o.nargs; i++) {
		int r = sc_policy_load(&pol, o.args[i], err, sizeof(err));

		if (r == -ENOMEM) {
			sc_error("%s: %s", o.args[i], strerror(ENOMEM));
			rc = SC_EXIT_FAIL > rc ? SC_EXIT_FAIL : rc;
		} else if (r) {
			sc_error("%s", err);
			rc = SC_EXIT_USAGE;
		} else if (!o.quiet) {
			sc_info("%s: ok", o.args[i]);
		}
		sc_policy_free(&pol);
	}
	return rc;
}

/* ---- reset ----------------------------------------------------------- */

/*
 * What the kernel picks when it sets up a queue: "none" for more than one
 * hardware queue, else mq-deadline (elevator_get_default()).  Zoned disks
 * get mq-deadline, which older kernels require and newer ones accept.
 */
static const char *kernel_default(const struct sc_device *d)
{
	if (strcmp(d->zoned, "none") && d->zoned[0])
		return "mq-deadline, none";
	return d->hwq > 1 ? "none" : "mq-deadline, none";
}

/* The schedulers this project ships as modules. */
static bool ours(const char *sched)
{
	return !strcmp(sched, "xdeadline") || !strcmp(sched, "xbfq");
}

int cmd_reset(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "dry-run", OPT_DRY_RUN, NULL, 0, "print what would change; write nothing", 0 },
		{ NULL, 'n', NULL, OPTION_HIDDEN, NULL, 0 },
		{ "quiet", 'q', NULL, 0, "print only changes and errors", 0 },
		{ "syslog", 's', NULL, 0, "log to syslog instead of stdout and stderr", 0 },
		{ 0 },
	};
	struct opts o = { .min_args = 0, .max_args = -1, .writes = true };
	char **names = NULL;
	size_t n = 0;
	int worst = 0;
	bool all;

	parse_cmd(options, "[DEV...]",
		  "Give the DEVs, or every disk that uses a scheduler schedctl ships "
		  "(xdeadline, xbfq), the scheduler the kernel would pick by itself: none "
		  "for more than one hardware queue, else mq-deadline (for package "
		  "removal).  Knobs return to their defaults with the switch; queue "
		  "attributes are left as they are.", argc, argv, &o);
	sc_log_syslog(o.syslog);
	all = o.nargs == 0;
	if (all && sc_device_list(&names, &n)) {
		sc_error("reset: cannot read /sys/block");
		return SC_EXIT_FAIL;
	}
	for (size_t i = 0; i < (all ? n : (size_t)o.nargs); i++) {
		struct sc_device d;
		struct sc_report rep;
		struct sc_req req;
		int rc;

		if (all) {
			if (sc_device_load(names[i], &d)) {
				sc_device_free(&d);
				continue;
			}
		} else if ((rc = open_device(o.args[i], &d))) {
			worst = rc > worst ? rc : worst;
			continue;
		}
		if (!d.has_sched || (all && !ours(d.sched))) {
			if (!all && !o.quiet)
				no_sched_note(&d);
			sc_device_free(&d);
			continue;
		}
		req = (struct sc_req){ "scheduler", kernel_default(&d), NULL };
		rc = sc_apply(d.name, &req, 1, SC_LENIENT | (o.dry_run ? SC_DRY_RUN : 0), &rep);
		print_report(d.name, &rep, o.dry_run, NULL, o.quiet);
		if (rc)
			sc_error("%s", rep.err);
		worst = rc > worst ? rc : worst;
		sc_report_free(&rep);
		sc_device_free(&d);
	}
	sc_strv_free(names, n);
	return worst;
}

/* ---- stats, monitor: the netlink commands ----------------------------- */

/*
 * SIGINT and SIGTERM end stats and monitor with status 0.  They stay
 * blocked except while waiting (ppoll with *wait_mask), so a report or an
 * event line is never cut off halfway.
 */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static void catch_stop_signals(sigset_t *wait_mask)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };
	sigset_t set;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, wait_mask);
	sigdelset(wait_mask, SIGINT);
	sigdelset(wait_mask, SIGTERM);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Wait until fd (-1: none) is readable, the deadline passes (CLOCK_MONOTONIC
 * seconds; < 0: none) or a stop signal arrives: 1, 0, -1; -2 on error.
 */
static int wait_until(int fd, double deadline, const sigset_t *mask)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct timespec ts, *tsp = NULL;
		int r;

		if (stop_signal)
			return -1;
		if (deadline >= 0) {
			double left = deadline - mono_s();

			if (left <= 0)
				return 0;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			tsp = &ts;
		}
		r = ppoll(fd >= 0 ? &p : NULL, fd >= 0 ? 1 : 0, tsp, mask);
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return -2;
	}
}

/* --interval, --count, --timeout; the rest as for every command. */
static error_t parse_watch_opt(int key, char *arg, struct argp_state *state)
{
	struct opts *o = state->input;
	char *end;

	switch (key) {
	case 'i':
	case 't': {
		double v;

		errno = 0;
		v = strtod(arg, &end);
		if (errno || end == arg || *end || !isfinite(v) || v <= 0 || v > 1e6)
			argp_error(state, "--%s: expected seconds, a number greater than 0, got \"%s\"",
				   key == 'i' ? "interval" : "timeout", arg);
		if (key == 'i')
			o->interval = v;
		else
			o->timeout = v;
		return 0;
	}
	case OPT_OPENMETRICS:
	case OPT_PROMETHEUS:
		if (o->metrics && o->metrics != key)
			argp_error(state, "--openmetrics and --prometheus: one or the other");
		o->metrics = key;
		return 0;
	case 'c':
		errno = 0;
		o->count = strtol(arg, &end, 10);
		if (errno || end == arg || *end || o->count <= 0)
			argp_error(state, "--count: expected a number greater than 0, got \"%s\"", arg);
		return 0;
	default:
		return parse_opt(key, arg, state);
	}
}

static int open_netlink(struct sc_nl **nl, bool events)
{
	char err[512];

	if (sc_nl_open(nl, events, err, sizeof(err))) {
		sc_error("%s", err);
		return SC_EXIT_FAIL;
	}
	return 0;
}

enum { S_DEV, S_SCHED, S_COUNTER, S_VALUE, S_RATE, S_NCOLS };

static const struct sc_out_col stats_cols[S_NCOLS] = {
	[S_DEV] = { "DEVICE", "kernel name", false, false },
	[S_SCHED] = { "SCHED", "scheduler", false, false },
	[S_COUNTER] = { "COUNTER", "counter name", false, false },
	[S_VALUE] = { "VALUE", "counter value", true, true },
	[S_RATE] = { "RATE", "per second over the interval", true, true },
};

/* One snapshot; a message and SC_EXIT_FAIL on error. */
static int stats_get(struct sc_nl *nl, const char *dev, struct sc_nl_snap *s)
{
	struct sc_device d;
	char err[512];
	int r = sc_nl_get(nl, dev, s, err, sizeof(err));

	if (!r)
		return 0;
	if (r != -ENODEV || !dev) {
		sc_error("stats: %s", err);
		return SC_EXIT_FAIL;
	}
	/* not registered: say what it uses instead */
	if (sc_device_load(dev, &d))
		sc_error("%s: device went away", dev);
	else if (!d.has_sched)
		sc_error("%s: no statistics: no I/O scheduler", dev);
	else
		sc_error("%s: no statistics: its scheduler %s is not one from schedctl "
			 "(xdeadline, xbfq)", dev, d.sched);
	sc_device_free(&d);
	return SC_EXIT_FAIL;
}

/* A report: totals of cur, or with prev, rates over the interval too. */
static int stats_report(const struct sc_nl_snap *prev, const struct sc_nl_snap *cur,
			const struct opts *o, bool first)
{
	struct sc_stat_row *rows;
	struct sc_out *out;
	size_t n;
	int rc = 0;

	if (!first && !o->json)
		putchar('\n');
	if (!cur->n && !o->json) {
		sc_info("no device uses a scheduler from schedctl");
		fflush(stdout);
		return 0;
	}
	if (sc_stats_rows(prev, cur, &rows, &n))
		return SC_EXIT_FAIL;
	out = sc_out_new("stats", stats_cols, prev ? S_NCOLS : S_NCOLS - 1, o->json,
			 o->noheadings);
	for (size_t i = 0; out && i < n; i++) {
		char value[32], rate[64];
		const char *vals[S_NCOLS] = { rows[i].dev, rows[i].sched, rows[i].name, value,
					      rows[i].has_rate ? rate : NULL };

		snprintf(value, sizeof(value), "%llu", (unsigned long long)rows[i].value);
		sc_stats_fmt_rate(rows[i].rate, rate, sizeof(rate));
		if (sc_out_row(out, vals))
			rc = SC_EXIT_FAIL;
	}
	if (out)
		sc_out_print(out);
	else
		rc = SC_EXIT_FAIL;
	fflush(stdout);
	sc_out_free(out);
	free(rows);
	return rc;
}

int cmd_stats(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "json", 'J', NULL, 0, "JSON output, one document per report", 0 },
		{ "noheadings", 'n', NULL, 0, "no header line", 0 },
		{ "interval", 'i', "SECONDS", 0,
		  "report per-second rates over every SECONDS (may be fractional), until "
		  "interrupted", 0 },
		{ "count", 'c', "N", 0, "with --interval: stop after N reports", 0 },
		{ "openmetrics", OPT_OPENMETRICS, NULL, 0,
		  "the counters in the OpenMetrics text format, for scrapers", 0 },
		{ "prometheus", OPT_PROMETHEUS, NULL, 0,
		  "the counters in the Prometheus text format (node_exporter's textfile "
		  "collector)", 0 },
		{ 0 },
	};
	struct opts o = { .max_args = 1 };
	char name[SC_NAME_MAX], part[SC_NAME_MAX];
	struct sc_nl_snap prev = { 0 }, cur;
	const char *dev = NULL;
	struct sc_nl *nl;
	sigset_t mask;
	double deadline;
	int rc;

	parse_with(parse_watch_opt, options, "[DEV]",
		   "Show the counters of the schedulers from schedctl (xdeadline, xbfq), of "
		   "DEV or of every disk using one, read through netlink.  With --interval, "
		   "print a report of per-second rates every SECONDS instead, the first one "
		   "over the first interval (like iostat -y).  SIGINT and SIGTERM stop it "
		   "with exit status 0.", argc, argv, &o);
	if (o.count && !o.interval) {
		sc_error("stats: --count needs --interval");
		return SC_EXIT_USAGE;
	}
	if (o.metrics && (o.interval || o.json || o.noheadings)) {
		sc_error("stats: --%s takes no --interval, --json or --noheadings (a scraper "
			 "computes rates)", o.metrics == OPT_OPENMETRICS ? "openmetrics" : "prometheus");
		return SC_EXIT_USAGE;
	}
	if (o.nargs) {
		int r = sc_device_resolve(o.args[0], name, part);

		if (r) {
			sc_error("%s: %s", o.args[0],
				 r == -ENODEV ? "no such block device" : strerror(-r));
			return SC_EXIT_USAGE;
		}
		if (part[0])
			fprintf(stderr, "schedctl: %s is a partition; using its disk %s\n", part,
				name);
		dev = name;
	}
	catch_stop_signals(&mask);
	rc = open_netlink(&nl, false);
	if (rc)
		return rc;
	rc = stats_get(nl, dev, &prev);
	if (!rc && o.metrics) {
		if (sc_stats_metrics(&prev, o.metrics == OPT_OPENMETRICS, stdout)) {
			sc_error("stats: writing the metrics: %s", strerror(EIO));
			rc = SC_EXIT_FAIL;
		}
		goto out;
	}
	if (rc || !o.interval) {
		if (!rc)
			rc = stats_report(NULL, &prev, &o, true);
		goto out;
	}
	deadline = prev.t;
	for (long reports = 0; !o.count || reports < o.count; reports++) {
		int w;

		deadline += o.interval;
		w = wait_until(-1, deadline, &mask);
		if (w < 0) {
			rc = w == -1 ? 0 : SC_EXIT_FAIL;
			break;
		}
		rc = stats_get(nl, dev, &cur);
		if (rc)
			break;
		rc = stats_report(&prev, &cur, &o, reports == 0);
		sc_nl_snap_free(&prev);
		prev = cur;
		if (rc)
			break;
		if (mono_s() > deadline + o.interval)
			deadline = mono_s();	/* fell behind (suspend): no burst */
	}
out:
	sc_nl_snap_free(&prev);
	sc_nl_close(nl);
	return rc;
}

struct mon {
	const struct opts *o;
	long seen;
};

static bool mon_event(const struct sc_nl_event *ev, void *arg)
{
	struct mon *m = arg;
	char *line = sc_event_format(ev, m->o->json);

	if (line) {
		printf("%s\n", line);
		fflush(stdout);
		free(line);
	}
	m->seen++;
	return !m->o->count || m->seen < m->o->count;
}

int cmd_monitor(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "json", 'J', NULL, 0, "one JSON object per event and line", 0 },
		{ "count", 'c', "N", 0, "exit after N events", 0 },
		{ "timeout", 't', "SECONDS", 0,
		  "exit after SECONDS; with --count, with status 1 unless N events came", 0 },
		{ 0 },
	};
	struct opts o = { .max_args = 0 };
	struct mon m = { &o, 0 };
	struct sc_nl *nl;
	sigset_t mask;
	double deadline;
	int rc;

	parse_with(parse_watch_opt, options, "",
		   "Print a line for every event of the schedulers from schedctl: a device "
		   "attached or detached, a knob or a derived state changed (old -> new), "
		   "until interrupted (SIGINT, SIGTERM: exit status 0).", argc, argv, &o);
	catch_stop_signals(&mask);
	rc = open_netlink(&nl, true);
	if (rc)
		return rc;
	fprintf(stderr, "schedctl: listening for scheduler events\n");
	deadline = o.timeout ? mono_s() + o.timeout : -1;
	while (!o.count || m.seen < o.count) {
		int w = wait_until(sc_nl_fd(nl), deadline, &mask), r;

		if (w == -1)
			break;
		if (w == 0) {
			if (o.count) {
				sc_error("monitor: timeout after %ld of %ld events", m.seen, o.count);
				rc = SC_EXIT_FAIL;
			}
			break;
		}
		if (w == -2) {
			sc_error("monitor: cannot wait for events: %s", strerror(errno));
			rc = SC_EXIT_FAIL;
			break;
		}
		r = sc_nl_read_events(nl, mon_event, &m);
		if (r == 1) {
			sc_error("monitor: the schedctl_nl module was unloaded; no more events");
			rc = SC_EXIT_FAIL;
			break;
		}
		if (r == -ENOBUFS) {
			sc_warn("monitor: events were lost (receive buffer overrun)");
		} else if (r < 0) {
			sc_error("monitor: cannot read events: %s", strerror(-r));
			rc = SC_EXIT_FAIL;
			break;
		}
	}
	sc_nl_close(nl);
	return rc;
}

/* ---- groups -------------------------------------------------------- */

enum { G_CGROUP, G_CGID, G_WEIGHT, G_SOURCE, G_BUSY, G_ACTIVE, G_SERVED, G_NCOLS };

static const struct sc_out_col groups_cols[G_NCOLS] = {
	[G_CGROUP] = { "CGROUP", "the cgroup, as a path below the cgroup2 mount; / for the "
				 "root cgroup, ? where no directory has its id (a removed "
				 "cgroup whose group lives on)", false, false },
	[G_CGID] = { "CGID", "the cgroup id (the inode number of its directory)", true, true },
	[G_WEIGHT] = { "WEIGHT", "the group's weight in effect on this disk", true, true },
	[G_SOURCE] = { "SOURCE", "where the weight comes from: override (the cgroup's "
				 "io.xbfq.weight has a line for this disk's MAJ:MIN), default "
				 "(its default weight), root (the root cgroup: 100), ? "
				 "(io.xbfq.weight unreadable)", false, false },
	[G_BUSY] = { "BUSY", "1 if the group or a descendant has requests waiting", true, true },
	[G_ACTIVE] = { "ACTIVE", "the group's queues with requests queued or in flight",
		       true, true },
	[G_SERVED] = { "SERVED", "512-byte sectors dispatched to the group and its descendants",
		       true, true },
};

static const int groups_default[] = { G_CGROUP, G_WEIGHT, G_SOURCE, G_BUSY, G_ACTIVE, G_SERVED };

/* "DISK: scheduler is X; groups exist only under xbfq" */
static int not_xbfq(const struct sc_device *d)
{
	sc_error("%s: scheduler is %s; groups exist only under xbfq", d->name,
		 d->has_sched ? d->sched : "none");
	return SC_EXIT_FAIL;
}

/* Has DISK's scheduler switched away from xbfq since it was checked?  Then say so. */
static bool switched_away(const char *name)
{
	struct sc_device now;
	bool away;

	memset(&now, 0, sizeof(now));
	away = !sc_device_load(name, &now) && (!now.has_sched || strcmp(now.sched, "xbfq"));
	if (away)
		not_xbfq(&now);
	sc_device_free(&now);
	return away;
}

/*
 * The text of debugfs block/DISK/sched/groups, or a message and
 * SC_EXIT_FAIL; nl_why: why netlink was not used, told on failure.
 */
static int read_groups_file(const struct sc_device *d, const char *nl_why, char **text)
{
	char *dbg = NULL, *path = NULL;
	int r = sc_find_mount("debugfs", &dbg), rc = SC_EXIT_FAIL;
	bool why = true;

	if (r == -ENOENT) {
		sc_error("%s: debugfs is not mounted; as root: mount -t debugfs none "
			 "/sys/kernel/debug", d->name);
		goto out;
	}
	if (r || asprintf(&path, "%s/block/%s/sched/groups", strcmp(dbg, "/") ? dbg : "",
			  d->name) < 0) {
		sc_error("%s: %s", d->name, strerror(ENOMEM));
		path = NULL;
		why = false;
		goto out;
	}
	r = sc_read(path, text);
	if (!r) {
		rc = 0;
	} else if (r == -EACCES || r == -EPERM) {
		sc_error("%s: cannot read %s: %s%s", d->name, path, strerror(-r),
			 geteuid() ? " (debugfs is for root: run schedctl as root)" :
			 r == -EPERM ? " (kernel lockdown?)" : "");
	} else if (r == -ENOENT && switched_away(d->name)) {
		why = false;	/* the file went with xbfq */
	} else {
		char *blk = NULL;

		if (r == -ENOENT && asprintf(&blk, "%s/block", dbg) >= 0 && !sc_is_dir(blk))
			sc_error("%s: cannot read %s: debugfs has no block/ (a kernel without "
				 "CONFIG_BLK_DEBUG_FS)", d->name, path);
		else
			sc_error("%s: cannot read %s: %s", d->name, path, strerror(-r));
		free(blk);
	}
out:
	if (rc && why && nl_why)
		sc_error("%s: groups read from debugfs, not netlink, because %s", d->name, nl_why);
	free(path);
	free(dbg);
	return rc;
}

static int groups_nl_read(const char *disk, struct sc_group **g, size_t *n, char *err,
			  size_t errlen)
{
	struct sc_nl *nl;
	int r;

	*g = NULL;
	*n = 0;
	if (sc_io_fake()) {
		snprintf(err, errlen, "netlink is not used on a fake tree (SCHEDCTL_ROOT)");
		return -SC_NL_ENOFAMILY;
	}
	r = sc_nl_open(&nl, false, err, errlen);
	if (r)
		return r;
	r = sc_nl_get_groups(nl, disk, g, n, err, errlen);
	sc_nl_close(nl);
	return r;
}

int (*sc_groups_nl_read)(const char *disk, struct sc_group **g, size_t *n, char *err,
			 size_t errlen) = groups_nl_read;

/*
 * The groups of d: over netlink, else, only where netlink has none to
 * give (no schedctl family here: the module not loaded, or another
 * network namespace; or a module older than GET_GROUPS), from debugfs.
 * 0, or a message and SC_EXIT_FAIL.
 */
static int read_groups(const struct sc_device *d, struct sc_group **g, size_t *n)
{
	char err[512], *text = NULL;
	size_t bad = 0;
	int r = sc_groups_nl_read(d->name, g, n, err, sizeof(err));

	if (!r)
		return 0;
	if (r != -SC_NL_ENOFAMILY && r != -SC_NL_ENETNS && r != -SC_NL_ENOCMD) {
		/* ENODEV, EOPNOTSUPP: switched away from xbfq meanwhile? */
		if ((r != -ENODEV && r != -EOPNOTSUPP) || !switched_away(d->name))
			sc_error("%s: %s", d->name, err);
		return SC_EXIT_FAIL;
	}
	if (read_groups_file(d, err, &text))
		return SC_EXIT_FAIL;
	r = sc_groups_parse(text, g, n, &bad);
	free(text);
	if (r == -EINVAL)
		sc_error("%s: sched/groups line %zu: not \"cgid ID weight W busy B active N "
			 "served S\"", d->name, bad);
	else if (r)
		sc_error("%s: %s", d->name, strerror(-r));
	return r ? SC_EXIT_FAIL : 0;
}

static char *groups_doc(void)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);

	if (!f)
		return NULL;
	fprintf(f, "Show xbfq's cgroup groups on DISK, the root cgroup first: each cgroup "
		   "with I/O on the disk and each of its ancestors, with its weight there and "
		   "the service it got.  Read over netlink from the schedctl_nl module, by any "
		   "user; where that module is older (no GET_GROUPS) or absent, from debugfs "
		   "block/DISK/sched/groups, by root only.\v"
		   "Columns:\n");
	for (int i = 0; i < G_NCOLS; i++) {
		const char *h = groups_cols[i].help;
		size_t col = 10;

		/* wrapped here: argp would not indent the continuation lines */
		fprintf(f, "  %-8s", groups_cols[i].name);
		while (*h) {
			size_t w = strcspn(h, " ");

			if (col > 10 && col + 1 + w > 78) {
				fprintf(f, "\n%10s", "");
				col = 10;
			} else if (col > 10) {
				fputc(' ', f);
				col++;
			}
			fprintf(f, "%.*s", (int)w, h);
			col += w;
			h += w;
			h += strspn(h, " ");
		}
		fputc('\n', f);
	}
	fprintf(f, "\nThe default columns are all but CGID; without a cgroup2 mount the "
		   "paths are not known, and CGID is added to them.");
	fclose(f);
	return doc;
}

int cmd_groups(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "json", 'J', NULL, 0, "JSON output (like lsblk -J)", 0 },
		{ "output", 'o', "COLUMNS", 0,
		  "comma-separated columns: CGROUP, CGID, WEIGHT, SOURCE, BUSY, ACTIVE, SERVED; "
		  "+COLUMNS adds to the default ones (CGROUP, WEIGHT, SOURCE, BUSY, ACTIVE, "
		  "SERVED)", 0 },
		{ "noheadings", 'n', NULL, 0, "no header line", 0 },
		{ 0 },
	};
	const size_t ndflt = sizeof(groups_default) / sizeof(groups_default[0]);
	struct opts o = { .min_args = 1, .max_args = 1 };
	struct sc_out_col cols[G_NCOLS * 2];
	int sel[G_NCOLS * 2 + 1], rc;
	size_t nsel, ng = 0;
	struct sc_group *g = NULL;
	char *doc = groups_doc(), *cgmnt = NULL, *dev;
	unsigned int maj = 0, min = 0;
	bool have_dev = false;
	struct sc_device d;
	struct sc_out *out;

	parse_cmd(options, "DISK", doc ? doc : "Show xbfq's cgroup groups on DISK.", argc, argv,
		  &o);
	free(doc);
	if (parse_columns_of("groups", groups_cols, G_NCOLS, groups_default, ndflt, o.output,
			     sel, &nsel))
		return SC_EXIT_USAGE;
	rc = open_device(o.args[0], &d);
	if (rc)
		return rc;
	if (!d.has_sched || strcmp(d.sched, "xbfq")) {
		rc = not_xbfq(&d);
		goto out;
	}
	rc = read_groups(&d, &g, &ng);
	if (rc)
		goto out;
	if (ng > 1) {	/* the root's group is "/"; the others need the tree */
		int r = sc_find_mount("cgroup2", &cgmnt);

		if (r == -ENOENT) {
			sc_warn("no cgroup2 file system is mounted: cgroup paths unknown, "
				"shown by id (CGID)");
			if (!o.output) {	/* CGID after CGROUP */
				memmove(&sel[2], &sel[1], (nsel - 1) * sizeof(sel[0]));
				sel[1] = G_CGID;
				nsel++;
			}
		} else if (r) {
			sc_warn("finding the cgroup2 mount: %s", strerror(-r));
		} else if ((r = sc_cgroup_resolve(cgmnt, g + 1, ng - 1))) {
			sc_warn("cannot walk the cgroup tree %s: %s", cgmnt, strerror(-r));
			free(cgmnt);
			cgmnt = NULL;
		}
	}
	dev = sc_block_attr(d.name, "dev");
	have_dev = dev && sscanf(dev, "%u:%u", &maj, &min) == 2;
	free(dev);
	for (size_t i = 0; i < nsel; i++)
		cols[i] = groups_cols[sel[i]];
	out = sc_out_new("groups", cols, nsel, o.json, o.noheadings);
	if (!out) {
		sc_error("%s: %s", d.name, strerror(ENOMEM));
		rc = SC_EXIT_FAIL;
		goto out;
	}
	for (size_t i = 0; i < ng; i++) {
		char cgid[24], weight[16], busy[16], active[16], served[24];
		const char *row[G_NCOLS], *r2[G_NCOLS * 2], *src = "?";

		if (i == 0)
			src = "root";
		else if (cgmnt && g[i].path && have_dev)
			switch (sc_weight_source(cgmnt, g[i].path, maj, min)) {
			case SC_WSRC_OVERRIDE:
				src = "override";
				break;
			case SC_WSRC_DEFAULT:
				src = "default";
				break;
			default:
				break;
			}
		snprintf(cgid, sizeof(cgid), "%llu", g[i].cgid);
		snprintf(weight, sizeof(weight), "%u", g[i].weight);
		snprintf(busy, sizeof(busy), "%u", g[i].busy);
		snprintf(active, sizeof(active), "%u", g[i].active);
		snprintf(served, sizeof(served), "%llu", g[i].served);
		row[G_CGROUP] = i == 0 ? "/" : g[i].path ? g[i].path : "?";
		row[G_CGID] = cgid;
		row[G_WEIGHT] = weight;
		row[G_SOURCE] = src;
		row[G_BUSY] = busy;
		row[G_ACTIVE] = active;
		row[G_SERVED] = served;
		for (size_t k = 0; k < nsel; k++)
			r2[k] = row[sel[k]];
		if (sc_out_row(out, r2))
			rc = SC_EXIT_FAIL;
	}
	if (sc_out_print(out))
		rc = SC_EXIT_FAIL;
	sc_out_free(out);
out:
	sc_groups_free(g, ng);
	free(cgmnt);
	sc_device_free(&d);
	return rc;
}
