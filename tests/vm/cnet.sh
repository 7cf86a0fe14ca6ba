#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The CM-5's control network (Ponnusamy et al. sec. 2, Table 7) through the
# module: its parameters and their refusals; Table 7's costs to the
# nanosecond, with every operand and message checked; the ioctl's refusals;
# a network without one; a member killed before a barrier (the others get
# EDEADLK and nothing stays held); a member interrupted by a signal; the
# barrier beside the data network's in vcube-bench; the counters over
# netlink; the Gaussian elimination built on it.
. "$(dirname "$0")/lib.sh"
bench=$VCUBE_TOP/build/bin/vcube-bench
cnet=$VCUBE_TOP/build/tests/vm/cnet
out=$(mktemp)
trap 'rm -f "$out"' EXIT

status() { [ "$2" = "$1" ] && { [ -z "${3:-}" ] || grep -q -- "$3" "$out"; }; }
# run the test program; its "not ok" lines are shown
prog() { vcube-run "$@" > "$out" 2>&1; local rc=$?; grep -a '^not ok' "$out" | sed 's/^/# /'; return $rc; }

unload
if err=$(insmod "$VCUBE_KO" profile=cm5 nodes=8 cnet_word_ns=2000000000 2>&1); then
	no "cnet_word_ns=2000000000 was accepted"
	rmmod vcube
else
	msg=$(dmesg | grep vcube | tail -n 1)
	check "cnet_word_ns past 1 s is refused ($msg; $err)" grep -q 'cnet_word_ns=2000000000 is out of range' <<< "$msg"
fi

usenet profile=cm5 nodes=32 && {
	check "cm5: the control network's costs in sysfs (6000 42000 137000)" \
		[ "$(attr cnet_word_ns) $(attr cnet_double_ns) $(attr cnet_bcast_ns)" = "6000 42000 137000" ]
	prog -n 32 "$cnet" times
	rc=$?
	check "cm5 32: Table 7's operations to the ns, operands and message intact, refusals ($(grep -c '^ok' "$out") checks)" \
		[ $rc = 0 ]
	vcube-run -n 32 "$bench" barrier --csv -q --algo all --skew 0 --reps 2 > "$out"
	rc=$?
	cost=$(awk -F, '$1 == "cm5_control" { print $4 }' "$out")
	tree=$(awk -F, '$1 == "tree" { print $4 }' "$out")
	check "cm5 32: --barrier all lists cm5_control at $cost ns, the data network's tree at $tree ns" \
		[ $rc = 0 -a "$cost" = 6000.0 ]
	vcube-run -n 32 "$bench" reduce --csv -q --sizes 8,64 --reps 1 > "$out"
	rc=$?
	check "cm5 32: --reduce sets cm5_control beside crossover and tree, every sum right" \
		[ $rc = 0 -a "$(awk -F, '$1 == "cm5_control" && $6 == 1' "$out" | wc -l)" = 2 ]
	check "cm5 32: a sum of one u64 on the control network takes 2 words (12 us)" \
		[ "$(awk -F, '$1 == "cm5_control" && $2 == 8 { print $3 }' "$out")" = 12000 ]
	vcube-run -n 32 "$bench" bcast --csv -q --sizes 520,4104 --reps 1 > "$out"
	rc=$?
	check "cm5 32: --bcast, tree and cm5_control, every byte right; 520 bytes in 917 us" \
		[ $rc = 0 -a "$(awk -F, '$1 == "cm5_control" && $2 == 520 && $6 == 1 { print $3 }' "$out")" = 917000 ]
	vcubectl reset > /dev/null
	vcube-run -n 32 "$cnet" times > /dev/null 2>&1
	vcubectl -j cnet > "$out"
	check "vcubectl cnet: the counters apart from the links ($(tr -d '\n' < "$out" | cut -c1-160))" \
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["present"] and d["barriers"] == 7 and d["reductions"] == 4 and d["broadcasts"] == 1 and d["busy_ns"] > 0' "$out"
	vcubectl cnet > "$out"
	check "vcubectl cnet in text" grep -q 'broadcasts' "$out"
	vcube-run -n 32 "$bench" ge --sizes 64 --elem-ns 2046 --json -q > "$out"
	rc=$?
	check "cm5 32: Gaussian elimination 64 x 65 on the control network, the solution right" \
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["results"][0]; assert r["ok"] and r["reduce_double_ns"] == 42000 and r["reduce_int_ns"] == 6000 and r["bcast_ns"] == 917000' "$out"
	vcube-run -n 32 "$bench" ge --algo tree --sizes 64 --csv -q > "$out"
	rc=$?
	check "cm5 32: the same elimination over the data network (the ablation)" \
		[ $rc = 0 -a "$(awk -F, '$1 == "tree" { print $NF }' "$out")" = 1 ]
}

usenet profile=cm5 nodes=8 cnet_word_ns=5000 && {
	check "cnet_word_ns=5000 overrides the profile's" [ "$(attr cnet_word_ns)" = 5000 ]
	vcube-run -n 8 "$cnet" kill > "$out" 2>&1
	rc=$?
	killed() { [ $rc = 137 ] && [ "$(grep -c '^ok - rank 0: a member died' "$out")" = 1 ] && ! grep -q '^not ok' "$out"; }
	check "a member killed before the barrier: the others get EDEADLK (exit $rc)" killed
	said() { dmesg | grep -q 'waits .* in a control-network operation of nodes 0..7, 7 of them in'; }
	check "the kernel says who waited in the control network" said
	check "nothing stays bound" [ "$(cat "$(sysdir)"/vcube*/owner | sort -u)" = 0 ]
	vcube-run -n 8 "$bench" barrier --csv -q --algo cm5_control --skew 0 --reps 1 > "$out"
	rc=$?
	check "the next run goes through, at the overridden cost (5 us)" \
		[ $rc = 0 -a "$(awk -F, '$1 == "cm5_control" { print $4 }' "$out")" = 5000.0 ]
	prog -n 2 "$cnet" signal
	rc=$?
	check "a signal while waiting: EINTR, and entering again completes" [ $rc = 0 ]
}

usenet profile=cm5 nodes=8 max_msg=64 && {
	prog -n 8 "$cnet" chunks
	check "max_msg=64: 100-element sums and scans in pieces, at the cost of 100 elements" [ $? = 0 ]
}

usenet topology=hypercube dim=3 profile=ipsc860 && {
	check "ipsc860: no control network in sysfs" [ "$(attr cnet_word_ns)" = 0 ]
	prog -n 8 "$cnet" absent
	check "ipsc860: EOPNOTSUPP, and cm5_control unusable" [ $? = 0 ]
	vcube-run -n 8 "$bench" barrier -q --algo all --skew 0 --reps 1 > "$out"
	rc=$?
	check "ipsc860: --barrier all leaves cm5_control out" [ $rc = 0 -a "$(grep -c cm5_control "$out")" = 0 ]
	vcube-run -n 8 "$bench" barrier -q --algo cm5_control > "$out" 2>&1
	check "ipsc860: --barrier cm5_control is refused (exit 2)" status 2 $? "control network"
	vcubectl -j cnet > "$out"
	check "vcubectl cnet: present 0" python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["present"] == 0' "$out"
}
nonet
exit $fail
