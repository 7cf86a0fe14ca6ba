#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcubectl net export --simgrid on the host, from the module's words: the
# torus, fat tree and dragonfly clusters as scripts/crosscheck.py wrote
# them; the dragonfly's hostfile; the Full zones of a hypercube, a mesh
# and a graph loaded and run by SimGrid's SMPI, a ping's time being the
# route's: links x lat + (LEN + SMPI's 16-byte envelope) / bw; and the
# networks and words refused, each with one line and a non-zero status.
. "$(dirname "$0")/lib.bash"
ctl=${VCUBECTL:-$top/build/bin/vcubectl}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
c="short_byte_ns=1 short_hop_ns=100"	# 1 GB/s, 100 ns: crosscheck's

# The cluster, as crosscheck.py's platform_xml() wrote it but for the
# comment, which now says the network and its constants.
cluster() {	# ID NODES TOPOLOGY PARAMS COMMENT
	cat <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- vcube's $5, profile ap1000: short_byte_ps=1000 short_hop_ns=100 (vcubectl net export) -->
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="$1" prefix="n" suffix="" radical="0-$(($2 - 1))" speed="1Gf"
             bw="1000000000Bps" lat="100ns" sharing_policy="SPLITDUPLEX"
             topology="$3" topo_parameters="$4"/>
  </zone>
</platform>
XML
}
check_cluster() {	# WORDS -- ID NODES TOPOLOGY PARAMS COMMENT
	local words=$1 out
	shift
	out=$("$ctl" net export --simgrid $words profile=ap1000 $c 2>&1)
	[ "$out" = "$(cluster "$@")" ] && ok "$words: SimGrid's $3 cluster $4" ||
		no "$words: $(diff <(echo "$out") <(cluster "$@") | head -n 6)"
}
check_cluster "topology=torus dims=4,4,4" torus 64 TORUS 4,4,4 "torus dims=4,4,4"
check_cluster "topology=fattree levels=2 down=8,8 up=1,8 links=1,1" fattree 64 FAT_TREE \
	"2;8,8;1,8;1,1" "fattree levels=2 down=8,8 up=1,8 links=1,1"
check_cluster "topology=dragonfly groups=4 routers=4 nodes=4 global=1" dragonfly 64 DRAGONFLY \
	"4,1;1,1;4,1;4" "dragonfly groups=4 routers=4 nodes=4 global=1 routing=minimal"
check_cluster "topology=dragonfly groups=5 routers=6 nodes=2 global=1" dragonfly 60 DRAGONFLY \
	"5,1;1,1;6,1;2" "dragonfly groups=5 routers=6 nodes=2 global=1 routing=minimal"

# crosscheck.py's df_host(), as it was: rank i's host for 4 x 4 x 4
df_host() {	# G A P: the hostfile
	local G=$1 A=$2 P=$3 x g r p s
	for ((x = 0; x < G * A * P; x++)); do
		g=$((x / (A * P))) r=$((x / P % A)) p=$((x % P))
		if ((r < G - 1)); then s=$((r < g ? r : r + 1))
		else s=$((r == G - 1 ? g : r)); fi
		echo "n$(((g * A + s) * P + p))"
	done
}
"$ctl" net export --simgrid --hostfile "$tmp/df.hosts" -o "$tmp/df.xml" \
	topology=dragonfly groups=4 routers=4 nodes=4 global=1 $c
cmp -s "$tmp/df.hosts" <(df_host 4 4 4) && ok "dragonfly 4x4x4: the hostfile crosscheck.py placed ranks by" ||
	no "dragonfly hostfile: $(head -c 200 "$tmp/df.hosts")"
"$ctl" net export --simgrid --hostfile "$tmp/t.hosts" -o "$tmp/t.xml" topology=torus dims=4,4 $c
cmp -s "$tmp/t.hosts" <(for i in $(seq 0 15); do echo "n$i"; done) &&
	ok "torus: the hostfile is in order" || no "torus hostfile: $(head -c 100 "$tmp/t.hosts")"

