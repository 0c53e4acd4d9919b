#!/usr/bin/env bash
# A hostile store: a real run (two variants, windows, a timed event, a
# probe) whose every text column was then rewritten to hold a formula,
# terminal escapes (OSC, CSI, a C1 CSI, a bare CR), <script>, ]]> and a
# Markdown link and cell, plus a 1 MB error, NUL-holding text and blobs,
# looks and profiles.  Every verb and format that reads a store is run
# on it: no byte that can drive a terminal (ESC, the C1 range, a bare CR)
# reaches stdout, stderr or an -o file; HTML and SVG hold no live
# <script>; the JUnit XML parses; Markdown shows the names escaped and
# opens no HTML, link or cell; no CSV cell is a formula.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/h.yaml" <<'YAML'
recipe: hostile
duration: 2s
windows: {before: [0s, 1s], during: [1s, 2s]}
probes: {p: {sql: "SELECT 1 AS one"}}
workloads:
  w: {script: "SELECT 1;"}
  late: {script: "SELECT 2;", at: 1s}
YAML
"$PGCLIFF" run "$TMP/h.yaml" -c 1 --repeat 2 --variant a --variant b -q >"$TMP/out" 2>"$TMP/err"
check_eq "a run to rewrite" $? 0

# The attacker's edit, as anyone who can write the file could make it:
# every text value of every table gets a formula before it and the
# payload after it (OSC title, clear screen, a C1 CSI, a bare CR, markup,
# a CDATA end), the same edit for the same text so that names still join;
# JSON documents keep their shape with every string (keys too) edited;
# what pgcliff interprets (states, times, ids, the measure, histograms)
# stays, or the verbs would only refuse the run.  Then a 1 MB error, a
# kernel name that is a blob holding NUL and ESC, a reason with a NUL
# inside, and rows of the tables a plain run leaves empty (looks,
# profiles).
python3 - "$PGCLIFF_DB" >"$TMP/rewrite.out" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
P = "x\x1b]0;pwned\x07\x1b[2J\x9b2J\r<script>alert(1)</script>]]>|[a](http://e)"
F = '=HYPERLINK("http://x")'
keep = {"status", "state", "kind", "protocol", "outcome", "stop", "measure",
        "metric", "uid", "owner", "recipe_sha256", "signature", "spec",
        "histogram", "plan", "node"}
def edit(v):
    return F + v + P
def walk(j):
    if isinstance(j, str):
        return edit(j)
    if isinstance(j, list):
        return [walk(x) for x in j]
    if isinstance(j, dict):
        return {edit(k): walk(x) for k, x in j.items()}
    return j
cols = 0
for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
    for c in [r[1] for r in db.execute(f"PRAGMA table_info({t})")
              if "TEXT" in r[2].upper()]:
        if c in keep or c.endswith("_at"):
            continue
        cols += 1
        vals = db.execute(f"SELECT DISTINCT {c} FROM {t} WHERE typeof({c}) = 'text'").fetchall()
        for (v,) in vals:
            try:
                j = json.loads(v)
                new = json.dumps(walk(j)) if isinstance(j, (dict, list)) else edit(v)
            except ValueError:
                new = edit(v)
            db.execute(f"UPDATE {t} SET {c} = ? WHERE {c} = ?", (new, v))
db.execute("UPDATE run SET error = ? || ?", (edit("e"), "\x1b[31m" * 209716))
db.execute("UPDATE run SET host_kernel = X'4c696e7578001b5b324a00'")
db.execute("UPDATE point SET abort_reason = CAST(X'61001b5b324a' AS TEXT) || ?", (P,))
db.execute("INSERT INTO look VALUES (1, 1, 2, 0.95, 3.5, 'INCONCLUSIVE', ?, ?)",
           (edit("budget"), edit("detail")))
for r in range(3):
    db.execute("INSERT INTO profile VALUES (1, 0, 'primary', ?, ?, ?, 10.0, 5, 99, 20.0)",
               (r, edit("postgres"), edit("fn%d" % r)))
db.commit()
print(cols)
PY
check_eq "rewrite" $? 0
cols=$(cat "$TMP/rewrite.out")
echo "text columns rewritten: $cols"
[ "${cols:-0}" -ge 30 ] || fail "only ${cols:-0} text columns rewritten"

