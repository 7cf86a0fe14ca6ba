#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the directory of MPICH's own test suite (test/mpi of the MPICH
# release Debian 12 ships), configured, gathering it the first time: the
# source tarball from Debian's archive, checked against its sha256 before
# it is opened, and MPICH's configure run in it once with vcube-mpicc as
# CC (as MPI software is configured with mpicc). Never copied into the
# tree. make mpi-conformance (scripts/mpi-conformance.sh) runs the suite.
#   VCUBE_CACHE=DIR   where it lives (default: ~/.cache/vcube)
#   VCUBE_DEBIAN=URL  the archive (default: the first of apt's sources)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${VCUBE_CACHE:-$HOME/.cache/vcube}
ver=4.0.2
tar=mpich_$ver.orig.tar.xz
sha=b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860
dir=$cache/mpich-tests/mpich-$ver/test/mpi
fail() { echo "mpich-tests: $*" >&2; exit 1; }
. "$top/scripts/debian-archive.sh"
mkdir -p "$cache/mpich-tests"
exec 9> "$cache/mpich-tests/.lock"
flock 9

if [ ! -s "$dir/util/mtest.c" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	debian_fetch "pool/main/m/mpich/$tar" "$sha" "$tmp/$tar" ||
		fail "MPICH's source: see above"
	tar -C "$cache/mpich-tests" -xJf "$tmp/$tar" "mpich-$ver/test/mpi" ||
		fail "$tar holds no mpich-$ver/test/mpi"
fi
# configured once, in place (dtpools' headers expect their config there)
if [ ! -s "$dir/include/mpitestconf.h" ] || [ ! -s "$dir/dtpools/dtpoolsconf.h" ]; then
	cc=$top/build/bin/vcube-mpicc
	[ -x "$cc" ] || fail "no $cc: make first"
	echo "mpich-tests: configuring MPICH's test suite with vcube-mpicc (once, minutes)" >&2
	# MPICC too: the suite's configure looks for an mpicc of its own
	(cd "$dir" && ./configure CC="$cc" MPICC="$cc" --enable-fortran=no --disable-cxx \
		--enable-strictmpi --disable-spawn --disable-rma --disable-romio \
		--enable-threads=single > configure.out 2>&1) ||
		fail "configure failed: $dir/configure.out, $dir/config.log"
fi
echo "$dir"
