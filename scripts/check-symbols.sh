#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The shared libvcube exports what its map says, and the map's public node
# is the public header: fails (and so fails the build) on an accidental
# export, a function the header declares but the library does not export,
# or a name in the map the library does not define.
#
#   scripts/check-symbols.sh LIBRARY.so MAP HEADER [CC_FLAGS...]
set -euo pipefail
lib=$1 map=$2 header=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the functions the header declares, as the compiler reads it
hdr=$(realpath "$header")
echo "#include \"$hdr\"" |
	${CC:-cc} -std=c11 -D_GNU_SOURCE "$@" -fsyntax-only -aux-info "$tmp/aux" -x c - -o /dev/null
grep -F "/* $hdr:" "$tmp/aux" | grep ' extern ' | grep -oE '\bvcube_[a-z0-9_]+ \(' | tr -d ' (' | sort -u > "$tmp/header"

# the map's names, node by node (comments stripped)
sed -e 's|/\*.*\*/||' -e '/\/\*/,/\*\//d' "$map" | awk '
	/^[A-Za-z_0-9]+ *\{/ { node = $1; next }
	/^}/ { node = ""; next }
	node != "" && /^[ \t]*[a-z_0-9]+;/ { gsub(/[ \t;]/, ""); print node, $0 }
' > "$tmp/map"
awk '$1 == "VCUBE_0" { print $2 }' "$tmp/map" | sort > "$tmp/public"
awk '{ print $2 }' "$tmp/map" | sort > "$tmp/all"

# what the library exports, with the version node each name is bound to
nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sed 's/@@*.*//' | sort > "$tmp/exported"

bad=0
report() {
	local what=$1 file=$2
	if [ -s "$file" ]; then
		echo "check-symbols: $what: $(tr '\n' ' ' < "$file")" >&2
		bad=1
	fi
}
comm -23 "$tmp/header" "$tmp/public" > "$tmp/d1"
report "declared in $header, not in $map's VCUBE_0" "$tmp/d1"
comm -13 "$tmp/header" "$tmp/public" > "$tmp/d2"
report "in $map's VCUBE_0, not declared in $header" "$tmp/d2"
comm -13 "$tmp/all" "$tmp/exported" > "$tmp/d3"
report "exported by $lib, not in $map" "$tmp/d3"
comm -23 "$tmp/all" "$tmp/exported" > "$tmp/d4"
report "in $map, not defined by $lib" "$tmp/d4"
[ $bad -eq 0 ] || exit 1
echo "check-symbols: $(basename "$lib") exports $(wc -l < "$tmp/public") public and $(($(wc -l < "$tmp/all") - $(wc -l < "$tmp/public"))) private functions, as $map says"
