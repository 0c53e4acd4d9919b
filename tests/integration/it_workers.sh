#!/usr/bin/env bash
# Load from several drivers: a run --workers 3 whose every point is driven
# by three `pgcliff worker` processes that meet in a PostgreSQL store the
# test starts through pgcliff's own cluster code.  Checks that each stored
# point's totals are exactly the sum of its three shares' results, that
# the shares' per-second series have the same seconds and sum to the
# point's, that the shares' clients add up, that every worker measured
# its clock; then a worker killed (SIGKILL) while it holds its share fails
# the point with the reason and the run as failed, the work of a run
# killed after posting it is claimed by no worker, a worker whose clock
# is 2 s ahead (libfaketime) is refused, and a run whose workers never
# come fails after --worker-timeout with a hint.  No process is left.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper

coproc HELPER { exec "$helper"; }
read -r sockdir user spid <&"${HELPER[0]}" || fail "cluster_helper did not start"
p() { psql -X -q -v ON_ERROR_STOP=1 -h "$sockdir" -U "$user" "$@"; }
p -d postgres -c "CREATE DATABASE results" || fail "no database"
STORE="host=$sockdir user=$user dbname=results"
export PGCLIFF_DB=$STORE
# a PostgreSQL store keeps failed runs' logs beside the default SQLite store
export XDG_DATA_HOME=$TMP/xdg
q() { p -d results -At -c "$1"; }

cat >"$TMP/w.yaml" <<'YAML'
recipe: workers
duration: 2s
warmup: 0s
server:
  fsync: off
  max_connections: 60
sweep: {clients: [3, 7], jobs: [1, 2], workloads: [txid]}
workloads:
  txid: {script: "SELECT txid_current();"}
  reads: {script: "SELECT 1;", clients: 2, jobs: 1}
YAML

# three workers, each serving until told (two points, then the run ends)
for i in 1 2 3; do
	"$PGCLIFF" worker --name "w$i" --idle 60s --shares 2 >"$TMP/w$i.out" 2>&1 </dev/null &
	eval "wpid$i=$!"
done
timeout 180 "$PGCLIFF" run "$TMP/w.yaml" --workers 3 --seed 7 >"$TMP/run.out" 2>"$TMP/run.err" </dev/null
check_eq "run --workers 3: exit" $? 0
for i in 1 2 3; do
	eval "wait \$wpid$i"
	check_eq "worker w$i: exit" $? 0
done
cat "$TMP/run.err" | grep -i "worker" | head -4
check_eq "points stored" "$(q "SELECT count(*) FROM point WHERE run_id = 1")" 4
check_eq "work posted, all done" "$(q "SELECT count(*) || ' ' || string_agg(DISTINCT state, ',') FROM work_point WHERE run_id = 1")" "2 done"
check_eq "shares done, by three workers" \
	"$(q "SELECT count(*) || ' ' || count(DISTINCT worker) FROM work_share s JOIN work_point w ON w.id = s.point_id WHERE w.run_id = 1 AND s.state = 'done'")" "6 3"
# each point's totals are the sum of its shares' (workload by workload)
check_eq "transactions: point = sum of shares" "$(q "
	WITH s AS (
	  SELECT w.order_idx, (x->>'index')::int AS wi, sum((x->>'txns')::bigint) AS txns,
	         sum((x->>'failures')::bigint) AS failures, sum((x->>'jobs')::int) AS jobs
	  FROM work_point w JOIN work_share sh ON sh.point_id = w.id,
	       json_array_elements(sh.result::json->'workloads') x
	  WHERE w.run_id = 1 GROUP BY 1, 2)
	SELECT count(*) FILTER (WHERE p.transactions = s.txns AND p.failures = s.failures
	                         AND p.jobs = s.jobs AND s.txns > 0)
	FROM point p JOIN s ON s.order_idx = p.order_idx
	  AND s.wi = CASE p.workload WHEN 'txid' THEN 0 ELSE 1 END
	WHERE p.run_id = 1")" 4
