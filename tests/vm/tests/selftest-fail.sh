# SPDX-License-Identifier: GPL-2.0
# Harness self-test, run on its own by `make check`: a failing assertion must
# turn the run red.  Not part of the normal test list.
. /tests/lib.sh
ok "a passing assertion"
is "1" "2" "a deliberately failing assertion"
done_testing
