#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-sim on networks read from files (topology=graph file=PATH): a
# published machine's wiring as networkx writes GraphML (Besta & Hoefler's
# Slim Fly, made here by scripts/graphs/slimfly.py, never kept in the tree)
# and our anynet file in BookSim2's grammar (examples/booksim-ring.anynet).
# Each runs a complete exchange to the same virtual ns twice; a bad file,
# format= or topology=graph alone exits 2 in one line; an algorithm the
# graph does not fit is refused. vcube-sim prints no routes: the ring's
# are checked against hand-worked lengths by tests/host/graph_test.c.
. "$(dirname "$0")/lib.bash"
sim=$top/build/bin/vcube-sim
ring=$top/examples/booksim-ring.anynet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# packet switching: shortest paths over the ring's cycles, with no
# virtual channels, can deadlock a circuit-switched or 2-lane profile
run="--profile cm5 --len 4096 -q"

# networkx is make deps' (python3-networkx), so its absence fails
if /usr/bin/python3 -c 'import networkx' 2>/dev/null; then
	ok "/usr/bin/python3 imports networkx"
else
	no "/usr/bin/python3 cannot import networkx: run 'make deps' (python3-networkx)"
fi
out=$(/usr/bin/python3 "$top/scripts/graphs/slimfly.py" "$tmp/slimfly.graphml" 2>&1)
[ $? = 0 ] && [ -s "$tmp/slimfly.graphml" ] &&
	ok "slimfly.py: $out" || no "slimfly.py: $(tail -n 3 <<<"$out")"
# a q the construction does not take fails loudly, and writes nothing
err=$(/usr/bin/python3 "$top/scripts/graphs/slimfly.py" -q 7 "$tmp/q7.graphml" 2>&1)
[ $? != 0 ] && grep -q "q=7: this construction takes a prime q = 4w + 1" <<<"$err" &&
	[ ! -e "$tmp/q7.graphml" ] && ok "slimfly.py -q 7: refused" ||
	no "slimfly.py -q 7: $(tail -n 1 <<<"$err")"

