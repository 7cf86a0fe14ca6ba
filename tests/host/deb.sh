#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages, as a user gets them: make deb builds the six and
# lintian finds no error; they are installed (dpkg -x) into a scratch root,
# build/pkgroot; the example libvcube-dev carries is built there with
# pkg-config libvcube from the installed files only; and DKMS builds the
# module for both Debian kernel lines from the source vcube-dkms installed,
# as its postinst does, into build/dkms/<release>/vcube.ko. make check's VM
# layers load those modules (VCUBE_VM_KODIR=build/dkms), and tests/vm/deb.sh
# runs the installed tools and the example on them.
. "$(dirname "$0")/lib.bash"
cd "$top"
ver=$(cat VERSION)
root=$top/build/pkgroot
rm -rf "$root"
mkdir -p "$root"

# the README's lines (scripts/doc-cmds.py get README.md packages): make
# deb as written; apt install (below: simulated, and the packages
# unpacked here instead, as apt would change this machine); the cc line
readme=$(scripts/doc-cmds.py get README.md packages)
mk=$(sed -n 1p <<< "$readme")
[ "$(sed 's/ *#.*//' <<< "$mk")" = "make deb" ] && ok "README: the packages block starts with make deb" ||
	no "README's packages block starts with '$mk', not make deb"
if out=$(make --no-print-directory deb 2>&1); then
	ok "make deb: $(grep -c '^deb: build/deb/' <<<"$out") packages, $(sed -n 's/^deb: lintian: //p' <<<"$out" | tail -n 1)"
else
	no "make deb"
	sed 's/^/# /' <<<"$out" | tail -n 30
	exit 1
fi
grep '^deb: lintian: [EW]:' <<<"$out" | sed 's/^/# /'
declare -A deb
for p in vcube-dkms libvcube0 libvcube-dev vcube-tools libvcube-mpi-dev vcube-tools-mpi; do
	deb[$p]=$(ls build/deb/${p}_"$ver"_*.deb)
	dpkg-deb -x "${deb[$p]}" "$root"
done
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=$root/usr/lib/$ma

# what each package holds
has() {	# PACKAGE PATH...
	local p=$1 f list
	shift
	list=$(dpkg-deb -c "${deb[$p]}" | awk '{ print $6 }' | sed 's|^\./|/|')
	for f in "$@"; do
		grep -qx "$f" <<<"$list" && ok "$p has $f" || no "$p lacks $f"
	done
}
has vcube-dkms /usr/src/vcube-$ver/dkms.conf /usr/src/vcube-$ver/Kbuild /usr/src/vcube-$ver/kernel/main.c \
	/usr/src/vcube-$ver/kernel/core/engine.c /usr/src/vcube-$ver/include/uapi/linux/vcube.h \
	/etc/modprobe.d/vcube-dkms.conf /usr/lib/vcube/modprobe-check
has libvcube0 /usr/lib/$ma/libvcube.so.$ver /usr/lib/$ma/libvcube.so.0
has libvcube-dev /usr/include/vcube.h /usr/include/linux/vcube.h /usr/lib/$ma/libvcube.a \
	/usr/lib/$ma/libvcube.so /usr/lib/$ma/pkgconfig/libvcube.pc /usr/share/man/man3/vcube_node.3.gz \
	/usr/share/doc/libvcube-dev/examples/exchange.c
has vcube-tools /usr/bin/vcube-run /usr/bin/vcube-bench /usr/bin/vcubectl /usr/bin/vcube-chart \
	/usr/bin/vcube-sim /usr/share/man/man1/vcube-run.1.gz /usr/share/man/man8/vcubectl.8.gz
has vcube-tools-mpi /usr/libexec/vcube/vcube-bench-mpi
has libvcube-mpi-dev /usr/include/vcube-mpi/mpi.h /usr/include/vcube-mpi/pmpi.h /usr/lib/$ma/libvcube-mpi.a \
	/usr/lib/$ma/pkgconfig/vcube-mpi.pc /usr/bin/vcube-mpicc /usr/share/man/man1/vcube-mpicc.1.gz
