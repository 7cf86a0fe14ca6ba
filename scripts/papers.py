# SPDX-License-Identifier: GPL-2.0
"""The papers' values, as data/papers/NAME.tsv holds them (the format is in
data/papers/README.md), and the records vcube's measuring scripts leave for
scripts/score.py. Used by score.py, the reproduction scripts and
tests/host/paper_data.sh."""
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
            else:
                die("%s: cannot read %r" % (where, r[0]))
            if k in ("cols", "val", "win", "num") and r[1] not in self.items:
                die("%s: item %r has no 'item' line" % (where, r[1]))


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
                 "paper_margin": str(pm), "vcube_margin": None}
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
    exactly the typed numbers, as printed. A win's quote must be in the seed.
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
