#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# MPICH's own tests, the fast subset make check runs (tests/mpi/mpich-subset;
# make mpi-conformance runs them all, and under Open MPI too, whose passes
# chose the subset): MPICH 4.0.2's test/mpi taken from Debian's archive by
# its sha256 (scripts/mpich-tests.sh), the subset built by MPICH's
# Makefiles with vcube-mpicc into build/mpich-subset; the VM layer runs
# them under vcube-mpi (tests/vm/mpich.sh).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
ok() { echo "ok - $*"; }
no() { echo "not ok - $*"; fail=1; }
out=$top/build/mpich-subset
conf() { python3 "$top/scripts/mpi-conformance.py" --out "$out" "$@"; }

if ! src=$("$top/scripts/mpich-tests.sh"); then
	no "MPICH's test suite: scripts/mpich-tests.sh failed (above)"
	exit 1
fi
ok "MPICH's test suite, configured with vcube-mpicc: $src"
rm -rf "$out"
conf --subset "$top/tests/mpi/mpich-subset" list 2> /dev/null
n=$(grep -c . "$out/list.tsv")
want=$(grep -c '^[a-z]' "$top/tests/mpi/mpich-subset")
[ "$n" -ge "$want" ] && ok "the subset: $n runs of $want tests" ||
	no "the subset: $n runs listed for $want tests (a name MPICH's testlists lack?)"
conf build vcube 2> /dev/null
bad=$(awk -F'\t' '$3 != "ok" { print $1 "/" $2 ": " $3 }' "$out/build-vcube.tsv")
[ -z "$bad" ] && ok "vcube-mpicc built every test of the subset" || no "not built: $bad"
exit $fail
