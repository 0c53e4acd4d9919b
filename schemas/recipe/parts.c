/*
 * parts.c - a recipe's sections other than its workloads: init, variables,
 * server settings, variants and their builds, windows, probes, measure
 * and placement; see recipe.h.
 */
#include "recipe_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "profile.h"

/* The keys each mapping may have. */
static const char *const init_keys[] = {"pgbench", "sql", NULL};
static const char *const pgbench_init_keys[] = {
	"scale",    "fillfactor",   "partitions", "partition_method",
	"unlogged", "foreign_keys", "init_steps", NULL};
static const char *const build_keys[] = {"defines", "patches", "configure",
										 "revision", NULL};
static const char *const variant_keys[] = {"server", "bindir",  "target",
										   "build",  "profile", NULL};
static const char *const probe_keys[] = {"sql", "target", "counters", NULL};
static const char *const placement_keys[] = {"server", "driver", NULL};

/*
 * measure: WORKLOAD.probe:PROBE.FIGURE: PROBE is one of the recipe's, and
 * FIGURE a column ("used"), a counter per second ("scanned/s") or one
 * counter over another ("scanned/snapshots"), both in its counters:.
 */
static int
measure_probe(struct loader *ld, const yaml_node_t *node, const char *spec)
{
	const struct recipe *r = ld->r;
	const char *dot = strchr(spec, '.'), *fig, *slash;
	const struct recipe_probe *p = NULL;

	for (int i = 0; dot && i < r->nprobes; i++)
		if (strlen(r->probes[i].name) == (size_t) (dot - spec) &&
			strncmp(r->probes[i].name, spec, (size_t) (dot - spec)) == 0)
			p = &r->probes[i];
	if (p == NULL)
	{
		fail(ld, node, "'measure' names no probe of the recipe: \"%s\"", spec);
		error_hint(ld->err, "probe:PROBE.FIGURE with PROBE under probes:, "
							"e.g. probe:kax.used");
		return -1;
	}
	fig = dot + 1;
	slash = strchr(fig, '/');
	if (fig[0] == '\0' || fig[0] == '/')
		return fail(ld, node, "'measure': probe '%s' needs a figure", p->name);
	if (slash && strcmp(slash, "/s") != 0)
	{
		bool num = false, den = false;

		for (int k = 0; k < p->ncounters; k++)
		{
			num |= strlen(p->counters[k]) == (size_t) (slash - fig) &&
				   strncmp(p->counters[k], fig, (size_t) (slash - fig)) == 0;
			den |= strcmp(p->counters[k], slash + 1) == 0;
		}
		if (!num || !den)
		{
			fail(ld, node,
				 "'measure': %s is a ratio of counters, and probe '%s' "
				 "counts no '%.*s'",
				 fig, p->name,
				 num ? (int) strlen(slash + 1) : (int) (slash - fig),
				 num ? slash + 1 : fig);
			error_hint(ld->err, "list both under the probe's counters:");
			return -1;
		}
	}
	return 0;
}

/* measure: WORKLOAD.profile:NODE:FUNCTION, with profiles on. */
static int
measure_profile(struct loader *ld, const yaml_node_t *node, const char *spec)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t) (colon - spec) : 0;

	if (colon && nlen > 0 && spec[nlen - 1] == '+')
		nlen--;
	if (colon == NULL || colon[1] == '\0' ||
		!((nlen == 7 && strncmp(spec, "primary", 7) == 0) ||
		  (nlen == 7 && strncmp(spec, "standby", 7) == 0)))
	{
		fail(ld, node, "'measure': profile:NODE:FUNCTION, not \"profile:%s\"",
			 spec);
		error_hint(ld->err, "NODE is primary or standby (standby+: with "
							"callees), e.g. profile:standby:GetSnapshotData");
		return -1;
	}
	/* profile: may be off here and --profile on the command line */
	return 0;
}

