#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The profiling interface in vcube-mpi's objects: each object copied to
OUTDIR with every MPI_ function it defines made weak and given a PMPI_
name (a global symbol at the same address), so that a tool may define
MPI_Send, count, and call PMPI_Send, the library's. objcopy does it; the
MPI_ names a call inside the library makes stay MPI_ (a tool sees those
too, as with many MPIs).

    pmpi-alias.py OUTDIR OBJ...
"""
import os
import re
import subprocess
import sys


def sections(obj):
    """Section index -> name, as readelf -SW lists them."""
    out = {}
    for line in subprocess.run(["readelf", "-SW", obj], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def functions(obj):
    """(name, section index, value) of each global MPI_ function defined."""
    out = []
    for line in subprocess.run(["readelf", "-sW", obj], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == "FUNC" and f[4] == "GLOBAL" and f[6].isdigit() \
                and re.match(r"MPI_[A-Z][a-z]", f[7]):
            out.append((f[7], f[6], int(f[1], 16)))
    return out


def main():
    outdir, objs = sys.argv[1], sys.argv[2:]
    os.makedirs(outdir, exist_ok=True)
    for obj in objs:
        secs = sections(obj)
        args = []
        for name, ndx, value in functions(obj):
            args += ["--weaken-symbol=" + name,
                     "--add-symbol=P%s=%s:0x%x,global,function" % (name, secs[ndx], value)]
        subprocess.run(["objcopy"] + args + [obj, os.path.join(outdir, os.path.basename(obj))],
                       check=True)


main()
