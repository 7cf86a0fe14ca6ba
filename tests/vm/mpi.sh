#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# vcube-mpi: the MPI test programs (tests/mpi, built with vcube-mpicc; the
# same sources pass under Open MPI on the host, tests/host/mpi_ompi.sh) on
# the four machines' networks, 8 ranks and 5, and MPI_Abort ending a job.
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2086 # a network's parameters, word by word
bin=$VCUBE_TOP/build/tests/mpi
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# Program $3 of tests/mpi on $2 ranks of network $1: it says it passed.
prog() {
	if timeout 600 vcube-run -n "$2" "$bin/$3" > "$out" 2>&1 &&
		grep -q "^$3: ok" "$out"; then
		ok "$1, $2 ranks: $(grep "^$3: ok" "$out")"
	else
		no "$1, $2 ranks: $3: $(tail -3 "$out")"
	fi
}

for net in "topology=hypercube dim=3 profile=ipsc860" \
	"topology=mesh rows=2 cols=4 profile=delta" \
	"topology=torus rows=2 cols=4 profile=ap1000" \
	"topology=fattree nodes=8 profile=cm5"; do
	usenet $net || continue
	for n in 8 5; do
		# groups and derived types at 5 ranks only (make check's time)
		for p in p2p coll order icoll $([ $n = 5 ] && echo collv userop group dtype attr inter); do
			prog "$net" $n $p
		done
	done
done
# The calls whose work is the library's, not the network's (persistent
# requests, buffered sends, cancel, error handlers, info, graphs, the
# profiling interface): the iPSC/860's rendezvous and the CM-5's
# synchronous sends, 5 ranks
for net in "topology=hypercube dim=3 profile=ipsc860" "topology=fattree nodes=8 profile=cm5"; do
	usenet $net || continue
	for p in persist errh info graph profile; do
		prog "$net" 5 $p
	done
done
# Cartesian grids (tests/mpi/cart.c); with all 8 ranks, CART_NET has the
# program check that reorder put every grid neighbour one hop away, also
# when vcube-run placed the ranks on the nodes out of order
while IFS='|' read -r cnet net how; do
	usenet $net || continue
	if CART_NET=$cnet timeout 300 vcube-run $how "$bin/cart" < /dev/null > "$out" 2>&1 &&
		grep -q "^cart: ok" "$out"; then
		ok "$net, vcube-run $how: $(grep "^cart: ok" "$out")"
	else
		no "$net, vcube-run $how: cart: $(tail -3 "$out")"
	fi
done <<'NETS'
hypercube|topology=hypercube dim=3 profile=ipsc860|-n 8
hypercube|topology=hypercube dim=3 profile=ipsc860|--nodes 5,2,7,0,3,6,1,4
mesh:2:4|topology=mesh rows=2 cols=4 profile=delta|-n 8
mesh:2:4|topology=mesh rows=2 cols=4 profile=delta|--nodes 5,2,7,0,3,6,1,4
torus:2:4|topology=torus rows=2 cols=4 profile=ap1000|-n 8
|topology=fattree nodes=8 profile=cm5|-n 5
NETS
# Messages past the network's max_msg go in pieces (tests/mpi/big.c): the
# iPSC/860's rendezvous for long messages, the Delta's buffered ones, and
# the CM-5's synchronous sends with max_msg=4096, where even 1 MiB - 17
# bytes is 257 pieces
for net in "topology=hypercube dim=3 profile=ipsc860" \
	"topology=mesh rows=2 cols=4 profile=delta" \
	"topology=fattree nodes=8 profile=cm5 max_msg=4096"; do
	usenet $net || continue
	if timeout 600 vcube-run -n 3 "$bin/big" > "$out" 2>&1 && grep -q "^big: ok" "$out"; then
		ok "$net, 3 ranks: $(grep "^big: ok" "$out")"
	else
		no "$net, 3 ranks: big: $(tail -3 "$out")"
	fi
