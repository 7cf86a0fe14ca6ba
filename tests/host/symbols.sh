#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The shared libvcube: its soname, its exports (exactly the map's, the
# public ones exactly the header's), scripts/check-symbols.sh refusing a
# map that exports too much, too little or a name the library lacks, and
# the tools linked against it (LIB_LINK=shared) running.
. "$(dirname "$0")/lib.bash"
cd "$top"
so=build/lib/libvcube.so.$(cat VERSION)
map=userspace/lib/libvcube.map
hdr=userspace/lib/include/vcube.h
inc=(-Iinclude/uapi -Iuserspace/lib/include)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -f "$so" ] || { no "$so is built (make userspace)"; exit 1; }
soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libvcube.so.0 ] && ok "soname $soname" || no "soname: '$soname'"
[ "$(readlink build/lib/libvcube.so)" = libvcube.so.0 ] && [ -e build/lib/libvcube.so ] &&
	ok "libvcube.so -> libvcube.so.0 -> $(readlink build/lib/libvcube.so.0)" || no "the development links"
t "the library, its map and its header agree" scripts/check-symbols.sh "$so" "$map" "$hdr" "${inc[@]}"
# every export carries a version node
bad=$(objdump -T "$so" | awk '$2 == "g" && $4 == ".text" && $6 !~ /^VCUBE_(PRIVATE_)?0$/ { print $NF }')
[ -z "$bad" ] && ok "every exported function is in VCUBE_0 or VCUBE_PRIVATE_0" || no "unversioned exports: $bad"
# the library's internals stay inside it
objdump -T "$so" | grep -q 'vcube_plan_pex$' && no "internal vcube_plan_pex is exported" ||
	ok "internal functions (vcube_plan_pex) are not exported"
ldd "$so" | grep -q 'libnl-genl-3' && ok "libvcube.so records its libnl dependency" ||
	no "libvcube.so does not need libnl-genl-3"

# The check fails on each kind of disagreement. The library objects are
# linked again with a changed map.
objs=$(ls build/pic/userspace/lib/*.o build/pic/userspace/lib/plan/*.o)
nl=$(pkg-config --libs libnl-genl-3.0)
relink() {
	gcc -shared -Wl,-soname,libvcube.so.0 -Wl,--no-undefined -Wl,--version-script="$1" \
		-o "$tmp/lib.so" $objs $nl -lm
}
refused() {
	local what=$1 m=$2
	if ! relink "$m" > "$tmp/out" 2>&1; then
		no "$what: the library did not link: $(head -n 3 "$tmp/out")"
	elif scripts/check-symbols.sh "$tmp/lib.so" "$m" "$hdr" "${inc[@]}" > "$tmp/out" 2>&1; then
		no "$what: check-symbols passed"
	else
		ok "$what: refused ($(head -n 1 "$tmp/out"))"
	fi
}
# an internal function exported by a wildcard
sed 's/^\tvcube_plan_run;/\tvcube_plan_*;/' "$map" > "$tmp/wild.map"
refused "an accidental export (vcube_plan_* in the map)" "$tmp/wild.map"
# a public function left out
sed '/^\tvcube_node_open;/d' "$map" > "$tmp/missing.map"
refused "a declared function missing from the map (vcube_node_open)" "$tmp/missing.map"
# a name the library does not define
sed 's/^\tvcube_plan_run;/\tvcube_plan_run;\n\tvcube_no_such_call;/' "$map" > "$tmp/extra.map"
refused "a map naming a function the library lacks" "$tmp/extra.map"
# a private function moved into the public node
sed -e '/^\tvcube_plan_run;/d' -e 's/^\tvcube_node_open;/\tvcube_node_open;\n\tvcube_plan_run;/' "$map" > "$tmp/pub.map"
refused "a private function in VCUBE_0 (not declared in $hdr)" "$tmp/pub.map"

# The tools, linked against the shared library, run from it.
if make -s B="$tmp/b" LIB_LINK=shared "$tmp/b/bin/vcube-sim" "$tmp/b/bin/vcubectl" > "$tmp/out" 2>&1; then
	ok "vcube-sim and vcubectl link against libvcube.so (LIB_LINK=shared)"
else
	no "LIB_LINK=shared build: $(grep -m 3 -E 'error|Error' "$tmp/out")"
fi
export LD_LIBRARY_PATH=$tmp/b/lib
ldd "$tmp/b/bin/vcube-sim" | grep -q "libvcube.so.0 => $tmp/b/lib/" &&
	ok "vcube-sim loads libvcube.so.0" || no "vcube-sim does not load libvcube.so.0"
want=$(build/bin/vcube-sim --profile delta --rows 4 --cols 4 --algo pex --len 1024 --json)
got=$("$tmp/b/bin/vcube-sim" --profile delta --rows 4 --cols 4 --algo pex --len 1024 --json)
[ -n "$got" ] && [ "$got" = "$want" ] && ok "vcube-sim on libvcube.so prints what the static build does" ||
	no "vcube-sim on libvcube.so: '$got', static: '$want'"
"$tmp/b/bin/vcubectl" --help > /dev/null 2>&1 && ok "vcubectl --help on libvcube.so" || no "vcubectl --help on libvcube.so"
exit $fail
