#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every tool's JSON is json-c's (issue 51): a string a user controls, with
# a quote, a backslash, a tab, a control character and non-ASCII letters,
# comes back as it went in, and every output parses (python3 -m
# json.tool). The fields: vcube-sim's --profile (a file's path),
# vcube-bench's facts and algorithm names read back from a CSV (--from),
# vcubectl's network as sysfs says it (--sysfs). vcube-chart and
# vcubectl trace --format perfetto need the module: tests/vm/.
. "$(dirname "$0")/lib.bash"
bin=$top/build/bin
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
odd=$'q"uo\\te\ttab\x01ctl \xc3\xa9t\xc3\xa9 \xcf\x80'
# the same characters, short enough for a profile's name (15 bytes)
short=$'p"\\\t\x01\xc3\xa9\xcf\x80'

# parses FILE: python3's json.tool reads it
parses() { python3 -m json.tool "$1" > /dev/null; }
# same FILE PY-EXPR [WANT]: the expression on the parsed file ($d["..."])
# is WANT ($odd)
same() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
got = eval(sys.argv[2], {"d": d})
assert got == sys.argv[3], (got, sys.argv[3])' "$1" "$2" "${3-$odd}"
}

# --- vcube-sim: the profile file's path, in the result --------------------
mkdir "$d/p"
prof="$d/p/$odd"$'\n'"line"
printf 'base=generic\nalpha_ps=1000000\nbyte_ps=100\n' > "$prof"
"$bin/vcube-sim" --profile "$prof" --procs 4 --algo pex --len 64 -j > "$d/sim" 2> "$d/e"
t "vcube-sim -j with an odd --profile path: JSON that parses" parses "$d/sim"
t "vcube-sim -j: the path comes back as it went in" python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
assert d["profile"] == sys.argv[2] and d["time_ns"] > 0, d' "$d/sim" "$prof"
"$bin/vcube-sim" --profile "$prof" --costs -j > "$d/costs"
t "vcube-sim --costs -j parses" parses "$d/costs"
"$bin/vcube-sim" --list -j > "$d/list"
t "vcube-sim --list -j parses" parses "$d/list"

# --- vcube-bench: a CSV's facts and algorithm names, as --from reads them --
# a CSV fact's quoting: \" and \\ in double quotes
csvq() { local q=${1//\\/\\\\}; q=${q//\"/\\\"}; printf '"%s"' "$q"; }
{
	echo "# topology=mesh shape=$(csvq "$odd") nodes=16 profile=$(csvq "$short") seed=1 procs=16 reps=1 density=0"
	echo "algo,bytes,min_ns,avg_ns,max_ns,ok"
	echo "${odd:0:20},64,1000,1500.5,2000,1"
	echo "pex,64,900,950.0,1000,0"
} > "$d/odd.csv"
"$bin/vcube-bench" redraw --from "$d/odd.csv" --json > "$d/bench" 2> "$d/e"
t "vcube-bench redraw --from --json with odd facts: JSON that parses" parses "$d/bench"
t "vcube-bench --json: the shape comes back" same "$d/bench" 'd["network"]["shape"]'
t "vcube-bench --json: the profile comes back" same "$d/bench" 'd["network"]["profile"]' "$short"
t "vcube-bench --json: the algorithm's name comes back" python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
r = d["results"]
assert r[0]["algo"] == sys.argv[2][:20] and r[0]["avg"] == 1500.5, r
assert r[1]["algo"] == "pex" and r[1]["ok"] is False, r' "$d/bench" "$odd"
"$bin/vcube-bench" list --json > "$d/blist"
t "vcube-bench list --json parses" parses "$d/blist"

# --- vcubectl: the network's shape and profile as sysfs gives them ---------
fx=$d/sys
mkdir "$fx"
printf 'mesh\n' > "$fx/topology"; printf '%s\n' "$odd" > "$fx/shape"
printf '%s\n' "$short" > "$fx/profile"; printf '2\n' > "$fx/nodes"
printf '2\n' > "$fx/channels"; printf '1\n' > "$fx/diameter"; printf '7\n' > "$fx/seed"
for fl in -j -p; do
	"$bin/vcubectl" --sysfs "$fx" $fl show > "$d/ctl$fl" 2> "$d/e"
	t "vcubectl $fl show with an odd shape: JSON that parses" parses "$d/ctl$fl"
	t "vcubectl $fl show: the shape comes back" same "$d/ctl$fl" 'd["shape"]'
	t "vcubectl $fl show: the profile comes back" same "$d/ctl$fl" 'd["profile"]' "$short"
done
t "vcubectl -j show: one line" sh -c "[ \$(wc -l < '$d/ctl-j') = 1 ]"

# --- no tool escapes JSON by hand any more ---------------------------------
t "the tools link json-c" sh -c "for b in vcube-sim vcube-bench vcubectl vcube-chart; do ldd '$bin/'\$b | grep -q libjson-c || exit 1; done"
exit $fail
