#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The layout issue 51 asked the code to keep, checked the way anyone can:
#   - no kernel/core file over 1,200 lines;
#   - no function over 80 lines in kernel/, userspace/ or tests/ (a definition
#     starts at column 0 and its body ends at a "}" in column 0);
#   - no circle among the files of kernel/, userspace/lib or vcubectl:
#     scripts/deps-graph.py reads which file calls which from the objects'
#     symbols (nm). The module's objects are those of the newest build under
#     build/<release>/; netlink-gen.c counts as part of netlink.c (the
#     kernel's ynl-gen layout: the generated table names the handlers and
#     the family registers the table).
# Each check is first shown to catch a planted offence.
. "$(dirname "$0")/lib.bash"
cd "$top" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
graph=scripts/deps-graph.py

long_functions() {
	awk '
	FNR == 1 { start = 0; body = 0 }
	/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig = $0; start = FNR }
	/^\{/ { if (start) body = 1 }
	/^\}/ { if (body && FNR - start + 1 > 80) printf "%s:%d %d %s\n", FILENAME, start, FNR - start + 1, sig; body = 0; start = 0 }
	' "$@"
}

long_files() {
	wc -l "$@" | awk '$2 != "total" && $1 > 1200 { print $2 " " $1 }'
}

# planted offences: an 82-line function, a 1,201-line file, a circle
{ echo 'static int f(void)'; echo '{'; for i in $(seq 80); do echo "	i = $i;"; done; echo '}'; } > "$tmp/long.c"
seq 1201 > "$tmp/big.c"
printf 'int b(void);\nint a(void) { return b(); }\n' > "$tmp/a.c"
printf 'int a(void);\nint b(void) { return a(); }\n' > "$tmp/b.c"
gcc -c "$tmp/a.c" -o "$tmp/a.o" && gcc -c "$tmp/b.c" -o "$tmp/b.o"
[ -n "$(long_functions "$tmp/long.c")" ] && [ -n "$(long_files "$tmp/big.c")" ] &&
	! "$graph" "$tmp/a.o" "$tmp/b.o" >/dev/null && "$graph" "$tmp/a.o" >/dev/null &&
	ok "the checks catch an 82-line function, a 1,201-line file and a two-file circle" ||
	no "the checks miss a planted offence"

big=$(long_files kernel/core/*.[ch])
[ -z "$big" ] && ok "no kernel/core file is over 1,200 lines" ||
	no "kernel/core files over 1,200 lines: $(tr '\n' ';' <<<"$big")"

srcs=$(find kernel userspace tests -name '*.c' | sort)
# shellcheck disable=SC2086
long=$(long_functions $srcs)
[ -z "$long" ] && ok "no function of the $(wc -w <<<"$srcs") C files of kernel/, userspace/ and tests/ is over 80 lines" ||
	no "functions over 80 lines: $(tr '\n' ';' <<<"$long")"

circles() {
	local what=$1 out
	shift
	if out=$("$graph" "$@"); then
		ok "no circle among the files of $what"
	else
		no "$what: $(tr '\n' ';' <<<"$out")"
	fi
}

kobj=$(ls -td build/*/kernel 2>/dev/null | head -1)
if [ -n "$kobj" ] && ls "$kobj"/*.o >/dev/null 2>&1; then
	circles kernel/ --unit kernel/netlink-gen.c=kernel/netlink.c "$kobj"/*.o "$kobj"/core/*.o
else
	no "no module build under build/*/kernel to read kernel/'s calls from"
fi

lib=$(find build/userspace/lib -name '*.o' 2>/dev/null | sort)
# shellcheck disable=SC2086
[ -n "$lib" ] && circles userspace/lib $lib || no "libvcube's objects are not built"

# vcubectl is built in one compiler call; compile its files alone here
flags="-std=c11 -D_GNU_SOURCE -DVCUBE_VERSION=\"0\" -Iinclude/uapi -Iuserspace/lib/include -Iuserspace/lib -Ikernel/core -Iuserspace/tools $(pkg-config --cflags libnl-genl-3.0)"
objs=()
for f in userspace/tools/vcubectl.c userspace/tools/vcubectl/*.c; do
	o=$tmp/$(sed 's|/|__|g; s|\.c$|.o|' <<<"$f")
	# shellcheck disable=SC2086
	gcc $flags -c "$f" -o "$o" || no "$f does not compile alone"
	objs+=("$o")
done
circles userspace/tools/vcubectl "${objs[@]}"
exit $fail
