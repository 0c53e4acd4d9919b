/*
 * docs.c - the documents of a variant and a point, kept as tables.
 *
 * The store's API takes and gives a variant's GUCs, server settings,
 * #defines and pg_config as flat JSON objects, its build's provenance as
 * pgbuild's build.json, a point's scripts as an array and its warm-up as
 * an object (report/FORMATS.md).  The store keeps them as rows, so that
 * SQL can ask "which runs had work_mem at 8MB" or "which settings differ
 * between the variants of run 12":
 *
 *   variant_setting    (run_id, variant, kind, seq, name, value)
 *                      kind: guc | setting | define | pg_config; seq
 *                      keeps the document's order
 *   variant_build      (run_id, variant, build_key, name, revision,
 *                      identity, installed, compiler, incremental,
 *                      built_at, seconds, document): the build's fields,
 *                      and build.json itself, which holds the patches'
 *                      and the diff's text that `show --build` prints
 *   point_script       (point_id, script, name, weight, transactions,
 *                      failures, retried, lat_avg_ms, lat_stddev_ms)
 *   point_statement    (point_id, script, seq, line, command, lat_avg_ms,
 *                      count, failures, retries)
 *   point_warmup       (point_id, until_mode, max_s, tolerance, tick_s,
 *                      stable, drift)
 *   point_warmup_tick  (point_id, tick, tps)
 *
 * This file is the one codec between the two: the writers (store.c) put a
 * document's rows here, the readers (read.c) make the document again, and
 * the migration to schema 20 moves every stored run's documents out of
 * their old JSON columns with the same code.  A stored text that is not
 * JSON (a store edited by hand) is dropped from the rows, not fatal.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pjson.h"
#include "sql_int.h"
#include "store_int.h"

/* The setting kinds, in the order a variant's documents are read. */
static const char *const kinds[] = {"guc", "setting", "define", "pg_config"};

/* A JSON value as a setting's text: strings as they are, others as JSON. */
static char *
value_text(const json_t *v)
{
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_null(v))
		return NULL;
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

static int64_t
int_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return (int64_t) json_integer_value(v);
	return json_is_real(v) ? (int64_t) json_real_value(v) : 0;
}

static void
bind_number(struct sql_stmt *s, int i, const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	if (json_is_number(v))
		sql_bind_double(s, i, json_number_value(v));
	else
		sql_bind_null(s, i);
}

static void
bind_string(struct sql_stmt *s, int i, const json_t *o, const char *key)
{
	sql_bind_text(s, i, json_string_value(json_object_get(o, key)));
}

/* ------------------------------------------------------------- writing */

/* The flat object TEXT as KIND rows of RUN_ID's VARIANT. */
static int
put_settings(struct store *st, int64_t run_id, const char *variant,
			 const char *kind, const char *text)
{
	json_t *o = text ? json_loads(text, 0, NULL) : NULL;
	struct sql_stmt *s = NULL;
	const char *name;
	json_t *v;
	int seq = 0, rc = 0;

	if (!json_is_object(o))
	{
		json_decref(o);
		return 0;
	}
	if ((s = sql_prepare(st->db,
						 "INSERT INTO variant_setting (run_id, variant, kind,"
						 " seq, name, value) VALUES (?,?,?,?,?,?)")) == NULL)
		rc = -1;
	json_object_foreach(o, name, v)
	{
		char *value;

		if (rc < 0)
			break;
		value = value_text(v);
		sql_reset(s);
		sql_bind_int64(s, 1, run_id);
		sql_bind_text(s, 2, variant);
		sql_bind_text(s, 3, kind);
		sql_bind_int64(s, 4, seq++);
		sql_bind_text(s, 5, name);
		sql_bind_text(s, 6, value);
		if (sql_step(s) != SQL_DONE)
			rc = -1;
		free(value);
	}
	sql_finalize(s);
	json_decref(o);
	return rc;
}

