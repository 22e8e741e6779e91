// SPDX-License-Identifier: GPL-2.0
/* Runs every suite; the last line is "cli: N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>

#include "tests.h"

int main(void)
{
	SRunner *sr = srunner_create(suite_policy());
	int run, failed;

	srunner_add_suite(sr, suite_classify());
	srunner_add_suite(sr, suite_apply());
	srunner_add_suite(sr, suite_stats());
	srunner_add_suite(sr, suite_stacked());
	srunner_add_suite(sr, suite_groups());
	srunner_add_suite(sr, suite_shell());
	srunner_run_all(sr, CK_NORMAL);
	run = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	printf("cli: %d passed, %d failed\n", run - failed, failed);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
