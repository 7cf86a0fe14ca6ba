#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcube-run's command line, as mpirun users type it, without a module: -np
# is --np (not "-n p"), a missing count or program is said, not just the
# usage; what needs the network says it is missing (tests/vm covers runs).
# Where the ranks run (issue 52): --nodes and --rankfile refused in one
# line for each way they can be wrong, before the network is looked at.
# Then, as root, in a mount namespace of its own with a made-up network
# (sysfs facts in a tmpfs over /sys/class, regular files for the nodes):
# the ranks on the nodes chosen and VCUBE_NODES, nodes past the network,
# a failure to bind said once for all the ranks alike, --tag-output's
# lines whole and prefixed, and the exit statuses.
. "$(dirname "$0")/lib.bash"
run=$top/build/bin/vcube-run
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

"$run" -np 4 true > "$d/e" 2>&1
rc=$?
t "-np 4 is read as --np 4 (mpirun's spelling), not as -n p" sh -c "! grep -q 'is not a count' '$d/e'"
t "-np 4 reaches the network check; no network is a failure, exit 1, as in every tool" \
	sh -c "[ -e /sys/class/vcube ] || { [ $rc = 1 ] && grep -q 'no vcube network' '$d/e'; }"
"$run" true > "$d/e" 2>&1
rc=$?
t "a missing -n is said, exit 2" sh -c "[ $rc = 2 ] && grep -q -- '-n N is missing' '$d/e'"
"$run" -n 4 > "$d/e" 2>&1
rc=$?
t "a missing program is said, exit 2" sh -c "[ $rc = 2 ] && grep -q 'no program to run' '$d/e'"
"$run" -n 0 true > "$d/e" 2>&1
rc=$?
t "-n 0 is refused, exit 2" sh -c "[ $rc = 2 ] && grep -q 'not a count' '$d/e'"
t "--help exits 0 and names -np" sh -c "'$run' --help | grep -q -- '-np'"
for o in --nodes --rankfile --tag-output; do
	t "--help names $o" sh -c "'$run' --help | grep -q -- '$o'"
done

# refused ARGS WANT: exit 2 and one line, WANT in it (no network needed)
refused() {
	local out rc
	out=$("$run" $1 2>&1 > /dev/null)
	rc=$?
	if [ $rc = 2 ] && [ "$(grep -c . <<< "$out")" = 1 ] && grep -qF -- "$2" <<< "$out"; then
		ok "vcube-run $1: exit 2, '$out'"
	else
		no "vcube-run $1: exit $rc, '$out' (want one line with '$2')"
	fi
}
refused "--nodes 0,x true" "--nodes '0,x': not a node list (like 8-15 or 0,4,8-11)"
for l in "" "1," ",1" "2-1" "1-" "1,,2" "-3" "1.2" "0x1"; do
	refused "--nodes=$l true" "not a node list"
done
refused "--nodes 0,4,4 true" "--nodes '0,4,4': node 4 twice"
refused "--nodes 3,0-5 true" "node 3 twice"
refused "-n 4 --nodes 8-15 true" "--nodes '8-15' lists 8 nodes, but -n is 4"
refused "--nodes 0-4096 true" "4097 nodes, more than the 4096 processes"
refused "--nodes 4294967295 true" "a node past any network's"
refused "--nodes 0-3 --rankfile $d/rf true" "--nodes and --rankfile both choose the nodes"
refused "--rankfile $d/none true" "--rankfile $d/none: No such file or directory"
# the network is looked at only once the placement is good: no module here
"$run" --nodes 8-15 true > "$d/e" 2>&1
rc=$?
t "--nodes 8-15 without -n: N is 8, on to the network check (exit $rc)" \
	sh -c "[ -e /sys/class/vcube ] || { [ $rc = 1 ] && grep -q 'no vcube network' '$d/e'; }"
"$run" --nodes 0-3 -np 4 true > "$d/e" 2>&1
t "-np after --nodes is still mpirun's -np" sh -c "! grep -q 'is not a count' '$d/e'"

