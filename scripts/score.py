#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fidelity scorecard: the papers' values (data/papers/*.tsv) beside
vcube's (the records the reproduction and validation scripts wrote), cell
by cell; the winners; the formulas; per paper, the summary; and the
thresholds, checked.

    score.py [--smoke] [--records DIR]... [--md FILE] [--json FILE]
             [--constants FILE]
    score.py --rescore JSON [--vcube-margin M]

The winners are scored by the rules of docs/scoring.md: a paper's table
cell counts only where the paper's best is below the others by more than
their printing can hide (else it is a "paper tie", listed, not scored);
vcube agrees where it names the same winner by more than its own resolution
(the cmp line's margin); a vcube near-tie is a "tie", counted against. A
text winner's cell is decided on its candidates' repetitions (the wint
records): a near-tie at fewer repetitions than the paper took is
"undecided: more repetitions needed", listed and not counted.
--rescore scores the table winners of a scorecard JSON's cells again, by
the old rule (5% on the paper's side only) and by these, and prints both.

Records (tab-separated, one per line, in DIR/*.tsv; see scripts/score-lib.sh):
    val      PAPER ITEM ROW COL VALUE fitted|predicted
    wint     PAPER ITEM CELL ALGO STAT BEST RUNS VALUES
             (one candidate of a text winner's cell, docs/scoring.md "Text
             winners": STAT is the statistic the paper took over its runs,
             max, min or mean, or exact for one noise-free run; BEST is
             least or most, the end that wins; RUNS is how many runs the
             paper took, from data/papers' num lines, or - for exact;
             VALUES is every repetition's value, comma-separated, as
             written: each value's last digit is its rounding)
    win      PAPER ITEM CELL WINNER   (older records: vcube's winner's name
                                       only, or a|b, or tie; a cell with
                                       wint records is scored by those)
    formula  PAPER NAME CELL FORMULA_VALUE VCUBE_VALUE [WHY]
    shown    PAPER ITEM WHERE         (compared as WHERE says; no tolerance)
    meas     PAPER ITEM LABEL VALUE   (a quantity the paper plots without
                                       printing: read by claim and formula lines)
    ablation PAPER CONSTANT VALUE METRIC RESULT [DETAIL]
             a chosen constant (data/constants.tsv's name) set to VALUE, and
             what the script measured on PAPER's cells with it: METRIC is a
             threshold metric of data/score-thresholds.tsv (computed by this
             file's own functions on those cells; set beside the threshold
             over PAPER), the same over part of the paper, named after a
             comma ("winner_agreement, Figs. 10-12": beside no threshold), or
             a quantity the script names; RESULT a number; DETAIL what the
             value is and what the result was over ("the profile's" marks
             the constant's own setting; "11 of 17 winners")

The constants of data/constants.tsv (or --constants FILE) flag the cells,
winners, claims and formulas they were chosen on (docs/scoring.md, "Chosen
constants"): each element's "chosen" field names them; the summary is given
over everything scored ("summary", which the thresholds check) and without
the flagged elements ("summary_unflagged"); the constants' table, with the
ablations measured, is in the scorecard and the JSON's "constants".

Every mismatch (a predicted cell past 25%, a winner vcube names otherwise
or by a near-tie, a claim that does not hold or is a near-tie, a formula
past 1% or missed)
is listed in each paper's "mismatches" with the causes data/mismatches.tsv
(or --mismatches FILE) names for it, and in the scorecard's "Mismatches"
section with the run that shows each cause (docs/scoring.md, "Mismatches").

Claims (data/papers' claim lines) and printed formulas (formula lines) are
scored by docs/scoring.md's rules; what the input lines name is listed
apart and never counted; an item is reproduced only when everything scored
in it passes.

Exits 1 when a threshold of data/score-thresholds.tsv is missed (the
"target" column, or "smoke" with --smoke), 2 on bad input.
"""
import argparse
import glob
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from papers import (Paper, rows, die, table_winners, _select, _pattern,  # noqa: E402
                    claims, formulas, half_unit, _dec, load_constants, chosen_on,
                    load_mismatches, pattern_hits)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def err(v, p):
    return 100.0 * (v - p) / p if p else (0.0 if v == p else float("inf"))


TOL_CELL = 25.0		# % a predicted cell may be off and count (docs/scoring.md)
TOL_FORMULA = 1.0	# % a formula cell may be off


def _matches(pat, s):
    return _pattern(pat).match(s) is not None


def is_input(paper, kind, *what):
    """The why of the input line that names WHAT (a cell: item, row, col;
    a formula: its name), or None: docs/scoring.md, "What counts"."""
    for k, pat, why in paper.inputs:
        if k == "item" and what[0] == pat and kind in ("cell", "item"):
            return why
        if k == kind == "cell":
            parts = (pat.split("|") + ["*", "*"])[:3]
            if all(_matches(pp, w) for pp, w in zip(parts, what)):
                return why
        if k == kind == "formula" and _matches(pat, what[0]):
            return why
    return None


def score_paper(paper, recs, consts=None, causes=None):
    """The scorecard of one paper, as a dict (the JSON's shape). CONSTS:
    load_constants()'s, whose patterns flag what they were chosen on;
    CAUSES: load_mismatches()'s, which name the mismatches' causes."""
    out = {"paper": paper.name, "title": paper.title, "items": [], "cells": [],
           "winners": [], "paper_ties": [], "formulas": [], "claims": [], "inputs": []}
    vcube = {}
    for r in recs["val"]:
        if r[0] != paper.name:
            continue
        key = (r[1], r[2], r[3])
        if key not in paper.vals:
            die("record for %s %s has no paper value" % (paper.name, key))
        vcube[key] = (float(r[4]), r[5], r[4])
    meas = {(r[1], r[2]): r[3] for r in recs["meas"] if r[0] == paper.name}
    for key, (v, how, text) in sorted(vcube.items()):
        p = paper.vals[key]
        c = {"item": key[0], "row": key[1], "col": key[2], "paper": p, "vcube": v,
             "err": err(v, p), "recorded": text, "fitted": how == "fitted"}
        why = is_input(paper, "cell", *key)
        if why:
            out["inputs"].append(dict(c, kind="cell", why=why))
        else:
            out["cells"].append(c)
    vals = {k: x[0] for k, x in vcube.items()}
    out["winners"] += table_winners(paper, vals, {k: x[2] for k, x in vcube.items()},
                                    out["paper_ties"])
    vwin = {(r[1], r[2]): r[3] for r in recs["win"] if r[0] == paper.name}
    cands = {}
    wint = recs.get("wint", [])
    for r, where in zip(wint, recs.get("wint_where") or ["a wint record"] * len(wint)):
        if r[0] != paper.name or (r[1], r[2]) not in paper.wins:
            continue	# a cell whose winner the text does not name
        c = Candidate(r, where)
        cell = cands.setdefault((r[1], r[2]), [])
        if cell and (c.stat, c.best, c.runs) != (cell[0].stat, cell[0].best, cell[0].runs):
            die("%s: the cell's other candidates are %s, %s, %s" % (
                where, cell[0].stat, cell[0].best, cell[0].runs))
        if c.algo in {x.algo for x in cell}:
            die("%s: a second record of %s" % (where, c.algo))
        cell.append(c)
    for (item, cell), (w, quote) in sorted(paper.wins.items()):
        out["winners"].append(text_winner(paper, item, cell, w, quote,
                                          cands.get((item, cell)), vwin.get((item, cell))))
    forms = []
    for r in recs["formula"]:
        if r[0] == paper.name:
            f, v = float(r[3]), float(r[4])
            forms.append({"name": r[1], "cell": r[2], "formula": f, "vcube": v,
                          "err": err(v, f), "why": r[5] if len(r) > 5 else "",
                          "from": "record", "item": "",
                          "status": "missed" if len(r) > 5 and r[5] else "evaluated"})
    forms += formulas(paper, {k: x[0] for k, x in vcube.items()}, meas)
    for f in forms:
        if f["from"] == "record":	# flagged by its name and cell
            f["key"] = [f["name"], f["cell"], ""]
        why = is_input(paper, "formula", f["name"])
        if why:
            out["inputs"].append(dict(f, kind="formula", why=why))
        else:
            out["formulas"].append(f)
    out["claims"] = claims(paper, vals, meas)
    flag(paper, out, consts)
    shown = {}
    for r in recs["shown"]:
        if r[0] == paper.name:
            shown.setdefault(r[1], []).append(r[2])
    out["items"] = items_of(paper, out, shown)
    out["mismatches"] = mismatches(paper, out, causes)
    out["summary"] = summarise(out)
    # docs/scoring.md, "Chosen constants", rule 2: without what they flag
    un = dict(out)
    for k in ("cells", "winners", "claims", "formulas"):
        un[k] = [x for x in out[k] if not x["chosen"]]
    un["mismatches"] = [m for m in out["mismatches"] if not m["chosen"]]
    un["items"] = items_of(paper, un, shown)
    out["summary_unflagged"] = summarise(un)
    return out


def keys_of(x):
    """The (item, row, col) keys a cell, winner, claim or formula of the
    card stands on, as cell patterns match them."""
    if "row" in x:				# a cell
        return [(x["item"], x["row"], x["col"])]
    if x.get("from") == "table":		# a cmp cell: its candidates'
        return [tuple(k) for k in x["keys"]]
    if x.get("from") == "text":			# a win line: its item and cell
        return [(x["item"], x["cell"], "")]
    if "parts" in x:				# a claim: its id, every value it read
        return [(x["item"], x["id"], "")] + [
            tuple(k) for pt in x["parts"] for c in pt["cells"] for k in c["keys"]]
    own = (x.get("item") or x["name"], x["name"], x.get("cell", ""))	# a formula
    if x.get("key"):				# a formula cell: its operand too
        return [tuple(x["key"]), own]
    return [own]


def flag(paper, out, consts):
    """Set each cell's, winner's, claim's, formula's and input's "chosen":
    the constants whose patterns match it (docs/scoring.md, "Chosen
    constants", rule 1)."""
    for k in ("cells", "winners", "claims", "formulas", "inputs"):
        for x in out[k]:
            x["chosen"] = chosen_on(consts, paper.name, keys_of(x))


def mismatches(paper, out, causes):
    """Every mismatch of OUT (a predicted cell past 25%, a winner vcube
    names otherwise or only by a near-tie, a claim that does not hold or
    that vcube's values leave a near-tie, a formula cell past 1% or missed), each with the causes of CAUSES
    (data/mismatches.tsv) whose cell patterns match it (docs/scoring.md,
    "Mismatches")."""
    res = []

    def add(kind, x, what, paper_, vcube):
        res.append({"kind": kind, "item": x.get("item") or x.get("name", ""), "what": what,
                    "paper": paper_, "vcube": vcube, "chosen": x.get("chosen", []),
                    "causes": [m["name"] for m in causes or ()
                               if pattern_hits(m["cells"], paper.name, keys_of(x))]})
    for c in out["cells"]:
        if not c["fitted"] and abs(c["err"]) > TOL_CELL:
            add("cell", c, "%s, %s%s" % (c["item"], c["row"], ", " + c["col"] if c["col"] else ""),
                "%g" % c["paper"], "%.4g (%+.1f%%)" % (c["vcube"], c["err"]))
    for w in out["winners"]:
        if w["vcube"] is not None and w["verdict"] in ("differ", "tie"):
            add("winner", w, "%s, %s" % (w["item"], w["cell"]), w["paper"],
                w["vcube"] + (" (a near-tie)" if w["verdict"] == "tie" else ""))
    for c in out["claims"]:
        if c["verdict"] in ("differ", "tie"):	# a tie counts against, as a winner's
            add("claim", c, "%s (%s)" % (c["id"], c["item"]), c["quote"],
                "does not hold" if c["verdict"] == "differ" else "undecided: a near-tie")
    for f in out["formulas"]:
        if f["status"] == "missed":
            add("formula", f, "%s%s" % (f["name"], ", " + f["cell"] if f["cell"] else ""),
                f.get("expr", "") or "printed", "missed: " + f["why"] if f["why"] else "missed")
        elif f["status"] == "evaluated" and abs(f["err"]) > TOL_FORMULA:
            add("formula", f, "%s, %s" % (f["name"], f["cell"]), "%.6g" % f["formula"],
                "%.6g (%+.2f%%)" % (f["vcube"], f["err"]))
    return res


def items_of(paper, out, shown):
    """Each item of PAPER: what is scored in it (OUT's cells, winners,
    claims and formulas) and whether it is reproduced."""
    res = []
    cmp_items = {name: {spec.split("|")[0] for _, spec in algs}
                 for name, _, _, algs in paper.cmps}
    for item in paper.order:
        it = paper.items[item]
        cells = [c for c in out["cells"] if c["item"] == item]
        pred = [c for c in cells if not c["fitted"]]
        wins = [w for w in out["winners"] if w["verdict"] in ("agree", "differ", "tie") and
                (w["item"] == item or item in cmp_items.get(w["item"], ()))]
        cls = [c for c in out["claims"] if c["item"] == item and
               c["verdict"] in ("agree", "differ", "tie")]
        fms = [f for f in out["formulas"] if f["item"] == item and f["status"] == "evaluated"]
        passed = ([abs(c["err"]) <= TOL_CELL for c in pred] +
                  [w["verdict"] == "agree" for w in wins] +
                  [c["verdict"] == "agree" for c in cls] +
                  [abs(f["err"]) <= TOL_FORMULA for f in fms])
        how = []
        if cells:
            how.append("%d cells, %d within 25%%" % (len(pred), sum(
                1 for c in pred if abs(c["err"]) <= TOL_CELL)) +
                (" (+%d fitted)" % (len(cells) - len(pred)) if len(cells) > len(pred) else ""))
        if wins:
            how.append("%d of %d winners agree" % (sum(1 for w in wins if w["verdict"] == "agree"),
                                                   len(wins)))
        if cls:
            how.append("%d of %d claims agree" % (sum(1 for c in cls if c["verdict"] == "agree"),
                                                  len(cls)))
        if fms:
            how.append("%d of %d formula cells within 1%%" % (
                sum(1 for f in fms if abs(f["err"]) <= TOL_FORMULA), len(fms)))
        how += shown.get(item, [])
        inp = is_input(paper, "item", item)
        if inp:
            how.append("an input read back: " + inp)
        res.append({"item": item, "kind": it["kind"], "caption": it["caption"],
                    "input": bool(inp), "compared": bool(how) and not inp,
                    "reproduced": bool(passed) and all(passed) and not inp,
                    "how": "; ".join(how)})
    return res


# docs/scoring.md, "Text winners", rule 2: each pair is tested at 5%,
# two-sided: 2.5% a tail.
TAIL = 0.025
STATS = ("max", "min", "mean", "exact")


def t_975(df):
    """Student's two-sided 5% point for DF degrees of freedom: the t with
    P(|T| <= t) = 0.95, by bisection on the distribution's closed form for
    integer DF (Abramowitz and Stegun 26.7.3, 26.7.4)."""
    def within(t):
        th = math.atan(t / math.sqrt(df))
        c2, sn = math.cos(th) ** 2, math.sin(th)
        if df % 2:
            term = total = math.cos(th)
            for j in range(3, df - 1, 2):
                term *= c2 * (j - 1) / j
                total += term
            return 2 / math.pi * (th + (sn * total if df > 1 else 0))
        term = total = 1.0
        for j in range(2, df - 1, 2):
            term *= c2 * (j - 1) / j
            total += term
        return sn * total
    lo, hi = 0.0, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if within(mid) < 0.95 else (lo, mid)
    return hi


def exceed_k(n_out, n_in):
    """Rosenbaum's exceedance count: the least k (1..N_OUT) for which k
    runs of a candidate of N_OUT runs all beyond every run of one of N_IN
    would come by chance at most TAIL of the time were the two one
    distribution, C(n_out, k) / C(n_out + n_in, k); None where no k is
    that unlikely (too few runs)."""
    r = 1.0
    for k in range(1, n_out + 1):
        r *= (n_out - k + 1) / (n_out + n_in - k + 1)
        if r <= TAIL:
            return k
    return None


class Candidate:
    """One wint record: an algorithm's repetitions in a text winner's
    cell. Kept as "least wins": a success rate's values are negated (and
    a maximum read as a minimum), so one set of rules serves both."""

    def __init__(self, r, where):
        if len(r) != 8 or r[4] not in STATS or r[5] not in ("least", "most"):
            die("%s: a wint record is PAPER ITEM CELL ALGO STAT(max|min|mean|exact) "
                "BEST(least|most) RUNS VALUES: %r" % (where, r))
        _, _, _, self.algo, self.stat, self.best, runs, values = r
        self.texts = values.split(",")
        vals = [float(_dec(v, where + ": a repetition's value")) for v in self.texts]
        try:
            self.runs = None if runs == "-" else int(runs)
        except ValueError:
            die("%s: RUNS is a count or -: %r" % (where, runs))
        if self.stat == "exact" and len(vals) != 1:
            die("%s: an exact record has one value (%d given)" % (where, len(vals)))
        if self.stat != "exact" and (self.runs is None or self.runs < 1):
            die("%s: a %s record says how many runs the paper took" % (where, self.stat))
        self.n = len(vals)
        self.h = float(max(half_unit(v) for v in self.texts))
        self.sign = -1 if self.best == "most" else 1
        self.vals = v = sorted(self.sign * x for x in vals)
        self.kind = self.stat
        if self.best == "most":
            self.kind = {"max": "min", "min": "max"}.get(self.stat, self.stat)
        self.value = {"max": v[-1], "min": v[0], "exact": v[0]}.get(self.kind, sum(v) / len(v))
        self.hw = 0.0
        if self.kind == "mean":
            if self.n < 2:
                self.hw = float("inf")
            else:
                sd = math.sqrt(sum((x - self.value) ** 2 for x in v) / (self.n - 1))
                self.hw = t_975(self.n - 1) * sd / math.sqrt(self.n)

    def hi(self, other):
        """The top of this candidate's interval against OTHER (least
        wins): for a minimum, its k-th smallest run, k the exceedance
        count of its runs against OTHER's."""
        if self.kind == "min":
            k = exceed_k(self.n, other.n)
            return float("inf") if k is None else self.vals[k - 1] + self.h
        return self.value + self.hw + self.h

    def lo(self, other):
        """The bottom of this candidate's interval against OTHER: for a
        maximum, its k-th largest run."""
        if self.kind == "max":
            k = exceed_k(self.n, other.n)
            return float("-inf") if k is None else self.vals[-k] - self.h
        return self.value - self.hw - self.h

    def shown(self, best):
        """Its statistic and its interval against BEST (the best's: against
        a candidate of as many runs), in the records' units."""
        ends = sorted(self.sign * x for x in (self.lo(best), self.hi(best)))
        return "%s %s %.6g [%.6g, %.6g]%s" % (
            self.algo, self.stat, self.sign * self.value, ends[0], ends[1],
            "" if self.stat == "exact" else ", %d runs (the paper's: %d)" % (self.n, self.runs))


def near_best(cands):
    """docs/scoring.md, "Text winners", rules 2-3: (vcube's best, the
    near-best set: the best and every candidate whose interval meets the
    best's)."""
    best = min(cands, key=lambda c: (c.value, c.algo))
    near = [best] + [c for c in cands if c is not best and not best.hi(c) < c.lo(best)]
    return best, near


def text_verdict(paper, vcube):
    """A text winner's verdict. The paper may name two ("bex|pex": either).
    VCUBE is the cell's wint records ([Candidate]: docs/scoring.md, "Text
    winners", rule 4): agree when vcube's near-best set is inside the
    paper's, differ when it holds none of them, else a tie at the paper's
    number of runs (or exact values) and "undecided" below it. Or it is an
    older win record's name (rule 6): vcube's winner, all of those tied to
    the ns ("bex|pex"), or "tie"; a tie that holds the paper's winner is a
    "tie", one inside the paper's set agrees, one without it differs."""
    if vcube is None:
        return None
    p = set(paper.split("|"))
    if not isinstance(vcube, str):
        if not p & {c.algo for c in vcube}:
            return None	# the paper's winner was not measured
        _, near = near_best(vcube)
        v = {c.algo for c in near}
        if v <= p:
            return "agree"
        if not v & p:
            return "differ"
        full = all(c.stat == "exact" or c.n >= c.runs for c in near)
        return "tie" if full else "undecided"
    if vcube == "tie":
        return "tie"
    v = set(vcube.split("|"))
    if v <= p:
        return "agree"
    return "tie" if len(v) > 1 and v & p else "differ"


def text_winner(paper, item, cell, w, quote, cands, named):
    """The scorecard's entry of a text winner: from the cell's wint
    records CANDS where there are any, else the win record's NAMED."""
    out = {"item": item, "cell": cell, "paper": w, "from": "text", "quote": quote}
    if not cands:
        return dict(out, vcube=named, verdict=text_verdict(w, named))
    verdict = text_verdict(w, cands)
    best, near = near_best(cands)
    return dict(out, vcube="=".join(sorted(c.algo for c in near)) if verdict else None,
                verdict=verdict, best=best.algo,
                candidates=[c.shown(best) for c in [best] + sorted(
                    (c for c in cands if c is not best), key=lambda c: c.algo)])


def agree(w):
    """vcube names the paper's winner, by more than its resolution."""
    return w["verdict"] == "agree"


def summarise(p):
    pred = [c for c in p["cells"] if not c["fitted"]]
    ae = [abs(c["err"]) for c in pred]
    w = [x for x in p["winners"] if x["vcube"] is not None and x["verdict"] != "undecided"]
    numbered = [i for i in p["items"] if i["kind"] in ("values", "chart") and not i["input"]]
    cl = p.get("claims", [])
    fm = p["formulas"]
    ev = [f for f in fm if f["status"] == "evaluated"]
    return {
        "predicted_cells": len(pred),
        "fitted_cells": len(p["cells"]) - len(pred),
        "mean_err": sum(ae) / len(ae) if ae else None,
        "worst_err": max(ae) if ae else None,
        "within_25": sum(1 for e in ae if e <= TOL_CELL),
        "winners": len(w),
        "winners_agree": sum(1 for x in w if agree(x)),
        "winners_tie": sum(1 for x in w if x["verdict"] == "tie"),
        "winners_differ": sum(1 for x in w if x["verdict"] == "differ"),
        "winners_undecided": sum(1 for x in p["winners"] if x["verdict"] == "undecided"),
        "winners_unmeasured": sum(1 for x in p["winners"] if x["vcube"] is None),
        "paper_ties": len(p.get("paper_ties", [])),
        "claims": len(cl),
        "claims_agree": sum(1 for c in cl if c["verdict"] == "agree"),
        "claims_tie": sum(1 for c in cl if c["verdict"] == "tie"),
        "claims_differ": sum(1 for c in cl if c["verdict"] == "differ"),
        "claims_unmeasured": sum(1 for c in cl if c["verdict"] is None),
        "claims_not_shown": sum(1 for c in cl if c["verdict"] == "not shown"),
        "formulas": len(ev),
        "formulas_within_1": sum(1 for f in ev if abs(f["err"]) <= TOL_FORMULA),
        "formulas_missed": len({f["name"] for f in fm if f["status"] == "missed"}),
        "formulas_unmeasured": len({f["name"] for f in fm if f["status"] == "unmeasured"}),
        "inputs": len(p.get("inputs", [])),
        "items_with_numbers": len(numbered),
        "items_compared": sum(1 for i in numbered if i["compared"]),
        "items_reproduced": sum(1 for i in numbered if i["reproduced"]),
        "mismatches": len(p.get("mismatches", [])),
        "mismatches_named": sum(1 for m in p.get("mismatches", []) if m["causes"]),
    }


def frac(a, b):
    return a / b if b else None


def metric(card, name, scope):
    """The value of a threshold's metric over SCOPE ("all", a paper, or
    "paper:item" for one figure or table), or None where it has no cells."""
    paper, _, item = scope.partition(":")
    ps = [p for p in card if paper in ("all", p["paper"])]
    if not ps:
        die("threshold for unknown paper %r" % paper)

    def mine(x, key="item"):
        return not item or x[key] == item
    cells = [c for p in ps for c in p["cells"] if not c["fitted"] and mine(c)]
    ae = [abs(c["err"]) for c in cells]
    wins = [w for p in ps for w in p["winners"] if w["vcube"] is not None and
            w["verdict"] != "undecided" and mine(w)]
    # only the formulas evaluated count: a missed one says why, an input is apart
    forms = [f for p in ps for f in p["formulas"] if f.get("status", "evaluated") == "evaluated"
             and not f["why"] and (not item or item in (f["name"], f.get("item")))]
    items = [i for p in ps for i in p["items"]
             if i["kind"] in ("values", "chart") and not i.get("input") and mine(i)]
    cls = [c for p in ps for c in p.get("claims", [])
           if c["verdict"] in ("agree", "differ", "tie") and mine(c)]
    if name == "winner_agreement":
        return frac(sum(1 for w in wins if agree(w)), len(wins))
    if name == "claim_agreement":
        return frac(sum(1 for c in cls if c["verdict"] == "agree"), len(cls))
    if name == "within_25":
        return frac(sum(1 for e in ae if e <= TOL_CELL), len(ae))
    if name == "mean_err":
        return sum(ae) / len(ae) if ae else None
    if name == "formulas_within_1":
        return frac(sum(1 for f in forms if abs(f["err"]) <= TOL_FORMULA), len(forms))
    if name == "items_reproduced":
        return frac(sum(1 for i in items if i["reproduced"]), len(items))
    if name == "mismatches_named":
        ms = [m for p in ps for m in p.get("mismatches", []) if mine(m)]
        return frac(sum(1 for m in ms if m["causes"]), len(ms)) if ms else 1.0
    die("unknown metric %r" % name)


def check(card, smoke):
    """Each threshold: (metric, paper, bound, value, ok)."""
    res = []
    for n, r in rows(os.path.join(TOP, "data/score-thresholds.tsv")):
        if r[0] == "metric":
            continue
        name, paper, sense, target, floor = r[:5]
        bound = floor if smoke else target
        if bound == "-":
            continue	# not checked in this mode
        bound = float(bound)
        v = metric(card, name, paper)
        if v is None:
            ok = False	# nothing measured proves nothing
        elif sense == "min":
            ok = v >= bound - 1e-9
        else:
            ok = v <= bound + 1e-9
        res.append({"metric": name, "paper": paper, "sense": sense,
                    "bound": bound, "value": v, "ok": ok})
    return res


def fmt(x, pct=False):
    if x is None:
        return "-"
    if pct:
        return "%.0f%%" % (100 * x)
    return "%g" % x if abs(x) >= 1e-3 or x == 0 else "%.3g" % x


def winners_cell(s):
    return (("%d of %d (%d vcube tie%s)" % (s["winners_agree"], s["winners"], s["winners_tie"],
                                             "" if s["winners_tie"] == 1 else "s")
             if s["winners"] else "-") +
            ("; %d undecided (more repetitions needed)" % s["winners_undecided"]
             if s.get("winners_undecided") else "") +
            ("; %d paper ties" % s["paper_ties"] if s.get("paper_ties") else ""))


def claims_cell(s):
    n = s["claims_agree"] + s["claims_differ"] + s["claims_tie"]
    if not s["claims"]:
        return "-"
    return "%d of %d (%d tie%s); %d not measured%s" % (
        s["claims_agree"], n, s["claims_tie"], "" if s["claims_tie"] == 1 else "s",
        s["claims_unmeasured"],
        "; %d not shown by the paper" % s["claims_not_shown"] if s["claims_not_shown"] else "")


def formulas_cell(s):
    if not (s["formulas"] or s["formulas_missed"] or s["formulas_unmeasured"]):
        return "-"
    return "%d of %d cells%s%s" % (
        s["formulas_within_1"], s["formulas"],
        "; %d missed" % s["formulas_missed"] if s["formulas_missed"] else "",
        "; %d not measured" % s["formulas_unmeasured"] if s["formulas_unmeasured"] else "")


def items_cell(s):
    return "%d of %d (%d compared)" % (s["items_reproduced"], s["items_with_numbers"],
                                       s["items_compared"])


def _v(x):
    return "-" if x is None else "%.6g" % x


def summary_rows(card, key):
    """The summary table's rows, from each paper's KEY ("summary", or
    "summary_unflagged": without what the chosen constants flag)."""
    o = ["| paper | predicted cells | mean error | worst error | within 25% "
         "| winners agree | claims agree | formulas within 1% | figures and tables "
         "reproduced | inputs (not counted) |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    tot = {}
    for p in card:
        s = p[key]
        for k, v in s.items():
            if isinstance(v, int):
                tot[k] = tot.get(k, 0) + v
        o.append("| %s | %d (+%d fitted) | %s | %s | %s | %s | %s | %s | %s | %d |" % (
            p["title"], s["predicted_cells"], s["fitted_cells"],
            "-" if s["mean_err"] is None else "%.1f%%" % s["mean_err"],
            "-" if s["worst_err"] is None else "%.1f%%" % s["worst_err"],
            "%d of %d" % (s["within_25"], s["predicted_cells"]) if s["predicted_cells"] else "-",
            winners_cell(s), claims_cell(s), formulas_cell(s), items_cell(s), s["inputs"]))
    o.append("| all | %d (+%d fitted) | | | %d of %d | %s | %s | %s | %s | %d |" % (
        tot["predicted_cells"], tot["fitted_cells"], tot["within_25"], tot["predicted_cells"],
        winners_cell(tot), claims_cell(tot), formulas_cell(tot), items_cell(tot),
        tot["inputs"]))
    return o


FLAGGED = ("cells", "winners", "claims", "formulas", "inputs")
PCT_METRICS = ("winner_agreement", "claim_agreement", "within_25", "formulas_within_1",
               "items_reproduced")


def scored(kind, x):
    """Whether X (one of a paper's KIND: cells, winners ...) is scored:
    measured, and counted in the summary or listed as an input."""
    if kind == "winners":
        return x["vcube"] is not None and x["verdict"] != "undecided"
    if kind == "claims":
        return x["verdict"] in ("agree", "differ", "tie")
    if kind == "formulas":
        return x["status"] == "evaluated"
    return True


def constants_card(consts, card, ablations):
    """data/constants.tsv's constants as the scorecard gives them: each with
    what it flags in CARD and the ablation records (ABLATIONS) of it."""
    names = {c["name"] for c in consts}
    for r in ablations:
        if len(r) < 5 or r[1] not in names:
            die("ablation record for %r, which data/constants.tsv does not name" % (
                r[1] if len(r) > 1 else r))
        try:
            float(r[4])
        except ValueError:
            die("ablation record for %s: result %r is not a number" % (r[1], r[4]))
    out = []
    for c in consts:
        out.append({
            "name": c["name"], "profile": c["profile"], "value": c["value"],
            "kind": c["kind"], "how": c["how"], "cells": [p["text"] for p in c["cells"]],
            "ablation": c["ablation"],
            "flags": {k: sum(1 for p in card for x in p[k]
                             if c["name"] in x["chosen"] and scored(k, x))
                      for k in FLAGGED},
            "ablations": [{"paper": r[0], "value": r[2], "metric": r[3], "result": float(r[4]),
                           "detail": r[5] if len(r) > 5 else ""}
                          for r in ablations if r[1] == c["name"]]})
    return out


def result_text(metric, v):
    """An ablation's result as the metric reads: a threshold metric (or one
    over part of a paper, "winner_agreement, Figs. 10-12") as the scorecard
    prints it, any other quantity as it is."""
    m = metric.split(",")[0]
    if m in PCT_METRICS:
        return fmt(v, True)
    if m == "mean_err":
        return "%.1f%%" % v
    return "%g" % v


def own(a):
    """Whether ablation record A is at the constant's own setting."""
    return "the profile's" in a["detail"]


def what(a):
    """What an ablation's value is ("the fit - its uncertainty"): the parts
    of its detail that are not a count."""
    return "; ".join(x for x in a["detail"].split("; ") if not any(ch.isdigit() for ch in x))


def by_metric(c):
    groups = {}
    for a in c["ablations"]:
        groups.setdefault((a["paper"], a["metric"]), []).append(a)
    return groups


def ablations_text(c):
    """A constant's ablation records, by paper and metric: each value's
    result, the constant's own setting in bold (the details are the JSON's)."""
    return "<br>".join("%s, %s: %s" % (paper, metric, "; ".join(
        ("**%s: %s**" if own(a) else "%s: %s") % (a["value"], result_text(metric, a["result"]))
        for a in v)) for (paper, metric), v in by_metric(c).items())


def flags_text(f):
    n = ["%d %s" % (f[k], k if f[k] != 1 else k[:-1]) for k in FLAGGED if f[k]]
    return ", ".join(n) or "nothing recorded"


def chosen(x):
    """An element's mark: the constants chosen on it."""
    return ", ".join(x.get("chosen", ()))


def mismatches_md(card, causes):
    """The scorecard's "Mismatches" section: each mismatch, its named
    causes (data/mismatches.tsv) and the run that shows each."""
    o = ["\n## Mismatches and their causes (data/mismatches.tsv)\n"]
    allm = [(p, m) for p in card for m in p.get("mismatches", [])]
    named = sum(1 for _, m in allm if m["causes"])
    o.append("Every cell past 25%%, winner vcube names otherwise (or only by a near-tie), "
             "claim that does not hold (or is a near-tie) and formula past 1%% or missed, with the cause "
             "data/mismatches.tsv names for it and the run that shows that cause "
             "(docs/scoring.md, \"Mismatches\"): %d mismatches, %d with a named cause, "
             "%d without.\n" % (len(allm), named, len(allm) - named))
    if not allm:
        return o
    o.append("| paper | kind | what | paper says | vcube | cause | chosen on |")
    o.append("|---|---|---|---|---|---|---|")
    for p, m in allm:
        o.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            p["paper"], m["kind"], m["what"].replace("|", "\\|"),
            str(m["paper"]).replace("|", "\\|"), str(m["vcube"]).replace("|", "\\|"),
            ", ".join(m["causes"]) or "**no cause named**", ", ".join(m["chosen"]) or ""))
    used = {n for _, m in allm for n in m["causes"]}
    if used:
        o.append("\nThe causes (each: what it is, the run that shows it, and what outside "
                 "fact would settle it):\n")
        o.append("| cause | what | shown by | would settle it |")
        o.append("|---|---|---|---|")
        for c in causes:
            if c["name"] in used:
                o.append("| %s | %s | %s | %s |" % (
                    c["name"], c["cause"].replace("|", "\\|"),
                    c["shown_by"].replace("|", "\\|"), c["settle"].replace("|", "\\|")))
    return o


def markdown(card, checks, smoke, srcs, cons=(), causes=(), commit=None):
    o = []
    o.append("# Scorecard%s\n" % (" (smoke)" if smoke else ""))
    if commit:
        o.append("The records are those of the run at %s.\n" % commit)
    o.append("Generated by `make score%s` (scripts/score.py) from the records the "
             "reproduction and validation scripts wrote (%s) and the papers' values "
             "in data/papers/*.tsv; nothing here is typed by hand. Errors are "
             "vcube's against the paper's, on the cells not fitted. Winners are "
             "scored by docs/scoring.md's rules: \"winners agree\" counts vcube's "
             "near-ties against it (their number in brackets); a paper tie is a "
             "cell the paper's printing does not decide, listed and not scored.\n"
             % ("-smoke" if smoke else "", ", ".join(srcs) or "none"))
    o.append("Claims are the papers' sentences that name a winner, an order, a threshold "
             "or a count, each decided by its own test (docs/scoring.md, \"Text claims\"); "
             "\"not measured\" claims have no vcube record yet and are counted apart. "
             "Formulas are the printed ones vcube evaluates (missed ones beside). An item "
             "is reproduced only when everything scored in it passes; inputs vcube reads "
             "back are listed apart and never counted.\n")
    o.append("## Summary\n")
    o += summary_rows(card, "summary")
    o.append("\n## Summary without the cells chosen on\n")
    o.append("The same, leaving out every cell, winner, claim and formula that a fitted or "
             "chosen constant of data/constants.tsv was chosen on (marked in the tables "
             "below; docs/scoring.md, \"Chosen constants\"). The thresholds are checked on "
             "the summary above.\n")
    o += summary_rows(card, "summary_unflagged")
    o.append("\n## Thresholds (data/score-thresholds.tsv, column \"%s\")\n"
             % ("smoke" if smoke else "target"))
    o.append("| metric | paper | needs | is | |")
    o.append("|---|---|---|---|---|")
    for c in checks:
        pct = c["metric"] != "mean_err"
        o.append("| %s | %s | %s %s | %s | %s |" % (
            c["metric"], c["paper"], ">=" if c["sense"] == "min" else "<=",
            fmt(c["bound"], pct), fmt(c["value"], pct),
            "met" if c["ok"] else "**missed**"))
    if cons:
        o.append("\n## Chosen constants (data/constants.tsv)\n")
        o.append("Every constant vcube fitted to a paper's cells or chose itself; the cells "
                 "it was chosen on (patterns PAPER|ITEM|ROW|COL) and what they flag in this "
                 "scorecard; how its ablation is produced, and what the ablation records "
                 "measured (each value: the result, over what).\n")
        o.append("| constant | profile | value | kind | how it was set | chosen on | flags "
                 "| ablation |")
        o.append("|---|---|---|---|---|---|---|---|")
        for c in cons:
            abl = c["ablation"]
            if c["ablations"]:
                abl += "<br>" + ablations_text(c)
            o.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                c["name"], c["profile"], c["value"], c["kind"], c["how"].replace("|", "\\|"),
                "; ".join("`%s`" % t.replace("|", "\\|") for t in c["cells"]) or "-",
                flags_text(c["flags"]) if c["cells"] else "-", abl.replace("|", "\\|")))
        bound = {(c["metric"], c["paper"]): c for c in checks}
        rows_ = [(c, k, v, bound[k[::-1]]) for c in cons for k, v in by_metric(c).items()
                 if k[::-1] in bound]
        if rows_:
            o.append("\nAblations beside the thresholds they bear on (column \"%s\"; an "
                     "ablation over the paper's whole scope only): the metric with each value "
                     "of the constant, its own in bold (for the Delta's alpha: the fit and each "
                     "end of its uncertainty).\n" % ("smoke" if smoke else "target"))
            o.append("| constant | metric | paper | needs | each value: is |")
            o.append("|---|---|---|---|---|")
            for c, (paper, metric), v, t in rows_:
                cells = []
                for a in v:
                    ok = (a["result"] >= t["bound"] - 1e-9 if t["sense"] == "min"
                          else a["result"] <= t["bound"] + 1e-9)
                    x = "%s%s: %s, %s" % (a["value"], " (%s)" % what(a) if what(a) else "",
                                          result_text(metric, a["result"]),
                                          "met" if ok else "**missed**")
                    cells.append("**%s**" % x if own(a) else x)
                o.append("| %s | %s | %s | %s %s | %s |" % (
                    c["name"], metric, paper, ">=" if t["sense"] == "min" else "<=",
                    result_text(metric, t["bound"]) if metric != "mean_err"
                    else "%g%%" % t["bound"], "<br>".join(cells)))
    o += mismatches_md(card, causes or [])
    for p in card:
        o.append("\n## %s\n" % p["title"])
        o.append("| figure or table | numbers | reproduced | what is scored |")
        o.append("|---|---|---|---|")
        for i in p["items"]:
            o.append("| %s: %s | %s | %s | %s |" % (
                i["item"], i["caption"], i["kind"],
                "input" if i.get("input") else "**yes**" if i["reproduced"] else
                "compared" if i["compared"] else "no", i["how"] or "-"))
        if p["cells"]:
            o.append("\nCells (paper, vcube, error; the constants chosen on each):\n")
            o.append("| item | row | column | paper | vcube | error | | chosen on |")
            o.append("|---|---|---|---|---|---|---|---|")
            for c in p["cells"]:
                o.append("| %s | %s | %s | %g | %.4g | %+.1f%% | %s | %s |" % (
                    c["item"], c["row"], c["col"], c["paper"], c["vcube"], c["err"],
                    "fitted" if c["fitted"] else "predicted", chosen(c)))
        if p["winners"]:
            o.append("\nWinners (a table's: each candidate's value, paper / vcube, "
                     "and the margin each best had to clear; a text winner's: each "
                     "candidate's statistic over vcube's repetitions and its interval; "
                     "\"a=b\": a near-tie):\n")
            o.append("| comparison | cell | paper | vcube | | values | margins | chosen on |")
            o.append("|---|---|---|---|---|---|---|---|")
            for w in p["winners"]:
                vals = margins = ""
                if w.get("values"):
                    vals = ", ".join("%s %s / %s" % (a, pv, "-" if vv is None else "%.6g" % vv)
                                     for a, (pv, vv) in sorted(w["values"].items()))
                    margins = "%s / %s" % (w["paper_margin"], w["vcube_margin"] or "-")
                if w.get("candidates"):
                    vals = "<br>".join(w["candidates"])
                    margins = "the repetitions' intervals (docs/scoring.md)"
                o.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    w["item"], w["cell"], w["paper"], w["vcube"] or "not measured",
                    {None: "", "agree": "agree", "tie": "*tie*",
                     "undecided": "*undecided*: more repetitions needed"}.get(
                        w["verdict"], "**differ**"), vals, margins, chosen(w)))
        if p.get("paper_ties"):
            o.append("\nPaper ties (the printed values do not decide the cell; not "
                     "scored):\n")
            o.append("| comparison | cell | tied | values | margin |")
            o.append("|---|---|---|---|---|")
            for t in p["paper_ties"]:
                o.append("| %s | %s | %s | %s | %s |" % (
                    t["item"], t["cell"], t["tied"],
                    ", ".join("%s %s" % (a, v) for a, v in sorted(t["values"].items())),
                    t["margin"]))
        if p.get("claims"):
            o.append("\nClaims of the text (docs/scoring.md, \"Text claims\"): each part's "
                     "test, quantifier and the cells it held in (vcube's values; the "
                     "paper's where it prints them):\n")
            o.append("| claim | item | verdict | part: quantifier, test | cells | the paper says "
                     "| chosen on |")
            o.append("|---|---|---|---|---|---|---|")
            for c in p["claims"]:
                parts = []
                cells = []
                for pt in c["parts"]:
                    parts.append("%s: `%s`" % (pt["quant"], pt["test"]))
                    held = sum(1 for x in pt["cells"] if x["holds"] is True)
                    und = sum(1 for x in pt["cells"] if x["holds"] is None)
                    txt = "%d of %d hold%s" % (held, len(pt["cells"]),
                                                "; %d undecided" % und if und else "")
                    bad = [x["cell"] for x in pt["cells"] if x["holds"] is False][:6]
                    if bad:
                        txt += "; fails at " + "; ".join(bad)
                    if pt["paper_ties"] or pt["paper_against"]:
                        txt += " (paper: %d undecided, %d against)" % (
                            len(pt["paper_ties"]), len(pt["paper_against"]))
                    cells.append(txt)
                verdict = {"agree": "agree", "tie": "*tie*", "differ": "**differ**",
                           "not shown": "not shown by the paper",
                           None: "not measured"}[c["verdict"]]
                if c.get("note"):
                    verdict += " (%s)" % c["note"]
                o.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                    c["id"], c["item"], verdict, "<br>".join(parts), "<br>".join(cells),
                    c["quote"].replace("|", "\\|"), chosen(c)))
        if p["formulas"]:
            o.append("\nFormulas (the paper's formula, evaluated on its constants or vcube's "
                     "profile, beside vcube's value):\n")
            o.append("| formula | cell | formula | vcube | error | | chosen on |")
            o.append("|---|---|---|---|---|---|---|")
            for f in p["formulas"]:
                if f["status"] == "evaluated":
                    o.append("| %s | %s | %.6g | %.6g | %+.2f%% | %s | %s |" % (
                        f["name"], f["cell"], f["formula"], f["vcube"], f["err"], f["why"],
                        chosen(f)))
                else:
                    o.append("| %s | %s | %s | - | - | %s%s | %s |" % (
                        f["name"], f["cell"] or "-", f.get("expr", ""),
                        "missed" if f["status"] == "missed" else "not measured",
                        ": " + f["why"] if f["why"] else "", chosen(f)))
        if p.get("inputs"):
            o.append("\nInputs read back (listed, never counted):\n")
            o.append("| what | paper | vcube | why |")
            o.append("|---|---|---|---|")
            for x in p["inputs"]:
                if x["kind"] == "cell":
                    o.append("| %s, %s%s | %g | %s | %s |" % (
                        x["item"], x["row"], ", " + x["col"] if x["col"] else "",
                        x["paper"], _v(x["vcube"]), x["why"]))
                else:
                    o.append("| %s, %s | %s | %s | %s |" % (
                        x["name"], x["cell"], _v(x["formula"]), _v(x["vcube"]), x["why"]))
    return "\n".join(o) + "\n"


# The rule before docs/scoring.md, kept for --rescore's comparison only: a
# paper's cell was decided where its best was 5% below the next; vcube's
# least value won, however close the next.
OLD_MARGIN = 5.0


def old_table_winners(paper, vcube):
    out = []
    for name, _, _, algs in paper.cmps:
        sel = {a: _select(paper, spec) for a, spec in algs}
        cells = set.intersection(*(set(sel[a]) for a, _ in algs))
        for cell in sorted(cells):
            pv = sorted((paper.vals[sel[a][cell]], a) for a, _ in algs)
            if pv[1][0] < pv[0][0] * (1 + OLD_MARGIN / 100.0):
                continue
            vv = [vcube.get(sel[a][cell]) for a, _ in algs]
            vw = None
            if all(v is not None for v in vv):
                vw = min(zip(vv, [a for a, _ in algs]))[1]
            out.append({"item": name, "cell": ", ".join(x for x in cell if x),
                        "paper": pv[0][1], "vcube": vw,
                        "verdict": None if vw is None else
                        ("agree" if vw == pv[0][1] else "differ")})
    return out


def rescore(path, vmargin):
    """Score the table winners of scorecard JSON PATH's cells by the old
    rule and by docs/scoring.md's, and print both: per paper, overall, and
    with the text winners as recorded. VMARGIN (a cmp margin: "N" or "N%")
    replaces every table's vcube margin: a sensitivity, not the rule."""
    card = json.load(open(path, encoding="utf-8"))
    rows_ = []
    tot = {}

    def add(key, ws):
        t = tot.setdefault(key, [0, 0, 0])
        for w in ws:
            t[["agree", "differ", "tie"].index(w["verdict"])] += 1
        return ws

    def pct(t):
        n = t[0] + t[1] + t[2]
        return "%d of %d (%s)" % (t[0], n, "%.0f%%" % (100.0 * t[0] / n) if n else "-")
    same = {"old": True, "new": True}
    for pc in card["papers"]:
        paper = Paper(os.path.join(TOP, "data/papers", pc["paper"] + ".tsv"))
        if vmargin:
            paper.cmps = [(n, pr, vmargin, a) for n, pr, _, a in paper.cmps]
        vcube = {(c["item"], c["row"], c["col"]): c["vcube"] for c in pc["cells"]}
        # the records' digits, where the JSON keeps them (older ones do not)
        texts = {(c["item"], c["row"], c["col"]): c["recorded"]
                 for c in pc["cells"] if c.get("recorded")}
        old = [w for w in old_table_winners(paper, vcube) if w["verdict"]]
        recorded = [(w["item"], w["cell"], w["paper"], w["vcube"]) for w in pc["winners"]
                    if w["from"] == "table" and w["vcube"] is not None]
        ties = []
        new = [w for w in table_winners(paper, vcube, texts, ties) if w["verdict"]]
        for k, ws in (("old", old), ("new", new)):
            same[k] &= recorded == [(w["item"], w["cell"], w["paper"], w["vcube"]) for w in ws]
        text = [w for w in pc["winners"] if w["from"] == "text" and w["vcube"] is not None]
        # the old rule took the script's one name; one decided on its
        # candidates' repetitions keeps its verdict (undecided: not counted)
        told = [dict(w, verdict="agree" if w.get("best", w["vcube"]) in w["paper"].split("|")
                     else "differ") for w in text]
        tnew = [w if w.get("candidates") else dict(w, verdict=text_verdict(w["paper"], w["vcube"]))
                for w in text]
        tnew = [w for w in tnew if w["verdict"] != "undecided"]
        k = pc["paper"]
        o, n = add((k, "old"), old), add((k, "new"), new)
        add(("all", "old"), old)
        add(("all", "new"), new)
        add((k, "all old"), o + told)
        add((k, "all new"), n + tnew)
        add(("all", "all old"), o + told)
        add(("all", "all new"), n + tnew)
        rows_.append((k, len(ties)))
    print("Table winners of %s's cells, re-scored (scripts/score.py --rescore%s):\n" % (
        path, " --vcube-margin " + vmargin if vmargin else ""))
    print("| paper | table winners, old rule (5% on the paper only) | new rules: agree of "
          "scored | vcube ties | paper ties (not scored) | all winners, old | all winners, new "
          "(text as recorded) |")
    print("|---|---|---|---|---|---|---|")
    for k, nt in rows_ + [("all", sum(n for _, n in rows_))]:
        if (k, "old") not in tot:
            continue	# a paper with no table winners
        print("| %s | %s | %s | %d | %d | %s | %s |" % (
            k, pct(tot[(k, "old")]), pct(tot[(k, "new")]), tot[(k, "new")][2], nt,
            pct(tot[(k, "all old")]), pct(tot[(k, "all new")])))
    print("\nThe JSON's own table winners are those of: %s." % (
        " and ".join(k + " rule" for k in ("old", "new") if same[k]) or
        "neither rule (another version of the data or of the rules)"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--records", action="append",
                    help="a directory of records (*.tsv); may be repeated")
    ap.add_argument("--md")
    ap.add_argument("--json")
    ap.add_argument("--rescore", metavar="JSON")
    ap.add_argument("--vcube-margin", metavar="M")
    ap.add_argument("--constants", metavar="FILE",
                    help="the fitted and chosen constants (default: data/constants.tsv)")
    ap.add_argument("--mismatches", metavar="FILE",
                    help="the mismatches' named causes (default: data/mismatches.tsv)")
    ap.add_argument("--commit", metavar="TEXT",
                    help="the commit whose run wrote the records, named in the scorecard")
    a = ap.parse_args()
    if a.rescore:
        rescore(a.rescore, a.vcube_margin)
        return
    recs = {"val": [], "win": [], "wint": [], "formula": [], "shown": [], "meas": [],
            "wint_where": [], "ablation": []}
    srcs = []
    files = []
    for d in a.records or [os.path.join(TOP, "build/score")]:
        if not os.path.isdir(d):
            die("no records in %s" % d)
        files += sorted(glob.glob(os.path.join(d, "*.tsv")))
    for path in files:
        srcs.append(os.path.basename(path))
        for n, r in rows(path):
            if r[0] not in recs or r[0] == "wint_where":
                die("%s:%d: unknown record %r" % (path, n, r[0]))
            recs[r[0]].append(r[1:])
            if r[0] == "wint":
                recs["wint_where"].append("%s:%d" % (path, n))
    papers = [Paper(p) for p in sorted(glob.glob(os.path.join(TOP, "data/papers/*.tsv")))]
    consts = load_constants(a.constants)
    causes = load_mismatches(a.mismatches)
    card = [score_paper(p, recs, consts, causes) for p in papers]
    checks = check(card, a.smoke)
    cons = constants_card(consts, card, recs["ablation"])
    md = markdown(card, checks, a.smoke, srcs, cons, causes, a.commit)
    if a.md:
        with open(a.md, "w", encoding="utf-8") as f:
            f.write(md)
    else:
        sys.stdout.write(md)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"smoke": a.smoke, "commit": a.commit, "papers": card, "thresholds": checks,
                       "constants": cons, "causes": [dict(c, cells=[x["text"] for x in c["cells"]])
                                                     for c in causes]},
                      f, indent=1, sort_keys=True)
            f.write("\n")
    missed = [c for c in checks if not c["ok"]]
    for c in checks:
        print("%s - %s, %s: %s %s %s" % (
            "ok" if c["ok"] else "not ok", c["metric"], c["paper"], fmt(c["value"]),
            ">=" if c["sense"] == "min" else "<=", fmt(c["bound"])), file=sys.stderr)
    print("score: %d passed, %d failed" % (len(checks) - len(missed), len(missed)),
          file=sys.stderr)
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