/* The build's provenance TEXT (build.json) as RUN_ID's VARIANT's row. */
static int
put_build(struct store *st, int64_t run_id, const char *variant,
		  const char *text)
{
	json_t *b = text ? json_loads(text, 0, NULL) : NULL;
	struct sql_stmt *s;
	const json_t *inc;
	int rc = 0;

	if (text == NULL)
		return 0;
	if ((s = sql_prepare(st->db,
						 "INSERT INTO variant_build (run_id, variant,"
						 " build_key, name, revision, identity, installed,"
						 " compiler, incremental, built_at, seconds, document)"
						 " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)")) == NULL)
	{
		json_decref(b);
		return -1;
	}
	sql_bind_int64(s, 1, run_id);
	sql_bind_text(s, 2, variant);
	bind_string(s, 3, b, "key");
	bind_string(s, 4, b, "name");
	bind_string(s, 5, b, "revision");
	bind_string(s, 6, b, "identity");
	bind_string(s, 7, b, "installed");
	bind_string(s, 8, b, "compiler");
	inc = json_object_get(b, "incremental");
	if (json_is_boolean(inc))
		sql_bind_int64(s, 9, json_is_true(inc));
	else
		sql_bind_null(s, 9);
	bind_string(s, 10, b, "built_at");
	bind_number(s, 11, b, "seconds");
	sql_bind_text(s, 12, text);
	if (sql_step(s) != SQL_DONE)
		rc = -1;
	sql_finalize(s);
	json_decref(b);
	return rc;
}

int
docs_variant_put(struct store *st, int64_t run_id,
				 const struct store_variant *v, struct pgc_error *err)
{
	const char *texts[] = {v->gucs, v->settings, v->defines, v->pg_config};
	struct sql_stmt *s;
	int rc = 0;

	/* a variant stored again (store_variant_add's upsert) replaces them */
	for (int t = 0; t < 2 && rc == 0; t++)
	{
		s = sql_prepare(st->db, t == 0 ? "DELETE FROM variant_setting"
										 " WHERE run_id = ? AND variant = ?"
									   : "DELETE FROM variant_build"
										 " WHERE run_id = ? AND variant = ?");
		if (s == NULL)
			rc = -1;
		else
		{
			sql_bind_int64(s, 1, run_id);
			sql_bind_text(s, 2, v->name);
			rc = sql_step(s) == SQL_DONE ? 0 : -1;
		}
		sql_finalize(s);
	}
	for (size_t k = 0; k < lengthof(kinds) && rc == 0; k++)
		rc = put_settings(st, run_id, v->name, kinds[k], texts[k]);
	if (rc == 0)
		rc = put_build(st, run_id, v->name, v->build);
	return rc < 0 ? db_fail(st, err, "could not store the variant") : 0;
}

/* One script of a point and its statements. */
static int
put_script(struct sql_stmt *s, struct sql_stmt *stm, int64_t point_id, int k,
		   const json_t *sc)
{
	const json_t *stmts = json_object_get(sc, "statements");
	size_t j;
	const json_t *x;

	sql_reset(s);
	sql_bind_int64(s, 1, point_id);
	sql_bind_int64(s, 2, k);
	bind_string(s, 3, sc, "name");
	sql_bind_int64(s, 4, int_of(sc, "weight"));
	sql_bind_int64(s, 5, int_of(sc, "transactions"));
	sql_bind_int64(s, 6, int_of(sc, "failures"));
	sql_bind_int64(s, 7, int_of(sc, "retried"));
	bind_number(s, 8, sc, "latency_avg_ms");
	bind_number(s, 9, sc, "latency_stddev_ms");
	if (sql_step(s) != SQL_DONE)
		return -1;
	json_array_foreach(stmts, j, x)
	{
		sql_reset(stm);
		sql_bind_int64(stm, 1, point_id);
		sql_bind_int64(stm, 2, k);
		sql_bind_int64(stm, 3, (int64_t) j);
		sql_bind_int64(stm, 4, int_of(x, "line"));
		bind_string(stm, 5, x, "command");
		bind_number(stm, 6, x, "latency_avg_ms");
		sql_bind_int64(stm, 7, int_of(x, "count"));
		sql_bind_int64(stm, 8, int_of(x, "failures"));
		sql_bind_int64(stm, 9, int_of(x, "retries"));
		if (sql_step(stm) != SQL_DONE)
			return -1;
	}
	return 0;
}

