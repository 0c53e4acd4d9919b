#!/usr/bin/env bash
# Run the CLI table in cases.txt: each case runs pgcliff with its arguments
# and checks the exit code and that stderr matches the pattern (extended
# regex, any line) or is empty ("-").  Prints "N passed, M failed".
set -u
pgcliff=$1 cases=$2 ROOT=$3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PGCLIFF_DB="$TMP/default.db"
# the secret of run --workers and worker (wire.h), its owner's alone
(umask 077 && printf '%s' 0123456789abcdef0123456789abcdef >"$TMP/key")
export PGCLIFF_KEY_FILE="$TMP/key"
pass=0 fail=0 n=0
while IFS=$'\t' read -r want pattern args; do
	case "$want" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	eval "set -- $args"
	timeout 60 "$pgcliff" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	got=$?
	ok=1
	[ "$got" = "$want" ] || ok=0
	if [ "$pattern" = "-" ]; then
		[ -s "$TMP/err" ] && ok=0
	elif ! grep -qE -- "$pattern" "$TMP/err"; then
		ok=0
	fi
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL case $n: pgcliff $args"
		echo "  exit $got (want $want); stderr pattern: $pattern"
		sed 's/^/  | /' "$TMP/err" | head -20
	fi
done <"$cases"
echo "cli_table: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
