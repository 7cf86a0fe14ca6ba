#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the directory holding the MPI programs written elsewhere that make
# check builds with vcube-mpicc (tests/mpi/foreign/expect.sh lists them),
# gathering them the first time. They are never copied into the tree:
#   mpich-4.0.2/    MPICH's examples, where Debian's mpich-doc installs
#                   them (/usr/share/doc/mpich/examples; make deps)
#   openmpi-4.1.4/  Open MPI's examples, which no Debian package installs:
#                   taken from the source tarball in Debian's archive,
#                   checked against its sha256 before it is opened
#   VCUBE_CACHE=DIR   where they live (default: ~/.cache/vcube)
#   VCUBE_DEBIAN=URL  the archive (default: the first of apt's sources)
set -euo pipefail
cache=${VCUBE_CACHE:-$HOME/.cache/vcube}
dir=$cache/mpi-foreign
fail() { echo "mpi-foreign: $*" >&2; exit 1; }
mkdir -p "$cache"
# one gatherer at a time (make -j asks for each file)
exec 9> "$cache/.mpi-foreign.lock"
flock 9
. "$(dirname "$0")/debian-archive.sh"

mpich=/usr/share/doc/mpich/examples
mpich_files="cpi.c hellow.c srtest.c icpi.c"
ompi_tar=openmpi_4.1.4.orig.tar.xz
ompi_sha=ddaee7dbdb01eb4fab1fda5b5e03e8bbff026711806c095c1f39bb410f99f263
ompi_files="hello_c.c ring_c.c connectivity_c.c"

have() {
	local d=$1 f
	shift
	for f in "$@"; do [ -s "$dir/$d/$f" ] || return 1; done
}

if ! have mpich-4.0.2 $mpich_files; then
	mkdir -p "$dir/mpich-4.0.2"
	for f in $mpich_files; do
		[ -s "$mpich/$f" ] || fail "no $mpich/$f: install mpich-doc (make deps)"
		cp "$mpich/$f" "$dir/mpich-4.0.2/"
	done
fi

if ! have openmpi-4.1.4 $ompi_files; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	debian_fetch "pool/main/o/openmpi/$ompi_tar" "$ompi_sha" "$tmp/$ompi_tar" ||
		fail "Open MPI's examples: see above"
	tar -C "$tmp" -xJf "$tmp/$ompi_tar" \
		$(printf 'openmpi-4.1.4/examples/%s ' $ompi_files) ||
		fail "$ompi_tar holds no examples/{${ompi_files// /,}}"
	mkdir -p "$dir/openmpi-4.1.4"
	for f in $ompi_files; do
		cp "$tmp/openmpi-4.1.4/examples/$f" "$dir/openmpi-4.1.4/"
	done
fi
echo "$dir"
