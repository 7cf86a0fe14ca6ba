#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The generic netlink family "vcube" and vcubectl over it: per-channel
# counters against e-cube routes and Bokhari's 8-path contention, resets
# (root only), resumable and consistency-checked dumps of d = 12, the
# family as iproute2's genl and the kernel's own ynl CLI see it, and the
# picture of the network.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
exp=$VCUBE_TOP/build/tests/vm/exp
src=${VCUBE_CACHE:-$HOME/.cache/vcube}/linux-source-6.12
spec=$VCUBE_TOP/Documentation/netlink/specs/vcube.yaml
# (--no-schema: tests/host/ynl_spec.sh validates the spec against the
# kernel's schema once; the README's line passes --no-schema too)
ynl() { /usr/bin/python3 "$src/tools/net/ynl/cli.py" --spec "$spec" --no-schema --output-json "$@"; }
# link ID's value of FIELD in `vcubectl -j links`
field() { python3 -c 'import json,sys; d={l["id"]: l for l in json.load(open(sys.argv[1]))}; print(d[int(sys.argv[2])][sys.argv[3]])' "$@"; }

# the operations the spec declares: the family must register each of them
# (those with a do or a dump: a notification is no operation of the family)
nops=$(python3 -c 'import yaml,sys; print(sum(1 for o in yaml.safe_load(open(sys.argv[1]))["operations"]["list"] if "do" in o or "dump" in o))' "$spec")

load topology=hypercube dim=5 profile=ipsc860 && {
	genl ctrl get name vcube > "$tmp/genl" 2>&1
	rc=$?
	good=0; [ $rc = 0 ] && grep -q 'Name: vcube' "$tmp/genl" &&
		[ "$(grep '#[0-9]*:  ID-0x' "$tmp/genl" | grep -vc 'name:')" = "$nops" ] && good=1
	check "genl ctrl get name vcube: the family and the spec's $nops operations" [ $good = 1 ]
	check "genl ctrl get name vcube: its multicast group monitor" grep -q 'monitor' "$tmp/genl"
	genl ctrl list 2>/dev/null | grep -q 'Name: vcube'
	check "genl ctrl list shows vcube" [ $? = 0 ]

	vcube-run -n 32 nl exchange 64 > "$tmp/x" 2>&1
	check "pairwise exchange on d=5, every byte checked" [ $? = 0 ]
	nl ecube 64 > "$tmp/e" 2>&1
	rc=$?
	check "after it, every channel's messages and bytes are what e-cube routes give ($(tail -n 1 "$tmp/e"))" [ $rc = 0 ]
	vcubectl -j nodes > "$tmp/nodes"
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 32 and all(n["sent"] == 31 and n["received"] == 31 and n["state"] == "unbound" and n["clock_ns"] > 0 for n in d)' "$tmp/nodes" && good=1
	check "vcubectl nodes: 32 nodes, 31 sent and received each, unbound" [ $good = 1 ]
	vcubectl -j topo > "$tmp/topo"
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["nodes"] == 32 and d["links"] == 160 and d["messages"] == 992 and d["topology"] == "hypercube" and d["switching"] == "circuit" and d["elapsed_ns"] > 0' "$tmp/topo" && good=1
	check "vcubectl topo: 32 nodes, 160 links, 992 messages, the time they took" [ $good = 1 ]
	vcubectl -j links > "$tmp/links"
	good=0; python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert all(0 < l["util"] <= 1 and l["busy_ns"] > 0 for l in d)' "$tmp/links" && good=1
	check "every channel was busy, for a share of the time in (0, 1]" [ $good = 1 ]
	vcubectl links --sort bytes --top 3 > "$tmp/top"
	rc=$?
	good=0; [ $rc = 0 ] && [ "$(wc -l < "$tmp/top")" = 4 ] && good=1
	check "vcubectl links --top 3: a header and 3 links" [ $good = 1 ]
	vcubectl links --svg "$tmp/d5.svg" > /dev/null
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c '
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
r = ET.parse(sys.argv[1]).getroot()
assert len(r.findall(".//" + ns + "title")) == 160
assert len(r.findall(".//" + ns + "circle")) == 32' "$tmp/d5.svg" && good=1
	check "vcubectl links --svg: well-formed SVG, 160 channels, 32 nodes" [ $good = 1 ]
	[ -n "${VCUBE_OUT:-}" ] && cp "$tmp/d5.svg" "$VCUBE_OUT/pairwise-d5.svg"

	# the kernel's own netlink CLI, driven by the spec alone
	ynl --dump link-get > "$tmp/ynl-links" 2>"$tmp/ynl-err"
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 160 and sum(l["messages"] for l in d) == sum(bin(s ^ t).count("1") for s in range(32) for t in range(32))' "$tmp/ynl-links" && good=1
	check "ynl cli.py --dump link-get: 160 links, message-hops add up $(head -c 200 "$tmp/ynl-err")" [ $good = 1 ]
	# the README's line, as written, from the top of the tree
	line=$("$VCUBE_TOP/scripts/doc-cmds.py" get "$VCUBE_TOP/README.md" ynl-cli)
	(cd "$VCUBE_TOP" && eval "$line") > "$tmp/ynl-readme" 2>"$tmp/ynl-err"
	rc=$?
	good=0; [ $rc = 0 ] && [ -n "$line" ] && python3 -c 'import ast,json,sys; assert ast.literal_eval(open(sys.argv[1]).read()) == json.load(open(sys.argv[2]))' "$tmp/ynl-readme" "$tmp/ynl-links" && good=1
	check "README: ${line:-no ynl line}: the same links $(head -c 200 "$tmp/ynl-err")" [ $good = 1 ]
	ynl --dump node-get > "$tmp/ynl-nodes" 2>"$tmp/ynl-err"
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d) == 32 and all(n["sent"] == 31 for n in d)' "$tmp/ynl-nodes" && good=1
	check "ynl cli.py --dump node-get: 32 nodes $(head -c 200 "$tmp/ynl-err")" [ $good = 1 ]
	ynl --do topo-get > "$tmp/ynl-topo" 2>"$tmp/ynl-err"
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["nodes"] == 32 and d["kind"] == "hypercube"' "$tmp/ynl-topo" && good=1
	check "ynl cli.py --do topo-get $(head -c 200 "$tmp/ynl-err")" [ $good = 1 ]

	# the trace: one record per channel a message crossed, one per
	# message, one per interval a node waited; in parts
	vcubectl -j trace > "$tmp/trace"
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c '
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))
links = {l["id"]: l for l in json.load(open(sys.argv[2]))}
topo = json.load(open(sys.argv[3]))
assert [r["seq"] for r in d] == list(range(len(d)))
kinds = Counter(r["kind"] for r in d)
assert set(kinds) == {"data", "msg", "wait"}, kinds
c = [r for r in d if r["kind"] == "data"]
assert len(c) == 2560, len(c)                       # sum of popcount(s ^ t)
assert all(r["bytes"] == 64 and r["acquired_ns"] <= r["start_ns"] < r["end_ns"] for r in c)
hops = {}
for r in c:
    hops.setdefault(r["msg"], []).append(r)
