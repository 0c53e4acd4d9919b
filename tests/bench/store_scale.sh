#!/usr/bin/env bash
# The store benchmark: how storing and reading scale on both backends.
#
#     tests/bench/store_scale.sh [SIZES]        (default "10 1000 10000")
#
# One real run is the template (txid_current, variants a and b, 1 and 4
# clients, 2 blocks, 10 s windows: 8 points with their histograms and
# series).  For each size N, store_gen stores N copies of it through the
# store's write path into a new SQLite file and into a new PostgreSQL
# database (a server started through pgcliff's cluster code, default
# settings: fsync and synchronous_commit on), timing each run's storing;
# then each reading verb is timed on both, best of 3: list (the newest 20),
# show of one run, compare and gate of one run's variants, history of the
# recipe over all N runs, and a push of one run.  Prints a Markdown table
# and each store's size.  A benchmark, not a test: nothing else should run.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PGCLIFF=${PGCLIFF:-$ROOT/build/dev/pgcliff}
GEN=$(dirname "$PGCLIFF")/tests/store_gen
HELPER=$(dirname "$PGCLIFF")/tests/cluster_helper
SIZES=${1:-"10 1000 10000"}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-bench.XXXXXX")
chmod 755 "$TMP"
export TMPDIR=$TMP
trap 'exec {H[1]}>&- 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT

coproc H { exec "$HELPER"; }
read -r sockdir user _ <&"${H[0]}" || { echo "no server"; exit 1; }
psql() { command psql -X -q -h "$sockdir" -U "$user" "$@"; }

echo "template run (about 2 min)..."
"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" --db "$TMP/template.db" -c 1,4 -T 10s --repeat 2 \
	--variant a --variant b:server.log_min_duration_statement=-1 -q </dev/null >/dev/null ||
	{ echo "template run failed"; exit 1; }

# best of 3, in milliseconds (push: its first, copying, time)
timed() {
	local best=999999 t0 t1 ms
	for _ in 1 2 3; do
		t0=$(date +%s%N)
		"$@" >/dev/null 2>&1
		t1=$(date +%s%N)
		ms=$(( (t1 - t0) / 1000000 ))
		[ $ms -lt $best ] && best=$ms
	done
	echo $best
}

rows=()
for n in $SIZES; do
	psql -d postgres -c "CREATE DATABASE s$n"
	for backend in sqlite postgresql; do
		if [ $backend = sqlite ]; then db=$TMP/s$n.db; else db="host=$sockdir user=$user dbname=s$n"; fi
		line=$("$GEN" "$TMP/template.db" 1 "$db" "$n") || { echo "store_gen failed: $line"; exit 1; }
		echo "$backend $n: $line"
		store_ms=$(echo "$line" | sed -E 's/.*: ([0-9.]+) ms per run.*/\1/')
		share=$(echo "$line" | sed -E 's/.*: ([0-9.]+) % of it/\1/')
		mid=$(( n / 2 + 1 ))
		if [ $backend = sqlite ]; then
			size=$(du -b "$db" | awk '{print $1}')
			other="host=$sockdir user=$user dbname=postgres options=-csearch_path=push_$n"
		else
			size=$(psql -d "s$n" -At -c "SELECT pg_database_size(current_database()) - (SELECT pg_database_size('template1'))")
			other=$TMP/push_$n.db
		fi
		psql -d postgres -c "CREATE SCHEMA IF NOT EXISTS push_$n" 2>/dev/null
		t_list=$(timed "$PGCLIFF" list --limit 20 --db "$db")
		t_show=$(timed "$PGCLIFF" show $mid --series --db "$db")
		t_cmp=$(timed "$PGCLIFF" compare $mid:a $mid:b --db "$db")
		t_gate=$(timed "$PGCLIFF" gate $mid:a $mid:b --db "$db")
		t_hist=$(timed "$PGCLIFF" history txid_current --variant a --db "$db")
		t0=$(date +%s%N)
		"$PGCLIFF" push $mid --db "$db" --to "$other" >/dev/null 2>&1 || echo "push failed"
		t_push=$(( ($(date +%s%N) - t0) / 1000000 ))
		rows+=("| $backend | $n | $store_ms | $share | $((size / n / 1024)) | $t_list | $t_show | $t_cmp | $t_gate | $t_hist | $t_push |")
	done
done
echo
echo "| store | runs | store one run, ms (median) | of its run time, % | size per run, KiB | list, ms | show, ms | compare, ms | gate, ms | history, ms | push one, ms |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
