#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The papers' values in data/papers/*.tsv against the seed texts they were
# typed from (../shared/seeds), by scripts/papers.py's check_seed(): every
# caption, every row of numbers as printed, every quoted winner, claim and
# formula. Then the check itself: a value typed wrong, a quote the paper
# does not contain (a winner's, a claim's, a formula's).
# Skips (77) where the seeds are not beside the repository.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
seeds=${VCUBE_SEEDS:-$top/../shared/seeds}
[ -d "$seeds" ] || { echo "skip - no seeds at $seeds"; exit 77; }
exec python3 - "$top" "$seeds" <<'PY'
import glob, os, sys
top, seeds = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(top, "scripts"))
import papers
fail = 0
for path in sorted(glob.glob(os.path.join(top, "data/papers/*.tsv"))):
    p = papers.Paper(path)
    res = list(papers.check_seed(p, seeds))
    for ok, what in res:
        print("%s - %s" % ("ok" if ok else "not ok", what))
        fail |= not ok
    n = sum(len(v) for v in p.raw.values())
    print("%s - %s: %d items, %d rows of values, %d winners, %d claims, %d formulas" % (
        "ok" if p.items else "not ok", p.name, len(p.items), n, len(p.wins), len(p.claims),
        len(p.formulas)))

# The check must fail where the typing is wrong.
p = papers.load("thakur")
item, rows_ = next(iter(p.raw.items()))
label, vals = rows_[0]
rows_[0] = (label, vals[:-1] + ["9" + vals[-1]])
bad = [w for ok, w in papers.check_seed(p, seeds) if not ok]
print("%s - a mistyped value is caught (%s)" % ("ok" if len(bad) == 1 else "not ok",
                                                 bad[0] if bad else "nothing"))
fail |= len(bad) != 1
p.wins[("Table 2", "x")] = ("pex", "PEX is always the best algorithm on the Delta")
bad = [w for ok, w in papers.check_seed(p, seeds) if not ok]
print("%s - a quote the paper does not make is caught" % ("ok" if len(bad) == 2 else "not ok"))
fail |= len(bad) != 2
# a claim's quote and a formula's: one word changed, and they fail
p = papers.load("seidel")
part = dict(p.claims["s-gsync-5pct"][0])
part["quote"] = part["quote"].replace("less than 5%", "less than 50%")
p.claims["s-gsync-5pct"] = [part]
fl = dict(p.formulas[0])
fl["quote"] = fl["quote"].replace("db_s", "2db_s")
p.formulas = [fl]
bad = [w for ok, w in papers.check_seed(p, seeds) if not ok]
ok = len(bad) == 2 and "claim s-gsync-5pct" in bad[0] and "formula" in bad[1]
print("%s - a claim's or a formula's quote not in the seed is caught (%d)" % (
    "ok" if ok else "not ok", len(bad)))
fail |= not ok
sys.exit(fail)
PY
