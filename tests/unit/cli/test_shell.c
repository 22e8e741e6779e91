// SPDX-License-Identifier: GPL-2.0
/* The real binary (sanitizer build) against a fake root: test-cli.sh. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "tests.h"

START_TEST(binary)
{
	const char *script = getenv("CLI_SHELL_TEST");
	const char *bin = getenv("SCHEDCTL_BIN");
	char *cmd;
	int st;

	ck_assert_msg(script && bin, "CLI_SHELL_TEST and SCHEDCTL_BIN must be set (make -C cli check)");
	ck_assert_int_ge(asprintf(&cmd, "sh '%s' '%s'", script, bin), 0);
	st = system(cmd);
	free(cmd);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s failed (see its \"not ok\" lines)",
		      script);
}
END_TEST

Suite *suite_shell(void)
{
	Suite *s = suite_create("shell");
	TCase *tc = tcase_create("binary");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, binary);
	suite_add_tcase(s, tc);
	return s;
}