# The Full zones: a link per channel, a route per ordered pair.
"$ctl" net export --simgrid -o "$tmp/hc.xml" --hostfile "$tmp/hc.hosts" topology=hypercube dim=3 $c
[ "$(grep -c '<host ' "$tmp/hc.xml")" = 8 ] && [ "$(grep -c '<link id="ch' "$tmp/hc.xml")" = 24 ] &&
	[ "$(grep -c '<route ' "$tmp/hc.xml")" = 56 ] &&
	grep -q '<route src="n0" dst="n7" symmetrical="NO"><link_ctn id="ch0"/><link_ctn id="ch4"/><link_ctn id="ch11"/></route>' "$tmp/hc.xml" &&
	ok "hypercube dim=3: 8 hosts, 24 links, 56 routes, 0 to 7 over dimensions 0, 1, 2 (channel 3 node + dimension)" ||
	no "hypercube dim=3: $(grep 'src="n0" dst="n7"' "$tmp/hc.xml")"
"$ctl" net export --simgrid -o "$tmp/m.xml" --hostfile "$tmp/m.hosts" topology=mesh rows=3 cols=3 $c
[ "$(grep -c '<link id="ch' "$tmp/m.xml")" = 24 ] && [ "$(grep -c '<route ' "$tmp/m.xml")" = 72 ] &&
	ok "mesh 3x3: 24 links, 72 routes" || no "mesh 3x3: $(grep -c '<route ' "$tmp/m.xml") routes"
"$ctl" net export --simgrid -o "$tmp/g.xml" --hostfile "$tmp/g.hosts" \
	file="$top/examples/booksim-ring.anynet" $c
[ "$(grep -c '<router id="L1:' "$tmp/g.xml")" = 8 ] && [ "$(grep -c '<route ' "$tmp/g.xml")" = 240 ] &&
	ok "booksim-ring.anynet: 8 routers, 240 routes" || no "booksim-ring: $(grep -c '<router' "$tmp/g.xml") routers"

# SMPI runs each: a ping of 1024 bytes, alone, takes links x 100 ns +
# (1024 + 16) ns (docs/crosscheck.md's model and options).
if ! command -v smpicc > /dev/null; then
	no "no smpicc: make deps installs libsimgrid-dev"
	exit 1
fi
cat > "$tmp/ping.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	static char buf[65536];
	int rank, src = atoi(argv[1]), dst = atoi(argv[2]), len = atoi(argv[3]);

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == src)
		MPI_Send(buf, len, MPI_BYTE, dst, 0, MPI_COMM_WORLD);
	if (rank == dst) {
		MPI_Recv(buf, len, MPI_BYTE, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("ping %.0f\n", MPI_Wtime() * 1e9);
	}
	MPI_Finalize();
	return 0;
}
C
smpicc -O2 -o "$tmp/ping" "$tmp/ping.c" > "$tmp/err" 2>&1 || no "smpicc: $(tail -n 3 "$tmp/err")"
cfg=(--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:1e30
     --cfg=network/loopback-bw:1e15 --cfg=network/loopback-lat:0 --cfg=smpi/simulate-computation:no
     --cfg=smpi/host-speed:1Gf --cfg=smpi/wtime:0 --cfg=smpi/async-small-thresh:0)
smpi_ping() {	# PLATFORM HOSTFILE SRC DST: the receive's time, ns
	smpirun -platform "$1" -hostfile "$2" -np "$(wc -l < "$2")" "${cfg[@]}" \
		"$tmp/ping" "$3" "$4" 1024 2> "$tmp/err" | sed -n 's/^ping //p'
}
expect() {	# NAME PLATFORM HOSTFILE SRC DST LINKS
	local t
	t=$(smpi_ping "$2" "$3" "$4" "$5")
	[ "$t" = $(($6 * 100 + 1040)) ] && ok "$1: SMPI's ping $4 to $5 takes $t ns: $6 links" ||
		no "$1: ping $4 to $5: '$t' ns, not $(($6 * 100 + 1040)) ($(tail -n 2 "$tmp/err"))"
}
expect "hypercube dim=3" "$tmp/hc.xml" "$tmp/hc.hosts" 0 1 1
expect "hypercube dim=3" "$tmp/hc.xml" "$tmp/hc.hosts" 0 3 2
expect "hypercube dim=3" "$tmp/hc.xml" "$tmp/hc.hosts" 0 7 3
expect "mesh 3x3" "$tmp/m.xml" "$tmp/m.hosts" 0 1 1
expect "mesh 3x3" "$tmp/m.xml" "$tmp/m.hosts" 0 8 4
expect "mesh 3x3" "$tmp/m.xml" "$tmp/m.hosts" 2 6 4
# the ring's nodes 2x on router x: a node's own two channels, then the
# shorter way round (router 0 to 4: the chord)
expect "booksim-ring" "$tmp/g.xml" "$tmp/g.hosts" 0 1 2
expect "booksim-ring" "$tmp/g.xml" "$tmp/g.hosts" 0 3 3
expect "booksim-ring" "$tmp/g.xml" "$tmp/g.hosts" 0 9 3
expect "booksim-ring" "$tmp/g.xml" "$tmp/g.hosts" 2 7 4
# the dragonfly: node 0 holds the link to group 1 in vcube, and arrives
# on node 16's router; in SimGrid's numbering only with the hostfile
expect "dragonfly 4x4x4, ranks placed" "$tmp/df.xml" "$tmp/df.hosts" 0 16 3
ident=$tmp/id.hosts
seq 0 63 | sed 's/^/n/' > "$ident"
expect "dragonfly 4x4x4, ranks in host order (not vcube's wiring)" "$tmp/df.xml" "$ident" 0 16 4
# Other dragonflies SimGrid wires (G <= A <= 2G - 3, H = 1): the cluster
# with the hostfile gives the ping times of a Full zone of vcube's own
# routes, for pairs across groups and within one.
for w in "groups=5 routers=6 nodes=2" "groups=3 routers=3 nodes=2"; do
	"$ctl" net export --simgrid --hostfile "$tmp/dc.hosts" -o "$tmp/dc.xml" \
		topology=dragonfly $w global=1 $c
	"$ctl" net export --simgrid --full --hostfile "$tmp/dfull.hosts" -o "$tmp/dfull.xml" \
		topology=dragonfly $w global=1 $c
	grep -q 'topology="DRAGONFLY"' "$tmp/dc.xml" && grep -q '<route ' "$tmp/dfull.xml" ||
		no "dragonfly $w: not a cluster and a Full zone"
	n=$(wc -l < "$tmp/dc.hosts") same=0 pairs=0
	for ((s = 0; s < n; s += 3)); do
		d=$(((s * 7 + 5) % n))
		[ $s = $d ] && continue
		a=$(smpi_ping "$tmp/dc.xml" "$tmp/dc.hosts" $s $d)
		b=$(smpi_ping "$tmp/dfull.xml" "$tmp/dfull.hosts" $s $d)
		pairs=$((pairs + 1))
		[ -n "$a" ] && [ "$a" = "$b" ] && same=$((same + 1))
	done
	[ $same = $pairs ] && [ $pairs -gt 4 ] &&
		ok "dragonfly $w global=1: $pairs pings, the cluster placed by the hostfile as vcube's routes" ||
		no "dragonfly $w global=1: $same of $pairs pings as vcube's routes"
done

# Refused: one line, a non-zero status.
refused() {	# NAME GREP ARGS...
	local name=$1 pat=$2 out rc
	shift 2
	out=$("$ctl" net export "$@" 2>&1 > /dev/null)
	rc=$?
	[ $rc -ne 0 ] && grep -q -- "$pat" <<< "$out" && [ "$(grep -vc '^try ' <<< "$out")" = 1 ] &&
		ok "$name: refused ($rc): $(head -n 1 <<< "$out")" || no "$name: $rc '$out'"
}
refused "a 2048-node hypercube's Full zone" "at most 1024 nodes" --simgrid topology=hypercube dim=11
refused "an unknown word" "not a network word" --simgrid topology=torus dims=4,4 colour=red
refused "an unknown topology" "bad value" --simgrid topology=ring dims=4
refused "no --simgrid" "--simgrid" topology=torus dims=4,4
refused "a NAME and words" "not both" --simgrid mynet topology=torus dims=4,4
refused "no network" "name the network" --simgrid
refused "an unwritable file" "Permission denied\|No such file" --simgrid -o /nonexistent/dir/p.xml topology=torus dims=4,4
refused "an unwritable hostfile" "No such file" --simgrid -o "$tmp/ok.xml" --hostfile /nonexistent/h topology=torus dims=4,4
refused "dragonfly routing=valiant" "one per pair" --simgrid topology=dragonfly groups=4 routers=4 nodes=4 global=1 routing=valiant
refused "fat tree routing=random" "routing=dmodk" --simgrid topology=fattree nodes=64
refused "a bad shape" "dims=" --simgrid topology=torus dims=4,0
refused "short_byte_ns=0" "unbounded bandwidth" --simgrid topology=mesh rows=2 cols=2 short_byte_ns=0
refused "a NAME without the module" "no vcube network is loaded\|netlink\|family" --simgrid mynet
# a dragonfly SimGrid cannot wire is a Full zone: 9 groups of 4 routers
# with 2 global links each (each router holds two)
out=$("$ctl" net export --simgrid topology=dragonfly groups=9 routers=4 nodes=2 global=2 $c | grep -c '<route ')
[ "$out" = $((72 * 71)) ] && ok "dragonfly 9x4x2, global=2: a Full zone of 72 x 71 routes" ||
	no "dragonfly 9x4x2: '$out' routes"
# nodes' own rates: a fat tree SimGrid could take as a cluster becomes a
# Full zone, its 16 injection links at inject_byte_ps (80 ps: 12.5 GB/s),
# the rest at the links' 40 ps (25 GB/s); eject_byte_ps as the links'
x=$("$ctl" net export --simgrid topology=fattree levels=2 down=4,4 up=1,4 profile=slingshot inject_byte_ps=80)
[ "$(grep -c 'bandwidth="12500000000Bps"' <<<"$x")" = 16 ] &&
	[ "$(grep -c 'bandwidth="25000000000Bps"' <<<"$x")" = $(($(grep -c '<link ' <<<"$x") - 16)) ] &&
	grep -q 'routing="Full"' <<<"$x" && ! grep -q '<cluster' <<<"$x" &&
	ok "fattree inject_byte_ps=80: a Full zone, 16 node links at 12.5 GB/s" ||
	no "fattree inject_byte_ps=80: $(grep -c '<link ' <<<"$x") links"
x=$("$ctl" net export --simgrid topology=fattree levels=2 down=4,4 up=1,4 profile=slingshot inject_byte_ps=40)
grep -q '<cluster' <<<"$x" && grep -q 'bw="25000000000Bps" lat="300ns"' <<<"$x" &&
	ok "fattree inject_byte_ps=40, the links' rate: still SimGrid's cluster" ||
	no "fattree inject_byte_ps=40: $(grep -m1 'bw=' <<<"$x")"
"$ctl" net export --help | grep -q -- --hostfile && ok "net export --help" || no "net export --help"
"$ctl" net --help | grep -q "net export" && ok "net --help lists export" || no "net --help"
exit $fail
