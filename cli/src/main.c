// SPDX-License-Identifier: GPL-2.0
/* schedctl: argument dispatch to the commands (commands.c). */
#define _GNU_SOURCE
#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "commands.h"
#include "sysfs.h"

#ifndef SCHEDCTL_VERSION
#define SCHEDCTL_VERSION "0.1"
#endif

const char *argp_program_version = "schedctl " SCHEDCTL_VERSION;

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

#define CMD(n, f, s) { n, f, s }
static const struct command commands[] = {
	CMD("list", cmd_list, "every disk, its class, scheduler and policy"),
	CMD("get", cmd_get, "a disk's scheduler, knobs and queue attributes"),
	CMD("set", cmd_set, "change them, in order, with rollback on failure"),
	CMD("classify", cmd_classify, "a disk's class, why, and the policy that applies"),
	CMD("apply", cmd_apply, "apply the policy files to disks"),
	CMD("check", cmd_check, "check the policy files; touch no device"),
	CMD("reset", cmd_reset, "give disks the kernel's default scheduler back"),
	CMD("stats", cmd_stats, "scheduler counters, or rates every interval (netlink)"),
	CMD("monitor", cmd_monitor, "print scheduler events as they happen (netlink)"),
	CMD("groups", cmd_groups, "xbfq's cgroup groups on a disk: weights, service"),
};

static const char doc[] =
	"Choose and tune blk-mq I/O schedulers per disk.\v"
	"Commands:\n"
	"  list       every disk, its class, scheduler and policy\n"
	"  get        a disk's scheduler, knobs and queue attributes\n"
	"  set        change them, in order, with rollback on failure\n"
	"  classify   a disk's class, why, and the policy that applies\n"
	"  apply      apply the policy files to disks\n"
	"  check      check the policy files; touch no device\n"
	"  reset      give disks the kernel's default scheduler back\n"
	"  stats      scheduler counters, or rates every interval (netlink)\n"
	"  monitor    print scheduler events as they happen (netlink)\n"
	"  groups     xbfq's cgroup groups on a disk: weights, service\n"
	"\n"
	"\"schedctl COMMAND --help\" describes a command.  Exit status: 0 ok, "
	"1 failed (changes rolled back), 2 usage error (nothing written) or a "
	"policy file with an error (that file skipped), 3 failed and the rollback failed too (stats, monitor: 0 ok or "
	"interrupted, 1 failed, 2 usage; groups: 0 ok, 1 failed, 2 usage or unknown "
	"disk).  See schedctl(8).";

struct top {
	int cmd_index;		/* argv index of COMMAND */
};

static error_t parse_top(int key, char *arg, struct argp_state *state)
{
	struct top *t = state->input;

	(void)arg;
	switch (key) {
	case 'h':	/* as in util-linux */
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		return 0;
	case ARGP_KEY_ARG:
		t->cmd_index = state->next - 1;
		state->next = state->argc;	/* the rest is the command's */
		return 0;
	case ARGP_KEY_NO_ARGS:
		argp_usage(state);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp_option top_options[] = {
	{ NULL, 'h', NULL, 0, "give this help list (as --help)", -1 },
	{ 0 },
};

static const struct argp top_argp = { top_options, parse_top, "COMMAND [ARG...]", doc, NULL, NULL, NULL };

int main(int argc, char **argv)
{
	struct top t = { 0 };
	const char *name;
	char *prog = NULL;
	int rc;

	if (sc_io_init(NULL)) {
		fprintf(stderr, "schedctl: out of memory\n");
		return SC_EXIT_FAIL;
	}
	argp_err_exit_status = SC_EXIT_USAGE;
	argp_parse(&top_argp, argc, argv, ARGP_IN_ORDER, NULL, &t);
	name = argv[t.cmd_index];
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, name))
			continue;
		/* "schedctl set" in the command's usage and errors */
		if (asprintf(&prog, "schedctl %s", name) < 0)
			prog = NULL;
		argv[t.cmd_index] = prog ? prog : argv[t.cmd_index];
		rc = commands[i].run(argc - t.cmd_index, argv + t.cmd_index);
		free(prog);
		sc_io_fini();
		return rc;
	}
	fprintf(stderr, "schedctl: unknown command \"%s\" (try schedctl --help)\n", name);
	sc_io_fini();
	return SC_EXIT_USAGE;
}