done
# Contexts given back (tests/mpi/contexts.c): 1200 communicators made and
# freed, more than a context's 10 bits number; once, on 2 ranks (time)
usenet topology=hypercube dim=3 profile=ipsc860 && prog hypercube 2 contexts
# MPI programs written elsewhere (tests/mpi/foreign), built as they come:
# what they print, as under Open MPI on the host
. "$VCUBE_TOP/tests/mpi/foreign/expect.sh"
for net in "topology=mesh rows=2 cols=4 profile=delta" "topology=fattree nodes=8 profile=cm5"; do
	usenet $net || continue
	for p in $foreign_programs; do
		foreign_stdin "$p" | timeout 300 vcube-run -n 5 "$bin/foreign/$p" > "$out" 2>&1
		foreign_ok "$p" "$out" 5 && ok "$net, 5 ranks: $p" ||
			no "$net, 5 ranks: $p: $(tail -3 "$out")"
	done
done
usenet topology=hypercube dim=2
timeout 120 vcube-run -n 4 "$bin/abort" > "$out" 2>&1; rc=$?
check "MPI_Abort ends the job: exit $rc, no rank past it" \
	[ $rc != 0 -a $rc != 124 -a -z "$(grep 'not aborted' "$out")" ]
VCUBE_MPI_VERBOSE=1 VCUBE_MPI_ALLTOALL=pairwise_F VCUBE_MPI_BARRIER=rds \
	timeout 300 vcube-run -n 4 "$bin/coll" > "$out" 2>&1
check "VCUBE_MPI_ALLTOALL=pairwise_F VCUBE_MPI_BARRIER=rds: run and named" \
	grep -q "MPI_Alltoall on 4 ranks, 0 bytes: pairwise_F" "$out"
VCUBE_MPI_ALLTOALL=nosuch timeout 300 vcube-run -n 4 "$bin/coll" > "$out" 2>&1; rc=$?
check "VCUBE_MPI_ALLTOALL=nosuch: exit $rc, the error names it" \
	grep -q "VCUBE_MPI_ALLTOALL=nosuch: no such algorithm" "$out"
# An MPI program's all-to-all against vcube-bench's, same algorithm, network
# and size: the virtual times must be the same to the ns.
a2a=$VCUBE_TOP/build/examples/mpi/alltoall
bench=$VCUBE_TOP/build/bin/vcube-bench
for net in "topology=hypercube dim=3 profile=ipsc860" "topology=fattree nodes=8 profile=cm5"; do
	usenet $net || continue
	for algo in gen pairwise_F pex; do
		[ "$algo" = pairwise_F ] && [ "${net#*cm5}" != "$net" ] && continue
		want=$(vcube-run -n 8 "$bench" exchange -q --csv --algo $algo --sizes 4096 --reps 1 |
			awk -F, -v a=$algo '$1 == a { print $5 }')
		got=$(VCUBE_MPI_ALLTOALL=$algo vcube-run -n 8 "$a2a" 4096 |
			sed -n 's/.*bytes: \([0-9]*\) ns, data ok$/\1/p')
		check "$net, $algo, 4096 B: MPI_Alltoall $got ns, vcube-bench $want ns" \
			[ -n "$got" -a "$got" = "$want" ]
	done
done
# The MPI lines of the README and of docs/mpi.md, as written, from the top
# of the (read-only) tree, with the module loaded as make vm loads it.
work=$VCUBE_OUT/mpi-readme
rm -rf "$work" /tmp/alltoall
mkdir -p "$work"
readme=$("$VCUBE_TOP/scripts/doc-cmds.py" get "$VCUBE_TOP/README.md" mpi-example)
doc=$("$VCUBE_TOP/scripts/doc-cmds.py" get "$VCUBE_TOP/docs/mpi.md" mpi-quick)
check "the README's MPI example has its 4 lines, docs/mpi.md's its 3" \
	[ "$(wc -l <<< "$readme")" = 4 -a "$(wc -l <<< "$doc")" = 3 ]
