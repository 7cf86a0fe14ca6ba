#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Draw a vcubectl Perfetto export as Perfetto lays it out, for the docs.

    scripts/perfetto-picture.py TRACE.json OUT.svg|OUT.png [--nodes N] [--ms W] [--phase NAME]

Perfetto's UI (ui.perfetto.dev) needs a browser; a page of documentation
needs a picture. This reads the file `vcubectl trace --format perfetto`
wrote and draws what the UI shows of it, from the file alone: the
"phases", "nodes" and "links" processes as groups of tracks, one row per
track (a node's or link's lanes each a row), each slice a box with its
name where it fits, each message's flow an arrow from its send to its
receipt. It shows nodes 0..N-1 (default 8), the links their messages held
in the window, and W ms (default 12) from the first mark named PHASE
(default: the first mark of "<algo> step 1" that is not a barrier's, or
the trace's start). gnuplot draws it (SVG, or PNG to look at).
"""
import json
import os
import subprocess
import sys
import tempfile

WAIT = {  # the colours of vcube's time-space diagrams (common/timeline.c)
    "nosend": "#dddddd", "transit": "#cfd8e3", "chan": "#f4a261",
    "port": "#c39bd3", "duplex": "#c39bd3", "recv": "#f6d860",
}
BUSY = "#9a9a9a"


def usage():
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    sys.exit(2)


def colour(pid, e):
    if pid == 3:
        return None  # phases: alternate
    if pid == 1:
        return "#b0302a" if e["args"].get("kind") == "data" else "#808080"
    n = e["name"]
    if n.startswith("send to"):
        return "#2b6cb0"
    if n.startswith("receive from"):
        return "#2f9e44"
    return WAIT.get(e["args"].get("cause"), BUSY)


def main(argv):
    args, opts = [], {"--nodes": "8", "--ms": "12", "--phase": ""}
    it = iter(argv)
    for a in it:
        if a in opts:
            opts[a] = next(it, None) or usage()
        elif a.startswith("-"):
            usage()
        else:
            args.append(a)
    if len(args) != 2 or not args[1].endswith((".svg", ".png")):
        usage()
    nodes, width = int(opts["--nodes"]), float(opts["--ms"]) * 1000
    d = json.load(open(args[0]))
    ev = d["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "thread_name"}
    # the window: from the first mark of the phase asked for
    marks = sorted((e["ts"], e["name"]) for e in ev
                   if e["ph"] == "X" and e["pid"] == 3)
    want = opts["--phase"]
    t0 = next((t for t, n in marks if (n == want if want else
               n.endswith(" step 1") and not n.startswith("dissemination"))),
              min((e["ts"] for e in ev if e["ph"] == "X"), default=0.0))
    t1 = t0 + width

    def node_of(pid, tid):
        return tid if pid == 3 else tid // 64

    def inside(e):
        return e["ts"] < t1 and e["ts"] + e["dur"] > t0

    xs = [e for e in ev if e["ph"] == "X" and inside(e)]
    # the links the shown nodes' messages held in the window
    shown = set()
    for e in xs:
        if e["pid"] == 1 and e["args"].get("src", nodes) < nodes:
            shown.add(e["tid"])
    rows = []   # (pid, tid), top to bottom
    for pid in (3, 2):
        for tid in sorted({e["tid"] for e in xs if e["pid"] == pid}):
            if node_of(pid, tid) < nodes:
                rows.append((pid, tid))
    # links in id order, at most 16 of them, the busiest in the window
    busy = sorted(shown, key=lambda t: -sum(1 for e in xs
                                             if e["pid"] == 1 and e["tid"] == t))
    rows += [(1, t) for t in sorted(busy[:16])]
    row = {k: i for i, k in enumerate(rows)}
    group = {3: "phases", 2: "nodes", 1: "links"}

    tmp = tempfile.mkdtemp()
    data = os.path.join(tmp, "d")
    gp = []
    with open(data, "w") as f:
        for e in xs:
            k = (e["pid"], e["tid"])
            if k not in row:
                continue
            a, b = max(e["ts"], t0) - t0, min(e["ts"] + e["dur"], t1) - t0
            c = colour(e["pid"], e) or ("#e4dcf6" if row[k] % 2 else "#d6e9f7")
            f.write("%.3f %d %.3f %.3f %s\n" % ((a + b) / 2000, row[k],
                                                 a / 1000, max(b, a + 0.4) / 1000,
                                                 "0x" + c[1:]))
            # a name where the box is wide enough for it (about 6 px a
            # character at 1100 px for the window)
            if (b - a) / width * 980 > 6.2 * len(e["name"]) + 6:
                gp.append("set label \"%s\" at %.3f,%d center front font ',8'" %
                          (e["name"].replace('"', "'"), (a + b) / 2000, row[k]))
        f.write("\n\n")
        # flows: from the send's start to the receipt, both rows shown
        flow = {}
        for e in ev:
            if e["ph"] in "sf" and e["pid"] == 2:
                flow.setdefault(e["id"], {})[e["ph"]] = (e["ts"], (2, e["tid"]))
        for fl in flow.values():
            if "s" not in fl or "f" not in fl:
                continue
            (ts, ks), (tf, kf) = fl["s"], fl["f"]
            if ks in row and kf in row and t0 <= ts and tf <= t1:
                f.write("%.3f %d %.3f %d\n" % ((ts - t0) / 1000, row[ks],
                                                (tf - ts) / 1000,
                                                row[kf] - row[ks]))
    n = len(rows)
    ytics = ", ".join("\"%s\" %d" % (names.get(k, "").replace('"', "'"), i)
                      for i, k in enumerate(rows))
    first = {}
    for i, (pid, _) in enumerate(rows):
        first.setdefault(pid, i)
    for pid, i in first.items():
        gp.append("set label \"%s\" at screen 0.004, first %f left font ',10,bold' textcolor rgb '#444444'" %
                  (group[pid], i - 0.9))
        if i:
            gp.append("set arrow from graph 0, first %f to graph 1, first %f nohead lc rgb '#888888' lw 1" %
                      (i - 0.5, i - 0.5))
    script = "\n".join([
        ("set terminal svg size 1100,%d dynamic noenhanced font 'sans,9'"
         if args[1].endswith(".svg") else
         "set terminal pngcairo size 1100,%d noenhanced font 'sans,9'") % (90 + 15 * n),
        "set output '%s'" % args[1],
        "set title \"vcubectl trace --format perfetto, laid out as Perfetto shows it: %s %s, %s; nodes 0-%d, the links they used, %.0f ms\"" %
        (d["otherData"]["topology"], d["otherData"]["shape"],
         d["otherData"]["profile"], nodes - 1, width / 1000),
        "set xlabel \"virtual time from the window's start (ms)\"",
        "set yrange [%f:-1.2]" % (n - 0.5),
        "set xrange [0:%f]" % (width / 1000),
        "set ytics (%s) font ',8'" % ytics,
        "set lmargin 26",
        "set grid xtics lc rgb '#eeeeee'",
        "unset key",
        "set style fill solid 1.0 border lc rgb '#ffffff'",
    ] + gp + [
        "plot '%s' index 0 using 1:2:3:4:($2-0.42):($2+0.42):5 with boxxyerror lc rgb variable, \\" % data,
        " '' index 1 using 1:2:3:4 with vectors head size 0.08,20 filled lw 0.6 lc rgb '#60b0302a'",
    ]) + "\n"
    r = subprocess.run(["gnuplot"], input=script.encode(), capture_output=True)
    os.unlink(data)
    os.rmdir(tmp)
    if r.returncode:
        sys.stderr.write(r.stderr.decode())
        return 1
    print("perfetto-picture: %d tracks, %.0f ms, into %s" % (n, width / 1000, args[1]),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
