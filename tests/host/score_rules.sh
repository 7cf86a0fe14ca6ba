#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The winner rules of docs/scoring.md, as scripts/papers.py and
# scripts/score.py apply them, on cells made up here. Each case is one the
# old rule (5% on the paper's side only, vcube's least value wins however
# close) scored otherwise: a paper cell its printing does not separate is a
# paper tie, even 25% apart; one it separates is scored, even 0.5% apart; a
# vcube near-tie is a "tie", counted against agreement; a clear vcube win
# agrees or differs; a record's own digits widen vcube's margin; text
# winners that name a tie are ties; --rescore prints both rules.
set -u
fail=0
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
t=$'\t'

# A made-up paper: the data format, with the cmp line's two margins.
cat > "$d/made.tsv" <<EOF
paper${t}Made up${t}none.txt
item${t}Table 1${t}values${t}Times
cols${t}Table 1${t}a${t}b${t}c${t}d
val${t}Table 1${t}X${t}0.004${t}1.00${t}15.82${t}0.120
val${t}Table 1${t}Y${t}0.005${t}1.01${t}15.74${t}0.118
cmp${t}X or Y${t}printed${t}0.000001${t}x=Table 1|X|*${t}y=Table 1|Y|*
EOF
# Records for Thakur's Tables 2 and 5 (16K: the paper's PEX 0.064 and GEN
# 0.069 on 4x4, 13.61 and 16.15 on 16x32; both decided, PEX).
mkdir "$d/r"
{
	echo "val${t}thakur${t}Table 2${t}16K${t}4x4${t}0.064001${t}predicted"
	echo "val${t}thakur${t}Table 5${t}16K${t}4x4${t}0.064002${t}predicted"
	echo "val${t}thakur${t}Table 2${t}16K${t}16x32${t}15.000000${t}predicted"
	echo "val${t}thakur${t}Table 5${t}16K${t}16x32${t}16.000000${t}predicted"
	echo "val${t}thakur${t}Table 2${t}8K${t}16x32${t}9.000000${t}predicted"
	echo "val${t}thakur${t}Table 5${t}8K${t}16x32${t}8.000000${t}predicted"
	echo "val${t}thakur${t}Table 2${t}4K${t}16x32${t}4.0640${t}predicted"
	echo "val${t}thakur${t}Table 5${t}4K${t}16x32${t}4.0641${t}predicted"
	echo "win${t}ponnusamy${t}Figure 11${t}256 B, 64${t}bex|pex"
	echo "win${t}ponnusamy${t}Figure 12${t}512 B, 32${t}bex"
	echo "win${t}ponnusamy${t}Figure 11${t}0 B, 32${t}bex"
	echo "win${t}seidel${t}Fig. 4-6${t}d = 5, FORCED: gsync or sync0${t}tie"
} > "$d/r/x.tsv"
python3 "$top/scripts/score.py" --records "$d/r" --json "$d/card.json" --md "$d/card.md" 2> "$d/err"
rc=$?
[ $rc = 1 ] && echo "ok - score.py ran on the made-up records (targets missed: exit 1)" ||
	{ echo "not ok - score.py: exit $rc: $(tail -n 3 "$d/err")"; fail=1; }

python3 - "$top" "$d" <<'PY'
import json, os, sys
top, d = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(top, "scripts"))
import papers, score
fail = 0


def case(ok, what):
    global fail
    print("%s - %s" % ("ok" if ok else "not ok", what))
    fail |= not ok


made = papers.Paper(os.path.join(d, "made.tsv"))
vc = {("Table 1", r, c): 1.0 if r == "X" else 2.0 for r in "XY" for c in "abcd"}
ties = []
new = {w["cell"]: w for w in papers.table_winners(made, vc, None, ties)}
old = {w["cell"]: w for w in score.old_table_winners(made, vc)}
tied = {t["cell"]: t for t in ties}
case("a" in tied and "a" in old and old["a"]["paper"] == "x",
     "0.004 against 0.005 (25% apart, 0.001 = the two half-units): a paper tie, "
     "listed, not scored (the old rule named x)")
