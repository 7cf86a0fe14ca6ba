#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Noise and global synchronisation (Seidel & Davis 1992) through the module:
# the noise parameters and their refusals; the costs libvcube measures and
# Table III from them; RDS's exit spread of 0 and cost of 2 d b_s + delta
# without noise; gsync with one node late by b_s; the same seed giving the
# same success counts, another seed other draws; every shift's bytes.
. "$(dirname "$0")/lib.sh"
bench=$VCUBE_TOP/build/bin/vcube-bench
out=$(mktemp)
out2=$(mktemp)
trap 'rm -f "$out" "$out2"' EXIT

status() { [ "$2" = "$1" ] && { [ -z "${3:-}" ] || grep -q -- "$3" "$out"; }; }

refuse() {	# label pattern modparams...: insmod fails with one clear line
	local label=$1 pat=$2 msg
	shift 2
	unload
	if insmod "$VCUBE_KO" "$@" 2>/dev/null; then
		no "$label: insmod $* was accepted"
		rmmod vcube
		return
	fi
	msg=$(dmesg | grep 'vcube' | tail -n 1)
	check "$label: refused ($msg)" grep -q -- "$pat" <<< "$msg"
}
refuse "unknown noise preset" "noise=loud" topology=hypercube dim=2 noise=loud
refuse "interrupts longer than half their period" "noise_cost_ns=600" \
	topology=hypercube dim=2 noise_period_ns=1000 noise_cost_ns=600
refuse "unknown jitter distribution" "jitter_dist=gauss" topology=hypercube dim=2 jitter_dist=gauss
refuse "send_port_early is 0 or 1" "send_port_early=2" topology=hypercube dim=2 send_port_early=2
refuse "channel_early is 0 or 1" "channel_early=2" topology=hypercube dim=2 channel_early=2

# ---- the noise model as sysfs shows it -----------------------------------
phases() { cat "$(sysdir)"/vcube*/noise_phase_ns | tr '\n' ' '; }
usenet topology=hypercube dim=3 profile=seidel noise=ipsc860 jitter_ns=100000 \
	jitter_dist=one seed=7 && {
	check "noise=ipsc860: 50 us every 10 ms, jitter 100 us (one)" \
		[ "$(attr noise_period_ns) $(attr noise_cost_ns) $(attr jitter_ns) $(attr jitter_dist) $(attr send_port_early)" = "10000000 50000 100000 one 1" ]
	p7=$(phases)
	check "every phase below the period, not all equal ($p7)" \
		awk -v s="$p7" 'BEGIN { n = split(s, a, " "); for (i = 1; i <= n; i++) { if (a[i] >= 10000000) exit 1; if (a[i] != a[1]) d = 1 } exit !d }'
	usenet topology=hypercube dim=3 profile=seidel noise=ipsc860 seed=7 &&
		check "the same seed, the same phases" [ "$(phases)" = "$p7" ]
	usenet topology=hypercube dim=3 profile=seidel noise=ipsc860 seed=8 &&
		check "another seed, other phases" [ "$(phases)" != "$p7" ]
}
usenet topology=hypercube dim=3 &&
	check "noise is off by default" \
		[ "$(attr noise_period_ns) $(attr noise_cost_ns) $(attr jitter_ns) $(attr send_port_early) $(attr channel_early)" = "0 0 0 0 0" ]
usenet topology=hypercube dim=3 channel_early=1 &&
	check "channel_early=1 as sysfs shows it" [ "$(attr channel_early)" = 1 ]

# ---- Seidel's constants, measured; Table III from them -------------------
usenet topology=hypercube dim=3 profile=seidel && {
	vcube-run -n 8 "$bench" costs --json > "$out"
	rc=$?
	check "--costs on profile seidel: b_s 75, s 44, b_l 136 us, a 0.36 us/byte" \
		[ $rc = 0 -a "$(python3 -c 'import json,sys; j = json.load(open(sys.argv[1])); print(j["b_s"], j["s"], j["b_l"], j["a_ps_per_byte"])' "$out")" = "75000 44000 136000 360000" ]
	check "Table III from the measured constants: 645 1062 1478 1895 2312 2728" \
		[ "$(python3 -c 'import json,sys; print(*[r["bytes"] for r in json.load(open(sys.argv[1]))["rds_min_len"]])' "$out")" = "645 1062 1478 1895 2312 2728" ]
}

