#!/usr/bin/env bash
# What the servers' CPU profiles cost: runs with and without --profile,
# alternating (ABAB..., the first of each pair chosen at random), each on
# fresh managed servers, txid_current at CLIENTS clients for DURATION.
# Prints per pair the tps ratio with/without and their geometric mean
# with a t interval: a run's profile is of its whole window, so the
# ratio of whole runs is the profiler's cost.
#   tests/bench/profile_cost.sh [PAIRS] [DURATION] [CLIENTS] [HZ]
set -euo pipefail
pairs=${1:-8}
dur=${2:-5s}
clients=${3:-2}
hz=${4:-99}
root=$(cd "$(dirname "$0")/../.." && pwd)
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-bench.XXXXXX")
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp PGCLIFF_DB=$tmp/cost.db
tps() { sqlite3 "$PGCLIFF_DB" "SELECT tps FROM point WHERE run_id = (SELECT max(id) FROM run)"; }
one() {	# one with|without -> tps
	if [ "$1" = with ]; then
		"$pgcliff" run "$root/recipes/txid_current.yaml" -c "$clients" -T "$dur" --profile-rate "$hz" >/dev/null 2>&1
	else
		"$pgcliff" run "$root/recipes/txid_current.yaml" -c "$clients" -T "$dur" >/dev/null 2>&1
	fi
	tps
}
echo "pair  with_tps  without_tps  ratio"
for i in $(seq "$pairs"); do
	if [ $((RANDOM % 2)) = 0 ]; then a=$(one with); b=$(one without); else b=$(one without); a=$(one with); fi
	printf '%4d %9.0f %12.0f  %.4f\n' "$i" "$a" "$b" "$(echo "$a / $b" | bc -l)"
done | tee "$tmp/pairs"
awk '{ l = log($4); s += l; ss += l * l; n++ }
	END { m = s / n; sd = sqrt((ss - n * m * m) / (n - 1)); se = sd / sqrt(n)
		t = (n >= 8) ? 2.365 : 2.776   # t(0.975) for df 7 and 4
		printf "geometric mean ratio with/without: %.4f [%.4f, %.4f] (%d pairs, sd of log %.4f)\n",
			exp(m), exp(m - t * se), exp(m + t * se), n, sd }' "$tmp/pairs"
