#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""MPICH's own test suite (test/mpi of MPICH 4.0.2, scripts/mpich-tests.sh
takes it from Debian's archive) built with vcube-mpicc and with Open MPI's
mpicc by MPICH's own Makefiles, run under Open MPI on the host and under
vcube-mpi on modelled networks in the guest; the pass rates side by side.

    mpi-conformance.py [--out DIR] [--subset FILE] list
    mpi-conformance.py [--out DIR] build [vcube|ompi]
    mpi-conformance.py [--out DIR] ompi
    mpi-conformance.py [--out DIR] vcube NET PARAMS...   (in the guest)
    mpi-conformance.py [--out DIR] report                (Markdown)

The directories: pt2pt, coll, comm, group, datatype, topo, attr, errhan,
init (one-sided, I/O, spawn, threads and the MPI-4 ones are not run). The
rules, set before any result and the same for both MPIs:
- a test is each line of a directory's testlist (its name, ranks, `arg=`
  and `env=`); a line MPICH itself marks `xfail=`, `strict=false` (not
  strictly MPI), `mpiversion=` above 3.1 (both implement MPI 3.1) or with
  a `resultTest=` of its own harness is left out, and said so;
- it passes when it builds, exits 0 within its `timeLimit=` (180 s if none,
  in the guest too: its tests take seconds there) and prints MPICH's
  "No Errors", as MPICH's runtests decides;
- both builds put tests/mpi/mpich-shim.h first: MPICH's datatype pools call
  MPI-1's MPI_Type_hvector and MPI_Type_hindexed, removed in MPI-3.0.