check_eq "clients: 3 and 7 swept, 2 fixed, split over the shares" "$(q "
	SELECT string_agg(c::text, ',' ORDER BY order_idx) FROM (
	  SELECT w.order_idx, sum((sh.result::json->>'clients')::int) AS c
	  FROM work_point w JOIN work_share sh ON sh.point_id = w.id
	  WHERE w.run_id = 1 GROUP BY 1) t")" "$(q "
	SELECT string_agg(c::text, ',' ORDER BY order_idx) FROM (
	  SELECT order_idx, sum(clients) AS c FROM point WHERE run_id = 1 GROUP BY 1) t")"
# the series: every share has the window's seconds, and they add up
check_eq "seconds per share (all 2)" "$(q "
	SELECT string_agg(DISTINCT json_array_length(x->'sec_txns')::text, ',')
	FROM work_point w JOIN work_share sh ON sh.point_id = w.id,
	     json_array_elements(sh.result::json->'workloads') x WHERE w.run_id = 1")" 2
check_eq "per-second series: point = sum of shares" "$(q "
	WITH s AS (
	  SELECT w.order_idx, (x->>'index')::int AS wi, t.sec - 1 AS second, sum(t.n::bigint) AS n
	  FROM work_point w JOIN work_share sh ON sh.point_id = w.id,
	       json_array_elements(sh.result::json->'workloads') x,
	       json_array_elements_text(x->'sec_txns') WITH ORDINALITY t(n, sec)
	  WHERE w.run_id = 1 GROUP BY 1, 2, 3)
	SELECT count(*) FILTER (WHERE se.transactions = s.n) || '/' || count(*)
	FROM point p JOIN series se ON se.point_id = p.id
	  JOIN s ON s.order_idx = p.order_idx AND s.second = se.second
	   AND s.wi = CASE p.workload WHEN 'txid' THEN 0 ELSE 1 END
	WHERE p.run_id = 1")" "8/8"
check_eq "histograms: point = sum of shares (latency count)" "$(q "
	SELECT count(*) FROM point p WHERE run_id = 1 AND split_part(histogram, ';', 1)::bigint = transactions")" 4
check_eq "every worker measured its clock" "$(q "SELECT count(*) FROM work_share WHERE offset_ms IS NOT NULL AND abs(offset_ms) < 1000")" 6
grep -q "^tps = " "$TMP/run.out" || fail "no pgbench lines: $(head -5 "$TMP/run.out")"
grep -q "workers ready, clocks against the coordinator's: w" "$TMP/run.err" || fail "no clock line: $(head -5 "$TMP/run.err")"
"$PGCLIFF" show 1 >"$TMP/show" 2>&1
grep -q "^workers:  3 a point, driven by w1, w2, w3 (clocks within 0\.[0-9][0-9] ms of the run's)" "$TMP/show" ||
	fail "show: $(head -12 "$TMP/show")"
check_eq "every point knows the window's cpu steal (the worst share's)" \
	"$(q "SELECT count(*) FROM point WHERE run_id = 1 AND steal_pct BETWEEN 0 AND 100")" 4
check_eq "server samples (share 1 samples the primary)" "$(q "SELECT count(DISTINCT order_idx) FROM sample WHERE run_id = 1")" 2

# a worker killed while it holds its share: the point fails, says why
cat >"$TMP/k.yaml" <<'YAML'
recipe: workers_killed
duration: 30s
warmup: 0s
server: {fsync: off}
workloads:
  txid: {script: "SELECT txid_current();", clients: 2, jobs: 1}
