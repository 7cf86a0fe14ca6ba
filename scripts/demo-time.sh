#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# demo-time.sh T0: make demo's last step. Says how long the demo took since
# T0 (seconds since the epoch, when make read the Makefile, before make
# deps) and keeps it in build/demo-time.md, a line that
# scripts/readme-table.sh demo-time build/demo-time.md puts in the README.
set -u
t=$(($(date +%s) - $1))
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$top/build"
printf 'make demo took %d:%02d\n' $((t / 60)) $((t % 60))
# whether make deps installed packages during this demo (scripts/deps.sh)
deps="the packages already installed"
[ "$(cat "$top/build/deps-installed" 2> /dev/null || echo 0)" -ge "$1" ] &&
	deps="\`make deps\` installing the packages"
printf '`make demo` took %d:%02d in its last run here (%s, %d processors, %s).\n' \
	$((t / 60)) $((t % 60)) "$(date +%F)" "$(nproc)" "$deps" > "$top/build/demo-time.md"
