#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Touchstone Delta section of docs/validation.md: Thakur, Choudhary &
# Fox's Tables 2-6 against vcube's predictions. vcube-sim runs the module's
# engine on the host (tests/vm/switching.sh checks it equals the module).
# Prints Markdown.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sim=$top/build/bin/vcube-sim
sizes=(256 1024 4096 8192 16384)
labels=(256 1K 4K 8K 16K)

# The paper's tables, seconds: one line per message size, one column per mesh.
t2=("0.004 0.022 0.045 0.094 0.203" "0.008 0.064 0.120 0.290 0.860" "0.023 0.114 0.355 0.999 3.218"
    "0.034 0.228 0.692 2.068 6.794" "0.064 0.441 1.413 4.145 13.61")
t3=("0.008 0.019 0.085 0.092 0.211" "0.017 0.038 0.191 0.270 0.899" "0.037 0.091 0.576 0.977 3.588"
    "0.073 0.174 1.188 2.007 7.616" "0.138 0.333 2.403 4.056 15.82")
t4=("0.008 0.019 0.085 0.092 0.211" "0.017 0.038 0.188 0.263 0.894" "0.036 0.091 0.543 0.933 3.526"
    "0.071 0.170 1.111 1.948 7.515" "0.129 0.333 2.242 3.844 15.74")
t5=("0.004 0.016 0.042 0.089 0.283" "0.008 0.042 0.123 0.346 1.217" "0.018 0.145 0.461 1.220 3.944"
    "0.037 0.290 0.933 2.511 8.007" "0.069 0.576 1.947 5.052 16.15")
t6=("0.004 0.015 0.046 0.074 0.246" "0.009 0.027 0.146 0.285 1.069" "0.025 0.083 0.527 0.998 3.706"
    "0.052 0.186 1.071 2.011 7.752" "0.098 0.369 2.182 4.005 15.94")
pow2=("4 4" "8 8" "16 8" "16 16" "16 32")
other=("4 5" "6 8" "16 9" "16 14" "16 30")

errs=$(mktemp)
trap 'rm -f "$errs"' EXIT

table() {	# title algo shapes-array-name paper-array-name
	local title=$1 algo=$2 shp=$3 pap=$4 s i j r c want got e fit
	local -n shapes=$shp paper=$pap
	echo
	echo "### $title"
	echo
	printf '| bytes |'; for s in "${shapes[@]}"; do printf ' %s |' "${s/ /x}"; done; echo
	printf '|---|'; for s in "${shapes[@]}"; do printf -- '---|'; done; echo
	for i in "${!sizes[@]}"; do
		printf '| %s |' "${labels[$i]}"
		read -r -a row <<<"${paper[$i]}"
		for j in "${!shapes[@]}"; do
			read -r r c <<<"${shapes[$j]}"
			got=$("$sim" --profile delta --rows "$r" --cols "$c" --algo "$algo" --len "${sizes[$i]}" | awk '{ print $5 }')
			want=${row[$j]}
			e=$(awk -v g="$got" -v w="$want" 'BEGIN { printf "%+.0f", 100 * (g - w) / w }')
			fit=
			if [ "$algo" = pex ] && [ "$r$c" = 44 ] && { [ "${sizes[$i]}" = 256 ] || [ "${sizes[$i]}" = 16384 ]; }; then
				fit=" (fitted)"
			else
				echo "$algo $e" >> "$errs"
			fi
			printf ' %.3f / %s (%s%%)%s |' "$got" "$want" "$e" "$fit"
		done
		echo
	done
}

cat <<'HDR'
## Touchstone Delta: Thakur, Choudhary & Fox, Tables 2-6

Each cell: vcube's time / the paper's, in seconds, and vcube's error. The profile `delta`
(wormhole, XY routing, gamma = 1, links shared without a lane limit) has two constants the paper
does not give, solved from two cells of Table 2 and marked "(fitted)": PEX on the 4x4 mesh at
256 bytes and 16 KB, where no link carries more than two messages (no slowdown at gamma = 1), so
T = 15 (alpha + L beta) gives alpha = 203 us and beta = 0.248 us/byte. Every other cell is a
prediction. Algorithms as in the paper's Figures 1, 2, 4 and 5 (PEX-GEN-SHIFT numbers processors
mod q, as its Fig. 3(b) shows), each step posting its receive, sending, and waiting for both,
with no synchronisation between steps.

Computed by `scripts/validate-delta.sh` with `vcube-sim`, which runs the module's engine on the
host; the VM tests check that vcube-sim's times equal the module's, bit for bit.
HDR
table "Table 2: PEX" pex pow2 t2
table "Table 3: PEX-GEN" pexgen other t3
table "Table 4: PEX-GEN-SHIFT" pexgenshift other t4
table "Table 5: GEN, power-of-two meshes" gen pow2 t5
table "Table 6: GEN, other meshes" gen other t6
echo
echo "### Errors of the predicted cells"
echo
echo "| algorithm | cells | mean error | mean absolute error | worst |"
echo "|---|---|---|---|---|"
awk '{ n[$1]++; s[$1] += $2; a = $2 < 0 ? -$2 : $2; abs[$1] += a; if (a > w[$1]) { w[$1] = a; ws[$1] = $2 } }
END { split("pex pexgen pexgenshift gen", o, " ")
	for (k = 1; k <= 4; k++) { x = o[k]
		printf "| %s | %d | %+.1f%% | %.1f%% | %+d%% |\n", x, n[x], s[x] / n[x], abs[x] / n[x], ws[x] } }' "$errs"
cat <<'TXT'

What the errors say. PEX, PEX-GEN and PEX-GEN-SHIFT, where partners exchange, are predicted
with mean absolute errors of 11-13%, single cells off by up to 40% (PEX on 16x32 at 256 bytes).
GEN is predicted well on small meshes and increasingly too
fast on large ones, more so for large messages. The paper explains GEN's cost by its asymmetry:
a node sends to one processor and receives from another, over different links with different
contention, and they charge GEN beta_sr rather than beta_ex. In vcube a node's send and receive
are independent flows, each at its own max-min fair rate, and no extra cost is charged for
sending and receiving at once. That is the most likely source of the gap; it is reported, not
tuned away.
TXT
