#!/usr/bin/env bash
# Servers' CPU profiles (run --profile): perf samples the managed
# server's processes during the window; the step's profile is stored per
# node (its samples and rate, then its functions by share), show
# --profile prints it, perf's files and processes do not outlive the run.
# Where perf cannot sample, the run says so at its start and goes on.
. "$(dirname "$0")/lib.sh"
command -v perf >/dev/null || skip "perf is not installed (.ci/setup installs linux-perf)"
perf record -q -e cpu-clock -F 10 -o /dev/null -- true 2>/dev/null ||
	skip "perf cannot sample here (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid))"

mkdir "$TMP/home"
HOME=$TMP/home "$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 2 -T 2s --profile-rate 199 >"$TMP/out" 2>"$TMP/err"
check_eq "profiled run exit" $? 0
[ -e "$TMP/home/.debug" ] && fail "perf wrote its build-id cache in HOME, which outlives the run"
grep -q "^note: profiles: cpu-clock at 199 Hz of each managed server's processes during every window (perf record -a, every CPU, then their samples)$" "$TMP/err" ||
	fail "no note of the profiles: $(head -5 "$TMP/err")"
run=$(sql "SELECT max(id) FROM run")
check_eq "one profile, of the primary, at 199 Hz" \
	"$(sql "SELECT count(DISTINCT order_idx) || ' ' || group_concat(DISTINCT node) || ' ' || min(hz) FROM profile WHERE run_id = $run")" "1 primary 199"
check_eq "the whole first, with its samples" \
	"$(sql "SELECT dso IS NULL AND samples > 20 AND pct = 100 FROM profile WHERE run_id = $run AND rank = 0")" 1
check_eq "the functions add up to the whole" \
	"$(sql "SELECT sum(samples) <= (SELECT samples FROM profile WHERE run_id = $run AND rank = 0) FROM profile WHERE run_id = $run AND rank > 0")" 1
check_eq "postgres's own functions are there" \
	"$(sql "SELECT count(*) > 0 FROM profile WHERE run_id = $run AND dso = 'postgres'")" 1
check_eq "largest first" \
	"$(sql "SELECT count(*) FROM profile a JOIN profile b ON a.run_id = b.run_id AND b.rank = a.rank + 1 AND a.rank > 0 WHERE a.run_id = $run AND b.samples > a.samples")" 0
"$PGCLIFF" show "$run" --profile >"$TMP/show"
check_eq "show --profile exit" $? 0
grep -qE "^profile of plan step 0 \(default, 2 clients\), primary: [0-9]+ samples at 199 Hz$" "$TMP/show" || fail "show --profile header: $(grep -A3 profile "$TMP/show")"
grep -qE "^ +[0-9.]+% +[0-9]+  postgres +[A-Za-z_]" "$TMP/show" || fail "show --profile: no postgres function"
ls -d "$TMP"/pgcliff-perf-* 2>/dev/null && fail "perf's directory outlived the run"

# two variants, two blocks each: compare says where the time went, and
# its figures are the stored profiles' (a function outside a block's top
# counted as 0), recomputed here in SQL
"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 2 -T 2s --repeat 2 --profile \
	--variant base:server.fsync=off --variant logs:server.log_min_duration_statement=0 >"$TMP/out4" 2>"$TMP/err4"
check_eq "two profiled variants: exit" $? 0
run4=$(sql "SELECT max(id) FROM run")
"$PGCLIFF" compare "$run4:base" "$run4:logs" >"$TMP/cmp" 2>&1
grep -q "^where the time went, B against A" "$TMP/cmp" || fail "compare: no profile diff: $(tail -5 "$TMP/cmp")"
grep -qE "^    primary, CPU profile: [0-9]+ and [0-9]+ samples in 2 and 2 blocks, paired by block$" "$TMP/cmp" ||
	fail "compare: the primary's profile line: $(grep -A2 'where the time' "$TMP/cmp")"
