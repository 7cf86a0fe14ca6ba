#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-topo: today's networks at scale on the host engine. vcube-sim
# (kernel/core's engine, one thread) runs each new topology at 4096 nodes
# (a 16x16x16 torus, SimGrid's two-level fat tree of 64x64, a 32x8x16
# dragonfly, a 2048-router graph read from a file) and a dragonfly of
# 16512 nodes (129 groups of 16 routers, 8 nodes and 8 global links each,
# the balanced a = 2p = 2h one at its largest), and prints per run: the
# wall time, the wall time per simulated message, messages and engine
# events per second, and the peak memory. The workloads: the dissemination
# barrier (N lg N messages), a binomial-tree reduction of 4 KB (N - 1),
# and PEX, the pairwise exchange of 4 KB blocks (N (N - 1)), at 4096 nodes
# only. Not a test: it prints figures (the machine is shared and noisy).
#   ONLY=barrier,reduce   the workloads (default: all three)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
sim=${SIM:-$top/build/bin/vcube-sim}
only=${ONLY:-barrier,reduce,pex}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# a 2048-router graph, 2 nodes a router: a 16x16x8 torus of routers with
# 2048 random chords (seeded), in BookSim2's anynet grammar
python3 - "$tmp/g.anynet" <<'PY'
import random, sys
random.seed(2026)
size = (16, 16, 8)
links = {r: [] for r in range(2048)}
stride = 1
for s in size:
    for r in range(2048):
        c = r // stride % s
        links[r].append(r - c * stride + (c + 1) % s * stride)
    stride *= s
for _ in range(2048):
    a, b = random.sample(range(2048), 2)
    links[a].append(b)
with open(sys.argv[1], "w") as f:
    for r in range(2048):
        f.write("router %d node %d node %d %s\n" % (r, 2 * r, 2 * r + 1,
                " ".join("router %d" % b for b in links[r])))
PY

# run NAME WORKLOAD WORDS...: one line of the table
run() {
	local name=$1 work=$2 args out
	shift 2
	case $work in
	barrier) args=(--kind sync --algo dissemination --len 0) ;;
	reduce) args=(--kind reduce --algo tree --len 4096) ;;
	pex) args=(--kind xchg --algo pex --len 4096) ;;
	esac
	case ",$only," in *",$work,"*) ;; *) return ;; esac
	if ! /usr/bin/time -f '%e %M' -o "$tmp/time" "$sim" -j -q "${args[@]}" "$@" > "$tmp/out" 2> "$tmp/err"; then
		echo "| $name | $work | failed: $(tail -n 1 "$tmp/err") |"
		return
	fi
	python3 - "$name" "$work" "$tmp/out" "$tmp/time" <<'PY'
import json, sys
name, work = sys.argv[1], sys.argv[2]
d = json.load(open(sys.argv[3]))
wall, kb = open(sys.argv[4]).read().split()
wall = float(wall)
m, e = d["messages"], d["events"]
print("| %s | %s | %d | %.2f | %.2f | %.0f | %.0f | %.0f | %.3f |" % (
    name, work, m, wall, wall * 1e6 / m, m / wall, e / wall,
    int(kb) / 1024, d["time_ns"] / 1e6))
PY
}

echo "vcube-sim on the host, $(nproc) processors ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)); one run each (wall time includes start-up and the network's making)"
echo
echo "| network | workload | messages | wall s | us per message | messages per s | events per s | peak MiB | virtual ms |"
echo "|---|---|---|---|---|---|---|---|---|"
for w in barrier reduce pex; do
	run "torus 16x16x16 (4096, ap1000)" $w topology=torus dims=16,16,16 profile=ap1000
	run "fat tree 2;64,64;1,64 (4096, cm5)" $w topology=fattree levels=2 down=64,64 up=1,64
	run "dragonfly 32x8x16 h=4 (4096, cm5)" $w topology=dragonfly groups=32 routers=8 nodes=16 global=4
	run "graph: 2048 routers (4096, cm5)" $w file="$tmp/g.anynet"
done
for w in barrier reduce; do
	run "dragonfly 129x16x8 h=8 (16512, cm5)" $w topology=dragonfly groups=129 routers=16 nodes=8 global=8
	run "dragonfly 129x16x8 h=8 ugal (16512, cm5)" $w topology=dragonfly groups=129 routers=16 nodes=8 global=8 routing=ugal
done
