#!/usr/bin/env bash
# How often does `run --until-decided` decide, how fast, and how often
# wrongly, on this machine?  Real gates, each a fresh run with two fresh
# servers, each stopped by the sequential rule or by its budget.
#
#   tests/bench/until_decided_power.sh SCENARIO [GATES] [BUDGET]
#     SCENARIO  aa       A/A: two variants with the same settings; any
#                        REGRESSION is a false alarm
#               slow10   log_transaction_sample_rate = 0.4 on B: every
#                        statement of that share of transactions written
#                        to the server log (~10 % here)
#               slow5    the same at 0.2 (~5 %)
#               GUC=VAL  any other setting of B
#     GATES     10; BUDGET 10min
#   environment: WORKLOAD txid (SELECT txid_current(), prepared; default)
#                or select (pgbench's select-only, scale 10, prepared);
#                CLIENTS (1), WINDOW (3s), PLACEMENT (auto), RULE
#                (estimate), ON (points), ADJUST (steal), PGCLIFF,
#                POWER_DB (keep the runs in this store, and add to it)
#
# Prints one line per gate and then: the verdicts, the time to a decision
# (median and 90th percentile over all gates, an undecided one counting
# its whole run), the blocks, and the true ratio of the scenario measured
# by pooling every block of every gate (geometric mean of the per-block
# B/A with a 95 % t interval), so that the slowdown is known, not assumed.
# A benchmark, not a test: never run by CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/bench/power_recipe.sh"
. "$root/tests/bench/block_pairs.sh"
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
scenario=${1:?scenario: aa, slow10, slow5 or GUC=VALUE}
gates=${2:-10}
budget=${3:-10min}
workload=${WORKLOAD:-txid}
clients=${CLIENTS:-1}
window=${WINDOW:-3s}
placement=${PLACEMENT:-auto}
rule=${RULE:-estimate}
on=${ON:-points}
adjust=${ADJUST:-steal}

case $scenario in
aa) slow="fsync: off" ;;
slow10) slow="fsync: off, log_transaction_sample_rate: 0.4" ;;
slow5) slow="fsync: off, log_transaction_sample_rate: 0.2" ;;
*=*) slow="fsync: off, ${scenario%%=*}: ${scenario#*=}" ;;
*) echo "unknown scenario $scenario" >&2; exit 64 ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-power.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PGCLIFF_DB=${POWER_DB:-$tmp/power.db}
power_recipe "power_${workload}_${scenario%%=*}" "$workload" "$clients" \
	"$window" "$slow" >"$tmp/power.yaml"

first=$( (sqlite3 "$PGCLIFF_DB" 'SELECT coalesce(max(id), 0) FROM run' 2>/dev/null || echo 0) | tail -1)
printf '%-5s %-6s %-14s %7s %9s\n' gate run verdict blocks seconds
for ((g = 1; g <= gates; g++)); do
	set +e
	"$pgcliff" run "$tmp/power.yaml" -q --until-decided --budget "$budget" \
		--placement "$placement" --rule "$rule" --on "$on" --adjust "$adjust" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	case $rc in
	0) v=NO-REGRESSION ;; 1) v=REGRESSION ;; 2) v=INCONCLUSIVE ;;
	*) echo "gate $g failed (exit $rc):"; tail -5 "$tmp/err"; exit 1 ;;
	esac
	run=$(sqlite3 "$PGCLIFF_DB" 'SELECT max(id) FROM run')
	read -r blocks secs < <(sqlite3 -separator ' ' "$PGCLIFF_DB" \
		"SELECT blocks, round(elapsed_s, 1) FROM look WHERE run_id = $run ORDER BY look DESC LIMIT 1")
	printf '%-5d %-6d %-14s %7d %9.1f\n' "$g" "$run" "$v" "$blocks" "$secs"
	echo "$v $blocks $secs" >>"$tmp/gates"
done

echo
echo "scenario $scenario, workload $workload, $clients client(s), $window windows," \
	"placement $placement, rule $rule, on $on, adjust $adjust, budget $budget:"
awk '{n[$1]++; t[NR] = $3; b[NR] = $2}
     END {
       printf "  verdicts: REGRESSION %d, NO-REGRESSION %d, INCONCLUSIVE %d of %d\n",
         n["REGRESSION"], n["NO-REGRESSION"], n["INCONCLUSIVE"], NR
       # sort the times (insertion sort: a few dozen gates)
       for (i = 2; i <= NR; i++) for (j = i; j > 1 && t[j] < t[j-1]; j--) {x = t[j]; t[j] = t[j-1]; t[j-1] = x}
       for (i = 2; i <= NR; i++) for (j = i; j > 1 && b[j] < b[j-1]; j--) {x = b[j]; b[j] = b[j-1]; b[j-1] = x}
       m = int((NR + 1) / 2); p = int(0.9 * NR + 0.999)
       printf "  time to the verdict: median %.0f s, p90 %.0f s; blocks: median %d, p90 %d\n",
         t[m], t[p], b[m], b[p]
     }' "$tmp/gates"
block_pairs "$PGCLIFF_DB" $((first + 1)) | pool_blocks
