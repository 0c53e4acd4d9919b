#!/usr/bin/env bash
# PostgreSQL 15 built from Debian's source package by `pgcliff build`:
# the plain build (once: the cache outlives the test, shared by the dev,
# asan and tsan runs), a NUM_XLOGINSERT_LOCKS=64 variant made from a copy
# of its tree, a cache hit, both installs started by a short emit_message
# comparison whose stored provenance names the defines, and the failures:
# a define found nowhere, a patch that does not apply (the hunk named), a
# patch that breaks the compile (the log's tail shown, nothing cached), and
# two pgcliff processes building the same new key at once.
. "$(dirname "$0")/lib.sh"
pg_source
version=$(sed -n "s/^PACKAGE_VERSION='\(.*\)'$/\1/p" "$SRC/configure")
echo "source: $SRC ($version)"

field() { sed -n "s/^  $1: *//p" "$2"; }

# --- the plain build: first time here, or found in the cache
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --name pg15 >"$TMP/base.out" 2>"$TMP/base.err"
check_eq "plain build exit" $? 0
cat "$TMP/base.out" "$TMP/base.err"
base_bin=$(field bindir "$TMP/base.out")
"$base_bin/postgres" --version >"$TMP/v1" 2>&1
check_eq "plain build's version" "$(cat "$TMP/v1")" "postgres (PostgreSQL) $version"

