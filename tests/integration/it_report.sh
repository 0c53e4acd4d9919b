#!/usr/bin/env bash
# The HTML report in a real browser: reports of real runs (txid_current
# with two variants; a standby recipe with its long transaction and a
# description holding <script>) and of a stored run as large as the
# charts must stay readable at (12 points, 5 variants, 3,600 s series,
# from test_html), opened in headless Chromium through chromedriver.
# Each page must load without a console message, run no script, show
# the hostile strings as text, and have every chart with the marks it
# should have, each of non-zero size.  Full-page screenshots are kept in
# BUILD/artifacts/report/ for people to look at.
. "$(dirname "$0")/lib.sh"
BUILD=$(dirname "$PGCLIFF")
ART=$BUILD/artifacts/report
for tool in chromium chromedriver curl jq; do
	command -v "$tool" >/dev/null || skip "$tool is not installed (.ci/setup installs it)"
done
mkdir -p "$ART"

# --- the runs ---------------------------------------------------------
"$PGCLIFF" run "$ROOT/recipes/txid_current.yaml" -c 1,2 -T 2s --repeat 2 \
	--variant base:server.fsync=off \
	--variant slow:server.log_min_duration_statement=0 >"$TMP/run1" 2>&1
check_eq "txid run" $? 0
cat >"$TMP/standby.yaml" <<'YAML'
recipe: standby_report
description: "seed 004 in small <script>alert(1)</script> & more"
topology: primary+standby
standby: {hot_standby_feedback: on}
init:
  pgbench: {scale: 1}
duration: 12s
workloads:
  writes: {target: primary, builtin: simple-update, clients: 2, jobs: 1}
  reads: {target: standby, builtin: select-only, clients: 2, jobs: 1}
  long_tx:
    target: primary
    at: 5s
    script: |
      BEGIN;
      SELECT txid_current();
      SELECT pg_sleep(3);
      COMMIT;
windows:
  before: [1s, 5s]
  during: [5s, 8s]
  after: [9s, 12s]
measure: reads.tps
YAML
"$PGCLIFF" run "$TMP/standby.yaml" >"$TMP/run2" 2>&1
check_eq "standby run" $? 0