DIR (default build/mpi-conformance) holds list.tsv, the builds and one
results file per MPI and network (TSV: dir, test, ranks, args, result,
seconds, first line of the failure); in the guest, results go to
$VCUBE_OUT, from which make mpi-conformance takes them.
"""
import os
import shlex
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIRS = ("pt2pt", "coll", "comm", "group", "datatype", "topo", "attr", "errhan", "init")
SHIM = os.path.join(TOP, "tests/mpi/mpich-shim.h")
VCUBE_CC = os.path.join(TOP, "build/bin/vcube-mpicc")
OMPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
            "OMPI_MCA_btl": "self,vader", "OMPI_MCA_btl_vader_single_copy_mechanism": "none",
            "OMPI_MCA_rmaps_base_oversubscribe": "1", "OMPI_MCA_plm_rsh_agent": "false"}
ME = "mpi-conformance"


def die(msg):
    sys.exit("%s: %s" % (ME, msg))


def progress(msg):
    print("%s: %s, at %s" % (ME, msg, time.strftime("%H:%M:%S")), file=sys.stderr, flush=True)


def src_dir():
    out = subprocess.run([os.path.join(TOP, "scripts/mpich-tests.sh")], check=True,
                         capture_output=True, text=True)
    return out.stdout.strip()


def parse_line(d, line):
    """(test, excluded-why) of a testlist line: test = (dir, name, ranks,
    args, env, limit)."""
    w = line.split()
    name, np_ = w[0], int(w[1])
    args, env, limit, why = [], [], 180, None
    for x in w[2:]:
        if "=" not in x:
            continue
        k, v = x.split("=", 1)
        if k == "arg":
            args.append(v)
        elif k == "env":
            env.append(v)
        elif k == "timeLimit":
            limit = int(v)
        elif k == "xfail":
            why = "xfail (MPICH expects it to fail: %s)" % v
        elif k == "strict" and v.lower() == "false":
            why = "strict=false (not strictly MPI)"
        elif k == "mpiversion" and float(v) > 3.1:
            why = "mpiversion=%s (both implement MPI 3.1)" % v
        elif k == "resultTest":
            why = "resultTest=%s (MPICH's harness judges it)" % v
    return (d, name, np_, " ".join(args), " ".join(env), limit), why


def cmd_list(out, subset):
    src = src_dir()
    keep = None
    if subset:
        keep = {tuple(x.split()[:2]) for x in open(subset) if x.strip() and not x.startswith("#")}
    tests, excl = [], []
    for d in DIRS:
        for line in open(os.path.join(src, d, "testlist")):
            line = line.strip()
            if not line or line.startswith("#") or len(line.split()) < 2:
                continue
            t, why = parse_line(d, line)
            if keep is not None and (d, t[1]) not in keep:
                continue
            (excl if why else tests).append(t + ((why,) if why else ()))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "list.tsv"), "w") as f:
        for t in tests:
            f.write("\t".join(str(x) for x in t) + "\n")
    with open(os.path.join(out, "excluded.tsv"), "w") as f:
        for t in excl:
            f.write("%s\t%s\t%d\t%s\n" % (t[0], t[1], t[2], t[6]))
    progress("%d tests, %d left out" % (len(tests), len(excl)))


def load_list(out):
    tests = []
    for line in open(os.path.join(out, "list.tsv")):
        d, name, np_, args, env, limit = line.rstrip("\n").split("\t")
        tests.append((d, name, int(np_), args, env, int(limit)))
    return tests


def cmd_build(out, only=None):
    """Each test, by MPICH's Makefile, in a copy of the configured suite
    per compiler: build-{vcube,ompi}.tsv (dir, test, ok or the error)."""
    src = src_dir()
    tests = load_list(out)
    names = sorted({(t[0], t[1]) for t in tests})
    for mpi, cc in (("vcube", VCUBE_CC), ("ompi", "mpicc")):
        if only and mpi != only:
            continue
        tree = os.path.join(out, mpi)
        if not os.path.isdir(tree):
            # the suite's top, its helpers and the directories listed
            keep = {d for d, _ in names} | {"util", "include", "dtpools", "confdb"}
            shutil.copytree(src, tree, symlinks=True, ignore=lambda d, ns: [
                n for n in ns if d == src and n not in keep and
                os.path.isdir(os.path.join(src, n))])
        res = []
        for i, (d, name) in enumerate(names):
            r = subprocess.run(["make", "-s", "-C", os.path.join(tree, d), name, "CC=" + cc,
                                "CPPFLAGS=-include " + SHIM],
                               capture_output=True, text=True)
            ok = r.returncode == 0 and os.path.exists(os.path.join(tree, d, name))
            err = "" if ok else first_error(r.stdout + r.stderr)
            res.append((d, name, "ok" if ok else err))
            if (i + 1) % 50 == 0:
                progress("%s: built %d of %d" % (mpi, i + 1, len(names)))
        with open(os.path.join(out, "build-%s.tsv" % mpi), "w") as f:
            for x in res:
                f.write("\t".join(x) + "\n")
        progress("%s: %d of %d built" % (mpi, sum(x[2] == "ok" for x in res), len(res)))


def first_error(text):
    for line in text.splitlines():
        if "error" in line or "undefined reference" in line:
            return " ".join(line.split())[:200]
    return " ".join(text.split())[:200] or "no binary"


def built(out, mpi):
    return {(d, n) for d, n, r in (x.rstrip("\n").split("\t") for x in
                                   open(os.path.join(out, "build-%s.tsv" % mpi))) if r == "ok"}


def run_all(out, mpi, label, launch, scale, dest=None):
    """Every test of list.tsv that built for MPI: results-LABEL.tsv in DEST
    (default OUT)."""
    tests = load_list(out)
    ok_built = built(out, mpi)
    rows = []
    # each result as it comes, so a run stopped midway keeps what it ran
    part = open(os.path.join(dest or out, "results-%s.tsv.part" % label), "w")
    for i, (d, name, np_, args, env, limit) in enumerate(tests):
        if (d, name) not in ok_built:
            rows.append((d, name, np_, args, "nobuild", 0, ""))
            continue
        exe = os.path.join(out, mpi, d, name)
        e = dict(os.environ)
        e.update(x.split("=", 1) for x in env.split())
        t0 = time.time()
        try:
            r = subprocess.run(launch(np_) + [exe] + shlex.split(args), env=e,
                               cwd=os.path.join(out, mpi, d), capture_output=True,
                               text=True, errors="replace", timeout=limit * scale)
            text = r.stdout + r.stderr
            good = r.returncode == 0 and any(x.strip() == "No Errors" for x in r.stdout.splitlines())
            why = "" if good else "exit %d: %s" % (r.returncode, last_line(text))
            res = "pass" if good else "fail"
        except subprocess.TimeoutExpired:
            res, why = "timeout", "past %d s" % (limit * scale)
        rows.append((d, name, np_, args, res, round(time.time() - t0, 1), why))
        part.write("\t".join(str(y) for y in rows[-1]) + "\n")
        part.flush()
        if res != "pass":
            progress("%s: %s/%s %s: %s" % (label, d, name, res, why[:100]))
        if (i + 1) % 25 == 0:
            progress("%s: ran %d of %d" % (label, i + 1, len(tests)))
    part.close()
    os.unlink(part.name)
    with open(os.path.join(dest or out, "results-%s.tsv" % label), "w") as f:
        for x in rows:
            f.write("\t".join(str(y) for y in x) + "\n")
    progress("%s: %d of %d pass" % (label, sum(x[4] == "pass" for x in rows), len(rows)))


def last_line(text):
    lines = [x for x in text.splitlines() if x.strip() and not x.startswith("---")]
    return " ".join(lines[-1].split())[:200] if lines else ""


def cmd_ompi(out):
    os.environ.update(OMPI_ENV)
    run_all(out, "ompi", "ompi", lambda n: ["mpirun", "--oversubscribe", "-n", str(n)], 1)


def cmd_vcube(out, net, params):
    """In the guest: the network loaded once, every test on it."""
    ko = os.environ.get("VCUBE_KO")
    if not ko:
        die("vcube: run in the guest (scripts/vm-run.sh), where VCUBE_KO is the module")
    subprocess.run(["rmmod", "vcube"], capture_output=True)
    r = subprocess.run(["insmod", ko] + params, capture_output=True, text=True)
    if r.returncode:
        die("insmod %s: %s" % (" ".join(params), r.stderr.strip()))
    # the guest writes only to VCUBE_OUT (the host's tree is read-only there)
    run_all(out, "vcube", "vcube-" + net, lambda n: ["vcube-run", "-n", str(n)], 1,
            os.environ.get("VCUBE_OUT"))


def main():
    a = sys.argv[1:]
    out = os.path.join(TOP, "build/mpi-conformance")
    subset = None
    while a and a[0].startswith("--"):
        if a[0] == "--out":
            out = a[1]
        elif a[0] == "--subset":
            subset = a[1]
        elif a[0] in ("-h", "--help"):
            print(__doc__)
            return
        else:
            die("unknown option %s" % a[0])
        a = a[2:]
    out = os.path.abspath(out)	# the tests run in their own directories
    if not a:
        die("what: list, build, ompi, vcube NET PARAMS..., report (--help)")
    if a[0] == "list":
        cmd_list(out, subset)
    elif a[0] == "build":
        cmd_build(out, a[1] if len(a) > 1 else None)
    elif a[0] == "ompi":
        cmd_ompi(out)
    elif a[0] == "vcube" and len(a) >= 3:
        cmd_vcube(out, a[1], a[2:])
    elif a[0] == "report":
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "report", os.path.join(TOP, "scripts/mpi-conformance-report.py"))
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        m.report(out, DIRS)
    else:
        die("unknown command %s" % a[0])


if __name__ == "__main__":
    main()
