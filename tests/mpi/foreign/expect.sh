# SPDX-License-Identifier: MIT
# What each foreign program (tests/mpi/foreign/programs) prints when it works, for
# its run under Open MPI (tests/host/mpi_ompi.sh) and on vcube
# (tests/vm/mpi.sh): foreign_ok NAME OUTPUT_FILE RANKS.
# The programs, as DIR/NAME under the directory scripts/mpi-foreign.sh
# prints (their sources are not in the tree).
foreign_programs=$(cat "$(dirname "${BASH_SOURCE[0]}")/programs")
# its standard input (icpi asks for the number of intervals, 0 ends it)
foreign_stdin() {
	case $1 in */icpi) printf '10000\n0\n' ;; *) : ;; esac
}
foreign_ok() {
	local name=$1 out=$2 n=$3
	case $name in
	*/hello_c) [ "$(grep -cE "^Hello, world, I am [0-9]+ of $n" "$out")" = "$n" ] ;;
	*/ring_c) [ "$(grep -cE '^Process [0-9]+ exiting' "$out")" = "$n" ] &&
		grep -q '^Process 0 decremented value: 0' "$out" ;;
	*/connectivity_c) grep -q "^Connectivity test on $n processes PASSED" "$out" ;;
	*/cpi|*/icpi) grep -q 'pi is approximately 3.14159265[0-9]*, Error is 0.00000000083' "$out" ;;
	*/hellow) [ "$(grep -cE "^Hello world from process [0-9]+ of $n" "$out")" = "$n" ] ;;
	*/srtest) grep -q "^0 received 'hello there'" "$out" &&
		[ "$(grep -c "received 'hello there'" "$out")" = "$n" ] ;;
	*) return 1 ;;
	esac
}
