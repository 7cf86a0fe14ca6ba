# SPDX-License-Identifier: GPL-2.0
# Helpers for the VM tests (sourced). They run as root inside the guest,
# in the project directory, with $VCUBE_KO the module built for this kernel.
fail=0
# VCUBE_CHECK_TIMES=1: each line ends with the seconds since the test
# began, to find where its time goes (tests/vm/run.sh's VCUBE_TIMES gives
# each test's whole); chosen once here, so a check forks nothing
if [ -n "${VCUBE_CHECK_TIMES:-}" ]; then
	ok() { echo "ok - $* # $SECONDS s"; }
	no() { echo "not ok - $* # $SECONDS s"; fail=1; }
else
	ok() { echo "ok - $*"; }
	no() { echo "not ok - $*"; fail=1; }
fi
check() { local name=$1; shift; if "$@"; then ok "$name"; else no "$name"; fi; }

not() { ! "$@"; }
loaded() { [ -d /sys/module/vcube ]; }

load() {
	local out
	unset VCUBE_NET
	loaded && rmmod vcube
	if ! out=$(insmod "$VCUBE_KO" "$@" 2>&1); then
		no "insmod $*: $out $(dmesg | grep vcube | tail -n 1)"
		return 1
	fi
}

unload() { unset VCUBE_NET; loaded && rmmod vcube; }

# A network of a test's own, made with the module parameters' words (as
# vcubectl net add takes them) instead of reloading the module: every
# tool, and attr and node below, use it from then on (VCUBE_NET). The
# module stays as it is, or is loaded with its defaults.
usenet() {
	local out
	nonet
	loaded || load || return 1
	# one an earlier test left behind
	vcubectl net del t 2> /dev/null
	if ! out=$(vcubectl net add t "$@" 2>&1); then
		no "vcubectl net add t $*: $out"
		return 1
	fi
	export VCUBE_NET=t
}

# The test's network deleted (the module stays).
nonet() {
	[ -n "${VCUBE_NET:-}" ] && loaded && vcubectl net del "$VCUBE_NET" 2> /dev/null
	unset VCUBE_NET
	return 0
}

# The network's sysfs directory and node devices: the default one's, or
# those of the network usenet made.
sysdir() { [ -n "${VCUBE_NET:-}" ] && echo "/sys/class/vcube_net/$VCUBE_NET" || echo /sys/class/vcube; }
node() { [ -n "${VCUBE_NET:-}" ] && echo "/dev/vcube/$VCUBE_NET/$1" || echo "/dev/vcube$1"; }
attr() { local v; read -r v < "$(sysdir)/$1" && echo "$v"; }
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
