#!/usr/bin/env bash
# On an external server (started by pgcliff's cluster code): the values a
# script binds reach the server intact in all three protocols (checked in
# the rows the transactions wrote), and a query still running when the
# window closes is cancelled rather than left on the server.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper

coproc HELPER { exec "$helper"; }
read -r sockdir user spid <&"${HELPER[0]}" || fail "cluster_helper did not start"
psql_() { psql -X -q -At -h "$sockdir" -U "$user" -d postgres -c "$1"; }
psql_ "CREATE TABLE seen (proto text, client int, r int8, big int8)"

for proto in simple extended prepared; do
	cat >"$TMP/$proto.yaml" <<YAML
recipe: bind_$proto
duration: 1s
workloads:
  w:
    protocol: $proto
    clients: 3
    jobs: 2
    script: |
      \\set r random(-5, 5)
      \\set big 9223372036854775807 - :r * 0
      INSERT INTO seen VALUES ('$proto', :client_id, :r, :big);
YAML
	"$PGCLIFF" run "$TMP/$proto.yaml" --target "primary=host=$sockdir user=$user dbname=postgres" -q >"$TMP/out" 2>"$TMP/err"
	check_eq "$proto: exit code" $? 0
	txns=$(sql "SELECT transactions FROM point WHERE run_id = (SELECT max(id) FROM run)")
	# every counted transaction wrote a row (rows written after the window
	# closed are not counted, hence >=)
	check_eq "$proto: rows >= transactions" "$(psql_ "SELECT count(*) >= $txns AND $txns > 0 FROM seen WHERE proto = '$proto'")" t
	check_eq "$proto: client ids" "$(psql_ "SELECT string_agg(DISTINCT client::text, ',' ORDER BY client::text) FROM seen WHERE proto = '$proto'")" "0,1,2"
	check_eq "$proto: random within bounds, both ends reached" "$(psql_ "SELECT min(r) || ',' || max(r) FROM seen WHERE proto = '$proto'")" "-5,5"
	check_eq "$proto: int64 max intact" "$(psql_ "SELECT count(*) FROM seen WHERE proto = '$proto' AND big <> 9223372036854775807")" 0
done

# a 30 s query in a 1 s window: cancelled after the grace second
cat >"$TMP/sleepy.yaml" <<'YAML'
recipe: sleepy
duration: 1s
workloads:
  w:
    clients: 2
    script: SELECT pg_sleep(30)
YAML
"$PGCLIFF" run "$TMP/sleepy.yaml" --target "primary=host=$sockdir user=$user dbname=postgres" -q >"$TMP/out" 2>"$TMP/err"
check_eq "sleepy: exit code" $? 0
check_eq "sleepy: no transaction completed" "$(sql "SELECT transactions FROM point WHERE run_id = (SELECT max(id) FROM run)")" 0
check_eq "sleepy: nothing left running on the server" "$(psql_ "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%' AND state = 'active'")" 0

exec {HELPER[1]}>&-
wait "$HELPER_PID"
finish
