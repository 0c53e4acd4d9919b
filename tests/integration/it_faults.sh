#!/usr/bin/env bash
# The fault matrix: each row a fault injected at a known moment of a run,
# then the same checks — the store's integrity, the run's status and its
# finished points, no process left, and no directory left in $TMPDIR (the
# logs of a failure are in the store's logs folder; what a SIGKILL leaves
# is removed by the next pgcliff run, which says so).
#
# The moment is made exact with PGCLIFF_INJECT (base.h): pgcliff stops
# itself at the named point (the 2nd time it is reached: the first point
# is stored by then), the test sends the fault, then SIGCONT.
#
#   signal x moment: SIGINT, SIGTERM, SIGKILL of pgcliff while clients
#     connect, in the window, and inside the store transaction of a point
#   SIGKILL of the postmaster, and of a standby, in the window
#   the store's disk full; the data directory's disk full (tmpfs)
#   the store locked by another process longer than the busy timeout
#   8 pgcliff processes writing runs to one store at once
. "$(dirname "$0")/lib.sh"

cat >"$TMP/three.yaml" <<'YAML'
recipe: faults
duration: 2s
warmup: 0s
workloads:
  txid:
    protocol: prepared
    script: SELECT txid_current();
sweep:
  clients: [1, 2, 8]
  jobs: 2
YAML

# the run's id: the newest in the store
last_run() { sql "SELECT max(id) FROM run"; }

# wait until pgcliff (PID) has stopped itself at its injection point
wait_stopped() {
	local st
	for _ in $(seq 1 600); do
		st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
		[ "$st" = T ] && return 0
		sleep 0.05
	done
	return 1
}

# no live process under the scratch dir (a postmaster follows a killed
# pgcliff within a moment: its parent-death signal)
wait_no_procs() {
	for _ in $(seq 1 100); do
		[ -z "$(live_procs)" ] && return 0
		sleep 0.1
	done
	fail "$1: processes left: $(live_procs)"
}

# private server directories left in $TMPDIR
left_dirs() { find "$TMP" -maxdepth 1 -name 'pgcliff-*-*' -type d | wc -l; }

# check ROW STATUS POINTS DIRS: the store after a row
check_row() {
	local row=$1 run
	run=$(last_run)
	check_eq "$row: integrity" "$(sql "PRAGMA integrity_check")" ok
	check_eq "$row: status" "$(sql "SELECT status FROM run WHERE id = $run")" "$2"
	check_eq "$row: points" "$(sql "SELECT count(*) FROM point WHERE run_id = $run")" "$3"
	check_eq "$row: points whole" "$(sql "SELECT count(*) FROM point p WHERE run_id = $run AND transactions > 0 AND (SELECT count(*) FROM series s WHERE s.point_id = p.id) = 2")" "$3"
	wait_no_procs "$row"
	check_eq "$row: dirs left in TMPDIR" "$(left_dirs)" "$4"
}

# a short clean run: it removes what a killed pgcliff left, and says so
sweep_after() {
	"$PGCLIFF" run "$TMP/three.yaml" -c 1 -T 1s -q >"$TMP/sw.out" 2>"$TMP/sw.err"
	check_eq "$1: the next run" $? 0
	grep -q "note: removed 1 server directory left by pgcliff processes that are gone" "$TMP/sw.err" ||
		fail "$1: no sweep note: $(cat "$TMP/sw.err")"
	check_eq "$1: dirs after the next run" "$(left_dirs)" 0
}

