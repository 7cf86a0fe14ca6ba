#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-engine: the engine's wall-clock cost, measured in the VM (run
# through scripts/vm-run.sh --no-insmod). Not a test: it prints figures.
#   - a two-process ping-pong of 8-byte messages through vcube, against the
#     same ping-pong through pipes in the same guest: the ratio;
#   - the wall time of a complete pairwise exchange of 4 KB blocks on
#     hypercubes of DIMS (default "5 7": 32 and 128 processes), its virtual
#     time, events per second, the guest memory insmod took per node, and
#     the guest's process switches per message (/proc/stat's ctxt, which
#     costs the run nothing: perf stat -a cost it 80% under TCG);
#   - with PEERS=1 (make bench), the same exchange (bench/mpi/a2a_mpi.c,
#     its data checked) simulated by SimGrid's SMPI on a hypercube of the
#     same size and run by Open MPI over shared memory (up to OMPI_MAX
#     processes), in the same guest. Up to XREPS_DIM (default 7: runs of
#     seconds, where the guest's noise is as large as the difference),
#     vcube and SMPI run REPS times each, by turns, and the best of each
#     is kept; beyond it, once.
# With BENCH_MD=FILE it also writes the figures as markdown tables (make
# bench-engine puts them between the README's bench-engine markers).
set -u
top=$VCUBE_TOP
md=${BENCH_MD:-/dev/null}
pp=$top/build/bench/pingpong
exp=$top/build/tests/vm/exp
rounds=${ROUNDS:-20000}
reps=${REPS:-3}
dims=${DIMS:-5 7}
peers=${PEERS:-}
# Open MPI's processes are heavier than vcube's: past this many, the
# guest's memory would run out
ompi_max=${OMPI_MAX:-256}
xreps_dim=${XREPS_DIM:-7}

insmod "$VCUBE_KO" topology=hypercube dim=1 || exit 1
best() { sort -n | head -n 1; }
v=$(for i in $(seq "$reps"); do vcube-run -n 2 "$pp" vcube "$rounds" | awk '{ print $4 }'; done | best)
p=$(for i in $(seq "$reps"); do "$pp" pipe "$rounds" | awk '{ print $4 }'; done | best)
rmmod vcube
echo "ping-pong, 8-byte messages, best of $reps x $((2 * rounds)) messages:"
echo "  vcube  $v ns/message"
echo "  pipe   $p ns/message"
awk -v v="$v" -v p="$p" 'BEGIN { printf "  ratio  %.1f (vcube / pipe)\n", v / p }'
{
	echo "| measurement | result |"
	echo "|---|---|"
	awk -v v="$v" -v p="$p" -v r="$reps" -v m=$((2 * rounds)) 'BEGIN {
		printf "| ping-pong, 8-byte messages, vcube vs two processes over pipes in the same guest (best of %d x %d messages) | %.0f us vs %.0f us per message: **%.1fx** a pipe |\n",
			r, m, v / 1000, p / 1000, v / p }'
} > "$md"

# memfree: the guest's free memory, KiB
memfree() { awk '$1 == "MemFree:" { print $2 }' /proc/meminfo; }
# timed CMD...: run it, its output in $run_out; prints the wall seconds
timed() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" > "$run_out" 2>&1 ||
		{ echo "failed: $(grep -v -e '^-*$' -e '^ *$' "$run_out" | head -n 1 | tr '|' '/')"; return 1; }
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc
}
# smpi D N: SMPI's exchange on the hypercube of dimension D (platform D
# made), N ranks; prints the wall seconds
smpi() {
	timed smpirun -platform "$tmpd/hc$1.xml" -hostfile "$tmpd/hosts$1" -np "$2" \
		-no-privatize --cfg=smpi/host-speed:1Gf --log=root.thres:critical \
		"$top/build/bench/a2a_smpi" 4096
}
# platform D: SMPI's hypercube of 2^D hosts (a torus 2 x ... x 2), with the
# ipsc860 profile's startup and link rate; and its hostfile
platform() {
	local dims
	dims=$(printf '2,%.0s' $(seq "$1"))
	cat > "$tmpd/hc$1.xml" <<-XML
	<?xml version='1.0'?>
	<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
	<platform version="4.1">
	  <cluster id="hypercube" prefix="node-" suffix="" radical="0-$(((1 << $1) - 1))"
	           speed="1Gf" bw="2.54MBps" lat="95us" topology="TORUS"
	           topo_parameters="${dims%,}"/>
	</platform>
	XML
	seq 0 $(((1 << $1) - 1)) | sed 's/^/node-/' > "$tmpd/hosts$1"
}

