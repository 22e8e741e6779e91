/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDCTL_TESTS_H
#define SCHEDCTL_TESTS_H

#include <check.h>

Suite *suite_policy(void);
Suite *suite_classify(void);
Suite *suite_apply(void);
Suite *suite_shell(void);
Suite *suite_stats(void);
Suite *suite_stacked(void);
Suite *suite_groups(void);

#endif
