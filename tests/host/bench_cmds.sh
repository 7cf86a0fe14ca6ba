#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-bench by subcommand (issue 51): each command's own help and
# options, an option of another command named with the commands that take
# it, and the flags' old spelling still read, with one notice a job.
. "$(dirname "$0")/lib.bash"
bench=$top/build/bin/vcube-bench
cmds=$("$bench" --help | sed -n 's/^  \([a-z]*\)  .*/\1/p')
[ "$(wc -w <<<"$cmds")" -ge 11 ] && ok "--help lists $(wc -w <<<"$cmds") commands: $(echo $cmds)" ||
	no "--help lists: '$cmds'"
for c in $cmds; do
	out=$("$bench" "$c" --help 2>"$top/build/e.$$")
	rc=$?
	[ $rc = 0 ] && [ ! -s "$top/build/e.$$" ] && grep -q "^usage: vcube-bench $c " <<<"$out" &&
		grep -q -- '-h, --help' <<<"$out" && ok "$c --help: its usage and options, exit 0" ||
		no "$c --help: exit $rc, '$(head -n 1 <<<"$out")'"
	grep -q "^\\.SS $c\$" "$top/docs/man/vcube-bench.1" &&
		ok "$c has its section in vcube-bench(1)" || no "$c: no '.SS $c' in docs/man/vcube-bench.1"
done
rm -f "$top/build/e.$$"

# t_err NAME STATUS TEXT CMD...: CMD exits STATUS, its stderr has TEXT
t_err() {
	local name=$1 want=$2 text=$3 err rc
	shift 3
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = "$want" ] && grep -qF -- "$text" <<<"$err" && ok "$name: exit $rc, '$err'" ||
		no "$name: exit $rc, '$err'"
}
t_err "a command that does not exist" 2 "no command 'bogus'" "$bench" bogus
t_err "ge's option given to exchange" 2 "vcube-bench exchange: --elem-ns is not one of its options (it is of: ge)" \
	"$bench" exchange --elem-ns 3
t_err "--skew given to shift" 2 "--skew is not one of its options (it is of: barrier)" "$bench" shift --skew 0
t_err "--predict given to barrier" 2 "--predict is not one of its options" "$bench" barrier --predict delta
t_err "irregular without a density" 2 "irregular needs --density D" "$bench" irregular --sizes 8
t_err "redraw without a file" 2 "redraw needs --from FILE.csv" "$bench" redraw --plot x.svg
t_err "--csv and --json" 2 "one or the other" "$bench" redraw --from x.csv --csv --json
t_err "a mode flag of the old spelling after a command" 2 "--reduce is not one of its options" \
	"$bench" exchange --reduce

# the old spelling: the same output, one notice, on rank 0 only
new=$("$bench" list --json 2>/dev/null)
old=$("$bench" --list --json 2>"$top/build/e.$$")
notice=$(cat "$top/build/e.$$")
[ -n "$new" ] && [ "$new" = "$old" ] && [ "$notice" = "vcube-bench: this is 'vcube-bench list' now: the flags' old spelling goes in the next release" ] &&
	ok "--list --json: what list --json prints, and one notice: '$notice'" || no "--list --json: notice '$notice'"
err=$(VCUBE_RANK=3 "$bench" --list 2>&1 >/dev/null)
[ -z "$err" ] && ok "the notice is rank 0's: rank 3 says nothing" || no "rank 3 says '$err'"
[ -z "$("$bench" list 2>&1 >/dev/null)" ] && ok "the new spelling: no notice" || no "list: a notice"
t_err "two old mode flags" 2 "--reduce and --bcast: one at a time" "$bench" --reduce --bcast
t_err "--barrier's list with --algo" 2 "--barrier takes the barriers, not --algo" "$bench" --barrier gsync --algo pex
t_err "the old spelling's options checked as the command's" 2 "vcube-bench exchange: --elem-ns is not one of its options" \
	"$bench" --elem-ns 3
# list: each summary in one column, however long a name or a source
t "list: every algorithm's summary starts in one column" python3 -c '
import json, subprocess, sys
b = sys.argv[1]
algos = json.loads(subprocess.run([b, "list", "--json"], capture_output=True, text=True).stdout)
text = subprocess.run([b, "list"], capture_output=True, text=True).stdout
cols = {line.index(a["summary"]) for a in algos for line in text.splitlines()
        if line.endswith(a["summary"]) or (a["summary"] + " [") in line}
assert len(cols) == 1, cols
' "$bench"
# a fault in the command line is the job's: rank 0 says it, once
err=$(VCUBE_RANK=3 "$bench" exchange --algo bogus 2>&1 >/dev/null)
rc=$?
[ $rc = 2 ] && [ -z "$err" ] && ok "rank 3, --algo bogus: exit 2 and nothing said (rank 0 says it)" ||
	no "rank 3, --algo bogus: exit $rc, '$err'"
t_err "rank 0, --algo bogus: one line" 2 "vcube-bench: no algorithm 'bogus' (vcube-bench list)" \
	env VCUBE_RANK=0 "$bench" exchange --algo bogus
rm -f "$top/build/e.$$"
exit $fail
