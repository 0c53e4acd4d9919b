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

# live_under STR: how many of live_procs name STR. The list is read before
# grep starts, since grep's own command line names STR.
live_under() { local procs; procs=$(live_procs); grep -cF -- "$1" <<<"$procs"; }

# SRC: Debian's PostgreSQL 15 source tree (fetched once into CACHE_ROOT),
# CACHE: the build cache; or the test is skipped
pg_source() {
	mkdir -p "$CACHE_ROOT"
	chmod 755 "$CACHE_ROOT"
	SRC=$(bash "$ROOT/tests/integration/pgsource.sh" "$CACHE_ROOT/src") ||
		skip "no PostgreSQL 15 source tree: apt-get source postgresql-15 failed (see above)"
	CACHE=$CACHE_ROOT/builds
	# the compiler through ccache, when the machine has it: it_build's
	# release tree and it_bisect's first commit are the same sources under
	# two cache keys, so the second full build compiles nothing anew.  What
	# pgcliff builds is unchanged: configure still finds gcc, and a build's
	# provenance names gcc's version (ccache passes --version through)
	if [ -d /usr/lib/ccache ] && command -v ccache >/dev/null; then
		export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=$CACHE_ROOT/ccache
	fi
}

# kill_left: SIGKILL, by pid and never by name, what live_procs lists
kill_left() { live_procs | awk '{print $1}' | xargs -r kill -9 2>/dev/null; }

# at_exit CMD: run CMD when the test ends, however it ends (last added,
# first run). A test uses it instead of its own EXIT trap.
AT_EXIT=()
at_exit() { AT_EXIT+=("$1"); }
run_at_exit() {
	local i
	for ((i = ${#AT_EXIT[@]} - 1; i >= 0; i--)); do eval "${AT_EXIT[i]}"; done
	AT_EXIT=()
}
trap run_at_exit EXIT

# A test stopped by SIGTERM, SIGINT or SIGHUP (a CI run cancelled, ^C)
# leaves nothing: its background jobs get SIGTERM (pgcliff then stops its
# servers and stores the run as interrupted) and 10 s to end, what is
# still alive is killed, the scratch dir is removed, and the test dies of
# the same signal.
interrupted() {	# interrupted SIGNAL
	local j _
	echo "interrupted by SIG$1: stopping what the test started, removing $TMP"
	for j in $(jobs -p); do kill -TERM "$j" 2>/dev/null; done
	for _ in $(seq 100); do
		[ -z "$(jobs -pr)" ] && [ -z "$(live_procs)" ] && break
		sleep 0.1
	done
	for j in $(jobs -pr); do kill -9 "$j" 2>/dev/null; done
	kill_left
	run_at_exit
	rm -rf "$TMP"
	trap - EXIT "$1"
	kill -"$1" $$
}
trap "interrupted TERM" TERM
trap "interrupted INT" INT
trap "interrupted HUP" HUP

finish() {
	local left
	left=$(live_procs)
	if [ -n "$left" ]; then
		fail "processes left behind:"; echo "$left"
		kill_left
	fi
	if [ $FAILED = 0 ]; then
		rm -rf "$TMP"
		echo "PASS"
	else
		echo "scratch kept: $TMP"
	fi
	exit $FAILED
}