int
parse_measure(struct loader *ld, const yaml_node_t *node)
{
	struct recipe *r = ld->r;
	const char *s, *dot;

	if (expect_scalar(ld, node, "'measure'") < 0)
		return -1;
	s = scalar(node);
	dot = strchr(s, '.'); /* workload names have no dot; figures may */
	if (dot == NULL)
	{
		fail(ld, node, "'measure' must be WORKLOAD.METRIC, not \"%s\"", s);
		error_hint(ld->err, "for example: %s.tps", r->workloads[0].name);
		return -1;
	}
	r->measure_workload = xstrndup(s, (size_t) (dot - s));
	r->measure_metric = xstrdup(dot + 1);
	if (recipe_workload_find(r, r->measure_workload) == NULL)
		return fail(ld, node, "'measure' names unknown workload '%s'",
					r->measure_workload);
	if (strcmp(r->measure_metric, "dip") == 0)
	{
		bool before = false, during = false;

		for (int i = 0; i < r->nwindows; i++)
		{
			before |= strcmp(r->windows[i].name, "before") == 0;
			during |= strcmp(r->windows[i].name, "during") == 0;
		}
		if (!before || !during)
		{
			fail(ld, node,
				 "'measure: %s' needs windows named before and during", s);
			error_hint(ld->err, "the dip is the tps of during over the tps "
								"of before, e.g. windows: {before: [10s, "
								"60s], during: [60s, 90s]}");
			return -1;
		}
	}
	for (const char *const *m = recipe_metrics; *m; m++)
		if (strcmp(*m, r->measure_metric) == 0)
			return 0;
	if (strncmp(r->measure_metric, "probe:", 6) == 0)
		return measure_probe(ld, node, r->measure_metric + 6);
	if (strncmp(r->measure_metric, "profile:", 8) == 0)
		return measure_profile(ld, node, r->measure_metric + 8);
	fail(ld, node, "unknown metric '%s' in 'measure'", r->measure_metric);
	{
		const char *near = nearest_word(r->measure_metric, recipe_metrics);

		if (near)
			error_hint(ld->err, "did you mean '%s'?", near);
		else
			error_hint(ld->err,
					   "metrics: tps, latency_avg, p50, p90, p95, p99, p999, "
					   "max, dip, instructions, l1_misses, ll_misses, "
					   "probe:PROBE.FIGURE, profile:NODE:FUNCTION");
	}
	return -1;
}

/*
 * Without `duration`, every workload must run a number of transactions;
 * some but not all is an error either way.
 */
int
check_transactions(struct loader *ld, const yaml_node_t *root)
{
	const struct recipe *r = ld->r;
	int with = 0;

	for (int i = 0; i < r->nworkloads; i++)
		with += r->workloads[i].transactions > 0;
	if (with == r->nworkloads)
		return 0;
	if (with == 0)
	{
		fail(ld, root, "missing key 'duration'");
		error_hint(ld->err, "for example: duration: 5s (or transactions: N "
							"in every workload, as pgbench -t)");
		return -1;
	}
	fail(ld, root, "missing key 'duration'");
	error_hint(ld->err, "workloads without 'transactions' need a duration");
	return -1;
}

/*
 * placement: free | split | SERVER/DRIVER, or {server: LIST, driver:
 * LIST}.  Only the form is checked here: which CPUs exist is the run's
 * machine's business (placement_resolve()).
 */
