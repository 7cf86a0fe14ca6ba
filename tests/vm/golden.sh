#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Golden virtual times: every registered algorithm (complete exchanges,
# irregular schedules, sums, broadcasts, FFT transposes, Gaussian
# elimination, barriers, shifts) on each profile's networks, run through
# the module and compared bit for bit, every column of vcube-bench's CSV,
# with the output recorded in tests/data/golden/ before the library was
# restructured (issue 14: plans, one executor). A difference means the
# library or the engine now orders operations differently: if that is
# meant (a model change), regenerate with `make golden-update` and say so
# in the commit.
#
# Each case runs on a network made for it over netlink (vcubectl net add,
# with the module parameters' words), so the recordings, made with module
# parameters, check that a network made at run time gives the module's
# virtual times to the bit; golden_some.sh (on 6.1) loads the module with
# the parameters instead, which checks the module parameters' network.
#
# VCUBE_GOLDEN_UPDATE=1: write the outputs to $VCUBE_OUT/golden instead.
# VCUBE_GOLDEN_SOME="NAME ...": only those cases (tests/vm/golden_some.sh).
# VCUBE_GOLDEN_VIA=module: insmod with each case's parameters instead.
. "$(dirname "$0")/lib.sh"
bench=$VCUBE_TOP/build/bin/vcube-bench
exp=$VCUBE_TOP/build/tests/vm/exp
data=$VCUBE_TOP/tests/data/golden
new=$VCUBE_OUT/golden
rm -rf "$new"
mkdir -p "$new"

# the network for a case: made over netlink, or the module reloaded
network() {
	# shellcheck disable=SC2086
	if [ "${VCUBE_GOLDEN_VIA:-net}" = module ]; then load $*; else usenet $*; fi
}

# whether case NAME is one to run
ran=" "
picked() {
	[ -z "${VCUBE_GOLDEN_SOME:-}" ] || [[ " $VCUBE_GOLDEN_SOME " == *" $1 "* ]] || return 1
	ran="$ran$1 "
}

# case NAME NPROCS "MODULE PARAMS" COMMAND ARGS...: one vcube-bench run,
# kept or compared
case_() {
	local name=$1 n=$2 params=$3 rc
	picked "$name" || return 0
	shift 3
	network $params || return
	vcube-run -n "$n" "$bench" "$1" -q --csv "${@:2}" > "$new/$name.csv" 2> "$new/$name.err"
	rc=$?
	if [ "$rc" != 0 ]; then
		no "$name: vcube-bench $* failed: $(tail -n 1 "$new/$name.err")"
		return
	fi
	compare "$name"
}

# compare NAME: the new output kept (VCUBE_GOLDEN_UPDATE) or checked
compare() {
	local name=$1

	if [ -n "${VCUBE_GOLDEN_UPDATE:-}" ]; then
		ok "$name: recorded $(grep -vc '^#' "$new/$name.csv") lines"
		return
	fi
	if [ ! -f "$data/$name.csv" ]; then
		no "$name: no recorded output $data/$name.csv"
		return
	fi
	check "$name: $(grep -vc '^#' "$new/$name.csv") lines bit-identical to the recording" \
		cmp -s "$data/$name.csv" "$new/$name.csv"
	# check always returns 0: show how they differ, if they do
	cmp -s "$data/$name.csv" "$new/$name.csv" ||
		diff "$data/$name.csv" "$new/$name.csv" | head -n 6 | sed 's/^/# /'
}

# coll NAME NPROCS "MODULE PARAMS" "KIND ALGO LEN"...: library collectives
# one call each from time 0 (exp coll), every rank's time, kept or compared
coll() {
	local name=$1 n=$2 params=$3 c rc=0
	picked "$name" || return 0
	shift 3
	network $params || return
	: > "$new/$name.csv"
	for c in "$@"; do
		# shellcheck disable=SC2086
		vcube-run -n "$n" "$exp" coll $c > "$new/$name.out" \
			2> "$new/$name.err" || rc=1
		sort -k4,4n "$new/$name.out" >> "$new/$name.csv"
	done
	if [ "$rc" != 0 ]; then
		no "$name: exp coll failed: $(tail -n 1 "$new/$name.err")"
		return
	fi
	compare "$name"
}

