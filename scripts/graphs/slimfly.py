#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The Slim Fly of Besta & Hoefler (SC14) as GraphML, by networkx.

  /usr/bin/python3 scripts/graphs/slimfly.py [-q Q] [-p P] OUT.graphml

Builds the MMS graph of Hafner, McKay and Siran for a prime q = 4w + 1
(default 5): routers (0, x, y) and (1, m, c) for x, y, m, c in Z_q, with
  (0, x, y) ~ (0, x, y')  iff  y - y' in X,
  (1, m, c) ~ (1, m, c')  iff  c - c' in X',
  (0, x, y) ~ (1, m, c)   iff  y = m x + c,
where X holds the even powers of a primitive element xi of Z_q and X' the
odd ones. That is 2 q^2 routers of network radix k' = (3 q - 1) / 2 and
diameter 2: for q = 5, 50 routers of radix 7. Each router gets P endpoints
(default ceil(k' / 2), 4 for q = 5), and the graph is written as SST
Merlin's anytopo reads it: undirected, every vertex a router with an
integer "endpoints" attribute, its nodes numbered in vertex order.

What was built is checked (router count, every router's degree, the
diameter), so a wrong construction fails here, not in a simulation.
It needs Debian's python3-networkx (make deps), hence /usr/bin/python3.
"""
import argparse
import sys

import networkx as nx


def primitive_element(q):
    """The smallest generator of the multiplicative group of Z_q (q prime)."""
    for xi in range(2, q):
        if len({pow(xi, e, q) for e in range(q - 1)}) == q - 1:
            return xi
    raise ValueError(f"q={q}: no primitive element (q must be a prime)")


def mms(q):
    """The MMS graph for prime q = 1 mod 4, routers numbered 0 .. 2 q^2 - 1."""
    if q < 5 or q % 4 != 1 or any(q % d == 0 for d in range(2, q)):
        raise ValueError(f"q={q}: this construction takes a prime q = 4w + 1")
    xi = primitive_element(q)
    powers = [pow(xi, e, q) for e in range(q - 1)]
    x_even = set(powers[0::2])
    x_odd = set(powers[1::2])

    def r(s, a, b):
        return s * q * q + a * q + b

    g = nx.Graph()
    g.add_nodes_from(range(2 * q * q))
    for a in range(q):
        for b in range(q):
            for b2 in range(b + 1, q):
                if (b - b2) % q in x_even:
                    g.add_edge(r(0, a, b), r(0, a, b2))
                if (b - b2) % q in x_odd:
                    g.add_edge(r(1, a, b), r(1, a, b2))
    for x in range(q):
        for m in range(q):
            for c in range(q):
                g.add_edge(r(0, x, (m * x + c) % q), r(1, m, c))
    return g


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-q", type=int, default=5, help="the prime, 4w + 1 (default 5)")
    ap.add_argument("-p", type=int, default=0,
                    help="endpoints per router (default ceil(k'/2))")
    ap.add_argument("out", help="the GraphML file to write")
    a = ap.parse_args()
    q = a.q
    g = mms(q)
    radix = (3 * q - 1) // 2
    p = a.p or (radix + 1) // 2

    n = g.number_of_nodes()
    assert n == 2 * q * q, f"{n} routers, not {2 * q * q}"
    bad = sorted(v for v, d in g.degree() if d != radix)
    assert not bad, f"routers {bad[:8]} are not of degree {radix}"
    assert nx.is_connected(g), "not connected"
    diam = nx.diameter(g)
    assert diam == 2, f"diameter {diam}, not 2"

    nx.set_node_attributes(g, p, "endpoints")
    nx.write_graphml(g, a.out)
    print(f"slimfly q={q}: {n} routers of radix {radix}, "
          f"{g.number_of_edges()} links, diameter {diam}, "
          f"{p} endpoints each ({n * p} nodes) -> {a.out}")


if __name__ == "__main__":
    sys.exit(main())
