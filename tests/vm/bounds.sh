#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What a caller can make the kernel hold is bounded (tests/vm/bounds.c):
# payload in flight per source node and per network, counted across a
# sender's bindings; the memory five rounds of 256 1 MiB sends to an idle
# node pin with the default limits; and how long one call holds the lock
# to commit 65536 queued sends, to match 65536 arrivals with as many
# posted receives, and to receive 65536 messages most of which parked for
# buffer room (printed, not checked).
. "$(dirname "$0")/lib.sh"
usenet topology=hypercube dim=3 max_inflight=6356992 max_inflight_node=4259840 && {
	bounds inflight || fail=1
	nonet
}
usenet topology=hypercube dim=1 && {
	bounds queue || fail=1
	# node 1 posted no receive: the first are dropped on arrival, the
	# rest discarded when it unbinds; none is lost on the way
	d=$(counter forced_dropped 1) x=$(counter discarded 1)
	check "all 65536 accounted for at node 1: $d dropped, $x discarded" \
		[ $((d + x)) = 65536 ]
	nonet
}
usenet topology=hypercube dim=1 max_reqs=65536 && {
	bounds match || fail=1
	check "node 1 received all 65536" [ "$(counter received 1)" = 65536 ]
	nonet
}
usenet topology=hypercube dim=1 max_reqs=65536 && {
	bounds parked 65536 || fail=1
	nonet
}
load topology=hypercube dim=3 && {
	bounds pinned || fail=1
	unload
	check "rmmod with 64 MiB in flight to an idle node that died" not loaded
}
exit $fail