# rankfile TEXT ARGS WANT: a rankfile of TEXT (printf) refused with WANT
rankfile() {
	printf "$1" > "$d/rf"
	refused "$2 --rankfile $d/rf true" "$3"
}
me=$(hostname)
rankfile 'rank 0=localhost slot=1\nrank 0=localhost slot=2\n' "" "$d/rf:2: rank 0 again (line 1)"
rankfile 'rank 0=localhost slot=1\n# two\nrank 1=localhost slot=1\n' "" "$d/rf:3: node 1 again (rank 0's, line 1)"
rankfile 'rank 0=localhost slot=1\nrank 2=localhost slot=2\n' "" "$d/rf: no line for rank 1 (each of 0..2 needs one)"
rankfile 'rank 0=localhost slot=1\n' "-n 2" "$d/rf: no line for rank 1"
rankfile 'rank 0=localhost slot=1\nrank 1=localhost slot=2\n' "-n 1" "$d/rf:2: rank 1, but -n is 1"
rankfile 'rank 0=node17.example.org slot=1\n' "" "$d/rf:1: host 'node17.example.org' is not this machine"
rankfile 'rank 0=localhost slot=1:0\n' "" "$d/rf:1: slot '1:0' is not a node number"
rankfile 'rank 0=localhost slot=0-3\n' "" "$d/rf:1: slot '0-3' is not a node number"
rankfile 'rank 0=localhost\n' "" "$d/rf:1: not 'rank R=HOST slot=NODE'"
rankfile '# just this\n\nrank 0 localhost slot=1\n' "" "$d/rf:3: not 'rank R=HOST slot=NODE'"
rankfile 'rank 0=localhost slot=1 slot=2\n' "" "$d/rf:1: not 'rank R=HOST slot=NODE'"
rankfile 'rank x=localhost slot=1\n' "" "$d/rf:1: rank 'x' is not one of 0..4095"
rankfile '# nothing\n' "" "$d/rf: no 'rank R=HOST slot=NODE' line"
printf '# ranks 0-2, comments and blanks anywhere\nrank 0=localhost slot=9\n  rank 1 = %s slot = 4   # here\n\nrank 2=%s slot=0\n' \
	"$me" "${me%%.*}" > "$d/rf"
"$run" --rankfile "$d/rf" true > "$d/e" 2>&1
rc=$?
t "a good rankfile (localhost, $me, ${me%%.*}) goes on to the network check (exit $rc: $(head -n 1 "$d/e"))" \
	sh -c "[ -e /sys/class/vcube ] || { [ $rc = 1 ] && grep -q 'no vcube network' '$d/e'; }"

# ---- runs on a made-up network, in a mount namespace of our own
if [ "$(id -u)" != 0 ] || ! unshare -m true 2> /dev/null || [ -e /sys/class/vcube ]; then
	echo "skip - runs on a made-up network: need root, unshare -m and no vcube module"
	exit $fail
fi
# fake CMD...: CMD in a namespace whose default network has 32 nodes,
# /dev/vcube0..31 regular files (opened, never an ioctl)
cat > "$d/ns.sh" <<'NS'
set -e
s=/sys/class/vcube
mount -t tmpfs none /sys/class
mkdir $s
echo hypercube > $s/topology; echo dim=5 > $s/shape; echo ipsc860 > $s/profile
echo 32 > $s/nodes; echo 160 > $s/channels; echo 5 > $s/diameter; echo 1 > $s/seed
dev=$1
shift
mount -t tmpfs none "$dev"
for n in null zero urandom; do cp -a /dev/$n "$dev"/; done
ln -s /proc/self/fd "$dev"/fd
for i in $(seq 0 31); do
	mkdir $s/vcube$i
	echo $i > $s/vcube$i/node; echo 0 > $s/vcube$i/owner
	echo 1 > $s/vcube$i/neighbors; echo x > $s/vcube$i/coords
	: > "$dev"/vcube$i
done
mount --bind "$dev" /dev
set +e
"$@"
NS
mkdir "$d/dev"
fake() { unshare -m bash "$d/ns.sh" "$d/dev" "$@"; }
if ! fake true 2> /dev/null; then
	echo "skip - runs on a made-up network: its namespace could not be made (mount, mknod)"
	exit $fail
fi

