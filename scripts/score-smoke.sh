#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The scorecard's smoke, host half: the Delta's smoke cells and the chosen
# constants' ablations (vcube-sim, scripts/ablate.py --smoke: 20 to 30 s
# on two cores), then scripts/score.py --smoke over them and the VM half's records
# (tests/vm/score.sh, in build/vm/out/score-smoke). Writes
# build/scorecard-smoke.md and .json; exits non-zero when a smoke threshold
# of data/score-thresholds.tsv is missed. Ends "score: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
dir=build/score-smoke
vm=build/vm/out/score-smoke
rm -rf "$dir"
mkdir -p "$dir"
if [ ! -d "$vm" ]; then
	echo "not ok - no VM records in $vm (tests/vm/score.sh did not run)"
	echo "score: 0 passed, 1 failed"
	exit 1
fi
VCUBE_SCORE=$dir/delta.tsv python3 scripts/validate-delta.py --smoke > "$dir/delta.md" || {
	echo "not ok - scripts/validate-delta.py --smoke failed"
	echo "score: 0 passed, 1 failed"
	exit 1
}
# the chosen constants' ablations vcube-sim runs, on the smoke's cells
VCUBE_SCORE=$dir/ablate.tsv python3 scripts/ablate.py --smoke > "$dir/ablate.md" 2> "$dir/ablate.err" || {
	echo "not ok - scripts/ablate.py --smoke failed: $(tail -n 1 "$dir/ablate.err")"
	echo "score: 0 passed, 1 failed"
	exit 1
}
python3 scripts/score.py --smoke --records "$dir" --records "$vm" \
	--md build/scorecard-smoke.md --json build/scorecard-smoke.json
