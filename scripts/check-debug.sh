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
# Prints the kernel's build time, the run's time, and the counts.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
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
[ ${#tests[@]} -gt 0 ] || tests=(stress faults bounds signals lifecycle engine cnet recv copy
	duplex badparams)
set +e
VCUBE_VM_TIMEOUT=${VCUBE_VM_TIMEOUT:-14400} VCUBE_VM_MEM=${VCUBE_VM_MEM:-3072} \
	scripts/vm-run.sh --kver debug --no-insmod -- "VCUBE_TIMES=1 tests/vm/run.sh ${tests[*]}"
rc=$?
set -e
t2=$(date +%s)
echo "check-debug: kernel ready in $((t1 - t0)) s, tests ran $((t2 - t1)) s on $(scripts/vm-run.sh --kdir debug | xargs basename) ($(cat "$kdir/include/config/kernel.release"))"
exit $rc
