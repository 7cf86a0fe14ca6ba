#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Local copies cost processor time (the fidelity issue): each profile's
# copy_byte_ps in sysfs and its refusal past 1 us per byte; the store-and-
# forward exchanges (standard_U, bucket, the normal torus) take exactly
# the bytes they copy times the rate longer than with copies free, the
# bytes counted here from each algorithm's shape; a direct exchange
# (pairwise_U, pex) is not touched.
. "$(dirname "$0")/lib.sh"
bench=$VCUBE_TOP/build/bin/vcube-bench
out=$(mktemp)
trap 'rm -f "$out"' EXIT

for pr in "ipsc860 25000" "seidel 25000" "delta 25000" "ap1000 40000" "cm5 31250"; do
	set -- $pr
	usenet topology=hypercube dim=2 profile=$1 &&
		check "profile=$1: copy_byte_ps $(attr copy_byte_ps) (4 cycles a word)" \
			[ "$(attr copy_byte_ps)" = "$2" ]
done
usenet topology=hypercube dim=2 profile=cm5 copy_byte_ps=0 &&
	check "copy_byte_ps=0 overrides the profile" [ "$(attr copy_byte_ps)" = 0 ]
unload
if insmod "$VCUBE_KO" topology=hypercube dim=2 copy_byte_ps=1000001 2>/dev/null; then
	no "copy_byte_ps=1000001 was accepted"
	unload
else
	msg=$(dmesg | grep vcube | tail -n 1)
	check "copy_byte_ps past 1 us per byte refused ($msg)" grep -q copy_byte_ps <<< "$msg"
fi

# max_ns of ALGO at BYTES in $out
t() { awk -F, -v a="$1" -v b="$2" '$1 == a && $2 == b && $6 == 1 { print $5 }' "$out"; }

# shift NPROCS ALGO BYTES COPIED RATE MODPARAMS...: the exchange with the
# profile's copies takes COPIED * RATE ps longer than with copies free.
shift_by() {
	local n=$1 algo=$2 len=$3 copied=$4 rate=$5 with free
	shift 5
	usenet "$@" || return
	vcube-run -n "$n" "$bench" exchange -q --csv --algo "$algo" --sizes "$len" --reps 1 > "$out" 2>&1
	with=$(t "$algo" "$len")
	usenet "$@" copy_byte_ps=0 || return
	vcube-run -n "$n" "$bench" exchange -q --csv --algo "$algo" --sizes "$len" --reps 1 > "$out" 2>&1
	free=$(t "$algo" "$len")
	check "$algo, $n ranks, $len B ($*): $with ns against $free free, $copied B copied" \
		test -n "$with" -a -n "$free" -a "$((with - free))" = "$((copied * rate / 1000))"
}
# standard exchange and bucket passing: p blocks arranged, then per phase
# p/2 packed, p/2 kept and p/2 taken in, then p blocks delivered:
# (2 + 1.5 lg p) p blocks. The normal torus: 4 p - rows - cols blocks.
shift_by 16 standard_U 64 $(((2 * 16 + 3 * 16 * 4 / 2) * 64)) 25000 topology=hypercube dim=4 profile=ipsc860
shift_by 16 bucket 8 $(((2 * 16 + 3 * 16 * 4 / 2) * 8)) 40000 topology=torus rows=4 cols=4 profile=ap1000
shift_by 16 torus 8 $(((4 * 16 - 4 - 4) * 8)) 40000 topology=torus rows=4 cols=4 profile=ap1000
shift_by 32 rex 256 $(((2 * 32 + 3 * 32 * 5 / 2) * 256)) 31250 topology=fattree nodes=32 profile=cm5
shift_by 16 pairwise_U 1024 0 25000 topology=hypercube dim=4 profile=ipsc860
shift_by 32 pex 256 0 31250 topology=fattree nodes=32 profile=cm5
nonet
exit $fail
