#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Ctrl-C in a sweep (issue 52), on the host: vcube-bench over MPI (Open
# MPI, 4 ranks oversubscribed) runs the same sweep as under vcube-run and
# writes each point's row as the point ends. A long sweep in the
# background, as a table, --csv, --json and with --plot; once two rows are
# out, SIGINT (once SIGTERM) to every rank, as vcube-run forwards it: the
# ranks agree at the next repetition, rank 0 ends its output as a whole
# run's (whole rows, CSV's facts, JSON that parses), the figure has the
# rows done, and every rank exits 130 (143), which mpirun reports. Then
# the terminal's Ctrl-C, SIGINT to mpirun's whole process group: whatever
# mpirun makes of it, the output is whole. tests/vm/bench_sigint.sh does
# the same under vcube-run on the module.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -KILL -- -$pid 2> /dev/null; rm -rf "$tmp"' EXIT
bench=$top/build/bin/vcube-bench
out=$tmp/out
[ -x "$top/build/libexec/vcube/vcube-bench-mpi" ] || { no "no vcube-bench-mpi: run make"; exit 1; }
command -v mpirun > /dev/null || { no "Open MPI's mpirun is missing: make deps"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_plm_rsh_agent=false

# Rows on $out so far in format $1 (table, csv, json).
rows() {
	case $1 in
	table) grep -cE '^[A-Za-z0-9_]+ +[0-9]+ ' "$out" ;;
	csv) grep -cE '^[A-Za-z0-9_]+,[0-9]+,' "$out" ;;
	json) grep -o '"algo":' "$out" | wc -l ;;
	esac
}

# stop FORMAT SIGNAL WHO [ARGS]: the sweep in FORMAT, in a process group
# of its own, sent SIGNAL after two rows: WHO "ranks", each rank (as
# vcube-run forwards it), or "group", the whole group (a terminal's
# Ctrl-C). Its output in $out, stderr in $out.err, mpirun's status in rc.
stop() {
	local fmt=$1 sig=$2 who=$3 flag= i n ranks
	shift 3
	[ "$fmt" = table ] || flag=--$fmt
	setsid mpirun --oversubscribe -n 4 "$bench" exchange --transport mpi --algo all \
		--sizes 1..65536 --reps 500 -q $flag "$@" > "$out" 2> "$out.err" &
	pid=$!
	for i in $(seq 300); do
		n=$(rows "$fmt")
		[ "$n" -ge 2 ] && break
		kill -0 $pid 2> /dev/null || break
		sleep 0.1
	done
	ranks=$(pgrep -P $pid)
	if [ "$who" = group ]; then
		kill -"$sig" -- -$pid 2> /dev/null
	elif [ -n "$ranks" ]; then
		kill -"$sig" $ranks
	fi
	for i in $(seq 300); do
		kill -0 $pid 2> /dev/null || break
		sleep 0.1
	done
	kill -0 $pid 2> /dev/null && { kill -KILL -- -$pid; no "$fmt: still running 30 s after SIG$sig"; }
	wait $pid
	rc=$?
	pid=
}

# A whole run's end in format $1 with at least two rows, the last line whole.
whole() {
	[ "$(tail -c 1 "$out" | od -An -tx1 | tr -d ' ')" = 0a ] || return 1
	case $1 in
	table) [ "$(grep -c '^algo ' "$out")" = 1 ] &&
	       ! grep -vE '^#|^algo |^[A-Za-z0-9_]+ +[0-9]+( +[0-9]+\.[0-9]){3} +(ok|BAD) +[^ ]+ *$' "$out" ;;
	csv) [ "$(head -n 1 "$out")" = algo,bytes,min_ns,avg_ns,max_ns,ok,mpi_algo ] &&
	     tail -n 1 "$out" | grep -q '^# topology=mpi ' &&
	     [ "$(sed '1d;$d' "$out" | grep -cvE '^[A-Za-z0-9_]+,[0-9]+,[0-9]+,[0-9]+\.[0-9],[0-9]+,[01],[^,]+$')" = 0 ] ;;
	json) python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert len(r) >= 2 and all(set(x) >= {"algo", "bytes", "min", "avg", "max", "ok"} for x in r)' "$out" ;;
	esac && [ "$(rows "$1")" -ge 2 ]
}

for fmt in table csv json; do
	stop $fmt INT ranks
	n=$(rows $fmt)
	[ $rc = 130 ] && ok "$fmt: SIGINT to the ranks after two rows: mpirun exits 130" ||
		no "$fmt: SIGINT: exit $rc ($(tail -n 3 "$out.err"))"
	whole $fmt && ok "$fmt: $n whole rows, the output ended as a whole run's" ||
		no "$fmt: not whole: $(tail -n 3 "$out")"
	grep -q "^vcube-bench: SIGINT: stopped after $n of [0-9]* points$" "$out.err" &&
		ok "$fmt: stderr says how many points were done" ||
		no "$fmt: stderr: $(grep -v '^-\|^$' "$out.err" | head -n 3)"
done

stop csv TERM ranks
[ $rc = 143 ] && whole csv && ok "SIGTERM: exit 143, $(rows csv) whole rows and the facts" ||
	no "SIGTERM: exit $rc, $(tail -n 2 "$out")"

if command -v gnuplot > /dev/null; then
	stop table INT ranks --plot "$tmp/f.svg"
	[ $rc = 130 ] && grep -q '<svg' "$tmp/f.svg" && grep -q 'the figure has those' "$out.err" &&
		ok "--plot: the figure drawn from the $(rows table) rows done" ||
		no "--plot: exit $rc, $(grep -c '<svg' "$tmp/f.svg") svg, $(grep stopped "$out.err")"
fi

# the terminal's Ctrl-C: mpirun aborts the job its own way (Open MPI 4.1:
# exit 1), but what rank 0 wrote is whole
stop json INT group
whole json && ok "Ctrl-C to mpirun's process group: $(rows json) rows, JSON that parses (mpirun: exit $rc)" ||
	no "Ctrl-C to the group: exit $rc, $(tail -c 200 "$out")"
exit $fail
