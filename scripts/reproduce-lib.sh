# SPDX-License-Identifier: GPL-2.0
# Helpers of scripts/reproduce.sh and scripts/reproduce-sync.sh (sourced, in
# the VM): a scratch directory, loading the module, running vcube-bench and
# reading its CSV.
bench=$VCUBE_TOP/build/bin/vcube-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { rmmod vcube 2>/dev/null; insmod "$VCUBE_KO" "$@" || exit 1; }
# run NPROCS ARGS: vcube-bench's CSV in $tmp/out
run() { local n=$1; shift; vcube-run -n "$n" "$bench" -q --csv "$@" > "$tmp/out" || exit 1; }
# col ALGO X COLUMN [SCALE]: a field of $tmp/out's row ALGO,X, divided by SCALE (1000)
col() { awk -F, -v a="$1" -v x="$2" -v c="$3" -v s="${4:-1000}" \
	'$1 == a && $2 == x { printf "%.1f", $c / s }' "$tmp/out"; }
# the best algorithm (least max_ns) at BYTES in $tmp/out
best() { awk -F, -v b="$1" '!/^#/ && $2 == b && (m == "" || $5 + 0 < m) { m = $5 + 0; a = $1 } END { print a }' "$tmp/out"; }
