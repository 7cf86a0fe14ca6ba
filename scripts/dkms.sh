#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make dkms: the module built by DKMS, as a machine that installs vcube-dkms
# builds it, for every Debian kernel whose headers are installed (or the
# releases named). Everything stays under build/dkms/: the source tree,
# DKMS's tree, and for each release <release>/vcube.ko, the module DKMS
# installed (decompressed if DKMS compressed it), which the VM tests load
# (scripts/vm-run.sh's VCUBE_VM_KODIR). No root file is touched: no
# /var/lib/dkms, no /lib/modules.
#
#   scripts/dkms.sh [--source DIR] [RELEASE...]
#     --source DIR   build from DIR (a vcube-VERSION tree with dkms.conf, such
#                    as an installed vcube-dkms package's /usr/src/vcube-VERSION)
#                    instead of staging this checkout's module sources
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ver=$(cat VERSION)
out=$top/build/dkms
src=
if [ "${1:-}" = --source ]; then
	src=$(realpath "$2")
	shift 2
fi
command -v dkms > /dev/null || { echo "dkms: not installed: run 'make deps'" >&2; exit 1; }

# The module's sources, as vcube-dkms ships them
if [ -z "$src" ]; then
	rm -rf "$out/src"
	make -s --no-print-directory install-dkms DESTDIR="$out/src" > /dev/null
	src=$out/src/usr/src/vcube-$ver
fi
[ -f "$src/dkms.conf" ] || { echo "dkms: no dkms.conf in $src" >&2; exit 1; }

rels=("$@")
if [ ${#rels[@]} -eq 0 ]; then
	for h in /usr/src/linux-headers-*-amd64; do
		[ -e "$h/Module.symvers" ] && rels+=("${h#/usr/src/linux-headers-}")
	done
fi
[ ${#rels[@]} -gt 0 ] || { echo "dkms: no linux-headers-*-amd64 installed: run 'make deps'" >&2; exit 1; }

tree=$out/tree
rm -rf "$tree" "$out/sources"
mkdir -p "$tree" "$out/sources"
# DKMS finds a module's source as <sourcetree>/<name>-<version>
ln -s "$src" "$out/sources/vcube-$ver"
# DKMS signs what it builds with a machine-owner key, made the first time in
# /var/lib/dkms; this one is the build tree's (the signature is checked
# only where module signatures are enforced, and there by the owner's key).
export mok_signing_key=$out/mok.key mok_certificate=$out/mok.pub
opts=(--dkmstree "$tree" --sourcetree "$out/sources")
dkms add -m vcube -v "$ver" "${opts[@]}" > /dev/null
for rel in "${rels[@]}"; do
	t0=$SECONDS
	rm -rf "${out:?}/$rel"	# no module of an earlier run passes for this one
	if ! dkms build -m vcube -v "$ver" -k "$rel" "${opts[@]}" \
		--kernelsourcedir "/usr/src/linux-headers-$rel" > "$out/build-$rel.log" 2>&1; then
		cat "$out/build-$rel.log" "$tree/vcube/$ver/build/make.log" 2>/dev/null | tail -n 30 >&2
		echo "dkms: build for $rel failed" >&2
		exit 1
	fi
	m=$(ls "$tree/vcube/$ver/$rel"/*/module/vcube.ko* | head -n 1)
	mkdir -p "$out/$rel"
	case $m in
	*.xz) xz -dc "$m" > "$out/$rel/vcube.ko" ;;
	*.zst) zstd -qdc "$m" > "$out/$rel/vcube.ko" ;;
	*.gz) gzip -dc "$m" > "$out/$rel/vcube.ko" ;;
	*) cp "$m" "$out/$rel/vcube.ko" ;;
	esac
	echo "dkms: built vcube $ver for $rel in $((SECONDS - t0)) s: build/dkms/$rel/vcube.ko ($(basename "$m") from $src)"
done
