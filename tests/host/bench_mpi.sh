#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-bench over MPI (--transport mpi) with Debian's Open MPI on this
# host, oversubscribed: every registered plan that runs at 16 and at 5
# ranks, every byte checked, beside Open MPI's own MPI_Alltoall (and the
# algorithm its tuned component picks); the collectives; --costs writing a
# profile that vcube-sim and --predict take; and the bad cases, each a
# clear error and a non-zero exit on every rank, never a hang.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench=$top/build/bin/vcube-bench
sim=$top/build/bin/vcube-sim
[ -x "$top/build/libexec/vcube/vcube-bench-mpi" ] || { no "no vcube-bench-mpi: run make"; exit 1; }
command -v mpirun > /dev/null || { no "Open MPI's mpirun is missing: make deps"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_plm_rsh_agent=false
run() { timeout 300 mpirun --oversubscribe "$@"; }

# The complete exchanges the registry runs at $1 ranks without a grid.
expected() {
	"$bench" list --json | python3 -c '
import json, sys
p = int(sys.argv[1])
for line in sys.stdin:
    a = json.loads(line.rstrip(",\n[]") or "{}") if line.strip() not in "[]" else {}
    if a.get("kind") != "xchg" or "grid" in a.get("needs", []):
        continue
    if ("pow2" in a.get("needs", []) or "power of two" in str(a.get("needs"))) and p & (p - 1):
        continue
    print(a["name"])' "$1"
}

# --- the issue's command, as written, at 16 and at 5 ranks -----------------
for n in 16 5; do
	if run -n $n "$bench" exchange --transport mpi --algo all --sizes 1..4096 -q > "$tmp/t$n" 2> "$tmp/e$n"; then
		ok "mpirun -n $n vcube-bench exchange --transport mpi --algo all --sizes 1..4096: exit 0"
	else
		no "mpirun -n $n --algo all: exit $? ($(tail -3 "$tmp/e$n"))"
	fi
	rows=$(grep -cE '^[A-Za-z_]+ +[0-9]+ ' "$tmp/t$n")
	bad=$(awk '/^[A-Za-z_]+ +[0-9]+ / && $6 != "ok"' "$tmp/t$n" | head -3)
	[ -z "$bad" ] && [ "$rows" -gt 0 ] && ok "$n ranks: all $rows points delivered every byte intact" ||
		no "$n ranks: wrong data or no rows: $bad"
	want=$(expected $n | sort | tr '\n' ' ')
	got=$(awk '/^[A-Za-z_]+ +[0-9]+ / && $1 != "MPI_Alltoall" { print $1 }' "$tmp/t$n" | sort -u | tr '\n' ' ')
	[ -n "$want" ] && [ "$want" = "$got" ] && ok "$n ranks: every registered exchange that runs there ran ($got)" ||
		no "$n ranks: ran '$got', the registry says '$want'"
	na=$(awk '$1 == "MPI_Alltoall"' "$tmp/t$n" | wc -l)
	[ "$na" = 13 ] && ok "$n ranks: Open MPI's own MPI_Alltoall at every size" || no "$n ranks: $na MPI_Alltoall rows"
	grep -qF '# MPI (Open MPI v4.1' "$tmp/t$n" && grep -q 'real time (CLOCK_MONOTONIC)' "$tmp/t$n" &&
		ok "$n ranks: the table says what ran and that its times are real" || no "$n ranks: notes: $(head -3 "$tmp/t$n")"
done
# Open MPI 4.1's fixed rule at 16 ranks: linear_sync below 4 bytes, modified
# Bruck to 511, linear_sync to 8191 (coll_tuned_decision_fixed.c)
chosen=$(awk '$1 == "MPI_Alltoall" { printf "%s:%s ", $2, $7 }' "$tmp/t16")
[ "$chosen" = "1:linear_sync 2:linear_sync 4:modified_bruck 8:modified_bruck 16:modified_bruck 32:modified_bruck 64:modified_bruck 128:modified_bruck 256:modified_bruck 512:linear_sync 1024:linear_sync 2048:linear_sync 4096:linear_sync " ] &&
	ok "16 ranks: the algorithm Open MPI's tuned picks is named per size" || no "16 ranks: chosen: $chosen"
OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_alltoall_algorithm=2 \
	run -n 4 "$bench" exchange --transport mpi --algo MPI_Alltoall --sizes 64 -q > "$tmp/forced" 2>&1
grep -qE '^MPI_Alltoall +64 .* ok pairwise' "$tmp/forced" && ok "a forced algorithm is named (pairwise)" ||
	no "forced: $(tail -2 "$tmp/forced")"

# --- JSON and CSV ----------------------------------------------------------
run -n 4 "$bench" exchange --transport mpi --algo gen,MPI_Alltoall --sizes 8,256 -q -j > "$tmp/j" 2> "$tmp/je"
python3 - "$tmp/j" <<'EOF' && ok "-j: valid JSON, real-time facts, every point ok, the native row named" || no "-j: $(head -c 300 "$tmp/j")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["network"]["topology"] == "mpi" and d["procs"] == 4 and d["warmup"] == 1
r = d["results"]
assert len(r) == 4 and all(x["ok"] for x in r), r
assert [x["mpi_algo"] for x in r if x["algo"] == "MPI_Alltoall"] == ["linear_sync", "linear_sync"], r
assert all(x["min"] <= x["avg"] <= x["max"] for x in r)
EOF

# --- the collectives, beside MPI_Allreduce and MPI_Bcast --------------------
run -n 6 "$bench" reduce --transport mpi --sizes 8,4096 -q > "$tmp/r" 2>&1 &&
	grep -q '^MPI_Allreduce' "$tmp/r" && ! awk '/^[A-Za-z_]+ +[0-9]+ / && $6 != "ok"' "$tmp/r" | grep -q . &&
	ok "--reduce at 6 ranks: every sum right, MPI_Allreduce beside" || no "--reduce: $(tail -3 "$tmp/r")"
run -n 6 "$bench" bcast --transport mpi --sizes 1,4096 -q > "$tmp/b" 2>&1 &&
	grep -q '^MPI_Bcast' "$tmp/b" && ! awk '/^[A-Za-z_]+ +[0-9]+ / && $6 != "ok"' "$tmp/b" | grep -q . &&
	ok "--bcast at 6 ranks: every byte right, MPI_Bcast beside" || no "--bcast: $(tail -3 "$tmp/b")"

# --- the barriers beside MPI_Barrier, irregular patterns, FFTs --------------
run -n 4 "$bench" barrier --transport mpi --algo all --skew 0,50000 --reps 3 -q > "$tmp/bar" 2>&1
got=$(awk '$2 ~ /^[0-9.]+$/ && NF == 8 { print $1 }' "$tmp/bar" | sort -u | tr '\n' ' ')
[ "$got" = "MPI_Barrier dissemination gsync rds sync0 tree " ] &&
	grep -q "MPI_Barrier: Open MPI's tuned picks linear at 4 ranks" "$tmp/bar" &&
	ok "--barrier all at 4 ranks: the registry's barriers and MPI_Barrier (tuned: linear)" ||
	no "--barrier: $got $(tail -3 "$tmp/bar")"
late=$(awk '$1 == "tree" && $2 == "50.0" { print ($3 >= 50) }' "$tmp/bar")
[ "$late" = 1 ] && ok "--barrier: a rank 50 us late makes the barrier cost at least 50 us" || no "--barrier skew: $(grep '^tree' "$tmp/bar")"
run -n 5 "$bench" irregular --transport mpi --density 0.5 --sizes 64,1024 -q > "$tmp/irr" 2>&1 &&
	[ "$(awk '/^[a-z]+ +[0-9]+ / && $6 == "ok"' "$tmp/irr" | wc -l)" = 8 ] &&
	ok "--density 0.5 at 5 ranks: the four schedulers, every byte right" || no "--density: $(tail -3 "$tmp/irr")"
run -n 4 "$bench" fft --transport mpi --sizes 16,64 --algo pex,gen -q > "$tmp/fft" 2>&1 &&
	[ "$(awk '/^[a-z]+ +[0-9]+ / && $6 == "ok"' "$tmp/fft" | wc -l)" = 4 ] &&
	ok "--fft at 4 ranks: every transform right" || no "--fft: $(tail -3 "$tmp/fft")"

# --- --costs: the generic profile, and --predict with it -------------------
if run -n 2 "$bench" costs --transport mpi --sizes 1..4096 --reps 5 > "$tmp/p.profile" 2> "$tmp/pe"; then
	ok "--costs over MPI: exit 0"
else
	no "--costs: $(cat "$tmp/pe")"
fi
grep -qE '^alpha_ps=[0-9]+$' "$tmp/p.profile" && grep -qE '^byte_ps=[0-9]+$' "$tmp/p.profile" &&
	[ "$(grep -c ' fit$' "$tmp/p.profile")" = 7 ] && grep -q 'worst error on the predicted sizes' "$tmp/p.profile" &&
	ok "--costs: alpha and beta fitted on 7 named sizes, the others' errors given" ||
	no "--costs wrote: $(cat "$tmp/p.profile")"
"$sim" --profile "$tmp/p.profile" --procs 16 --algo gen --len 64 --ns -q > /dev/null &&
	ok "vcube-sim takes the profile --costs wrote" || no "vcube-sim refuses $tmp/p.profile"
# a generic machine's times in ps: 7 steps of alpha at 8 ranks; one step of
# alpha + 4096 beta at 2 (one pair: no sharing)
printf 'base=generic\ntopology=fattree\nalpha_ps=1500123\nbyte_ps=250\ncopy_ps=0\n' > "$tmp/g.profile"
t1=$("$sim" --profile "$tmp/g.profile" --procs 8 --algo pex --len 0 --ns -q | awk '{ print $5 }')
t2=$("$sim" --profile "$tmp/g.profile" --procs 2 --algo pex --len 4096 --ns -q | awk '{ print $5 }')
[ "$t1" = 10501 ] && [ "$t2" = 2524 ] &&
	ok "vcube-sim on a generic profile: 7 alpha = 10501 ns at 8 ranks, alpha + 4096 beta = 2524 ns at 2 (ps rounded once)" ||
	no "vcube-sim on a generic profile: $t1 and $t2 ns, want 10501 and 2524"
run -n 4 "$bench" exchange --transport mpi --algo pex,MPI_Alltoall --sizes 1,1024 --predict "$tmp/p.profile" -q --csv > "$tmp/pc" 2>&1
python3 - "$tmp/pc" <<'EOF' && ok "--predict FILE: predicted and ratio beside every plan's point, the native row by its nearest plan" || no "--predict: $(cat "$tmp/pc")"
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
assert len(rows) == 4, rows
for r in rows:
    assert float(r["predicted_ns"]) > 0 and abs(float(r["ratio"]) - int(r["min_ns"]) / float(r["predicted_ns"])) < 1e-3 * float(r["ratio"]) + 1e-4, r
EOF
run -n 8 "$bench" exchange --transport mpi --algo pex --sizes 64 --predict ipsc860 -q > "$tmp/pn" 2>&1
p=$(awk '$1 == "pex" { print $8 }' "$tmp/pn")
s=$("$sim" --profile ipsc860 --dim 3 --algo pex --len 64 --ns -q | awk '{ printf "%.1f", $5 / 1000 }')
[ -n "$p" ] && [ "$p" = "$s" ] && ok "--predict ipsc860 at 8 ranks: vcube-sim on a 3-cube ($p us)" || no "--predict ipsc860: $p, vcube-sim $s"
# a network in the module's words: the same as vcube-sim's on them; a
# network of another size than the ranks, refused by vcube-sim's reason
ring=$top/examples/booksim-ring.anynet
run -n 16 "$bench" exchange --transport mpi --algo pex --sizes 64 --predict "topology=graph file=$ring" -q > "$tmp/pw" 2>&1
p=$(awk '$1 == "pex" { print $8 }' "$tmp/pw")
s=$("$sim" --algo pex --len 64 --ns -q file="$ring" | awk '{ printf "%.1f", $5 / 1000 }')
[ -n "$p" ] && [ "$p" = "$s" ] && ok "--predict 'topology=graph file=...' at 16 ranks: vcube-sim on the file's graph, cm5's costs ($p us)" || no "--predict words: $p, vcube-sim $s: $(tail -n 3 "$tmp/pw")"
run -n 8 "$bench" exchange --transport mpi --algo pex --sizes 64 --predict "topology=torus dims=4,4 profile=ap1000" -q > "$tmp/pw8" 2>&1
rc=$?
[ $rc != 0 ] && grep -q 'vcube-sim: --procs 8: the network has 16 nodes' "$tmp/pw8" &&
	ok "--predict words of a 16-node torus at 8 ranks: refused, saying so (exit $rc)" ||
	no "--predict words at the wrong size: exit $rc: $(tail -n 3 "$tmp/pw8")"

# --- the README's lines, as written, from the top of a tree ---------------
ln -s "$top/build" "$tmp/build"
lines=$("$top/scripts/doc-cmds.py" get "$top/README.md" cluster-commands)
[ "$(printf '%s\n' "$lines" | grep -c '^mpirun')" = 2 ] && ok "README: two cluster commands" || no "README: cluster commands: $lines"
while IFS= read -r line; do
	[ -n "$line" ] || continue
	if (cd "$tmp" && timeout 300 bash -c "$line" < /dev/null > "$tmp/readme.out" 2> "$tmp/readme.err"); then
		ok "README: $line"
	else
		no "README: $line: $(tail -3 "$tmp/readme.err")"
	fi
done <<< "$lines"
grep -q '^MPI_Alltoall .* linear_sync ' "$tmp/readme.out" && ! awk '/^[A-Za-z_]+ +[0-9]+ / && $6 != "ok"' "$tmp/readme.out" | grep -q . &&
	awk '/^gen +4096 / { exit !($8 > 0 && $9 > 0) }' "$tmp/readme.out" &&
	ok "README: its table has Open MPI's alltoall, every byte ok, predicted and ratio" ||
	no "README's run: $(head -8 "$tmp/readme.out")"

# --- bad cases: a clear error, exit non-zero, no hang -----------------------
bad() {
	local name=$1 want=$2; shift 2
	run "$@" > "$tmp/o" 2> "$tmp/e"; local rc=$?
	[ $rc != 0 ] && [ $rc != 124 ] && grep -qF -- "$want" "$tmp/e" && ok "$name: exit $rc, '$want'" ||
		no "$name: exit $rc, stderr: $(head -3 "$tmp/e")"
}
bad "naive at 5 ranks" "naive: needs a power-of-two number of ranks" -n 5 "$bench" exchange --transport mpi --algo naive --sizes 8
bad "torus without a grid" "torus: does not run on this many ranks" -n 4 "$bench" exchange --transport mpi --algo torus --sizes 8
bad "a block past 2 GiB / ranks" "at most 2 GiB" -n 4 "$bench" exchange --transport mpi --algo pex --sizes 600000000
bad "a reduce size not a multiple of 8" "multiples of 8" -n 4 "$bench" reduce --transport mpi --sizes 12
bad "--algo all with another" "--algo all stands alone" -n 2 "$bench" exchange --transport mpi --algo all,pex --sizes 8
bad "--shift over MPI" "runs on the vcube device only" -n 2 "$bench" shift --transport mpi --algo gsync
bad "--ge over MPI" "runs on the vcube device only" -n 2 "$bench" ge --transport mpi
bad "--predict with barrier" "is not one of its options" -n 2 "$bench" barrier --transport mpi --algo gsync --predict delta
bad "--costs on one rank" "run it on 2 ranks or more" -n 1 "$bench" costs --transport mpi
bad "--predict with no such profile" "vcube-sim gave no time" -n 2 "$bench" exchange --transport mpi --algo pex --sizes 8 --predict nosuch.profile
# --each: every repetition's time, one line each, whose minimum, average
# and maximum per point are the table's (scripts/reproduce-sync.sh's
# verdicts read them); a barrier's too; a path that cannot be written
# fails before the run
each_ok() {	# CSV EACH REPS: every point's repetitions, and the row's statistics
	python3 - "$@" <<'PY2'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
each = list(csv.DictReader(open(sys.argv[2])))
x = "skew_ns" if "skew_ns" in rows[0] else "bytes"
assert each and list(each[0]) == ["algo", x, "rep", "ns"], list(each[0])
for r in rows:
    v = [int(e["ns"]) for e in each if (e["algo"], e[x]) == (r["algo"], r[x])]
    assert [int(e["rep"]) for e in each if (e["algo"], e[x]) == (r["algo"], r[x])] == \
        list(range(int(sys.argv[3]))), r
    assert (min(v), max(v)) == (int(r["min_ns"]), int(r["max_ns"])), (r, v)
    assert abs(sum(v) / len(v) - float(r["avg_ns"])) < 0.1, (r, v)
assert len(each) == len(rows) * int(sys.argv[3])
PY2
}
if run -n 4 "$bench" exchange --transport mpi --algo pex,linear --sizes 16,256 --reps 5 --csv -q \
	--each "$tmp/each.csv" > "$tmp/t" 2> "$tmp/e" && each_ok "$tmp/t" "$tmp/each.csv" 5 2> "$tmp/e2"; then
	ok "exchange --each: 4 points x 5 repetitions, each point's min, avg and max the table's"
else
	no "exchange --each: $(tail -3 "$tmp/e" "$tmp/e2")"
fi
if run -n 4 "$bench" barrier --transport mpi --algo rds --skew 0,1000 --reps 3 --csv -q \
	--each "$tmp/eachb.csv" > "$tmp/t" 2> "$tmp/e" && each_ok "$tmp/t" "$tmp/eachb.csv" 3 2> "$tmp/e2"; then
	ok "barrier --each: algo,skew_ns,rep,ns, each point's the table's"
else
	no "barrier --each: $(tail -3 "$tmp/e" "$tmp/e2")"
fi
bad "--each into a directory that is not there" "--each $tmp/no/x.csv: No such file or directory" \
	-n 2 "$bench" exchange --transport mpi --algo pex --sizes 8 --each "$tmp/no/x.csv"
"$bench" exchange --transport bogus > /dev/null 2> "$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q "bad --transport 'bogus' (vcube or mpi)" "$tmp/e" && ok "--transport bogus: exit 2" ||
	no "--transport bogus: exit $rc"
"$top/build/libexec/vcube/vcube-bench-mpi" --transport vcube > /dev/null 2> "$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q 'is vcube-bench' "$tmp/e" && ok "vcube-bench-mpi exchange --transport vcube: exit 2" ||
	no "vcube-bench-mpi exchange --transport vcube: exit $rc"
printf 'base=generic\nalpha_ps=1\nbogus line\n' > "$tmp/bad.profile"
"$sim" --profile "$tmp/bad.profile" --procs 4 --algo pex > /dev/null 2> "$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q 'bad.profile:3: not a profile line' "$tmp/e" && ok "vcube-sim: a bad profile line is named, exit 2" ||
	no "vcube-sim bad profile: exit $rc: $(cat "$tmp/e")"
printf 'base=generic\nalpha_ps=1\n' > "$tmp/half.profile"
"$sim" --profile "$tmp/half.profile" --procs 4 --algo pex > /dev/null 2> "$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q 'byte_ps= are needed' "$tmp/e" && ok "vcube-sim: a profile without byte_ps: exit 2" ||
	no "vcube-sim half profile: exit $rc: $(cat "$tmp/e")"
"$sim" --profile ipsc860 --procs 6 --algo pex > /dev/null 2> "$tmp/e"; rc=$?
[ $rc = 2 ] && grep -q 'a hypercube' "$tmp/e" && ok "vcube-sim --procs 6 on a hypercube: exit 2" || no "vcube-sim --procs 6: exit $rc"
exit $fail
