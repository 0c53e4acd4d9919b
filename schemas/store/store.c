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

/*
 * Migrations: entry i brings the schema from version i to i + 1.  Never
 * edit a released entry; append a new one.
 */
static const struct migration
{
	const char *sql;      /* both backends, in SQLite's words (sql_exec_ddl) */
	const char *sqlite;   /* then this, on SQLite alone (or NULL) */
	const char *postgres; /* then this, on PostgreSQL alone (or NULL) */
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
	 NULL, NULL},
	/* 1 -> 2: connecting and preparing are timed apart */
	{"ALTER TABLE point ADD COLUMN prepare_ms REAL NOT NULL DEFAULT 0;", NULL,
	 NULL},
	/* 2 -> 3: variants interleave by a stored plan; pg_config provenance */
	{("ALTER TABLE run ADD COLUMN plan TEXT;"
	  "ALTER TABLE variant ADD COLUMN pg_config TEXT;"),
	 NULL, NULL},
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
	 NULL, NULL},
	/* 4 -> 5: variants built from source keep their build's provenance */
	{"ALTER TABLE variant ADD COLUMN build TEXT;", NULL, NULL},
	/* 5 -> 6: the metric the recipe measures, so that reading a run never
	 * needs its recipe parsed again (NULL: tps, as before) */
	{"ALTER TABLE run ADD COLUMN measure TEXT;", NULL, NULL},
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
	 NULL, NULL},
	/* 7 -> 8: which process writes a run, so that a reader can tell a
	 * running run from one whose process died (process_identity()) */
	{"ALTER TABLE run ADD COLUMN owner TEXT;", NULL, NULL},
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
	 NULL, NULL},
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
	 NULL, NULL},
	/* 10 -> 11: a warm-up until stable: what it judged and discarded */
	{"ALTER TABLE point ADD COLUMN warmup TEXT;", NULL, NULL},
	/* 11 -> 12: a variant's place in its run, which SQLite's rowid kept
	 * and PostgreSQL has not; and the store may be PostgreSQL's */
	{"ALTER TABLE variant ADD COLUMN seq INTEGER;",
	 "UPDATE variant SET seq = rowid;", NULL},
	/* 12 -> 13: a run's identity in every store it is pushed to or
	 * pulled from (store_copy_run()); older runs get one now */
	{"ALTER TABLE run ADD COLUMN uid TEXT;"
	 "CREATE UNIQUE INDEX run_uid ON run (uid);",
	 "UPDATE run SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;",
	 "UPDATE run SET uid = md5(random()::text || clock_timestamp()::text"
	 " || id::text) WHERE uid IS NULL;"}, /* 13 -> 14: points whose clients are
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
	 NULL, NULL},
	/* 14 -> 15: the hypervisor's share of the CPU during each window */
	{"ALTER TABLE point ADD COLUMN steal_pct REAL;", NULL, NULL},
	/* 15 -> 16: what the recipe's probes saw each second */
	{"ALTER TABLE sample ADD COLUMN probes TEXT;", NULL, NULL},
	/* 16 -> 17: a counted point's work per transaction (run --count) */
	{("ALTER TABLE point ADD COLUMN instructions REAL;"
	  "ALTER TABLE point ADD COLUMN l1_misses REAL;"
	  "ALTER TABLE point ADD COLUMN ll_misses REAL;"
	  "ALTER TABLE point ADD COLUMN counted INTEGER;"),
	 NULL, NULL},
	/* 17 -> 18: the coordinator's signature of a point's spec (wire.h) */
	{"ALTER TABLE work_point ADD COLUMN signature TEXT;", NULL, NULL},
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

static int
exec_sql(struct store *st, const char *sql, struct pgc_error *err)
{
	return sql_exec(st->db, sql) < 0 ? db_fail(st, err, "store") : 0;
}

static int
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
	return rc;
}

int
store_variant_add(struct store *st, int64_t run_id,
				  const struct store_variant *v, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	int rc = -1;

	if ((s = sql_prepare(
			 st->db,
			 "INSERT INTO variant (run_id, name, kind,"
			 " bindir, defines, gucs, target, server_version,"
			 " server_version_num, settings, pg_config, build, seq)"
			 " VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,"
			 "  (SELECT count(*) FROM variant WHERE run_id = ?1))"
			 " ON CONFLICT (run_id, name) DO UPDATE SET kind = excluded.kind,"
			 "  bindir = excluded.bindir, defines = excluded.defines,"
			 "  gucs = excluded.gucs, target = excluded.target,"
			 "  server_version = excluded.server_version,"
			 "  server_version_num = excluded.server_version_num,"
			 "  settings = excluded.settings, pg_config = excluded.pg_config,"
			 "  build = excluded.build")) == NULL)
		return db_fail(st, err, "could not store the variant");
	sql_bind_int64(s, 1, run_id);
	sql_bind_text(s, 2, v->name);
	sql_bind_text(s, 3, v->kind);
	sql_bind_text(s, 4, v->bindir);
	sql_bind_text(s, 5, v->defines);
	sql_bind_text(s, 6, v->gucs);
	sql_bind_text(s, 7, v->target);
	sql_bind_text(s, 8, v->server_version);
	sql_bind_int64(s, 9, v->server_version_num);
	sql_bind_text(s, 10, v->settings);
	sql_bind_text(s, 11, v->pg_config);
	sql_bind_text(s, 12, v->build);
	if (sql_step(s) != SQL_DONE)
		db_fail(st, err, "could not store the variant");
	else
		rc = 0;
	sql_finalize(s);
	return rc;
}

