#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every command block of the README and docs/ is run by a test as written,
# or says beside it, where a reader sees it, that the tests do not run it
# and why (scripts/doc-cmds.py check). Each fault the check looks for is
# first planted in a scratch document, to show it is caught.
. "$(dirname "$0")/lib.bash"
cd "$top" || exit 1
dc=scripts/doc-cmds.py
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

out=$($dc check README.md docs/*.md 2>&1)
t "README.md and docs/*.md: every command block marked, each run one named by its test ($out)" [ -z "$out" ]
n=$($dc list README.md docs/*.md | grep -c '"how": "run"')
t "of them, $n blocks run by tests" [ "$n" -ge 15 ]

mkdir -p "$d/tests"
printf '# runs %s\nscripts/doc-cmds.py get X.md named\n' "it" > "$d/tests/t.sh"
plant() {	# WHAT WANT: a document from stdin must fail saying WANT
	cat > "$d/doc.md"
	out=$(cd "$d" && python3 "$top/$dc" check doc.md 2>&1)
	t "caught: $1 ($out)" grep -q -- "$2" <<< "$out"
}
printf 'Text.\n\n    make things\n' | plant "a block with no marker" "no \"<!-- cmds"
printf '<!-- cmds other: run tests/t.sh -->\n\n    make things\n' |
	plant "a run block its test does not name" "does not name other"
printf '<!-- cmds named: run tests/none.sh -->\n\n    make things\n' |
	plant "a run block whose test does not exist" "does not exist"
printf 'Text.\n\n<!-- cmds x: not run -->\n\n    make things\n\nMore text.\n' |
	plant "a not-run block nobody explains" "does not say"
printf '<!-- cmds named: run tests/t.sh -->\n\n    a\n\n<!-- cmds named: run tests/t.sh -->\n\n    b\n' |
	plant "an id twice" "id named again"
printf 'Text.\n\n<!-- cmds x: not run -->\n\n    make things\n\nThis is not run by the tests: it needs a CM-5.\n' > "$d/doc.md"
out=$(cd "$d" && python3 "$top/$dc" check doc.md 2>&1)
t "a not-run block explained beside it passes ($out)" [ -z "$out" ]
printf '<!-- cmds named: run tests/t.sh -->\n\n    one \\\n        two  # three\n    four\n\n```sh\nnot a block of the doc\n```\n' > "$d/doc.md"
t "get joins a continued line, as the shell would" \
	[ "$(cd "$d" && python3 "$top/$dc" get doc.md named)" = "$(printf 'one     two  # three\nfour')" ]
out=$(cd "$d" && python3 "$top/$dc" check doc.md 2>&1)
t "a fenced sh block is a command block too ($out)" grep -q "no \"<!-- cmds" <<< "$out"
t "get of an unknown id fails" sh -c "! python3 '$top/$dc' get README.md no-such-block 2> /dev/null"
exit $fail