assert len(hops) == 992
for m in hops.values():
    s, t = m[0]["src"], m[0]["dst"]
    assert [r["hop"] for r in m] == list(range(bin(s ^ t).count("1")))
# a message: sent, its path held, its body, delivered, as its hops say
msgs = {r["msg"]: r for r in d if r["kind"] == "msg"}
assert len(msgs) == 992 == topo["messages"], (len(msgs), topo["messages"])
for k, m in msgs.items():
    h = hops[k]
    assert m["start_ns"] <= m["acquired_ns"] <= m["flow_ns"] <= m["end_ns"], m
    assert m["flow_ns"] == h[0]["start_ns"] and m["end_ns"] == h[-1]["end_ns"], (m, h)
    assert m["hop"] == len(h) and m["proto"] in ("short", "long", "forced"), m
# the totals are the counters netlink reports
per = Counter(r["channel"] for r in c)
assert all(per[i] == l["messages"] for i, l in links.items()), "per-link"
# waits: each an interval of a node; pairwise meets no busy channel, so
# each node waits once a step, in transit: vcube_node_exchange() waits for
# the receive first, and the send is through by the time it completes
w = [r for r in d if r["kind"] == "wait"]
assert all(r["start_ns"] < r["end_ns"] and 0 <= r["src"] < 32 for r in w)
causes = Counter(r["cause"] for r in w)
assert causes == Counter(transit=992), causes
assert all(m["cause"] == "transit" and "holder" not in m for m in msgs.values())
' "$tmp/trace" "$tmp/links" "$tmp/topo" && good=1
	check "vcubectl trace: 2560 channel uses, one per hop of each of the 992 messages, in order; 992 message records whose times the hops agree with; per-link totals equal the counters; 992 waits, one a step, all in transit (pairwise: no contention)" [ $good = 1 ]
	ynl --dump trace-get > "$tmp/ynl-trace" 2>"$tmp/ynl-err"
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); e=json.load(open(sys.argv[2])); assert len(d) == len(e) and [(r["seq"], r["kind"], r.get("channel"), r["start"], r.get("cause")) for r in d] == [(r["seq"], r["kind"], r.get("channel"), r["start_ns"], r.get("cause")) for r in e]' "$tmp/ynl-trace" "$tmp/trace" && good=1
	check "ynl cli.py --dump trace-get: the same records $(head -c 200 "$tmp/ynl-err")" [ $good = 1 ]
	# the same record for Perfetto: tracks that nest, flows that close
	vcubectl trace --format perfetto -o "$tmp/pf.json"
	rc=$?
	vcubectl trace --format perfetto > "$tmp/pf2.json"
	good=0; [ $rc = 0 ] && cmp -s "$tmp/pf.json" "$tmp/pf2.json" && python3 -c '
