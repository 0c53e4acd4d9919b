#!/usr/bin/env bash
# The PostgreSQL store, on a server the test starts through pgcliff's own
# cluster code: the store API suite (test_store --shared: the SQLite round
# trip, migrations, four writers at once, refusals), then the verbs
# end to end: runs stored through a URI with a password and through
# PGCLIFF_DB, read back by list, show, compare, gate and history, also by
# a role with SELECT rights alone (which cannot write a run); no password
# in the store, the outputs or the stored command line; a store that
# cannot be reached is a clear error.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper
store_test=$(dirname "$PGCLIFF")/tests/test_store
PW=St0re_pw_7f3a

coproc HELPER { exec "$helper"; }
read -r sockdir user spid <&"${HELPER[0]}" || fail "cluster_helper did not start"
p() { psql -X -q -v ON_ERROR_STOP=1 -h "$sockdir" -U "$user" "$@"; }
p -d postgres -c "CREATE ROLE owner LOGIN PASSWORD '$PW'" -c "CREATE ROLE reader LOGIN" \
	-c "CREATE DATABASE results OWNER owner" || fail "no roles or database"
# the owner must give its password; the others keep trust
sed -i "1i local all owner scram-sha-256" "$sockdir/data/pg_hba.conf"
p -d postgres -c "SELECT pg_reload_conf()" >/dev/null

# the store API, as on SQLite
"$store_test" --shared "host=$sockdir user=$user dbname=results" >"$TMP/suite" 2>&1
check_eq "store suite on PostgreSQL: exit" $? 0
tail -1 "$TMP/suite"
grep "check failed\|SQL failed" "$TMP/suite" | head -5

cat >"$TMP/r.yaml" <<'YAML'
recipe: shared
duration: 1s
warmup: 0s
server:
  fsync: off
workloads:
  w: {script: SELECT 1}
YAML
URL="postgresql://owner:$PW@/results?host=$sockdir"
"$PGCLIFF" run "$TMP/r.yaml" --db "$URL" --variant a --variant b --repeat 2 >"$TMP/o1" 2>"$TMP/e1" </dev/null
check_eq "run into PostgreSQL: exit" $? 0
grep -q "run 1 stored in postgresql://owner@\[local\]:[0-9]*/results (status ok, 4 points)" "$TMP/o1" ||
	fail "run 1: $(tail -2 "$TMP/o1") $(cat "$TMP/e1")"
PGCLIFF_DB="host=$sockdir user=owner password=$PW dbname=results" \
	"$PGCLIFF" run "$TMP/r.yaml" -c 2 -q >"$TMP/o2" 2>"$TMP/e2" </dev/null
check_eq "run through PGCLIFF_DB: exit" $? 0
check_eq "runs in the store" "$(p -d results -At -c "SELECT count(*) || ' ' || sum((SELECT count(*) FROM point WHERE run_id = run.id)) FROM run WHERE status = 'ok'")" "2 5"
check_eq "series stored" "$(p -d results -At -c "SELECT count(DISTINCT point_id) FROM series")" 5
check_eq "variants in order" "$(p -d results -At -c "SELECT string_agg(name, ',' ORDER BY seq) FROM variant WHERE run_id = 1")" "a,b"

# every reading verb, by the owner and by a role that may only SELECT
p -d results -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader"
RO="host=$sockdir user=reader dbname=results"
for who in "$URL" "$RO"; do
	tag=owner
	[ "$who" = "$RO" ] && tag=reader
	{
		"$PGCLIFF" list --db "$who" && "$PGCLIFF" show 1 --db "$who" &&
			"$PGCLIFF" show 2 --series --scripts --format json --db "$who" &&
			"$PGCLIFF" compare 1:a 1:b --db "$who" &&
			"$PGCLIFF" history shared --db "$who"
	} >"$TMP/read-$tag" 2>&1
	check_eq "$tag reads: exit" $? 0
	# a and b are the same settings, but an A/A gate may still say
	# REGRESSION by chance (2 blocks of 1 s): any verdict will do, as long
	# as the exit code and the summary agree
	"$PGCLIFF" gate 1:a 1:b --db "$who" >"$TMP/gate-$tag" 2>&1
	rc=$?
	cat "$TMP/gate-$tag" >>"$TMP/read-$tag"
	summary=$(tail -1 "$TMP/gate-$tag")
	case "$rc:$summary" in
	1:"REGRESSION: "*" of 1 point") ;;
	[02]:[A-Z]*": 0 regressions, "*" of 1 point") ;;
	*) fail "$tag: gate exit $rc: $(tail -3 "$TMP/gate-$tag")" ;;
	esac
