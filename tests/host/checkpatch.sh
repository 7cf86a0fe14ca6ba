#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's own style checker on every kernel source file, with the
# checkpatch.pl of the cached linux-source-6.12 tree (scripts/linux-src.sh
# extracts it).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/linux-src.sh") || exit 1
cp=$src/scripts/checkpatch.pl
[ -x "$cp" ] || { echo "skip - checkpatch.pl not found (run scripts/kunit.sh once)"; exit 77; }
fail=0
cd "$top"
for f in kernel/*.[ch] kernel/core/*.[ch] include/uapi/linux/vcube.h; do
	ignore=
	# The one place version tests are meant to be (an out-of-tree module
	# building against 6.1 and 6.12); checkpatch warns about any of them.
	[ "$f" = kernel/compat.h ] && ignore=--ignore=LINUX_VERSION_CODE,CONSTANT_COMPARISON
	out=$("$cp" --no-tree --quiet --show-types $ignore -f "$f" 2>&1)
	if [ -z "$out" ]; then echo "ok - checkpatch $f"; else echo "not ok - checkpatch $f"; echo "$out" | sed 's/^/# /'; fail=1; fi
done
exit $fail