# every tool has its manual page in the package
for t in "$root"/usr/bin/*; do
	ls "$root"/usr/share/man/man[18]/"${t##*/}".[18].gz > /dev/null 2>&1 ||
		no "vcube-tools: no manual page for ${t##*/}"
done
# nothing of the source tree's tests or build leaks into the module's source
n=$(dpkg-deb -c "${deb[vcube-dkms]}" | grep -c -E '_test\.c|/build/|\.o$') || true
[ "$n" = 0 ] && ok "vcube-dkms carries no tests or objects" || no "vcube-dkms carries $n test or object files"
# the dependencies a user's apt resolves
field() { dpkg-deb -f "${deb[$1]}" "$2"; }
grep -q "libvcube0 (= $ver)" <<<"$(field vcube-tools Depends)" && ok "vcube-tools depends on libvcube0 (= $ver)" ||
	no "vcube-tools Depends: $(field vcube-tools Depends)"
grep -q 'libjson-c5' <<<"$(field vcube-tools Depends)" && ok "vcube-tools depends on libjson-c5" ||
	no "vcube-tools Depends: $(field vcube-tools Depends)"
# Open MPI comes with vcube-bench's MPI transport only (issue 52)
! grep -qi 'openmpi\|libmpi' <<<"$(field vcube-tools Depends)" && ok "vcube-tools does not depend on Open MPI" ||
	no "vcube-tools Depends: $(field vcube-tools Depends)"
grep -q 'libopenmpi' <<<"$(field vcube-tools-mpi Depends)" && grep -q "vcube-tools (= $ver)" <<<"$(field vcube-tools-mpi Depends)" &&
	ok "vcube-tools-mpi depends on Open MPI and vcube-tools (= $ver)" ||
	no "vcube-tools-mpi Depends: $(field vcube-tools-mpi Depends)"
grep -q 'libnl-genl-3-200' <<<"$(field libvcube0 Depends)" && ok "libvcube0 depends on libnl-genl-3-200" ||
	no "libvcube0 Depends: $(field libvcube0 Depends)"
grep -q 'libnl-genl-3-dev' <<<"$(field libvcube-dev Depends)" && ok "libvcube-dev depends on libnl-genl-3-dev" ||
	no "libvcube-dev Depends: $(field libvcube-dev Depends)"
grep -q '^dkms' <<<"$(field vcube-dkms Depends)" && ok "vcube-dkms depends on dkms" ||
	no "vcube-dkms Depends: $(field vcube-dkms Depends)"
dpkg-deb --ctrl-tarfile "${deb[vcube-dkms]}" | tar -xO ./postinst 2> /dev/null | grep -q 'common.postinst' &&
	ok "vcube-dkms's postinst hands the module to DKMS" || no "vcube-dkms has no DKMS postinst"
dpkg-deb --ctrl-tarfile "${deb[libvcube0]}" | tar -xO ./symbols 2> /dev/null | grep -q "vcube_node_open@VCUBE_0 $ver" &&
	ok "libvcube0's symbols file versions vcube_node_open" || no "libvcube0 has no symbols file"

# A program built from the installed files only: the example the -dev
# package carries, with pkg-config libvcube (the scratch root as sysroot).
export PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_LIBDIR=$lib/pkgconfig:/usr/lib/$ma/pkgconfig:/usr/share/pkgconfig
flags=$(pkg-config --cflags --libs libvcube 2>&1)
mkdir -p "$root/work"
zcat -f "$root/usr/share/doc/libvcube-dev/examples/exchange.c" > "$root/work/exchange.c" 2> /dev/null
if out=$(gcc -std=c11 -Wall -Wextra -Werror "$root/work/exchange.c" $flags -o "$root/work/exchange" 2>&1); then
	ok "the installed example builds with pkg-config libvcube ($flags)"
