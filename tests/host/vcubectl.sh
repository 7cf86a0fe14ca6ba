#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# vcubectl's command line on a sysfs-shaped fixture: text, JSON, usage
# errors. (In the VM the same commands run against the real module.)
. "$(dirname "$0")/lib.bash"
ctl=${VCUBECTL:-$top/build/bin/vcubectl}
fx=$(mktemp -d)
trap 'rm -rf "$fx"' EXIT

printf 'mesh\n' > "$fx/topology"; printf 'rows=1 cols=2\n' > "$fx/shape"
printf 'delta\n' > "$fx/profile"; printf '2\n' > "$fx/nodes"
printf '2\n' > "$fx/channels"; printf '1\n' > "$fx/diameter"; printf '7\n' > "$fx/seed"
for n in 0 1; do
	mkdir "$fx/vcube$n"
	printf '%s\n' $n > "$fx/vcube$n/node"; printf '0 %s\n' $n > "$fx/vcube$n/coords"
	printf '%s\n' $((1 - n)) > "$fx/vcube$n/neighbors"; printf '0\n' > "$fx/vcube$n/owner"
done
printf '31337\n' > "$fx/vcube1/owner"

out=$("$ctl" --sysfs "$fx" show)
[ "$out" = "mesh rows=1 cols=2 nodes 2 channels 2 diameter 1 profile delta seed 7" ] && ok "show text" || no "show text: $out"
out=$("$ctl" --sysfs "$fx")
[ "$out" = "mesh rows=1 cols=2 nodes 2 channels 2 diameter 1 profile delta seed 7" ] && ok "show is the default" || no "default: $out"
out=$("$ctl" --sysfs "$fx" -j show | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["nodes"], d["topology"], d["seed"])')
[ "$out" = "2 mesh 7" ] && ok "show json" || no "show json: $out"
out=$("$ctl" --sysfs "$fx" places)
[ "$out" = "node 0 coords 0 0 neighbors 1
node 1 coords 0 1 neighbors 0 owner 31337" ] && ok "places text" || no "places text: $out"
out=$("$ctl" --sysfs "$fx" --json places | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d), d[1]["neighbors"], d[1]["owner"])')
[ "$out" = "2 [0] 31337" ] && ok "places json" || no "places json: $out"

# -p: the same JSON, indented two spaces a level, a value a line
a=$("$ctl" --sysfs "$fx" -j places | python3 -c 'import json,sys; print(json.load(sys.stdin))')
b=$("$ctl" --sysfs "$fx" -p places | python3 -c 'import json,sys; print(json.load(sys.stdin))')
[ -n "$a" ] && [ "$a" = "$b" ] && ok "-p places: the same JSON as -j" || no "-p places: '$b' vs '$a'"
out=$("$ctl" --sysfs "$fx" -p places)
exp=$("$ctl" --sysfs "$fx" -j places | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), indent=2))')
[ "$out" = "$exp" ] && ok "-p places: indented as python's json.dumps(indent=2)" || no "-p places: $out"

t "--help exits 0" "$ctl" --help
t "help exits 0" "$ctl" help
t "route --help exits 0" "$ctl" route --help
"$ctl" --help | grep -q route && ok "--help lists route" || no "--help lists route"
"$ctl" frobnicate >/dev/null 2>&1; [ $? -eq 2 ] && ok "unknown command: 2" || no "unknown command"
"$ctl" --bogus >/dev/null 2>&1; [ $? -eq 2 ] && ok "unknown option: 2" || no "unknown option"
"$ctl" --sysfs "$fx" show extra >/dev/null 2>&1; [ $? -eq 2 ] && ok "extra argument: 2" || no "extra argument"
"$ctl" route 1 >/dev/null 2>&1; [ $? -eq 2 ] && ok "route needs two nodes" || no "route arity"
"$ctl" route 1 x >/dev/null 2>&1; [ $? -eq 2 ] && ok "route rejects junk" || no "route junk"
"$ctl" route -- -1 2 >/dev/null 2>&1; [ $? -eq 2 ] && ok "route rejects negatives" || no "route negative"
err=$("$ctl" --sysfs "$fx/none" show 2>&1); [ $? -eq 1 ] && grep -q "no vcube network is loaded" <<<"$err" \
	&& ok "no network: clear error" || no "no network: $err"
