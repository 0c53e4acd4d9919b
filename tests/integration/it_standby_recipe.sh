#!/usr/bin/env bash
# A short standby recipe (seed 004 in small): select-only on the standby,
# simple-update on the primary, a transaction held open on the primary
# from second 8 for 6 s; one clock for all.  The run stores both series
# aligned (same seconds), the event with its actual start, and show
# prints the windows with the dip and the recovery, and the recipe's
# probes per window.  A standby that cancels its readers by recovery
# conflicts has them counted apart and the run stored.
. "$(dirname "$0")/lib.sh"
cat >"$TMP/standby.yaml" <<'YAML'
recipe: standby_short
topology: primary+standby
standby: {hot_standby_feedback: on}
init:
  pgbench: {scale: 1}
duration: 20s
workloads:
  writes: {target: primary, builtin: simple-update, clients: 2, jobs: 1}
  reads: {target: standby, builtin: select-only, clients: 2, jobs: 1}
  long_tx:
    target: primary
    at: 8s
    script: |
      BEGIN;
      SELECT txid_current();
      SELECT pg_sleep(6);
      COMMIT;
windows:
  before: [2s, 8s]
  during: [8s, 14s]
  after: [15s, 20s]
probes:
  replay:
    target: standby
    sql: |
      SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0') AS replayed,
             (SELECT count(*) FROM pg_stat_activity
               WHERE backend_type = 'client backend') AS backends
    counters: [replayed]
  broken:
    target: primary
    sql: SELECT * FROM no_such_table
measure: reads.tps
YAML
"$PGCLIFF" run "$TMP/standby.yaml" >"$TMP/out" 2>"$TMP/err"
check_eq "standby recipe exit" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "three workloads stored" "$(sql "SELECT group_concat(workload, ' ') FROM (SELECT workload FROM point WHERE run_id = $run ORDER BY workload)")" "long_tx reads writes"
check_eq "both series on the same 20 seconds" \
	"$(sql "SELECT group_concat(n, ' ') FROM (SELECT count(*) AS n FROM series s JOIN point p ON p.id = s.point_id WHERE p.run_id = $run AND p.workload IN ('reads', 'writes') GROUP BY p.workload)")" "20 20"
check_eq "reads ran every second" "$(sql "SELECT min(s.transactions) > 0 FROM series s JOIN point p ON p.id = s.point_id WHERE p.run_id = $run AND p.workload = 'reads'")" 1
ev=$(sql "SELECT planned_s || ' ' || (actual_s - planned_s < 1.0 AND actual_s >= planned_s) FROM event e JOIN point p ON p.id = e.point_id WHERE p.run_id = $run")
check_eq "the event, planned at 8 s, started after it" "$ev" "8.0 1"
grep -qE "^event 1: planned at 8.000 s, started at 8\.[0-9]+ s" "$TMP/out" || fail "event line"
"$PGCLIFF" show "$run" --series >"$TMP/show"
grep -qE "^  point [0-9]+ reads +2 clients:  before [0-9.]+  during [0-9.]+  after [0-9.]+  dip [0-9.]+" "$TMP/show" \
	|| fail "windows in show: $(grep -A4 windows "$TMP/show")"
grep -qE "^ +8 +[0-9]+ .*<- event 1 started at 8\.[0-9]+ s \(planned 8.000 s\)" "$TMP/show" || fail "event mark on the series"
grep -q "long_tx .*before" "$TMP/show" && fail "windows shown for the event itself"
# the window figures are stored with the points (not the event's)
check_eq "windows stored, a dip on during" \
	"$(sql "SELECT group_concat(x, ' ') FROM (SELECT p.workload || ':' || w.name || ':' || (w.dip IS NOT NULL) AS x FROM window_stat w JOIN point p ON p.id = w.point_id WHERE p.run_id = $run ORDER BY p.workload, w.name)")" \
	"$(echo reads:after:0 reads:before:0 reads:during:1 writes:after:0 writes:before:0 writes:during:1)"
# server-side samples: every second of both nodes, the standby's replay lag
check_eq "a sample per node and second" \
	"$(sql "SELECT group_concat(node || ':' || n, ' ') FROM (SELECT node, count(*) AS n FROM sample WHERE run_id = $run GROUP BY node ORDER BY node)")" \
	"primary:20 standby:20"
check_eq "the standby's samples say standby, with a lag" \
	"$(sql "SELECT min(standby) = 1 AND min(lag_bytes) >= 0 FROM sample WHERE run_id = $run AND node = 'standby' AND ok")" 1
check_eq "wait events counted" \
	"$(sql "SELECT count(*) > 0 FROM sample WHERE run_id = $run AND node = 'primary' AND waits LIKE '%Timeout:PgSleep%'")" 1
