#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Issue 19, D6: insmod with each of its slab allocations failing in turn
# (tests/vm/faults.c), on a hypercube with a trace and windows and on the
# CM-5's fat tree, while another process opens /dev/vcube0. Needs failslab
# (the debug kernel of make check-debug has it; Debian's kernels do not).
. "$(dirname "$0")/lib.sh"
fs=/sys/kernel/debug/failslab
[ -d $fs ] || mount -t debugfs none /sys/kernel/debug 2> /dev/null
if [ ! -d $fs ]; then
	echo "# faults: this kernel has no failslab (CONFIG_FAILSLAB): nothing to try"
	exit 0
fi
unload
old_wait=$(cat $fs/ignore-gfp-wait) old_verbose=$(cat $fs/verbose)
echo N > $fs/ignore-gfp-wait	# GFP_KERNEL allocations may fail too
echo 0 > $fs/verbose		# no stack for each (the log check would see it)
faults "$VCUBE_KO" "topology=hypercube dim=2 trace=64 window_ns=1000000" \
	"topology=hypercube dim=99 trace=64 window_ns=1000000" || fail=1
faults "$VCUBE_KO" "profile=cm5 nodes=4" "profile=cm5 nodes=1" || fail=1
echo "$old_wait" > $fs/ignore-gfp-wait
echo "$old_verbose" > $fs/verbose
load topology=hypercube dim=3 && {
	vcube-run -n 8 "$VCUBE_TOP/build/tests/vm/exp" msg > /dev/null 2>&1
	check "after the sweeps a load and an 8-node exchange work" [ $? = 0 ]
}
unload
exit $fail
