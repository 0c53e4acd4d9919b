#!/usr/bin/env bash
# Is FACTOR the server instance effect?  A/A runs of BLOCKS blocks (fresh
# servers every block, as pgcliff runs them), alternating with FACTOR off
# and on, then each run's spread of one block, at equal steal and as
# measured (tests/replay_looks).  If each start's draw of FACTOR were the
# instance effect, runs with it held fixed would show a smaller spread.
#
#   tests/bench/instance_aa.sh FACTOR [RUNS] [BLOCKS]   (defaults 10, 12; as root)
#     FACTOR aslr       address-space layout randomization, machine-wide:
#                       /proc/sys/kernel/randomize_va_space 0 (off) or 2 (on)
#            hugepages  both servers' shared memory in 2 MB huge pages
#                       (huge_pages: on, vm.nr_hugepages reserved for the
#                       whole script) or in 4 kB pages (huge_pages: off)
#   environment: PGCLIFF, INSTANCE_DB (keep the runs in this store),
#                CLIENTS (1), HUGEPAGES (pages to reserve, 400)
#
# Changes kernel settings for its duration and restores them at exit: a
# benchmark for a machine of one's own, never run by CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/bench/power_recipe.sh"
pgcliff=${PGCLIFF:-$root/build/dev/pgcliff}
replay=$(dirname "$pgcliff")/tests/replay_looks
factor=${1:?usage: instance_aa.sh aslr|hugepages [RUNS] [BLOCKS]}
runs=${2:-10}
blocks=${3:-12}
case $factor in
aslr) knob=/proc/sys/kernel/randomize_va_space ;;
hugepages) knob=/proc/sys/vm/nr_hugepages ;;
*) echo "unknown FACTOR $factor (aslr or hugepages)" >&2; exit 64 ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-instance.XXXXXX")
orig=$(cat "$knob")
trap 'echo "$orig" >"$knob"; rm -rf "$tmp"' EXIT
export PGCLIFF_DB=${INSTANCE_DB:-$tmp/instance.db}
clients=${CLIENTS:-1}
case $factor in
aslr)
	power_recipe "aslr_txid_aa" txid "$clients" 3s "fsync: off" >"$tmp/on.yaml"
	cp "$tmp/on.yaml" "$tmp/off.yaml" ;;
hugepages)
	echo "${HUGEPAGES:-400}" >"$knob"
	[ "$(cat "$knob")" -ge "${HUGEPAGES:-400}" ] ||
		{ echo "could reserve only $(cat "$knob") huge pages" >&2; exit 1; }
	for arm in on off; do
		power_recipe "hugepages_${arm}_txid_aa" txid "$clients" 3s \
			"fsync: off, huge_pages: $arm" "fsync: off, huge_pages: $arm" >"$tmp/$arm.yaml"
	done ;;
esac
first=$( (sqlite3 "$PGCLIFF_DB" 'SELECT coalesce(max(id), 0) FROM run' 2>/dev/null || echo 0) | tail -1)
: >"$tmp/arms"
for ((r = 1; r <= runs; r++)); do
	arm=$((r % 2 ? 0 : 1))
	[ "$factor" != aslr ] || echo $((arm ? 2 : 0)) >"$knob"
	"$pgcliff" run "$tmp/$([ $arm = 1 ] && echo on || echo off).yaml" -q \
		--repeat "$blocks" >"$tmp/out" 2>"$tmp/err" ||
		{ echo "run $r failed:"; tail -5 "$tmp/err"; exit 1; }
	echo "$(sqlite3 "$PGCLIFF_DB" 'SELECT max(id) FROM run') $arm" >>"$tmp/arms"
done
echo "$orig" >"$knob"
"$replay" "$PGCLIFF_DB" "$blocks" $((first + 1)) >"$tmp/replay"
cat "$tmp/replay"
# the spread of one block per arm: root mean square over its runs
awk -v f="$factor" 'NR == FNR {arm[$1] = $2; next}
     $1 in arm {s = $(NF - 2); m = $NF; k = arm[$1] ? "on" : "off"
                ss[k] += s * s; sm[k] += m * m; n[k]++}
     END {for (k in n) printf "%s %-3s: %d runs, spread of one block %.3f at equal steal, %.3f as measured\n",
            f, k, n[k], sqrt(ss[k] / n[k]), sqrt(sm[k] / n[k])}' "$tmp/arms" "$tmp/replay"
