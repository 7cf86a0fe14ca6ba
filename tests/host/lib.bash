# SPDX-License-Identifier: GPL-2.0
# What the host test scripts share (sourced, not run: scripts/check.sh runs
# tests/host/*.sh): strict variables, the tree's top, and the TAP-style
# ok, no and t (a command's success as one check) that check.sh counts.
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fail=0
ok() { echo "ok - $1"; }
no() { echo "not ok - $1"; fail=1; }
t() { local name=$1; shift; if "$@" >/dev/null 2>&1; then ok "$name"; else no "$name"; fi; }
