# SPDX-License-Identifier: GPL-2.0
# Helpers for the VM tests (sourced). They run as root inside the guest,
# in the project directory, with $VCUBE_KO the module built for this kernel.
fail=0
ok() { echo "ok - $*"; }
no() { echo "not ok - $*"; fail=1; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else no "$name"; fi; }

not() { ! "$@"; }
loaded() { [ -d /sys/module/vcube ]; }

load() {
	local out
	loaded && rmmod vcube
	if ! out=$(insmod "$VCUBE_KO" "$@" 2>&1); then
		no "insmod $*: $out $(dmesg | grep vcube | tail -n 1)"
		return 1
	fi
}

unload() { loaded && rmmod vcube; }

attr() { local v; read -r v < "/sys/class/vcube/$1" && echo "$v"; }
