#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.sh: run the kernel's scripts/checkpatch.pl --no-tree -f over
# every kernel source file in kmod/ and tests/simdisk/; any error or
# warning fails.
# Prints "checkpatch: N passed, N failed" (one per file).
set -uo pipefail
. "$(dirname "$0")/vm/common.sh"

"$VM_DIR/fetch-kernel.sh" 6.1 >/dev/null 2>&1 || die "cannot resolve the 6.1 kernel"
ksrc=$("$VM_DIR/fetch-ksrc.sh" 6.1) || die "cannot fetch checkpatch.pl"
passed=0
failed=0
cd "$REPO_DIR"
for f in $(git ls-files 'kmod/*.c' 'kmod/*.h' 'tests/simdisk/*.c' 'tests/simdisk/*.h'); do
	if out=$(perl "$ksrc/scripts/checkpatch.pl" --no-tree --quiet -f "$f" 2>&1) && [ -z "$out" ]; then
		passed=$((passed + 1))
		echo "ok - checkpatch $f"
	else
		failed=$((failed + 1))
		echo "not ok - checkpatch $f"
		echo "$out" | sed 's/^/#   /'
	fi
done
echo "checkpatch: $passed passed, $failed failed"
[ "$failed" = 0 ]
