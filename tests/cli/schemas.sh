#!/usr/bin/env bash
# The JSON Schemas of schemas/json/ are valid schemas, and the documents
# kept as goldens (tests/golden/*.json, written by the renderers) are
# valid against theirs; a document that breaks its schema is refused (a
# wrong type, an unknown outcome, OpenMetrics without its # EOF, an
# interval log's histogram cut short).  The
# documents of real runs are checked by it_variants.sh.  No server.
# usage: schemas.sh SOURCE_DIR
set -u
ROOT=$1
. "$ROOT/tests/cli/validate_lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
valid() { validate "$@" >"$TMP/out" 2>&1 || fail "$*: $(cat "$TMP/out")"; }
invalid() { validate "$@" >"$TMP/out" 2>&1 && fail "$* passed"; grep -q . "$TMP/out" || fail "$*: no reason"; }

for g in compare compare_windows; do valid compare "$ROOT/tests/golden/$g.json"; done
valid history "$ROOT/tests/golden/history.json"
sed 's/"outcome": "[A-Z-]*"/"outcome": "MAYBE"/' "$ROOT/tests/golden/compare.json" >"$TMP/c.json"
invalid compare "$TMP/c.json"
printf '{"a/b/c/c1": {"throughput": {"value": "fast"}, "latency": {"value": 1}, "latency-p99": {"value": 1}}}\n' >"$TMP/b.json"
invalid bmf "$TMP/b.json"
printf '{"a/b/c/c1": {"throughput": {"value": 5}, "latency": {"value": 1}, "latency-p99": {"value": 2}}}\n' >"$TMP/b2.json"
valid bmf "$TMP/b2.json"
printf '[{"name": "a/b/c/c1", "unit": "tps", "value": 0}]\n' >"$TMP/a.json"
invalid benchmark-action "$TMP/a.json"
printf '# TYPE x gauge\nx 1\n' >"$TMP/om"
invalid openmetrics "$TMP/om"
printf '# TYPE x gauge\nx 1\n# EOF\n' >"$TMP/om2"
valid openmetrics "$TMP/om2"
# an interval log: hdr-histogram-js 3.0.1's own line (100, 1000, 123456)
# is read; one cut short, or not base64, is not
{
	echo '#[Histogram log format version 1.3]'
	echo '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"'
	echo 'Tag=a/b/c1/r1,0.000,1.000,0.123,HISTFAAAAC94nJNpmSzMwMDAycDAwMjAwMDEAAGMDAzMbgY7FjDA+McZmVayMb3mZQIAcUMFmw=='
} >"$TMP/h.log"
valid hdr-log "$TMP/h.log"
grep -qx "a/b/c1/r1 3 digits 2" "$TMP/out" || fail "hdr-log: the reference line read as $(cat "$TMP/out")"
sed -E '$s/.{12}$/AAAA/' "$TMP/h.log" >"$TMP/h2.log"
invalid hdr-log "$TMP/h2.log"
sed 's/HISTF/HIST!/' "$TMP/h.log" >"$TMP/h3.log"
invalid hdr-log "$TMP/h3.log"
echo "schemas: $fails failures"
[ $fails = 0 ]
