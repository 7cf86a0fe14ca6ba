#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-sim: the engine's own cost, on the host, apart from process
# switching: vcube-sim (kernel/core's engine, one thread) runs a pairwise
# exchange (PEX) of 4 KB blocks, N (N - 1) messages, on every profile's
# network at 32 nodes and up, and prints the wall time, the wall time per
# simulated message, messages and engine events per second; where bodies
# share bandwidth (max-min), the rate changes per message and their
# channels (work no exact solver skips) beside the (body, channel) pairs
# the solver visited (its work). Not a test: it prints figures.
#   NODES="32 128 512 1024"   the sizes (powers of two; 4096 takes minutes)
#   BASE=PATH                 another vcube-sim (say, an older build): its
#                             wall time beside, and the ratio base / this
#   BUDGET=900                a point whose predicted wall time (the last
#                             size's cost per message, grown as it grew
#                             from the size before) passes this many
#                             seconds is skipped, and the line says so
# Each point is the best of REPS (default 1) runs, of 3 at least where a
# run takes under a second; the virtual times of the two binaries must
# agree to the ns, or the line says so.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
sim=${SIM:-$top/build/bin/vcube-sim}
base=${BASE:-}
reps=${REPS:-1}
nodes=${NODES:-32 128 512 1024}
budget=${BUDGET:-900}

# shape PROFILE N: vcube-sim's arguments for N nodes of that machine
shape() {
	local lg=0 r c
	while [ $((1 << lg)) -lt "$2" ]; do lg=$((lg + 1)); done
	r=$((1 << (lg / 2)))
	c=$(($2 / r))
	case $1 in
	ipsc860) echo "--dim $lg" ;;
	delta|ap1000) echo "--rows $r --cols $c" ;;
	cm5) echo "--nodes $2" ;;
	esac
}

# best BIN ARGS...: "WALL_NS VIRTUAL_NS EVENTS RATE_CHANGES CHANGE_HOPS
# REFILL_HOPS" of the fastest of $reps runs (0 for what a vcube-sim too old
# does not print)
best() {
	local bin=$1 k=0 s e out t=
	shift
	# a point under a second (start-up, the host's noise) runs 3 times
	while [ $k -lt "$reps" ] || { [ $k -lt 3 ] && [ "$t" -lt 1000000000 ]; }; do
		k=$((k + 1))
		s=$(date +%s%N)
		out=$("$bin" "$@" -j -q) || return 1
		e=$(date +%s%N)
		if [ -z "$t" ] || [ $((e - s)) -lt "$t" ]; then t=$((e - s)); fi
	done
	python3 -c 'import json, sys; d = json.loads(sys.argv[2])
print(sys.argv[1], d["time_ns"], *(d.get(k, 0) for k in
      ("events", "rate_changes", "rate_change_hops", "refill_visits")))' "$t" "$out"
}

# predict LAST_NS LAST_MSGS PREV_US_PER_MSG MSGS: seconds the next size
# would take, at the last size's cost per message grown by its last growth
predict() {
	awk -v t="$1" -v m="$2" -v p="$3" -v n="$4" 'BEGIN {
		c = t / 1e3 / m; g = (p > 0 && c > p) ? c / p : 1
		printf "%.0f", c * g * n / 1e6 }'
}

echo "vcube-sim, PEX with 4096-byte blocks, best of $reps (of 3 where a run takes under a second); $(nproc) processors ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1))"
printf '| profile | nodes | messages | wall s | us per message | messages per s | events per s | rate changes per message | their channels per message | bodies on channels visited per message |%s\n' \
	"${base:+ base wall s | base / this |}"
printf '|---|---|---|---|---|---|---|---|---|---|%s\n' "${base:+---|---|}"
for prof in ipsc860 delta ap1000 cm5; do
	lt='' lm='' lc=0 blt='' blm='' blc=0
	for n in $nodes; do
		m=$((n * (n - 1)))
		if [ -n "$lt" ] && [ "$(predict "$lt" "$lm" "$lc" "$m")" -gt "$budget" ]; then
			echo "| $prof | $n | $m | skipped: about $(predict "$lt" "$lm" "$lc" "$m") s predicted, past BUDGET=$budget |"
			continue
		fi
		# shellcheck disable=SC2046
		set -- --profile "$prof" $(shape "$prof" "$n") --algo pex --len 4096
		read -r t v ev rc rch rfh < <(best "$sim" "$@") || { echo "| $prof | $n | vcube-sim failed |"; continue; }
		line=$(awk -v t="$t" -v m="$m" -v ev="$ev" -v rc="$rc" -v rch="$rch" -v rfh="$rfh" 'BEGIN {
			printf "%.2f | %.2f | %.0f | %.0f | ", t / 1e9, t / 1e3 / m, m / (t / 1e9), ev / (t / 1e9)
			if (rfh) printf "%.1f | %.1f | %.1f", rc / m, rch / m, rfh / m
			else printf "- | - | -" }')
		[ -n "$lt" ] && lc=$(awk -v t="$lt" -v m="$lm" 'BEGIN { print t / 1e3 / m }')
		lt=$t lm=$m
		extra=
		if [ -n "$base" ] && [ -n "$blt" ] && [ "$(predict "$blt" "$blm" "$blc" "$m")" -gt "$budget" ]; then
			extra=" skipped: about $(predict "$blt" "$blm" "$blc" "$m") s | |"
		elif [ -n "$base" ]; then
			read -r bt bv _ < <(best "$base" "$@") || { echo "| $prof | $n | $m | $line | $base failed |"; continue; }
			extra=$(awk -v t="$t" -v b="$bt" 'BEGIN { printf " %.2f | %.2f |", b / 1e9, b / t }')
			[ "$bv" = "$v" ] || extra="$extra virtual times differ: $bv against $v ns |"
			[ -n "$blt" ] && blc=$(awk -v t="$blt" -v m="$blm" 'BEGIN { print t / 1e3 / m }')
			blt=$bt blm=$m
		fi
		echo "| $prof | $n | $m | $line |$extra"
	done
done
