#!/usr/bin/env bash
# One option table per command is the single source of its parsing, its
# --help, its man page and its bash and zsh completions (cmd/opt.h): this
# test fails when any of them disagrees with the others.  For every
# command: the options --help lists are exactly the man page's and the
# bash completion's, each is in the zsh completion, and each (long and
# short) is recognised by the parser; --help fits 80 columns; the man
# pages render without a groff warning.  No server.
set -u
PGCLIFF=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
export PGCLIFF_DB=$TMP/none.db
fails=0 checked=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

"$PGCLIFF" help --man "$TMP/man" 2>"$TMP/man.err" || mkdir -p "$TMP/man"
[ -s "$TMP/man.err" ] && fail "help --man: $(cat "$TMP/man.err")"
"$PGCLIFF" help --completion bash >"$TMP/bash" || fail "help --completion bash"
"$PGCLIFF" help --completion zsh >"$TMP/zsh" || fail "help --completion zsh"
"$PGCLIFF" help --completion fish >/dev/null 2>"$TMP/fish.err"
[ $? = 64 ] || fail "an unknown shell: not a usage error"
grep -q 'no completion for "fish"' "$TMP/fish.err" || fail "fish: $(cat "$TMP/fish.err")"

# the commands, from the overview
mapfile -t commands < <("$PGCLIFF" help | sed -n '/^commands:/,/^$/p' |
	sed -n 's/^  \([a-z]*\( [a-z]*\)\?\)  .*/\1/p' | sed 's/ *$//')