static int
put_scripts(struct store *st, int64_t point_id, const char *text)
{
	json_t *a = text ? json_loads(text, 0, NULL) : NULL;
	struct sql_stmt *s = NULL, *stm = NULL;
	size_t k;
	const json_t *sc;
	int rc = 0;

	if (!json_is_array(a))
	{
		json_decref(a);
		return 0;
	}
	s = sql_prepare(st->db, "INSERT INTO point_script (point_id, script, name,"
							" weight, transactions, failures, retried,"
							" lat_avg_ms, lat_stddev_ms)"
							" VALUES (?,?,?,?,?,?,?,?,?)");
	stm =
		sql_prepare(st->db, "INSERT INTO point_statement (point_id, script,"
							" seq, line, command, lat_avg_ms, count,"
							" failures, retries) VALUES (?,?,?,?,?,?,?,?,?)");
	if (s == NULL || stm == NULL)
		rc = -1;
	json_array_foreach(a, k, sc)
	{
		if (rc < 0 || (rc = put_script(s, stm, point_id, (int) k, sc)) < 0)
			break;
	}
	sql_finalize(s);
	sql_finalize(stm);
	json_decref(a);
	return rc;
}

static int
put_warmup(struct store *st, int64_t point_id, const char *text)
{
	json_t *w = text ? json_loads(text, 0, NULL) : NULL;
	const json_t *tps = json_object_get(w, "tps"), *st_flag, *x;
	struct sql_stmt *s = NULL;
	size_t k;
	int rc = -1;

	if (!json_is_object(w))
	{
		json_decref(w);
		return 0;
	}
	if ((s = sql_prepare(st->db,
						 "INSERT INTO point_warmup (point_id,"
						 " until_mode, max_s, tolerance, tick_s, stable,"
						 " drift) VALUES (?,?,?,?,?,?,?)")) == NULL)
		goto done;
	sql_bind_int64(s, 1, point_id);
	bind_string(s, 2, w, "until");
	bind_number(s, 3, w, "max_s");
	bind_number(s, 4, w, "tolerance");
	bind_number(s, 5, w, "tick_s");
	st_flag = json_object_get(w, "stable");
	if (json_is_boolean(st_flag))
		sql_bind_int64(s, 6, json_is_true(st_flag));
	else
		sql_bind_null(s, 6);
	bind_number(s, 7, w, "drift");
	if (sql_step(s) != SQL_DONE)
		goto done;
	sql_finalize(s);
	if ((s = sql_prepare(st->db, "INSERT INTO point_warmup_tick (point_id,"
								 " tick, tps) VALUES (?,?,?)")) == NULL)
		goto done;
	json_array_foreach(tps, k, x)
	{
		sql_reset(s);
		sql_bind_int64(s, 1, point_id);
		sql_bind_int64(s, 2, (int64_t) k);
		if (json_is_number(x))
			sql_bind_double(s, 3, json_number_value(x));
		else
			sql_bind_null(s, 3);
		if (sql_step(s) != SQL_DONE)
			goto done;
	}
	rc = 0;
done:
	sql_finalize(s);
	json_decref(w);
	return rc;
}

int
docs_point_put(struct store *st, int64_t point_id, const char *scripts,
			   const char *warmup, struct pgc_error *err)
{
	if (put_scripts(st, point_id, scripts) < 0 ||
		put_warmup(st, point_id, warmup) < 0)
		return db_fail(st, err, "could not store the point");
	return 0;
}

