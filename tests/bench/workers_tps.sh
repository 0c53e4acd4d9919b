#!/usr/bin/env bash
# What spreading a point over worker processes costs: the same points run
# by one pgcliff process and by --workers 3 (three `pgcliff worker`
# processes on this host), in alternating rounds, each a run of its own on
# fresh servers, against one PostgreSQL store the script starts through
# pgcliff's cluster code.
#
#     tests/bench/workers_tps.sh [ROUNDS] [CLIENTS] [WINDOW]   (6 6 5s)
#
# Prints, per round, both runs' tps (txid_current, CLIENTS clients, as
# many threads, 3 blocks of WINDOW each) and the wall time per point; then
# the geometric mean of the per-round ratios (workers / one process) with
# a t interval over rounds, and the coordination's cost per point: the
# wall time a point took beyond its own window.  A benchmark, not a test.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PGCLIFF=${PGCLIFF:-$ROOT/build/dev/pgcliff}
HELPER=$(dirname "$PGCLIFF")/tests/cluster_helper
ROUNDS=${1:-6}
CLIENTS=${2:-6}
WINDOW=${3:-5s}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-bench.XXXXXX")
chmod 755 "$TMP"
export TMPDIR=$TMP XDG_DATA_HOME=$TMP/xdg
trap 'exec {H[1]}>&- 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT

coproc H { exec "$HELPER"; }
read -r sockdir user _ <&"${H[0]}" || { echo "no server"; exit 1; }
command psql -X -q -h "$sockdir" -U "$user" -d postgres -c "CREATE DATABASE results" || exit 1
export PGCLIFF_DB="host=$sockdir user=$user dbname=results"
(umask 077 && openssl rand -hex 32 >"$TMP/key")
export PGCLIFF_KEY_FILE=$TMP/key
q() { command psql -X -q -At -h "$sockdir" -U "$user" -d results -c "$1"; }

cat >"$TMP/r.yaml" <<YAML
recipe: workers_tps
duration: $WINDOW
warmup: 1s
repeat: 3
server: {fsync: off}
workloads:
  txid: {protocol: prepared, script: "SELECT txid_current();", clients: $CLIENTS, jobs: $CLIENTS}
YAML

one() {
	"$PGCLIFF" run "$TMP/r.yaml" -q --placement free >/dev/null 2>"$TMP/err" </dev/null ||
		{ echo "one-process run failed: $(tail -2 "$TMP/err")"; exit 1; }
}
three() {
	local pids=()
	for i in 1 2 3; do
		"$PGCLIFF" worker --allow-host "$TMP" --name "w$i" --shares 3 --idle 60s >/dev/null 2>&1 </dev/null &
		pids+=($!)
	done
	"$PGCLIFF" run "$TMP/r.yaml" -q --placement free --workers 3 >/dev/null 2>"$TMP/err" </dev/null ||
		{ echo "workers run failed: $(tail -2 "$TMP/err")"; exit 1; }
	wait "${pids[@]}"	# not the server's helper
}
# the run's geometric mean tps, and its wall seconds per point
figures() {
	q "SELECT exp(avg(ln(tps))), extract(epoch FROM (r.ended_at::timestamptz - r.started_at::timestamptz)) / count(*)
	   FROM point p JOIN run r ON r.id = p.run_id WHERE r.id = $1 GROUP BY r.id, r.ended_at, r.started_at"
}

echo "round  one-process tps  s/point   3 workers tps  s/point   ratio"
for r in $(seq 1 "$ROUNDS"); do
	# alternate which goes first, so that drift cancels
	if [ $((r % 2)) = 1 ]; then one; a=$(q "SELECT max(id) FROM run"); three; b=$(q "SELECT max(id) FROM run")
	else three; b=$(q "SELECT max(id) FROM run"); one; a=$(q "SELECT max(id) FROM run"); fi
	IFS='|' read -r ta sa <<<"$(figures "$a")"
	IFS='|' read -r tb sb <<<"$(figures "$b")"
	printf "%5d  %15.0f  %7.2f   %13.0f  %7.2f   %.3f\n" "$r" "$ta" "$sa" "$tb" "$sb" "$(echo "$tb / $ta" | bc -l)"
	echo "$ta $tb $sa $sb" >>"$TMP/rounds"
done
awk -v win="${WINDOW%s}" '
	{ l = log($2 / $1); n++; s += l; ss += l * l; oa += $3; ob += $4 }
	END {
		m = s / n; sd = (n > 1) ? sqrt((ss - n * m * m) / (n - 1)) : 0
		# t(0.975) for n-1 degrees of freedom, the usual table
		split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131", t, " ")
		tq = (n - 1 >= 1 && n - 1 <= 15) ? t[n - 1] : 2.0
		h = tq * sd / sqrt(n)
		printf "\n3 workers / one process, tps: %.3f [%.3f, %.3f] over %d rounds (sd of the log ratio %.3f)\n",
			exp(m), exp(m - h), exp(m + h), n, sd
		printf "wall time per point: one process %.2f s, 3 workers %.2f s (window %s s + 1 s warm-up):\n", oa / n, ob / n, win
		printf "the coordination costs %.2f s a point\n", (ob - oa) / n
	}' "$TMP/rounds"
