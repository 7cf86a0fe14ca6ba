#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-sim's command line: a run prints one line, --costs the profile's
# constants, and every bad value is refused with exit 2 and one line that
# names the option (the standard for every tool's input).
. "$(dirname "$0")/lib.bash"
sim=$top/build/bin/vcube-sim
run="--profile delta --rows 4 --cols 4 --algo pex --len 64"

out=$("$sim" $run 2>&1)
set -- $out
[ $# = 5 ] && [ "$1 $2 $3 $4" = "delta pex 4x4 64" ] && ok "a run: $out" || no "a run: $out"
out=$("$sim" --profile delta --costs 2>&1)
[ "$(echo "$out" | awk '{ printf "%s ", $1 }')" = "alpha_ns byte_ns lanes " ] &&
	ok "--costs: $(echo $out)" || no "--costs: $out"
"$sim" --help > /dev/null 2>&1 && ok "--help: 0" || no "--help"
for bad in "--rows x" "--cols -1" "--len -5" "--len 99999999999" "--len 12abc" "--lanes x" \
	"--alpha-ns 1e3" "--byte-ns ''" "--algo nosuch" "--profile nosuch" "--bogus" \
	"--cols 5 --algo pairwise_U" "--topology ring" "--cols 5 --algo torus --topology hypercube --dim 2" \
	"--shift 2" "--until 5" "--from 5" "--timeline-nodes 0-3" \
	"--cost nosuch=1" "--cost short_byte_ns" "--cost short_byte_ns=x" "--cost gamma=9" \
	"--cost tail_ns=99999999"; do
	eval "set -- $bad"
	err=$("$sim" $run "$@" 2>&1 > /dev/null)
	rc=$?
	lines=$(printf '%s\n' "$err" | grep -c .)
	if [ $rc = 2 ] && [ "$lines" -ge 1 ]; then
		ok "$bad: exit 2 ($(printf '%s' "$err" | head -n 1))"
	else
		no "$bad: exit $rc, '$err'"
	fi
done
# any plan of the registry runs, on any network it accepts
for a in bex lex gen linear; do
	out=$("$sim" -q --profile delta --rows 4 --cols 5 --algo $a --len 64 2>&1)
	set -- $out
	[ $# = 5 ] && [ "$2 $3" = "$a 4x5" ] && ok "$a on 4x5: $out" || no "$a on 4x5: $out"
done
while read -r want args; do
	out=$("$sim" -q $args --len 100 2>&1)
	set -- $out
	[ $# = 5 ] && [ "$3" = "$want" ] && ok "$args: $out" || no "$args: $out"
done <<'EOF'
d=3 --profile ipsc860 --topology hypercube --dim 3 --algo standard_F
n=16 --profile cm5 --topology fattree --nodes 16 --algo rex
3x5 --profile ap1000 --topology torus --rows 3 --cols 5 --algo torus
n=32 --profile cm5 --algo pex
d=5 --profile ipsc860 --algo pairwise_F
8x8 --profile ap1000 --algo gen
16x32 --profile delta --algo pex
d=4 --profile seidel --dim 4 --algo pairwise_F
4x4x4 --profile ap1000 --topology torus --dims 4,4,4 --algo pairwise_F
6 --profile delta --dims 6 --algo linear
EOF
# --dims C,R is the mesh --rows R --cols C: its time to the ns
a=$("$sim" --ns --profile delta --rows 4 --cols 8 --algo pex --len 64 | awk '{ print $5 }')
b=$("$sim" --ns --profile delta --dims 8,4 --algo pex --len 64 | awk '{ print $5 }')
[ -n "$a" ] && [ "$a" = "$b" ] && ok "--dims 8,4 is --rows 4 --cols 8: $a ns both" ||
	no "--dims 8,4: $b ns, --rows 4 --cols 8: $a ns"
for bad in "4,,4" "4," "2,2,2,2,2,2,2" "4,1" "5000"; do
	err=$("$sim" --profile delta --dims "$bad" --algo linear 2>&1 > /dev/null)
	[ $? = 2 ] && [ "$(grep -c . <<< "$err")" = 1 ] && ok "--dims $bad: exit 2 ($err)" ||
		no "--dims $bad: '$err'"
done
# SimGrid's fat tree: its shape in SimGrid's notation; the CM-5's nodes=64
# is levels=3 down=4,4,4 up=2,2,2 with random up-routing, to the ns
while read -r want args; do
	out=$("$sim" -q --profile cm5 $args --len 100 2>&1)
	set -- $out
	[ $# = 5 ] && [ "$3" = "$want" ] && ok "$args: $out" || no "$args: $out"
done <<'EOF'
2;4,4;1,4;1,1 --levels 2 --down 4,4 --up 1,4 --algo pex
2;4,4;1,2;1,2 --levels 2 --down 4,4 --up 1,2 --links 1,2 --routing random --algo rex
3;2,3,4;1,2,3;2,1,1 --topology fattree --levels 3 --down 2,3,4 --up 1,2,3 --links 2,1,1 --algo linear
EOF
a=$("$sim" --ns --profile cm5 --nodes 64 --algo pex --len 256 | awk '{ print $5 }')
b=$("$sim" --ns --profile cm5 --levels 3 --down 4,4,4 --up 2,2,2 --routing random --algo pex --len 256 | awk '{ print $5 }')
[ -n "$a" ] && [ "$a" = "$b" ] && ok "--levels 3 --down 4,4,4 --up 2,2,2 --routing random is --nodes 64: $a ns both" ||
	no "SimGrid's CM-5: $b ns, --nodes 64: $a ns"
# a shift on a full fat tree under wormhole switching (channels, not the
# CM-5's shared bundles): d-mod-k routes it with no two worms on a channel
# (Zahavi), random up-routing collides, so it takes longer
ft="--profile delta --topology fattree --levels 2 --down 8,8 --up 1,8 --kind shift --shift 9 --algo gray --len 4096"
a=$("$sim" --ns $ft | awk '{ print $5 }')
b=$("$sim" --ns $ft --routing random | awk '{ print $5 }')
[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] && ok "a shift by 9 on 2;8,8;1,8: dmodk $a ns, random $b ns" ||
	no "dmodk '$a' vs random '$b'"
while IFS='|' read -r args want; do
	err=$("$sim" --profile cm5 $args --algo linear 2>&1 > /dev/null)
	[ $? = 2 ] && [ "$err" = "vcube-sim: $want" ] && ok "$args: exit 2 ($err)" || no "$args: '$err'"
done <<'EOF'
--levels 2 --down 4,4|topology=fattree levels=2 needs down= and up= (profile cm5's; --topology or --profile names another)
--levels 2 --down 4,4,4 --up 1,4|down= has 3 values: levels=2 needs 2, one per level (profile cm5's; --topology or --profile names another)
--levels 2 --down 4,4 --up 1,0|up= value 2 (level 2) is 0: each must be at least 1 (profile cm5's; --topology or --profile names another)
--levels 2 --down 64,65 --up 1,1|down= makes more than 4096 nodes, the most supported (profile cm5's; --topology or --profile names another)
--levels 2 --down 64,64 --up 64,64|this fat tree has more than 131072 channels, the most supported (profile cm5's; --topology or --profile names another)
--nodes 16 --levels 2 --down 4,4 --up 1,4|topology=fattree takes nodes= or levels=/down=/up=/links=, not both (profile cm5's; --topology or --profile names another)
--nodes 16 --levels 3|nodes=16 is the CM-5's tree of 2 levels, not levels=3 (profile cm5's; --topology or --profile names another)
--levels 7|bad --levels '7' (1 .. 6)
--levels 2 --down 4,x --up 1,4|bad --down '4,x' (1 to 6 numbers, as 16,16)
--levels 2 --down 4,4 --up 1,2,3,4,5,6,7|bad --up '1,2,3,4,5,6,7' (1 to 6 numbers, as 16,16)
--levels 2 --down 4,4 --up 1,4 --routing ugal|bad --routing 'ugal' (dmodk, random)
--topology torus --dims 4,4 --routing dmodk|routing= does not apply to topology=torus
--topology mesh --dims 4,4 --levels 2|levels=/down=/up=/links= do not apply to topology=mesh
EOF
# a dragonfly: --groups --routers --nodes (per router) --global --routing
df="--profile cm5 --topology dragonfly --groups 9 --routers 4 --nodes 2 --global 2"
declare -A dft
for r in minimal valiant ugal; do
	out=$("$sim" -q --ns $df --routing $r --algo pex --len 4096 2>&1)
	set -- $out
	dft[$r]=${5:-}
	[ $# = 5 ] && [ "$3" = "groups=9,routers=4,nodes=2,global=2,routing=$r" ] &&
		ok "dragonfly --routing $r: $out" || no "dragonfly --routing $r: $out"
done
again=$("$sim" -q --ns $df --routing ugal --algo pex --len 4096 2>&1 | awk '{ print $5 }')
[ -n "$again" ] && [ "$again" = "${dft[ugal]}" ] && ok "dragonfly ugal twice: $again ns both" ||
	no "dragonfly ugal twice: ${dft[ugal]}, then $again"
# an exchange of equal blocks: spreading over groups beats one link a pair
[ -n "${dft[minimal]}" ] && [ -n "${dft[valiant]}" ] && [ "${dft[valiant]}" -lt "${dft[minimal]}" ] &&
	ok "dragonfly pex: valiant ${dft[valiant]} ns < minimal ${dft[minimal]} ns" ||
	no "dragonfly pex: valiant ${dft[valiant]} ns, minimal ${dft[minimal]} ns"
out=$("$sim" -q $df --algo pex --len 64 2>&1)
set -- $out
[ "$3" = "groups=9,routers=4,nodes=2,global=2,routing=minimal" ] &&
	ok "dragonfly routing by default: minimal" || no "dragonfly default routing: $out"
while IFS='|' read -r args want; do
	err=$("$sim" --algo pex $args 2>&1 > /dev/null)
	[ $? = 2 ] && [ "$err" = "vcube-sim: $want" ] && ok "$args: exit 2 ($err)" ||
		no "$args: '$err', not '$want'"
done <<'EOF'
--profile cm5 --topology dragonfly --groups 10 --routers 4 --nodes 2 --global 2|groups=10 > routers*global+1=9: too few global links
--profile cm5 --topology dragonfly --groups 9 --routers 4 --nodes 2|topology=dragonfly needs groups=, routers=, nodes=, global= (each >= 1)
--profile cm5 --topology dragonfly --groups 2 --routers 2 --nodes 2 --global 1 --routing valiant|routing=valiant needs groups=3 or more (a third group to go through)
--profile cm5 --topology dragonfly --groups 2 --routers 2 --nodes 17 --global 1|nodes=17: a dragonfly router takes 1 to 16 nodes
--profile cm5 --topology dragonfly --groups 3 --routers 2 --nodes 2 --global 1 --routing ecmp|bad --routing 'ecmp' (minimal, valiant, ugal)
--profile cm5 --topology dragonfly --groups 0 --routers 2 --nodes 2 --global 1|bad --groups '0' (1 .. 4096)
--profile cm5 --topology dragonfly --procs 16|--procs 16: a dragonfly's shape is --groups, --routers, --nodes and --global
--profile cm5 --routing ugal|bad --routing 'ugal' (dmodk, random)
--profile ap1000 --topology torus --rows 4 --cols 4 --groups 2|groups=/routers=/global= do not apply to topology=torus
--profile cm5 --topology dragonfly --groups 3 --routers 2 --nodes 2 --global 1 --dim 3|dim= does not apply to topology=dragonfly
EOF
# the profile's machine, as the module takes it: a mesh's shape on a CM-5 is refused
err=$("$sim" --profile cm5 --rows 4 --cols 8 --algo pex --len 64 2>&1 > /dev/null)
[ $? = 2 ] && [ "$err" = "vcube-sim: rows=/cols= do not apply to topology=fattree (profile cm5's; --topology or --profile names another)" ] &&
	ok "--profile cm5 --rows 4 --cols 8: refused ($err)" || no "cm5 with a mesh's shape: $err"
err=$("$sim" --profile cm5 --len 64 2>&1 > /dev/null)
[ $? = 2 ] && [ "$(head -n 1 <<< "$err")" = "vcube-sim: --algo is missing (vcube-sim --list names them)" ] &&
	ok "no --algo: says so, exit 2" || no "no --algo: $err"
# progress goes to stderr only, never into the result; -q: none at all
d=$(mktemp -d)
"$sim" --profile delta --algo pex --len 100 > "$d/o" 2> "$d/e"
"$sim" --profile delta --algo pex --len 100 -q > "$d/oq" 2> "$d/eq"
cmp -s "$d/o" "$d/oq" && ! test -s "$d/eq" &&
	! grep -qv '^vcube-sim: at [0-9.]* s virtual, [0-9]* of 512 nodes done$' "$d/e" &&
	ok "progress on stderr only ($(wc -l < "$d/e") lines), none with -q" ||
	no "progress: $(head -n 2 "$d/e" "$d/eq")"
# on a terminal, a live line redrawn (script(1) gives it one): the 16x32
# run takes seconds here, the line is redrawn twice a second
script -qec "'$sim' --profile delta --algo pex --len 100 > '$d/o'" "$d/tty" > /dev/null 2>&1
cmp -s "$d/o" "$d/oq" && [ "$(tr '\r' '\n' < "$d/tty" | grep -c '^vcube-sim: at [0-9.]* s virtual, [0-9]* of 512 nodes done')" -ge 1 ] &&
	ok "progress on a terminal: one line redrawn ($(tr '\r' '\n' < "$d/tty" | grep -c 'vcube-sim: at') frames)" ||
	no "progress on a terminal: $(tr '\r' '\n' < "$d/tty" | head -n 3)"
rm -rf "$d"
# -j: the result as JSON, the time the same as the text's; the engine's
# messages (a PEX on 16 nodes: 16 x 15), events and rate counters
j=$("$sim" -j --profile delta --rows 4 --cols 4 --algo pex --len 64)
n=$("$sim" --ns --profile delta --rows 4 --cols 4 --algo pex --len 64 | awk '{ print $5 }')
python3 -c '
import json, sys
d = json.loads(sys.argv[1])
ev = d.pop("events")
# the max-min solver'"'"'s counters: the delta profile'"'"'s lanes fix every rate
for k in ("refills", "refill_visits", "rate_changes", "rate_change_hops"):
    assert d.pop(k) == 0, k
# no flow control on the Delta
for k in ("fc_refused", "fc_releases"):
    assert d.pop(k) == 0, k
assert d == {"profile": "delta", "kind": "xchg", "algo": "pex", "shape": "4x4", "len": 64,
             "time_ns": int(sys.argv[2]), "messages": 240}, d
assert ev >= 240, ev' "$j" "$n" && ok "-j: $j" || no "-j: '$j' (text: $n ns)"
# the AP1000's bodies share channels (max-min): every body is given a rate
# at least once, and the channels of those whose rate changed are among
# the (body, channel) pairs the solver visited
j=$("$sim" -j --profile ap1000 --rows 4 --cols 4 --algo pex --len 4096)
python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["refills"] > 0, d
assert d["rate_changes"] >= d["messages"] == 240, d
assert d["rate_changes"] <= d["rate_change_hops"] <= d["refill_visits"], d' "$j" &&
	ok "-j: the max-min solver's counters on ap1000 4x4" || no "-j, ap1000: $j"
# --fc-bufs: the iPSC/860's flow control. Bokhari's exchanges send one
# message each way between every pair: no header waits even with a window
# of one; RDS on seidel (a fan-in and a broadcast down one tree) does wait.
j=$("$sim" -j --profile ipsc860 --dim 5 --algo pairwise_U --len 64 --fc-bufs 1)
j2=$("$sim" -j --profile seidel --dim 5 --kind sync --algo rds --fc-bufs 1)
python3 -c '
import json, sys
d, r = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert d["fc_refused"] == d["fc_releases"] == 0, d
assert r["fc_refused"] > 0 and r["fc_releases"] > 0, r' "$j" "$j2" &&
	ok "--fc-bufs 1: no wait in pairwise_U, $(sed 's/.*"fc_refused":\([0-9]*\).*/\1/' <<< "$j2") in rds" ||
	no "--fc-bufs: $j $j2"
err=$("$sim" --profile ipsc860 --algo pex --fc-bufs 256 2>&1 > /dev/null)
[ $? = 2 ] && grep -q "fc-bufs" <<< "$err" && ok "--fc-bufs 256: refused, exit 2" ||
	no "--fc-bufs 256: $err"
err=$("$sim" --profile delta --algo pex --len 64 extra 2>&1 > /dev/null)
[ $? = 2 ] && [ "$(grep -c . <<< "$err")" = 1 ] && grep -q "^vcube-sim: 'extra' is not a network word (KEY=VALUE, KEY one of topology, " <<< "$err" &&
	ok "an argument left over: refused in one line, exit 2" || no "an argument left over: $err"
# the network in the module parameters' words after the options, as
# vcubectl net add takes them: the same network, the same time to the ns
while IFS='|' read -r opts words; do
	a=$("$sim" -q --ns --algo pex --len 4096 $opts 2>&1)
	b=$("$sim" -q --ns --algo pex --len 4096 $words 2>&1)
	[ -n "$a" ] && [ "$a" = "$b" ] && ok "words $words: as $opts ($b)" || no "words $words: '$b', options: '$a'"
done <<'EOF'
--profile ap1000 --topology torus --dims 4,4,4|topology=torus dims=4,4,4 profile=ap1000
--profile delta --topology fattree --levels 2 --down 8,8 --up 1,8 --routing random|topology=fattree levels=2 down=8,8 up=1,8 routing=random profile=delta
--profile cm5 --topology dragonfly --groups 9 --routers 4 --nodes 2 --global 2 --routing ugal|topology=dragonfly groups=9 routers=4 nodes=2 global=2 routing=ugal profile=cm5
--profile ipsc860 --dim 4 --fc-bufs 8|profile=ipsc860 dim=4 fc_bufs=8
EOF
while IFS='|' read -r word want; do
	err=$("$sim" --algo pex "$word" 2>&1 > /dev/null)
	[ $? = 2 ] && [ "$(grep -c . <<< "$err")" = 1 ] && grep -qF "$want" <<< "$err" &&
		ok "word '$word': refused in one line, exit 2" || no "word '$word': $err"
done <<'EOF'
max_msg=4|'max_msg=4' is not a network word
=3|'=3' is not a network word
topology|'topology' is not a network word
dims=4,x|bad --dims '4,x'
topology=ring|bad --topology 'ring'
EOF
# --timeline: the run as a time-space diagram (gnuplot), waits keyed by
# cause (naive on d=3 meets busy channels), the run itself
# unchanged, the same file twice
d=$(mktemp -d)
t0=$("$sim" --ns --profile ipsc860 --dim 3 --algo naive --len 1024)
t1=$("$sim" --ns --profile ipsc860 --dim 3 --algo naive --len 1024 --timeline "$d/a.svg")
"$sim" --ns --profile ipsc860 --dim 3 --algo naive --len 1024 --timeline "$d/b.svg" > /dev/null
python3 -c '
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
assert r.tag.endswith("svg"), r.tag
t = open(sys.argv[1]).read()
for w in ("xchg naive, ipsc860, d=3, 1024 B per block", "transmitting", "receiving", "waiting: a channel held", "waiting: in transit", "virtual time (us)"):
    assert w in t, w' "$d/a.svg" && [ "$t0" = "$t1" ] && cmp -s "$d/a.svg" "$d/b.svg" &&
	ok "--timeline: an SVG that parses, titled, its key; the time as without it; the same file twice" ||
	no "--timeline: '$t0' vs '$t1', $(head -c 200 "$d/a.svg")"
"$sim" --profile ipsc860 --dim 3 --algo pex --timeline "$d/a.png" > /dev/null && [ "$(head -c 4 "$d/a.png" | tail -c 3)" = PNG ] &&
	ok "--timeline .png: a PNG" || no "--timeline .png"
"$sim" --profile ipsc860 --dim 3 --algo pex --timeline "$d/a.pdf" > /dev/null 2> "$d/e"; rc=$?
[ $rc = 2 ] && grep -q 'writes .svg or .png' "$d/e" && ok "--timeline .pdf: refused, exit 2" || no "--timeline .pdf: exit $rc"
"$sim" --profile ipsc860 --dim 3 --algo pex --timeline "$d/no/a.svg" > /dev/null 2> "$d/e"; rc=$?
[ $rc = 1 ] && grep -q 'No such file' "$d/e" && ok "--timeline into a missing directory: exit 1, said" || no "--timeline missing dir: exit $rc"
# a large run's picture cut down (issue 52): only the rows of
# --timeline-nodes, labelled with their nodes, a message with one end not
# drawn keyed as such; --from/--until the time axis
labels() {	# the y axis's labels (x's have a space first) | the x axis's
	python3 -c '
import re, sys
t = open(sys.argv[1]).read()
print(" ".join(re.findall(r"<text>(\d+)</text>", t)), "|",
      " ".join(re.findall(r"<text> (\d+)</text>", t)))' "$1"
}
naive="--profile ipsc860 --dim 3 --algo naive --len 1024"
# shellcheck disable=SC2086
"$sim" -q $naive --timeline "$d/all.svg" > /dev/null &&
	"$sim" -q $naive --timeline "$d/sel.svg" --timeline-nodes 5,2-3 > /dev/null &&
	"$sim" -q $naive --timeline "$d/win.svg" --timeline-nodes 2-5 --from 2000000 --until 4000000 > /dev/null
la=$(labels "$d/all.svg") ls=$(labels "$d/sel.svg") lw=$(labels "$d/win.svg")
[ "${la%% |*}" = "0 1 2 3 4 5 6 7" ] && [ "${ls%% |*}" = "2 3 5" ] &&
	grep -q '<text>nodes 2-3,5 of 8</text>' "$d/sel.svg" &&
	grep -q 'message to or from a node not drawn' "$d/sel.svg" &&
	! grep -q 'message to or from a node not drawn' "$d/all.svg" &&
	[ "$(stat -c %s "$d/sel.svg")" -lt "$(stat -c %s "$d/all.svg")" ] &&
	ok "--timeline-nodes 5,2-3: rows 2 3 5 only, the other ends keyed, smaller" ||
	no "--timeline-nodes: rows '$la' vs '$ls'"
[ "${lw#*| }" = "2000 2500 3000 3500 4000" ] && [ "${lw%% |*}" = "2 3 4 5" ] &&
	[ "$(stat -c %s "$d/win.svg")" -lt "$(stat -c %s "$d/sel.svg")" ] &&
	ok "--from 2000000 --until 4000000: the axis 2000 .. 4000 us, less drawn" ||
	no "--from/--until: the axis '${lw#*| }', rows '${lw%% |*}'"
for bad in "--timeline-nodes 5-2|not a node list" "--timeline-nodes 0-8|no node 8 (the network's are 0-7)" \
	"--timeline-nodes 1,3,1|node 1 twice" "--timeline-nodes x|not a node list" \
	"--from 5 --until 5|--from 5 is not before --until 5" "--from 9 --until 5|not before" \
	"--until 0|bad --until '0'" "--from -1|bad --from"; do
	# shellcheck disable=SC2086
	err=$("$sim" $naive --timeline "$d/bad.svg" ${bad%%|*} 2>&1 > /dev/null)
	rc=$?
	[ $rc = 2 ] && [ "$(grep -c . <<< "$err")" = 1 ] && [[ "$err" == "vcube-sim: "*"${bad#*|}"* ]] &&
		[ ! -e "$d/bad.svg" ] && ok "${bad%%|*}: refused before the run, exit 2 ($err)" ||
		no "${bad%%|*}: exit $rc, '$err'"
done
# out of memory (issue 52): one line saying what was being allocated, how
# much was held, and what would need less; exit 1
oom() {
	local limit=$1 want=$2 err rc
	shift 2
	err=$(ulimit -v "$limit"; "$sim" -q "$@" 2>&1 > /dev/null)
	rc=$?
	if [ $rc = 1 ] && [ "$(grep -c . <<< "$err")" = 1 ] &&
		[[ "$err" == "vcube-sim: out of memory: "*", with "*" allocated, "*" messages sent; fewer nodes"* ]] &&
		[[ "$err" == *"$want"* ]]; then
		ok "out of memory, $*: exit 1, one line ($err)"
	else
		no "out of memory, $*: exit $rc, '$err'"
	fi
}
oom 100000 "messages sent" --profile ipsc860 --dim 8 --algo pairwise_F --len 1024
oom 100000 "the model of 8 nodes and its --timeline trace of 2097152 records (151 MB)" --profile ipsc860 --dim 3 --algo pex --timeline "$d/oom.svg"
oom 100000 "the blocks sent and received, 2 x 16 x 1073741824 B (34.36 GB), with" --profile delta --rows 4 --cols 4 --algo pex --len 1073741824
rm -rf "$d"
err=$("$sim" --profile delta --procs 2048 --fc-bufs 1 --algo pex 2>&1 > /dev/null)
[ $? = 2 ] && [ "$err" = "vcube-sim: flow control (--fc-bufs) is modelled on at most 1024 nodes, not 2048" ] &&
	ok "--fc-bufs on 2048 nodes: refused, exit 2" || no "--fc-bufs on 2048 nodes: $err"
# a shape for another topology than the default profile's: the line says
# whose topology it was (issue 52's second review)
err=$("$sim" --algo pex --dim 4 2>&1 > /dev/null)
[ $? = 2 ] && [ "$err" = "vcube-sim: dim= does not apply to topology=mesh (profile delta's; --topology or --profile names another)" ] &&
	ok "--dim with the default profile (delta, a mesh): says so, exit 2" || no "--dim with the default profile: '$err'"
# one line, naming the option, for a bad number
err=$("$sim" $run --len -5 2>&1 > /dev/null)
[ "$err" = "vcube-sim: bad --len '-5' (0 .. 1073741824)" ] && ok "the error names --len" || no "the error: $err"
# a shape of 0 is refused, not read as none given (the profile's own: issue 52)
for bad in "--profile ipsc860 --dim 0" "--profile delta --rows 0 --cols 4" \
	"--profile cm5 --nodes 0" "--profile delta --procs 0"; do
	# shellcheck disable=SC2086
	err=$("$sim" $bad --algo pex 2>&1 > /dev/null)
	rc=$?
	[ $rc = 2 ] && [[ "$err" == "vcube-sim: bad --"*" '0' (1 .. "* ]] && ok "$bad: refused, exit 2 ($err)" ||
		no "$bad: exit $rc, '$err'"
done
# today's sizes on the host engine: a 16512-node dragonfly (the module
# stops at 4096), its barrier's N lg N messages; past 32768, refused
out=$("$sim" -j -q --kind sync --algo dissemination --len 0 topology=dragonfly groups=129 routers=16 nodes=8 global=8 2>&1)
python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["messages"] == 16512 * 15 and d["profile"] == "cm5" and d["time_ns"] > 0' "$out" &&
	ok "a 16512-node dragonfly's dissemination barrier: 247680 messages" || no "16512-node dragonfly: $out"
err=$("$sim" --algo pex topology=dragonfly groups=257 routers=16 nodes=8 global=16 2>&1 > /dev/null)
[ $? = 2 ] && [ "$err" = "vcube-sim: groups=257 routers=16 nodes=8 is too large: at most 32768 nodes" ] &&
	ok "a 32896-node dragonfly: refused, exit 2" || no "a 32896-node dragonfly: '$err'"
# --cost: the module's cost words over the profile's, to the ns: one
# exchange of 1000 bytes over one hop costs base + hop + 1000 byte
out=$("$sim" -q --ns --profile ap1000 --topology torus --dims 2 --algo pex --len 1000 \
	--cost short_base_ns=7 --cost short_byte_ns=3 --cost short_hop_ns=11 2>&1)
[ "$out" = "ap1000 pex 2 1000 3018" ] && ok "--cost: 7 + 11 + 1000 x 3 ns: $out" || no "--cost: $out"
exit $fail
