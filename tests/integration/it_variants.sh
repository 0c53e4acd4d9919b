#!/usr/bin/env bash
# Two GUC variants from the recipe and one from --variant, interleaved on
# real managed servers: the stored order follows `recipe explain` for the
# same seed (counterbalanced blocks, shuffled points), each variant's
# settings are stored, and compare/gate/history read the run back: paired
# by block, with a verdict per point and per window, and the dip and
# recovery of the windows.  Nothing left running.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/v.yaml" <<'YAML'
recipe: it_variants
duration: 3s
repeat: 2
windows: {before: [0s, 1s], during: [1s, 2s], after: [2s, 3s]}
workloads:
  txid:
    protocol: prepared
    script: SELECT txid_current();
sweep:
  clients: [1, 2, 3]
variants:
  base:
  delay:
    server: {commit_delay: 10, commit_siblings: 0}
YAML

"$PGCLIFF" recipe explain "$TMP/v.yaml" --seed 42 --variant wm:server.work_mem=8MB >"$TMP/plan"
check_eq "explain exit" $? 0
grep -qE "^estimated: about [0-9]+ (s|min) \([0-9]+ blocks? of about [0-9.]+ s:" "$TMP/plan" || fail "explain: no estimate: $(tail -2 "$TMP/plan")"
"$PGCLIFF" run "$TMP/v.yaml" --seed 42 --variant wm:server.work_mem=8MB >"$TMP/out" 2>"$TMP/err"
check_eq "exit code" $? 0
run=$(sql "SELECT max(id) FROM run")
check_eq "status" "$(sql "SELECT status FROM run WHERE id = $run")" ok
check_eq "points" "$(sql "SELECT count(*) FROM point WHERE run_id = $run")" 18
check_eq "variants stored in order" "$(sql "SELECT group_concat(name) FROM (SELECT name FROM variant WHERE run_id = $run ORDER BY rowid)")" "base,delay,wm"

# the stored order, block by block, as explain printed it
want=$(awk '/^  block / { printf "%s %s", $2, $3; for (i = 5; i <= NF; i++) printf " %s", $i; print "" }' "$TMP/plan")
got=$(sql "SELECT repeat_idx + 1, variant, clients FROM point WHERE run_id = $run ORDER BY order_idx" |
	awk -F'|' '{ k = $1 " " $2; if (k != last) { if (NR > 1) print line; line = k; last = k } line = line " " $3 } END { print line }')
check_eq "order = explain's plan" "$got" "$want"
check_eq "blocks counterbalanced" "$(sql "SELECT group_concat(variant) FROM (SELECT DISTINCT repeat_idx, variant FROM point WHERE run_id = $run ORDER BY min(order_idx) OVER (PARTITION BY repeat_idx, variant))")" "base,delay,wm,delay,wm,base"
check_eq "plan and seed stored" "$(sql "SELECT plan LIKE '{\"version\": 1, \"seed\": 42, \"restart\": \"block\"%' FROM run WHERE id = $run")" 1
check_eq "delay's settings" "$(sql "SELECT value FROM variant_setting WHERE run_id = $run AND variant = 'delay' AND kind = 'setting' AND name = 'commit_delay'")" 10
check_eq "wm's settings" "$(sql "SELECT value FROM variant_setting WHERE run_id = $run AND variant = 'wm' AND kind = 'setting' AND name = 'work_mem'")" 8MB
check_eq "base has neither" "$(sql "SELECT count(*) FROM variant_setting WHERE run_id = $run AND variant = 'base' AND kind = 'setting' AND name IN ('commit_delay', 'work_mem')")" 0
check_eq "pg_config stored" "$(sql "SELECT count(*) FROM variant_setting WHERE run_id = $run AND kind = 'pg_config' AND name = 'VERSION' AND value LIKE 'PostgreSQL %'")" 3
grep -q "^ clients  *base  *delay  *wm  *delay/base  *wm/base$" "$TMP/out" || fail "no variant table"

"$PGCLIFF" compare "$run:base" "$run:delay" >"$TMP/cmp"
check_eq "compare exit" $? 0
grep -q "paired by block, Holm over 12 points" "$TMP/cmp" || fail "compare: not paired over 3 points and 9 windows"
check_eq "compare point lines" "$(grep -cE '^ +[123] +2 +2 .*(REGRESSION|SAME|FASTER|IMPROVED|INCONCLUSIVE)' "$TMP/cmp")" 3
grep -q "^A (baseline):  run $run, variant base, 3 points x 2 blocks$" "$TMP/cmp" || fail "compare: label"
check_eq "window rows" "$(grep -cE '^ +[123]  (before|during|after) +2 +2 ' "$TMP/cmp")" 9
check_eq "dip lines" "$(grep -cE '^  [123] clients?: dip \(during/before\) A [0-9.]+, B [0-9.]+; recovery' "$TMP/cmp")" 3
"$PGCLIFF" run "$TMP/v.yaml" -T 2s 2>"$TMP/short_err"
check_eq "-T shorter than a window" $? 64
grep -q "window 'after' of the recipe ends at 3 s, past -T 2 s" "$TMP/short_err" || fail "-T: no reason"
# bare variant names: those variants of the newest run that has them
"$PGCLIFF" compare base delay >"$TMP/cmp_names"
check_eq "compare by names exit" $? 0
check_eq "compare by names: the same judgement" "$(sed 1,3d "$TMP/cmp_names")" "$(sed 1,3d "$TMP/cmp")"
grep -q "^A (baseline):  run $run, variant base, 3 points x 2 blocks$" "$TMP/cmp_names" || fail "compare by names: label"
"$PGCLIFF" gate "$run:base" "$run:delay" --format json >"$TMP/gate.json"
rc=$?
case $rc in 0|1|2) echo "ok: gate exit $rc" ;; *) fail "gate exit $rc" ;; esac
grep -q "\"gate_exit_code\": $rc," "$TMP/gate.json" || fail "gate: JSON exit code differs"
# --format github: in GitHub Actions the Markdown is appended to the job
# summary and stdout carries the annotations; outside, stdout is Markdown
echo "# earlier step" >"$TMP/summary.md"
GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=$TMP/summary.md \
	"$PGCLIFF" gate "$run:base" "$run:delay" --format github >"$TMP/gh.out"
