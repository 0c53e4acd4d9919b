/*
 * store_int.h - the store handle, shared by the files of schemas/store
 * (store.c: opening, the schema, writing runs and points, moving runs;
 * read.c: reading them back, and the rows a run adds as it goes; work.c:
 * work for several drivers; stage.c: seconds staged as a window runs;
 * docs.c: a variant's and a point's documents as tables).
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

/*
 * A variant's and a point's documents as rows of their child tables
 * (docs.c, the one codec between the two): put in the caller's
 * transaction; read back as the JSON text the rows' structs carry
 * (store_variant_row's gucs, settings, defines, pg_config and build for N
 * ROWS of RUN_ID; a point's warm-up by its id); docs_migrate() moves a
 * schema 19 store's JSON columns into them and drops the columns.
 */
int docs_variant_put(struct store *st, int64_t run_id,
					 const struct store_variant *v, struct pgc_error *err);
int docs_point_put(struct store *st, int64_t point_id, const char *scripts,
				   const char *warmup, struct pgc_error *err);
int docs_variant_get(struct store *st, int64_t run_id,
					 struct store_variant_row *rows, int n,
					 struct pgc_error *err);
int docs_warmup_get(struct store *st, struct store_point_row *p,
					struct pgc_error *err);
int docs_migrate(struct store *st, struct pgc_error *err);

/* The run row at S's current row (RUN_COLUMNS) into R. */
void read_run_row(struct sql_stmt *s, struct store_run_row *r);

#endif /* PGCLIFF_STORE_INT_H */