int
store_point_add(struct store *st, int64_t run_id, const struct store_point *p,
				int64_t *point_id, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	struct sql_stmt *ser = NULL;
	char now[32];
	int64_t id;
	int i = 1;

	now_text(now, sizeof(now));
	/*
	 * IMMEDIATE takes the write lock now, not at the first INSERT: two
	 * pgcliff processes storing at once then wait on the busy timeout
	 * instead of one failing with SQLITE_BUSY halfway through a point.
	 * The point, its series, events and windows commit together, so a
	 * crash leaves either all of them or none.
	 */
	if (begin_write(st, err) < 0)
		return -1;
	if ((s = sql_prepare(
			 st->db,
			 "INSERT INTO point (run_id, variant, workload, clients,"
			 " jobs, repeat_idx, order_idx, protocol, duration_s,"
			 " warmup_s, stored_at, transactions, failures,"
			 " failures_by_class, aborted_clients, abort_reason,"
			 " tps, conn_ms, prepare_ms, lat_avg_ms, lat_stddev_ms, lat_p50_ms,"
			 " lat_p90_ms, lat_p99_ms, lat_p999_ms, lat_max_ms,"
			 " histogram, scale, scripts, retried, retries, skipped, late,"
			 " lag_avg_ms, lag_max_ms, warmup, steal_pct, instructions,"
			 " l1_misses, ll_misses, counted)"
			 " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
			 "?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id")) == NULL)
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
	sql_bind_text(s, i++, p->scripts);
	sql_bind_int64(s, i++, (int64_t) p->retried);
	sql_bind_int64(s, i++, (int64_t) p->retries);
	sql_bind_int64(s, i++, (int64_t) p->skipped);
	sql_bind_int64(s, i++, (int64_t) p->late);
	sql_bind_double(s, i++, p->lag_avg_ms);
	sql_bind_double(s, i++, p->lag_max_ms);
	sql_bind_text(s, i++, p->warmup);
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
	id = sql_col_int64(s, 0);
	if (sql_step(s) != SQL_DONE)
		goto fail;
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
	sql_finalize(s);
	sql_finalize(ser);
	s = ser = NULL;
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
	s = NULL;
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
	s = NULL;
	inject_point("store-write");
	if (exec_sql(st, "COMMIT", err) < 0)
	{
		sql_rollback(st->db);
		return -1;
	}
	if (point_id)
		*point_id = id;
	return 0;

fail:
	db_fail(st, err, "could not store the point");
	sql_finalize(s);
	sql_finalize(ser);
	sql_rollback(st->db);
	return -1;
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

/* ------------------------------------------------------------- reading */

static char *
col_text(struct sql_stmt *s, int i)
{
	const char *t = sql_col_text(s, i);

	return t ? xstrdup(t) : NULL;
}

/* Fill one result row (zeroed, of the caller's type) from S's current row. */
typedef void (*fill_row_fn)(struct sql_stmt *s, void *row);

/*
 * Step the prepared S to its end, one row of SIZE bytes each filled by
 * FILL, into a new array *OUT of *N; finalize S.  WHAT names the rows in
 * the error.
 */
static int
collect_rows(struct store *st, struct sql_stmt *s, size_t size,
			 fill_row_fn fill, void **out, int *n, const char *what,
			 struct pgc_error *err)
{
	char *rows = NULL;
	int cap = 0, rc;

	*n = 0;
	while ((rc = sql_step(s)) == SQL_ROW)
	{
		if (*n == cap)
		{
			cap = cap ? 2 * cap : 16;
			rows = xrealloc(rows, (size_t) cap * size);
		}
		memset(rows + (size_t) *n * size, 0, size);
		fill(s, rows + (size_t) (*n)++ * size);
	}
	sql_finalize(s);
	*out = rows;
	if (rc != SQL_DONE)
	{
		char msg[128];

		snprintf(msg, sizeof(msg), "could not read %s", what);
		return db_fail(st, err, msg);
	}
	return 0;
}

/* SQL with its ? bound to the NPARAMS integers PARAMS, collected. */
static int
select_rows(struct store *st, const char *sql, const int64_t *params,
			int nparams, size_t size, fill_row_fn fill, void **out, int *n,
			const char *what, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;

	*out = NULL;
	*n = 0;
	if ((s = sql_prepare(st->db, sql)) == NULL)
	{
		char msg[128];

		snprintf(msg, sizeof(msg), "could not read %s", what);
		return db_fail(st, err, msg);
	}
	for (int i = 0; i < nparams; i++)
		sql_bind_int64(s, i + 1, params[i]);
	return collect_rows(st, s, size, fill, out, n, what, err);
}

#define RUN_COLUMNS                                                           \
	"r.id, r.recipe, r.recipe_path, r.recipe_sha256, r.command_line,"         \
	" r.tool_version, r.seed, r.started_at, r.ended_at, r.status, r.error,"   \
	" (SELECT count(*) FROM point p WHERE p.run_id = r.id),"                  \
	" (SELECT group_concat(name, ',') FROM (SELECT v.name FROM variant v"     \
	"   WHERE v.run_id = r.id ORDER BY v.seq, v.name) vs),"                   \
	" r.plan, r.script_files, r.measure, r.owner, r.host_name, r.host_cpu,"   \
	" r.host_cores, r.host_mem_bytes, r.host_kernel, r.uid"

/* "NAME: CPU, N cores, M GiB, KERNEL" of the run's host, '?' if unknown. */
static char *
host_text(struct sql_stmt *s, int i)
{
	const char *name = sql_col_text(s, i), *cpu = sql_col_text(s, i + 1);
	const char *kernel = sql_col_text(s, i + 4);
	char cores[32] = "?";

	if (!sql_col_null(s, i + 2))
		snprintf(cores, sizeof(cores), "%" PRId64, sql_col_int64(s, i + 2));
	return xasprintf("%s: %s, %s cores, %.1f GiB, %s", name ? name : "?",
					 cpu ? cpu : "?", cores,
					 (double) sql_col_int64(s, i + 3) / 1073741824.0,
					 kernel ? kernel : "?");
}

static void
read_run_row(struct sql_stmt *s, struct store_run_row *r)
{
	r->id = sql_col_int64(s, 0);
	r->recipe = col_text(s, 1);
	r->recipe_path = col_text(s, 2);
	r->recipe_sha256 = col_text(s, 3);
	r->command_line = col_text(s, 4);
	r->tool_version = col_text(s, 5);
	r->seed = sql_col_int64(s, 6);
	r->started_at = col_text(s, 7);
	r->ended_at = col_text(s, 8);
	r->status = col_text(s, 9);
	r->error = col_text(s, 10);
	r->npoints = sql_col_int(s, 11);
	r->variants = col_text(s, 12);
	if (r->variants == NULL)
		r->variants = xstrdup("");
	r->plan = col_text(s, 13);
	r->script_files = col_text(s, 14);
	r->measure = col_text(s, 15);
	r->host = host_text(s, 17);
	r->uid = col_text(s, 22);
	/* running, but the process that writes it is gone: it never will */
	{
		char *owner = col_text(s, 16);

		r->dead = r->status && strcmp(r->status, "running") == 0 &&
				  process_alive(owner) == 0;
		free(owner);
	}
}

int
store_list_runs(struct store *st, const char *recipe, const char *variant,
				int limit, struct store_run_row **rows, int *nrows,
				struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	int n = 0, alloc = 16, rc;

	*rows = NULL;
	*nrows = 0;
	if ((s = sql_prepare(
			 st->db, "SELECT " RUN_COLUMNS " FROM run r"
					 " WHERE (?1 IS NULL OR r.recipe = ?1)"
					 "   AND (?2 IS NULL OR EXISTS (SELECT 1 FROM variant v"
					 "        WHERE v.run_id = r.id AND v.name = ?2))"
					 " ORDER BY r.id DESC LIMIT ?3")) == NULL)
		return db_fail(st, err, "could not list runs");
	sql_bind_text(s, 1, recipe);
	sql_bind_text(s, 2, variant);
	sql_bind_int64(s, 3, limit > 0 ? limit : INT64_MAX);
	*rows = xcalloc((size_t) alloc, sizeof(**rows));
	while ((rc = sql_step(s)) == SQL_ROW)
	{
		if (n == alloc)
		{
			alloc *= 2;
			*rows = xrealloc(*rows, (size_t) alloc * sizeof(**rows));
		}
		read_run_row(s, &(*rows)[n++]);
	}
	*nrows = n;
	sql_finalize(s);
	if (rc != SQL_DONE)
	{
		store_runs_free(*rows, n);
		*rows = NULL;
		*nrows = 0;
		return db_fail(st, err, "could not list runs");
	}
	return 0;
}

int
store_get_run(struct store *st, int64_t run_id, struct store_run_row *row,
			  struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	int rc;

	if ((s = sql_prepare(st->db, "SELECT " RUN_COLUMNS
								 " FROM run r WHERE r.id = ?")) == NULL)
		return db_fail(st, err, "could not read the run");
	sql_bind_int64(s, 1, run_id);
	rc = sql_step(s);
	if (rc == SQL_ROW)
	{
		read_run_row(s, row);
		sql_finalize(s);
		return 0;
	}
	sql_finalize(s);
	if (rc == SQL_DONE)
	{
		error_set(err, PGC_ERR_NOT_FOUND, "no run %" PRId64 " in the store",
				  run_id);
		error_hint(err, "`pgcliff list` shows the stored runs");
		return -1;
	}
	return db_fail(st, err, "could not read the run");
}

int
store_get_recipe_text(struct store *st, int64_t run_id, char **text,
					  struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	int rc;

	*text = NULL;
	if ((s = sql_prepare(st->db,
						 "SELECT recipe_text FROM run WHERE id = ?")) == NULL)
		return db_fail(st, err, "could not read the recipe");
	sql_bind_int64(s, 1, run_id);
	rc = sql_step(s);
	if (rc == SQL_ROW)
		*text = col_text(s, 0);
	sql_finalize(s);
	if (rc == SQL_ROW || rc == SQL_DONE)
		return 0;
	return db_fail(st, err, "could not read the recipe");
}

void
store_run_row_release(struct store_run_row *r)
{
	free(r->recipe);
	free(r->recipe_path);
	free(r->recipe_sha256);
	free(r->command_line);
	free(r->tool_version);
	free(r->host);
	free(r->started_at);
	free(r->ended_at);
	free(r->status);
	free(r->error);
	free(r->variants);
	free(r->plan);
	free(r->script_files);
	free(r->measure);
	free(r->uid);
	memset(r, 0, sizeof(*r));
}

void
store_runs_free(struct store_run_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		store_run_row_release(&rows[i]);
	free(rows);
}

static void
fill_variant(struct sql_stmt *s, void *row)
{
	struct store_variant_row *v = row;

	v->name = col_text(s, 0);
	v->kind = col_text(s, 1);
	v->bindir = col_text(s, 2);
	v->gucs = col_text(s, 3);
	v->target = col_text(s, 4);
	v->server_version = col_text(s, 5);
	v->settings = col_text(s, 6);
	v->defines = col_text(s, 7);
	v->pg_config = col_text(s, 8);
	v->build = col_text(s, 9);
}

int
store_get_variants(struct store *st, int64_t run_id,
				   struct store_variant_row **rows, int *nrows,
				   struct pgc_error *err)
{
	void *out;
	int rc = select_rows(st,
						 "SELECT name, kind, bindir, gucs, target,"
						 " server_version, settings, defines, pg_config, build"
						 " FROM variant WHERE run_id = ? ORDER BY seq, name",
						 &run_id, 1, sizeof(**rows), fill_variant, &out, nrows,
						 "variants", err);

	*rows = out;
	return rc;
}

void
store_variants_free(struct store_variant_row *rows, int n)
{
	for (int i = 0; i < n; i++)
	{
		free(rows[i].name);
		free(rows[i].kind);
		free(rows[i].bindir);
		free(rows[i].gucs);
		free(rows[i].target);
		free(rows[i].server_version);
		free(rows[i].settings);
		free(rows[i].defines);
		free(rows[i].pg_config);
		free(rows[i].build);
	}
	free(rows);
}

#define POINT_COLUMNS_HIST(HISTOGRAM)                                         \
	"p.id, p.variant, p.workload, p.clients, p.jobs, p.repeat_idx,"           \
	" p.order_idx, p.protocol, p.duration_s, p.transactions, p.failures,"     \
	" p.failures_by_class, p.aborted_clients, p.tps, p.conn_ms,"              \
	" p.lat_avg_ms, p.lat_p50_ms, p.lat_p90_ms, p.lat_p99_ms,"                \
	" p.lat_p999_ms, p.lat_max_ms, p.prepare_ms, p.run_id, " HISTOGRAM ","    \
	" p.scale, p.retried, p.retries, p.skipped, p.late, p.lag_avg_ms,"        \
	" p.lag_max_ms, p.warmup_s, p.warmup, p.steal_pct, p.instructions,"       \
	" p.l1_misses, p.ll_misses, p.counted"
#define POINT_COLUMNS POINT_COLUMNS_HIST("p.histogram")

static void
fill_point(struct sql_stmt *s, void *row)
{
	struct store_point_row *p = row;

	p->id = sql_col_int64(s, 0);
	p->variant = col_text(s, 1);
	p->workload = col_text(s, 2);
	p->clients = sql_col_int(s, 3);
	p->jobs = sql_col_int(s, 4);
	p->repeat_idx = sql_col_int(s, 5);
	p->order_idx = sql_col_int(s, 6);
	p->protocol = col_text(s, 7);
	p->duration_s = sql_col_double(s, 8);
	p->transactions = (uint64_t) sql_col_int64(s, 9);
	p->failures = (uint64_t) sql_col_int64(s, 10);
	p->failures_by_class = col_text(s, 11);
	p->aborted_clients = sql_col_int(s, 12);
	p->tps = sql_col_double(s, 13);
	p->conn_ms = sql_col_double(s, 14);
	p->lat_avg_ms = sql_col_double(s, 15);
	p->lat_p50_ms = sql_col_double(s, 16);
	p->lat_p90_ms = sql_col_double(s, 17);
	p->lat_p99_ms = sql_col_double(s, 18);
	p->lat_p999_ms = sql_col_double(s, 19);
	p->lat_max_ms = sql_col_double(s, 20);
	p->prepare_ms = sql_col_double(s, 21);
	p->run_id = sql_col_int64(s, 22);
	p->histogram = col_text(s, 23);
	p->scale = sql_col_int(s, 24);
	p->retried = (uint64_t) sql_col_int64(s, 25);
	p->retries = (uint64_t) sql_col_int64(s, 26);
	p->skipped = (uint64_t) sql_col_int64(s, 27);
	p->late = (uint64_t) sql_col_int64(s, 28);
	p->lag_avg_ms = sql_col_double(s, 29);
	p->lag_max_ms = sql_col_double(s, 30);
	p->warmup_s = sql_col_double(s, 31);
	p->warmup = col_text(s, 32);
	p->steal_pct = sql_col_null(s, 33) ? -1 : sql_col_double(s, 33);
	for (int k = 0; k < 3; k++)
		p->cost[k] = sql_col_null(s, 34 + k) ? -1 : sql_col_double(s, 34 + k);
	p->counted = sql_col_null(s, 37) ? 0 : (uint64_t) sql_col_int64(s, 37);
}

static int
read_points(struct store *st, struct sql_stmt *s,
			struct store_point_row **rows, int *nrows, struct pgc_error *err)
{
	void *out;
	int rc = collect_rows(st, s, sizeof(**rows), fill_point, &out, nrows,
						  "points", err);

	*rows = out;
	return rc;
}

int
store_get_points(struct store *st, int64_t run_id,
				 struct store_point_row **rows, int *nrows,
				 struct pgc_error *err)
{
	struct sql_stmt *s = NULL;

	*rows = NULL;
	*nrows = 0;
	if ((s = sql_prepare(st->db,
						 "SELECT " POINT_COLUMNS " FROM point p"
						 " WHERE p.run_id = ? ORDER BY p.order_idx, p.id")) ==
		NULL)
		return db_fail(st, err, "could not read points");
	sql_bind_int64(s, 1, run_id);
	return read_points(st, s, rows, nrows, err);
}

int
store_select_points(struct store *st, const struct store_selector *sel,
					struct store_point_row **rows, int *nrows,
					struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	*rows = NULL;
	*nrows = 0;
	/* a histogram is a few kB a point: only for those who read it */
	if ((s = sql_prepare(
			 st->db,
			 "SELECT " POINT_COLUMNS_HIST(
				 "CASE WHEN ?5 = 1 THEN NULL ELSE p.histogram END") " FROM point p"
																	" WHERE p.run_id IN (SELECT r.id FROM run r"
																	"   WHERE (?1 = 0 OR r.id = ?1)"
																	"     AND (?2 IS NULL OR r.recipe = ?2)"
																	"     AND EXISTS (SELECT 1 FROM point q WHERE q.run_id = r.id"
																	"                 AND (?3 IS NULL OR q.variant = ?3))"
																	"   ORDER BY r.id DESC LIMIT ?4)"
																	"   AND (?3 IS NULL OR p.variant = ?3)"
																	" ORDER BY p.run_id, p.order_idx, p.id")) ==
		NULL)
		return db_fail(st, err, "could not select points");
	sql_bind_int64(s, 1, sel->run_id);
	sql_bind_text(s, 2, sel->recipe);
	sql_bind_text(s, 3, sel->variant);
	sql_bind_int64(s, 4, sel->last > 0 ? sel->last : INT64_MAX);
	sql_bind_int64(s, 5, sel->no_histograms ? 1 : 0);
	return read_points(st, s, rows, nrows, err);
}

void
store_points_free(struct store_point_row *rows, int n)
{
	for (int i = 0; i < n; i++)
	{
		free(rows[i].variant);
		free(rows[i].workload);
		free(rows[i].protocol);
		free(rows[i].failures_by_class);
		free(rows[i].histogram);
		free(rows[i].warmup);
	}
	free(rows);
}

/* KEY of the object O as an integer (a JSON real truncated), 0 if none. */
static int64_t
json_int_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return (int64_t) json_integer_value(v);
	return json_is_real(v) ? (int64_t) json_real_value(v) : 0;
}

