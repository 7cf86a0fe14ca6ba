# SPDX-License-Identifier: GPL-2.0
"""The papers' values, as data/papers/NAME.tsv holds them (the format is in
data/papers/README.md), and the records vcube's measuring scripts leave for
scripts/score.py. Used by score.py, the reproduction scripts and
tests/host/paper_data.sh."""
import math
import os
import re
import sys
from decimal import Decimal, InvalidOperation

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    print("papers: " + msg, file=sys.stderr)
    sys.exit(2)


def rows(path):
    """The tab-separated records of PATH, comments and blank lines left out."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                yield n, line.split("\t")


class Paper:
    """One data/papers/NAME.tsv: what the paper prints, typed once."""

    def __init__(self, path):
        self.name = os.path.basename(path)[:-4]
        self.title = self.name
        self.seed = None
        self.items = {}		# id -> {kind, caption}
        self.order = []
        self.cols = {}		# id -> [column labels]
        self.vals = {}		# (id, row, col) -> float
        self.raw = {}		# id -> [(row, [values as typed])]
        self.text = {}		# (id, row, col) -> the value as typed ("0.120")
        self.nums = []		# (id, label, value, quote): numbers in the text
        self.cmps = []		# (name, paper precision, vcube margin, [(alg, item)])
        self.wins = {}		# (id, cell) -> (winner, quote)
        self.claims = {}	# id -> [part: {item, quant, margin, test, operands, quote}]
        self.formulas = []	# [{id, item, let, expr, vcube, why, quote}]
        self.inputs = []	# [(kind, pattern, why)]: what vcube only reads back
        self.notes = {}		# claim or formula id -> a note for the scorecard
        for n, r in rows(path):
            k = r[0]
            where = "%s:%d" % (path, n)
            if k == "paper" and len(r) == 3:
                self.title, self.seed = r[1], r[2]
            elif k == "item" and len(r) == 4:
                self.items[r[1]] = {"kind": r[2], "caption": r[3]}
                self.order.append(r[1])
            elif k == "cols" and len(r) >= 3:
                self.cols[r[1]] = r[2:]
            elif k == "val" and len(r) >= 4:
                cols = self.cols.get(r[1])
                if cols is None or len(cols) != len(r) - 3:
                    die("%s: %d values, columns %s" % (where, len(r) - 3, cols))
                for c, v in zip(cols, r[3:]):
                    self.vals[(r[1], r[2], c)] = float(v)
                    self.text[(r[1], r[2], c)] = v
                self.raw.setdefault(r[1], []).append((r[2], r[3:]))
            elif k == "num" and len(r) == 5:
                self.vals[(r[1], r[2], "")] = float(r[3])
                self.text[(r[1], r[2], "")] = r[3]
                self.nums.append((r[1], r[2], r[3], r[4]))
            elif k == "cmp" and len(r) >= 6 and "=" not in r[3]:
                if r[2] != "printed":
                    _dec(r[2], where + ": the paper's precision")
                if r[3] != "printed":
                    _margin(r[3], where)
                self.cmps.append((r[1], r[2], r[3],
                                  [tuple(a.split("=", 1)) for a in r[4:]]))
            elif k == "cmp":
                die("%s: a cmp line is: name, the paper's precision, vcube's "
                    "margin, algo=spec... (data/papers/README.md)" % where)
            elif k == "win" and len(r) == 5:
                self.wins[(r[1], r[2])] = (r[3], r[4])
            elif k == "claim" and len(r) >= 8:
                if r[3] not in ("all", "most", "any"):
                    die("%s: quantifier %r (all, most or any)" % (where, r[3]))
                if r[4] != "-":
                    _margin(r[4], where)
                ops = []
                for o in r[6:-1]:
                    name, eq, spec = o.partition("=")
                    if not eq or not name.isidentifier():
                        die("%s: an operand is name=ITEM[|ROWS|COLS] or name=@ITEM|LABEL: %r"
                            % (where, o))
                    ops.append((name, spec))
                try:
                    Expr(r[5])
                except ValueError as e:
                    die("%s: %s" % (where, e))
                if not r[-1].strip():
                    die("%s: a claim needs its quote" % where)
                self.claims.setdefault(r[1], []).append(
                    {"item": r[2], "quant": r[3], "margin": r[4], "test": r[5],
                     "operands": ops, "quote": r[-1]})
            elif k == "formula" and len(r) == 8:
                try:
                    Expr(r[4])
                    if r[3] != "-":
                        Expr(r[3], "exec")
                except ValueError as e:
                    die("%s: %s" % (where, e))
                if r[5] == "-" and r[6] == "-":
                    die("%s: a formula vcube cannot evaluate says why" % where)
                self.formulas.append({"id": r[1], "item": r[2], "let": r[3], "expr": r[4],
                                      "vcube": r[5], "why": r[6], "quote": r[7]})
            elif k == "input" and len(r) == 4 and r[1] in ("cell", "formula", "item"):
                self.inputs.append((r[1], r[2], r[3]))
            elif k == "note" and len(r) == 3:
                self.notes[r[1]] = r[2]
            else:
                die("%s: cannot read %r" % (where, r[0]))
            if k in ("cols", "val", "win", "num", "claim", "formula") and \
                    r[2 if k in ("claim", "formula") else 1] not in self.items:
                die("%s: item %r has no 'item' line" % (where, r[2 if k in ("claim", "formula") else 1]))


def _dec(s, what="a value"):
    """S (a number as typed) as a Decimal: exact, digits kept."""
    try:
        d = Decimal(str(s).strip())
    except InvalidOperation:
        d = None
    if d is None or not d.is_finite():
        die("%s: %r is not a number" % (what, s))
    return d


def half_unit(s):
    """Half a unit of the last digit of S as printed: what the printing
    may hide. 0.0005 for "0.120", 0.005 for "13.61", 0.5 for "72"."""
    return Decimal(5).scaleb(_dec(s).as_tuple().exponent - 1)


def _margin(spec, where="vcube's margin"):
    """A cmp line's margin for vcube: "N" (absolute, in the table's unit) or
    "N%" (of vcube's best). Returns (relative?, Decimal)."""
    if spec.endswith("%"):
        return True, _dec(spec[:-1], where) / 100
    return False, _dec(spec, where)


def _num(v):
    """A value as a Decimal: a string as typed, a float by its shortest
    repr (which gives back a record's digits, trailing zeros aside)."""
    return _dec(v if isinstance(v, str) else repr(float(v)))


def paper_cell(prec, typed_vals):
    """The paper's verdict on one cell. TYPED_VALS: [(alg, value as typed)];
    PREC: "printed" (each value's half-unit of its last printed digit) or a
    half-unit for every value. Returns (winner or None, [algs the printing
    cannot separate from the best], the margin the best had to clear from
    the next)."""
    v = []
    for a, t in typed_vals:
        h = half_unit(t) if prec == "printed" else _dec(prec)
        v.append((_dec(t), a, h))
    v.sort()
    b, ba, bh = v[0]
    near = [ba] + [a for x, a, h in v[1:] if x - b <= bh + h]
    return (ba if len(near) == 1 else None), near, bh + v[1][2]


def vcube_cell(spec, vals, texts=None, printed=None):
    """vcube's verdict on one cell. VALS: [(alg, value)]; SPEC: the cmp
    line's margin for vcube ("printed": the paper's own, from PRINTED,
    {alg: the paper's value as typed}: a sensitivity, not the rule). TEXTS,
    where the records' digits are known: {alg: value as recorded}; their
    rounding then applies if it is wider than SPEC. Returns (the algs within
    the margin of vcube's best, the margin the best had to clear from the
    next)."""
    v = sorted((_num(x), a) for a, x in vals)
    b, ba = v[0]
    if spec == "printed":
        mb = None
    else:
        rel, m = _margin(spec)
        mb = m * b if rel else m

    def need(a):
        if mb is None:
            return half_unit(printed[ba]) + half_unit(printed[a])
        if texts and texts.get(ba) and texts.get(a):
            return max(mb, half_unit(texts[ba]) + half_unit(texts[a]))
        return mb
    near = [ba] + [a for x, a in v[1:] if x - b <= need(a)]
    return near, need(v[1][1])


def table_winners(paper, vcube, texts=None, paper_ties=None):
    """The winners the paper's own tables name (its cmp lines), beside
    vcube's: VCUBE maps (item, row, col) to vcube's value, TEXTS (optional)
    to the value as the record typed it. The rules (docs/scoring.md): the
    paper decides a cell when its best is below every other candidate by
    more than the two values' printing can hide; the cells it does not
    decide go to PAPER_TIES (a list, when given) and are not scored. vcube
    names a winner when its best is below every other by more than the cmp
    line's margin for vcube; else vcube's near-best set is named ("gen=pex").
    Each decided cell: verdict "agree" (vcube names the paper's winner),
    "differ" (vcube names another, or a near-tie without the paper's
    winner), "tie" (a near-tie that includes it), None (not measured)."""
    out = []
    for name, prec, vmargin, algs in paper.cmps:
        sel = {a: _select(paper, spec) for a, spec in algs}
        cells = None
        for a, _ in algs:
            cells = set(sel[a]) if cells is None else cells & set(sel[a])
        for cell in sorted(cells or []):
            keys = [(a, sel[a][cell]) for a, _ in algs]
            label = ", ".join(x for x in cell if x)
            pw, pnear, pm = paper_cell(prec, [(a, paper.text[k]) for a, k in keys])
            values = {a: [paper.text[k], vcube.get(k)] for a, k in keys}
            if pw is None:
                if paper_ties is not None:
                    paper_ties.append({"item": name, "cell": label,
                                       "tied": "=".join(sorted(pnear)),
                                       "values": {a: paper.text[k] for a, k in keys},
                                       "margin": str(pm)})
                continue
            w = {"item": name, "cell": label, "paper": pw, "vcube": None,
                 "from": "table", "verdict": None, "values": values,
                 "paper_margin": str(pm), "vcube_margin": None,
                 "keys": [list(k) for _, k in keys]}
            if all(vcube.get(k) is not None for _, k in keys):
                near, vm = vcube_cell(vmargin, [(a, vcube[k]) for a, k in keys],
                                      texts and {a: texts.get(k) for a, k in keys},
                                      {a: paper.text[k] for a, k in keys})
                w["vcube"] = "=".join(sorted(near))
                w["vcube_margin"] = str(vm)
                w["verdict"] = ("agree" if near == [pw] else
                                "tie" if pw in near else "differ")
            out.append(w)
    return out


def _capture(pat, s):
    """PAT's match of S: "*" anywhere in PAT captures; None if no match."""
    if "*" not in pat:
        return "" if pat == s else None
    pre, post = pat.split("*", 1)
    if s.startswith(pre) and s.endswith(post) and len(s) >= len(pre) + len(post):
        return s[len(pre):len(s) - len(post)]
    return None


def _select(paper, spec):
    """A cmp alternative, ITEM[|ROWS|COLS]: the item's values whose row and
    column labels match the patterns, keyed by what the "*" captured."""
    item, rp, cp = (spec.split("|") + ["*", "*"])[:3]
    out = {}
    for (i, r, c) in paper.vals:
        kr, kc = _capture(rp, r), _capture(cp, c)
        if i == item and kr is not None and kc is not None:
            out[(kr, kc)] = (i, r, c)
    if not out:
        die("%s: cmp %r selects nothing" % (paper.name, spec))
    return out


def typed(paper, item, row, col):
    """The value as the paper prints it (a string: 0.120, not 0.12)."""
    return dict(paper.raw[item])[row][paper.cols[item].index(col)]


def load(name):
    """data/papers/NAME.tsv"""
    return Paper(os.path.join(TOP, "data/papers", name + ".tsv"))


def record_key(key):
    """The record a value came from as (item, row, col): a val record's
    key as it is, a meas record's ("@", item, label) as (item, label, "")."""
    return (key[1], key[2], "") if key[0] == "@" else tuple(key)


CONSTANT_FIELDS = ("name", "profile", "value", "kind", "how", "cells", "ablation")


def load_constants(path=None):
    """data/constants.tsv (or PATH): the fitted and chosen constants, a list
    of dicts (CONSTANT_FIELDS), "cells" a list of patterns, each a dict
    {"text", "paper", "parts": [item, row, col regexes]} (docs/scoring.md,
    "Chosen constants")."""
    out = []
    for where, c in named_rows(path or os.path.join(TOP, "data/constants.tsv"),
                               CONSTANT_FIELDS, "a constant"):
        if c["kind"] not in ("fitted", "chosen"):
            die("%s: kind %r (fitted or chosen)" % (where, c["kind"]))
        c["cells"] = cell_patterns(c["cells"], where)
        out.append(c)
    return out


def named_rows(path, fields, what):
    """PATH's rows as dicts of FIELDS, each with where it is, a name once."""
    seen = set()
    for n, r in rows(path):
        where = "%s:%d" % (path, n)
        if len(r) != len(fields):
            die("%s: %s is %s, tab-separated" % (where, what, ", ".join(fields)))
        d = dict(zip(fields, r))
        if d["name"] in seen:
            die("%s: %s twice" % (where, d["name"]))
        seen.add(d["name"])
        yield where, d


def cell_patterns(text, where):
    """TEXT's cell patterns, "PAPER|ITEM|ROW|COL; ..." ("-": none), each a
    dict {"text", "paper", "parts": [item, row, col regexes]}."""
    pats = []
    for t in ([] if text == "-" else text.split(";")):
        t = t.strip()
        parts = t.split("|")
        if not 2 <= len(parts) <= 4 or not all(parts[:2]):
            die("%s: a cell pattern is PAPER|ITEM|ROW|COL: %r" % (where, t))
        parts += ["*"] * (4 - len(parts))
        pats.append({"text": t, "paper": parts[0], "parts": [_pattern(x) for x in parts[1:]]})
    return pats


def pattern_hits(pats, paper, keys):
    """Does one of the cell patterns PATS match one of KEYS, (item, row,
    col) records of PAPER?"""
    return any(p["paper"] == paper and all(rx.match(str(x)) for rx, x in zip(p["parts"], k))
               for p in pats for k in keys)


MISMATCH_FIELDS = ("name", "cells", "cause", "shown_by", "settle")


def load_mismatches(path=None):
    """data/mismatches.tsv (or PATH): the named causes of the scorecard's
    mismatches, a list of dicts (MISMATCH_FIELDS), "cells" as
    cell_patterns() gives them (docs/scoring.md, "Mismatches")."""
    out = []
    for where, m in named_rows(path or os.path.join(TOP, "data/mismatches.tsv"),
                               MISMATCH_FIELDS, "a cause"):
        if not m["cause"].strip() or not m["shown_by"].strip() or m["cells"] == "-":
            die("%s: %s: a cause needs its cells, its words and the run that shows it"
                % (where, m["name"]))
        m["cells"] = cell_patterns(m["cells"], where)
        out.append(m)
    return out


def check_constants(consts, papers_):
    """Each constant's (or cause's) cell patterns against PAPERS_ ({name:
    Paper}): the paper is one of them and the item pattern matches one of
    its items. Yields (ok, what)."""
    for c in consts:
        for p in c["cells"]:
            paper = papers_.get(p["paper"])
            ok = paper is not None and any(p["parts"][0].match(i) for i in paper.items)
            yield ok, "%s: %s names %s" % (c["name"], p["text"], "a paper and an item of it"
                                           if ok else "no item of data/papers")


def chosen_on(consts, paper, keys):
    """The names of the constants whose cell patterns match one of KEYS,
    (item, row, col) records of PAPER (docs/scoring.md, "Chosen
    constants", rule 1), in the file's order."""
    return [c["name"] for c in consts or () if pattern_hits(c["cells"], paper, keys)]


def record(kind, *fields):
    """Append a record for score.py to $VCUBE_SCORE (nothing when unset)."""
    path = os.environ.get("VCUBE_SCORE")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as f:
        f.write("\t".join([kind] + [str(x) for x in fields]) + "\n")


def _squash(s):
    """S without whitespace or TeX's $, lower case: how text is compared
    with the seeds, whose line breaks and spacing come from OCR."""
    return "".join(s.replace("$", "").split()).lower()


def _blocks(text):
    """The Markdown tables of TEXT: lists of line indices."""
    out, cur = [], []
    for i, line in enumerate(text):
        if line.lstrip().startswith("|"):
            cur.append(i)
        elif cur:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out


def _cell(c):
    """A table cell as a label: no TeX, one space."""
    c = re.sub(r"\\times", "x", c.replace("$", ""))
    c = re.sub(r"\\(?:rm|mathrm|operatorname)\s*\{([^}]*)\}", r"\1", c)
    return " ".join(c.replace("{", "").replace("}", "").split())


def _cells(line):
    return [_cell(c) for c in line.strip().strip("|").split("|")]


def check_seed(paper, seeds):
    """Check PAPER's typed values against its seed's text. Yields (ok, what).

    An item's caption must be in the seed. A val row must be a row of the
    Markdown table beside the caption (the one right after it, else the one
    right before it), whose cell equal to the row's label is followed by
    exactly the typed numbers, as printed. A win's, a claim's and a
    formula's quote must be in the seed.
    """
    text = open(os.path.join(seeds, paper.seed), encoding="utf-8").read().splitlines()
    flat = _squash("\n".join(text))
    blocks = _blocks(text)
    num = re.compile(r"-?\d+(?:\.\d+)?")
    where = {}
    for item in paper.order:
        cap = _squash(item + ":" + paper.items[item]["caption"])
        hit = [i for i, l in enumerate(text) if cap in _squash(l)] or \
            [i for i, l in enumerate(text)
             if _squash(paper.items[item]["caption"]) in _squash(l)]
        yield bool(hit), "%s: %s: caption %r" % (paper.name, item, paper.items[item]["caption"])
        if hit:
            where[item] = hit[0]
    for item, rows_ in paper.raw.items():
        i = where.get(item)
        if i is None:
            continue
        nxt = next((j for j in range(i + 1, len(text)) if text[j].strip()), None)
        prv = next((j for j in range(i - 1, -1, -1) if text[j].strip()), None)
        block = next((b for b in blocks if b[0] == nxt), None) or \
            next((b for b in blocks if b[-1] == prv), None)
        for label, vals in rows_:
            got = []
            for j in block or []:
                c = _cells(text[j])
                if label in c:
                    got.append(num.findall(" ".join(c[c.index(label) + 1:])))
            ok = vals in got
            yield ok, "%s: %s, %s: %s" % (paper.name, item, label, " ".join(vals) if ok else
                                         "typed %s, seed has %s" % (vals, got or "no such row"))
    for item, label, value, quote in paper.nums:
        yield _squash(quote) in flat and _squash(value) in _squash(quote), \
            "%s: %s, %s: %s in %r" % (paper.name, item, label, value, quote)
    for (item, cell), (w, quote) in sorted(paper.wins.items()):
        yield _squash(quote) in flat, "%s: %s, %s: %s wins: %r" % (
            paper.name, item, cell, w, quote)
    for cid, parts in sorted(paper.claims.items()):
        for pt in parts:
            yield _squash(pt["quote"]) in flat, "%s: claim %s (%s): %r" % (
                paper.name, cid, pt["item"], pt["quote"])
    for fl in paper.formulas:
        yield _squash(fl["quote"]) in flat, "%s: formula %s (%s): %r" % (
            paper.name, fl["id"], fl["item"], fl["quote"])


# ---- claims and formulas (docs/scoring.md, "Text claims", "Formulas") -------

class Iv:
    """A value as an interval [lo, hi]: a paper's value and what its printing
    hides, or vcube's and its margin. Exact values have lo == hi."""
    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi=None):
        self.lo, self.hi = float(lo), float(lo if hi is None else hi)

    def mid(self):
        return (self.lo + self.hi) / 2

    def exact(self):
        return self.lo == self.hi

    def __repr__(self):
        return "%g" % self.lo if self.exact() else "[%g, %g]" % (self.lo, self.hi)