grep -qE "^    during  standby  commits/s [0-9]+, replay lag max [0-9]+ bytes, waits:" "$TMP/show" \
	|| fail "window samples in show: $(grep -A8 '^windows' "$TMP/show")"
# the recipe's probes: the standby's each second (a counter as its change,
# WAL replayed while the primary writes), the primary's failing query
# stored as the probe's error without failing the sample
check_eq "probes on the standby every second, replay growing" \
	"$(sql "SELECT count(*) || ' ' || (min(json_extract(probes, '\$.replay.\"replayed/s\"')) > 0) || ' ' || (max(json_extract(probes, '\$.replay.backends')) >= 3) FROM sample WHERE run_id = $run AND node = 'standby' AND second > 0")" \
	"19 1 1"
check_eq "the primary's broken probe: its error, the samples still ok" \
	"$(sql "SELECT count(*) || ' ' || min(ok) || ' ' || min(json_extract(probes, '\$.broken.error')) FROM sample WHERE run_id = $run AND node = 'primary'")" \
	'20 1 relation "no_such_table" does not exist'
grep -qE "^    during  standby  probes: replay.replayed/s [0-9.e+]+, replay.backends [0-9.]+$" "$TMP/show" \
	|| fail "probe figures in show: $(grep -A12 '^windows' "$TMP/show")"
grep -qE "^    during  primary  probes: broken.errors 6$" "$TMP/show" \
	|| fail "probe errors in show: $(grep 'probes:' "$TMP/show")"
# a standby that cancels its readers (recovery conflicts: no feedback, no
# delay, a primary that vacuums what their snapshots still see): counted
# as their own class per point and per second, seen in the samples, and
# the run stored whole
cat >"$TMP/conflicts.yaml" <<'YAML'
recipe: standby_conflicts
topology: primary+standby
standby: {hot_standby_feedback: off, max_standby_streaming_delay: 0}
setup:
  - CREATE TABLE c AS SELECT g FROM generate_series(1, 20000) g
duration: 8s
workloads:
  churn:
    target: primary
    script: |
      UPDATE c SET g = g WHERE g <= 2000;
      VACUUM c;
  reads:
    target: standby
    clients: 2
    script: |
      SELECT pg_sleep(0.3), count(*) FROM c;
YAML
"$PGCLIFF" run "$TMP/conflicts.yaml" >"$TMP/cout" 2>"$TMP/cerr"
rc=$?
run=$(sql "SELECT max(id) FROM run")
cat "$TMP/cerr"
# a conflict cancels a running statement (ERROR, counted, the client goes
# on) or ends an idle client's connection (FATAL: the client aborts with
# that reason, the run is stored as failed, exit 75): either way stored
check_eq "conflicts: the run stored with both points" \
	"$(sql "SELECT (status = 'ok' AND $rc = 0 OR status = 'failed' AND $rc = 75) || ' ' || (SELECT count(*) FROM point WHERE run_id = $run) FROM run WHERE id = $run")" "1 2"
check_eq "conflicts: the readers' failures are recovery conflicts, none else" \
	"$(sql "SELECT json_extract(failures_by_class, '\$.recovery_conflict') > 0 AND failures = json_extract(failures_by_class, '\$.recovery_conflict') FROM point WHERE run_id = $run AND workload = 'reads'")" 1
check_eq "conflicts: an aborted reader says why" \
	"$(sql "SELECT count(*) FROM point WHERE run_id = $run AND workload = 'reads' AND aborted_clients > 0 AND abort_reason NOT LIKE '%FATAL:  terminating connection due to conflict with recovery%'")" 0
grep -q "^FATAL:" "$TMP/cerr" && fail "the FATAL was printed by libpq, not kept as the reason"
check_eq "conflicts: the standby's samples count them" \
	"$(sql "SELECT sum(json_extract(conflicts, '\$.snapshot')) > 0 FROM sample WHERE run_id = $run AND node = 'standby'")" 1
# the same recipe on an external pair given by conninfo
helper=$(dirname "$PGCLIFF")/tests/cluster_helper
coproc HELPER { exec "$helper" --standby hot_standby_feedback=on; }
read -r psock user _ <&"${HELPER[0]}" || fail "primary did not start"
read -r ssock _ _ <&"${HELPER[0]}" || fail "standby did not start"
"$PGCLIFF" run "$TMP/standby.yaml" --target "primary=host=$psock user=$user dbname=postgres" \
	--target "standby=host=$ssock user=$user dbname=postgres" >"$TMP/out2" 2>"$TMP/err2"
check_eq "external pair, same recipe: exit" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "external pair: reads and writes stored, both nodes sampled" \
	"$(sql "SELECT (SELECT count(*) FROM point WHERE run_id = $run AND transactions > 0) || ' ' || (SELECT count(DISTINCT node) FROM sample WHERE run_id = $run)")" "3 2"
exec {HELPER[1]}>&-
wait "$HELPER_PID"
finish
