#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-sim predicts the module: every algorithm of the registry that is a
# plan (complete exchanges, barriers, broadcast, reductions, scan, kernels,
# shift; vcube-sim --list --json) on one network per profile, wherever it
# runs, through the module by libvcube (exp xchg, exp coll: every rank from
# time 0, no aligning barrier) and by vcube-sim on the host engine, the
# same plan through the same executor; the slowest rank's virtual time must
# be equal to the ns. The control network's operations are not plans
# (tests/vm/cnet.sh), nor are the irregular schedules until a pattern
# makes them one (tests/vm/algos.sh).
# make check compares a sample (each module run takes about a second under
# TCG, and the whole matrix is some 300): on each network, every algorithm
# not yet compared on two networks, and the first of each kind the network
# runs, so most algorithms meet two networks (each one at least, checked at
# the end) and every network every kind;
# each network starts the registry's list 7 further on, so the first of a
# kind differs from network to network.
# VCUBE_SIM_ALL=1 compares every algorithm on every network:
#   scripts/vm-run.sh -- 'VCUBE_SIM_ALL=1 tests/vm/run.sh sim'
. "$(dirname "$0")/lib.sh"
sim=$VCUBE_TOP/build/bin/vcube-sim
exp=$VCUBE_TOP/build/tests/vm/exp
algos=$(mktemp)

# kind name needs, one line each, from the registry
json=$("$sim" --list --json)
python3 -c '
import json, sys
for a in json.load(sys.stdin):
    print(a["kind"], a["name"], ",".join(a["needs"]))' <<<"$json" |
	grep -v '^irregular ' | grep -v 'cnet' > "$algos"
nplans=$(grep '"kind"' <<<"$json" | grep -v '"irregular"' | grep -vc '"cnet"')

# the slowest rank's time through the module
module_ns() {
	local n=$1 kind=$2 a=$3 len=$4
	if [ "$kind" = xchg ]; then
		vcube-run -n "$n" "$exp" xchg "$a" "$len"
	elif [ "$kind" = shift ]; then
		vcube-run -n "$n" "$exp" coll shift 1 "$len"
	else
		vcube-run -n "$n" "$exp" coll "$kind" "$a" "$len"
	fi | awk '{ if ($NF > m) m = $NF } END { print m }'
}

# how many networks compared each algorithm ("kind name"), for the sample
declare -A compared
# the whole matrix runs more than 10 plans on each network; a sample, one
# at least
least=0
[ -z "${VCUBE_SIM_ALL:-}" ] || least=10
nnet=0
rotated=$(mktemp)
trap 'rm -f "$algos" "$rotated"' EXIT
# same PROFILE NPROCS LEN "MODULE PARAMS" "SIM SHAPE"
same() {
	local profile=$1 n=$2 len=$3 params=$4 shape=$5 kind a l t s rc
	local bad=0 cnt=0 skipped="" kinds=" " sampled=""
	# shellcheck disable=SC2086
	usenet $params profile=$profile || return
	local k=$((nnet * 7 % $(wc -l < "$algos") + 1))
	nnet=$((nnet + 1))
	{ tail -n "+$k" "$algos"; head -n "$((k - 1))" "$algos"; } > "$rotated"
	while read -r kind a _; do
		if [ -z "${VCUBE_SIM_ALL:-}" ] && [ "${compared[$kind $a]:-0}" -ge 2 ] &&
			[[ $kinds == *" $kind "* ]]; then
			sampled=" (a sample: VCUBE_SIM_ALL=1 for all)"
			continue
		fi
		l=$len
		[ "$kind" = sync ] && l=0
		# shellcheck disable=SC2086
		s=$("$sim" --profile "$profile" $shape --kind "$kind" --algo "$a" --len "$l" --ns 2> /dev/null)
		rc=$?
		if [ "$rc" = 2 ]; then	# not on this network
			skipped="$skipped $a"
			continue
		fi
		s=$(awk '{ print $5 }' <<<"$s")
		t=$(module_ns "$n" "$kind" "$a" "$l")
		cnt=$((cnt + 1))
		kinds="$kinds$kind "
		compared[$kind $a]=$((${compared[$kind $a]:-0} + 1))
		[ -n "$t" ] && [ "$s" = "$t" ] ||
			{ bad=$((bad + 1)); echo "# $profile $kind $a: module $t ns, vcube-sim $s ns"; }
	done < "$rotated"
	check "$profile ($shape): vcube-sim equals the module for $cnt algorithms to the ns$sampled (not here:$skipped)" \
		test "$cnt" -gt "$least" -a "$bad" = 0
}

check "the registry lists $(wc -l < "$algos") plans of seven kinds, each read" \
	test "$(cut -d' ' -f1 "$algos" | sort -u | wc -l)" = 7 -a "$(wc -l < "$algos")" = "$nplans"
same ipsc860 8 1000 "topology=hypercube dim=3" "--topology hypercube --dim 3"
same seidel 8 4096 "topology=hypercube dim=3" "--topology hypercube --dim 3"
same delta 20 1000 "topology=mesh rows=4 cols=5" "--topology mesh --rows 4 --cols 5"
same delta 16 256 "topology=mesh rows=4 cols=4" "--topology mesh --rows 4 --cols 4"
same ap1000 16 512 "topology=torus rows=4 cols=4" "--topology torus --rows 4 --cols 4"
same cm5 32 256 "topology=fattree nodes=32" "--topology fattree --nodes 32"
# today's preset: costs to the ps, blocks merged past its 8 KiB eager limit
# (a rendezvous), and its nodes' own link rates, here half a link's
same slingshot 8 4096 "topology=dragonfly groups=2 routers=2 nodes=2 global=1" \
	"topology=dragonfly groups=2 routers=2 nodes=2 global=1"
same slingshot 8 4096 "topology=dragonfly groups=2 routers=2 nodes=2 global=1 inject_byte_ps=80" \
	"--cost inject_byte_ps=80 topology=dragonfly groups=2 routers=2 nodes=2 global=1"
# a graph read from a file (BookSim2's anynet): the module gets it through
# vcubectl net add, vcube-sim reads the same file
ring=$VCUBE_TOP/examples/booksim-ring.anynet
same cm5 16 256 "file=$ring" "file=$ring"
# a GraphML file's own link latencies and bandwidths (graph-costs)
costs=$VCUBE_TOP/examples/costs-ring.graphml
same slingshot 8 4096 "file=$costs" "file=$costs"
nonet
# the sample still meets every plan on two networks (one, where only one
# network runs it)
once=0
while read -r kind a _; do
	[ "${compared[$kind $a]:-0}" -ge 1 ] || { once=1; echo "# $kind $a: compared on no network"; }
done < "$algos"
check "every plan was compared on at least one network" test "$once" = 0
exit $fail