check_eq "gate --format github: the gate's exit" $? $rc
check_eq "github: the summary appended" "$(sed -n '1p;2p' "$TMP/summary.md" | tr '\n' '|')" "# earlier step|### pgcliff compare it_variants: $(sed -n 's/.*"outcome": "\([A-Z-]*\)".*/\1/p' "$TMP/gate.json" | head -1)|"
grep -q "^| 1 | 2 | 2 | " "$TMP/summary.md" || fail "github: no point rows in the summary"
check_eq "github: stdout is annotations only" "$(grep -cvE '^::(error|warning|notice) title=' "$TMP/gh.out")" 0
check_eq "github: one notice" "$(grep -c '^::notice title=pgcliff it_variants::' "$TMP/gh.out")" 1
check_eq "github: an error per REGRESSION row" "$(grep -c '^::error ' "$TMP/gh.out")" \
	"$(grep -c '| \*\*REGRESSION\*\* |' "$TMP/summary.md")"
env -u GITHUB_ACTIONS -u GITHUB_STEP_SUMMARY \
	"$PGCLIFF" gate "$run:base" "$run:delay" --format github >"$TMP/gh_plain.out"
check_eq "github outside GitHub: the Markdown on stdout" "$(sed -n '2,$p' "$TMP/summary.md")" "$(cat "$TMP/gh_plain.out")"
# --inconclusive: what an undecided gate exits with
"$PGCLIFF" gate "$run:base" "$run:delay" --inconclusive pass >/dev/null
rc_pass=$?
"$PGCLIFF" gate "$run:base" "$run:delay" --inconclusive fail >/dev/null
rc_fail=$?
case $rc in
	2) check_eq "--inconclusive pass|fail of an undecided gate" "$rc_pass $rc_fail" "0 1" ;;
	*) check_eq "--inconclusive leaves a decided gate alone" "$rc_pass $rc_fail" "$rc $rc" ;;
esac
"$PGCLIFF" gate "$run:base" "$run:base" --format junit >"$TMP/aa.xml"
check_eq "A/A gate exit (no regression)" $? 0
check_eq "A/A junit failures" "$(grep -c '<failure' "$TMP/aa.xml")" 0
"$PGCLIFF" compare "$run" 2>"$TMP/cmp_err"
check_eq "compare RUN with 3 variants" $? 64
grep -q "has 3 variants" "$TMP/cmp_err" || fail "compare RUN: no reason"
"$PGCLIFF" history it_variants --variant delay >"$TMP/hist"
check_eq "history exit" $? 0
check_eq "history series" "$(grep -c '^variant delay, workload txid' "$TMP/hist")" 3

# every JSON document of this run valid against its schema (schemas/json/),
# and the dashboards' exports: BMF, github-action-benchmark, OpenMetrics,
# HdrHistogram's interval log
. "$ROOT/tests/cli/validate_lib.sh"
"$PGCLIFF" list --format json >"$TMP/list.json"
"$PGCLIFF" show "$run" --format json --series >"$TMP/run.json"
"$PGCLIFF" history it_variants --format json >"$TMP/hist.json"
"$PGCLIFF" export --format bmf >"$TMP/bmf.json"
check_eq "export bmf exit (the newest run)" $? 0
"$PGCLIFF" export "$run" --format benchmark-action -o "$TMP/ba.json"
check_eq "export benchmark-action exit" $? 0
"$PGCLIFF" export "$run" --format openmetrics >"$TMP/run.om"
for doc in "list list.json" "run run.json" "history hist.json" "compare gate.json" \
	"bmf bmf.json" "benchmark-action ba.json" "openmetrics run.om"; do
	set -- $doc
	validate "$1" "$TMP/$2" >"$TMP/v.out" 2>&1 || fail "$2 against $1: $(cat "$TMP/v.out")"
done
# 3 variants x 3 client counts, each a benchmark; 2 blocks a point
check_eq "bmf: a benchmark per variant and client count" \
	"$(grep -c '^  "it_variants/txid/[a-z]*/c[0-9]*": {' "$TMP/bmf.json")" 9
check_eq "openmetrics: a tps sample per point" "$(grep -c '^pgcliff_tps{' "$TMP/run.om")" 18
# HdrHistogram's interval log: a line a point, read back by validate.py's
# own reader; each holds its point's transactions, as recorded
"$PGCLIFF" export "$run" --format hdr-log -o "$TMP/run.hlog"
check_eq "export hdr-log exit" $? 0
validate hdr-log "$TMP/run.hlog" >"$TMP/hlog.out" 2>&1 || fail "hdr-log: $(cat "$TMP/hlog.out")"
check_eq "hdr-log: an interval a point, tagged" "$(grep -cE '^[a-z]+/txid/c[0-9]+/r[12] [0-9]+ digits 2$' "$TMP/hlog.out")" 18
check_eq "hdr-log: every transaction of the run, in its point's interval" \
	"$(awk '{s += $2} END {print s}' "$TMP/hlog.out")" "$(sql "SELECT sum(transactions) FROM point WHERE run_id = $run")"
"$PGCLIFF" export 999999 --format bmf >/dev/null 2>&1
check_eq "export of a missing run" $? 65
finish
