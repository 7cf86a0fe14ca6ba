# SPDX-License-Identifier: GPL-2.0
# Sourced by the measuring scripts: the papers' values from data/papers, and
# the records scripts/score.py reads (scripts/papers.py is the same for
# Python).
#
#   paper_val PAPER ITEM ROW COL   the value data/papers/PAPER.tsv gives
#                                  (COL "" for a number of the text)
#   score_rec KIND FIELD...        append a record to $VCUBE_SCORE (if set);
#                                  the kinds are scripts/score.py's (a text
#                                  winner's candidates, wint: reproduce-lib.sh's
#                                  exact_cands and each_cands)
_score_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

paper_val() {
	awk -F'\t' -v item="$2" -v row="$3" -v col="$4" '
		$1 == "cols" && $2 == item { for (i = 3; i <= NF; i++) if ($i == col) c = i }
		$1 == "val" && $2 == item && $3 == row && c { v = $(c + 1); found = 1 }
		$1 == "num" && $2 == item && $3 == row && col == "" { v = $4; found = 1 }
		END { if (!found) exit 1; print v }' "$_score_top/data/papers/$1.tsv" || {
		echo "paper_val: no value for $1 / $2 / $3 / $4" >&2
		return 1
	}
}

score_rec() {
	[ -n "${VCUBE_SCORE:-}" ] || return 0
	local IFS=$'\t'
	echo "$*" >> "$VCUBE_SCORE"
}