def _iv(x):
    return x if isinstance(x, Iv) else Iv(x)


def _arith(op, a, b):
    a, b = _iv(a), _iv(b)
    if op == "+":
        return Iv(a.lo + b.lo, a.hi + b.hi)
    if op == "-":
        return Iv(a.lo - b.hi, a.hi - b.lo)
    if op == "*":
        p = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        return Iv(min(p), max(p))
    if op == "/":
        if b.lo <= 0 <= b.hi:
            raise ValueError("division by an interval holding 0: %r" % b)
        return _arith("*", a, Iv(1 / b.hi, 1 / b.lo))
    if not (a.exact() and b.exact()):
        raise ValueError("%s needs exact values" % op)
    return Iv({"//": lambda x, y: x // y, "%": lambda x, y: x % y,
               "**": lambda x, y: x ** y}[op](a.lo, b.lo))


def _cmp(op, a, b):
    """Kleene's three values: True (apart the right way), False (apart the
    wrong way), None (the intervals overlap: undecided)."""
    a, b = _iv(a), _iv(b)
    if op in (">", ">="):
        op, a, b = "<" if op == ">" else "<=", b, a
    if op == "<":
        return True if a.hi < b.lo else False if a.lo >= b.hi else None
    if op == "<=":
        return True if a.hi <= b.lo else False if a.lo > b.hi else None
    if op in ("==", "!="):
        if a.exact() and b.exact():
            r = a.lo == b.lo
        else:
            r = False if a.hi < b.lo or b.hi < a.lo else None
        return r if op == "==" or r is None else not r
    raise ValueError("comparison %s" % op)


