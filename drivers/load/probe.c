/*
 * probe.c - the recipe's probes, run by the sampler each second beside its
 * own query (see probe_int.h and load_probe in engine.h).  A probe's
 * failure is the probe's, written into its sample; it never fails the
 * node's sample or the point.
 */
#include "probe_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "pjson.h"

void
probe_set_init(struct probe_set *ps, const struct load_probe *probes,
			   int nprobes, int nnodes)
{
	ps->probes = probes;
	ps->nprobes = nprobes;
	ps->nnodes = nnodes;
	ps->last =
		nprobes > 0 && nnodes > 0
			? xcalloc((size_t) nprobes * (size_t) nnodes, sizeof(*ps->last))
			: NULL;
}

static void
last_clear(struct probe_last *l)
{
	for (int c = 0; c < l->ncols; c++)
		free(l->names[c]);
	free(l->names);
	free(l->values);
	free(l->valid);
	memset(l, 0, sizeof(*l));
}

void
probe_set_release(struct probe_set *ps)
{
	for (int i = 0; ps->last && i < ps->nprobes * ps->nnodes; i++)
		last_clear(&ps->last[i]);
	free(ps->last);
	memset(ps, 0, sizeof(*ps));
}

void
probe_set_forget(struct probe_set *ps, int node_idx)
{
	for (int k = 0; ps->last && k < ps->nprobes; k++)
		last_clear(&ps->last[node_idx * ps->nprobes + k]);
}

static bool
is_counter(const struct load_probe *pr, const char *col)
{
	for (int i = 0; i < pr->ncounters; i++)
		if (strcmp(pr->counters[i], col) == 0)
			return true;
	return false;
}

/* A whole number or decimal, as PostgreSQL prints numeric types. */
static bool
parse_number(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return s[0] != '\0' && *end == '\0' && errno == 0 && isfinite(*out);
}

/* The columns of RES become L's, keeping no value from before. */
static void
last_reshape(struct probe_last *l, const PGresult *res)
{
	int n = PQnfields(res);

	last_clear(l);
	l->ncols = n;
	l->names = xcalloc((size_t) n + 1, sizeof(char *));
	l->values = xcalloc((size_t) n + 1, sizeof(double));
	l->valid = xcalloc((size_t) n + 1, sizeof(bool));
	for (int c = 0; c < n; c++)
		l->names[c] = xstrdup(PQfname(res, c));
}

static bool
same_shape(const struct probe_last *l, const PGresult *res)
{
	if (l->ncols != PQnfields(res) || l->names == NULL)
		return false;
	for (int c = 0; c < l->ncols; c++)
		if (strcmp(l->names[c], PQfname(res, c)) != 0)
			return false;
	return true;
}

PGresult *
sampler_exec(PGconn *conn, const char *sql)
{
	PGresult *res = PQexec(conn, sql);
	const char *st = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	if (PQresultStatus(res) == PGRES_FATAL_ERROR && st &&
		strcmp(st, "40001") == 0 && PQstatus(conn) == CONNECTION_OK)
	{
		PQclear(res);
		res = PQexec(conn, sql);
	}
	return res;
}

/* One probe's values, or {"error": ...}. */
static json_t *
run_probe(const struct load_probe *pr, struct probe_last *l, PGconn *conn)
{
	PGresult *res = sampler_exec(conn, pr->sql);
	json_t *o = json_object();

	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
	{
		char msg[200];

		if (PQresultStatus(res) == PGRES_TUPLES_OK)
			snprintf(msg, sizeof(msg), "returned %d rows, not 1",
					 PQntuples(res));
		else if (res && PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY))
			snprintf(msg, sizeof(msg), "%s",
					 PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
		else
			snprintf(msg, sizeof(msg), "%s", PQerrorMessage(conn));
		msg[strcspn(msg, "\n")] = '\0';
		json_object_set_new(o, "error", pjson_str(msg));
		last_clear(l);
		PQclear(res);
		return o;
	}
	if (!same_shape(l, res))
		last_reshape(l, res);
	for (int c = 0; c < l->ncols; c++)
	{
		const char *name = l->names[c];
		bool counter = is_counter(pr, name);
		bool had = l->valid[c];
		double v, before = l->values[c];

		l->valid[c] = false;
		if (PQgetisnull(res, 0, c))
			continue;
		if (!parse_number(PQgetvalue(res, 0, c), &v))
		{
			char msg[200];

			snprintf(msg, sizeof(msg), "column %s is not a number: \"%.60s\"",
					 name, PQgetvalue(res, 0, c));
			json_object_set_new(o, "error", pjson_str(msg));
			continue;
		}
		l->values[c] = v;
		l->valid[c] = true;
		if (!counter)
			json_object_set_new(o, name, json_real(v));
		else if (had)
		{
			char key[128];

			snprintf(key, sizeof(key), "%s/s", name);
			json_object_set_new(o, key, json_real(v - before));
		}
	}
	PQclear(res);
	return o;
}

char *
probe_sample(struct probe_set *ps, PGconn *conn, const struct load_node *node,
			 int node_idx)
{
	json_t *all = NULL;

	for (int k = 0; k < ps->nprobes; k++)
	{
		const struct load_probe *pr = &ps->probes[k];

		if (pr->target && strcmp(pr->target, node->name) != 0)
			continue;
		if (all == NULL)
			all = json_object();
		json_object_set_new(
			all, pr->name,
			run_probe(pr, &ps->last[node_idx * ps->nprobes + k], conn));
	}
	return all ? pjson_text(all, JSON_COMPACT) : NULL;
}
