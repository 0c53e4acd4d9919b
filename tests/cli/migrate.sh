#!/usr/bin/env bash
# A store written by a schema 19 pgcliff (tests/migrate/v19.sql, the run of
# tests/migrate/v19.yaml: builds, a #define, a GUC, two scripts with
# statement latencies, stable warm-ups) is read and migrated by this one:
#  - read first, from a migrated copy in memory: every command of
#    commands.txt prints what the schema 19 pgcliff printed
#    (expected.txt), and the file is left as it was;
#  - then migrated in place by a command that writes (pull): schema 20,
#    the old JSON columns gone, their documents in the tables, and the
#    same output again, from the file and from the store it was pushed to.
# No server.
#   migrate.sh PGCLIFF SOURCE_DIR
set -u
PGCLIFF=$1
ROOT=$2
M=$ROOT/tests/migrate
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-migrate.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }
check_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"; }
q() { sqlite3 -batch -noheader "$1" "$2"; }

# what each command of commands.txt prints against the store DB
outputs() {
	grep -v '^#' "$M/commands.txt" | while read -r line; do
		rc=0
		# shellcheck disable=SC2086 # a command line of words
		out=$("$PGCLIFF" $line --db "$1" 2>&1) || rc=$?
		printf '$ pgcliff %s\n%s\nexit %d\n' "$line" "$out" "$rc"
	done
}

same_as_v19() {	# same_as_v19 WHAT DB
	outputs "$2" >"$TMP/got"
	if ! cmp -s "$M/expected.txt" "$TMP/got"; then
		fail "$1: not what schema 19 printed"
		diff "$M/expected.txt" "$TMP/got" | cut -c1-200 | head -20
	fi
}

sqlite3 "$TMP/v19.db" <"$M/v19.sql" || { echo "FAIL: v19.sql does not load"; exit 1; }
check_eq "the fixture's schema" "$(q "$TMP/v19.db" "PRAGMA user_version")" 19
before=$(sha256sum <"$TMP/v19.db")

same_as_v19 "read, migrated in memory" "$TMP/v19.db"
check_eq "reading left the file as it was" "$(sha256sum <"$TMP/v19.db")" "$before"

# push reads the store (migrated in memory) into a new one; pull from that
# one writes the store: migrated in place, the run already there by its uid
"$PGCLIFF" push --to "$TMP/pushed.db" --db "$TMP/v19.db" >"$TMP/push.out" 2>&1
check_eq "push exit" $? 0
"$PGCLIFF" pull --from "$TMP/pushed.db" --db "$TMP/v19.db" >"$TMP/pull.out" 2>&1
check_eq "pull (migrates the file) exit" $? 0
check_eq "schema after" "$(q "$TMP/v19.db" "PRAGMA user_version")" 20
check_eq "the old JSON columns dropped" \
	"$(q "$TMP/v19.db" "SELECT count(*) FROM pragma_table_info('variant') WHERE name IN ('gucs', 'settings', 'defines', 'pg_config', 'build')") $(q "$TMP/v19.db" "SELECT count(*) FROM pragma_table_info('point') WHERE name IN ('scripts', 'warmup')")" "0 0"
# their documents, as rows: what SQL can ask of a run now
check_eq "GUCs by variant" \
	"$(q "$TMP/v19.db" "SELECT group_concat(variant || ':' || name || '=' || value, ' ') FROM variant_setting WHERE kind = 'guc'")" "wm:work_mem=8MB"
check_eq "the #define" \
	"$(q "$TMP/v19.db" "SELECT group_concat(variant || ':' || name || '=' || value, ' ') FROM variant_setting WHERE kind = 'define'")" "locks64:NUM_XLOGINSERT_LOCKS=64"
check_eq "a setting the server reported" \
	"$(q "$TMP/v19.db" "SELECT value FROM variant_setting WHERE variant = 'wm' AND kind = 'setting' AND name = 'work_mem'")" 8MB
check_eq "pg_config of each variant" \
	"$(q "$TMP/v19.db" "SELECT count(DISTINCT variant) FROM variant_setting WHERE kind = 'pg_config' AND name = 'VERSION'")" 3
check_eq "builds: two, their compiler, the define's old value" \
	"$(q "$TMP/v19.db" "SELECT count(*), sum(compiler LIKE 'gcc%'), sum(json_extract(document, '\$.defines[0].was') = '8') FROM variant_build")" "2|2|1"
check_eq "scripts: 2 a point, weights 3 and 1" \
	"$(q "$TMP/v19.db" "SELECT count(*), sum(weight) FROM point_script")" "6|12"
check_eq "statements: 1 and 2 of them" \
	"$(q "$TMP/v19.db" "SELECT count(*) FROM point_statement")" 9
check_eq "warm-ups and their ticks" \
	"$(q "$TMP/v19.db" "SELECT count(*), sum((SELECT count(*) FROM point_warmup_tick t WHERE t.point_id = w.point_id) > 0) FROM point_warmup w")" "3|3"
check_eq "the same transactions" \
	"$(q "$TMP/v19.db" "SELECT sum(transactions) FROM point")" \
	"$(q "$TMP/v19.db" "SELECT sum(transactions) FROM point_script")"

same_as_v19 "migrated in place" "$TMP/v19.db"
same_as_v19 "pushed to a new store" "$TMP/pushed.db"

[ $FAILED = 0 ] && echo "PASS"
exit $FAILED
