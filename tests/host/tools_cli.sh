#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The habits every tool shares (docs/tools.md): -V and --version print
# "TOOL (vcube) VERSION", the module's version too; -h prints the usage on
# stdout and nothing on stderr; a bad option is one line under the tool's
# own name and a pointer to --help, exit 2; vcubectl takes ip's prefixes.
. "$(dirname "$0")/lib.bash"
version=$(cat "$top/VERSION")
for tool in vcube-bench vcube-chart vcube-run vcube-sim vcubectl; do
	bin=$top/build/bin/$tool
	for v in -V --version; do
		out=$("$bin" $v 2>&1)
		rc=$?
		[ $rc = 0 ] && [ "$out" = "$tool (vcube) $version" ] &&
			ok "$tool $v: $out" || no "$tool $v: exit $rc, '$out'"
	done
	err=$("$bin" -h 2>&1 > /dev/null)
	rc=$?
	[ $rc = 0 ] && [ -z "$err" ] && [ -n "$("$bin" -h)" ] &&
		ok "$tool -h: usage on stdout, exit 0" || no "$tool -h: exit $rc, stderr '$err'"
	err=$("$bin" --bogus 2>&1 > /dev/null)
	rc=$?
	want="$tool: unrecognized option '--bogus'
try '$tool --help'"
	[ $rc = 2 ] && [ "$err" = "$want" ] && ok "$tool --bogus: exit 2, one line and where to look" ||
		no "$tool --bogus: exit $rc, '$err'"
	# -p is vcubectl's --pretty; no other tool gives it another meaning
	[ $tool = vcubectl ] && continue
	err=$("$bin" -p x.svg 2>&1 > /dev/null)
	rc=$?
	[ $rc = 2 ] && [ "$(head -n 1 <<< "$err")" = "$tool: invalid option -- 'p'" ] &&
		ok "$tool -p: not an option here (vcubectl's --pretty)" || no "$tool -p: exit $rc, '$err'"
done
# no network loaded (the host): one wording, exit 1, in every tool that reads it
if [ ! -e /sys/class/vcube ]; then
	for cmd in "vcube-run -n 2 true" "vcube-chart pex" "vcubectl links"; do
		err=$("$top"/build/bin/$cmd 2>&1 > /dev/null)
		rc=$?
		[ $rc = 1 ] && [[ "$err" == "${cmd%% *}: "*"no vcube network is loaded (insmod vcube.ko ...)" ]] &&
			ok "$cmd, no module: exit 1, '$err'" || no "$cmd, no module: exit $rc, '$err'"
	done
fi
# vcube-chart's timeline options, checked before it looks for a network
chart=$top/build/bin/vcube-chart
for bad in "--from 5 pex|--from is for --timeline" "--until 9 pex|--until is for --timeline" \
	"--timeline-nodes 0-3 pex|--timeline-nodes is for --timeline" \
	"--timeline T --from 5 --until 5 pex|--from 5 is not before --until 5" \
	"--timeline T --timeline-nodes 3-1 pex|--timeline-nodes '3-1': not a node list" \
	"--timeline T --timeline-nodes 1,2,1 pex|--timeline-nodes '1,2,1': node 1 twice" \
	"--timeline T --until 0 pex|bad --until '0'" "--timeline T --from x pex|bad --from 'x'"; do
	d=$(mktemp -d)
	args=${bad%%|*}
	# shellcheck disable=SC2086
	err=$("$chart" ${args//T/$d/t.svg} 2>&1 > /dev/null)
	rc=$?
	rm -rf "$d"
	[ $rc = 2 ] && [ "$(grep -c . <<< "$err")" = 1 ] && [[ "$err" == "vcube-chart: ${bad#*|}"* ]] &&
		ok "vcube-chart $args: exit 2, one line" || no "vcube-chart $args: exit $rc, '$err'"
done
grep -q "^MODULE_VERSION(VCUBE_VERSION);" "$top/kernel/main.c" &&
	grep -q 'VCUBE_VERSION=.*VERSION' "$top/Kbuild" &&
	ok "the module's MODULE_VERSION comes from VERSION too" ||
	no "the module has no MODULE_VERSION from VERSION"

# vcubectl: the first command the word starts, as ip does
ctl=$top/build/bin/vcubectl
for w in "tr trace" "t topo" "l links" "wi windows" "re reset" "ro route"; do
	set -- $w
	out=$("$ctl" "$1" --help 2>&1)
	case "$out" in
	*"vcubectl [-j] $2"* | *"vcubectl $2"*) ok "vcubectl $1 is $2" ;;
	*) no "vcubectl $1: '$out'" ;;
	esac
done
err=$("$ctl" zz 2>&1 > /dev/null)
rc=$?
[ $rc = 2 ] && [ "$err" = "vcubectl: unknown command 'zz'
try 'vcubectl --help'" ] && ok "vcubectl zz: unknown, exit 2" || no "vcubectl zz: exit $rc, '$err'"
exit $fail
