#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Where a job's ranks run (issue 52, item 5): vcube-run --nodes and
# --rankfile on a dim=5 network. Two 8-rank jobs at once on nodes 0-7 and
# 8-15, both whole; a subcube's times those of 0-7 to the ns (CSV and
# JSON), a scattered placement's not, the links it used those of its
# nodes; each rank bound to its node and speaking ranks (placed.c), by
# --nodes and by a rankfile, vcube-mpi's tests too; --tag-output's
# prefixes; a job whose nodes another holds refused in one line naming
# the holder, nothing of it left bound; a node past the network; the
# control network on consecutive nodes and not elsewhere; the README's
# example as written.
. "$(dirname "$0")/lib.sh"
bench=$VCUBE_TOP/build/bin/vcube-bench
placed=$VCUBE_TOP/build/tests/vm/placed
mpi=$VCUBE_TOP/build/tests/mpi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

# An exchange sweep as CSV (its rows then its facts line), the placement
# given by the arguments.
sweep() { vcube-run "$@" "$bench" exchange -q --csv --algo pairwise_F,linear,pex --sizes 64,4096 --reps 2; }
rows() { grep -v '^#' "$1"; }
# the rows that say every byte arrived
whole() { grep -c ',1$' "$1"; }
# same ROWS A B: the two files' rows (not their facts lines) are the same
same() { cmp -s <(rows "$1") <(rows "$2"); }
# run a placed.c mode; its "not ok" lines are shown
prog() { vcube-run "$@" > "$tmp/out" 2>&1; local rc=$?; grep -a '^not ok' "$tmp/out" | sed 's/^/# /'; return $rc; }
owners() { for i in "$@"; do attr "vcube$i/owner"; done | tr '\n' ' '; }