/* KEY of the object O as a string, copied; NULL if it is none. */
static char *
json_str_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

int
store_get_scripts(struct store *st, int64_t point_id,
				  struct store_script_row **rows, int *nrows,
				  struct pgc_error *err)
{
	struct sql_stmt *s;
	json_t *scripts = NULL;
	size_t k;
	json_t *sc;
	int rc;

	*rows = NULL;
	*nrows = 0;
	/* the point's scripts are one JSON document, read here for both
	 * backends (their JSON functions differ) */
	if ((s = sql_prepare(st->db, "SELECT scripts FROM point WHERE id = ?")) ==
		NULL)
		return db_fail(st, err, "could not read the scripts of a point");
	sql_bind_int64(s, 1, point_id);
	rc = sql_step(s);
	if (rc == SQL_ROW && sql_col_text(s, 0))
		scripts = json_loads(sql_col_text(s, 0), 0, NULL);
	sql_finalize(s);
	if (rc == SQL_ERROR)
		return db_fail(st, err, "could not read the scripts of a point");
	if (!json_is_array(scripts))
	{
		json_decref(scripts);
		return 0;
	}
	*rows = xcalloc(json_array_size(scripts) + 1, sizeof(**rows));
	json_array_foreach(scripts, k, sc)
	{
		struct store_script_row *r = &(*rows)[(*nrows)++];
		const json_t *stmts = json_object_get(sc, "statements");
		size_t j;
		const json_t *x;

		r->name = json_str_of(sc, "name");
		r->weight = (int) json_int_of(sc, "weight");
		r->transactions = (uint64_t) json_int_of(sc, "transactions");
		r->failures = (uint64_t) json_int_of(sc, "failures");
		r->retried = (uint64_t) json_int_of(sc, "retried");
		r->lat_avg_ms =
			json_number_value(json_object_get(sc, "latency_avg_ms"));
		if (!json_is_array(stmts))
			continue;
		r->statements =
			xcalloc(json_array_size(stmts) + 1, sizeof(*r->statements));
		json_array_foreach(stmts, j, x)
		{
			struct store_statement_row *sr = &r->statements[r->nstatements++];

			sr->line = (int) json_int_of(x, "line");
			sr->command = json_str_of(x, "command");
			sr->lat_avg_ms =
				json_number_value(json_object_get(x, "latency_avg_ms"));
			sr->failures = (uint64_t) json_int_of(x, "failures");
			sr->retries = (uint64_t) json_int_of(x, "retries");
		}
	}
	json_decref(scripts);
	return 0;
}

