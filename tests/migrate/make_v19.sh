#!/usr/bin/env bash
# Writes tests/migrate/v19.sql and expected.txt with a pgcliff whose store
# schema is 19 (main at 1397ebf, before the documents became tables): the
# run of v19.yaml, dumped as SQL, and what that pgcliff printed for each
# line of commands.txt.  Run once, by hand; the migration test
# (tests/cli/migrate.sh) then checks that today's pgcliff, reading and
# migrating that store, prints the same.
#   make_v19.sh PGCLIFF_V19 PG_SOURCE_TREE BUILD_CACHE
set -euo pipefail
old=$1 src=$2 cache=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$old" --version | grep -q 'store schema 19' || {
	echo "make_v19.sh: $old does not write store schema 19" >&2
	exit 64
}
cd "$tmp"
cp "$here/v19.yaml" .
"$old" run v19.yaml -r --seed 19 --source "$src" --build-cache "$cache" \
	--db "$tmp/v19.db" -q
# .dump leaves out the schema version, which pgcliff keeps in user_version
{
	sqlite3 "$tmp/v19.db" .dump
	echo "PRAGMA user_version = $(sqlite3 "$tmp/v19.db" 'PRAGMA user_version');"
} >"$here/v19.sql"
: >"$here/expected.txt"
grep -v '^#' "$here/commands.txt" | while read -r line; do
	# shellcheck disable=SC2086 # a command line of words
	rc=0
	out=$("$old" $line --db "$tmp/v19.db" 2>&1) || rc=$?
	printf '$ pgcliff %s\n%s\nexit %d\n' "$line" "$out" "$rc" >>"$here/expected.txt"
done
