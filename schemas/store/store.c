/*
 * store.c - the store's queries, written once for both backends (sql.c
 * holds what differs between SQLite and PostgreSQL).  Every statement is
 * prepared, bound and finalized on every path; an error's message is
 * copied at once.
 */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sql_int.h"
#include "store_int.h"

void
store_wait_for_locks(struct store *st, volatile sig_atomic_t *interrupt,
					 void (*on_wait)(void *arg, double waited_s), void *arg)
{
	sql_wait_for_locks(st->db, interrupt, on_wait, arg);
}

void
store_set_busy_timeout(struct store *st, int64_t ns)
{
	sql_set_busy_timeout(st->db, ns);
}

void
store_set_patient(struct store *st, bool patient)
{
	sql_set_patient(st->db, patient);
}

void
store_set_lean(struct store *st)
{
	sql_set_cache_kib(st->db, STORE_LEAN_CACHE_KIB);
}

/*
 * Migrations: entry i brings the schema from version i to i + 1.  Never
 * edit a released entry; append a new one.
 */
static const struct migration
{
	const char *sql;      /* both backends, in SQLite's words (sql_exec_ddl) */
	const char *sqlite;   /* then this, on SQLite alone (or NULL) */
	const char *postgres; /* then this, on PostgreSQL alone (or NULL) */
	/* then this, on both (or NULL): data moved by code, not by SQL */
	int (*data)(struct store *st, struct pgc_error *err);
} migrations[] = {
	/* 0 -> 1 */
	{"CREATE TABLE run ("
	 "  id INTEGER PRIMARY KEY,"
	 "  recipe TEXT NOT NULL,"
	 "  recipe_path TEXT,"
	 "  recipe_text TEXT NOT NULL,"
	 "  recipe_sha256 TEXT NOT NULL,"
	 "  command_line TEXT NOT NULL,"
	 "  tool_version TEXT NOT NULL,"
	 "  seed INTEGER NOT NULL,"
	 "  host_name TEXT, host_cpu TEXT, host_cores INTEGER,"
	 "  host_mem_bytes INTEGER, host_kernel TEXT,"
	 "  started_at TEXT NOT NULL,"
	 "  ended_at TEXT,"
	 "  status TEXT NOT NULL"
	 "    CHECK (status IN ('running', 'ok', 'failed', 'interrupted')),"
	 "  error TEXT);"
	 "CREATE INDEX run_recipe ON run (recipe, id);"
	 "CREATE TABLE variant ("
	 "  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	 "  name TEXT NOT NULL,"
	 "  kind TEXT NOT NULL CHECK (kind IN ('managed', 'external')),"
	 "  bindir TEXT, defines TEXT, gucs TEXT, target TEXT,"
	 "  server_version TEXT, server_version_num INTEGER, settings TEXT,"
	 "  PRIMARY KEY (run_id, name));"
	 "CREATE TABLE point ("
	 "  id INTEGER PRIMARY KEY,"
	 "  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	 "  variant TEXT NOT NULL,"
	 "  workload TEXT NOT NULL,"
	 "  clients INTEGER NOT NULL CHECK (clients > 0),"
	 "  jobs INTEGER NOT NULL CHECK (jobs > 0),"
	 "  repeat_idx INTEGER NOT NULL,"
	 "  order_idx INTEGER NOT NULL,"
	 "  protocol TEXT NOT NULL,"
	 "  duration_s REAL NOT NULL,"
	 "  warmup_s REAL NOT NULL,"
	 "  stored_at TEXT NOT NULL,"
	 "  transactions INTEGER NOT NULL,"
	 "  failures INTEGER NOT NULL,"
	 "  failures_by_class TEXT NOT NULL,"
	 "  aborted_clients INTEGER NOT NULL,"
	 "  abort_reason TEXT,"
	 "  tps REAL NOT NULL,"
	 "  conn_ms REAL NOT NULL,"
	 "  lat_avg_ms REAL, lat_stddev_ms REAL, lat_p50_ms REAL, lat_p90_ms REAL,"
	 "  lat_p99_ms REAL, lat_p999_ms REAL, lat_max_ms REAL,"
	 "  histogram TEXT NOT NULL);"
	 "CREATE INDEX point_run ON point (run_id, order_idx);"
	 "CREATE TABLE series ("
	 "  point_id INTEGER NOT NULL REFERENCES point (id) ON DELETE CASCADE,"
	 "  second INTEGER NOT NULL,"
	 "  transactions INTEGER NOT NULL,"
	 "  failures INTEGER NOT NULL,"
	 "  lat_avg_ms REAL,"
	 "  lat_max_ms REAL,"
	 "  PRIMARY KEY (point_id, second)) WITHOUT ROWID;",
	 NULL, NULL, NULL},
	/* 1 -> 2: connecting and preparing are timed apart */
	{"ALTER TABLE point ADD COLUMN prepare_ms REAL NOT NULL DEFAULT 0;", NULL,
	 NULL, NULL},
	/* 2 -> 3: variants interleave by a stored plan; pg_config provenance */
	{("ALTER TABLE run ADD COLUMN plan TEXT;"
	  "ALTER TABLE variant ADD COLUMN pg_config TEXT;"),
	 NULL, NULL, NULL},
	/* 3 -> 4: pgbench parity: scripts, scale, retries, rate limits, and
	 * errors by class per second */
	{("ALTER TABLE point ADD COLUMN scale INTEGER;"
	  "ALTER TABLE point ADD COLUMN scripts TEXT;"
	  "ALTER TABLE point ADD COLUMN retried INTEGER NOT NULL DEFAULT 0;"
	  "ALTER TABLE point ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;"
	  "ALTER TABLE point ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;"
	  "ALTER TABLE point ADD COLUMN late INTEGER NOT NULL DEFAULT 0;"
	  "ALTER TABLE point ADD COLUMN lag_avg_ms REAL;"
	  "ALTER TABLE point ADD COLUMN lag_max_ms REAL;"
	  "ALTER TABLE series ADD COLUMN failures_by_class TEXT;"
	  "ALTER TABLE run ADD COLUMN script_files TEXT;"
	  "CREATE TABLE event ("
	  "  point_id INTEGER NOT NULL REFERENCES point (id) ON DELETE CASCADE,"
	  "  seq INTEGER NOT NULL,"
	  "  planned_s REAL NOT NULL,"
	  "  actual_s REAL NOT NULL,"
	  "  PRIMARY KEY (point_id, seq)) WITHOUT ROWID;"
	  "CREATE TABLE window_stat ("
	  "  point_id INTEGER NOT NULL REFERENCES point (id) ON DELETE CASCADE,"
	  "  name TEXT NOT NULL, start_s INTEGER NOT NULL, end_s INTEGER NOT NULL,"
	  "  tps REAL NOT NULL, dip REAL, recovery_s REAL,"
	  "  PRIMARY KEY (point_id, name)) WITHOUT ROWID;"
	  "CREATE TABLE sample ("
	  "  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	  "  order_idx INTEGER NOT NULL,"
	  "  node TEXT NOT NULL,"
	  "  second INTEGER NOT NULL,"
	  "  ok INTEGER NOT NULL,"
	  "  commits INTEGER, conflicts TEXT, standby INTEGER,"
	  "  lag_bytes INTEGER, lag_s REAL, waits TEXT,"
	  "  query_ms REAL NOT NULL, error TEXT,"
	  "  PRIMARY KEY (run_id, order_idx, node, second)) WITHOUT ROWID;"),
	 NULL, NULL, NULL},
	/* 4 -> 5: variants built from source keep their build's provenance */
	{"ALTER TABLE variant ADD COLUMN build TEXT;", NULL, NULL, NULL},
	/* 5 -> 6: the metric the recipe measures, so that reading a run never
	 * needs its recipe parsed again (NULL: tps, as before) */
	{"ALTER TABLE run ADD COLUMN measure TEXT;", NULL, NULL, NULL},
	/* 6 -> 7: a run that stops once decided keeps every look it took */
	{("CREATE TABLE look ("
	  "  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	  "  look INTEGER NOT NULL,"
	  "  blocks INTEGER NOT NULL,"
	  "  confidence REAL NOT NULL,"
	  "  elapsed_s REAL NOT NULL,"
	  "  outcome TEXT NOT NULL,"
	  "  stop TEXT,"
	  "  detail TEXT,"
	  "  PRIMARY KEY (run_id, look)) WITHOUT ROWID;"),
	 NULL, NULL, NULL},
	/* 7 -> 8: which process writes a run, so that a reader can tell a
	 * running run from one whose process died (process_identity()) */
	{"ALTER TABLE run ADD COLUMN owner TEXT;", NULL, NULL, NULL},
	/* 8 -> 9: server CPU profiles of a point's window, per node: rank 0
	 * holds the whole profile (its samples and rate), 1.. its functions */
	{("CREATE TABLE profile ("
	  "  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	  "  order_idx INTEGER NOT NULL,"
	  "  node TEXT NOT NULL,"
	  "  rank INTEGER NOT NULL,"
	  "  dso TEXT, symbol TEXT,"
	  "  pct REAL NOT NULL, samples INTEGER NOT NULL, hz INTEGER NOT NULL,"
	  "  PRIMARY KEY (run_id, order_idx, node, rank)) WITHOUT ROWID;"),
	 NULL, NULL, NULL},
	/* 9 -> 10: a bisect and its steps, each step a run of its own */
	{("CREATE TABLE bisect ("
	  "  id INTEGER PRIMARY KEY,"
	  "  recipe TEXT NOT NULL,"
	  "  source TEXT NOT NULL,"
	  "  good TEXT NOT NULL,"
	  "  bad TEXT NOT NULL,"
	  "  commits INTEGER NOT NULL,"
	  "  metric TEXT,"
	  "  margin REAL,"
	  "  command_line TEXT,"
	  "  started_at TEXT NOT NULL,"
	  "  ended_at TEXT,"
	  "  status TEXT NOT NULL,"
	  "  first_bad TEXT,"
	  "  error TEXT);"
	  /* and a profile's inclusive shares, where it has call graphs */
	  "ALTER TABLE profile ADD COLUMN inclusive REAL;"
	  "CREATE TABLE bisect_step ("
	  "  bisect_id INTEGER NOT NULL REFERENCES bisect (id) ON DELETE CASCADE,"
	  "  step INTEGER NOT NULL,"
	  "  revision TEXT NOT NULL,"
	  "  run_id INTEGER REFERENCES run (id) ON DELETE SET NULL,"
	  "  outcome TEXT,"
	  "  detail TEXT,"
	  "  PRIMARY KEY (bisect_id, step)) WITHOUT ROWID;"),
	 NULL, NULL, NULL},
	/* 10 -> 11: a warm-up until stable: what it judged and discarded */
	{"ALTER TABLE point ADD COLUMN warmup TEXT;", NULL, NULL, NULL},
	/* 11 -> 12: a variant's place in its run, which SQLite's rowid kept
	 * and PostgreSQL has not; and the store may be PostgreSQL's */
	{"ALTER TABLE variant ADD COLUMN seq INTEGER;",
	 "UPDATE variant SET seq = rowid;", NULL, NULL},
	/* 12 -> 13: a run's identity in every store it is pushed to or
	 * pulled from (store_copy_run()); older runs get one now */
	{"ALTER TABLE run ADD COLUMN uid TEXT;"
	 "CREATE UNIQUE INDEX run_uid ON run (uid);",
	 "UPDATE run SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;",
	 "UPDATE run SET uid = md5(random()::text || clock_timestamp()::text"
	 " || id::text) WHERE uid IS NULL;",
	 NULL}, /* 13 -> 14: points whose clients are
			 * spread over worker processes (run
			 * --workers): the work posted, and
			 * each worker's share of it (work.c;
			 * used on PostgreSQL stores only) */
	{("CREATE TABLE work_point ("
	  "  id INTEGER PRIMARY KEY,"
	  "  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	  "  order_idx INTEGER NOT NULL,"
	  "  nshares INTEGER NOT NULL CHECK (nshares > 0),"
	  "  spec TEXT NOT NULL,"
	  "  state TEXT NOT NULL"
	  "    CHECK (state IN ('open', 'started', 'done', 'failed')),"
	  "  start_us INTEGER,"
	  "  reason TEXT,"
	  "  posted_at TEXT NOT NULL);"
	  "CREATE INDEX work_point_state ON work_point (state, id);"
	  "CREATE TABLE work_share ("
	  "  id INTEGER PRIMARY KEY,"
	  "  point_id INTEGER NOT NULL REFERENCES work_point (id)"
	  "    ON DELETE CASCADE,"
	  "  share INTEGER NOT NULL,"
	  "  state TEXT NOT NULL CHECK (state IN"
	  "    ('open', 'claimed', 'ready', 'done', 'failed')),"
	  "  worker TEXT,"
	  "  offset_ms REAL, offset_err_ms REAL,"
	  "  claimed_at TEXT, ready_at TEXT, done_at TEXT,"
	  "  result TEXT, error TEXT,"
	  "  UNIQUE (point_id, share));"),
	 NULL, NULL, NULL},
	/* 14 -> 15: the hypervisor's share of the CPU during each window */
	{"ALTER TABLE point ADD COLUMN steal_pct REAL;", NULL, NULL, NULL},
	/* 15 -> 16: what the recipe's probes saw each second */
	{"ALTER TABLE sample ADD COLUMN probes TEXT;", NULL, NULL, NULL},
	/* 16 -> 17: a counted point's work per transaction (run --count) */
	{("ALTER TABLE point ADD COLUMN instructions REAL;"
	  "ALTER TABLE point ADD COLUMN l1_misses REAL;"
	  "ALTER TABLE point ADD COLUMN ll_misses REAL;"
	  "ALTER TABLE point ADD COLUMN counted INTEGER;"),
	 NULL, NULL, NULL},
	/* 17 -> 18: the coordinator's signature of a point's spec (wire.h) */
	{"ALTER TABLE work_point ADD COLUMN signature TEXT;", NULL, NULL, NULL},
	/* 18 -> 19: a point's seconds staged as its window runs (stage.c) */
	{("CREATE TABLE series_stage ("
	  "  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	  "  order_idx INTEGER NOT NULL,"
	  "  workload TEXT NOT NULL,"
	  "  second INTEGER NOT NULL,"
	  "  transactions INTEGER NOT NULL,"
	  "  failures INTEGER NOT NULL,"
	  "  lat_avg_ms REAL,"
	  "  lat_max_ms REAL,"
	  "  failures_by_class TEXT,"
	  "  PRIMARY KEY (run_id, order_idx, workload, second)) WITHOUT ROWID;"),
	 NULL, NULL, NULL},
	/* 19 -> 20: a variant's GUCs, settings, defines, pg_config and build,
	 * a point's scripts and warm-up: tables, not JSON text (docs.c moves
	 * every stored run's and drops the old columns) */
	{("CREATE TABLE variant_setting ("
	  "  run_id INTEGER NOT NULL,"
	  "  variant TEXT NOT NULL,"
	  "  kind TEXT NOT NULL"
	  "    CHECK (kind IN ('guc', 'setting', 'define', 'pg_config')),"
	  "  seq INTEGER NOT NULL,"
	  "  name TEXT NOT NULL,"
	  "  value TEXT,"
	  "  PRIMARY KEY (run_id, variant, kind, name),"
	  "  FOREIGN KEY (run_id, variant) REFERENCES variant (run_id, name)"
	  "    ON DELETE CASCADE) WITHOUT ROWID;"
	  "CREATE INDEX variant_setting_name ON variant_setting (kind, name);"
	  "CREATE TABLE variant_build ("
	  "  run_id INTEGER NOT NULL,"
	  "  variant TEXT NOT NULL,"
	  "  build_key TEXT, name TEXT, revision TEXT, identity TEXT,"
	  "  installed TEXT, compiler TEXT, incremental INTEGER, built_at TEXT,"
	  "  seconds REAL,"
	  "  document TEXT NOT NULL,"
	  "  PRIMARY KEY (run_id, variant),"
	  "  FOREIGN KEY (run_id, variant) REFERENCES variant (run_id, name)"
	  "    ON DELETE CASCADE) WITHOUT ROWID;"
	  "CREATE TABLE point_script ("
	  "  point_id INTEGER NOT NULL REFERENCES point (id) ON DELETE CASCADE,"
	  "  script INTEGER NOT NULL,"
	  "  name TEXT, weight INTEGER NOT NULL,"
	  "  transactions INTEGER NOT NULL, failures INTEGER NOT NULL,"
	  "  retried INTEGER NOT NULL,"
	  "  lat_avg_ms REAL, lat_stddev_ms REAL,"
	  "  PRIMARY KEY (point_id, script)) WITHOUT ROWID;"
	  "CREATE TABLE point_statement ("
	  "  point_id INTEGER NOT NULL,"
	  "  script INTEGER NOT NULL,"
	  "  seq INTEGER NOT NULL,"
	  "  line INTEGER NOT NULL, command TEXT, lat_avg_ms REAL,"
	  "  count INTEGER NOT NULL, failures INTEGER NOT NULL,"
	  "  retries INTEGER NOT NULL,"
	  "  PRIMARY KEY (point_id, script, seq),"
	  "  FOREIGN KEY (point_id, script) REFERENCES point_script"
	  "    (point_id, script) ON DELETE CASCADE) WITHOUT ROWID;"
	  "CREATE TABLE point_warmup ("
	  "  point_id INTEGER NOT NULL PRIMARY KEY"
	  "    REFERENCES point (id) ON DELETE CASCADE,"
	  "  until_mode TEXT, max_s REAL, tolerance REAL, tick_s REAL,"
	  "  stable INTEGER, drift REAL);"
	  "CREATE TABLE point_warmup_tick ("
	  "  point_id INTEGER NOT NULL"
	  "    REFERENCES point_warmup (point_id) ON DELETE CASCADE,"
	  "  tick INTEGER NOT NULL,"
	  "  tps REAL,"
	  "  PRIMARY KEY (point_id, tick)) WITHOUT ROWID;"),
	 NULL, NULL, docs_migrate},
};

