#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# libvcube's algorithms through the module: every complete exchange on
# networks of several kinds and sizes (power of two or not), each byte
# checked by vcube-bench at every rank; the collectives; determinism; and
# the refusals (an algorithm off its network, bad options).
. "$(dirname "$0")/lib.sh"
bench=$VCUBE_TOP/build/bin/vcube-bench
out=$(mktemp)
trap 'rm -f "$out" "$out.err"' EXIT

# bench NPROCS COMMAND ARGS...: vcube-bench COMMAND, CSV to $out; fails on
# a bad exit status.
bench() { local n=$1; shift; vcube-run -n "$n" "$bench" "$1" --csv -q "${@:2}" > "$out"; }
# every result line delivered the right data; how many lines
rows() { grep -v '^#' "$out" | grep -vc '^algo,'; }
allok() { awk -F, '!/^#/ && !/^algo/ { n++; if ($6 != 1) bad++ } END { exit !(n > 0 && !bad) }' "$out"; }
# status EXPECTED GOT [PATTERN]: the exit status, and $out has PATTERN
status() { [ "$2" = "$1" ] && { [ -z "${3:-}" ] || grep -q -- "$3" "$out"; }; }
ran_ok() { [ "$1" = 0 ] && allok; }
algos_of() { grep -v '^#' "$out" | grep -v '^algo,' | cut -d, -f1 | sort -u | tr '\n' ' '; }

# net LABEL NPROCS SIZES MODPARAMS...: every exchange at SIZES, then the
# collectives. SIZES "-": golden.sh runs the very sweep (the same network,
# ranks and sizes) and compares every column of its CSV, the data check's
# included, with the recorded one, so only the collectives run here.
net() {
	local label=$1 n=$2 sizes=$3 also=
	shift 3
	usenet "$@" || return
	if [ "$sizes" = - ]; then
		also="; the exchanges: golden.sh"
	else
		bench "$n" exchange --sizes "$sizes" --reps 1
		rc=$?
		check "$label: every algorithm that runs here, every byte right ($(rows) points: $(algos_of))" \
			ran_ok $rc
	fi
	vcube-run -n "$n" "$VCUBE_TOP/build/tests/vm/coll" > "$out" 2>&1
	rc=$?
	check "$label: collectives ($(tail -n 1 "$out")$also)" [ $rc = 0 ]
	nonet
}

net "hypercube d=3, ipsc860" 8 0,1,7,100,101,1000 topology=hypercube dim=3 profile=ipsc860
net "hypercube d=5, ipsc860" 32 1,64,4096 topology=hypercube dim=5 profile=ipsc860
net "hypercube d=4, 12 ranks" 12 - topology=hypercube dim=4
net "mesh 4x5, delta" 20 - topology=mesh rows=4 cols=5 profile=delta
net "mesh 3x3, delta" 9 16 topology=mesh rows=3 cols=3 profile=delta
net "mesh 8x8, delta" 64 256 topology=mesh rows=8 cols=8 profile=delta
net "torus 4x8, ap1000" 32 - topology=torus rows=4 cols=8 profile=ap1000
net "torus 3x5, ap1000" 15 - topology=torus rows=3 cols=5 profile=ap1000
# 100 bytes: whole packets and a partial one (golden.sh's cm5-32 has 16)
net "fat tree 64, cm5" 64 100 topology=fattree nodes=64 profile=cm5

usenet topology=fattree nodes=32 profile=cm5 && {
	for d in 0.1 0.25 0.5 0.75; do
		bench 32 irregular --density $d --sizes 1,256,512 --reps 1
		rc=$?
		check "cm5 32: irregular, $d of the pairs: LS, PS, BS, GS deliver every byte" ran_ok $rc
	done
	bench 32 irregular --density 0.3 --one-way --seed 9 --sizes 100 --reps 1
	rc=$?
	check "cm5 32: one-way irregular pattern" ran_ok $rc
	vcube-run -n 32 "$bench" irregular --density 0.25 --algo pex > "$out" 2>&1
	rc=$?
	check "--density with a complete-exchange algorithm is refused" status 2 $rc 'among ls,ps,bs,gs'
	bench 32 reduce --sizes 8,64,1024 --reps 2
	rc=$?
	check "cm5 32: global sums by crossover and tree, every sum right ($(algos_of))" ran_ok $rc
	vcube-run -n 20 "$bench" reduce --algo crossover --sizes 8 > "$out" 2>&1
	rc=$?
	check "crossover sums on 20 ranks are refused: $(head -n 1 "$out")" status 2 $rc 'power-of-two'
	vcube-run -n 20 "$bench" reduce --sizes 8 --csv -q > "$out" 2>&1
	rc=$?
	check "--reduce on 20 ranks runs the tree alone" ran_ok $rc
	vcube-run -n 4 "$bench" reduce --sizes 12 > "$out" 2>&1
	rc=$?
	check "--reduce with a size not a multiple of 8 is refused" status 2 $rc 'multiples of 8'
	bench 32 fft --algo lex,pex,rex,bex --sizes 32,128 --reps 2 --flop-ns 50
	rc=$?
	check "cm5 32: 2-D FFTs with each transpose, every output the known transform ($(algos_of))" ran_ok $rc
	vcube-run -n 32 "$bench" fft --sizes 48 > "$out" 2>&1
	rc=$?
	check "--fft of a size not a power of two is refused" status 2 $rc 'not a power of two'
	vcube-run -n 32 "$bench" fft --sizes 16 > "$out" 2>&1
	rc=$?
	check "--fft smaller than the ranks is refused" status 2 $rc 'not a power of two'
	"$bench" irregular --density 2 > "$out" 2>&1
	rc=$?
	check "bad --density: $(head -n 1 "$out")" [ $rc = 2 ]
	nonet
}

