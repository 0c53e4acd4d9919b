#!/usr/bin/env bash
# How often does the gate say REGRESSION when it should, and when it
# should not, on this machine?
#
#   tests/bench/gate_accuracy.sh [RUNS] [REPEATS] [DURATION] [COST10] [COST1]
#   defaults: 10 runs of 6 repeats, 3s windows
#   ACCURACY_DB=FILE tests/bench/gate_accuracy.sh   judge the runs of an
#                                                   earlier benchmark again
#
# Workload: seed 000's SELECT txid_current() (prepared, jobs = clients) at
# clients 1, 4 and 16.  Each run interleaves four variants of one managed
# server in counterbalanced blocks (pgcliff's own plan, a new seed per run):
#   a        the recipe as it is (the baseline of every gate)
#   a_again  the same server again: A/A, any REGRESSION is a false alarm
#   slow10   log_transaction_sample_rate = COST10 (default 0.4): every
#            statement of that share of transactions written to the server
#            log, a cost on each transaction of roughly 10 % here
#   slow1    log_transaction_sample_rate = COST1 (default 0.04): ~1 %
# Every run gives two 3-repeat gates per scenario (blocks 1-3 and 4-6) and
# one 6-repeat gate (blocks 1-6), so 10 runs give 20 and 10 gates, each
# judged point by point (the default) and on the geometric mean over the
# sweep (--on geomean).  The true cost of each variant is measured by
# pooling every run, and the smallest drop a per-point gate would catch in
# 90 % of gates is estimated from the A/A gates: the 90th percentile of
# the upper bound of their intervals, shifted to the 3 % margin.
# A benchmark, not a test: never run by CI.  Takes RUNS x ~5 minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
runs=${1:-10}
repeats=${2:-6}
duration=${3:-3s}
cost10=${4:-0.4}
cost1=${5:-0.04}
half=$((repeats / 2))

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-accuracy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PGCLIFF_DB=${ACCURACY_DB:-$tmp/accuracy.db}
cat >"$tmp/accuracy.yaml" <<EOF
recipe: gate_accuracy
description: A/A, ~10 % and ~1 % variants of txid_current, interleaved
duration: $duration
repeat: $repeats
workloads:
  txid:
    protocol: prepared
    script: SELECT txid_current();
sweep:
  clients: [1, 4, 16]
  jobs: clients
variants:
  a:
  a_again:
  slow10:
    server: {log_transaction_sample_rate: $cost10}
  slow1:
    server: {log_transaction_sample_rate: $cost1}
EOF

declare -A tally
gate() { # RUN BLOCKS VARIANT MODE -> exit code; keeps the point lines
	local out rc
	set +e
	out=$("$pgcliff" gate "run=$1 variant=a blocks=$2" \
		"run=$1 variant=$3 blocks=$2" --on "$4")
	rc=$?
	set -e
	printf '%s\n' "$out" >>"$tmp/gates.txt"
	# per point: variant, blocks, clients, ratio, hi of the interval, verdict
	[ "$4" = points ] && awk -v sc="$3" -v n="$2" '/^ +[0-9]+ +[0-9]+ +[0-9]+ / {
		gsub(/[\[\],]/, " "); print sc, n, $1, $6, $8, $10 }' <<<"$out" >>"$tmp/points.txt"
	echo "$rc"
}

if [ -n "${ACCURACY_DB:-}" ]; then
	ids=$("$pgcliff" list --recipe gate_accuracy | awk '$1 ~ /^[0-9]+$/ { print $1 }' | sort -n)
else
	ids=
	for r in $(seq 1 "$runs"); do
		seed=$((1000 + r))
		echo "run $r of $runs (seed $seed)" >&2
		ids="$ids $("$pgcliff" run "$tmp/accuracy.yaml" -q --seed "$seed" |
			awk '/^run [0-9]+ stored/ { print $2 }')"
	done
fi
for id in $ids; do
	for v in a_again slow10 slow1; do
		for blocks in "1-$half" "$((half + 1))-$repeats" "1-$repeats"; do
			n=$([ "$blocks" = "1-$repeats" ] && echo "$repeats" || echo "$half")
			for mode in points geomean; do
				rc=$(gate "$id" "$blocks" "$v" "$mode")
				key="$v/$n/$mode/$rc"
				tally[$key]=$((${tally[$key]:-0} + 1))
			done
		done
	done
done

echo
echo "gates per scenario: exit 0 no regression, 1 REGRESSION, 2 inconclusive"
printf '%-9s %7s %-8s %6s %11s %13s %14s\n' variant repeats on gates REGRESSION inconclusive no-regression
for v in a_again slow10 slow1; do
	for n in "$half" "$repeats"; do
		for mode in points geomean; do
			g0=${tally[$v/$n/$mode/0]:-0} g1=${tally[$v/$n/$mode/1]:-0} g2=${tally[$v/$n/$mode/2]:-0}
			printf '%-9s %7s %-8s %6d %11d %13d %14d\n' "$v" "$n" "$mode" \
				$((g0 + g1 + g2)) "$g1" "$g2" "$g0"
		done
	done
done

echo
echo "true cost of each variant, all runs pooled (paired by block):"
for v in a_again slow10 slow1; do
	"$pgcliff" compare "recipe=gate_accuracy variant=a" "recipe=gate_accuracy variant=$v" |
		awk -v v="$v" '/geometric mean/ { print "  " v ": " $0 } /^ +[0-9]+ +[0-9]+ +[0-9]+ / { print "    " $0 }'
done

echo
echo "smallest drop a per-point gate catches in 90 % of gates, from the A/A gates (margin 3 %):"
awk -v h="$half" -v full="$repeats" '$1 == "a_again" && $6 != "" {
		n = ($2 == "1-" full) ? full : h
		k = $3 " " n
		v[k, ++c[k]] = log($5)	# log of the upper bound of the interval
	}
	END {
		for (k in c) {
			m = c[k]
			for (i = 1; i <= m; i++) a[i] = v[k, i]
			for (i = 2; i <= m; i++) { x = a[i]; j = i - 1
				while (j > 0 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
			q = a[int(0.9 * m + 0.999)]
			printf "  clients %s at %s repeats: %.1f %% (from %d gates)\n",
				substr(k, 1, index(k, " ") - 1), substr(k, index(k, " ") + 1),
				100 * (1 - 0.97 * exp(-q)), m
		}
	}' "$tmp/points.txt" | sort -k2,2n -k4,4n
cp "$tmp/gates.txt" "${TMPDIR:-/tmp}/gate_accuracy_gates.txt"
echo "(every gate's output: ${TMPDIR:-/tmp}/gate_accuracy_gates.txt)"
if [ -z "${ACCURACY_DB:-}" ]; then
	"$pgcliff" list >/dev/null # the last writer checkpoints the WAL
	cp "$PGCLIFF_DB" "${TMPDIR:-/tmp}/gate_accuracy.db"
	echo "(the runs: ${TMPDIR:-/tmp}/gate_accuracy.db; ACCURACY_DB=that file judges them again)"
fi
