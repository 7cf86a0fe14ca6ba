#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Binding rules and the module's life: the node_open program (EBUSY, owner,
# killed owners, ioctl errors), rmmod refused while a node is open, many
# insmod/rmmod cycles, the largest network, and the idle lease; first, the README's
# example program, built from the tree as a user would build it.
. "$(dirname "$0")/lib.sh"

load topology=hypercube dim=5 && {
	ex=$VCUBE_TOP/build/examples/exchange
	vcube-run -n 32 "$ex" > /tmp/ex.$$ 2>&1
	rc=$?
	a=$(sort -V /tmp/ex.$$)
	b=$(vcube-run -n 32 "$ex" 2>&1 | sort -V)
	rm -f /tmp/ex.$$
	n=$(grep -c '^node [0-9]*: 4096 bytes from node [0-9]* arrived at [1-9][0-9]* ns$' <<< "$a")
	pairs=$(awk '{ sub(":", "", $2); p = $2 % 2 ? $2 - 1 : $2 + 1; if ($7 != p) bad++ } END { print bad + 0 }' <<< "$a")
	good=0; [ $rc = 0 ] && [ "$n" = 32 ] && [ "$pairs" = 0 ] && [ "$a" = "$b" ] && good=1
	check "examples/exchange on 32 nodes: $n of 32 nodes got their partner's 4096 bytes intact, twice the same times ($(head -n 1 <<< "$a"))" [ $good = 1 ]
}

load topology=hypercube dim=3 && {
	node_open
	[ $? -eq 0 ] || fail=1
	exec 3<>/dev/vcube0
	check "rmmod refused while /dev/vcube0 is open" not rmmod vcube 2>/dev/null
	check "still loaded" loaded
	exec 3>&-
	check "rmmod once it is closed" rmmod vcube
}

# Killed processes: blocked in a send that holds a circuit, in a receive,
# and idle; afterwards every node is free and a run's virtual times are
# exactly those of a network that never saw them.
load topology=hypercube dim=3 && {
	exp=$VCUBE_TOP/build/tests/vm/exp
	ref=$(vcube-run -n 8 "$exp" msg 2>&1 | sort)
	vcube-run -n 3 "$exp" hold > /tmp/hold.$$ 2>&1 &
	runner=$!
	for i in $(seq 100); do
		[ "$(grep -c ready /tmp/hold.$$)" = 3 ] && break
		sleep 0.1
	done
	sleep 0.5
	check "three processes bound (owners $(cat /sys/class/vcube/vcube{0,1,2}/owner | tr '\n' ' '))" \
		sh -c '[ "$(cat /sys/class/vcube/vcube0/owner)" != 0 ] && [ "$(cat /sys/class/vcube/vcube2/owner)" != 0 ]'
	kill -KILL "$(cat /sys/class/vcube/vcube0/owner)"
	sleep 0.3
	check "sender killed in its send: node 0 free" [ "$(cat /sys/class/vcube/vcube0/owner)" = 0 ]
	kill -TERM $runner
	wait $runner
	check "vcube-run forwards SIGTERM: every node free" \
		sh -c 'for n in 0 1 2 3 4 5 6 7; do [ "$(cat /sys/class/vcube/vcube$n/owner)" = 0 ] || exit 1; done'
	got=$(vcube-run -n 8 "$exp" msg 2>&1 | sort)
	check "after the kills, a run's virtual times are unchanged (no channel held)" [ "$got" = "$ref" ]
	rm -f /tmp/hold.$$
	unload
}

kinds=("topology=hypercube dim=4" "topology=mesh rows=3 cols=7" "topology=torus rows=2 cols=2" "topology=fattree nodes=21")
counts=(16 21 4 21)
bad=0
for ((i = 0; i < 24; i++)); do
	k=$((i % 4))
	insmod "$VCUBE_KO" ${kinds[$k]} || bad=$((bad + 1))
	[ "$(ls /dev | grep -c '^vcube[0-9]*$')" = "${counts[$k]}" ] || bad=$((bad + 1))
	exec 3<>/dev/vcube1 && exec 3>&-
	rmmod vcube || bad=$((bad + 1))
	[ -e /dev/vcube0 ] && bad=$((bad + 1))
done
check "24 insmod/rmmod cycles over four topologies" [ "$bad" = 0 ]

load topology=hypercube dim=12 && {
	check "dim=12: 4096 device nodes" [ "$(ls /dev | grep -c '^vcube[0-9]*$')" = 4096 ]
	check "dim=12: node 4095's neighbours" [ "$(cat /sys/class/vcube/vcube4095/neighbors)" = "4094 4093 4091 4087 4079 4063 4031 3967 3839 3583 3071 2047" ]
	got=$(vcubectl route 0 4095 | head -n 1)
	check "dim=12: route 0->4095 has 12 hops" [ "${got##*(}" = "12 hops)" ]
	unload
	check "dim=12 unloaded" [ ! -e /dev/vcube0 ]
}
# D5: a process sitting in user space holds every node's time, unless
# the idle lease is on (tests/vm/lease.c)
usenet topology=hypercube dim=1 && {
	lease off || fail=1
	n=$(counter leases)
	check "no lease ran out with the lease off (vcubectl topo: leases $n)" [ "$n" = 0 ]
	nonet
}
usenet topology=hypercube dim=1 idle_lease_ms=200 && {
	lease on || fail=1
	n=$(counter leases)
	check "node 0's lease ran out, and vcubectl topo counts it (leases $n)" [ "$n" -ge 1 ]
	nonet
}
exit $fail
