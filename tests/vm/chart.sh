#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-chart: Bokhari's link-usage charts on d = 3 from the kernel's trace,
# step number by step number: naive against Fig. 6 as printed, linear,
# pairwise and stable against their schedules (Figs. 7-9: step i, the idle
# step counted). The charts' own assumptions: every block takes one step,
# hops are free, any number of receive ports, and a busy link goes to the
# lowest-numbered of those asking for it at a step (arbitration=lowest).
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
trap 'rm -f "$out" "$out.want" "$out.svg" "$out.txt" "$out"-[nps].svg' EXIT

# Fig. 6, "src dst step" for every pair (a = 10), read off the paper.
fig6="0 1 1 0 2 2 0 3 3 0 4 4 0 5 5 0 6 6 0 7 7
4 0 1 4 1 2 4 2 3 4 3 4 4 5 5 4 6 6 4 7 7
1 0 1 1 2 3 1 3 4 1 4 5 1 5 6 1 6 7 1 7 8
5 0 2 5 1 3 5 2 4 5 3 5 5 4 6 5 6 7 5 7 8
2 0 1 2 1 2 2 3 3 2 4 6 2 5 7 2 6 8 2 7 9
6 0 3 6 1 4 6 2 5 6 3 6 6 4 7 6 5 8 6 7 9
3 0 2 3 1 3 3 2 4 3 4 7 3 5 8 3 6 9 3 7 10
7 0 4 7 1 5 7 2 6 7 3 7 7 4 8 7 5 9 7 6 10"

# want ALGO: "src dst step" lines of the algorithm's own schedule
want() {
	case $1 in
	naive) echo $fig6 | xargs -n 3 ;;
	linear) for s in $(seq 0 7); do for i in $(seq 1 7); do echo "$s $(((s + i) % 8)) $i"; done; done ;;
	pairwise) for s in $(seq 0 7); do for i in $(seq 1 7); do echo "$s $((s ^ i)) $i"; done; done ;;
	stable) for s in $(seq 0 7); do for i in $(seq 0 7); do
			if [ $s -lt 4 ]; then d=$(((2 * s + 1 + i) % 8)); else d=$(((2 * s - 8 + i) % 8)); fi
			[ $d = $s ] || echo "$s $d $((i + 1))"
		done; done ;;
	esac
}

