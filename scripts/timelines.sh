#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make timelines: docs/timelines.md and its four time-space diagrams, drawn
# by vcube-sim --timeline (the module's engine on the host; vcube-chart
# --timeline draws the same from a loaded module's trace): Bokhari's naive
# exchange against pairwise_F on the 32-node iPSC/860, and PEX against GEN
# on a 4 x 4 Delta mesh, 4 KB blocks, each pair on one time axis. Every
# time in the page is the run's own line.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sim=$top/build/bin/vcube-sim
docs=$top/docs
[ -x "$sim" ] || { echo "timelines.sh: run make first" >&2; exit 1; }

# run PROFILE SHAPE ALGO UNTIL_NS OUT: the diagram; prints the run's ns
run() {
	local prof=$1 shape=$2 algo=$3 until=$4 out=$5
	# shellcheck disable=SC2086
	"$sim" -q --ns --profile "$prof" $shape --algo "$algo" --len 4096 \
		--until "$until" --timeline "$docs/$out" | awk '{ print $5 }'
}
ms() { awk -v t="$1" 'BEGIN { printf "%.3f", t / 1e6 }'; }

# the slower of each pair sets the axis for both
tn=$("$sim" -q --ns --profile ipsc860 --dim 5 --algo naive --len 4096 | awk '{ print $5 }')
tp=$("$sim" -q --ns --profile ipsc860 --dim 5 --algo pairwise_F --len 4096 | awk '{ print $5 }')
u1=$(( (tn > tp ? tn : tp) * 21 / 20 ))
run ipsc860 "--dim 5" naive "$u1" timeline-ipsc860-naive.svg > /dev/null
run ipsc860 "--dim 5" pairwise_F "$u1" timeline-ipsc860-pairwise_F.svg > /dev/null
tx=$("$sim" -q --ns --profile delta --rows 4 --cols 4 --algo pex --len 4096 | awk '{ print $5 }')
tg=$("$sim" -q --ns --profile delta --rows 4 --cols 4 --algo gen --len 4096 | awk '{ print $5 }')
u2=$(( (tx > tg ? tx : tg) * 21 / 20 ))
run delta "--rows 4 --cols 4" pex "$u2" timeline-delta-pex.svg > /dev/null
run delta "--rows 4 --cols 4" gen "$u2" timeline-delta-gen.svg > /dev/null

# the paper's and vcube's winner of that cell, as the scorecard holds them
cell=$(python3 -c '
import json, sys
for p in json.load(open(sys.argv[1]))["papers"]:
    for w in p.get("winners", []):
        if w["item"].startswith("PEX or GEN") and w["cell"] == "4K, 4x4":
            print(w["paper"].upper(), w["vcube"].upper())' "$docs/scorecard.json")
set -- $cell
[ $# = 2 ] || { echo "timelines.sh: no '4K, 4x4' cell in docs/scorecard.json" >&2; exit 1; }
paper=$1 model=$2
if [ "$paper" = "$model" ]; then
	verdict="The paper's winner of this cell (docs/scorecard.md, \"PEX or GEN\", 4K, 4x4) is $paper, as the model's."
else
	verdict="The paper's winner of this cell (docs/scorecard.md, \"PEX or GEN\", 4K, 4x4) is $paper; the model's is $model, an open mismatch of the fidelity work."
fi

cat > "$docs/timelines.md" <<EOF
# Time-space diagrams

Written by \`make timelines\` (scripts/timelines.sh): vcube-sim runs each exchange on the
model, on the host, and \`--timeline\` draws it. One row per node against virtual time; each
message a line from its sender when its body began to flow to its receiver when it arrived;
blue bars a node transmitting (its message on its first link), green bars it receiving (on
its last). Shaded behind them, each interval a node spent blocked inside a call, coloured by
its cause as the engine's trace records it: light grey, the message it waits for was not sent
yet; blue-grey, it is on its way and nothing holds it up; orange, a channel on its route is
held by another message; violet, a send or receive port is busy with another message (or, on
the iPSC/860, a receive and a transmit serialise); yellow, it waits for its receive or for
buffer room at its receiver; dark grey, the node's own work. The same picture from a loaded
module: \`vcube-chart --timeline FILE ALGO\`, from the module's trace; the trace itself opens
in Perfetto (\`vcubectl trace --format perfetto\`), where each wait names the message that
held the channel.

## Bokhari's naive exchange against pairwise_F, 32-node iPSC/860, 4 KB blocks

\`vcube-sim --profile ipsc860 --dim 5 --algo naive --len 4096 --timeline ...\`: $(ms "$tn") ms.
Every node sends to node 0 first, then to 1, and so on: the receivers take one message at a
time, so the senders queue behind each other (orange: their circuits wait for channels the
earlier senders hold) and the exchange stretches into a diagonal.

![naive](timeline-ipsc860-naive.svg)

\`--algo pairwise_F\`: $(ms "$tp") ms. Step i pairs node v with v xor i; every pair
synchronises, then exchanges over a circuit no other pair's route crosses: $(( (1 << 5) - 1 )) clean steps.

![pairwise_F](timeline-ipsc860-pairwise_F.svg)

## PEX against GEN, 4 x 4 Touchstone Delta mesh, 4 KB blocks

\`vcube-sim --profile delta --rows 4 --cols 4 --algo pex --len 4096 --timeline ...\`:
$(ms "$tx") ms; \`--algo gen\`: $(ms "$tg") ms. $verdict

![PEX](timeline-delta-pex.svg)

![GEN](timeline-delta-gen.svg)
EOF
echo "wrote docs/timelines.md and four diagrams" >&2
