#!/usr/bin/env bash
# Builds Debian's postgresql-15 source from a clean cache N times, with
# LOAD busy loops on the side (the failures seen at make install came
# while other CPU-heavy processes shared the machine), and reports each
# attempt's exit, time and, for a failure, where its log is (the cache
# keeps a failed attempt's log in CACHE/failed/) and its first errors.
#
#   tests/bench/build_clean.sh [N] [LOAD]      defaults: 3 attempts, 2 loops
#
# Uses the source that tests/integration/pgsource.sh fetches (or
# PGCLIFF_TEST_CACHE/src).  A benchmark, not a test: about 4 minutes per
# attempt on two idle cores, more under load.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
n=${1:-3}
load=${2:-2}
cache_root=${PGCLIFF_TEST_CACHE:-${TMPDIR:-/tmp}/pgcliff-test-cache}
src=$(bash "$root/tests/integration/pgsource.sh" "$cache_root/src")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-buildclean.XXXXXX")
chmod 755 "$tmp" # the servers' user reads the installs
hogs=()
cleanup() {
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
	if ls "$tmp"/cache* >/dev/null 2>&1; then
		echo "the failed attempts' caches are kept in $tmp: remove it when read"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
for ((i = 0; i < load; i++)); do
	(while :; do :; done) &
	hogs+=($!)
done
for ((k = 1; k <= n; k++)); do
	cache=$tmp/cache$k
	t0=$(date +%s)
	rc=0
	"$pgcliff" build --source "$src" --cache "$cache" --name clean$k >"$tmp/out$k" 2>"$tmp/err$k" || rc=$?
	t1=$(date +%s)
	echo "attempt $k: exit $rc in $((t1 - t0)) s (load $load)"
	if [ $rc = 0 ]; then
		rm -rf "$cache"
	else
		grep -E "error|failed" "$tmp/err$k" | head -5
		log=$(sed -n 's/^hint: the whole log is //p' "$tmp/err$k")
		[ -n "$log" ] && grep -nE "Error|error:|No such file|cannot" "$log" | head -20
	fi
done