def _within(r, tol):
    """Ratio interval R within 1 +- TOL: True, False or None."""
    if r.lo >= 1 - tol and r.hi <= 1 + tol:
        return True
    if r.hi < 1 - tol or r.lo > 1 + tol:
        return False
    return None


ABOUT = 0.25	# "about", "nearly", "almost": docs/scoring.md, rule 2
ALIKE = 0.10	# "similar", "indistinguishable": the largest within 10% of the least


def _scaled(x, y, below, above):
    """X between BELOW and ABOVE times Y, for a Y whose interval reaches 0
    (a time or a count of none), where the ratio has no bound: the same
    test with Y multiplied out, for quantities that are not negative."""
    x, y = _iv(x), _iv(y)
    if x.lo >= below * y.hi and x.hi <= above * y.lo:
        return True
    if x.hi < below * y.lo or x.lo > above * y.hi:
        return False
    return None


def _about(x, y):
    if _iv(y).lo <= 0:
        return _scaled(x, y, 1 - ABOUT, 1 + ABOUT)
    return _within(_arith("/", x, y), ABOUT)


def _alike(*xs):
    xs = [_iv(x) for x in xs]
    hi = Iv(max(x.lo for x in xs), max(x.hi for x in xs))
    lo = Iv(min(x.lo for x in xs), min(x.hi for x in xs))
    if lo.lo <= 0:	# the largest at most 1 + ALIKE times the least
        return _scaled(hi, lo, 0, 1 + ALIKE)
    r = _arith("/", hi, lo)
    return True if r.hi <= 1 + ALIKE else False if r.lo > 1 + ALIKE else None


