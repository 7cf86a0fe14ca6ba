#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make deb: the Debian packages vcube-dkms, libvcube0, libvcube-dev,
# libvcube-mpi-dev and
# vcube-tools, built by dpkg-buildpackage -us -uc -b from a copy of this
# tree's files (tracked or new, never build/ or ignored ones) in
# build/deb/vcube-VERSION, then checked by lintian, which must report no
# error. Prints the packages, lintian's counts and the time taken;
# build/deb/build.log and build/deb/lintian.txt keep the whole output.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
t0=$SECONDS
ver=$(cat VERSION)
for t in dpkg-buildpackage dpkg-parsechangelog dh dh_dkms lintian git; do
	command -v "$t" > /dev/null || { echo "deb: $t is not installed: run 'make deps'" >&2; exit 1; }
done
cver=$(dpkg-parsechangelog -l debian/changelog -S Version)
if [ "$cver" != "$ver" ]; then
	echo "deb: debian/changelog's newest entry is $cver, VERSION says $ver: add an entry" >&2
	exit 1
fi

out=$top/build/deb
rm -rf "$out"
mkdir -p "$out/vcube-$ver"
git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar -c --null -T - | tar -x -C "$out/vcube-$ver"
if ! (cd "$out/vcube-$ver" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed (build/deb/build.log)" >&2
	exit 1
fi
for p in vcube-dkms libvcube0 libvcube-dev vcube-tools libvcube-mpi-dev vcube-tools-mpi; do
	f=$(ls "$out"/${p}_"$ver"_*.deb 2>/dev/null | head -n 1)
	[ -n "$f" ] || { echo "deb: no $p package was built" >&2; exit 1; }
	printf 'deb: %-44s %6s KiB, %3d files\n' "build/deb/${f##*/}" \
		$(($(stat -c %s "$f") / 1024)) "$(dpkg-deb -c "$f" | grep -vc '/$')"
done
set +e
lintian --fail-on error --display-info "$out"/vcube_"$ver"_*.changes > "$out/lintian.txt" 2>&1
rc=$?
set -e
e=$(grep -c '^E: ' "$out/lintian.txt") || true
w=$(grep -c '^W: ' "$out/lintian.txt") || true
i=$(grep -c '^I: ' "$out/lintian.txt") || true
grep '^[EW]: ' "$out/lintian.txt" | sed 's/^/deb: lintian: /' || true
echo "deb: lintian: $e errors, $w warnings, $i notes (build/deb/lintian.txt)"
echo "deb: built in $((SECONDS - t0)) s"
[ "$rc" -eq 0 ] && [ "$e" -eq 0 ]
