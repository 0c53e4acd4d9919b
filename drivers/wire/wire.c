/*
 * wire.c - the spec, result and error documents of a point spread over
 * workers (their one codec each), and what a worker refuses to run; see
 * wire.h.  The store keeps the rows (schemas/store/work.c), the conductor
 * moves them (cmd/conductor/fleet), the engine measures each share.
 */
#include "wire.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hist.h"
#include "pjson.h"
#include "script.h"

#define WIRE_DOC_VERSION 2

/* ------------------------------------------------------------ utilities */

static json_t *
jint(int64_t v)
{
	return json_integer((json_int_t) v);
}

static int64_t
get_int(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (int64_t) json_integer_value(v) : 0;
}

static double
get_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

static bool
get_bool(const json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

static const char *
get_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A libpq keyword/value list as [[k, v], ...], without any password. */
static json_t *
conn_json(const char *const *kw, const char *const *vals)
{
	json_t *a = json_array();

	for (int i = 0; kw && kw[i]; i++)
	{
		if (strcmp(kw[i], "password") == 0 || vals[i] == NULL)
			continue;
		json_array_append_new(a,
							  json_pack("[s,o]", kw[i], pjson_str(vals[i])));
	}
	return a;
}

/* [[k, v], ...] as NULL-terminated arrays borrowing from the document. */
static void
conn_read(const json_t *a, const char ***kw, const char ***vals)
{
	size_t n = json_array_size(a), k = 0;

	*kw = xcalloc(n + 1, sizeof(char *));
	*vals = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
	{
		const json_t *p = json_array_get(a, i);
		const char *key = json_string_value(json_array_get(p, 0));
		const char *val = json_string_value(json_array_get(p, 1));

		if (key && val)
		{
			(*kw)[k] = key;
			(*vals)[k] = val;
			k++;
		}
	}
}

/* Share K of N of a count: pgbench's split, the first ones take one more. */
static int
share_of(int total, int k, int n)
{
	return total / n + (k < total % n);
}

/* ------------------------------------------------------------- the spec */

static json_t *
policy_json(const struct load_policy *p)
{
	json_t *rules;

	if (p == NULL)
		return json_null();
	rules = json_array();
	for (int i = 0; i < p->nrules; i++)
		json_array_append_new(rules, json_pack("[s,i]", p->rules[i].sqlstate,
											   (int) p->rules[i].action));
	return json_pack("{s:i,s:i,s:i,s:i,s:i,s:i,s:o}", "max_tries",
					 p->max_tries, "serialization", (int) p->serialization,
					 "deadlock", (int) p->deadlock, "recovery_conflict",
					 (int) p->recovery_conflict, "other", (int) p->other,
					 "connection", (int) p->connection, "rules", rules);
}

static json_t *
workload_json(const struct load_workload *w)
{
	json_t *o = json_object(), *scripts = json_array(), *defs = json_array();

	for (int k = 0; k < w->nscripts; k++)
	{
		const struct script *s = w->scripts[k];

		json_array_append_new(
			scripts,
			json_pack("{s:o,s:o,s:i,s:o,s:i,s:i,s:i}", "name",
					  pjson_str(s->name), "text", pjson_str(s->text), "weight",
					  w->weights ? w->weights[k] : 1, "file",
					  pjson_str(s->origin.file), "line", s->origin.first_line,
					  "col", s->origin.first_col, "indent", s->origin.indent));
	}
	for (int i = 0; i < w->ndefines; i++)
		json_array_append_new(defs,
							  json_pack("[o,o]", pjson_str(w->defines[i].name),
										pjson_str(w->defines[i].value)));
	json_object_set_new(o, "name", pjson_str(w->name));
	json_object_set_new(o, "clients", jint(w->clients));
	json_object_set_new(o, "jobs", jint(w->jobs));
	json_object_set_new(o, "protocol", jint((int) w->protocol));
	json_object_set_new(o, "transactions", jint(w->transactions));
	json_object_set_new(o, "rate", json_real(w->rate));
	json_object_set_new(o, "latency_limit_ns", jint(w->latency_limit_ns));
	json_object_set_new(o, "timed", json_boolean(w->timed));
	json_object_set_new(o, "at_ns", jint(w->at_ns));
	json_object_set_new(o, "every_ns", jint(w->every_ns));
	json_object_set_new(o, "until_ns", jint(w->until_ns));
	json_object_set_new(o, "reconnect", json_boolean(w->reconnect));
	json_object_set_new(o, "scripts", scripts);
	json_object_set_new(o, "policy", policy_json(w->policy));
	json_object_set_new(o, "defines", defs);
	json_object_set_new(o, "conn",
						conn_json(w->conn_keywords, w->conn_values));
	return o;
}

/* The point's probes: [{name, sql, target, counters: [...]}, ...]. */
static json_t *
probes_json(const struct load_point *lp)
{
	json_t *a = json_array();

	for (int i = 0; i < lp->nprobes; i++)
	{
		const struct load_probe *pr = &lp->probes[i];
		json_t *counters = json_array();

		for (int k = 0; k < pr->ncounters; k++)
			json_array_append_new(counters, pjson_str(pr->counters[k]));
		json_array_append_new(
			a, json_pack("{s:o,s:o,s:o,s:o}", "name", pjson_str(pr->name),
						 "sql", pjson_str(pr->sql), "target",
						 pjson_str(pr->target), "counters", counters));
	}
	return a;
}

char *
wire_spec(const struct load_point *lp, int nshares, int64_t ready_timeout_ns,
		  double clock_offset_us, double clock_err_us)
{
	json_t *o = json_object(), *wls = json_array(), *nodes = json_array();

	for (int i = 0; i < lp->nworkloads; i++)
		json_array_append_new(wls, workload_json(&lp->workloads[i]));
	for (int i = 0; i < lp->nnodes; i++)
		json_array_append_new(nodes,
							  json_pack("{s:o,s:o}", "name",
										pjson_str(lp->nodes[i].name), "conn",
										conn_json(lp->nodes[i].conn_keywords,
												  lp->nodes[i].conn_values)));
	json_object_set_new(o, "version", jint(WIRE_DOC_VERSION));
	json_object_set_new(o, "nshares", jint(nshares));
	json_object_set_new(o, "seed", jint((int64_t) lp->seed));
	json_object_set_new(o, "scale", jint(lp->scale));
	json_object_set_new(o, "warmup_ns", jint(lp->warmup_ns));
	json_object_set_new(o, "duration_ns", jint(lp->duration_ns));
	json_object_set_new(o, "connect_timeout_s", jint(lp->connect_timeout_s));
	json_object_set_new(o, "ready_timeout_ns", jint(ready_timeout_ns));
	/* when, by the coordinator's wall clock: a worker refuses it long
	 * after (wire_share_fresh()) */
	json_object_set_new(o, "posted_us", jint(clock_wall_us()));
	/* the coordinator's clock against the store's: each worker measures
	 * its own the same way, and the difference is theirs */
	json_object_set_new(o, "clock_offset_us", json_real(clock_offset_us));
	json_object_set_new(o, "clock_err_us", json_real(clock_err_us));
	json_object_set_new(o, "per_statement", json_boolean(lp->per_statement));
	json_object_set_new(o, "verbose_errors", json_boolean(lp->verbose_errors));
	json_object_set_new(o, "exit_on_abort", json_boolean(lp->exit_on_abort));
	json_object_set_new(o, "failures_detailed",
						json_boolean(lp->failures_detailed));
	json_object_set_new(o, "workloads", wls);
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "probes", probes_json(lp));
	return pjson_text(o, JSON_COMPACT);
}