def label_num(s):
    """A label's number: "16K" 16384, "256" 256, "d = 5" 5."""
    m = re.search(r"(\d+(?:\.\d+)?)\s*([KkM]?)", str(s))
    if not m:
        raise ValueError("no number in %r" % s)
    return float(m.group(1)) * {"": 1, "K": 1024, "k": 1024, "M": 1 << 20}[m.group(2)]


def _side(s, i):
    m = re.match(r"\s*(\d+)\s*x\s*(\d+)\s*$", str(s))
    if not m:
        raise ValueError("not a mesh: %r" % s)
    return float(m.group(i))


class Expr:
    """An expression of a claim or formula line, in Python's syntax, read by
    this evaluator only (no eval): numbers, names, + - * / // % **,
    comparisons, and/or/not, the functions below and sum(... for i in
    range(a, b)). Values are intervals; comparisons are Kleene's."""
    FUNCS = ("min", "max", "abs", "sum", "range", "ceil", "floor", "log2",
             "about", "alike", "num", "rows", "cols", "paper", "vcube")

    def __init__(self, text, mode="eval"):
        import ast
        self.ast = ast
        self.text = text
        try:
            self.tree = ast.parse(text.strip(), mode=mode)
        except SyntaxError as e:
            raise ValueError("cannot read %r: %s" % (text, e.msg))
        for n in ast.walk(self.tree):
            if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and
                                                n.func.id in self.FUNCS):
                raise ValueError("%r: only %s may be called" % (text, ", ".join(self.FUNCS)))
            if isinstance(n, (ast.Attribute, ast.Subscript, ast.Lambda, ast.Starred,
                              ast.ListComp, ast.DictComp, ast.SetComp, ast.Dict, ast.Set)):
                raise ValueError("%r: %s not allowed" % (text, type(n).__name__))

    def names(self):
        return {n.id for n in self.ast.walk(self.tree) if isinstance(n, self.ast.Name)} - \
            set(self.FUNCS)

    def run(self, env, lookup=None):
        """The value (an Iv, a label string or True/False/None)."""
        self.lookup = lookup or {}
        if isinstance(self.tree, self.ast.Expression):
            return self._ev(self.tree.body, env)
        for st in self.tree.body:		# let: name = expr; ...
            if not (isinstance(st, self.ast.Assign) and len(st.targets) == 1 and
                    isinstance(st.targets[0], self.ast.Name)):
                raise ValueError("%r: a let is name = expr; ..." % self.text)
            env[st.targets[0].id] = self._ev(st.value, env)
        return env

    def _ev(self, n, env):
        a = self.ast
        if isinstance(n, a.Constant):
            return n.value if isinstance(n.value, str) else Iv(n.value)
        if isinstance(n, a.Name):
            if n.id not in env:
                raise ValueError("%r: %s is not bound" % (self.text, n.id))
            return env[n.id]
        if isinstance(n, a.UnaryOp):
            v = self._ev(n.operand, env)
            if isinstance(n.op, a.Not):
                return None if v is None else not v
            if isinstance(n.op, a.USub):
                return Iv(-v.hi, -v.lo)
            return v
        if isinstance(n, a.BinOp):
            op = {a.Add: "+", a.Sub: "-", a.Mult: "*", a.Div: "/", a.FloorDiv: "//",
                  a.Mod: "%", a.Pow: "**"}[type(n.op)]
            return _arith(op, self._ev(n.left, env), self._ev(n.right, env))
        if isinstance(n, a.BoolOp):
            vs = [self._ev(x, env) for x in n.values]
            if isinstance(n.op, a.And):
                return False if False in vs else None if None in vs else True
            return True if True in vs else None if None in vs else False
        if isinstance(n, a.Compare):
            left, out = self._ev(n.left, env), True
            for op, right in zip(n.ops, n.comparators):
                right = self._ev(right, env)
                r = _cmp({a.Lt: "<", a.LtE: "<=", a.Gt: ">", a.GtE: ">=", a.Eq: "==",
                          a.NotEq: "!="}[type(op)], left, right)
                out = False if False in (out, r) else None if None in (out, r) else True
                left = right
            return out
        if isinstance(n, a.IfExp):
            c = self._ev(n.test, env)
            if c is None:
                raise ValueError("%r: an undecided condition" % self.text)
            return self._ev(n.body if c else n.orelse, env)
        if isinstance(n, a.Call):
            f = n.func.id
            if f == "sum" and len(n.args) == 1 and isinstance(n.args[0], a.GeneratorExp):
                g = n.args[0]
                if len(g.generators) != 1 or g.generators[0].ifs or \
                        not isinstance(g.generators[0].target, a.Name):
                    raise ValueError("%r: sum(x for i in range(a, b)) only" % self.text)
                it = self._ev(g.generators[0].iter, env)
                tot, e2 = Iv(0), dict(env)
                for i in it:
                    e2[g.generators[0].target.id] = Iv(i)
                    tot = _arith("+", tot, self._ev(g.elt, e2))
                return tot
            args = [self._ev(x, env) for x in n.args]
            if f in ("min", "max"):
                pick = min if f == "min" else max
                return Iv(pick(x.lo for x in args), pick(x.hi for x in args))
            if f == "abs":
                x = args[0]
                return x if x.lo >= 0 else Iv(-x.hi, -x.lo) if x.hi <= 0 else Iv(0, max(-x.lo, x.hi))
            if f == "range":
                return range(*(int(x.lo) for x in args))
            if f in ("ceil", "floor", "log2"):
                if not args[0].exact():
                    raise ValueError("%s needs an exact value" % f)
                return Iv({"ceil": math.ceil, "floor": math.floor, "log2": math.log2}[f](args[0].lo))
            if f == "about":
                return _about(*args)
            if f == "alike":
                return _alike(*args)
            if f == "num":
                return Iv(label_num(args[0]))
            if f in ("rows", "cols"):
                return Iv(_side(args[0], 1 if f == "rows" else 2))
            if f in ("paper", "vcube"):
                v = self.lookup.get(f, lambda s: None)(args[0])
                if v is None:
                    raise KeyError(args[0])
                return v
        raise ValueError("%r: cannot evaluate %s" % (self.text, type(n).__name__))


