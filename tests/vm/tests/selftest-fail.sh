# SPDX-License-Identifier: GPL-2.0
# Harness self-test, run on its own by `make check`: a failing assertion must
# turn the run red, and so must a process the test leaves running (the
# guest's /init kills it).  Not part of the normal test list.
. /tests/lib.sh
ok "a passing assertion"
is "1" "2" "a deliberately failing assertion"
setsid sleep 4322 </dev/null >/dev/null 2>&1 &
done_testing
