#!/usr/bin/env bash
# pgsource.sh DIR: print the directory of PostgreSQL 15's Debian source
# package under DIR, fetching it first (`apt-get source postgresql-15`)
# when it is not there.  Adds a deb-src entry for the system's Debian
# release when apt has none (needs root then).  Progress goes to stderr.
set -euo pipefail
dest=$1
mkdir -p "$dest"
chmod 755 "$dest"

find_tree() {
	local d
	for d in "$dest"/postgresql-15-*/; do
		[ -f "$d/configure" ] && { echo "${d%/}"; return 0; }
	done
	return 1
}

if tree=$(find_tree); then
	echo "$tree"
	exit 0
fi

has_deb_src() {
	grep -qsE '^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
	grep -qsE '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources
}

if ! has_deb_src; then
	[ "$(id -u)" = 0 ] || { echo "pgsource: no deb-src in apt's sources, and adding one needs root" >&2; exit 1; }
	. /etc/os-release
	uri=$(grep -hsE '^URIs:.*/debian/?$' /etc/apt/sources.list.d/*.sources | head -1 | awk '{print $2}')
	uri=${uri:-http://deb.debian.org/debian}
	echo "pgsource: adding deb-src $uri $VERSION_CODENAME main" >&2
	# deb822, signed like the system's own entries
	cat >/etc/apt/sources.list.d/pgcliff-deb-src.sources <<SRC
Types: deb-src
URIs: $uri
Suites: $VERSION_CODENAME
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt-get update -qq >&2
fi
work=$(mktemp -d "$dest/fetch.XXXXXX")
if ! (cd "$work" && apt-get source -qq postgresql-15) >&2; then
	# the entry may be there without its index yet
	apt-get update -qq >&2
	(cd "$work" && apt-get source -qq postgresql-15) >&2
fi
for d in "$work"/postgresql-15-*/; do
	mv "$d" "$dest/"
done
rm -rf "$work"
chmod -R go+rX "$dest"
find_tree