# every byte written: no ESC, no C1 control, no CR but before LF
clean() {	# clean WHAT FILE...
	local f bad
	for f in "${@:2}"; do
		bad=$(perl -0777 -ne 'print scalar(() = /\x1b|\xc2[\x80-\x9f]|\r(?!\n)/g)' "$f")
		[ "${bad:-0}" = 0 ] || fail "$1: $bad byte(s) of $f could drive a terminal: $(perl -0777 -ne 'print "$&\n" while /.{0,20}(\x1b|\xc2[\x80-\x9f]|\r(?!\n)).{0,20}/gs' "$f" | head -c 200 | od -c | head -4)"
	done
}
n=0 bytes=0
verb() {	# verb ARGS...: run, then check both streams
	local rc=0
	"$PGCLIFF" "$@" >"$TMP/v.out" 2>"$TMP/v.err" || rc=$?
	clean "$*" "$TMP/v.out" "$TMP/v.err"
	n=$((n + 1))
	bytes=$((bytes + $(wc -c <"$TMP/v.out") + $(wc -c <"$TMP/v.err")))
	printf 'verb %-40.40q exit %d, %d bytes\n' "$*" $rc "$(wc -c <"$TMP/v.out")"
	return $rc
}
csvs=()
# Markdown shows a stored name and does nothing else: no HTML, no link,
# no table cell of its own; the name is there, escaped
md() {	# md WHAT FILE
	grep -q '<script>' "$2" && fail "$1: raw HTML"
	grep -qF '[a](' "$2" && fail "$1: a live link"
	grep -qF '\<script\>alert(1)\</script\>\]\]\>\|\[a\](http://e)' "$2" ||
		fail "$1: the escaped name is not there"
}
verb list
verb list --format json
verb list --format csv && cp "$TMP/v.out" "$TMP/list.csv" && csvs+=("$TMP/list.csv")
verb show 1
verb show 1 --samples --series
verb show 1 --profile
verb show 1 --scripts
verb show 1 --recipe
verb show 1 --format json
verb show 1 --format csv && cp "$TMP/v.out" "$TMP/show.csv" && csvs+=("$TMP/show.csv")
verb show 1 --format csv --series && cp "$TMP/v.out" "$TMP/series.csv" && csvs+=("$TMP/series.csv")
# the workload's name as the attacker left it
w=$(sql "SELECT DISTINCT workload FROM point WHERE run_id = 1 AND workload LIKE '%)w%'")
for f in text markdown json junit html svg; do
	verb compare 1 --workload "$w" --format $f
	case $f in
	html | svg)
		grep -q '<script>alert' "$TMP/v.out" && fail "compare --format $f: a live <script>" ;;
	junit)
		python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$TMP/v.out" ||
			fail "compare --format junit: not well-formed XML" ;;
	markdown) md "compare --format markdown" "$TMP/v.out" ;;
	esac
done
for f in bmf benchmark-action openmetrics hdr-log; do verb export 1 --format $f; done
verb gate 1 --workload "$w"
verb compare 1 --workload "$w" -o "$TMP/cmp.md" --format markdown
clean "compare -o" "$TMP/cmp.md"
md "compare -o" "$TMP/cmp.md"
verb report 1 -o "$TMP/r.html"
clean "report -o" "$TMP/r.html"
grep -q '<script>alert' "$TMP/r.html" && fail "report: a live <script>"
name=$(sql "SELECT recipe FROM run WHERE id = 1")
for f in text markdown json junit; do
	verb history "$name" --format $f
	[ $f = markdown ] && md "history --format markdown" "$TMP/v.out"
done
verb compare 1 --workload "$w" --format github
md "compare --format github" "$TMP/v.out"
# a spreadsheet runs a cell that begins with = + - or @ (but a number):
# none does, and the formulas are there to be neutralised
for f in "${csvs[@]}"; do
	python3 - "$f" >"$TMP/cells" <<'PY' || fail "$(basename "$f"): not CSV"
import csv, re, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
cells = [c for r in rows for c in r]
bad = [c for c in cells if c[:1] in "=+-@" and not re.fullmatch(r"[-+]?[0-9.eE+-]+", c)]
print(len(cells), sum("=HYPERLINK" in c for c in cells), len(bad))
PY
	read -r ncells nformula nbad <"$TMP/cells"
	[ "${nformula:-0}" -gt 0 ] || fail "$(basename "$f"): no stored formula in it ($ncells cells)"
	check_eq "formula cells in $(basename "$f") ($ncells cells, $nformula with one)" "$nbad" 0
done
check_eq "csv files read" "${#csvs[@]}" 3
# stored text in an error message: a run id it cannot find names nothing
# stored, but a recipe check of a hostile file name goes to stderr
cp "$TMP/h.yaml" "$TMP/$(printf 'evil\033[2J.yaml')"
verb recipe check "$TMP/$(printf 'evil\033[2J.yaml')"
echo "ok: $n verb runs, $bytes bytes, no terminal control written"
finish
