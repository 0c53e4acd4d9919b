#!/usr/bin/env bash
# Soak: does a long run at a fixed rate stay flat in memory, and does its
# per-second series keep every second?  And does a 4096-client point
# complete, with connecting outside the window?
#
#   tests/bench/soak.sh [DURATION] [RATE] [CLIENTS]
#   defaults: 30min at 500 tps over 8 clients; SOAK_BIG=4096 (0 skips it)
#
# Prints pgcliff's RSS every 10 s (the curve), its first, last and
# largest values, the number of per-second rows stored against the
# seconds of the window, and for the big point its tps, the peak RSS
# and the memory per client.  A benchmark, not a test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
duration=${1:-30min}
rate=${2:-500}
clients=${3:-8}
big=${SOAK_BIG:-4096}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-soak.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PGCLIFF_DB=$tmp/soak.db

# Samples VmRSS (kB) of PID every 10 s into FILE until PID is gone.
sample_rss() {
	local pid=$1 file=$2 t=0 rss
	while rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null) &&
		[[ -n $rss ]]; do
		echo "$t $rss" >>"$file"
		sleep 10
		t=$((t + 10))
	done
}

report_rss() {
	awk '{ if (NR == 1) first = $2; last = $2; if ($2 > max) max = $2;
	       printf "  t=%5ds  rss %7d kB\n", $1, $2 }
	     END { printf "rss first %d kB, last %d kB, max %d kB (%d samples)\n",
	           first, last, max, NR }' "$1"
}

cat >"$tmp/soak.yaml" <<YAML
recipe: soak
duration: $duration
warmup: 5s
workloads:
  select:
    protocol: prepared
    rate: $rate
    script: SELECT 1;
sweep:
  clients: [$clients]
  jobs: 2
YAML
echo "== soak: $duration at $rate tps, $clients clients"
"$pgcliff" run "$tmp/soak.yaml" -q >"$tmp/soak.out" 2>&1 &
pid=$!
sample_rss "$pid" "$tmp/soak.rss" &
wait "$pid" || { cat "$tmp/soak.out"; exit 1; }
wait
report_rss "$tmp/soak.rss"
secs=$("$pgcliff" show 1 --series | awk '/^ *[0-9]+ +[0-9]/ {n++} END {print n+0}')
echo "series rows stored: $secs"
"$pgcliff" show 1 | grep -E 'tps|lag|skipped' | head -5

if ((big > 0)); then
	cat >"$tmp/big.yaml" <<YAML
recipe: soak_big
duration: 10s
workloads:
  select:
    protocol: prepared
    script: SELECT 1;
sweep:
  clients: [$big]
  jobs: 2
server:
  max_connections: $((big + 10))
YAML
	echo "== $big clients, 10 s"
	"$pgcliff" run "$tmp/big.yaml" >"$tmp/big.out" 2>&1 &
	pid=$!
	: >"$tmp/big.rss"
	while rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null) &&
		[[ -n $rss ]]; do
		echo "$rss" >"$tmp/big.rss"
		sleep 1
	done
	rc=0
	wait "$pid" || rc=$?
	tail -15 "$tmp/big.out"
	hwm=$(cat "$tmp/big.rss")
	base=$(awk 'END {print $2}' "$tmp/soak.rss")
	echo "exit $rc, peak rss $hwm kB, $(((hwm - base) / big)) kB per client" \
		"above the soak's last rss ($base kB)"
fi
