#!/usr/bin/env bash
# topology primary+standby: a managed pair made by pgcliff (the standby by
# pg_basebackup -R, caught up before measuring), workloads on their own
# targets on one clock; an external pair by conninfo, checked; a standby
# that is none, refused.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper

cat >"$TMP/pair.yaml" <<'YAML'
recipe: pair
topology: primary+standby
standby: {hot_standby_feedback: on}
setup:
  - CREATE TABLE IF NOT EXISTS acc (id int PRIMARY KEY, v int)
  - INSERT INTO acc SELECT g, 0 FROM generate_series(1, 1000) g ON CONFLICT DO NOTHING
duration: 2s
workloads:
  writes:
    target: primary
    clients: 2
    script: |
      SELECT pg_is_in_recovery() AS rec, current_setting('hot_standby_feedback') AS hsf \gset
      \if :rec
      SELECT 1 / 0;
      \endif
      \set id random(1, 1000)
      UPDATE acc SET v = v + 1 WHERE id = :id;
  reads:
    target: standby
    clients: 2
    script: |
      SELECT pg_is_in_recovery() AS rec, current_setting('hot_standby_feedback') AS hsf,
             (SELECT count(*) FROM acc) AS n \gset
      \if NOT :rec OR NOT :hsf OR :n <> 1000
      SELECT 1 / 0;
      \endif
YAML

"$PGCLIFF" run "$TMP/pair.yaml" >"$TMP/out" 2>"$TMP/err"
check_eq "managed pair exit" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "both workloads measured, none failed" \
	"$(sql "SELECT group_concat(workload || ':' || (transactions > 0) || ':' || failures, ' ') FROM (SELECT * FROM point WHERE run_id = $run ORDER BY workload)")" \
	"reads:1:0 writes:1:0"

coproc HELPER { exec "$helper" --standby; }
read -r psock user _ <&"${HELPER[0]}" || fail "primary did not start"
read -r ssock _ _ <&"${HELPER[0]}" || fail "standby did not start"
psql -X -q -h "$psock" -U "$user" -d postgres -c "ALTER SYSTEM SET hot_standby_feedback = on" >/dev/null
psql -X -q -h "$ssock" -U "$user" -d postgres -c "ALTER SYSTEM SET hot_standby_feedback = on" -c "SELECT pg_reload_conf()" >/dev/null
"$PGCLIFF" run "$TMP/pair.yaml" --target "primary=host=$psock user=$user dbname=postgres" \
	--target "standby=host=$ssock user=$user dbname=postgres" >"$TMP/out" 2>"$TMP/err"
check_eq "external pair exit" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "external pair: both workloads, none failed" \
	"$(sql "SELECT group_concat(workload || ':' || (transactions > 0) || ':' || failures, ' ') FROM (SELECT * FROM point WHERE run_id = $run ORDER BY workload)")" \
	"reads:1:0 writes:1:0"

# a "standby" that is the primary itself is refused before any point
"$PGCLIFF" run "$TMP/pair.yaml" --target "primary=host=$psock user=$user dbname=postgres" \
	--target "standby=host=$psock user=$user dbname=postgres" >"$TMP/out" 2>"$TMP/err"
check_eq "no standby exit" $? 69
grep -q "is not in recovery: it is no standby" "$TMP/err" || fail "refusal message: $(cat "$TMP/err")"
# and an external primary without a standby target
"$PGCLIFF" run "$TMP/pair.yaml" --target "primary=host=$psock user=$user dbname=postgres" >"$TMP/out" 2>"$TMP/err"
check_eq "missing standby target exit" $? 64
grep -q "needs --target standby=CONNINFO" "$TMP/err" || fail "missing standby message"

exec {HELPER[1]}>&-
wait "$HELPER_PID"
finish