# ---- barriers without noise ------------------------------------------------
# barrier ALGO SKEWS: CSV rows "skew cost_avg spread_max" into $out2
barrier() {
	vcube-run -n 8 "$bench" barrier --csv -q --algo "$1" --skew "$2" --reps 2 > "$out" &&
		awk -F, '!/^#/ && !/^algo/ { print $2, $4, $8 }' "$out" > "$out2"
}
usenet topology=hypercube dim=3 profile=seidel && {
	barrier rds 0,75000,300000,1000000
	check "rds, d = 3, one rank late by 0 .. 1000 us: exit spread 0, cost 2 d b_s + delta exactly ($(tr '\n' ';' < "$out2"))" \
		awk '{ n++; if ($3 != 0 || $2 != 450000 + $1) bad = 1 } END { exit !(n == 4 && !bad) }' "$out2"
	barrier gsync 75000
	read -r _ cost spread < "$out2"
	# the paper's cases (sec. 3.1): d b_s + delta when no message is
	# blocked, 2 d b_s in "the worst case, shown in the figure"
	check "gsync, d = 3, one rank late by b_s: cost $cost ns, between d b_s + delta = 300 us and the worst case 2 d b_s = 450 us" \
		awk -v c="$cost" 'BEGIN { exit !(c >= 300000 && c <= 450000) }'
	check "gsync, d = 3, one rank late by b_s: spread $spread ns, d (b_s - s) = 93 us at most" \
		awk -v s="$spread" 'BEGIN { exit !(s > 0 && s <= 93000) }'
	barrier gsync 10000
	read -r _ cost spread < "$out2"
	check "gsync, d = 3, skew 10 us < b_s: cost d b_s + delta = 235 us exactly ($cost ns)" \
		awk -v c="$cost" 'BEGIN { exit !(c == 235000) }'
	vcube-run -n 8 "$bench" barrier -q --algo all --skew 0 --reps 1 > "$out"
	check "every barrier runs on 8 ranks ($(grep -c '^[a-z]' "$out") rows)" \
		[ "$(grep -cE '^(gsync|sync0|rds|dissemination|tree) ' "$out")" = 5 ]
	check "the barrier table's notes say what a barrier row is, and nothing of a shift" \
		[ "$(grep -c '^# one rank late by the skew' "$out") $(grep -c 'shift on the Gray-code ring' "$out")" = "1 0" ]
}
# Seidel sec. 3.1 on d = 5: one node late by b_s <= delta <= d b_s costs
# 2 d b_s with precision d (b_s - s); later than d b_s, d b_s + delta.
usenet topology=hypercube dim=5 profile=seidel && {
	vcube-run -n 32 "$bench" barrier --csv -q --algo gsync --skew 300000,600000 --reps 1 > "$out" &&
		awk -F, '!/^#/ && !/^algo/ { print $2, $4, $8 }' "$out" > "$out2"
	check "gsync, d = 5, one rank late by 300 and 600 us: cost 2 d b_s = 750 and d b_s + delta = 975, spread d (b_s - s) = 155 ($(tr '\n' ';' < "$out2"))" \
		[ "$(tr '\n' ' ' < "$out2")" = "300000 750000.0 155000 600000 975000.0 155000 " ]
}
usenet topology=hypercube dim=3 profile=ipsc860 && {
	vcube-run -n 6 "$bench" barrier -q --csv --algo dissemination,tree --skew 0,50000 --reps 2 > "$out"
	check "dissemination and tree on 6 ranks" [ "$(grep -cE '^(dissemination|tree),' "$out")" = 4 ]
	vcube-run -n 6 "$bench" barrier -q --algo rds > "$out" 2>&1
	check "rds on 6 ranks is refused (exit 2)" status 2 $? "power-of-two"
}

# ---- shifts under noise: seeded, repeatable -------------------------------
shift_csv() {	# seed: success counts and max times of gsync, rds
	usenet topology=hypercube dim=4 profile=seidel noise=ipsc860 jitter_ns=150000 seed="$1" || return
	vcube-run -n 16 "$bench" shift --csv -q --algo gsync,rds --sizes 4096,16384 --reps 20 |
		grep -v '^#'
}
shift_csv 3 > "$out"
shift_csv 3 > "$out2"
check "the same seed, the same shift times and success counts ($(awk -F, 'NR > 1 { printf "%s %s: %s/20; ", $1, $2, $10 }' "$out"))" \
	cmp -s "$out" "$out2"
check "every shifted byte arrived" awk -F, 'NR > 1 { n++; if ($11 != 1) bad = 1 } END { exit !(n == 4 && !bad) }' "$out"
check "rds + FORCED shifts: every trial concurrent under noise" \
	awk -F, '$1 == "rds" { n++; if ($10 != 20) bad = 1 } END { exit !(n == 2 && !bad) }' "$out"
shift_csv 4 > "$out2"
check "another seed, other draws" not cmp -s "$out" "$out2"

# ---- refusals -------------------------------------------------------------
usenet topology=hypercube dim=2 profile=seidel && {
	vcube-run -n 4 "$bench" shift -q --algo none > "$out" 2>&1
	check "a FORCED shift with no barrier is refused (exit 2)" status 2 $? "unforced"
	vcube-run -n 4 "$bench" shift -q --algo none --unforced --sizes 4096 --reps 3 > "$out" 2>&1
	check "an UNFORCED shift with no barrier runs" [ $? = 0 ]
}
"$bench" barrier --algo bogus > "$out" 2>&1
check "an unknown barrier is refused (exit 2)" status 2 $? "no barrier"
"$bench" shift --algo gsync --skew 5 > "$out" 2>&1
check "--skew with --shift is refused (exit 2)" status 2 $? "skew"
"$bench" costs --algo linear > "$out" 2>&1
check "--costs with --algo is refused (exit 2)" status 2 $?
nonet
exit $fail
