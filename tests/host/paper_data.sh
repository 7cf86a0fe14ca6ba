#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The papers' values in data/papers/*.tsv against the seed texts they were
# typed from (../shared/seeds): every row's label must open a row of a
# table in the seed whose numbers are exactly the file's, in order.
# Skips (77) where the seeds are not beside the repository.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
seeds=${VCUBE_SEEDS:-$top/../shared/seeds}
[ -d "$seeds" ] || { echo "skip - no seeds at $seeds"; exit 77; }
exec python3 - "$top" "$seeds" <<'PY'
import re, sys, os
top, seeds = sys.argv[1], sys.argv[2]
files = {"ponnusamy.tsv": "001_b4626ced3da37962.txt"}
num = re.compile(r"-?\d+(?:\.\d+)?")
fail = 0
for data, seed in files.items():
    text = open(os.path.join(seeds, seed)).read().splitlines()
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(top, "data/papers", data))
            if l.strip() and not l.startswith("#") and not l.startswith("table\t")]
    for r in rows:
        table, label, vals = r[0], r[1], r[2:]
        hits = [l for l in text if l.startswith("|") and
                re.search(r"\|\s*(I\s*\|\s*)?" + re.escape(label) + r"\s*\|", l)]
        got = [num.findall(l.split(label, 1)[1]) for l in hits]
        ok = any(g == vals for g in got)
        print("%s - %s: Table %s, %s: %s" % ("ok" if ok else "not ok", data, table,
              label, " ".join(vals) if ok else "seed has %s" % got))
        fail |= not ok
    # and a label typed wrong would find no row at all: count them
    print("ok - %s: %d rows" % (data, len(rows)) if rows else "not ok - %s: no rows" % data)
sys.exit(fail)
PY
