#!/usr/bin/env bash
# Duet: is running both variants at once (each its own server and its own
# clients) better than one after the other?  Each round measures one pair
# both ways on fresh servers: the duet (two pgcliff processes started
# together, each with its own managed server) and the sequence (A then B,
# or B then A every other round).  Over the rounds it prints, per design,
# the sd of the pair's log B/A (what an interval is made of), its mean
# (the bias, where B's setting costs CPU that A then also lacks), and the
# tps.
#
#   tests/bench/duet.sh [ROUNDS] [WINDOW] [CLIENTS] [B_SETTING]
#   defaults: 10 rounds, 10s windows, 1 client, B the same as A (A/A);
#   B_SETTING e.g. log_transaction_sample_rate=0.4 (~9 % here)
#   environment: PLACEMENT (auto), PGCLIFF
#
# The two processes of a duet start their servers themselves; their
# windows begin within the difference of their start-ups (~0.1-0.5 s,
# printed per round), which a longer window dilutes.  A benchmark, not a
# test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
rounds=${1:-10}
window=${2:-10s}
clients=${3:-1}
bset=${4:-}
placement=${PLACEMENT:-auto}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-duet.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
db=${DUET_DB:-$tmp/duet.db}
mk() {	# mk NAME SETTING
	cat >"$tmp/$1.yaml" <<YAML
recipe: duet_$1
duration: $window
server: {fsync: off${2:+, ${2%%=*}: ${2#*=}}}
workloads: {txid: {protocol: prepared, script: "SELECT txid_current();", clients: $clients, jobs: $clients}}
YAML
}
mk a ""
mk b "$bset"
one() {	# one NAME: a run of recipe NAME, stored in $db
	"$pgcliff" run "$tmp/$1.yaml" -q --placement "$placement" --db "$db" >/dev/null
}
last_tps() {	# last_tps RECIPE
	sqlite3 "$db" "SELECT p.tps FROM point p JOIN run r ON r.id = p.run_id
	               WHERE r.recipe = 'duet_$1' ORDER BY p.id DESC LIMIT 1"
}
last_start() {
	sqlite3 "$db" "SELECT strftime('%s', stored_at) - duration_s FROM point p JOIN run r ON r.id = p.run_id
	               WHERE r.recipe = 'duet_$1' ORDER BY p.id DESC LIMIT 1"
}
: >"$tmp/pairs"
for ((k = 1; k <= rounds; k++)); do
	one a & pa=$!
	one b & pb=$!
	wait $pa $pb
	da=$(last_tps a) db_=$(last_tps b)
	skew=$(awk -v a="$(last_start a)" -v b="$(last_start b)" 'BEGIN {print b - a}')
	if ((k % 2)); then one a; one b; else one b; one a; fi
	sa=$(last_tps a) sb=$(last_tps b)
	echo "duet $da $db_" >>"$tmp/pairs"
	echo "sequence $sa $sb" >>"$tmp/pairs"
	echo "round $k: duet $da / $db_ (stored ${skew}s apart), sequence $sa / $sb" >&2
done
printf '%-9s %6s %11s %12s %10s %10s\n' design rounds "sd(logB/A)" "mean logB/A" "A tps" "B tps"
awk '{d = log($3 / $2); n[$1]++; s[$1] += d; ss[$1] += d * d; ta[$1] += $2; tb[$1] += $3}
     END {for (k in n) printf "%-9s %6d %11.4f %12.4f %10.0f %10.0f\n", k, n[k],
          sqrt((ss[k] - s[k] * s[k] / n[k]) / (n[k] - 1)), s[k] / n[k], ta[k] / n[k], tb[k] / n[k]}' "$tmp/pairs" | sort
