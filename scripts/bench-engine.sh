#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-engine: the engine's wall-clock cost, measured in the VM (run
# through scripts/vm-run.sh --no-insmod). Not a test: it prints figures.
#   - a two-process ping-pong of 8-byte messages through vcube, against the
#     same ping-pong through pipes in the same guest: the ratio;
#   - the wall time of a complete pairwise exchange of 4 KB blocks with 32
#     and 128 processes (hypercubes d = 5, 7), and its virtual time.
# With BENCH_MD=FILE it also writes the figures as the README's table
# (make bench-engine puts it between the README's bench-engine markers).
set -u
top=$VCUBE_TOP
md=${BENCH_MD:-/dev/null}
pp=$top/build/bench/pingpong
exp=$top/build/tests/vm/exp
rounds=${ROUNDS:-20000}
reps=${REPS:-3}

insmod "$VCUBE_KO" topology=hypercube dim=1 || exit 1
best() { sort -n | head -n 1; }
v=$(for i in $(seq "$reps"); do vcube-run -n 2 "$pp" vcube "$rounds" | awk '{ print $4 }'; done | best)
p=$(for i in $(seq "$reps"); do "$pp" pipe "$rounds" | awk '{ print $4 }'; done | best)
rmmod vcube
echo "ping-pong, 8-byte messages, best of $reps x $((2 * rounds)) messages:"
echo "  vcube  $v ns/message"
echo "  pipe   $p ns/message"
awk -v v="$v" -v p="$p" 'BEGIN { printf "  ratio  %.1f (vcube / pipe)\n", v / p }'
{
	echo "| measurement | result |"
	echo "|---|---|"
	awk -v v="$v" -v p="$p" -v r="$reps" -v m=$((2 * rounds)) 'BEGIN {
		printf "| ping-pong, 8-byte messages, vcube vs two processes over pipes in the same guest (best of %d x %d messages) | %.0f us vs %.0f us per message: **%.1fx** a pipe |\n",
			r, m, v / 1000, p / 1000, v / p }'
} > "$md"

for d in 5 7; do
	n=$((1 << d))
	insmod "$VCUBE_KO" topology=hypercube dim=$d || exit 1
	t0=$(date +%s.%N)
	vcube-run -n "$n" "$exp" pairwise 4096 > /tmp/bench.$$ || exit 1
	t1=$(date +%s.%N)
	vt=$(awk '$1 == "clock" { if ($3 > m) m = $3 } END { print m / 1e6 }' /tmp/bench.$$)
	msgs=$((n * (n - 1)))
	ev=$(vcubectl -j topo | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
	rmmod vcube
	awk -v n="$n" -v w="$(echo "$t1 - $t0" | bc)" -v vt="$vt" -v m="$msgs" -v ev="$ev" -v md="$md" 'BEGIN {
		printf "pairwise exchange, %d processes, 4 KB blocks: %d messages, %d events, wall %.2f s (%.0f us/message), virtual %.3f ms\n",
			n, m, ev, w, w * 1e6 / m, vt
		printf "| pairwise exchange, %d processes, 4 KB blocks (%d messages, %d events) | %.1f s wall (%.2f ms per message), %.1f ms virtual |\n",
			n, m, ev, w, w * 1e3 / m, vt >> md }'
done
rm -f /tmp/bench.$$
