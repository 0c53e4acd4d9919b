#!/usr/bin/env bash
# Soak: does a long run at a fixed rate keep a flat memory, and does its
# per-second series keep every second?  And does a 4096-client point
# complete, with connecting outside the window?
#
#   tests/bench/soak.sh [DURATION] [RATE] [CLIENTS]
#   defaults: 30min at 500 tps over 8 clients, one workload;
#   SOAK_WORKLOADS=N runs N such workloads side by side (each its rate),
#   SOAK_WARM=S takes S seconds as warm-up (default: a tenth of the
#   window, at least 60 s), SOAK_BIG=4096 (0 skips the big point)
#
# Prints pgcliff's RSS every 10 s (the curve); its growth after warm-up,
# and that growth brought to 30 minutes (growth x 1800 s / seconds
# measured), against the bound of 256 kB: the line "flat: yes" or "flat:
# no" (exit 3 with no); the per-second rows stored against the seconds of
# the window; and for the big point its tps, the peak RSS and the memory
# per client.  tests/integration/it_memory.sh runs its short form.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
duration=${1:-30min}
rate=${2:-500}
clients=${3:-8}
nw=${SOAK_WORKLOADS:-1}
big=${SOAK_BIG:-4096}
bound_kb=256
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-soak.XXXXXX")
live= # the pgcliff running, until it is waited for (its pid is not reused)
# stopped: pgcliff is stopped too, and writes its last (a failed run's
# logs, beside the store) before the scratch dir goes
cleanup() {
	if [[ -n $live ]] && kill -TERM "$live" 2>/dev/null; then
		wait "$live" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
export PGCLIFF_DB=$tmp/soak.db

# Samples VmRSS and RssAnon (kB) of PID every 10 s into FILE until PID is
# gone; the bound is judged on VmRSS, which also counts pages of code and
# libraries first run late (the point's end, for one).
sample_rss() {
	local pid=$1 file=$2 t=0 rss
	while rss=$(awk '/^VmRSS:/ {r = $2} /^RssAnon:/ {a = $2}
			END {if (r != "") print r, a}' "/proc/$pid/status" 2>/dev/null) &&
		[[ -n $rss ]]; do
		echo "$t $rss" >>"$file"
		sleep 10
		t=$((t + 10))
	done
}

# The curve, and whether it stays within the bound after WARM seconds.
report_rss() {
	awk -v warm="$2" -v bound="$bound_kb" '
	{ if (NR == 1) first = $2; last = $2; lastt = $1; if ($2 > max) max = $2;
	  if ($1 <= warm) { w = $2; wt = $1 }
	  printf "  t=%5ds  rss %7d kB  (anonymous %7d kB)\n", $1, $2, $3 }
	END {
	  printf "rss first %d kB, last %d kB, max %d kB (%d samples)\n",
	         first, last, max, NR
	  if (lastt <= wt) { print "flat: unknown (no sample after the warm-up)"; exit 3 }
	  g = last - w; per30 = g * 1800 / (lastt - wt)
	  printf "growth after warm-up (t=%ds .. %ds): %d kB, %.0f kB over 30 min at that pace\n",
	         wt, lastt, g, per30
	  printf "flat: %s (bound %d kB over 30 min)\n", per30 <= bound ? "yes" : "no", bound
	  exit per30 <= bound ? 0 : 3 }' "$1"
}

secs=$(
	case $duration in
	*min) echo $((${duration%min} * 60)) ;;
	*s) echo "${duration%s}" ;;
	*) echo "$duration" ;;
	esac
)
warm=${SOAK_WARM:-$((secs / 10 > 60 ? secs / 10 : 60))}

{
	echo "recipe: soak"
	echo "duration: $duration"
	echo "warmup: 5s"
	echo "workloads:"
	for i in $(seq 1 "$nw"); do
		echo "  select$i:"
		echo "    protocol: prepared"
		echo "    rate: $rate"
		echo "    script: SELECT 1;"
	done
	echo "sweep:"
	echo "  clients: [$clients]"
	echo "  jobs: 2"
} >"$tmp/soak.yaml"
echo "== soak: $duration at $rate tps, $clients clients, $nw workload(s), warm-up ${warm}s"
"$pgcliff" run "$tmp/soak.yaml" -q >"$tmp/soak.out" 2>&1 &
pid=$! live=$pid
sample_rss "$pid" "$tmp/soak.rss" &
rc=0
wait "$pid" || rc=$?
live=
((rc == 0)) || { cat "$tmp/soak.out"; exit 1; }
wait
flat=0
report_rss "$tmp/soak.rss" "$warm" || flat=$?
rows=$("$pgcliff" show 1 --series | awk '/^ *[0-9]+ +[0-9]/ {n++} END {print n+0}')
echo "series rows stored: $rows (window: $secs s x $nw workload(s))"
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
	pid=$! live=$pid
	: >"$tmp/big.rss"
	while rss=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null) &&
		[[ -n $rss ]]; do
		echo "$rss" >"$tmp/big.rss"
		sleep 1
	done
	rc=0
	wait "$pid" || rc=$?
	live=
	tail -15 "$tmp/big.out"
	hwm=$(cat "$tmp/big.rss")
	base=$(awk 'END {print $2}' "$tmp/soak.rss")
	echo "exit $rc, peak rss $hwm kB, $(((hwm - base) / big)) kB per client" \
		"above the soak's last rss ($base kB)"
fi
exit $flat
