/*
 * sql.c - SQLite and PostgreSQL behind one statement interface; see
 * sql_int.h for what differs between them and how.
 */
#include "sql_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* PostgreSQL's type OIDs: of the values bound, and read (pg_type.h) */
#define INT2OID    21
#define INT4OID    23
#define INT8OID    20
#define FLOAT4OID  700
#define FLOAT8OID  701
#define NUMERICOID 1700
#define TEXTOID    25

/* The advisory lock that serializes migrations: "pgcl" */
#define MIGRATION_LOCK "1885823852"

/* How long a lock is waited for, unless sql_wait_for_locks() or
 * sql_set_busy_timeout() says. */
#define BUSY_TIMEOUT_NS ((int64_t) 30 * 1000000000)
/* When the wait is told (on_wait), the first time */
#define BUSY_TELL_NS ((int64_t) 2 * 1000000000)

struct sql
{
	enum sql_backend backend;
	sqlite3 *lite;
	PGconn *pg;
	char *name;
	char errmsg[1024];
	/* SQLite's lock waits */
	volatile sig_atomic_t *interrupt;
	void (*on_wait)(void *arg, double waited_s);
	void *wait_arg;
	int64_t busy_since_ns;
	int64_t next_tell_ns;
	int64_t busy_timeout_ns;
	bool impatient; /* SQLite: a lock held elsewhere fails at once */
	bool read_only; /* PostgreSQL: set again on a new session */
};

#define MAX_PARAMS 64

struct sql_stmt
{
	struct sql *db;
	sqlite3_stmt *lite;
	/* PostgreSQL: the text with $N, the values bound, the result read */
	char *text;
	char *values[MAX_PARAMS];
	unsigned int types[MAX_PARAMS];
	int nparams;
	PGresult *res;
	int row, nrows;
	bool ran;
};

bool
sql_names_postgres(const char *target)
{
	PQconninfoOption *opts;
	char *msg = NULL;

	if (target == NULL)
		return false;
	if (strncmp(target, "postgresql://", 13) == 0 ||
		strncmp(target, "postgres://", 11) == 0)
		return true;
	/* "dbname=x host=y": a path with '=' does not parse as one */
	if (strchr(target, '=') == NULL)
		return false;
	opts = PQconninfoParse(target, &msg);
	PQfreemem(msg);
	if (opts == NULL)
		return false;
	PQconninfoFree(opts);
	return true;
}

enum sql_backend
sql_backend(const struct sql *db)
{
	return db->backend;
}

const char *
sql_name(const struct sql *db)
{
	return db->name;
}

const char *
sql_pg_host(const struct sql *db, bool addr)
{
	const char *h;

	if (db->backend != SQL_POSTGRES || db->pg == NULL)
		return NULL;
	h = addr ? PQhostaddr(db->pg) : PQhost(db->pg);
	return h && h[0] ? h : NULL;
}

const char *
sql_errmsg(const struct sql *db)
{
	return db->errmsg;
}

static void
lite_error(struct sql *db)
{
	int sys = sqlite3_system_errno(db->lite);
	int code = sqlite3_errcode(db->lite);

	/* "disk I/O error" says little: the OS's reason does (a full disk) */
	if (sys != 0 && (code == SQLITE_IOERR || code == SQLITE_FULL ||
					 code == SQLITE_CANTOPEN))
		snprintf(db->errmsg, sizeof(db->errmsg), "%s (%s)",
				 sqlite3_errmsg(db->lite), strerror(sys));
	else
		snprintf(db->errmsg, sizeof(db->errmsg), "%s",
				 sqlite3_errmsg(db->lite));
}

