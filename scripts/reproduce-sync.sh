#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The noise and synchronisation sections of docs/reproductions.md (Seidel &
# Davis 1992; Bokhari 1991 sec. 6.3-6.4): scripts/reproduce.sh runs it in
# the VM, after its own sections; alone (in the guest) it prints only these.
# Figures go to $VCUBE_OUT.
set -u
bench=$VCUBE_TOP/build/bin/vcube-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { rmmod vcube 2>/dev/null; insmod "$VCUBE_KO" "$@" || exit 1; }
# run NPROCS ARGS: vcube-bench's CSV in $tmp/out
run() { local n=$1; shift; vcube-run -n "$n" "$bench" -q --csv "$@" > "$tmp/out" || exit 1; }
# col ALGO X COLUMN [SCALE]: a field of $tmp/out's row ALGO,X
col() { awk -F, -v a="$1" -v x="$2" -v c="$3" -v s="${4:-1000}" \
	'$1 == a && $2 == x { printf "%.1f", $c / s }' "$tmp/out"; }
NOISE="noise=ipsc860 jitter_ns=150000 seed=1"

# ---- Seidel & Davis, Tables I and III -----------------------------------
cat <<'EOF'

## Seidel & Davis 1992, Tables I and III: the constants, measured, and when RDS pays

    insmod vcube.ko topology=hypercube dim=3 profile=seidel
    vcube-run -n 8 vcube-bench --costs

libvcube measures the constants as the paper did (a null round trip for b_s, a null send's
return for s, round trips after 4 KB FORCED and UNFORCED messages for a and b_l) and computes
Table III, m >= (2 d b_s - b_l / 2) / a, from what it measured:

EOF
load topology=hypercube dim=3 profile=seidel
vcube-run -n 8 "$bench" --costs --json > "$tmp/costs" || exit 1
python3 - "$tmp/costs" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
print("| constant | vcube | Table I |")
print("|---|---|---|")
for k, name, paper in (("b_s", "b_s (us)", 75), ("s", "s (us)", 44), ("b_l", "b_l (us)", 136)):
    print("| %s | %.1f | %s |" % (name, j[k] / 1000, paper))
print("| a (us/byte) | %.4f | 0.36 |" % (j["a_ps_per_byte"] / 1e6))
print()
print("| d | " + " | ".join(str(r["d"]) for r in j["rds_min_len"]) + " |")
print("|---|" + "---|" * len(j["rds_min_len"]))
print("| vcube (bytes) | " + " | ".join(str(r["bytes"]) for r in j["rds_min_len"]) + " |")
print("| Table III | " + " | ".join(str(r["paper"]) for r in j["rds_min_len"]) + " |")
PY
cat <<'EOF'

The `seidel` profile is Table I, so this checks the measurement and the formula rather than
the model: both come back exact.
EOF

# ---- Seidel & Davis, sec. 3: barriers against skew ---------------------------
cat <<'EOF'

## Seidel & Davis 1992, sec. 3: the cost and precision of the barriers, d = 5, no noise

    insmod vcube.ko topology=hypercube dim=5 profile=seidel
    vcube-run -n 32 vcube-bench --barrier all --skew 0,37500,75000,150000,300000,600000 --reps 1 \
        --plot seidel-barriers.svg

