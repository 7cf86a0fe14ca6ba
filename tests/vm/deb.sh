#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages at work: tests/host/deb.sh installed them into
# build/pkgroot and had DKMS build the module from vcube-dkms's source; here
# that module is loaded ($VCUBE_KO is DKMS's when make check runs, with
# VCUBE_VM_KODIR=build/dkms), and the installed tools, linked against the
# installed libvcube.so.0, and the example built from the installed files
# run on it, their data checked.
. "$(dirname "$0")/lib.sh"
root=$VCUBE_TOP/build/pkgroot
lib=$(ls -d "$root"/usr/lib/*-linux-gnu 2> /dev/null | head -n 1)
if [ ! -x "$root/usr/bin/vcubectl" ] || [ ! -x "$root/work/exchange" ]; then
	no "no packages installed in build/pkgroot: run tests/host/deb.sh (make check does)"
	exit 1
fi
# the module DKMS built from vcube-dkms's source, not the tree's
signer=$(modinfo -F signer "$VCUBE_KO")
[ "$signer" = "DKMS module signing key" ] && ok "the module is DKMS's build ($VCUBE_KO)" ||
	no "$VCUBE_KO is not DKMS's build (signer '${signer}'): run with VCUBE_VM_KODIR=build/dkms"
load topology=hypercube dim=3 profile=ipsc860 || exit 1
[ "$(cat /sys/module/vcube/version)" = "$(cat "$VCUBE_TOP/VERSION")" ] &&
	ok "the loaded module is vcube $(cat /sys/module/vcube/version)" || no "module version $(cat /sys/module/vcube/version)"

# only the installed files: their tools first on PATH, their library
export PATH=$root/usr/bin:$PATH LD_LIBRARY_PATH=$lib
for t in vcube-run vcube-bench vcubectl; do
	[ "$(command -v $t)" = "$root/usr/bin/$t" ] && ldd "$root/usr/bin/$t" | grep -q "libvcube.so.0 => $lib/" ||
		no "$t is not the installed one on the installed libvcube.so.0"
done
out=$(vcube-run -n 8 "$root/work/exchange" 2>&1)
n=$(grep -c '^node [0-9]*: 4096 bytes from node [0-9]* arrived at [0-9]* ns$' <<<"$out")
[ "$n" = 8 ] && ok "the example built against the packages exchanges 4096 bytes on 8 nodes, data checked" ||
	{ no "the installed example: $n of 8 nodes"; sed 's/^/# /' <<<"$out" | head; }
out=$(vcube-run -n 8 vcube-bench -q --algo pairwise_F,standard_U --sizes 64,1024 --reps 1 2>&1)
rc=$?
[ $rc = 0 ] && grep -q pairwise_F <<<"$out" && grep -q standard_U <<<"$out" &&
	ok "the installed vcube-bench runs two exchanges on 8 nodes, every block checked" ||
	{ no "installed vcube-bench: status $rc"; sed 's/^/# /' <<<"$out" | head; }
n=$(vcubectl -j topo | python3 -c 'import json,sys; print(json.load(sys.stdin)["nodes"])' 2>&1)
[ "$n" = 8 ] && ok "the installed vcubectl reads the network over generic netlink (8 nodes)" ||
	no "installed vcubectl -j topo: $n"
m=$(vcubectl -j links | python3 -c 'import json,sys; print(sum(l["messages"] for l in json.load(sys.stdin)))' 2>&1)
[ "${m:-0}" -gt 0 ] 2> /dev/null && ok "and counts the messages the runs sent over the links ($m)" ||
	no "installed vcubectl -j links: $m"
unload
exit $fail