done
grep -q "^ *1 .*shared" "$TMP/read-reader" || fail "reader's list: $(head -5 "$TMP/read-reader")"
grep -q "points" "$TMP/read-reader" || fail "reader's show: $(head -20 "$TMP/read-reader")"
# the same, but for the role the store is named by
check_eq "owner and reader read alike" "$(sed 's/owner@/ROLE@/g' "$TMP/read-owner" | cksum)" "$(sed 's/reader@/ROLE@/g' "$TMP/read-reader" | cksum)"
# the reader cannot write a run, and says why
"$PGCLIFF" run "$TMP/r.yaml" --db "$RO" -q >"$TMP/o3" 2>"$TMP/e3" </dev/null
check_eq "reader's run: exit" $? 70
grep -q "permission denied" "$TMP/e3" || fail "reader's run: $(cat "$TMP/e3")"

# no password anywhere: the store, the outputs, the command line kept
check_eq "password in the store" "$(pg_dump -h "$sockdir" -U "$user" results | grep -c "$PW")" 0
check_eq "password in the outputs" "$(cat "$TMP"/o* "$TMP"/e* "$TMP"/read-* | grep -c "$PW")" 0
p -d results -At -c "SELECT command_line FROM run WHERE id = 1" | grep -q -- "^pgcliff run --db '.*dbname=.*results" ||
	fail "command line: $(p -d results -At -c "SELECT command_line FROM run WHERE id = 1")"

# a store that is not there: a clear error, exit 70, nothing started
"$PGCLIFF" run "$TMP/r.yaml" --db "host=$TMP/nowhere dbname=results" -q >"$TMP/o4" 2>"$TMP/e4" </dev/null
check_eq "unreachable store: exit" $? 70
grep -q "could not connect to the PostgreSQL store" "$TMP/e4" || fail "unreachable: $(cat "$TMP/e4")"
"$PGCLIFF" list --db "host=$sockdir user=reader dbname=postgres" >"$TMP/o5" 2>"$TMP/e5"
check_eq "an empty database read: exit" $? 65
grep -q "no store at" "$TMP/e5" || fail "empty database: $(cat "$TMP/e5")"

# two machines' stores pushed into the shared one (the second machine's
# host name changed, as if it ran elsewhere); twice copies nothing
S1=$TMP/m1.db S2=$TMP/m2.db
"$PGCLIFF" run "$TMP/r.yaml" --db "$S1" --variant a --variant b -q </dev/null >/dev/null 2>"$TMP/e6" ||
	fail "run into m1: $(cat "$TMP/e6")"
"$PGCLIFF" run "$TMP/r.yaml" --db "$S2" --variant a --variant b -q </dev/null >/dev/null 2>"$TMP/e7" ||
	fail "run into m2: $(cat "$TMP/e7")"
sqlite3 "$S2" "UPDATE run SET host_name = 'bench-b'"
"$PGCLIFF" push --db "$S1" --to "$URL" >"$TMP/push1" 2>&1
check_eq "push m1: exit" $? 0
grep -q "1 run copied from $S1 to postgresql://owner@\[local\]:[0-9]*/results, 0 there already" "$TMP/push1" ||
	fail "push m1: $(cat "$TMP/push1")"
