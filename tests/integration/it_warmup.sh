#!/usr/bin/env bash
# warmup: stable on a real server.  A bound too short to be judged
# (stable:1s, under the 4 s the rule needs) ends the warm-up at the bound,
# not stable; a long one ends it at or after the 4 s, stable or at its
# bound.  Either way the window that follows is the whole duration, its
# seconds add up to its transactions, and the discarded ticks are stored
# (one per 250 ms of the warm-up) and shown.  A fixed warm-up stores none.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/w.yaml" <<'YAML'
recipe: it_warmup
duration: 2s
warmup: stable:1s
workloads: {w: {clients: 2, script: "SELECT 1;"}}
YAML

"$PGCLIFF" run "$TMP/w.yaml" -q >"$TMP/out" 2>"$TMP/err"
check_eq "run with stable:1s" $? 0
"$PGCLIFF" run "$TMP/w.yaml" -q --warmup stable:30s >>"$TMP/out" 2>>"$TMP/err"
check_eq "run with --warmup stable:30s" $? 0
"$PGCLIFF" run "$TMP/w.yaml" -q --warmup 1s >>"$TMP/out" 2>>"$TMP/err"
check_eq "run with --warmup 1s" $? 0
[ "$(sql "SELECT count(*) FROM point")" = 3 ] || { fail "points"; cat "$TMP/err"; }

# the bound: 1 s of warm-up (the 20 ms loop may overrun it a little),
# not stable, 4 or 5 ticks kept
check_eq "stable:1s ended at its bound" \
	"$(sql "SELECT warmup_s >= 1 AND warmup_s < 1.5 FROM point WHERE run_id = 1")" 1
check_eq "stable:1s not found stable" \
	"$(sql "SELECT w.stable FROM point p JOIN point_warmup w ON w.point_id = p.id WHERE p.run_id = 1")" 0
check_eq "its ticks, one per 250 ms" \
	"$(sql "SELECT count(*) BETWEEN 4 AND 5 FROM point p JOIN point_warmup_tick t ON t.point_id = p.id WHERE p.run_id = 1")" 1
check_eq "its bound stored" \
	"$(sql "SELECT w.max_s FROM point p JOIN point_warmup w ON w.point_id = p.id WHERE p.run_id = 1")" 1.0
# the long bound: at least the rule's 4 s; stable before 30 s, or at 30 s
check_eq "stable:30s lasted at least 4 s" \
	"$(sql "SELECT warmup_s >= 4 FROM point WHERE run_id = 2")" 1
check_eq "stable before its bound, or the bound spent" \
	"$(sql "SELECT (w.stable = 1 AND p.warmup_s < 30) OR (w.stable = 0 AND p.warmup_s >= 30)
	        FROM point p JOIN point_warmup w ON w.point_id = p.id WHERE p.run_id = 2")" 1
check_eq "ticks cover the warm-up" \
	"$(sql "SELECT abs(count(*) - p.warmup_s / 0.25) <= 1 FROM point p JOIN point_warmup_tick t ON t.point_id = p.id WHERE p.run_id = 2")" 1
check_eq "ticks counted transactions" \
	"$(sql "SELECT min(t.tps) > 0 FROM point p JOIN point_warmup_tick t ON t.point_id = p.id WHERE p.run_id = 2")" 1
# the fixed warm-up: as before, nothing stored for it
check_eq "a fixed warm-up stores no ticks" \
	"$(sql "SELECT NOT EXISTS (SELECT 1 FROM point_warmup w WHERE w.point_id = p.id) AND p.warmup_s = 1 FROM point p WHERE p.run_id = 3")" 1
# every window: the whole duration, its seconds adding up
check_eq "windows of 2 s, seconds adding up" \
	"$(sql "SELECT count(*) FROM point p WHERE duration_s = 2 AND transactions > 0 AND
	        transactions = (SELECT sum(transactions) FROM series WHERE point_id = p.id) AND
	        (SELECT count(*) FROM series WHERE point_id = p.id) = 2")" 3
"$PGCLIFF" show 2 >"$TMP/show" 2>&1
grep -q "^warm-up until stable" "$TMP/show" || fail "show: $(cat "$TMP/show")"
"$PGCLIFF" show 1 --format json | jq -e '.points[0].warmup.stable == false and .points[0].warmup_s >= 1' >/dev/null ||
	fail "show --format json lacks the warm-up"
"$PGCLIFF" show 3 >"$TMP/show3" 2>&1
grep -q "warm-up until stable" "$TMP/show3" && fail "a fixed warm-up shown as stable's"
finish