got=$(fake "$run" --nodes 8-10 sh -c 'echo $VCUBE_RANK $VCUBE_SIZE $VCUBE_NODES $(readlink /proc/self/fd/$VCUBE_FD)' 2>&1 | sort | tr '\n' ';')
t "--nodes 8-10: rank r bound to node 8 + r, VCUBE_NODES=8-10 ($got)" \
	[ "$got" = "0 3 8-10 /dev/vcube8;1 3 8-10 /dev/vcube9;2 3 8-10 /dev/vcube10;" ]
got=$(VCUBE_NODES=5,6 fake "$run" --nodes 0-1 sh -c 'echo "$VCUBE_RANK:${VCUBE_NODES-unset}"' 2>&1 | sort | tr '\n' ' ')
t "--nodes 0-1 is the identity: VCUBE_NODES unset, even if it was ($got)" [ "$got" = "0:unset 1:unset " ]
got=$(fake "$run" --rankfile "$d/rf" sh -c 'echo $VCUBE_RANK $VCUBE_NODES $(readlink /proc/self/fd/$VCUBE_FD)' 2>&1 | sort | tr '\n' ';')
t "--rankfile: rank 0 on 9, 1 on 4, 2 on 0 ($got)" \
	[ "$got" = "0 9,4,0 /dev/vcube9;1 9,4,0 /dev/vcube4;2 9,4,0 /dev/vcube0;" ]
