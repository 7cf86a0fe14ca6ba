#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Wormhole and packet switching through the module: the Delta's latency
# without contention and its excess link bandwidth, the AP1000's shared
# channels, and the CM-5's packet network (Ponnusamy et al., Figs. 5-8).
. "$(dirname "$0")/lib.sh"
exp=$VCUBE_TOP/build/tests/vm/exp
win=$(mktemp)
trap 'rm -f "$win" "$win.out"' EXIT
pairs() {	# len src dst ...: the slowest transit, ns
	local len=$1 n
	shift
	n=$(printf '%s\n' "$@" | sort -n | tail -n 1)
	n=$((n + 1))
	vcube-run -n "$n" "$exp" pairs "$len" "$@" | awk '{ if ($4 > m) m = $4 } END { print m }'
}
near() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p / 100 * b) }'; }

usenet profile=delta rows=16 cols=32 && {
	check "delta: wormhole switching" [ "$(attr switching)" = wormhole ]
	far=$(pairs 4096 0 511)
	want=$(awk 'BEGIN { print (203 + 46 * 0.1 + 4096 * 0.248) * 1000 }')
	check "delta: 0 -> 511 (46 hops), 4 KB alone: $far ns = alpha + (L_f/B) D + L/B ($want)" near "$far" "$want" 1
	near1=$(pairs 4096 0 1)
	check "delta: distance almost free: 1 hop $near1 ns vs 46 hops $far ns" near "$near1" "$far" 1
	two=$(pairs 4096 0 2 1 3)
	check "delta: two messages east on link 1->2, no slowdown (gamma 1): $two vs $near1 ns" near "$two" "$near1" 0.1
	check "delta: two lanes per channel" [ "$(attr lanes)" = 2 ]
	three=$(pairs 4096 0 3 1 4 2 5)
	want=$(awk -v a="$near1" 'BEGIN { print 203000 + (a - 203000) * 2 }')
	check "delta: three on link 2->3, the third waits for a lane: body 2x ($three vs $want ns)" near "$three" "$want" 1
	nonet
}
usenet profile=delta rows=16 cols=32 lanes=0 && {
	near1=$(pairs 4096 0 1)
	three=$(pairs 4096 0 3 1 4 2 5)
	want=$(awk -v a="$near1" 'BEGIN { print 203000 + (a - 203000) * 1.5 }')
	check "delta lanes=0: three on link 2->3 share 2B: body 1.5x ($three vs $want ns)" near "$three" "$want" 1
	opp=$(pairs 4096 0 2 2 0)
	check "delta: opposite directions do not contend: $opp ns" near "$opp" "$(pairs 4096 0 2)" 0.1
	nonet
}
# Thakur's per-step contention, read from the module's per-window peaks:
# how many bodies the schedule puts on a channel, so without a lane limit.
# PEX: f(i) = 2^floor(lg max(i mod c, i / c)) (the paper's bound max(r,c)/2
# needs the floor); GEN: f(i) = min(i mod c, c - i mod c) + min(i/c, (p-i)/c),
# an upper bound, and the exact count, from the XY paths of step i's
# messages (rank -> rank + i), which the peak must equal.
xy_peaks() {	# ROWS COLS: "i peak" for each GEN step
	python3 - "$1" "$2" <<'PY'
import sys
r, c = map(int, sys.argv[1:])
p = r * c
for i in range(1, p):
    n = {}
    for s in range(p):
        (y, x), (dy, dx) = divmod(s, c), divmod((s + i) % p, c)
        while x != dx:
            k = (y, x, 1 if dx > x else -1, 0)
            n[k] = n.get(k, 0) + 1
            x += k[2]
        while y != dy:
            k = (y, x, 0, 1 if dy > y else -1)
            n[k] = n.get(k, 0) + 1
            y += k[3]
    print(i, max(n.values()))
PY
}
for shape in "4 4" "8 8" "16 8"; do
	set -- $shape
	r=$1 c=$2 p=$(($1 * $2))
	for algo in pex gen; do
		usenet profile=delta rows=$r cols=$c window_ns=10000000 lanes=0 || continue
		vcube-run -n $p "$exp" steps $algo 64 10000000 > "$win.out" 2>&1
		rc=$?
		check "delta ${r}x$c $algo: every step within its window (exit $rc$([ $rc = 0 ] || echo ": $(grep -v '^ok' "$win.out" | tail -n 3 | tr '\n' ' ')"))" [ $rc = 0 ]
		peak_windows > "$win"
		check "delta ${r}x$c $algo: vcubectl windows lists $(wc -l < "$win") windows" [ -s "$win" ]
		res=$(awk -v c=$c -v p=$p -v a=$algo '
			{ peak[$1] = $2 }
			END {
				for (i = 1; i < p; i++) {
					m = i % c; if (int(i / c) > m) m = int(i / c)
					f = 1; while (2 * f <= m) f *= 2
					if (a == "gen") {
						x = i % c; if (c - x < x) x = c - x
						y = int(i / c); if (int((p - i) / c) < y) y = int((p - i) / c)
						f = x + y
					}
					if (peak[i] == f) eq++
					if (peak[i] <= f) le++
				}
				print eq + 0, le + 0, p - 1
			}' "$win")
		set -- $res
		if [ $algo = pex ]; then
			check "delta ${r}x$c PEX: link peak = f(i) on $1 of $3 steps" [ "$1" = "$3" ]
		else
			check "delta ${r}x$c GEN: link peak <= f(i) on $2 of $3 steps, = on $1" [ "$2" = "$3" ]
			exact=$(xy_peaks $r $c | awk 'NR == FNR { want[$1] = $2; next }
				$1 in want && $2 == want[$1] { n++ } END { print n + 0 }' - "$win")
			check "delta ${r}x$c GEN: link peak = the XY paths' overlap on $exact of $(($p - 1)) steps" \
				[ "$exact" = $(($p - 1)) ]
		fi
		nonet
	done
done

# vcube-sim runs the same engine on the host, single-threaded: its times
# must equal the module's, bit for bit.
for cfg in "pex 4 4 1024" "gen 4 5 256" "pexgenshift 6 8 4096" "pex 8 8 16384"; do
	set -- $cfg
	usenet profile=delta rows=$2 cols=$3 || continue
	mod=$(vcube-run -n $(($2 * $3)) "$exp" thakur $1 $4 | awk '{ if ($4 > m) m = $4 } END { printf "%.6f", m / 1e9 }'; exit ${PIPESTATUS[0]})
	check "$1 on $2x$3 runs to the end in the module" [ $? = 0 ]
	sim=$(vcube-sim --profile delta --rows $2 --cols $3 --algo $1 --len $4 | awk '{ print $5 }')
	check "vcube-sim equals the module: $1 on $2x$3, $4 B: $sim vs $mod s" [ "$sim" = "$mod" ]
	nonet
done

usenet profile=ap1000 rows=8 cols=8 && {
	one=$(pairs 4096 0 2)
	two=$(pairs 4096 0 2 1 3)
	want=$(awk -v a="$one" 'BEGIN { print 20000 + (a - 20000) * 2 }')
	check "ap1000: two messages sharing a channel get B/2 each: $two vs $want ns" near "$two" "$want" 1
	kern() { vcube-run -n 64 "$exp" kernel "$1" "$2" | awk '{ if ($5 > m) m = $5 } END { print m }'; }
	bf=$(kern butterfly 16); co=$(kern crossover 16); nt=$(kern torus 16)
	order() { [ "$1" -lt "$2" ] && [ "$2" -lt "$3" ]; }
	check "ap1000 8x8, 16-byte kernels: crossover $co < butterfly $bf < normal torus $nt ns (Fig. 4)" \
		order "$co" "$bf" "$nt"
	co=$(kern crossover 4096)
	cycles=$(awk -v t="$co" 'BEGIN { printf "%.2f", (t - 6 * 20000) / (4096 * 40) }')
	check "ap1000: a 6-dimensional crossover on 8x8 takes $cycles T_0, eq. 2 says 2(2^3 - 1) = 14" \
		near "$cycles" 14 5
	west=$(pairs 64 1 0)
	check "ap1000: 1 -> 0 goes east around the ring (7 hops): $west ns" [ "$west" -gt "$(pairs 64 0 1)" ]
	nonet
}
usenet profile=cm5 nodes=256 && {
	check "cm5: packet switching" [ "$(attr switching)" = packet ]
	for l in 0 16 17 1000 1024 4000 10000; do
		t=$(pairs $l 0 1)
		want=$(( (l % 16 ? 83000 : 73000) + 112 * l ))
		check "cm5: within a cluster of 4, l = $l: $t ns, 0.112 l + $((l % 16 ? 83 : 73)) us = $want exactly" [ "$t" = "$want" ]
	done
	base=$(pairs 4096 0 1)
	for d in 4 16 64 200; do
		t=$(pairs 4096 0 $d)
		check "cm5: 0 -> $d alone takes what 0 -> 1 does (Fig. 5): $t ns" [ "$t" = "$base" ]
	done
	t=$(pairs 4096 0 4 1 5 2 6 3 7)
	check "cm5: a cluster of 4 to the next at once: no slowdown (Fig. 7): $t ns" [ "$t" = "$base" ]
	args=$(for i in $(seq 0 15); do echo -n "$i $((16 + i)) "; done)
	t4=$(pairs 4096 $args)
	check "cm5: 16 to the next 16 at once: clearly slower (Fig. 8): $t4 vs $base ns" [ "$t4" -gt $((base * 3 / 2)) ]
	# the cluster's 8 links up carry 16 bodies, each at half rate
	check "cm5: 16 to the next 16, 4 KB: 73 us + 2 x 0.112 us x 4096 exactly ($t4 ns)" \
		[ "$t4" = $((73000 + 2 * 112 * 4096)) ]
	t16=$(pairs 16384 $args)
	b16=$(pairs 16384 0 16)
	check "cm5: and the gap grows with size: $((t16 - b16)) ns at 16 KB > $((t4 - base)) ns at 4 KB" [ $((t16 - b16)) -gt $((t4 - base)) ]
	nonet
}
exit $fail
