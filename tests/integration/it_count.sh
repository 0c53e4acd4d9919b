#!/usr/bin/env bash
# run --count on real servers under valgrind's callgrind: two variants of
# the same server count the same instructions per transaction (A/A within
# 0.5 %, SAME at the 1 % margin: 1000 transactions, since the stats a
# backend flushes once a second make a short count's noise about 1/N),
# a variant that logs every statement counts more and gate calls
# it a REGRESSION on instructions, the run's measure says instructions,
# show prints the counts and the functions, the count files go with the
# servers, and a valgrind that is not there stops the run before anything
# starts or is stored.
. "$(dirname "$0")/lib.sh"

command -v valgrind >/dev/null || skip "valgrind is not installed"

cat >"$TMP/c.yaml" <<'YAML'
recipe: it_count
duration: 1s
workloads:
  txid:
    protocol: prepared
    script: SELECT txid_current();
measure: txid.tps
YAML

"$PGCLIFF" run "$TMP/c.yaml" -c 1 --count 1000 --repeat 2 \
	--variant a --variant b --variant "logged:server.log_statement=all" \
	>"$TMP/out" 2>"$TMP/err"
check_eq "a counted run" $? 0
grep -q "^note: counting: .* over 1000 transactions per client (after 100 warm)" "$TMP/err" ||
	fail "no counting note: $(cat "$TMP/err")"
grep -q "^counted on the primary (callgrind): [0-9]* instructions" "$TMP/out" ||
	fail "no counts after a point: $(tail -5 "$TMP/out")"
grep -q "instructions per transaction, counted, median over repeats" "$TMP/out" ||
	fail "the variants' table does not compare the counts"
check_eq "points counted" "$(sql "SELECT count(*) FROM point WHERE counted = 1000 AND instructions > 1000")" 6
check_eq "the run's measure" "$(sql "SELECT measure FROM run")" "txid.instructions"

# A/A: the same server counts the same work, block after block
spread=$(sql "SELECT max(instructions) / min(instructions) < 1.005 FROM point WHERE variant IN ('a', 'b')")
check_eq "a and b count within 0.5 %" "$spread" 1
# logging every statement is work the count sees
more=$(sql "SELECT (SELECT min(instructions) FROM point WHERE variant = 'logged') / (SELECT max(instructions) FROM point WHERE variant = 'a') > 1.05")
check_eq "log_statement=all counts more" "$more" 1

"$PGCLIFF" compare 1:a 1:b --check >"$TMP/cmp" 2>&1
check_eq "compare a b on instructions: no regression" $? 0
grep -q "metric instructions (lower is better), margin 1.0 %" "$TMP/cmp" ||
	fail "compare did not judge instructions: $(head -5 "$TMP/cmp")"
"$PGCLIFF" gate 1:a 1:logged >"$TMP/gate" 2>&1
check_eq "gate: logged is a regression on instructions" $? 1
grep -q "REGRESSION" "$TMP/gate" || fail "gate: $(cat "$TMP/gate")"
"$PGCLIFF" compare 1:a 1:b --metric l1_misses >/dev/null 2>&1
check_eq "compare --metric l1_misses" $? 0

"$PGCLIFF" show 1 --profile >"$TMP/show" 2>&1
check_eq "show" $? 0
grep -q "^work, not time" "$TMP/show" || fail "show does not say what is counted"
check_eq "counted rows in show" "$(sed -n '/^work, not time/,/^cpu steal/p' "$TMP/show" |
	grep -cE '^ +[0-9]+ (a|b|logged) +txid +1 +[12] +[0-9.]+ ')" 6
grep -q "instructions per transaction, counted by callgrind" "$TMP/show" ||
	fail "show --profile: no functions of a counted point"
check_eq "functions stored per point" \
	"$(sql "SELECT count(DISTINCT order_idx) FROM profile WHERE hz = 0 AND rank > 0")" 6

# the count files lived in the servers' directories, gone with them
check_eq "count files left" "$(find "$TMP" -name 'cg.*' | wc -l)" 0

# a transaction that fails: no count is made of fewer transactions
cat >"$TMP/f.yaml" <<'YAML'
recipe: it_count_fails
duration: 1s
workloads: {w: {script: "SELECT 1/(random() > 2)::int;"}}
YAML
"$PGCLIFF" run "$TMP/f.yaml" -c 1 --count 10 >"$TMP/out" 2>"$TMP/err"
check_eq "a failing transaction: the run fails" $? 75
grep -q "a counted point needs every transaction of every client: workload w ran 0 of 1 (0 clients aborted, 1 failed)" "$TMP/err" ||
	fail "message: $(cat "$TMP/err")"
check_eq "nothing counted of it" "$(sql "SELECT count(*) FROM point p JOIN run r ON r.id = p.run_id WHERE r.recipe = 'it_count_fails'")" 0

# no valgrind: said at once, nothing started, nothing stored
PGCLIFF_VALGRIND=$TMP/no-valgrind "$PGCLIFF" run "$TMP/c.yaml" -c 1 --count 10 \
	>"$TMP/out" 2>"$TMP/err"
check_eq "no valgrind: unavailable" $? 69
grep -q "counting needs valgrind" "$TMP/err" || fail "message: $(cat "$TMP/err")"
check_eq "no run stored for it" "$(sql "SELECT count(*) FROM run")" 2
finish