/*
 * Insert N rows in one transaction: SQL prepared once, BIND(stmt, i,
 * arg) binding row I.  WHAT names them in an error.
 */
static int
insert_rows(struct store *st, const char *sql, int n,
			void (*bind)(struct sql_stmt *s, int i, const void *arg),
			const void *arg, const char *what, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;

	if (begin_write(st, err) < 0)
		return -1;
	if ((s = sql_prepare(st->db, sql)) == NULL)
		goto fail;
	for (int i = 0; i < n; i++)
	{
		sql_reset(s);
		bind(s, i, arg);
		if (sql_step(s) != SQL_DONE)
			goto fail;
	}
	sql_finalize(s);
	s = NULL;
	if (exec_sql(st, "COMMIT", err) < 0)
	{
		sql_rollback(st->db);
		return -1;
	}
	return 0;

fail:
{
	char msg[128];

	snprintf(msg, sizeof(msg), "could not store %s", what);
	db_fail(st, err, msg);
}
	sql_finalize(s);
	sql_rollback(st->db);
	return -1;
}

struct sample_rows
{
	int64_t run_id;
	int order_idx;
	const struct store_sample_row *rows;
};

static void
bind_sample(struct sql_stmt *s, int i, const void *arg)
{
	const struct sample_rows *x = arg;
	const struct store_sample_row *r = &x->rows[i];

	sql_bind_int64(s, 1, x->run_id);
	sql_bind_int64(s, 2, x->order_idx);
	sql_bind_text(s, 3, r->node);
	sql_bind_int64(s, 4, r->second);
	sql_bind_int64(s, 5, r->ok);
	sql_bind_int64(s, 6, r->commits);
	sql_bind_text(s, 7, r->conflicts);
	sql_bind_int64(s, 8, r->standby);
	if (r->standby)
	{
		sql_bind_int64(s, 9, r->lag_bytes);
		if (r->lag_s >= 0)
			sql_bind_double(s, 10, r->lag_s);
		else
			sql_bind_null(s, 10);
	}
	else
	{
		sql_bind_null(s, 9);
		sql_bind_null(s, 10);
	}
	sql_bind_text(s, 11, r->waits);
	sql_bind_double(s, 12, r->query_ms);
	sql_bind_text(s, 13, r->error);
	sql_bind_text(s, 14, r->probes);
}

