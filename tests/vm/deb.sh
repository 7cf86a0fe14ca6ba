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
out=$(vcube-run -n 8 vcube-bench exchange -q --algo pairwise_F,standard_U --sizes 64,1024 --reps 1 2>&1)
rc=$?
[ $rc = 0 ] && grep -q pairwise_F <<<"$out" && grep -q standard_U <<<"$out" &&
	ok "the installed vcube-bench runs two exchanges on 8 nodes, every block checked" ||
	{ no "installed vcube-bench: status $rc"; sed 's/^/# /' <<<"$out" | head; }
n=$(counter nodes 2>&1)
[ "$n" = 8 ] && ok "the installed vcubectl reads the network over generic netlink (8 nodes)" ||
	no "installed vcubectl -j topo: $n"
m=$(vcubectl -j links | python3 -c 'import json,sys; print(sum(l["messages"] for l in json.load(sys.stdin)))' 2>&1)
[ "${m:-0}" -gt 0 ] 2> /dev/null && ok "and counts the messages the runs sent over the links ($m)" ||
	no "installed vcubectl -j links: $m"
unload

# The README's modprobe and vcubectl lines, as written (as root here, so
# without sudo), on the module where DKMS installs it, found by depmod,
# through the package's modprobe hook (/etc/modprobe.d/vcube-dkms.conf,
# its checker's path in the scratch root): the guest's /lib/modules and
# /etc are the host's, read-only, so overlays take the install.
rel=$(uname -r)
mods=/lib/modules/$rel
conf=$VCUBE_TOP/build/pkgroot/etc/modprobe.d/vcube-dkms.conf
t=$(mktemp -d)
if mount -t tmpfs tmp "$t" && mkdir -p "$t/up/updates/dkms" "$t/work" "$t/etc-up" "$t/etc-work" && modprobe overlay &&
	mount -t overlay overlay -o "lowerdir=$mods,upperdir=$t/up,workdir=$t/work" "$mods" &&
	mount -t overlay overlay -o "lowerdir=/etc/modprobe.d,upperdir=$t/etc-up,workdir=$t/etc-work" /etc/modprobe.d; then
	sed "s|/usr/lib/vcube/|$VCUBE_TOP/build/pkgroot/usr/lib/vcube/|" "$conf" > /etc/modprobe.d/vcube-dkms.conf
	# (depmod of this module alone: the index a plain depmod would write
	# holds it the same, without reading 4,000 modules over 9p under TCG)
	cp "$VCUBE_KO" "$mods/updates/dkms/vcube.ko" && depmod "$rel" "$mods/updates/dkms/vcube.ko"
	readme=$("$VCUBE_TOP/scripts/doc-cmds.py" get "$VCUBE_TOP/README.md" modprobe)
	line=$(sed -n 's/^sudo \(modprobe vcube .*\)$/\1/p' <<< "$readme")
	out=$(cd "$VCUBE_TOP" && eval "$line" 2>&1)
	[ -n "$line" ] && loaded && [ "$(attr nodes)" = 32 ] && [ "$(modinfo -n vcube)" = "$mods/updates/dkms/vcube.ko" ] &&
		ok "README: $line (the module from updates/dkms, through the hook, 32 nodes)" || no "README: '${line:-no modprobe line}': $out"
	line=$(sed -n 2p <<< "$readme")
	out=$(cd "$VCUBE_TOP" && eval "$line" 2>&1)
	rc=$?
	[ -n "$line" ] && [ $rc = 0 ] && grep -q '^node 31 ' <<<"$out" && ok "README: $line (the installed one: 32 nodes)" ||
		no "README: '${line:-no vcubectl line after modprobe}': status $rc: $(head -n 3 <<<"$out")"
	unload

	# a word vcube does not declare: refused, the hook's line first (kmod
	# adds two of its own after it: the install command failed), nothing
	# loaded
	out=$(modprobe vcube dimm=3 2>&1)
	rc=$?
	[ $rc != 0 ] && ! loaded &&
		[ "$(head -n 1 <<< "$out")" = "modprobe: vcube: unknown parameter 'dimm' (modinfo -p vcube lists them)" ] &&
		ok "modprobe vcube dimm=3: refused by the package's hook, its line first: $(head -n 1 <<< "$out")" ||
		no "modprobe vcube dimm=3: status $rc, loaded $(loaded && echo yes || echo no): $out"
	unload
	umount /etc/modprobe.d
	umount "$mods"
else
	no "overlays over $mods and /etc/modprobe.d to install the module into"
fi
umount "$t" 2> /dev/null
rmdir "$t"
exit $fail