/* libpq's message, on one line, without its trailing newline. */
static void
pg_error(struct sql *db, const PGresult *res)
{
	const char *m = res ? PQresultErrorMessage(res) : "";
	size_t n;

	if (m == NULL || m[0] == '\0')
		m = PQerrorMessage(db->pg);
	snprintf(db->errmsg, sizeof(db->errmsg), "%s", m);
	n = strlen(db->errmsg);
	while (n > 0 && isspace((unsigned char) db->errmsg[n - 1]))
		db->errmsg[--n] = '\0';
	for (char *p = db->errmsg; *p; p++)
		if (*p == '\n')
			*p = ' ';
	if (db->errmsg[0] == '\0')
		snprintf(db->errmsg, sizeof(db->errmsg), "the connection failed");
}

/* ------------------------------------------------------------ opening */

/*
 * SQLite's busy handler: wait another moment for a lock another process
 * holds (0: give up, SQLITE_BUSY).  Short sleeps first, as SQLite's own.
 */
static int
busy_wait(void *arg, int count)
{
	struct sql *db = arg;
	int64_t now = clock_now_ns(), waited;

	if (count == 0)
	{
		db->busy_since_ns = now;
		db->next_tell_ns = now + BUSY_TELL_NS;
	}
	if (db->impatient)
		return 0;
	waited = now - db->busy_since_ns;
	/* once interrupted, the wait is the ordinary one again: what is left
	 * to store (the run's end) is still stored if the lock goes soon */
	if ((db->interrupt == NULL || *db->interrupt) &&
		waited >= db->busy_timeout_ns)
		return 0;
	if (db->on_wait && now >= db->next_tell_ns)
	{
		db->next_tell_ns += db->busy_timeout_ns;
		db->on_wait(db->wait_arg, (double) waited / 1e9);
	}
	usleep(count < 20 ? 1000 : 20000);
	return 1;
}

void
sql_wait_for_locks(struct sql *db, volatile sig_atomic_t *interrupt,
				   void (*on_wait)(void *arg, double waited_s), void *arg)
{
	db->interrupt = interrupt;
	db->on_wait = on_wait;
	db->wait_arg = arg;
}

void
sql_set_busy_timeout(struct sql *db, int64_t ns)
{
	db->busy_timeout_ns = ns > 0 ? ns : BUSY_TIMEOUT_NS;
}

void
sql_set_patient(struct sql *db, bool patient)
{
	db->impatient = !patient;
}

void
sql_set_cache_kib(struct sql *db, int kib)
{
	char q[64];

	if (db->backend != SQL_SQLITE)
		return;
	/* a negative size is in KiB; a cache size cannot fail to be set */
	snprintf(q, sizeof(q), "PRAGMA cache_size = -%d", kib);
	sqlite3_exec(db->lite, q, NULL, NULL, NULL);
}

/*
 * An SQLite file is code as well as data: a file someone hands over may
 * hold triggers and views that run when pgcliff reads or writes it, and
 * functions of the schema.  pgcliff makes none, so they are all off, and
 * the schema cannot be written but by DDL (SQLite's defensive mode).
 */