"$PGCLIFF" report 1 -o "$TMP/txid.html"
check_eq "report of the txid run" $? 0
"$PGCLIFF" report 2 -o "$TMP/standby.html"
check_eq "report of the standby run" $? 0
"$PGCLIFF" compare 1:base 1:slow --format html -o "$TMP/compare.html"
check_eq "compare --format html" $? 0
"$PGCLIFF" report 1 --format svg -o "$TMP/tps.svg"
check_eq "report --format svg" $? 0
"$PGCLIFF" report 2 --format svg --chart series --workload reads >"$TMP/series.svg"
check_eq "a series chart as svg on stdout" $? 0
"$BUILD/tests/test_html" "$TMP/big.db" >/dev/null 2>&1
check_eq "the large stored run" $? 0
PGCLIFF_DB=$TMP/big.db "$PGCLIFF" report 1 -o "$TMP/big.html"
check_eq "report of the large run" $? 0
grep -c '<script' "$TMP"/*.html "$TMP"/*.svg | grep -v ':0$' && fail "a <script> in a report"
echo "sizes: $(wc -c "$TMP"/*.html "$TMP"/*.svg | head -n -1 | awk '{printf "%s %s B; ", $2, $1}' | sed "s|$TMP/||g")"

# --- the browser -------------------------------------------------------
port=$((20000 + $$ % 20000))
setsid chromedriver --port=$port >"$TMP/chromedriver.log" 2>&1 &
cd_pid=$!
stop_driver() {	# once: the pid may be reused afterwards
	[ -n "$cd_pid" ] || return 0
	kill -- -"$cd_pid" 2>/dev/null; wait "$cd_pid" 2>/dev/null; cd_pid=
}
at_exit stop_driver
wd() {	# wd METHOD PATH [JSON]
	curl -sS --max-time 60 -X "$1" "http://127.0.0.1:$port$2" \
		-H 'Content-Type: application/json' ${3:+-d "$3"}
}
# a cold start (the first after installing, a loaded machine) can take
# seconds: wait for it to say ready, 60 s at most. (Compare the text:
# jq 1.6's -e exits 0 on empty input, which is what a refused curl gives.)
ready=false
for _ in $(seq 300); do
	[ "$(wd GET /status 2>/dev/null | jq -r '.value.ready' 2>/dev/null)" = true ] && { ready=true; break; }
	sleep 0.2
done
$ready || { fail "chromedriver never said ready: $(tail -5 "$TMP/chromedriver.log")"; stop_driver; finish; }
caps='{"capabilities":{"alwaysMatch":{"browserName":"chrome",
  "goog:chromeOptions":{"binary":"'"$(command -v chromium)"'",
    "args":["--headless=new","--no-sandbox","--disable-gpu","--hide-scrollbars",
            "--window-size=1000,900","--user-data-dir='"$TMP"'/chrome"]},
  "goog:loggingPrefs":{"browser":"ALL"}}}}'
sid=$(wd POST /session "$caps" | jq -r .value.sessionId)
[ -n "$sid" ] && [ "$sid" != null ] || { fail "no browser session: $(tail -5 "$TMP/chromedriver.log")"; finish; }

# Per kind of chart, in order of first appearance: charts/marks/lines/
# events/spans/bands, counting only elements with a non-zero box; then
# the number of marks or lines whose box is empty (must be 0).
count_js='const kinds = []; const n = {}; let empty = 0;
const nz = (e) => { const b = e.getBBox(); return b.width > 0 || b.height > 0; };
const len = (e) => e.getTotalLength() > 0;
for (const s of document.querySelectorAll("svg.chart")) {
  const k = s.dataset.chart; if (!n[k]) { n[k] = [0,0,0,0,0,0]; kinds.push(k); }
  const c = n[k]; c[0]++;
  const sel = [[".mark", nz], ["path.line", len], [".event", nz], [".span", nz], [".band", nz]];
  sel.forEach(([q, ok], i) => s.querySelectorAll(q).forEach((e) => { if (ok(e)) c[i+1]++; else empty++; }));
}
return kinds.map((k) => k + ":" + n[k].join("/")).join(" ") + " empty:" + empty;'

page() {	# page NAME FILE WANT: open, check, screenshot
	local name=$1 file=$2 want=$3 got logs h
	wd POST "/session/$sid/url" "{\"url\":\"file://$file\"}" >/dev/null
	got=$(wd POST "/session/$sid/execute/sync" "$(jq -n --arg s "$count_js" '{script:$s,args:[]}')" | jq -r .value)
	check_eq "$name: charts and marks" "$got" "$want"
	logs=$(wd POST "/session/$sid/se/log" '{"type":"browser"}' | jq -c '.value')
	check_eq "$name: console messages" "$logs" "[]"
	check_eq "$name: scripts" "$(wd POST "/session/$sid/execute/sync" '{"script":"return document.scripts.length","args":[]}' | jq -r .value)" 0
	h=$(wd POST "/session/$sid/execute/sync" '{"script":"return document.documentElement.scrollHeight","args":[]}' | jq -r .value)
	[ "$h" -gt 16000 ] 2>/dev/null && h=16000
	wd POST "/session/$sid/window/rect" "{\"width\":1000,\"height\":${h:-900}}" >/dev/null
	wd GET "/session/$sid/screenshot" | jq -r .value | base64 -d >"$ART/$name.png"
	[ -s "$ART/$name.png" ] && echo "screenshot: $ART/$name.png (${h}px high)" || fail "$name: no screenshot"
	wd POST "/session/$sid/window/rect" '{"width":1000,"height":900}' >/dev/null
}

page txid "$TMP/txid.html" "tps:1/4/2/0/0/0 ratio:1/2/1/0/0/1 latency:1/8/4/0/0/0 series:2/0/8/0/0/0 empty:0"
page compare "$TMP/compare.html" "tps:1/4/2/0/0/0 ratio:1/2/1/0/0/1 latency:1/8/4/0/0/0 series:2/0/8/0/0/0 empty:0"
page standby "$TMP/standby.html" "tps:2/2/0/0/0/0 latency:2/4/0/0/0/0 series:2/0/2/2/6/0 lag:1/0/1/0/0/0 empty:0"
check_eq "standby: the description shown as text" \
	"$(wd POST "/session/$sid/execute/sync" '{"script":"return document.body.textContent.includes(\"seed 004 in small <script>alert(1)</script> & more\")","args":[]}' | jq -r .value)" true
page big "$TMP/big.html" "tps:1/60/5/0/0/0 ratio:4/48/4/0/0/4 latency:1/120/10/0/0/0 series:12/0/180/180/36/0 empty:0"
page tps_svg "$TMP/tps.svg" "tps:1/4/2/0/0/0 empty:0"
page series_svg "$TMP/series.svg" "series:1/0/1/1/3/0 empty:0"

wd DELETE "/session/$sid" >/dev/null
stop_driver
# the browser's processes end a moment after its session: wait for them
# (10 s at most) before finish counts what is left
for _ in $(seq 50); do
	[ "$(live_under "$TMP/chrome")" = 0 ] && break
	sleep 0.2
done
finish
