#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every bad module parameter combination: insmod fails with EINVAL, the
# kernel log gets exactly one line from vcube saying what was wrong, and
# nothing is left registered. Then the defaults: no shape, the profile's.
. "$(dirname "$0")/lib.sh"
unload
v=$(modinfo -F version "$VCUBE_KO")
check "modinfo: version $v, the tools' (VERSION)" [ "$v" = "$(cat "$VCUBE_TOP/VERSION")" ]

nothing_registered() {
	[ ! -e /sys/class/vcube ] && [ ! -e /dev/vcube0 ] && ! loaded &&
		! grep -q vcube /proc/devices
}

cases=(
	"topology=ring|unknown topology=ring"
	"topology=hypercube dim=0|topology=hypercube needs dim=1..12"
	"topology=hypercube dim=13|dim=13 is too large"
	"topology=hypercube dim=4000000000|too large"
	"topology=hypercube dim=5 rows=4|rows=/cols= do not apply to topology=hypercube"
	"topology=mesh cols=4|topology=mesh needs rows= and cols="
	"topology=mesh rows=1 cols=1|needs at least 2 nodes"
	"topology=mesh rows=100 cols=100|at most 4096 nodes"
	"topology=mesh rows=65536 cols=65536|too large"
	"topology=torus rows=4|topology=torus needs rows= and cols="
	"topology=torus rows=4 cols=4 nodes=16|nodes= does not apply to topology=torus"
	"topology=torus dims=2,2,2,2,2,2,2|dims= has more than 6 sizes: at most 6 dimensions are supported"
	"topology=torus dims=4,1,4|dims= size 1 of dimension 2: each size must be at least 2"
	"topology=mesh dims=0,4|dims= size 0 of dimension 1: each size must be at least 2"
	"topology=torus dims=16,16,17|dims= is too large: at most 4096 nodes are supported"
	"topology=mesh dims=65536,65536|dims= is too large"
	"topology=torus dims=4,4 rows=4|topology=torus takes dims= or rows=/cols=, not both"
	"topology=mesh dims=4,4 cols=4|topology=mesh takes dims= or rows=/cols=, not both"
	"topology=hypercube dim=3 dims=8|dims= does not apply to topology=hypercube"
	"topology=torus dims=4,,4|dims=4,,4 is not sizes and commas"
	"topology=torus dims=4x4|dims=4x4 is not sizes and commas"
	"topology=fattree nodes=1|needs nodes=2..4096"
	"topology=fattree nodes=5000|needs nodes=2..4096"
	"topology=fattree nodes=16 dim=2|dim= does not apply to topology=fattree"
	"profile=cray dim=3|no profile=cray: use ipsc860, seidel, delta, ap1000, cm5 or slingshot"
	"topology=mesh profile=ipsc860|topology=mesh needs rows= and cols="
	"profile=delta rows=8|topology=mesh needs rows= and cols="
	"topology=hypercube dim=3 mode=01777|not a permission mask"
	"topology=hypercube dim=abc|invalid for parameter"
	"topology=hypercube dim=3 short_base_ns=-5|short_base_ns=-5 is out of range"
	"topology=hypercube dim=3 eject=5000000000|eject=5000000000 is out of range"
	"topology=hypercube dim=3 max_msg=0|max_msg=0 is out of range"
	"topology=hypercube dim=3 max_reqs=0|max_reqs=0 is out of range"
	"topology=hypercube dim=3 trace=16777216|trace=16777216 is out of range (0..4194304)"
	"topology=hypercube dim=3 idle_lease_ms=3600001|idle_lease_ms=3600001 is out of range (0..3600000)"
	"topology=hypercube dim=3 max_inflight=1000|max_inflight=1000 is out of range (1114112.."
	"topology=hypercube dim=3 max_inflight=2000000000000|max_inflight=2000000000000 is out of range"
	"topology=hypercube dim=3 max_inflight_node=1000|max_inflight_node=1000 is out of range"
	"topology=hypercube dim=3 fc_bufs=256|fc_bufs=256 is out of range (0..255)"
	"topology=hypercube dim=11 fc_bufs=1|fc_bufs=1 needs nodes <= 1024 (a window per pair); this network has 2048"
	"profile=seidel dim=11|fc_bufs=16 needs nodes <= 1024"
	"topology=hypercube dim=3 gamma=1|gamma= is for wormhole and packet, not circuit switching"
	"topology=hypercube dim=3 lanes=2|lanes= is for wormhole, not circuit switching"
	"topology=hypercube dim=3 packet_payload=128|packet_payload= is for packet, not circuit switching"
	"profile=cm5 packet_payload=0|packet_payload=0: a packet carries at least 1 byte"
	"topology=hypercube dim=3 tail_ns=999999999999|tail_ns=999999999999 is more than short_base_ns=95000: a sender cannot return before its message starts"
	"profile=seidel dim=3 short_base_ns=1000|tail_ns=31000 is more than short_base_ns=1000"
	"profile=delta rows=4 cols=4 duplex_ns=5|duplex_ns= is for circuit, not wormhole switching"
	"profile=cm5 short_byte_ns=1 short_byte_ps=40|short_byte_ns= and short_byte_ps= set one cost: give one"
	"profile=cm5 long_byte_ps=1000000001|long_byte_ps=1000000001 is out of range (0..1000000000)"
	"profile=ap1000 inject_byte_ps=80|inject_byte_ps=, eject_byte_ps= need a fattree, dragonfly or graph"
	"topology=fattree nodes=16 profile=ipsc860 eject_byte_ps=80|inject_byte_ps=, eject_byte_ps= are for wormhole and packet, not circuit"
	"topology=hypercube dim=3 max_inflight=4194304 max_inflight_node=8388608|max_inflight_node=8388608 is out of range (1114112..max_inflight=4194304)"
	"topology=fattree levels=7 down=2 up=1|needs levels=1..6 (got levels=7)"
	"topology=fattree levels=2 down=4,4|topology=fattree levels=2 needs down= and up="
	"topology=fattree levels=2 down=4,4,4 up=1,4|down= has 3 values: levels=2 needs 2, one per level"
	"topology=fattree levels=2 down=4,4 up=1,4 links=1|links= has 1 values: levels=2 needs 2"
	"topology=fattree levels=2 down=4,4 up=1,0|up= value 2 (level 2) is 0: each must be at least 1"
	"topology=fattree levels=2 down=64,65 up=1,1|down= makes more than 4096 nodes, the most supported"
	"topology=fattree levels=2 down=64,64 up=64,64|this fat tree has more than 131072 channels"
	"topology=fattree levels=1 down=1 up=1|down= makes 1 node: a fat tree needs at least 2"
	"topology=fattree levels=2 down=4x4 up=1,4|down=4x4 is not numbers and commas, as down=16,16"
	"topology=fattree levels=2 down=4,4 up=1,2,3,4,5,6,7|up= has more than 6 values: a fat tree has at most 6 levels"
	"topology=fattree nodes=16 levels=2 down=4,4 up=1,4|topology=fattree takes nodes= or levels=/down=/up=/links=, not both"
	"topology=fattree nodes=16 levels=3|nodes=16 is the CM-5's tree of 2 levels, not levels=3"
	"topology=fattree levels=2 down=4,4 up=1,4 routing=ugal|unknown routing=ugal: use dmodk or random"
	"topology=torus dims=4,4 routing=dmodk|routing= does not apply to topology=torus"
	"topology=hypercube dim=3 levels=2|levels=/down=/up=/links= do not apply to topology=hypercube"
	"topology=dragonfly groups=9 routers=4 nodes=2|topology=dragonfly needs groups=, routers=, nodes=, global= (each >= 1)"
	"topology=dragonfly groups=10 routers=4 nodes=2 global=2|groups=10 > routers*global+1=9: too few global links"
	"topology=dragonfly groups=33 routers=8 nodes=16 global=4|groups=33 routers=8 nodes=16 is too large: at most 4096 nodes"
	"topology=dragonfly groups=2 routers=2 nodes=17 global=1|nodes=17: a dragonfly router takes 1 to 16 nodes"
	"topology=dragonfly groups=1 routers=512 nodes=1 global=1|this dragonfly has 262656 channels: at most 131072 are supported"
	"topology=dragonfly groups=2 routers=2 nodes=2 global=1 routing=valiant|routing=valiant needs groups=3 or more"
	"topology=dragonfly groups=3 routers=2 nodes=2 global=1 routing=ecmp|unknown routing=ecmp: use minimal, valiant or ugal"
	"topology=dragonfly groups=3 routers=2 nodes=2 global=1 dim=3|dim= does not apply to topology=dragonfly"
	"topology=torus rows=4 cols=4 groups=2|groups=/routers=/global= do not apply to topology=torus"
	"topology=hypercube dim=3 routing=valiant|routing= does not apply to topology=hypercube"
)

