#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-debug: the VM tests and the stress suite on the debug kernel
# (scripts/debug-kernel.sh: KASAN, lockdep, kmemleak, KFENCE, UBSAN, the
# soft-lockup and hung-task detectors), built the first time. Fails on any
# failed test and on any report in the kernel log (tests/vm/run.sh checks
# it after the tests, and kmemleak after the last rmmod).
#
#   scripts/check-debug.sh [TEST...]   only these VM tests (default: all
#                                      but the long reproductions, then
#                                      the stress suite)
# Prints the kernel's build time, the run's time, and the counts.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
t0=$(date +%s)
kdir=$(scripts/debug-kernel.sh)
t1=$(date +%s)
make --no-print-directory module KDIR="$kdir"
tests=("$@")
# sync, golden, sim and score replay the papers' sweeps: they test numbers,
# which the debug kernel cannot change, at 5-10x the time under KASAN.
[ ${#tests[@]} -gt 0 ] || tests=(topologies badparams lifecycle bounds signals stress engine
	switching algos copy duplex recv chart netlink readme cnet)
set +e
VCUBE_VM_TIMEOUT=${VCUBE_VM_TIMEOUT:-14400} VCUBE_VM_MEM=${VCUBE_VM_MEM:-3072} \
	scripts/vm-run.sh --kver debug --no-insmod -- tests/vm/run.sh "${tests[@]}"
rc=$?
set -e
t2=$(date +%s)
echo "check-debug: kernel ready in $((t1 - t0)) s, tests ran $((t2 - t1)) s on $(scripts/vm-run.sh --kdir debug | xargs basename) ($(cat "$kdir/include/config/kernel.release"))"
exit $rc