int
store_samples_add(struct store *st, int64_t run_id, int order_idx,
				  const struct store_sample_row *rows, int n,
				  struct pgc_error *err)
{
	struct sample_rows x = {run_id, order_idx, rows};

	if (n == 0)
		return 0;
	return insert_rows(
		st,
		"INSERT INTO sample (run_id, order_idx, node, second, ok, commits,"
		" conflicts, standby, lag_bytes, lag_s, waits, query_ms, error,"
		" probes) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		n, bind_sample, &x, "the samples", err);
}

static void
fill_sample(struct sql_stmt *s, void *row)
{
	struct store_sample_row *r = row;

	r->node = col_text(s, 0);
	r->second = sql_col_int(s, 1);
	r->ok = sql_col_int(s, 2) != 0;
	r->commits = sql_col_int64(s, 3);
	r->conflicts = col_text(s, 4);
	r->standby = sql_col_int(s, 5) != 0;
	r->lag_bytes = sql_col_int64(s, 6);
	r->lag_s = sql_col_null(s, 7) ? -1 : sql_col_double(s, 7);
	r->waits = col_text(s, 8);
	r->query_ms = sql_col_double(s, 9);
	r->error = col_text(s, 10);
	r->probes = col_text(s, 11);
}

int
store_get_samples(struct store *st, int64_t run_id, int order_idx,
				  struct store_sample_row **rows, int *nrows,
				  struct pgc_error *err)
{
	int64_t params[2] = {run_id, order_idx};
	void *out;
	int rc = select_rows(st,
						 "SELECT node, second, ok, commits, conflicts,"
						 " standby, lag_bytes, lag_s, waits, query_ms, error,"
						 " probes FROM sample WHERE run_id = ? AND"
						 " order_idx = ?"
						 " ORDER BY node, second",
						 params, 2, sizeof(**rows), fill_sample, &out, nrows,
						 "the samples", err);

