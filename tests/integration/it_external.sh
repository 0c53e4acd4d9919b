#!/usr/bin/env bash
# An external server given by conninfo (started by pgcliff's cluster code
# through cluster_helper): the run is stored as external without the
# password; a script whose transactions fail half the time is counted by
# SQLSTATE class, rolled back, and the run still completes.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper

coproc HELPER { exec "$helper"; }
read -r sockdir user spid <&"${HELPER[0]}" || fail "cluster_helper did not start"

cat >"$TMP/failing.yaml" <<'YAML'
recipe: failing
duration: 2s
workloads:
  w:
    protocol: extended
    clients: 3
    jobs: 2
    script: |
      \set r random(0, 1)
      BEGIN;
      SELECT 1 / :r;
      END;
YAML
"$PGCLIFF" run "$TMP/failing.yaml" --target "primary=host=$sockdir user=$user dbname=postgres password=sekrit" >"$TMP/out" 2>"$TMP/err"
check_eq "exit code" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "status" "$(sql "SELECT status FROM run WHERE id = $run")" ok
check_eq "kind" "$(sql "SELECT kind FROM variant WHERE run_id = $run")" external
check_eq "some ok" "$(sql "SELECT transactions > 0 FROM point WHERE run_id = $run")" 1
check_eq "some failed" "$(sql "SELECT failures > 0 FROM point WHERE run_id = $run")" 1
check_eq "class 22 only" "$(sql "SELECT failures_by_class = '{\"22\": ' || failures || '}' FROM point WHERE run_id = $run")" 1
check_eq "failed ones per second" "$(sql "SELECT sum(s.failures) = p.failures FROM series s JOIN point p ON p.id = s.point_id WHERE p.run_id = $run")" 1
check_eq "no password stored" "$(sqlite3 "$PGCLIFF_DB" .dump | grep -c sekrit)" 0
grep -q "number of failed transactions: [1-9]" "$TMP/out" || fail "failed transactions not reported"
grep -q sekrit "$TMP/out" "$TMP/err" && fail "password printed"
# the external server is still up (pgcliff must not stop what it did not start)
kill -0 "$spid" 2>/dev/null || fail "external server was stopped"

exec {HELPER[1]}>&-	# close its stdin: the helper stops the server
wait "$HELPER_PID"
finish