H3="topology=hypercube dim=3 profile=ipsc860"
case_ ipsc860-d3 8 "$H3" exchange --sizes 0,1,100,1000 --reps 2
case_ ipsc860-d3-idle 8 "$H3" exchange --algo stable --idle-ns 300000 --sizes 64 --reps 1
case_ hypercube-d4-12 12 "topology=hypercube dim=4" exchange --sizes 1,100 --reps 1
case_ ipsc860-d3-reduce 8 "$H3" reduce --sizes 8,64 --reps 2
case_ ipsc860-d3-bcast 8 "$H3" bcast --sizes 8,1000 --reps 2
case_ delta-4x4 16 "topology=mesh rows=4 cols=4 profile=delta" exchange --sizes 256,4096 --reps 1
case_ delta-4x5 20 "topology=mesh rows=4 cols=5 profile=delta" exchange --sizes 8,1000 --reps 1
case_ ap1000-4x8 32 "topology=torus rows=4 cols=8 profile=ap1000" exchange --sizes 8,512 --reps 1
case_ ap1000-3x5 15 "topology=torus rows=3 cols=5 profile=ap1000" exchange --sizes 8 --reps 1
case_ ap1000-4x4-reduce 16 "topology=torus rows=4 cols=4 profile=ap1000" reduce --sizes 8 --reps 1
CM="topology=fattree nodes=32 profile=cm5"
case_ cm5-32 32 "$CM" exchange --sizes 16,256 --reps 1
case_ cm5-32-irregular 32 "$CM" irregular --density 0.25 --sizes 256 --reps 1
case_ cm5-32-oneway 32 "$CM" irregular --density 0.3 --one-way --seed 9 --sizes 100 --reps 1
case_ cm5-32-reduce 32 "$CM" reduce --sizes 8,64 --reps 2
case_ cm5-32-bcast 32 "$CM" bcast --sizes 8,1000 --reps 2
case_ cm5-32-fft 32 "$CM" fft --algo lex,pex,rex,bex --sizes 32 --flop-ns 50 --reps 1
case_ cm5-32-ge 32 "$CM" ge --sizes 64 --elem-ns 10
case_ cm5-32-barrier 32 "$CM" barrier --algo all --skew 0,150000 --reps 1
S3="topology=hypercube dim=3 profile=seidel"
case_ seidel-d3-barrier 8 "$S3" barrier --algo all --skew 0,75000,150000 --reps 1
case_ seidel-d3-shift 8 "$S3" shift --algo gsync,sync0,rds --sizes 4096 --reps 2
case_ seidel-d3-shift-long 8 "$S3" shift --algo gsync,rds,none --unforced --sizes 4096 --reps 2
case_ seidel-d3-costs 8 "$S3" costs
NOISE="noise=ipsc860 jitter_ns=150000 seed=1"
case_ ipsc860-d3-noise 8 "$H3 $NOISE" exchange --algo linear,stable,pairwise_F,pairwise --sizes 1000 --reps 5
case_ seidel-d3-shift-noise 8 "$S3 $NOISE" shift --algo gsync,sync0,rds --sizes 4096 --reps 5
coll ipsc860-d3-coll 8 "$H3" "sync gsync 0" "sync sync0 0" "sync rds 0" \
	"sync dissemination 0" "sync tree 0" "bcast tree 1000" \
	"reduce crossover 64" "reduce tree 64" "scan doubling 64" \
	"kernel butterfly 1000" "kernel crossover 1000" "shift 3 4096"
coll delta-4x5-coll 20 "topology=mesh rows=4 cols=5 profile=delta" \
	"sync dissemination 0" "sync tree 0" "bcast tree 256" \
	"reduce tree 64" "scan doubling 64" "kernel torus 512"
coll ap1000-4x4-coll 16 "topology=torus rows=4 cols=4 profile=ap1000" \
	"kernel torus 512" "kernel butterfly 512" "kernel crossover 512" \
	"scan doubling 8" "reduce crossover 8"
coll cm5-32-coll 32 "$CM" "sync cm5_control 0" "bcast cm5_control 100" \
	"reduce cm5_control 64" "scan cm5_control 64" "scan doubling 64" \
	"kernel crossover 256" "shift -5 256"
for c in ${VCUBE_GOLDEN_SOME:-}; do
	[[ "$ran" == *" $c "* ]] || no "VCUBE_GOLDEN_SOME names $c, which is no case here"
done
unload
exit $fail