	*rows = out;
	return rc;
}

void
store_samples_free(struct store_sample_row *rows, int n)
{
	for (int i = 0; i < n; i++)
	{
		free((char *) rows[i].node);
		free((char *) rows[i].conflicts);
		free((char *) rows[i].waits);
		free((char *) rows[i].error);
		free((char *) rows[i].probes);
	}
	free(rows);
}

struct profile_rows
{
	int64_t run_id;
	int order_idx;
	const char *node;
	const struct store_profile_row *rows;
};

static void
bind_profile(struct sql_stmt *s, int i, const void *arg)
{
	const struct profile_rows *x = arg;

	sql_bind_int64(s, 1, x->run_id);
	sql_bind_int64(s, 2, x->order_idx);
	sql_bind_text(s, 3, x->node);
	sql_bind_int64(s, 4, i);
	sql_bind_text(s, 5, x->rows[i].dso);
	sql_bind_text(s, 6, x->rows[i].symbol);
	sql_bind_double(s, 7, x->rows[i].pct);
	sql_bind_int64(s, 8, (int64_t) x->rows[i].samples);
	sql_bind_int64(s, 9, x->rows[i].hz);
	if (x->rows[i].inclusive >= 0)
		sql_bind_double(s, 10, x->rows[i].inclusive);
	else
		sql_bind_null(s, 10);
}

int
store_profile_add(struct store *st, int64_t run_id, int order_idx,
				  const char *node, const struct store_profile_row *rows,
				  int n, struct pgc_error *err)
{
	struct profile_rows x = {run_id, order_idx, node, rows};

	return insert_rows(st,
					   "INSERT INTO profile (run_id, order_idx, node, rank,"
					   " dso, symbol, pct, samples, hz, inclusive)"
					   " VALUES (?,?,?,?,?,?,?,?,?,?)",
					   n, bind_profile, &x, "the profile", err);
}

static void
fill_profile(struct sql_stmt *s, void *row)
{
	struct store_profile_row *r = row;

	r->node = col_text(s, 0);
	r->dso = col_text(s, 1);
	r->symbol = col_text(s, 2);
	r->pct = sql_col_double(s, 3);
	r->samples = (uint64_t) sql_col_int64(s, 4);
	r->hz = sql_col_int(s, 5);
	r->inclusive = sql_col_null(s, 6) ? -1 : sql_col_double(s, 6);
}

int
store_get_profile(struct store *st, int64_t run_id, int order_idx,
				  struct store_profile_row **rows, int *nrows,
				  struct pgc_error *err)
{
	int64_t params[2] = {run_id, order_idx};
	void *out;
	int rc = select_rows(
		st,
		"SELECT node, dso, symbol, pct, samples, hz,"
		" inclusive FROM profile WHERE run_id = ? AND order_idx = ?"
		" ORDER BY node, rank",
		params, 2, sizeof(**rows), fill_profile, &out, nrows, "the profile",
		err);

