#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which files of a group call which, from their objects' symbols (nm),
and the circles among them.

  scripts/deps-graph.py [--dot] [--unit A.c=B.c]... OBJ...

An object A depends on an object B when A leaves undefined a symbol that B
defines. --unit A.c=B.c counts A as part of B (a generated file and the
one it was generated for). Prints one line per circle (a strongly connected set of two or
more files, with one cycle through them), and exits 1 if there is any.
--dot prints the graph for dot(1) instead.
"""
import subprocess
import sys


def symbols(obj):
    out = subprocess.run(["nm", "--defined-only", "-g", obj], capture_output=True,
                         text=True, check=True).stdout
    defined = {l.split()[-1] for l in out.splitlines() if len(l.split()) == 3}
    out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True,
                         check=True).stdout
    undef = {l.split()[-1] for l in out.splitlines() if l.strip()}
    return defined, undef


def name(obj):
    """build/asan/kernel/core/engine.o -> kernel/core/engine.c; an object
    named with its path's slashes as "__" (vcubectl__nl.o) is unfolded."""
    obj = obj.rsplit("/", 1)[-1].replace("__", "/") if "__" in obj else obj
    for root in ("kernel/", "userspace/", "tests/"):
        i = obj.find(root)
        if i >= 0:
            return obj[i:-2] + ".c"
    return obj[:-2] + ".c"


def graph(objs, units):
    owner, undef = {}, {}
    for o in objs:
        d, u = symbols(o)
        f = units.get(name(o), name(o))
        for s in d:
            owner[s] = f
        undef.setdefault(f, set()).update(u)
    edges = {f: sorted({owner[s] for s in u if s in owner and owner[s] != f})
             for f, u in undef.items()}
    return edges


def sccs(edges):
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


def cycle(edges, comp):
    """One cycle through comp's first file: the shortest way back to it."""
    start, inside = comp[0], set(comp)
    prev, todo = {start: None}, [start]
    while todo:
        v = todo.pop(0)
        for w in edges[v]:
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w in inside and w not in prev:
                prev[w] = v
                todo.append(w)
    return comp


def main(argv):
    dot, units, objs = False, {}, []
    it = iter(argv)
    for a in it:
        if a == "--dot":
            dot = True
        elif a == "--unit":
            part, whole = next(it).split("=")
            units[part] = whole
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            objs.append(a)
    if not objs:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    edges = graph(objs, units)
    if dot:
        print("digraph deps {")
        for f, ws in sorted(edges.items()):
            for w in ws:
                print(f'\t"{f}" -> "{w}";')
        print("}")
        return 0
    circles = sccs(edges)
    for c in circles:
        print("circle: " + " -> ".join(cycle(edges, c)) +
              (f"  ({len(c)} files: {' '.join(c)})" if len(c) > 2 else ""))
    return 1 if circles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
