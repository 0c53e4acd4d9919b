#!/usr/bin/env bash
# txid_current at clients 1,2,4 for 2 s on a managed server: 3 points with
# transactions > 0 whose per-second counts sum to the totals; provenance
# stored; pgbench's summary lines printed; nothing left running.
. "$(dirname "$0")/lib.sh"

"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 1,2,4 -T 2s -P 1 >"$TMP/out" 2>"$TMP/err"
check_eq "exit code" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "status" "$(sql "SELECT status FROM run WHERE id = $run")" ok
check_eq "points" "$(sql "SELECT count(*) FROM point WHERE run_id = $run")" 3
check_eq "clients" "$(sql "SELECT group_concat(clients) FROM (SELECT clients FROM point WHERE run_id = $run ORDER BY order_idx)")" "1,2,4"
check_eq "jobs = clients" "$(sql "SELECT count(*) FROM point WHERE run_id = $run AND jobs = clients")" 3
# /proc/stat's steal over each window, a share of all the CPU time
check_eq "cpu steal stored" "$(sql "SELECT count(*) FROM point WHERE run_id = $run AND steal_pct BETWEEN 0 AND 100")" 3
"$PGCLIFF" show "$run" | grep -q "^cpu steal during the windows: mean [0-9.]* %, worst [0-9.]* %" ||
	fail "show: no steal line"
check_eq "points with transactions" "$(sql "SELECT count(*) FROM point WHERE run_id = $run AND transactions > 0")" 3
check_eq "series sums = totals" "$(sql "SELECT count(*) FROM point p WHERE run_id = $run AND transactions = (SELECT sum(transactions) FROM series s WHERE s.point_id = p.id)")" 3
check_eq "2 seconds per series" "$(sql "SELECT count(*) FROM series s JOIN point p ON p.id = s.point_id WHERE p.run_id = $run")" 6
check_eq "tps = transactions / 2 s" "$(sql "SELECT count(*) FROM point WHERE run_id = $run AND abs(tps - transactions / 2.0) < 1e-6")" 3
check_eq "percentiles ordered" "$(sql "SELECT count(*) FROM point WHERE run_id = $run AND 0 < lat_p50_ms AND lat_p50_ms <= lat_p99_ms AND lat_p99_ms <= lat_max_ms * 1.004")" 3
check_eq "protocol" "$(sql "SELECT DISTINCT protocol FROM point WHERE run_id = $run")" prepared
check_eq "recipe hash" "$(sql "SELECT recipe_sha256 FROM run WHERE id = $run")" "$(sha256sum <"$ROOT/recipes/txid_current.yaml" | cut -d' ' -f1)"
check_eq "server version stored" "$(sql "SELECT server_version_num >= 100000 FROM variant WHERE run_id = $run")" 1
check_eq "non-default settings stored" "$(sql "SELECT count(*) FROM variant_setting WHERE run_id = $run AND kind = 'setting' AND name = 'max_connections'")" 1
check_eq "tps lines" "$(grep -c '^tps = .* (without initial connection time)$' "$TMP/out")" 3
check_eq "progress lines on stderr" "$(grep -c '^progress: ' "$TMP/err")" 6
grep -q "^run $run stored in $PGCLIFF_DB (status ok, 3 points)" "$TMP/out" || fail "no 'run N stored' line"
"$PGCLIFF" show "$run" --series >"$TMP/show" || fail "show failed"
grep -q "recipe txid_current, status ok" "$TMP/show" || fail "show: no header"
"$PGCLIFF" list --recipe txid_current | grep -q "^ *$run " || fail "list: run missing"
# the same as data: JSON and CSV with the stored figures
"$PGCLIFF" list --format csv >"$TMP/list.csv"
check_eq "list csv: header and a row per run" "$(wc -l <"$TMP/list.csv")" "$(($(sql "SELECT count(*) FROM run") + 1))"
grep -q "^$run,.*,txid_current,ok,3,default"$'\r'"$" "$TMP/list.csv" || fail "list csv: $(cat "$TMP/list.csv")"
"$PGCLIFF" show "$run" --format csv --series >"$TMP/series.csv"
check_eq "series csv: a row per second" "$(wc -l <"$TMP/series.csv")" 7
check_eq "series csv: the stored transactions" "$(awk -F, 'NR > 1 {s += $8} END {print s}' "$TMP/series.csv")" "$(sql "SELECT sum(transactions) FROM point WHERE run_id = $run")"
"$PGCLIFF" show "$run" --format json --series >"$TMP/show.json"
# into a file: one line of compact JSON (indented on a terminal)
check_eq "show json into a file: one line" "$(wc -l <"$TMP/show.json")" 1
check_eq "show json: the version" "$(jq '.pgcliff_run' "$TMP/show.json")" 1
check_eq "show json: points" "$(jq '[.points[] | select(.workload == "txid")] | length' "$TMP/show.json")" 3
if command -v script >/dev/null; then
	script -qc "$PGCLIFF show $run --format json" /dev/null >"$TMP/show_tty.json" 2>&1
	grep -q '^  "pgcliff_run": 1,' "$TMP/show_tty.json" || fail "show json on a terminal: not indented"
fi
"$PGCLIFF" show "$run" --recipe | cmp -s - "$ROOT/recipes/txid_current.yaml" || fail "show --recipe: not the recipe's text"
grep -qE "^point 3 of 3: clients 4, repeat 1 of 1 \([0-9]+:[0-9]{2} elapsed, about [0-9]+:[0-9]{2} left\)$" "$TMP/out" ||
	fail "point lines: no elapsed and left: $(grep '^point' "$TMP/out")"
# on a terminal, without -P: a status line rewritten every second
if command -v script >/dev/null; then
	script -qc "$PGCLIFF run $ROOT/recipes/txid_current.yaml -c 1,2 -T 2s -q" /dev/null >"$TMP/tty" 2>&1
	check_eq "terminal run: exit" $? 0
	grep -q $'\r\033\[Kpoint 2/2, 2 clients: window [0-9.]* s, [0-9]* tps; [0-9:]* elapsed, about [0-9:]* left' "$TMP/tty" ||
		fail "terminal run: no status line: $(head -c 300 "$TMP/tty" | od -c | head -5)"
fi
finish