usenet topology=hypercube dim=4 profile=ipsc860 && {
	bench 16 exchange --algo standard_U,pairwise_F,bucket,gen --sizes 1,16,256 --reps 2
	a=$(md5sum < "$out")
	bench 16 exchange --algo standard_U,pairwise_F,bucket,gen --sizes 1,16,256 --reps 2
	check "the same sweep twice: bit-identical virtual times" [ "$(md5sum < "$out")" = "$a" ]
	check "min = avg = max without noise" \
		awk -F, '!/^#/ && !/^algo/ { if ($3 != $5 || $3 + 0 != $4 + 0) exit 1 }' "$out"
	# blocks larger than the machine: one line for the job, not "out of
	# memory" once per rank (issue 52's second review)
	vcube-run -n 4 "$bench" exchange -q --algo pex --sizes 99999999999 --reps 1 > "$out" 2>&1
	rc=$?
	check "--sizes 99999999999 on 4 ranks: one line, exit 2 ($(head -n 1 "$out"))" \
		sh -c "[ $rc = 2 ] && [ \$(grep -c . '$out') = 1 ] && grep -q '^vcube-bench: blocks of 99999999999 B need 2 buffers of 4 x 99999999999 B (800 GB) on each rank, more than this machine' '$out'"
	vcube-run -n 12 "$bench" exchange --algo pairwise_F --sizes 1 > "$out" 2>&1
	rc=$?
	check "pairwise_F on 12 ranks is refused: $(head -n 1 "$out")" \
		status 2 $rc 'needs a power-of-two number of ranks'
	vcube-run -n 16 "$bench" exchange --algo torus --sizes 1 > "$out" 2>&1
	rc=$?
	check "the torus all-to-all off a grid is refused" [ $rc = 2 ]
	"$bench" exchange --algo nosuch > "$out" 2>&1
	rc=$?
	check "an unknown algorithm: $(head -n 1 "$out")" [ $rc = 2 ]
	"$bench" exchange --sizes 5..1 > "$out" 2>&1
	rc=$?
	check "bad --sizes: $(head -n 1 "$out")" [ $rc = 2 ]
	"$bench" exchange --reps 0 > "$out" 2>&1
	rc=$?
	check "bad --reps" [ $rc = 2 ]
	"$bench" exchange --sizes 1 > "$out" 2>&1
	rc=$?
	check "outside vcube-run: $(head -n 1 "$out")" status 1 $rc vcube-run
	"$bench" redraw --help | grep -q -- --regions
	rc=$?
	check "vcube-bench redraw --help" [ $rc = 0 ]
	vcube-run -n 16 "$bench" exchange --algo linear,pairwise_F --sizes 16,256 --reps 1 --json -q > "$out"
	check "--json is valid JSON with 4 results" \
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["results"]) == 4 and d["network"]["nodes"] == 16' "$out"
	# progress (docs/tools.md): off a terminal, one line per point on
	# stderr, none in the CSV; none at all with -q
	vcube-run -n 16 "$bench" exchange --algo linear,pairwise_F --sizes 16,256 --reps 1 --csv \
		> "$out" 2> "$out.err"
	good=0
	[ "$(grep -c '^vcube-bench: \[[1-4]/4\] \(linear\|pairwise_F\), \(16\|256\) B$' "$out.err")" = 4 ] &&
		[ "$(wc -l < "$out.err")" = 4 ] && head -n 1 "$out" | grep -q '^algo,' &&
		! grep -q 'vcube-bench:' "$out" && good=1
	check "progress off a terminal: one line per point on stderr, none in the CSV ($(head -n 1 "$out.err"))" \
		[ $good = 1 ]
	vcube-run -n 16 "$bench" exchange --algo linear --sizes 16 --reps 1 -q > "$out" 2> "$out.err"
	check "-q: no progress" not test -s "$out.err"
	rm -f "$out.err"
	nonet
}
exit $fail
