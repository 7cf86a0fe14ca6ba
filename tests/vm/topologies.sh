#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every topology, the first from module parameters, the others as networks
# made over netlink; check the device nodes, the sysfs facts and every
# node's neighbours against values computed here independently, and a few
# routes the papers spell out hop by hop. Then unload (or delete) and
# check nothing is left.
. "$(dirname "$0")/lib.sh"

# Neighbours as the kernel lists them, derived from the machine's wiring.
neighbors() {
	local kind=$1 n=$2 a=$3 b=$4 out=() r c x cand
	case $kind in
	hypercube)
		for ((x = 0; x < a; x++)); do out+=($((n ^ (1 << x)))); done ;;
	mesh)
		r=$((n / b)); c=$((n % b))
		((r > 0)) && out+=($((n - b)))
		((c > 0)) && out+=($((n - 1)))
		((c + 1 < b)) && out+=($((n + 1)))
		((r + 1 < a)) && out+=($((n + b))) ;;
	torus)
		r=$((n / b)); c=$((n % b))
		for cand in $((((r + a - 1) % a) * b + c)) $((r * b + (c + b - 1) % b)) \
			    $((r * b + (c + 1) % b)) $((((r + 1) % a) * b + c)); do
			((cand == n)) && continue
			[[ " ${out[*]} " == *" $cand "* ]] && continue
			out+=($cand)
		done ;;
	fattree)
		for ((x = n & ~3; x < (n | 3) + 1 && x < a; x++)); do
			((x != n)) && out+=($x)
		done ;;
	esac
	echo "${out[*]}"
}

# kind params nodes channels shape a b
configs=(
	"hypercube|dim=1|2|2|dim=1|1|0"
	"hypercube|dim=5|32|160|dim=5|5|0"
	"hypercube|dim=7|128|896|dim=7|7|0"
	"mesh|rows=5 cols=5|25|80|rows=5 cols=5|5|5"
	"mesh|rows=16 cols=9|144|526|rows=16 cols=9|16|9"
	"mesh|rows=4 cols=5|20|62|rows=4 cols=5|4|5"
	"mesh|rows=16 cols=32|512|1952|rows=16 cols=32|16|32"
	"torus|rows=4 cols=5|20|80|rows=4 cols=5|4|5"
	"torus|rows=5 cols=5|25|100|rows=5 cols=5|5|5"
	"torus|rows=16 cols=9|144|576|rows=16 cols=9|16|9"
	"torus|rows=1 cols=6|6|12|rows=1 cols=6|1|6"
	"fattree|nodes=16|16|96|nodes=16 levels=2|16|0"
	"fattree|nodes=64|64|448|nodes=64 levels=3|64|0"
	"fattree|nodes=256|256|2048|nodes=256 levels=4|256|0"
	"fattree|nodes=37|37|276|nodes=37 levels=3|37|0"
)

# The first configuration as the module's parameters make it
# (/dev/vcube<i>, /sys/class/vcube), the others as networks made over
# netlink (/dev/vcube/t/<i>, /sys/class/vcube_net/t): one load, then a
# network each, deleted after.
first=1
for cfg in "${configs[@]}"; do
	IFS='|' read -r kind params n chans shape a b <<<"$cfg"
	name="$kind $params"
	if [ $first = 1 ]; then
		load topology=$kind $params || continue
		devs=$(ls /dev | grep -c '^vcube[0-9]*$')
	else
		name="$name (net add)"
		usenet topology=$kind $params || continue
		devs=$(ls "/dev/vcube/$VCUBE_NET" | grep -c '^[0-9]*$')
	fi
	check "$name: nodes $n" [ "$(attr nodes)" = "$n" ]
	check "$name: topology" [ "$(attr topology)" = "$kind" ]
	check "$name: shape" [ "$(attr shape)" = "$shape" ]
	check "$name: $chans channels" [ "$(attr channels)" = "$chans" ]
	check "$name: $n device nodes" [ "$devs" = "$n" ]
	check "$name: $(node $((n - 1))) is a char device" [ -c "$(node $((n - 1)))" ]
	check "$name: mode 0600" [ "$(stat -c %a "$(node 0)")" = 600 ]
	bad=0
	for ((i = 0; i < n; i++)); do
		read -r got < "$(sysdir)/vcube$i/neighbors"
		want=$(neighbors "$kind" "$i" "$a" "$b")
		if [ "$got" != "$want" ]; then
			((bad++ < 3)) && echo "# node $i: neighbors '$got', want '$want'"
		fi
		read -r id < "$(sysdir)/vcube$i/node"
		[ "$id" = "$i" ] || bad=$((bad + 1))
	done
	check "$name: every node's number and neighbours" [ "$bad" = 0 ]
	if [ $first = 1 ]; then
		unload
		check "$name: unloaded, no class left" [ ! -e /sys/class/vcube ]
		check "$name: unloaded, no device left" [ ! -e /dev/vcube0 ]
		first=0
	else
		vcubectl net del "$VCUBE_NET"
		check "$name: deleted, no sysfs directory left" [ ! -e "$(sysdir)" ]
		check "$name: deleted, no device left" [ ! -e "/dev/vcube/$VCUBE_NET" ]
		unset VCUBE_NET
	fi
