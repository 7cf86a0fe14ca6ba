#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fidelity scorecard: the papers' values (data/papers/*.tsv) beside
vcube's (the records the reproduction and validation scripts wrote), cell
by cell; the winners; the formulas; per paper, the summary; and the
thresholds, checked.

    score.py [--smoke] [--records DIR]... [--md FILE] [--json FILE]
    score.py --rescore JSON [--vcube-margin M]

The winners are scored by the rules of docs/scoring.md: a paper's table
cell counts only where the paper's best is below the others by more than
their printing can hide (else it is a "paper tie", listed, not scored);
vcube agrees where it names the same winner by more than its own resolution
(the cmp line's margin); a vcube near-tie is a "tie", counted against.
--rescore scores the table winners of a scorecard JSON's cells again, by
the old rule (5% on the paper's side only) and by these, and prints both.

Records (tab-separated, one per line, in DIR/*.tsv; see scripts/score-lib.sh):
    val      PAPER ITEM ROW COL VALUE fitted|predicted
    win      PAPER ITEM CELL WINNER
    formula  PAPER NAME CELL FORMULA_VALUE VCUBE_VALUE [WHY]
    shown    PAPER ITEM WHERE         (reproduced, compared as WHERE says)

Exits 1 when a threshold of data/score-thresholds.tsv is missed (the
"target" column, or "smoke" with --smoke), 2 on bad input.
"""
import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from papers import Paper, rows, die, table_winners, _select  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def err(v, p):
    return 100.0 * (v - p) / p if p else (0.0 if v == p else float("inf"))


def score_paper(paper, recs):
    """The scorecard of one paper, as a dict (the JSON's shape)."""
    out = {"paper": paper.name, "title": paper.title, "items": [], "cells": [],
           "winners": [], "paper_ties": [], "formulas": []}
    vcube = {}
    for r in recs["val"]:
        if r[0] != paper.name:
            continue
        key = (r[1], r[2], r[3])
        if key not in paper.vals:
            die("record for %s %s has no paper value" % (paper.name, key))
        vcube[key] = (float(r[4]), r[5], r[4])
    for key, (v, how, text) in sorted(vcube.items()):
        p = paper.vals[key]
        out["cells"].append({"item": key[0], "row": key[1], "col": key[2],
                             "paper": p, "vcube": v, "err": err(v, p),
                             "recorded": text, "fitted": how == "fitted"})
    out["winners"] += table_winners(paper, {k: x[0] for k, x in vcube.items()},
                                    {k: x[2] for k, x in vcube.items()},
                                    out["paper_ties"])
    vwin = {(r[1], r[2]): r[3] for r in recs["win"] if r[0] == paper.name}
    for (item, cell), (w, quote) in sorted(paper.wins.items()):
        v = vwin.get((item, cell))
        out["winners"].append({"item": item, "cell": cell, "paper": w,
                               "vcube": v, "verdict": text_verdict(w, v),
                               "from": "text", "quote": quote})
    for r in recs["formula"]:
        if r[0] == paper.name:
            f, v = float(r[3]), float(r[4])
            out["formulas"].append({"name": r[1], "cell": r[2], "formula": f,
                                    "vcube": v, "err": err(v, f),
                                    "why": r[5] if len(r) > 5 else ""})
    shown = {}
    for r in recs["shown"]:
        if r[0] == paper.name:
            shown.setdefault(r[1], []).append(r[2])
    for item in paper.order:
        it = paper.items[item]
        ncells = sum(1 for c in out["cells"] if c["item"] == item)
        nwins = sum(1 for w in out["winners"]
                    if w["item"] == item and w["vcube"] is not None)
        how = []
        if ncells:
            how.append("%d cells" % ncells)
        if nwins:
            how.append("%d winners" % nwins)
        how += shown.get(item, [])
        out["items"].append({"item": item, "kind": it["kind"],
                             "caption": it["caption"],
                             "reproduced": bool(how), "how": "; ".join(how)})
    out["summary"] = summarise(out)
    return out


def text_verdict(paper, vcube):
    """A text winner's verdict. The paper may name two ("bex|pex": either);
    a record names vcube's winner, all of those tied to the ns ("bex|pex"),
    or "tie" (the records carry no values: docs/scoring.md). vcube's tie
    that holds the paper's winner is a "tie"; one inside the paper's set
    agrees; one without it differs."""
    if vcube is None:
        return None
    p = set(paper.split("|"))
    if vcube == "tie":
        return "tie"
    v = set(vcube.split("|"))
    if v <= p:
        return "agree"
    return "tie" if len(v) > 1 and v & p else "differ"


def agree(w):
    """vcube names the paper's winner, by more than its resolution."""
    return w["verdict"] == "agree"


def summarise(p):
    pred = [c for c in p["cells"] if not c["fitted"]]
    ae = [abs(c["err"]) for c in pred]
    w = [x for x in p["winners"] if x["vcube"] is not None]
    numbered = [i for i in p["items"] if i["kind"] in ("values", "chart")]
    return {
        "predicted_cells": len(pred),
        "fitted_cells": len(p["cells"]) - len(pred),
        "mean_err": sum(ae) / len(ae) if ae else None,
        "worst_err": max(ae) if ae else None,
        "within_25": sum(1 for e in ae if e <= 25.0),
        "winners": len(w),
        "winners_agree": sum(1 for x in w if agree(x)),
        "winners_tie": sum(1 for x in w if x["verdict"] == "tie"),
        "winners_differ": sum(1 for x in w if x["verdict"] == "differ"),
        "winners_unmeasured": len(p["winners"]) - len(w),
        "paper_ties": len(p.get("paper_ties", [])),
        "formulas": len(p["formulas"]),
        "formulas_within_1": sum(1 for f in p["formulas"] if abs(f["err"]) <= 1.0),
        "items_with_numbers": len(numbered),
        "items_reproduced": sum(1 for i in numbered if i["reproduced"]),
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
    wins = [w for p in ps for w in p["winners"] if w["vcube"] is not None and mine(w)]
    # a formula vcube does not model says why, and does not count
    forms = [f for p in ps for f in p["formulas"] if not f["why"] and mine(f, "name")]
    items = [i for p in ps for i in p["items"]
             if i["kind"] in ("values", "chart") and mine(i)]
    if name == "winner_agreement":
        return frac(sum(1 for w in wins if agree(w)), len(wins))
    if name == "within_25":
        return frac(sum(1 for e in ae if e <= 25.0), len(ae))
    if name == "mean_err":
        return sum(ae) / len(ae) if ae else None
    if name == "formulas_within_1":
        return frac(sum(1 for f in forms if abs(f["err"]) <= 1.0), len(forms))
    if name == "items_reproduced":
        return frac(sum(1 for i in items if i["reproduced"]), len(items))
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


def markdown(card, checks, smoke, srcs):
    o = []
    o.append("# Scorecard%s\n" % (" (smoke)" if smoke else ""))
    o.append("Generated by `make score%s` (scripts/score.py) from the records the "
             "reproduction and validation scripts wrote (%s) and the papers' values "
             "in data/papers/*.tsv; nothing here is typed by hand. Errors are "
             "vcube's against the paper's, on the cells not fitted. Winners are "
             "scored by docs/scoring.md's rules: \"winners agree\" counts vcube's "
             "near-ties against it (their number in brackets); a paper tie is a "
             "cell the paper's printing does not decide, listed and not scored.\n"
             % ("-smoke" if smoke else "", ", ".join(srcs) or "none"))
    o.append("## Summary\n")
    o.append("| paper | predicted cells | mean error | worst error | within 25% "
             "| winners agree | formulas within 1% | figures and tables reproduced |")
    o.append("|---|---|---|---|---|---|---|---|")
    for p in card:
        s = p["summary"]
        o.append("| %s | %d (+%d fitted) | %s | %s | %s | %s | %s | %d of %d |" % (
            p["title"], s["predicted_cells"], s["fitted_cells"],
            "-" if s["mean_err"] is None else "%.1f%%" % s["mean_err"],
            "-" if s["worst_err"] is None else "%.1f%%" % s["worst_err"],
            "%d of %d" % (s["within_25"], s["predicted_cells"]) if s["predicted_cells"] else "-",
            ("%d of %d (%d vcube tie%s)" % (s["winners_agree"], s["winners"], s["winners_tie"],
                                             "" if s["winners_tie"] == 1 else "s")
             if s["winners"] else "-") +
            ("; %d paper ties" % s["paper_ties"] if s.get("paper_ties") else ""),
            "%d of %d" % (s["formulas_within_1"], s["formulas"]) if s["formulas"] else "-",
            s["items_reproduced"], s["items_with_numbers"]))
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
    for p in card:
        o.append("\n## %s\n" % p["title"])
        o.append("| figure or table | numbers | reproduced |")
        o.append("|---|---|---|")
        for i in p["items"]:
            o.append("| %s: %s | %s | %s |" % (i["item"], i["caption"], i["kind"],
                                                i["how"] if i["reproduced"] else "no"))
        if p["cells"]:
            o.append("\nCells (paper, vcube, error):\n")
            o.append("| item | row | column | paper | vcube | error | |")
            o.append("|---|---|---|---|---|---|---|")
            for c in p["cells"]:
                o.append("| %s | %s | %s | %g | %.4g | %+.1f%% | %s |" % (
                    c["item"], c["row"], c["col"], c["paper"], c["vcube"], c["err"],
                    "fitted" if c["fitted"] else "predicted"))
        if p["winners"]:
            o.append("\nWinners (a table's: each candidate's value, paper / vcube, "
                     "and the margin each best had to clear; \"a=b\": a near-tie):\n")
            o.append("| comparison | cell | paper | vcube | | values | margins |")
            o.append("|---|---|---|---|---|---|---|")
            for w in p["winners"]:
                vals = margins = ""
                if w.get("values"):
                    vals = ", ".join("%s %s / %s" % (a, pv, "-" if vv is None else "%.6g" % vv)
                                     for a, (pv, vv) in sorted(w["values"].items()))
                    margins = "%s / %s" % (w["paper_margin"], w["vcube_margin"] or "-")
                o.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                    w["item"], w["cell"], w["paper"], w["vcube"] or "not measured",
                    {None: "", "agree": "agree", "tie": "*tie*"}.get(
                        w["verdict"], "**differ**"), vals, margins))
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
        if p["formulas"]:
            o.append("\nFormulas (the paper's formula with its constants, vcube's model):\n")
            o.append("| formula | cell | formula | vcube | error | |")
            o.append("|---|---|---|---|---|---|")
            for f in p["formulas"]:
                o.append("| %s | %s | %.4g | %.4g | %+.2f%% | %s |" % (
                    f["name"], f["cell"], f["formula"], f["vcube"], f["err"], f["why"]))
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
        told = [dict(w, verdict="agree" if w["vcube"] in w["paper"].split("|") else "differ")
                for w in text]
        tnew = [dict(w, verdict=text_verdict(w["paper"], w["vcube"])) for w in text]
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
    a = ap.parse_args()
    if a.rescore:
        rescore(a.rescore, a.vcube_margin)
        return
    recs = {"val": [], "win": [], "formula": [], "shown": []}
    srcs = []
    files = []
    for d in a.records or [os.path.join(TOP, "build/score")]:
        if not os.path.isdir(d):
            die("no records in %s" % d)
        files += sorted(glob.glob(os.path.join(d, "*.tsv")))
    for path in files:
        srcs.append(os.path.basename(path))
        for n, r in rows(path):
            if r[0] not in recs:
                die("%s:%d: unknown record %r" % (path, n, r[0]))
            recs[r[0]].append(r[1:])
    papers = [Paper(p) for p in sorted(glob.glob(os.path.join(TOP, "data/papers/*.tsv")))]
    card = [score_paper(p, recs) for p in papers]
    checks = check(card, a.smoke)
    md = markdown(card, checks, a.smoke, srcs)
    if a.md:
        with open(a.md, "w", encoding="utf-8") as f:
            f.write(md)
    else:
        sys.stdout.write(md)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"smoke": a.smoke, "papers": card, "thresholds": checks}, f,
                      indent=1, sort_keys=True)
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