printf 'garbage\n' > "$fx/nodes"
"$ctl" --sysfs "$fx" show >/dev/null 2>&1; [ $? -eq 1 ] && ok "malformed sysfs: 1" || no "malformed sysfs"
# The netlink commands: the host has no vcube family, and bad usage is 2.
for c in topo links nodes reset monitor; do
	err=$("$ctl" $c 2>&1); rc=$?
	[ $rc -eq 1 ] && grep -q "no vcube network is loaded" <<<"$err" && ok "$c without the module: 1, clear error" ||
		no "$c without the module: $rc $err"
done
for c in links watch monitor; do t "$c --help exits 0" "$ctl" $c --help; done
"$ctl" monitor extra >/dev/null 2>&1; [ $? -eq 2 ] && ok "monitor with an argument: 2" || no "monitor extra argument"
"$ctl" monitor --count x >/dev/null 2>&1; [ $? -eq 2 ] && ok "monitor --count junk: 2" || no "monitor --count junk"
"$ctl" m --help | grep -q 'usage: vcubectl \[-j\] monitor' && ok "m is monitor" || no "m is not monitor"
"$ctl" links --sort fastest >/dev/null 2>&1; [ $? -eq 2 ] && ok "links --sort junk: 2" || no "links --sort junk"
"$ctl" links --top -3 >/dev/null 2>&1; [ $? -eq 2 ] && ok "links --top negative: 2" || no "links --top negative"
"$ctl" links extra >/dev/null 2>&1; [ $? -eq 2 ] && ok "links with an ID that is not a number: 2" || no "links extra argument"
"$ctl" watch --interval 0 >/dev/null 2>&1; [ $? -eq 2 ] && ok "watch --interval 0: 2" || no "watch --interval 0"
"$ctl" watch --interval x >/dev/null 2>&1; [ $? -eq 2 ] && ok "watch --interval junk: 2" || no "watch --interval junk"
"$ctl" reset now >/dev/null 2>&1; [ $? -eq 2 ] && ok "reset extra argument: 2" || no "reset extra argument"
"$ctl" --help | grep -q watch && ok "--help lists watch" || no "--help lists watch"
# a subcommand's usage error: one line naming it and what is wrong, then
# where to look (docs/tools.md), exit 2; never the whole usage
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	err=$("$ctl" $args 2>&1 > /dev/null)
	rc=$?
	[ $rc = 2 ] && [ "$err" = "$want
try 'vcubectl ${args%% *} --help'" ] && ok "vcubectl $args: '$want', exit 2" ||
		no "vcubectl $args: exit $rc, '$err'"
done <<'EOF'
links --bogus|vcubectl links: unrecognized option '--bogus'
links --interval 2|vcubectl links: --interval is not one of its options
links --svg x.svg --top 3|vcubectl links: --svg draws every channel: no --sort, --top or ID with it
links --svg x.svg 7|vcubectl links: --svg draws every channel: no --sort, --top or ID with it
watch 3|vcubectl watch: '3': it takes no arguments
route 1|vcubectl route: SRC and DST are needed
route 1 2 3|vcubectl route: '3': one argument too many
show extra|vcubectl show: it takes no arguments
monitor x|vcubectl monitor: 'x': it takes no arguments
trace --bogus|vcubectl trace: unrecognized option '--bogus'
EOF
# a network that is not there is named, not "no network loaded"; a name
# past the module's 15 characters is refused by the module's rule, not
# netlink's "Attribute failed policy validation" (issue 52's second review)
err=$(VCUBE_SYSFS_ROOT="$fx/none" "$ctl" --net nosuch show 2>&1 > /dev/null)
[ $? = 1 ] && [ "$err" = "vcubectl: show: no network named nosuch (vcubectl net show lists them)" ] &&
	ok "--net nosuch show: names it, exit 1" || no "--net nosuch show: '$err'"
err=$("$ctl" net add abcdefghijklmnop topology=hypercube dim=2 2>&1 > /dev/null)
[ $? = 1 ] && [ "$err" = "vcubectl: net add: bad name abcdefghijklmnop: 1 to 15 of a-z A-Z 0-9 _ -, a letter first" ] &&
	ok "net add with a 16-character name: the module's rule, exit 1" || no "net add long name: '$err'"
exit $fail
