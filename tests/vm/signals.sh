#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Signals lose no message and duplicate none (tests/vm/signals.c): a
# blocking receive stopped and continued, a blocking send cut with and
# without SA_RESTART and taken up by a wait or by the same call, and
# libvcube's calls, which never fail with EINTR.
. "$(dirname "$0")/lib.sh"
usenet topology=hypercube dim=1 && {
	signals || fail=1
	check "every node free after the signals" \
		[ "$(cat "$(sysdir)/vcube0/owner")$(cat "$(sysdir)/vcube1/owner")" = 00 ]
	nonet
}
exit $fail
