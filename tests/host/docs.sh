#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The documentation lives in the repository: every link and every path the
# README and docs/ name (in a markdown link or in backquotes) exists here,
# none leaves the tree; and every SPDX licence identifier the sources use
# has its text under LICENSES/, as in the kernel.
. "$(dirname "$0")/lib.bash"
cd "$top" || exit 1

docs=(README.md docs/*.md)
missing=()
n=0
for f in "${docs[@]}"; do
	dir=$(dirname "$f")
	# markdown links and images, relative to the document
	while read -r l; do
		n=$((n + 1))
		[ -e "$dir/$l" ] || missing+=("$f: ($l)")
	done < <(grep -o '](\([^)#: ]*\))' "$f" | sed 's/^](//; s/)$//')
	# paths in backquotes, relative to the top: a known directory first
	while read -r l; do
		n=$((n + 1))
		l=${l%%:*}
		case $l in
		*[*?[]*) [ -n "$(compgen -G "$l")" ] && [ -e "$(compgen -G "$l" | head -n 1)" ] ;;
		*) [ -e "$l" ] ;;
		esac || missing+=("$f: \`$l\`")
	done < <(grep -o '`\(kernel\|userspace\|scripts\|tests\|docs\|data\|bench\|include\|LICENSES\)/[^` ]*`' "$f" |
		tr -d '`' | sed 's/[(),.;]*$//')
done
if [ ${#missing[@]} = 0 ]; then
	ok "README.md and docs/: $n links and paths, each to a file in the repository"
else
	no "docs name ${#missing[@]} paths that do not exist: ${missing[*]:0:8}"
fi
out=$(grep -n '\.\./shared\|\.\./\.\./' "${docs[@]}" | head -n 3)
[ -z "$out" ] && ok "no document points outside the repository" || no "points outside: $out"

ids=$(git ls-files | grep -v '^LICENSES/' | xargs grep -h -o 'SPDX-License-Identifier: [A-Za-z0-9.+() -]*' 2>/dev/null |
	sed 's/SPDX-License-Identifier: *//; s/ *\*\/.*//; s/[()]/ /g' | tr ' ' '\n' |
	grep -v -x -e '' -e OR -e AND -e WITH | grep -x '[A-Za-z0-9.+-]*' | sort -u)
lack=()
for id in $ids; do
	[ -e "$(compgen -G "LICENSES/*/$id" | head -n 1)" ] || lack+=("$id")
done
[ ${#lack[@]} = 0 ] && ok "every SPDX identifier used has its text in LICENSES/: $(echo $ids)" ||
	no "no licence text in LICENSES/ for: ${lack[*]}"
# the times the README gives are the lines the targets wrote (never typed):
# each marked block holds what scripts/readme-table.sh put there
between() { awk -v b="<!-- $1: begin -->" -v e="<!-- $1: end -->" '$0 == e { p = 0 } p; $0 == b { p = 1 }' README.md; }
between demo-time | grep -qx '`make demo` took [0-9]*:[0-9][0-9] in its last run here (20[0-9-]*, [0-9]* processors, \(`make deps` installing the packages\|the packages already installed\)).' &&
	ok "the README's make demo time is scripts/demo-time.sh's line" ||
	no "the README's demo-time block: '$(between demo-time)'"
between check-times | grep -q '^| all of them, on [0-9]* processors (20[0-9-]*) | [0-9]*:[0-9][0-9] |$' &&
	ok "the README's make check times are scripts/check.sh's table" ||
	no "the README's check-times block: '$(between check-times | tail -n 1)'"
between check-debug-times | grep -q '^| the tests, on [0-9]* processors (20[0-9-]*): [0-9]* passed, 0 failed | [0-9]*:[0-9][0-9] |$' &&
	ok "the README's make check-debug times are scripts/check-debug.sh's table, of a run that passed" ||
	no "the README's check-debug-times block: '$(between check-debug-times | tail -n 1)'"
blk=$(between mpi-example)
[ "$(grep -c '^| [A-Za-z_0-9]* | [0-9.]* | [0-9.]* | yes |$' <<< "$blk")" -ge 5 ] &&
	! grep -q '| no |$' <<< "$blk" &&
	grep -q "^The same source built with Open MPI's mpicc and run by \`mpirun -n 32\` on the [0-9]*-processor host" <<< "$blk" &&
	ok "the README's MPI example table is make mpi-example's, every algorithm the same to the ns" ||
	no "the README's mpi-example block: '$(head -n 3 <<< "$blk")'"
exit $fail