[ ${#commands[@]} -ge 15 ] || fail "only ${#commands[@]} commands in the overview"

# shellcheck disable=SC1090
source "$TMP/bash"
complete_words() {	# complete_words WORD...: COMPREPLY for the last word
	COMP_WORDS=(pgcliff "$@")
	COMP_CWORD=$#
	COMPREPLY=()
	_pgcliff
	printf '%s\n' "${COMPREPLY[@]}" | sort
}

for c in "${commands[@]}"; do
	page=pgcliff-${c// /-}
	# shellcheck disable=SC2086
	"$PGCLIFF" $c --help >"$TMP/help" 2>&1 || fail "$c --help: exit $?"
	awk -v c="$c" 'length($0) > 80 { print "FAIL: " c " --help: a line of " length($0) " columns: " $0 }' "$TMP/help" >>"$TMP/wide"
	# options as --help lists them: "  -c, --clients LIST" or "      --db STORE"
	sed -n 's/^  \(-., \|    \)--\([a-z0-9-]*\).*/\2/p' "$TMP/help" | sort -u >"$TMP/h"
	[ "$c" = help ] && continue
	[ -s "$TMP/h" ] || { fail "$c: no options in --help"; continue; }
	# the man page's .TP entries
	[ -f "$TMP/man/$page.1" ] || { fail "$c: no man page $page.1"; continue; }
	awk '/^\.TP/ { getline; print }' "$TMP/man/$page.1" |
		sed -n 's/.*\\fB\\-\\-\([a-z0-9\\-]*\)\\fR.*/\1/p' | sed 's/\\-/-/g' | sort -u >"$TMP/m"
	diff <(cat "$TMP/h") "$TMP/m" >"$TMP/d" || fail "$c: --help and man page differ: $(tr '\n' ' ' <"$TMP/d")"
	LC_ALL=C.UTF-8 MANWIDTH=80 groff -man -Tutf8 -ww -z "$TMP/man/$page.1" 2>"$TMP/groff" ||
		fail "$c: groff failed"
	[ -s "$TMP/groff" ] && fail "$c: groff warns: $(head -3 "$TMP/groff")"
	# the bash completion of "--"
	# shellcheck disable=SC2086
	complete_words $c -- | sed -n 's/^--//p' | sort -u >"$TMP/b"
	diff "$TMP/h" "$TMP/b" >"$TMP/d" || fail "$c: --help and bash completion differ: $(tr '\n' ' ' <"$TMP/d")"
	# the zsh completion names each option in the command's case
	awk -v c="	'$c')" '$0 == c { on = 1; next } on && /;;/ { print; exit } on' "$TMP/zsh" >"$TMP/z"
	while read -r o; do
		grep -q -- "--$o[['}]" "$TMP/z" || fail "$c: zsh completion lacks --$o"
	done <"$TMP/h"
	# each long option is parsed: the error is the sentinel's, not the option's
	while read -r o; do
		arg=()
		grep -qE "^  (-., |    )--$o [^ ]" "$TMP/help" && arg=(x)
		# shellcheck disable=SC2086
		timeout 20 "$PGCLIFF" $c "--$o" "${arg[@]}" --pgcliff-sentinel >/dev/null 2>"$TMP/e" </dev/null
		checked=$((checked + 1))
		if grep -qE "unknown option '--$o'|not handled" "$TMP/e"; then
			fail "$c --$o is in --help but not parsed: $(head -1 "$TMP/e")"
		fi
	done <"$TMP/h"
	# and each short one
	sed -n 's/^  -\(.\), --\([a-z0-9-]*\)\( [^ ]\)\?.*/\1 \3/p' "$TMP/help" | while read -r s a; do
		arg=()
		[ -n "$a" ] && arg=(x)
		# shellcheck disable=SC2086
		timeout 20 "$PGCLIFF" $c "-$s" "${arg[@]}" --pgcliff-sentinel >/dev/null 2>"$TMP/e" </dev/null
		if grep -qE "unknown option '-$s'|invalid option -- '$s'|not handled" "$TMP/e"; then
			echo "FAIL: $c -$s is in --help but not parsed: $(head -1 "$TMP/e")"
		fi
	done >>"$TMP/short"
done
[ -s "$TMP/wide" ] && { cat "$TMP/wide"; fails=$((fails + $(wc -l <"$TMP/wide"))); }
[ -s "$TMP/short" ] && { cat "$TMP/short"; fails=$((fails + $(wc -l <"$TMP/short"))); }

# the overview page lists every command and renders cleanly
for c in "${commands[@]}"; do
	grep -q "^\\\\fB$c\\\\fR" "$TMP/man/pgcliff.1" || fail "pgcliff.1 lacks $c"
done
LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$TMP/man/pgcliff.1" 2>"$TMP/groff"
[ -s "$TMP/groff" ] && fail "pgcliff.1: groff warns: $(head -3 "$TMP/groff")"

# completions of words and values
check_completion() {	# check_completion WANT WORD...
	local want=$1 got
	shift
	got=$(complete_words "$@" | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || fail "completion of '$*': '$got', want '$want'"
}
check_completion "recipe report" re
check_completion "check explain" recipe ''
check_completion "auto free split" run --placement ''
check_completion "json junit" compare x --format j
check_completion "estimate strict" bisect --rule ''
check_completion "--repeat --report-per-command" run --re
mkdir -p "$TMP/r" && touch "$TMP/r/a.yaml" "$TMP/r/b.txt"
check_completion "$TMP/r/a.yaml" run "$TMP/r/"
check_completion "$TMP/r/a.yaml" recipe check "$TMP/r/a"

# metric names are one list: every name the tables offer is taken by
# compare's parser, by the until-decided options of run and bisect, and
# by a recipe's measure: (dip needs its windows, which this recipe has)
metrics=$(sed -n "s/.*--metric) COMPREPLY=(\$(compgen -W '\([^']*\)'.*/\1/p" "$TMP/bash" | sort -u)
[ "$(wc -l <<<"$metrics")" = 2 ] || fail "--metric: not two lists (compare's and history's): $metrics"
for m in $(head -1 <<<"$metrics"); do
	for cmdline in "gate 1 2" "run $TMP/r/a.yaml --until-decided" "bisect $TMP/r/a.yaml"; do
		# shellcheck disable=SC2086
		"$PGCLIFF" $cmdline --metric "$m" --pgcliff-sentinel >/dev/null 2>"$TMP/e" </dev/null
		grep -q "unknown metric" "$TMP/e" && fail "$cmdline --metric $m: $(head -1 "$TMP/e")"
	done
	cat >"$TMP/m.yaml" <<-EOF
	recipe: m
	duration: 10s
	windows: {before: [1s, 4s], during: [5s, 9s]}
	workloads: {w: {script: "SELECT 1;"}}
	measure: w.$m
	EOF
	"$PGCLIFF" recipe check "$TMP/m.yaml" >/dev/null 2>"$TMP/e" || fail "measure: w.$m: $(head -1 "$TMP/e")"
done
# history's list is compare's without what history cannot judge
for m in $(tail -1 <<<"$metrics"); do
	grep -qw -- "$m" <<<"$(head -1 <<<"$metrics")" || fail "history's --metric $m is not compare's"
done

# zsh reads its completion (syntax), when zsh is there
if command -v zsh >/dev/null; then
	zsh -n "$TMP/zsh" 2>"$TMP/zerr" || fail "zsh -n: $(head -3 "$TMP/zerr")"
fi

echo "options: ${#commands[@]} commands, $checked options parsed, $fails failures"
[ $fails = 0 ]
