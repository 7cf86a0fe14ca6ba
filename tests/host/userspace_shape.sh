#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The shape issue 14 asked the userspace code to keep: no function longer
# than 80 lines (userspace/, C), and no string compare on an algorithm's
# name outside the registry (userspace/lib/algo.c): the names are the
# registry's own (vcube-bench list --json). Each check is first shown to
# catch a planted offence.
. "$(dirname "$0")/lib.bash"
cd "$top" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# file:line length name, for each function over 80 lines (a definition
# starts at column 0 and its body ends at a "}" in column 0)
long_functions() {
	awk '
	FNR == 1 { start = 0; body = 0 }
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig = $0; start = FNR }
	/^\{/ { if (start) body = 1 }
	/^\}/ { if (body && FNR - start + 1 > 80) printf "%s:%d %d %s\n", FILENAME, start, FNR - start + 1, sig; body = 0; start = 0 }
	' "$@"
}

# file:line: text, for each strcmp on one of @names outside algo.c
name_compares() {
	local names=$1
	shift
	grep -nE "str(n)?cmp\\([^;]*\"($names)\"" "$@" | grep -v '^userspace/lib/algo.c:'
}

# the checkers catch a planted offence
{ echo 'static int f(void)'; echo '{'; for i in $(seq 80); do echo "	i = $i;"; done; echo '}'; } > "$tmp/long.c"
printf 'if (!strcmp(algo, "pex"))\n' > "$tmp/cmp.c"
[ -n "$(long_functions "$tmp/long.c")" ] && [ -n "$(name_compares 'pex' "$tmp/cmp.c")" ] &&
	ok "the checks catch an 82-line function and a compare on \"pex\"" ||
	no "the checks miss a planted offence"

srcs=$(find userspace -name '*.c' | sort)
# shellcheck disable=SC2086
long=$(long_functions $srcs)
n=$(wc -w <<<"$srcs")
[ -z "$long" ] && ok "no function of the $n userspace C files is over 80 lines" ||
	no "functions over 80 lines: $(tr '\n' ';' <<<"$long")"

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
