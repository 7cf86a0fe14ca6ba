#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run the KUnit suites of kernel/core under UML with the kernel's own
# kunit.py, in a linux-source-6.12 tree cached outside the repository.
#
#   scripts/kunit.sh            build (incrementally) and run every suite
#   VCUBE_CACHE=DIR             where the tree and the build live
#                               (default: ~/.cache/vcube)
#
# Prints kunit.py's report, then "kunit: N passed, N failed", and exits
# non-zero if anything failed or did not build.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${VCUBE_CACHE:-$HOME/.cache/vcube}
build=$cache/kunit-build
src=$("$top/scripts/linux-src.sh")

# Link kernel/core into the tree as drivers/vcube (re-pointed every run:
# each clone of the repository lives somewhere else).
ln -sfn "$top/kernel/core" "$src/drivers/vcube"
grep -q 'drivers/vcube/Kconfig' "$src/drivers/Kconfig" ||
	sed -i 's|^endmenu|source "drivers/vcube/Kconfig"\n\nendmenu|' "$src/drivers/Kconfig"
grep -q 'CONFIG_VCUBE_CORE' "$src/drivers/Makefile" ||
	echo 'obj-$(CONFIG_VCUBE_CORE) += vcube/' >> "$src/drivers/Makefile"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
cd "$src"
set +e
python3 tools/testing/kunit/kunit.py run --build_dir="$build" \
	--kunitconfig="$top/kernel/core/.kunitconfig" --jobs=2 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e

# kunit.py closes with "Testing complete. Ran N tests: passed: P, failed: F"
line=$(grep -a 'Testing complete' "$log" | tail -n 1 || true)
passed=$(sed -n 's/.*passed: \([0-9]*\).*/\1/p' <<<"$line")
failed=$(sed -n 's/.*failed: \([0-9]*\).*/\1/p' <<<"$line")
passed=${passed:-0}
failed=${failed:-0}
if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
	failed=1	# did not build or crashed: count it as one failure
fi
echo "kunit: $passed passed, $failed failed"
[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]
