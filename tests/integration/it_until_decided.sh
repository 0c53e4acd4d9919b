#!/usr/bin/env bash
# run --until-decided on real managed servers: blocks are added until the
# first variant against the other is decided or the blocks run out; every
# look is stored with its confidence (alpha spending: rising towards the
# last look), the last one says why the run stopped, the plan records the
# design, the exit code is gate's, and gate on the stored run says the
# same at the same confidence.  Nothing left running.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/u.yaml" <<'YAML'
recipe: it_until
duration: 1s
workloads:
  txid:
    protocol: prepared
    script: SELECT txid_current();
sweep:
  clients: [1, 2]
variants:
  base: {server: {fsync: off}}
  logged: {server: {fsync: off, log_min_duration_statement: 0}}
YAML

"$PGCLIFF" run "$TMP/u.yaml" --seed 7 --until-decided --max-repeats 3 --on geomean \
	--rule strict --adjust none -q >"$TMP/out" 2>"$TMP/err"
rc=$?
case $rc in 0|1|2) echo "ok: exit $rc (a gate's)" ;; *) fail "exit $rc"; cat "$TMP/err" ;; esac
run=$(sql "SELECT max(id) FROM run")
check_eq "status" "$(sql "SELECT status FROM run WHERE id = $run")" ok
blocks=$(sql "SELECT max(repeat_idx) + 1 FROM point WHERE run_id = $run")
check_eq "a look after each scheduled block (2, 3)" "$(sql "SELECT group_concat(blocks) FROM look WHERE run_id = $run")" "$(seq -s, 2 "$blocks")"
check_eq "the last look says why it stopped" \
	"$(sql "SELECT stop IS NOT NULL FROM look WHERE run_id = $run ORDER BY look DESC LIMIT 1")" 1
check_eq "only the last look stops" \
	"$(sql "SELECT count(*) FROM look WHERE run_id = $run AND stop IS NOT NULL")" 1
check_eq "the confidence falls look by look (alpha spending, rho 2)" \
	"$(sql "SELECT count(*) FROM look a JOIN look b ON b.run_id = a.run_id AND b.look = a.look + 1 WHERE a.run_id = $run AND b.confidence >= a.confidence")" 0
check_eq "stopped as decided, or at the last block" \
	"$(sql "SELECT (stop = 'decided') = (outcome <> 'INCONCLUSIVE') AND (stop <> 'max-repeats' OR blocks = 3) FROM look WHERE run_id = $run AND stop IS NOT NULL")" 1
check_eq "the plan names the design" \
	"$(sql "SELECT json_extract(plan, '\$.sequential.max_blocks') || ' ' || json_extract(plan, '\$.sequential.on') || ' ' || json_extract(plan, '\$.sequential.rule') || ' ' || json_extract(plan, '\$.sequential.adjust') FROM run WHERE id = $run")" "3 geomean strict none"
grep -q "^look 1 after 2 blocks" "$TMP/err" || fail "no look on stderr: $(cat "$TMP/err")"
# the gate on the stored run: the same verdict, at the last look's confidence
"$PGCLIFF" gate "$run" --format json >"$TMP/gate.json"
check_eq "gate on the stored run exits as the run did" $? $rc
check_eq "gate's confidence is the last look's" \
	"$(sqlite3 :memory: "SELECT round(json_extract(readfile('$TMP/gate.json'), '\$.confidence'), 4)")" \
	"$(sql "SELECT round(confidence, 4) FROM look WHERE run_id = $run ORDER BY look DESC LIMIT 1")"
check_eq "gate's rule is the run's" \
	"$(sqlite3 :memory: "SELECT json_extract(readfile('$TMP/gate.json'), '\$.rule') || ' ' || json_extract(readfile('$TMP/gate.json'), '\$.adjust')")" "strict none"
"$PGCLIFF" show "$run" >"$TMP/show"
grep -q "^looks (--until-decided" "$TMP/show" || fail "show prints no looks"

# without --max-repeats the budget sets the most blocks, from the estimated
# length of a block (2 variants x 2 points of 1 s, restarts, connections),
# and the design spreads its looks over them: a block takes 4 s at least,
# so 30 s hold at most 7
"$PGCLIFF" run "$TMP/u.yaml" --seed 7 --until-decided --budget 30s -q \
	>"$TMP/out" 2>"$TMP/err"
rc=$?
case $rc in 0|1|2) echo "ok: exit $rc (a gate's)" ;; *) fail "exit $rc"; cat "$TMP/err" ;; esac
most=$(sed -n 's/^until decided: at most \([0-9]*\) blocks (30 s budget, a block ~[0-9]* s), [0-9]* looks$/\1/p' "$TMP/err")
[ -n "$most" ] && [ "$most" -ge 2 ] && [ "$most" -le 7 ] || fail "plan line: $(head -3 "$TMP/err")"
run=$(sql "SELECT max(id) FROM run")
check_eq "the design holds the budget's blocks, the default rule" \
	"$(sql "SELECT json_extract(plan, '\$.sequential.max_blocks') || ' ' || json_extract(plan, '\$.sequential.rule') FROM run WHERE id = $run")" "$most estimate"
check_eq "the schedule is stored" "$(sql "SELECT json_extract(plan, '\$.sequential.growth') FROM run WHERE id = $run")" 1.5
check_eq "the default adjustment is stored" "$(sql "SELECT json_extract(plan, '\$.sequential.adjust') FROM run WHERE id = $run")" steal
# gate judges it as it judged itself: at equal steal, the same verdict
"$PGCLIFF" gate "$run" --format json >"$TMP/gate.json"
check_eq "gate on the stored run exits as the run did (adjusted)" $? $rc
check_eq "gate adjusts as the run did" \
	"$(sqlite3 :memory: "SELECT json_extract(readfile('$TMP/gate.json'), '\$.adjust')")" steal
# every look stored what it saw of the spread
check_eq "each look's detail gives the spread of a block" \
	"$(sql "SELECT count(*) FROM look WHERE run_id = $run AND detail NOT LIKE '%block sd %'")" 0
# looks after blocks 2, 3, 5, 8 ... and the last one planned, or a last
# one when the budget ends
bad=$(sql "SELECT count(*) FROM look WHERE run_id = $run AND blocks NOT IN (2, 3, 5, 8, $most) AND stop IS NOT 'budget'")
check_eq "looks off the schedule (but the budget's last)" "$bad" 0
check_eq "no more blocks than that" \
	"$(sql "SELECT max(repeat_idx) < $most FROM point WHERE run_id = $run")" 1
finish