"$PGCLIFF" push --db "$S1" --to "$URL" >"$TMP/push2" 2>&1
check_eq "push m1 again: exit" $? 0
grep -q "^run 1: there already, as run 3$" "$TMP/push2" || fail "push again: $(cat "$TMP/push2")"
grep -q "^0 runs copied .* 1 there already" "$TMP/push2" || fail "push again: $(cat "$TMP/push2")"
"$PGCLIFF" push 1 --db "$S2" --to "$URL" >"$TMP/push3" 2>&1
check_eq "push m2: exit" $? 0
check_eq "runs in the shared store" "$(p -d results -At -c "SELECT count(*) FROM run")" 4
# compared across machines, each side names its host
"$PGCLIFF" compare 3:a 4:a --db "$URL" >"$TMP/cmp" 2>&1
check_eq "compare across stores: exit" $? 0
grep -q "^A (baseline):  run 3, variant a, .*, on $(hostname)" "$TMP/cmp" || fail "A's host: $(head -3 "$TMP/cmp")"
grep -q "^B (candidate): run 4, variant a, .*, on bench-b: " "$TMP/cmp" || fail "B's host: $(head -3 "$TMP/cmp")"
"$PGCLIFF" history shared --db "$RO" >"$TMP/hist" 2>&1
check_eq "history over both machines: exit" $? 0
"$PGCLIFF" gate 3:a 4:a --db "$RO" >/dev/null 2>&1
rc=$?
[ $rc -le 2 ] || fail "gate across stores: exit $rc"
cat "$TMP/push1" "$TMP/push2" "$TMP/push3"
head -3 "$TMP/cmp"
# a run changed after its push conflicts: exit 70, nothing overwritten
sqlite3 "$S1" "UPDATE run SET status = 'failed'"
"$PGCLIFF" push --db "$S1" --to "$URL" >"$TMP/push4" 2>&1
check_eq "conflict: exit" $? 70
grep -q "run 1 of $S1 conflicts with run 3 of postgresql://owner@" "$TMP/push4" || fail "conflict: $(cat "$TMP/push4")"
cat "$TMP/push4"
check_eq "conflict left the shared run" "$(p -d results -At -c "SELECT status FROM run WHERE id = 3")" ok
# pulled into a new store: the same run, shown the same; twice nothing
S3=$TMP/m3.db
"$PGCLIFF" pull --from "$RO" --db "$S3" >"$TMP/pull1" 2>&1
check_eq "pull: exit" $? 0
grep -q "^4 runs copied" "$TMP/pull1" || fail "pull: $(cat "$TMP/pull1")"
"$PGCLIFF" pull --from "$RO" --db "$S3" >"$TMP/pull2" 2>&1
grep -q "^0 runs copied .* 4 there already" "$TMP/pull2" || fail "pull again: $(cat "$TMP/pull2")"
norm() { sed -E 's/^run [0-9]+/run N/; /^store|^logs/d'; }
check_eq "pulled run shows as in the shared store" \
	"$("$PGCLIFF" show 4 --series --db "$S3" | norm | cksum)" "$("$PGCLIFF" show 4 --series --db "$RO" | norm | cksum)"
check_eq "pulled run shows as where it was run" \
	"$("$PGCLIFF" show 4 --series --db "$S3" | norm | cksum)" "$("$PGCLIFF" show 1 --series --db "$S2" | norm | cksum)"
# and pushing the pulled copies back copies nothing
"$PGCLIFF" push --db "$S3" --to "$URL" >"$TMP/push5" 2>&1
grep -q "^0 runs copied .* 4 there already" "$TMP/push5" || fail "push back: $(cat "$TMP/push5")"
"$PGCLIFF" push --db "$S3" --from "$URL" >"$TMP/o8" 2>&1
check_eq "push --from: exit" $? 64

# --- a schema 19 store on PostgreSQL, migrated by a command that writes.
# tests/migrate's run, pushed to a new database, is taken back to schema 19
# there (the documents of schema 20's tables put back in their JSON
# columns, as pgcliff 19 wrote them, the tables dropped); a push into it
# then migrates it, and every command of tests/migrate/commands.txt prints
# what the schema 19 pgcliff printed.
M=$ROOT/tests/migrate
p -d postgres -c "CREATE DATABASE old OWNER owner" >/dev/null
OLD="host=$sockdir user=owner password=$PW dbname=old"
sqlite3 "$TMP/v19.db" <"$M/v19.sql"
"$PGCLIFF" push --db "$TMP/v19.db" --to "$OLD" >"$TMP/push_old" 2>&1
check_eq "fixture pushed to PostgreSQL" $? 0
PGPASSWORD=$PW p -d old -U owner >"$TMP/down" 2>&1 <<'SQL'
ALTER TABLE variant ADD COLUMN gucs text, ADD COLUMN settings text,
  ADD COLUMN defines text, ADD COLUMN pg_config text, ADD COLUMN build text;
