#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A complete exchange's contention on a mesh, step by step: the most
messages of a step on one channel of vcube's routes (vcube-sim --routes,
XY routing), beside the maximum contention Thakur, Choudhary & Fox 1993
give for that step:
  pex (sec. 3.1): f(i) = 2^ceil(lg max(i mod c, i / c)), "the exact
       expression", under the bound the same paragraph states, max(r, c)/2;
  gen (sec. 3.4): f(i) = min(i mod c, c - i mod c) + min(i / c, (p - i) / c).

usage: scripts/mesh-contention.py [ALGO [ROWS COLS [BYTES]]]
       (default pex 4 4 256)

PEX's step i pairs node n with n xor i, so a message's step is src xor
dst; GEN's sends n to n + i mod p, so its step is dst - src mod p. A
step's load is counted over its routes alone, whatever the timing.
Prints a Markdown table and the steps where f(i) exceeds the routes' load.
"""
import collections
import math
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    a = sys.argv[1:]
    if a and a[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    algo = a.pop(0) if a and a[0] in ("pex", "gen") else "pex"
    r, c = (int(a[0]), int(a[1])) if len(a) >= 2 else (4, 4)
    size = a[2] if len(a) >= 3 else "256"
    p = r * c
    with tempfile.TemporaryDirectory() as d:
        routes = os.path.join(d, "routes.txt")
        subprocess.run([os.path.join(TOP, "build/bin/vcube-sim"), "-q", "--profile", "delta",
                        "--topology", "mesh", "--rows", str(r), "--cols", str(c),
                        "--algo", algo, "--len", size, "--routes", routes],
                       check=True, stdout=subprocess.DEVNULL)
        load = collections.defaultdict(collections.Counter)
        for line in open(routes):
            m = re.match(r"\s*\d+\s+(\d+)\s+(\d+)\s.*? route (\S+) hops",
                         line)
            if m:
                s, d = int(m.group(1)), int(m.group(2))
                i = s ^ d if algo == "pex" else (d - s) % p
                for ch in m.group(3).split(","):
                    load[i][int(ch)] += 1
    print("| step i | most messages on a channel (vcube's XY routes) | the paper's f(i) |")
    print("|---|---|---|")
    over = []
    for i in sorted(load):
        if algo == "pex":
            q = max(i % c, i // c)
            f = 2 ** math.ceil(math.log2(q)) if q else 1
        else:
            f = min(i % c, c - i % c) + min(i // c, (p - i) // c)
        v = max(load[i].values())
        print("| %d | %d | %d |" % (i, v, f))
        if f > v:
            over.append(i)
    print()
    print("%s on the %dx%d mesh: the paper's f(i) exceeds the routes' load at %d of %d steps "
          "(%s)" % (algo.upper(), r, c, len(over), len(load), ", ".join(map(str, over)) or "none"),
          end="")
    if algo == "pex":
        print("; the bound the paper states, max(r, c)/2 = %d, holds at every step: %s."
              % (max(r, c) // 2, "yes" if all(max(v.values()) <= max(r, c) // 2
                                             for v in load.values()) else "no"))
    else:
        under = [i for i in sorted(load) if max(load[i].values()) >
                 min(i % c, c - i % c) + min(i // c, (p - i) // c)]
        print("; it falls short of it at %d." % len(under))
    return 0


if __name__ == "__main__":
    sys.exit(main())
