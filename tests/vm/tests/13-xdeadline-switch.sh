# SPDX-License-Identifier: GPL-2.0
# Switch to and from xdeadline 200 times while fio writes and verifies:
# no I/O error, no hang, no request lost.
. /tests/lib.sh

switch_stress xdeadline
check "unload xdeadline" rmmod xdeadline
done_testing
