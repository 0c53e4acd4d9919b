#!/usr/bin/env bash
# pgbench's builtins through pgcliff and through pgbench, on the same
# server, in the same session: tps of pgcliff divided by tps of pgbench.
#
#   tests/bench/builtins_vs_pgbench.sh [CLIENTS] [SECONDS] [ROUNDS] [SCALE] [JOBS]
#   default: "1 8 32" 10 2 10 2; BUILTINS="simple-update" picks builtins
#
# One managed server (started by pgcliff's own cluster code,
# tests/cluster_helper), initialized once by `pgcliff init -s SCALE`.  For
# each builtin (select-only, simple-update, tpcb-like, simple protocol) and
# client count, the two tools run back to back ROUNDS times with the same
# options (-c C -j min(C,JOBS) -T SECONDS), the order alternating by round
# so that drift falls on both; pgcliff with --format pgbench, so both
# outputs are read the same way.  The ratio printed is the median pgcliff
# tps over the median pgbench tps, with the per-round ratios beside it.
# pgbench's -T includes its connection phase, pgcliff's window does not:
# a few ms per client, under 1 % at 32 clients over 10 s.
# A benchmark, not a test: never run by CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build/dev}
clients=${1:-"1 8 32"}
secs=${2:-10}
rounds=${3:-2}
scale=${4:-10}
jobs=${5:-2}
bindir=$(pg_config --bindir 2>/dev/null || true)
[ -x "$bindir/pgbench" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-bench.XXXXXX")
chmod 755 "$tmp"
export TMPDIR=$tmp
coproc HELPER { exec "$build/tests/cluster_helper"; }
read -r sock user _ <&"${HELPER[0]}"
trap 'exec {HELPER[1]}>&-; wait "$HELPER_PID" 2>/dev/null; rm -rf "$tmp"' EXIT
conninfo="host=$sock user=$user dbname=postgres"
"$build/pgcliff" init -q -s "$scale" "$conninfo" 2>/dev/null

median() { sort -g | awk '{v[NR] = $1} END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tps_of() { awk '/^tps = /{print $3}' "$1"; }

printf '# %s, %s cores; PostgreSQL %s; scale %s; -T %s; %s rounds; jobs min(clients,%s)\n' \
	"$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)" "$(nproc)" \
	"$(psql -h "$sock" -U "$user" -d postgres -Atc 'SHOW server_version')" \
	"$scale" "$secs" "$rounds" "$jobs"
printf '%-14s %7s %12s %12s %7s  %s\n' builtin clients pgcliff_tps pgbench_tps ratio "per round"
for b in ${BUILTINS:-select-only simple-update tpcb-like}; do
	for c in $clients; do
		j=$(( c < jobs ? c : jobs ))
		: >"$tmp/a"; : >"$tmp/b"; per=""
		for r in $(seq 1 "$rounds"); do
			for tool in $( [ $((r % 2)) = 1 ] && echo "pgbench pgcliff" || echo "pgcliff pgbench"); do
				if [ "$tool" = pgbench ]; then
					"$bindir/pgbench" -n -b "$b" -c "$c" -j "$j" -T "$secs" \
						-h "$sock" -U "$user" postgres >"$tmp/out" 2>&1
					tps_of "$tmp/out" >>"$tmp/b"
				else
					"$build/pgcliff" run -b "$b" -c "$c" -j "$j" -T "${secs}s" \
						--format pgbench --target "primary=$conninfo" \
						--db "$tmp/bench.db" >"$tmp/out" 2>/dev/null
					tps_of "$tmp/out" >>"$tmp/a"
				fi
			done
			per="$per $(awk -v x="$(tail -1 "$tmp/a")" -v y="$(tail -1 "$tmp/b")" 'BEGIN{printf "%.2f", x / y}')"
		done
		ta=$(median <"$tmp/a"); tb=$(median <"$tmp/b")
		awk -v b="$b" -v c="$c" -v ta="$ta" -v tb="$tb" -v per="$per" \
			'BEGIN { printf "%-14s %7d %12.0f %12.0f %7.2f %s\n", b, c, ta, tb, ta / tb, per }'
	done
done