chart="short_base_ns=1000000 short_byte_ns=0 short_hop_ns=0 tail_ns=0 eject=0 arbitration=lowest"
usenet topology=hypercube dim=3 profile=ipsc860 $chart && {
	for algo in naive linear pairwise stable; do
		vcube-chart --list "$algo" > "$out"
		rc=$?
		got=$(cut -d' ' -f1-3 "$out" | sort)
		exp=$(want $algo | sort)
		echo "$exp" > "$out.want"
		diff=$(echo "$got" | diff "$out.want" - | grep '^>' | tr '\n' ' ')
		steps=$(cut -d' ' -f3 "$out" | sort -n | tail -n 1)
		good=0; [ $rc = 0 ] && [ "$got" = "$exp" ] && good=1
		check "$algo on d=3: all 56 step numbers as in Bokhari's chart (${diff:-none} differ; $steps steps)" [ $good = 1 ]
	done
	vcube-chart naive > "$out"
	rc=$?
	good=0; [ $rc = 0 ] && [ "$(grep -c -- '->' "$out")" = 64 ] && grep -q '^111->110 .*\.\.a' "$out" && good=1
	check "the chart itself: 64 rows, 111->110 at step a" [ $good = 1 ]
	# Every column: no channel carries two messages in one step.
	vcube-chart --list linear | awk '{ for (i = 4; i <= NF; i++) if (seen[$i " " $3]++) bad++ } END { exit bad }'
	rc=$?
	check "linear: no channel used twice in a step" [ $rc = 0 ]
	vcube-chart --json pairwise > "$out"
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["messages"]) == 56 and d["steps"] == 7' "$out" && good=1
	check "--json: 56 messages in 7 steps" [ $good = 1 ]
	# Fig. 5: the routes alone, the same whatever the schedule. Bokhari:
	# "the row labeled 010->101 has x's in the columns 010, 011 and 001,
	# corresponding to the e-cube route 010->011->001->101".
	vcube-chart --usage linear > "$out"
	rc=$?
	vcube-chart --usage pairwise > "$out.2"
	good=0
	[ $rc = 0 ] && [ "$(grep -c -- '->' "$out")" = 64 ] &&
		grep -qx -- '010->101 ... x.. ..x .x. ... ... ... ...' "$out" &&
		[ "$(grep -- '->' "$out")" = "$(grep -- '->' "$out.2")" ] &&
		awk '/->/ { split($1, e, "->"); n = 0
			for (i = 1; i <= 3; i++) n += substr(e[1], i, 1) != substr(e[2], i, 1)
			x = gsub(/x/, "x"); if (x != n) bad++ } END { exit bad }' "$out" && good=1
	check "--usage (Fig. 5): 64 rows, 010->101 on 010, 011, 001 as in the paper, one x per hop, the same for linear and pairwise" [ $good = 1 ]
	rm -f "$out.2"
	check "arbitration shows in sysfs" [ "$(attr arbitration)" = lowest ]
	vcube-chart nosuch > "$out" 2>&1
	rc=$?
	check "an unknown algorithm: $(head -n 1 "$out")" [ $rc = 2 ]
	vcube-chart --len 0 naive > "$out" 2>&1
	rc=$?
	check "a zero block: $(head -n 1 "$out")" [ $rc = 2 ]
	nonet
}
# With the iPSC/860's own constants (hops cost 10.3 us, FIFO), naive still
# takes 10 steps on d = 3, but a header that arrives a hop later loses.
usenet topology=hypercube dim=3 profile=ipsc860 eject=0 && {
	vcube-chart --list naive > "$out"
	rc=$?
	steps=$(cut -d' ' -f3 "$out" | sort -n | tail -n 1)
	echo "$(want naive | sort)" > "$out.want"
	same=$(cut -d' ' -f1-3 "$out" | sort | comm -12 "$out.want" - | wc -l)
	good=0; [ $rc = 0 ] && [ "$steps" = 10 ] && good=1
	check "naive with the ipsc860 constants: $steps steps, $same of 56 as in Fig. 6" [ $good = 1 ]
	nonet
}
# --timeline: the run as a time-space diagram, from the module's trace
usenet topology=hypercube dim=3 profile=ipsc860 && {
	vcube-chart --timeline "$out.svg" pairwise_F > /dev/null 2>&1
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.tag.endswith("svg"); assert "pairwise_F, 8 nodes" in open(sys.argv[1]).read()' "$out.svg" && good=1
	check "--timeline pairwise_F on d=3: an SVG that parses, titled" [ $good = 1 ]
	# naive meets busy channels: the module's trace has those waits, by cause
	vcube-chart --timeline "$out-n.svg" naive > /dev/null 2>&1
	rc=$?
	good=0; [ $rc = 0 ] && grep -q 'waiting: a channel held' "$out-n.svg" && grep -q 'waiting: in transit' "$out-n.svg" && good=1
	check "--timeline naive on d=3: the waits drawn by cause, a channel held among them" [ $good = 1 ]
	# a run's picture after other runs is its picture alone: every run
	# starts at virtual time 0, and the others' waits lie in its times
	vcube-run -n 8 vcube-bench exchange -q --algo naive --sizes 4096 --reps 1 > /dev/null 2>&1
	vcube-chart --timeline "$out-p.svg" pairwise_F > /dev/null 2>&1
	rc=$?
	check "--timeline pairwise_F after naive and vcube-bench's naive: the same picture as alone" \
		sh -c "[ $rc = 0 ] && cmp -s $out.svg $out-p.svg"
	vcube-chart --timeline "$out.txt" pairwise_F > "$out" 2>&1
	rc=$?
	check "--timeline to a .txt: refused, exit 2 ($(head -n 1 "$out"))" [ $rc = 2 ]
	# a large run's picture cut down: some nodes' rows, a window of time
	vcube-chart --timeline "$out-s.svg" --timeline-nodes 2-5 --from 1000 pairwise_F > /dev/null 2>&1
	rc=$?
	rows=$(grep -oE '<text>[0-9]+</text>' "$out-s.svg" 2>/dev/null | sed 's/[^0-9]//g' | xargs)
	good=0; [ $rc = 0 ] && [ "$rows" = "2 3 4 5" ] && grep -q '<text>nodes 2-5 of 8</text>' "$out-s.svg" &&
		grep -q 'message to or from a node not drawn' "$out-s.svg" && good=1
	check "--timeline-nodes 2-5 --from 1000: rows 2 to 5 only ($rows), the other ends keyed" [ $good = 1 ]
	vcube-chart --timeline "$out-s.svg" --timeline-nodes 0-8 pairwise_F > "$out" 2>&1
	rc=$?
	good=0; [ $rc = 2 ] && grep -q "^vcube-chart: --timeline-nodes '0-8': no node 8 (the network's are 0-7)$" "$out" && good=1
	check "--timeline-nodes 0-8 on 8 nodes: refused before the run, exit 2 ($(head -n 1 "$out"))" [ $good = 1 ]
	nonet
}
usenet topology=mesh rows=2 cols=4 profile=delta && {
	vcube-chart --timeline "$out.svg" pex > /dev/null 2>&1
	rc=$?
	good=0; [ $rc = 0 ] && grep -q 'pex, 8 nodes' "$out.svg" && good=1
	check "--timeline on a 2x4 mesh: drawn (the chart alone needs a hypercube)" [ $good = 1 ]
	nonet
}
usenet topology=hypercube dim=3 trace=0 && {
	vcube-chart --timeline "$out.svg" linear > "$out" 2>&1
	rc=$?
	good=0; [ $rc = 1 ] && grep -q 'trace=N' "$out" && good=1
	check "--timeline with trace=0 says what is missing: $(head -n 1 "$out")" [ $good = 1 ]
	nonet
}
usenet topology=hypercube dim=3 trace=0 && {
	vcube-chart naive > "$out" 2>&1
	rc=$?
	good=0; [ $rc = 1 ] && grep -q 'trace' "$out" && good=1
	check "with trace=0 it says what is missing: $(head -n 1 "$out")" [ $good = 1 ]
	nonet
}
usenet topology=mesh rows=2 cols=4 && {
	vcube-chart linear > "$out" 2>&1
	rc=$?
	check "a mesh is refused: $(head -n 1 "$out")" [ $rc = 2 ]
	nonet
}
unload
out2=$(insmod "$VCUBE_KO" topology=hypercube dim=3 arbitration=random 2>&1)
rc=$?
good=0; [ $rc != 0 ] && ! loaded && good=1
check "arbitration=random fails insmod: $(dmesg | grep vcube | tail -n 1)" [ $good = 1 ]
out2=$(insmod "$VCUBE_KO" topology=hypercube dim=3 trace=99999999 2>&1)
rc=$?
good=0; [ $rc != 0 ] && ! loaded && good=1
check "trace=99999999 fails insmod: $(dmesg | grep vcube | tail -n 1)" [ $good = 1 ]
exit $fail
