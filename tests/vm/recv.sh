#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The CM-5's receiver (Ponnusamy et al. sec. 4.5, "the single destination
# bottleneck"; the fidelity issue): each profile's recv_ns in sysfs; a
# synchronous send (cm5: no system buffer) returns only with its receive,
# to the ns, where the ablation (recv_ns=0 eject=0 sysbuf=1048576) returns
# at once; LEX, whose receiver takes one message at a time, against PEX,
# which the change leaves exactly as it was, on 32 nodes, both ways.
. "$(dirname "$0")/lib.sh"
exp=$VCUBE_TOP/build/tests/vm/exp
bench=$VCUBE_TOP/build/bin/vcube-bench
out=$(mktemp)
trap 'rm -f "$out"' EXIT
ablation="recv_ns=0 eject=0 sysbuf=1048576"

for pr in "cm5 73000 0" "ipsc860 0 1048576" "delta 0 1048576" "ap1000 0 1048576"; do
	set -- $pr
	usenet topology=hypercube dim=1 profile=$1 &&
		check "profile=$1: recv_ns $(attr recv_ns), sysbuf $(attr sysbuf)" \
			[ "$(attr recv_ns).$(attr sysbuf)" = "$2.$3" ]
done

# 1024 B in one cluster of four: 73 + 0.112 * 1024 us, alone
one=$((73000 + 112 * 1024))
late() {	# EXTRA_PARAMS: "sender receiver" clocks, the receive 1 ms late
	usenet topology=fattree nodes=4 profile=cm5 $1 || return
	vcube-run -n 2 "$exp" late 1024 1000 > "$out" 2>&1 || cat "$out" >&2
	awk '$1 == "late" { t[$2] = $3 } END { print t[1], t[0] }' "$out"
}
got=$(late "")
check "synchronous send, receive 1 ms late: sender and receiver at $got (want $((1000000 + one)) twice)" \
	[ "$got" = "$((1000000 + one)) $((1000000 + one))" ]
got=$(late "$ablation")
check "ablation: the sender returns at $(echo $got | cut -d' ' -f1) (want $one), the receiver at 1 ms" \
	[ "$got" = "$one 1000000" ]

t() {	# ALGO EXTRA_PARAMS: max_ns of the exchange of 16-byte blocks
	usenet topology=fattree nodes=32 profile=cm5 $2 || return
	vcube-run -n 32 "$bench" exchange -q --csv --algo $1 --sizes 16 --reps 1 |
		awk -F, -v a=$1 '$1 == a { print $5 }'
}
lex=$(t lex "") pex=$(t pex "") lex0=$(t lex "$ablation") pex0=$(t pex "$ablation")
check "PEX, 32 nodes, 16 B: $pex ns, the same with the ablation ($pex0)" \
	test -n "$pex" -a "$pex" = "$pex0"
check "LEX over PEX: $lex / $pex >= 10 (receiver one message at a time)" \
	awk -v a="$lex" -v b="$pex" 'BEGIN { exit !(b > 0 && a >= 10 * b) }'
check "ablation, LEX over PEX: $lex0 / $pex0 < 3" \
	awk -v a="$lex0" -v b="$pex0" 'BEGIN { exit !(b > 0 && a < 3 * b) }'
nonet
exit $fail
