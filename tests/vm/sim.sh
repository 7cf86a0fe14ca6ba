#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-sim predicts the module: every complete exchange of the registry on
# one network per profile (the ones vcube-bench runs there), run through the
# module by libvcube (exp xchg: every rank from time 0, no aligning barrier)
# and by vcube-sim on the host engine, the same plan through the same
# executor; the slowest rank's virtual time must be equal to the ns.
. "$(dirname "$0")/lib.sh"
bench=$VCUBE_TOP/build/bin/vcube-bench
sim=$VCUBE_TOP/build/bin/vcube-sim
exp=$VCUBE_TOP/build/tests/vm/exp
out=$(mktemp)
rows=$(mktemp)
trap 'rm -f "$out" "$rows"' EXIT

# same PROFILE NPROCS LEN "MODULE PARAMS" "SIM SHAPE"
same() {
	local profile=$1 n=$2 len=$3 params=$4 shape=$5 a t s bad=0 cnt=0
	# shellcheck disable=SC2086
	load $params profile=$profile || return
	if ! vcube-run -n "$n" "$bench" -q --csv --sizes "$len" --reps 1 > "$out"; then
		no "$profile: vcube-bench failed"
		return
	fi
	grep -v '^#' "$out" | grep -v '^algo,' > "$rows"
	while IFS=, read -r a _; do
		t=$(vcube-run -n "$n" "$exp" xchg "$a" "$len" | awk '{ if ($4 > m) m = $4 } END { print m }')
		# shellcheck disable=SC2086
		s=$("$sim" --profile "$profile" $shape --algo "$a" --len "$len" --ns | awk '{ print $5 }')
		cnt=$((cnt + 1))
		[ "$s" = "$t" ] || { bad=$((bad + 1)); echo "# $profile $a: module $t ns, vcube-sim $s ns"; }
	done < "$rows"
	check "$profile ($shape): vcube-sim equals the module for all $cnt algorithms to the ns" \
		test "$cnt" -gt 0 -a "$bad" = 0
}

same ipsc860 8 1000 "topology=hypercube dim=3" "--topology hypercube --dim 3"
same seidel 8 4096 "topology=hypercube dim=3" "--topology hypercube --dim 3"
same delta 20 1000 "topology=mesh rows=4 cols=5" "--topology mesh --rows 4 --cols 5"
same delta 16 256 "topology=mesh rows=4 cols=4" "--topology mesh --rows 4 --cols 4"
same ap1000 16 512 "topology=torus rows=4 cols=4" "--topology torus --rows 4 --cols 4"
same cm5 32 256 "topology=fattree nodes=32" "--topology fattree --nodes 32"
unload
exit $fail
