/*
 * work.c - the store's side of points spread over several drivers: the
 * work a coordinator posts, the shares workers claim with FOR UPDATE SKIP
 * LOCKED, their readiness, clocks and results.  PostgreSQL stores only
 * (SQLite has neither SKIP LOCKED nor sessions to watch).  What a spec or
 * a result says is drivers/wire's business, not this file's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql_int.h"
#include "store_int.h"

/*
 * The session advisory lock (two keys: "pgcw" and the share's id) a
 * worker holds while a share is its own.  Another session that can take
 * it at once knows the worker's connection, and so the worker, is gone.
 */
#define WORK_LOCK_KEY 1885824887 /* 0x70676377 */
/*
 * And the one the coordinator holds ("pgcc" and the point's id) from
 * posting a point until it ends it: a worker that can take it knows the
 * run is gone, and neither claims nor waits for its work.
 */
#define COORD_LOCK_KEY 1885823843 /* 0x70676363 */
#define COORD_LOCK_STR "1885823843"

static int
need_postgres(struct store *st, struct pgc_error *err)
{
	if (store_can_coordinate(st))
		return 0;
	error_set(err, PGC_ERR_USAGE,
			  "several drivers need a PostgreSQL store, not %s", st->path);
	error_hint(err, "give --db postgresql://... (or PGCLIFF_DB) to the run "
					"and to every worker");
	return -1;
}

static void
now_text(char *buf, size_t size)
{
	clock_wall_utc(buf, size);
}

static char *
dup_col(struct sql_stmt *s, int i)
{
	const char *t = sql_col_text(s, i);

	return t ? xstrdup(t) : NULL;
}

bool
store_can_coordinate(const struct store *st)
{
	return sql_backend(st->db) == SQL_POSTGRES;
}

const char *
store_host(const struct store *st)
{
	return sql_pg_host(st->db, false);
}

const char *
store_hostaddr(const struct store *st)
{
	return sql_pg_host(st->db, true);
}

int64_t
store_work_post(struct store *st, int64_t run_id, int order, const char *spec,
				const char *signature, int nshares, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	int64_t id = -1;
	char now[40], lock[128];

	if (need_postgres(st, err) < 0)
		return -1;
	now_text(now, sizeof(now));
	if (sql_begin_write(st->db) < 0)
		return db_fail(st, err, "could not post a point's work");
	s = sql_prepare(st->db, "INSERT INTO work_point (run_id, order_idx,"
							" nshares, spec, signature, state, posted_at)"
							" VALUES (?, ?, ?, ?, ?, 'open', ?) RETURNING id");
	if (s == NULL)
		goto fail;
	sql_bind_int64(s, 1, run_id);
	sql_bind_int64(s, 2, order);
	sql_bind_int64(s, 3, nshares);
	sql_bind_text(s, 4, spec);
	sql_bind_text(s, 5, signature);
	sql_bind_text(s, 6, now);
	if (sql_step(s) != SQL_ROW)
		goto fail;
	id = sql_col_int64(s, 0);
	sql_finalize(s);
	s = sql_prepare(st->db, "INSERT INTO work_share (point_id, share, state)"
							" VALUES (?, ?, 'open')");
	if (s == NULL)
		goto fail;
	for (int k = 0; k < nshares; k++)
	{
		sql_reset(s);
		sql_bind_int64(s, 1, id);
		sql_bind_int64(s, 2, k);
		if (sql_step(s) != SQL_DONE)
			goto fail;
	}
	sql_finalize(s);
	s = NULL;
	snprintf(lock, sizeof(lock),
			 "SELECT pg_advisory_lock(%d, (%" PRId64 " %% 2147483647)::int)",
			 COORD_LOCK_KEY, id);
	if (sql_exec(st->db, lock) < 0 || sql_exec(st->db, "COMMIT") < 0)
		goto fail;
	return id;
fail:
	db_fail(st, err, "could not post a point's work");
	sql_finalize(s);
	sql_rollback(st->db);
	return -1;
}

