#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The netlink spec: valid against the kernel's schema for generic netlink
# families, and what the kernel's generator makes of it is what is
# committed (kernel/netlink-gen.[ch], the enums in include/uapi/linux/vcube.h).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
src=$(scripts/linux-src.sh) || exit 1
# Debian's python3, where make deps puts python3-yaml and python3-jsonschema
py=/usr/bin/python3
[ -x $py ] || py=python3
fail=0
out=$($py - "$src/Documentation/netlink/genetlink.yaml" Documentation/netlink/specs/vcube.yaml 2>&1 <<'PY'
import sys, yaml, jsonschema
schema = yaml.safe_load(open(sys.argv[1]))
spec = yaml.safe_load(open(sys.argv[2]))
jsonschema.validate(spec, schema)
print(len(spec["operations"]["list"]), "operations")
PY
)
if [ $? = 0 ]; then echo "ok - vcube.yaml validates against genetlink.yaml ($out)"; else echo "not ok - vcube.yaml against genetlink.yaml"; echo "$out" | sed 's/^/# /'; fail=1; fi
# a spec that breaks the schema is refused: the check is real
bad=$(mktemp)
sed 's/^protocol: genetlink$/protocol: genetlink\nbogus-key: 1/' Documentation/netlink/specs/vcube.yaml > "$bad"
$py -c 'import sys, yaml, jsonschema; jsonschema.validate(yaml.safe_load(open(sys.argv[2])), yaml.safe_load(open(sys.argv[1])))' \
	"$src/Documentation/netlink/genetlink.yaml" "$bad" >/dev/null 2>&1
if [ $? != 0 ]; then echo "ok - a spec with an unknown key is refused"; else echo "not ok - a spec with an unknown key passes"; fail=1; fi
rm -f "$bad"
out=$(scripts/ynl-gen.sh --check 2>&1)
if [ $? = 0 ]; then echo "ok - generated netlink code matches the spec"; else echo "not ok - generated netlink code matches the spec"; echo "$out" | head -n 30 | sed 's/^/# /'; fail=1; fi
exit $fail
