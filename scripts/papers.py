# SPDX-License-Identifier: GPL-2.0
"""The papers' values, as data/papers/NAME.tsv holds them (the format is in
data/papers/README.md), and the records vcube's measuring scripts leave for
scripts/score.py. Used by score.py, the reproduction scripts and
tests/host/paper_data.sh."""
import os
import re
import sys

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
        self.nums = []		# (id, label, value, quote): numbers in the text
        self.cmps = []		# (name, margin, [(alg, item)])
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
                self.raw.setdefault(r[1], []).append((r[2], r[3:]))
            elif k == "num" and len(r) == 5:
                self.vals[(r[1], r[2], "")] = float(r[3])
                self.nums.append((r[1], r[2], r[3], r[4]))
            elif k == "cmp" and len(r) >= 5:
                self.cmps.append((r[1], float(r[2]),
                                  [tuple(a.split("=", 1)) for a in r[3:]]))
            elif k == "win" and len(r) == 5:
                self.wins[(r[1], r[2])] = (r[3], r[4])
            else:
                die("%s: cannot read %r" % (where, r[0]))
            if k in ("cols", "val", "win", "num") and r[1] not in self.items:
                die("%s: item %r has no 'item' line" % (where, r[1]))


def table_winners(paper, vcube):
    """The winners the paper's own tables name (its cmp lines), beside
    vcube's: VCUBE maps (item, row, col) to vcube's value. A cell where the
    paper's best is not margin % below the next names no winner."""
    out = []
    for name, margin, algs in paper.cmps:
        sel = {a: _select(paper, spec) for a, spec in algs}
        cells = None
        for a, _ in algs:
            cells = set(sel[a]) if cells is None else cells & set(sel[a])
        for cell in sorted(cells or []):
            pv = sorted((paper.vals[sel[a][cell]], a) for a, _ in algs)
            if pv[1][0] < pv[0][0] * (1 + margin / 100.0):
                continue	# the paper names no winner here: a tie
            vv = [vcube.get(sel[a][cell]) for a, _ in algs]
            vw = None
            if all(v is not None for v in vv):
                vw = min(zip(vv, [a for a, _ in algs]))[1]
            out.append({"item": name, "cell": ", ".join(x for x in cell if x),
                        "paper": pv[0][1], "vcube": vw, "from": "table"})
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