_Static_assert(lengthof(migrations) == STORE_SCHEMA_VERSION,
			   "STORE_SCHEMA_VERSION must be the number of migrations");

void
store_versions(struct strbuf *out)
{
	sql_library_versions(out);
	strbuf_addf(out, ", store schema %d", STORE_SCHEMA_VERSION);
}

int
db_fail(struct store *st, struct pgc_error *err, const char *what)
{
	error_set(err, PGC_ERR_STORE, "%s: %s", what, sql_errmsg(st->db));
	error_detail(err, "store: %s", st->path);
	return -1;
}

int
exec_sql(struct store *st, const char *sql, struct pgc_error *err)
{
	return sql_exec(st->db, sql) < 0 ? db_fail(st, err, "store") : 0;
}

int
begin_write(struct store *st, struct pgc_error *err)
{
	return sql_begin_write(st->db) < 0 ? db_fail(st, err, "store") : 0;
}

int
store_schema_version(struct store *st)
{
	return sql_schema_version(st->db);
}

bool
store_is_shared(const char *path)
{
	return sql_names_postgres(path);
}

const char *
store_name(const struct store *st)
{
	return st->path;
}

static int
newer_schema(struct store *st, int v, struct pgc_error *err)
{
	error_set(err, PGC_ERR_STORE,
			  "store schema version %d is newer than this pgcliff knows (%d)",
			  v, STORE_SCHEMA_VERSION);
	error_detail(err, "store: %s", st->path);
	error_hint(err, "use a newer pgcliff, or another --db");
	return -1;
}