/* ------------------------------------------------------- a worker's share */

struct wire_share
{
	json_t *doc; /* the spec: every string below is borrowed from it */
	struct load_point lp;
	struct load_workload *wl;
	int *index; /* the spec's workload index of each of the share's */
	int nwl;
	int clients;
	int64_t ready_timeout_ns;
	int64_t posted_us;      /* when the coordinator posted it, its clock */
	double clock_offset_us; /* the coordinator's, against the store's */
	double clock_err_us;
	struct script ***scripts;
	int **weights;
	struct load_policy *policies;
	struct load_rule **rules;
	struct script_define **defines;
	const char ***kw;
	const char ***vals;
	struct load_node *nodes;
	const char ***node_kw;
	const char ***node_vals;
	int nnodes;
	struct load_probe *probes;
	const char ***probe_counters;
	int nprobes;
};

void
wire_share_free(struct wire_share *s)
{
	if (s == NULL)
		return;
	for (int i = 0; i < s->nwl; i++)
	{
		for (int k = 0; k < s->wl[i].nscripts; k++)
			script_free(s->scripts[i][k]);
		free(s->scripts[i]);
		free(s->weights[i]);
		free(s->rules[i]);
		free(s->defines[i]);
		free(s->kw[i]);
		free(s->vals[i]);
	}
	for (int i = 0; i < s->nnodes; i++)
	{
		free(s->node_kw[i]);
		free(s->node_vals[i]);
	}
	for (int i = 0; i < s->nprobes; i++)
		free(s->probe_counters[i]);
	free(s->probes);
	free(s->probe_counters);
	free(s->scripts);
	free(s->weights);
	free(s->rules);
	free(s->defines);
	free(s->kw);
	free(s->vals);
	free(s->policies);
	free(s->wl);
	free(s->index);
	free(s->nodes);
	free(s->node_kw);
	free(s->node_vals);
	json_decref(s->doc);
	free(s);
}

/* The spec's probes (borrowed from its document), for the sampling share. */
static void
read_probes(struct wire_share *s, const json_t *a)
{
	size_t n = json_array_size(a);

	s->probes = xcalloc(n + 1, sizeof(*s->probes));
	s->probe_counters = xcalloc(n + 1, sizeof(char **));
	for (size_t i = 0; i < n; i++)
	{
		const json_t *pr = json_array_get(a, i);
		const json_t *c = json_object_get(pr, "counters");
		struct load_probe *p = &s->probes[s->nprobes];
		const char **counters;

		/* a probe without a name or a query is nothing to run */
		if (get_str(pr, "name") == NULL || get_str(pr, "sql") == NULL)
			continue;
		p->name = get_str(pr, "name");
		p->sql = get_str(pr, "sql");
		p->target = get_str(pr, "target");
		counters = xcalloc(json_array_size(c) + 1, sizeof(char *));
		for (size_t k = 0; k < json_array_size(c); k++)
			if (json_string_value(json_array_get(c, k)))
				counters[p->ncounters++] =
					json_string_value(json_array_get(c, k));
		p->counters = counters;
		s->probe_counters[s->nprobes++] = counters;
	}
}

