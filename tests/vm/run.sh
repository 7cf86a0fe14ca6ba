#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run VM test scripts inside the guest (scripts/vm-run.sh --no-insmod -- ...)
# and close with "vm: N passed, N failed". With arguments, only those tests
# ("all" stands for the default list, which these name; "-NAME" drops NAME
# from what the arguments before it named).
dir=$(cd "$(dirname "$0")" && pwd)
export PATH=$dir:$VCUBE_TOP/build/tests/vm:$VCUBE_TOP/build/tests/stress:$PATH
all=(topologies badparams lifecycle networks bounds signals bench_sigint stress engine switching algos copy duplex recv mpi mpich placement chart netlink readme sync cnet golden sim score)
tests=()
for t in "${@:-all}"; do
	case $t in
	all) tests+=("${all[@]}") ;;
	-*) for i in "${!tests[@]}"; do
		[ "${tests[$i]}" = "${t#-}" ] && unset 'tests[i]'
	    done
	    tests=("${tests[@]}") ;;
	*) tests+=("$t") ;;
	esac
done
log=$(mktemp)
# the guest is a system like any other: process substitution works (the
# tests compare through it)
if cmp -s <(echo same) <(echo same) && ! cmp -s <(echo a) <(echo b); then
	echo "ok - the guest has /dev/fd: bash's <(...) compares" | tee -a "$log"
else
	echo "not ok - the guest has no /dev/fd: bash's <(...) cannot compare" | tee -a "$log"
fi
dmesg --clear
i=0
for t in "${tests[@]}"; do
	i=$((i + 1))
	echo "# [$i/${#tests[@]}] $t ($VCUBE_KREL)"
	start=$(date +%s)
	f=$dir/$t.sh
	[ -f "$f" ] || f=$dir/../stress/$t.sh	# the stress layer's (short unless VCUBE_STRESS=long)
	# VCUBE_TIMES=1: each line ends with the test's seconds so far (where
	# a slow test spends its time)
	bash "$f" 2>&1 | if [ -n "${VCUBE_TIMES:-}" ]; then
		while IFS= read -r l; do printf '%s [%d s]\n' "$l" $(($(date +%s) - start)); done
	else
		cat
	fi | tee -a "$log"
	echo "# $t took $(($(date +%s) - start)) s, $(grep -c '^not ok - ' "$log") failed so far"
done
# Whatever happened, the kernel must not have complained: no BUG, WARNING,
# oops, sanitizer (KASAN, UBSAN, KFENCE), lockdep, lockup or hung-task
# report. On a kernel with kmemleak, a scan after the last rmmod must find
# nothing of vcube's.
bad='BUG:|WARNING:|Oops|general protection|UBSAN|KASAN|KFENCE|Call Trace|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU|soft lockup|hard LOCKUP|blocked for more than|workqueue lockup'
if dmesg | grep -E "$bad" >/dev/null; then
	echo "not ok - kernel log is clean" | tee -a "$log"
	dmesg | grep -E -A5 "$bad" | head -n 60
else
	echo "ok - kernel log is clean" | tee -a "$log"
fi
if [ -d /sys/kernel/debug ] && { [ -e /sys/kernel/debug/kmemleak ] ||
	mount -t debugfs none /sys/kernel/debug 2> /dev/null; } && [ -e /sys/kernel/debug/kmemleak ]; then
	[ -d /sys/module/vcube ] && rmmod vcube
	# objects must be unreferenced a while (5 s) before a scan reports them
	sleep 6; echo scan > /sys/kernel/debug/kmemleak; sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	leaks=$(awk '/^unreferenced object/ { if (obj ~ /vcube/) n++; obj = "" } { obj = obj $0 } END { if (obj ~ /vcube/) n++; print n + 0 }' /sys/kernel/debug/kmemleak)
	others=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
	if [ "$leaks" = 0 ]; then
		echo "ok - kmemleak: nothing of vcube's unreferenced ($others objects of others)" | tee -a "$log"
	else
		echo "not ok - kmemleak: $leaks objects of vcube's unreferenced" | tee -a "$log"
		head -n 60 /sys/kernel/debug/kmemleak
	fi
fi
passed=$(grep -c '^ok - ' "$log")
failed=$(grep -c '^not ok - ' "$log")
echo "vm: $passed passed, $failed failed"
rm -f "$log"
[ "$failed" = 0 ]
