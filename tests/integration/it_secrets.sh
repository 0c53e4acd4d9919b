#!/usr/bin/env bash
# Passwords: given in a conninfo, a URI, PGPASSWORD or a .pgpass file, to
# a server that asks for one (scram-sha-256), a password never appears in
# the store, in any output format, in the logs pgcliff keeps, or in the
# process list while the run is in its window; a wrong one is not echoed.
# The store file is created 0600; a managed server's directories are 0700.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper
PW=Pw_s3cr3t_4c8e

coproc HELPER { exec "$helper"; }
read -r sockdir user spid <&"${HELPER[0]}" || fail "cluster_helper did not start"
psql -X -q -h "$sockdir" -U "$user" -d postgres -c "CREATE ROLE bench LOGIN PASSWORD '$PW'" ||
	fail "no role"
# the role must give its password; the superuser keeps trust
sed -i "1i local all bench scram-sha-256" "$sockdir/data/pg_hba.conf"
psql -X -q -h "$sockdir" -U "$user" -d postgres -c "SELECT pg_reload_conf()" >/dev/null

cat >"$TMP/r.yaml" <<'YAML'
recipe: secrets
duration: 2s
warmup: 0s
workloads:
  w: {script: SELECT 1}
YAML
base="host=$sockdir user=bench dbname=postgres"

# without one the server refuses: the password is really needed
"$PGCLIFF" run "$TMP/r.yaml" --target "primary=$base" -q >"$TMP/o0" 2>"$TMP/e0" </dev/null
check_eq "no password: exit" $? 69
grep -q "password" "$TMP/e0" || fail "no password: $(cat "$TMP/e0")"

# run ARGS...: a run stopped in its window, where ps must not show PW
n=0
seen_run() {
	n=$((n + 1))
	PGCLIFF_INJECT=window "$PGCLIFF" run "$TMP/r.yaml" -q "$@" >"$TMP/o$n" 2>"$TMP/e$n" &
	local pid=$! st
	for _ in $(seq 1 300); do
		st=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null) || break
		[ "$st" = T ] && break
		sleep 0.05
	done
	[ "$st" = T ] || fail "run $n: never reached its window"
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "$PW" && fail "run $n: the password in /proc/$pid/cmdline"
	if command -v ps >/dev/null; then
		ps -eo args | grep -v grep | grep -q "$PW" && fail "run $n: the password in ps"
	fi
	kill -CONT $pid
	wait $pid
	check_eq "run $n: exit" $? 0
}
seen_run --target "primary=$base password=$PW"
seen_run --target "primary=postgresql://bench:$PW@/postgres?host=$sockdir"
seen_run --target="primary=$base password='$PW'"
PGPASSWORD=$PW seen_run --target "primary=$base"
printf '*:*:*:bench:%s\n' "$PW" >"$TMP/pgpass"
chmod 600 "$TMP/pgpass"
PGPASSFILE=$TMP/pgpass seen_run --target "primary=$base"
# two variants on the same server, for compare's and gate's formats
seen_run --variant "a:target=$base password=$PW" --variant "b:target=postgresql://bench:$PW@/postgres?host=$sockdir" --repeat 2
run=$(sql "SELECT max(id) FROM run")
check_eq "runs stored" "$(sql "SELECT count(*) FROM run WHERE status = 'ok'")" 6

# a wrong password is refused and not echoed
"$PGCLIFF" run "$TMP/r.yaml" --target "primary=$base password=Wr0ng_9d1f" -q >"$TMP/ow" 2>"$TMP/ew"
check_eq "wrong password: exit" $? 69
grep -q "Wr0ng_9d1f" "$TMP/ow" "$TMP/ew" && fail "wrong password echoed: $(cat "$TMP/ew")"

# every output format pgcliff has
{
	"$PGCLIFF" list
	for id in $(sql "SELECT id FROM run"); do
		"$PGCLIFF" show "$id"
		"$PGCLIFF" show "$id" --series --samples --scripts --build
	done
	for f in text json markdown junit; do
		"$PGCLIFF" compare "$run:a" "$run:b" --format $f
	done
	"$PGCLIFF" gate "$run:a" "$run:b"
	"$PGCLIFF" history secrets
	"$PGCLIFF" history secrets --format json
} >"$TMP/all.out" 2>&1
[ "$(wc -l <"$TMP/all.out")" -gt 50 ] || fail "the outputs are too short: $(head "$TMP/all.out")"
check_eq "password in the outputs" "$(grep -c "$PW" "$TMP/all.out" "$TMP"/o* "$TMP"/e* | awk -F: '{s += $NF} END {print s}')" 0
check_eq "password in the store" "$(sqlite3 "$PGCLIFF_DB" .dump | grep -c "$PW")" 0
check_eq "password in the store's files" "$(grep -c "$PW" "$PGCLIFF_DB"* 2>/dev/null | awk -F: '{s += $NF} END {print s}')" 0
check_eq "store mode" "$(stat -c %a "$PGCLIFF_DB")" 600

# a managed server: its directories are its own (0700), and the logs
# kept of it (a failure) hold no password given to the other variant
PGCLIFF_INJECT=window "$PGCLIFF" run "$TMP/r.yaml" -q --keep-logs \
	--variant managed --variant "ext:target=$base password=$PW" >"$TMP/om" 2>"$TMP/em" &
pid=$!
for _ in $(seq 1 600); do
	[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = T ] && break
	sleep 0.05
done
d=$(ls -d "$TMP"/pgcliff-managed-* | head -1)
check_eq "server dir mode" "$(stat -c %a "$d")" 700
check_eq "data dir mode" "$(stat -c %a "$d/data")" 700
kill -CONT $pid
wait $pid
check_eq "managed + external: exit" $? 0
run=$(sql "SELECT max(id) FROM run")
[ -s "$PGCLIFF_DB-logs/run-$run/managed/primary/server.log" ] || fail "no kept log"
check_eq "password in kept logs" "$(grep -rc "$PW" "$PGCLIFF_DB-logs" | awk -F: '{s += $NF} END {print s}')" 0
check_eq "password in the store (2)" "$(sqlite3 "$PGCLIFF_DB" .dump | grep -c "$PW")" 0

exec {HELPER[1]}>&-
wait "$HELPER_PID"
finish