/* ------------------------------------------------------------- reading */

int
docs_variant_get(struct store *st, int64_t run_id,
				 struct store_variant_row *rows, int n, struct pgc_error *err)
{
	struct sql_stmt *s;
	json_t *(*obj)[lengthof(kinds)] = xcalloc((size_t) n + 1, sizeof(*obj));
	int rc;

	if ((s = sql_prepare(st->db, "SELECT variant, kind, name, value"
								 " FROM variant_setting WHERE run_id = ?"
								 " ORDER BY variant, kind, seq")) == NULL)
	{
		free(obj);
		return db_fail(st, err, "could not read the variants' settings");
	}
	sql_bind_int64(s, 1, run_id);
	while ((rc = sql_step(s)) == SQL_ROW)
	{
		const char *variant = sql_col_text(s, 0), *kind = sql_col_text(s, 1);
		const char *value = sql_col_text(s, 3);

		for (int i = 0; i < n; i++)
			if (variant && strcmp(rows[i].name, variant) == 0)
				for (size_t k = 0; k < lengthof(kinds); k++)
					if (kind && strcmp(kind, kinds[k]) == 0)
					{
						if (obj[i][k] == NULL)
							obj[i][k] = json_object();
						json_object_set_new(obj[i][k], sql_col_text(s, 2),
											pjson_str(value));
					}
	}
	sql_finalize(s);
	if (rc == SQL_ERROR)
		goto fail;
	if ((s = sql_prepare(st->db, "SELECT variant, document FROM variant_build"
								 " WHERE run_id = ?")) == NULL)
		goto fail;
	sql_bind_int64(s, 1, run_id);
	while ((rc = sql_step(s)) == SQL_ROW)
		for (int i = 0; i < n; i++)
			if (sql_col_text(s, 0) &&
				strcmp(rows[i].name, sql_col_text(s, 0)) == 0 &&
				sql_col_text(s, 1))
			{
				free(rows[i].build);
				rows[i].build = xstrdup(sql_col_text(s, 1));
			}
	sql_finalize(s);
	if (rc == SQL_ERROR)
		goto fail;
	for (int i = 0; i < n; i++)
	{
		char **texts[] = {&rows[i].gucs, &rows[i].settings, &rows[i].defines,
						  &rows[i].pg_config};

		/* every variant has GUCs and settings, if none; a built one its
		 * defines; pg_config only where the server let it be read */
		if (obj[i][0] == NULL)
			obj[i][0] = json_object();
		if (obj[i][1] == NULL)
			obj[i][1] = json_object();
		if (obj[i][2] == NULL && rows[i].build)
			obj[i][2] = json_object();
		for (size_t k = 0; k < lengthof(kinds); k++)
			if (obj[i][k])
				*texts[k] = pjson_text(obj[i][k], 0);
	}
	free(obj);
	return 0;

fail:
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < lengthof(kinds); k++)
			json_decref(obj[i][k]);
	free(obj);
	return db_fail(st, err, "could not read the variants' settings");
}

int
docs_warmup_get(struct store *st, struct store_point_row *p,
				struct pgc_error *err)
{
	struct sql_stmt *s;
	json_t *w = NULL, *tps;
	int rc;

