#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The noise and synchronisation sections of docs/reproductions.md (Seidel &
# Davis 1992; Bokhari 1991 sec. 6.3-6.4): scripts/reproduce.sh runs it in
# the VM, after its own sections; alone (in the guest) it prints only these.
# Figures go to $VCUBE_OUT.
set -u
. "$VCUBE_TOP/scripts/reproduce-lib.sh"
. "$VCUBE_TOP/scripts/score-lib.sh"
# the mean success rate (%) of gsync, sync0 and rds over $tmp/out's sizes
means() { awk -F, -v r="$R50" '!/^#/ && $1 != "algo" { s[$1] += 100 * $10 / r; n[$1]++ }
	END { printf "%.1f %.1f %.1f\n", s["gsync"] / n["gsync"], s["sync0"] / n["sync0"],
		s["rds"] / n["rds"] }' "$tmp/out"; }
# each section says so on stderr as it starts (the report is stdout)
progress() { echo "reproduce-sync: $*, at $(date +%T)" >&2; }
NOISE="noise=ipsc860 jitter_ns=150000 seed=1"
# The papers' numbers of runs (data/papers' num lines): Seidel & Davis's
# trials; the maxima of Bokhari's Figs. 10-11 (d <= 4, d = 5, d = 6 and 7);
# the envelopes of Figs. 12 and 13. The text winners' records carry them
# (docs/scoring.md, "Text winners").
TRIALS=$(paper_val seidel "Sec. 4.2" trials "") || exit 1
RUNS4=$(paper_val bokhari "Figure 11" "runs, d = 1..4" "") || exit 1
RUNS5=$(paper_val bokhari "Figure 10" "runs, d = 5" "") || exit 1
RUNS7=$(paper_val bokhari "Figure 10" "runs, d = 6, 7" "") || exit 1
RUNS12=$(paper_val bokhari "Figure 12" runs "") || exit 1
RUNS13=$(paper_val bokhari "Figure 13" runs "") || exit 1
# Bokhari's winners are decided in two stages (docs/scoring.md, "Text
# winners", rule 5): every candidate V1 times (V7 at d = 6, 7), which is
# enough for the exceedance count to set apart those far from the best (5
# of 20 runs, or of 10, beyond all of the best's), then the best and those
# still beside it at the paper's count (reproduce-lib.sh's again), at most
# VCUBE_VERDICT_REPS where set. At the papers' counts the run takes hours
# under TCG, most of it d = 5 and 7 (a repetition of 32 processes takes
# about a second, of 128 several); VCUBE_VERDICT_REPS=N trades that for
# verdicts left undecided, which the scorecard says.
V1=20 V7=10
# VCUBE_SMOKE=1: every section end to end with tiny runs (to test this
# script): the first stage only, at a few repetitions, so most noisy
# verdicts are undecided and reported so.
if [ -n "${VCUBE_SMOKE:-}" ]; then
	R50=2 R100=2 R3=1 DS="2 3" DR="1 2 3" V1=5 V7=5
	export VCUBE_VERDICT_REPS=0
else
	R50=$TRIALS R100=$RUNS12 R3=3 DS="2 3 4 5 6 7" DR="1 2 3 4 5 6 7"
fi
# trials CSV ALGO: one value a trial of ALGO's shifts in CSV (a shift
# run's), over its sizes: 100 where the shift was concurrent, 0 where not,
# the repetitions of a success rate
trials() { awk -F, -v a="$2" -v r="$R50" '!/^#/ && $1 == a { for (i = 0; i < r; i++)
	printf "%s%d", n++ ? "," : "", i < $10 ? 100 : 0 }' "$1"; }

# ---- Seidel & Davis, Tables I and III -----------------------------------
progress "[1/6] Seidel & Davis, Tables I and III"
cat <<'EOF'

## Seidel & Davis 1992, Tables I and III: the constants, measured, and when RDS pays

    insmod vcube.ko topology=hypercube dim=3 profile=seidel
    vcube-run -n 8 vcube-bench costs

libvcube measures the constants as the paper did (a null round trip for b_s, a null send's
return for s, round trips after 4 KB FORCED and UNFORCED messages for a and b_l) and computes
Table III, m >= (2 d b_s - b_l / 2) / a, from what it measured:

EOF
load topology=hypercube dim=3 profile=seidel
vcube-run -n 8 "$bench" costs --json > "$tmp/costs" || exit 1
python3 - "$tmp/costs" "$VCUBE_TOP/scripts" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[2])
import papers
sd = papers.load("seidel")
num = {(i, l): float(v) for i, l, v, _ in sd.nums}
j = json.load(open(sys.argv[1]))
print("| constant | vcube | Table I |")
print("|---|---|---|")
for k, name, label in (("b_s", "b_s (us)", "b_s, us"), ("s", "s (us)", "s, us"),
                       ("b_l", "b_l (us)", "b_l, us")):
    print("| %s | %.1f | %g |" % (name, j[k] / 1000, num[("Table I", label)]))
    papers.record("val", "seidel", "Table I", label, "", j[k] / 1000, "fitted")
a = j["a_ps_per_byte"] / 1e6
print("| a (us/byte) | %.4f | %g |" % (a, num[("Table I", "a, us per byte")]))
papers.record("val", "seidel", "Table I", "a, us per byte", "", a, "fitted")
print()
rows = j["rds_min_len"]
print("| d | " + " | ".join(str(r["d"]) for r in rows) + " |")
print("|---|" + "---|" * len(rows))
print("| vcube (bytes) | " + " | ".join(str(r["bytes"]) for r in rows) + " |")
print("| Table III | " + " | ".join("%g" % num[("Table III", "d = %d, bytes" % r["d"])]
                                   for r in rows) + " |")