import json, sys
from collections import defaultdict
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
link = [e for e in ev if e["ph"] == "X" and e["pid"] == 1]
assert len(link) == 2560, len(link)
tracks = defaultdict(list)
for e in ev:
    if e["ph"] == "X":
        tracks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
for t, sl in tracks.items():
    sl.sort()
    for a, b in zip(sl, sl[1:]):
        assert b[0] >= a[1] - 1e-9, (t, a, b)          # slices nest: none overlap
flows = defaultdict(lambda: defaultdict(int))
for e in ev:
    if e["ph"] in "stf":
        flows[e["id"]][e["ph"]] += 1
assert len(flows) == 992
hops = sum(f["t"] for f in flows.values())
assert hops == 2560 and all(f["s"] == 1 and f["f"] == 1 for f in flows.values())
# a receipt after its send and after its data released the last link
fl = defaultdict(dict)
for e in ev:
    if e["ph"] in "sf":
        fl[e["id"]][e["ph"]] = e["ts"]
last = defaultdict(float)
for e in link:
    if e["args"]["kind"] == "data":
        last[e["args"]["msg"]] = max(last[e["args"]["msg"]], e["ts"] + e["dur"])
assert all(f["f"] >= f["s"] and f["f"] >= last[k] - 1e-9 for k, f in fl.items())
# the nodes: each message sent, each received, each wait with its cause
node = [e for e in ev if e["ph"] == "X" and e["pid"] == 2]
sends = [e for e in node if e["name"].startswith("send to")]
assert len(sends) == 992 and all(e["args"]["posted_us"] <= e["args"]["body_us"] <= e["args"]["delivered_us"] for e in sends)
waits = [e for e in node if e["name"].startswith("wait")]
assert len(waits) == 992 and all(e["args"]["cause"] == "transit" for e in waits)
names = [e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == 2]
assert len({n.split(" lane")[0] for n in names}) == 32, names[:5]
cnt = defaultdict(list)
for e in ev:
    if e["ph"] == "C":
        cnt[e["name"]].append((e["ts"], e["args"]["transfers"]))