YAML
"$PGCLIFF" worker --name keep --idle 30s --shares 1 >"$TMP/keep.out" 2>&1 </dev/null &
keep=$!
"$PGCLIFF" worker --name victim --idle 30s --shares 1 >"$TMP/victim.out" 2>&1 </dev/null &
victim=$!
timeout 120 "$PGCLIFF" run "$TMP/k.yaml" --workers 2 >"$TMP/k.out" 2>"$TMP/k.err" </dev/null &
run=$!
# kill the victim once the point has started (its window is 30 s long)
for _ in $(seq 1 300); do
	[ "$(q "SELECT count(*) FROM work_point w JOIN run r ON r.id = w.run_id WHERE r.recipe = 'workers_killed' AND w.state = 'started'")" = 1 ] && break
	sleep 0.1
done
sleep 1
kill -9 "$victim"
wait "$victim" 2>/dev/null
wait "$run"
rc=$?
check_eq "run with a killed worker: exit" $rc 69
grep -q "worker victim (share [12] of 2) is gone: its store session ended" "$TMP/k.err" ||
	fail "killed worker: $(cat "$TMP/k.err")"
check_eq "its run is failed, with the reason" "$(q "SELECT status || ': ' || (error LIKE '%victim%gone%') FROM run WHERE id = 2")" "failed: true"
check_eq "its work is failed, with the reason" "$(q "SELECT state || ': ' || (reason LIKE '%victim%') FROM work_point WHERE run_id = 2")" "failed: true"
wait "$keep"
check_eq "the other worker ends well" $? 0

# a run killed (SIGKILL) after posting its work: no worker takes it
"$PGCLIFF" run "$TMP/k.yaml" -T 1s --workers 2 --worker-timeout 60s >/dev/null 2>&1 </dev/null &
dead=$!
for _ in $(seq 1 300); do
	[ "$(q "SELECT count(*) FROM work_point WHERE state = 'open'")" = 1 ] && break
	sleep 0.1
done
kill -9 "$dead"
wait "$dead" 2>/dev/null
"$PGCLIFF" worker --name late --idle 2s >"$TMP/late.out" 2>&1 </dev/null
check_eq "a worker after the run died: exit" $? 0
grep -q "^late: 0 shares measured, idle" "$TMP/late.out" || fail "late worker: $(cat "$TMP/late.out")"
check_eq "the dead run's work stays open, unclaimed" "$(q "SELECT count(*) FROM work_share s JOIN work_point w ON w.id = s.point_id WHERE w.state = 'open' AND s.state = 'open'")" 2

# nobody comes: a clear error after --worker-timeout
timeout 60 "$PGCLIFF" run "$TMP/k.yaml" -T 1s --workers 2 --worker-timeout 2s >"$TMP/n.out" 2>"$TMP/n.err" </dev/null
check_eq "run without workers: exit" $? 69
grep -q "only 0 of 2 workers were ready after 2 s" "$TMP/n.err" || fail "no workers: $(cat "$TMP/n.err")"
grep -q "pgcliff worker --db" "$TMP/n.err" || fail "no hint: $(cat "$TMP/n.err")"

# a worker whose clock is 2 s ahead (libfaketime; its monotonic clock
# left alone): the point is refused before it starts
if ldd "$PGCLIFF" | grep -q libtsan; then
	# libfaketime wraps pthread_cond_timedwait; ThreadSanitizer then loses
	# the mutex the wait releases and reports a double lock that is not
	echo "skipped under ThreadSanitizer: a worker under libfaketime"
