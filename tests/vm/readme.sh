#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The README's vcubectl list, every command as written, on the network the
# README describes (hypercube dim=5, ipsc860, 1 ms windows) after a pairwise
# exchange; cnet on the CM-5 it is for, after a control-network sum. A command the README shows alone on its
# line is run whole; one with its description after it, up to the
# description (two or more spaces). Files it writes go to $VCUBE_OUT.
# monitor and watch run until interrupted: 3 s each, then stopped. Each
# also as -j, which must be JSON (watch: one object a refresh; monitor,
# with nothing to announce, none).
. "$(dirname "$0")/lib.sh"
bench=$VCUBE_TOP/build/bin/vcube-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the blocks by id (scripts/doc-cmds.py): the list, and the CM-5's
# vcubectl cnet (its other lines are tests/vm/readme_bench.sh's)
cmds=$(for id in vcubectl-list bench-cm5; do "$VCUBE_TOP/scripts/doc-cmds.py" get "$VCUBE_TOP/README.md" $id; done |
	sed -n 's/^\(vcubectl [^ ].*\)$/\1/p' | sed 's/  .*//; s/ *$//')
check "the README lists $(wc -l <<< "$cmds") vcubectl commands" test "$(wc -l <<< "$cmds")" -ge 12

ran=0
run() {	# CMD: as written, from $VCUBE_OUT
	ran=$((ran + 1))
	case $1 in
	"vcubectl -j ...") return 0 ;;			# stands for every one with -j
	"vcubectl [show]") set -- "vcubectl show" ;;
	esac
	# shellcheck disable=SC2086
	case $1 in
	*monitor*|*watch*) (cd "$VCUBE_OUT" && timeout 3 $1) > "$tmp/o" 2> "$tmp/e"
		rc=$?; [ $rc = 124 ] && rc=0 ;;
	*) (cd "$VCUBE_OUT" && $1) > "$tmp/o" 2> "$tmp/e"; rc=$? ;;
	esac
	good=0
	# silent: monitor with nothing to announce, reset, trace off and on
	# (they set, as ip's set commands do), and those that write a file
	[ $rc = 0 ] && [ ! -s "$tmp/e" ] && { [ -s "$tmp/o" ] || [[ "$1" == *monitor* ]] ||
		[ "$1" = "vcubectl reset" ] || [[ "$1" == "vcubectl trace o"[nf]* ]] ||
		[[ "$1" == *" -o "* ]] || [[ "$1" == *--svg* ]]; } &&
		good=1
	check "README: $1 (exit $rc; $(head -n 1 "$tmp/o") $(head -c 120 "$tmp/e"))" [ $good = 1 ]
	[ "$1" = "vcubectl reset" ] && return
	# trace off, then on: the topology says which
	if [[ "$1" == "vcubectl trace o"[nf]* ]]; then
		want=$([ "$1" = "vcubectl trace on" ] && echo True || echo False)
		vcubectl -j topo | python3 -c "import json,sys; assert json.load(sys.stdin)['trace_on'] is $want"
		check "README: after $1, vcubectl topo says trace_on $want" [ $? = 0 ]
		return
	fi
	# the same as JSON
	set -- ${1/vcubectl /vcubectl -j }
	case $* in
	*monitor*|*watch*) (cd "$VCUBE_OUT" && timeout 3 "$@") > "$tmp/o" 2> "$tmp/e"
		rc=$?; [ $rc = 124 ] && rc=0 ;;
	*--svg*|*" -o "*) return ;;
	*) (cd "$VCUBE_OUT" && "$@") > "$tmp/o" 2> "$tmp/e"; rc=$? ;;
	esac
	good=0
	[ $rc = 0 ] && python3 -c '
import json, sys
text = open(sys.argv[1]).read().strip()
dec, i, n = json.JSONDecoder(), 0, 0
while i < len(text):		# watch: one object a refresh
	_, i = dec.raw_decode(text, i)
	n += 1
	while i < len(text) and text[i].isspace():
		i += 1
assert n >= 1 or sys.argv[2] == "monitor"
' "$tmp/o" "$3" && good=1
	check "README: $* is JSON (exit $rc)" [ $good = 1 ]
}
# the network the README describes, after an exchange; then the CM-5
load topology=hypercube dim=5 profile=ipsc860 window_ns=1000000 &&
	vcube-run -n 32 "$bench" exchange -q --algo pairwise --sizes 64 --reps 1 > /dev/null &&
	while read -r c; do run "$c"; done <<< "$(grep -v cnet <<< "$cmds")"
load profile=cm5 nodes=32 &&
	vcube-run -n 32 "$bench" reduce -q --algo cm5_control --sizes 8 --reps 1 > /dev/null &&
	while read -r c; do run "$c"; done <<< "$(grep cnet <<< "$cmds")"
check "all $(wc -l <<< "$cmds") of them ran ($ran)" [ "$ran" = "$(wc -l <<< "$cmds")" ]
unload
exit $fail
