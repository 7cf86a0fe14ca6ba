#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Generate the netlink parts that Documentation/netlink/specs/vcube.yaml
# describes, with the kernel's own generator (tools/net/ynl/ynl-gen-c.py of
# linux-source-6.12), which also validates the spec against the kernel's
# schema (Documentation/netlink/genetlink.yaml):
#   kernel/netlink-gen.[ch]   the ops table and the family
#   include/uapi/linux/vcube.h, between its "generated" markers: the enums
#
#   scripts/ynl-gen.sh          rewrite them
#   scripts/ynl-gen.sh --check  fail if they differ from what the spec gives
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(scripts/linux-src.sh)
# Debian's python3, where make deps puts python3-yaml and python3-jsonschema
py=/usr/bin/python3
[ -x $py ] || py=python3
check=0
[ "${1:-}" = --check ] && check=1
gen=$src/tools/net/ynl/ynl-gen-c.py

# ynl-gen-c wants the spec in a kernel-like tree: MAINTAINERS at the top,
# the schema two levels above the spec.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Documentation/netlink/specs" "$tmp/kernel" "$tmp/include/uapi/linux"
touch "$tmp/MAINTAINERS"
cp "$src/Documentation/netlink/genetlink.yaml" "$tmp/Documentation/netlink/"
cp Documentation/netlink/specs/vcube.yaml "$tmp/Documentation/netlink/specs/"
spec=$tmp/Documentation/netlink/specs/vcube.yaml
(cd "$tmp" &&
 $py "$gen" --mode kernel --header --spec "$spec" -o kernel/netlink-gen.h >/dev/null &&
 $py "$gen" --mode kernel --source --spec "$spec" -o kernel/netlink-gen.c >/dev/null &&
 $py "$gen" --mode uapi --header --spec "$spec" -o uapi.h >/dev/null)

# The enums (all between the family name and the final #endif) go into
# vcube.h between its markers; the rest of vcube.h is the ioctl ABI.
begin='/* ---- generic netlink: generated'
end='/* ---- end of generated part ---- */'
awk '/^#define VCUBE_FAMILY_NAME/ { on = 1 } on && /^#endif/ { on = 0 } on' \
	"$tmp/uapi.h" | sed -e '${/^$/d}' >"$tmp/enums"
awk -v b="$begin" -v e="$end" -v f="$tmp/enums" '
	index($0, b) == 1 { print; getline; print; while ((getline l < f) > 0) print l; skip = 1; next }
	index($0, e) == 1 { skip = 0 }
	!skip' include/uapi/linux/vcube.h >"$tmp/include/uapi/linux/vcube.h"

status=0
for f in kernel/netlink-gen.h kernel/netlink-gen.c include/uapi/linux/vcube.h; do
	if [ $check = 1 ]; then
		if ! diff -u "$f" "$tmp/$f"; then
			echo "ynl-gen: $f differs from what the spec generates (run scripts/ynl-gen.sh)" >&2
			status=1
		fi
	else
		cmp -s "$f" "$tmp/$f" 2>/dev/null || { cp "$tmp/$f" "$f"; echo "ynl-gen: wrote $f"; }
	fi
done
exit $status