	*rows = out;
	return rc;
}

void
store_profile_free(struct store_profile_row *rows, int n)
{
	for (int i = 0; i < n; i++)
	{
		free((char *) rows[i].node);
		free((char *) rows[i].dso);
		free((char *) rows[i].symbol);
	}
	free(rows);
}

static void
fill_event(struct sql_stmt *s, void *row)
{
	struct store_event_row *r = row;

	r->seq = sql_col_int(s, 0);
	r->planned_s = sql_col_double(s, 1);
	r->actual_s = sql_col_double(s, 2);
}

int
store_look_add(struct store *st, int64_t run_id, const struct store_look *l,
			   struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	int rc = -1;

	if ((s = sql_prepare(st->db,
						 "INSERT INTO look (run_id, look, blocks, confidence,"
						 " elapsed_s, outcome, stop, detail)"
						 " VALUES (?,?,?,?,?,?,?,?)")) == NULL)
		return db_fail(st, err, "could not store a look");
	sql_bind_int64(s, 1, run_id);
	sql_bind_int64(s, 2, l->look);
	sql_bind_int64(s, 3, l->blocks);
	sql_bind_double(s, 4, l->confidence);
	sql_bind_double(s, 5, l->elapsed_s);
	sql_bind_text(s, 6, l->outcome);
	sql_bind_text(s, 7, l->stop);
	sql_bind_text(s, 8, l->detail);
	if (sql_step(s) != SQL_DONE)
		db_fail(st, err, "could not store a look");
	else
		rc = 0;
	sql_finalize(s);
	return rc;
}

static void
fill_look(struct sql_stmt *s, void *row)
{
	struct store_look *l = row;

	l->look = sql_col_int(s, 0);
	l->blocks = sql_col_int(s, 1);
	l->confidence = sql_col_double(s, 2);
	l->elapsed_s = sql_col_double(s, 3);
	l->outcome = col_text(s, 4);
	l->stop = col_text(s, 5);
	l->detail = col_text(s, 6);
}

int
store_get_looks(struct store *st, int64_t run_id, struct store_look **rows,
				int *nrows, struct pgc_error *err)
{
	void *out;
	int rc = select_rows(st,
						 "SELECT look, blocks, confidence, elapsed_s, outcome,"
						 " stop, detail FROM look WHERE run_id = ?"
						 " ORDER BY look",
						 &run_id, 1, sizeof(**rows), fill_look, &out, nrows,
						 "the looks of a run", err);

	*rows = out;
	return rc;
}

void
store_looks_free(struct store_look *rows, int n)
{
	for (int i = 0; i < n; i++)
	{
		free((char *) rows[i].outcome);
		free((char *) rows[i].stop);
		free((char *) rows[i].detail);
	}
	free(rows);
}

static void
fill_window(struct sql_stmt *s, void *row)
{
	struct store_window_row *r = row;

	r->name = col_text(s, 0);
	r->start_s = sql_col_int(s, 1);
	r->end_s = sql_col_int(s, 2);
	r->tps = sql_col_double(s, 3);
	r->has_dip = !sql_col_null(s, 4);
	r->dip = r->has_dip ? sql_col_double(s, 4) : NAN;
	r->recovery_s = !sql_col_null(s, 5) ? sql_col_double(s, 5) : NAN;
}

int
store_get_windows(struct store *st, int64_t point_id,
				  struct store_window_row **rows, int *nrows,
				  struct pgc_error *err)
{
	void *out;
	/* the primary key orders by name: the recipe's order is by time */
	int rc = select_rows(st,
						 "SELECT name, start_s, end_s, tps, dip, recovery_s"
						 " FROM window_stat WHERE point_id = ?"
						 " ORDER BY start_s, end_s, name",
						 &point_id, 1, sizeof(**rows), fill_window, &out,
						 nrows, "the windows of a point", err);