Before each barrier RDS aligns the ranks exactly, then rank 31 waits the skew delta. Cost: the
last exit minus the first entry; spread (the paper's precision): the last exit minus the
first exit, both exact in virtual time (us). The paper's analysis (b_s = 75, s = 44 us, d = 5):
gsync costs d b_s + delta = 375 + delta for delta < b_s and about 2 d b_s = 750 for
b_s <= delta <= d b_s, with precision d (b_s - s) = 155 in the second case; sync0 costs
(d + 1) b_s + delta = 450 + delta, about (2d + 1) b_s = 825 with one node late; RDS costs
2 d b_s + delta = 750 + delta with precision 0.

EOF
load topology=hypercube dim=5 profile=seidel
skews="0 37500 75000 150000 300000 600000"
vcube-run -n 32 "$bench" -q --csv --barrier all --skew "${skews// /,}" --reps 1 \
	--plot "$VCUBE_OUT/seidel-barriers.svg" --title "barriers on d = 5 (vcube, seidel): one rank late" \
	> "$tmp/out" || exit 1
printf '| barrier |'; for x in $skews; do printf ' delta %s |' $((x / 1000)); done; echo
printf '|---|'; for x in $skews; do printf -- '---|'; done; echo
for a in gsync sync0 rds dissemination tree; do
	printf '| %s |' $a
	for x in $skews; do printf ' %s / %s |' "$(col $a $x 4)" "$(col $a $x 7)"; done
	echo
done
cat <<'EOF'

(each cell: cost / spread, us)

![barrier cost and spread against skew](seidel-barriers.svg)
EOF
python3 - "$tmp/out" <<'PY'
import csv, sys
rows = {}
for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#")):
    if r[0] != "algo":
        rows[(r[0], int(r[1]))] = (float(r[3]) / 1000, float(r[6]) / 1000)
g0, g75, g150 = rows[("gsync", 0)], rows[("gsync", 75000)], rows[("gsync", 150000)]
s75 = rows[("sync0", 75000)]
r = [rows[("rds", x)] for x in (0, 37500, 75000, 150000, 300000, 600000)]
print()
print("What vcube shows: RDS costs exactly 750 us + delta and leaves with a spread of %s at"
      % ("0" if all(v[1] == 0 for v in r) else "%s us" % max(v[1] for v in r)))
print("every skew, as the paper derives. gsync costs %.0f us with no skew (d b_s = 375) and"
      % g0[0])
print("%.0f us with one rank late by b_s (the paper: about 2 d b_s = 750 in the worst case"
      % g75[0])
print("it draws, where the late node's messages are blocked at two steps); its spread is %.0f us"
      % g75[1])
print("there and %.0f us at delta = 2 b_s, against the paper's d (b_s - s) = 155: vcube's"
      % g150[1])
print("late node is blocked less often than the worst case (its first messages find their")
print("partners' receive ports free), so the recursive-doubling broadcast it ends with starts")
print("from fewer levels. sync0 with one rank late by b_s costs %.0f us (the paper: about 825)." % s75[0])
PY

# ---- Seidel & Davis, sec. 4.2: concurrent shifts -----------------------------
cat <<EOF

## Seidel & Davis 1992, sec. 4.2 and Figs. 4-5 to 4-7: concurrent shifts after each barrier

    insmod vcube.ko topology=hypercube dim=D profile=seidel $NOISE
    vcube-run -n 2^D vcube-bench --shift gsync,sync0,rds --sizes 4096,16384,65536 --reps 50

Noise: every node is interrupted for 50 us every 10 ms from its own seeded phase (the paper's
Fig. 3-9), and each trial starts with a uniform jitter of up to 150 us per node. A trial
succeeds when the slowest rank's shift (barrier exit to shift end) is within 1 ms of
a m + b_s, the paper's definition. Success rate over 50 trials, FORCED shifts (each cell:
4 KB / 16 KB / 64 KB):

EOF
sizes=4096,16384,65536
echo "| d | gsync | sync0 | rds |"
echo "|---|---|---|---|"
: > "$tmp/succ"
for d in 2 3 4 5 6 7; do
	load topology=hypercube dim=$d profile=seidel $NOISE
	run $((1 << d)) --shift gsync,sync0,rds --sizes $sizes --reps 50
	printf '| %s |' $d
	for a in gsync sync0 rds; do
		printf ' %s |' "$(awk -F, -v a=$a '$1 == a { printf "%s%d%%", n++ ? " / " : "", $10 * 2 }' "$tmp/out")"
	done
	echo
	awk -F, -v d=$d '!/^#/ && $1 != "algo" { s[$1] += $10; n[$1]++ }
		END { printf "%d %.1f %.1f %.1f\n", d, 2 * s["gsync"] / n["gsync"],
			2 * s["sync0"] / n["sync0"], 2 * s["rds"] / n["rds"] }' "$tmp/out" >> "$tmp/succ"
