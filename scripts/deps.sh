#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt, everything vcube's build, VM and tests need on Debian 12.
# Idempotent: does nothing (and needs no network) when all is there.
set -euo pipefail

pkgs=(
	build-essential bc bison flex libelf-dev libssl-dev pkg-config kmod
	cpio xz-utils gzip python3 perl
	linux-headers-amd64 linux-image-amd64
	linux-headers-6.12-amd64 linux-image-6.12-amd64 linux-source-6.12
	qemu-system-x86 busybox-static
	libnl-3-dev libnl-genl-3-dev libjson-c-dev libxml2-dev gnuplot-nox
	python3-yaml python3-jsonschema iproute2 util-linux man-db
	dkms dh-dkms debhelper lintian dpkg-dev fakeroot openssl
	openmpi-bin libopenmpi-dev pajeng mpich-doc curl python3-networkx
	libsimgrid-dev
)
# Open MPI (above) is make check's reference for vcube-mpi's tests; pajeng's
# pj_dump reads vcubectl trace --format paje back in tests/vm/netlink.sh;
# networkx writes the Slim Fly's GraphML that tests/host/graph_sim.sh runs
# (scripts/graphs/slimfly.py, run by /usr/bin/python3). libsimgrid-dev is
# SimGrid's SMPI (smpicc, smpirun and the TORUS, FAT_TREE and DRAGONFLY
# cluster zones): make crosscheck and make bench run plain MPI under it.

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages: ${missing[*]}; run 'sudo make deps'" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# when packages were last installed (scripts/demo-time.sh says whether
# the demo's time includes that)
mkdir -p "$(dirname "$0")/../build" && date +%s > "$(dirname "$0")/../build/deps-installed"
echo "deps: done"
