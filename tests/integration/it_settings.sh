#!/usr/bin/env bash
# Server settings reach postgresql.conf whole, one line each: a value that
# ends in a backslash (it used to escape the closing quote, and the server
# refused to start), one with a quote, and one with a backslash inside
# (the server's parser took it as an escape) arrive as written; a line
# break in a --variant value is refused before any server starts.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/s.yaml" <<'YAML'
recipe: it_settings
duration: 1s
workloads: {w: {script: "SELECT 1;"}}
server:
  cluster_name: 'x\'
  pgcliff.note: "it's a\\b"
setup:
  - |
    DO $$ BEGIN
      IF current_setting('cluster_name') <> E'x\\' THEN
        RAISE 'cluster_name arrived as %', current_setting('cluster_name');
      END IF;
      IF current_setting('pgcliff.note') <> E'it''s a\\b' THEN
        RAISE 'pgcliff.note arrived as %', current_setting('pgcliff.note');
      END IF;
    END $$;
YAML
"$PGCLIFF" run "$TMP/s.yaml" -q >"$TMP/out" 2>"$TMP/err"
check_eq "values with \\ and ' arrive as written" $? 0
grep -q "stored" "$TMP/out" || { fail "no run"; cat "$TMP/err"; }
"$PGCLIFF" run "$TMP/s.yaml" -q --variant "v:server.work_mem=$(printf '4MB\nfsync = off')" >"$TMP/out" 2>"$TMP/err"
check_eq "a line break in --variant: usage error" $? 64
grep -q "holds a line break" "$TMP/err" || fail "message: $(cat "$TMP/err")"
check_eq "no run stored for it" "$(sql "SELECT count(*) FROM run")" 1
finish
