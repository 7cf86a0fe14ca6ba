#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the path of the linux-source-6.12 tree vcube's tools use (KUnit,
# ynl), extracting Debian's tarball into the cache the first time.
#   VCUBE_CACHE=DIR   where it lives (default: ~/.cache/vcube)
set -euo pipefail
cache=${VCUBE_CACHE:-$HOME/.cache/vcube}
src=$cache/linux-source-6.12
if [ ! -f "$src/Makefile" ]; then
	tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1 || true)
	[ -n "$tarball" ] || { echo "linux-src: linux-source-6.12 is not installed (make deps)" >&2; exit 1; }
	mkdir -p "$cache"
	echo "linux-src: extracting $tarball into $cache (once)" >&2
	tar -C "$cache" -xf "$tarball"
fi
echo "$src"
