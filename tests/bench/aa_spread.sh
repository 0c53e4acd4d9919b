#!/usr/bin/env bash
# Does pinning the server and the driver apart narrow the A/A spread?
#
#   tests/bench/placement_spread.sh [ROUNDS] [REPEATS] [DURATION] [CLIENTS]
#   defaults: 4 rounds of 6 blocks, 3s windows, clients 1,4
#
# Each round runs the same A/A recipe (txid_current, prepared, two
# identical variants a and a_again, each server restarted per block)
# once per placement, in the order free, split, then split, free in the
# next round, so drift falls on both alike.  Per placement and client
# count it prints the standard deviation of the per-block log ratio
# a_again/a (what a paired gate's interval is made of), the CV of a's
# tps over blocks and the mean tps.  A benchmark, not a test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
rounds=${1:-4}
repeats=${2:-6}
duration=${3:-3s}
clients=${4:-1,4}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-placement.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PGCLIFF_DB=$tmp/p.db
cat >"$tmp/aa.yaml" <<YAML
recipe: placement_spread
duration: $duration
repeat: $repeats
workloads:
  txid:
    protocol: prepared
    script: SELECT txid_current();
sweep:
  clients: [${clients}]
  jobs: clients
variants:
  a:
  a_again:
YAML
for ((k = 0; k < rounds; k++)); do
	if ((k % 2 == 0)); then order="free split"; else order="split free"; fi
	for p in $order; do
		"$pgcliff" run "$tmp/aa.yaml" -q --placement "$p" >/dev/null
		echo "round $((k + 1)) $p: run $(sqlite3 "$PGCLIFF_DB" 'SELECT max(id) FROM run')" >&2
	done
done
sqlite3 -batch "$PGCLIFF_DB" >"$tmp/rows" <<'SQL'
.mode list
.separator ' '
SELECT json_extract(r.plan, '$.placement.mode'), a.clients, a.tps, b.tps
FROM point a
JOIN point b ON b.run_id = a.run_id AND b.clients = a.clients
  AND b.repeat_idx = a.repeat_idx AND b.variant = 'a_again'
JOIN run r ON r.id = a.run_id
WHERE a.variant = 'a';
SQL
printf '%-6s %7s %6s %14s %9s %11s\n' placement clients blocks "sd(log B/A)" "CV(A)" "mean tps"
awk '{k = $1 " " $2; n[k]++; d = log($4 / $3); s[k] += d; ss[k] += d * d
      t[k] += $3; tt[k] += $3 * $3}
     END {for (k in n) {m = s[k] / n[k]; v = (ss[k] - n[k] * m * m) / (n[k] - 1)
          mt = t[k] / n[k]; vt = (tt[k] - n[k] * mt * mt) / (n[k] - 1)
          split(k, f, " ")
          printf "%-9s %7d %6d %14.4f %8.1f%% %11.0f\n", f[1], f[2], n[k], sqrt(v), 100 * sqrt(vt) / mt, mt}}' \
	"$tmp/rows" | sort -k2,2n -k1,1
