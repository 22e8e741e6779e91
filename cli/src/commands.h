/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDCTL_COMMANDS_H
#define SCHEDCTL_COMMANDS_H

#include <stddef.h>

struct sc_group;

int cmd_list(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_classify(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_groups(int argc, char **argv);

/*
 * How groups reads a disk's groups over netlink: sc_nl_open and
 * sc_nl_get_groups, returning what they return.  In fake mode it returns
 * -SC_NL_ENOFAMILY (netlink is not faked), so the fake tree's debugfs
 * file is read instead.  Unit tests put their own in its place.
 */
extern int (*sc_groups_nl_read)(const char *disk, struct sc_group **g, size_t *n, char *err,
				size_t errlen);

#endif
