#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test layer, then one closing line "N passed, N failed".
#   1. host: kernel/core and libvcube under sanitizers, the tools' command
#      lines, checkpatch; the Debian packages (make deb, lintian), installed
#      into build/pkgroot, and DKMS building the module from vcube-dkms's
#      source for both kernels (tests/host/deb.sh)
#   2. KUnit: the vcube_* suites under UML (scripts/kunit.sh)
#   3. VM: the module DKMS built, in Debian's 6.12 kernel (every test but
#      the stress layer's, which runs on 6.1 here and on the 6.12 debug
#      kernel in make check-debug) and 6.1, under QEMU, and the installed
#      packages' tools on it (deb). On
#      6.1 the tests of what differs between the lines (kernel/compat.h:
#      devices and sysfs, generic netlink; signals and killed owners; the
#      devices of every topology are the same code, so topologies runs on
#      6.12 only) and
#      seven of the golden cases (golden_some), whose times must be the
#      6.12 ones to the bit; the model's code is the same on both and runs
#      in full on 6.12
#   4. the README's make vm commands, as written (scripts/readme-vm.sh)
#   5. the scorecard's smoke: a few cells per paper (the VM half ran in
#      tests/vm/score.sh), scored against data/score-thresholds.tsv
# Expects 'make all tests' and the modules for both kernels to be built.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
passed=0
failed=0
skipped=0

# Add the counts of a layer's "LABEL: P passed, F failed" line from $2.
tally() {
	local label=$1 log=$2 line p f
	line=$(grep -a "^$label: [0-9]* passed, [0-9]* failed" "$log" | tail -n 1)
	if [ -z "$line" ]; then
		echo "== $label: no result line (did not run to the end)"
		failed=$((failed + 1))
		return
	fi
	p=$(sed 's/.*: \([0-9]*\) passed.*/\1/' <<<"$line")
	f=$(sed 's/.* \([0-9]*\) failed.*/\1/' <<<"$line")
	passed=$((passed + p))
	failed=$((failed + f))
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# "== NAME" with the minutes since make check's layers began, so a slow
# run says where its time went.
# build/check-times.md keeps each layer's time as a table, which
# scripts/readme-table.sh check-times build/check-times.md puts in the README.
start=$SECONDS
last=$SECONDS
times=build/check-times.md
printf '| layer of `make check` | minutes |\n|---|---|\n' > "$times"
cur=
layer() {
	local t=$((SECONDS - start))
	[ -n "$cur" ] && printf '| %s | %d:%02d |\n' "$cur" $(((SECONDS - last) / 60)) $(((SECONDS - last) % 60)) >> "$times"
	last=$SECONDS
	cur=${*%% (*}
	cur=${cur% }
	printf '== [%d:%02d] %s\n' $((t / 60)) $((t % 60)) "$*"
}

layer "host tests"
hp=0 hf=0
for t in tests/host/*.c tests/host/*.sh; do
	name=$(basename "${t%.*}")
	case $t in
	*.c) bin=build/tests/$name; "$bin" > "$log" 2>&1 ;;
	*.sh) bash "$t" > "$log" 2>&1 ;;
	esac
	rc=$?
	if [ $rc -eq 77 ]; then
		echo "skip $name"; skipped=$((skipped + 1)); continue
	fi
	case $t in
	*.c) if [ $rc -eq 0 ]; then hp=$((hp + 1)); echo "ok - $name: $(tail -n 1 "$log")"
	     else hf=$((hf + 1)); echo "not ok - $name"; sed 's/^/# /' "$log" | tail -n 30; fi ;;
	*.sh) grep -a '^not ok' "$log"; grep -a '^#' "$log" | head -n 20
	      p=$(grep -ac '^ok - ' "$log"); f=$(grep -ac '^not ok - ' "$log")
	      [ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
	      echo "$name: $p passed, $f failed"; hp=$((hp + p)); hf=$((hf + f)) ;;
	esac
done
echo "host: $hp passed, $hf failed" | tee "$log"
tally host "$log"

layer "KUnit (UML, linux-source-6.12)"
scripts/kunit.sh > "$log" 2>&1
grep -a -E '^\[[0-9:]+\] .*(FAILED|Expected|not ok|ERROR|error:)' "$log" | head -n 40
grep -a -E 'error:' "$log" | head -n 20
tail -n 1 "$log"
tally kunit "$log"

# The VM layers load the modules DKMS built from the vcube-dkms package's
# source (tests/host/deb.sh, in the host layer), and test the installed
# packages (deb) on them.
for line in 6.12 6.1; do
	tests=(all -stress deb)
	[ $line = 6.1 ] && tests=(lifecycle networks signals bench_sigint stress netlink cnet golden_some deb)
	layer "VM tests, Debian $line kernel (${tests[*]}; DKMS's module)"
	# as it goes: each test's start and time, every failure and its notes
	# (not the passes, nor the tools' progress lines: those stay in the log)
	VCUBE_VM_KODIR=build/dkms VCUBE_VM_TIMEOUT=${VCUBE_VM_TIMEOUT:-3600} scripts/vm-run.sh --kver $line --no-insmod -- tests/vm/run.sh "${tests[@]}" 2>&1 |
		tee "$log" | grep -a --line-buffered -v -E '^ok - |^vcube-[a-z]+: \[[0-9]+/[0-9]+\] '
	# the whole stream, for a run that failed or crashed
	cp "$log" "build/check-vm-$line.log"
	sed -i "s/^vm: /vm-$line: /" "$log"
	tally "vm-$line" "$log"
done

layer "the README's make vm commands, as written (scripts/readme-vm.sh)"
scripts/readme-vm.sh 2>&1 | tee "$log"
tally readme "$log"

layer "scorecard smoke (scripts/score.py --smoke)"
scripts/score-smoke.sh > "$log" 2>&1
grep -a -v '^ok - ' "$log" | tail -n 20
tally score "$log"

layer "end"
t=$((SECONDS - start))
printf '| all of them, on %s processors (%s) | %d:%02d |\n' "$(nproc)" "$(date -u +%F)" $((t / 60)) $((t % 60)) >> "$times"
echo
echo "$passed passed, $failed failed${skipped:+, $skipped skipped}"
[ "$failed" -eq 0 ]
