#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-bench's offline half with the real gnuplot: the papers' figure from
# saved CSV (SVG and PNG), the regions of optimality from one file per
# dimension, and the refusals. (The VM tests run the sweeps themselves.)
. "$(dirname "$0")/lib.bash"
bench=$top/build/bin/vcube-bench
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
command -v gnuplot >/dev/null || { echo "skip - no gnuplot (make deps)"; exit 77; }

# d = 2 and 3: standard_U best for small blocks, pairwise_F for large
for dim in 2 3; do
	{
		echo "# topology=hypercube shape=dim=$dim nodes=$((1 << dim)) profile=ipsc860 procs=$((1 << dim)) reps=1 density=0"
		echo "algo,bytes,min_ns,avg_ns,max_ns,ok"
		for b in 1 16 256 4096; do
			echo "standard_U,$b,$((1000 + b * 30 * dim)),0,$((1000 + b * 30 * dim)),1"
			echo "pairwise_F,$b,$((3000 + b * 10 * dim)),0,$((3000 + b * 10 * dim)),1"
		done
	} > "$d/d$dim.csv"
done
t "--from --plot writes an SVG" "$bench" redraw --from "$d/d3.csv" --plot "$d/f.svg"
t "the default title names what ran and the network" grep -q 'Complete exchange, 8 processes on a hypercube dim=3 (ipsc860)' "$d/f.svg"
t "the SVG names both algorithms" grep -q 'pairwise_F' "$d/f.svg"
t "--from --plot writes a PNG" "$bench" redraw --from "$d/d3.csv" --plot "$d/f.png" --title "d=3"
t "the PNG is a PNG" sh -c "head -c 8 '$d/f.png' | od -c | grep -q 'P   N   G'"
"$bench" redraw --from "$d/d2.csv" --from "$d/d3.csv" --regions "$d/r.svg" > "$d/r.txt"
t "--regions writes an SVG" test -s "$d/r.svg"
t "--regions: standard_U best at 1 B on d=3" grep -q 'd=3        1 B: standard_U' "$d/r.txt"
t "--regions: pairwise_F best at 4 KB on d=3" grep -q 'd=3     4096 B: pairwise_F' "$d/r.txt"
"$bench" redraw --from "$top/tests/data/golden/seidel-d3-barrier.csv" --plot "$d/b.svg" > /dev/null 2> "$d/e"
t "--from a barrier study's CSV: refused, not drawn as an exchange ($(cat "$d/e"))" grep -q "not a sweep's CSV" "$d/e"
t "--regions: a legend of the winners" grep -q '>pairwise_F</text>' "$d/r.svg"
t "--regions: every size measured on d=3 has a cell on d=2 (no 'not measured' cell)" sh -c "! grep -q 'not measured' '$d/r.svg'"
grep -v ',16,' "$d/d2.csv" > "$d/d2-less.csv"
"$bench" redraw --from "$d/d2-less.csv" --from "$d/d3.csv" --regions "$d/r2.svg" > /dev/null
t "--regions: a size d=2 did not run is drawn 'not measured', not left blank" grep -q 'not measured' "$d/r2.svg"
# a tie (pairwise_U and standard_U are the same exchange on d = 1): one winner per cell
{ echo "# topology=hypercube shape=dim=1 nodes=2 profile=ipsc860 procs=2 reps=1 density=0"
  echo "algo,bytes,min_ns,avg_ns,max_ns,ok"
  echo "pairwise_U,16,500,0,500,1"; echo "standard_U,16,500,0,500,1"; } > "$d/d1.csv"
