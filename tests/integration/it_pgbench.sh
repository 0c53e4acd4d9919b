#!/usr/bin/env bash
# pgbench parity on a real server (started by pgcliff's cluster code):
# - `pgcliff init` builds the same tables, rows, keys and partitions as
#   pgbench -i with the same options (pgbench of the same bindir is the
#   reference);
# - a recipe with init: and the tpcb-like builtin keeps the TPC-B
#   invariants: the history's deltas add up to the change of every
#   balance total, and every transaction left one history row;
# - builtins with weights store their per-script and -r statement figures.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper
bindir=$(pg_config --bindir 2>/dev/null)
[ -x "$bindir/pgbench" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)

coproc HELPER { exec "$helper"; }
read -r sockdir user spid <&"${HELPER[0]}" || fail "cluster_helper did not start"
conn="host=$sockdir user=$user"
last_run_id() { sql "SELECT max(id) FROM run"; }
psql_() { psql -X -A -t -v ON_ERROR_STOP=1 -h "$sockdir" -U "$user" "$@"; }
psql_ -d postgres -c "CREATE DATABASE a" -c "CREATE DATABASE b" >/dev/null

# the same options to both
opts=(-s 2 -F 90 --partitions 3 --partition-method hash --foreign-keys --unlogged-tables)
"$bindir/pgbench" -i "${opts[@]}" -h "$sockdir" -U "$user" a >"$TMP/pgbench.out" 2>&1 \
	|| fail "pgbench -i failed: $(tail -3 "$TMP/pgbench.out")"
"$PGCLIFF" init "${opts[@]}" "$conn dbname=b" >"$TMP/init.out" 2>"$TMP/init.err"
check_eq "pgcliff init exit" $? 0
grep -q "^creating 3 partitions...$" "$TMP/init.err" || fail "no partition progress line"
grep -q "^done in [0-9.]* s (drop tables .*foreign keys [0-9.]* s).$" "$TMP/init.err" \
	|| fail "no summary line: $(tail -1 "$TMP/init.err")"

# what the two databases hold, table by table, with the definitions
describe='
SELECT string_agg(x, E"\n" ORDER BY x) FROM (
  SELECT c.relname || ":" || c.relkind::text || ":" || c.relpersistence::text || ":" ||
         coalesce(array_to_string(c.reloptions, ","), "") || ":" ||
         coalesce(pg_get_expr(c.relpartbound, c.oid), "") AS x
    FROM pg_class c WHERE c.relname LIKE "pgbench%"
  UNION ALL
  SELECT table_name || "." || column_name || " " || data_type || " " ||
         coalesce(character_maximum_length::text, "") || " " || is_nullable
    FROM information_schema.columns WHERE table_name LIKE "pgbench%"
  UNION ALL
  SELECT conrelid::regclass || " " || conname || " " || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE conrelid::regclass::text LIKE "pgbench%"
  UNION ALL
  SELECT "accounts " || count(*) || " " || sum(bid) || " " || sum(abalance) || " " ||
         md5(string_agg(aid || "," || bid || "," || abalance || "," || filler, ";" ORDER BY aid))
    FROM pgbench_accounts
  UNION ALL
  SELECT "tellers " || md5(string_agg(tid || "," || bid || "," || tbalance || "," ||
         coalesce(filler, "-"), ";" ORDER BY tid)) FROM pgbench_tellers
  UNION ALL
  SELECT "branches " || md5(string_agg(bid || "," || bbalance || "," ||
         coalesce(filler, "-"), ";" ORDER BY bid)) FROM pgbench_branches
  UNION ALL
  SELECT "history " || count(*) FROM pgbench_history) s'
