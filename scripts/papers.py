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
            elif k == "cmp" and len(r) >= 5:
                self.cmps.append((r[1], float(r[2]),
                                  [tuple(a.split("=", 1)) for a in r[3:]]))
            elif k == "win" and len(r) == 5:
                self.wins[(r[1], r[2])] = (r[3], r[4])
            else:
                die("%s: cannot read %r" % (where, r[0]))
            if k in ("cols", "val", "win") and r[1] not in self.items:
                die("%s: item %r has no 'item' line" % (where, r[1]))


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


def _cells(line):
    return [c.strip().replace("$", "").strip() for c in line.strip().strip("|").split("|")]


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
        hit = [i for i, l in enumerate(text) if _squash(l).startswith(cap)]
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
    for (item, cell), (w, quote) in sorted(paper.wins.items()):
        yield _squash(quote) in flat, "%s: %s, %s: %s wins: %r" % (
            paper.name, item, cell, w, quote)
