#!/usr/bin/env bash
# A recipe whose setup SQL fails: exit 65, the server's message with the
# recipe's file:line:col, a stored failed run, no server left.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/setup_fails.yaml" <<'YAML'
recipe: setup_fails
duration: 1s
setup:
  - create table t(a int)
  - insert into t values ('not a number')
workloads:
  w: {script: SELECT 1}
YAML
"$PGCLIFF" run "$TMP/setup_fails.yaml" >"$TMP/out" 2>"$TMP/err"
check_eq "exit code" $? 65
grep -q "setup_fails.yaml:5:27: error: setup failed: invalid input syntax for type integer: \"not a number\" (SQLSTATE 22P02)" "$TMP/err" \
	|| { fail "no positioned server message"; cat "$TMP/err"; }
run=$(sql "SELECT max(id) FROM run")
check_eq "status" "$(sql "SELECT status FROM run WHERE id = $run")" failed
check_eq "error stored" "$(sql "SELECT error LIKE '%invalid input syntax for type integer%' FROM run WHERE id = $run")" 1
check_eq "points" "$(sql "SELECT count(*) FROM point WHERE run_id = $run")" 0

# a server that refuses the recipe's setting: the error points at it
cat >"$TMP/bad_guc.yaml" <<'YAML'
recipe: bad_guc
server:
  shared_buffers: lots
duration: 1s
workloads:
  w: {script: SELECT 1}
YAML
"$PGCLIFF" run "$TMP/bad_guc.yaml" >"$TMP/out" 2>"$TMP/err"
check_eq "bad GUC exit code" $? 65
grep -q "bad_guc.yaml:3:3: error: the server rejected setting 'shared_buffers'" "$TMP/err" \
	|| { fail "bad GUC not blamed"; cat "$TMP/err"; }
grep -q "server log: " "$TMP/err" || fail "no server log path"
finish
