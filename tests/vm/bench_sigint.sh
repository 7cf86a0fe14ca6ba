#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Ctrl-C in a sweep (issue 52): vcube-bench writes each point's row as the
# point ends, so a sweep stopped by SIGINT to vcube-run (which forwards it
# to every rank) keeps the rows done. A long sweep on d = 3 in the
# background, as a table, --csv and --json; once two rows are out, SIGINT
# (and SIGTERM once): vcube-run exits 130 (143), the output is whole rows
# (the table's heading once, CSV's heading and facts, JSON that parses),
# stderr says how many points were done, and no node stays bound.
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
trap 'rm -f "$out" "$out.err"' EXIT

# Rows on $out so far in format $1 (table, csv, json).
rows() {
	case $1 in
	table) grep -cE '^[A-Za-z0-9_]+ +[0-9]+ ' "$out" ;;
	csv) grep -cE '^[A-Za-z0-9_]+,[0-9]+,' "$out" ;;
	json) grep -o '"algo":' "$out" | wc -l ;;
	esac
}

# stopped FORMAT SIGNAL STATUS: the sweep in FORMAT stopped by SIGNAL after
# two rows, exiting STATUS; its output left in $out.
stopped() {
	local fmt=$1 sig=$2 want=$3 flag= pid rc i n done
	[ "$fmt" = table ] || flag=--$fmt
	vcube-run -n 8 vcube-bench exchange -q --algo all --sizes 1..65536 --reps 20 $flag \
		> "$out" 2> "$out.err" &
	pid=$!
	# two rows within 5 minutes (TCG: a point takes a second or so)
	for i in $(seq 1500); do
		n=$(rows "$fmt")
		[ "$n" -ge 2 ] && break
		kill -0 $pid 2> /dev/null || break
		sleep 0.2
	done
	if ! kill -"$sig" $pid 2> /dev/null; then
		wait $pid
		no "$fmt: the sweep ended (exit $?, $n rows) before $sig: $(tail -n 2 "$out.err")"
		return 1
	fi
	# every rank leaves within a repetition: bounded
	for i in $(seq 600); do
		kill -0 $pid 2> /dev/null || break
		sleep 0.2
	done
	if kill -0 $pid 2> /dev/null; then
		kill -KILL $pid
		wait $pid
		no "$fmt: still running 2 minutes after $sig"
		return 1
	fi
	wait $pid
	rc=$?
	check "$fmt: $sig after $n rows: vcube-run exits $rc (want $want)" [ $rc = "$want" ]
	done=$(rows "$fmt")
	check "$fmt: stderr says so ($(grep stopped "$out.err"))" \
		grep -q "^vcube-bench: SIG$sig: stopped after $done of [0-9]* points" "$out.err"
	check "$fmt: the output ends with a whole line" \
		[ "$(tail -c 1 "$out" | od -An -tx1 | tr -d ' ')" = 0a ]
	check "nothing stays bound after $fmt's $sig" \
		[ "$(cat "$(sysdir)"/vcube*/owner | sort -u)" = 0 ]
	[ "$done" -ge 2 ]
}

usenet topology=hypercube dim=3 && {
	if stopped table INT 130; then
		check "table: the heading once, then $(rows table) whole rows" sh -c '
			[ "$(grep -c "^algo " "$1")" = 1 ] &&
			! grep -vE "^#|^algo |^[A-Za-z0-9_]+ +[0-9]+( +[0-9]+\.[0-9]){3} +(ok|BAD)$" "$1"' sh "$out"
	fi
	if stopped csv INT 130; then
		check "csv: the heading, $(rows csv) whole rows and the facts line" sh -c '
			[ "$(head -n 1 "$1")" = algo,bytes,min_ns,avg_ns,max_ns,ok ] &&
			tail -n 1 "$1" | grep -q "^# topology=hypercube " &&
			[ "$(sed "1d;\$d" "$1" | grep -cvE "^[A-Za-z0-9_]+,[0-9]+,[0-9]+,[0-9]+\.[0-9],[0-9]+,[01]$")" = 0 ]' sh "$out"
	fi
	if stopped json INT 130; then
		check "json: parses, with $(rows json) rows" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
assert len(r) >= 2 and all(set(x) >= {"algo", "bytes", "min", "avg", "max", "ok"} for x in r)
assert d["network"]["topology"] == "hypercube"' "$out"
	fi
	stopped csv TERM 143 &&
		check "csv after SIGTERM: the facts line last" sh -c 'tail -n 1 "$1" | grep -q "^# topology="' sh "$out"
	nonet
}
exit $fail
