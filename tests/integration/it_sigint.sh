#!/usr/bin/env bash
# SIGINT in the middle of a run: the run is stored as interrupted with the
# points finished before the signal, exit 75, and no server is left.
# SIGKILL: the run stays "running" in the store, and list and show call
# it dead since its process is gone.
. "$(dirname "$0")/lib.sh"

"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 1,2,4,8,16 -T 3s -q >"$TMP/out" 2>"$TMP/err" &
pid=$!
# wait for the first stored point (bounded)
for _ in $(seq 1 600); do
	n=$(sql "SELECT count(*) FROM point" 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 1 ] && break
	sleep 0.1
done
kill -INT $pid
wait $pid
check_eq "exit code" $? 75
run=$(sql "SELECT max(id) FROM run")
check_eq "status" "$(sql "SELECT status FROM run WHERE id = $run")" interrupted
check_eq "error" "$(sql "SELECT error FROM run WHERE id = $run")" interrupted
points=$(sql "SELECT count(*) FROM point WHERE run_id = $run")
[ "$points" -ge 1 ] && [ "$points" -lt 5 ] || fail "points stored: $points (want 1..4)"
check_eq "stored points are complete" "$(sql "SELECT count(*) FROM point WHERE run_id = $run AND transactions > 0")" "$points"
check_eq "ended_at set" "$(sql "SELECT ended_at IS NOT NULL FROM run WHERE id = $run")" 1
grep -q "status interrupted, $points point" "$TMP/out" || fail "no summary line"

# SIGKILL: nothing can be stored at the end, but the run is seen as dead
# (its process is gone), with the points finished before, and no server
# outlives it (the postmaster's parent-death signal).  Killed once its
# second point has staged seconds (every 10 s), which the next run drops.
"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 1,2 -T 12s -q >"$TMP/out" 2>"$TMP/err" &
pid=$!
run=$((run + 1))
for _ in $(seq 1 600); do
	n=$(sql "SELECT count(*) FROM point WHERE run_id = $run" 2>/dev/null || echo 0)
	m=$(sql "SELECT count(*) FROM series_stage WHERE run_id = $run" 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 1 ] && [ "${m:-0}" -ge 1 ] && break
	sleep 0.1
done
[ "${m:-0}" -ge 1 ] || fail "the second point staged no seconds"
kill -KILL $pid
wait $pid
check_eq "SIGKILL exit" $? 137
check_eq "stored status" "$(sql "SELECT status FROM run WHERE id = $run")" running
"$PGCLIFF" list | awk -v r=$run '$1 == r {print $5}' >"$TMP/state"
check_eq "list calls it" "$(cat "$TMP/state")" dead
"$PGCLIFF" show $run >"$TMP/show"
grep -q "^run $run: recipe txid_current, status dead" "$TMP/show" || fail "show: $(head -1 "$TMP/show")"
grep -q "the process writing it died" "$TMP/show" || fail "show: $(sed -n 3p "$TMP/show")"
check_eq "its finished points kept" "$(sql "SELECT count(*) >= 1 FROM point WHERE run_id = $run")" 1
# a point streamed over two blocks of seconds: 12 rows summing to its total
check_eq "streamed series = totals" "$(sql "SELECT count(*) FROM point p WHERE run_id = $run AND transactions = (SELECT sum(transactions) FROM series s WHERE s.point_id = p.id) AND (SELECT count(*) FROM series s WHERE s.point_id = p.id) = 12")" 1
# the postmaster follows its parent within a moment
for _ in $(seq 1 100); do [ -z "$(live_procs)" ] && break; sleep 0.1; done
check_eq "its staged seconds kept" "$(sql "SELECT count(*) > 0 FROM series_stage WHERE run_id = $run")" 1
"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 1 -T 1s -q >"$TMP/out" 2>&1 || fail "next run: $(cat "$TMP/out")"
check_eq "the next run drops them" "$(sql "SELECT count(*) FROM series_stage")" 0
check_eq "still dead" "$("$PGCLIFF" list | awk -v r=$run '$1 == r {print $5}')" dead

# The tests' own harness (lib.sh): a test stopped by SIGTERM, as when a CI
# run is cancelled, stops the run it started in the background, leaves no
# server and removes its scratch dir. Only the test's shell gets the signal.
cat >"$TMP/child.sh" <<'CHILD'
. "$2/tests/integration/lib.sh"
"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 1 -T 300s -q >"$TMP/out" 2>&1 &
wait $!
finish
CHILD
bash "$TMP/child.sh" "$PGCLIFF" "$ROOT" >"$TMP/child.out" 2>&1 &
child=$!
cdir=
for _ in $(seq 1 600); do	# until its server says ready (bounded)
	cdir=$(ls -d "$TMP"/pgcliff-it.* 2>/dev/null | head -1)
	[ -n "$cdir" ] && cat "$cdir"/pgcliff-*/data/postmaster.pid 2>/dev/null | grep -q '^ready' && break
	sleep 0.1
done
[ "$(live_under "${cdir:-none}")" -gt 0 ] || fail "the child test's server never came up: $(cat "$TMP/child.out")"
kill -TERM $child
wait $child
check_eq "interrupted test: dies of SIGTERM" $? 143
grep -q "interrupted by SIGTERM" "$TMP/child.out" || fail "interrupted test said: $(cat "$TMP/child.out")"
check_eq "interrupted test: its scratch dir" "$(ls -d "$TMP"/pgcliff-it.* 2>/dev/null)" ""
check_eq "interrupted test: processes left" "$(live_under "${cdir:-none}")" 0
finish
