#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The stress layer, in the guest (tests/vm/run.sh stress): random ioctls
# from many processes and from threads sharing a file, with kill -9,
# SIGSTOP/SIGCONT and netlink and sysfs readers alongside; the same as an
# unprivileged user; kill -9 of random ranks mid-exchange on every profile;
# insmod/rmmod cycles; networks made and deleted under programs, readers
# and rmmod. Each case prints its counts and a pass/fail line; the
# kernel log is checked by run.sh after it.
#
#   VCUBE_STRESS=long   the long suite (make stress): 1,000,000 calls from
#                       64 processes, 100 kill -9s mid-exchange, 100 module
#                       cycles, and the memory, lock-hold and signal cases
#                       (bounds.sh, signals.sh)
#   VCUBE_STRESS_SEED   the seed (default 1): the same seed, the same calls
. "$VCUBE_TOP/tests/vm/lib.sh"
PATH=$VCUBE_TOP/build/tests/stress:$PATH
seed=${VCUBE_STRESS_SEED:-1}
if [ "${VCUBE_STRESS:-short}" = long ]; then
	procs=64 ops=1000000 kills=100 stops=100 xkills=20 cycles=100 uops=100000 nrounds=300
else
	procs=16 ops=20000 kills=4 stops=4 xkills=2 cycles=10 uops=4000 nrounds=30
fi
tmp=$(mktemp -d)

# Readers of every netlink dump and of sysfs, in a loop until told to stop.
readers() {
	while [ ! -e "$tmp/stop" ]; do
		vcubectl -j links > /dev/null 2>&1
		vcubectl -j nodes > /dev/null 2>&1
		vcubectl -j trace > /dev/null 2>&1
		vcubectl -j windows > /dev/null 2>&1
		cat /sys/class/vcube/vcube*/owner /sys/class/vcube/shape > /dev/null 2>&1
	done
}

# Every node unbound, and the module goes (nothing holds it).
idle_and_gone() {
	local busy=0 n
	for n in /sys/class/vcube/vcube*/owner; do
		[ "$(cat "$n")" = 0 ] || busy=$((busy + 1))
	done
	check "$1: every node unbound after it ($busy bound)" [ $busy = 0 ]
	check "$1: rmmod after it" rmmod vcube
}

# ---- random ioctls, root, 64 processes then threads sharing files
for mode in procs threads; do
	load topology=hypercube dim=5 || continue
	rm -f "$tmp/stop"
	readers & r1=$!
	readers & r2=$!
	args=(--procs $procs --ops $ops --seed $seed --kills $kills --stops $stops)
	[ $mode = threads ] && args+=(--threads)
	start=$(date +%s)
	fuzz "${args[@]}" 2> "$tmp/err"
	rc=$?
	: > "$tmp/stop"
	wait $r1 $r2
	head -n 5 "$tmp/err"
	check "fuzz ($mode) ended with status 0 in $(($(date +%s) - start)) s" [ $rc = 0 ]
	idle_and_gone "fuzz ($mode)"
done

# ---- the same as a real unprivileged user, devices opened to all
load topology=mesh rows=4 cols=4 mode=0666 && {
	start=$(date +%s)
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$VCUBE_TOP/build/tests/stress/fuzz" --procs 8 --ops $uops --nodes 16 \
		--seed $((seed + 7)) --threads 2> "$tmp/err"
	rc=$?
	head -n 5 "$tmp/err"
	check "fuzz as uid 65534 ended with status 0 in $(($(date +%s) - start)) s" [ $rc = 0 ]
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	nobody vcubectl reset > /dev/null 2>&1
	check "uid 65534: vcubectl reset refused" [ $? = 1 ]
	nobody vcubectl trace > /dev/null 2>&1
	check "uid 65534: vcubectl trace refused" [ $? = 1 ]
	nobody vcubectl -j links > /dev/null 2>&1
	check "uid 65534: vcubectl links answers" [ $? = 0 ]
	nobody rmmod vcube 2> /dev/null
	check "uid 65534: rmmod refused" loaded
	nobody insmod "$VCUBE_KO" 2> /dev/null
	check "uid 65534: insmod refused" [ $? != 0 ]
	nobody sh -c 'echo 1 > /sys/class/vcube/seed' 2> /dev/null
	check "uid 65534: sysfs is read-only" [ $? != 0 ]
	idle_and_gone "fuzz as uid 65534"
}

# ---- kill -9 of a random rank mid-exchange, on every profile
profiles=("profile=ipsc860 topology=hypercube dim=4"
	"profile=seidel topology=hypercube dim=4"
	"profile=delta topology=mesh rows=4 cols=4"
	"profile=ap1000 topology=torus rows=4 cols=4"
	"profile=cm5 topology=fattree nodes=16")
for p in "${profiles[@]}"; do
	load $p || continue
	killx --ranks 16 --rounds 6 --kills $xkills --seed $seed 2> "$tmp/err"
	rc=$?
	head -n 5 "$tmp/err"
	check "killx on $p: status 0" [ $rc = 0 ]
	idle_and_gone "killx on $p"
