/*
 * store.c - the SQLite store; see store.h.  Every statement is prepared,
 * bound and finalized on every path; sqlite3_errmsg() is copied at once.
 */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct store
{
	sqlite3 *db;
	char *path;
	/* store_wait_for_locks(): wait out a lock until *INTERRUPT */
	volatile sig_atomic_t *interrupt;
	void (*on_wait)(void *arg, double waited_s);
	void *wait_arg;
	int64_t busy_since_ns;
	int64_t next_tell_ns;
};

/* How long a lock is waited for, unless store_wait_for_locks() says. */
#define BUSY_TIMEOUT_NS ((int64_t) 30 * 1000000000)
/* When the wait is told (on_wait), the first time */
#define BUSY_TELL_NS ((int64_t) 2 * 1000000000)

/*
 * SQLite's busy handler: wait another moment for a lock another process
 * holds (0: give up, SQLITE_BUSY).  Short sleeps first, as SQLite's own.
 */
static int
busy_wait(void *arg, int count)
{
	struct store *st = arg;
	int64_t now = clock_now_ns(), waited;

	if (count == 0)
	{
		st->busy_since_ns = now;
		st->next_tell_ns = now + BUSY_TELL_NS;
	}
	waited = now - st->busy_since_ns;
	/* once interrupted, the wait is the ordinary one again: what is left
	 * to store (the run's end) is still stored if the lock goes soon */
	if ((st->interrupt == NULL || *st->interrupt) && waited >= BUSY_TIMEOUT_NS)
		return 0;
	if (st->on_wait && now >= st->next_tell_ns)
	{
		st->next_tell_ns += BUSY_TIMEOUT_NS;
		st->on_wait(st->wait_arg, (double) waited / 1e9);
	}
	usleep(count < 20 ? 1000 : 20000);
	return 1;
}

void
store_wait_for_locks(struct store *st, volatile sig_atomic_t *interrupt,
					 void (*on_wait)(void *arg, double waited_s), void *arg)
{
	st->interrupt = interrupt;
	st->on_wait = on_wait;
	st->wait_arg = arg;
}

/*
 * Migrations: entry i brings the schema from version i to i + 1.  Never
 * edit a released entry; append a new one.
 */