void
store_work_shares_free(struct store_work_share *rows, int nrows)
{
	for (int i = 0; i < nrows; i++)
	{
		free(rows[i].state);
		free(rows[i].worker);
		free(rows[i].result);
		free(rows[i].error);
	}
	free(rows);
}

/*
 * Whether the claim of share ID is still held.  The lock is tried for the
 * statement's transaction only; when it is free, the share's state is
 * read again, after the try: a worker finishes by writing its state and
 * then unlocking, so a share still unfinished now has lost its worker.
 */
static int
share_gone(struct store *st, int64_t id, bool *gone, struct pgc_error *err)
{
	char sql[160];
	struct sql_stmt *s;
	bool free_now;

	snprintf(sql, sizeof(sql),
			 "SELECT pg_try_advisory_xact_lock(%d, (%" PRId64
			 " %% 2147483647)::int)",
			 WORK_LOCK_KEY, id);
	if ((s = sql_prepare(st->db, sql)) == NULL)
		return db_fail(st, err, "could not watch the workers");
	if (sql_step(s) != SQL_ROW)
	{
		sql_finalize(s);
		return db_fail(st, err, "could not watch the workers");
	}
	free_now = strcmp(sql_col_text(s, 0), "t") == 0;
	sql_finalize(s);
	*gone = false;
	if (!free_now)
		return 0;
	if ((s = sql_prepare(st->db,
						 "SELECT state FROM work_share WHERE id = ?")) == NULL)
		return db_fail(st, err, "could not watch the workers");
	sql_bind_int64(s, 1, id);
	if (sql_step(s) == SQL_ROW)
	{
		const char *state = sql_col_text(s, 0);

		*gone = strcmp(state, "claimed") == 0 || strcmp(state, "ready") == 0;
	}
	sql_finalize(s);
	return 0;
}

int
store_work_shares(struct store *st, int64_t point_id,
				  struct store_work_share **rows, int *nrows,
				  struct pgc_error *err)
{
	struct sql_stmt *s;
	struct store_work_share *out = NULL;
	int64_t *ids = NULL;
	int n = 0, cap = 0, rc;

	*rows = NULL;
	*nrows = 0;
	if (need_postgres(st, err) < 0)
		return -1;
	s = sql_prepare(st->db, "SELECT id, share, state, worker, offset_ms,"
							" offset_err_ms, result, error FROM work_share"
							" WHERE point_id = ? ORDER BY share");
	if (s == NULL)
		return db_fail(st, err, "could not read the workers' shares");
	sql_bind_int64(s, 1, point_id);
	while ((rc = sql_step(s)) == SQL_ROW)
	{
		struct store_work_share *w;

		if (n == cap)
		{
			cap = cap ? 2 * cap : 8;
			out = xrealloc(out, (size_t) cap * sizeof(*out));
			ids = xrealloc(ids, (size_t) cap * sizeof(*ids));
		}
		w = &out[n];
		memset(w, 0, sizeof(*w));
		ids[n] = sql_col_int64(s, 0);
		w->share = sql_col_int(s, 1);
		w->state = dup_col(s, 2);
		w->worker = dup_col(s, 3);
		w->has_offset = !sql_col_null(s, 4);
		w->offset_ms = sql_col_double(s, 4);
		w->offset_err_ms = sql_col_double(s, 5);
		w->result = dup_col(s, 6);
		w->error = dup_col(s, 7);
		n++;
	}
	sql_finalize(s);
	if (rc == SQL_ERROR)
	{
		db_fail(st, err, "could not read the workers' shares");
		goto fail;
	}
	for (int i = 0; i < n; i++)
		if ((strcmp(out[i].state, "claimed") == 0 ||
			 strcmp(out[i].state, "ready") == 0) &&
			share_gone(st, ids[i], &out[i].gone, err) < 0)
			goto fail;
	free(ids);
	*rows = out;
	*nrows = n;
	return 0;
fail:
	free(ids);
	store_work_shares_free(out, n);
	return -1;
}

int
store_work_start(struct store *st, int64_t point_id, int64_t start_us,
				 struct pgc_error *err)
{
	struct sql_stmt *s;
	int rc = 0;

