# SPDX-License-Identifier: GPL-2.0
# Helpers of scripts/reproduce.sh and scripts/reproduce-sync.sh (sourced, in
# the VM): a scratch directory, loading the module, running vcube-bench and
# reading its CSV, and the text winners' records (scripts/score-lib.sh's
# score_rec, sourced after this).
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
# the best algorithm (least max_ns) at BYTES in $tmp/out, for the reports;
# all of those at the least time where several are ("bex|pex"): a tie
best() { awk -F, -v b="$1" '!/^#/ && $1 != "algo" && $2 == b { t[++n] = $5 + 0; a[n] = $1
		if (m == "" || $5 + 0 < m) m = $5 + 0 }
	END { for (i = 1; i <= n; i++) if (t[i] == m) w = w (w == "" ? "" : "|") a[i]; print w }' "$tmp/out"; }
# better A B BYTES [COLUMN]: the one of two algorithms with the least
# COLUMN (5, max_ns; 3, min_ns) at BYTES in $tmp/out, or "A|B" if equal
better() { awk -F, -v a="$1" -v b="$2" -v x="$3" -v c="${4:-5}" '!/^#/ && ($1 == a || $1 == b) && $2 == x {
		t[$1] = $c + 0 }
	END { if ((a in t) && (b in t)) print t[a] < t[b] ? a : t[b] < t[a] ? b : a "|" b
		else if (a in t) print a; else if (b in t) print b }' "$tmp/out"; }

# The text winners' records (docs/scoring.md, "Text winners"; the format
# is scripts/score.py's): one wint record a candidate of a cell.
# exact_cands PAPER ITEM CELL BYTES ALGO...: a noise-free cell, each
# algorithm's one run (max_ns at BYTES in $tmp/out), least wins
exact_cands() {
	local paper=$1 item=$2 cell=$3 x=$4 a v
	shift 4
	for a in "$@"; do
		v=$(awk -F, -v a="$a" -v x="$x" '!/^#/ && $1 == a && $2 == x { print $5 }' "$tmp/out")
		[ -z "$v" ] || score_rec wint "$paper" "$item" "$cell" "$a" exact least - "$v"
	done
}
# each_cands PAPER ITEM CELL STAT RUNS FILE X ALGO...: a noisy cell, every
# repetition of each algorithm at X in FILE (vcube-bench --each's), least
# wins; STAT the paper's statistic over its RUNS runs (max, min, mean)
each_cands() {
	local paper=$1 item=$2 cell=$3 stat=$4 runs=$5 file=$6 x=$7 a v
	shift 7
	for a in "$@"; do
		v=$(awk -F, -v a="$a" -v x="$x" '$1 == a && $2 == x { printf "%s%s", n++ ? "," : "", $4 }' "$file")
		[ -z "$v" ] || score_rec wint "$paper" "$item" "$cell" "$a" "$stat" least "$runs" "$v"
	done
}
# near FILE STAT X ALGO...: of the algorithms' repetitions at X in FILE, the
# best and those docs/scoring.md's rules leave beside it, comma-separated
near() {
	python3 - "$VCUBE_TOP/scripts" "$@" <<'PY'
import csv, sys
sys.path.insert(0, sys.argv[1])
import score
path, stat, x, algos = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
vals = {a: [] for a in algos}
for r in csv.reader(open(path)):
    if r[1] == x and r[0] in vals:
        vals[r[0]].append(r[3])
cands = [score.Candidate(["-", "-", "-", a, stat, "least", "1", ",".join(v)], path)
         for a, v in vals.items() if v]
print(",".join(c.algo for c in score.near_best(cands)[1]) if cands else "")
PY
}
# again NPROCS X N STAT FILE ALGO...: FILE holds the algorithms'
# repetitions of an exchange at block size X (vcube-bench --each's); the
# best of them and those the rules leave beside it run again, N times each
# (at most $VCUBE_VERDICT_REPS, where set), and their lines in FILE are
# replaced: docs/scoring.md, "Text winners", rule 5. Nothing runs where
# each of those already has as many.
again() {
	local p=$1 x=$2 n=$3 stat=$4 file=$5 a more=
	shift 5
	[ -z "${VCUBE_VERDICT_REPS:-}" ] || [ "$n" -le "$VCUBE_VERDICT_REPS" ] || n=$VCUBE_VERDICT_REPS
	for a in $(near "$file" "$stat" "$x" "$@" | tr , ' '); do
		[ "$(awk -F, -v a="$a" -v x="$x" '$1 == a && $2 == x { k++ } END { print k + 0 }' "$file")" -ge "$n" ] ||
			more=$more${more:+,}$a
	done
	[ -n "$more" ] || return 0
	run "$p" exchange --algo "$more" --sizes "$x" --reps "$n" --each "$tmp/again"
	awk -F, -v a=",$more," -v x="$x" 'NR == FNR { if (!index(a, "," $1 ",") || $2 != x) print; next }
		FNR > 1' "$file" "$tmp/again" > "$tmp/again2" && mv "$tmp/again2" "$file"
}
# the winners Bokhari names per dimension and block size (data/papers),
# as vcube-bench redraw --paper reads them: "D BYTES ALGO[|ALGO]" a line
bokhari_winners() { awk -F'\t' '$1 == "win" && $3 ~ /^d = [0-9]+, [0-9]+ B$/ {
	split($3, c, /[ ,]+/); print c[3], c[4], $4 }' "$VCUBE_TOP/data/papers/bokhari.tsv"; }
