#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The README's programs, every command as written: the vcube-bench lines
# of "Using it" (exchanges, sweeps, FFT, barriers, shifts, envelopes, the
# CM-5's control network) and `vcube-run -n 32 ./exchange`. They run on
# the network `make vm` loads by default (the Makefile's MODPARAMS) until
# the README's own insmod line changes it, from a scratch directory in
# $VCUBE_OUT, each block taken by its id (scripts/doc-cmds.py). A line
# ending in a backslash goes on on the next; a comment (#) after a command
# is dropped. Each must exit 0 and print a table; a --plot file must be an
# SVG. The papers' whole sweeps take hours under
# TCG (the FFT line alone over 13 minutes), so this is `make
# readme-commands`, not part of make check.
. "$(dirname "$0")/lib.sh"
readme=$VCUBE_TOP/README.md
work=$VCUBE_OUT/readme-commands
rm -rf "$work"
mkdir -p "$work"

# the README's blocks by id (scripts/doc-cmds.py); a vcubectl line among
# them is tests/vm/readme.sh's
doc_cmds() { "$VCUBE_TOP/scripts/doc-cmds.py" get "$readme" "$1" | sed 's/ \+#.*$//'; }
cmds=$(for id in bench-exchange bench-barrier bench-cm5; do doc_cmds $id; done | grep -v '^vcubectl ')
cmds+=$'\n'$(doc_cmds install | grep '^vcube-run ')
n=$(wc -l <<< "$cmds")
check "the README shows $n vcube-run, vcube-bench and insmod lines" [ "$n" -ge 14 ]

# ./exchange: the example, built as the README's tree line builds it
line=$(doc_cmds tree-build)
check "examples/exchange.c builds as the README says (${line:-no line})" \
	bash -c "cd '$VCUBE_TOP' && ${line/-o exchange/-o $work/exchange}"

modparams=$(sed -n 's/^MODPARAMS ?= //p' "$VCUBE_TOP/Makefile")
# shellcheck disable=SC2086
load $modparams
ran=0
while read -r c; do
	ran=$((ran + 1))
	start=$(date +%s)
	case $c in
	insmod*)
		unload
		# shellcheck disable=SC2086
		out=$(cd "$(dirname "$VCUBE_KO")" && $c 2>&1)
		check "README: $c (as written, beside vcube.ko) $out" loaded
		continue ;;
	esac
	# shellcheck disable=SC2086
	(cd "$work" && $c) > "$work/out" 2> "$work/err"
	rc=$?
	good=0
	[ $rc = 0 ] && [ -s "$work/out" ] && good=1
	plot=$(sed -n 's/.*--plot \([^ ]*\).*/\1/p' <<< "$c")
	if [ -n "$plot" ]; then
		grep -q '<svg' "$work/$plot" 2> /dev/null || good=0
	fi
	check "README: $c (exit $rc, $(($(date +%s) - start)) s; $(grep -v '^vcube-[a-z]*: \[' "$work/err" | head -c 200))" \
		[ $good = 1 ]
done <<< "$cmds"
check "all $n of them ran ($ran)" [ "$ran" = "$n" ]
unload
exit $fail