def _pattern(pat):
    """A label pattern: each "*" captures anything, each "{a,b,c}" captures
    one of its alternatives; a compiled regex."""
    out, i = "", 0
    for m in re.finditer(r"\*|\{([^{}]*)\}", pat):
        out += re.escape(pat[i:m.start()])
        out += "(.*?)" if m.group(0) == "*" else \
            "(" + "|".join(re.escape(a.strip()) for a in m.group(1).split(",")) + ")"
        i = m.end()
    return re.compile("^" + out + re.escape(pat[i:]) + "$")


def operand_cells(paper, spec, meas):
    """The cells an operand spec names: {cell key: (paper Iv or None,
    vcube key)}, the key being what the patterns captured. ITEM[|ROWS|COLS]:
    the paper's table values (vcube's are its val records, keyed (item,
    row, col)); @ITEM|LABEL: vcube's meas records, MEAS: {(item, label):
    value}."""
    out = {}
    if spec.startswith("@"):
        item, _, lab = spec[1:].partition("|")
        ri, rl = _pattern(item), _pattern(lab)
        for (i, label) in meas:
            mi, ml = ri.match(i), rl.match(label)
            if mi and ml:
                out[mi.groups() + ml.groups()] = (None, ("@", i, label))
        return out
    item, rp, cp = (spec.split("|") + ["*", "*"])[:3]
    ri, rr, rc = _pattern(item), _pattern(rp), _pattern(cp)
    for key in paper.text:
        m = [rx.match(x) for rx, x in zip((ri, rr, rc), key)]
        if all(m):
            t = paper.text[key]
            h = half_unit(t)
            out[m[0].groups() + m[1].groups() + m[2].groups()] = \
                (Iv(_dec(t) - h, _dec(t) + h), key)
    if not out:
        die("%s: operand %r selects nothing" % (paper.name, spec))
    return out


