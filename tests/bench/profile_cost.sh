#!/usr/bin/env bash
# What the servers' CPU profiles cost: one run of txid_current at CLIENTS
# clients with two variants of the same server, "without" (no profile)
# and "with" (its own profile: HZ), interleaved block by block as every
# run interleaves its variants, each block on fresh servers.  compare
# then judges with/without paired by block: the ratio is the profiler's
# cost, its interval honest about the noise (restarts randomize the
# server instance's own effect).
#   tests/bench/profile_cost.sh [BLOCKS] [DURATION] [CLIENTS] [HZ]
set -euo pipefail
blocks=${1:-24}
dur=${2:-5s}
clients=${3:-2}
hz=${4:-99}
root=$(cd "$(dirname "$0")/../.." && pwd)
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-bench.XXXXXX")
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp PGCLIFF_DB=$tmp/cost.db
"$pgcliff" run "$root/recipes/txid_current.yaml" -c "$clients" -T "$dur" --repeat "$blocks" \
	--variant without --variant "with:profile=$hz" >"$tmp/out" 2>"$tmp/err" ||
	{ tail -5 "$tmp/err"; exit 1; }
grep '^note: profiles' "$tmp/err"
echo "profiled steps: $(sqlite3 "$PGCLIFF_DB" "SELECT count(DISTINCT order_idx) FROM profile") of $((2 * blocks)); samples per profiled block: $(sqlite3 "$PGCLIFF_DB" "SELECT avg(samples) FROM profile WHERE rank = 0 AND node = 'primary'")"
"$pgcliff" compare 1:without 1:with --format json >"$tmp/cmp.json" || true
jq -r '.workloads[0].points[0] | "with/without tps: \(.ratio) [\(.lo), \(.hi)] over \(.n_baseline) blocks paired, sd of the per-block log ratio \(.block_sd); medians \(.median_baseline) and \(.median_candidate) tps"' "$tmp/cmp.json"
jq -r '"cost under 3 %: " + (if .workloads[0].points[0].lo > 0.97 then "shown (the interval lies above 0.97)" else "not shown" end)' "$tmp/cmp.json"
