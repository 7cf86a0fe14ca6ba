#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-mpi's exit statuses (issue 52: 113 and 116 were nowhere said):
# vcube-mpicc(1) lists 100 + each error class of vcube-mpi's mpi.h with
# its name and vcube-mpi's own words for it, and vmpi_error() exits so.
. "$(dirname "$0")/lib.bash"
man=$top/docs/man/vcube-mpicc.1
h=$top/userspace/mpi/include/mpi.h
c=$top/userspace/mpi/mpi.c
n=0 miss=
while read -r _ name v; do
	[ "$name" = MPI_ERR_LASTCODE ] && continue
	words=$(sed -n "s/.*\[$name\] = \"\(.*\)\",/\1/p" "$c")
	n=$((n + 1))
	grep -q "^\.B $((100 + v))\$" "$man" && grep -qF ".BR $name :" "$man" && grep -qF "$words." "$man" ||
		miss="$miss $name"
done < <(grep -E '^#define MPI_ERR_[A-Z_]+[[:space:]]+[0-9]+' "$h")
[ "$n" -ge 21 ] && [ -z "$miss" ] && ok "vcube-mpicc(1) gives the exit status of each of the $n error classes" ||
	no "vcube-mpicc(1) misses:$miss ($n classes)"
grep -q '_exit(code < 126 ? code + 100 : 1);' "$c" &&
	ok "vmpi_error() exits 100 + the class, as the page says" || no "vmpi_error()'s exit is not 100 + the class"
exit $fail