static void
lite_harden(sqlite3 *lite)
{
	sqlite3_db_config(lite, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(lite, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(lite, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(lite, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
}

int
sql_code_object(struct sql *db, char *what, size_t size)
{
	sqlite3_stmt *s;
	int rc = 0;

	what[0] = '\0';
	if (db->backend != SQL_SQLITE)
		return 0;
	if (sqlite3_prepare_v2(db->lite,
						   "SELECT type, name FROM sqlite_master"
						   " WHERE type IN ('trigger', 'view') ORDER BY name",
						   -1, &s, NULL) != SQLITE_OK)
	{
		lite_error(db);
		return -1;
	}
	if (sqlite3_step(s) == SQLITE_ROW)
	{
		snprintf(what, size, "%s \"%s\"", sqlite3_column_text(s, 0),
				 sqlite3_column_text(s, 1));
		rc = 1;
	}
	sqlite3_finalize(s);
	return rc;
}

struct sql *
sql_open_sqlite(const char *path, bool read_only, struct pgc_error *err)
{
	struct sql *db = xcalloc(1, sizeof(*db));
	int flags = read_only ? SQLITE_OPEN_READONLY
						  : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

	db->backend = SQL_SQLITE;
	db->name = xstrdup(path);
	db->busy_timeout_ns = BUSY_TIMEOUT_NS;
	if (sqlite3_open_v2(path, &db->lite, flags | SQLITE_OPEN_NOMUTEX, NULL) !=
		SQLITE_OK)
	{
		if (db->lite == NULL)
			error_set(err, PGC_ERR_STORE, "could not open store \"%s\"", path);
		else
		{
			lite_error(db);
			error_set(err, PGC_ERR_STORE, "could not open store: %s",
					  db->errmsg);
			error_detail(err, "store: %s", path);
		}
		sql_close(db);
		return NULL;
	}
	lite_harden(db->lite);
	sqlite3_busy_handler(db->lite, busy_wait, db);
	return db;
}

/* "postgresql://USER@HOST:PORT/DB" of CONN: what messages name. */
static char *
pg_display_name(PGconn *conn)
{
	const char *host = PQhost(conn);

	/* a socket directory is a host too, and would read as a path */
	return xasprintf("postgresql://%s@%s%s:%s/%s", PQuser(conn),
					 host && host[0] == '/' ? "" : host,
					 host && host[0] == '/' ? "[local]" : "", PQport(conn),
					 PQdb(conn));
}

static void
quiet_notice(void *arg, const char *message)
{
	(void) arg;
	(void) message;
}

/*
 * What every session of a PostgreSQL store is set up with: floats read
 * back exactly; a reader writes nothing, whatever its rights (a role with
 * SELECT alone reads as well).
 */
static int
pg_session_setup(struct sql *db)
{
	if (sql_exec(db, "SET extra_float_digits = 3") < 0 ||
		sql_exec(db, "SET client_min_messages = warning") < 0 ||
		(db->read_only &&
		 sql_exec(db, "SET default_transaction_read_only = on") < 0))
		return -1;
	return 0;
}

struct sql *
sql_open_postgres(const char *conninfo, bool read_only, struct pgc_error *err)
{
	/* the conninfo's own settings win over these defaults (expand_dbname) */
	const char *const keys[] = {"application_name", "connect_timeout",
								"dbname", NULL};
	const char *const vals[] = {"pgcliff", "10", conninfo, NULL};
	struct sql *db = xcalloc(1, sizeof(*db));

	db->backend = SQL_POSTGRES;
	db->pg = PQconnectdbParams(keys, vals, 1);
	if (db->pg == NULL || PQstatus(db->pg) != CONNECTION_OK)
	{
		if (db->pg)
			pg_error(db, NULL);
		error_set(err, PGC_ERR_STORE,
				  "could not connect to the PostgreSQL store: %s",
				  db->pg ? db->errmsg : "out of memory");
		error_hint(err, "--db and PGCLIFF_DB take a postgresql:// URI or a "
						"conninfo; libpq's PG* variables fill in the rest");
		sql_close(db);
		return NULL;
	}
	/* a library prints nothing: the store's notices and warnings (an
	 * advisory lock a new session no longer holds) are not the user's */
	PQsetNoticeProcessor(db->pg, quiet_notice, NULL);
	db->name = pg_display_name(db->pg);
	db->read_only = read_only;
	if (pg_session_setup(db) < 0)
	{
		error_set(err, PGC_ERR_STORE, "could not set up the store: %s",
				  db->errmsg);
		error_detail(err, "store: %s", db->name);
		sql_close(db);
		return NULL;
	}
	return db;
}

bool
sql_lost(const struct sql *db)
{
	return db->backend == SQL_POSTGRES && PQstatus(db->pg) == CONNECTION_BAD;
}

int
sql_reconnect(struct sql *db, struct pgc_error *err)
{
	if (db->backend != SQL_POSTGRES)
		return 0;
	PQreset(db->pg);
	if (PQstatus(db->pg) != CONNECTION_OK)
	{
		pg_error(db, NULL);
		error_set(err, PGC_ERR_STORE,
				  "could not connect to the PostgreSQL store again: %s",
				  db->errmsg);
		error_detail(err, "store: %s", db->name);
		return -1;
	}
	if (pg_session_setup(db) < 0)
	{
		error_set(err, PGC_ERR_STORE, "could not set up the store: %s",
				  db->errmsg);
		error_detail(err, "store: %s", db->name);
		return -1;
	}
	return 0;
}

void
sql_close(struct sql *db)
{
	if (db == NULL)
		return;
	if (db->lite)
		sqlite3_close(db->lite);
	if (db->pg)
		PQfinish(db->pg);
	free(db->name);
	free(db);
}

int
sql_copy_to_memory(struct sql *db)
{
	sqlite3 *mem = NULL;
	sqlite3_backup *b;

	if (db->backend != SQL_SQLITE)
		return -1;
	if (sqlite3_open(":memory:", &mem) != SQLITE_OK ||
		(b = sqlite3_backup_init(mem, "main", db->lite, "main")) == NULL)
	{
		snprintf(db->errmsg, sizeof(db->errmsg), "%s",
				 mem ? sqlite3_errmsg(mem) : "out of memory");
		sqlite3_close(mem);
		return -1;
	}
	sqlite3_backup_step(b, -1);
	if (sqlite3_backup_finish(b) != SQLITE_OK)
	{
		snprintf(db->errmsg, sizeof(db->errmsg), "%s", sqlite3_errmsg(mem));
		sqlite3_close(mem);
		return -1;
	}
	sqlite3_close(db->lite);
	db->lite = mem;
	lite_harden(mem);
	return 0;
}

/* ------------------------------------------------------------ dialect */

/* Whether S[I..] starts the word WORD (uppercase, at word boundaries). */
static bool
word_at(const char *s, size_t i, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(s + i, word, n) != 0)
		return false;
	if (i > 0 && (isalnum((unsigned char) s[i - 1]) || s[i - 1] == '_'))
		return false;
	return !(isalnum((unsigned char) s[i + n]) || s[i + n] == '_');
}

char *
sql_dollar_params(const char *sql)
{
	struct strbuf sb = STRBUF_INIT;
	int next = 0;
	char quote = 0;

	for (const char *p = sql; *p; p++)
	{
		if (quote)
		{
			if (*p == quote)
				quote = 0;
			strbuf_addch(&sb, *p);
		}
		else if (*p == '\'' || *p == '"')
		{
			quote = *p;
			strbuf_addch(&sb, *p);
		}
		else if (*p == '?')
		{
			if (isdigit((unsigned char) p[1]))
			{
				char *end;
				long n = strtol(p + 1, &end, 10);

				strbuf_addf(&sb, "$%ld", n);
				if (n > next)
					next = (int) n;
				p = end - 1;
			}
			else
				strbuf_addf(&sb, "$%d", ++next);
		}
		else if (word_at(sql, (size_t) (p - sql), "group_concat"))
		{
			strbuf_addstr(&sb, "string_agg");
			p += strlen("group_concat") - 1;
		}
		else
			strbuf_addch(&sb, *p);
	}
	return strbuf_detach(&sb);
}

char *
sql_postgres_ddl(const char *sql)
{
	static const struct
	{
		const char *from, *to;
	} words[] = {
		{"INTEGER PRIMARY KEY",
		 "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"},
		{"INTEGER", "BIGINT"},
		{"REAL", "DOUBLE PRECISION"},
		{"WITHOUT ROWID", ""},
	};
	struct strbuf sb = STRBUF_INIT;
	char quote = 0;

	for (size_t i = 0; sql[i]; i++)
	{
		size_t k = lengthof(words);

		if (quote && sql[i] == quote)
			quote = 0;
		else if (!quote && (sql[i] == '\'' || sql[i] == '"'))
			quote = sql[i];
		else if (!quote)
			for (k = 0; k < lengthof(words); k++)
				if (word_at(sql, i, words[k].from))
					break;
		if (k < lengthof(words))
		{
			strbuf_addstr(&sb, words[k].to);
			i += strlen(words[k].from) - 1;
		}
		else
			strbuf_addch(&sb, sql[i]);
	}
	return strbuf_detach(&sb);
}

/* ----------------------------------------------------------- commands */

int
sql_exec(struct sql *db, const char *sql)
{
	if (db->backend == SQL_SQLITE)
	{
		char *msg = NULL;

		if (sqlite3_exec(db->lite, sql, NULL, NULL, &msg) != SQLITE_OK)
		{
			lite_error(db);
			sqlite3_free(msg);
			return -1;
		}
		return 0;
	}
	{
		PGresult *res = PQexec(db->pg, sql);
		ExecStatusType s = PQresultStatus(res);
		int rc = 0;

		if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
		{
			pg_error(db, res);
			rc = -1;
		}
		PQclear(res);
		return rc;
	}
}

int
sql_exec_ddl(struct sql *db, const char *sql)
{
	char *pg;
	int rc;

	if (db->backend == SQL_SQLITE)
		return sql_exec(db, sql);
	pg = sql_postgres_ddl(sql);
	rc = sql_exec(db, pg);
	free(pg);
	return rc;
}

int
sql_begin_write(struct sql *db)
{
	return sql_exec(db,
					db->backend == SQL_SQLITE ? "BEGIN IMMEDIATE" : "BEGIN");
}

int
sql_lock_migrations(struct sql *db)
{
	/* SQLite: BEGIN IMMEDIATE holds the only write lock already */
	if (db->backend == SQL_SQLITE)
		return 0;
	return sql_exec(db, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK ")");
}

void
sql_rollback(struct sql *db)
{
	char keep[sizeof(db->errmsg)];

	/* the error that made us roll back is the one to tell */
	memcpy(keep, db->errmsg, sizeof(keep));
	(void) sql_exec(db, "ROLLBACK");
	memcpy(db->errmsg, keep, sizeof(keep));
}

/* The integer of a one-row, one-column query; DFLT if it has no row. */
static int
query_int(struct sql *db, const char *sql, int dflt)
{
	struct sql_stmt *s = sql_prepare(db, sql);
	int v = -1, rc;

	if (s == NULL)
		return -1;
	rc = sql_step(s);
	if (rc == SQL_ROW)
		v = sql_col_int(s, 0);
	else if (rc == SQL_DONE)
		v = dflt;
	sql_finalize(s);
	return v;
}

int
sql_schema_version(struct sql *db)
{
	if (db->backend == SQL_SQLITE)
		return query_int(db, "PRAGMA user_version", -1);
	switch (query_int(db,
					  "SELECT count(*) FROM pg_catalog.pg_tables"
					  " WHERE schemaname = current_schema()"
					  " AND tablename = 'pgcliff_schema'",
					  -1))
	{
		case 0:
			return 0;
		case 1:
			return query_int(db, "SELECT version FROM pgcliff_schema", 0);
		default:
			return -1;
	}
}

int
sql_set_schema_version(struct sql *db, int version)
{
	char q[256];

	if (db->backend == SQL_SQLITE)
	{
		snprintf(q, sizeof(q), "PRAGMA user_version = %d", version);
		return sql_exec(db, q);
	}
	snprintf(q, sizeof(q),
			 "CREATE TABLE IF NOT EXISTS pgcliff_schema (version integer"
			 " NOT NULL);"
			 "DELETE FROM pgcliff_schema;"
			 "INSERT INTO pgcliff_schema VALUES (%d)",
			 version);
	return sql_exec(db, q);
}

int
sql_foreign(struct sql *db)
{
	int tables;

	if (db->backend == SQL_SQLITE)
		tables = query_int(db, "SELECT count(*) FROM sqlite_master", -1);
	else
		tables = query_int(
			db,
			"SELECT count(*) FROM pg_catalog.pg_tables"
			" WHERE schemaname = current_schema() AND tablename IN"
			" ('run', 'variant', 'point', 'series', 'event', 'window_stat',"
			"  'sample', 'look', 'profile', 'bisect', 'bisect_step')",
			-1);
	if (tables < 0)
		return -1;
	if (tables == 0)
		return 0;
	return sql_schema_version(db) > 0 ? 0 : 1;
}

/* --------------------------------------------------------- statements */

struct sql_stmt *
sql_prepare(struct sql *db, const char *sql)
{
	struct sql_stmt *s = xcalloc(1, sizeof(*s));

	s->db = db;
	if (db->backend == SQL_SQLITE)
	{
		if (sqlite3_prepare_v2(db->lite, sql, -1, &s->lite, NULL) != SQLITE_OK)
		{
			lite_error(db);
			free(s);
			return NULL;
		}
		return s;
	}
	s->text = sql_dollar_params(sql);
	return s;
}

/* PostgreSQL: parameter I (1-based) takes V (copied) of type TYPE. */
static void
pg_bind(struct sql_stmt *s, int i, char *v, unsigned int type)
{
	if (i < 1 || i > MAX_PARAMS)
	{
		free(v);
		return;
	}
	free(s->values[i - 1]);
	s->values[i - 1] = v;
	s->types[i - 1] = type;
	if (i > s->nparams)
		s->nparams = i;
}

void
sql_bind_int64(struct sql_stmt *s, int i, int64_t v)
{
	if (s->lite)
		sqlite3_bind_int64(s->lite, i, v);
	else
		pg_bind(s, i, xasprintf("%" PRId64, v), INT8OID);
}

void
sql_bind_double(struct sql_stmt *s, int i, double v)
{
	if (s->lite)
		sqlite3_bind_double(s->lite, i, v); /* SQLite stores NaN as NULL */
	else if (isnan(v))
		pg_bind(s, i, NULL, FLOAT8OID);
	else if (isinf(v))
		pg_bind(s, i, xstrdup(v > 0 ? "Infinity" : "-Infinity"), FLOAT8OID);
	else
		pg_bind(s, i, xasprintf("%.17g", v), FLOAT8OID);
}

void
sql_bind_text(struct sql_stmt *s, int i, const char *v)
{
	if (s->lite)
	{
		if (v)
			sqlite3_bind_text(s->lite, i, v, -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(s->lite, i);
	}
	else
		/* text, NULL too: "? IS NULL OR col = ?" must know its type */
		pg_bind(s, i, v ? xstrdup(v) : NULL, TEXTOID);
}

void
sql_bind_null(struct sql_stmt *s, int i)
{
	if (s->lite)
		sqlite3_bind_null(s->lite, i);
	else
		pg_bind(s, i, NULL, 0);
}

int
sql_step(struct sql_stmt *s)
{
	ExecStatusType st;

	if (s->lite)
	{
		int rc = sqlite3_step(s->lite);

		if (rc == SQLITE_ROW)
			return SQL_ROW;
		if (rc == SQLITE_DONE)
			return SQL_DONE;
		lite_error(s->db);
		return SQL_ERROR;
	}
	if (s->ran)
	{
		if (s->res && ++s->row < s->nrows)
			return SQL_ROW;
		return SQL_DONE;
	}
	s->ran = true;
	s->res = PQexecParams(s->db->pg, s->text, s->nparams, s->types,
						  (const char *const *) s->values, NULL, NULL, 0);
	st = PQresultStatus(s->res);
	if (st == PGRES_COMMAND_OK)
		return SQL_DONE;
	if (st != PGRES_TUPLES_OK)
	{
		pg_error(s->db, s->res);
		PQclear(s->res);
		s->res = NULL;
		return SQL_ERROR;
	}
	s->row = 0;
	s->nrows = PQntuples(s->res);
	return s->nrows > 0 ? SQL_ROW : SQL_DONE;
}

void
sql_reset(struct sql_stmt *s)
{
	if (s->lite)
	{
		sqlite3_reset(s->lite);
		return;
	}
	PQclear(s->res);
	s->res = NULL;
	s->ran = false;
	s->row = s->nrows = 0;
	for (int i = 0; i < s->nparams; i++)
	{
		free(s->values[i]);
		s->values[i] = NULL;
		s->types[i] = 0;
	}
	s->nparams = 0;
}

void
sql_finalize(struct sql_stmt *s)
{
	if (s == NULL)
		return;
	if (s->lite)
		sqlite3_finalize(s->lite);
	else
	{
		sql_reset(s);
		free(s->text);
	}
	free(s);
}

/* PostgreSQL: the current row's value I, NULL for NULL. */
static const char *
pg_value(struct sql_stmt *s, int i)
{
	if (s->res == NULL || s->row >= s->nrows || i >= PQnfields(s->res) ||
		PQgetisnull(s->res, s->row, i))
		return NULL;
	return PQgetvalue(s->res, s->row, i);
}

bool
sql_col_null(struct sql_stmt *s, int i)
{
	if (s->lite)
		return sqlite3_column_type(s->lite, i) == SQLITE_NULL;
	return pg_value(s, i) == NULL;
}

int64_t
sql_col_int64(struct sql_stmt *s, int i)
{
	const char *v;

	if (s->lite)
		return sqlite3_column_int64(s->lite, i);
	v = pg_value(s, i);
	return v ? strtoll(v, NULL, 10) : 0;
}

int
sql_col_int(struct sql_stmt *s, int i)
{
	return (int) sql_col_int64(s, i);
}

double
sql_col_double(struct sql_stmt *s, int i)
{
	const char *v;

	if (s->lite)
		return sqlite3_column_double(s->lite, i);
	v = pg_value(s, i);
	return v ? strtod(v, NULL) : 0.0;
}

const char *
sql_col_text(struct sql_stmt *s, int i)
{
	if (s->lite)
		return (const char *) sqlite3_column_text(s->lite, i);
	return pg_value(s, i);
}

int
sql_col_count(struct sql_stmt *s)
{
	if (s->lite)
		return sqlite3_column_count(s->lite);
	return s->res ? PQnfields(s->res) : 0;
}

const char *
sql_col_name(struct sql_stmt *s, int i)
{
	if (s->lite)
		return sqlite3_column_name(s->lite, i);
	return s->res ? PQfname(s->res, i) : NULL;
}

enum sql_kind
sql_col_kind(struct sql_stmt *s, int i)
{
	if (s->lite)
		switch (sqlite3_column_type(s->lite, i))
		{
			case SQLITE_NULL:
				return SQL_KIND_NULL;
			case SQLITE_INTEGER:
				return SQL_KIND_INT;
			case SQLITE_FLOAT:
				return SQL_KIND_FLOAT;
			default:
				return SQL_KIND_TEXT;
		}
	if (pg_value(s, i) == NULL)
		return SQL_KIND_NULL;
	switch (PQftype(s->res, i))
	{
		case INT8OID:
		case INT4OID:
		case INT2OID:
			return SQL_KIND_INT;
		case FLOAT8OID:
		case FLOAT4OID:
		case NUMERICOID:
			return SQL_KIND_FLOAT;
		default:
			return SQL_KIND_TEXT;
	}
}

void
sql_library_versions(struct strbuf *out)
{
	int v = PQlibVersion();

	strbuf_addf(out, "libpq %d.%d, SQLite %s", v / 10000, v % 10000,
				sqlite3_libversion());
}