# --- signals at three moments
for moment in connect window store-write; do
	for sig in INT TERM KILL; do
		row="SIG$sig at $moment"
		PGCLIFF_INJECT="$moment@2" "$PGCLIFF" run "$TMP/three.yaml" --seed 7 -q \
			>"$TMP/out" 2>"$TMP/err" &
		pid=$!
		wait_stopped $pid || fail "$row: never reached $moment"
		kill -"$sig" $pid
		kill -CONT $pid
		wait $pid
		rc=$?
		# the point in its store transaction is committed when the
		# signal can be handled, lost whole when it cannot
		want=1
		[ $moment = store-write ] && [ $sig != KILL ] && want=2
		if [ $sig = KILL ]; then
			check_eq "$row: exit" $rc 137
			check_row "$row" running $want 1
			"$PGCLIFF" list | awk -v r="$(last_run)" '$1 == r {print $5}' >"$TMP/state"
			check_eq "$row: list calls it" "$(cat "$TMP/state")" dead
			sweep_after "$row"
		else
			check_eq "$row: exit" $rc 75
			check_row "$row" interrupted $want 0
			logs="$PGCLIFF_DB-logs/run-$(last_run)/default/primary"
			[ -s "$logs/server.log" ] || fail "$row: no server log kept in $logs"
			"$PGCLIFF" show "$(last_run)" >"$TMP/show" 2>&1
			grep -q "^logs:     $PGCLIFF_DB-logs/run-$(last_run) " "$TMP/show" ||
				fail "$row: show does not name the logs: $(head -8 "$TMP/show")"
		fi
	done
done

# --- the postmaster, and a standby, killed in the window
postmaster_of() { head -1 "$(ls "$TMP"/pgcliff-"$1"-*/data/postmaster.pid | head -1)"; }
PGCLIFF_INJECT="window@2" "$PGCLIFF" run "$TMP/three.yaml" --seed 7 -q >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_stopped $pid || fail "postmaster: never reached the window"
kill -KILL "$(postmaster_of default)"
kill -CONT $pid
wait $pid
check_eq "postmaster SIGKILL: exit" $? 69
check_row "postmaster SIGKILL" failed 2 0
# the point's clients see the server go, or, when the window was over
# before they could, the next point cannot connect
grep -qE "unexpected postmaster exit|could not connect for workload 'txid'.*Connection refused" "$TMP/err" ||
	fail "postmaster SIGKILL: $(cat "$TMP/err")"

cat >"$TMP/pair.yaml" <<'YAML'
recipe: faults_pair
topology: primary+standby
duration: 3s
warmup: 0s
workloads:
  writes: {target: primary, clients: 1, script: SELECT txid_current()}
  reads: {target: standby, clients: 1, script: SELECT 1}
YAML
PGCLIFF_INJECT="window" "$PGCLIFF" run "$TMP/pair.yaml" -q >"$TMP/out" 2>"$TMP/err" &
pid=$!
wait_stopped $pid || fail "standby: never reached the window"
kill -KILL "$(ls "$TMP"/pgcliff-*-sb-*/data/postmaster.pid | xargs head -1)"
kill -CONT $pid
wait $pid
check_eq "standby SIGKILL: exit" $? 75
run=$(last_run)
check_eq "standby SIGKILL: integrity" "$(sql "PRAGMA integrity_check")" ok
check_eq "standby SIGKILL: status" "$(sql "SELECT status FROM run WHERE id = $run")" failed
check_eq "standby SIGKILL: the primary's point" "$(sql "SELECT transactions > 0 AND aborted_clients = 0 FROM point WHERE run_id = $run AND workload = 'writes'")" 1
wait_no_procs "standby SIGKILL"
check_eq "standby SIGKILL: dirs left" "$(left_dirs)" 0
[ -s "$PGCLIFF_DB-logs/run-$run/default/standby/server.log" ] || fail "standby SIGKILL: the standby's log not kept"

# --- 8 processes writing runs to one store at once: none lost
before=$(sql "SELECT count(*) FROM run")
pids=()
for i in $(seq 1 8); do
	"$PGCLIFF" run "$TMP/three.yaml" -c 1,2 -T 1s -q >"$TMP/w$i.out" 2>"$TMP/w$i.err" &
	pids+=($!)