	if (need_postgres(st, err) < 0)
		return -1;
	s = sql_prepare(st->db, "UPDATE work_point SET state = 'started',"
							" start_us = ? WHERE id = ? AND state = 'open'");
	if (s == NULL)
		return db_fail(st, err, "could not start the workers");
	sql_bind_int64(s, 1, start_us);
	sql_bind_int64(s, 2, point_id);
	if (sql_step(s) != SQL_DONE)
		rc = db_fail(st, err, "could not start the workers");
	sql_finalize(s);
	return rc;
}

int
store_work_end(struct store *st, int64_t point_id, const char *state,
			   const char *reason, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	char unlock[128];
	if (need_postgres(st, err) < 0)
		return -1;
	if (sql_begin_write(st->db) < 0)
		return db_fail(st, err, "could not end a point's work");
	s = sql_prepare(
		st->db, "UPDATE work_point SET state = ?, reason = ? WHERE id = ?");
	if (s == NULL)
		goto fail;
	sql_bind_text(s, 1, state);
	sql_bind_text(s, 2, reason);
	sql_bind_int64(s, 3, point_id);
	if (sql_step(s) != SQL_DONE)
		goto fail;
	sql_finalize(s);
	/* a share nobody took will not be taken now */
	s = sql_prepare(st->db, "UPDATE work_share SET state = 'failed',"
							" error = 'not claimed before the point ended'"
							" WHERE point_id = ? AND state = 'open'");
	if (s == NULL)
		goto fail;
	sql_bind_int64(s, 1, point_id);
	if (sql_step(s) != SQL_DONE)
		goto fail;
	sql_finalize(s);
	s = NULL;
	if (sql_exec(st->db, "COMMIT") < 0)
		goto fail;
	/* a worker's end of a dead run's point holds no such lock: no harm */
	snprintf(unlock, sizeof(unlock),
			 "SELECT pg_advisory_unlock(%d, (%" PRId64 " %% 2147483647)::int)",
			 COORD_LOCK_KEY, point_id);
	(void) sql_exec(st->db, unlock);
	return 0;
fail:
	db_fail(st, err, "could not end a point's work");
	sql_finalize(s);
	sql_rollback(st->db);
	return -1;
}

void
store_work_claim_release(struct store_work_claim *c)
{
	free(c->spec);
	free(c->signature);
	free(c->run_uid);
	memset(c, 0, sizeof(*c));
}

int
store_work_claim(struct store *st, const char *worker,
				 struct store_work_claim *out, struct pgc_error *err)
{
	struct sql_stmt *s = NULL;
	char now[40], lock[128];
	int rc;

	memset(out, 0, sizeof(*out));
	if (need_postgres(st, err) < 0)
		return -1;
	now_text(now, sizeof(now));
	/*
	 * One transaction: the share is taken (rows other workers are taking
	 * are skipped, not waited for) and its lock held before anyone can
	 * see it claimed, so that a claimed share is never seen unlocked
	 * while its worker lives.
	 */
	if (sql_begin_write(st->db) < 0)
		return db_fail(st, err, "could not claim work");
	s = sql_prepare(
		st->db,
		"UPDATE work_share SET state = 'claimed', worker = ?, claimed_at = ?"
		" WHERE id = (SELECT s.id FROM work_share s"
		"   JOIN work_point p ON p.id = s.point_id"
		"   WHERE s.state = 'open' AND p.state = 'open'"
		/* a run that is gone left its work open: not to be taken */
		"     AND NOT pg_try_advisory_xact_lock(" COORD_LOCK_STR ","
		"       (p.id % 2147483647)::int)"
		"   ORDER BY s.point_id, s.share LIMIT 1"
		"   FOR UPDATE OF s SKIP LOCKED)"
		" RETURNING id, point_id, share");
	if (s == NULL)
		goto fail;
	sql_bind_text(s, 1, worker);
	sql_bind_text(s, 2, now);
	rc = sql_step(s);
	if (rc == SQL_ERROR)
		goto fail;
	if (rc == SQL_DONE)
	{
		sql_finalize(s);
		sql_rollback(st->db);
		return 0;
	}
	out->share_id = sql_col_int64(s, 0);
	out->point_id = sql_col_int64(s, 1);
	out->share = sql_col_int(s, 2);
	sql_finalize(s);
	s = sql_prepare(st->db, "SELECT p.run_id, p.order_idx, p.nshares, p.spec,"
							" p.signature, r.uid FROM work_point p"
							" JOIN run r ON r.id = p.run_id WHERE p.id = ?");
	if (s == NULL)
		goto fail;
	sql_bind_int64(s, 1, out->point_id);
	if (sql_step(s) != SQL_ROW)
		goto fail;
	out->run_id = sql_col_int64(s, 0);
	out->order = sql_col_int(s, 1);
	out->nshares = sql_col_int(s, 2);
	out->spec = dup_col(s, 3);
	out->signature = dup_col(s, 4);
	out->run_uid = dup_col(s, 5);
	sql_finalize(s);
	s = NULL;
	snprintf(lock, sizeof(lock),
			 "SELECT pg_advisory_lock(%d, (%" PRId64 " %% 2147483647)::int)",
			 WORK_LOCK_KEY, out->share_id);
	if (sql_exec(st->db, lock) < 0 || sql_exec(st->db, "COMMIT") < 0)
		goto fail;
	return 1;
fail:
	db_fail(st, err, "could not claim work");
	sql_finalize(s);
	sql_rollback(st->db);
	store_work_claim_release(out);
	return -1;
}

