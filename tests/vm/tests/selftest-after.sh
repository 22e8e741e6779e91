# SPDX-License-Identifier: GPL-2.0
# Harness self-test: runs after selftest-hang and checks that the watchdog
# killed the hung test's whole process group.
. /tests/lib.sh
is "$(pgrep -f 'sleep 432[12]' | wc -l)" 0 "the hung test's processes are gone"
done_testing
