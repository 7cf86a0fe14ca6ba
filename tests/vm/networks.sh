#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Networks as objects (vcubectl net, netlink's net-new/net-del/net-get):
# two networks of other topologies than the default one, and the default
# one, running exchanges at once, each with the virtual times it gives
# alone; bad descriptions refused with nothing left behind; a network
# deleted under blocked and idle nodes; destroy-on-close; an unprivileged
# user's private network in its own user and network namespace, which no
# other namespace sees; a namespace's exit with a node held; rmmod; the
# bounds; a module with no network.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
# where the unprivileged user below writes
mkdir "$tmp/u" && chown 4242:4242 "$tmp/u"
# A sweep whose virtual times are compared to the bit (CSV: no progress).
sweep() { # NET N ALGOS SIZES
	vcube-run --net "$1" -n "$2" vcube-bench exchange -q --csv --algo "$3" --sizes "$4" --reps 2
}
netcount() { vcubectl -j net show | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))'; }

load topology=hypercube dim=5 profile=ipsc860 && {
	vcubectl net add a topology=hypercube dim=3 > "$tmp/a" 2>&1
	check "net add a topology=hypercube dim=3: $(cat "$tmp/a")" grep -q '^1: a hypercube dim=3 nodes 8 ' "$tmp/a"
	vcubectl net add b topology=mesh rows=4 cols=4 profile=delta > "$tmp/b" 2>&1
	check "net add b topology=mesh rows=4 cols=4 profile=delta: $(cat "$tmp/b")" grep -q 'b mesh rows=4 cols=4 nodes 16 .*profile delta wormhole' "$tmp/b"
	check "b's nodes are /dev/vcube/b/0..15, 0600, root's" \
		sh -c '[ "$(ls /dev/vcube/b | wc -l)" = 16 ] && [ "$(stat -c %a:%U /dev/vcube/b/15)" = 600:root ]'
	check "b's facts in /sys/class/vcube_net/b (shape, profile, nodes)" \
		sh -c '[ "$(cat /sys/class/vcube_net/b/shape)" = "rows=4 cols=4" ] && [ "$(cat /sys/class/vcube_net/b/profile)" = delta ] && [ "$(cat /sys/class/vcube_net/b/nodes)" = 16 ]'
	check "the default network's sysfs is as before (/sys/class/vcube: hypercube, 32 nodes)" \
		sh -c '[ "$(cat /sys/class/vcube/topology)" = hypercube ] && [ "$(cat /sys/class/vcube/nodes)" = 32 ] && [ -e /sys/class/vcube/vcube31/coords ]'
	check "vcubectl --net b show: the mesh" sh -c 'vcubectl --net b show | grep -q "^mesh rows=4 cols=4 nodes 16"'

	# each alone, then all three at once
	sweep a 8 pairwise_F,linear 64,4096 > "$tmp/a.solo"
	sweep b 16 pairwise_F,linear 64,4096 > "$tmp/b.solo"
	sweep default 32 pairwise_F 1024 > "$tmp/d.solo"
	sweep a 8 pairwise_F,linear 64,4096 > "$tmp/a.both" &
	pa=$!
	sweep b 16 pairwise_F,linear 64,4096 > "$tmp/b.both" &
	pb=$!
	sweep default 32 pairwise_F 1024 > "$tmp/d.both"
	wait $pa; ra=$?
	wait $pb; rb=$?
	check "a (8 nodes) and b (16) and the default (32) at once: all ran, every byte checked" \
		sh -c "[ $ra = 0 ] && [ $rb = 0 ] && [ \$(cat $tmp/*.both | grep -c ',1\$') = 9 ]"
	check "a's virtual times at once are its times alone, to the ns ($(grep -c . "$tmp/a.solo") lines)" \
		cmp -s "$tmp/a.solo" "$tmp/a.both"
	check "b's virtual times at once are its times alone, to the ns" cmp -s "$tmp/b.solo" "$tmp/b.both"
	check "the default network's times at once are its times alone, to the ns" cmp -s "$tmp/d.solo" "$tmp/d.both"
	check "a mesh's times are not a hypercube's (the runs were on their own networks)" \
		not cmp -s "$tmp/a.solo" "$tmp/b.solo"
	check "b's counters over netlink are b's: 16 nodes, 48 links" \
		sh -c '[ "$(vcubectl --net b -j topo | python3 -c "import json,sys; d=json.load(sys.stdin); print(d[\"nodes\"], d[\"links\"])")" = "16 48" ]'

	# dims=: b's mesh again is b, to the ns; a 3-D torus and its words
	vcubectl net add b2 topology=mesh dims=4,4 profile=delta > "$tmp/b2" 2>&1
	check "net add b2 topology=mesh dims=4,4: $(cat "$tmp/b2")" grep -q 'b2 mesh dims=4,4 nodes 16 ' "$tmp/b2"
	sweep b2 16 pairwise_F,linear 64,4096 > "$tmp/b2.solo"
	# (the rows; the facts lines name the shape each was given)
	check "b2 (dims=4,4) gives b's (rows=4 cols=4) virtual times, to the ns ($(grep -v '^#' "$tmp/b2.solo" | sed -n 2p))" cmp -s <(grep -v '^#' "$tmp/b.solo") <(grep -v '^#' "$tmp/b2.solo")
	vcubectl net del b2
	vcubectl net add c topology=torus dims=4,4,4 > "$tmp/c" 2>&1
	check "net add c topology=torus dims=4,4,4: $(cat "$tmp/c")" grep -q 'c torus dims=4,4,4 nodes 64 ' "$tmp/c"
	check "c: sysfs shape dims=4,4,4, 64 nodes, node 57 at (1,2,3)" \
		sh -c '[ "$(cat /sys/class/vcube_net/c/shape)" = dims=4,4,4 ] && [ "$(cat /sys/class/vcube_net/c/nodes)" = 64 ] && [ "$(cat /sys/class/vcube_net/c/vcube57/coords)" = "(1,2,3)" ]'
	check "c: 384 channels over netlink" \
		sh -c '[ "$(vcubectl --net c -j topo | python3 -c "import json,sys; print(json.load(sys.stdin)[\"channels\"])")" = 384 ]'
	check "c: an exchange on 64 nodes of a 4x4x4 torus runs" \
		sh -c "vcube-run --net c -n 64 vcube-bench exchange -q --csv --algo pairwise_F --sizes 64 --reps 1 | grep -q ',1\$'"
	vcubectl net del c
	out=$(vcubectl net add e topology=torus dims=4,1 2>&1)
	# (before 6.3 the family cannot carry the module's reason: vcubectl
	# says so, and badparams.sh checks the reason through insmod)
	case ${VCUBE_KREL:-} in
	6.1.*) why='Invalid argument: a bad word; Linux before 6.3 cannot say which here' ;;
	*) why='each size must be at least 2' ;;
	esac
	check "net add e topology=torus dims=4,1 refused, saying why: $out" grep -q "$why" <<<"$out"

	# SimGrid's fat tree: the CM-5's nodes=16 in its words is it, to the
	# ns; a tree of its own, its shape, channels and an exchange on it
	vcubectl net add f topology=fattree nodes=16 profile=cm5 > /dev/null
	vcubectl net add f2 topology=fattree levels=2 down=4,4 up=2,2 routing=random profile=cm5 > "$tmp/f2" 2>&1
	check "net add f2 topology=fattree levels=2 down=4,4 up=2,2: $(cat "$tmp/f2")" grep -q 'f2 fattree levels=2 down=4,4 up=2,2 links=1,1 nodes 16 ' "$tmp/f2"
	sweep f 16 pairwise_F,linear 64,4096 > "$tmp/f.solo"
	sweep f2 16 pairwise_F,linear 64,4096 > "$tmp/f2.solo"
	check "f2 (levels=2 down=4,4 up=2,2 routing=random) gives f's (nodes=16) virtual times, to the ns" cmp -s <(grep -v '^#' "$tmp/f.solo") <(grep -v '^#' "$tmp/f2.solo")
	vcubectl net del f
	vcubectl net del f2
	vcubectl net add g topology=fattree levels=2 down=4,8 up=1,8 profile=cm5 > "$tmp/g" 2>&1
	check "net add g topology=fattree levels=2 down=4,8 up=1,8: $(cat "$tmp/g")" grep -q 'g fattree levels=2 down=4,8 up=1,8 links=1,1 nodes 32 ' "$tmp/g"
	check "g: sysfs shape in its words, 32 nodes, node 13 at 3.1" \
		sh -c '[ "$(cat /sys/class/vcube_net/g/shape)" = "levels=2 down=4,8 up=1,8 links=1,1" ] && [ "$(cat /sys/class/vcube_net/g/nodes)" = 32 ] && [ "$(cat /sys/class/vcube_net/g/vcube13/coords)" = 3.1 ]'
	# 32 processor links, 8 leaf switches x 8 parents: 96 links, 192 channels
	n=$(vcubectl --net g -j topo | python3 -c 'import json,sys; print(json.load(sys.stdin)["channels"])')
	check "g: 192 channels over netlink ($n)" [ "$n" = 192 ]
	check "g: an exchange on 32 nodes of it runs" \
		sh -c "vcube-run --net g -n 32 vcube-bench exchange -q --csv --algo pairwise_F --sizes 64 --reps 1 | grep -q ',1\$'"
	vcubectl net del g
	out=$(vcubectl net add h topology=fattree levels=2 down=4,4 up=1 2>&1)
	case ${VCUBE_KREL:-} in
	6.1.*) why='Invalid argument: a bad word; Linux before 6.3 cannot say which here' ;;
	*) why='up= has 1 values: levels=2 needs 2' ;;
	esac
	check "net add h topology=fattree levels=2 down=4,4 up=1 refused, saying why: $out" grep -q "$why" <<<"$out"
	# a dragonfly by its words: 9 groups of 4 routers, 2 nodes each
	vcubectl net add d topology=dragonfly groups=9 routers=4 nodes=2 global=2 routing=ugal > "$tmp/d" 2>&1
	check "net add d topology=dragonfly ...: $(cat "$tmp/d")" \
		grep -q 'd dragonfly groups=9 routers=4 nodes=2 global=2 routing=ugal nodes 72 ' "$tmp/d"
	check "d: sysfs shape, 72 nodes, node 71 at 8.3.1, profile cm5" \
		sh -c '[ "$(cat /sys/class/vcube_net/d/shape)" = "groups=9 routers=4 nodes=2 global=2 routing=ugal" ] && [ "$(cat /sys/class/vcube_net/d/nodes)" = 72 ] && [ "$(cat /sys/class/vcube_net/d/vcube71/coords)" = 8.3.1 ] && [ "$(cat /sys/class/vcube_net/d/profile)" = cm5 ]'
	check "d: 324 channels over netlink" \
		sh -c '[ "$(vcubectl --net d -j topo | python3 -c "import json,sys; print(json.load(sys.stdin)[\"channels\"])")" = 324 ]'
	check "d: an exchange on the 72 nodes of a dragonfly runs" \
		sh -c "vcube-run --net d -n 72 vcube-bench exchange -q --csv --algo pex --sizes 64 --reps 1 | grep -q ',1\$'"
	vcubectl net del d
	# today's preset by name alone: its dragonfly, costs to the ps, and
	# the same virtual ns as vcube-sim's for a complete exchange
	vcubectl net add s profile=slingshot > "$tmp/s" 2>&1
	check "net add s profile=slingshot: $(cat "$tmp/s")" \
		grep -q 's dragonfly groups=9 routers=4 nodes=2 global=2 routing=minimal nodes 72 .*slingshot' "$tmp/s"
	check "s: wormhole, 40 ps a byte on links and on the nodes' own" \
		sh -c 'cd /sys/class/vcube_net/s && [ "$(cat profile) $(cat switching) $(cat lanes) $(cat gamma) $(cat short_byte_ps) $(cat inject_byte_ps) $(cat eject_byte_ps)" = "slingshot wormhole 0 0 40 40 40" ]'
	# each message's route in the trace, minimal or not: every one under
	# minimal routing, and some of Valiant's (two global links)
	vcube-run --net s -n 72 vcube-bench exchange -q --csv --algo pex --sizes 64 --reps 1 > /dev/null 2>&1
	vcubectl --net s trace > "$tmp/s.trace" 2>&1
	check "s: vcubectl trace gives each message's route, all minimal ($(grep -c ' minimal yes' "$tmp/s.trace") of them)" \
		sh -c "[ \$(grep -c ' minimal yes' $tmp/s.trace) -gt 100 ] && ! grep -q ' minimal no' $tmp/s.trace && grep -q ' route [0-9]*,[0-9]*,[0-9]*' $tmp/s.trace"
	vcubectl net del s
	vcubectl net add v topology=dragonfly groups=4 routers=2 nodes=2 global=2 routing=valiant profile=slingshot > /dev/null
	vcube-run --net v -n 16 vcube-bench exchange -q --csv --algo pex --sizes 64 --reps 1 > /dev/null 2>&1
	vcubectl --net v -j trace > "$tmp/v.trace" 2>&1
	check "v: Valiant's routes in the trace, some not minimal ($(grep -Eo '"minimal": ?false' "$tmp/v.trace" | wc -l) of them)" \
		sh -c "grep -Eq '\"minimal\": ?false' $tmp/v.trace && grep -Eq '\"minimal\": ?true' $tmp/v.trace"
	vcubectl net del v
	out=$(vcubectl net add d topology=dragonfly groups=10 routers=4 nodes=2 global=2 2>&1)
	case ${VCUBE_KREL:-} in
	6.1.*) why='Invalid argument: a bad word; Linux before 6.3 cannot say which here' ;;
	*) why='groups=10 > routers\*global+1=9: too few global links' ;;
	esac
	check "net add d with groups=10 of 4x2 links refused, saying why: $out" grep -q "$why" <<<"$out"

	# a graph read from a file: BookSim2's anynet, an 8-router ring with
	# two chords, 2 nodes on each router
	cat > "$tmp/ring.anynet" <<-'ANYNET'
	router 0 node 0 node 1 router 1 router 4
	router 1 node 2 node 3 router 2
	router 2 node 4 node 5 router 3 router 6
	router 3 node 6 node 7 router 4
	router 4 node 8 node 9 router 5
	router 5 node 10 node 11 router 6
	router 6 node 12 node 13 router 7
	router 7 node 14 node 15 router 0
	ANYNET
	vcubectl net add r topology=graph file="$tmp/ring.anynet" > "$tmp/r" 2>&1
	check "net add r topology=graph file=ring.anynet: $(cat "$tmp/r")" \
		grep -q 'r graph routers=8 nodes=16 links=10 nodes 16 channels 52 ' "$tmp/r"
	check "r: sysfs topology graph, 16 nodes, node 13 on router 6, diameter 5" \
		sh -c '[ "$(cat /sys/class/vcube_net/r/topology)" = graph ] && [ "$(cat /sys/class/vcube_net/r/nodes)" = 16 ] && [ "$(cat /sys/class/vcube_net/r/vcube13/coords)" = r6 ] && [ "$(cat /sys/class/vcube_net/r/diameter)" = 5 ]'
	sweep r 16 pairwise_F,pex 64,4096 > "$tmp/r.solo"
	check "r: exchanges on the 16 nodes of a file's graph run, every byte checked ($(grep -v '^#' "$tmp/r.solo" | sed -n 2p))" \
		sh -c "[ \$(grep -c ',1\$' '$tmp/r.solo') = 4 ]"
	sweep r 16 pairwise_F,pex 64,4096 > "$tmp/r.again"
	check "r: the same virtual times again, to the ns" cmp -s "$tmp/r.solo" "$tmp/r.again"
	n=$(vcubectl --net r -j links | python3 -c 'import json,sys; print(sum(1 for l in json.load(sys.stdin) if l.get("dir") == 2))' 2>/dev/null)
	check "r: 20 router-to-router channels over netlink ($n)" [ "$n" = 20 ]
	vcubectl net del r
	# file= alone implies topology=graph; a file the reader refuses
	vcubectl net add r2 file="$tmp/ring.anynet" > "$tmp/r2" 2>&1
	check "net add r2 file=ring.anynet alone makes a graph: $(cat "$tmp/r2")" \
		grep -q 'r2 graph routers=8' "$tmp/r2"
	vcubectl net del r2 2>/dev/null
	printf 'router 0 node 0 router 1\nrouter 2 node 1\n' > "$tmp/apart.anynet"
	out=$(vcubectl net add r3 file="$tmp/apart.anynet" 2>&1)
	check "net add of a graph in two parts refused, saying why: $out" \
		grep -qE 'connected|reached' <<<"$out"
	check "net add of a graph in two parts left no network" [ ! -e /dev/vcube/r3 ]
	out=$(vcubectl net add r3 file=/nonexistent.anynet 2>&1)
	check "net add of a missing file refused, naming it: $out" grep -q nonexistent <<<"$out"

	nets graph
	[ $? = 0 ] || no "nets graph"
	nets bad
	[ $? = 0 ] || no "nets bad"

	vcubectl net add x topology=hypercube dim=1 > /dev/null
	nets deleted x > "$tmp/del" 2>&1 &
	pd=$!
	for i in $(seq 50); do grep -q ready "$tmp/del" && break; sleep 0.1; done
	vcubectl net del x
	check "net del x with a node blocked and one idle: done" [ $? = 0 ]
	wait $pd
	check "a deleted network's calls: $(grep -c '^ok' "$tmp/del") of 4 ENODEV" [ $? = 0 ]
	grep '^not ok' "$tmp/del" | sed 's/^/# /'
	check "its devices went with it" [ ! -e /dev/vcube/x ]
	check "its name is free at once: net add x again" sh -c 'vcubectl net add x dim=2 > /dev/null && vcubectl net del x'

	coproc NETS { nets close y topology=hypercube dim=2; }
	made= id=
	while read -r made id <&"${NETS[0]}"; do [ "$made" = made ] && break; done
	check "destroy-on-close: y made ($made $id)" sh -c "[ '$made' = made ] && [ -e /dev/vcube/y/3 ] && vcubectl net show y > /dev/null"
	echo >&"${NETS[1]}"
	wait $NETS_PID
	check "destroy-on-close: y went with its socket" sh -c '! vcubectl net show y 2>/dev/null && [ ! -e /dev/vcube/y ]'

	# an unprivileged user: nothing in the initial namespace, its own
	# network in its own user and network namespace
	user="setpriv --reuid=4242 --regid=4242 --clear-groups"
	out=$($user vcubectl net add z dim=1 2>&1)
	check "an unprivileged user cannot make a network in the initial namespace ($out)" \
		grep -q 'Operation not permitted' <<<"$out"
	cat > "$tmp/private.sh" <<-'EOF'
		vcubectl net add p topology=mesh rows=2 cols=2 profile=delta > /dev/null || exit 11
		[ "$(vcubectl -j net show | python3 -c 'import json,sys; print([n["name"] for n in json.load(sys.stdin)])')" = "['p']" ] || exit 12
		vcube-run --net p -n 4 vcube-bench exchange -q --csv --algo pairwise_F --sizes 256 --reps 1 > "$1/p.csv" || exit 13
		vcubectl net del default 2> /dev/null && exit 14
		vcubectl --net p -j nodes > /dev/null || exit 15
		exit 0
	EOF
	$user unshare -Urn bash "$tmp/private.sh" "$tmp/u"
	rc=$?
	check "in unshare -Urn an unprivileged user makes, lists (only its own), runs on and keeps a mesh; the default is not its to delete (status $rc)" \
		sh -c "[ $rc = 0 ] && grep -q '^pairwise_F,256,.*,1$' $tmp/u/p.csv"
	for i in $(seq 50); do [ -e /dev/vcube/p ] || break; sleep 0.1; done
	check "its namespace's exit deleted it" [ ! -e /dev/vcube/p ]
	check "the initial namespace never saw it" sh -c '! vcubectl net show p 2> /dev/null'

	# a namespace's exit with a node held open from outside
	unshare -n sh -c 'vcubectl net add q dim=1 > /dev/null && touch '"$tmp"'/q && sleep 2' &
	pq=$!
	for i in $(seq 50); do [ -e "$tmp/q" ] && break; sleep 0.1; done
	exec 3<> /dev/vcube/q/0
	wait $pq
	for i in $(seq 50); do [ -e /dev/vcube/q ] || break; sleep 0.1; done
	check "a namespace's exit with a node of its network open: the network went" [ ! -e /dev/vcube/q ]
	VCUBE_RANK=0 VCUBE_SIZE=1 VCUBE_FD=3 nets held
	[ $? = 0 ] || no "nets held"
	exec 3>&-

	# the README's example, as written (it makes a and b itself)
	vcubectl net del a && vcubectl net del b
	"$VCUBE_TOP/scripts/doc-cmds.py" get "$VCUBE_TOP/README.md" networks-example > "$tmp/readme.sh"
	(cd "$tmp" && bash -e readme.sh) > "$tmp/readme.out" 2>&1
	rc=$?
	check "README's networks example runs as written ($(grep -c . "$tmp/readme.sh") lines, status $rc)" \
		sh -c "[ $rc = 0 ] && grep -q '^pairwise_F .* ok' $tmp/readme.out && grep -q '^pex .* ok' $tmp/readme.out && [ ! -e /dev/vcube/a ]"
	[ $rc = 0 ] || sed 's/^/# /' "$tmp/readme.out" | tail -n 20
	# the README's today's networks: a 3-D torus, a fat tree, a dragonfly
	"$VCUBE_TOP/scripts/doc-cmds.py" get "$VCUBE_TOP/README.md" todays-networks > "$tmp/today.sh"
	(cd "$tmp" && bash -e today.sh) > "$tmp/today.out" 2>&1
	rc=$?
	check "README's today's networks run as written ($(grep -c . "$tmp/today.sh") lines, status $rc)" \
		sh -c "[ $rc = 0 ] && [ \$(grep -c '^pex .* ok' $tmp/today.out) = 4 ] && [ ! -e /dev/vcube/d ]"
	[ $rc = 0 ] || sed 's/^/# /' "$tmp/today.out" | tail -n 20
	vcubectl net add a dim=3 > /dev/null
	vcubectl net add b topology=mesh rows=4 cols=4 profile=delta > /dev/null

	exec 3<> /dev/vcube/b/5
	check "rmmod refused while a node of b is open" not rmmod vcube 2> /dev/null
	exec 3>&-
	rmmod vcube
	check "rmmod with networks a and b made: done, their devices gone" \
		sh -c "[ $? = 0 ] && [ ! -e /dev/vcube/a ] && [ ! -e /sys/class/vcube_net ]"
}

