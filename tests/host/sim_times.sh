#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Virtual times recorded before a change to how the engine computes them,
# kept as test data (tests/data/sim-times.txt): vcube-sim must print every
# recorded line again, to the ns. The runs are the flow modes' shared rates
# (the AP1000's buffer pools, the CM-5's bundles, the Delta with one or
# three lanes), every algorithm vcube-sim runs, on small networks and a few
# large components; a change meant to move times (a model change) records
# them again: SIM_TIMES_UPDATE=1 bash tests/host/sim_times.sh. The runs go
# through build/tests/vcube-sim-check too, which checks each re-rate against
# a progressive filling of the whole network, level by level.
. "$(dirname "$0")/lib.bash"
sim=$top/build/bin/vcube-sim
data=$top/tests/data/sim-times.txt

# runs: one vcube-sim argument list per line
runs() {
	local prof kind algo len
	"$sim" --list --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
for a in (d if isinstance(d, list) else d["algorithms"]):
    if a["kind"] not in ("irregular", "cnet"):
        print(a["kind"], a["name"])' > "$tmp/algos" || return 1
	while IFS= read -r prof; do
		while read -r kind algo; do
			for len in 0 100 4096; do
				[ "$kind" = sync ] && [ $len != 0 ] && continue
				echo "--profile $prof --kind $kind --algo $algo --len $len"
			done
		done < "$tmp/algos"
	done <<-'PROFS'
	ap1000 --rows 4 --cols 4
	ap1000 --rows 3 --cols 5
	ap1000 --rows 8 --cols 8
	cm5 --nodes 32
	cm5 --nodes 64
	delta --rows 4 --cols 5 --lanes 1
	delta --rows 4 --cols 4 --lanes 3
	PROFS
	echo "--profile ap1000 --rows 16 --cols 16 --algo pex --len 4096"
	echo "--profile ap1000 --rows 8 --cols 16 --algo gen --len 1000"
	echo "--profile cm5 --nodes 256 --algo pex --len 4096"
	echo "--profile delta --rows 8 --cols 16 --lanes 3 --algo pex --len 4096"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${SIM_TIMES_UPDATE:-}" ]; then
	runs > "$tmp/runs" || { no "vcube-sim --list --json"; exit 1; }
	# the runs vcube-sim refuses (a power of two, the control network)
	# time nothing: only those that end in a time are kept
	while IFS= read -r args; do
		# shellcheck disable=SC2086
		out=$("$sim" $args --ns -q 2>&1 | tail -n 1)
		case $out in *[!0-9]) ;; *) echo "$args | $out" ;; esac
	done < "$tmp/runs" > "$data"
	echo "wrote $data: $(wc -l < "$data") runs"
	exit 0
fi
# compare BIN: every recorded run through BIN
compare() {
	local n=0 bad=0 line args want got
	while IFS= read -r line; do
		args=${line%% | *}
		want=${line#* | }
		# shellcheck disable=SC2086
		got=$("$1" $args --ns -q 2>&1 | tail -n 1)
		n=$((n + 1))
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			[ $bad -le 10 ] && no "$(basename "$1") $args: '$got', recorded '$want'"
		fi
	done < "$data"
	if [ $bad = 0 ]; then
		ok "$(basename "$1") prints the $n recorded virtual times to the ns"
	else
		no "$bad of $n recorded virtual times differ ($(basename "$1"))"
	fi
}
compare "$sim"
compare "$top/build/tests/vcube-sim-check"
exit $fail
