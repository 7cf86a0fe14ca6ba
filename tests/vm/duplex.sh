#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The iPSC/860's transmit and receive overlap only when nearly simultaneous
# (Bokhari sec. 5; the fidelity issue): each profile's duplex_ns in sysfs;
# a FORCED simple exchange of 4096 bytes between neighbours, node 1 late
# by delta, takes delta + hop + body while delta is within the window and
# hop + two bodies past it (or delta + hop + body with duplex_ns=0, the
# ablation), to the ns; under noise the window costs pairwise_F (whose
# pairwise synchronisation aligns partners) next to nothing and linear more.
. "$(dirname "$0")/lib.sh"
exp=$VCUBE_TOP/build/tests/vm/exp
bench=$VCUBE_TOP/build/bin/vcube-bench
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# and the flow-control window (Seidel sec. 2.4), the seidel profile's alone
for pr in "ipsc860 65000 0" "seidel 0 16" "delta 0 0" "cm5 0 0"; do
	set -- $pr
	usenet topology=hypercube dim=1 profile=$1 &&
		check "profile=$1: duplex_ns $(attr duplex_ns)" [ "$(attr duplex_ns)" = "$2" ] &&
		check "profile=$1: fc_bufs $(attr fc_bufs)" [ "$(attr fc_bufs)" = "$3" ]
done

# ipsc860: a body of 4096 B is 95 + 0.394 * 4096 us, its header 10.3 us
body=$((95000 + 394 * 4096)) hop=10300
# the later node's clock at the end of a FORCED exchange, node 1 SKEW_US late
finish() {
	vcube-run -n 2 "$exp" seidel exchangef "$1" > "$out" 2>&1
	awk '$1 == "seidel" { if ($5 > m) m = $5 } END { print m }' "$out"
}
exchange() {	# SKEW_US DUPLEX_NS WANT_NS WANT_WAITS
	local t w
	usenet topology=hypercube dim=1 profile=ipsc860 duplex_ns=$2 || return
	t=$(finish "$1")
	w=$(counter duplex_waits)
	check "FORCED exchange, node 1 $1 us late, duplex_ns=$2: $t ns (want $3), $w waits" \
		[ "$t.$w" = "$3.$4" ]
}
exchange 0 65000 $((hop + body)) 0
exchange 50 65000 $((50000 + hop + body)) 0
exchange 65 65000 $((65000 + hop + body)) 0
exchange 66 65000 $((hop + 2 * body)) 1
exchange 100 65000 $((hop + 2 * body)) 1
exchange 100 0 $((100000 + hop + body)) 0
exchange 100 200000 $((100000 + hop + body)) 0
if usenet topology=hypercube dim=1 profile=seidel; then
	check "profile=seidel: no window, Table II's am + b_s + delta" \
		[ "$(finish 100)" = $((100000 + 75000 + 360 * 4096)) ]
fi

# Whole exchanges on d = 5 under noise, 4096-byte blocks: pairwise_F's
# pairwise synchronisation brings partners within the window before each
# transfer, so the window costs it next to nothing; linear has no such
# step, and its drifting transfers serialise.
t() {	# ALGO DUPLEX_NS: max_ns of 3 runs
	usenet topology=hypercube dim=5 profile=ipsc860 noise=ipsc860 jitter_ns=150000 seed=1 \
		duplex_ns=$2 || return
	vcube-run -n 32 "$bench" exchange -q --csv --algo $1 --sizes 4096 --reps 3 |
		awk -F, -v a=$1 '$1 == a { print $5 }'
}
pw=$(t pairwise_F 65000) p0=$(t pairwise_F 0) lw=$(t linear 65000) l0=$(t linear 0)
check "pairwise_F, d = 5, noise: $pw ns with the window, $p0 without (within 1%)" \
	awk -v a="$pw" -v b="$p0" 'BEGIN { exit !(a > 0 && b > 0 && (a - b) / b < 0.01 && (b - a) / b < 0.01) }'
check "linear, d = 5, noise: $lw ns with the window, $l0 without (slower)" \
	awk -v a="$lw" -v b="$l0" 'BEGIN { exit !(b > 0 && a > b) }'
nonet
exit $fail
