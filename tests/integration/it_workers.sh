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
# come fails after --worker-timeout with a hint.  Who may post work: a
# worker refuses to start without a key of its owner's alone, refuses the
# work of a run with another key, and forged rows (unsigned, a signature
# not the key's, a spec replayed from another run, one an hour old, one
# whose servers are a host it does not allow, where a listener records
# what reaches it) fail with the reason, nothing of them runs or connects
# and the store holds no point of them.  No process is left.
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
# the secret the runs and their workers share (wire.h): owner's alone
(umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMP/key")
export PGCLIFF_KEY_FILE=$TMP/key

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
	"$PGCLIFF" worker --allow-host "$TMP" --name "w$i" --idle 60s --shares 2 >"$TMP/w$i.out" 2>&1 </dev/null &
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
"$PGCLIFF" worker --allow-host "$TMP" --name keep --idle 30s --shares 1 >"$TMP/keep.out" 2>&1 </dev/null &
keep=$!
"$PGCLIFF" worker --allow-host "$TMP" --name victim --idle 30s --shares 1 >"$TMP/victim.out" 2>&1 </dev/null &
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
"$PGCLIFF" worker --allow-host "$TMP" --name late --idle 2s >"$TMP/late.out" 2>&1 </dev/null
check_eq "a worker after the run died: exit" $? 0
grep -q "^late: 0 shares measured, idle" "$TMP/late.out" || fail "late worker: $(cat "$TMP/late.out")"
check_eq "the dead run's work stays open, unclaimed" "$(q "SELECT count(*) FROM work_share s JOIN work_point w ON w.id = s.point_id WHERE w.state = 'open' AND s.state = 'open'")" 2

# a worker whose store session is cut for 30 s in the window (a relay in
# front of the store drops its connections and refuses new ones): the
# run sees the claim go and fails the point; the worker, its store back,
# writes its share failed (never its result) and goes on
mkdir "$TMP/relay"
storesock=$(echo "$sockdir"/.s.PGSQL.*[0-9])
python3 "$ROOT/tests/integration/store_proxy.py" "$storesock" "$TMP/relay/$(basename "$storesock")" 30 \
	>"$TMP/relay.out" 2>&1 </dev/null &
relay=$!
# relay_says WORD: wait (60 s at most) until the relay has printed WORD
relay_says() {
	for _ in $(seq 1 600); do grep -qx "$1" "$TMP/relay.out" && return 0; sleep 0.1; done
	return 1
}
relay_says ready || fail "the relay did not start: $(cat "$TMP/relay.out")"
"$PGCLIFF" worker --db "host=$TMP/relay user=$user dbname=results" --allow-host "$TMP" --name cut --idle 60s \
	--shares 2 >"$TMP/cut.out" 2>&1 </dev/null &
cut=$!
cutrun=$(($(q "SELECT max(id) FROM run") + 1))
timeout 120 "$PGCLIFF" run "$TMP/k.yaml" -T 10s --workers 1 >"$TMP/cr.out" 2>"$TMP/cr.err" </dev/null &
run=$!
for _ in $(seq 1 300); do
	[ "$(q "SELECT count(*) FROM work_point WHERE state = 'started' AND run_id = $cutrun")" = 1 ] && break
	sleep 0.1
done
sleep 1
kill -USR1 "$relay"
relay_says cut || fail "the relay did not cut: $(cat "$TMP/relay.out")"
wait "$run"
check_eq "run whose worker lost its store: exit" $? 69
grep -q "worker cut (share 1 of 1) is gone: its store session ended" "$TMP/cr.err" || fail "cut run: $(cat "$TMP/cr.err")"
relay_says back || fail "the relay did not listen again: $(cat "$TMP/relay.out")"
# then a second run, which the same worker serves on its new session
timeout 120 "$PGCLIFF" run "$TMP/k.yaml" -T 1s --workers 1 >"$TMP/cr2.out" 2>"$TMP/cr2.err" </dev/null
check_eq "the next run, served by the worker after the cut: exit" $? 0
wait "$cut"
check_eq "the worker that lost its store: exit" $? 0
sed 's/^/  | /' "$TMP/cut.out"
grep -q "^cut: the store's session is gone (.*): trying again every second$" "$TMP/cut.out" || fail "cut worker: $(cat "$TMP/cut.out")"
grep -Eq "^cut: the store is back after (29|3[0-9]) s$" "$TMP/cut.out" || fail "cut worker: $(cat "$TMP/cut.out")"
grep -q "^cut: run $cutrun point 1: failed: the worker's store session was cut during the share, and its claim with it: the share is not counted$" \
	"$TMP/cut.out" || fail "cut worker: $(cat "$TMP/cut.out")"
grep -q "^cut: run $((cutrun + 1)) point 1: done, [1-9][0-9]* transactions$" "$TMP/cut.out" || fail "cut worker: $(cat "$TMP/cut.out")"
check_eq "the cut run: failed, its share failed with the reason, no point stored" "$(q "
	SELECT r.status || ' ' || s.state || ' ' || (s.error LIKE '%cut during the share%') || ' ' ||
	       (SELECT count(*) FROM point p WHERE p.run_id = r.id)
	FROM run r JOIN work_point w ON w.run_id = r.id JOIN work_share s ON s.point_id = w.id WHERE r.id = $cutrun")" \
	"failed failed true 0"
check_eq "the next run: one point, from the worker's share" "$(q "
	SELECT count(*) FROM point p JOIN work_point w ON w.run_id = p.run_id JOIN work_share s ON s.point_id = w.id
	WHERE p.run_id = $((cutrun + 1)) AND s.state = 'done' AND s.worker = 'cut'")" 1
kill -TERM "$relay"
wait "$relay" 2>/dev/null

# nobody comes: a clear error after --worker-timeout
timeout 60 "$PGCLIFF" run "$TMP/k.yaml" -T 1s --workers 2 --worker-timeout 2s >"$TMP/n.out" 2>"$TMP/n.err" </dev/null
check_eq "run without workers: exit" $? 69
grep -q "only 0 of 2 workers were ready after 2 s" "$TMP/n.err" || fail "no workers: $(cat "$TMP/n.err")"
grep -q "pgcliff worker --db .* --key-file FILE" "$TMP/n.err" || fail "no hint: $(cat "$TMP/n.err")"

# a worker whose clock is 2 s ahead (libfaketime; its monotonic clock
# left alone): the point is refused before it starts
if ldd "$PGCLIFF" | grep -q libtsan; then
	# libfaketime wraps pthread_cond_timedwait; ThreadSanitizer then loses
	# the mutex the wait releases and reports a double lock that is not
	echo "skipped under ThreadSanitizer: a worker under libfaketime"
elif command -v faketime >/dev/null; then
	# libfaketime is preloaded: ASan must not insist on coming first
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
	faketime -m --exclude-monotonic -f "+2" "$PGCLIFF" worker --allow-host "$TMP" --name skewed --idle 20s --shares 1 \
		>"$TMP/skew.out" 2>&1 </dev/null &
	skew=$!
	timeout 60 "$PGCLIFF" run "$TMP/k.yaml" -T 1s --workers 1 --worker-timeout 30s >"$TMP/c.out" 2>"$TMP/c.err" </dev/null
	check_eq "run with a skewed worker: exit" $? 69
	grep -Eq "worker skewed's clock is \+(199[0-9]|20[0-9][0-9])\.[0-9] ms off the coordinator's \(bound 20\.0 ms\)" "$TMP/c.err" ||
		fail "skewed clock: $(cat "$TMP/c.err")"
	grep -Eq "ready, clock \+(199[0-9]|20[0-9][0-9])\.[0-9]* ms from the run's" "$TMP/skew.out" || fail "skewed worker: $(cat "$TMP/skew.out")"
	timeout 60 "$PGCLIFF" run "$TMP/k.yaml" -T 1s --workers 1 --worker-timeout 30s --max-clock-offset 5000 >"$TMP/c2.out" 2>"$TMP/c2.err" </dev/null &
	c2=$!
	faketime -m --exclude-monotonic -f "+2" "$PGCLIFF" worker --allow-host "$TMP" --name skewed2 --idle 20s --shares 1 \
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
"$PGCLIFF" worker --allow-host "$TMP" --name careful --idle 20s --shares 1 >"$TMP/careful.out" 2>&1 </dev/null &
careful=$!
timeout 60 "$PGCLIFF" run "$TMP/sh.yaml" --workers 1 --worker-timeout 30s >"$TMP/sh.out" 2>"$TMP/sh.err" </dev/null
check_eq "a \\shell share on a worker without --allow-shell: exit" $? 65
wait $careful
grep -q "careful: run [0-9]* point 1: failed: refused: workload w's script .* runs a shell command (line 1: \\\\shell touch .*), and this worker was not started with --allow-shell" "$TMP/careful.out" ||
	fail "the worker's refusal: $(cat "$TMP/careful.out")"
grep -q "refused: workload w's script" "$TMP/sh.err" || fail "the run's reason: $(cat "$TMP/sh.err")"
[ -e "$TMP/shell-ran" ] && fail "the refused \\shell ran"
check_eq "the refused point is failed" "$(q "SELECT w.state FROM work_point w JOIN run r ON r.id = w.run_id WHERE r.recipe = 'workers_shell'")" failed
"$PGCLIFF" worker --allow-host "$TMP" --name trusting --allow-shell --idle 20s --shares 1 >"$TMP/trusting.out" 2>&1 </dev/null &
trusting=$!
timeout 60 "$PGCLIFF" run "$TMP/sh.yaml" --workers 1 --worker-timeout 30s >"$TMP/sh2.out" 2>"$TMP/sh2.err" </dev/null
check_eq "the same with --allow-shell: exit" $? 0
wait $trusting
[ -e "$TMP/shell-ran" ] || fail "--allow-shell: the \\shell did not run"

# Who may post work (wire.h).  A worker without a key, or with one others
# may read, does not start; a run with --workers needs one too
env -u PGCLIFF_KEY_FILE "$PGCLIFF" worker --idle 1s >/dev/null 2>"$TMP/nokey.err" </dev/null
check_eq "a worker without --key-file: exit" $? 64
grep -q "a worker needs --key-file (or PGCLIFF_KEY_FILE)" "$TMP/nokey.err" || fail "no key: $(cat "$TMP/nokey.err")"
cp "$TMP/key" "$TMP/key.open" && chmod 644 "$TMP/key.open"
"$PGCLIFF" worker --key-file "$TMP/key.open" --idle 1s >/dev/null 2>"$TMP/open.err" </dev/null
check_eq "a worker with a key others can read: exit" $? 64
grep -q "the key file \"$TMP/key.open\" may be read or written by others (mode 0644, owner 0)" "$TMP/open.err" ||
	fail "open key: $(cat "$TMP/open.err")"
(umask 077 && echo short >"$TMP/key.short")
"$PGCLIFF" worker --key-file "$TMP/key.short" --idle 1s >/dev/null 2>"$TMP/short.err" </dev/null
check_eq "a worker with a 5-byte key: exit" $? 64
grep -q "holds 5 bytes: a key is 16 to 4096" "$TMP/short.err" || fail "short key: $(cat "$TMP/short.err")"
env -u PGCLIFF_KEY_FILE "$PGCLIFF" run "$TMP/k.yaml" --workers 1 >/dev/null 2>"$TMP/runnokey.err" </dev/null
check_eq "run --workers without a key: exit" $? 64
grep -q "\-\-workers needs --key-file" "$TMP/runnokey.err" || fail "run without key: $(cat "$TMP/runnokey.err")"
"$PGCLIFF" run "$TMP/k.yaml" --key-file "$TMP/key" >/dev/null 2>"$TMP/keyalone.err" </dev/null
check_eq "--key-file without --workers: exit" $? 64

# a worker with another key refuses the run's work; nothing of it runs
(umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$TMP/key2")
"$PGCLIFF" worker --allow-host "$TMP" --allow-shell --key-file "$TMP/key2" --name other --idle 20s --shares 1 \
	>"$TMP/other.out" 2>&1 </dev/null &
other=$!
rm -f "$TMP/shell-ran"
timeout 60 "$PGCLIFF" run "$TMP/sh.yaml" --workers 1 --worker-timeout 30s >"$TMP/o.out" 2>"$TMP/o.err" </dev/null
check_eq "a worker with another key: the run's exit" $? 69
wait $other
grep -q "other: run [0-9]* point 1: failed: refused: the point's spec is not signed with this worker's key" "$TMP/other.out" ||
	fail "another key: $(cat "$TMP/other.out")"
grep -q "refused: the point's spec is not signed with this worker's key" "$TMP/o.err" || fail "another key, the run: $(cat "$TMP/o.err")"
[ -e "$TMP/shell-ran" ] && fail "a spec of another key ran its \\shell"

# Forged work: rows written straight into the store, with the advisory
# lock of a coordinator held by this test's own session (as anyone who can
# write to the store can).  forge RUN SIGNATURE SPECFILE: the point's id
forge() {
	p -d results -At -v run="$1" -v sig="$2" -v spec="$(cat "$3")" <<'SQL'
INSERT INTO work_point (run_id, order_idx, nshares, spec, signature, state, posted_at)
  VALUES (:run, 0, 1, :'spec', NULLIF(:'sig', ''), 'open', now()::text) RETURNING id \gset
INSERT INTO work_share (point_id, share, state) VALUES (:id, 0, 'open');
SELECT :id;
SQL
}
# hold_lock ID: a session of ours holds the coordinator's lock on it
hold_lock() {
	rm -f "$TMP/lock.fifo" && mkfifo "$TMP/lock.fifo"
	p -d results -At <"$TMP/lock.fifo" >"$TMP/lock.out" 2>&1 &
	lockpid=$!
	exec {lockfd}>"$TMP/lock.fifo"
	echo "SELECT pg_advisory_lock(1885823843, $1);" >&$lockfd
	# held once the server says so (psql's output to a file is buffered)
	for _ in $(seq 1 100); do
		[ "$(q "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 1885823843 AND objid = $1 AND granted")" = 1 ] && break
		sleep 0.1
	done
}
release_lock() { exec {lockfd}>&-; wait $lockpid; }
shellrun=$(q "SELECT max(r.id) FROM run r WHERE r.recipe = 'workers_shell' AND r.status = 'ok'")
q "SELECT spec FROM work_point WHERE run_id = $shellrun" >"$TMP/shell.spec"
q "SELECT signature FROM work_point WHERE run_id = $shellrun" >"$TMP/shell.sig"
check_eq "the coordinator signed its spec" "$(grep -cE '^[0-9a-f]{64}$' "$TMP/shell.sig")" 1
points_before=$(q "SELECT count(*) FROM point")
forged() {	# forged WHAT RUN SIGNATURE SPECFILE REASON: a worker refuses it
	local id
	id=$(forge "$2" "$3" "$4")
	hold_lock "$id"
	rm -f "$TMP/shell-ran"
	"$PGCLIFF" worker --allow-host "$TMP" --allow-shell --name forged --idle 5s --shares 1 \
		>"$TMP/forged.out" 2>&1 </dev/null
	check_eq "$1: the worker's exit" $? 0
	release_lock
	grep -q "forged: run $2 point 1: failed: refused: $5" "$TMP/forged.out" || fail "$1: $(cat "$TMP/forged.out")"
	check_eq "$1: the refusal recorded" "$(q "SELECT state || ' ' || (error LIKE '%refused: %') FROM work_share WHERE point_id = $id")" "failed true"
	[ -e "$TMP/shell-ran" ] && fail "$1: its \\shell ran"
}
forged "an unsigned spec" "$shellrun" "" "$TMP/shell.spec" "the point's spec is not signed"
forged "a spec whose signature is not the key's" "$shellrun" "$(tr 0-9a-f 1-9a-f0 <"$TMP/shell.sig")" "$TMP/shell.spec" \
	"the point's spec is not signed with this worker's key"
# another run's spec with its signature, posted again for this one
forged "a spec replayed from another run" 1 "$(cat "$TMP/shell.sig")" "$TMP/shell.spec" \
	"the point's spec is not signed with this worker's key"
# the same run's, signed, long after: refused by its age
python3 - "$TMP/shell.spec" >"$TMP/old.spec" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["posted_us"] -= 3600 * 10**6
print(json.dumps(d, separators=(",", ":")))
PY
sign() {	# sign RUN SPECFILE: the signature a coordinator of this key writes
	python3 - "$TMP/key" "$(q "SELECT uid FROM run WHERE id = $1")" "$2" <<'PY'
import hashlib, hmac, sys
key = open(sys.argv[1], "rb").read().rstrip(b"\r\n")
spec = open(sys.argv[3], "rb").read().rstrip(b"\n")
msg = b"pgcliff spec 1\0" + sys.argv[2].encode() + b"\0" + b"0\0" + spec + b"\0"
print(hmac.new(key, msg, hashlib.sha256).hexdigest())
PY
}
check_eq "the test signs as the coordinator does" "$(sign "$shellrun" "$TMP/shell.spec")" "$(cat "$TMP/shell.sig")"
forged "a signed spec an hour old" "$shellrun" "$(sign "$shellrun" "$TMP/old.spec")" "$TMP/old.spec" \
	"the point's spec was posted 36[0-9][0-9] s ago by this worker's clock (at most 630 s)"
check_eq "forged work stored no point" "$(q "SELECT count(*) FROM point")" "$points_before"

# a signed spec whose servers are a host the worker does not allow: a
# listener there records what reaches it; the worker has a password
python3 - "$TMP/listener" <<'PY' &
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.2", 0))
s.listen(4)
s.settimeout(0.2)
open(sys.argv[1] + ".port", "w").write(str(s.getsockname()[1]))
got = b""
end = time.time() + 120
while time.time() < end and not __import__("os").path.exists(sys.argv[1] + ".stop"):
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    c.settimeout(2)
    try:
        got += c.recv(65536)
    except socket.timeout:
        pass
    c.close()
    open(sys.argv[1] + ".got", "wb").write(got)
PY
listener=$!
for _ in $(seq 1 50); do [ -s "$TMP/listener.port" ] && break; sleep 0.1; done
python3 - "$TMP/shell.spec" "$(cat "$TMP/listener.port")" >"$TMP/away.spec" <<'PY'
import json, sys, time
d = json.load(open(sys.argv[1]))
d["posted_us"] = int(time.time() * 10**6)
for w in d["workloads"]:
    w["scripts"] = [dict(s, text="SELECT 1;\n") for s in w["scripts"]]
for c in [w["conn"] for w in d["workloads"]] + [n["conn"] for n in d["nodes"]]:
    c[:] = [kv for kv in c if kv[0] not in ("host", "hostaddr", "port")]
    c += [["host", "127.0.0.2"], ["port", sys.argv[2]]]
print(json.dumps(d, separators=(",", ":")))
PY
export PGPASSWORD=worker-secret
forged "a signed spec for a host not allowed" "$shellrun" "$(sign "$shellrun" "$TMP/away.spec")" "$TMP/away.spec" \
	"workload w connects to host \"127.0.0.2\", which this worker does not allow"
check_eq "nothing reached the listener" "$(cat "$TMP/listener.got" 2>/dev/null | wc -c)" 0
# a service names hosts in a file of the worker's, which it cannot check
python3 - "$TMP/away.spec" >"$TMP/service.spec" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["workloads"][0]["conn"] = [kv for kv in d["workloads"][0]["conn"] if kv[0] != "host"] + [["service", "prod"]]
print(json.dumps(d, separators=(",", ":")))
PY
forged "a signed spec naming a service" "$shellrun" "$(sign "$shellrun" "$TMP/service.spec")" "$TMP/service.spec" \
	"workload w names a service (\"prod\"), whose hosts this worker cannot check"
# the control: allowed, the worker does connect there (and the listener
# hangs up: it is not PostgreSQL), so the check above could have failed
id=$(forge "$shellrun" "$(sign "$shellrun" "$TMP/away.spec")" "$TMP/away.spec")
hold_lock "$id"
"$PGCLIFF" worker --allow-host "$TMP" --allow-host 127.0.0.2 --name allowed --idle 5s --shares 1 \
	>"$TMP/allowed.out" 2>&1 </dev/null
release_lock
unset PGPASSWORD
touch "$TMP/listener.stop"
wait $listener
grep -q "allowed: run $shellrun point 1: failed: .*127.0.0.2" "$TMP/allowed.out" || fail "allowed host: $(cat "$TMP/allowed.out")"
# (libpq's SSLRequest, 8 bytes: the listener hangs up before more)
[ -s "$TMP/listener.got" ] || fail "the allowed worker did not reach the listener"
grep -q "worker-secret" "$TMP/listener.got" 2>/dev/null && fail "the listener got the worker's password"

# --workers needs a PostgreSQL store
"$PGCLIFF" run "$TMP/k.yaml" --workers 2 --db "$TMP/local.db" >/dev/null 2>"$TMP/s.err" </dev/null
check_eq "--workers on SQLite: exit" $? 64
grep -q "needs a PostgreSQL store" "$TMP/s.err" || fail "sqlite: $(cat "$TMP/s.err")"
"$PGCLIFF" worker --db "$TMP/local.db" --idle 1s >/dev/null 2>"$TMP/s2.err" </dev/null
check_eq "worker on SQLite: exit" $? 64

exec {HELPER[1]}>&-
wait "$HELPER_PID" 2>/dev/null
finish
