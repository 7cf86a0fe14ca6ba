# SPDX-License-Identifier: GPL-2.0
# Helpers of scripts/reproduce.sh and scripts/reproduce-sync.sh (sourced, in
# the VM): a scratch directory, loading the module, running vcube-bench and
# reading its CSV.
bench=$VCUBE_TOP/build/bin/vcube-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { rmmod vcube 2>/dev/null; insmod "$VCUBE_KO" "$@" || exit 1; }
# run NPROCS COMMAND ARGS: vcube-bench COMMAND's CSV in $tmp/out
run() { local n=$1; shift; vcube-run -n "$n" "$bench" "$1" -q --csv "${@:2}" > "$tmp/out" || exit 1; }
# col_in CSV ALGO X COLUMN [SCALE]: a field of CSV's row ALGO,X, divided by SCALE (1000)
col_in() { awk -F, -v a="$2" -v x="$3" -v c="$4" -v s="${5:-1000}" \
	'$1 == a && $2 == x { printf "%.1f", $c / s }' "$1"; }
# col ALGO X COLUMN [SCALE]: the same in $tmp/out
col() { col_in "$tmp/out" "$@"; }
# the best algorithm (least max_ns) at BYTES in $tmp/out
best() { awk -F, -v b="$1" '!/^#/ && $2 == b && (m == "" || $5 + 0 < m) { m = $5 + 0; a = $1 } END { print a }' "$tmp/out"; }
# better A B BYTES [COLUMN]: the one of two algorithms with the least
# COLUMN (5, max_ns; 3, min_ns) at BYTES in $tmp/out
better() { awk -F, -v a="$1" -v b="$2" -v x="$3" -v c="${4:-5}" '!/^#/ && ($1 == a || $1 == b) &&
	$2 == x && (m == "" || $c + 0 < m) { m = $c + 0; w = $1 } END { print w }' "$tmp/out"; }
# the winners Bokhari names per dimension and block size (data/papers),
# as vcube-bench redraw --paper reads them: "D BYTES ALGO[|ALGO]" a line
bokhari_winners() { awk -F'\t' '$1 == "win" && $3 ~ /^d = [0-9]+, [0-9]+ B$/ {
	split($3, c, /[ ,]+/); print c[3], c[4], $4 }' "$VCUBE_TOP/data/papers/bokhari.tsv"; }