ALTER TABLE point ADD COLUMN scripts text, ADD COLUMN warmup text;
UPDATE variant v SET
  gucs = (SELECT coalesce(json_object_agg(name, value ORDER BY seq), '{}')
          FROM variant_setting s WHERE (s.run_id, s.variant, s.kind) = (v.run_id, v.name, 'guc')),
  settings = (SELECT json_object_agg(name, value ORDER BY seq)
          FROM variant_setting s WHERE (s.run_id, s.variant, s.kind) = (v.run_id, v.name, 'setting')),
  defines = (SELECT json_object_agg(name, value ORDER BY seq)
          FROM variant_setting s WHERE (s.run_id, s.variant, s.kind) = (v.run_id, v.name, 'define')),
  pg_config = (SELECT json_object_agg(name, value ORDER BY seq)
          FROM variant_setting s WHERE (s.run_id, s.variant, s.kind) = (v.run_id, v.name, 'pg_config')),
  build = (SELECT document FROM variant_build b WHERE (b.run_id, b.variant) = (v.run_id, v.name));
UPDATE variant v SET defines = '{}' WHERE build IS NOT NULL AND defines IS NULL;
UPDATE point p SET
  scripts = (SELECT json_agg(json_build_object('name', name, 'weight', weight,
      'transactions', transactions, 'failures', failures, 'retried', retried,
      'latency_avg_ms', lat_avg_ms, 'latency_stddev_ms', lat_stddev_ms,
      'statements', (SELECT json_agg(json_build_object('line', line,
          'command', command, 'latency_avg_ms', t.lat_avg_ms, 'count', count,
          'failures', t.failures, 'retries', retries) ORDER BY seq)
        FROM point_statement t WHERE (t.point_id, t.script) = (s.point_id, s.script)))
      ORDER BY script) FROM point_script s WHERE s.point_id = p.id),
  warmup = (SELECT json_build_object('until', until_mode, 'max_s', max_s,
      'tolerance', tolerance, 'tick_s', tick_s, 'stable', stable <> 0,
      'drift', drift, 'tps', (SELECT json_agg(tps ORDER BY tick)
        FROM point_warmup_tick t WHERE t.point_id = w.point_id))
    FROM point_warmup w WHERE w.point_id = p.id);
DROP TABLE point_warmup_tick, point_warmup, point_statement, point_script,
  variant_build, variant_setting;
UPDATE pgcliff_schema SET version = 19;
SQL
check_eq "taken back to schema 19" "$(p -d old -At -c "SELECT version FROM pgcliff_schema") $(p -d old -At -c "SELECT count(*) FROM variant WHERE gucs IS NOT NULL AND settings LIKE '{%'")" "19 3" ||
	cat "$TMP/down"
"$PGCLIFF" push --db "$TMP/v19.db" --to "$OLD" >"$TMP/push_mig" 2>&1
check_eq "push into it (migrates it): exit" $? 0
check_eq "migrated on PostgreSQL" "$(p -d old -At -c "SELECT version FROM pgcliff_schema") $(p -d old -At -c "SELECT count(*) FROM variant_setting WHERE kind = 'guc'") $(p -d old -At -c "SELECT count(*) FROM point_statement")" "20 1 9"
grep -v '^#' "$M/commands.txt" | while read -r line; do
	rc=0
	# shellcheck disable=SC2086 # a command line of words
	out=$("$PGCLIFF" $line --db "$OLD" 2>&1) || rc=$?
	printf '$ pgcliff %s\n%s\nexit %d\n' "$line" "$out" "$rc"
done >"$TMP/mig_out"
cmp -s "$M/expected.txt" "$TMP/mig_out" ||
	{ fail "the migrated PostgreSQL store prints otherwise than schema 19"; diff "$M/expected.txt" "$TMP/mig_out" | cut -c1-200 | head -20; }

exec {HELPER[1]}>&-
wait "$HELPER_PID"
finish