load dim=5 max_nets=2 max_nodes=48 && {
	out=$(vcubectl net add m1 dim=3 2>&1)
	check "max_nets=2: the default and one more ($out)" [ $? = 0 ]
	out=$(vcubectl net add m2 dim=1 2>&1)
	# (Linux 6.1 cannot format the reason: a sentence naming the bounds)
	check "max_nets=2: a third refused, ENOSPC, saying which bound ($out)" \
		grep -q 'No space left on device.*max_nets' <<<"$out"
	vcubectl net del m1
	out=$(vcubectl net add m3 dim=5 2>&1)
	check "max_nodes=48: 32 + 32 refused ($out)" grep -q 'No space left on device.*max_nodes' <<<"$out"
	out=$(vcubectl net add m4 dim=4 2>&1)
	check "max_nodes=48: 32 + 16 made" [ $? = 0 ]
}

load default_net=0 && {
	n=$(netcount)
	check "default_net=0: no /dev/vcube0, no network ($n)" sh -c "[ ! -e /dev/vcube0 ] && [ '$n' = 0 ]"
	vcubectl net add only topology=torus rows=4 cols=4 profile=ap1000 > /dev/null
	sweep only 16 pairwise_F 512 > "$tmp/only"
	check "default_net=0: a network made over netlink runs ($(tail -n 1 "$tmp/only"))" grep -q '^pairwise_F,512,.*,1$' "$tmp/only"
	out=$(vcubectl topo 2>&1)
	check "default_net=0: commands without a network say there is no default one ($out)" \
		grep -q 'no default network' <<<"$out"
}
unload
exit $fail
