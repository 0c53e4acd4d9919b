/*
 * read.c - reading runs, variants, points and their rows back (series,
 * windows, scripts, events), and the rows written beside a point as the
 * run goes (server samples, profiles, looks); see store.h.
 */
#include "store.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql_int.h"
#include "store_int.h"

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

void
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
	v->target = col_text(s, 3);
	v->server_version = col_text(s, 4);
}

int
store_get_variants(struct store *st, int64_t run_id,
				   struct store_variant_row **rows, int *nrows,
				   struct pgc_error *err)
{
	void *out;
	int rc = select_rows(st,
						 "SELECT name, kind, bindir, target, server_version"
						 " FROM variant WHERE run_id = ? ORDER BY seq, name",
						 &run_id, 1, sizeof(**rows), fill_variant, &out, nrows,
						 "variants", err);

	*rows = out;
	if (rc == 0 && docs_variant_get(st, run_id, *rows, *nrows, err) < 0)
	{
		store_variants_free(*rows, *nrows);
		*rows = NULL;
		*nrows = 0;
		return -1;
	}
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
	" p.lag_max_ms, p.warmup_s, p.steal_pct, p.instructions, p.l1_misses,"    \
	" p.ll_misses, p.counted,"                                                \
	" (SELECT count(*) FROM point_warmup w WHERE w.point_id = p.id)"
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
	p->steal_pct = sql_col_null(s, 32) ? -1 : sql_col_double(s, 32);
	for (int k = 0; k < 3; k++)
		p->cost[k] = sql_col_null(s, 33 + k) ? -1 : sql_col_double(s, 33 + k);
	p->counted = sql_col_null(s, 36) ? 0 : (uint64_t) sql_col_int64(s, 36);
	/* a warm-up until stable: its document is read by read_points() */
	p->warmup = sql_col_int(s, 37) ? xstrdup("") : NULL;
}

static int
read_points(struct store *st, struct sql_stmt *s,
			struct store_point_row **rows, int *nrows, struct pgc_error *err)
{
	void *out;
	int rc = collect_rows(st, s, sizeof(**rows), fill_point, &out, nrows,
						  "points", err);

	*rows = out;
	/* a warm-up until stable, as its document (docs.c) */
	for (int i = 0; rc == 0 && i < *nrows; i++)
	{
		struct store_point_row *p = &(*rows)[i];

		if (p->warmup == NULL)
			continue;
		free(p->warmup);
		p->warmup = NULL;
		if (docs_warmup_get(st, p, err) < 0)
		{
			store_points_free(*rows, *nrows);
			*rows = NULL;
			*nrows = 0;
			rc = -1;
		}
	}
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

int
store_get_scripts(struct store *st, int64_t point_id,
				  struct store_script_row **rows, int *nrows,
				  struct pgc_error *err)
{
	struct sql_stmt *s;
	int rc, cap = 0;

	*rows = NULL;
	*nrows = 0;
	if ((s = sql_prepare(
			 st->db, "SELECT name, weight, transactions, failures, retried,"
					 " lat_avg_ms FROM point_script WHERE point_id = ?"
					 " ORDER BY script")) == NULL)
		return db_fail(st, err, "could not read the scripts of a point");
	sql_bind_int64(s, 1, point_id);
	while ((rc = sql_step(s)) == SQL_ROW)
	{
		struct store_script_row *r;

		if (*nrows == cap)
		{
			cap = cap ? 2 * cap : 4;
			*rows = xrealloc(*rows, (size_t) cap * sizeof(**rows));
		}
		r = &(*rows)[(*nrows)++];
		memset(r, 0, sizeof(*r));
		r->name = col_text(s, 0);
		r->weight = sql_col_int(s, 1);
		r->transactions = (uint64_t) sql_col_int64(s, 2);
		r->failures = (uint64_t) sql_col_int64(s, 3);
		r->retried = (uint64_t) sql_col_int64(s, 4);
		r->lat_avg_ms = sql_col_double(s, 5);
	}
	sql_finalize(s);
	if (rc == SQL_ERROR ||
		(s = sql_prepare(st->db,
						 "SELECT script, line, command, lat_avg_ms,"
						 " failures, retries FROM point_statement"
						 " WHERE point_id = ? ORDER BY script, seq")) == NULL)
		goto fail;
	sql_bind_int64(s, 1, point_id);
	while ((rc = sql_step(s)) == SQL_ROW)
	{
		int k = sql_col_int(s, 0);
		struct store_script_row *r;
		struct store_statement_row *sr;

		if (k < 0 || k >= *nrows)
			continue;
		r = &(*rows)[k];
		r->statements = xrealloc(r->statements, (size_t) (r->nstatements + 1) *
													sizeof(*r->statements));
		sr = &r->statements[r->nstatements++];
		sr->line = sql_col_int(s, 1);
		sr->command = col_text(s, 2);
		sr->lat_avg_ms = sql_col_double(s, 3);
		sr->failures = (uint64_t) sql_col_int64(s, 4);
		sr->retries = (uint64_t) sql_col_int64(s, 5);
	}
	sql_finalize(s);
	if (rc != SQL_ERROR)
		return 0;
fail:
	store_scripts_free(*rows, *nrows);
	*rows = NULL;
	*nrows = 0;
	return db_fail(st, err, "could not read the scripts of a point");
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