	*rows = out;
	return rc;
}

void
store_windows_free(struct store_window_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		free((char *) rows[i].name);
	free(rows);
}

int
store_get_events(struct store *st, int64_t point_id,
				 struct store_event_row **rows, int *nrows,
				 struct pgc_error *err)
{
	void *out;
	int rc = select_rows(st,
						 "SELECT seq, planned_s, actual_s FROM event"
						 " WHERE point_id = ? ORDER BY seq",
						 &point_id, 1, sizeof(**rows), fill_event, &out, nrows,
						 "the events of a point", err);

	*rows = out;
	return rc;
}

void
store_scripts_free(struct store_script_row *rows, int n)
{
	for (int i = 0; i < n; i++)
	{
		free(rows[i].name);
		for (int k = 0; k < rows[i].nstatements; k++)
			free(rows[i].statements[k].command);
		free(rows[i].statements);
	}
	free(rows);
}

static void
fill_series(struct sql_stmt *s, void *row)
{
	struct store_series_row *r = row;

	r->second = sql_col_int(s, 0);
	r->transactions = (uint64_t) sql_col_int64(s, 1);
	r->failures = (uint64_t) sql_col_int64(s, 2);
	r->lat_avg_ms = sql_col_double(s, 3);
	r->lat_max_ms = sql_col_double(s, 4);
}

int
store_get_series(struct store *st, int64_t point_id,
				 struct store_series_row **rows, int *nrows,
				 struct pgc_error *err)
{
	void *out;
	int rc = select_rows(st,
						 "SELECT second, transactions, failures, lat_avg_ms,"
						 " lat_max_ms FROM series WHERE point_id = ?"
						 " ORDER BY second",
						 &point_id, 1, sizeof(**rows), fill_series, &out,
						 nrows, "the series", err);

	*rows = out;
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
	static const char *const tables[] = {"series", "event", "window_stat"};

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
	static const char *const tables[] = {"variant", "sample", "look",
										 "profile"};

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
