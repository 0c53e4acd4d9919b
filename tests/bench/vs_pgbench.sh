#!/usr/bin/env bash
# pgcliff against pgbench on the same server, in the same session.
#
#   tests/bench/vs_pgbench.sh [CLIENTS] [SECONDS] [JOBS]
#   e.g. tests/bench/vs_pgbench.sh "1 2 4 8 16 32 64 128 256 512 1024" 5 2
#
# Workload: seed 000's SELECT txid_current(), prepared protocol, JOBS
# threads (default 2, clamped to the clients).  One managed server (started
# by pgcliff's own cluster code, tests/cluster_helper) serves both tools;
# at each client count the two run back to back.
# Each tool runs under `perf stat` for its CPU time (task-clock: user+sys
# of all its threads) and its system calls (raw_syscalls:sys_enter).
# Prints one row per client count with ratios pgcliff/pgbench.
#
# pgbench's -T includes its connection phase: it gets ~20 ms per client on
# top of SECONDS, and pgcliff then runs for exactly the load time pgbench
# had (its -T minus its connection time), so both amortize their
# connection phase over the same span.
# pgcliff prepares its statements after connecting and before its window,
# timed apart ("statement preparation time"); pgbench prepares lazily
# inside its run.  The connection times compared are connecting alone.
# A benchmark, not a test: never run by CI.  Needs linux-perf.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build/dev}
clients=${1:-"1 2 4 8 16 32 64 128 256 512 1024"}
secs=${2:-5}
jobs=${3:-2}
command -v perf >/dev/null || { echo "needs perf (apt-get install linux-perf)" >&2; exit 1; }
ulimit -n "$(ulimit -Hn)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-bench.XXXXXX")
chmod 755 "$tmp"
export TMPDIR=$tmp
coproc HELPER { exec "$build/tests/cluster_helper" max_connections=1100; }
read -r sock user _ <&"${HELPER[0]}"
trap 'exec {HELPER[1]}>&-; wait "$HELPER_PID" 2>/dev/null; rm -rf "$tmp"' EXIT
echo 'SELECT txid_current();' >"$tmp/txid.sql"
conninfo="host=$sock user=$user dbname=postgres"

# run_tool NAME CMD...: fills tps, txns, conn_ms, cpu_ms, sys_calls
run_tool() {
	local name=$1; shift
	perf stat -x, -e task-clock,raw_syscalls:sys_enter -o "$tmp/perf.$name" \
		"$@" >"$tmp/out.$name" 2>&1 || { echo "$name failed:"; cat "$tmp/out.$name"; exit 1; }
	eval "${name}_tps=\$(awk '/^tps = /{print \$3}' \"$tmp/out.$name\")"
	eval "${name}_txns=\$(awk -F': ' '/actually processed/{print \$2}' \"$tmp/out.$name\")"
	eval "${name}_conn=\$(awk '/^initial connection time/{print \$5}' \"$tmp/out.$name\")"
	eval "${name}_cpu=\$(awk -F, '/task-clock/{print \$1}' \"$tmp/perf.$name\")"
	eval "${name}_sys=\$(awk -F, '/raw_syscalls/{print \$1}' \"$tmp/perf.$name\")"
}

printf '# %s, %s cores; PostgreSQL %s; txid_current, prepared, jobs=%s, %s s\n' \
	"$(awk -F': ' '/model name/{print $2; exit}' /proc/cpuinfo)" "$(nproc)" \
	"$(psql -h "$sock" -U "$user" -d postgres -Atc 'SHOW server_version')" "$jobs" "$secs"
printf '%7s %11s %11s %6s | %9s %9s %6s | %8s %8s | %9s %9s %6s\n' \
	clients pgcliff_tps pgbench_tps ratio cpu_us/tx pgb_us/tx ratio \
	sys/tx pgb_sys conn_ms pgb_conn ratio
for c in $clients; do
	j=$(( c < jobs ? c : jobs ))
	pgb_T=$(( secs + c * 20 / 1000 + 1 ))	# ~20 ms per connection here
	pgbench_cmd=(pgbench -n -M prepared -f "$tmp/txid.sql" -c "$c" -j "$j"
		-T "$pgb_T" -h "$sock" -U "$user" postgres)
	# pgbench first: its -T includes connecting, so pgcliff then gets the
	# same load time pgbench actually had (both amortize their connection
	# phase over the same span of work)
	run_tool pgbench "${pgbench_cmd[@]}"
	load_ms=$(awk -v t="$pgb_T" -v k="$pgbench_conn" 'BEGIN { v = t * 1000 - k; printf "%d", v < 1000 ? 1000 : v }')
	run_tool pgcliff "$build/pgcliff" run "$root/recipes/txid_current.yaml" \
		--target "primary=$conninfo" -c "$c" -j "$j" -T "${load_ms}ms" \
		--db "$tmp/bench.db"
	awk -v c="$c" -v t1="$pgcliff_tps" -v t2="$pgbench_tps" \
		-v n1="$pgcliff_txns" -v n2="$pgbench_txns" \
		-v cpu1="$pgcliff_cpu" -v cpu2="$pgbench_cpu" \
		-v s1="$pgcliff_sys" -v s2="$pgbench_sys" \
		-v k1="$pgcliff_conn" -v k2="$pgbench_conn" 'BEGIN {
		u1 = cpu1 * 1000 / n1; u2 = cpu2 * 1000 / n2
		printf "%7d %11.0f %11.0f %6.2f | %9.2f %9.2f %6.2f | %8.2f %8.2f | %9.0f %9.0f %6.2f\n",
			c, t1, t2, t1 / t2, u1, u2, u1 / u2, s1 / n1, s2 / n2, k1, k2, k1 / k2 }'
done