done

# ---- insmod/rmmod cycles, each with a node bound and a message sent
kinds=("topology=hypercube dim=3" "topology=mesh rows=2 cols=5" "topology=torus rows=3 cols=3"
	"topology=fattree nodes=12" "profile=cm5 nodes=8" "profile=delta rows=2 cols=2")
bad=0
for ((i = 0; i < cycles; i++)); do
	insmod "$VCUBE_KO" ${kinds[$((i % ${#kinds[@]}))]} seed=$i || { bad=$((bad + 1)); continue; }
	vcube-run -n 2 true > /dev/null 2>&1 || bad=$((bad + 1))
	exec 3<> /dev/vcube1
	rmmod vcube 2> /dev/null && bad=$((bad + 1))	# refused: a node is open
	exec 3>&-
	rmmod vcube || bad=$((bad + 1))
done
check "$cycles insmod/rmmod cycles over six shapes: rmmod refused while a node is open, then clean ($bad failures)" [ $bad = 0 ]

# ---- networks made and deleted under programs bound to them, netlink
# readers and dumps, then rmmod under a stream of net-new
load topology=hypercube dim=3 && {
	: > "$tmp/hung"
	# programs on networks r0..r3, which come and go under them: each
	# runs to its end or fails (ENODEV, ENOENT), none may hang
	users() {
		local k=$1 i=0
		while [ ! -e "$tmp/stop" ]; do
			timeout 60 vcube-run --net r$k -n 4 vcube-bench exchange -q --csv \
				--algo pairwise_F,linear --sizes 64,1024 --reps 2 > /dev/null 2>&1
			case $? in
			0) ;;
			124) echo "r$k" >> "$tmp/hung" ;;
			*) sleep 0.1 ;;	# no such network (yet, or any more)
			esac
			i=$((i + 1))
		done
	}
	netreaders() {
		while [ ! -e "$tmp/stop" ]; do
			for k in 0 1 2 3; do
				vcubectl --net r$k -j links > /dev/null 2>&1
				vcubectl --net r$k -j nodes > /dev/null 2>&1
				vcubectl --net r$k trace > /dev/null 2>&1
				cat /sys/class/vcube_net/r$k/shape /sys/class/vcube_net/r$k/vcube*/owner > /dev/null 2>&1
			done
			vcubectl -j net show > /dev/null 2>&1
		done
	}
	rm -f "$tmp/stop"
	pids=()
	for k in 0 1 2 3; do users $k & pids+=($!); done
	netreaders & pids+=($!)
	kinds=("topology=hypercube dim=2" "topology=mesh rows=2 cols=2 profile=delta"
		"topology=torus rows=2 cols=3 profile=ap1000" "profile=cm5 nodes=4")
	made=0 gone=0
	for ((i = 0; i < nrounds; i++)); do
		k=$((i % 4))
		vcubectl net add r$k ${kinds[$(((i / 4) % 4))]} seed=$i > /dev/null 2>&1 && made=$((made + 1))
		sleep "0.$((RANDOM % 5))"
		vcubectl net del r$k 2> /dev/null && gone=$((gone + 1))
	done
	: > "$tmp/stop"
	wait "${pids[@]}"
	check "$nrounds networks made and deleted under 4 programs' binds, sends and waits and netlink and sysfs readers ($made made, $gone deleted)" \
		sh -c "[ $made = $nrounds ] && [ $gone = $nrounds ]"
	check "no program hung on a deleted network ($(sort -u "$tmp/hung" | tr '\n' ' '))" [ ! -s "$tmp/hung" ]
	names=$(vcubectl -j net show | python3 -c 'import json,sys; print(" ".join(n["name"] for n in json.load(sys.stdin)))')
	check "none left: only the default network ($names), no /dev/vcube/" \
		sh -c "[ '$names' = default ] && [ ! -e /dev/vcube ]"
	# rmmod under a stream of net-new and net-show
	rm -f "$tmp/stop"
	( i=0; while [ ! -e "$tmp/stop" ]; do
		vcubectl net add s$((i % 8)) dim=2 > /dev/null 2>&1
		vcubectl -j net show > /dev/null 2>&1; i=$((i + 1)); done ) &
	adder=$!
	sleep 2
	for i in $(seq 50); do rmmod vcube 2> /dev/null && break; sleep 0.1; done
	: > "$tmp/stop"
	wait $adder
	check "rmmod under a stream of net-new: done, every network gone" \
		sh -c '[ ! -e /sys/module/vcube ] && [ ! -e /dev/vcube ] && [ ! -e /sys/class/vcube_net ]'
}

# ---- the long suite also runs the memory, lock-hold and signal cases
if [ "${VCUBE_STRESS:-short}" = long ]; then
	bash "$VCUBE_TOP/tests/vm/bounds.sh"
	bash "$VCUBE_TOP/tests/vm/signals.sh"
fi
unload
rm -rf "$tmp"
exit $fail