# $1 the file, $2 the shape vcube-sim must print, $3 the algorithm, then
# more words: the run, twice, to the same JSON (time, messages, events)
same_twice() {
	local file=$1 shape=$2 algo=$3 a b t
	shift 3
	a=$("$sim" $run -j --algo "$algo" "$@" file="$file" 2>&1)
	b=$("$sim" $run -j --algo "$algo" "$@" file="$file" 2>&1)
	t=$(sed -n 's/.*"shape":"\([^"]*\)".*"time_ns":\([0-9]*\).*/\1 \2/p' <<<"$a")
	if [ "${t% *}" = "$shape" ] && [ "${t#* }" -gt 0 ] && [ "$a" = "$b" ]; then
		ok "$algo on ${file##*/}${*:+ $*}: $t ns, twice"
	else
		no "$algo on ${file##*/}${*:+ $*}: '$a', then '$b'"
	fi
}
sf=$tmp/slimfly.graphml
same_twice "$sf" routers=50,nodes=200,links=175 linear
same_twice "$sf" routers=50,nodes=200,links=175 gen topology=graph format=graphml
same_twice "$ring" routers=8,nodes=16,links=10 pairwise
same_twice "$ring" routers=8,nodes=16,links=10 pex topology=graph format=anynet
# the text line: five words, the shape one of them
out=$("$sim" $run --algo linear file="$sf" 2>&1)
set -- $out
[ $# = 5 ] && [ "$1 $2 $3 $4" = "cm5 linear routers=50,nodes=200,links=175 4096" ] &&
	ok "text: $out" || no "text: $out"
# file= alone is topology=graph: the same ns either way
a=$("$sim" $run --ns --algo pairwise file="$ring")
b=$("$sim" $run --ns --algo pairwise --topology graph file="$ring")
[ -n "$a" ] && [ "$a" = "$b" ] && ok "file= alone is topology=graph: ${a##* } ns" ||
	no "file= alone: '$a', --topology graph: '$b'"

# exit 2 and one line that names the problem
printf 'router 0 node 0 router 1\nrouter 1 node 1 wire 0\n' > "$tmp/bad.anynet"
while IFS='|' read -r want words; do
	eval "set -- $words"
	err=$("$sim" $run --algo linear "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc = 2 ] && [ "$(grep -c . <<<"$err")" = 1 ] && grep -qF -- "$want" <<<"$err"; then
		ok "$words: exit 2 ($err)"
	else
		no "$words: exit $rc, '$err' (wanted '$want')"
	fi
done <<EOF
$tmp/none.anynet: No such file|file=$tmp/none.anynet
bad.anynet:2: 'wire'|file=$tmp/bad.anynet
format=bogus|file=$ring format=bogus
format= needs file=|format=anynet
topology=graph needs file=|topology=graph
not well-formed XML|file=$ring format=graphml
do not apply to topology=mesh|--topology mesh file=$ring
--procs 8: the network has 16 nodes|--procs 8 file=$ring
EOF
# an algorithm for a power of two (a hypercube's) or a grid is refused
# where the graph is not one, as on any topology: 200 nodes, then no grid
for c in "pairwise $sf" "standard_F $sf" "torus $ring"; do
	set -- $c
	err=$("$sim" $run --algo "$1" file="$2" 2>&1 >/dev/null)
	rc=$?
	[ $rc = 2 ] && [ "$err" = "vcube-sim: not on this network: $1" ] &&
		ok "$1 on ${2##*/}: refused ($err)" || no "$1 on ${2##*/}: exit $rc, '$err'"
done

# a GraphML file's own costs: three routers in a line, a node each, the
# link 0-1 at 500 ns and 12.5 GB/s (80 ps a byte, twice slingshot's 40).
# A broadcast from 0 (binomial: 0 -> 1, then 0 -> 2) crosses it twice,
# each time 500 ns and 8000 x 40 ps later than on the same line without
# the costs: 2 x 820 ns, to the ns
line() {
	printf '<?xml version="1.0"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
	printf '<key id="e" for="node" attr.name="endpoints" attr.type="long"/>\n'
	printf '<key id="l" for="edge" attr.name="latency" attr.type="string"/>\n'
	printf '<key id="b" for="edge" attr.name="bandwidth" attr.type="string"/>\n'
	printf '<graph edgedefault="undirected">\n'
	for r in 0 1 2; do printf '<node id="%d"><data key="e">1</data></node>\n' $r; done
	printf '<edge source="0" target="1">%s</edge>\n' "$1"
	printf '<edge source="1" target="2"/>\n</graph>\n</graphml>\n'
}
line '<data key="l">500ns</data><data key="b">12.5GB/s</data>' > "$tmp/costs.graphml"
line '' > "$tmp/plain.graphml"
bc="-q --ns --profile slingshot --kind bcast --algo tree --len 8000"
a=$("$sim" $bc file="$tmp/plain.graphml" 2>&1)
b=$("$sim" $bc file="$tmp/costs.graphml" 2>&1)
[ $((${b##* } - ${a##* })) = 1640 ] &&
	ok "GraphML link costs: a tree broadcast 1640 ns later (${a##* } -> ${b##* })" ||
	no "GraphML link costs: '$a' then '$b'"
# anynet's latencies are cycles: said, and the profile's costs apply
printf 'router 0 node 0 router 1 5\nrouter 1 node 1\n' > "$tmp/cyc.anynet"
err=$("$sim" $bc file="$tmp/cyc.anynet" 2>&1 >/dev/null)
grep -q "anynet's latencies are cycles, not modelled" <<<"$err" &&
	ok "anynet latencies: not modelled, said" || no "anynet latencies: '$err'"
# routes given (routes=FILE, forwarding-table entries over the shortest
# paths): a ring of 4 routers, a node each, whose shortest way from router
# 0 to 2 is over router 1 (the lowest-numbered link); "0 2 3" sends it over
# 3 instead. The file's links, as read: 0-1, 0-3, 1-2, 2-3 (channels 8 +
# 2i one way, 9 + 2i back), so node 0's route to node 2 is its channel to
# router 0 (0), then 0-1 (8) and 1-2 (12), or with the route 0-3 (10) and
# 3-2 (15), then router 2's channel to node 2 (4 + 2), as vcubectl net
# export lists it
ctl=$top/build/bin/vcubectl
printf 'router 0 node 0 router 1 router 3\nrouter 1 node 1 router 2\nrouter 2 node 2 router 3\nrouter 3 node 3\n' > "$tmp/ring4.anynet"
route() {
	"$ctl" net export --simgrid --full profile=slingshot file="$tmp/ring4.anynet" "$@" 2>&1 |
		grep 'src="n0" dst="n2"' | grep -o 'ch[0-9]*' | tr '\n' ' '
}
[ "$(route)" = "ch0 ch8 ch12 ch6 " ] && ok "ring of 4: 0 to 2 over router 1 by default" ||
	no "ring of 4, default: '$(route)'"
printf '# at router 0, toward router 2, go to router 3\n0 2 3\n' > "$tmp/via3.routes"
[ "$(route routes="$tmp/via3.routes")" = "ch0 ch10 ch15 ch6 " ] &&
	ok "ring of 4, routes=: 0 to 2 over router 3" || no "ring of 4, routes=: '$(route routes="$tmp/via3.routes")'"
# vcube-sim takes them too: over an equal way, the same time
a=$("$sim" $bc file="$tmp/ring4.anynet" 2>&1)
b=$("$sim" $bc file="$tmp/ring4.anynet" routes="$tmp/via3.routes" 2>&1)
[ "${a##* }" = "${b##* }" ] && ok "routes= over an equal way: the same time (${a##* } ns)" ||
	no "routes= on equal ways: '$a' then '$b'"
printf '0 2 3\n3 2 0\n' > "$tmp/loop.routes"
printf '0 2 2\n' > "$tmp/far.routes"
printf '0 2\n' > "$tmp/short.routes"
while IFS='|' read -r want words; do
	eval "set -- $words"
	err=$("$sim" $bc "$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc = 2 ] && [ "$(grep -c . <<<"$err")" = 1 ] && grep -qF -- "$want" <<<"$err" &&
		ok "routes refused: $want" || no "$words: exit $rc, '$err' (wanted '$want')"
done <<EOF
graph routes toward router 2 loop at router 0|file=$tmp/ring4.anynet routes=$tmp/loop.routes
graph route 0: router 0 has no link to 2 toward 2|file=$tmp/ring4.anynet routes=$tmp/far.routes
short.routes:1: not 'ROUTER TOWARD NEXT', three routers of 0..3|file=$tmp/ring4.anynet routes=$tmp/short.routes
routes= needs file=|routes=$tmp/far.routes
EOF
# shortest paths over the ring's cycles, with no virtual channels: a
# circuit (ipsc860) or two lanes (delta) deadlock a linear exchange, said
# as a routing deadlock in one line, with exit 1; cm5 (packets) does not
for p in ipsc860 delta; do
	err=$("$sim" -q --profile $p --algo linear --len 65536 file="$ring" 2>&1 >/dev/null)
	rc=$?
	[ $rc = 1 ] && [ "$(grep -c . <<<"$err")" = 1 ] &&
		grep -q "routing deadlock at [0-9]* ns: [0-9]* messages wait for [0-9]* channels held in a cycle" <<<"$err" &&
		ok "$p on the ring: a routing deadlock, said ($err)" || no "$p on the ring: exit $rc, '$err'"
done
"$sim" -q --profile cm5 --algo linear --len 65536 file="$ring" > /dev/null 2>&1 &&
	ok "cm5 on the ring: no deadlock" || no "cm5 on the ring: failed"
# a bandwidth under 1000 bytes/s is refused, in one line
line '<data key="b">999</data>' > "$tmp/slow.graphml"
err=$("$sim" $bc file="$tmp/slow.graphml" 2>&1 >/dev/null)
[ $? = 2 ] && grep -q "under 1000 bytes/s" <<<"$err" &&
	ok "a link of 999 bytes/s: refused ($err)" || no "999 bytes/s: '$err'"
exit $fail
