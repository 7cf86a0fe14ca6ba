#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The shape issue 14 asked the userspace code to keep: no string compare
# on an algorithm's name outside the registry (userspace/lib/algo.c): the
# names are the registry's own (vcube-bench list --json). The check is
# first shown to catch a planted offence. (Function lengths are
# tests/host/layout.sh's, for kernel/, userspace/ and tests/.)
. "$(dirname "$0")/lib.bash"
cd "$top" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# file:line: text, for each strcmp on one of @names outside algo.c
name_compares() {
	local names=$1
	shift
	grep -nE "str(n)?cmp\\([^;]*\"($names)\"" "$@" | grep -v '^userspace/lib/algo.c:'
}

# the checker catches a planted offence
printf 'if (!strcmp(algo, "pex"))\n' > "$tmp/cmp.c"
[ -n "$(name_compares 'pex' "$tmp/cmp.c")" ] &&
	ok "the check catches a compare on \"pex\"" ||
	no "the check misses a planted offence"

srcs=$(find userspace -name '*.c' | sort)
bench=build/bin/vcube-bench
if [ -x "$bench" ]; then
	names=$("$bench" list --json | sed -n 's/.*"name": "\([A-Za-z0-9_]*\)".*/\1/p' | sort -u | paste -sd'|')
	# shellcheck disable=SC2086
	cmps=$(name_compares "$names" $srcs)
	[ -n "$names" ] && [ -z "$cmps" ] &&
		ok "no string compare on any of the registry's $(tr '|' '\n' <<<"$names" | wc -l) names outside userspace/lib/algo.c" ||
		no "algorithm names compared outside the registry: $(tr '\n' ';' <<<"$cmps")"
else
	no "$bench is not built"
fi
exit $fail
