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
exit $fail
