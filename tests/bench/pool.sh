#!/usr/bin/env bash
# The true ratio of a scenario pooled over every block of a set of stored
# gates: what until_decided_power.sh prints at its end, for gates run in
# several calls into one store (POWER_DB), or for a part of them.
#
#   tests/bench/pool.sh STORE [FIRST_RUN [LAST_RUN]]
#     runs FIRST_RUN (default 1) to LAST_RUN (default the last)
# Prints the pooled B/A with its 95 % interval, the same at equal steal,
# the spread of one block's log B/A and the host's steal.  Exit 64 for a
# run id that is not a number, 66 for a store it cannot read.  A
# benchmark tool, not a test.
set -euo pipefail
. "$(dirname "$0")/block_pairs.sh"
store=${1:?store}
[ -r "$store" ] || { echo "no store $store" >&2; exit 66; }
block_pairs "$store" "${2:-1}" "${3:-}" | pool_blocks
