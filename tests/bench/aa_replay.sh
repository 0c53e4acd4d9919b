#!/usr/bin/env bash
# A/A gates with and without --until-decided, with and without the steal
# adjustment, from the same blocks: RUNS fresh runs of two variants with
# the same settings, BLOCKS blocks each (fresh servers every block), then
# tests/replay_looks judges each run as a sequential gate over BLOCKS
# blocks would have (the default design's looks, stopping at the first
# decision) and as a fixed gate (every block at 95 %), both ways.  Any
# REGRESSION is a false alarm.  Last, run_effect.sh tests whether the
# runs' means spread more than their blocks predict (a run-level effect
# the gate's intervals would not cover).
#
#   tests/bench/aa_replay.sh [RUNS] [BLOCKS]     (defaults 40, 12)
#   environment: WORKLOAD txid (SELECT txid_current(), prepared; default)
#                or select (pgbench's select-only, scale 10), CLIENTS (1),
#                WINDOW (3s), PLACEMENT (auto), PGCLIFF, AA_DB (keep the
#                runs in this store, and add to it)
#
# A benchmark, not a test: never run by CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/bench/power_recipe.sh"
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
replay=$(dirname "$pgcliff")/tests/replay_looks
runs=${1:-40}
blocks=${2:-12}
workload=${WORKLOAD:-txid}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-aa.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PGCLIFF_DB=${AA_DB:-$tmp/aa.db}
power_recipe "power_${workload}_aa" "$workload" "${CLIENTS:-1}" \
	"${WINDOW:-3s}" "fsync: off" >"$tmp/aa.yaml"
first=$( (sqlite3 "$PGCLIFF_DB" 'SELECT coalesce(max(id), 0) FROM run' 2>/dev/null || echo 0) | tail -1)
for ((r = 1; r <= runs; r++)); do
	"$pgcliff" run "$tmp/aa.yaml" -q --repeat "$blocks" \
		--placement "${PLACEMENT:-auto}" >"$tmp/out" 2>"$tmp/err" ||
		{ echo "run $r failed:"; tail -5 "$tmp/err"; exit 1; }
done
"$replay" "$PGCLIFF_DB" "$blocks" $((first + 1))
"$root/tests/bench/run_effect.sh" "$PGCLIFF_DB" $((first + 1))