assert len(cnt) == len({e["tid"] // 64 for e in link}), len(cnt)      # one per link used
for k, v in cnt.items():
    assert [t for t, _ in v] == sorted({t for t, _ in v}), k              # one value per instant
    assert min(n for _, n in v) >= 0 and v[-1][1] == 0, (k, v[-3:])       # held, then free
' "$tmp/pf.json" && good=1
	check "vcubectl trace --format perfetto: 2560 link slices, 992 closed flows each received after its send and its last link, 32 node tracks with sends and waits by cause, slices that nest, an occupancy counter per link used, the same file twice" [ $good = 1 ]
	[ -n "${VCUBE_OUT:-}" ] && cp "$tmp/pf.json" "$VCUBE_OUT/pairwise-d5.perfetto.json"
	# and in SimGrid's Paje format, read back by pajeng's pj_dump
	vcubectl trace --format paje -o "$tmp/t.paje"
	rc=$?
	vcubectl trace --format paje > "$tmp/t2.paje"
	good=0
	if [ $rc = 0 ] && cmp -s "$tmp/t.paje" "$tmp/t2.paje" && pj_dump "$tmp/t.paje" > "$tmp/pj" 2> "$tmp/pj-err"; then
		python3 -c '
import json, sys
from collections import Counter
rows = [l.rstrip("\n").split(", ") for l in open(sys.argv[1])]
links = [r for r in rows if r[0] == "Link"]
assert len(links) == 992, len(links)
assert len({r[-1] for r in links}) == 992                  # one key each
assert all(float(r[4]) > float(r[3]) for r in links)       # received after sent
st = Counter(r[2] for r in rows if r[0] == "State")
nw = sum(1 for r in json.load(open(sys.argv[2])) if r["kind"] == "wait")
assert st["channel state"] == 2560 and st["node state"] == 2 * 992 + nw, (st, nw)
vals = Counter(r[-1] for r in rows if r[0] == "State" and r[2] == "node state")
assert sum(v for k, v in vals.items() if "transit" in k) == nw, vals   # pairwise: all in transit
nodes = {r[-1] for r in rows if r[0] == "Container" and r[2] == "node"}
assert len({n.split(" lane")[0] for n in nodes}) == 32, nodes
' "$tmp/pj" "$tmp/trace" && good=1
	fi
	check "vcubectl trace --format paje: pj_dump reads it: 992 message links, 2560 channel states, the nodes' sends, receipts and waits (by cause), 32 nodes, the same file twice $(head -c 200 "$tmp/pj-err" 2>/dev/null)" [ $good = 1 ]
	ynl --dump window-get > "$tmp/ynl-win" 2>"$tmp/ynl-err"
	rc=$?
	check "ynl cli.py --dump window-get answers $(head -c 200 "$tmp/ynl-err")" [ $rc = 0 ]
	good=0; [ ! -e /sys/class/vcube/stats ] && [ ! -e /sys/class/vcube/vcube0/stats ] && good=1
	check "sysfs keeps no counters: /sys/class/vcube/stats and vcube0/stats are gone" [ $good = 1 ]

	# resets: root only
	setpriv --reuid=65534 --regid=65534 --clear-groups vcubectl reset > /dev/null 2> "$tmp/err"
	rc=$?
	good=0; [ $rc = 1 ] && grep -q 'Operation not permitted' "$tmp/err" && good=1
	check "reset by a non-root user: -EPERM, exit 1 ($(cat "$tmp/err"))" [ $good = 1 ]
	setpriv --reuid=65534 --regid=65534 --clear-groups vcubectl -j links > "$tmp/links"
	rc=$?
	good=0; [ $rc = 0 ] && [ "$(field "$tmp/links" 0 messages)" -gt 0 ] && good=1
	check "a non-root user reads the counters, which are still there" [ $good = 1 ]
	# the trace names every message's ends and times: root only (D8)
	setpriv --reuid=65534 --regid=65534 --clear-groups vcubectl -j trace > "$tmp/utrace" 2> "$tmp/err"
	rc=$?
	good=0; [ $rc = 1 ] && [ ! -s "$tmp/utrace" ] && grep -q 'Operation not permitted' "$tmp/err" && good=1
	check "the trace read by a non-root user: -EPERM, exit 1, nothing printed ($(cat "$tmp/err"))" [ $good = 1 ]
	# the default network is the initial network namespace's: another
	# namespace has the family and networks of its own, not this one
	unshare -n vcubectl topo > /dev/null 2> "$tmp/err"
	rc=$?
	good=0; [ $rc = 1 ] && grep -q 'no default network in this network namespace' "$tmp/err" &&
		[ "$(unshare -n vcubectl -j net show)" = "[]" ] && good=1
	check "from another network namespace the default network is not there, and vcubectl says why: exit $rc ($(head -c 160 "$tmp/err"))" [ $good = 1 ]
	# the owner as the reader's PID namespace numbers it (D8)
	unshare -p -f --mount-proc sh -c 'exec 3<> /dev/vcube5; cat /sys/class/vcube/vcube5/owner > "$1/ns-sysfs"; vcubectl -j nodes > "$1/ns-nodes"; : > "$1/ns-ready"; while [ ! -e "$1/ns-done" ]; do sleep 0.1; done' sh "$tmp" &
	upid=$!
	for _ in $(seq 100); do [ -e "$tmp/ns-ready" ] && break; sleep 0.1; done
	child=$(pgrep -P $upid)
	outer=$(cat /sys/class/vcube/vcube5/owner)
	vcubectl -j nodes > "$tmp/nodes-outer"
	: > "$tmp/ns-done"
	wait $upid
	good=0; [ "$(cat "$tmp/ns-sysfs")" = 1 ] && [ "$outer" = "$child" ] && python3 -c '
import json, sys
inner = {n["node"]: n["pid"] for n in json.load(open(sys.argv[1]))}
outer = {n["node"]: n["pid"] for n in json.load(open(sys.argv[2]))}
assert inner[5] == 1 and outer[5] == int(sys.argv[3]), (inner[5], outer[5])
' "$tmp/ns-nodes" "$tmp/nodes-outer" "$child" && good=1
	check "a node bound in a PID namespace: its owner is 1 inside ($(cat "$tmp/ns-sysfs")), $child outside ($outer), in sysfs and vcubectl nodes" [ $good = 1 ]
	vcubectl reset
	rc=$?
	vcubectl -j links > "$tmp/links"
	vcubectl -j topo > "$tmp/topo"
	good=0; [ $rc = 0 ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=json.load(open(sys.argv[2])); assert all(l["messages"] == 0 and l["busy_ns"] == 0 and l["waits"] == 0 for l in d) and t["messages"] == 0' "$tmp/links" "$tmp/topo" && good=1
	check "reset by root: every counter 0" [ $good = 1 ]
	check "reset by root: the trace is empty" [ "$(vcubectl -j trace)" = "[]" ]

	vcubectl -j watch --interval 0.2 --count 2 > "$tmp/watch"
	rc=$?
	good=0; [ $rc = 0 ] && [ "$(wc -l < "$tmp/watch")" = 2 ] && python3 -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    assert d["topo"]["nodes"] == 32 and len(d["links"]) == 10' "$tmp/watch" && good=1
	check "vcubectl -j watch --count 2: two JSON lines of the 10 busiest links" [ $good = 1 ]
	unload
}

# Bokhari 1991, 2.3: 8 paths through 7 -> 15 at once (channel 7*7+3 = 52)
usenet topology=hypercube dim=7 profile=ipsc860 && {
	vcube-run -n 128 "$exp" contention 8 > /dev/null 2>&1
	check "8 paths through 7->15 ran" [ $? = 0 ]
	vcubectl -j links > "$tmp/links"
	m=$(field "$tmp/links" 52 messages); w=$(field "$tmp/links" 52 waits)
	good=0; [ "$m" = 8 ] && [ "$w" -gt 0 ] && good=1
	check "7->15 carried 8 messages and made headers wait ($w waits)" [ $good = 1 ]
	bad=$(python3 -c '
import json, sys
d = {l["id"]: l for l in json.load(open(sys.argv[1]))}
# the other channels out of 7, and 15 -> 7
ids = [7 * 7 + b for b in range(7) if b != 3] + [15 * 7 + 3]
print(" ".join(str(i) for i in ids if d[i]["messages"] or d[i]["waits"]))' "$tmp/links")
	check "its neighbours out of 7, and 15->7, carried nothing and made nobody wait${bad:+: $bad}" [ -z "$bad" ]
	top=$(vcubectl -j links --sort waits --top 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
	check "vcubectl links --sort waits puts 7->15 first ($top)" [ "$top" = 52 ]
	one=$(vcubectl -p links 52 15 | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d), d[0]["id"], d[0]["messages"], d[1]["id"])')
	check "vcubectl -p links 52 15: those two, in that order, 7->15 with its 8 messages ($one)" [ "$one" = "2 52 8 15" ]
	# text: one column per field, a header naming each
	set -- $(vcubectl links 52 | awk 'NR == 1 { print $1, $2, $3, $4, $5 } NR == 2 { print $1, $2, $3, $4, $5 }')
	check "vcubectl links 52: columns link from to dim messages, then 52 7 15 3 8 ($*)" \
		[ "$*" = "link from to dim messages 52 7 15 3 8" ]
	vcubectl links 896 > /dev/null 2> "$tmp/err"
	rc=$?
	check "vcubectl links 896 on 896 links: no such link, exit 2 ($(cat "$tmp/err"))" [ $rc = 2 ]
	good=0; vcubectl -j links | python3 -c 'import json,sys; d=json.load(sys.stdin); b=[l["busy_ns"] for l in d]; assert len(d) == 896 and b == sorted(b, reverse=True)' && good=1
	check "vcubectl links lists the busiest first by default" [ $good = 1 ]
	nonet
}

# d = 12: 49152 channels, dumped in parts; the counters add up
usenet topology=hypercube dim=12 profile=ipsc860 && {
	# 0 -> 4095 (12 hops), 0 -> 1 (1), 0 -> 6 (2); 4095 is unbound and
	# discards, but the channels carry the messages all the same
	nl send 0 64 4095 1 6 > /dev/null 2>&1
	check "d=12: three FORCED sends from node 0" [ $? = 0 ]
	nl parts 15 > "$tmp/parts" 2>&1
	rc=$?
	parts=$(awk '$1 == "links" { print $4 }' "$tmp/parts")
	good=0; [ $rc = 0 ] && [ "${parts:-0}" -gt 1 ] && good=1
	check "d=12: 49152 links in $parts parts, message-hops sum to 15, 4096 nodes ($(tr '\n' ' ' < "$tmp/parts"))" [ $good = 1 ]
	nl intr > "$tmp/intr" 2>&1
	rc=$?
	check "d=12: a dump the counters change under is flagged NLM_F_DUMP_INTR ($(tr '\n' ' ' < "$tmp/intr"))" [ $rc = 0 ]
	n=$(vcubectl -j links | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
	check "d=12: vcubectl links lists all 49152 ($n)" [ "$n" = 49152 ]
	nonet
}

# issue 22's command: the naive exchange through vcube-bench, its trace
# for Perfetto: 32 node tracks, the links used, every message a flow;
# then with --mark, each rank's steps as phases
usenet topology=hypercube dim=5 && {
	vcube-run -n 32 vcube-bench exchange --algo naive --sizes 4096 -q > "$tmp/nb" 2>&1 &&
		vcubectl trace --format perfetto -o "$tmp/t.json" 2> "$tmp/t-err"
	rc=$?
	vcubectl -j topo > "$tmp/topo"
	vcubectl -j links > "$tmp/links"
	good=0; [ $rc = 0 ] && python3 -c '
import json, sys
from collections import Counter, defaultdict
d = json.load(open(sys.argv[1]))
topo = json.load(open(sys.argv[2]))
links = json.load(open(sys.argv[3]))
ev = d["traceEvents"]
assert d["otherData"]["dropped"] == 0 and d["otherData"]["messages"] == topo["messages"]
nodes = {e["args"]["name"].split(" lane")[0] for e in ev if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == 2}
assert len(nodes) == 32, len(nodes)
used = {l["id"] for l in links if l["messages"]}
tracks = {e["tid"] // 64 for e in ev if e["ph"] == "X" and e["pid"] == 1}
assert tracks == used, (len(tracks), len(used))
flows = defaultdict(Counter)
for e in ev:
    if e["ph"] in "stf":
        flows[e["id"]][e["ph"]] += 1
assert len(flows) == topo["messages"] and all(f["s"] == 1 == f["f"] for f in flows.values())
big = [e for e in ev if e["ph"] == "X" and e["pid"] == 2 and e["name"].startswith("send to") and e["args"]["bytes"] == 4096]
assert len(big) == 3 * 992, len(big)          # --reps 3: 992 a repetition
# naive: every node sends to 0 first, so circuits wait for busy channels
# (Bokhari sec. 4), and each such wait names the message that held it
chan = [e for e in ev if e["ph"] == "X" and e["pid"] == 2 and e["name"].startswith("wait: chan ")]
uses = defaultdict(list)        # (msg, channel): when held
for e in ev:
    if e["ph"] == "X" and e["pid"] == 1:
        uses[(e["args"]["msg"], e["args"]["channel"])].append((e["ts"], e["ts"] + e["dur"]))
assert chan and all(e["args"]["cause"] == "chan" and any(k[0] == e["args"]["held_by_msg"] for k in uses) for e in chan), len(chan)
assert any(e["args"]["longest_wait"] == "chan" for e in big)
# a circuit is held from its header on: some links taken before the body
links = [e for e in ev if e["ph"] == "X" and e["pid"] == 1]
assert all(e["args"]["taken_us"] <= e["args"]["body_us"] for e in links)
assert any(e["args"]["taken_us"] < e["args"]["body_us"] for e in links)
# and a sender that waits for a channel sees it held, on that link, by the
# message the wait names, when its wait begins
src = {e["args"]["msg"]: e["tid"] // 64 for e in ev if e["ph"] == "X" and e["pid"] == 2 and e["name"].startswith("send to")}
own = [e for e in chan if src.get(e["args"]["msg"]) == e["tid"] // 64]
assert own and all(any(a <= e["ts"] + 1e-9 and e["ts"] <= b + 1e-9 for a, b in uses[(e["args"]["held_by_msg"], e["args"]["channel"])]) for e in own), len(own)
print(len(flows), len(big))
' "$tmp/t.json" "$tmp/topo" "$tmp/links" > "$tmp/t-out" && good=1
	check "vcube-bench exchange --algo naive --sizes 4096, vcubectl trace --format perfetto: 32 node tracks, the links used, one closed flow per message ($(cat "$tmp/t-out"): 992 of 4096 B per repetition), waits for channels naming their holders $(head -c 200 "$tmp/t-err")" [ $good = 1 ]
	[ -n "${VCUBE_OUT:-}" ] && cp "$tmp/t.json" "$VCUBE_OUT/naive-d5.perfetto.json"
	# with --mark, each rank's steps as phases; the same run twice (the
	# counters reset between) gives byte-identical files
	for i in 1 2; do
		vcubectl reset
		vcube-run -n 32 vcube-bench exchange --algo naive --sizes 4096 --reps 1 --mark -q > "$tmp/nb" 2>&1 &&
			vcubectl trace --format perfetto -o "$tmp/m$i.json" &&
			vcubectl trace --format paje -o "$tmp/m$i.paje"
		rc=$?
	done
	good=0; [ $rc = 0 ] && cmp -s "$tmp/m1.json" "$tmp/m2.json" && cmp -s "$tmp/m1.paje" "$tmp/m2.paje" && python3 -c '
import json, sys
from collections import defaultdict
ev = json.load(open(sys.argv[1]))["traceEvents"]
ph = defaultdict(list)
for e in ev:
    if e["ph"] == "X" and e["pid"] == 3:
        ph[e["tid"]].append((e["ts"], e["name"]))
assert sorted(ph) == list(range(32)), sorted(ph)
for t, v in ph.items():
    names = [n for _, n in sorted(v) if n.startswith("naive step ")]
    assert names == ["naive step %d" % k for k in range(1, 32)], (t, names[:3])
' "$tmp/m1.json" && good=1
	check "vcube-bench exchange --mark: 32 phase tracks, each rank's naive steps 1..31 in order; the same run twice, the same Perfetto and Paje files" [ $good = 1 ]
	# the README's picture of such a file (make trace-picture), from it
	"$VCUBE_TOP/scripts/perfetto-picture.py" "$tmp/m1.json" "$tmp/t.svg" 2> "$tmp/pp-err"
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c '
import sys, xml.etree.ElementTree as ET
t = open(sys.argv[1]).read()
ET.parse(sys.argv[1])
for w in ("phases", "nodes", "links", "node 7 phases", "naive step 1", "send to 0", "wait: chan ", "held by msg", "0: 0->1 dim 0"):
    assert w in t, w
' "$tmp/t.svg" && good=1
	check "scripts/perfetto-picture.py draws it: an SVG with the phases, nodes and links groups, steps, sends and channel waits ($(cat "$tmp/pp-err"))" [ $good = 1 ]
	nonet
}

# a trace of 100 keeps the last 100 channel uses; windows of 1 ms
# and the monitor group: the first window's peak, then a deadlock
load topology=hypercube dim=4 profile=ipsc860 trace=100 window_ns=1000000 && {
	vcubectl -j monitor --count 2 > "$tmp/mon" 2> "$tmp/mon-err" &
	mon=$!
	ynl --subscribe monitor --sleep 25 > "$tmp/ynl-mon" 2>&1 &
	ymon=$!
	# until both have joined a group (generic netlink sockets with
	# groups; python under TCG takes seconds to start), at most 30 s
	for i in $(seq 60); do
		[ "$(awk '$2 == 16 && $4 != "00000000"' /proc/net/netlink | wc -l)" -ge 2 ] && break
		sleep 0.5
	done
	vcube-run -n 16 nl exchange 64 > /dev/null 2>&1
	vcubectl -j trace > "$tmp/trace" 2> "$tmp/trace-err"
	first=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=[r["seq"] for r in d]; assert s == list(range(s[0], s[0] + 100)) and s[0] > 512, s[:3]; print(s[0])' "$tmp/trace")
	check "trace=100, 512 channel uses and more records: the last 100 (seq $first..)" [ -n "$first" ]
	vcubectl trace --format perfetto -o "$tmp/pf-drop.json" 2>> "$tmp/trace-err"
	vcubectl trace --format paje -o "$tmp/drop.paje" 2>> "$tmp/trace-err"
	good=0
	[ -n "$first" ] && [ "$(grep -c "the first $first records since the last reset are gone" "$tmp/trace-err")" = 3 ] &&
		python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["otherData"]["dropped"] == int(sys.argv[2])' "$tmp/pf-drop.json" "$first" &&
		head -n 1 "$tmp/drop.paje" | grep -q "100 records, $first before them gone" && good=1
	check "what the ring dropped is said, never cut in silence: $first (text, perfetto, paje)" [ $good = 1 ]
	vcubectl windows > "$tmp/win"
	good=0; [ -s "$tmp/win" ] && awk '$1 != "window" || $3 != "peak" || $4 < 1 { exit 1 }' "$tmp/win" && good=1
	check "vcubectl windows: \"window W peak P\" lines ($(head -n 1 "$tmp/win"))" [ $good = 1 ]
	vcube-run -n 2 "$exp" deadlock > /dev/null 2>&1
	for i in $(seq 30); do kill -0 $mon 2> /dev/null || break; sleep 1; done
	kill $mon 2> /dev/null
	wait $mon
	rc=$?
	good=0; [ $rc = 0 ] && python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert [e["event"] for e in ev] == ["peak", "deadlock"], ev
p, d = ev
assert p["peak"] == 1 and p["window"] == p["time_ns"] // 1000000 and 0 <= p["link"] < 64, p
assert d["waiting"] >= 1 and d["time_ns"] > 0, d' "$tmp/mon" && good=1
	check "vcubectl monitor --count 2: the first window peak (1: circuits), then the deadlock, and exits 0 ($rc: $(tr '\n' ' ' < "$tmp/mon") $(head -c 200 "$tmp/mon-err"))" [ $good = 1 ]
	wait $ymon
	good=0; python3 -c '
import json, sys
q = json.load(open(sys.argv[1]))
assert [m["name"] for m in q] == ["peak-ntf", "deadlock-ntf"], q
assert q[0]["msg"]["peak"] == 1 and q[1]["msg"]["waiting"] >= 1, q' "$tmp/ynl-mon" && good=1
	check "ynl cli.py --subscribe monitor: the same two notifications, from the spec alone ($(head -c 300 "$tmp/ynl-mon"))" [ $good = 1 ]
	vcubectl trace extra > /dev/null 2> "$tmp/err"
	check "vcubectl trace with an argument: refused, exit 2" [ $? = 2 ]
	vcubectl trace on -o "$tmp/x" > /dev/null 2> "$tmp/err"
	check "vcubectl trace on with -o: refused, exit 2" [ $? = 2 ]
	# switched off and on: root only; off, nothing is written
	setpriv --reuid=65534 --regid=65534 --clear-groups vcubectl trace off 2> "$tmp/err"
	rc=$?
	good=0; [ $rc = 1 ] && grep -q 'Operation not permitted' "$tmp/err" && good=1
	check "vcubectl trace off by a non-root user: -EPERM, exit 1 ($(cat "$tmp/err"))" [ $good = 1 ]
	vcubectl reset && vcubectl trace off
	check "vcubectl trace off by root" [ $? = 0 ]
	vcube-run -n 16 nl exchange 64 > /dev/null 2>&1
	good=0; [ "$(vcubectl -j trace)" = "[]" ] && vcubectl -j topo | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["trace_on"] is False and d["trace_max"] == 100 and d["messages"] == 240' && good=1
	check "trace off: 240 messages, no record; topo says trace off, 100 kept" [ $good = 1 ]
	vcubectl trace on && vcube-run -n 16 nl exchange 64 > /dev/null 2>&1
	good=0; vcubectl -j trace | python3 -c 'import json,sys; d=json.load(sys.stdin); assert len(d) == 100' && vcubectl topo | grep -q 'trace on' && good=1
	check "trace on again: recording" [ $good = 1 ]
	unload
}
usenet topology=hypercube dim=3 trace=0 && {
	vcube-run -n 8 nl exchange 64 > /dev/null 2>&1
	check "trace=0: the trace is empty" [ "$(vcubectl -j trace)" = "[]" ]
	vcubectl trace on 2> "$tmp/err"
	rc=$?
	good=0; [ $rc = 1 ] && grep -q 'trace=0' "$tmp/err" && good=1
	check "trace=0: vcubectl trace on fails, says why, exit 1 ($(cat "$tmp/err"))" [ $good = 1 ]
	nonet
}

# a fat tree with packet switching: links are bundles with their width
usenet profile=cm5 nodes=64 && {
	vcubectl -j links > "$tmp/links"
	vcubectl -j topo > "$tmp/topo"
	good=0; python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=json.load(open(sys.argv[2])); assert len(d) == t["links"] < t["channels"] and d[0]["width"] >= 1 and t["switching"] == "packet"' "$tmp/links" "$tmp/topo" && good=1
	check "fat tree, packet switching: one link per bundle" [ $good = 1 ]
	vcubectl links --svg "$tmp/ft.svg" > /dev/null && python3 -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' "$tmp/ft.svg"
	check "fat tree: well-formed SVG" [ $? = 0 ]
	nonet
}
usenet topology=torus rows=4 cols=4 && {
	vcubectl links --svg "$tmp/t.svg" > /dev/null && python3 -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' "$tmp/t.svg"
	check "torus: well-formed SVG" [ $? = 0 ]
	nonet
}
# no window_ns: no windows, and vcubectl says why rather than nothing
usenet topology=hypercube dim=2 && {
	vcube-run -n 4 nl exchange 64 > /dev/null 2>&1
	vcubectl windows > "$tmp/win" 2> "$tmp/win-err"
	rc=$?
	good=0; [ $rc = 0 ] && [ ! -s "$tmp/win" ] && grep -q 'window_ns=' "$tmp/win-err" &&
		[ "$(vcubectl -j windows 2> /dev/null)" = "[]" ] && good=1
	check "window_ns=0: vcubectl windows lists none and says why ($(cat "$tmp/win-err")); -j: []" [ $good = 1 ]
	nonet
}
unload
vcubectl topo > /dev/null 2> "$tmp/err"
rc=$?
good=0; [ $rc = 1 ] && grep -q 'no vcube network is loaded' "$tmp/err" && good=1
check "after rmmod the family is gone: vcubectl topo says so, exit 1" [ $good = 1 ]
exit $fail
