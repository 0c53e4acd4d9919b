#!/usr/bin/env bash
# pgcliff installs: `cmake --install` into a DESTDIR puts the binary, the
# example recipes and the documents in place, the installed binary runs
# and checks every installed recipe; `cpack -G DEB` makes a package whose
# Depends names the runtime libraries and which holds the same tree; a
# DESTDIR that cannot be written stops the install with an error.
# usage: install.sh BUILD_DIR SOURCE_DIR
set -u
BUILD=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-install.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }

DESTDIR=$TMP/root cmake --install "$BUILD" --prefix /usr >"$TMP/log" 2>&1 ||
	fail "cmake --install: $(tail -3 "$TMP/log")"
bin=$TMP/root/usr/bin/pgcliff
for f in usr/bin/pgcliff usr/share/pgcliff/recipes/txid_current.yaml \
	usr/share/pgcliff/recipes/patches/extra_work.patch \
	usr/share/doc/pgcliff/README.md \
	usr/share/doc/pgcliff/schemas/recipe/REFERENCE.md \
	usr/share/doc/pgcliff/report/FORMATS.md \
	usr/share/man/man1/pgcliff.1 usr/share/man/man1/pgcliff-run.1 \
	usr/share/man/man1/pgcliff-recipe-check.1 \
	usr/share/bash-completion/completions/pgcliff; do
	[ -e "$TMP/root/$f" ] || fail "not installed: /$f"
done
# zsh's completion where zsh looks: site-functions under the prefix, or
# Debian's vendor-completions for a /usr install
ls "$TMP"/root/usr/share/zsh/*/_pgcliff >/dev/null 2>&1 || fail "no zsh completion installed"
# a man page for every command, and man reads the installed ones
while read -r c; do
	[ "$c" = help ] && continue
	[ -e "$TMP/root/usr/share/man/man1/pgcliff-${c// /-}.1" ] || fail "no man page for $c"
done < <("$TMP/root/usr/bin/pgcliff" help | sed -n '/^commands:/,/^$/p' |
	sed -n 's/^  \([a-z]*\( [a-z]*\)\?\)  .*/\1/p' | sed 's/ *$//')
if command -v man >/dev/null; then
	MANWIDTH=80 man -l "$TMP/root/usr/share/man/man1/pgcliff-run.1" 2>/dev/null | grep -q -- "--until-decided" ||
		fail "man pgcliff-run: no --until-decided"
fi
# the installed bash completion completes the installed commands
bash -c 'source "$1"; COMP_WORDS=(pgcliff gat); COMP_CWORD=1; _pgcliff; [ "${COMPREPLY[*]}" = gate ]' _ \
	"$TMP/root/usr/share/bash-completion/completions/pgcliff" || fail "the installed bash completion"
# every document the installed README links to is installed beside it
doc=$TMP/root/usr/share/doc/pgcliff
for link in $(grep -oE '\]\([^)#]+\.md\)' "$doc/README.md" | sed 's/^](//; s/)$//'); do
	[ -e "$doc/$link" ] || fail "the installed README links to a missing $link"
done
"$bin" --version >"$TMP/v" 2>&1 || fail "the installed binary does not run"
grep -qE '^pgcliff [0-9.]+ \(.+\)$' "$TMP/v" || fail "--version: $(cat "$TMP/v")"
grep -qE '^libpq [0-9]+\.[0-9]+, SQLite [0-9.]+, store schema [0-9]+$' "$TMP/v" ||
	fail "--version: $(cat "$TMP/v")"
# (the recipes of builds from source need a tree: any directory will do
# for the check)
"$bin" recipe check "$TMP"/root/usr/share/pgcliff/recipes/*.yaml --source "$TMP" >"$TMP/c" 2>&1 ||
	fail "recipe check of the installed recipes: $(tail -3 "$TMP/c")"

if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null; then
	(cd "$TMP" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$TMP/pkg") >"$TMP/log" 2>&1 ||
		fail "cpack -G DEB: $(tail -3 "$TMP/log")"
	deb=$(ls "$TMP"/pkg/*.deb 2>/dev/null | head -1)
	if [ -n "$deb" ]; then
		dpkg-deb -I "$deb" >"$TMP/info"
		for lib in libpq5 libsqlite3-0 libyaml-0-2 libjansson4 libssl3; do
			grep -q "^ Depends:.*$lib" "$TMP/info" || fail "the package's Depends lacks $lib: $(grep Depends "$TMP/info")"
		done
		dpkg-deb -c "$deb" >"$TMP/files"
		grep -q '\./usr/bin/pgcliff$' "$TMP/files" || fail "the package lacks /usr/bin/pgcliff"
		grep -q '\./usr/share/pgcliff/recipes/txid_current.yaml$' "$TMP/files" ||
			fail "the package lacks the recipes"
		grep -q '\./usr/share/man/man1/pgcliff-gate.1$' "$TMP/files" ||
			fail "the package lacks the man pages"
		grep -q '\./usr/share/zsh/vendor-completions/_pgcliff$' "$TMP/files" ||
			fail "the package lacks the zsh completion"
	else
		fail "cpack made no .deb"
	fi
else
	echo "skip: no cpack or dpkg-deb"
fi

# bad input: a DESTDIR that is a file
touch "$TMP/file"
if DESTDIR=$TMP/file cmake --install "$BUILD" --prefix /usr >"$TMP/log" 2>&1; then
	fail "an install into a file succeeded"
else
	grep -qi "error\|cannot\|failed" "$TMP/log" || fail "no message: $(tail -3 "$TMP/log")"
fi
[ $FAILED = 0 ] && echo PASS
exit $FAILED
