#!/usr/bin/env bash
# The standby of a managed pair stops in the middle of a run: the standby
# workload's clients are counted as aborted with the reason, the primary
# workload goes on to the end, the samples of the dead node say so, the
# run is stored as failed (exit 75), and no process is left.
. "$(dirname "$0")/lib.sh"
cat >"$TMP/sb.yaml" <<'YAML'
recipe: standby_dies
topology: primary+standby
duration: 12s
workloads:
  writes: {target: primary, clients: 1, script: SELECT txid_current()}
  reads: {target: standby, clients: 2, script: SELECT 1}
YAML
"$PGCLIFF" run "$TMP/sb.yaml" >"$TMP/out" 2>"$TMP/err" &
run_pid=$!
# the standby's postmaster, from its own postmaster.pid, once the window
# has started
standby_pid() {
	local f
	for _ in $(seq 1 600); do
		f=$(ls "$TMP"/pgcliff-*-sb-*/data/postmaster.pid 2>/dev/null | head -1)
		if [ -n "$f" ] && grep -q "^point 1 of 1" "$TMP/out" 2>/dev/null; then
			head -1 "$f"
			return
		fi
		sleep 0.1
	done
}
sb=$(standby_pid)
[ -n "$sb" ] || fail "no standby postmaster found"
sleep 3
kill -QUIT "$sb" 2>/dev/null	# immediate shutdown, by its pid
wait "$run_pid"
check_eq "run exit" $? 75
run=$(sql "SELECT max(id) FROM run")
check_eq "stored as failed" "$(sql "SELECT status FROM run WHERE id = $run")" failed
check_eq "the standby's clients aborted" "$(sql "SELECT aborted_clients FROM point WHERE run_id = $run AND workload = 'reads'")" 2
check_eq "the primary's went on" "$(sql "SELECT aborted_clients = 0 AND transactions > 0 FROM point WHERE run_id = $run AND workload = 'writes'")" 1
check_eq "the primary measured to the end" "$(sql "SELECT min(s.transactions) > 0 FROM series s JOIN point p ON p.id = s.point_id WHERE p.run_id = $run AND p.workload = 'writes'")" 1
check_eq "failed standby samples" "$(sql "SELECT count(*) > 0 FROM sample WHERE run_id = $run AND node = 'standby' AND NOT ok AND error IS NOT NULL")" 1
grep -q "aborted" "$TMP/err" || fail "no abort reason: $(cat "$TMP/err")"

# with on_error: {connection: abort_run} the point stops at the loss
sed 's/^  reads: {target: standby, clients: 2, script: SELECT 1}$/  reads: {target: standby, clients: 2, script: SELECT 1, on_error: {connection: abort_run}}/' \
	"$TMP/sb.yaml" >"$TMP/sb2.yaml"
grep -q abort_run "$TMP/sb2.yaml" || fail "sed did not apply"
: >"$TMP/out"
"$PGCLIFF" run "$TMP/sb2.yaml" >"$TMP/out" 2>"$TMP/err" &
run_pid=$!
sb=$(standby_pid)
[ -n "$sb" ] || fail "no standby postmaster found (2)"
sleep 2
kill -QUIT "$sb" 2>/dev/null
wait "$run_pid"
check_eq "abort_run exit" $? 75
grep -q "the policy aborts the run" "$TMP/err" || fail "abort_run reason: $(cat "$TMP/err")"
run=$(sql "SELECT max(id) FROM run")
check_eq "abort_run: stored as failed, no point" "$(sql "SELECT status || ':' || (SELECT count(*) FROM point WHERE run_id = $run) FROM run WHERE id = $run")" "failed:0"
finish
