#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# vcube-mpi's test programs (tests/mpi) are plain MPI: built with Debian's
# Open MPI mpicc and run under its mpirun here, on the host, they are the
# reference the VM runs (tests/vm/mpi.sh) are held to. Also: vcube-mpicc
# itself (--help, --version, -show, no input).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
ok() { echo "ok - $*"; }
no() { echo "not ok - $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mpicc=$top/build/bin/vcube-mpicc
[ -x "$mpicc" ] || { no "no $mpicc: run make"; exit 1; }
"$mpicc" --help | grep -q '^usage: vcube-mpicc' && ok "vcube-mpicc --help" || no "vcube-mpicc --help"
[ "$("$mpicc" --version)" = "vcube-mpicc (vcube) $(cat "$top/VERSION")" ] &&
	ok "vcube-mpicc --version" || no "vcube-mpicc --version"
"$mpicc" -show x.c -o x | grep -q 'libvcube-mpi.a' && ok "vcube-mpicc -show links vcube-mpi" ||
	no "vcube-mpicc -show"
"$mpicc" 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'no input files' "$tmp/err" && ok "vcube-mpicc with no input: exit 2" ||
	no "vcube-mpicc with no input: exit $rc"
# the profiling interface: pmpi.h is mpi.h's functions, as scripts/pmpi-gen.py
# writes them, and the library has each under its PMPI_ name, its MPI_ one weak
python3 "$top/scripts/pmpi-gen.py" | diff -q - "$top/userspace/mpi/include/pmpi.h" > /dev/null &&
	ok "pmpi.h is up to date with mpi.h" ||
	no "pmpi.h differs from what scripts/pmpi-gen.py writes: run it"
nh=$(grep -c '^[A-Za-z_]* PMPI_' "$top/userspace/mpi/include/pmpi.h")
nt=$(nm "$top/build/lib/libvcube-mpi.a" | grep -c ' T PMPI_')
nw=$(nm "$top/build/lib/libvcube-mpi.a" | grep -c ' W MPI_[A-Z][a-z]')
[ "$nh" = "$nt" ] && [ "$nt" = "$nw" ] && ok "libvcube-mpi.a: $nt PMPI_ functions, each MPI_ one weak" ||
	no "pmpi.h declares $nh, the library defines $nt PMPI_ and $nw weak MPI_"
# a call outside the subset: the build fails, naming the call (issue 52)
printf '#include <mpi.h>\nint main(int c, char **v)\n{\n\tMPI_Comm w = MPI_COMM_WORLD;\n\n\tMPI_Init(&c, &v);\n\tMPI_Comm_disconnect(&w);\n\treturn MPI_Finalize();\n}\n' > "$tmp/gv.c"
"$mpicc" -c "$tmp/gv.c" -o "$tmp/gv.o" 2> "$tmp/err"; rc=$?
[ $rc != 0 ] && grep -q 'error: implicit declaration of function .MPI_Comm_disconnect.' "$tmp/err" && [ ! -e "$tmp/gv.o" ] &&
	ok "MPI_Comm_disconnect (dynamic processes), outside the subset: the compile fails, naming it" ||
	no "MPI_Comm_disconnect: exit $rc, $(head -n 2 "$tmp/err")"
# CC=vcube-mpicc make, as MPI software is built with mpicc (issue 50): make's
# implicit rules compile and link with $(CC), and vcube-mpicc must not take
# its own compiler from that CC (it called itself, forever)
mkdir -p "$tmp/mk"
printf '#include <mpi.h>\nint main(int c, char **v)\n{\n\tMPI_Init(&c, &v);\n\treturn MPI_Finalize();\n}\n' > "$tmp/mk/hello.c"
printf 'hello: hello.o\n' > "$tmp/mk/Makefile"
timeout 60 make -s -C "$tmp/mk" CC="$mpicc" > "$tmp/err" 2>&1; rc=$?
[ $rc = 0 ] && nm "$tmp/mk/hello" | grep -q ' [TW] MPI_Init$' &&
	ok "CC=vcube-mpicc make builds and links a program against vcube-mpi" ||
	no "CC=vcube-mpicc make: exit $rc, $(head -n 2 "$tmp/err")"
VCUBE_MPICC_CC=$mpicc timeout 10 "$mpicc" -c "$tmp/mk/hello.c" -o "$tmp/mk/x.o" 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'is vcube-mpicc itself' "$tmp/err" &&
	ok "VCUBE_MPICC_CC naming vcube-mpicc: refused, exit 2" ||
	no "VCUBE_MPICC_CC=vcube-mpicc: exit $rc, $(head -n 1 "$tmp/err")"
mkdir -p "$tmp/bin" && ln -s "$mpicc" "$tmp/bin/cc"
PATH=$tmp/bin:$PATH timeout 10 "$mpicc" -c "$tmp/mk/hello.c" -o "$tmp/mk/x.o" 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'is vcube-mpicc itself' "$tmp/err" &&
	ok "a cc on PATH that is vcube-mpicc: refused, exit 2" ||
	no "cc -> vcube-mpicc on PATH: exit $rc, $(head -n 1 "$tmp/err")"
# vcube-mpicc --check: what a program uses that vcube-mpi lacks (issue 50;
# one-sided calls, which the issue leaves out)
cat > "$tmp/uses.c" <<'C'
#include <mpi.h>
static int f(MPI_Win w) { (void)w; return 0; }
int main(int c, char **v)
{
	int dims[2] = { 0, 0 }, n = MPI_MODE_NOPRECEDE;

	MPI_Init(&c, &v);
	MPI_Win_fence(0, 0);
	MPI_Win_fence(0, 0);
	MPI_Send(dims, 2, MPI_INT, 0, 0, MPI_COMM_WORLD);
	return f(0) + n + MPI_Finalize();
}
C
"$mpicc" --check "$tmp/uses.c" -o "$tmp/uses" > "$tmp/out" 2> "$tmp/err"; rc=$?
printf 'MPI_MODE_NOPRECEDE\tconstant\t%s:5\nMPI_Win\ttype\t%s:2\nMPI_Win_fence\tfunction\t%s:8\n' \
	"$tmp/uses.c" "$tmp/uses.c" "$tmp/uses.c" > "$tmp/want"
[ $rc = 1 ] && cmp -s "$tmp/out" "$tmp/want" && [ ! -e "$tmp/uses" ] &&
	ok "vcube-mpicc --check lists a function, a type and a constant vcube-mpi lacks, once each, exit 1" ||
	no "vcube-mpicc --check: exit $rc, $(tr '\n\t' '; ' < "$tmp/out")"
miss=
for f in "$top"/tests/mpi/*.c; do
	"$mpicc" --check -std=c11 "$f" > /dev/null 2>&1 || miss="$miss $(basename "$f")"
done
[ -z "$miss" ] && ok "vcube-mpicc --check: nothing missing in tests/mpi's programs, exit 0" ||
	no "vcube-mpicc --check says tests/mpi's programs lack something:$miss"
# docs/mpi.md's line, as written, from the top of the tree
doc=$("$top/scripts/doc-cmds.py" get "$top/docs/mpi.md" mpi-check)
(cd "$top" && eval "$doc") > "$tmp/out" 2>&1; rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/out" ] && ok "docs/mpi.md's vcube-mpicc --check line: nothing missing, exit 0" ||
	no "docs/mpi.md's --check line ($doc): exit $rc, $(head -n 2 "$tmp/out")"
printf 'int main(void)\n{\n\treturn nosuch;\n}\n' > "$tmp/bad.c"
"$mpicc" --check "$tmp/bad.c" > "$tmp/out" 2> "$tmp/err"; rc=$?
[ $rc = 2 ] && [ ! -s "$tmp/out" ] && grep -q "'nosuch' undeclared" "$tmp/err" &&
	ok "vcube-mpicc --check on a program with errors of its own: exit 2, the compiler's words" ||
	no "vcube-mpicc --check, not an MPI name: exit $rc, $(head -n 2 "$tmp/err")"
PKG_CONFIG_PATH=$top/build/lib/pkgconfig pkg-config --cflags vcube-mpi | grep -q userspace/mpi/include &&
	ok "pkg-config vcube-mpi" || no "pkg-config vcube-mpi"

if ! command -v mpicc > /dev/null || ! command -v mpirun > /dev/null; then
	no "Open MPI's mpicc and mpirun are missing: make deps"
	exit 1
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# one host, no network: shared memory and self only
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_plm_rsh_agent=false
for p in p2p coll collv icoll persist errh info graph profile userop order big cart group dtype attr inter contexts halo abort; do
	if mpicc -std=c11 -O2 -Wall -Wextra -Werror -o "$tmp/$p" "$top/tests/mpi/$p.c" 2> "$tmp/cc"; then
		ok "mpicc $p.c"
	else
		no "mpicc $p.c: $(head -3 "$tmp/cc")"
	fi
done
for n in 2 5 8; do
	for p in p2p coll collv icoll persist errh info graph profile userop order big cart group dtype attr inter contexts halo; do
		if timeout 300 mpirun --oversubscribe -n $n "$tmp/$p" > "$tmp/out" 2>&1 &&
			grep -q "^$p: ok" "$tmp/out"; then
			ok "Open MPI, $n ranks: $(grep "^$p: ok" "$tmp/out")"
		else
			no "Open MPI, $n ranks: $p: $(tail -3 "$tmp/out")"
		fi
	done
done
# MPI programs written elsewhere, as they come (tests/mpi/foreign/programs)
. "$top/tests/mpi/foreign/expect.sh"
if ! foreign=$("$top/scripts/mpi-foreign.sh"); then
	no "the foreign MPI programs' sources (scripts/mpi-foreign.sh)"
	exit 1
fi
for p in $foreign_programs; do
	b=$tmp/$(basename "$p")
	if ! mpicc -O2 -o "$b" "$foreign/$p.c" -lm 2> "$tmp/cc"; then
		no "mpicc $p.c: $(head -3 "$tmp/cc")"
		continue
	fi
	foreign_stdin "$p" | timeout 120 mpirun --oversubscribe -n 5 "$b" > "$tmp/out" 2>&1
	foreign_ok "$p" "$tmp/out" 5 && ok "Open MPI, 5 ranks: $p" ||
		no "Open MPI, 5 ranks: $p: $(tail -3 "$tmp/out")"
done
timeout 120 mpirun --oversubscribe -n 4 "$tmp/abort" > "$tmp/out" 2>&1; rc=$?
[ $rc != 0 ] && [ $rc != 124 ] && ! grep -q "not aborted" "$tmp/out" &&
	ok "Open MPI: MPI_Abort ends the job, exit $rc" || no "Open MPI: MPI_Abort: exit $rc"
exit $fail