case("b" in tied and "b" not in new, "1.00 against 1.01: a paper tie")
case(new.get("c", {}).get("paper") == "y" and "c" not in old,
     "15.74 against 15.82 (0.5% apart, 0.01 hidden): decided, y (the old rule dropped it)")
case(new.get("d", {}).get("paper") == "y" and tied.get("a", {}).get("margin") == "0.0010",
     "0.118 against 0.120: decided; 0.004 against 0.005: the margin is the sum of the half-units (%s)"
     % tied.get("a", {}).get("margin"))

c = json.load(open(os.path.join(d, "card.json")))
p = {x["paper"]: x for x in c["papers"]}
th = {(w["item"][:6], w["cell"]): w for w in p["thakur"]["winners"] if w["vcube"]}
w = th.get(("PEX or", "16K, 4x4"), {})
case(w.get("verdict") == "tie" and w.get("vcube") == "gen=pex",
     "vcube 1 us apart (its records' rounding): a tie, not agreement (%s, %s)"
     % (w.get("vcube"), w.get("verdict")))
w = th.get(("PEX or", "16K, 16x32"), {})
case(w.get("verdict") == "agree", "a clear vcube win on the paper's side agrees")
w = th.get(("PEX or", "8K, 16x32"), {})
case(w.get("verdict") == "differ" and w.get("vcube") == "gen", "a clear vcube win on the other side differs")
w = th.get(("PEX or", "4K, 16x32"), {})
case(w.get("verdict") == "tie" and w.get("vcube_margin") == "0.00010",
     "records typed to 4 decimals: their rounding (0.0001) is the margin, not the stated 1 us")
s = p["thakur"]["summary"]
case((s["winners"], s["winners_agree"], s["winners_tie"], s["winners_differ"]) == (4, 1, 2, 1),
     "the summary: 1 agree, 2 ties, 1 differ of 4 (%s)" % s)
m = score.metric(c["papers"], "winner_agreement", "thakur")
case(abs(m - 0.25) < 1e-9, "winner_agreement counts the ties against: 1 of 4 (%s)" % m)
tw = {w["cell"]: w["verdict"] for w in p["ponnusamy"]["winners"] + p["seidel"]["winners"]
      if w["from"] == "text" and w["vcube"]}
case(tw.get("256 B, 64") == "tie" and tw.get("512 B, 32") == "agree" and
     tw.get("0 B, 32") == "differ" and tw.get("d = 5, FORCED: gsync or sync0") == "tie",
     "text winners: a record naming a tie is a tie; one inside the paper's pair agrees (%s)" % tw)
md = open(os.path.join(d, "card.md")).read()
case("1 of 4 (2 vcube ties); 4 paper ties" in md and "Paper ties" in md and "*tie*" in md,
     "the Markdown shows the ties and the paper ties")
sys.exit(fail)
PY
[ $? = 0 ] || fail=1

# --rescore: the same cells by both rules, from a scorecard's JSON.
out=$(python3 "$top/scripts/score.py" --rescore "$d/card.json" 2>&1)
echo "$out" | grep -q '^| thakur | 3 of 4 (75%) | 1 of 4 (25%) | 2 | 4 | ' &&
	echo "$out" | grep -q 'those of: new rule' &&
	echo "ok - --rescore prints the old rule's and the new rules' agreement" ||
	{ echo "not ok - --rescore:"; echo "$out" | sed 's/^/# /'; fail=1; }

# The old cmp line (a single margin %) is refused: its rule is gone.
mkdir -p "$d/old/data/papers" "$d/old/scripts"
sed "s/^cmp${t}\([^${t}]*\)${t}printed${t}[^${t}]*${t}/cmp${t}\1${t}5${t}/" "$d/made.tsv" > "$d/old.tsv"
python3 -c "import sys; sys.path.insert(0, '$top/scripts'); import papers; papers.Paper('$d/old.tsv')" 2> "$d/err"
rc=$?
[ $rc = 2 ] && grep -q "the paper's precision" "$d/err" &&
	echo "ok - a cmp line in the old format is refused" ||
	{ echo "not ok - the old cmp format: exit $rc"; fail=1; }
exit $fail