	if ((s = sql_prepare(st->db, "SELECT until_mode, max_s, tolerance,"
								 " tick_s, stable, drift FROM point_warmup"
								 " WHERE point_id = ?")) == NULL)
		return db_fail(st, err, "could not read a point's warm-up");
	sql_bind_int64(s, 1, p->id);
	if ((rc = sql_step(s)) == SQL_ROW)
	{
		static const char *const keys[] = {"max_s", "tolerance", "tick_s"};

		/* the document as it was written: a key whose column is NULL was
		 * not in it */
		w = json_object();
		if (!sql_col_null(s, 0))
			json_object_set_new(w, "until", pjson_str(sql_col_text(s, 0)));
		for (int k = 0; k < 3; k++)
			if (!sql_col_null(s, 1 + k))
				json_object_set_new(w, keys[k],
									json_real(sql_col_double(s, 1 + k)));
		if (!sql_col_null(s, 4))
			json_object_set_new(w, "stable",
								json_boolean(sql_col_int64(s, 4) != 0));
		if (!sql_col_null(s, 5))
			json_object_set_new(w, "drift", json_real(sql_col_double(s, 5)));
	}
	sql_finalize(s);
	if (rc == SQL_ERROR)
		return db_fail(st, err, "could not read a point's warm-up");
	if (w == NULL)
		return 0;
	tps = json_array();
	json_object_set_new(w, "tps", tps);
	if ((s = sql_prepare(st->db, "SELECT tps FROM point_warmup_tick"
								 " WHERE point_id = ? ORDER BY tick")) == NULL)
	{
		json_decref(w);
		return db_fail(st, err, "could not read a point's warm-up");
	}
	sql_bind_int64(s, 1, p->id);
	while ((rc = sql_step(s)) == SQL_ROW)
		json_array_append_new(tps, sql_col_null(s, 0)
									   ? json_null()
									   : json_real(sql_col_double(s, 0)));
	sql_finalize(s);
	if (rc == SQL_ERROR)
	{
		json_decref(w);
		return db_fail(st, err, "could not read a point's warm-up");
	}
	p->warmup = pjson_text(w, 0);
	return 0;
}

/* ------------------------------------------------- schema 19 -> 20 */

/*
 * Every stored variant's and point's documents from their JSON columns
 * into the tables, then the columns dropped: in the migration's
 * transaction, on both backends alike.
 */
int
docs_migrate(struct store *st, struct pgc_error *err)
{
	struct sql_stmt *s;
	int rc;

	if ((s = sql_prepare(st->db,
						 "SELECT run_id, name, gucs, settings, defines,"
						 " pg_config, build FROM variant")) == NULL)
		return db_fail(st, err, "could not read the variants to migrate");
	while ((rc = sql_step(s)) == SQL_ROW)
	{
		struct store_variant v = {
			.name = sql_col_text(s, 1),
			.gucs = sql_col_text(s, 2),
			.settings = sql_col_text(s, 3),
			.defines = sql_col_text(s, 4),
			.pg_config = sql_col_text(s, 5),
			.build = sql_col_text(s, 6),
		};

		if (docs_variant_put(st, sql_col_int64(s, 0), &v, err) < 0)
		{
			sql_finalize(s);
			return -1;
		}
	}
	sql_finalize(s);
	if (rc == SQL_ERROR)
		return db_fail(st, err, "could not read the variants to migrate");
	if ((s = sql_prepare(st->db, "SELECT id, scripts, warmup FROM point"
								 " WHERE scripts IS NOT NULL"
								 " OR warmup IS NOT NULL")) == NULL)
		return db_fail(st, err, "could not read the points to migrate");
	while ((rc = sql_step(s)) == SQL_ROW)
		if (docs_point_put(st, sql_col_int64(s, 0), sql_col_text(s, 1),
						   sql_col_text(s, 2), err) < 0)
		{
			sql_finalize(s);
			return -1;
		}
	sql_finalize(s);
	if (rc == SQL_ERROR)
		return db_fail(st, err, "could not read the points to migrate");
	return exec_sql(st,
					"ALTER TABLE variant DROP COLUMN gucs;"
					"ALTER TABLE variant DROP COLUMN settings;"
					"ALTER TABLE variant DROP COLUMN defines;"
					"ALTER TABLE variant DROP COLUMN pg_config;"
					"ALTER TABLE variant DROP COLUMN build;"
					"ALTER TABLE point DROP COLUMN scripts;"
					"ALTER TABLE point DROP COLUMN warmup;",
					err);
}
