# SPDX-License-Identifier: GPL-2.0
# Sourced: files taken from Debian's archive at test time, never copied
# into the tree (scripts/mpi-foreign.sh, scripts/mpich-tests.sh).
#   debian_archive              the archive apt uses (VCUBE_DEBIAN=URL
#                               overrides): "URIs:" of a deb822 source, or
#                               a "deb URL" line
#   debian_fetch POOL SHA FILE  fetch POOL (a path under the archive) into
#                               FILE and check its sha256; 0 or a message
#                               on stderr and 1

debian_archive() {
	local u
	[ -n "${VCUBE_DEBIAN:-}" ] && { echo "${VCUBE_DEBIAN%/}"; return; }
	u=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
	    awk '/^URIs:/ && $2 ~ /\/debian\/?$/ { print $2; exit }')
	[ -n "$u" ] || u=$(cat /etc/apt/sources.list 2>/dev/null |
	    awk '$1 == "deb" && $2 ~ /\/debian\/?$/ { print $2; exit }')
	echo "${u:-http://deb.debian.org/debian}" | sed 's,/*$,,'
}

debian_fetch() {
	local url
	url=$(debian_archive)/$1
	command -v curl > /dev/null || { echo "curl is missing (make deps)" >&2; return 1; }
	echo "fetching $url (once)" >&2
	curl -fsS --retry 3 -o "$3" "$url" || { echo "cannot fetch $url" >&2; return 1; }
	echo "$2  $3" | sha256sum -c --quiet - > /dev/null 2>&1 ||
		{ echo "$url: sha256 is not $2" >&2; return 1; }
}