"$PGCLIFF" compare "$run4:base" "$run4:logs" --format json >"$TMP/cmp.json"
nf=$(jq '.why[0].nodes[] | select(.node == "primary") | .functions | length' "$TMP/cmp.json")
[ "${nf:-0}" -ge 1 ] || fail "compare --format json: no functions in why"
bad=0
while IFS=$'\t' read -r sym mod apct bpct diff; do
	want=$(sql "SELECT printf('%.4f %.4f', coalesce((SELECT sum(f.pct) FROM point p JOIN profile f ON f.run_id = p.run_id AND f.order_idx = p.order_idx
		WHERE p.run_id = $run4 AND p.variant = 'base' AND f.node = 'primary' AND f.symbol = '$sym' AND f.dso = '$mod'), 0) / 2,
		coalesce((SELECT sum(f.pct) FROM point p JOIN profile f ON f.run_id = p.run_id AND f.order_idx = p.order_idx
		WHERE p.run_id = $run4 AND p.variant = 'logs' AND f.node = 'primary' AND f.symbol = '$sym' AND f.dso = '$mod'), 0) / 2)")
	# the JSON rounds to 0.01
	awk -v a="$apct" -v b="$bpct" -v w="$want" 'BEGIN { split(w, s, " "); x = a - s[1]; y = b - s[2]
		exit !(x < 0.0051 && x > -0.0051 && y < 0.0051 && y > -0.0051) }' ||
		{ bad=$((bad + 1)); echo "  $sym ($mod): json $apct $bpct, store $want"; }
	awk -v a="$apct" -v b="$bpct" -v d="$diff" 'BEGIN { x = b - a - d; exit !(x < 0.011 && x > -0.011) }' || { bad=$((bad + 1)); echo "  $sym: $bpct - $apct != $diff"; }
done < <(jq -r '.why[0].nodes[] | select(.node == "primary") | .functions[] | [.symbol, .module, .a_pct, .b_pct, .diff_pp] | @tsv' "$TMP/cmp.json")
check_eq "the diff's shares are the stored profiles' means" "$bad" 0
"$PGCLIFF" report "$run4" -o "$TMP/why.html"
check_eq "report of the profiled run" $? 0
grep -q '<h2 id="why">Where the time went</h2>' "$TMP/why.html" || fail "report: no why section"

# a variant's own profile: blocks with and without a profiler in one run
"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 1 -T 1s --variant off --variant on:profile=49 >"$TMP/out5" 2>"$TMP/err5"
check_eq "a variant's own profile: exit" $? 0
grep -q "^note: profiles: cpu-clock of each managed server's processes during every window (perf record -a, every CPU, then their samples), variant on at 49 Hz$" "$TMP/err5" ||
	fail "a variant's own profile: the note: $(grep profiles "$TMP/err5")"
run5=$(sql "SELECT max(id) FROM run")
check_eq "only that variant's steps profiled, at its rate" \
	"$(sql "SELECT group_concat(p.variant || ' ' || f.hz) FROM point p JOIN profile f ON f.run_id = p.run_id AND f.order_idx = p.order_idx AND f.rank = 0 WHERE p.run_id = $run5")" "on 49"

# where perf may not sample every CPU: the server's processes alone (-p),
# said so; a real perf behind a wrapper that refuses -a as
# perf_event_paranoid 1 would
cat >"$TMP/perf-no-a" <<'EOS'
#!/bin/sh
for a in "$@"; do [ "$a" = -a ] && { echo "Error: perf_event_paranoid 1 forbids -a" >&2; exit 255; }; done
exec perf "$@"
EOS
chmod 755 "$TMP/perf-no-a"
PGCLIFF_PERF=$TMP/perf-no-a "$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 2 -T 2s --profile >"$TMP/out6" 2>"$TMP/err6"
check_eq "per process: exit" $? 0
grep -q "^note: profiles: cpu-clock at 99 Hz of each managed server's processes during every window (perf record -p: perf may not sample every CPU here, and sampling per process costs the servers more)$" "$TMP/err6" ||
	fail "per process: the note: $(grep profiles "$TMP/err6")"
run6=$(sql "SELECT max(id) FROM run")
check_eq "per process: postgres's functions stored" \
	"$(sql "SELECT count(*) > 0 FROM profile WHERE run_id = $run6 AND dso = 'postgres'")" 1

