#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-debug: the VM tests and the stress suite on the debug kernel
# (scripts/debug-kernel.sh: KASAN, lockdep, kmemleak, KFENCE, UBSAN, the
# soft-lockup and hung-task detectors), built the first time. Fails on any
# failed test and on any report in the kernel log (tests/vm/run.sh checks
# it after the tests, and kmemleak after the last rmmod).
#
#   scripts/check-debug.sh [TEST...]   only these VM tests (default: the
#                                      stress suite, then the tests that
#                                      drive the kernel hardest)
#   scripts/check-debug.sh --report LOG
#                                      the table of a run's times from its
#                                      log (what a run writes at its end)
# Prints the kernel's build time, the run's time, and the counts; the whole
# output goes to build/check-debug.log, and build/check-debug-times.md gets
# each test's minutes (scripts/readme-table.sh check-debug-times
# build/check-debug-times.md puts them in the README).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

# The minutes of each test of a run, from its log's "# TEST took N s"
# lines, and of the kernel and the whole from its last line.
report() {
	local log=$1 times=build/check-debug-times.md k t
	read -r k t < <(sed -n 's/^check-debug: kernel ready in \([0-9]*\) s, tests ran \([0-9]*\) s .*/\1 \2/p' "$log" | tail -n 1) || true
	[ -n "$t" ] || { echo "check-debug: $log has no closing line" >&2; return 1; }
	mkdir -p build
	{
		printf '| `make check-debug` | minutes |\n|---|---|\n'
		printf '| the debug kernel ready (built the first time, then checked) | %d:%02d |\n' $((k / 60)) $((k % 60))
		sed -n 's/^# \([a-z_0-9]*\) took \([0-9]*\) s, .*/\1 \2/p' "$log" | while read -r n s; do
			printf '| %s | %d:%02d |\n' "$n" $((s / 60)) $((s % 60))
		done
		printf '| the tests, on %s processors (%s): %s | %d:%02d |\n' "$(nproc)" "$(date -u -r "$log" +%F)" \
			"$(grep -a '^vm: [0-9]* passed' "$log" | tail -n 1 | sed 's/^vm: //')" $((t / 60)) $((t % 60))
	} > "$times"
	echo "check-debug: wrote $times"
}
if [ "${1:-}" = --report ]; then
	report "$2"
	exit
fi
t0=$(date +%s)
kdir=$(scripts/debug-kernel.sh)
t1=$(date +%s)
make --no-print-directory module KDIR="$kdir"
tests=("$@")
# Everything runs 8-10x slower under the checkers, process creation most
# (topologies' shell loops: 64 s become over 10 minutes). So: the stress
# suite (every ioctl, threads, kills, netlink and sysfs readers, module
# cycles), insmod with each of its allocations failing in turn (faults:
# failslab is this kernel's alone), then what drives the kernel's other
# paths: memory bounds, signals, binding and the module's life, the engine's protocols and
# deadlocks, the control network, receive and copy costs, bad parameters.
# The papers' sweeps and the tools' output (sync, golden, sim, score,
# algos, switching, chart, readme, topologies, netlink) test numbers and
# formats the debug kernel cannot change; name them to run them too.
[ ${#tests[@]} -gt 0 ] || tests=(stress faults bounds signals lifecycle networks engine cnet recv copy
	duplex badparams)
log=build/check-debug.log
set +e
VCUBE_VM_TIMEOUT=${VCUBE_VM_TIMEOUT:-14400} VCUBE_VM_MEM=${VCUBE_VM_MEM:-3072} \
	scripts/vm-run.sh --kver debug --no-insmod -- "VCUBE_TIMES=1 tests/vm/run.sh ${tests[*]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
t2=$(date +%s)
echo "check-debug: kernel ready in $((t1 - t0)) s, tests ran $((t2 - t1)) s on $(scripts/vm-run.sh --kdir debug | xargs basename) ($(cat "$kdir/include/config/kernel.release"))" | tee -a "$log"
report "$log"
exit $rc