done
cat > "$tmp/plot.gp" <<EOF
set terminal svg size 900,560 dynamic noenhanced
set output '$VCUBE_OUT/seidel-shift.svg'
set title "FORCED shifts after each barrier: concurrent in 50 trials (vcube, seidel, noise=ipsc860)"
set xlabel 'cube dimension d'
set ylabel 'concurrent shifts (%), mean over 4, 16, 64 KB'
set yrange [0:105]
set grid
set key bottom left
plot '$tmp/succ' using 1:2 with linespoints title 'gsync', \
     '' using 1:3 with linespoints title 'sync0', \
     '' using 1:4 with linespoints title 'rds'
EOF
gnuplot "$tmp/plot.gp" || exit 1
cat <<'EOF'

![concurrent shifts against d](seidel-shift.svg)

The paper: "The RDS algorithm combined with the shift using the forced message protocol
ensures concurrent shifts greater than 99% of the time for hypercubes of all sizes"; "the
frequency with which gsync() achieves concurrency ranges from about 90% for d=2 to less than 5%
for d=7"; "sync0() performs at a level intermediate to gsync() and the RDS algorithm".
EOF

# What causes the failures: the same study on d = 5 without one of the two noises.
cat <<'EOF'

What makes gsync fail, d = 5, FORCED 16 KB shifts, 50 trials (success rate):

| noise | gsync | sync0 | rds |
|---|---|---|---|
EOF
for np in "" "noise=ipsc860" "jitter_ns=150000" "noise=ipsc860 jitter_ns=150000"; do
	load topology=hypercube dim=5 profile=seidel seed=1 $np
	run 32 --shift gsync,sync0,rds --sizes 16384 --reps 50
	printf '| %s |' "${np:-none}"
	for a in gsync sync0 rds; do printf ' %s%% |' "$(col $a 16384 10 0.5)"; done
	echo
done
cat <<'EOF'

The long protocol (UNFORCED shifts, a m + b_l predicted), d = 5, same noise:

EOF
load topology=hypercube dim=5 profile=seidel $NOISE
run 32 --shift gsync,sync0,rds,none --unforced --sizes 4096,16384,65536 --reps 50
echo "| bytes | gsync | sync0 | rds | none |"
echo "|---|---|---|---|---|"
for s in 4096 16384 65536; do
	printf '| %s |' $s
	for a in gsync sync0 rds none; do printf ' %s%% |' "$(col $a $s 10 0.5)"; done
	echo
done
cat <<'EOF'

The paper found the long protocol erratic for all three barriers and blamed the forward flow
control of message buffers, which vcube does not model (its system buffer never runs short
at these sizes): here a barrier's imprecision is all that can serialise a shift.
EOF

# ---- Bokhari, Figs. 12-13: envelopes -----------------------------------------
cat <<EOF

## Bokhari 1991, sec. 6.3-6.4 and Figs. 12-13: envelopes of 100 runs on d = 5, with noise

    insmod vcube.ko topology=hypercube dim=5 profile=ipsc860 $NOISE
    vcube-run -n 32 vcube-bench --algo linear,stable,pairwise_F,pairwise \\
        --sizes 0..4000:1000 --reps 100 --plot bokhari-envelope.svg --envelope

