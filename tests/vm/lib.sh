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
# A counter over netlink: counter KEY, the network's (vcubectl topo), or
# counter KEY NODE, a node's (vcubectl nodes); JSON keys.
counter() {
	if [ $# = 1 ]; then
		vcubectl -j topo | python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"
	else
		vcubectl -j nodes | python3 -c 'import json,sys; print(json.load(sys.stdin)[int(sys.argv[2])][sys.argv[1]])' "$1" "$2"
	fi
}
# "window peak" lines of every window with a channel taken (vcubectl windows)
peak_windows() { vcubectl windows | awk '{ print $2, $4 }'; }
