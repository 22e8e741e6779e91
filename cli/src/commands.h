/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDCTL_COMMANDS_H
#define SCHEDCTL_COMMANDS_H

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

#endif
