#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# MPICH's own tests, the fast subset (tests/mpi/mpich-subset) that the host
# layer built (tests/host/mpich_subset.sh, where Open MPI passes each),
# under vcube-mpi on the iPSC/860 hypercube: each passes, as MPICH's
# runtests decides (exit 0 and "No Errors"). make mpi-conformance runs all.
. "$(dirname "$0")/lib.sh"
out=$VCUBE_TOP/build/mpich-subset
if [ ! -s "$out/build-vcube.tsv" ]; then
	no "no MPICH subset in $out: tests/host/mpich_subset.sh builds it"
	exit 1
fi
python3 "$VCUBE_TOP/scripts/mpi-conformance.py" --out "$out" vcube hypercube \
	topology=hypercube dim=4 profile=ipsc860 2> /dev/null
res=$VCUBE_OUT/results-vcube-hypercube.tsv
[ -s "$res" ] || no "no results from scripts/mpi-conformance.py vcube"
# each run: pass, or its result and why (a TSV line; awk keeps empty fields)
while IFS= read -r line; do
	case $line in
	pass*) ok "vcube-mpi, hypercube, ${line#pass }" ;;
	*) no "vcube-mpi, hypercube, $line" ;;
	esac
done < <(awk -F'\t' '{ printf "%s %s ranks: %s/%s %s (%s s) %s\n", $5, $3, $1, $2, $4, $6, $7 }' "$res")
rmmod vcube 2> /dev/null
exit $fail