"$bench" redraw --from "$d/d1.csv" --regions "$d/r1.svg" > "$d/r1.txt"
t "--regions: a tie gives the cell to the first listed, once" sh -c "[ \"\$(cat '$d/r1.txt')\" = 'd=1       16 B: pairwise_U' ]"
"$bench" redraw --from "$d/d3.csv" --json > "$d/j" 2> "$d/e"
t "--from --json: the run's facts and its 8 results ($(head -c 120 "$d/j"))" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["procs"] == 8 and d["reps"] == 1 and d["network"]["shape"] == "dim=3", d
assert len(d["results"]) == 8 and d["results"][0]["algo"] == "standard_U", d' "$d/j"
"$bench" redraw --from "$d/d3.csv" --csv > "$d/c" 2> "$d/e"
t "--from --csv: the CSV again, heading first" sh -c "head -n 1 '$d/c' | grep -q '^algo,bytes,' && [ \$(grep -c ',1\$' '$d/c') = 8 ]"
"$bench" redraw --from "$d/d2.csv" --from "$d/d3.csv" > "$d/e" 2>&1
rc=$?
t "several --from without --regions: refused, exit 2 ($(cat "$d/e"))" sh -c "[ $rc = 2 ] && grep -q 'with --regions' '$d/e'"
"$bench" redraw --from "$d/nope.csv" --plot "$d/x.svg" > "$d/e" 2>&1
t "a missing file is named" grep -q 'nope.csv' "$d/e"
"$bench" redraw --from "$d/d3.csv" --plot /nonexistent/dir/x.svg > "$d/e" 2>&1
rc=$?
t "an unwritable plot is refused first, exit 1, with its reason, not an SVG on stdout" sh -c "[ $rc = 1 ] && grep -q 'No such file' '$d/e' && ! grep -q '<svg' '$d/e'"
"$bench" redraw --from "$d/d3.csv" --plot "$d/x.pdf" > "$d/e" 2>&1
rc=$?
t "--plot x.pdf is refused (gnuplot writes .svg or .png here)" sh -c "[ $rc = 2 ] && grep -q '.svg or .png' '$d/e' && [ ! -e '$d/x.pdf' ]"
"$bench" redraw --from "$d/d3.csv" --csv --json > "$d/e" 2>&1
rc=$?
t "--csv with --json is refused, not one silently dropped" sh -c "[ $rc = 2 ] && grep -q 'one or the other' '$d/e'"
t "-j is --json, as in vcubectl" sh -c "'$bench' list -j | python3 -c 'import json,sys; assert len(json.load(sys.stdin)) > 30'"
"$bench" redraw --regions "$d/r.svg" > "$d/e" 2>&1
t "--regions without --from is refused" grep -q 'needs --from' "$d/e"
# --paper: the paper's winners marked in their cells, the same or another
printf '# d bytes winner\n3 4096 pairwise_F\n3 1 linear|pairwise_F\n2 1 standard_U|linear\n9 1 linear\n' > "$d/paper"
"$bench" redraw --from "$d/d2.csv" --from "$d/d3.csv" --regions "$d/rp.svg" --paper "$d/paper" > "$d/rp.txt"
t "--paper: the regions' text as without it" cmp -s "$d/r.txt" "$d/rp.txt"
t "--paper: a legend for the paper's winners, the same and another" sh -c \
	"grep -q \"the paper's winner: the same\" '$d/rp.svg' && grep -q \"the paper's winner: another\" '$d/rp.svg'"
t "--paper: the differing cell named (d=3, 1 B: the paper's linear|pairwise_F)" grep -q '>linear|pairwise_F</text>' "$d/rp.svg"
t "--paper: a cell that agrees is not named" sh -c "! grep -q '>standard_U|linear<' '$d/rp.svg'"
printf '3 4096\n' > "$d/paper-bad"
"$bench" redraw --from "$d/d3.csv" --regions "$d/rb.svg" --paper "$d/paper-bad" > /dev/null 2> "$d/e"
rc=$?
t "--paper: a bad line is named, exit 1 ($(cat "$d/e"))" sh -c "[ $rc = 1 ] && grep -q 'paper-bad:1: not' '$d/e'"
"$bench" redraw --from "$d/d3.csv" --plot "$d/x.svg" --paper "$d/paper" > /dev/null 2> "$d/e"
rc=$?
t "--paper without --regions is refused ($(cat "$d/e"))" sh -c "[ $rc = 2 ] && grep -q 'needs --regions' '$d/e'"
t "--list names every paper's algorithms" sh -c "'$bench' list | grep -q 'Chuang' && '$bench' list | grep -q 'Bokhari'"
exit $fail