static int
migrate(struct store *st, struct pgc_error *err)
{
	int v;

	/* two processes opening a new store migrate one at a time */
	if (begin_write(st, err) < 0)
		return -1;
	if (sql_lock_migrations(st->db) < 0)
	{
		db_fail(st, err, "could not lock the store's schema");
		sql_rollback(st->db);
		return -1;
	}
	v = sql_schema_version(st->db);
	if (v < 0)
	{
		db_fail(st, err, "could not read the store's schema version");
		sql_rollback(st->db);
		return -1;
	}
	if (v > (int) lengthof(migrations))
	{
		sql_rollback(st->db);
		return newer_schema(st, v, err);
	}
	for (; v < (int) lengthof(migrations); v++)
	{
		if (sql_exec_ddl(st->db, migrations[v].sql) < 0 ||
			(migrations[v].sqlite && sql_backend(st->db) == SQL_SQLITE &&
			 sql_exec(st->db, migrations[v].sqlite) < 0) ||
			(migrations[v].postgres && sql_backend(st->db) == SQL_POSTGRES &&
			 sql_exec(st->db, migrations[v].postgres) < 0) ||
			(migrations[v].data && migrations[v].data(st, err) < 0) ||
			sql_set_schema_version(st->db, v + 1) < 0)
		{
			error_set(err, PGC_ERR_STORE, "migration to schema %d failed: %s",
					  v + 1, sql_errmsg(st->db));
			error_detail(err, "store: %s", st->path);
			sql_rollback(st->db);
			return -1;
		}
	}
	return exec_sql(st, "COMMIT", err);
}