tmpd=$(mktemp -d)
run_out=$tmpd/out
# Open MPI's launcher (PMIx) listens on the loopback, which the guest
# brings up only here, and wants a host name
if [ -n "$peers" ]; then
	ip link set lo up
	[ "$(hostname)" != "(none)" ] || hostname vcube-guest
fi
trap 'rm -rf "$tmpd"' EXIT
{
	echo
	[ -z "$peers" ] || echo "Runs: up to d = $xreps_dim, vcube and SMPI ran $reps times each, by turns, the best of each kept; beyond, once each."
	echo "| processes (hypercube) | messages | vcube wall s | us per message | events per s | virtual ms | KiB per node | process switches per message |${peers:+ SMPI wall s | vcube / SMPI | Open MPI wall s |}"
	echo "|---|---|---|---|---|---|---|---|${peers:+---|---|---|}"
} >> "$md"
# least A B: the smaller of two wall times
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (b < a) ? b : a }'; }
# ctxt: the guest's process switches so far, every processor's
ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }
for d in $dims; do
	n=$((1 << d))
	msgs=$((n * (n - 1)))
	m0=$(memfree)
	insmod "$VCUBE_KO" topology=hypercube dim="$d" || exit 1
	kib=$(( (m0 - $(memfree)) / n ))
	c0=$(ctxt)
	if ! w=$(timed vcube-run -n "$n" "$exp" pairwise 4096); then
		rmmod vcube
		echo "pairwise exchange, $n processes: vcube-run $w"
		echo "| $n (d = $d) | $msgs | vcube-run $w |" >> "$md"
		continue
	fi
	c1=$(ctxt)
	vt=$(awk '$1 == "clock" { if ($3 > m) m = $3 } END { print m / 1e6 }' "$run_out")
	ev=$(vcubectl -j topo | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
	cs=$(awk -v a="$c0" -v b="$c1" -v m="$msgs" 'BEGIN { printf "%.1f", (b - a) / m }')
	rmmod vcube
	echo "pairwise exchange, $n processes, 4 KB blocks: $msgs messages, $ev events, wall $w s, virtual $vt ms, $kib KiB per node after insmod, $cs process switches per message"
	if [ -n "$peers" ]; then
		sw=n/a ratio=n/a ow=n/a
		if [ -x "$top/build/bench/a2a_smpi" ]; then
			platform "$d"
			sw=$(smpi "$d" "$n")
			echo "  SMPI: $sw s wall ($(tail -n 1 "$run_out"))"
		fi
		# small sizes: more runs of each, by turns, the best kept
		k=1
		while [ "$d" -le "$xreps_dim" ] && [ "$k" -lt "$reps" ]; do
			k=$((k + 1))
			s2=
			insmod "$VCUBE_KO" topology=hypercube dim="$d" || exit 1
			w2=$(timed vcube-run -n "$n" "$exp" pairwise 4096)
			rmmod vcube
			case $w2 in failed*) ;; *) w=$(least "$w" "$w2") ;; esac
			case $sw in
			failed* | n/a) ;;
			*)
				s2=$(smpi "$d" "$n")
				case $s2 in failed*) ;; *) sw=$(least "$sw" "$s2") ;; esac
				;;
			esac
			echo "  run $k: vcube $w2 s, SMPI ${s2:-n/a} s"
		done
		[ "$k" -gt 1 ] && echo "  best of $k: vcube $w s, SMPI $sw s"
		case $sw in
		failed* | n/a) ;;
		*)
			ratio=$(awk -v a="$w" -v b="$sw" 'BEGIN { printf "%.2f", a / b }')
			sw=$(awk -v a="$sw" 'BEGIN { printf "%.1f", a }')
			;;
		esac
		if [ "$n" -gt "$ompi_max" ]; then
			ow="not run: more than OMPI_MAX=$ompi_max processes"
		elif [ -x "$top/build/bench/a2a_ompi" ]; then
			ow=$(timed mpirun --allow-run-as-root --oversubscribe -np "$n" \
				"$top/build/bench/a2a_ompi" 4096) &&
				ow=$(awk -v a="$ow" 'BEGIN { printf "%.1f", a }')
			echo "  Open MPI (shared memory): $ow s wall ($(tail -n 1 "$run_out"))"
		fi
	fi
	line=$(awk -v n="$n" -v w="$w" -v vt="$vt" -v m="$msgs" -v ev="$ev" -v k="$kib" -v cs="$cs" 'BEGIN {
		printf "| %d (d = %d) | %d | %.1f | %.0f | %.0f | %.1f | %d | %s |", n, log(n) / log(2) + 0.5, m, w, w * 1e6 / m, ev / w, vt, k, cs }')
	[ -z "$peers" ] || line="$line $sw | $ratio | $ow |"
	echo "$line" >> "$md"
done
