#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# README's MPI example, measured (make mpi-example): in the guest, on the
# iPSC/860 hypercube of 32 nodes, examples/mpi/alltoall.c built with
# vcube-mpicc times MPI_Alltoall of 4 KB blocks once per algorithm
# (VCUBE_MPI_ALLTOALL), beside vcube-bench's time for the same exchange;
# the two must agree to the ns. Writes the markdown to $MD.
# Usage (in the guest): MD=FILE scripts/mpi-example.sh
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/vm/lib.sh"
md=${MD:?MD=file}
a2a=$top/build/examples/mpi/alltoall
bench=$top/build/bin/vcube-bench
algos="gen pex pairwise_F linear pairwise standard_F naive"
load topology=hypercube dim=5 profile=ipsc860 || exit 1
{
	echo "| VCUBE_MPI_ALLTOALL= | MPI_Alltoall in ./alltoall, us | vcube-bench exchange --algo, us | the same to the ns |"
	echo "|---|---|---|---|"
} > "$md"
bad=0
for a in $algos; do
	want=$(vcube-run -n 32 "$bench" exchange -q --csv --algo "$a" --sizes 4096 --reps 1 |
		awk -F, -v a="$a" '$1 == a { print $5 }')
	got=$(VCUBE_MPI_ALLTOALL=$a vcube-run -n 32 "$a2a" 4096 |
		sed -n 's/.*bytes: \([0-9]*\) ns, data ok$/\1/p')
	same=no
	[ -n "$got" ] && [ "$got" = "$want" ] && same=yes
	[ $same = yes ] || bad=1
	awk -v a="$a" -v g="${got:-0}" -v w="${want:-0}" -v s=$same \
		'BEGIN { printf "| %s | %.1f | %.1f | %s |\n", a, g / 1000, w / 1000, s }' >> "$md"
done
unload
cat "$md"
exit $bad
