#!/usr/bin/env bash
# Flat memory, the short form of tests/bench/soak.sh: a 4-workload point
# at a fixed rate for 3 minutes, pgcliff's RSS read every 10 s.  After a
# minute of warm-up its growth, brought to 30 minutes at the pace it grew,
# stays within 256 kB: the per-second series and samples go to the store
# as the window runs and SQLite's cache is held (store_set_lean()).
# Measured: 4 kB from t=60 to 180 s (60 kB at that pace).  Before that,
# one workload's run grew 36 kB in the same two minutes (540 kB at that
# pace: it fails here).  Dev build only (label memory): a sanitizer's
# shadow memory is not pgcliff's.
. "$(dirname "$0")/lib.sh"

PGCLIFF=$PGCLIFF SOAK_BIG=0 SOAK_WORKLOADS=4 SOAK_WARM=60 \
	bash "$ROOT/tests/bench/soak.sh" 3min 100 4 >"$TMP/soak.out" 2>&1
rc=$?
sed 's/^/  | /' "$TMP/soak.out"
check_eq "soak exit" $rc 0
grep -q "^flat: yes" "$TMP/soak.out" || fail "memory grew: $(grep '^growth' "$TMP/soak.out")"
check_eq "every second stored" "$(grep -c '^series rows stored: 720 ' "$TMP/soak.out")" 1
finish