# --- the variant: a copy of the plain build's tree, one file rebuilt
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --define NUM_XLOGINSERT_LOCKS=64 --name locks64 >"$TMP/v64.out" 2>"$TMP/v64.err"
check_eq "variant build exit" $? 0
cat "$TMP/v64.out" "$TMP/v64.err"
v64_bin=$(field bindir "$TMP/v64.out")
"$v64_bin/postgres" --version >"$TMP/v2" 2>&1
check_eq "variant's version" "$(cat "$TMP/v2")" "postgres (PostgreSQL) $version"
[ "$v64_bin" != "$base_bin" ] || fail "the variant has the plain build's bindir"
cmp -s "$base_bin/postgres" "$v64_bin/postgres" && fail "the variant's postgres is the plain one"
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --define NUM_XLOGINSERT_LOCKS=64 --json >"$TMP/v64.json" 2>/dev/null
# the provenance against its schema (schemas/json/build.schema.json), as
# every build.json of the cache
. "$ROOT/tests/cli/validate_lib.sh"
validate build "$TMP/v64.json" "$CACHE"/*/build.json >"$TMP/schema.out" 2>&1 ||
	fail "build --json against its schema: $(head -5 "$TMP/schema.out")"
grep -q '"incremental": true' "$TMP/v64.json" || fail "variant not built from the plain tree"
# the JSON's fields, not its layout (build.json is indented)
check_eq "define provenance" "$(sqlite3 :memory: "SELECT json_extract(j, '\$.defines[0].name') || ' ' || json_extract(j, '\$.defines[0].value') || ' ' || json_extract(j, '\$.defines[0].was') || ' ' || json_extract(j, '\$.defines[0].file') FROM (SELECT CAST(readfile('$TMP/v64.json') AS TEXT) AS j)")" \
	"NUM_XLOGINSERT_LOCKS 64 8 src/backend/access/transam/xlog.c"
grep -q '+#define NUM_XLOGINSERT_LOCKS  64' "$TMP/v64.json" || fail "no diff in the provenance"
# recompiled only what the define touches: xlog.c, not the other ~1500 files
log=$(field log "$TMP/v64.out")
compiled=$(grep -cE '^(gcc|cc|clang)[^|]* -c ' "$log")
echo "variant log: $compiled files compiled"
[ "$compiled" -ge 1 ] && [ "$compiled" -le 5 ] || fail "variant compiled $compiled files, want only xlog.c"
grep -qE ' -c -o xlog\.o xlog\.c' "$log" || fail "xlog.c was not recompiled"

# --- asking again is instant: a cache hit, nothing run
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --define NUM_XLOGINSERT_LOCKS=64 >"$TMP/hit.out" 2>"$TMP/hit.err"
check_eq "cache hit exit" $? 0
check_eq "cache hit" "$(field status "$TMP/hit.out")" cached
check_eq "cache hit: same install" "$(field bindir "$TMP/hit.out")" "$v64_bin"
check_eq "cache hit: no step ran" "$(wc -l <"$TMP/hit.err")" 0

# --- both installs run a short emit_message comparison
cat >"$TMP/emit.yaml" <<'YAML'
recipe: it_build_emit
server: {max_wal_size: 4GB, checkpoint_timeout: 1d}
reset:
  - checkpoint
  - select pg_switch_wal()
duration: 2s
repeat: 2
workloads:
  emit:
    protocol: prepared
    clients: 2
    script: |
      SELECT pg_logical_emit_message(true, 'test', repeat('0', 1024*1024));
variants:
  head: {build: }
  locks64: {build: {defines: {NUM_XLOGINSERT_LOCKS: 64}}}
YAML
"$PGCLIFF" run "$TMP/emit.yaml" --source "$SRC" --build-cache "$CACHE" >"$TMP/run.out" 2>"$TMP/run.err"
check_eq "emit run exit" $? 0
cat "$TMP/run.err"
run=$(sql "SELECT max(id) FROM run")
check_eq "status" "$(sql "SELECT status FROM run WHERE id = $run")" ok
check_eq "versions" "$(sql "SELECT group_concat(server_version, ' ') FROM variant WHERE run_id = $run")" "$version $version"
check_eq "bindirs" "$(sql "SELECT group_concat(bindir, ' ') FROM (SELECT bindir FROM variant WHERE run_id = $run ORDER BY name)")" "$base_bin $v64_bin"
check_eq "defines stored" "$(sql "SELECT name || '=' || value FROM variant_setting WHERE run_id = $run AND variant = 'locks64' AND kind = 'define'")" 'NUM_XLOGINSERT_LOCKS=64'
check_eq "provenance names the define" "$(sql "SELECT json_extract(document, '\$.defines[0].name') = 'NUM_XLOGINSERT_LOCKS' AND json_extract(document, '\$.defines[0].value') = '64' AND json_extract(document, '\$.defines[0].was') = '8' AND compiler LIKE 'gcc%' AND length(json_extract(document, '\$.source.content_sha256')) = 64 FROM variant_build WHERE run_id = $run AND variant = 'locks64'")" 1
check_eq "head's provenance: no define" "$(sql "SELECT document LIKE '%\"defines\": []%' AND NOT EXISTS (SELECT 1 FROM variant_setting s WHERE s.run_id = b.run_id AND s.variant = 'head' AND s.kind = 'define') FROM variant_build b WHERE run_id = $run AND variant = 'head'")" 1
grep -q "cached" "$TMP/run.err" || fail "run did not find its builds cached"
"$PGCLIFF" show "$run" >"$TMP/show"
grep -q '  build: .*release '"$version"', content .*defines {"NUM_XLOGINSERT_LOCKS": "64"}' "$TMP/show" || fail "show: no build line"
"$PGCLIFF" show "$run" --build >"$TMP/show_build"
grep -q '^+#define NUM_XLOGINSERT_LOCKS  64' "$TMP/show_build" || fail "show --build: no diff"
grep -q '^  defines    \[{"name": "NUM_XLOGINSERT_LOCKS", "value": "64", "was": "8", "file": "src/backend/access/transam/xlog.c"' "$TMP/show_build" || fail "show --build: no defines line"
grep -q "^  installed  postgres (PostgreSQL) $version$" "$TMP/show_build" || fail "show --build: no installed version"
"$PGCLIFF" compare "$run:head" "$run:locks64" >"$TMP/cmp"
rc=$?
[ $rc -le 2 ] || fail "compare exit $rc"
cat "$TMP/cmp"

# --- failures leave the cache as it was
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --define NO_SUCH_PGCLIFF_DEFINE=1 >/dev/null 2>"$TMP/nodef"
check_eq "define not found exit" $? 65
grep -q "no #define NO_SUCH_PGCLIFF_DEFINE in the source tree" "$TMP/nodef" || fail "define not found: message"

cat >"$TMP/stale.patch" <<'PATCH'
--- a/src/backend/access/transam/xlog.c
+++ b/src/backend/access/transam/xlog.c
@@ -150,2 +150,2 @@
 this context line is not in xlog.c
-#define NUM_XLOGINSERT_LOCKS  8
+#define NUM_XLOGINSERT_LOCKS  16
PATCH
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --patch "$TMP/stale.patch" >/dev/null 2>"$TMP/stale"
check_eq "stale patch exit" $? 65
cat "$TMP/stale"
grep -q "^$TMP/stale.patch:3:1: error: patch $TMP/stale.patch: hunk #1 of src/backend/access/transam/xlog.c does not apply to PostgreSQL $version" "$TMP/stale" || fail "stale patch: the hunk or the version is not named"

# --- seed 004's patches (recipes/patches) apply to this tree, in the order
# the recipes give them, with the fuzz pgcliff build allows (none)
kax=$(mktemp -d "$TMP/kax.XXXXXX")
mkdir -p "$kax/src/backend/storage/ipc"
cp "$SRC/src/backend/storage/ipc/procarray.c" "$kax/src/backend/storage/ipc/"
for p in kax_stats kax_prefix_rule; do
	(cd "$kax" && patch -p1 --forward --batch --fuzz=0 -i "$ROOT/recipes/patches/$p.patch") >"$TMP/$p.out" 2>&1
	check_eq "recipes/patches/$p.patch applies to $version" $? 0
done
grep -q 'DefineCustomStringVariable("kax.stats"' "$kax/src/backend/storage/ipc/procarray.c" || fail "kax_stats.patch: no kax.stats"
grep -q 'nelements < 4 \* PROCARRAY_MAXPROCS' "$kax/src/backend/storage/ipc/procarray.c" || fail "kax_prefix_rule.patch: no pre-fix rule"

# a patch that applies but breaks the compile: the log's tail, no install
line=$(grep -n '^#define NUM_XLOGINSERT_LOCKS' "$SRC/src/backend/access/transam/xlog.c" | cut -d: -f1)
cat >"$TMP/broken.patch" <<PATCH
--- a/src/backend/access/transam/xlog.c
+++ b/src/backend/access/transam/xlog.c
@@ -$line,2 +$line,3 @@
 $(sed -n "${line}p" "$SRC/src/backend/access/transam/xlog.c")
+#error pgcliff test: this build must fail
 $(sed -n "$((line + 1))p" "$SRC/src/backend/access/transam/xlog.c")
PATCH
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --patch "$TMP/broken.patch" --name broken >"$TMP/broken.out" 2>"$TMP/broken"
check_eq "broken build exit" $? 69
cat "$TMP/broken"
grep -q "error: build broken: make failed" "$TMP/broken" || fail "broken: no error"
# a variant was built before (locks64): its make says how long it took
grep -qE '^build broken: make -j[0-9]+ \(about [0-9]+ s, as the last time\)$' "$TMP/broken" ||
	fail "broken: no estimate on the make line"
grep -q "last lines of .*/build.log" "$TMP/broken" || fail "broken: no log tail"
grep -q "#error pgcliff test: this build must fail" "$TMP/broken" || fail "broken: the tail misses the compiler's error"
bkey=$(sed -n 's|.*last lines of .*/\([0-9a-f]\{16\}\)/build.log.*|\1|p' "$TMP/broken" | head -1)
[ -n "$bkey" ] && [ -f "$CACHE/$bkey/build.log" ] || fail "broken: the log is gone"
[ -e "$CACHE/$bkey/build.json" ] && fail "broken: marked as built"
[ -e "$CACHE/$bkey/pgsql" ] && fail "broken: an install is left"
[ -e "$CACHE/$bkey/tree" ] && fail "broken: its tree is left"
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --patch "$TMP/broken.patch" >/dev/null 2>"$TMP/broken2"
check_eq "broken again: built anew, fails anew" $? 69
# the first attempt's log is not overwritten by the second
grep -q "the log of the last attempt, which did not finish, is kept: $CACHE/failed/$bkey\." "$TMP/broken2" ||
	fail "broken again: the first log not kept: $(head -3 "$TMP/broken2")"