int
store_work_ready(struct store *st, int64_t share_id, double offset_ms,
				 double offset_err_ms, struct pgc_error *err)
{
	struct sql_stmt *s;
	char now[40];
	int rc = 0;

	now_text(now, sizeof(now));
	s = sql_prepare(st->db, "UPDATE work_share SET state = 'ready',"
							" offset_ms = ?, offset_err_ms = ?, ready_at = ?"
							" WHERE id = ? AND state = 'claimed'");
	if (s == NULL)
		return db_fail(st, err, "could not report ready");
	sql_bind_double(s, 1, offset_ms);
	sql_bind_double(s, 2, offset_err_ms);
	sql_bind_text(s, 3, now);
	sql_bind_int64(s, 4, share_id);
	if (sql_step(s) != SQL_DONE)
		rc = db_fail(st, err, "could not report ready");
	sql_finalize(s);
	return rc;
}

int
store_work_point(struct store *st, int64_t point_id, char state[16],
				 int64_t *start_us, char **reason, bool *run_gone,
				 struct pgc_error *err)
{
	struct sql_stmt *s;
	int rc;

	*start_us = 0;
	*reason = NULL;
	*run_gone = false;
	state[0] = '\0';
	s = sql_prepare(st->db, "SELECT state, start_us, reason,"
							" pg_try_advisory_xact_lock(" COORD_LOCK_STR ","
							"   (id % 2147483647)::int)"
							" FROM work_point WHERE id = ?");
	if (s == NULL)
		return db_fail(st, err, "could not read a point's work");
	sql_bind_int64(s, 1, point_id);
	rc = sql_step(s);
	if (rc == SQL_ROW)
	{
		snprintf(state, 16, "%s", sql_col_text(s, 0));
		*start_us = sql_col_null(s, 1) ? 0 : sql_col_int64(s, 1);
		*reason = dup_col(s, 2);
		*run_gone = strcmp(sql_col_text(s, 3), "t") == 0;
	}
	sql_finalize(s);
	if (rc == SQL_ERROR)
		return db_fail(st, err, "could not read a point's work");
	if (rc == SQL_DONE)
		snprintf(state, 16, "%s", "failed"); /* its run was deleted */
	return 0;
}

