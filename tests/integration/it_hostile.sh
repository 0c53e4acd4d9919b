#!/usr/bin/env bash
# A hostile store: a real run whose text columns were then rewritten to
# hold terminal escapes (ESC sequences, a C1 CSI, a lone carriage return,
# a NUL-free blob of 64 kB), <script>, ]]> and spreadsheet formulas.  Every
# verb and format that reads it is run; no byte that can drive a terminal
# (ESC, the C1 range, a bare CR) reaches stdout, stderr or an -o file, the
# HTML and SVG hold no live <script>, the JUnit XML parses.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/h.yaml" <<'YAML'
recipe: hostile
duration: 1s
workloads: {w: {script: "SELECT 1;"}}
YAML
"$PGCLIFF" run "$TMP/h.yaml" -c 1 --repeat 2 --variant a --variant b -q >"$TMP/out" 2>"$TMP/err"
check_eq "a run to rewrite" $? 0

# the payload: OSC title, clear screen, C1 CSI, bare CR, markup, formula
P="'x' || char(27) || ']0;pwned' || char(7) || char(27) || '[2J' || char(155) || '2J' || char(13) || '<script>alert(1)</script>]]>'"
sql "UPDATE run SET error = '=HYPERLINK(\"http://x\")' || $P,
	command_line = $P, host_name = $P, host_cpu = $P, host_kernel = $P,
	recipe_path = $P || replace(hex(zeroblob(32768)), '00', 'ab');
UPDATE variant SET server_version = $P, bindir = $P, name = 'b' || $P WHERE name = 'b';
UPDATE point SET variant = 'b' || $P, abort_reason = $P WHERE variant = 'b';
UPDATE sample SET error = $P;"

# every byte written: no ESC, no C1 control, no CR but before LF
clean() {	# clean WHAT FILE...
	local f bad
	for f in "${@:2}"; do
		bad=$(perl -0777 -ne 'print scalar(() = /\x1b|\xc2[\x80-\x9f]|\r(?!\n)/g)' "$f")
		[ "${bad:-0}" = 0 ] || fail "$1: $bad byte(s) of $f could drive a terminal: $(perl -0777 -ne 'print "$&\n" while /.{0,20}(\x1b|\xc2[\x80-\x9f]|\r(?!\n)).{0,20}/gs' "$f" | head -c 200 | od -c | head -4)"
	done
}
n=0
verb() {	# verb ARGS...: run, then check both streams
	"$PGCLIFF" "$@" >"$TMP/v.out" 2>"$TMP/v.err"
	clean "$*" "$TMP/v.out" "$TMP/v.err"
	n=$((n + 1))
}
verb list
verb list --format json
verb list --format csv
verb show 1
verb show 1 --samples --series
verb show 1 --format json
verb show 1 --format csv
for f in text markdown json junit html svg; do
	verb compare 1 --format $f
	case $f in
	html | svg)
		grep -q '<script>alert' "$TMP/v.out" && fail "compare --format $f: a live <script>" ;;
	junit)
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMP/v.out" ||
			fail "compare --format junit: not well-formed XML" ;;
	esac
done
verb gate 1
verb compare 1 -o "$TMP/cmp.md" --format markdown
clean "compare -o" "$TMP/cmp.md"
verb report 1 -o "$TMP/r.html"
clean "report -o" "$TMP/r.html"
grep -q '<script>alert' "$TMP/r.html" && fail "report: a live <script>"
for f in text json csv; do verb history hostile --format $f; done
# stored text in an error message: a run id it cannot find names nothing
# stored, but a recipe check of a hostile file name goes to stderr
cp "$TMP/h.yaml" "$TMP/$(printf 'evil\033[2J.yaml')"
verb recipe check "$TMP/$(printf 'evil\033[2J.yaml')"
echo "ok: $n verb runs, no terminal control written"
finish
