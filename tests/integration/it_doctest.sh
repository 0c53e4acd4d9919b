#!/usr/bin/env bash
# The README's shell examples run as written (a doc test): in every code
# block (indented four spaces) each line that starts with "pgcliff " runs,
# with its continuation lines, in order, in a workspace whose recipes/ is
# the source tree's, on managed servers, and its exit status is checked.
# A line "<!-- doctest: WORDS -->" before a block says how to run it:
#   skip: REASON    not run (synopses, placeholders); the reason is printed
#   exit 0,1,2      the exit codes it may end with (default 0)
#   source          it builds PostgreSQL: postgresql-15-15.18 is this test's
#                   Debian source tree, the build cache the tests' shared one
#   budget DUR      --budget shortened to DUR
# Every command of the README is either run or skipped with a reason: a
# new example cannot escape the test unnoticed.
. "$(dirname "$0")/lib.sh"
pg_source
export PGCLIFF_DB=$TMP/doc.db PGCLIFF_BUILD_CACHE=$CACHE
ws=$TMP/ws
mkdir -p "$ws" "$TMP/bin" && ln -s "$ROOT/recipes" "$ws/recipes"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$PGCLIFF" >"$TMP/bin/pgcliff"
chmod +x "$TMP/bin/pgcliff"
export PATH=$TMP/bin:$PATH
src_name=postgresql-15-$(sed -n "s/^PACKAGE_VERSION='\(.*\)'$/\1/p" "$SRC/configure")
ln -s "$SRC" "$ws/$src_name"

py=$(type -ap python3 | head -1)
"$py" - "$ROOT/README.md" >"$TMP/doc.tsv" <<'PY'
import re, sys
# one record per command: block number, directives, the command
lines = open(sys.argv[1]).read().split("\n")
block, directives, in_block, prev_blank = 0, "", False, True
i = 0
while i < len(lines):
    line = lines[i]
    m = re.match(r"^<!-- doctest: (.*) -->$", line)
    if m:
        directives = m.group(1)
    elif line.startswith("    ") and prev_blank and not in_block:
        in_block, block = True, block + 1
    elif not line.startswith("    ") and line.strip():
        if in_block:
            directives = ""
        in_block = False
    if in_block and line.startswith("    pgcliff "):
        cmd = line[4:]
        while cmd.endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd = cmd[:-1] + " " + lines[i].strip()
        print(f"{block}\x1f{directives}\x1f{cmd}")
    # a directive ends what was before it, as a blank line does
    prev_blank = bool(m) or not line.strip() or (in_block and line.startswith("    "))
    i += 1
PY
[ -s "$TMP/doc.tsv" ] || fail "no pgcliff command found in the README"

ran=0 skipped=0
# fields apart by the unit separator: a tab is IFS white space, and an
# empty field between two would vanish
while IFS=$'\x1f' read -r block directives cmd; do
	case "$directives" in
	skip:*)
		skipped=$((skipped + 1))
		echo "skip (block $block, ${directives#skip: }): $cmd"
		continue ;;
	esac
	exits=0
	[[ $directives =~ exit\ ([0-9,]+) ]] && exits=${BASH_REMATCH[1]}
	# the README names the release it was written with; this tree's may be newer
	cmd=$(sed -E "s/postgresql-15-[0-9.]+[0-9]/$src_name/g" <<<"$cmd")
	if [[ $directives =~ budget\ ([0-9a-z]+) ]]; then
		cmd=$(sed -E "s/--budget [0-9a-z]+/--budget ${BASH_REMATCH[1]}/" <<<"$cmd")
	fi
	echo "run (block $block): $cmd"
	(cd "$ws" && timeout 900 bash -c "$cmd") >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	ran=$((ran + 1))
	case ",$exits," in
	*",$rc,"*) ;;
	*) fail "README block $block: exit $rc (want $exits): $cmd"; tail -5 "$TMP/err" ;;
	esac
done <"$TMP/doc.tsv"
echo "doctest: $ran README commands run, $skipped skipped with their reason"
[ $ran -ge 10 ] || fail "only $ran README commands ran"
[ -s "$ws/run1.html" ] || fail "report 1 -o run1.html wrote nothing"
finish