int
store_work_finish(struct store *st, int64_t share_id, const char *result,
				  const char *error, bool *taken, struct pgc_error *err)
{
	struct sql_stmt *s;
	char now[40], unlock[128];
	int rc = 0;

	if (taken)
		*taken = false;
	now_text(now, sizeof(now));
	s = sql_prepare(st->db, "UPDATE work_share SET state = ?, result = ?,"
							" error = ?, done_at = ? WHERE id = ?"
							" AND state IN ('claimed', 'ready')"
							" RETURNING id");
	if (s == NULL)
		return db_fail(st, err, "could not report a share's result");
	sql_bind_text(s, 1, result ? "done" : "failed");
	sql_bind_text(s, 2, result);
	sql_bind_text(s, 3, error);
	sql_bind_text(s, 4, now);
	sql_bind_int64(s, 5, share_id);
	switch (sql_step(s))
	{
		case SQL_ROW:
			if (taken)
				*taken = true;
			break;
		case SQL_DONE:
			break;
		default:
			rc = db_fail(st, err, "could not report a share's result");
	}
	sql_finalize(s);
	/* after the state: a coordinator that finds the lock free then reads
	 * the share finished (share_gone) */
	snprintf(unlock, sizeof(unlock),
			 "SELECT pg_advisory_unlock(%d, (%" PRId64 " %% 2147483647)::int)",
			 WORK_LOCK_KEY, share_id);
	if (rc == 0 && sql_exec(st->db, unlock) < 0)
		rc = db_fail(st, err, "could not release a share");
	return rc;
}

bool
store_lost(const struct store *st)
{
	return sql_lost(st->db);
}

int
store_reconnect(struct store *st, struct pgc_error *err)
{
	return sql_reconnect(st->db, err);
}

int
store_run_workers(struct store *st, int64_t run_id, int *nshares, char **names,
				  double *max_offset_ms, struct pgc_error *err)
{
	struct sql_stmt *s;
	int rc;

	*nshares = 0;
	*names = NULL;
	*max_offset_ms = 0;
	/* both backends: the tables exist on SQLite too, and stay empty */
	s = sql_prepare(
		st->db,
		"SELECT (SELECT max(nshares) FROM work_point WHERE run_id = ?1),"
		" (SELECT group_concat(worker, ', ') FROM (SELECT DISTINCT s.worker"
		"   FROM work_share s JOIN work_point w ON w.id = s.point_id"
		"   WHERE w.run_id = ?1 AND s.worker IS NOT NULL ORDER BY 1) t),"
		" (SELECT max(abs(s.offset_ms)) FROM work_share s"
		"   JOIN work_point w ON w.id = s.point_id WHERE w.run_id = ?1)");
	if (s == NULL)
		return db_fail(st, err, "could not read a run's workers");
	sql_bind_int64(s, 1, run_id);
	rc = sql_step(s);
	if (rc == SQL_ROW)
	{
		*nshares = sql_col_null(s, 0) ? 0 : sql_col_int(s, 0);
		*names = dup_col(s, 1);
		*max_offset_ms = sql_col_null(s, 2) ? 0 : sql_col_double(s, 2);
	}
	sql_finalize(s);
	return rc == SQL_ERROR ? db_fail(st, err, "could not read a run's workers")
						   : 0;
}

int
store_clock_offset(struct store *st, double *offset_us, double *err_us,
				   struct pgc_error *err)
{
	struct sql_stmt *s;
	double best_rtt = -1;

	if (need_postgres(st, err) < 0)
		return -1;
	s = sql_prepare(st->db, "SELECT (extract(epoch FROM clock_timestamp())"
							" * 1000000)::bigint");
	if (s == NULL)
		return db_fail(st, err, "could not read the store's clock");
	/* the quickest round trip bounds the offset best (NTP's reasoning) */
	for (int i = 0; i < 8; i++)
	{
		int64_t t0, t1, server;

		sql_reset(s);
		t0 = clock_wall_us();
		if (sql_step(s) != SQL_ROW)
		{
			sql_finalize(s);
			return db_fail(st, err, "could not read the store's clock");
		}
		t1 = clock_wall_us();
		server = sql_col_int64(s, 0);
		if (best_rtt < 0 || (double) (t1 - t0) < best_rtt)
		{
			best_rtt = (double) (t1 - t0);
			*offset_us = (double) server - ((double) t0 + (double) t1) / 2;
		}
	}
	sql_finalize(s);
	*err_us = best_rtt / 2;
	return 0;
}