static int
read_workload(struct wire_share *s, const json_t *w, int i, int share,
			  int nshares, struct pgc_error *err)
{
	struct load_workload *lw = &s->wl[s->nwl];
	const json_t *scripts = json_object_get(w, "scripts");
	const json_t *pol = json_object_get(w, "policy");
	const json_t *defs = json_object_get(w, "defines");
	int clients = (int) get_int(w, "clients");
	int jobs = (int) get_int(w, "jobs");
	int n = s->nwl;
	int ns = (int) json_array_size(scripts);

	lw->clients = share_of(clients, share, nshares);
	if (lw->clients == 0)
		return 0; /* fewer clients than workers: this share has none */
	lw->jobs = share_of(jobs, share, nshares);
	if (lw->jobs < 1)
		lw->jobs = 1;
	if (lw->jobs > lw->clients)
		lw->jobs = lw->clients;
	lw->name = get_str(w, "name");
	lw->protocol = (enum load_protocol) get_int(w, "protocol");
	lw->transactions = get_int(w, "transactions");
	lw->rate = get_num(w, "rate") * lw->clients / clients;
	lw->latency_limit_ns = get_int(w, "latency_limit_ns");
	lw->timed = get_bool(w, "timed");
	lw->at_ns = get_int(w, "at_ns");
	lw->every_ns = get_int(w, "every_ns");
	lw->until_ns = get_int(w, "until_ns");
	lw->reconnect = get_bool(w, "reconnect");
	if (ns < 1 || lw->name == NULL)
	{
		error_set(err, PGC_ERR_INTERNAL, "a point's spec lacks a workload");
		return -1;
	}
	s->scripts[n] = xcalloc((size_t) ns, sizeof(struct script *));
	s->weights[n] = xcalloc((size_t) ns, sizeof(int));
	lw->nscripts = 0;
	for (int k = 0; k < ns; k++)
	{
		const json_t *sc = json_array_get(scripts, (size_t) k);
		struct script_origin origin;
		const char *text = get_str(sc, "text");

		memset(&origin, 0, sizeof(origin));
		origin.file = get_str(sc, "file");
		origin.first_line = (int) get_int(sc, "line");
		origin.first_col = (int) get_int(sc, "col");
		origin.indent = (int) get_int(sc, "indent");
		s->scripts[n][k] = script_parse_next(k ? s->scripts[n][k - 1] : NULL,
											 k, get_str(sc, "name"),
											 text ? text : "", &origin, err);
		if (s->scripts[n][k] == NULL)
			return -1;
		lw->nscripts = k + 1;
		s->weights[n][k] = (int) get_int(sc, "weight");
	}
	lw->scripts = (const struct script *const *) s->scripts[n];
	lw->weights = s->weights[n];
	if (json_is_object(pol))
	{
		struct load_policy *p = &s->policies[n];
		const json_t *rules = json_object_get(pol, "rules");
		int nr = (int) json_array_size(rules);

		p->max_tries = (int) get_int(pol, "max_tries");
		p->serialization = (enum load_action) get_int(pol, "serialization");
		p->deadlock = (enum load_action) get_int(pol, "deadlock");
		p->recovery_conflict =
			(enum load_action) get_int(pol, "recovery_conflict");
		p->other = (enum load_action) get_int(pol, "other");
		p->connection = (enum load_action) get_int(pol, "connection");
		s->rules[n] = xcalloc((size_t) nr + 1, sizeof(struct load_rule));
		for (int k = 0; k < nr; k++)
		{
			const json_t *r = json_array_get(rules, (size_t) k);
			const char *code = json_string_value(json_array_get(r, 0));

			snprintf(s->rules[n][k].sqlstate, sizeof(s->rules[n][k].sqlstate),
					 "%s", code ? code : "");
			s->rules[n][k].action =
				(enum load_action) json_integer_value(json_array_get(r, 1));
		}
		p->rules = s->rules[n];
		p->nrules = nr;
		lw->policy = p;
	}
	s->defines[n] =
		xcalloc(json_array_size(defs) + 1, sizeof(struct script_define));
	for (size_t k = 0; k < json_array_size(defs); k++)
	{
		const json_t *d = json_array_get(defs, k);

		s->defines[n][k].name = json_string_value(json_array_get(d, 0));
		s->defines[n][k].value = json_string_value(json_array_get(d, 1));
	}
	lw->defines = s->defines[n];
	lw->ndefines = (int) json_array_size(defs);
	conn_read(json_object_get(w, "conn"), &s->kw[n], &s->vals[n]);
	lw->conn_keywords = s->kw[n];
	lw->conn_values = s->vals[n];
	s->index[n] = i;
	s->clients += lw->clients;
	s->nwl++;
	return 0;
}

struct wire_share *
wire_share_new(const char *spec, int share, struct pgc_error *err)
{
	struct wire_share *s = xcalloc(1, sizeof(*s));
	json_error_t jerr;
	const json_t *wls, *nodes;
	int nshares, nw;

	s->doc = json_loads(spec, 0, &jerr);
	if (s->doc == NULL || get_int(s->doc, "version") != WIRE_DOC_VERSION)
	{
		error_set(err, PGC_ERR_INTERNAL,
				  "a point's spec this pgcliff cannot read (version %" PRId64
				  ")",
				  s->doc ? get_int(s->doc, "version") : -1);
		error_hint(err, "run the same pgcliff version on the coordinator "
						"and every worker");
		wire_share_free(s);
		return NULL;
	}
	wls = json_object_get(s->doc, "workloads");
	nodes = json_object_get(s->doc, "nodes");
	nshares = (int) get_int(s->doc, "nshares");
	nw = (int) json_array_size(wls);
	if (nshares < 1 || share < 0 || share >= nshares || nw < 1)
	{
		error_set(err, PGC_ERR_INTERNAL, "a point's spec without share %d",
				  share);
		wire_share_free(s);
		return NULL;
	}
	s->wl = xcalloc((size_t) nw, sizeof(*s->wl));
	s->index = xcalloc((size_t) nw, sizeof(int));
	s->scripts = xcalloc((size_t) nw, sizeof(*s->scripts));
	s->weights = xcalloc((size_t) nw, sizeof(*s->weights));
	s->policies = xcalloc((size_t) nw, sizeof(*s->policies));
	s->rules = xcalloc((size_t) nw, sizeof(struct load_rule *));
	s->defines = xcalloc((size_t) nw, sizeof(struct script_define *));
	s->kw = xcalloc((size_t) nw, sizeof(*s->kw));
	s->vals = xcalloc((size_t) nw, sizeof(*s->vals));
	for (int i = 0; i < nw; i++)
		if (read_workload(s, json_array_get(wls, (size_t) i), i, share,
						  nshares, err) < 0)
		{
			/* the failed workload's half-made scripts go with it */
			s->nwl++;
			wire_share_free(s);
			return NULL;
		}
	/* the servers are sampled once a second by one share, the first */
	if (share == 0)
	{
		s->nnodes = (int) json_array_size(nodes);
		s->nodes = xcalloc((size_t) s->nnodes + 1, sizeof(struct load_node));
		s->node_kw = xcalloc((size_t) s->nnodes + 1, sizeof(const char **));
		s->node_vals = xcalloc((size_t) s->nnodes + 1, sizeof(const char **));
		for (int i = 0; i < s->nnodes; i++)
		{
			const json_t *nd = json_array_get(nodes, (size_t) i);

			s->nodes[i].name = get_str(nd, "name");
			conn_read(json_object_get(nd, "conn"), &s->node_kw[i],
					  &s->node_vals[i]);
			s->nodes[i].conn_keywords = s->node_kw[i];
			s->nodes[i].conn_values = s->node_vals[i];
		}
		read_probes(s, json_object_get(s->doc, "probes"));
	}
	s->lp.workloads = s->wl;
	s->lp.nworkloads = s->nwl;
	/* each share draws its own random streams */
	s->lp.seed = (uint64_t) get_int(s->doc, "seed") +
				 (uint64_t) share * 0x9e3779b97f4a7c15ULL;
	s->lp.scale = get_int(s->doc, "scale");
	s->lp.warmup_ns = get_int(s->doc, "warmup_ns");
	s->lp.duration_ns = get_int(s->doc, "duration_ns");
	s->lp.connect_timeout_s = (int) get_int(s->doc, "connect_timeout_s");
	s->lp.per_statement = get_bool(s->doc, "per_statement");
	s->lp.verbose_errors = get_bool(s->doc, "verbose_errors");
	s->lp.exit_on_abort = get_bool(s->doc, "exit_on_abort");
	s->lp.failures_detailed = get_bool(s->doc, "failures_detailed");
	s->lp.nodes = s->nodes;
	s->lp.nnodes = s->nnodes;
	s->lp.probes = s->probes;
	s->lp.nprobes = s->nprobes;
	s->ready_timeout_ns = get_int(s->doc, "ready_timeout_ns");
	s->posted_us = get_int(s->doc, "posted_us");
	s->clock_offset_us = get_num(s->doc, "clock_offset_us");
	s->clock_err_us = get_num(s->doc, "clock_err_us");
	return s;
}