fake "$run" --nodes 30-33 true > "$d/e" 2>&1
rc=$?
t "--nodes 30-33 on 32 nodes: exit 2, one line ($(cat "$d/e"))" sh -c "[ $rc = 2 ] &&
	[ \"\$(cat '$d/e')\" = \"vcube-run: --nodes '30-33': node 32 is past network default's 32 nodes (0-31)\" ]"
printf 'rank 0=localhost slot=3\nrank 1=localhost slot=40\n' > "$d/rf2"
fake "$run" --rankfile "$d/rf2" true > "$d/e" 2>&1
rc=$?
t "a rankfile's node 40 on 32 nodes: exit 2, its line ($(cat "$d/e"))" sh -c "[ $rc = 2 ] &&
	[ \"\$(cat '$d/e')\" = \"vcube-run: $d/rf2:2: node 40 is past network default's 32 nodes (0-31)\" ]"

# every rank fails to bind the same way: one line for the job, 126
fake sh -c "rm /dev/vcube[0-7]; '$run' -n 8 true" > "$d/e" 2>&1
rc=$?
t "nodes 0-7 missing: exit 126, one line ($(cat "$d/e"))" sh -c "[ $rc = 126 ] &&
	[ \"\$(cat '$d/e')\" = 'vcube-run: nodes 0-7 of network default: No such file or directory' ]"
fake sh -c "rm /dev/vcube3 /dev/vcube5 /dev/vcube6 && mkdir /dev/vcube5 /dev/vcube6 && '$run' -n 8 true" > "$d/e" 2>&1
rc=$?
t "two ways of failing: a line each, exit 126 ($(tr '\n' ';' < "$d/e"))" sh -c "[ $rc = 126 ] &&
	[ \"\$(tr '\n' ';' < '$d/e')\" = 'vcube-run: node 3 of network default: No such file or directory;vcube-run: nodes 5-6 of network default: Is a directory;' ]"
fake "$run" -n 4 /nonexistent/program > "$d/e" 2>&1
rc=$?
t "a program that is not there: exit 127, one line ($(cat "$d/e"))" sh -c "[ $rc = 127 ] &&
	[ \"\$(cat '$d/e')\" = 'vcube-run: /nonexistent/program: No such file or directory' ]"
fake "$run" --nodes 4-7 sh -c '[ $VCUBE_RANK = 2 ] && exit 7; exit 0'
rc=$?
t "the first failing rank's status, placed: 7 ($rc)" [ $rc = 7 ]
# a rank killed by a signal says nothing itself: vcube-run names it once
fake "$run" --nodes 4-7 sh -c '[ $VCUBE_RANK = 2 ] && kill -KILL $$; exit 0' > "$d/e" 2>&1
rc=$?
t "a rank killed by SIGKILL: exit 137, one line naming it ($(cat "$d/e"))" sh -c "[ $rc = 137 ] &&
	[ \$(grep -c . '$d/e') = 1 ] && grep -qx 'vcube-run: rank 2 (node 6, pid [0-9]*) was killed by signal 9 (Killed)' '$d/e'"

# --tag-output: prefixes, stderr, a last line with no newline
fake "$run" --tag-output -n 3 sh -c 'echo out $VCUBE_RANK; echo err $VCUBE_RANK >&2; printf "tail $VCUBE_RANK"' \
	> "$d/o" 2> "$d/e"
rc=$?
t "--tag-output: stdout's lines, each after [1,R]<stdout>: (exit $rc)" sh -c "[ $rc = 0 ] &&
	[ \"\$(sort '$d/o' | tr '\n' ';')\" = '[1,0]<stdout>:out 0;[1,0]<stdout>:tail 0;[1,1]<stdout>:out 1;[1,1]<stdout>:tail 1;[1,2]<stdout>:out 2;[1,2]<stdout>:tail 2;' ]"
t "--tag-output: stderr's after [1,R]<stderr>:, on stderr" \
	[ "$(sort "$d/e" | tr '\n' ';')" = '[1,0]<stderr>:err 0;[1,1]<stderr>:err 1;[1,2]<stderr>:err 2;' ]
# 8 ranks, 300 lines of 3000 bytes each, written in random pieces at once
cat > "$d/chat.py" <<'PY'
import os, random
r = os.environ["VCUBE_RANK"]
random.seed(int(r))
for i in range(300):
    line = (r * 3000 + "\n").encode()
    while line:
        k = random.randint(1, 700)
        os.write(1, line[:k])
        line = line[k:]
PY
fake "$run" --tag-output -n 8 python3 "$d/chat.py" > "$d/o"
rc=$?
bad=$(awk '{
	p = index($0, ">:"); r = substr($0, 4, index($0, "]") - 4); body = substr($0, p + 2)
	if (substr($0, 1, p + 1) != "[1," r "]<stdout>:" || length(body) != 3000 || body !~ ("^" r "+$")) bad++
	n[r]++
} END { for (r = 0; r < 8; r++) if (n[r] != 300) bad++; print bad + 0 }' "$d/o")
t "--tag-output: 8 ranks writing 300 lines each in pieces: every line whole, none lost (exit $rc, $bad bad)" \
	sh -c "[ $rc = 0 ] && [ '$bad' = 0 ]"
fake "$run" --tag-output -n 1 python3 -c 'import sys; sys.stdout.write("x" * 2500000)' > "$d/o"
got=$(awk '{ print length($0) }' "$d/o" | tr '\n' ' ')
t "--tag-output: a 2.5 MB line goes out in 1 MiB pieces, none lost ($got)" [ "$got" = "1048590 1048590 402862 " ]
# SIGINT to vcube-run: forwarded, and what the ranks say on it is relayed
fake sh -c "'$run' --tag-output -n 4 sh -c 'trap \"echo got INT \\\$VCUBE_RANK; exit 3\" INT; echo ready; while :; do sleep 0.1; done' > '$d/o' &
	p=\$!; for i in \$(seq 50); do [ \$(grep -c ready '$d/o') = 4 ] && break; sleep 0.1; done; kill -INT \$p; wait \$p"
rc=$?
t "--tag-output, SIGINT: exit 3 as the ranks, and their last words relayed ($rc, $(grep -c 'got INT' "$d/o") of 4)" \
	sh -c "[ $rc = 3 ] && [ \$(grep -c '^\[1,[0-3]\]<stdout>:got INT [0-3]\$' '$d/o') = 4 ]"
fake bash -c "'$run' --tag-output -n 2 yes | head -n 3 > '$d/o'; echo \${PIPESTATUS[0]} > '$d/e'"
t "--tag-output into a pipe closed early: the ranks get SIGPIPE, 141 ($(cat "$d/e"))" \
	sh -c "[ \"\$(cat '$d/e')\" = 141 ] && [ \$(grep -c '^\[1,[01]\]<stdout>:y\$' '$d/o') = 3 ]"
exit $fail
