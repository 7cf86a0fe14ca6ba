#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The tools' manual pages (docs/man/*.1, *.8): one for every tool built,
# rendered by man without a warning, and naming every long option the
# tool's --help lists; no page holds a control character.
. "$(dirname "$0")/lib.bash"
for bin in "$top"/build/bin/*; do
	tool=$(basename "$bin")
	page=$(ls "$top/docs/man/$tool".[18] 2>/dev/null | head -n 1)
	if [ -z "$page" ]; then
		no "$tool: no docs/man/$tool.1 or .8"
		continue
	fi
	err=$(MANWIDTH=80 man --warnings -l -E UTF-8 "$page" 2>&1 > /dev/null)
	[ -z "$err" ] && ok "$tool: $(basename "$page") renders cleanly" ||
		no "$tool: $(basename "$page"): $err"
	text=$(MANWIDTH=200 man -l -E UTF-8 "$page" 2>/dev/null | sed 's/‐//g')
	missing=
	for opt in $("$bin" --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
		printf '%s\n' "$text" | grep -qF -- "$opt" || missing="$missing $opt"
	done
	[ -z "$missing" ] && ok "$tool: every option of --help is in its page" ||
		no "$tool: options in --help but not in $(basename "$page"):$missing"
done
# a stray control character (a "\f" that Python or a shell turned into a
# form feed) renders as garbage rather than as a font change
bad=$(grep -lP '[\x00-\x08\x0b\x0c\x0e-\x1f]' "$top"/docs/man/* 2>/dev/null)
[ -z "$bad" ] && ok "no control characters in docs/man" || no "control characters in: $bad"
# a .TP tag is one line: a tag spread over font macros ('.BR links " ["
# then '.RB [ ...]') renders its first line as the tag, the rest as text
bad=$(for f in "$top"/docs/man/*.[18]; do
	awk -v f="${f##*/}" '/^\.TP/ { t = NR + 1 }
		NR == t + 1 && /^\.(RB|IR|BR|RI) (\[|.*\])/ { print f ":" NR }' "$f"
done)
[ -z "$bad" ] && ok "every .TP tag is one line" || no "a .TP tag runs over lines: $bad"
exit $fail
