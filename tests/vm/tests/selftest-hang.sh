# SPDX-License-Identifier: GPL-2.0
# Harness self-test, run on its own by `make check` with a short
# xd.test_timeout: a test that never ends must be failed and killed by the
# guest's watchdog, children included, and the run must go on.
. /tests/lib.sh
sleep 4321 &
ok "started a child that outlives the test"
sleep 4322
ok "never reached"
done_testing