grep -q "#error pgcliff test: this build must fail" "$CACHE/failed/$bkey".*.log || fail "broken again: the kept log is not the failed one's"
[ -n "$bkey" ] && rm -rf "${CACHE:?}/$bkey"

# --- Ctrl-C during make: exit 75, make stopped, only the log kept
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --define NUM_XLOGINSERT_LOCKS=$((200 + RANDOM % 800)) >/dev/null 2>"$TMP/int.err" &
pid=$!
for _ in $(seq 600); do
	grep -q ': make -j' "$TMP/int.err" && break
	sleep 0.1
done
kill -INT $pid
wait $pid
check_eq "interrupted build exit" $? 75
grep -q "interrupted during make" "$TMP/int.err" || fail "interrupt: no message"
ikey=$(sed -n 's/^build \([0-9a-f]\{16\}\): .*/\1/p' "$TMP/int.err" | head -1)
if [ -n "$ikey" ]; then
	check_eq "interrupted: only the log is left" "$(ls "$CACHE/$ikey")" build.log
	sleep 1
	for p in /proc/[0-9]*; do	# make and compilers run inside the tree
		case "$(readlink "$p/cwd" 2>/dev/null)" in "$CACHE/$ikey"*) ;; *) continue ;; esac
		[ "$(awk '{print $3}' "$p/stat" 2>/dev/null)" != Z ] &&
			fail "interrupted: process ${p#/proc/} still builds"
	done
	rm -rf "${CACHE:?}/$ikey"
