#!/usr/bin/env bash
# Failure policies on a real server: errors counted by class per second,
# serialization failures retried with the first try's random draws, and
# the on_error: actions continue, abort_client and abort_run.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper
coproc HELPER { exec "$helper"; }
read -r sockdir user spid <&"${HELPER[0]}" || fail "cluster_helper did not start"
target="primary=host=$sockdir user=$user dbname=postgres"
last_run() { sql "SELECT max(id) FROM run"; }

# 1. a hot row under repeatable read: serialization failures, retried
cat >"$TMP/hot.yaml" <<'YAML'
recipe: hot_row
setup:
  - CREATE TABLE hot (id int PRIMARY KEY, v bigint); INSERT INTO hot VALUES (1, 0)
duration: 3s
workloads:
  upd:
    clients: 6
    jobs: 2
    max_tries: 10
    script: |
      BEGIN ISOLATION LEVEL REPEATABLE READ;
      UPDATE hot SET v = v + 1 WHERE id = 1;
      SELECT pg_sleep(0.001);
      END;
YAML
"$PGCLIFF" run "$TMP/hot.yaml" -r --target "$target" >"$TMP/out" 2>"$TMP/err"
check_eq "retry run exit" $? 0
run=$(last_run)
check_eq "some transactions retried" "$(sql "SELECT retried > 0 AND retries >= retried FROM point WHERE run_id = $run")" 1
check_eq "serialization errors by second" \
	"$(sql "SELECT sum(json_extract(series.failures_by_class, '\$.\"40\"')) >= (SELECT retries FROM point WHERE run_id = $run) FROM series JOIN point p ON p.id = point_id WHERE p.run_id = $run")" 1
grep -q "^maximum number of tries: 10$" "$TMP/out" || fail "max tries line"
grep -qE "^number of transactions retried: [1-9][0-9]* \(" "$TMP/out" || fail "retried line"
grep -q "statement latencies in milliseconds, failures and retries:" "$TMP/out" || fail "-r header with retries"
grep -qE "^ +[0-9.]+ +[0-9]+ +[1-9][0-9]*  UPDATE hot" "$TMP/out" || fail "retries counted on the UPDATE"
drop() { psql -X -q -h "$sockdir" -U "$user" -d postgres -c "DROP TABLE IF EXISTS hot" >/dev/null; }
drop

# 2. division by zero half the time: by default each one is counted and
#    the client goes on; per second by class too
cat >"$TMP/div.yaml" <<'YAML'
recipe: div
duration: 2s
workloads:
  w:
    clients: 3
    script: |
      \set r random(0, 1)
      SELECT 1 / :r;
YAML
"$PGCLIFF" run "$TMP/div.yaml" --target "$target" >"$TMP/out" 2>"$TMP/err"
check_eq "continue exit" $? 0
run=$(last_run)
check_eq "failures by class per second add up" \
	"$(sql "SELECT sum(json_extract(s.failures_by_class, '\$.\"22\"')) = p.failures FROM series s JOIN point p ON p.id = s.point_id WHERE p.run_id = $run")" 1

# 3. the same with on_error: abort_client for class 22
sed 's/^    clients: 3$/    clients: 3\n    on_error: {"22": abort_client}/' "$TMP/div.yaml" >"$TMP/div_ac.yaml"
"$PGCLIFF" run "$TMP/div_ac.yaml" --target "$target" >"$TMP/out" 2>"$TMP/err"
check_eq "abort_client exit" $? 75
run=$(last_run)
check_eq "every client aborted" "$(sql "SELECT aborted_clients FROM point WHERE run_id = $run")" 3
grep -q "22012 division by zero" "$TMP/err" || fail "abort reason: $(cat "$TMP/err")"

# 4. and abort_run for the exact SQLSTATE: the run stops, stored as failed
sed 's/^    clients: 3$/    clients: 3\n    on_error: {"22012": abort_run}/' "$TMP/div.yaml" >"$TMP/div_ar.yaml"
"$PGCLIFF" run "$TMP/div_ar.yaml" --target "$target" >"$TMP/out" 2>"$TMP/err"
check_eq "abort_run exit" $? 75
run=$(last_run)
check_eq "run stored as failed" "$(sql "SELECT status FROM run WHERE id = $run")" failed
grep -q "the policy aborts the run on this error" "$TMP/err" || fail "abort_run message: $(cat "$TMP/err")"

# 5. a bad action is refused at its place
sed 's/^    clients: 3$/    clients: 3\n    on_error: {other: retyr}/' "$TMP/div.yaml" >"$TMP/bad.yaml"
"$PGCLIFF" recipe check "$TMP/bad.yaml" 2>"$TMP/err"
check_eq "bad action exit" $? 65
grep -q "did you mean 'retry'" "$TMP/err" || fail "bad action hint"

exec {HELPER[1]}>&-
wait "$HELPER_PID"
finish
