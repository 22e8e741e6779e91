# SPDX-License-Identifier: GPL-2.0
# Switch to and from xbfq 200 times while fio writes and verifies:
# no I/O error, no hang, no request lost.
. /tests/lib.sh

switch_stress xbfq
check "unload xbfq" rmmod xbfq
done_testing