struct load_point *
wire_share_point(struct wire_share *s)
{
	return &s->lp;
}

int
wire_share_clients(const struct wire_share *s)
{
	return s->clients;
}

/* ----------------------------------------------------------- the result */

static json_t *
hist_json(const struct hist *h)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	if (h == NULL)
		return json_null();
	hist_encode(h, &sb);
	j = json_string(sb.buf); /* digits and separators: ASCII */
	strbuf_release(&sb);
	return j;
}

static json_t *
u64_array(const uint64_t *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; v && i < n; i++)
		json_array_append_new(a, jint((int64_t) v[i]));
	return a;
}

static json_t *
dbl_array(const double *v, int n)
{
	json_t *a = json_array();

	for (int i = 0; v && i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return a;
}

/*
 * The six counts a workload and each of its scripts keep alike, in this
 * order: transactions, failures, serialization and deadlock failures,
 * retried transactions, retries.
 */
static const char *const count_keys[6] = {
	"txns",    "failures", "serialization_failures", "deadlock_failures",
	"retried", "retries"};

static void
put_counts(json_t *o, const uint64_t *txns, const uint64_t *failures,
		   const uint64_t *ser, const uint64_t *dl, const uint64_t *retried,
		   const uint64_t *retries)
{
	const uint64_t *v[6] = {txns, failures, ser, dl, retried, retries};

	for (int i = 0; i < 6; i++)
		json_object_set_new(o, count_keys[i], jint((int64_t) *v[i]));
}

static void
add_counts(const json_t *o, uint64_t *txns, uint64_t *failures, uint64_t *ser,
		   uint64_t *dl, uint64_t *retried, uint64_t *retries)
{
	uint64_t *v[6] = {txns, failures, ser, dl, retried, retries};

	for (int i = 0; i < 6; i++)
		*v[i] += (uint64_t) get_int(o, count_keys[i]);
}

static json_t *
wresult_json(const struct load_workload_result *w, int index)
{
	json_t *o = json_object(), *errors = json_array(), *classes = json_array();
	json_t *scripts = json_array(), *events = json_array();

	for (int i = 0; i < w->nerrors; i++)
		json_array_append_new(errors,
							  json_pack("[i,s,I]", w->errors[i].second,
										w->errors[i].sqlclass,
										(json_int_t) w->errors[i].count));
	for (int i = 0; i < w->nclasses; i++)
		json_array_append_new(classes,
							  json_pack("[s,I]", w->classes[i].sqlclass,
										(json_int_t) w->classes[i].count));
	for (int i = 0; i < w->nscripts; i++)
	{
		const struct load_script_result *s = &w->scripts[i];
		json_t *so = json_object();
		put_counts(so, &s->txns, &s->failures, &s->serialization_failures,
				   &s->deadlock_failures, &s->retried, &s->retries);
		json_object_set_new(so, "latency", hist_json(s->latency));
		json_object_set_new(so, "cmd_lat_sum_ns",
							dbl_array(s->cmd_lat_sum_ns, s->ncmds));
		json_object_set_new(so, "cmd_count",
							u64_array(s->cmd_count, s->ncmds));
		json_object_set_new(so, "cmd_failures",
							u64_array(s->cmd_failures, s->ncmds));
		json_object_set_new(so, "cmd_retries",
							u64_array(s->cmd_retries, s->ncmds));
		json_object_set_new(so, "ncmds", jint(s->ncmds));
		json_array_append_new(scripts, so);
	}
	for (int i = 0; i < w->nevents; i++)
		json_array_append_new(events,
							  json_pack("[i,I,I]", w->events[i].seq,
										(json_int_t) w->events[i].planned_ns,
										(json_int_t) w->events[i].actual_ns));
	json_object_set_new(o, "index", jint(index));
	put_counts(o, &w->txns, &w->failures, &w->serialization_failures,
			   &w->deadlock_failures, &w->retried, &w->retries);
	json_object_set_new(o, "skipped", jint((int64_t) w->skipped));
	json_object_set_new(o, "late", jint((int64_t) w->late));
	json_object_set_new(o, "lag_avg_ms", json_real(w->lag_avg_ms));
	json_object_set_new(o, "lag_max_ms", json_real(w->lag_max_ms));
	json_object_set_new(o, "reconnects", jint((int64_t) w->reconnects));
	json_object_set_new(o, "reconnect_ns_sum", json_real(w->reconnect_ns_sum));
	json_object_set_new(o, "errors", errors);
	json_object_set_new(o, "classes", classes);
	json_object_set_new(o, "latency", hist_json(w->latency));
	json_object_set_new(o, "sec_txns", u64_array(w->sec_txns, w->nseconds));
	json_object_set_new(o, "sec_failures",
						u64_array(w->sec_failures, w->nseconds));
	json_object_set_new(o, "sec_lat_sum_ns",
						dbl_array(w->sec_lat_sum_ns, w->nseconds));
	json_object_set_new(o, "sec_lat_max_ns",
						u64_array(w->sec_lat_max_ns, w->nseconds));
	json_object_set_new(o, "aborted_clients", jint(w->aborted_clients));
	json_object_set_new(o, "first_error", pjson_str(w->first_error));
	json_object_set_new(o, "jobs", jint(w->jobs));
	json_object_set_new(o, "scripts", scripts);
	json_object_set_new(o, "events", events);
	return o;
}

static json_t *
samples_json(const struct load_result *res)
{
	json_t *a = json_array();

	for (int i = 0; i < res->nsamples; i++)
	{
		const struct load_sample *s = &res->samples[i];
		json_t *conflicts = json_array();

		for (int k = 0; k < 5; k++)
			json_array_append_new(conflicts, jint(s->conflicts[k]));
		json_array_append_new(
			a, json_pack("{s:i,s:i,s:b,s:I,s:o,s:b,s:I,s:f,s:o,s:f,s:o}",
						 "node", s->node, "second", s->second, "ok", s->ok,
						 "commits", (json_int_t) s->commits, "conflicts",
						 conflicts, "standby", s->standby, "lag_bytes",
						 (json_int_t) s->lag_bytes, "lag_s", s->lag_s, "waits",
						 pjson_str(s->waits), "query_ms", s->query_ms, "error",
						 pjson_str(s->error)));
		if (s->probes)
			json_object_set_new(json_array_get(a, json_array_size(a) - 1),
								"probes", pjson_str(s->probes));
	}
	return a;
}

char *
wire_result(const struct wire_share *s, const struct load_result *res)
{
	json_t *o = json_object(), *wls = json_array();

	for (int i = 0; i < res->nworkloads && i < s->nwl; i++)
		json_array_append_new(wls, wresult_json(&res->w[i], s->index[i]));
	json_object_set_new(o, "version", jint(WIRE_DOC_VERSION));
	json_object_set_new(o, "clients", jint(s->clients));
	json_object_set_new(o, "conn_ms", json_real(res->conn_ms));
	json_object_set_new(o, "prepare_ms", json_real(res->prepare_ms));
	json_object_set_new(o, "window_ns", jint(res->window_ns));
	json_object_set_new(o, "warmup_ns", jint(res->warmup_ns));
	json_object_set_new(o, "interrupted", json_boolean(res->interrupted));
	json_object_set_new(o, "steal_pct", json_real(res->steal_pct));
	json_object_set_new(o, "workloads", wls);
	json_object_set_new(o, "samples", samples_json(res));
	return pjson_text(o, JSON_COMPACT);
}

/* ------------------------------------------------------------ the merge */

static void
add_u64s(uint64_t **dst, int *n, const json_t *a, bool max)
{
	int m = (int) json_array_size(a);

	if (m > *n)
	{
		*dst = xrealloc(*dst, (size_t) m * sizeof(uint64_t));
		memset(*dst + *n, 0, (size_t) (m - *n) * sizeof(uint64_t));
		*n = m;
	}
	for (int i = 0; i < m; i++)
	{
		uint64_t v =
			(uint64_t) json_integer_value(json_array_get(a, (size_t) i));

		if (max)
			(*dst)[i] = v > (*dst)[i] ? v : (*dst)[i];
		else
			(*dst)[i] += v;
	}
}

static void
add_dbls(double **dst, int n, const json_t *a)
{
	int m = (int) json_array_size(a);

	if (m > n)
	{
		*dst = xrealloc(*dst, (size_t) m * sizeof(double));
		for (int i = n; i < m; i++)
			(*dst)[i] = 0;
	}
	for (int i = 0; i < m; i++)
		(*dst)[i] += json_number_value(json_array_get(a, (size_t) i));
}

static int
add_hist(struct hist **dst, const json_t *v)
{
	struct hist *h;

	if (!json_is_string(v))
		return 0;
	h = xmalloc(sizeof(*h));
	if (hist_decode(json_string_value(v), h) < 0)
	{
		free(h);
		return -1;
	}
	if (*dst == NULL)
		*dst = h;
	else
	{
		hist_add(*dst, h);
		free(h);
	}
	return 0;
}

static void
add_class(struct load_failure_class **cl, int *n, const char *name,
		  uint64_t count)
{
	for (int i = 0; i < *n; i++)
		if (strcmp((*cl)[i].sqlclass, name) == 0)
		{
			(*cl)[i].count += count;
			return;
		}
	*cl = xrealloc(*cl, (size_t) (*n + 1) * sizeof(**cl));
	memset(&(*cl)[*n], 0, sizeof(**cl));
	snprintf((*cl)[*n].sqlclass, sizeof((*cl)[*n].sqlclass), "%s", name);
	(*cl)[*n].count = count;
	(*n)++;
}

static void
add_error(struct load_workload_result *w, int second, const char *name,
		  uint64_t count)
{
	for (int i = 0; i < w->nerrors; i++)
		if (w->errors[i].second == second &&
			strcmp(w->errors[i].sqlclass, name) == 0)
		{
			w->errors[i].count += count;
			return;
		}
	w->errors =
		xrealloc(w->errors, (size_t) (w->nerrors + 1) * sizeof(*w->errors));
	memset(&w->errors[w->nerrors], 0, sizeof(*w->errors));
	w->errors[w->nerrors].second = second;
	snprintf(w->errors[w->nerrors].sqlclass,
			 sizeof(w->errors[w->nerrors].sqlclass), "%s", name);
	w->errors[w->nerrors].count = count;
	w->nerrors++;
}

static int
cmp_error(const void *a, const void *b)
{
	const struct load_error_second *x = a, *y = b;

	if (x->second != y->second)
		return x->second < y->second ? -1 : 1;
	return strcmp(x->sqlclass, y->sqlclass);
}

static void
add_event(struct load_workload_result *w, int seq, int64_t planned,
		  int64_t actual)
{
	for (int i = 0; i < w->nevents; i++)
		if (w->events[i].seq == seq)
		{
			/* an occurrence starts when its first client began */
			if (actual < w->events[i].actual_ns)
				w->events[i].actual_ns = actual;
			return;
		}
	w->events =
		xrealloc(w->events, (size_t) (w->nevents + 1) * sizeof(*w->events));
	w->events[w->nevents].seq = seq;
	w->events[w->nevents].planned_ns = planned;
	w->events[w->nevents].actual_ns = actual;
	w->nevents++;
}

static void
merge_scripts(struct load_workload_result *w, const json_t *scripts)
{
	int n = (int) json_array_size(scripts);

	if (w->scripts == NULL && n > 0)
	{
		w->scripts = xcalloc((size_t) n, sizeof(*w->scripts));
		w->nscripts = n;
	}
	for (int k = 0; k < n && k < w->nscripts; k++)
	{
		const json_t *so = json_array_get(scripts, (size_t) k);
		struct load_script_result *s = &w->scripts[k];
		int ncmds = (int) get_int(so, "ncmds");
		add_counts(so, &s->txns, &s->failures, &s->serialization_failures,
				   &s->deadlock_failures, &s->retried, &s->retries);
		(void) add_hist(&s->latency, json_object_get(so, "latency"));
		if (ncmds > 0)
		{
			int had = s->ncmds;

			add_dbls(&s->cmd_lat_sum_ns, had,
					 json_object_get(so, "cmd_lat_sum_ns"));
			add_u64s(&s->cmd_count, &had, json_object_get(so, "cmd_count"),
					 false);
			had = s->ncmds;
			add_u64s(&s->cmd_failures, &had,
					 json_object_get(so, "cmd_failures"), false);
			had = s->ncmds;
			add_u64s(&s->cmd_retries, &had, json_object_get(so, "cmd_retries"),
					 false);
			if (ncmds > s->ncmds)
				s->ncmds = ncmds;
		}
	}
}

static int
merge_workload(struct load_workload_result *w, const json_t *o,
			   uint64_t *lag_weight)
{
	const json_t *a;
	size_t i;
	int n = w->nseconds;
	uint64_t txns = (uint64_t) get_int(o, "txns");
	double lag_max = get_num(o, "lag_max_ms");
	add_counts(o, &w->txns, &w->failures, &w->serialization_failures,
			   &w->deadlock_failures, &w->retried, &w->retries);
	w->skipped += (uint64_t) get_int(o, "skipped");
	w->late += (uint64_t) get_int(o, "late");
	/* a mean over the transactions of all drivers */
	if (*lag_weight + txns > 0)
		w->lag_avg_ms = (w->lag_avg_ms * (double) *lag_weight +
						 get_num(o, "lag_avg_ms") * (double) txns) /
						(double) (*lag_weight + txns);
	*lag_weight += txns;
	if (lag_max > w->lag_max_ms)
		w->lag_max_ms = lag_max;
	w->reconnects += (uint64_t) get_int(o, "reconnects");
	w->reconnect_ns_sum += get_num(o, "reconnect_ns_sum");
	json_array_foreach(json_object_get(o, "errors"), i, a)
	{
		const char *cls = json_string_value(json_array_get(a, 1));

		add_error(w, (int) json_integer_value(json_array_get(a, 0)),
				  cls ? cls : "?",
				  (uint64_t) json_integer_value(json_array_get(a, 2)));
	}
	json_array_foreach(json_object_get(o, "classes"), i, a)
	{
		const char *cls = json_string_value(json_array_get(a, 0));

		add_class(&w->classes, &w->nclasses, cls ? cls : "?",
				  (uint64_t) json_integer_value(json_array_get(a, 1)));
	}
	if (add_hist(&w->latency, json_object_get(o, "latency")) < 0)
		return -1;
	/* second k of every driver is the same second: they share the start */
	add_u64s(&w->sec_txns, &n, json_object_get(o, "sec_txns"), false);
	n = w->nseconds;
	add_u64s(&w->sec_failures, &n, json_object_get(o, "sec_failures"), false);
	add_dbls(&w->sec_lat_sum_ns, w->nseconds,
			 json_object_get(o, "sec_lat_sum_ns"));
	n = w->nseconds;
	add_u64s(&w->sec_lat_max_ns, &n, json_object_get(o, "sec_lat_max_ns"),
			 true);
	if (n > w->nseconds)
		w->nseconds = n;
	w->aborted_clients += (int) get_int(o, "aborted_clients");
	if (w->first_error[0] == '\0' && get_str(o, "first_error"))
		snprintf(w->first_error, sizeof(w->first_error), "%s",
				 get_str(o, "first_error"));
	w->jobs += (int) get_int(o, "jobs");
	merge_scripts(w, json_object_get(o, "scripts"));
	json_array_foreach(json_object_get(o, "events"), i, a)
		add_event(w, (int) json_integer_value(json_array_get(a, 0)),
				  (int64_t) json_integer_value(json_array_get(a, 1)),
				  (int64_t) json_integer_value(json_array_get(a, 2)));
	return 0;
}

static void
merge_samples(struct load_result *out, const json_t *a)
{
	size_t i;
	const json_t *s;

	json_array_foreach(a, i, s)
	{
		struct load_sample *d;
		const json_t *c = json_object_get(s, "conflicts");

		out->samples = xrealloc(out->samples, (size_t) (out->nsamples + 1) *
												  sizeof(*out->samples));
		d = &out->samples[out->nsamples++];
		memset(d, 0, sizeof(*d));
		d->node = (int) get_int(s, "node");
		d->second = (int) get_int(s, "second");
		d->ok = get_bool(s, "ok");
		d->commits = get_int(s, "commits");
		for (int k = 0; k < 5; k++)
			d->conflicts[k] =
				json_integer_value(json_array_get(c, (size_t) k));
		d->standby = get_bool(s, "standby");
		d->lag_bytes = get_int(s, "lag_bytes");
		d->lag_s = get_num(s, "lag_s");
		d->waits = get_str(s, "waits") ? xstrdup(get_str(s, "waits")) : NULL;
		d->probes =
			get_str(s, "probes") ? xstrdup(get_str(s, "probes")) : NULL;
		d->query_ms = get_num(s, "query_ms");
		snprintf(d->error, sizeof(d->error), "%s",
				 get_str(s, "error") ? get_str(s, "error") : "");
	}
}

int
wire_merge(const char *const *results, int n, int nworkloads,
		   struct load_result *out, struct pgc_error *err)
{
	uint64_t *lag_weight = xcalloc((size_t) nworkloads, sizeof(uint64_t));
	memset(out, 0, sizeof(*out));
	out->w = xcalloc((size_t) nworkloads, sizeof(*out->w));
	out->nworkloads = nworkloads;
	out->steal_pct = -1.0;
	for (int r = 0; r < n; r++)
	{
		json_error_t jerr;
		json_t *doc = json_loads(results[r], 0, &jerr);
		const json_t *wo;
		size_t i;
		double conn, prep;
		int64_t window;

		if (doc == NULL || get_int(doc, "version") != WIRE_DOC_VERSION)
		{
			json_decref(doc);
			error_set(err, PGC_ERR_INTERNAL,
					  "a worker's result this pgcliff cannot read");
			error_hint(err, "run the same pgcliff version on the coordinator "
							"and every worker");
			free(lag_weight);
			load_result_release(out);
			return -1;
		}
		/* the point's phases end when the slowest driver's do */
		conn = get_num(doc, "conn_ms");
		prep = get_num(doc, "prepare_ms");
		window = get_int(doc, "window_ns");
		out->conn_ms = conn > out->conn_ms ? conn : out->conn_ms;
		out->prepare_ms = prep > out->prepare_ms ? prep : out->prepare_ms;
		out->window_ns = window > out->window_ns ? window : out->window_ns;
		out->warmup_ns = get_int(doc, "warmup_ns");
		out->interrupted |= get_bool(doc, "interrupted");
		/* the worst host's: a share slowed by its hypervisor slows the
		 * point */
		if (json_is_number(json_object_get(doc, "steal_pct")) &&
			get_num(doc, "steal_pct") > out->steal_pct)
			out->steal_pct = get_num(doc, "steal_pct");
		json_array_foreach(json_object_get(doc, "workloads"), i, wo)
		{
			int wi = (int) get_int(wo, "index");

			if (wi < 0 || wi >= nworkloads ||
				merge_workload(&out->w[wi], wo, &lag_weight[wi]) < 0)
			{
				json_decref(doc);
				error_set(err, PGC_ERR_INTERNAL,
						  "a worker's result with a workload this point "
						  "does not have, or a broken histogram");
				free(lag_weight);
				load_result_release(out);
				return -1;
			}
		}
		merge_samples(out, json_object_get(doc, "samples"));
		json_decref(doc);
	}
	for (int wi = 0; wi < nworkloads; wi++)
	{
		struct load_workload_result *w = &out->w[wi];

		if (w->errors)
			qsort(w->errors, (size_t) w->nerrors, sizeof(*w->errors),
				  cmp_error);
		if (w->latency == NULL)
		{
			w->latency = xmalloc(sizeof(*w->latency));
			hist_reset(w->latency);
		}
		/* every workload keeps the same seconds, even one that ran nowhere */
		if (w->sec_txns == NULL)
		{
			int ns = (int) ((out->window_ns + 999999999) / 1000000000);

			w->nseconds = ns > 0 ? ns : 1;
			w->sec_txns = xcalloc((size_t) w->nseconds, sizeof(uint64_t));
			w->sec_failures = xcalloc((size_t) w->nseconds, sizeof(uint64_t));
			w->sec_lat_sum_ns = xcalloc((size_t) w->nseconds, sizeof(double));
			w->sec_lat_max_ns =
				xcalloc((size_t) w->nseconds, sizeof(uint64_t));
		}
	}
	free(lag_weight);
	return 0;
}

/* ---------------------------------------------------- a worker's errors */

/* A failure as the share's error: {"kind": K, "message": ..., ...}. */
char *
wire_error_doc(const struct pgc_error *e)
{
	json_t *o = json_object();

	json_object_set_new(o, "kind", jint((int) e->kind));
	json_object_set_new(o, "message", pjson_str(e->message));
	if (e->detail[0])
		json_object_set_new(o, "detail", pjson_str(e->detail));
	if (e->hint[0])
		json_object_set_new(o, "hint", pjson_str(e->hint));
	if (e->sqlstate[0])
		json_object_set_new(o, "sqlstate", pjson_str(e->sqlstate));
	if (e->file[0])
		json_object_set_new(o, "at",
							json_pack("[o,i,i,i]", pjson_str(e->file), e->line,
									  e->col, e->span));
	return pjson_text(o, JSON_COMPACT);
}

void
wire_error_read(const char *doc, const char *worker, int share, int nshares,
				struct pgc_error *err)
{
	json_error_t jerr;
	json_t *o = doc ? json_loads(doc, 0, &jerr) : NULL;
	const char *msg = o ? get_str(o, "message") : doc;
	int kind = o ? (int) get_int(o, "kind") : (int) PGC_ERR_UNAVAILABLE;

	/* the worker's SQL and script errors are the recipe's; the rest is
	 * the worker's trouble */
	if (kind != PGC_ERR_SQL && kind != PGC_ERR_RECIPE)
		kind = PGC_ERR_UNAVAILABLE;
	error_set(err, (enum pgc_error_kind) kind,
			  "worker %s (share %d of %d) failed: %s", worker ? worker : "?",
			  share + 1, nshares, msg ? msg : "no reason given");
	if (o && get_str(o, "detail"))
		error_detail(err, "%s", get_str(o, "detail"));
	if (o && get_str(o, "hint"))
		error_hint(err, "%s", get_str(o, "hint"));
	if (o && get_str(o, "sqlstate"))
		snprintf(err->sqlstate, sizeof(err->sqlstate), "%s",
				 get_str(o, "sqlstate"));
	if (o && json_is_array(json_object_get(o, "at")))
	{
		const json_t *at = json_object_get(o, "at");
		const char *file = json_string_value(json_array_get(at, 0));

		error_at(err, file ? file : "",
				 (int) json_integer_value(json_array_get(at, 1)),
				 (int) json_integer_value(json_array_get(at, 2)),
				 (int) json_integer_value(json_array_get(at, 3)));
	}
	json_decref(o);
}

/* ---------------------------------------------- what a worker will run */

/*
 * The first host or hostaddr of SHARE's connections (its workloads' and
 * its nodes') that ALLOW does not list, refused into ERR (-1) before
 * anything of the share connects; else 0.
 */
static int
refuse_hosts(const struct wire_share *share, const struct wire_hosts *allow,
			 struct pgc_error *err)
{
	for (int i = 0; i < share->nwl + share->nnodes; i++)
	{
		const char *const *kw =
			i < share->nwl ? share->kw[i] : share->node_kw[i - share->nwl];
		const char *const *val =
			i < share->nwl ? share->vals[i] : share->node_vals[i - share->nwl];
		const char *what =
			i < share->nwl ? "workload" : "the sampling of server";
		const char *name = i < share->nwl ? share->wl[i].name
										  : share->nodes[i - share->nwl].name;

		for (int k = 0; kw && kw[k]; k++)
		{
			char *list, *save = NULL;

			/* a service's hosts are in a file this worker reads: not
			 * to be checked here, so not to be named by a spec */
			if (strcmp(kw[k], "service") == 0 ||
				strcmp(kw[k], "servicefile") == 0)
			{
				error_set(err, PGC_ERR_UNAVAILABLE,
						  "refused: %s %s names a %s (\"%s\"), whose hosts "
						  "this worker cannot check",
						  what, name, kw[k], val[k]);
				error_hint(err, "give the run's --target host= and port=, "
								"not service=");
				return -1;
			}
			if (strcmp(kw[k], "host") != 0 && strcmp(kw[k], "hostaddr") != 0)
				continue;
			list = xstrdup(val[k]);
			for (char *h = strtok_r(list, ",", &save); h;
				 h = strtok_r(NULL, ",", &save))
			{
				while (*h == ' ')
					h++;
				if (wire_host_allowed(allow, h))
					continue;
				error_set(err, PGC_ERR_UNAVAILABLE,
						  "refused: %s %s connects to %s \"%s\", which this "
						  "worker does not allow (its store's host, and "
						  "--allow-host)",
						  what, name, kw[k], h);
				error_hint(err, "start the worker with --allow-host %s", h);
				free(list);
				return -1;
			}
			free(list);
		}
	}
	return 0;
}

/*
 * The first \shell or \setshell of SHARE's scripts
 * refused into ERR (-1), before anything of the share connects; else 0.
 */
static int
refuse_shell(const struct wire_share *share, struct pgc_error *err)
{
	for (int i = 0; i < share->nwl; i++)
	{
		const struct load_workload *w = &share->wl[i];

		for (int k = 0; k < w->nscripts; k++)
			for (int m = 0; m < w->scripts[k]->ncmds; m++)
			{
				const struct script_cmd *cmd = &w->scripts[k]->cmds[m];

				if (cmd->kind != SCRIPT_CMD_SHELL &&
					cmd->kind != SCRIPT_CMD_SETSHELL)
					continue;
				error_set(err, PGC_ERR_RECIPE,
						  "refused: workload %s's script %s runs a shell "
						  "command (line %d: %s), and this worker was not "
						  "started with --allow-shell",
						  w->name, w->scripts[k]->name, cmd->line,
						  cmd->first_line);
				return -1;
			}
	}
	return 0;
}

int
wire_share_check(const struct wire_share *share,
				 const struct wire_hosts *allow, bool allow_shell,
				 struct pgc_error *err)
{
	if (refuse_hosts(share, allow, err) < 0)
		return -1;
	return allow_shell ? 0 : refuse_shell(share, err);
}

void
wire_share_clock(const struct wire_share *s, double *offset_us, double *err_us)
{
	*offset_us = s->clock_offset_us;
	*err_us = s->clock_err_us;
}

int
wire_share_fresh(const struct wire_share *share, int64_t now_us,
				 struct pgc_error *err)
{
	int64_t age_us = now_us - share->posted_us, bound_us;
	/* a ready timeout of a day at most: no sum past int64's range */
	int64_t ready_ns = share->ready_timeout_ns;

	if (ready_ns < 0 || ready_ns > 86400 * 1000000000LL)
		ready_ns = 86400 * 1000000000LL;
	bound_us = (ready_ns + WIRE_SPEC_MAX_AGE_NS) / 1000;
	if (age_us > bound_us || age_us < -bound_us)
	{
		error_set(err, PGC_ERR_UNAVAILABLE,
				  "refused: the point's spec was posted %.0f s %s by this "
				  "worker's clock (at most %.0f s): a spec posted again, "
				  "or a clock far off",
				  (double) (age_us < 0 ? -age_us : age_us) / 1e6,
				  age_us < 0 ? "ahead" : "ago", (double) bound_us / 1e6);
		return -1;
	}
	return 0;
}

int64_t
wire_share_ready_timeout_ns(const struct wire_share *s)
{
	return s->ready_timeout_ns > 0 ? s->ready_timeout_ns
								   : WIRE_READY_TIMEOUT_NS;
}