for r in rows:
    papers.record("val", "seidel", "Table III", "d = %d, bytes" % r["d"], "", r["bytes"],
                  "predicted")
PY
cat <<'EOF'

The `seidel` profile is Table I, so this checks the measurement and the formula rather than
the model: both come back exact.
EOF

# ---- Seidel & Davis, sec. 3: barriers against skew ---------------------------
progress "[2/6] Seidel & Davis, sec. 3: barriers against skew"
cat <<'EOF'

## Seidel & Davis 1992, sec. 3: the cost and precision of the barriers, d = 5, no noise

    insmod vcube.ko topology=hypercube dim=5 profile=seidel
    vcube-run -n 32 vcube-bench barrier --algo all --skew 0,37500,75000,150000,300000,600000 --reps 1 \
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
vcube-run -n 32 "$bench" barrier -q --csv --algo all --skew "${skews// /,}" --reps 1 \
	--plot "$VCUBE_OUT/seidel-barriers.svg" --title "barriers on d = 5 (vcube, seidel): one rank late" \
	> "$tmp/out" || exit 1
printf '| barrier |'; for x in $skews; do printf ' delta %s |' $((x / 1000)); done; echo
printf '|---|'; for x in $skews; do printf -- '---|'; done; echo
for a in gsync sync0 rds dissemination tree; do
	printf '| %s |' $a
	for x in $skews; do printf ' %s / %s |' "$(col $a $x 4)" "$(col $a $x 7)"; done
	echo
done
# each barrier's cost and spread (us), for the printed formulas (data/papers/seidel.tsv)
for a in gsync sync0 rds; do
	for x in $skews; do
		dl=$(awk -v x=$x 'BEGIN { print x / 1000 }')
		score_rec meas seidel "Sec. 3" "$a, delta $dl us, cost" "$(col $a $x 4)"
		score_rec meas seidel "Sec. 3" "$a, delta $dl us, spread" "$(col $a $x 7)"
	done
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
d, bs, s = 5, 75.0, 44.0
skews = sorted({x for (_, x) in rows})
def paper(a, x):
    dl = x / 1000
    if a == "rds":
        return (2 * d * bs + dl, 0.0)
    if a == "gsync":
        if dl < bs:
            return (d * bs + dl, dl)
        return (2 * d * bs if dl <= d * bs else d * bs + dl, d * (bs - s))
    if a == "sync0":
        if dl < bs:
            return ((d + 1) * bs + dl, dl)
        if dl == bs:
            return ((2 * d + 1) * bs, d * (bs - s))
    return None