int
parse_placement(struct loader *ld, const yaml_node_t *v)
{
	struct recipe *r = ld->r;
	struct pgc_error perr;
	size_t bad = 0;

	r->has_placement = true;
	r->placement_pos = pos_of(v);
	r->placement_list_pos[0] = r->placement_list_pos[1] = pos_of(v);
	error_clear(&perr);
	if (v->type == YAML_SCALAR_NODE)
	{
		if (placement_parse(scalar(v), &r->placement, &perr) < 0)
		{
			fail(ld, v, "invalid 'placement' \"%s\"", scalar(v));
			error_hint(ld->err, "%s", perr.hint);
			return -1;
		}
		return 0;
	}
	if (expect_mapping(ld, v, "'placement'") < 0 ||
		check_keys(ld, v, placement_keys, "in 'placement'") < 0)
		return -1;
	r->placement.mode = PLACEMENT_CPUS;
	for (int i = 0; placement_keys[i]; i++)
	{
		const yaml_node_t *list = lookup(ld, v, placement_keys[i]);
		struct cpu_mask *m =
			i == 0 ? &r->placement.server : &r->placement.driver;

		if (list == NULL)
		{
			fail(ld, v, "'placement' needs both 'server' and 'driver'");
			error_hint(ld->err, "or placement: free | split");
			return -1;
		}
		if (expect_scalar(ld, list, "a placement's CPU list") < 0)
			return -1;
		r->placement_list_pos[i] = pos_of(list);
		if (cpu_mask_parse(scalar(list), m, &bad, &perr) < 0)
		{
			fail(ld, list, "%s", perr.message);
			if (list->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
			{
				ld->err->col += (int) bad;
				ld->err->span = 1;
			}
			error_hint(ld->err, "%s", perr.hint);
			return -1;
		}
	}
	return 0;
}

/* init: {pgbench: {scale: 10, ...}} or init: {sql: [...]} */
int
parse_init(struct loader *ld, const yaml_node_t *node)
{
	struct recipe_init *in = &ld->r->init;
	yaml_node_t *pg, *sql, *v;

	if (expect_mapping(ld, node, "'init'") < 0 ||
		check_keys(ld, node, init_keys, "in 'init'") < 0)
		return -1;
	in->pos = pos_of(node);
	ld->r->has_init = true;
	pg = lookup(ld, node, "pgbench");
	sql = lookup(ld, node, "sql");
	if ((pg == NULL) == (sql == NULL))
	{
		fail(ld, node, "'init' needs one of 'pgbench' or 'sql'");
		error_hint(ld->err, "init: {pgbench: {scale: 10}} runs pgbench -i -s "
							"10; init: {sql: [...]} runs SQL");
		return -1;
	}
	if (sql)
		return parse_sql_list(ld, sql, "init", &in->sql, &in->nsql);
	in->pgbench = true;
	in->scale = 1;
	in->partition_method = xstrdup("range");
	if (expect_mapping(ld, pg, "'pgbench'") < 0 ||
		check_keys(ld, pg, pgbench_init_keys, "in 'init: pgbench'") < 0)
		return -1;
	if ((v = lookup(ld, pg, "scale")) != NULL &&
		parse_int(ld, v, "'scale'", 1, 1000000000, &in->scale) < 0)
		return -1;
	if ((v = lookup(ld, pg, "fillfactor")) != NULL &&
		parse_int(ld, v, "'fillfactor'", 10, 100, &in->fillfactor) < 0)
		return -1;
	if ((v = lookup(ld, pg, "partitions")) != NULL &&
		parse_int(ld, v, "'partitions'", 0, 1000000, &in->partitions) < 0)
		return -1;
	if ((v = lookup(ld, pg, "partition_method")) != NULL)
	{
		if (expect_scalar(ld, v, "'partition_method'") < 0)
			return -1;
		if (strcmp(scalar(v), "range") != 0 && strcmp(scalar(v), "hash") != 0)
			return fail(ld, v,
						"invalid partition method \"%s\" (range or hash)",
						scalar(v));
		if (in->partitions == 0)
			return fail(ld, v,
						"'partition_method' requires 'partitions' "
						"greater than zero");
		free(in->partition_method);
		in->partition_method = xstrdup(scalar(v));
	}
	if ((v = lookup(ld, pg, "unlogged")) != NULL &&
		parse_bool(ld, v, "'unlogged'", &in->unlogged) < 0)
		return -1;
	if ((v = lookup(ld, pg, "foreign_keys")) != NULL &&
		parse_bool(ld, v, "'foreign_keys'", &in->foreign_keys) < 0)
		return -1;
	if ((v = lookup(ld, pg, "init_steps")) != NULL)
	{
		if (expect_scalar(ld, v, "'init_steps'") < 0)
			return -1;
		if (scalar(v)[0] == '\0')
			return fail(ld, v, "no initialization steps specified");
		for (const char *c = scalar(v); *c; c++)
			if (strchr("dtgGvpf ", *c) == NULL)
			{
				fail(ld, v, "unrecognized initialization step \"%c\"", *c);
				error_hint(ld->err,
						   "allowed step characters are: \"dtgGvpf\"");
				return -1;
			}
		in->steps = xstrdup(scalar(v));
	}
	return 0;
}

bool
recipe_uses_builtin(const struct recipe *r)
{
	for (int i = 0; i < r->nworkloads; i++)
		for (int k = 0; k < r->workloads[i].nscripts; k++)
			if (r->workloads[i].scripts[k].builtin)
				return true;
	return false;
}

/* Room for one entry per pair of mapping NODE, and one more, zeroed. */
void *
mapping_alloc(const yaml_node_t *node, size_t size)
{
	return xcalloc((size_t) (node->data.mapping.pairs.top -
							 node->data.mapping.pairs.start) +
					   1,
				   size);
}

/* `variables:`: script variables, as pgbench's -D NAME=VALUE. */
int
parse_variables(struct loader *ld, const yaml_node_t *node)
{
	struct recipe *r = ld->r;

	if (expect_mapping(ld, node, "'variables'") < 0)
		return -1;
	r->variables = mapping_alloc(node, sizeof(*r->variables));
	for (yaml_node_pair_t *pr = node->data.mapping.pairs.start;
		 pr < node->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *k = node_at(ld, pr->key);
		yaml_node_t *v = node_at(ld, pr->value);
		struct recipe_guc *var;

		if (expect_scalar(ld, k, "a variable name") < 0)
			return -1;
		if (!script_valid_var_name(scalar(k)))
		{
			fail(ld, k, "invalid variable name \"%s\"", scalar(k));
			error_hint(ld->err, "letters, digits, _ and non-ASCII "
								"characters, not starting with a digit");
			return -1;
		}
		for (int i = 0; i < r->nvariables; i++)
			if (strcmp(r->variables[i].name, scalar(k)) == 0)
				return fail(ld, k, "variable '%s' given twice", scalar(k));
		if (v->type != YAML_SCALAR_NODE)
			return fail(ld, v,
						"value of variable '%s' must be a scalar, not %s",
						scalar(k), node_kind(v));
		var = &r->variables[r->nvariables++];
		var->name = xstrdup(scalar(k));
		var->value = xstrdup(scalar(v));
		var->pos = pos_of(k);
	}
	return 0;
}

int
recipe_check_variables(const struct recipe *r, const char *const *extra,
					   int nextra, struct pgc_error *err)
{
	const char **names =
		xcalloc((size_t) r->nvariables + (size_t) nextra + 1, sizeof(char *));
	int n = 0, rc = 0;

	for (int i = 0; i < r->nvariables; i++)
		names[n++] = r->variables[i].name;
	for (int i = 0; i < nextra; i++)
		names[n++] = extra[i];
	for (int i = 0; i < r->nworkloads && rc == 0; i++)
	{
		const struct recipe_workload *w = &r->workloads[i];
		const struct script **scripts =
			xcalloc((size_t) w->nscripts, sizeof(struct script *));

		for (int k = 0; k < w->nscripts; k++)
			scripts[k] = w->scripts[k].script;
		rc = script_check_variables(scripts, w->nscripts, names, n, err);
		free(scripts);
	}
	free(names);
	return rc;
}

/* A mapping of GUCs (`server:` of the recipe or of a variant). */
int
parse_gucs(struct loader *ld, const yaml_node_t *node, const char *what,
		   struct recipe_guc **gucs, int *ngucs)
{
	if (expect_mapping(ld, node, what) < 0)
		return -1;
	*gucs = mapping_alloc(node, sizeof(**gucs));
	for (yaml_node_pair_t *pr = node->data.mapping.pairs.start;
		 pr < node->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *k = node_at(ld, pr->key);
		yaml_node_t *v = node_at(ld, pr->value);
		const char *name;
		struct recipe_guc *g;

		if (expect_scalar(ld, k, "a server setting name") < 0)
			return -1;
		name = scalar(k);
		if (name[0] == '\0')
			return fail(ld, k, "empty server setting name");
		if (!recipe_guc_name_ok(name))
			return fail(ld, k, "invalid server setting name \"%s\"", name);
		for (int i = 0; i < *ngucs; i++)
			if (strcasecmp((*gucs)[i].name, name) == 0)
				return fail(ld, k, "server setting '%s' given twice", name);
		if (v->type != YAML_SCALAR_NODE)
			return fail(
				ld, v, "value of server setting '%s' must be a scalar, not %s",
				name, node_kind(v));
		/* "fsync:" alone is YAML's null, not an empty string ('' is) */
		if (scalar(v)[0] == '\0' &&
			v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
		{
			fail(ld, k, "server setting '%s' has no value", name);
			error_hint(ld->err, "write the value, or '' for an empty string");
			return -1;
		}
		/* a line break would start another line of postgresql.conf */
		if (strpbrk(scalar(v), "\r\n") != NULL)
			return fail(ld, v,
						"the value of server setting '%s' holds a line break",
						name);
		g = &(*gucs)[(*ngucs)++];
		g->name = xstrdup(name);
		g->value = xstrdup(scalar(v));
		g->pos = pos_of(k);
	}
	return 0;
}

/* One non-empty scalar of a string list, appended to OUT. */
static int
add_string(struct loader *ld, const yaml_node_t *item, const char *what,
		   bool beside, char **out, int *n)
{
	if (expect_scalar(ld, item, what) < 0)
		return -1;
	if (scalar(item)[0] == '\0')
		return fail(ld, item, "empty entry in '%s'", what);
	out[(*n)++] = beside ? resolve_beside(ld->path, scalar(item))
						 : xstrdup(scalar(item));
	if (beside)
	{
		/* a file named beside the recipe must be one, now, not at run time */
		struct stat st;

		if (stat(out[*n - 1], &st) != 0)
			return fail(ld, item, "%s entry \"%s\": %s", what, scalar(item),
						strerror(errno));
		if (!S_ISREG(st.st_mode))
			return fail(ld, item, "%s entry \"%s\" is not a regular file",
						what, scalar(item));
	}
	return 0;
}

/* A scalar or a list of non-empty scalars, as new strings. */
static int
parse_strings(struct loader *ld, const yaml_node_t *node, const char *what,
			  bool beside, char ***out, int *n)
{
	if (node->type == YAML_SCALAR_NODE)
	{
		*out = xcalloc(2, sizeof(**out));
		return add_string(ld, node, what, beside, *out, n);
	}
	if (node->type != YAML_SEQUENCE_NODE)
		return fail(ld, node, "'%s' must be a list, not %s", what,
					node_kind(node));
	*out = xcalloc((size_t) (node->data.sequence.items.top -
							 node->data.sequence.items.start) +
					   1,
				   sizeof(**out));
	for (yaml_node_item_t *it = node->data.sequence.items.start;
		 it < node->data.sequence.items.top; it++)
		if (add_string(ld, node_at(ld, *it), what, beside, *out, n) < 0)
			return -1;
	return 0;
}

static int
parse_build(struct loader *ld, const yaml_node_t *node, struct variant *v,
			const char *context)
{
	struct build_spec *b = &v->spec;
	yaml_node_t *x;

	v->build = true;
	if (node->type == YAML_SCALAR_NODE && scalar(node)[0] == '\0')
		return 0; /* "build:" alone: the plain source, "HEAD" */
	if (expect_mapping(ld, node, "'build'") < 0 ||
		check_keys(ld, node, build_keys, context) < 0)
		return -1;
	if ((x = lookup(ld, node, "defines")) != NULL)
	{
		if (expect_mapping(ld, x, "'defines'") < 0)
			return -1;
		b->defines = mapping_alloc(x, sizeof(*b->defines));
		for (yaml_node_pair_t *pr = x->data.mapping.pairs.start;
			 pr < x->data.mapping.pairs.top; pr++)
		{
			yaml_node_t *k = node_at(ld, pr->key);
			yaml_node_t *val = node_at(ld, pr->value);
			struct build_define *d;

			if (expect_scalar(ld, k, "a #define name") < 0)
				return -1;
			if (!is_c_identifier(scalar(k)))
				return fail(ld, k, "invalid #define name \"%s\"", scalar(k));
			for (int i = 0; i < b->ndefines; i++)
				if (strcmp(b->defines[i].name, scalar(k)) == 0)
					return fail(ld, k, "#define %s given twice", scalar(k));
			if (val->type != YAML_SCALAR_NODE || scalar(val)[0] == '\0' ||
				strpbrk(scalar(val), "\n\\") != NULL)
				return fail(ld, val,
							"the value of #define %s must be one line of text",
							scalar(k));
			d = &b->defines[b->ndefines++];
			d->name = xstrdup(scalar(k));
			d->value = xstrdup(scalar(val));
		}
	}
	if ((x = lookup(ld, node, "patches")) != NULL &&
		parse_strings(ld, x, "patches", true, &b->patches, &b->npatches) < 0)
		return -1;
	if ((x = lookup(ld, node, "configure")) != NULL &&
		parse_strings(ld, x, "configure", false, &b->configure,
					  &b->nconfigure) < 0)
		return -1;
	if ((x = lookup(ld, node, "revision")) != NULL)
	{
		if (expect_scalar(ld, x, "'revision' (a git commit)") < 0)
			return -1;
		if (scalar(x)[0] == '\0' || scalar(x)[0] == '-' ||
			strpbrk(scalar(x), " \t\n") != NULL)
			return fail(ld, x,
						"invalid revision \"%s\": want a commit, a "
						"tag or a branch of the source's git checkout",
						scalar(x));
		b->revision = xstrdup(scalar(x));
	}
	return 0;
}

static int
parse_variant(struct loader *ld, const yaml_node_t *key,
			  const yaml_node_t *node, struct variant *v)
{
	char context[300];
	yaml_node_t *x;

	snprintf(context, sizeof(context), "in variant '%s'", v->name);
	if (node->type == YAML_SCALAR_NODE && scalar(node)[0] == '\0')
		return 0; /* "base:" alone: the recipe as it is */
	if (expect_mapping(ld, node, "a variant") < 0 ||
		check_keys(ld, node, variant_keys, context) < 0)
		return -1;
	if ((x = lookup(ld, node, "build")) != NULL &&
		parse_build(ld, x, v, context) < 0)
		return -1;
	if ((x = lookup(ld, node, "profile")) != NULL &&
		parse_profile(ld, x, &v->profile_hz, -1) < 0)
		return -1;
	if ((x = lookup(ld, node, "bindir")) != NULL)
	{
		if (expect_scalar(ld, x, "'bindir'") < 0)
			return -1;
		if (scalar(x)[0] == '\0')
			return fail(ld, x, "empty 'bindir'");
		if (v->build)
			return fail(ld, x, "variant '%s' gives both 'build' and 'bindir'",
						v->name);
		v->bindir = resolve_beside(ld->path, scalar(x));
	}
	if ((x = lookup(ld, node, "target")) != NULL)
	{
		if (expect_scalar(ld, x, "'target'") < 0)
			return -1;
		if (v->bindir || v->build)
			return fail(ld, x, "variant '%s' gives both '%s' and 'target'",
						v->name, v->build ? "build" : "bindir");
		if (conninfo_find_password(scalar(x), 0, &(size_t){0}, &(size_t){0}))
		{
			/* the recipe's text is stored with every run */
			fail(ld, x, "a password in the recipe's 'target' of variant '%s'",
				 v->name);
			error_hint(ld->err, "a recipe is stored with every run: give the "
								"password in PGPASSWORD or ~/.pgpass");
			return -1;
		}
		v->target = xstrdup(scalar(x));
	}
	if ((x = lookup(ld, node, "server")) != NULL)
	{
		struct recipe_guc *g = NULL;
		int n = 0, rc = parse_gucs(ld, x, "'server'", &g, &n);

		/* the variant's own settings, each at its place in the recipe */
		for (int i = 0; i < n; i++)
		{
			if (rc == 0)
				variant_set_guc(v, g[i].name, g[i].value, ld->path, g[i].pos,
								true);
			free(g[i].name);
			free(g[i].value);
		}
		free(g);
		if (rc < 0)
			return -1;
		if (v->target && v->ngucs > 0)
		{
			fail(ld, key,
				 "variant '%s' sets server settings on an external target",
				 v->name);
			error_hint(ld->err,
					   "server settings apply to managed servers only");
			return -1;
		}
	}
	return 0;
}

/* A window bound: whole seconds within the duration. */
static int
window_bound(struct loader *ld, const yaml_node_t *node, const char *name,
			 int *out)
{
	int64_t ns;

	if (parse_duration(ld, node, "a window bound", true, &ns) < 0)
		return -1;
	if (ns % 1000000000 != 0)
		return fail(ld, node,
					"window '%s': bounds are whole seconds (the series has "
					"one value per second)",
					name);
	if (ns > ld->r->duration_ns)
		return fail(ld, node, "window '%s' ends past the duration (%g s)",
					name, (double) ld->r->duration_ns / 1e9);
	*out = (int) (ns / 1000000000);
	return 0;
}

int
parse_windows(struct loader *ld, const yaml_node_t *node)
{
	struct recipe *r = ld->r;

	if (expect_mapping(ld, node, "'windows'") < 0 ||
		check_keys(ld, node, NULL, "in 'windows'") < 0)
		return -1;
	r->windows = mapping_alloc(node, sizeof(*r->windows));
	for (yaml_node_pair_t *pr = node->data.mapping.pairs.start;
		 pr < node->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *k = node_at(ld, pr->key);
		yaml_node_t *v = node_at(ld, pr->value);
		struct recipe_window *w = &r->windows[r->nwindows];

		if (!recipe_is_name(scalar(k)))
			return bad_name(ld, k, "window", scalar(k));
		if (v->type != YAML_SEQUENCE_NODE ||
			v->data.sequence.items.top - v->data.sequence.items.start != 2)
		{
			fail(ld, v, "window '%s' must be a list [start, end]", scalar(k));
			error_hint(ld->err, "for example: during: [60s, 90s]");
			return -1;
		}
		w->name = xstrdup(scalar(k));
		w->pos = pos_of(k);
		r->nwindows++;
		if (window_bound(ld, node_at(ld, v->data.sequence.items.start[0]),
						 w->name, &w->start_s) < 0 ||
			window_bound(ld, node_at(ld, v->data.sequence.items.start[1]),
						 w->name, &w->end_s) < 0)
			return -1;
		if (w->end_s <= w->start_s)
			return fail(ld, v, "window '%s' ends before it starts", w->name);
		/* a second counted in two windows would make their dip a lie */
		for (int i = 0; i < r->nwindows - 1; i++)
			if (w->start_s < r->windows[i].end_s &&
				r->windows[i].start_s < w->end_s)
				return fail(ld, v, "window '%s' overlaps window '%s'", w->name,
							r->windows[i].name);
	}
	return 0;
}

static int
parse_probe(struct loader *ld, const yaml_node_t *k, const yaml_node_t *v,
			struct recipe_probe *p)
{
	char context[RECIPE_NAME_MAX + 16];
	const yaml_node_t *x;

	snprintf(context, sizeof(context), "in probe '%s'", scalar(k));
	if (expect_mapping(ld, v, "a probe") < 0 ||
		check_keys(ld, v, probe_keys, context) < 0)
		return -1;
	if ((x = lookup(ld, v, "sql")) == NULL)
	{
		fail(ld, k, "probe '%s' has no 'sql'", scalar(k));
		error_hint(ld->err, "one query returning one row of numbers, e.g. "
							"sql: SELECT count(*) AS backends FROM "
							"pg_stat_activity");
		return -1;
	}
	if (expect_scalar(ld, x, "a probe's 'sql'") < 0)
		return -1;
	if (strspn(scalar(x), " \t\r\n") == strlen(scalar(x)))
		return fail(ld, x, "probe '%s': empty 'sql'", scalar(k));
	p->sql = xstrdup(scalar(x));
	if ((x = lookup(ld, v, "target")) != NULL)
	{
		if (expect_scalar(ld, x, "a probe's 'target'") < 0)
			return -1;
		if (strcmp(scalar(x), "all") != 0 &&
			strcmp(scalar(x), "primary") != 0 &&
			strcmp(scalar(x), "standby") != 0)
			return fail(ld, x,
						"probe '%s': target must be primary, standby or all, "
						"not \"%s\"",
						scalar(k), scalar(x));
		if (strcmp(scalar(x), "standby") == 0 &&
			ld->r->topology != RECIPE_TOPO_PRIMARY_STANDBY)
		{
			fail(ld, x,
				 "probe '%s' targets the standby, but the recipe has "
				 "none",
				 scalar(k));
			error_hint(ld->err, "topology: primary+standby");
			return -1;
		}
		if (strcmp(scalar(x), "all") != 0)
			p->target = xstrdup(scalar(x));
	}
	if ((x = lookup(ld, v, "counters")) != NULL)
	{
		if (x->type != YAML_SEQUENCE_NODE)
			return fail(ld, x,
						"probe '%s': counters must be a list of column names",
						scalar(k));
		if (parse_strings(ld, x, "counters", false, &p->counters,
						  &p->ncounters) < 0)
			return -1;
		for (int i = 0; i < p->ncounters; i++)
		{
			const yaml_node_t *c =
				node_at(ld, x->data.sequence.items.start[i]);

			if (!recipe_is_name(p->counters[i]))
				return bad_name(ld, c, "counter", p->counters[i]);
			for (int j = 0; j < i; j++)
				if (strcmp(p->counters[j], p->counters[i]) == 0)
					return fail(ld, c, "probe '%s': counter '%s' given twice",
								scalar(k), p->counters[i]);
		}
	}
	return 0;
}

/* probes: NAME: {sql: ..., target: ..., counters: [...]}, ... */
int
parse_probes(struct loader *ld, const yaml_node_t *node)
{
	struct recipe *r = ld->r;

	if (expect_mapping(ld, node, "'probes'") < 0 ||
		check_keys(ld, node, NULL, "in 'probes'") < 0)
		return -1;
	r->probes = mapping_alloc(node, sizeof(*r->probes));
	for (yaml_node_pair_t *pr = node->data.mapping.pairs.start;
		 pr < node->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *k = node_at(ld, pr->key);
		struct recipe_probe *p = &r->probes[r->nprobes++];

		if (!recipe_is_name(scalar(k)))
			return bad_name(ld, k, "probe", scalar(k));
		p->name = xstrdup(scalar(k));
		p->pos = pos_of(k);
		if (parse_probe(ld, k, node_at(ld, pr->value), p) < 0)
			return -1;
	}
	return 0;
}

int
parse_variants(struct loader *ld, const yaml_node_t *node)
{
	struct recipe *r = ld->r;

	if (expect_mapping(ld, node, "'variants'") < 0 ||
		check_keys(ld, node, NULL, "in 'variants'") < 0)
		return -1;
	if (node->data.mapping.pairs.top == node->data.mapping.pairs.start)
		return fail(ld, node, "'variants' is empty");
	r->variants = xcalloc((size_t) (node->data.mapping.pairs.top -
									node->data.mapping.pairs.start),
						  sizeof(*r->variants));
	for (yaml_node_pair_t *pr = node->data.mapping.pairs.start;
		 pr < node->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *k = node_at(ld, pr->key);
		struct variant *v = &r->variants[r->nvariants++];

		if (!recipe_is_name(scalar(k)))
			return bad_name(ld, k, "variant", scalar(k));
		v->name = xstrdup(scalar(k));
		v->pos = pos_of(k);
		if (parse_variant(ld, k, node_at(ld, pr->value), v) < 0)
			return -1;
	}
	return 0;
}
