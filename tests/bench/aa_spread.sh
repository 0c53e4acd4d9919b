#!/usr/bin/env bash
# How wide is the A/A spread under each design, and where does it come
# from?  Placement (free, split) and restarts (a fresh server per block,
# or one per variant for the whole run) compared on the same machine.
#
#   tests/bench/aa_spread.sh [ROUNDS] [REPEATS] [DURATION] [CLIENTS]
#   defaults: 4 rounds of 6 blocks, 3s windows, clients 1,4
#   CONFIGS="free:block split:block" (default): PLACEMENT:RESTART[:WARMUP],
#     WARMUP a --warmup value (0s, 10s, stable, stable:30s; default the
#     recipe's, none)
#   WORKLOAD=txid (default) or select: pgbench's select-only on scale
#     SCALE (default 50) with shared_buffers SHARED_BUFFERS (default 1GB):
#     every restart leaves the buffers cold, a warm-up transient of some
#     seconds that txid_current does not have
#
# Each round runs the same A/A recipe (txid_current, prepared, two
# identical variants a and a_again) once per configuration, the order
# reversed every other round so that drift falls on all alike.  Per
# configuration and client count it prints:
#   sd(log B/A)  the per-block log ratio a_again/a over blocks, what a
#                paired gate's interval is made of;
#   mean log B/A with restart: never, a bias the servers' own effect can
#                leave (it lasts a server's lifetime);
#   CV(A)        of a's tps over blocks, and the mean tps;
#   within-s     the sd of log tps between the seconds of one window,
#                the slice-level noise (per second);
#   between      the sd of log tps of a's windows: what is left of it
#                once the seconds are averaged is the point- and
#                instance-level noise (Kalibera & Jones's levels).
# A benchmark, not a test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
rounds=${1:-4}
repeats=${2:-6}
duration=${3:-3s}
clients=${4:-1,4}
read -ra configs <<<"${CONFIGS:-free:block split:block}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-aa.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PGCLIFF_DB=${AA_DB:-$tmp/aa.db}
workload=${WORKLOAD:-txid}
case $workload in
txid) body="workloads:
  txid:
    protocol: prepared
    script: SELECT txid_current();" ;;
select) body="server:
  shared_buffers: ${SHARED_BUFFERS:-1GB}
init:
  pgbench: {scale: ${SCALE:-50}}
workloads:
  sel:
    builtin: select-only" ;;
*) echo "aa_spread: WORKLOAD is txid or select, not $workload" >&2; exit 64 ;;
esac
for restart in block never; do
	cat >"$tmp/aa_$restart.yaml" <<YAML
recipe: aa_spread
duration: $duration
repeat: $repeats
restart: $restart
$body
sweep:
  clients: [${clients}]
  jobs: clients
variants:
  a:
  a_again:
YAML
done
labels=""
for ((k = 0; k < rounds; k++)); do
	order=("${configs[@]}")
	if ((k % 2 == 1)); then
		order=()
		for ((i = ${#configs[@]} - 1; i >= 0; i--)); do order+=("${configs[i]}"); done
	fi
	for cfg in "${order[@]}"; do
		IFS=: read -r place restart warm <<<"$cfg"
		"$pgcliff" run "$tmp/aa_$restart.yaml" -q --placement "$place" \
			${warm:+--warmup "$warm"} >/dev/null
		id=$(sqlite3 "$PGCLIFF_DB" 'SELECT max(id) FROM run')
		labels+="${labels:+,}($id,'$cfg')"
		echo "round $((k + 1)) $cfg: run $id" >&2
	done
done
printf '%-24s %7s %6s %11s %12s %8s %9s %9s %8s %9s\n' config clients blocks "sd(logB/A)" "mean logB/A" "CV(A)" "mean tps" within-s between "warmup s"
sqlite3 -batch -separator ' ' "$PGCLIFF_DB" "
WITH cfg(id, c) AS (VALUES $labels),
pairs AS (
  SELECT cfg.c, a.clients, ln(b.tps / a.tps) AS d, a.tps,
         (a.warmup_s + b.warmup_s) / 2 AS w
  FROM point a
  JOIN point b ON b.run_id = a.run_id AND b.clients = a.clients
   AND b.repeat_idx = a.repeat_idx AND b.variant = 'a_again'
  JOIN cfg ON cfg.id = a.run_id
  WHERE a.variant = 'a'),
secs AS (
  SELECT cfg.c, p.clients, p.id, avg(ln(s.transactions)) AS m,
         avg(ln(s.transactions) * ln(s.transactions)) - avg(ln(s.transactions)) * avg(ln(s.transactions)) AS v,
         count(*) AS n
  FROM series s JOIN point p ON p.id = s.point_id JOIN cfg ON cfg.id = p.run_id
  WHERE p.variant = 'a' AND s.transactions > 0
  GROUP BY p.id),
lv AS (
  SELECT c, clients, sqrt(avg(v * n / (n - 1))) AS within_s,
         sqrt((sum(m * m) - sum(m) * sum(m) / count(*)) / (count(*) - 1)) AS between_w
  FROM secs WHERE n > 1 GROUP BY c, clients)
SELECT p.c, p.clients, count(*),
       sqrt((sum(d * d) - sum(d) * sum(d) / count(*)) / (count(*) - 1)),
       avg(d),
       100 * sqrt((sum(tps * tps) - sum(tps) * sum(tps) / count(*)) / (count(*) - 1)) / avg(tps),
       avg(tps), lv.within_s, lv.between_w, avg(w)
FROM pairs p JOIN lv ON lv.c = p.c AND lv.clients = p.clients
GROUP BY p.c, p.clients ORDER BY p.clients, p.c" |
	awk '{printf "%-24s %7d %6d %11.4f %12.4f %7.1f%% %9.0f %9.4f %8.4f %9.2f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10}'
