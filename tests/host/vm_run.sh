#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scripts/vm-run.sh, the part a user meets when a job runs long: past
# VCUBE_VM_TIMEOUT the guest is stopped once (not retried as a failed boot)
# and vm-run says so and how to give it longer, exit 125.
. "$(dirname "$0")/lib.bash"
rel=$(ls /boot/vmlinuz-6.12.* 2> /dev/null | head -n 1)
[ -n "$rel" ] && command -v qemu-system-x86_64 > /dev/null ||
	{ echo "skip - no 6.12 kernel or qemu (make deps)"; exit 77; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT
VCUBE_VM_TIMEOUT=3 "$top/scripts/vm-run.sh" --kver 6.12 --no-insmod -- sleep 60 > /dev/null 2> "$err"
rc=$?
t "a job past VCUBE_VM_TIMEOUT: exit 125 ($rc)" [ "$rc" = 125 ]
t "... and vm-run says why: $(head -n 1 "$err")" \
	grep -q 'was stopped after VCUBE_VM_TIMEOUT=3 s; set it higher' "$err"
t "... once, not retried as a boot that failed" sh -c "! grep -q 'failed to boot' '$err'"
exit $fail
