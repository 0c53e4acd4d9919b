#!/usr/bin/env bash
# A pgbench user's hands: -h, -p, -U and a trailing database name select
# an external server for init and for run -f/-b, as they do for pgbench
# 15 (the same words given to pgbench work on the same server); with
# -f/-b the PG* variables alone do too, so `pgcliff init; pgcliff run -b`
# benchmarks the server it initialised; a recipe stays on its managed
# server whatever the environment says; -n is accepted; -? is help.
. "$(dirname "$0")/lib.sh"
helper=$(dirname "$PGCLIFF")/tests/cluster_helper
bindir=$(pg_config --bindir 2>/dev/null || ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pgbench=$bindir/pgbench

coproc HELPER { exec "$helper"; }
read -r sockdir user spid <&"${HELPER[0]}" || fail "cluster_helper did not start"
port=5432
psql -X -q -h "$sockdir" -U "$user" -d postgres -c "CREATE DATABASE bench" || fail "no database"

# init into the database named last, as pgbench -i does
"$PGCLIFF" init -s 1 -h "$sockdir" -p $port -U "$user" bench >"$TMP/init.out" 2>&1
check_eq "init -h -p -U DBNAME: exit" $? 0
check_eq "init: the tables are in bench" "$(psql -X -At -h "$sockdir" -U "$user" -d bench -c "SELECT count(*) FROM pgbench_branches")" 1
check_eq "init: and not in postgres" "$(psql -X -At -h "$sockdir" -U "$user" -d postgres -c "SELECT to_regclass('pgbench_branches') IS NULL")" t

# the same words for pgbench 15 and for pgcliff run
args=(-h "$sockdir" -p $port -U "$user" -n -S -T 1 bench)
"$pgbench" "${args[@]}" >"$TMP/pgbench.out" 2>&1
check_eq "pgbench ${args[*]}: exit" $? 0
"$PGCLIFF" run "${args[@]}" >"$TMP/run.out" 2>&1
check_eq "pgcliff run ${args[*]}: exit" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "run: on the external server" "$(sql "SELECT kind FROM variant WHERE run_id = $run")" external
check_eq "run: its target names the database" "$(sql "SELECT target LIKE '%dbname=''bench''%' AND target LIKE '%port=''$port''%' FROM variant WHERE run_id = $run")" 1
grep -q "^tps = " "$TMP/run.out" || fail "run: no tps line"
# the database name counts: postgres has no pgbench tables
"$PGCLIFF" run -h "$sockdir" -U "$user" -S -t 1 postgres >/dev/null 2>"$TMP/nodb.err"
[ $? != 0 ] || fail "run ... postgres: ran without pgbench's tables"

# PG* alone, with -b: the server init used
PGHOST=$sockdir PGUSER=$user PGDATABASE=bench "$PGCLIFF" run -b select-only -T 1s -q >/dev/null 2>&1
check_eq "PGHOST... run -b: exit" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "PGHOST... run -b: external" "$(sql "SELECT kind FROM variant WHERE run_id = $run")" external

# a recipe is not aimed at a server by the environment alone
cat >"$TMP/r.yaml" <<'YAML'
recipe: habits
duration: 1s
workloads:
  w: {script: SELECT 1}
YAML
PGHOST=$sockdir PGUSER=$user PGDATABASE=bench "$PGCLIFF" run "$TMP/r.yaml" -q >/dev/null 2>&1
check_eq "PGHOST... run RECIPE: exit" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "PGHOST... run RECIPE: managed" "$(sql "SELECT kind FROM variant WHERE run_id = $run")" managed
# but -h on its command line does
"$PGCLIFF" run "$TMP/r.yaml" -q -h "$sockdir" -U "$user" >/dev/null 2>&1
check_eq "run RECIPE -h: exit" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "run RECIPE -h: external" "$(sql "SELECT kind FROM variant WHERE run_id = $run")" external

# --show-script: byte for byte what pgbench 15 prints, for every builtin
for b in tpcb-like simple-update select-only select; do
	"$pgbench" --show-script=$b >"$TMP/sp" 2>&1
	"$PGCLIFF" run --show-script=$b >"$TMP/sc" 2>&1
	check_eq "--show-script=$b: exit" $? 0
	cmp -s "$TMP/sp" "$TMP/sc" || fail "--show-script=$b differs from pgbench: $(diff "$TMP/sp" "$TMP/sc")"
done

# --progress-timestamp: the progress lines carry the Unix time, as pgbench's
t0=$(date +%s)
"$pgbench" -h "$sockdir" -U "$user" -n -S -T 2 -P 1 --progress-timestamp bench >/dev/null 2>"$TMP/pp"
"$PGCLIFF" run -h "$sockdir" -U "$user" -S -T 2s -P 1 --progress-timestamp -q bench >/dev/null 2>"$TMP/pc"
check_eq "--progress-timestamp: exit" $? 0
for f in pp pc; do
	n=$(awk -v t0="$t0" '/^progress: / { split($2, a, "."); if ($2 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ && $3 == "s," && a[1] >= t0 - 5 && a[1] <= t0 + 60) ok++ } END {print ok + 0}' "$TMP/$f")
	[ "$n" -ge 1 ] || fail "--progress-timestamp ($f): no line with a Unix time: $(head -3 "$TMP/$f")"
done

# --failures-detailed: serialization and deadlock failures apart, with
# pgbench 15's lines
psql -X -q -v ON_ERROR_STOP=1 -h "$sockdir" -U "$user" -d bench \
	-c "CREATE TABLE t (id int PRIMARY KEY, v int)" -c "INSERT INTO t VALUES (1, 0), (2, 0)" \
	-c "ALTER SYSTEM SET deadlock_timeout = '10ms'" -c "SELECT pg_reload_conf()" >/dev/null || fail "no table t"
cat >"$TMP/ser.sql" <<'SQL'
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT v FROM t WHERE id = 1;
SELECT pg_sleep(0.002);
UPDATE t SET v = v + 1 WHERE id = 1;
END;
SQL
cat >"$TMP/dl.sql" <<'SQL'
\set a random(1, 2)
\set b 3 - :a
BEGIN;
UPDATE t SET v = v + 1 WHERE id = :a;
SELECT pg_sleep(0.005);
UPDATE t SET v = v + 1 WHERE id = :b;
END;
SQL
fd=(-h "$sockdir" -U "$user" -n -c 4 -j 2 -T 3 --failures-detailed -f "$TMP/ser.sql" -f "$TMP/dl.sql" bench)
"$pgbench" "${fd[@]}" >"$TMP/fdp" 2>/dev/null
"$PGCLIFF" run "${fd[@]}" >"$TMP/fdc" 2>/dev/null
check_eq "--failures-detailed: exit" $? 0
for f in fdp fdc; do
	# the lines pgbench prints, without their numbers
	sed -nE 's/[0-9.]+/N/g; /^( - )?number of (failed transactions|serialization failures|deadlock failures)/p' "$TMP/$f" >"$TMP/$f.shape"
done
check_eq "--failures-detailed: pgbench's lines" "$(cat "$TMP/fdc.shape")" "$(cat "$TMP/fdp.shape")"
ser=$(sed -nE 's/^number of serialization failures: ([0-9]+) .*/\1/p' "$TMP/fdc")
dl=$(sed -nE 's/^number of deadlock failures: ([0-9]+) .*/\1/p' "$TMP/fdc")
failed=$(sed -nE 's/^number of failed transactions: ([0-9]+) .*/\1/p' "$TMP/fdc")
[ "${ser:-0}" -gt 0 ] && [ "${dl:-0}" -gt 0 ] || fail "--failures-detailed: want both kinds: $ser serialization, $dl deadlock"
check_eq "--failures-detailed: the kinds add up" "$((ser + dl))" "$failed"

# -C: a connection per transaction, its time apart, pgbench's lines; the
# server counts the sessions
sessions() { psql -X -At -h "$sockdir" -U "$user" -d postgres -c "SELECT sessions FROM pg_stat_database WHERE datname = 'bench'"; }
cargs=(-h "$sockdir" -U "$user" -n -S -C -c 4 -j 2 -T 2 bench)
"$pgbench" "${cargs[@]}" >"$TMP/cp" 2>/dev/null
check_eq "pgbench -C: exit" $? 0
s0=$(sessions)
"$PGCLIFF" run "${cargs[@]}" >"$TMP/cc" 2>/dev/null
check_eq "pgcliff run -C: exit" $? 0
s1=$(sessions)
for f in cp cc; do
	grep -E "^(average connection time = [0-9.]+ ms|tps = [0-9.]+ \(including reconnection times\))$" "$TMP/$f" | sed -E 's/[0-9.]+/N/' >"$TMP/$f.shape"
done
check_eq "-C: pgbench's lines" "$(cat "$TMP/cc.shape")" "$(cat "$TMP/cp.shape")"
n=$(sed -nE 's/^number of transactions actually processed: ([0-9]+)$/\1/p' "$TMP/cc")
[ "${n:-0}" -gt 10 ] || fail "-C: only ${n:-0} transactions"
# every transaction had its own session (and the connect phase's 4, and
# the sampler's and the window's edges: a few more)
[ $((s1 - s0)) -ge "$n" ] || fail "-C: $((s1 - s0)) sessions for $n transactions"
echo "ok: -C: $n transactions, $((s1 - s0)) sessions"
"$PGCLIFF" run "${cargs[@]}" -M prepared -q >/dev/null 2>"$TMP/cpe"
check_eq "-C -M prepared: exit" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "-C -M prepared: no failures" "$(sql "SELECT failures = 0 AND transactions > 10 FROM point WHERE run_id = $run")" 1

# -v: pgbench's vacuum before the point: history truncated, tables vacuumed
"$PGCLIFF" run -b tpcb-like -t 20 -c 2 -q -h "$sockdir" -U "$user" bench >/dev/null 2>&1
check_eq "tpcb-like: history written" "$(psql -X -At -h "$sockdir" -U "$user" -d bench -c "SELECT count(*) > 0 FROM pgbench_history")" t
"$PGCLIFF" run -S -v -t 5 -c 1 -q -h "$sockdir" -U "$user" bench >/dev/null 2>"$TMP/v.err"
check_eq "-v: exit" $? 0
grep -q "starting vacuum...end." "$TMP/v.err" || fail "-v: no vacuum line: $(cat "$TMP/v.err")"
check_eq "-v: history truncated" "$(psql -X -At -h "$sockdir" -U "$user" -d bench -c "SELECT count(*) FROM pgbench_history")" 0
# (the vacuums' statistics reach pg_stat_user_tables within a moment)
for _ in $(seq 1 50); do
	vac=$(psql -X -At -h "$sockdir" -U "$user" -d bench -c "SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('pgbench_branches', 'pgbench_tellers', 'pgbench_accounts') AND last_vacuum IS NOT NULL")
	[ "$vac" = 3 ] && break
	sleep 0.1
done
check_eq "-v: the three tables vacuumed" "$vac" 3

# run -i is init, as pgbench -i
"$PGCLIFF" run -i -s 2 -h "$sockdir" -U "$user" bench >/dev/null 2>&1
check_eq "run -i -s 2: exit" $? 0
check_eq "run -i -s 2: two branches" "$(psql -X -At -h "$sockdir" -U "$user" -d bench -c "SELECT count(*) FROM pgbench_branches")" 2

# --exit-on-abort (pgbench 17): one client's abort stops the run, where
# without it the others go on and the point is stored
printf '\\if :client_id = 0\n\\set x 1 / 0\n\\endif\nSELECT 1;\n' >"$TMP/abort.sql"
"$PGCLIFF" run -f "$TMP/abort.sql" -c 2 -T 2s -q -h "$sockdir" -U "$user" bench >/dev/null 2>"$TMP/ab1"
check_eq "one client aborts: exit" $? 75
run=$(sql "SELECT max(id) FROM run")
check_eq "one client aborts: the point, the other client's work" "$(sql "SELECT aborted_clients || ':' || (transactions > 0) FROM point WHERE run_id = $run")" "1:1"
"$PGCLIFF" run -f "$TMP/abort.sql" -c 2 -T 2s -q --exit-on-abort -h "$sockdir" -U "$user" bench >/dev/null 2>"$TMP/ab2"
check_eq "--exit-on-abort: exit" $? 75
grep -q "client 0 aborted in command 1 (set) of script 0; evaluation of meta-command failed: division by zero (--exit-on-abort stops the run)" "$TMP/ab2" ||
	fail "--exit-on-abort: $(cat "$TMP/ab2")"
run=$(sql "SELECT max(id) FROM run")
check_eq "--exit-on-abort: failed, no point" "$(sql "SELECT status || ':' || (SELECT count(*) FROM point WHERE run_id = $run) FROM run WHERE id = $run")" "failed:0"

# -l and its companions: pgbench 15's log formats, files named as its
fields_of() { awk '{print NF}' "$@" | sort -u | tr '\n' ' '; }
shapes_ok() {	# FILE...: every line all numbers, or a word where pgbench puts one
	awk '{ for (i = 1; i <= NF; i++) if ($i !~ /^[0-9]+$/ && !(i == 3 && $i ~ /^(failed|skipped|serialization|deadlock)$/)) bad++ } END { exit bad > 0 }' "$@"
}
lg=(-h "$sockdir" -U "$user" -n -S -c 2 -j 2 -T 2)
"$pgbench" "${lg[@]}" -l --log-prefix="$TMP/pb" bench >/dev/null 2>&1
check_eq "pgbench -l: exit" $? 0
"$PGCLIFF" run "${lg[@]}" -l --log-prefix="$TMP/pc" bench >"$TMP/lc" 2>/dev/null
check_eq "pgcliff run -l: exit" $? 0
check_eq "-l: files as pgbench's (thread 0, thread 1)" "$(ls "$TMP"/pc.* | sed -E 's/.*pc\.[0-9]+//' | tr '\n' ' ')" "$(ls "$TMP"/pb.* | sed -E 's/.*pb\.[0-9]+//' | tr '\n' ' ')"
check_eq "-l: fields per line" "$(fields_of "$TMP"/pc.*)" "$(fields_of "$TMP"/pb.*)"
shapes_ok "$TMP"/pc.* || fail "-l: a line is not pgbench's: $(head -2 "$TMP"/pc.*)"
n=$(sed -nE 's/^number of transactions actually processed: ([0-9]+)$/\1/p' "$TMP/lc")
check_eq "-l: a line per transaction" "$(cat "$TMP"/pc.* | wc -l)" "$n"
rm -f "$TMP"/pb.* "$TMP"/pc.*

"$pgbench" "${lg[@]}" -T 3 -l --aggregate-interval=1 --log-prefix="$TMP/pb" bench >/dev/null 2>&1
"$PGCLIFF" run "${lg[@]}" -T 3 -l --aggregate-interval=1 --log-prefix="$TMP/pc" bench >"$TMP/lc" 2>/dev/null
check_eq "--aggregate-interval: exit" $? 0
check_eq "--aggregate-interval: fields per line" "$(fields_of "$TMP"/pc.*)" "$(fields_of "$TMP"/pb.*)"
shapes_ok "$TMP"/pc.* || fail "--aggregate-interval: a line is not pgbench's"
n=$(sed -nE 's/^number of transactions actually processed: ([0-9]+)$/\1/p' "$TMP/lc")
sum=$(cat "$TMP"/pc.* | awk '{s += $2} END {print s + 0}')
# the last, partial interval is left out, as pgbench leaves it
[ "$sum" -le "$n" ] && [ "$sum" -ge $((n / 4)) ] || fail "--aggregate-interval: $sum of $n transactions in the intervals"
echo "ok: --aggregate-interval: $sum of $n transactions in whole intervals"
rm -f "$TMP"/pb.* "$TMP"/pc.*

"$PGCLIFF" run "${lg[@]}" -l --sampling-rate=0.1 --log-prefix="$TMP/pc" bench >"$TMP/lc" 2>/dev/null
check_eq "--sampling-rate: exit" $? 0
n=$(sed -nE 's/^number of transactions actually processed: ([0-9]+)$/\1/p' "$TMP/lc")
lines=$(cat "$TMP"/pc.* | wc -l)
[ $((lines * 20)) -ge "$n" ] && [ $((lines * 20)) -le $((n * 4)) ] || fail "--sampling-rate 0.1: $lines lines of $n"
echo "ok: --sampling-rate 0.1: $lines lines of $n transactions"
rm -f "$TMP"/pc.*

# under a rate and with retries, the two more columns pgbench adds
"$pgbench" "${lg[@]}" -R 200 --max-tries 2 -l --log-prefix="$TMP/pb" bench >/dev/null 2>&1
"$PGCLIFF" run "${lg[@]}" -R 200 --max-tries 2 -l --log-prefix="$TMP/pc" bench >/dev/null 2>&1
check_eq "-l -R --max-tries: fields per line" "$(fields_of "$TMP"/pc.*)" "$(fields_of "$TMP"/pb.*)"
rm -f "$TMP"/pb.* "$TMP"/pc.*

# help is -? (as pgbench) and --help; -h is the host
"$pgbench" -? >/dev/null 2>&1
check_eq "pgbench -?" $? 0
"$PGCLIFF" run -? >"$TMP/help" 2>&1
check_eq "pgcliff run -?" $? 0
grep -q "^  -h, --host HOST" "$TMP/help" || fail "run -?: no -h line"

exec {HELPER[1]}>&-
wait "$HELPER_PID"
finish
