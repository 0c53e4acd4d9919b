/*
 * sql_int.h - the store's two backends behind one statement interface
 * (internal to schemas/store).
 *
 * store.c writes every query once, in the SQL both engines read: "?" and
 * "?N" parameters, RETURNING, ON CONFLICT, standard functions only.  What
 * differs between SQLite and PostgreSQL is here and nowhere else:
 *   - parameters: "?N" becomes "$N" for libpq;
 *   - DDL (sql_exec_ddl): INTEGER PRIMARY KEY becomes an identity column,
 *     INTEGER bigint, REAL double precision, WITHOUT ROWID is dropped;
 *   - group_concat(x, sep) becomes string_agg(x, sep);
 *   - the schema version: PRAGMA user_version, or the pgcliff_schema table;
 *   - a write transaction: BEGIN IMMEDIATE, or BEGIN;
 *   - a migration's own statements for one backend (a random value);
 *   - a migration is serialized by SQLite's write lock, or by an advisory
 *     lock in PostgreSQL;
 *   - values: PostgreSQL receives and returns text; a NaN is bound as NULL
 *     on both, as SQLite stores it.
 */
#ifndef PGCLIFF_SQL_INT_H
#define PGCLIFF_SQL_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base.h"

struct sql;
struct sql_stmt;

enum sql_backend
{
	SQL_SQLITE,
	SQL_POSTGRES
};

enum sql_rc
{
	SQL_ERROR = -1,
	SQL_DONE = 0,
	SQL_ROW = 1
};

/* Whether TARGET names a PostgreSQL database: a URI or a conninfo. */
bool sql_names_postgres(const char *target);

/*
 * An SQLite file (or ":memory:") opened read-write (creating it) or
 * read-only; a PostgreSQL database from a URI or conninfo, whose every
 * transaction is read-only when READ_ONLY.  NULL on error, ERR set
 * (PGC_ERR_STORE).
 */
struct sql *sql_open_sqlite(const char *path, bool read_only,
							struct pgc_error *err);
struct sql *sql_open_postgres(const char *conninfo, bool read_only,
							  struct pgc_error *err);
void sql_close(struct sql *db);
/*
 * Whether DB's PostgreSQL session is gone (the server or the network
 * ended it); never for SQLite.  sql_reconnect() opens a new session with
 * the first one's settings (what it held, locks included, is gone): 0,
 * or -1 with ERR (PGC_ERR_STORE).  Nothing for SQLite.
 */
bool sql_lost(const struct sql *db);
int sql_reconnect(struct sql *db, struct pgc_error *err);
enum sql_backend sql_backend(const struct sql *db);

/*
 * A name for messages: the SQLite path, or "postgresql://USER@HOST:PORT/DB"
 * of the open connection (never its password).
 */
const char *sql_name(const struct sql *db);
/* A PostgreSQL connection's host (PQhost), or with ADDR its hostaddr
 * (PQhostaddr, NULL when none was given); NULL for SQLite. */
const char *sql_pg_host(const struct sql *db, bool addr);

/* The last error of DB, with the OS's reason where SQLite has one. */
const char *sql_errmsg(const struct sql *db);

/* Run SQL (one or more statements, no parameters); 0 or -1. */
int sql_exec(struct sql *db, const char *sql);
/* The same for schema statements, in the backend's dialect. */
int sql_exec_ddl(struct sql *db, const char *sql);
/* Begin a transaction that writes (SQLite: takes the lock now). */
int sql_begin_write(struct sql *db);
/* Within a transaction: wait until no other process migrates. */
int sql_lock_migrations(struct sql *db);
void sql_rollback(struct sql *db);

/* The schema version: 0 for an empty database, -1 on error. */
int sql_schema_version(struct sql *db);
int sql_set_schema_version(struct sql *db, int version);
/*
 * Whether the database holds tables but no schema version: another
 * program's (PostgreSQL: tables named as pgcliff's).  -1 on error.
 */
int sql_foreign(struct sql *db);
/* "libpq 15.18, SQLite 3.40.1" */
void sql_library_versions(struct strbuf *out);
/*
 * A trigger or view in an SQLite store (pgcliff makes none: a store file
 * from elsewhere may carry code) into WHAT, 'trigger "x"': 1, 0 when
 * there is none (or the store is PostgreSQL's), -1 on error.
 */
int sql_code_object(struct sql *db, char *what, size_t size);

/*
 * SQLite: lock waits (see store_wait_for_locks()).  Nothing for PostgreSQL,
 * whose server waits for its locks.
 */
void sql_wait_for_locks(struct sql *db, volatile sig_atomic_t *interrupt,
						void (*on_wait)(void *arg, double waited_s),
						void *arg);
/* SQLite: how long a lock is waited for (NS <= 0: the default, 30 s). */
void sql_set_busy_timeout(struct sql *db, int64_t ns);
/* Whether a lock held elsewhere is waited for (the default) or fails the
 * statement at once (SQLite; PostgreSQL's server waits on its own). */
void sql_set_patient(struct sql *db, bool patient);
/* SQLite: the page cache held to KIB kB (PostgreSQL: nothing to do). */
void sql_set_cache_kib(struct sql *db, int kib);
/* SQLite: replace DB's file by a copy of it in memory.  0 or -1. */
int sql_copy_to_memory(struct sql *db);

struct sql_stmt *sql_prepare(struct sql *db, const char *sql);
void sql_bind_int64(struct sql_stmt *s, int i, int64_t v);
void sql_bind_double(struct sql_stmt *s, int i, double v);
void sql_bind_text(struct sql_stmt *s, int i, const char *v); /* NULL ok */
void sql_bind_null(struct sql_stmt *s, int i);
/* SQL_ROW (a row to read), SQL_DONE or SQL_ERROR. */
int sql_step(struct sql_stmt *s);
/* Ready to run again with new bindings. */
void sql_reset(struct sql_stmt *s);
void sql_finalize(struct sql_stmt *s); /* NULL ok */

bool sql_col_null(struct sql_stmt *s, int i);
int64_t sql_col_int64(struct sql_stmt *s, int i);
int sql_col_int(struct sql_stmt *s, int i);
double sql_col_double(struct sql_stmt *s, int i);
/* The row's text, valid until the next step; NULL for NULL. */
const char *sql_col_text(struct sql_stmt *s, int i);

/* What a value of the current row is: its columns' number and names. */
enum sql_kind
{
	SQL_KIND_NULL,
	SQL_KIND_INT,
	SQL_KIND_FLOAT,
	SQL_KIND_TEXT
};
int sql_col_count(struct sql_stmt *s);
const char *sql_col_name(struct sql_stmt *s, int i);
enum sql_kind sql_col_kind(struct sql_stmt *s, int i);

/* "?N" and "?" parameters as "$N", outside quotes: libpq's spelling. */
char *sql_dollar_params(const char *sql);
/* SQL's DDL in PostgreSQL's words (see above). */
char *sql_postgres_ddl(const char *sql);

#endif
