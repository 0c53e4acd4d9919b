#!/usr/bin/env bash
# The instruction metric (run --count) against calibrated build slowdowns
# and against tps.  Builds of PostgreSQL 15 from Debian's source with
# recipes/patches/extra_work.patch: a loop of PGCLIFF_EXTRA_WORK iterations
# at every commit, so each variant adds a known number of instructions per
# transaction and nothing else differs.  N is calibrated by instructions
# (6.0 per iteration here, measured by this script's first lines), for +1,
# +2, +3, +5 and +20 % of the base's count.
#
#   1. counts: every variant and an A/A pair, --count TXNS, REPEAT blocks:
#      the ratio to base and its interval (compare on instructions);
#   2. tps: base and the 2, 5 and 20 % builds timed (-T 5s, TREPEAT
#      blocks, one client): does tps move the same way, and how much less
#      (the count sees the backend's user-space work only, not the kernel,
#      the WAL flush or the client)?
#
# usage: count_agreement.sh PGCLIFF [TXNS] [REPEAT] [TREPEAT]
# Not a test: minutes of machine time; the numbers are for the issue note.
set -euo pipefail
PGCLIFF=$1
TXNS=${2:-1000}
REPEAT=${3:-3}
TREPEAT=${4:-10}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE_ROOT=${PGCLIFF_TEST_CACHE:-${TMPDIR:-/tmp}/pgcliff-test-cache}
SRC=$(bash "$ROOT/tests/integration/pgsource.sh" "$CACHE_ROOT/src")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-bench.XXXXXX")
chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT
export PGCLIFF_DB=$TMP/b.db TMPDIR=$TMP
PATCH=$ROOT/recipes/patches/extra_work.patch
RECIPE=$ROOT/recipes/txid_current.yaml
common=(--source "$SRC" --build-cache "$CACHE_ROOT/builds" -c 1 -q)

variant() {	# variant NAME ITERATIONS
	echo "--variant $1:patch=$PATCH --variant $1:define.PGCLIFF_EXTRA_WORK=$2"
}

# calibrate: instructions per iteration, from 0 and 1000
# shellcheck disable=SC2046
"$PGCLIFF" run "$RECIPE" "${common[@]}" --count "$TXNS" --repeat 1 \
	$(variant base 0) $(variant cal 1000) >/dev/null
per_iter=$(sqlite3 "$PGCLIFF_DB" "SELECT (SELECT instructions FROM point WHERE variant = 'cal') - (SELECT instructions FROM point WHERE variant = 'base')")
base=$(sqlite3 "$PGCLIFF_DB" "SELECT instructions FROM point WHERE variant = 'base'")
per_iter=$(awk -v d="$per_iter" 'BEGIN { printf "%.3f", d / 1000 }')
echo "calibration: base $base instructions per transaction, $per_iter per iteration"
iters() { awk -v b="$base" -v p="$per_iter" -v pct="$1" 'BEGIN { printf "%d", b * pct / 100 / p + 0.5 }'; }

args=($(variant base 0) $(variant aa 0))
for pct in 1 2 3 5 20; do
	args+=($(variant "w$pct" "$(iters $pct)"))
done
start=$(date +%s)
"$PGCLIFF" run "$RECIPE" "${common[@]}" --count "$TXNS" --repeat "$REPEAT" "${args[@]}" >/dev/null
counted_s=$(($(date +%s) - start))
run=$(sqlite3 "$PGCLIFF_DB" "SELECT max(id) FROM run")
npoints=$(sqlite3 "$PGCLIFF_DB" "SELECT count(*) FROM point WHERE run_id = $run")
echo
echo "1. counts: --count $TXNS, $REPEAT blocks, $npoints points in $counted_s s ($(awk -v s="$counted_s" -v n="$npoints" 'BEGIN { printf "%.1f", s / n }') s a point, builds included)"
printf "%-8s %10s %14s %10s %22s %12s\n" variant iterations instructions "B/base" "[95 % interval]" verdict
for v in aa w1 w2 w3 w5 w20; do
	n=0
	[ "$v" = aa ] || n=$(iters "${v#w}")
	line=$("$PGCLIFF" compare "$run:base" "$run:$v" 2>&1 | grep -E '^ +1 ' || true)
	ir=$(sqlite3 "$PGCLIFF_DB" "SELECT printf('%.1f', avg(instructions)) FROM point WHERE run_id = $run AND variant = '$v'")
	printf "%-8s %10s %14s %10s %22s %12s\n" "$v" "$n" "$ir" \
		"$(awk '{print $6}' <<<"$line")" "$(awk '{print $7, $8}' <<<"$line")" "$(awk '{print $NF}' <<<"$line")"
done
echo "A/A spread: sd of instructions over the base's and aa's $((2 * REPEAT)) points, in parts per million of their mean:"
sqlite3 "$PGCLIFF_DB" "SELECT printf('  %.1f ppm (min %.1f, max %.1f)', 1e6 * sqrt(avg(instructions * instructions) - avg(instructions) * avg(instructions)) / avg(instructions), min(instructions), max(instructions)) FROM point WHERE run_id = $run AND variant IN ('base', 'aa')"

echo
echo "2. tps of the same builds, timed: -T 5s, $TREPEAT blocks, one client"
start=$(date +%s)
# shellcheck disable=SC2046
"$PGCLIFF" run "$RECIPE" "${common[@]}" -T 5s --repeat "$TREPEAT" \
	$(variant base 0) $(variant w2 "$(iters 2)") $(variant w5 "$(iters 5)") \
	$(variant w20 "$(iters 20)") >/dev/null
timed_s=$(($(date +%s) - start))
trun=$(sqlite3 "$PGCLIFF_DB" "SELECT max(id) FROM run")
echo "($timed_s s)"
printf "%-8s %16s %22s %12s %16s\n" variant "tps B/base" "[95 % interval]" verdict "instructions"
for v in w2 w5 w20; do
	line=$("$PGCLIFF" compare "$trun:base" "$trun:$v" 2>&1 | grep -E '^ +1 ' || true)
	cline=$("$PGCLIFF" compare "$run:base" "$run:$v" 2>&1 | grep -E '^ +1 ' || true)
	printf "%-8s %16s %22s %12s %16s\n" "$v" "$(awk '{print $6}' <<<"$line")" \
		"$(awk '{print $7, $8}' <<<"$line")" "$(awk '{print $NF}' <<<"$line")" \
		"$(awk '{print $6}' <<<"$cline")"
done
