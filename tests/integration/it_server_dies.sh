#!/usr/bin/env bash
# The server shuts down in the middle of a point: every client is aborted
# (not counted as a failed transaction forever), the point is stored with
# its aborted clients and the transactions done before, the run is stored
# as failed with the reason, exit 75, and no process is left.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper

coproc HELPER { exec "$helper"; }
read -r sockdir user spid <&"${HELPER[0]}" || fail "cluster_helper did not start"

"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 4 -j 2 -T 30s \
	--target "primary=host=$sockdir user=$user dbname=postgres" >"$TMP/out" 2>"$TMP/err" &
pid=$!
# once transactions are flowing (the point is in its window), stop the server
for _ in $(seq 1 300); do
	n=$(psql -X -At -h "$sockdir" -U "$user" -d postgres \
		-c "SELECT xact_commit FROM pg_stat_database WHERE datname = 'postgres'" 2>/dev/null || echo 0)
	[ "${n:-0}" -gt 2000 ] && break
	sleep 0.1
done
exec {HELPER[1]}>&-	# the helper does a fast shutdown: backends are terminated
wait "$HELPER_PID"
wait $pid
check_eq "exit code" $? 75
run=$(sql "SELECT max(id) FROM run")
check_eq "status" "$(sql "SELECT status FROM run WHERE id = $run")" failed
check_eq "reason stored" "$(sql "SELECT error LIKE '4 clients aborted during the run%' FROM run WHERE id = $run")" 1
check_eq "point stored" "$(sql "SELECT count(*) FROM point WHERE run_id = $run")" 1
check_eq "aborted clients" "$(sql "SELECT aborted_clients FROM point WHERE run_id = $run")" 4
check_eq "work before the shutdown kept" "$(sql "SELECT transactions > 0 FROM point WHERE run_id = $run")" 1
grep -q "aborted clients: 4" "$TMP/out" || fail "summary does not report the aborted clients"
grep -q "error: 4 clients aborted during the run" "$TMP/err" || { fail "no error line"; cat "$TMP/err"; }
finish