def _vcube_iv(v, margin):
    if margin in ("-", "", None):
        return Iv(v)
    rel, m = _margin(margin)
    h = float(m) * abs(v) if rel else float(m)
    return Iv(v - h, v + h)


def _verdict(quant, outcomes):
    """vcube's verdict on a claim's part: rule 5 of docs/scoring.md."""
    n, t, f = len(outcomes), outcomes.count(True), outcomes.count(False)
    if quant == "all":
        return "agree" if t == n else "differ" if f else "tie"
    if quant == "most":
        return "agree" if 2 * t > n else "differ" if 2 * f >= n else "tie"
    if quant == "any":
        return "agree" if t else "differ" if f == n else "tie"
    raise ValueError("quantifier %r" % quant)


def _label(cell):
    """A cell's name: what its operands' patterns captured ("one cell"
    where they name a single value each)."""
    return ", ".join(x for x in cell if x) or "one cell"


def claims(paper, vcube, meas):
    """Every claim of PAPER (its claim lines), scored by docs/scoring.md's
    rules on VCUBE ({(item, row, col): value}, its val records) and MEAS
    ({(item, label): value}, its meas records). A list of dicts, one per
    claim id, each with its parts."""
    out = []
    lookup = _lookups(paper, meas, vcube)
    for cid, parts in paper.claims.items():
        res = []
        for pt in parts:
            ex = Expr(pt["test"])
            ops = {name: operand_cells(paper, spec, meas) for name, spec in pt["operands"]}
            missing = {n for n in ex.names() - set(ops) if not re.match(r"k\d+$", n)}
            if missing:
                die("%s: claim %s tests %s, which it does not name" % (paper.name, cid,
                                                                        ", ".join(sorted(missing))))
            cells = None
            for o in ops.values():
                cells = set(o) if cells is None else cells & set(o)
            cells = sorted(cells or [])
            printed = all(not spec.startswith("@") for _, spec in pt["operands"])
            r = {"quant": pt["quant"], "test": pt["test"], "margin": pt["margin"],
                 "operands": [("%s=%s" % o) for o in pt["operands"]],
                 "paper_ties": [], "paper_against": [], "cells": []}
            scored = cells
            if printed:
                scored = []
                for c in cells:
                    pv = ex.run(dict(_kvars(c), **{k: ops[k][c][0] for k in ops}), lookup)
                    if pv is True:
                        scored.append(c)
                    else:
                        r["paper_ties" if pv is None else "paper_against"].append(_label(c))
            outcomes = []
            for c in scored:
                env, vals, keys = {}, {}, []
                for k in ops:
                    key = ops[k][c][1]
                    v = meas.get(key[1:]) if key[0] == "@" else vcube.get(key)
                    if v is None:
                        break
                    env[k] = _vcube_iv(float(v), pt["margin"])
                    vals[k] = float(v)
                    keys.append(list(record_key(key)))
                else:
                    try:
                        o = ex.run(dict(_kvars(c), **env), lookup)
                    except KeyError:	# a vcube("...") not recorded
                        continue
                    outcomes.append(o)
                    r["cells"].append({"cell": _label(c), "vcube": vals,
                                       "paper": {k: paper.text[ops[k][c][1]] for k in ops}
                                       if printed else None,
                                       "holds": o, "keys": keys})
            if printed and not scored:
                r["verdict"] = "not shown"
            elif not outcomes:
                r["verdict"] = None
            else:
                r["verdict"] = _verdict(pt["quant"], outcomes)
            res.append(r)
        vs = [r["verdict"] for r in res]
        if "differ" in vs:
            v = "differ"
        elif "not shown" in vs:
            v = "not shown"
        elif None in vs:
            v = None
        elif "tie" in vs:
            v = "tie"
        else:
            v = "agree"
        out.append({"id": cid, "item": parts[0]["item"], "quote": parts[0]["quote"],
                    "verdict": v, "parts": res, "note": paper.notes.get(cid, "")})
    return out