usenet topology=hypercube dim=5 && {
	# two jobs at once, each on 8 nodes of its own
	sweep --nodes 0-7 > "$tmp/a.both" &
	pa=$!
	sweep --nodes 8-15 > "$tmp/b.both"
	rb=$?
	wait $pa
	ra=$?
	check "two -n 8 jobs at once on nodes 0-7 and 8-15 of 32: both ran ($ra, $rb), all 12 rows whole" \
		sh -c "[ $ra = 0 ] && [ $rb = 0 ] && [ $(whole "$tmp/a.both") = 6 ] && [ $(whole "$tmp/b.both") = 6 ]"
	check "nothing stays bound after them" [ "$(owners $(seq 0 31) | tr -d '0 ')" = "" ]

	# alone: a subcube's times are 0-7's; a scattered placement's are not
	sweep --nodes 0-7 > "$tmp/a"
	sweep --nodes 8-15 > "$tmp/b"
	sweep -n 8 > "$tmp/n8"
	sweep --nodes 0,31,1,30,2,29,3,28 > "$tmp/far"
	check "--nodes 0-7 is -n 8: the same CSV, facts and all" cmp -s "$tmp/a" "$tmp/n8"
	check "nodes 8-15 (a 3-cube) alone: 0-7's times, to the ns ($(rows "$tmp/b" | sed -n 2p))" \
		same "$tmp/a" "$tmp/b"
	check "nodes 0,31,1,30,2,29,3,28: every byte there ($(whole "$tmp/far") of 6 rows)" [ "$(whole "$tmp/far")" = 6 ]
	check "... and other times than 0-7's: their routes are longer ($(rows "$tmp/far" | sed -n 2p))" \
		not same "$tmp/a" "$tmp/far"
	same "$tmp/a" "$tmp/a.both" ||
		echo "# (0-7 beside 8-15 took other times than alone: they share the network's virtual time)"
	vcube-run --nodes 8-15 "$bench" exchange -q --json --algo pex --sizes 4096 --reps 1 > "$tmp/b.json"
	vcube-run -n 8 "$bench" exchange -q --json --algo pex --sizes 4096 --reps 1 > "$tmp/a.json"
	good=0
	python3 -c 'import json,sys
a, b = (json.load(open(f))["results"] for f in sys.argv[1:])
assert len(a) == 1 and a[0]["ok"] and b[0]["ok"] and a[0]["max"] == b[0]["max"] > 0' "$tmp/a.json" "$tmp/b.json" && good=1
	check "JSON: pex on 8-15 takes what it takes on 0-7 ($(grep -o '"max": *[0-9]*' "$tmp/b.json"))" [ $good = 1 ]

	# the module saw the placement: the only links used are 8-15's
	vcubectl reset
	vcube-run --nodes 8-15 "$bench" exchange -q --algo pairwise_F --sizes 64 --reps 1 > /dev/null
	used=$(vcubectl -j links | python3 -c 'import json,sys
d = [l for l in json.load(sys.stdin) if l["messages"]]
print(len(d), all(8 <= l["from"] <= 15 and 8 <= l["to"] <= 15 for l in d))')
	check "--nodes 8-15: the links the exchange used are the 24 of nodes 8-15 ($used)" [ "$used" = "24 True" ]

	# each rank bound to its node, speaking ranks
	prog --nodes 8-15 "$placed" check
	rc=$?
	check "--nodes 8-15: each rank on its node, peers and sources in ranks ($(grep -c '^ok' "$tmp/out") checks)" [ $rc = 0 ]
	prog --nodes 0,31,1,30,2,29,3,28 "$placed" check
	rc=$?
	check "--nodes 0,31,1,30,2,29,3,28: the same ($(grep -c '^ok' "$tmp/out") checks)" [ $rc = 0 ]
	for r in 0 1 2 3 4 5 6 7; do
		echo "rank $r=localhost slot=$((23 - r))   # backwards"
	done > "$tmp/ranks"
	echo "# and a comment" >> "$tmp/ranks"
	prog --rankfile "$tmp/ranks" "$placed" check
	rc=$?
	check "--rankfile: ranks 0-7 on nodes 23 down to 16 ($(grep -c '^ok' "$tmp/out") checks)" [ $rc = 0 ]
	got=$(vcube-run --rankfile "$tmp/ranks" "$placed" hello 2> /dev/null | sort | tr '\n' ';')
	check "--rankfile: rank r on node 23 - r ($got)" \
		[ "$got" = "rank 0 node 23;rank 1 node 22;rank 2 node 21;rank 3 node 20;rank 4 node 19;rank 5 node 18;rank 6 node 17;rank 7 node 16;" ]
	for p in p2p coll order; do
		if timeout 600 vcube-run --nodes 0,31,1,30,2,29,3,28 "$mpi/$p" > "$tmp/out" 2>&1 &&
			grep -q "^$p: ok" "$tmp/out"; then
			ok "vcube-mpi's $p on nodes 0,31,1,30,2,29,3,28: $(grep "^$p: ok" "$tmp/out")"
		else
			no "vcube-mpi's $p on nodes 0,31,1,30,2,29,3,28: $(tail -3 "$tmp/out")"
		fi
	done

	# --tag-output
	vcube-run --tag-output --nodes 12-15 "$placed" hello > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "--tag-output: [1,R]<stdout>: before each rank's line (exit $rc)" \
		[ "$(sort "$tmp/out" | tr '\n' ';')" = "[1,0]<stdout>:rank 0 node 12;[1,1]<stdout>:rank 1 node 13;[1,2]<stdout>:rank 2 node 14;[1,3]<stdout>:rank 3 node 15;" ]
	check "--tag-output: [1,R]<stderr>: on stderr" \
		[ "$(sort "$tmp/err" | tr '\n' ';')" = "[1,0]<stderr>:bye 0;[1,1]<stderr>:bye 1;[1,2]<stderr>:bye 2;[1,3]<stderr>:bye 3;" ]
	vcube-run --tag-output --nodes 8-15 "$bench" exchange -q --algo pex --sizes 4096 --reps 1 > "$tmp/out"
	check "--tag-output: vcube-bench's table comes from rank 0, every line tagged ($(grep -c . "$tmp/out") lines)" \
		sh -c "grep -q '^\[1,0\]<stdout>:pex .* ok$' '$tmp/out' && ! grep -qv '^\[1,0\]<stdout>:' '$tmp/out'"

	# a job on nodes another holds: one line, naming the holder. The
	# holder sleeps, outside any call, so its nodes would hold back the
	# network's virtual time and every job beside it until it leaves
	# (docs/design.md); a network with an idle lease lets 8-15 run.
	usenet topology=hypercube dim=5 idle_lease_ms=100 || exit 1
	vcube-run -n 8 sleep 600 > /dev/null 2>&1 &
	holder=$!
	for i in $(seq 100); do
		[ "$(owners 0 1 2 3 4 5 6 7 | tr -d '0 ')" != "" ] &&
			! owners 0 1 2 3 4 5 6 7 | grep -qw 0 && break
		sleep 0.1
	done
	pid0=$(attr vcube0/owner)
	vcube-run -n 8 true 2> "$tmp/err"
	rc=$?
	check "a second -n 8 while 0-7 are held: exit 126, one line ($(cat "$tmp/err"))" \
		sh -c "[ $rc = 126 ] && [ \"\$(cat '$tmp/err')\" = 'vcube-run: nodes 0-7 of network t: Device or resource busy (node 0 held by pid $pid0)' ]"
	vcube-run -n 12 true 2> "$tmp/err"
	rc=$?
	check "-n 12 while 0-7 are held: exit 126, one line for 0-7 ($(cat "$tmp/err"))" \
		sh -c "[ $rc = 126 ] && [ \"\$(cat '$tmp/err')\" = 'vcube-run: nodes 0-7 of network t: Device or resource busy (node 0 held by pid $pid0)' ]"
	for i in $(seq 50); do [ "$(owners 8 9 10 11)" = "0 0 0 0 " ] && break; sleep 0.1; done
	check "... and its nodes 8-11, bound meanwhile, are free again ($(owners 8 9 10 11))" [ "$(owners 8 9 10 11)" = "0 0 0 0 " ]
	prog --nodes 8-15 "$placed" check
	rc=$?
	check "--nodes 8-15 while 0-7 are held, idle past the lease: runs ($(grep -c '^ok' "$tmp/out") checks, $(counter leases) leases ran out)" [ $rc = 0 ]
	kill $holder
	wait $holder
	for i in $(seq 50); do [ "$(owners 0 1 2 3 4 5 6 7 | tr -d '0 ')" = "" ] && break; sleep 0.1; done
	check "the holder gone, 0-7 are free" [ "$(owners 0 1 2 3 4 5 6 7 | tr -d '0 ')" = "" ]

	vcube-run --nodes 30-33 true 2> "$tmp/err"
	rc=$?
	check "--nodes 30-33 on 32 nodes: exit 2, one line ($(cat "$tmp/err"))" \
		sh -c "[ $rc = 2 ] && [ \"\$(cat '$tmp/err')\" = \"vcube-run: --nodes '30-33': node 32 is past network t's 32 nodes (0-31)\" ]"
	printf 'rank 0=localhost slot=3\nrank 1=localhost slot=99\n' > "$tmp/ranks"
	vcube-run --rankfile "$tmp/ranks" true 2> "$tmp/err"
	rc=$?
	check "a rankfile's node 99: exit 2, its file and line ($(cat "$tmp/err"))" \
		sh -c "[ $rc = 2 ] && [ \"\$(cat '$tmp/err')\" = \"vcube-run: $tmp/ranks:2: node 99 is past network t's 32 nodes (0-31)\" ]"
	nonet
}

# the control network's partitions are runs of nodes
usenet profile=cm5 nodes=32 && {
	prog --nodes 8-15 "$placed" cnet 1
	rc=$?
	check "cm5, --nodes 8-15: the control network's barrier, scan and broadcast in ranks ($(grep -c '^ok' "$tmp/out") checks)" [ $rc = 0 ]
	prog --nodes 0,2,4,6,8,10,12,14 "$placed" cnet 0
	rc=$?
	check "cm5, --nodes 0,2,..,14: no control network, EDOM and EOPNOTSUPP ($(grep -c '^ok' "$tmp/out") checks)" [ $rc = 0 ]
	nonet
}

# the README's example, as written (it makes and deletes its network)
loaded || load
"$VCUBE_TOP/scripts/doc-cmds.py" get "$VCUBE_TOP/README.md" placement-example > "$tmp/readme.sh"
(cd "$tmp" && bash -e readme.sh) > "$tmp/readme.out" 2>&1
rc=$?
check "README's placement example runs as written ($(grep -c . "$tmp/readme.sh") lines, status $rc)" \
	sh -c "[ $rc = 0 ] && [ \$(grep -c '^pairwise_F .* ok' '$tmp/readme.out') = 2 ] &&
		grep -q '^\[1,0\]<stdout>:pex .* ok' '$tmp/readme.out' && [ ! -e /dev/vcube/p ]"
[ $rc = 0 ] || sed 's/^/# /' "$tmp/readme.out" | tail -n 20
exit $fail
