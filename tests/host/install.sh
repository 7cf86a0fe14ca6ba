#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make install into a scratch root; a program finds libvcube through its
# pkg-config file, builds with -Wall -Wextra -Werror and links, the
# netlink calls (libnl, which the static library needs) included.
. "$(dirname "$0")/lib.bash"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# The README's install block (scripts/doc-cmds.py get README.md install):
# its make install line as written, into a scratch root (DESTDIR); what
# it installs under $root/usr/local is checked below, then its cc line
# builds against it; vcube-run ./exchange runs in the guest
# (tests/vm/readme_bench.sh)
readme=$("$top/scripts/doc-cmds.py" get "$top/README.md" install)
mk=$(grep '^make install' <<< "$readme")
if [ -n "$mk" ] && (cd "$top" && eval "$mk DESTDIR=\"\$root\" -s") > "$root/log" 2>&1; then
	ok "README: $mk (DESTDIR=a scratch root)"
else
	no "README: '${mk:-no make install line}'"; cat "$root/log"; exit 1
fi
pre=$root/usr/local
for f in lib/libvcube.a lib/libvcube.so.0 lib/libvcube.so include/vcube.h include/linux/vcube.h lib/pkgconfig/libvcube.pc \
	 bin/vcubectl bin/vcube-run share/man/man8/vcubectl.8 share/man/man1/vcube-run.1; do
	[ -e "$pre/$f" ] && ok "installed usr/local/$f" || no "installed usr/local/$f"
done
# every libvcube call has its section-3 page (tests/host/man3.sh checks which)
n3=$(ls "$pre"/share/man/man3/vcube_*.3 2>/dev/null | wc -l)
[ "$n3" -gt 0 ] && [ "$n3" = "$(ls "$top"/docs/man/*.3 | wc -l)" ] &&
	ok "$n3 section-3 pages installed" || no "section-3 pages installed: $n3"
# every installed tool has its man page
for t in "$pre"/bin/*; do
	t=${t##*/}
	ls "$pre"/share/man/man[18]/"$t".[18] > /dev/null 2>&1 && ok "man page for $t" || no "no man page for $t"
done
cat > "$root/prog.c" <<'C'
#include <errno.h>
#include <vcube.h>
int main(void)
{
	unsigned int rank, size;
	struct vcube_nl *nl;

	/* no module here: the family is missing, but the call links */
	if (vcube_nl_open(&nl) == 0)
		vcube_nl_close(nl);
	return vcube_env_rank(&rank, &size) == -ENOENT ? 0 : 1;
}
C
export PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$pre/lib/pkgconfig
flags=$(pkg-config --cflags --libs libvcube 2>&1)
check_build() { gcc -std=c11 -Wall -Wextra -Werror "$root/prog.c" $flags -o "$root/prog" 2>&1; }
if out=$(check_build) && LD_LIBRARY_PATH=$pre/lib "$root/prog"; then ok "a program builds and links with pkg-config libvcube ($flags)"; else no "pkg-config build: $out"; fi
LD_LIBRARY_PATH=$pre/lib ldd "$root/prog" | grep -q "libvcube.so.0 => $pre/lib/libvcube.so.0" &&
	ok "it runs on the installed libvcube.so.0" || no "it does not load $pre/lib/libvcube.so.0"
# a static link: pkg-config --static adds libnl and libm
flags=$(pkg-config --static --cflags --libs libvcube 2>&1 | sed "s|-lvcube|$pre/lib/libvcube.a|")
if out=$(gcc -std=c11 -Wall -Wextra -Werror "$root/prog.c" $flags -o "$root/prog-static" 2>&1) &&
	! ldd "$root/prog-static" | grep -q libvcube && "$root/prog-static"; then
	ok "a static link with pkg-config --static ($flags)"
else
	no "static link: $out"
fi
# the README's build line, as written, against the installed tree
line=$(grep '^cc ' <<< "$readme")
mkdir -p "$root/work" && cp -r "$top/examples" "$root/work/"
if [ -n "$line" ] && out=$(cd "$root/work" && eval "$line" 2>&1) && [ -x "$root/work/exchange" ]; then
	ok "README: $line"
else
	no "README: '${line:-no cc line with pkg-config}': $out"
fi
# the README's build line against the tree itself, as written, from the top
line=$("$top/scripts/doc-cmds.py" get "$top/README.md" tree-build)
rm -f "$top/exchange"
if [ -n "$line" ] && out=$(cd "$top" && eval "$line" 2>&1) && [ -x "$top/exchange" ]; then
	ok "README: $line"
else
	no "README: '${line:-no cc line against build/lib/libvcube.a}': $out"
fi
rm -f "$top/exchange"
exit $fail
