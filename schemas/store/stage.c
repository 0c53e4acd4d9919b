/*
 * stage.c - a point's per-second series staged as its window runs: a long
 * window streams its seconds to the store a block at a time instead of
 * keeping them (load_point.sink), and store_point_add() moves them under
 * the point in the point's own transaction; a point that fails drops
 * them.  See store.h.
 */
#include <stdlib.h>
#include <string.h>

#include "sql_int.h"
#include "store_int.h"

int
store_series_stage(struct store *st, int64_t run_id, int order_idx,
				   const char *const *workloads, int nw,
				   const struct store_series_row *rows, int nseconds,
				   struct pgc_error *err)
{
	struct sql_stmt *s = NULL;

	if (nseconds <= 0 || nw <= 0)
		return 0;
	if (begin_write(st, err) < 0)
		return -1;
	s = sql_prepare(st->db,
					"INSERT INTO series_stage (run_id, order_idx, workload,"
					" second, transactions, failures, lat_avg_ms, lat_max_ms,"
					" failures_by_class) VALUES (?,?,?,?,?,?,?,?,?)");
	if (s == NULL)
		goto fail;
	for (int k = 0; k < nseconds * nw; k++)
	{
		const struct store_series_row *r = &rows[k];

		sql_reset(s);
		sql_bind_int64(s, 1, run_id);
		sql_bind_int64(s, 2, order_idx);
		sql_bind_text(s, 3, workloads[k % nw]);
		sql_bind_int64(s, 4, r->second);
		sql_bind_int64(s, 5, (int64_t) r->transactions);
		sql_bind_int64(s, 6, (int64_t) r->failures);
		sql_bind_double(s, 7, r->lat_avg_ms);
		sql_bind_double(s, 8, r->lat_max_ms);
		sql_bind_text(s, 9, r->failures_by_class);
		if (sql_step(s) != SQL_DONE)
			goto fail;
	}
	sql_finalize(s);
	s = NULL;
	if (exec_sql(st, "COMMIT", err) < 0)
		goto rollback;
	return 0;

fail:
	db_fail(st, err, "could not stage a point's seconds");
rollback:
	sql_finalize(s);
	sql_rollback(st->db);
	return -1;
}

int
store_series_staged_tps(struct store *st, int64_t run_id, int order_idx,
						const char *workload, double **tps, int *n,
						struct pgc_error *err)
{
	struct sql_stmt *s;
	int rc, cap = 0;

	*tps = NULL;
	*n = 0;
	s = sql_prepare(st->db, "SELECT second, transactions FROM series_stage"
							" WHERE run_id = ? AND order_idx = ?"
							" AND workload = ? ORDER BY second");
	if (s == NULL)
		return db_fail(st, err, "could not read a point's staged seconds");
	sql_bind_int64(s, 1, run_id);
	sql_bind_int64(s, 2, order_idx);
	sql_bind_text(s, 3, workload);
	while ((rc = sql_step(s)) == SQL_ROW)
	{
		int second = sql_col_int(s, 0);

		if (second < 0 || second > 100000000)
			continue;
		if (second >= cap)
		{
			int old = cap;

			cap = second + 64;
			*tps = xrealloc(*tps, (size_t) cap * sizeof(double));
			memset(*tps + old, 0, (size_t) (cap - old) * sizeof(double));
		}
		(*tps)[second] = (double) sql_col_int64(s, 1);
		if (second + 1 > *n)
			*n = second + 1;
	}
	sql_finalize(s);
	if (rc == SQL_ERROR)
	{
		free(*tps);
		*tps = NULL;
		*n = 0;
		return db_fail(st, err, "could not read a point's staged seconds");
	}
	return 0;
}

int
store_series_unstage(struct store *st, int64_t run_id, int order_idx,
					 struct pgc_error *err)
{
	struct sql_stmt *s;
	int rc = 0;

	s = sql_prepare(st->db, order_idx < 0
								? "DELETE FROM series_stage WHERE run_id = ?"
								: "DELETE FROM series_stage WHERE run_id = ?"
								  " AND order_idx = ?");
	if (s == NULL)
		return db_fail(st, err, "could not drop a point's staged seconds");
	sql_bind_int64(s, 1, run_id);
	if (order_idx >= 0)
		sql_bind_int64(s, 2, order_idx);
	if (sql_step(s) != SQL_DONE)
		rc = db_fail(st, err, "could not drop a point's staged seconds");
	sql_finalize(s);
	return rc;
}

/*
 * Under point ID, in the caller's transaction: the seconds staged for
 * RUN_ID's step ORDER_IDX and WORKLOAD, moved.
 */
int
move_staged_series(struct store *st, int64_t id, int64_t run_id, int order_idx,
				   const char *workload, struct pgc_error *err)
{
	struct sql_stmt *s;

	s = sql_prepare(st->db,
					"INSERT INTO series (point_id, second, transactions,"
					" failures, lat_avg_ms, lat_max_ms, failures_by_class)"
					" SELECT ?, second, transactions, failures, lat_avg_ms,"
					" lat_max_ms, failures_by_class FROM series_stage"
					" WHERE run_id = ? AND order_idx = ? AND workload = ?");
	if (s == NULL)
		return db_fail(st, err, "could not store the point");
	sql_bind_int64(s, 1, id);
	sql_bind_int64(s, 2, run_id);
	sql_bind_int64(s, 3, order_idx);
	sql_bind_text(s, 4, workload);
	if (sql_step(s) != SQL_DONE)
	{
		sql_finalize(s);
		return db_fail(st, err, "could not store the point");
	}
	sql_finalize(s);
	s = sql_prepare(st->db, "DELETE FROM series_stage WHERE run_id = ?"
							" AND order_idx = ? AND workload = ?");
	if (s == NULL)
		return db_fail(st, err, "could not store the point");
	sql_bind_int64(s, 1, run_id);
	sql_bind_int64(s, 2, order_idx);
	sql_bind_text(s, 3, workload);
	if (sql_step(s) != SQL_DONE)
	{
		sql_finalize(s);
		return db_fail(st, err, "could not store the point");
	}
	sql_finalize(s);
	return 0;
}

/*
 * Seconds staged by runs that will never store them: ended runs (their
 * end drops what they staged, so only a failed drop leaves any) and runs
 * still "running" whose process is provably gone (process_alive()).  A
 * run of another machine's process is left alone: it may be running.
 */
int
sweep_staged_series(struct store *st, struct pgc_error *err)
{
	struct sql_stmt *s;
	int64_t *ids = NULL;
	int n = 0, cap = 0, rc = 0;

	s = sql_prepare(st->db,
					"SELECT r.id, r.status, r.owner FROM run r"
					" WHERE r.id IN (SELECT run_id FROM series_stage)");
	if (s == NULL)
		return db_fail(st, err, "could not read the staged seconds");
	while (sql_step(s) == SQL_ROW)
	{
		const char *status = sql_col_text(s, 1);
		const char *owner = sql_col_text(s, 2);

		if (status && strcmp(status, "running") == 0 &&
			process_alive(owner) != 0)
			continue;
		if (n == cap)
		{
			cap = cap ? 2 * cap : 8;
			ids = xrealloc(ids, (size_t) cap * sizeof(*ids));
		}
		ids[n++] = sql_col_int64(s, 0);
	}
	sql_finalize(s);
	for (int i = 0; i < n && rc == 0; i++)
		rc = store_series_unstage(st, ids[i], -1, err);
	free(ids);
	return rc;
}