/* The SQLite store of this user on this host, whatever --db says. */
static void
default_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (xdg && xdg[0])
		snprintf(buf, size, "%s/pgcliff/pgcliff.db", xdg);
	else
		snprintf(buf, size, "%s/.local/share/pgcliff/pgcliff.db",
				 home && home[0] ? home : ".");
}

char *
store_resolve_path(const char *override, char *buf, size_t size)
{
	const char *env = override ? override : getenv("PGCLIFF_DB");

	if (env && env[0])
		snprintf(buf, size, "%s", env);
	else
		default_path(buf, size);
	return buf;
}

/* mkdir -p of the directory holding PATH. */
static int
make_parent_dirs(const char *path, struct pgc_error *err)
{
	char *copy = xstrdup(path);
	int rc = dir_make_all(dirname(copy), 0755, err);

	if (rc < 0)
		err->kind = PGC_ERR_STORE;
	free(copy);
	return rc;
}

bool
store_logs_dir(const char *path, char *buf, size_t size)
{
	int n;

	char local[4096];

	if (strcmp(path, ":memory:") == 0)
		return false;
	if (sql_names_postgres(path))
	{
		default_path(local, sizeof(local));
		path = local;
	}
	n = snprintf(buf, size, "%s-logs", path);
	return n > 0 && (size_t) n < size;
}

/*
 * Whether the database is another program's: tables, but no schema
 * version (a pgcliff store sets it in the transaction that makes its
 * tables).  Such a file or database is refused and left as it was.
 */
static bool
foreign_db(struct store *st, struct pgc_error *err)
{
	int f = sql_foreign(st->db);

	if (f < 0)
	{
		db_fail(st, err, "could not open store");
		return true;
	}
	if (f == 0)
	{
		char what[300];

		f = sql_code_object(st->db, what, sizeof(what));
		if (f < 0)
		{
			db_fail(st, err, "could not open store");
			return true;
		}
		if (f == 0)
			return false;
		error_set(err, PGC_ERR_STORE,
				  "\"%s\" holds a %s that pgcliff did not make: refused",
				  st->path, what);
		error_hint(err,
				   "a store file can carry code that runs as it is read; "
				   "it was left as it is (drop the object with sqlite3 if "
				   "you trust it)");
		return true;
	}
	if (sql_backend(st->db) == SQL_SQLITE)
		error_set(err, PGC_ERR_STORE,
				  "\"%s\" is not a pgcliff store: an SQLite database of "
				  "another program",
				  st->path);
	else
		error_set(err, PGC_ERR_STORE,
				  "%s is not a pgcliff store: it has tables named as "
				  "pgcliff's, of another program",
				  st->path);
	error_hint(err, "it was left as it is; give --db a store of its own");
	return true;
}

/* The backend TARGET names, opened; ST->path set.  -1 on error. */
static int
open_db(struct store *st, const char *target, bool read_only,
		struct pgc_error *err)
{
	if (sql_names_postgres(target))
		st->db = sql_open_postgres(target, read_only, err);
	else
		st->db = sql_open_sqlite(target, read_only, err);
	if (st->db == NULL)
		return -1;
	st->path = xstrdup(sql_name(st->db));
	return 0;
}

