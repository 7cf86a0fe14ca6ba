#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build (once, then incrementally) the debug guest kernel of
# `make check-debug` from Debian's linux-source-6.12: x86_64_defconfig,
# kvm_guest.config and scripts/debug-kernel.config (KASAN, lockdep,
# kmemleak, KFENCE, UBSAN, the lockup and hung-task detectors), in a build
# directory outside the repository that vcube.ko is then built against.
#
#   scripts/debug-kernel.sh          build if needed; print the build directory
#   VCUBE_CACHE=DIR                  where it lives (default: ~/.cache/vcube)
#
# The configuration is rebuilt when scripts/debug-kernel.config changes.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${VCUBE_CACHE:-$HOME/.cache/vcube}
src=$("$top/scripts/linux-src.sh")
build=$cache/linux-debug
frag=$top/scripts/debug-kernel.config

mkdir -p "$build"
# drivers/Kconfig sources drivers/vcube (scripts/kunit.sh links it there)
ln -sfn "$top/kernel/core" "$src/drivers/vcube"
if [ ! -f "$build/.config" ] || ! cmp -s "$frag" "$build/vcube-debug.config"; then
	echo "debug-kernel: configuring $build" >&2
	make -s -C "$src" O="$build" x86_64_defconfig >&2
	"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" \
		"$src/kernel/configs/kvm_guest.config" "$frag" > /dev/null
	make -s -C "$src" O="$build" olddefconfig >&2
	# every option asked for must have stuck (a dependency missed is silent)
	bad=0
	while IFS= read -r opt; do
		grep -qxF "$opt" "$build/.config" || {
			echo "debug-kernel: $opt did not stick" >&2; bad=1; }
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=y' "$frag")
	[ "$bad" = 0 ] || exit 1
	cp "$frag" "$build/vcube-debug.config"
fi
start=$(date +%s)
make -s -C "$src" O="$build" -j"$(nproc)" all >&2
echo "debug-kernel: built in $(($(date +%s) - start)) s" >&2
echo "$build"