nonet
loaded || load
for f in README.md docs/mpi.md; do
	[ $f = README.md ] && cmds=$readme || cmds=$doc
	while read -r c; do
		rm -f "$work/out" "$work/err"
		(cd "$VCUBE_TOP" && eval "$c") > "$work/out" 2> "$work/err"
		rc=$?
		good=0
		case $c in
		*vcube-mpicc*) [ $rc = 0 ] && [ -x /tmp/alltoall ] && good=1 ;;
		*"net add"*) [ $rc = 0 ] && good=1 ;;
		*VERBOSE*) [ $rc = 0 ] && grep -q 'data ok' "$work/out" &&
			grep -q 'MPI_Alltoall on 32 ranks, 4096 bytes: gen' "$work/err" && good=1 ;;
		*) [ $rc = 0 ] && grep -q 'data ok' "$work/out" && good=1 ;;
		esac
		check "$f: $c (exit $rc; $(head -c 90 "$work/out") $(head -c 90 "$work/err"))" [ $good = 1 ]
	done <<< "$cmds"
done
vcubectl net del ipsc
vcubectl net del d5
rm -f /tmp/alltoall

# Link statistics of an MPI run: on the CM-5 the example's barrier and
# reductions go over the control network, so its data links carry the
# all-to-all alone, and vcubectl links must read as after libvcube's own
# exchange (tests/vm/exp.c xchg), counter for counter (but util: busy time
# over the run's length, which the MPI program's finalize prolongs).
usenet topology=fattree nodes=8 profile=cm5
vcubectl reset
VCUBE_MPI_ALLTOALL=pex vcube-run -n 8 "$a2a" 4096 > /dev/null
mpi_links=$(vcubectl -j links | sed 's/"util":[0-9.e+-]*,//g')
vcubectl reset
vcube-run -n 8 "$VCUBE_TOP/build/tests/vm/exp" xchg pex 4096 > /dev/null
lib_links=$(vcubectl -j links | sed 's/"util":[0-9.e+-]*,//g')
check "vcubectl links after MPI_Alltoall (pex, CM-5, 8 ranks) = after vcube_xchg_run" \
	[ -n "$mpi_links" -a "$mpi_links" = "$lib_links" ]
bytes=$(grep -o '"bytes":[0-9]*' <<< "$mpi_links" | awk -F: '{ s += $2 } END { print s + 0 }')
check "those links carried the exchange: $bytes bytes" [ "$bytes" -gt 0 ]

# A 2-D halo exchange (tests/mpi/halo.c: MPI_Cart_create, MPI_Type_vector,
# every ghost cell checked) on the Delta's mesh, its 32 ranks placed out of
# order (rank i on node 13 i mod 32): with reorder the grid's neighbours
# are one hop apart again, and the links carry each byte once; without,
# the same exchange crosses more links (vcubectl links' bytes, summed)
usenet topology=mesh rows=4 cols=8 profile=delta
scramble=$(seq 0 31 | awk '{ printf "%s%d", (NR > 1 ? "," : ""), 13 * $1 % 32 }')
for ro in 0 1; do
	vcubectl reset
	if timeout 600 vcube-run --nodes "$scramble" "$bin/halo" $ro 32 2 > "$out" 2>&1 &&
		grep -q "^halo: ok" "$out"; then
		hb[$ro]=$(vcubectl -j links | grep -o '"bytes":[0-9]*' | awk -F: '{ s += $2 } END { print s + 0 }')
		ok "halo, reorder $ro, placed out of order: $(grep '^halo: ok' "$out"); $(grep '^halo: [0-9]' "$out" | sed 's/.*: //'), links carried ${hb[$ro]} bytes"
	else
		no "halo, reorder $ro: $(tail -3 "$out")"
	fi
done
check "reorder put the halo's neighbours back together: ${hb[1]:-?} link bytes against ${hb[0]:-?}" \
	[ -n "${hb[0]:-}" -a -n "${hb[1]:-}" ] && [ "${hb[1]:-0}" -lt "${hb[0]:-0}" ]
nonet
exit $fail