struct store *
store_open(const char *path, struct pgc_error *err)
{
	struct store *st = xcalloc(1, sizeof(*st));
	bool shared = sql_names_postgres(path);
	bool local = !shared && strcmp(path, ":memory:") != 0;
	int fd;

	if (local && make_parent_dirs(path, err) < 0)
		goto fail;
	/* a new store is its owner's alone (SQLite gives its -wal and -shm
	 * files the same mode): runs hold command lines and settings */
	if (local &&
		(fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0)
		close(fd);
	if (open_db(st, path, false, err) < 0)
		goto fail;
	/* before anything writes to it (WAL mode, migrations) */
	if ((local || shared) && foreign_db(st, err))
		goto fail;
	if (!shared && exec_sql(st, "PRAGMA foreign_keys = ON", err) < 0)
		goto fail;
	if (local && exec_sql(st, "PRAGMA journal_mode = WAL", err) < 0)
		goto fail;
	if (!shared && exec_sql(st, "PRAGMA synchronous = NORMAL", err) < 0)
		goto fail;
	if (migrate(st, err) < 0)
		goto fail;
	return st;

fail:
	store_close(st);
	return NULL;
}

struct store *
store_open_read(const char *path, struct pgc_error *err)
{
	struct store *st = xcalloc(1, sizeof(*st));
	int v;

	if (open_db(st, path, true, err) < 0 || foreign_db(st, err))
		goto fail;
	v = sql_schema_version(st->db);
	if (v < 0)
	{
		db_fail(st, err, "could not read the store's schema version");
		goto fail;
	}
	if (v > STORE_SCHEMA_VERSION)
	{
		newer_schema(st, v, err);
		goto fail;
	}
	if (v == STORE_SCHEMA_VERSION)
		return st;
	if (sql_backend(st->db) == SQL_POSTGRES)
	{
		/* a reader may hold SELECT rights alone: it cannot migrate */
		if (v == 0)
			error_set(err, PGC_ERR_NOT_FOUND, "no store at %s", st->path);
		else
		{
			error_set(err, PGC_ERR_STORE,
					  "store schema version %d is older than this pgcliff's "
					  "(%d)",
					  v, STORE_SCHEMA_VERSION);
			error_detail(err, "store: %s", st->path);
		}
		error_hint(err, "a command that writes (pgcliff run) makes or "
						"migrates it");
		goto fail;
	}
	/*
	 * An older schema: read a copy in memory, migrated there; the file
	 * keeps its schema until a command that writes migrates it.
	 */
	if (sql_copy_to_memory(st->db) < 0)
	{
		error_set(err, PGC_ERR_STORE, "could not read store \"%s\": %s", path,
				  sql_errmsg(st->db));
		goto fail;
	}
	if (migrate(st, err) < 0)
		goto fail;
	return st;

fail:
	store_close(st);
	return NULL;
}

void
store_close(struct store *st)
{
	if (st == NULL)
		return;
	sql_close(st->db);
	free(st->path);
	free(st);
}

/* ------------------------------------------------------------- writing */

/*
 * A run's identity in every store (32 hex digits, 128 random bits): push
 * and pull know a run they have copied before by it.
 */
static void
new_uid(char uid[33])
{
	unsigned char b[16];
	ssize_t got = getrandom(b, sizeof(b), 0);

	/* without the kernel's randomness (never here): time and process */
	if (got != (ssize_t) sizeof(b))
	{
		uint64_t t = (uint64_t) clock_now_ns(), p = (uint64_t) getpid();

		memcpy(b, &t, 8);
		memcpy(b + 8, &p, 8);
	}
	for (int i = 0; i < 16; i++)
		snprintf(uid + (ptrdiff_t) 2 * i, 3, "%02x", b[i]);
}

static void
now_text(char *buf, size_t size)
{
	clock_wall_utc(buf, size);
}

int
store_run_begin(struct store *st, const struct store_run *r, int64_t *run_id,
				struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	char now[32], uid[33];
	int rc = -1;

	now_text(now, sizeof(now));
	new_uid(uid);
	if ((s = sql_prepare(
			 st->db,
			 "INSERT INTO run (recipe, recipe_path, recipe_text,"
			 " recipe_sha256, command_line, tool_version, seed,"
			 " host_name, host_cpu, host_cores, host_mem_bytes,"
			 " host_kernel, started_at, plan, script_files, measure, owner,"
			 " uid, status)"
			 " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'running')"
			 " RETURNING id")) == NULL)
		return db_fail(st, err, "could not store the run");
	sql_bind_text(s, 1, r->recipe);
	sql_bind_text(s, 2, r->recipe_path);
	sql_bind_text(s, 3, r->recipe_text);
	sql_bind_text(s, 4, r->recipe_sha256);
	sql_bind_text(s, 5, r->command_line);
	sql_bind_text(s, 6, PGCLIFF_VERSION);
	sql_bind_int64(s, 7, (int64_t) r->seed);
	sql_bind_text(s, 8, r->host_name);
	sql_bind_text(s, 9, r->host_cpu);
	sql_bind_int64(s, 10, r->host_cores);
	sql_bind_int64(s, 11, r->host_mem_bytes);
	sql_bind_text(s, 12, r->host_kernel);
	sql_bind_text(s, 13, now);
	sql_bind_text(s, 14, r->plan);
	sql_bind_text(s, 15, r->script_files);
	sql_bind_text(s, 16, r->measure);
	{
		char owner[128];

		process_identity(owner, sizeof(owner));
		sql_bind_text(s, 17, owner[0] ? owner : NULL);
	}
	sql_bind_text(s, 18, uid);
	if (sql_step(s) != SQL_ROW)
		db_fail(st, err, "could not store the run");
	else
	{
		*run_id = sql_col_int64(s, 0);
		rc = sql_step(s) == SQL_DONE
				 ? 0
				 : db_fail(st, err, "could not store the run");
	}
	sql_finalize(s);
	/* what a killed run staged, now that a new one may stage its own */
	if (rc == 0)
		rc = sweep_staged_series(st, err);
	return rc;
}

int
store_variant_add(struct store *st, int64_t run_id,
				  const struct store_variant *v, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	int rc = -1;

	/* the row and its documents' rows (docs.c) together, or none */
	if (begin_write(st, err) < 0)
		return -1;
	if ((s = sql_prepare(
			 st->db,
			 "INSERT INTO variant (run_id, name, kind,"
			 " bindir, target, server_version, server_version_num, seq)"
			 " VALUES (?1,?2,?3,?4,?5,?6,?7,"
			 "  (SELECT count(*) FROM variant WHERE run_id = ?1))"
			 " ON CONFLICT (run_id, name) DO UPDATE SET kind = excluded.kind,"
			 "  bindir = excluded.bindir, target = excluded.target,"
			 "  server_version = excluded.server_version,"
			 "  server_version_num = excluded.server_version_num")) == NULL)
	{
		db_fail(st, err, "could not store the variant");
		sql_rollback(st->db);
		return -1;
	}
	sql_bind_int64(s, 1, run_id);
	sql_bind_text(s, 2, v->name);
	sql_bind_text(s, 3, v->kind);
	sql_bind_text(s, 4, v->bindir);
	sql_bind_text(s, 5, v->target);
	sql_bind_text(s, 6, v->server_version);
	sql_bind_int64(s, 7, v->server_version_num);
	if (sql_step(s) != SQL_DONE)
		db_fail(st, err, "could not store the variant");
	else
		rc = docs_variant_put(st, run_id, v, err);
	sql_finalize(s);
	if (rc == 0 && exec_sql(st, "COMMIT", err) == 0)
		return 0;
	sql_rollback(st->db);
	return -1;
}

/* The point row of P in run RUN_ID, *ID its id; -1 with ERR. */
static int
insert_point_row(struct store *st, int64_t run_id, const struct store_point *p,
				 int64_t *id, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	char now[32];
	int i = 1;

	now_text(now, sizeof(now));
	if ((s = sql_prepare(
			 st->db,
			 "INSERT INTO point (run_id, variant, workload, clients,"
			 " jobs, repeat_idx, order_idx, protocol, duration_s,"
			 " warmup_s, stored_at, transactions, failures,"
			 " failures_by_class, aborted_clients, abort_reason,"
			 " tps, conn_ms, prepare_ms, lat_avg_ms, lat_stddev_ms, lat_p50_ms,"
			 " lat_p90_ms, lat_p99_ms, lat_p999_ms, lat_max_ms,"
			 " histogram, scale, retried, retries, skipped, late,"
			 " lag_avg_ms, lag_max_ms, steal_pct, instructions,"
			 " l1_misses, ll_misses, counted)"
			 " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
			 "?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id")) == NULL)
		goto fail;
	sql_bind_int64(s, i++, run_id);
	sql_bind_text(s, i++, p->variant);
	sql_bind_text(s, i++, p->workload);
	sql_bind_int64(s, i++, p->clients);
	sql_bind_int64(s, i++, p->jobs);
	sql_bind_int64(s, i++, p->repeat_idx);
	sql_bind_int64(s, i++, p->order_idx);
	sql_bind_text(s, i++, p->protocol);
	sql_bind_double(s, i++, p->duration_s);
	sql_bind_double(s, i++, p->warmup_s);
	sql_bind_text(s, i++, now);
	sql_bind_int64(s, i++, (int64_t) p->transactions);
	sql_bind_int64(s, i++, (int64_t) p->failures);
	sql_bind_text(s, i++, p->failures_by_class ? p->failures_by_class : "{}");
	sql_bind_int64(s, i++, p->aborted_clients);
	sql_bind_text(s, i++, p->abort_reason);
	sql_bind_double(s, i++, p->tps);
	sql_bind_double(s, i++, p->conn_ms);
	sql_bind_double(s, i++, p->prepare_ms);
	sql_bind_double(s, i++, p->lat_avg_ms);
	sql_bind_double(s, i++, p->lat_stddev_ms);
	sql_bind_double(s, i++, p->lat_p50_ms);
	sql_bind_double(s, i++, p->lat_p90_ms);
	sql_bind_double(s, i++, p->lat_p99_ms);
	sql_bind_double(s, i++, p->lat_p999_ms);
	sql_bind_double(s, i++, p->lat_max_ms);
	sql_bind_text(s, i++, p->histogram ? p->histogram : "");
	/* NULL, not 0: a point stored before schema 4 has no scale either */
	if (p->scale > 0)
		sql_bind_int64(s, i++, p->scale);
	else
		sql_bind_null(s, i++);
	sql_bind_int64(s, i++, (int64_t) p->retried);
	sql_bind_int64(s, i++, (int64_t) p->retries);
	sql_bind_int64(s, i++, (int64_t) p->skipped);
	sql_bind_int64(s, i++, (int64_t) p->late);
	sql_bind_double(s, i++, p->lag_avg_ms);
	sql_bind_double(s, i++, p->lag_max_ms);
	if (p->steal_pct >= 0)
		sql_bind_double(s, i++, p->steal_pct);
	else
		sql_bind_null(s, i++); /* not known (not Linux) */
	if (p->counted > 0)
	{
		sql_bind_double(s, i++, p->cost[0]);
		sql_bind_double(s, i++, p->cost[1]);
		sql_bind_double(s, i++, p->cost[2]);
		sql_bind_int64(s, i++, (int64_t) p->counted);
	}
	else
		for (int k = 0; k < 4; k++)
			sql_bind_null(s, i++); /* not counted */
	if (sql_step(s) != SQL_ROW)
		goto fail;
	*id = sql_col_int64(s, 0);
	if (sql_step(s) != SQL_DONE)
		goto fail;
	sql_finalize(s);
	return 0;

fail:
	db_fail(st, err, "could not store the point");
	sql_finalize(s);
	return -1;
}

/* P's per-second series under point ID; -1 with ERR. */
static int
insert_series(struct store *st, int64_t id, const struct store_point *p,
			  struct pgc_error *err)
{
	struct sql_stmt *ser = NULL;

	if ((ser = sql_prepare(
			 st->db, "INSERT INTO series (point_id, second, transactions,"
					 " failures, lat_avg_ms, lat_max_ms, failures_by_class)"
					 " VALUES (?,?,?,?,?,?,?)")) == NULL)
		goto fail;
	for (int k = 0; k < p->nseries; k++)
	{
		const struct store_series_row *r = &p->series[k];

		sql_reset(ser);
		sql_bind_int64(ser, 1, id);
		sql_bind_int64(ser, 2, r->second);
		sql_bind_int64(ser, 3, (int64_t) r->transactions);
		sql_bind_int64(ser, 4, (int64_t) r->failures);
		sql_bind_double(ser, 5, r->lat_avg_ms);
		sql_bind_double(ser, 6, r->lat_max_ms);
		sql_bind_text(ser, 7, r->failures_by_class);
		if (sql_step(ser) != SQL_DONE)
			goto fail;
	}
	sql_finalize(ser);
	return 0;

fail:
	db_fail(st, err, "could not store the point");
	sql_finalize(ser);
	return -1;
}

/* P's timed events under point ID; -1 with ERR. */
static int
insert_events(struct store *st, int64_t id, const struct store_point *p,
			  struct pgc_error *err)
{
	struct sql_stmt *s = NULL;

	if (p->nevents > 0 &&
		(s = sql_prepare(st->db,
						 "INSERT INTO event (point_id, seq, planned_s, "
						 "actual_s) VALUES (?,?,?,?)")) == NULL)
		goto fail;
	for (int k = 0; k < p->nevents; k++)
	{
		sql_reset(s);
		sql_bind_int64(s, 1, id);
		sql_bind_int64(s, 2, p->events[k].seq);
		sql_bind_double(s, 3, p->events[k].planned_s);
		sql_bind_double(s, 4, p->events[k].actual_s);
		if (sql_step(s) != SQL_DONE)
			goto fail;
	}
	sql_finalize(s);
	return 0;

fail:
	db_fail(st, err, "could not store the point");
	sql_finalize(s);
	return -1;
}

/* P's windows under point ID; -1 with ERR. */
static int
insert_windows(struct store *st, int64_t id, const struct store_point *p,
			   struct pgc_error *err)
{
	struct sql_stmt *s = NULL;

	if (p->nwindows > 0 &&
		(s = sql_prepare(
			 st->db,
			 "INSERT INTO window_stat (point_id, name, start_s,"
			 " end_s, tps, dip, recovery_s) VALUES (?,?,?,?,?,?,?)")) == NULL)
		goto fail;
	for (int k = 0; k < p->nwindows; k++)
	{
		const struct store_window_row *w = &p->windows[k];

		sql_reset(s);
		sql_bind_int64(s, 1, id);
		sql_bind_text(s, 2, w->name);
		sql_bind_int64(s, 3, w->start_s);
		sql_bind_int64(s, 4, w->end_s);
		sql_bind_double(s, 5, w->tps);
		if (w->has_dip)
		{
			sql_bind_double(s, 6, w->dip);
			sql_bind_double(s, 7, w->recovery_s);
		}
		else
		{
			sql_bind_null(s, 6);
			sql_bind_null(s, 7);
		}
		if (sql_step(s) != SQL_DONE)
			goto fail;
	}
	sql_finalize(s);
	return 0;

fail:
	db_fail(st, err, "could not store the point");
	sql_finalize(s);
	return -1;
}

int
store_point_add(struct store *st, int64_t run_id, const struct store_point *p,
				int64_t *point_id, struct pgc_error *err)
{
	int64_t id;

	/*
	 * IMMEDIATE takes the write lock now, not at the first INSERT: two
	 * pgcliff processes storing at once then wait on the busy timeout
	 * instead of one failing with SQLITE_BUSY halfway through a point.
	 * The point, its series, events and windows commit together, so a
	 * crash leaves either all of them or none.
	 */
	if (begin_write(st, err) < 0)
		return -1;
	if (insert_point_row(st, run_id, p, &id, err) < 0 ||
		(p->staged ? move_staged_series(st, id, run_id, p->order_idx,
										p->workload, err)
				   : insert_series(st, id, p, err)) < 0 ||
		insert_events(st, id, p, err) < 0 ||
		insert_windows(st, id, p, err) < 0 ||
		docs_point_put(st, id, p->scripts, p->warmup, err) < 0)
	{
		sql_rollback(st->db);
		return -1;
	}
	inject_point("store-write");
	if (exec_sql(st, "COMMIT", err) < 0)
	{
		sql_rollback(st->db);
		return -1;
	}
	if (point_id)
		*point_id = id;
	return 0;
}

int
store_run_finish(struct store *st, int64_t run_id, const char *status,
				 const char *error, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	char now[32];
	int rc = -1;

	now_text(now, sizeof(now));
	if ((s = sql_prepare(st->db,
						 "UPDATE run SET status = ?, error = ?, ended_at = ?"
						 " WHERE id = ?")) == NULL)
		return db_fail(st, err, "could not finish the run");
	sql_bind_text(s, 1, status);
	sql_bind_text(s, 2, error);
	sql_bind_text(s, 3, now);
	sql_bind_int64(s, 4, run_id);
	if (sql_step(s) != SQL_DONE)
		db_fail(st, err, "could not finish the run");
	else
		rc = 0;
	sql_finalize(s);
	/* a point's seconds staged for a point that was never stored */
	if (rc == 0)
		rc = store_series_unstage(st, run_id, -1, err);
	return rc;
}

int
store_bisect_begin(struct store *st, const struct store_bisect *b, int64_t *id,
				   struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	char now[32];
	int rc = -1;

	now_text(now, sizeof(now));
	if ((s = sql_prepare(
			 st->db, "INSERT INTO bisect (recipe, source, good, bad,"
					 " commits, metric, margin, command_line,"
					 " started_at, status)"
					 " VALUES (?,?,?,?,?,?,?,?,?,'running') RETURNING id")) ==
		NULL)
		return db_fail(st, err, "could not store the bisect");
	sql_bind_text(s, 1, b->recipe);
	sql_bind_text(s, 2, b->source);
	sql_bind_text(s, 3, b->good);
	sql_bind_text(s, 4, b->bad);
	sql_bind_int64(s, 5, b->commits);
	sql_bind_text(s, 6, b->metric);
	if (b->margin > 0)
		sql_bind_double(s, 7, b->margin);
	else
		sql_bind_null(s, 7);
	sql_bind_text(s, 8, b->command_line);
	sql_bind_text(s, 9, now);
	if (sql_step(s) != SQL_ROW)
		db_fail(st, err, "could not store the bisect");
	else
	{
		*id = sql_col_int64(s, 0);
		rc = sql_step(s) == SQL_DONE
				 ? 0
				 : db_fail(st, err, "could not store the bisect");
	}
	sql_finalize(s);
	return rc;
}

int
store_bisect_step(struct store *st, int64_t bisect_id,
				  const struct store_bisect_step *step, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	int rc = -1;

	if ((s = sql_prepare(st->db,
						 "INSERT INTO bisect_step (bisect_id, step, revision,"
						 " run_id, outcome, detail) VALUES (?,?,?,?,?,?)")) ==
		NULL)
		return db_fail(st, err, "could not store a bisect step");
	sql_bind_int64(s, 1, bisect_id);
	sql_bind_int64(s, 2, step->step);
	sql_bind_text(s, 3, step->revision);
	if (step->run_id > 0)
		sql_bind_int64(s, 4, step->run_id);
	else
		sql_bind_null(s, 4);
	sql_bind_text(s, 5, step->outcome);
	sql_bind_text(s, 6, step->detail);
	if (sql_step(s) != SQL_DONE)
		db_fail(st, err, "could not store a bisect step");
	else
		rc = 0;
	sql_finalize(s);
	return rc;
}

int
store_bisect_finish(struct store *st, int64_t bisect_id, const char *status,
					const char *first_bad, const char *error,
					struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	char now[32];
	int rc = -1;

	now_text(now, sizeof(now));
	if ((s = sql_prepare(st->db, "UPDATE bisect SET status = ?, first_bad = ?,"
								 " error = ?, ended_at = ? WHERE id = ?")) ==
		NULL)
		return db_fail(st, err, "could not finish the bisect");
	sql_bind_text(s, 1, status);
	sql_bind_text(s, 2, first_bad);
	sql_bind_text(s, 3, error);
	sql_bind_text(s, 4, now);
	sql_bind_int64(s, 5, bisect_id);
	if (sql_step(s) != SQL_DONE)
		db_fail(st, err, "could not finish the bisect");
	else
		rc = 0;
	sql_finalize(s);
	return rc;
}

/* ------------------------------------------------------ moving runs */

/*
 * Copy FROM's rows of TABLE whose KEY is OLD into TO, with KEY = NEW and
 * every other column as it is; with IDS, the column "id" is left to TO
 * and CHILD (if not NULL) copies what hangs off each row, by its old and
 * new id.  Columns by name: both stores have the current schema.
 */
static int
copy_rows(struct store *from, struct store *to, const char *table,
		  const char *key, int64_t old, int64_t new, bool ids,
		  int (*child)(struct store *from, struct store *to, int64_t old,
					   int64_t new, struct pgc_error *err),
		  struct pgc_error *err)
{
	char *q = xasprintf("SELECT * FROM %s WHERE %s = ?", table, key);
	struct sql_stmt *s = sql_prepare(from->db, q), *ins = NULL;
	int rc, ncols = 0, id_col = -1, key_col = -1;

	free(q);
	if (s == NULL)
		return db_fail(from, err, "could not read the run to copy");
	sql_bind_int64(s, 1, old);
	while ((rc = sql_step(s)) == SQL_ROW)
	{
		int64_t new_id = 0;
		int k = 1;

		if (ins == NULL)
		{
			struct strbuf cols = STRBUF_INIT, vals = STRBUF_INIT;

			ncols = sql_col_count(s);
			for (int i = 0; i < ncols; i++)
			{
				const char *name = sql_col_name(s, i);

				if (ids && strcmp(name, "id") == 0)
				{
					id_col = i;
					continue;
				}
				if (strcmp(name, key) == 0)
					key_col = i;
				strbuf_addf(&cols, "%s%s", cols.len ? ", " : "", name);
				strbuf_addf(&vals, "%s?", vals.len ? ", " : "");
			}
			q = xasprintf("INSERT INTO %s (%s) VALUES (%s)%s", table, cols.buf,
						  vals.buf, ids ? " RETURNING id" : "");
			strbuf_release(&cols);
			strbuf_release(&vals);
			ins = sql_prepare(to->db, q);
			free(q);
			if (ins == NULL)
				goto to_fail;
		}
		sql_reset(ins);
		for (int i = 0; i < ncols; i++)
		{
			if (i == id_col)
				continue;
			if (i == key_col)
				sql_bind_int64(ins, k++, new);
			else
				switch (sql_col_kind(s, i))
				{
					case SQL_KIND_NULL:
						sql_bind_null(ins, k++);
						break;
					case SQL_KIND_INT:
						sql_bind_int64(ins, k++, sql_col_int64(s, i));
						break;
					case SQL_KIND_FLOAT:
						sql_bind_double(ins, k++, sql_col_double(s, i));
						break;
					case SQL_KIND_TEXT:
						sql_bind_text(ins, k++, sql_col_text(s, i));
						break;
				}
		}
		rc = sql_step(ins);
		if (ids && rc == SQL_ROW)
		{
			new_id = sql_col_int64(ins, 0);
			rc = sql_step(ins);
		}
		if (rc != SQL_DONE)
			goto to_fail;
		if (child &&
			child(from, to, sql_col_int64(s, id_col), new_id, err) < 0)
		{
			sql_finalize(s);
			sql_finalize(ins);
			return -1;
		}
	}
	sql_finalize(ins);
	sql_finalize(s);
	return rc == SQL_DONE ? 0 : db_fail(from, err, "could not read the run");

to_fail:
	db_fail(to, err, "could not copy the run");
	sql_finalize(ins);
	sql_finalize(s);
	return -1;
}

/* A point's series, events and windows. */
static int
copy_point_rows(struct store *from, struct store *to, int64_t old, int64_t new,
				struct pgc_error *err)
{
	static const char *const tables[] = {
		"series",          "event",        "window_stat",      "point_script",
		"point_statement", "point_warmup", "point_warmup_tick"};

	for (size_t i = 0; i < lengthof(tables); i++)
		if (copy_rows(from, to, tables[i], "point_id", old, new, false, NULL,
					  err) < 0)
			return -1;
	return 0;
}

/* A run's variants, points (and theirs), samples, looks and profiles. */
static int
copy_run_rows(struct store *from, struct store *to, int64_t old, int64_t new,
			  struct pgc_error *err)
{
	static const char *const tables[] = {"variant",       "variant_setting",
										 "variant_build", "sample",
										 "look",          "profile"};

	if (copy_rows(from, to, "point", "run_id", old, new, true, copy_point_rows,
				  err) < 0)
		return -1;
	for (size_t i = 0; i < lengthof(tables); i++)
		if (copy_rows(from, to, tables[i], "run_id", old, new, false, NULL,
					  err) < 0)
			return -1;
	return 0;
}

/* The run of TO whose uid is UID into *ROW; 0 found, 1 none, -1 error. */
static int
run_by_uid(struct store *to, const char *uid, struct store_run_row *row,
		   struct pgc_error *err)
{
	struct sql_stmt *s = sql_prepare(to->db, "SELECT " RUN_COLUMNS
											 " FROM run r WHERE r.uid = ?");
	int rc;

	if (s == NULL)
		return db_fail(to, err, "could not look for the run");
	sql_bind_text(s, 1, uid);
	rc = sql_step(s);
	if (rc == SQL_ROW)
		read_run_row(s, row);
	sql_finalize(s);
	if (rc == SQL_ERROR)
		return db_fail(to, err, "could not look for the run");
	return rc == SQL_ROW ? 0 : 1;
}

static bool
same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

int
store_copy_run(struct store *from, int64_t run_id, struct store *to,
			   struct store_copy *out, struct pgc_error *err)
{
	struct store_run_row src, there;
	int found, rc = -1;

	memset(out, 0, sizeof(*out));
	if (store_get_run(from, run_id, &src, err) < 0)
		return -1;
	out->points = src.npoints;
	if (strcmp(src.status, "running") == 0 && !src.dead)
	{
		error_set(err, PGC_ERR_USAGE,
				  "run %" PRId64 " of %s is still running: it is copied when "
				  "it ends",
				  run_id, from->path);
		goto out;
	}
	if ((found = run_by_uid(to, src.uid, &there, err)) < 0)
		goto out;
	if (found == 0)
	{
		/* there already: the same run, or another run's contents */
		bool same = strcmp(there.status, src.status) == 0 &&
					same_text(there.ended_at, src.ended_at) &&
					there.npoints == src.npoints &&
					same_text(there.recipe_sha256, src.recipe_sha256);

		out->id = there.id;
		store_run_row_release(&there);
		if (same)
		{
			rc = 0;
			goto out;
		}
		error_set(err, PGC_ERR_STORE,
				  "run %" PRId64 " of %s conflicts with run %" PRId64
				  " of %s: the same run (uid %s), other contents",
				  run_id, from->path, out->id, to->path, src.uid);
		error_hint(err, "nothing was overwritten; one of the two was changed "
						"after it was copied");
		goto out;
	}
	/* one transaction: the run lands whole or not at all */
	if (begin_write(to, err) < 0)
		goto out;
	if (copy_rows(from, to, "run", "id", run_id, 0, true, copy_run_rows, err) <
		0)
	{
		sql_rollback(to->db);
		goto out;
	}
	inject_point("store-copy");
	if (exec_sql(to, "COMMIT", err) < 0)
	{
		sql_rollback(to->db);
		goto out;
	}
	if (run_by_uid(to, src.uid, &there, err) != 0)
		goto out;
	out->id = there.id;
	out->copied = true;
	store_run_row_release(&there);
	rc = 0;
out:
	store_run_row_release(&src);
	return rc;
}