pairwise is pairwise_F without its pairwise synchronisations (Fig. 13's variant). Minimum,
average and maximum of the slowest node's time over 100 runs (us):

EOF
load topology=hypercube dim=5 profile=ipsc860 $NOISE
run 32 --algo linear,stable,pairwise_F,pairwise --sizes 0..4000:1000 --reps 100
cp "$tmp/out" "$tmp/env.csv"
echo "| bytes | linear | stable | pairwise_F | pairwise |"
echo "|---|---|---|---|---|"
for s in 0 1000 2000 3000 4000; do
	printf '| %s |' $s
	for a in linear stable pairwise_F pairwise; do
		printf ' %s / %s / %s |' "$(col $a $s 3)" "$(col $a $s 4)" "$(col $a $s 5)"
	done
	echo
done
grep -E '^#|^algo|^(linear|stable|pairwise_F),' "$tmp/env.csv" > "$tmp/fig12.csv"
grep -E '^#|^algo|^pairwise(_F)?,' "$tmp/env.csv" > "$tmp/fig13.csv"
"$bench" --from "$tmp/fig12.csv" --plot "$VCUBE_OUT/bokhari-envelope.svg" --envelope \
	--title "Fig. 12's envelopes on d = 5 (vcube, ipsc860, noise=ipsc860): min, average, max of 100" || exit 1
"$bench" --from "$tmp/fig13.csv" --plot "$VCUBE_OUT/bokhari-fig13.svg" --envelope \
	--title "Fig. 13: pairwise_F with and without pairwise synchronisation (vcube, d = 5)" || exit 1
python3 - "$tmp/env.csv" <<'PY'
import csv, sys
rows = {}
for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#")):
    if r[0] != "algo":
        rows[(r[0], int(r[1]))] = tuple(float(v) / 1000 for v in r[2:5])
def spread(a, s):
    lo, avg, hi = rows[(a, s)]
    return 100 * (hi - lo) / lo
print()
print("(each cell: min / average / max)")
print()
print("![Fig. 12's envelopes](bokhari-envelope.svg)")
print()
print("![Fig. 13: with and without pairwise synchronisation](bokhari-fig13.svg)")
print()
wins = [s for s in (0, 1000, 2000, 3000, 4000) if rows[("stable", s)][2] < rows[("linear", s)][2]]
print("The paper: stable beats linear on maximum time for large ranges of block sizes at")
print("d = 5..7, linear's spread is slightly more than stable's and its average and maxima well")
print("above; pairwise_F's envelope is very tight; without pairwise synchronisation the")
print("envelope widens with block size while its minimum stays a constant below pairwise_F's.")
print()
print("What vcube shows: stable beats linear on maximum time at %s bytes; the envelopes'"
      % (", ".join(str(s) for s in wins) if wins else "no block size"))
print("widths at 4000 bytes (max - min, in %% of min) are linear %.1f%%, stable %.1f%%,"
      % (spread("linear", 4000), spread("stable", 4000)))
print("pairwise_F %.1f%% and pairwise %.1f%%. pairwise's minimum is %.0f us below pairwise_F's"
      % (spread("pairwise_F", 4000), spread("pairwise", 4000),
         rows[("pairwise_F", 4000)][0] - rows[("pairwise", 4000)][0]))
print("at 4000 bytes, the cost of the 31 pairwise synchronisations, as in the paper.")
PY
cat <<'EOF'

Where vcube parts from the paper, and why: Bokhari traces the variability of linear and
stable to "fortuitous concurrency during some runs and serial transmit/receives during
others", the iPSC/860's send and receive proceeding together only when they start nearly
together. vcube's circuit model follows Seidel & Davis' Table II instead, where a FORCED
message's transmit and receive always overlap (a shift costs a m + b_s + delta for every
delta); only the long protocol serialises. So in vcube drift can only make messages of
neighbouring steps collide on channels, and 50 us interrupts every 10 ms move a node by much
less than one transmission period (about 490 us for 1000 bytes) and seldom (a node is
delayed only when its wait ends inside an interrupt). The envelopes are therefore narrow and
linear keeps its one-step advantage over stable for non-trivial blocks: the drift that decided
Bokhari's Figs. 10-12 is not in vcube's model of FORCED messages.
EOF
rmmod vcube
