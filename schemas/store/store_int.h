/*
 * store_int.h - the store handle, shared by the files of schemas/store
 * (store.c: opening, the schema, writing runs and points, moving runs;
 * read.c: reading them back, and the rows a run adds as it goes; work.c:
 * work for several drivers).
 * Internal: no other module sees it.
 */
#ifndef PGCLIFF_STORE_INT_H
#define PGCLIFF_STORE_INT_H

#include "base.h"
#include "store.h"

struct sql;
struct sql_stmt;

struct store
{
	struct sql *db;
	char *path; /* what messages name: never a password */
};

/* ERR: "WHAT: the store's last error", the store named in its detail. */
int db_fail(struct store *st, struct pgc_error *err, const char *what);

/* A run row's columns, as read_run_row() reads them (run r). */
#define RUN_COLUMNS                                                           \
	"r.id, r.recipe, r.recipe_path, r.recipe_sha256, r.command_line,"         \
	" r.tool_version, r.seed, r.started_at, r.ended_at, r.status, r.error,"   \
	" (SELECT count(*) FROM point p WHERE p.run_id = r.id),"                  \
	" (SELECT group_concat(name, ',') FROM (SELECT v.name FROM variant v"     \
	"   WHERE v.run_id = r.id ORDER BY v.seq, v.name) vs),"                   \
	" r.plan, r.script_files, r.measure, r.owner, r.host_name, r.host_cpu,"   \
	" r.host_cores, r.host_mem_bytes, r.host_kernel, r.uid"

/* Begin a write transaction (waiting for the store's write lock). */
int begin_write(struct store *st, struct pgc_error *err);

/* Run SQL, which returns no rows. */
int exec_sql(struct store *st, const char *sql, struct pgc_error *err);

/*
 * Under point ID, in the caller's transaction: the seconds staged for
 * RUN_ID's step ORDER_IDX and WORKLOAD moved there (stage.c).
 */
int move_staged_series(struct store *st, int64_t id, int64_t run_id,
					   int order_idx, const char *workload,
					   struct pgc_error *err);

/* Drops the seconds staged by runs that cannot store them (stage.c). */
int sweep_staged_series(struct store *st, struct pgc_error *err);

/* The run row at S's current row (RUN_COLUMNS) into R. */
void read_run_row(struct sql_stmt *s, struct store_run_row *r);

#endif /* PGCLIFF_STORE_INT_H */
