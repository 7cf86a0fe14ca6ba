#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# readme-table.sh NAME FILE: put FILE between README.md's lines
# "<!-- NAME: begin -->" and "<!-- NAME: end -->", so that the figures a
# make target measured are the README's, never typed. Fails, leaving the
# README as it was, when FILE is empty or the markers are missing.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
name=$1 file=$2 readme=$top/README.md
[ -s "$file" ] || { echo "readme-table: $file is empty" >&2; exit 1; }
grep -qx "<!-- $name: begin -->" "$readme" && grep -qx "<!-- $name: end -->" "$readme" ||
	{ echo "readme-table: README.md has no $name markers" >&2; exit 1; }
awk -v b="<!-- $name: begin -->" -v e="<!-- $name: end -->" -v f="$file" '
	$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' "$readme" > "$readme.tmp" && mv "$readme.tmp" "$readme"
