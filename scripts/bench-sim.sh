#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-sim: the engine's own cost, on the host, apart from process
# switching: vcube-sim (kernel/core's engine, one thread) runs a pairwise
# exchange (PEX) of 4 KB blocks, N (N - 1) messages, on every profile's
# network at 32 nodes and up, and prints the wall time, the wall time per
# simulated message and messages per second. Not a test: it prints figures.
#   NODES="32 128 512 1024"   the sizes (powers of two; 4096 takes minutes)
#   BASE=PATH                 another vcube-sim (say, an older build): its
#                             wall time beside, and the ratio base / this
# Each point is the best of REPS (default 1) runs; the virtual times of
# the two binaries must agree to the ns, or the line says so.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
sim=${SIM:-$top/build/bin/vcube-sim}
base=${BASE:-}
reps=${REPS:-1}
nodes=${NODES:-32 128 512 1024}

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

# best BIN ARGS...: "WALL_NS VIRTUAL_NS" of the fastest of $reps runs
best() {
	local bin=$1 k=0 s e out t=
	shift
	while [ $k -lt "$reps" ]; do
		k=$((k + 1))
		s=$(date +%s%N)
		out=$("$bin" "$@" --ns -q) || return 1
		e=$(date +%s%N)
		if [ -z "$t" ] || [ $((e - s)) -lt "$t" ]; then t=$((e - s)); fi
	done
	echo "$t ${out##* }"
}

echo "vcube-sim, PEX with 4096-byte blocks, best of $reps; $(nproc) processors ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1))"
printf '| profile | nodes | messages | wall s | us per message | messages per s |%s\n' \
	"${base:+ base wall s | base / this |}"
printf '|---|---|---|---|---|---|%s\n' "${base:+---|---|}"
for prof in ipsc860 delta ap1000 cm5; do
	for n in $nodes; do
		# shellcheck disable=SC2046
		set -- --profile "$prof" $(shape "$prof" "$n") --algo pex --len 4096
		read -r t v < <(best "$sim" "$@") || { echo "| $prof | $n | vcube-sim failed |"; continue; }
		m=$((n * (n - 1)))
		line=$(awk -v t="$t" -v m="$m" 'BEGIN { printf "%.2f | %.2f | %.0f", t / 1e9, t / 1e3 / m, m / (t / 1e9) }')
		extra=
		if [ -n "$base" ]; then
			read -r bt bv < <(best "$base" "$@") || { echo "| $prof | $n | $m | $line | $base failed |"; continue; }
			extra=$(awk -v t="$t" -v b="$bt" 'BEGIN { printf " %.2f | %.2f |", b / 1e9, b / t }')
			[ "$bv" = "$v" ] || extra="$extra virtual times differ: $bv against $v ns |"
		fi
		echo "| $prof | $n | $m | $line |$extra"
	done
done