elif command -v faketime >/dev/null; then
	# libfaketime is preloaded: ASan must not insist on coming first
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
	faketime -m --exclude-monotonic -f "+2" "$PGCLIFF" worker --name skewed --idle 20s --shares 1 \
		>"$TMP/skew.out" 2>&1 </dev/null &
	skew=$!
	timeout 60 "$PGCLIFF" run "$TMP/k.yaml" -T 1s --workers 1 --worker-timeout 30s >"$TMP/c.out" 2>"$TMP/c.err" </dev/null
	check_eq "run with a skewed worker: exit" $? 69
	grep -Eq "worker skewed's clock is \+(199[0-9]|20[0-9][0-9])\.[0-9] ms off the coordinator's \(bound 20\.0 ms\)" "$TMP/c.err" ||
		fail "skewed clock: $(cat "$TMP/c.err")"
	grep -Eq "ready, clock \+(199[0-9]|20[0-9][0-9])\.[0-9]* ms from the run's" "$TMP/skew.out" || fail "skewed worker: $(cat "$TMP/skew.out")"
	timeout 60 "$PGCLIFF" run "$TMP/k.yaml" -T 1s --workers 1 --worker-timeout 30s --max-clock-offset 5000 >"$TMP/c2.out" 2>"$TMP/c2.err" </dev/null &
	c2=$!
	faketime -m --exclude-monotonic -f "+2" "$PGCLIFF" worker --name skewed2 --idle 20s --shares 1 \
		>"$TMP/skew2.out" 2>&1 </dev/null
	wait $c2
	check_eq "the same under --max-clock-offset 5000: exit" $? 0
	wait $skew
else
	fail "faketime is not installed (.ci/setup installs it)"
fi

# a spec whose script runs \shell: a worker refuses it unless it was
# started with --allow-shell (whoever writes to the store writes scripts)
cat >"$TMP/sh.yaml" <<YAML
recipe: workers_shell
duration: 1s
warmup: 0s
workloads:
  w:
    clients: 1
    script: |
      \\shell touch $TMP/shell-ran
      SELECT 1;
YAML
"$PGCLIFF" worker --name careful --idle 20s --shares 1 >"$TMP/careful.out" 2>&1 </dev/null &
careful=$!
timeout 60 "$PGCLIFF" run "$TMP/sh.yaml" --workers 1 --worker-timeout 30s >"$TMP/sh.out" 2>"$TMP/sh.err" </dev/null
check_eq "a \\shell share on a worker without --allow-shell: exit" $? 65
wait $careful
grep -q "careful: run [0-9]* point 1: failed: refused: workload w's script .* runs a shell command (line 1: \\\\shell touch .*), and this worker was not started with --allow-shell" "$TMP/careful.out" ||
	fail "the worker's refusal: $(cat "$TMP/careful.out")"
grep -q "refused: workload w's script" "$TMP/sh.err" || fail "the run's reason: $(cat "$TMP/sh.err")"
[ -e "$TMP/shell-ran" ] && fail "the refused \\shell ran"
check_eq "the refused point is failed" "$(q "SELECT w.state FROM work_point w JOIN run r ON r.id = w.run_id WHERE r.recipe = 'workers_shell'")" failed
"$PGCLIFF" worker --name trusting --allow-shell --idle 20s --shares 1 >"$TMP/trusting.out" 2>&1 </dev/null &
trusting=$!
timeout 60 "$PGCLIFF" run "$TMP/sh.yaml" --workers 1 --worker-timeout 30s >"$TMP/sh2.out" 2>"$TMP/sh2.err" </dev/null
check_eq "the same with --allow-shell: exit" $? 0
wait $trusting
[ -e "$TMP/shell-ran" ] || fail "--allow-shell: the \\shell did not run"

# --workers needs a PostgreSQL store
"$PGCLIFF" run "$TMP/k.yaml" --workers 2 --db "$TMP/local.db" >/dev/null 2>"$TMP/s.err" </dev/null
check_eq "--workers on SQLite: exit" $? 64
grep -q "needs a PostgreSQL store" "$TMP/s.err" || fail "sqlite: $(cat "$TMP/s.err")"
"$PGCLIFF" worker --db "$TMP/local.db" --idle 1s >/dev/null 2>"$TMP/s2.err" </dev/null
check_eq "worker on SQLite: exit" $? 64

exec {HELPER[1]}>&-
wait "$HELPER_PID" 2>/dev/null
finish
