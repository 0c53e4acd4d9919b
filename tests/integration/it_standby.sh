#!/usr/bin/env bash
# A managed primary and a hot standby made from it by pgcliff's cluster
# code (pg_basebackup -R): the standby is in recovery, streams from the
# primary, replays what the primary writes, refuses writes; stopping the
# pair leaves no process.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper
coproc HELPER { exec "$helper" --standby; }
read -r psock user ppid <&"${HELPER[0]}" || fail "primary did not start"
read -r ssock _ spid <&"${HELPER[0]}" || fail "standby did not start"
q() { psql -X -A -t -h "$1" -U "$user" -d postgres -c "$2" 2>&1; }

check_eq "standby in recovery" "$(q "$ssock" "SELECT pg_is_in_recovery()")" t
check_eq "primary not in recovery" "$(q "$psock" "SELECT pg_is_in_recovery()")" f
check_eq "one streaming standby" "$(q "$psock" "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming'")" 1
q "$psock" "CREATE TABLE t AS SELECT g FROM generate_series(1, 1000) g" >/dev/null
for _ in $(seq 1 100); do
	[ "$(q "$ssock" "SELECT count(*) FROM t" 2>/dev/null)" = 1000 ] && break
	sleep 0.1
done
check_eq "replayed on the standby" "$(q "$ssock" "SELECT count(*) FROM t")" 1000
q "$ssock" "INSERT INTO t VALUES (1)" | grep -q "read-only transaction" || fail "the standby took a write"
[ "$ppid" != "$spid" ] || fail "one process for both"

exec {HELPER[1]}>&-
wait "$HELPER_PID"
check_eq "helper exit" $? 0
finish
