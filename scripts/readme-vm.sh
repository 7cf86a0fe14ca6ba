#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The README's make vm commands and its quick start's make demo, run as
# written (make check's layer "readme"), and make vm's quoting: a CMD with
# the shell's $ reaches the guest as typed; its stdout and stderr come back
# apart. Prints TAP lines and "readme: P passed, F failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
fail=0 pass=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
no() { echo "not ok - $1"; fail=$((fail + 1)); }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# the README's blocks by their ids (scripts/doc-cmds.py): the make vm
# lines, the timeline's, and the quick start's make demo (its make check
# is this run)
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	cmd=${cmd%%#*}
	if [[ $cmd =~ ^make\ check\ *$ ]]; then
		ok "README: $cmd: this run is it"
		continue
	fi
	eval "$cmd --no-print-directory" > "$out" 2>&1
	rc=$?
	if [ $rc = 0 ] && [ -s "$out" ]; then
		ok "README: $cmd ($(grep -c . "$out") lines)"
	else
		no "README: $cmd: exit $rc"
		tail -n 5 "$out" | sed 's/^/# /'
	fi
done < <(for id in make-vm trace-perfetto quick-start; do scripts/doc-cmds.py get README.md $id; done)
[ $n -ge 6 ] && ok "the README shows $n commands to run here" || no "the README's make vm and quick start blocks: $n lines"
[ -s build/demo/bokhari-d5.svg ] && ok "make demo drew build/demo/bokhari-d5.svg" || no "make demo left no build/demo/bokhari-d5.svg"

make --no-print-directory vm CMD='echo "out=$VCUBE_OUT"; false; echo "rc=$?"' > "$out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q '^rc=1$' "$out" && grep -q '^out=/..*' "$out"; then
	ok "make vm CMD='echo \"out=\$VCUBE_OUT\"; false; echo \"rc=\$?\"': the guest's shell sees \$ as typed"
else
	no "make vm with \$ in CMD: exit $rc, $(grep -E '^(out|rc)=' "$out" | tr '\n' ' ')"
fi
# the guest's standard output and standard error come back apart
make --no-print-directory vm CMD='echo to-stdout; echo to-stderr >&2; echo more-stdout' \
	> "$out" 2> "$out.err"
rc=$?
if [ $rc = 0 ] && [ "$(grep -c '^to-stdout$\|^more-stdout$' "$out")" = 2 ] &&
	! grep -q to-stderr "$out" && grep -qx to-stderr "$out.err" && ! grep -q stdout "$out.err"; then
	ok "make vm: the guest's stdout on stdout, its stderr on stderr"
else
	no "make vm's streams: exit $rc, stdout '$(tr '\n' ' ' < "$out")', stderr '$(tr '\n' ' ' < "$out.err")'"
fi
rm -f "$out.err"
echo "readme: $pass passed, $fail failed"
[ $fail = 0 ]