def _kvars(cell):
    return {"k%d" % i: x for i, x in enumerate(cell)}


def _lookups(paper, meas, vcube=None):
    """paper("ITEM|LABEL"): a num line's value; vcube("ITEM|LABEL"): a meas
    record's, else the val record of that num line; None where there is
    none."""
    def look(kind):
        def f(spec):
            item, _, lab = spec.partition("|")
            if kind == "paper":
                v = paper.vals.get((item, lab, ""))
                return None if v is None else Iv(v)
            v = meas.get((item, lab))
            if v is None and vcube:
                v = vcube.get((item, lab, ""))
            return None if v is None else Iv(float(v))
        return f
    return {"paper": look("paper"), "vcube": look("vcube")}


def formulas(paper, vcube, meas):
    """Every formula line of PAPER, evaluated per cell beside vcube's value
    (docs/scoring.md, "Formulas"): a list of dicts, one per cell, or one
    per formula that is missed or not measured."""
    out = []
    lookup = _lookups(paper, meas, vcube)
    for fl in paper.formulas:
        base = {"name": fl["id"], "item": fl["item"], "quote": fl["quote"],
                "expr": fl["expr"], "why": fl["why"] if fl["why"] != "-" else "",
                "from": "line", "note": paper.notes.get(fl["id"], "")}
        if fl["vcube"] == "-":
            out.append(dict(base, status="missed", cell="", formula=None, vcube=None, err=None))
            continue
        cells = operand_cells(paper, fl["vcube"], meas)
        ex, let = Expr(fl["expr"]), None if fl["let"] == "-" else Expr(fl["let"], "exec")
        done = 0
        for c, (_, key) in sorted(cells.items()):
            v = meas.get(key[1:]) if key[0] == "@" else vcube.get(key)
            if v is None:
                continue
            env = _kvars(c)
            try:
                if let:
                    let.run(env, lookup)
                fv = ex.run(env, lookup)
            except KeyError as e:		# a constant vcube has not recorded
                out.append(dict(base, status="unmeasured", cell=_label(c), formula=None,
                                vcube=None, err=None, why="no record of %s" % e.args[0]))
                done += 1
                continue
            fv, v = fv.mid(), float(v)
            out.append(dict(base, status="evaluated", cell=_label(c), formula=fv, vcube=v,
                            key=list(record_key(key)),
                            err=100.0 * (v - fv) / fv if fv else (0.0 if v == fv else float("inf"))))
            done += 1
        if not done:
            out.append(dict(base, status="unmeasured", cell="", formula=None, vcube=None, err=None))
    return out