done
unload

# Routes, through the kernel's route ioctl.
route() { vcubectl route "$1" "$2" | head -n 1; }
usenet topology=hypercube dim=7 profile=ipsc860 && {
	# Bokhari 1991, section 2.3: eight paths sharing edge 7 -> 15.
	for p in "0 1 3 7 15 31 63 127" "1 3 7 15 31 63" "3 7 15 31" "7 15" \
		 "5 7 15 79" "6 7 15 47" "2 3 7 15 31 95" "4 5 7 15 47 111"; do
		set -- $p
		src=$1; eval dst=\${$#}
		want="$(echo "$p" | sed 's/ / -> /g')  ($(($# - 1)) hop$( (($# == 2)) || echo s))"
		got=$(route "$src" "$dst")
		check "e-cube $src->$dst: $got" [ "$got" = "$want" ]
	done
	check "profile ipsc860" [ "$(attr profile)" = ipsc860 ]
	nonet
}
usenet topology=mesh rows=16 cols=9 && {
	got=$(route 10 59)
	check "XY 16x9 10->59: $got" [ "$got" = "10 -> 11 -> 12 -> 13 -> 14 -> 23 -> 32 -> 41 -> 50 -> 59  (9 hops)" ]
	check "profile delta by default" [ "$(attr profile)" = delta ]
	nonet
}
usenet topology=torus rows=4 cols=5 && {
	got=$(route 7 1)
	check "torus 4x5 7->1 east then south: $got" [ "$got" = "7 -> 8 -> 9 -> 5 -> 6 -> 11 -> 16 -> 1  (7 hops)" ]
	nonet
}
usenet profile=cm5 nodes=64 seed=99 && {
	check "profile cm5 means fattree" [ "$(attr topology)" = fattree ]
	check "seed 99" [ "$(attr seed)" = 99 ]
	got=$(route 0 63)
	check "fat tree 0->63 climbs to level 3: $got" \
		[ "$(echo "$got" | sed 's/L\([0-9]\):[0-9]*/L\1/g')" = "0 -> L1 -> L2 -> L3 -> L2 -> L1 -> 63  (6 hops)" ]
	got=$(route 0 1)
	check "fat tree 0->1 stays in its cluster: $got" [ "$(echo "$got" | sed 's/L1:0/L1/')" = "0 -> L1 -> 1  (2 hops)" ]
	a=$(vcubectl -j route --cookie 5 0 63); b=$(vcubectl -j route --cookie 5 0 63)
	check "fat tree route is a function of (seed, cookie)" [ "$a" = "$b" ]
	got=$(vcubectl show)
	n=$(vcubectl -j show | python3 -c 'import json,sys; print(json.load(sys.stdin)["nodes"])')
	good=0; [ "$(grep -o 'nodes' <<< "$got" | wc -l)" = 1 ] && [ "$n" = 64 ] && good=1
	check "vcubectl show names the fat tree's nodes once, -j has nodes 64 ($got)" [ $good = 1 ]
	set -- $(vcubectl links | awk 'NR == 1 { print $1, $2, $3, $4, $5, $6 }')
	check "vcubectl links on a fat tree: columns link from to dir lane width ($*)" \
		[ "$*" = "link from to dir lane width" ]
	nonet
}
load topology=hypercube dim=2 && {
	err=$(setpriv --reuid=65534 --regid=65534 --clear-groups vcube-run -n 2 true 2>&1)
	rc=$?
	good=0; [ $rc != 0 ] && grep -q 'ermission denied' <<<"$err" && good=1
	check "default mode=0600: a user's vcube-run fails, permission denied, as the README says ($rc: $(head -n 1 <<<"$err"))" \
		[ $good = 1 ]
	unload
}
load topology=hypercube dim=2 mode=0666 && {
	check "mode=0666 gives crw-rw-rw-" [ "$(stat -c %a /dev/vcube0)" = 666 ]
	setpriv --reuid=65534 --regid=65534 --clear-groups vcube-run -n 4 true
	check "mode=0666: a user runs 4 processes" [ $? = 0 ]
	unload
}
exit $fail