static const char *const migrations[] = {
	/* 0 -> 1 */
	"CREATE TABLE run ("
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
	/* 1 -> 2: connecting and preparing are timed apart */
	"ALTER TABLE point ADD COLUMN prepare_ms REAL NOT NULL DEFAULT 0;",
	/* 2 -> 3: variants interleave by a stored plan; pg_config provenance */
	("ALTER TABLE run ADD COLUMN plan TEXT;"
	 "ALTER TABLE variant ADD COLUMN pg_config TEXT;"),
	/* 3 -> 4: pgbench parity: scripts, scale, retries, rate limits, and
	 * errors by class per second */
	("ALTER TABLE point ADD COLUMN scale INTEGER;"
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
	/* 4 -> 5: variants built from source keep their build's provenance */
	"ALTER TABLE variant ADD COLUMN build TEXT;",
	/* 5 -> 6: the metric the recipe measures, so that reading a run never
	 * needs its recipe parsed again (NULL: tps, as before) */
	"ALTER TABLE run ADD COLUMN measure TEXT;",
	/* 6 -> 7: a run that stops once decided keeps every look it took */
	("CREATE TABLE look ("
	 "  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	 "  look INTEGER NOT NULL,"
	 "  blocks INTEGER NOT NULL,"
	 "  confidence REAL NOT NULL,"
	 "  elapsed_s REAL NOT NULL,"
	 "  outcome TEXT NOT NULL,"
	 "  stop TEXT,"
	 "  detail TEXT,"
	 "  PRIMARY KEY (run_id, look)) WITHOUT ROWID;"),
	/* 7 -> 8: which process writes a run, so that a reader can tell a
	 * running run from one whose process died (process_identity()) */
	"ALTER TABLE run ADD COLUMN owner TEXT;",
	/* 8 -> 9: server CPU profiles of a point's window, per node: rank 0
	 * holds the whole profile (its samples and rate), 1.. its functions */
	("CREATE TABLE profile ("
	 "  run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
	 "  order_idx INTEGER NOT NULL,"
	 "  node TEXT NOT NULL,"
	 "  rank INTEGER NOT NULL,"
	 "  dso TEXT, symbol TEXT,"
	 "  pct REAL NOT NULL, samples INTEGER NOT NULL, hz INTEGER NOT NULL,"
	 "  PRIMARY KEY (run_id, order_idx, node, rank)) WITHOUT ROWID;"),
	/* 9 -> 10: a bisect and its steps, each step a run of its own */
	("CREATE TABLE bisect ("
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
	/* 10 -> 11: a warm-up until stable: what it judged and discarded */
	"ALTER TABLE point ADD COLUMN warmup TEXT;",
};

_Static_assert(lengthof(migrations) == STORE_SCHEMA_VERSION,
			   "STORE_SCHEMA_VERSION must be the number of migrations");

static int
db_fail(struct store *st, struct pgc_error *err, const char *what)
{
	int sys = sqlite3_system_errno(st->db);

	/* "disk I/O error" says little: the OS's reason does (a full disk) */
	if (sys != 0 && (sqlite3_errcode(st->db) == SQLITE_IOERR ||
					 sqlite3_errcode(st->db) == SQLITE_FULL ||
					 sqlite3_errcode(st->db) == SQLITE_CANTOPEN))
		error_set(err, PGC_ERR_STORE, "%s: %s (%s)", what,
				  sqlite3_errmsg(st->db), strerror(sys));
	else
		error_set(err, PGC_ERR_STORE, "%s: %s", what, sqlite3_errmsg(st->db));
	error_detail(err, "store: %s", st->path);
	return -1;
}

static int
exec_sql(struct store *st, const char *sql, struct pgc_error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK)
	{
		sqlite3_free(msg);
		return db_fail(st, err, "store");
	}
	return 0;
}

static int
user_version(struct store *st)
{
	sqlite3_stmt *stmt;
	int v = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &stmt, NULL) !=
		SQLITE_OK)
		return -1;
	if (sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

int
store_schema_version(struct store *st)
{
	return user_version(st);
}

static int
migrate(struct store *st, struct pgc_error *err)
{
	int v;
	char sql[64];

	/* IMMEDIATE: two processes opening a new store migrate one at a time */
	if (exec_sql(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	v = user_version(st);
	if (v > (int) lengthof(migrations))
	{
		exec_sql(st, "ROLLBACK", err);
		error_set(
			err, PGC_ERR_STORE,
			"store schema version %d is newer than this pgcliff knows (%d)", v,
			(int) lengthof(migrations));
		error_detail(err, "store: %s", st->path);
		error_hint(err, "use a newer pgcliff, or another --db");
		return -1;
	}
	for (; v >= 0 && v < (int) lengthof(migrations); v++)
	{
		if (exec_sql(st, migrations[v], err) < 0)
		{
			char keep[sizeof(err->message)];

			memcpy(keep, err->message, sizeof(keep));
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			error_set(err, PGC_ERR_STORE, "migration to schema %d failed: %s",
					  v + 1, keep);
			return -1;
		}
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
		if (exec_sql(st, sql, err) < 0)
		{
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
			return -1;
		}
	}
	return exec_sql(st, "COMMIT", err);
}

char *
store_resolve_path(const char *override, char *buf, size_t size)
{
	const char *env = override ? override : getenv("PGCLIFF_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (env && env[0])
		snprintf(buf, size, "%s", env);
	else if (xdg && xdg[0])
		snprintf(buf, size, "%s/pgcliff/pgcliff.db", xdg);
	else
		snprintf(buf, size, "%s/.local/share/pgcliff/pgcliff.db",
				 home && home[0] ? home : ".");
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

	if (strcmp(path, ":memory:") == 0)
		return false;
	n = snprintf(buf, size, "%s-logs", path);
	return n > 0 && (size_t) n < size;
}

/*
 * Whether the file is another program's SQLite database: tables, but no
 * schema version (a pgcliff store sets it in the transaction that makes
 * its tables).  Such a file is refused and left as it was.
 */
static bool
foreign_file(struct store *st, struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;
	int tables = 0;

	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_master", -1,
						   &s, NULL) != SQLITE_OK)
	{
		db_fail(st, err, "could not open store");
		return true;
	}
	if (sqlite3_step(s) == SQLITE_ROW)
		tables = sqlite3_column_int(s, 0);
	else
	{
		sqlite3_finalize(s);
		db_fail(st, err, "could not open store");
		return true;
	}
	sqlite3_finalize(s);
	if (tables == 0 || user_version(st) > 0)
		return false;
	error_set(err, PGC_ERR_STORE,
			  "\"%s\" is not a pgcliff store: an SQLite database of "
			  "another program",
			  st->path);
	error_hint(err, "it was left as it is; give --db a file of its own");
	return true;
}

struct store *
store_open(const char *path, struct pgc_error *err)
{
	struct store *st = xcalloc(1, sizeof(*st));
	bool memory = strcmp(path, ":memory:") == 0;
	int fd;

	st->path = xstrdup(path);
	if (!memory && make_parent_dirs(path, err) < 0)
		goto fail;
	/* a new store is its owner's alone (SQLite gives its -wal and -shm
	 * files the same mode): runs hold command lines and settings */
	if (!memory &&
		(fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) >= 0)
		close(fd);
	if (sqlite3_open_v2(path, &st->db,
						SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
							SQLITE_OPEN_NOMUTEX,
						NULL) != SQLITE_OK)
	{
		if (st->db == NULL)
			error_set(err, PGC_ERR_STORE, "could not open store \"%s\"", path);
		else
			db_fail(st, err, "could not open store");
		goto fail;
	}
	sqlite3_busy_handler(st->db, busy_wait, st);
	/* before anything writes to it (WAL mode, migrations) */
	if (!memory && foreign_file(st, err))
		goto fail;
	if (exec_sql(st, "PRAGMA foreign_keys = ON", err) < 0)
		goto fail;
	if (!memory && exec_sql(st, "PRAGMA journal_mode = WAL", err) < 0)
		goto fail;
	if (exec_sql(st, "PRAGMA synchronous = NORMAL", err) < 0)
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
	sqlite3 *mem = NULL;
	sqlite3_backup *b;
	int v;

	st->path = xstrdup(path);
	if (sqlite3_open_v2(path, &st->db,
						SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
						NULL) != SQLITE_OK)
	{
		if (st->db == NULL)
			error_set(err, PGC_ERR_STORE, "could not open store \"%s\"", path);
		else
			db_fail(st, err, "could not open store");
		goto fail;
	}
	sqlite3_busy_handler(st->db, busy_wait, st);
	if (foreign_file(st, err))
		goto fail;
	v = user_version(st);
	if (v > STORE_SCHEMA_VERSION)
	{
		error_set(
			err, PGC_ERR_STORE,
			"store schema version %d is newer than this pgcliff knows (%d)", v,
			STORE_SCHEMA_VERSION);
		error_detail(err, "store: %s", path);
		error_hint(err, "use a newer pgcliff, or another --db");
		goto fail;
	}
	if (v == STORE_SCHEMA_VERSION)
		return st;
	/*
	 * An older schema: read a copy in memory, migrated there; the file
	 * keeps its schema until a command that writes migrates it.
	 */
	if (sqlite3_open(":memory:", &mem) != SQLITE_OK ||
		(b = sqlite3_backup_init(mem, "main", st->db, "main")) == NULL)
	{
		error_set(err, PGC_ERR_STORE, "could not read store \"%s\": %s", path,
				  mem ? sqlite3_errmsg(mem) : "out of memory");
		sqlite3_close(mem);
		goto fail;
	}
	sqlite3_backup_step(b, -1);
	if (sqlite3_backup_finish(b) != SQLITE_OK)
	{
		error_set(err, PGC_ERR_STORE, "could not read store \"%s\": %s", path,
				  sqlite3_errmsg(mem));
		sqlite3_close(mem);
		goto fail;
	}
	sqlite3_close(st->db);
	st->db = mem;
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
	if (st->db)
		sqlite3_close(st->db);
	free(st->path);
	free(st);
}

/* ------------------------------------------------------------- writing */

static void
bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
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
	sqlite3_stmt *s = NULL;
	char now[32];
	int rc = -1;

	now_text(now, sizeof(now));
	if (sqlite3_prepare_v2(
			st->db,
			"INSERT INTO run (recipe, recipe_path, recipe_text,"
			" recipe_sha256, command_line, tool_version, seed,"
			" host_name, host_cpu, host_cores, host_mem_bytes,"
			" host_kernel, started_at, plan, script_files, measure, owner,"
			" status)"
			" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'running')",
			-1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not store the run");
	bind_text(s, 1, r->recipe);
	bind_text(s, 2, r->recipe_path);
	bind_text(s, 3, r->recipe_text);
	bind_text(s, 4, r->recipe_sha256);
	bind_text(s, 5, r->command_line);
	bind_text(s, 6, PGCLIFF_VERSION);
	sqlite3_bind_int64(s, 7, (int64_t) r->seed);
	bind_text(s, 8, r->host_name);
	bind_text(s, 9, r->host_cpu);
	sqlite3_bind_int(s, 10, r->host_cores);
	sqlite3_bind_int64(s, 11, r->host_mem_bytes);
	bind_text(s, 12, r->host_kernel);
	bind_text(s, 13, now);
	bind_text(s, 14, r->plan);
	bind_text(s, 15, r->script_files);
	bind_text(s, 16, r->measure);
	{
		char owner[128];

		process_identity(owner, sizeof(owner));
		bind_text(s, 17, owner[0] ? owner : NULL);
	}
	if (sqlite3_step(s) != SQLITE_DONE)
		db_fail(st, err, "could not store the run");
	else
	{
		*run_id = sqlite3_last_insert_rowid(st->db);
		rc = 0;
	}
	sqlite3_finalize(s);
	return rc;
}

int
store_variant_add(struct store *st, int64_t run_id,
				  const struct store_variant *v, struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(
			st->db,
			"INSERT OR REPLACE INTO variant (run_id, name, kind,"
			" bindir, defines, gucs, target, server_version,"
			" server_version_num, settings, pg_config, build)"
			" VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
			-1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not store the variant");
	sqlite3_bind_int64(s, 1, run_id);
	bind_text(s, 2, v->name);
	bind_text(s, 3, v->kind);
	bind_text(s, 4, v->bindir);
	bind_text(s, 5, v->defines);
	bind_text(s, 6, v->gucs);
	bind_text(s, 7, v->target);
	bind_text(s, 8, v->server_version);
	sqlite3_bind_int(s, 9, v->server_version_num);
	bind_text(s, 10, v->settings);
	bind_text(s, 11, v->pg_config);
	bind_text(s, 12, v->build);
	if (sqlite3_step(s) != SQLITE_DONE)
		db_fail(st, err, "could not store the variant");
	else
		rc = 0;
	sqlite3_finalize(s);
	return rc;
}

int
store_point_add(struct store *st, int64_t run_id, const struct store_point *p,
				int64_t *point_id, struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;
	sqlite3_stmt *ser = NULL;
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
	if (exec_sql(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (sqlite3_prepare_v2(
			st->db,
			"INSERT INTO point (run_id, variant, workload, clients,"
			" jobs, repeat_idx, order_idx, protocol, duration_s,"
			" warmup_s, stored_at, transactions, failures,"
			" failures_by_class, aborted_clients, abort_reason,"
			" tps, conn_ms, prepare_ms, lat_avg_ms, lat_stddev_ms, lat_p50_ms,"
			" lat_p90_ms, lat_p99_ms, lat_p999_ms, lat_max_ms,"
			" histogram, scale, scripts, retried, retries, skipped, late,"
			" lag_avg_ms, lag_max_ms, warmup)"
			" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,"
			"?,?,?,?,?,?,?,?,?)",
			-1, &s, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_int64(s, i++, run_id);
	bind_text(s, i++, p->variant);
	bind_text(s, i++, p->workload);
	sqlite3_bind_int(s, i++, p->clients);
	sqlite3_bind_int(s, i++, p->jobs);
	sqlite3_bind_int(s, i++, p->repeat_idx);
	sqlite3_bind_int(s, i++, p->order_idx);
	bind_text(s, i++, p->protocol);
	sqlite3_bind_double(s, i++, p->duration_s);
	sqlite3_bind_double(s, i++, p->warmup_s);
	bind_text(s, i++, now);
	sqlite3_bind_int64(s, i++, (int64_t) p->transactions);
	sqlite3_bind_int64(s, i++, (int64_t) p->failures);
	bind_text(s, i++, p->failures_by_class ? p->failures_by_class : "{}");
	sqlite3_bind_int(s, i++, p->aborted_clients);
	bind_text(s, i++, p->abort_reason);
	sqlite3_bind_double(s, i++, p->tps);
	sqlite3_bind_double(s, i++, p->conn_ms);
	sqlite3_bind_double(s, i++, p->prepare_ms);
	sqlite3_bind_double(s, i++, p->lat_avg_ms);
	sqlite3_bind_double(s, i++, p->lat_stddev_ms);
	sqlite3_bind_double(s, i++, p->lat_p50_ms);
	sqlite3_bind_double(s, i++, p->lat_p90_ms);
	sqlite3_bind_double(s, i++, p->lat_p99_ms);
	sqlite3_bind_double(s, i++, p->lat_p999_ms);
	sqlite3_bind_double(s, i++, p->lat_max_ms);
	bind_text(s, i++, p->histogram ? p->histogram : "");
	/* NULL, not 0: a point stored before schema 4 has no scale either */
	if (p->scale > 0)
		sqlite3_bind_int(s, i++, p->scale);
	else
		sqlite3_bind_null(s, i++);
	bind_text(s, i++, p->scripts);
	sqlite3_bind_int64(s, i++, (int64_t) p->retried);
	sqlite3_bind_int64(s, i++, (int64_t) p->retries);
	sqlite3_bind_int64(s, i++, (int64_t) p->skipped);
	sqlite3_bind_int64(s, i++, (int64_t) p->late);
	sqlite3_bind_double(s, i++, p->lag_avg_ms);
	sqlite3_bind_double(s, i++, p->lag_max_ms);
	bind_text(s, i++, p->warmup);
	if (sqlite3_step(s) != SQLITE_DONE)
		goto fail;
	id = sqlite3_last_insert_rowid(st->db);
	if (sqlite3_prepare_v2(
			st->db,
			"INSERT INTO series (point_id, second, transactions,"
			" failures, lat_avg_ms, lat_max_ms, failures_by_class)"
			" VALUES (?,?,?,?,?,?,?)",
			-1, &ser, NULL) != SQLITE_OK)
		goto fail;
	for (int k = 0; k < p->nseries; k++)
	{
		const struct store_series_row *r = &p->series[k];

		sqlite3_reset(ser);
		sqlite3_bind_int64(ser, 1, id);
		sqlite3_bind_int(ser, 2, r->second);
		sqlite3_bind_int64(ser, 3, (int64_t) r->transactions);
		sqlite3_bind_int64(ser, 4, (int64_t) r->failures);
		sqlite3_bind_double(ser, 5, r->lat_avg_ms);
		sqlite3_bind_double(ser, 6, r->lat_max_ms);
		bind_text(ser, 7, r->failures_by_class);
		if (sqlite3_step(ser) != SQLITE_DONE)
			goto fail;
	}
	sqlite3_finalize(s);
	sqlite3_finalize(ser);
	s = ser = NULL;
	if (p->nevents > 0 &&
		sqlite3_prepare_v2(st->db,
						   "INSERT INTO event (point_id, seq, planned_s, "
						   "actual_s) VALUES (?,?,?,?)",
						   -1, &s, NULL) != SQLITE_OK)
		goto fail;
	for (int k = 0; k < p->nevents; k++)
	{
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, id);
		sqlite3_bind_int(s, 2, p->events[k].seq);
		sqlite3_bind_double(s, 3, p->events[k].planned_s);
		sqlite3_bind_double(s, 4, p->events[k].actual_s);
		if (sqlite3_step(s) != SQLITE_DONE)
			goto fail;
	}
	sqlite3_finalize(s);
	s = NULL;
	if (p->nwindows > 0 &&
		sqlite3_prepare_v2(
			st->db,
			"INSERT INTO window_stat (point_id, name, start_s,"
			" end_s, tps, dip, recovery_s) VALUES (?,?,?,?,?,?,?)",
			-1, &s, NULL) != SQLITE_OK)
		goto fail;
	for (int k = 0; k < p->nwindows; k++)
	{
		const struct store_window_row *w = &p->windows[k];

		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, id);
		bind_text(s, 2, w->name);
		sqlite3_bind_int(s, 3, w->start_s);
		sqlite3_bind_int(s, 4, w->end_s);
		sqlite3_bind_double(s, 5, w->tps);
		if (w->has_dip)
		{
			sqlite3_bind_double(s, 6, w->dip);
			sqlite3_bind_double(s, 7, w->recovery_s);
		}
		else
		{
			sqlite3_bind_null(s, 6);
			sqlite3_bind_null(s, 7);
		}
		if (sqlite3_step(s) != SQLITE_DONE)
			goto fail;
	}
	sqlite3_finalize(s);
	s = NULL;
	inject_point("store-write");
	if (exec_sql(st, "COMMIT", err) < 0)
	{
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (point_id)
		*point_id = id;
	return 0;

fail:
	db_fail(st, err, "could not store the point");
	sqlite3_finalize(s);
	sqlite3_finalize(ser);
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int
store_run_finish(struct store *st, int64_t run_id, const char *status,
				 const char *error, struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;
	char now[32];
	int rc = -1;

	now_text(now, sizeof(now));
	if (sqlite3_prepare_v2(st->db,
						   "UPDATE run SET status = ?, error = ?, ended_at = ?"
						   " WHERE id = ?",
						   -1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not finish the run");
	bind_text(s, 1, status);
	bind_text(s, 2, error);
	bind_text(s, 3, now);
	sqlite3_bind_int64(s, 4, run_id);
	if (sqlite3_step(s) != SQLITE_DONE)
		db_fail(st, err, "could not finish the run");
	else
		rc = 0;
	sqlite3_finalize(s);
	return rc;
}

int
store_bisect_begin(struct store *st, const struct store_bisect *b, int64_t *id,
				   struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;
	char now[32];
	int rc = -1;

	now_text(now, sizeof(now));
	if (sqlite3_prepare_v2(st->db,
						   "INSERT INTO bisect (recipe, source, good, bad,"
						   " commits, metric, margin, command_line,"
						   " started_at, status)"
						   " VALUES (?,?,?,?,?,?,?,?,?,'running')",
						   -1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not store the bisect");
	bind_text(s, 1, b->recipe);
	bind_text(s, 2, b->source);
	bind_text(s, 3, b->good);
	bind_text(s, 4, b->bad);
	sqlite3_bind_int(s, 5, b->commits);
	bind_text(s, 6, b->metric);
	if (b->margin > 0)
		sqlite3_bind_double(s, 7, b->margin);
	else
		sqlite3_bind_null(s, 7);
	bind_text(s, 8, b->command_line);
	bind_text(s, 9, now);
	if (sqlite3_step(s) != SQLITE_DONE)
		db_fail(st, err, "could not store the bisect");
	else
	{
		*id = sqlite3_last_insert_rowid(st->db);
		rc = 0;
	}
	sqlite3_finalize(s);
	return rc;
}

int
store_bisect_step(struct store *st, int64_t bisect_id,
				  const struct store_bisect_step *step, struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(
			st->db,
			"INSERT INTO bisect_step (bisect_id, step, revision,"
			" run_id, outcome, detail) VALUES (?,?,?,?,?,?)",
			-1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not store a bisect step");
	sqlite3_bind_int64(s, 1, bisect_id);
	sqlite3_bind_int(s, 2, step->step);
	bind_text(s, 3, step->revision);
	if (step->run_id > 0)
		sqlite3_bind_int64(s, 4, step->run_id);
	else
		sqlite3_bind_null(s, 4);
	bind_text(s, 5, step->outcome);
	bind_text(s, 6, step->detail);
	if (sqlite3_step(s) != SQLITE_DONE)
		db_fail(st, err, "could not store a bisect step");
	else
		rc = 0;
	sqlite3_finalize(s);
	return rc;
}

int
store_bisect_finish(struct store *st, int64_t bisect_id, const char *status,
					const char *first_bad, const char *error,
					struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;
	char now[32];
	int rc = -1;

	now_text(now, sizeof(now));
	if (sqlite3_prepare_v2(st->db,
						   "UPDATE bisect SET status = ?, first_bad = ?,"
						   " error = ?, ended_at = ? WHERE id = ?",
						   -1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not finish the bisect");
	bind_text(s, 1, status);
	bind_text(s, 2, first_bad);
	bind_text(s, 3, error);
	bind_text(s, 4, now);
	sqlite3_bind_int64(s, 5, bisect_id);
	if (sqlite3_step(s) != SQLITE_DONE)
		db_fail(st, err, "could not finish the bisect");
	else
		rc = 0;
	sqlite3_finalize(s);
	return rc;
}

/* ------------------------------------------------------------- reading */

static char *
col_text(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return t ? xstrdup((const char *) t) : NULL;
}

/* Fill one result row (zeroed, of the caller's type) from S's current row. */
typedef void (*fill_row_fn)(sqlite3_stmt *s, void *row);

/*
 * Step the prepared S to its end, one row of SIZE bytes each filled by
 * FILL, into a new array *OUT of *N; finalize S.  WHAT names the rows in
 * the error.
 */
static int
collect_rows(struct store *st, sqlite3_stmt *s, size_t size, fill_row_fn fill,
			 void **out, int *n, const char *what, struct pgc_error *err)
{
	char *rows = NULL;
	int cap = 0, rc;

	*n = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
	{
		if (*n == cap)
		{
			cap = cap ? 2 * cap : 16;
			rows = xrealloc(rows, (size_t) cap * size);
		}
		memset(rows + (size_t) *n * size, 0, size);
		fill(s, rows + (size_t) (*n)++ * size);
	}
	sqlite3_finalize(s);
	*out = rows;
	if (rc != SQLITE_DONE)
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
	sqlite3_stmt *s = NULL;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
	{
		char msg[128];

		snprintf(msg, sizeof(msg), "could not read %s", what);
		return db_fail(st, err, msg);
	}
	for (int i = 0; i < nparams; i++)
		sqlite3_bind_int64(s, i + 1, params[i]);
	return collect_rows(st, s, size, fill, out, n, what, err);
}

#define RUN_COLUMNS                                                            \
	"r.id, r.recipe, r.recipe_path, r.recipe_sha256, r.command_line,"          \
	" r.tool_version, r.seed,"                                                 \
	" coalesce(r.host_name, '?') || ': ' || coalesce(r.host_cpu, '?') || ', '" \
	"   || coalesce(r.host_cores, '?') || ' cores, '"                          \
	"   || printf('%.1f', coalesce(r.host_mem_bytes, 0) / 1073741824.0)"       \
	"   || ' GiB, ' || coalesce(r.host_kernel, '?'),"                          \
	" r.started_at, r.ended_at, r.status, r.error,"                            \
	" (SELECT count(*) FROM point p WHERE p.run_id = r.id),"                   \
	" (SELECT group_concat(name, ',') FROM variant v WHERE v.run_id = r.id),"  \
	" r.plan, r.script_files, r.measure, r.owner"

static void
read_run_row(sqlite3_stmt *s, struct store_run_row *r)
{
	r->id = sqlite3_column_int64(s, 0);
	r->recipe = col_text(s, 1);
	r->recipe_path = col_text(s, 2);
	r->recipe_sha256 = col_text(s, 3);
	r->command_line = col_text(s, 4);
	r->tool_version = col_text(s, 5);
	r->seed = sqlite3_column_int64(s, 6);
	r->host = col_text(s, 7);
	r->started_at = col_text(s, 8);
	r->ended_at = col_text(s, 9);
	r->status = col_text(s, 10);
	r->error = col_text(s, 11);
	r->npoints = sqlite3_column_int(s, 12);
	r->variants = col_text(s, 13);
	if (r->variants == NULL)
		r->variants = xstrdup("");
	r->plan = col_text(s, 14);
	r->script_files = col_text(s, 15);
	r->measure = col_text(s, 16);
	/* running, but the process that writes it is gone: it never will */
	{
		char *owner = col_text(s, 17);

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
	sqlite3_stmt *s = NULL;
	int n = 0, alloc = 16, rc;

	*rows = NULL;
	*nrows = 0;
	if (sqlite3_prepare_v2(
			st->db,
			"SELECT " RUN_COLUMNS " FROM run r"
			" WHERE (?1 IS NULL OR r.recipe = ?1)"
			"   AND (?2 IS NULL OR EXISTS (SELECT 1 FROM variant v"
			"        WHERE v.run_id = r.id AND v.name = ?2))"
			" ORDER BY r.id DESC LIMIT ?3",
			-1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not list runs");
	bind_text(s, 1, recipe);
	bind_text(s, 2, variant);
	sqlite3_bind_int(s, 3, limit > 0 ? limit : -1);
	*rows = xcalloc((size_t) alloc, sizeof(**rows));
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
	{
		if (n == alloc)
		{
			alloc *= 2;
			*rows = xrealloc(*rows, (size_t) alloc * sizeof(**rows));
		}
		read_run_row(s, &(*rows)[n++]);
	}
	*nrows = n;
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
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
	sqlite3_stmt *s = NULL;
	int rc;

	if (sqlite3_prepare_v2(st->db,
						   "SELECT " RUN_COLUMNS " FROM run r WHERE r.id = ?",
						   -1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not read the run");
	sqlite3_bind_int64(s, 1, run_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
	{
		read_run_row(s, row);
		sqlite3_finalize(s);
		return 0;
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
	{
		error_set(err, PGC_ERR_USAGE, "no run %" PRId64 " in the store",
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
	sqlite3_stmt *s = NULL;
	int rc;

	*text = NULL;
	if (sqlite3_prepare_v2(st->db, "SELECT recipe_text FROM run WHERE id = ?",
						   -1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not read the recipe");
	sqlite3_bind_int64(s, 1, run_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*text = col_text(s, 0);
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
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
fill_variant(sqlite3_stmt *s, void *row)
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
						 " FROM variant WHERE run_id = ? ORDER BY rowid",
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

#define POINT_COLUMNS                                                         \
	"p.id, p.variant, p.workload, p.clients, p.jobs, p.repeat_idx,"           \
	" p.order_idx, p.protocol, p.duration_s, p.transactions, p.failures,"     \
	" p.failures_by_class, p.aborted_clients, p.tps, p.conn_ms,"              \
	" p.lat_avg_ms, p.lat_p50_ms, p.lat_p90_ms, p.lat_p99_ms,"                \
	" p.lat_p999_ms, p.lat_max_ms, p.prepare_ms, p.run_id, p.histogram,"      \
	" p.scale, p.retried, p.retries, p.skipped, p.late, p.lag_avg_ms,"        \
	" p.lag_max_ms, p.warmup_s, p.warmup"

static void
fill_point(sqlite3_stmt *s, void *row)
{
	struct store_point_row *p = row;

	p->id = sqlite3_column_int64(s, 0);
	p->variant = col_text(s, 1);
	p->workload = col_text(s, 2);
	p->clients = sqlite3_column_int(s, 3);
	p->jobs = sqlite3_column_int(s, 4);
	p->repeat_idx = sqlite3_column_int(s, 5);
	p->order_idx = sqlite3_column_int(s, 6);
	p->protocol = col_text(s, 7);
	p->duration_s = sqlite3_column_double(s, 8);
	p->transactions = (uint64_t) sqlite3_column_int64(s, 9);
	p->failures = (uint64_t) sqlite3_column_int64(s, 10);
	p->failures_by_class = col_text(s, 11);
	p->aborted_clients = sqlite3_column_int(s, 12);
	p->tps = sqlite3_column_double(s, 13);
	p->conn_ms = sqlite3_column_double(s, 14);
	p->lat_avg_ms = sqlite3_column_double(s, 15);
	p->lat_p50_ms = sqlite3_column_double(s, 16);
	p->lat_p90_ms = sqlite3_column_double(s, 17);
	p->lat_p99_ms = sqlite3_column_double(s, 18);
	p->lat_p999_ms = sqlite3_column_double(s, 19);
	p->lat_max_ms = sqlite3_column_double(s, 20);
	p->prepare_ms = sqlite3_column_double(s, 21);
	p->run_id = sqlite3_column_int64(s, 22);
	p->histogram = col_text(s, 23);
	p->scale = sqlite3_column_int(s, 24);
	p->retried = (uint64_t) sqlite3_column_int64(s, 25);
	p->retries = (uint64_t) sqlite3_column_int64(s, 26);
	p->skipped = (uint64_t) sqlite3_column_int64(s, 27);
	p->late = (uint64_t) sqlite3_column_int64(s, 28);
	p->lag_avg_ms = sqlite3_column_double(s, 29);
	p->lag_max_ms = sqlite3_column_double(s, 30);
	p->warmup_s = sqlite3_column_double(s, 31);
	p->warmup = col_text(s, 32);
}

static int
read_points(struct store *st, sqlite3_stmt *s, struct store_point_row **rows,
			int *nrows, struct pgc_error *err)
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
	sqlite3_stmt *s = NULL;

	*rows = NULL;
	*nrows = 0;
	if (sqlite3_prepare_v2(st->db,
						   "SELECT " POINT_COLUMNS " FROM point p"
						   " WHERE p.run_id = ? ORDER BY p.order_idx, p.id",
						   -1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not read points");
	sqlite3_bind_int64(s, 1, run_id);
	return read_points(st, s, rows, nrows, err);
}

int
store_select_points(struct store *st, const struct store_selector *sel,
					struct store_point_row **rows, int *nrows,
					struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;

	*rows = NULL;
	*nrows = 0;
	if (sqlite3_prepare_v2(
			st->db,
			"SELECT " POINT_COLUMNS " FROM point p"
			" WHERE p.run_id IN (SELECT r.id FROM run r"
			"   WHERE (?1 = 0 OR r.id = ?1)"
			"     AND (?2 IS NULL OR r.recipe = ?2)"
			"     AND EXISTS (SELECT 1 FROM point q WHERE q.run_id = r.id"
			"                 AND (?3 IS NULL OR q.variant = ?3))"
			"   ORDER BY r.id DESC LIMIT ?4)"
			"   AND (?3 IS NULL OR p.variant = ?3)"
			" ORDER BY p.run_id, p.order_idx, p.id",
			-1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not select points");
	sqlite3_bind_int64(s, 1, sel->run_id);
	bind_text(s, 2, sel->recipe);
	bind_text(s, 3, sel->variant);
	sqlite3_bind_int(s, 4, sel->last > 0 ? sel->last : -1);
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

int
store_get_scripts(struct store *st, int64_t point_id,
				  struct store_script_row **rows, int *nrows,
				  struct pgc_error *err)
{
	sqlite3_stmt *s = NULL, *t = NULL;
	int n = 0, rc;

	*rows = NULL;
	*nrows = 0;
	if (sqlite3_prepare_v2(
			st->db,
			"SELECT j.key, json_extract(j.value, '$.name'),"
			" json_extract(j.value, '$.weight'),"
			" json_extract(j.value, '$.transactions'),"
			" json_extract(j.value, '$.failures'),"
			" json_extract(j.value, '$.retried'),"
			" json_extract(j.value, '$.latency_avg_ms')"
			" FROM point p, json_each(p.scripts) j WHERE p.id = ?"
			" ORDER BY j.key",
			-1, &s, NULL) != SQLITE_OK ||
		sqlite3_prepare_v2(
			st->db,
			"SELECT json_extract(j.value, '$.line'),"
			" json_extract(j.value, '$.command'),"
			" json_extract(j.value, '$.latency_avg_ms'),"
			" json_extract(j.value, '$.failures'),"
			" json_extract(j.value, '$.retries')"
			" FROM point p, json_each(p.scripts, '$[' || ? || '].statements') j"
			" WHERE p.id = ? ORDER BY j.key",
			-1, &t, NULL) != SQLITE_OK)
	{
		sqlite3_finalize(s);
		return db_fail(st, err, "could not read the scripts of a point");
	}
	sqlite3_bind_int64(s, 1, point_id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
	{
		struct store_script_row *r;

		*rows = xrealloc(*rows, (size_t) (n + 1) * sizeof(**rows));
		r = &(*rows)[n++];
		memset(r, 0, sizeof(*r));
		r->name = col_text(s, 1);
		r->weight = sqlite3_column_int(s, 2);
		r->transactions = (uint64_t) sqlite3_column_int64(s, 3);
		r->failures = (uint64_t) sqlite3_column_int64(s, 4);
		r->retried = (uint64_t) sqlite3_column_int64(s, 5);
		r->lat_avg_ms = sqlite3_column_double(s, 6);
		sqlite3_reset(t);
		sqlite3_bind_int(t, 1, sqlite3_column_int(s, 0));
		sqlite3_bind_int64(t, 2, point_id);
		while (sqlite3_step(t) == SQLITE_ROW)
		{
			struct store_statement_row *st_row;

			r->statements =
				xrealloc(r->statements, (size_t) (r->nstatements + 1) *
											sizeof(*r->statements));
			st_row = &r->statements[r->nstatements++];
			st_row->line = sqlite3_column_int(t, 0);
			st_row->command = col_text(t, 1);
			st_row->lat_avg_ms = sqlite3_column_double(t, 2);
			st_row->failures = (uint64_t) sqlite3_column_int64(t, 3);
			st_row->retries = (uint64_t) sqlite3_column_int64(t, 4);
		}
	}
	sqlite3_finalize(s);
	sqlite3_finalize(t);
	*nrows = n;
	if (rc != SQLITE_DONE)
		return db_fail(st, err, "could not read the scripts of a point");
	return 0;
}

/*
 * Insert N rows in one transaction: SQL prepared once, BIND(stmt, i,
 * arg) binding row I.  WHAT names them in an error.
 */
static int
insert_rows(struct store *st, const char *sql, int n,
			void (*bind)(sqlite3_stmt *s, int i, const void *arg),
			const void *arg, const char *what, struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;

	if (exec_sql(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		goto fail;
	for (int i = 0; i < n; i++)
	{
		sqlite3_reset(s);
		bind(s, i, arg);
		if (sqlite3_step(s) != SQLITE_DONE)
			goto fail;
	}
	sqlite3_finalize(s);
	s = NULL;
	if (exec_sql(st, "COMMIT", err) < 0)
	{
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;

fail:
{
	char msg[128];

	snprintf(msg, sizeof(msg), "could not store %s", what);
	db_fail(st, err, msg);
}
	sqlite3_finalize(s);
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

struct sample_rows
{
	int64_t run_id;
	int order_idx;
	const struct store_sample_row *rows;
};

static void
bind_sample(sqlite3_stmt *s, int i, const void *arg)
{
	const struct sample_rows *x = arg;
	const struct store_sample_row *r = &x->rows[i];

	sqlite3_bind_int64(s, 1, x->run_id);
	sqlite3_bind_int(s, 2, x->order_idx);
	bind_text(s, 3, r->node);
	sqlite3_bind_int(s, 4, r->second);
	sqlite3_bind_int(s, 5, r->ok);
	sqlite3_bind_int64(s, 6, r->commits);
	bind_text(s, 7, r->conflicts);
	sqlite3_bind_int(s, 8, r->standby);
	if (r->standby)
	{
		sqlite3_bind_int64(s, 9, r->lag_bytes);
		if (r->lag_s >= 0)
			sqlite3_bind_double(s, 10, r->lag_s);
		else
			sqlite3_bind_null(s, 10);
	}
	else
	{
		sqlite3_bind_null(s, 9);
		sqlite3_bind_null(s, 10);
	}
	bind_text(s, 11, r->waits);
	sqlite3_bind_double(s, 12, r->query_ms);
	bind_text(s, 13, r->error);
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
		" conflicts, standby, lag_bytes, lag_s, waits, query_ms, error)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
		n, bind_sample, &x, "the samples", err);
}

static void
fill_sample(sqlite3_stmt *s, void *row)
{
	struct store_sample_row *r = row;

	r->node = col_text(s, 0);
	r->second = sqlite3_column_int(s, 1);
	r->ok = sqlite3_column_int(s, 2) != 0;
	r->commits = sqlite3_column_int64(s, 3);
	r->conflicts = col_text(s, 4);
	r->standby = sqlite3_column_int(s, 5) != 0;
	r->lag_bytes = sqlite3_column_int64(s, 6);
	r->lag_s = sqlite3_column_type(s, 7) == SQLITE_NULL
				   ? -1
				   : sqlite3_column_double(s, 7);
	r->waits = col_text(s, 8);
	r->query_ms = sqlite3_column_double(s, 9);
	r->error = col_text(s, 10);
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
						 " standby, lag_bytes, lag_s, waits, query_ms, error"
						 " FROM sample WHERE run_id = ? AND order_idx = ?"
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
bind_profile(sqlite3_stmt *s, int i, const void *arg)
{
	const struct profile_rows *x = arg;

	sqlite3_bind_int64(s, 1, x->run_id);
	sqlite3_bind_int(s, 2, x->order_idx);
	bind_text(s, 3, x->node);
	sqlite3_bind_int(s, 4, i);
	bind_text(s, 5, x->rows[i].dso);
	bind_text(s, 6, x->rows[i].symbol);
	sqlite3_bind_double(s, 7, x->rows[i].pct);
	sqlite3_bind_int64(s, 8, (sqlite3_int64) x->rows[i].samples);
	sqlite3_bind_int(s, 9, x->rows[i].hz);
	if (x->rows[i].inclusive >= 0)
		sqlite3_bind_double(s, 10, x->rows[i].inclusive);
	else
		sqlite3_bind_null(s, 10);
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
fill_profile(sqlite3_stmt *s, void *row)
{
	struct store_profile_row *r = row;

	r->node = col_text(s, 0);
	r->dso = col_text(s, 1);
	r->symbol = col_text(s, 2);
	r->pct = sqlite3_column_double(s, 3);
	r->samples = (uint64_t) sqlite3_column_int64(s, 4);
	r->hz = sqlite3_column_int(s, 5);
	r->inclusive = sqlite3_column_type(s, 6) == SQLITE_NULL
					   ? -1
					   : sqlite3_column_double(s, 6);
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
fill_event(sqlite3_stmt *s, void *row)
{
	struct store_event_row *r = row;

	r->seq = sqlite3_column_int(s, 0);
	r->planned_s = sqlite3_column_double(s, 1);
	r->actual_s = sqlite3_column_double(s, 2);
}

int
store_look_add(struct store *st, int64_t run_id, const struct store_look *l,
			   struct pgc_error *err)
{
	sqlite3_stmt *s = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(
			st->db,
			"INSERT INTO look (run_id, look, blocks, confidence,"
			" elapsed_s, outcome, stop, detail)"
			" VALUES (?,?,?,?,?,?,?,?)",
			-1, &s, NULL) != SQLITE_OK)
		return db_fail(st, err, "could not store a look");
	sqlite3_bind_int64(s, 1, run_id);
	sqlite3_bind_int(s, 2, l->look);
	sqlite3_bind_int(s, 3, l->blocks);
	sqlite3_bind_double(s, 4, l->confidence);
	sqlite3_bind_double(s, 5, l->elapsed_s);
	bind_text(s, 6, l->outcome);
	bind_text(s, 7, l->stop);
	bind_text(s, 8, l->detail);
	if (sqlite3_step(s) != SQLITE_DONE)
		db_fail(st, err, "could not store a look");
	else
		rc = 0;
	sqlite3_finalize(s);
	return rc;
}

static void
fill_look(sqlite3_stmt *s, void *row)
{
	struct store_look *l = row;

	l->look = sqlite3_column_int(s, 0);
	l->blocks = sqlite3_column_int(s, 1);
	l->confidence = sqlite3_column_double(s, 2);
	l->elapsed_s = sqlite3_column_double(s, 3);
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
fill_window(sqlite3_stmt *s, void *row)
{
	struct store_window_row *r = row;

	r->name = col_text(s, 0);
	r->start_s = sqlite3_column_int(s, 1);
	r->end_s = sqlite3_column_int(s, 2);
	r->tps = sqlite3_column_double(s, 3);
	r->has_dip = sqlite3_column_type(s, 4) != SQLITE_NULL;
	r->dip = r->has_dip ? sqlite3_column_double(s, 4) : NAN;
	r->recovery_s = sqlite3_column_type(s, 5) != SQLITE_NULL
						? sqlite3_column_double(s, 5)
						: NAN;
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
fill_series(sqlite3_stmt *s, void *row)
{
	struct store_series_row *r = row;

	r->second = sqlite3_column_int(s, 0);
	r->transactions = (uint64_t) sqlite3_column_int64(s, 1);
	r->failures = (uint64_t) sqlite3_column_int64(s, 2);
	r->lat_avg_ms = sqlite3_column_double(s, 3);
	r->lat_max_ms = sqlite3_column_double(s, 4);
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