for c in "${cases[@]}"; do
	params=${c%%|*}
	want=${c#*|}
	dmesg --clear
	out=$(insmod "$VCUBE_KO" $params 2>&1)
	rc=$?
	log=$(dmesg | grep 'vcube: ' | grep -v -e 'taints kernel' -e 'signature and/or required key')
	check "'$params' refused" [ $rc -ne 0 ]
	check "'$params': EINVAL ($out)" grep -q "Invalid parameters\|Invalid argument" <<<"$out"
	check "'$params': one log line: $log" [ "$(grep -c . <<<"$log")" = 1 ]
	check "'$params': says '$want'" grep -qF -- "$want" <<<"$log"
	check "'$params': nothing registered" nothing_registered
done

# a word the module does not declare never reaches it: the kernel says so
# and loads (README); the module must not mistake it for another
dmesg --clear
out=$(insmod "$VCUBE_KO" dim=3 nonsuchparam=1 2>&1)
check "'dim=3 nonsuchparam=1' loads, the word ignored ($out)" loaded
check "the kernel says: $(dmesg | grep nonsuchparam)" \
	sh -c "dmesg | grep -q \"vcube: unknown parameter 'nonsuchparam' ignored\""
check "with the shape it was given: $(attr shape)" [ "$(attr nodes)" = 8 ]
unload

# no shape given: the profile's machine at the papers' size; nothing at
# all: a 32-node iPSC/860. PARAMS|shape|profile|nodes
defaults=(
	"|dim=5|ipsc860|32"
	"topology=hypercube|dim=5|ipsc860|32"
	"profile=seidel|dim=5|seidel|32"
	"profile=delta|rows=16 cols=32|delta|512"
	"topology=mesh|rows=16 cols=32|delta|512"
	"topology=torus|rows=8 cols=8|ap1000|64"
	"topology=torus dims=8,8,8|dims=8,8,8|ap1000|512"
	"topology=mesh dims=32,16|dims=32,16|delta|512"
	"profile=cm5|nodes=32|cm5|32"
	"topology=fattree levels=2 down=4,4 up=1,4|levels=2 down=4,4 up=1,4 links=1,1|cm5|16"
	"profile=cm5 levels=3 down=2,3,4 up=1,2,3 links=2,1,1 routing=random|levels=3 down=2,3,4 up=1,2,3 links=2,1,1|cm5|24"
	"topology=dragonfly groups=9 routers=4 nodes=2 global=2 routing=ugal|groups=9 routers=4 nodes=2 global=2 routing=ugal|cm5|72"
)
for c in "${defaults[@]}"; do
	IFS='|' read -r params shape prof n <<<"$c"
	out=$(insmod "$VCUBE_KO" $params 2>&1)
	got="$(attr shape), $(attr profile), $(attr nodes) nodes"
	good=0
	[ "${got#"$shape"}" != "$got" ] && [ "$(attr profile) $(attr nodes)" = "$prof $n" ] && good=1
	check "'$params' loads: $got${out:+ ($out)}" [ $good = 1 ]
	case $shape in
	dim=*) p=dim ;;
	rows=*) p=rows ;;
	dims=*) p=dims ;;
	levels=*) p=levels ;;
	*) p=nodes ;;
	esac
	check "'$params': /sys/module/vcube/parameters/$p says ${shape#*=}" \
		[ "$(cat /sys/module/vcube/parameters/$p)" = "$(sed "s/.*$p=\([0-9,]*\).*/\1/" <<<"$shape")" ]
	unload
done
exit $fail
