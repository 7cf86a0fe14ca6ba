#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# libvcube's section-3 pages (docs/man/*.3) against its header: every
# public function of userspace/lib/include/vcube.h is in the NAME section of
# exactly one page, whose SYNOPSIS gives the header's prototype word for word;
# every page renders without a warning; and every EXAMPLE (.EX ... .EE)
# compiles against the real header.
. "$(dirname "$0")/lib.bash"
cd "$top" || exit 1

hdr=userspace/lib/include/vcube.h
shopt -s nullglob
pages=(docs/man/*.3)
shopt -u nullglob
[ ${#pages[@]} -gt 0 ] || { no "no docs/man/*.3 page"; exit 1; }

# C text without its /* */ comments and preprocessor lines
uncomment() {
	awk '{
		out = ""
		while (length($0)) {
			if (inc) {
				i = index($0, "*/")
				if (!i) { $0 = ""; break }
				$0 = substr($0, i + 2); inc = 0
			} else {
				i = index($0, "/*")
				if (!i) { out = out $0; break }
				out = out substr($0, 1, i - 1); $0 = substr($0, i + 2); inc = 1
			}
		}
		if (out !~ /^[ \t]*#/)
			print out
	}' "$@"
}

# Declarations one per line, blanks squeezed: what precedes each ';' after
# the last brace, for those that declare a vcube_ function.
protos() {
	tr '\n\t' '  ' | tr ';' '\n' | sed 's/.*[{}]//; s/  */ /g; s/^ //; s/ $//; s/( /(/g; s/ )/)/g' |
		grep -E '(^|[^a-z0-9_])vcube_[a-z0-9_]+ ?\('
}

hprotos=$(uncomment "$hdr" | protos)
funcs=$(grep -oE '(^|[^a-z0-9_])vcube_[a-z0-9_]+ ?\(' <<<"$hprotos" | grep -oE 'vcube_[a-z0-9_]+' | sort -u)
nfuncs=$(grep -c . <<<"$funcs")
[ "$nfuncs" -gt 0 ] && ok "$hdr declares $nfuncs functions" || no "no function found in $hdr"

# a man section's text: the lines from .SH $2 to the next .SH
section() {
	awk -v s="$2" '/^\.SH/ { on = ($0 ~ "^\\.SH \"?" s "\"?$"); next } on' "$1"
}

# ---- NAME: each function in exactly one page, and nothing else there
declare -A where
stray=()
for p in "${pages[@]}"; do
	for f in $(section "$p" NAME | grep -oE 'vcube_[a-z0-9_]+' | sort -u); do
		where[$f]="${where[$f]:-}${where[$f]:+ }$(basename "$p")"
		grep -qx "$f" <<<"$funcs" || stray+=("$(basename "$p"): $f")
	done
done
missing=() twice=()
for f in $funcs; do
	set -- ${where[$f]:-}
	if [ $# = 0 ]; then
		missing+=("$f")
	elif [ $# -gt 1 ]; then
		twice+=("$f ($*)")
	fi
done
[ ${#missing[@]} = 0 ] && ok "every function is in a page's NAME" ||
	no "${#missing[@]} functions in no page's NAME: ${missing[*]}"
[ ${#twice[@]} = 0 ] && ok "no function is in two pages' NAME" ||
	no "functions in more than one page's NAME: ${twice[*]}"
[ ${#stray[@]} = 0 ] && ok "every name in a NAME section is a function of vcube.h" ||
	no "names no function of vcube.h has: ${stray[*]}"

# ---- SYNOPSIS: the header's prototype, in the page that names it
# .B/.BI/.BR lines' arguments joined, as the alternating fonts print them
synopsis_text() {
	section "$1" SYNOPSIS | awk '/^\.(B|BI|BR|I|IR|RB|RI)( |$)/ {
		s = $0; sub(/^\.[A-Z]+ ?/, "", s); out = ""
		while (length(s)) {
			if (substr(s, 1, 1) == "\"") {
				s = substr(s, 2); i = index(s, "\"")
				if (!i) { out = out s; s = "" } else { out = out substr(s, 1, i - 1); s = substr(s, i + 1) }
			} else if (substr(s, 1, 1) == " ") {
				s = substr(s, 2)
			} else {
				i = index(s, " ")
				if (!i) { out = out s; s = "" } else { out = out substr(s, 1, i - 1); s = substr(s, i) }
			}
		}
		print out
	}' | grep -v '^#' | sed 's/\\-/-/g; s/\\e/\\/g'
}
declare -A synopsis
for p in "${pages[@]}"; do
	synopsis[$(basename "$p")]=$(synopsis_text "$p" | protos)
done
wrong=()
for f in $funcs; do
	set -- ${where[$f]:-}
	[ $# = 1 ] || continue
	h=$(grep -E "(^|[^a-z0-9_])$f ?\(" <<<"$hprotos")
	grep -qxF -- "$h" <<<"${synopsis[$1]}" || wrong+=("$f ($1)")
done
[ ${#wrong[@]} = 0 ] && ok "every page's SYNOPSIS has its functions' prototypes as in vcube.h" ||
	no "SYNOPSIS differs from vcube.h for: ${wrong[*]}"

# ---- the pages' frame
bad=()
for p in "${pages[@]}"; do
	b=$(basename "$p" .3)
	[ "$(head -n 1 "$p")" = '.\" SPDX-License-Identifier: GPL-2.0' ] || bad+=("$b: first line")
	grep -qE "^\.TH ${b^^} 3 " "$p" || bad+=("$b: .TH")
	section "$p" SYNOPSIS | grep -q '#include <vcube.h>' || bad+=("$b: #include")
	section "$p" SYNOPSIS | grep -q '^Link with' || bad+=("$b: Link with")
done
[ ${#bad[@]} = 0 ] && ok "${#pages[@]} pages: SPDX line, .TH, #include <vcube.h>, Link with" ||
	no "page frames: ${bad[*]}"

# ---- rendering: groff says nothing
if command -v man > /dev/null; then
	for p in "${pages[@]}"; do
		err=$(MANWIDTH=80 man --warnings -l -E UTF-8 "$p" 2>&1 > /dev/null)
		[ -z "$err" ] && ok "$(basename "$p") renders without warnings" ||
			no "$(basename "$p"): $(head -n 3 <<<"$err" | tr '\n' ' ')"
	done
else
	echo "skip - no man(1) (man-db): pages not rendered"
fi

# ---- examples compile (not linked)
if command -v cc > /dev/null; then
	n=0
	for p in "${pages[@]}"; do
		k=0
		while IFS= read -r -d '' ex; do
			k=$((k + 1))
			n=$((n + 1))
			err=$(printf '%s\n' "$ex" |
				cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iuserspace/lib/include \
					-Iinclude/uapi -c -o /dev/null -x c - 2>&1)
			[ $? = 0 ] && ok "$(basename "$p"): example $k compiles" ||
				no "$(basename "$p"): example $k: $(head -n 5 <<<"$err" | tr '\n' ' ')"
		done < <(awk '/^\.EE/ { on = 0; printf "%c", 0 } on; /^\.EX/ { on = 1 }' "$p" |
			sed 's/\\-/-/g; s/\\(aq/'"'"'/g; s/\\(dq/"/g; s/\\&//g; s/\\e/\\/g')
	done
	[ $n -gt 0 ] && ok "$n examples in all" || no "no page has an example"
else
	echo "skip - no cc: examples not compiled"
fi
exit $fail