done
bad=0
for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
check_eq "8 writers: failures" $bad 0
check_eq "8 writers: integrity" "$(sql "PRAGMA integrity_check")" ok
check_eq "8 writers: runs stored" "$(sql "SELECT count(*) FROM run")" $((before + 8))
check_eq "8 writers: all ok, 2 points each" "$(sql "SELECT count(*) FROM run r WHERE r.id > (SELECT max(id) - 8 FROM run) AND r.status = 'ok' AND (SELECT count(*) FROM point p WHERE p.run_id = r.id) = 2")" 8
wait_no_procs "8 writers"
check_eq "8 writers: dirs left" "$(left_dirs)" 0

# --- the store locked by another process for longer than the busy
# timeout (2 s here, 30 s by default) after the first point: the run
# waits, says so, and stores everything once the lock goes
PGCLIFF_STORE_TIMEOUT=soon "$PGCLIFF" list >/dev/null 2>"$TMP/err"
check_eq "PGCLIFF_STORE_TIMEOUT=soon: exit" $? 64
grep -q 'invalid PGCLIFF_STORE_TIMEOUT "soon"' "$TMP/err" ||
	fail "PGCLIFF_STORE_TIMEOUT=soon: $(cat "$TMP/err")"
export PGCLIFF_STORE_TIMEOUT=2s
"$PGCLIFF" run "$TMP/three.yaml" --seed 7 -q >"$TMP/out" 2>"$TMP/err" &
pid=$!
run=$(($(last_run) + 1))
for _ in $(seq 1 600); do
	[ "$(sql "SELECT count(*) FROM point WHERE run_id = $run" 2>/dev/null)" = 1 ] && break
	sleep 0.05
done
sqlite3 "$PGCLIFF_DB" "BEGIN IMMEDIATE;" "DELETE FROM run WHERE 0;" ".system sleep 5" "COMMIT;"
unset PGCLIFF_STORE_TIMEOUT
wait $pid
check_eq "locked store: exit" $? 0
check_row "locked store" ok 3 0
grep -q "note: the store is locked by another process: waiting" "$TMP/err" ||
	fail "locked store: no note: $(cat "$TMP/err")"

# --- the disks fill up: a tmpfs for the store, then one for $TMPDIR
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=4m tmpfs "$TMP/small" 2>/dev/null; then
	at_exit 'umount "$TMP/small" 2>/dev/null'
	db=$TMP/small/full.db
	"$PGCLIFF" run "$TMP/three.yaml" -c 1 -T 1s -q --db "$db" >/dev/null 2>&1
	check_eq "store disk full: the first run" $? 0
	# fill the disk to the last block
	dd if=/dev/zero of="$TMP/small/filler" bs=4k 2>/dev/null
	"$PGCLIFF" run "$TMP/three.yaml" -T 1s -q --db "$db" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 70 ] || fail "store disk full: exit $rc, want 70: $(cat "$TMP/err")"
	grep -qi "full" "$TMP/err" || fail "store disk full: no reason: $(cat "$TMP/err")"
	rm -f "$TMP/small/filler"
	check_eq "store disk full: integrity" "$(sqlite3 "$db" "PRAGMA integrity_check")" ok
	check_eq "store disk full: the first run kept" "$(sqlite3 "$db" "SELECT status || ':' || (SELECT count(*) FROM point WHERE run_id = 1) FROM run WHERE id = 1")" "ok:1"
	wait_no_procs "store disk full"
	check_eq "store disk full: dirs left" "$(left_dirs)" 0

	# and full in the middle of a run: after its first point
	"$PGCLIFF" run "$TMP/three.yaml" --seed 7 -q --db "$db" >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	for _ in $(seq 1 600); do
		[ "$(sqlite3 "$db" "SELECT count(*) FROM point WHERE run_id = 2" 2>/dev/null)" = 1 ] && break
		sleep 0.05
	done
	dd if=/dev/zero of="$TMP/small/filler" bs=4k 2>/dev/null
	wait $pid
	rc=$?
	[ $rc = 70 ] || fail "store full mid-run: exit $rc, want 70: $(cat "$TMP/err")"
	grep -q "database or disk is full" "$TMP/err" || fail "store full mid-run: no reason: $(cat "$TMP/err")"
	grep -q "^run 2 in $db: failed, 1 point stored, its end not" "$TMP/out" ||
		fail "store full mid-run: summary: $(cat "$TMP/out")"
	rm -f "$TMP/small/filler"
	check_eq "store full mid-run: integrity" "$(sqlite3 "$db" "PRAGMA integrity_check")" ok
	check_eq "store full mid-run: the finished point kept" "$(sqlite3 "$db" "SELECT count(*) FROM point WHERE run_id = 2 AND transactions > 0")" 1
	check_eq "store full mid-run: list calls it" "$("$PGCLIFF" list --db "$db" | awk '$1 == 2 {print $5}')" dead
	wait_no_procs "store full mid-run"
	# its logs could not be copied to the full disk: they stay (and say
	# so), and the next run removes them
	grep -q "note: the server logs stay in" "$TMP/err" || fail "store full mid-run: no note on the logs"
	check_eq "store full mid-run: dirs left" "$(left_dirs)" 1
	sweep_after "store full mid-run"
	umount "$TMP/small"

	# the data directory's disk: initdb fits, the workload's table does not
	mount -t tmpfs -o size=120m tmpfs "$TMP/small"
	chmod 777 "$TMP/small"
	cat >"$TMP/fill.yaml" <<'YAML'