describe=${describe//\"/\'}
a=$(psql_ -d a -c "$describe")
b=$(psql_ -d b -c "$describe")
if [ "$a" = "$b" ] && [ -n "$a" ]; then
	echo "ok: pgcliff init = pgbench -i ($(wc -l <<<"$a") facts)"
else
	fail "pgcliff init differs from pgbench -i:"; diff <(echo "$a") <(echo "$b") | head -20
fi
# server-side generation gives the same rows as client-side
"$PGCLIFF" init -s 2 -I dtGvp "$conn dbname=b" 2>/dev/null
"$bindir/pgbench" -i -s 2 -I dtgvp -h "$sockdir" -U "$user" a >/dev/null 2>&1
b2=$(psql_ -d b -c "$describe" | md5sum)
a2=$(psql_ -d a -c "$describe" | md5sum)
[ "$(psql_ -d b -c "$describe" | wc -l)" -gt 20 ] || fail "no description of b"
check_eq "server-side generate = client-side (md5 of the facts)" "$b2" "$a2"
# bad steps are refused before connecting
"$PGCLIFF" init -I dtx "$conn dbname=b" 2>"$TMP/err"
check_eq "bad init step exit" $? 64
grep -q 'unrecognized initialization step "x"' "$TMP/err" || fail "bad step message"

# TPC-B invariants after tpcb-like runs (the recipe initializes the tables)
cat >"$TMP/tpcb.yaml" <<'YAML'
recipe: tpcb_invariants
init:
  pgbench: {scale: 2}
duration: 3s
workloads:
  tpcb:
    builtin: tpcb-like
    protocol: prepared
sweep:
  clients: [1, 8]
  jobs: 2
YAML
"$PGCLIFF" run "$TMP/tpcb.yaml" --seed 7 --target "primary=$conn dbname=b" >"$TMP/out" 2>"$TMP/err"
check_eq "tpcb-like run exit" $? 0
grep -q "^transaction type: <builtin: TPC-B (sort of)>$" "$TMP/out" || fail "transaction type line"
grep -q "^scaling factor: 2$" "$TMP/out" || fail "scaling factor line"
inv=$(psql_ -d b -c "SELECT (SELECT sum(delta) FROM pgbench_history) = (SELECT sum(abalance) FROM pgbench_accounts)
  AND (SELECT sum(delta) FROM pgbench_history) = (SELECT sum(tbalance) FROM pgbench_tellers)
  AND (SELECT sum(delta) FROM pgbench_history) = (SELECT sum(bbalance) FROM pgbench_branches)
  AND (SELECT count(*) FROM pgbench_history) > 100")
check_eq "TPC-B: sum(history.delta) = sum of every balance" "$inv" t
stored=$(sql "SELECT sum(transactions) FROM point WHERE run_id = (SELECT max(id) FROM run)")
hist=$(psql_ -d b -c "SELECT count(*) FROM pgbench_history")
# transactions ending after the window are not counted, but wrote a row
[ "$hist" -ge "$stored" ] && [ $((hist - stored)) -le 16 ] \
	|| fail "history rows $hist against $stored stored transactions"
check_eq "scale stored" "$(sql "SELECT DISTINCT scale FROM point WHERE run_id = (SELECT max(id) FROM run)")" 2

# weights and -r: two scripts, per-script and per-statement figures stored
"$PGCLIFF" run -b simple-update@3 -b select-only@1 -r -c 4 -j 2 -T 2s --seed 3 \
	--target "primary=$conn dbname=b" >"$TMP/out2" 2>"$TMP/err2"
check_eq "weighted run exit" $? 0
grep -q "^SQL script 1: <builtin: simple update>$" "$TMP/out2" || fail "script 1 header"
grep -q "^ - weight: 3 (targets 75.0% of total)$" "$TMP/out2" || fail "weight line"
grep -qE "^ +[0-9]+\.[0-9]{3} +0  UPDATE pgbench_accounts SET abalance" "$TMP/out2" || fail "statement latency line"
share=$(sql "SELECT round(100.0 * sum(transactions) FILTER (WHERE script = 0) / sum(transactions))
  FROM point_script WHERE point_id = (SELECT max(id) FROM point)")
[ "${share%.*}" -ge 68 ] && [ "${share%.*}" -le 82 ] || fail "script 1 share $share%, want about 75%"
"$PGCLIFF" show "$(last_run_id)" >"$TMP/show" 2>&1
grep -q "^  script 2: <builtin: select only>, weight 1: " "$TMP/show" || fail "show: script line"
grep -qE "^ +[0-9.]+ ms +0 failed +0 retried  line 6: UPDATE pgbench_accounts" "$TMP/show" || fail "show: statement line"
check_eq "statements stored" "$(sql "SELECT count(*) FROM point_statement WHERE script = 0 AND point_id = (SELECT max(id) FROM point)")" 9

# --format pgbench: the same lines as pgbench 15 itself for the same
# options on the same server, numbers aside
printf '\\set aid random(1, 100000 * :scale)\nSELECT abalance + :delta FROM pgbench_accounts WHERE aid = :aid;\n' >"$TMP/custom.sql"
mask() { sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s#/[^ ]*/custom.sql#SCRIPT#'; }
n=0
while IFS= read -r args; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$bindir/pgbench" -n $args -h "$sockdir" -U "$user" b 2>/dev/null | mask >"$TMP/pgbench.$n"
	# shellcheck disable=SC2086
	"$PGCLIFF" run $args --format pgbench --target "primary=$conn dbname=b" 2>/dev/null | mask >"$TMP/pgcliff.$n"
	if diff -u "$TMP/pgbench.$n" "$TMP/pgcliff.$n" >"$TMP/diff.$n" && [ -s "$TMP/pgbench.$n" ]; then
		echo "ok: --format pgbench = pgbench $args"
	else
		fail "--format pgbench differs from pgbench $args:"; head -20 "$TMP/diff.$n"
	fi
done <<EOF2
-S -T 2 -c 2
-b simple-update -t 50 -r -c 2 -M prepared
-S -R 300 -L 50 -T 2 -c 2 -j 2
-b tpcb-like@3 -b select-only@1 -T 2 -c 4 -j 2 -r --max-tries 3
-f $TMP/custom.sql -D delta=5 -t 20 -M extended
-f $TMP/custom.sql@2 -b select-only@1 -P 1 -T 2 --random-seed 42 -D delta=1
EOF2

# the script file of the last -f run is stored with it, as it was
"$PGCLIFF" show "$(last_run_id)" --scripts >"$TMP/scripts"
check_eq "show --scripts" "$(tail -n +2 "$TMP/scripts")" "$(cat "$TMP/custom.sql")"
grep -q "^-- file: .*/custom.sql$" "$TMP/scripts" || fail "no file header in show --scripts"

# a builtin on tables that are not there: pgbench's hint, before any point
psql_ -d postgres -c "CREATE DATABASE empty" >/dev/null
"$PGCLIFF" run -b select-only -T 1s --target "primary=$conn dbname=empty" >/dev/null 2>"$TMP/err3"
check_eq "no tables exit" $? 65
grep -q "Perhaps you need to do initialization" "$TMP/err3" || fail "no initialization hint"

exec {HELPER[1]}>&-
wait "$HELPER_PID"
finish
