# SPDX-License-Identifier: MIT
# What each foreign program (tests/mpi/foreign) prints when it works, for
# its run under Open MPI (tests/host/mpi_ompi.sh) and on vcube
# (tests/vm/mpi.sh): foreign_ok NAME OUTPUT_FILE RANKS.
foreign_programs="openmpi-4.1.4/hello_c openmpi-4.1.4/ring_c openmpi-4.1.4/connectivity_c
mpich-4.0.2/cpi mpich-4.0.2/hellow mpich-4.0.2/srtest mpich-4.0.2/icpi"
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