# without a perf that works: said at the start, the run goes on
PGCLIFF_PERF=$TMP/no-such-perf "$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 1 -T 1s --profile >"$TMP/out2" 2>"$TMP/err2"
check_eq "run without perf: exit" $? 0
grep -q "^note: profiles: not taken, the run goes on without them: $TMP/no-such-perf not found (Debian: apt-get install linux-perf)" "$TMP/err2" ||
	fail "no note of the missing perf: $(head -3 "$TMP/err2")"
run2=$(sql "SELECT max(id) FROM run")
check_eq "its point stored, no profile" "$(sql "SELECT (SELECT count(*) FROM point WHERE run_id = $run2) || ' ' || (SELECT count(*) FROM profile WHERE run_id = $run2)")" "1 0"
"$PGCLIFF" show "$run2" --profile | grep -q "^no profiles: the run was made without --profile" || fail "show --profile of a run without"
# --no-profile over the recipe's profile:
sed 's/^measure: txid.tps$/measure: txid.tps\nprofile: on/' "$ROOT/recipes/txid_current.yaml" >"$TMP/prof.yaml"
"$PGCLIFF" run "$TMP/prof.yaml" -c 1 -T 1s --no-profile >"$TMP/out3" 2>"$TMP/err3"
check_eq "--no-profile: exit" $? 0
grep -q "profiles:" "$TMP/err3" && fail "--no-profile still profiled"
run3=$(sql "SELECT max(id) FROM run")
check_eq "--no-profile: none stored" "$(sql "SELECT count(*) FROM profile WHERE run_id = $run3")" 0

# call graphs (the recipe's profile: {callgraph: dwarf}): each function's
# inclusive share too, at least its self share; the server's samples are
# under its roots (PostgresMain, PostmasterMain, main: whichever perf could
# name), most of them.  Chains always add up since perf report's lines are
# per process (before, one run in three here, and most under load, lost
# its inclusive shares: drivers/profile/profile.h)
sed 's/^measure: txid.tps$/measure: txid.tps\nprofile: {rate: 99, callgraph: dwarf}/' "$ROOT/recipes/txid_current.yaml" >"$TMP/cg.yaml"
"$PGCLIFF" run "$TMP/cg.yaml" -c 2 -T 2s >"$TMP/out7" 2>"$TMP/err7"
check_eq "call graphs: exit" $? 0
run7=$(sql "SELECT max(id) FROM run")
grep -q "call graphs at point 1 do not add up" "$TMP/err7" && fail "call graphs: perf's chains did not add up"
# (both perf's shares, rounded to 0.01 % of every CPU's samples)
check_eq "call graphs: every function has an inclusive share, at least its self" \
	"$(sql "SELECT count(*) FROM profile WHERE run_id = $run7 AND rank > 0 AND (inclusive IS NULL OR inclusive < pct - 0.1 OR inclusive > 100.5)")" 0
check_eq "call graphs: a caller of postgres's holds most of the samples, few of its own" \
	"$(sql "SELECT count(*) > 0 FROM profile WHERE run_id = $run7 AND dso = 'postgres' AND symbol NOT LIKE '0x%' AND inclusive > 40 AND pct < 5")" 1
"$PGCLIFF" show "$run7" --profile >"$TMP/show7"
grep -q "^  by inclusive share (its samples and its callees'):$" "$TMP/show7" || fail "show --profile: no inclusive list"
sed -n '/^  by inclusive share/,$p' "$TMP/show7" | grep -qE "^ +[0-4]?[0-9][.][0-9]+% +([4-9][0-9]|100)[.][0-9]+% +[0-9]+  postgres +[A-Za-z_]" ||
	fail "show --profile: no caller of postgres's with most of the samples"
printf 'recipe: cgbad\nprofile: {callgraph: lbr}\nduration: 1s\n' >"$TMP/cgbad.yaml"
sed -n '/^workloads:/,$p' "$ROOT/recipes/txid_current.yaml" >>"$TMP/cgbad.yaml"
"$PGCLIFF" recipe check "$TMP/cgbad.yaml" >/dev/null 2>"$TMP/cgbad.err"
check_eq "an unknown call graph: exit" $? 65
grep -q "cgbad.yaml:2:22: error: 'callgraph' must be fp or dwarf, not \"lbr\"" "$TMP/cgbad.err" || fail "unknown call graph: $(cat "$TMP/cgbad.err")"
finish
