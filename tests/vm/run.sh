#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run VM test scripts inside the guest (scripts/vm-run.sh --no-insmod -- ...)
# and close with "vm: N passed, N failed". With arguments, only those tests.
dir=$(cd "$(dirname "$0")" && pwd)
export PATH=$dir:$VCUBE_TOP/build/tests/vm:$VCUBE_TOP/build/tests/stress:$PATH
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(topologies badparams lifecycle bounds signals stress engine switching algos copy duplex recv chart netlink readme sync cnet golden sim score)
log=$(mktemp)
dmesg --clear
i=0
for t in "${tests[@]}"; do
	i=$((i + 1))
	echo "# [$i/${#tests[@]}] $t ($VCUBE_KREL)"
	start=$(date +%s)
	f=$dir/$t.sh
	[ -f "$f" ] || f=$dir/../stress/$t.sh	# the stress layer's (short unless VCUBE_STRESS=long)
	bash "$f" 2>&1 | tee -a "$log"
	echo "# $t took $(($(date +%s) - start)) s, $(grep -c '^not ok - ' "$log") failed so far"
done
# Whatever happened, the kernel must not have complained.
if dmesg | grep -E 'BUG:|WARNING:|Oops|general protection|UBSAN|KASAN|Call Trace' >/dev/null; then
	echo "not ok - kernel log is clean" | tee -a "$log"
	dmesg | grep -E -A5 'BUG:|WARNING:|Oops|general protection|UBSAN|KASAN|Call Trace' | head -n 40
else
	echo "ok - kernel log is clean" | tee -a "$log"
fi
passed=$(grep -c '^ok - ' "$log")
failed=$(grep -c '^not ok - ' "$log")
echo "vm: $passed passed, $failed failed"
rm -f "$log"
[ "$failed" = 0 ]