recipe: fill
duration: 20s
warmup: 0s
setup:
  - CREATE TABLE big (x text)
workloads:
  fill:
    script: INSERT INTO big SELECT repeat('x', 1000) FROM generate_series(1, 2000);
YAML
	TMPDIR=$TMP/small "$PGCLIFF" run "$TMP/fill.yaml" -q >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 75 ] || fail "data disk full: exit $rc, want 75: $(cat "$TMP/err")"
	grep -q "No space left on device" "$TMP/err" || fail "data disk full: no reason: $(cat "$TMP/err")"
	run=$(last_run)
	check_eq "data disk full: integrity" "$(sql "PRAGMA integrity_check")" ok
	check_eq "data disk full: status" "$(sql "SELECT status FROM run WHERE id = $run")" failed
	wait_no_procs "data disk full"
	check_eq "data disk full: dirs left" "$(find "$TMP/small" -mindepth 1 -maxdepth 1 | wc -l)" 0
	[ -s "$PGCLIFF_DB-logs/run-$run/default/primary/server.log" ] || fail "data disk full: log not kept"
	umount "$TMP/small"
else
	echo "note: cannot mount a tmpfs here: the disk-full rows are not run"
fi

# kept logs: the newest 20 runs' only.  25 older runs' (made up), then a
# failure of its own: the 6 oldest go
logs=$PGCLIFF_DB-logs
rm -rf "${logs:?}"/run-*
for i in $(seq 1 25); do mkdir -p "$logs/run-$i/default/primary"; done
cat >"$TMP/refused.yaml" <<'YAML'
recipe: refused
duration: 1s
workloads: {w: {script: SELECT 1}}
server: {shared_buffers: 1kB}
YAML
"$PGCLIFF" run "$TMP/refused.yaml" -q >"$TMP/out" 2>"$TMP/err"
check_eq "refused setting: exit" $? 65
run=$(last_run)
check_eq "retention: runs with logs" "$(ls "$logs" | wc -l)" 20
[ -d "$logs/run-6" ] && fail "retention: run-6 kept"
[ -d "$logs/run-7" ] || fail "retention: run-7 removed"
[ -s "$logs/run-$run/default/primary/server.log" ] || fail "retention: the newest run's log missing"
check_eq "kept logs: folder mode" "$(stat -c %a "$logs/run-$run/default/primary")" 700
check_eq "kept logs: file mode" "$(stat -c %a "$logs/run-$run/default/primary/server.log")" 600
check_eq "refused setting: dirs left" "$(left_dirs)" 0
finish