print()
print("The paper's analysis at the same skews (sec. 3.1-3.3; sync0 is analysed only up to")
print("delta = b_s), cost / spread in us:")
print()
print("| barrier |" + "".join(" delta %d |" % (x // 1000) for x in skews))
print("|---|" + "---|" * len(skews))
for a in ("gsync", "sync0", "rds"):
    cells = []
    for x in skews:
        p = paper(a, x)
        cells.append(" %.1f / %.1f |" % p if p else " - |")
    print("| %s |" % a + "".join(cells))
off = [(a, x) for a in ("gsync", "sync0", "rds") for x in skews
       if paper(a, x) and (abs(rows[(a, x)][0] - paper(a, x)[0]) > 0.05 or
                           abs(rows[(a, x)][1] - paper(a, x)[1]) > 0.05)]
print()
print("vcube agrees with the analysis exactly in %d of %d cells." %
      (sum(1 for a in ("gsync", "sync0", "rds") for x in skews if paper(a, x)) - len(off),
       sum(1 for a in ("gsync", "sync0", "rds") for x in skews if paper(a, x))))
if off:
    print("It differs at " + ", ".join("%s delta %d (%.1f / %.1f)" %
          (a, x // 1000, rows[(a, x)][0], rows[(a, x)][1]) for a, x in off) + ".")
PY
cat <<'EOF'

Where they differ, the paper's figure is the worst case it draws for one late node (its
messages blocked at two steps, cost about 2 d b_s); in vcube the late node's messages are
served in the order they reach the receive ports (ties to the lower source), and a node one
or two b_s late comes out cheaper than that worst case, with a spread near d (b_s - s).
sync0's spread of b_s - s = 31 us with no skew is the unfold: the
lower half returns from its sends s after starting them, the upper half receives b_s after.
The dissemination and tree barriers, today's defaults, are not in the paper: dissemination
costs as little as gsync without skew; tree leaves with a spread of d (b_s - s) at every
skew, its fan-out being a broadcast.
EOF

# ---- Seidel & Davis, sec. 4.2: concurrent shifts -----------------------------
progress "[3/6] Seidel & Davis, sec. 4.2: concurrent shifts"
cat <<EOF

## Seidel & Davis 1992, sec. 4.2 and Figs. 4-5 to 4-7: concurrent shifts after each barrier

    insmod vcube.ko topology=hypercube dim=D profile=seidel $NOISE
    vcube-run -n 2^D vcube-bench shift --algo gsync,sync0,rds --sizes 4096,16384,65536 --reps 50

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
for d in $DS; do
	load topology=hypercube dim=$d profile=seidel $NOISE
	run $((1 << d)) shift --algo gsync,sync0,rds --sizes "$sizes" --reps "$R50" --each "$tmp/shiftf$d.each"
	cp "$tmp/out" "$tmp/shiftf$d.csv"
	printf '| %s |' $d
	for a in gsync sync0 rds; do
		printf ' %s |' "$(awk -F, -v a=$a -v r="$R50" '$1 == a { printf "%s%d%%", n++ ? " / " : "", 100 * $10 / r }' "$tmp/out")"
	done
	echo
	echo "$d $(means)" >> "$tmp/succ"
	# the success rates (%), each size and their mean, for the claims
	for a in gsync sync0 rds; do
		for x in ${sizes//,/ }; do
			score_rec meas seidel "Sec. 4.2" "d = $d, FORCED, $x B, $a, success %" \
				"$(col $a $x 10 $(awk -v r="$R50" 'BEGIN { print r / 100 }'))"
		done
	done
	set -- $(means)
	score_rec meas seidel "Sec. 4.2" "d = $d, FORCED, gsync, success %" "$1"
	score_rec meas seidel "Sec. 4.2" "d = $d, FORCED, sync0, success %" "$2"
	score_rec meas seidel "Sec. 4.2" "d = $d, FORCED, rds, success %" "$3"
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
# the scorecard: Fig. 4-5's gsync at d = 2; at d = 5 (Fig. 4-6) the barrier
# with the most concurrent shifts, each barrier's trials over the sizes
awk '$1 == 2 { print $2 }' "$tmp/succ" | while read -r g; do
	score_rec val seidel "Fig. 4-5" "gsync, FORCED, d = 2, success %" "" "$g" predicted
done
if [ -s "$tmp/shiftf5.csv" ]; then
	for a in gsync sync0 rds; do
		score_rec wint seidel "Fig. 4-6" "d = 5, FORCED: gsync, sync0 or rds" "$a" mean most \
			"$TRIALS" "$(trials "$tmp/shiftf5.csv" "$a")"
	done
	for a in gsync sync0; do
		score_rec wint seidel "Fig. 4-6" "d = 5, FORCED: gsync or sync0" "$a" mean most \
			"$TRIALS" "$(trials "$tmp/shiftf5.csv" "$a")"
	done
fi
cat <<'EOF'

![concurrent shifts against d](seidel-shift.svg)

The paper: "The RDS algorithm combined with the shift using the forced message protocol
ensures concurrent shifts greater than 99% of the time for hypercubes of all sizes"; "the
frequency with which gsync() achieves concurrency ranges from about 90% for d=2 to less than 5%
for d=7"; "sync0() performs at a level intermediate to gsync() and the RDS algorithm".
EOF
# $tmp/succ: "d gsync sync0 rds" mean success rates; $tmp/abl: "label gsync sync0 rds"
awk '{ g[$1] = $2; s[$1] = $3; r[$1] = $4; if (!lo || $1 < lo) lo = $1; if ($1 > hi) hi = $1
	if (!rmin || $4 < rmin) rmin = $4; if ($3 < $2 && !below) below = $1 }
	END {
	print ""
	if (rmin == 100)
		print "What vcube shows: RDS keeps every FORCED shift concurrent, at every d;"
	else
		printf "What vcube shows: RDS keeps at least %.0f%% of the FORCED shifts concurrent at every d;\n", rmin
	printf "gsync falls from %.0f%% at d = %d to %.0f%% at d = %d, and sync0 from %.0f%% to %.0f%%.\n",
		g[lo], lo, g[hi], hi, s[lo], s[hi]
	printf "That is the paper'"'"'s trend for gsync, though it does not fall as far (the paper: below 5%%\n"
	printf "at d = 7); and sync0 "
	if (below)
		printf "falls below gsync from d = %d, where the paper puts it between gsync and\nRDS. We have not established why; a lead: sync0'"'"'s lower half runs its butterfly lowest\ndimension first, so ring neighbours are seldom partners in its last step, as they often\nare in gsync'"'"'s.\n", below
	else
		printf "stays between gsync and RDS, as in the paper.\n"
	}' "$tmp/succ"

# What causes the failures: the same study on d = 5 without one of the two noises.
cat <<'EOF'

What makes gsync fail, d = 5, FORCED 16 KB shifts, 50 trials (success rate):

| noise | gsync | sync0 | rds |
|---|---|---|---|
EOF
: > "$tmp/abl"
: > "$tmp/nabl"
# NOISE's start jitter (a chosen constant, data/constants.tsv), and the
# same interrupts with half and twice that jitter: its ablation (the rows
# after the fourth; the text below reads the first four)
jp=${NOISE##*jitter_ns=}
jp=${jp%% *}
for np in "" "noise=ipsc860" "jitter_ns=$jp" "noise=ipsc860 jitter_ns=$jp" \
	"noise=ipsc860 jitter_ns=$((jp / 2))" "noise=ipsc860 jitter_ns=$((jp * 2))"; do
	load topology=hypercube dim=5 profile=seidel seed=1 $np
	run 32 shift --algo gsync,sync0,rds --sizes 16384 --reps "$R50"
	printf '| %s |' "${np:-none}"
	for a in gsync sync0 rds; do printf ' %s%% |' "$(col $a 16384 10 $(awk -v r="$R50" 'BEGIN { print r / 100 }'))"; done
	echo
	echo "$(col gsync 16384 10 $(awk -v r="$R50" 'BEGIN { print r / 100 }')) $(col sync0 16384 10 $(awk -v r="$R50" 'BEGIN { print r / 100 }'))" >> "$tmp/abl"
	# "interrupts jitter_ns gsync sync0 rds" (%), for the ablation records
	j=0
	[[ " $np " == *" jitter_ns="* ]] && { j=${np##*jitter_ns=}; j=${j%% *}; }
	n=off
	[[ " $np " == *" noise=ipsc860 "* ]] && n=on
	echo "$n $j $(for a in gsync sync0 rds; do col $a 16384 10 $(awk -v r="$R50" 'BEGIN { print r / 100 }'); echo; done | paste -sd' ')" >> "$tmp/nabl"
done
# the ablation records (docs/scoring.md, "Chosen constants"): the start
# jitter with the interrupts, and the interrupts with NOISE's jitter
while read -r n j g s0 r; do
	for x in "gsync $g" "sync0 $s0" "rds $r"; do
		set -- $x
		if [ "$n" = on ]; then
			what="interrupts on, $R50 trials"
			[ "$j" = "$jp" ] && what="$what; the profile's"
			score_rec ablation seidel noise.jitter_ns "$j" "success %, d = 5, FORCED, 16 KB, $1" "$2" "$what"
		fi
		if [ "$j" = "$jp" ]; then
			what="jitter_ns=$jp, $R50 trials"
			[ "$n" = on ] && what="$what; the profile's"
			score_rec ablation seidel noise.ipsc860 "$n" "success %, d = 5, FORCED, 16 KB, $1" "$2" "$what"
		fi
	done
done < "$tmp/nabl"
# rows: none, interrupts, jitter, both
awk '{ g[NR] = $1; s[NR] = $2 }
	END {
	print ""
	printf "With interrupts alone gsync and sync0 keep %.0f%% and %.0f%% of the shifts concurrent; the\n", g[2], s[2]
	printf "start jitter alone brings them to %.0f%% and %.0f%%, both together to %.0f%% and %.0f%%. So in\n", g[3], s[3], g[4], s[4]
	print "vcube it is the skew a trial starts with, more than the interrupts, that breaks gsync and"
	printf "sync0%s The paper blames the interrupts (sec. 3.4). In vcube an\n", ((g[4] < g[3] || s[4] < s[3]) ? "; the interrupts add to it." : ".")
	print "interrupt delays a node only when one of its waits ends inside it (50 us in 10 ms: 0.5% of"
	print "wakes) or its busy wait runs into it, which is rarely at the moment that matters."
	}' "$tmp/abl"
cat <<'EOF'

The long protocol (UNFORCED shifts, a m + b_l predicted), d = 5, same noise:

EOF
load topology=hypercube dim=5 profile=seidel $NOISE
# the noise preset is Fig. 3-9's reading, taken as it is
score_rec val seidel "Fig. 3-9" "interrupt cost, us" "" \
	"$(awk '{ print $1 / 1000 }' /sys/class/vcube/noise_cost_ns)" fitted
score_rec val seidel "Fig. 3-9" "interrupt period, ms" "" \
	"$(awk '{ print $1 / 1000000 }' /sys/class/vcube/noise_period_ns)" fitted
run 32 shift --algo gsync,sync0,rds,none --unforced --sizes 4096,16384,65536 --reps "$R50" \
	--each "$tmp/shiftl5.each"
cp "$tmp/out" "$tmp/shiftl5.csv"
set -- $(means)
score_rec meas seidel "Sec. 4.2" "d = 5, long, gsync, success %" "$1"
score_rec meas seidel "Sec. 4.2" "d = 5, long, sync0, success %" "$2"
score_rec meas seidel "Sec. 4.2" "d = 5, long, rds, success %" "$3"
for a in gsync sync0 rds; do
	score_rec wint seidel "Fig. 4-6" "d = 5, long: gsync, sync0 or rds" "$a" mean most "$TRIALS" \
		"$(trials "$tmp/shiftl5.csv" "$a")"
done
echo "| bytes | gsync | sync0 | rds | none |"
echo "|---|---|---|---|---|"
for s in 4096 16384 65536; do
	printf '| %s |' $s
	for a in gsync sync0 rds none; do printf ' %s%% |' "$(col $a $s 10 $(awk -v r="$R50" 'BEGIN { print r / 100 }'))"; done
	echo
done
fcp=$(cat /sys/class/vcube/fc_bufs)
cat <<EOF

The paper found the long protocol erratic for all three barriers and blamed "the forward flow
control of message buffers imposed by the node operating system" (sec. 4.1), which "allows
several messages to be sent from one node to another before a response is received" and,
once a receiver's buffers are exhausted, waits for a release message (sec. 2.4). The
\`seidel\` profile models it with a window of $fcp headers per pair of nodes (\`fc_bufs\`,
docs/design.md). A long shift sends PROBEs one way round the ring; only the barrier's
messages come back to say the buffers were freed. The window against its ablation, the same
shifts (success rate over $R50 trials, 4 KB / 64 KB):

| fc_bufs | gsync | sync0 | rds |
|---|---|---|---|
EOF
: > "$tmp/fcs"
pct=$(awk -v r="$R50" 'BEGIN { print r / 100 }')
for fc in 0 4 8 $fcp 32; do
	load topology=hypercube dim=5 profile=seidel $NOISE fc_bufs=$fc
	run 32 shift --algo gsync,sync0,rds --unforced --sizes 4096,65536 --reps "$R50"
	label=$fc
	[ $fc = 0 ] && label="0 (off)"
	[ $fc = $fcp ] && label="$fc (the profile)"
	printf '| %s |' "$label"
	for a in gsync sync0 rds; do
		printf ' %s%% / %s%% |' "$(col $a 4096 10 $pct)" "$(col $a 65536 10 $pct)"
	done
	echo
	for x in 4096 65536; do
		echo "$fc $x $(col gsync $x 10 1) $(col sync0 $x 10 1) $(col rds $x 10 1)" >> "$tmp/fcs"
	done
done
# "window bytes gsync sync0 rds" success counts: where RDS leads, and where it falls
awk -v p=$fcp -v r="$R50" '{ if ($5 < $3 || $5 < $4) behind[$1] = 1
		if ($1 == p) pr[$2] = $5 }
	END {
	n = split("4 8 " p " 32", w, " ")
	lo = ""; for (i = 1; i <= n; i++) if (!(w[i] in behind) && lo == "") lo = w[i]
	bl = ""; for (i = 1; i <= n; i++) if (w[i] in behind) bl = bl (bl ? ", " : "") w[i]
	print ""
	printf "What vcube shows: with the profile'"'"'s window RDS keeps %.0f%% and %.0f%% of its long shifts\n", 100 * pr[4096] / r, 100 * pr[65536] / r
	print "concurrent. RDS brings its messages in along a tree, so most ring neighbours send each"
	print "other nothing but the shift, while gsync'"'"'s butterfly has every pair exchange each trial."
	if (bl != "")
		printf "With windows of %s, RDS falls behind gsync or sync0, against the paper (\"in all cases\nthe success rate of the RDS algorithm is greater\"); ", bl
	if (lo != "")
		printf "the smallest window swept that keeps it ahead is %s.\n", lo
	else
		print "no window swept keeps it ahead."
	print "The profile'"'"'s window is that choice, not a measurement: the paper gives no size. FORCED"
	print "shifts bypass the flow control (sec. 2.4), so the FORCED success rates above, gsync'"'"'s"
	print "failures at d = 7 among them, owe nothing to it."
	}' "$tmp/fcs"
# the ablation records (docs/scoring.md, "Chosen constants"): each window's
# success rate per barrier, the mean of 4 KB and 64 KB (%)
awk -v r="$R50" '{ for (i = 3; i <= 5; i++) s[$1 " " i] += 100 * $i / r; n[$1]++ }
	END { for (k in s) { split(k, f, " ")
		printf "%s %s %.1f\n", f[1], f[2] == 3 ? "gsync" : f[2] == 4 ? "sync0" : "rds", s[k] / n[f[1]] } }' \
	"$tmp/fcs" | sort -n -k1,1 -k2,2 | while read -r fc a v; do
	what="mean of 4 KB and 64 KB, $R50 trials"
	[ "$fc" = "$fcp" ] && what="$what; the profile's"
	score_rec ablation seidel seidel.fc_bufs "$fc" "success %, d = 5, long, $a" "$v" "$what"
done

# ---- Seidel & Davis, Figs. 4-1 to 4-3: the cost of the shift -----------------
progress "[4/6] Seidel & Davis, Figs. 4-1 to 4-3: the cost of the shift"
cat <<'EOF'

## Seidel & Davis 1992, Figs. 4-1 to 4-3: the cost of a shift after each barrier

The same runs as above (FORCED: the success-rate sweep; long: d = 5), read for the
figures' quantity: the average over the trials of the slowest rank's shift, barrier exit to
shift end (us), beside the paper's predicted minimum (Table I's constants: a m + b_s FORCED,
a m + b_l long). The figures are plots without printed values; what the text reads off them
is compared below.

EOF
# shiftavg CSV BYTES: "gsync sync0 rds", their average shift times (us) in CSV
shiftavg() { echo "$(col_in "$1" gsync "$2" 4) $(col_in "$1" sync0 "$2" 4) $(col_in "$1" rds "$2" 4)"; }
ta=$(paper_val seidel "Table I" "a, us per byte" "") || exit 1
tbs=$(paper_val seidel "Table I" "b_s, us" "") || exit 1
tbl=$(paper_val seidel "Table I" "b_l, us" "") || exit 1
echo "| fig. | d | protocol | bytes | predicted | gsync | sync0 | rds |"
echo "|---|---|---|---|---|---|---|---|"
: > "$tmp/save"
for d in 2 5 7; do
	f=$tmp/shiftf$d.csv
	[ -s "$f" ] || continue
	fig=4-3
	[ $d = 2 ] && fig=4-1
	[ $d = 5 ] && fig=4-2
	for m in 4096 16384 65536; do
		set -- $(shiftavg "$f" $m)
		echo "| $fig | $d | FORCED | $m | $(awk -v m=$m -v a="$ta" -v b="$tbs" 'BEGIN { printf "%.1f", a * m + b }') | $1 | $2 | $3 |"
	done
	echo "$d $(shiftavg "$f" 65536)" >> "$tmp/save"
	for m in 4096 16384 65536; do
		set -- $(shiftavg "$f" $m)
		score_rec meas seidel "Sec. 4.1" "d = $d, FORCED, $m B, gsync, shift us" "$1"
		score_rec meas seidel "Sec. 4.1" "d = $d, FORCED, $m B, sync0, shift us" "$2"
		score_rec meas seidel "Sec. 4.1" "d = $d, FORCED, $m B, rds, shift us" "$3"
	done
	score_rec shown seidel "Fig. $fig" "d = $d, FORCED: average shift after gsync, sync0, rds, 4..64 KB"
	[ $d = 2 ] && continue
	# the text's winner: the average shift, each trial's time
	each_cands seidel "Fig. $fig" "d = $d, FORCED, 64 KB: gsync or rds" mean "$TRIALS" \
		"$tmp/shiftf$d.each" 65536 gsync rds
done
for m in 4096 16384 65536; do
	set -- $(shiftavg "$tmp/shiftl5.csv" $m)
	echo "| 4-2 | 5 | long | $m | $(awk -v m=$m -v a="$ta" -v b="$tbl" 'BEGIN { printf "%.1f", a * m + b }') | $1 | $2 | $3 |"
	score_rec meas seidel "Sec. 4.1" "d = 5, long, $m B, gsync, shift us" "$1"
	score_rec meas seidel "Sec. 4.1" "d = 5, long, $m B, sync0, shift us" "$2"
	score_rec meas seidel "Sec. 4.1" "d = 5, long, $m B, rds, shift us" "$3"
done
each_cands seidel "Fig. 4-2" "d = 5, long, 64 KB: gsync, sync0 or rds" mean "$TRIALS" \
	"$tmp/shiftl5.each" 65536 gsync sync0 rds
cat <<'EOF'

The paper: after RDS a FORCED shift "agrees well with the predicted cost and is considerably
less than the cost of shifting after gsync() or sync0()"; "the savings increase with the size
of the ring"; with the long protocol "none of the algorithms are able to consistently reach
the minimum cost, although the RDS algorithm always performs better than the other two".
EOF
awk 'NR == 1 { printf "\nWhat vcube shows: at 64 KB, FORCED, the average shift after gsync is longer than after RDS by" }
	{ printf "%s %.1f us at d = %d", (NR > 1 ? "," : ""), $2 - $4, $1 }
	END { if (NR) print "." }' "$tmp/save"
set -- $(shiftavg "$tmp/shiftl5.csv" 65536)
awk -v r="$3" -v g="$1" -v a="$ta" -v b="$tbl" 'BEGIN { p = a * 65536 + b
	printf "With the long protocol, d = 5, 64 KB: RDS averages %.1f%% above a m + b_l and gsync %.1f%%;\n", 100 * (r - p) / p, 100 * (g - p) / p
	print "the paper found none of the barriers reaching it consistently (\"although the RDS algorithm"
	print "always performs better than the other two\") and blamed the buffer flow control, modelled above." }'

# ---- Bokhari, Figs. 12-13: envelopes -----------------------------------------
progress "[5/6] Bokhari, Figs. 12-13: envelopes"
cat <<EOF

## Bokhari 1991, sec. 6.3-6.4 and Figs. 12-13: envelopes of 100 runs on d = 5, with noise

    insmod vcube.ko topology=hypercube dim=5 profile=ipsc860 $NOISE
    vcube-run -n 32 vcube-bench exchange --algo linear,stable,pairwise_F,pairwise \\
        --sizes 0..4000:1000 --reps 100 --plot bokhari-envelope.svg --envelope

pairwise is pairwise_F without its pairwise synchronisations (Fig. 13's variant). Minimum,
average and maximum of the slowest node's time over 100 runs (us):

EOF
load topology=hypercube dim=5 profile=ipsc860 $NOISE
run 32 exchange --algo linear,stable,pairwise_F,pairwise --sizes 0..4000:1000 --reps "$R100" \
	--each "$tmp/env.each"
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
# the envelopes (us), for the claims on Figs. 12 and 13
for x in 0 1000 2000 3000 4000; do
	for a in linear stable pairwise_F pairwise; do
		f=12; [ $a = pairwise ] && f=13
		score_rec meas bokhari "Figure $f" "$a, $x B, min" "$(col $a $x 3)"
		score_rec meas bokhari "Figure $f" "$a, $x B, avg" "$(col $a $x 4)"
		score_rec meas bokhari "Figure $f" "$a, $x B, max" "$(col $a $x 5)"
	done
done
# the text's winners (docs/scoring.md, "Text winners"): Fig. 12's maxima,
# of as many runs as the paper's; Fig. 13's minimum, whose best and those
# beside it run again at the paper's count
for s in 1000 2000 3000 4000; do
	again 32 "$s" "$RUNS12" max "$tmp/env.each" linear stable
	each_cands bokhari "Figure 12" "$s B, max: linear or stable" max "$RUNS12" "$tmp/env.each" "$s" \
		linear stable
done
again 32 4000 "$RUNS13" min "$tmp/env.each" pairwise_F pairwise
each_cands bokhari "Figure 13" "4000 B, min: pairwise_F or pairwise" min "$RUNS13" "$tmp/env.each" \
	4000 pairwise_F pairwise
grep -E '^#|^algo|^(linear|stable|pairwise_F),' "$tmp/env.csv" > "$tmp/fig12.csv"
grep -E '^#|^algo|^pairwise(_F)?,' "$tmp/env.csv" > "$tmp/fig13.csv"
"$bench" redraw --from "$tmp/fig12.csv" --plot "$VCUBE_OUT/bokhari-envelope.svg" --envelope \
	--title "Fig. 12's envelopes on d = 5 (vcube, ipsc860, noise=ipsc860): min, average, max of 100" > /dev/null || exit 1
"$bench" redraw --from "$tmp/fig13.csv" --plot "$VCUBE_OUT/bokhari-fig13.svg" --envelope \
	--title "Fig. 13: pairwise_F with and without pairwise synchronisation (vcube, d = 5)" > /dev/null || exit 1
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
# the ablation: linear and stable with transmit and receive always overlapping
load topology=hypercube dim=5 profile=ipsc860 $NOISE duplex_ns=0
run 32 exchange --algo linear,stable --sizes 1000..4000:1000 --reps "$R100"
echo
echo "Maximum times (us) of linear and stable with the profile's duplex window and with"
echo "duplex_ns=0, its ablation:"
echo
echo "| bytes | linear | stable | duplex_ns=0: linear | stable |"
echo "|---|---|---|---|---|"
for s in 1000 2000 3000 4000; do
	echo "| $s | $(col_in "$tmp/env.csv" linear $s 5) | $(col_in "$tmp/env.csv" stable $s 5) |" \
		"$(col linear $s 5) | $(col stable $s 5) |"
done
cat <<'EOF'

How drift acts in vcube: Bokhari traces the variability of linear and stable to "fortuitous
concurrency during some runs and serial transmit/receives during others", the iPSC/860's send
and receive proceeding together only when they start nearly together. The `ipsc860` profile
models that (duplex_ns, the 65 us Seidel & Davis measured): a body that starts later than that
after the one going the other way waits for it to end. What moves nodes apart is the noise:
50 us interrupts every 10 ms (less than the window, so one interrupt alone serialises
nothing) and the start jitter, which the global synchronisation before the transfers removes.
Drift therefore builds up only over many interrupts, in the longer runs.
EOF
# ---- Bokhari, regions of optimality under noise -------------------------------
progress "[6/6] Bokhari, regions of optimality under noise"
cat <<'EOF'

## Bokhari 1991, sec. 6: the regions of optimality under noise, d = 1..7

    insmod vcube.ko topology=hypercube dim=D profile=ipsc860 noise=ipsc860 jitter_ns=150000 seed=1
    vcube-run -n 2^D vcube-bench exchange --algo linear,stable,pairwise_F,pairwise_U,standard_F,standard_U \
        --sizes ... --reps 3

The best implementation by maximum time over 3 runs (the paper took the maximum of 1000 runs
for d <= 5 and of 100 for d = 6, 7; d = 6 and 7 here run five block sizes, for time), and
its time in us:

EOF
algos=linear,stable,pairwise_F,pairwise_U,standard_F,standard_U
sizes="1 4 16 64 128 256 1024 4096"
printf '| d |'; for x in $sizes; do printf ' %s B |' "$x"; done; echo
printf '|---|'; for x in $sizes; do printf -- '---|'; done; echo
regions=()
: > "$tmp/sl"
: > "$tmp/winners"
: > "$tmp/dabl"
: > "$tmp/verd"
# what the second stage runs here, for the progress lines and the report
cap=
[ -z "${VCUBE_VERDICT_REPS:-}" ] || cap=" (at most $VCUBE_VERDICT_REPS in this run)"
[ "${VCUBE_VERDICT_REPS:-}" != 0 ] || cap=" (not in this run: the first count only)"
for d in $DR; do
	load topology=hypercube dim=$d profile=ipsc860 $NOISE
	dpx=$(cat /sys/class/vcube/duplex_ns)	# the profile's window, for the ablation records
	alg=$algos
	[ $d = 1 ] && alg=linear,pairwise_F,pairwise_U,standard_F,standard_U	# stable needs n >= 4
	sz=${sizes// /,}
	[ $d -ge 6 ] && sz=1,16,128,1024,4096
	run $((1 << d)) exchange --algo $alg --sizes $sz --reps $R3
	cp "$tmp/out" "$tmp/n$d.csv"
	regions+=(--from "$tmp/n$d.csv")
	printf '| %s |' $d
	for x in $sizes; do
		b=$(best $x)
		if [ -n "$b" ]; then printf ' %s %s |' "$b" "$(col "$b" $x 5)"; else printf ' |'; fi
		[ -n "$b" ] && echo "$b" >> "$tmp/winners"
	done
	echo
	# the hull's ends, as the paper names them (Figs. 10-11)
	fig="Figure 10"; [ $d -le 4 ] && fig="Figure 11"
	# every implementation's maximum time (us), for the claims
	awk -F, '!/^#/ && $1 != "algo" { printf "%s %s %.1f\n", $1, $2, $5 / 1000 }' "$tmp/out" |
		while read -r a x t; do score_rec meas bokhari "$fig" "d = $d, $x B, $a" "$t"; done
	# stable against linear on maximum time, for the text below
	for x in $sizes; do
		l=$(col linear $x 5) st=$(col stable $x 5)
		if [ -n "$l" ] && [ -n "$st" ]; then echo "$d $x $l $st" >> "$tmp/sl"; fi
	done
	w1=$(best 1) w4=$(best 4096)
	# the text's winners at the hull's ends (docs/scoring.md, "Text
	# winners"): every candidate V1 times, then the best and those beside
	# it again at the paper's count; the same module, noise and seed
	n=$RUNS4 v=$V1
	[ "$d" = 5 ] && n=$RUNS5
	[ "$d" -ge 6 ] && n=$RUNS7 v=$V7
	IFS=, read -ra cands <<< "$alg"
	progress "[6/6] d = $d: the verdicts at 1 and 4096 B, $v runs, then the paper's $n$cap"
	run $((1 << d)) exchange --algo "$alg" --sizes 1,4096 --reps "$v" --each "$tmp/v$d.each"
	for x in 1 4096; do
		again $((1 << d)) "$x" "$n" max "$tmp/v$d.each" "${cands[@]}"
		each_cands bokhari "$fig" "d = $d, $x B" max "$n" "$tmp/v$d.each" "$x" "${cands[@]}"
		echo "$d $x $(near "$tmp/v$d.each" max "$x" "${cands[@]}")" >> "$tmp/verd"
	done
	if [ "$d" = 5 ]; then
		again 32 1 "$n" max "$tmp/v5.each" standard_U standard_F
		each_cands bokhari "Figure 10" "d = 5, 1 B: standard_U or standard_F" max "$n" \
			"$tmp/v5.each" 1 standard_U standard_F
		run 32 exchange --algo pairwise_U,pairwise_F --sizes 64 --reps "$v" --each "$tmp/v5.64"
		again 32 64 "$n" max "$tmp/v5.64" pairwise_U pairwise_F
		each_cands bokhari "Figure 10" "d = 5, 64 B: pairwise_U or pairwise_F" max "$n" \
			"$tmp/v5.64" 64 pairwise_U pairwise_F
	fi
	# the ablation: transmit and receive always overlap (duplex_ns=0)
	load topology=hypercube dim=$d profile=ipsc860 $NOISE duplex_ns=0
	run $((1 << d)) exchange --algo $alg --sizes 1,4096 --reps $R3
	echo "$d $w1 $(best 1) $w4 $(best 4096)" >> "$tmp/dabl"
done
bokhari_winners > "$tmp/paper"
"$bench" redraw "${regions[@]}" --regions "$VCUBE_OUT/bokhari-regions-noise.svg" --paper "$tmp/paper" \
	> /dev/null || exit 1
cat <<'EOF'

![regions of optimality under noise, d = 1..7](bokhari-regions-noise.svg)

A ring marks a cell where the paper names the winner (data/papers/bokhari.tsv) and vcube names
the same; a cross, with the paper's, one where vcube names another.

EOF
awk '$1 >= 5 { n[$1]++; if ($4 < $3) { w[$1]++; s[$1] = s[$1] " " $2 } }
	END { printf "Stable against linear on maximum time: "
	      for (d = 5; d <= 7; d++) if (n[d])
		printf "%sd = %d: stable ahead at %d of %d block sizes (%s)", (d > 5 ? "; " : ""),
			d, w[d], n[d], (w[d] ? substr(s[d], 2) " bytes" : "none")
	      print "." }' "$tmp/sl"
echo
echo "Cells won, of $(wc -l < "$tmp/winners"): $(sort "$tmp/winners" | uniq -c | sort -rn |
	awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')."
echo
echo "The scorecard's winners at the hull's ends are decided on runs of their own (docs/scoring.md,"
echo "\"Text winners\"): every implementation $V1 times ($V7 at d = 6, 7), then the best and those it"
echo "cannot be told from again at the paper's count$cap."
echo "vcube's best, and beside it what its maximum cannot be told from (\"=\"):"
echo
echo "| d | 1 B | 4096 B |"
echo "|---|---|---|"
awk '{ v[$1, $2] = $3; if (!($1 in s)) { s[$1] = 1; o[++n] = $1 } }
	END { for (i = 1; i <= n; i++) { d = o[i]; a = v[d, 1]; b = v[d, 4096]
		gsub(/,/, " = ", a); gsub(/,/, " = ", b); printf "| %s | %s | %s |\n", d, a, b } }' "$tmp/verd"
cat <<'EOF'

The paper: stable is better than linear on maximum time "for large ranges of message sizes in
cubes of dimension 5..7", and pairwise_F, optimal for large messages from d = 2, "remains
asymptotically optimal for all dimensions beyond 2".
EOF
python3 - "$tmp/dabl" "$VCUBE_TOP/scripts" "$dpx" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
import papers
wins = papers.load("bokhari").wins
rows = [l.split() for l in open(sys.argv[1])]
print()
print("The duplex window against its ablation: the winner at the hull's ends with the profile's")
print("window (transmit and receive overlap only when they start within duplex_ns) and with")
print("duplex_ns=0 (they always overlap), beside the paper's (sec. 6.5):")
print()
print("| d | 1 B: paper | vcube | duplex_ns=0 | 4096 B: paper | vcube | duplex_ns=0 |")
print("|---|---|---|---|---|---|---|")
agree = [0, 0, 0]
for d, w1, a1, w4, a4 in rows:
    fig = "Figure 11" if int(d) <= 4 else "Figure 10"
    p1 = wins.get((fig, "d = %s, 1 B" % d), ("-",))[0]
    p4 = wins.get((fig, "d = %s, 4096 B" % d), ("-",))[0]
    for p, w, a in ((p1, w1, a1), (p4, w4, a4)):
        if p != "-":
            agree[0] += 1
            agree[1] += w in p.split("|")
            agree[2] += a in p.split("|")
    print("| %s | %s | %s | %s | %s | %s | %s |" % (d, p1, w1, a1, p4, w4, a4))
print()
print("vcube names the paper's winner in %d of these %d cells with the window and %d without."
      % (agree[1], agree[0], agree[2]))
# the ablation records (docs/scoring.md, "Chosen constants")
for value, k, what in ((sys.argv[3], 1, "; the profile's"), ("0", 2, "")):
    if agree[0]:
        papers.record("ablation", "bokhari", "ipsc860.duplex_ns", value,
                      "winners as the paper's, Figs. 10-11 at 1 B and 4096 B", agree[k] / agree[0],
                      "%d of %d cells, noise=ipsc860%s" % (agree[k], agree[0], what))
PY
rmmod vcube
