#!/usr/bin/env bash
# Two pgcliff binaries side by side on one server: does a change to the
# driver (a refactor, an optimisation) move its throughput?
#
#   tests/bench/driver_ab.sh A_BINARY B_BINARY [ROUNDS] [SECONDS] [CLIENTS]
#   e.g. tests/bench/driver_ab.sh /tmp/old/pgcliff build/dev/pgcliff 6 5 "1 8"
#
# One managed server (pgcliff's own cluster code, tests/cluster_helper)
# serves both.  For each workload (txid_current, and pgbench's select-only
# at scale 10; prepared protocol) and client count, ROUNDS pairs run in
# ABBA order, each binary for SECONDS in pgbench mode (-f/-b, -T).
# Prints each pair's tps and, per cell, the geometric mean of B/A with a
# 95 % interval over the pairs (t on the log ratios).  A benchmark, not a
# test: never run by CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build/dev}
a=$(realpath "$1") b=$(realpath "$2")
rounds=${3:-6}
secs=${4:-5}
clients=${5:-"1 8"}
py=$(type -ap python3 | head -1)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-ab.XXXXXX")
chmod 755 "$tmp"
export TMPDIR=$tmp
coproc HELPER { exec "$build/tests/cluster_helper" max_connections=200; }
read -r sock user _ <&"${HELPER[0]}"
trap 'exec {HELPER[1]}>&-; wait "$HELPER_PID" 2>/dev/null; rm -rf "$tmp"' EXIT
export PGHOST=$sock PGUSER=$user PGDATABASE=postgres
export PGCLIFF_DB=$tmp/ab.db
"$b" init -s 10 -q >/dev/null 2>&1 || "$b" init -s 10 >/dev/null
echo 'SELECT txid_current();' >"$tmp/txid.sql"

# tps BINARY CLIENTS WORKLOAD
tps() {
	local j=$(( $2 < 2 ? $2 : 2 ))
	local what=(-f "$tmp/txid.sql")
	[ "$3" = select ] && what=(-b select-only)
	"$1" run "${what[@]}" -M prepared -c "$2" -j "$j" -T "${secs}s" 2>&1 |
		awk '/^tps = /{print $3}'
}

printf '# %s, %s cores; A %s, B %s; %s pairs of %s s (ABBA)\n' \
	"$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)" "$(nproc)" \
	"$("$a" --version | head -1)" "$("$b" --version | head -1)" "$rounds" "$secs"
for w in txid select; do
	for c in $clients; do
		pairs=""
		for r in $(seq 1 "$rounds"); do
			if [ $((r % 2)) = 1 ]; then
				ta=$(tps "$a" "$c" $w); tb=$(tps "$b" "$c" $w)
			else
				tb=$(tps "$b" "$c" $w); ta=$(tps "$a" "$c" $w)
			fi
			printf '%-6s c=%-4s pair %d: A %10.1f  B %10.1f  B/A %.3f\n' \
				$w "$c" "$r" "$ta" "$tb" "$(echo "$tb / $ta" | bc -l)"
			pairs="$pairs $ta:$tb"
		done
		"$py" - $w "$c" $pairs <<'PY'
import math, sys
w, c = sys.argv[1], sys.argv[2]
l = [math.log(float(b) / float(a)) for a, b in (p.split(":") for p in sys.argv[3:])]
n = len(l); m = sum(l) / n
sd = math.sqrt(sum((x - m) ** 2 for x in l) / (n - 1)) if n > 1 else 0
t = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}.get(n, 2.0)
h = t * sd / math.sqrt(n)
print(f"{w:6s} c={c:4s} B/A {math.exp(m):.3f} [{math.exp(m - h):.3f}, {math.exp(m + h):.3f}]  (sd of log ratio {sd:.3f}, {n} pairs)")
PY
	done
done
