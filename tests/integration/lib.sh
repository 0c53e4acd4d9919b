# Shared by the integration tests: a private scratch dir (traversable by
# the server's OS user), a store in it, assertions, and a final check that
# no process started under the scratch dir is still alive.
set -u
PGCLIFF=$1
ROOT=$2
# the source tree and build cache the build tests share; outlives them
CACHE_ROOT=${PGCLIFF_TEST_CACHE:-${TMPDIR:-/tmp}/pgcliff-test-cache}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pgcliff-it.XXXXXX")
chmod 755 "$TMP"	# the server runs as 'postgres' when we are root
export TMPDIR=$TMP
export PGCLIFF_DB=$TMP/it.db
FAILED=0

fail() { echo "FAIL: $*"; FAILED=1; }

# skip REASON: what the test needs is not on this machine; ctest counts the
# test as skipped (SKIP_RETURN_CODE 77), neither passed nor failed.
skip() {
	echo "SKIP: $*"
	rm -rf "$TMP"
	exit 77
}

check_eq() {	# check_eq WHAT GOT WANT
	if [ "$2" = "$3" ]; then echo "ok: $1 = $3"; else fail "$1: got '$2', want '$3'"; fi
}

sql() { sqlite3 -batch -noheader "$PGCLIFF_DB" "$1"; }

# Live (not zombie) processes whose command line mentions the scratch dir.
live_procs() {
	local p state cmd
	for p in /proc/[0-9]*; do
		cmd=$( { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null) || continue
		case "$cmd" in *"$TMP"*) ;; *) continue ;; esac
		state=$(awk '{print $3}' "$p/stat" 2>/dev/null)
		[ "$state" = Z ] && continue
		echo "${p#/proc/} $cmd"
	done
}

# SRC: Debian's PostgreSQL 15 source tree (fetched once into CACHE_ROOT),
# CACHE: the build cache; or the test is skipped
pg_source() {
	mkdir -p "$CACHE_ROOT"
	chmod 755 "$CACHE_ROOT"
	SRC=$(bash "$ROOT/tests/integration/pgsource.sh" "$CACHE_ROOT/src") ||
		skip "no PostgreSQL 15 source tree: apt-get source postgresql-15 failed (see above)"
	CACHE=$CACHE_ROOT/builds
}

finish() {
	local left
	left=$(live_procs)
	if [ -n "$left" ]; then
		fail "processes left behind:"; echo "$left"
		# by pid, never by name
		echo "$left" | awk '{print $1}' | xargs -r kill -9 2>/dev/null
	fi
	if [ $FAILED = 0 ]; then
		rm -rf "$TMP"
		echo "PASS"
	else
		echo "scratch kept: $TMP"
	fi
	exit $FAILED
}
