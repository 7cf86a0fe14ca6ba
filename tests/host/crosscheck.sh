#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make crosscheck's parts, quickly (the whole is docs/crosscheck.md's run,
# a minute or so, not part of make check): its MPI program is plain MPI
# that moves the right bytes under Open MPI, and under SimGrid's SMPI a
# case of each kind the report explains comes out as it says: equal to
# vcube's time to the nanosecond once vcube carries SMPI's 16-byte
# envelope, and the torus shift's tie twice SMPI's.
. "$(dirname "$0")/lib.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$top/bench/mpi/crosscheck.c

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
if mpicc -std=c11 -O2 -Wall -Wextra -Werror -o "$tmp/xc" "$src" 2> "$tmp/err"; then
	ok "bench/mpi/crosscheck.c builds with Open MPI's mpicc, no warning"
	for op in alltoall allreduce shift; do
		out=$(mpirun --oversubscribe -np 8 "$tmp/xc" $op 4096 2>&1)
		[[ "$out" =~ ^"crosscheck $op 8 4096 "[0-9.]+" "[0-9.]+" 0"$ ]] &&
			ok "$op of 4096 bytes on 8 ranks under Open MPI: every byte right" ||
			no "$op under Open MPI: $out"
	done
	out=$(mpirun --oversubscribe -np 6 "$tmp/xc" shift 8 2>&1)
	[ $? = 2 ] && grep -q 'power of two' <<< "$out" && ok "6 ranks: refused, exit 2" ||
		no "6 ranks: $out"
else
	no "crosscheck.c under mpicc: $(head -n 3 "$tmp/err")"
fi

if ! command -v smpicc > /dev/null; then
	no "no smpicc: make deps installs libsimgrid-dev"
	exit 1
fi
smpicc -O2 -o "$tmp/xc_smpi" "$src" > "$tmp/err" 2>&1 &&
	ok "crosscheck.c builds with SMPI's smpicc" || no "smpicc: $(tail -n 3 "$tmp/err")"
cc() {	# NET OP LEN: "SMPI vcube vcube16" in ns
	/usr/bin/python3 "$top/scripts/crosscheck.py" --sim "$top/build/bin/vcube-sim" \
		--ctl "$top/build/bin/vcubectl" --prog "$tmp/xc_smpi" --work "$tmp" --case "$@" 2> "$tmp/err" | cut -d' ' -f4-
}
for c in "fattree alltoall 1024" "torus allreduce 1024" "dragonfly shift 1024"; do
	read -r s v v16 <<< "$(cc $c)"
	[ -n "$s" ] && [ "$s" = "$v16" ] && [ "$v" -lt "$s" ] &&
		ok "$c: SMPI $s ns, vcube $v ns, $v16 ns with the envelope" ||
		no "$c: SMPI '$s', vcube '$v', with the envelope '$v16' ($(tail -n 2 "$tmp/err"))"
done
read -r s v v16 <<< "$(cc torus shift 65536)"
[ -n "$s" ] && [ $((v16 * 10)) -gt $((s * 19)) ] && [ $((v16 * 10)) -lt $((s * 21)) ] &&
	ok "torus shift 65536: vcube $v16 ns, twice SMPI's $s ns (the tie, routed otherwise)" ||
	no "torus shift 65536: SMPI '$s', vcube '$v16' ($(tail -n 2 "$tmp/err"))"
exit $fail