else
	fail "interrupt: no key in the progress lines"
fi

# --- interrupted at each step (PGCLIFF_INJECT stops pgcliff just before
# it; SIGINT, then SIGCONT): exit 75, nothing marked built, no process
# left in the key's directory; then the same key builds whole
wait_stopped() {
	for _ in $(seq 1 3000); do
		[ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" = T ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
no_builders() {	# no live process whose cwd is in DIR
	local p
	for p in /proc/[0-9]*; do
		case "$(readlink "$p/cwd" 2>/dev/null)" in "$1"*) ;; *) continue ;; esac
		[ "$(awk '{print $3}' "$p/stat" 2>/dev/null)" != Z ] && return 1
	done
	return 0
}
# interrupt_at WHAT STEP BUILD-ARGS...: a build stopped before STEP, then
# SIGINT; its key in $ikey
interrupt_at() {
	local what=$1 step=$2 pid
	shift 2
	PGCLIFF_INJECT="build:$step" "$PGCLIFF" build --source "$SRC" --cache "$CACHE" "$@" \
		>/dev/null 2>"$TMP/step.err" &
	pid=$!
	wait_stopped $pid || fail "$what interrupted at '$step': never got there: $(cat "$TMP/step.err")"
	kill -INT $pid
	kill -CONT $pid
	wait $pid
	check_eq "$what interrupted at '$step': exit" $? 75
	ikey=$(sed -n 's/^build \([0-9a-f]\{16\}\): .*/\1/p' "$TMP/step.err" | head -1)
	[ -n "$ikey" ] || { fail "$what interrupted at '$step': no key"; return; }
	[ -e "$CACHE/$ikey/build.json" ] && fail "$what interrupted at '$step': marked as built"
	[ -e "$CACHE/$ikey/pgsql/bin/postgres" ] && fail "$what interrupted at '$step': an install is left"
	sleep 0.5
	no_builders "$CACHE/$ikey" || fail "$what interrupted at '$step': a process still builds"
}
value=$((2000 + RANDOM % 8000))
for step in "copy the built tree" "#define" "make -j" "make install"; do
	interrupt_at variant "$step" --define NUM_XLOGINSERT_LOCKS=$value
done
skey=$ikey
# and a plain build's own first steps, under a key of its own (another
# configure option): copying the source, configure
for step in "copy /" "configure"; do
	interrupt_at "plain build" "$step" --configure-opt=--with-extra-version=-pgcliff-it
done
[ -n "$ikey" ] && rm -rf "${CACHE:?}/$ikey"

"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --define NUM_XLOGINSERT_LOCKS=$value >"$TMP/step.out" 2>"$TMP/step.err"
check_eq "after the interruptions: built" $? 0
"$(field bindir "$TMP/step.out")/postgres" --version >/dev/null || fail "after the interruptions: the install does not run"
ls "$CACHE/failed/$skey".*.log >/dev/null 2>&1 || fail "after the interruptions: no failed attempt's log kept"
[ -n "$skey" ] && rm -rf "${CACHE:?}/$skey"
[ "$(ls "$CACHE/failed" | wc -l)" -le 10 ] || fail "more than 10 failed logs kept"

# --- two builders of one new key: one builds, the other waits, both get it
value=$((1000 + RANDOM % 9000))
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --define KAX_COMPRESS_FREQUENCY=$value >"$TMP/c1.out" 2>"$TMP/c1.err" &
p1=$!
"$PGCLIFF" build --source "$SRC" --cache "$CACHE" --define KAX_COMPRESS_FREQUENCY=$value >"$TMP/c2.out" 2>"$TMP/c2.err" &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
check_eq "concurrent builders" "$r1 $r2" "0 0"
cat "$TMP/c1.err" "$TMP/c2.err"
check_eq "concurrent: one install" "$(field bindir "$TMP/c1.out")" "$(field bindir "$TMP/c2.out")"
check_eq "concurrent: one built, one waited" "$(cat "$TMP/c1.out" "$TMP/c2.out" | grep -c 'status:  cached')" 1
grep -q "waiting for another pgcliff building" "$TMP/c1.err" "$TMP/c2.err" || fail "concurrent: nobody waited"
ckey=$(sed -n 's/^build \([0-9a-f]*\).*/\1/p' "$TMP/c1.out")
check_eq "concurrent: the build is whole" "$(grep -c '"incremental": true' "$CACHE/$ckey/build.json")" 1
"$CACHE/$ckey/pgsql/bin/postgres" --version >/dev/null || fail "concurrent: the install does not run"
[ -n "$ckey" ] && rm -rf "${CACHE:?}/$ckey"	# so the next run builds it again

finish
