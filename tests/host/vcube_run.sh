#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-run's command line, as mpirun users type it, without a module: -np
# is --np (not "-n p"), a missing count or program is said, not just the
# usage; what needs the network says it is missing (tests/vm covers runs).
. "$(dirname "$0")/lib.bash"
run=$top/build/bin/vcube-run
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

"$run" -np 4 true > "$d/e" 2>&1
rc=$?
t "-np 4 is read as --np 4 (mpirun's spelling), not as -n p" sh -c "! grep -q 'is not a count' '$d/e'"
t "-np 4 reaches the network check; no network is a failure, exit 1, as in every tool" \
	sh -c "[ -e /sys/class/vcube ] || { [ $rc = 1 ] && grep -q 'no vcube network' '$d/e'; }"
"$run" true > "$d/e" 2>&1
rc=$?
t "a missing -n is said, exit 2" sh -c "[ $rc = 2 ] && grep -q -- '-n N is missing' '$d/e'"
"$run" -n 4 > "$d/e" 2>&1
rc=$?
t "a missing program is said, exit 2" sh -c "[ $rc = 2 ] && grep -q 'no program to run' '$d/e'"
"$run" -n 0 true > "$d/e" 2>&1
rc=$?
t "-n 0 is refused, exit 2" sh -c "[ $rc = 2 ] && grep -q 'not a count' '$d/e'"
t "--help exits 0 and names -np" sh -c "'$run' --help | grep -q -- '-np'"
exit $fail