else
	no "the installed example: $out"
fi
LD_LIBRARY_PATH=$lib ldd "$root/work/exchange" 2>&1 | grep -q "libvcube.so.0 => $lib/libvcube.so.0" &&
	ok "it links the installed libvcube.so.0" || no "it does not link $lib/libvcube.so.0"
LD_LIBRARY_PATH=$lib "$root/usr/bin/vcube-sim" --list > /dev/null 2>&1 &&
	ok "the installed vcube-sim runs on the installed library" || no "the installed vcube-sim does not run"

# an MPI program builds against what libvcube-mpi-dev installed, with
# pkg-config vcube-mpi, libvcube's static library from libvcube-dev
mflags=$(pkg-config --cflags --libs vcube-mpi 2>&1)
if out=$(gcc -std=c11 -O2 "$top/examples/mpi/alltoall.c" $mflags -o "$root/work/alltoall" 2>&1); then
	ok "an MPI program builds with pkg-config vcube-mpi ($mflags)"
else
	no "pkg-config vcube-mpi: $out"
fi
grep -q "^incdir='/usr/include/vcube-mpi'$" "$root/usr/bin/vcube-mpicc" &&
	grep -q "^libdir='/usr/lib/$ma'$" "$root/usr/bin/vcube-mpicc" &&
	ok "the installed vcube-mpicc points at /usr/include/vcube-mpi and /usr/lib/$ma" ||
	no "the installed vcube-mpicc: $(grep "^incdir\|^libdir" "$root/usr/bin/vcube-mpicc")"

# The README's lines, as written: apt resolves the five packages' dependencies
# (simulated: -s installs nothing; --reinstall where they are installed),
# the example builds as the README says
# (its /usr/share/doc read in the scratch root)
line=$(grep '^sudo apt install ' <<< "$readme" | sed 's/  */ /g')
sim=$(cd "$top" && eval "${line/sudo apt install/apt-get -s install --reinstall}" 2>&1)
if [ -n "$line" ] && [ "$(grep -c '^\(Inst\|Reinst\) \(vcube-dkms\|libvcube0\|libvcube-dev\|vcube-tools\|libvcube-mpi-dev\) ' <<<"$sim")" = 5 ]; then
	ok "README: $line (apt-get -s: every dependency resolves)"
else
	no "README: '${line:-no sudo apt install line}': $(tail -n 3 <<<"$sim")"
fi
line=$(grep '^cc ' <<< "$readme")
rm -rf "$root/readme" && mkdir -p "$root/readme"
if [ -n "$line" ] && out=$(cd "$root/readme" && eval "${line//\/usr\/share/$root/usr/share}" 2>&1) && [ -x "$root/readme/exchange" ]; then
	ok "README: $line"
else
	no "README: '${line:-no cc line with the installed example}': $out"
fi

# DKMS builds the module from what vcube-dkms installed, for each kernel
while read -r l; do
	case $l in
	"dkms: built "*) ok "${l#dkms: }" ;;
	"dkms: failed") no "scripts/dkms.sh --source $root/usr/src/vcube-$ver failed" ;;
	*) echo "# $l" ;;
	esac
done < <(scripts/dkms.sh --source "$root/usr/src/vcube-$ver" 2>&1 || echo "dkms: failed")
for h in /usr/src/linux-headers-*-amd64; do
	rel=${h#/usr/src/linux-headers-}
	[ -e "$h/Module.symvers" ] || continue
	m=build/dkms/$rel/vcube.ko
	if [ -f "$m" ] && [ "$(modinfo -F vermagic "$m" | cut -d' ' -f1)" = "$rel" ] &&
		[ "$(modinfo -F signer "$m")" = "DKMS module signing key" ]; then
		ok "$m: DKMS's build for $rel"
	else
		no "no DKMS build of the module for $rel"
	fi
done
exit $fail
