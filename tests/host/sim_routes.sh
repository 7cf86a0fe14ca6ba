#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-sim --routes (issue 47, 5): the route each message took, whole.
# A dragonfly with minimal routing: every message minimal, and each one's
# channels vcube_topo_route()'s for its pair (vcubectl net export --full
# writes those, link ch<N> channel N); so on a hypercube (e-cube). With
# Valiant routing (its seed fixed) some messages are not minimal, and
# those take more hops than the fewest; UGAL-L never takes fewer. A fat
# tree's random up-routing is always minimal. The text form has a line a
# message; a path that cannot be written fails the run.
. "$(dirname "$0")/lib.bash"
sim=$top/build/bin/vcube-sim
ctl=$top/build/bin/vcubectl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
df="topology=dragonfly groups=4 routers=2 nodes=2 global=2"

# check FILE PY: the expression over the messages (m) holds
check() {
	python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["messages"]
assert m, "no messages"
assert eval(sys.argv[2]), [x for x in m][:3]' "$1" "$2"
}
# same_routes ROUTES XML: each message's channels are the export's route
same_routes() {
	python3 -c '
import json, re, sys
want = {}
for s, d, body in re.findall(r"<route src=\"n(\d+)\" dst=\"n(\d+)\"[^>]*>(.*?)</route>",
			     open(sys.argv[2]).read()):
    want[(int(s), int(d))] = [int(c) for c in re.findall(r"id=\"ch(\d+)\"", body)]
m = json.load(open(sys.argv[1]))["messages"]
bad = [x for x in m if x["src"] != x["dst"] and x["route"] != want[(x["src"], x["dst"])]]
assert m and not bad, bad[:3]' "$1" "$2"
}

run() { "$sim" --algo pex --len 256 -q "$@" > /dev/null; }

run $df routing=minimal --routes "$tmp/min.json"
t "dragonfly, minimal routing: every message minimal, hops = min_hops" \
	check "$tmp/min.json" 'all(x["minimal"] is True and x["hops"] == x["min_hops"] == len(x["route"]) for x in m)'
t "dragonfly, minimal routing: each route's links named as vcubectl links names them" \
	check "$tmp/min.json" 'all(len(x["route_links"]) == x["hops"] and x["route_links"][0].endswith(" inject") and x["route_links"][-1].endswith(" eject") for x in m)'
"$ctl" net export --simgrid --full -o "$tmp/df.xml" $df routing=minimal profile=cm5
t "dragonfly, minimal routing: each message's channels are vcube_topo_route()'s" \
	same_routes "$tmp/min.json" "$tmp/df.xml"

run --profile ipsc860 --dim 4 --routes "$tmp/cube.json"
"$ctl" net export --simgrid --full -o "$tmp/cube.xml" topology=hypercube dim=4
t "hypercube: each message's channels are vcube_topo_route()'s, minimal" \
	same_routes "$tmp/cube.json" "$tmp/cube.xml"
t "hypercube: every message minimal" check "$tmp/cube.json" 'all(x["minimal"] for x in m)'

run $df routing=valiant --routes "$tmp/val.json"
t "dragonfly, Valiant: some messages not minimal" \
	check "$tmp/val.json" 'any(x["minimal"] is False for x in m)'
# not minimal: through a third group, two global links; most such routes
# are longer than the fewest, some as long, a few shorter (two global
# links, no local one, where the minimal route has a local one each end)
t "dragonfly, Valiant: a route not minimal takes two global links, a minimal one at most one" \
	check "$tmp/val.json" 'all((sum(l.endswith(" global") for l in x["route_links"]) > 1) == (x["minimal"] is False) for x in m)'
t "dragonfly, Valiant: some routes not minimal have more hops than the fewest" \
	check "$tmp/val.json" 'any(x["hops"] > x["min_hops"] for x in m if x["minimal"] is False) and all(x["hops"] == x["min_hops"] for x in m if x["minimal"])'
run $df routing=valiant --routes "$tmp/val2.json"
t "dragonfly, Valiant: the same seed takes the same routes" \
	cmp "$tmp/val.json" "$tmp/val2.json"

run $df routing=ugal --routes "$tmp/ugal.json"
t "dragonfly, UGAL-L: minimal or not as it chose, by its global links" \
	check "$tmp/ugal.json" 'all((sum(l.endswith(" global") for l in x["route_links"]) > 1) == (x["minimal"] is False) for x in m)'

run --profile cm5 topology=fattree nodes=16 routing=random --routes "$tmp/ft.json"
t "fat tree, random up-routing: every route minimal" \
	check "$tmp/ft.json" 'all(x["minimal"] is True and x["hops"] == x["min_hops"] for x in m)'

run $df routing=valiant --routes "$tmp/val.txt"
t "text: a header and a line a message" \
	bash -c '[ "$(wc -l < "$1")" = $(( $(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))[\"messages\"]))" "$2") + 1 )) ]' _ "$tmp/val.txt" "$tmp/val.json"
t "text: minimal yes and no, with hops and min" \
	bash -c 'grep -q " hops [0-9]* min [0-9]* minimal no$" "$1" && grep -q " minimal yes$" "$1"' _ "$tmp/val.txt"
t "--routes into a directory not there: the run fails" \
	bash -c '! "$1" --algo pex --len 8 -q '"$df"' --routes "$2/none/r.json" 2>/dev/null' _ "$sim" "$tmp"
t "--help says --routes" bash -c '"$1" --help | grep -q -- "--routes FILE"' _ "$sim"
exit $fail
