#!/usr/bin/env bash
# Is address-space layout randomization the server instance effect?  A/A
# runs of BLOCKS blocks (fresh servers every block, as pgcliff runs them),
# alternating with ASLR off and on machine-wide
# (/proc/sys/kernel/randomize_va_space 0 and 2, restored at exit), then
# each run's spread of one block, at equal steal and as measured
# (tests/replay_looks).  If each start's random layout were the instance
# effect, runs with ASLR off would show a smaller spread.
#
#   tests/bench/aslr_aa.sh [RUNS] [BLOCKS]     (defaults 10, 12; as root)
#   environment: PGCLIFF, ASLR_DB (keep the runs in this store)
#
# Changes a kernel setting for its duration: a benchmark for a machine of
# one's own, never run by CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/bench/power_recipe.sh"
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
replay=$(dirname "$pgcliff")/tests/replay_looks
runs=${1:-10}
blocks=${2:-12}
knob=/proc/sys/kernel/randomize_va_space
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-aslr.XXXXXX")
orig=$(cat "$knob")
trap 'echo "$orig" >"$knob"; rm -rf "$tmp"' EXIT
export PGCLIFF_DB=${ASLR_DB:-$tmp/aslr.db}
power_recipe aslr_txid_aa txid 1 3s "fsync: off" >"$tmp/aa.yaml"
first=$( (sqlite3 "$PGCLIFF_DB" 'SELECT coalesce(max(id), 0) FROM run' 2>/dev/null || echo 0) | tail -1)
: >"$tmp/arms"
for ((r = 1; r <= runs; r++)); do
	aslr=$((r % 2 ? 0 : 2))
	echo "$aslr" >"$knob"
	"$pgcliff" run "$tmp/aa.yaml" -q --repeat "$blocks" >"$tmp/out" 2>"$tmp/err" ||
		{ echo "run $r failed:"; tail -5 "$tmp/err"; exit 1; }
	echo "$(sqlite3 "$PGCLIFF_DB" 'SELECT max(id) FROM run') $aslr" >>"$tmp/arms"
done
echo "$orig" >"$knob"
"$replay" "$PGCLIFF_DB" "$blocks" $((first + 1)) >"$tmp/replay"
cat "$tmp/replay"
# the spread of one block per arm: root mean square over its runs
awk 'NR == FNR {arm[$1] = $2; next}
     $1 in arm {s = $(NF - 2); m = $NF; k = arm[$1] ? "on" : "off"
                ss[k] += s * s; sm[k] += m * m; n[k]++}
     END {for (k in n) printf "ASLR %-3s: %d runs, spread of one block %.3f at equal steal, %.3f as measured\n",
            k, n[k], sqrt(ss[k] / n[k]), sqrt(sm[k] / n[k])}' "$tmp/arms" "$tmp/replay"
