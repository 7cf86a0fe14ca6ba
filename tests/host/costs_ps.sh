#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A byte's cost to the ps and a node's own injection and ejection rates
# (kernel/core/costs.c, engine.c's vc_node_chan_bw()), through vcube-sim:
# two nodes under one switch exchange 10^6 bytes at once (PEX), each body
# alone on its channels, so the time is startup + 2 hops + the body at the
# slowest of its class's byte_ps and its node channels' rates, to the ns:
#   ap1000: 20000 + 2 * 100 + 10^6 * byte_ps / 1000
# The same cost given twice (short_byte_ns and short_byte_ps), node rates
# on a direct network or under circuit switching: refused in one line.
. "$(dirname "$0")/lib.bash"
sim=$top/build/bin/vcube-sim
run="-q --ns --profile ap1000 --kind xchg --algo pex --len 1000000"
two="topology=fattree levels=1 down=2 up=1"

# $1 the name, $2 the ns expected, then --cost words
want() {
	local name=$1 ns=$2 out
	shift 2
	out=$("$sim" $run "$@" $two 2>&1)
	[ "${out##* }" = "$ns" ] && ok "$name: $ns ns" || no "$name: want $ns, got '$out'"
}
want "short_byte_ns=40 (the profile's, in ns)" 40020200 --cost short_byte_ns=40
want "short_byte_ps=40000: the same cost" 40020200 --cost short_byte_ps=40000
want "short_byte_ps=40: 25 GB/s" 60200 --cost short_byte_ps=40
want "short_byte_ps=1: 10^6 bytes in 1000 ns" 21200 --cost short_byte_ps=1
want "inject_byte_ps=80: the node's link halves the rate" 100200 \
	--cost short_byte_ps=40 --cost inject_byte_ps=80
want "inject_byte_ps=20: faster than one body, no change" 60200 \
	--cost short_byte_ps=40 --cost inject_byte_ps=20
# 40 * 65536 / 120 = 21845.33 a body per unit: the rate rounds down, 2 ns
want "eject_byte_ps=120: the slowest channel rules" 140202 \
	--cost short_byte_ps=40 --cost inject_byte_ps=80 --cost eject_byte_ps=120
# packet switching (bundles of the fat tree): the same rule
out=$("$sim" -q --ns --profile cm5 --kind xchg --algo pex --len 160000 \
	--cost short_byte_ps=40 --cost inject_byte_ps=80 $two 2>&1)
base=$("$sim" -q --ns --profile cm5 --kind xchg --algo pex --len 160000 \
	--cost short_byte_ps=40 $two 2>&1)
[ $((${out##* } - ${base##* })) = 6400 ] &&
	ok "cm5, inject_byte_ps=80: 160000 bytes 6400 ns later" ||
	no "cm5 inject: '$base' then '$out'"

# $1 the name, $2 the message, then the arguments
refused() {
	local name=$1 msg=$2 out
	shift 2
	out=$("$sim" "$@" 2>&1)
	[ $? = 2 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -qF -- "$msg" <<<"$out" &&
		ok "refused: $name" || no "$name: '$out'"
}
refused "short_byte_ns= and short_byte_ps= both" \
	"--cost short_byte_ns= and short_byte_ps= set one cost: give one" \
	$run --cost short_byte_ns=1 --cost short_byte_ps=40 $two
refused "inject_byte_ps= on a torus" \
	"inject_byte_ps=, eject_byte_ps= need a fattree, dragonfly or graph" \
	$run --cost inject_byte_ps=80 topology=torus dims=4
refused "eject_byte_ps= under circuit switching" \
	"inject_byte_ps=, eject_byte_ps= are for wormhole and packet, not circuit" \
	-q --profile ipsc860 --algo pex --cost eject_byte_ps=80 $two
refused "short_byte_ps= past its bound" "(0 .. 1000000000)" \
	$run --cost short_byte_ps=1000000001 $two
exit $fail
