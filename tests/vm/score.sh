#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The scorecard's smoke run, the VM half: a few cells per paper, measured
# through the module by the same scripts make score runs, in their smoke
# mode. Each leaves its records in $VCUBE_OUT/score-smoke; make check's
# score layer (scripts/check.sh) scores them with scripts/score.py --smoke
# against data/score-thresholds.tsv. Here: each script ran, and left records.
. "$(dirname "$0")/lib.sh"
dir=$VCUBE_OUT/score-smoke
rm -rf "$dir"
mkdir -p "$dir"
unload

smoke() {	# NAME SCRIPT [SECTIONS]
	local name=$1 script=$2
	if VCUBE_SMOKE=1 VCUBE_SECTIONS=${3:-} VCUBE_SCORE=$dir/$name.tsv bash "$VCUBE_TOP/scripts/$script" \
		> "$dir/$name.md" 2> "$dir/$name.err"; then
		check "$script (smoke) left $(wc -l < "$dir/$name.tsv" 2>/dev/null || echo no) records" \
			test -s "$dir/$name.tsv"
	else
		no "$script (smoke) failed: $(tail -n 3 "$dir/$name.err")"
	fi
}
smoke cnet reproduce-cnet.sh
smoke switching validate-switching.sh
smoke ponnusamy reproduce.sh "ponnusamy-fig10 ponnusamy-table4 ponnusamy-figs11-12"
smoke chuang reproduce.sh "chuang-fig5 chuang-fig8"
smoke ipsc860 validate-ipsc860.sh
smoke sync reproduce-sync.sh
unload
exit $fail
