/*
 * recipe.c - YAML recipe loader.  libyaml builds the node tree (with
 * 0-based marks); this file walks it, checks every key, type and range,
 * and builds the immutable struct recipe.  The first error stops loading
 * and names file:line:col with a hint where one helps.
 */
#include "recipe.h"

#include "profile.h"

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
#include <yaml.h>

#define MAX_CLIENTS 100000
#define MAX_REPEAT  1000

struct loader
{
	const char *path;
	const char *text;
	yaml_document_t *doc;
	struct recipe *r;
	struct pgc_error *err;
};

const char *const recipe_metrics[] = {
	"tps",       "latency_avg", "p50", "p90", "p95",
	"p99",       "p999",        "max", "dip", "instructions",
	"l1_misses", "ll_misses",   NULL};

static const char *const top_keys[] = {
	"recipe",        "description", "topology",  "server",   "setup",
	"reset",         "primary",     "standby",   "duration", "warmup",
	"repeat",        "workloads",   "sweep",     "measure",  "variants",
	"restart",       "windows",     "variables", "init",     "source",
	"run_workloads", "placement",   "profile",   "probes",   NULL};
static const char *const placement_keys[] = {"server", "driver", NULL};
static const char *const variant_keys[] = {"server", "bindir",  "target",
										   "build",  "profile", NULL};
static const char *const workload_keys[] = {
	"target",  "protocol",      "script",    "file",
	"builtin", "weight",        "scripts",   "clients",
	"jobs",    "transactions",  "max_tries", "on_error",
	"rate",    "latency_limit", "at",        "every",
	"until",   "reconnect",     NULL};
static const char *const script_keys[] = {"script", "file", "builtin",
										  "weight", NULL};
static const char *const init_keys[] = {"pgbench", "sql", NULL};
static const char *const pgbench_init_keys[] = {
	"scale",    "fillfactor",   "partitions", "partition_method",
	"unlogged", "foreign_keys", "init_steps", NULL};
static const char *const build_keys[] = {"defines", "patches", "configure",
										 "revision", NULL};
static const char *const sweep_keys[] = {"clients", "jobs", "workloads", NULL};
static const char *const probe_keys[] = {"sql", "target", "counters", NULL};

/* --------------------------------------------------------------- errors */

static int
scalar_span(const yaml_node_t *node)
{
	if (node->type == YAML_SCALAR_NODE &&
		node->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
		node->data.scalar.length > 0 &&
		memchr(node->data.scalar.value, '\n', node->data.scalar.length) ==
			NULL)
		return (int) node->data.scalar.length;
	return 1;
}

static int fail(struct loader *ld, const yaml_node_t *node, const char *fmt,
				...) PGC_PRINTF(3, 4);

static int
fail(struct loader *ld, const yaml_node_t *node, const char *fmt, ...)
{
	char msg[sizeof(ld->err->message)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error_set(ld->err, PGC_ERR_RECIPE, "%s", msg);
	if (node)
		error_at(ld->err, ld->path, (int) node->start_mark.line + 1,
				 (int) node->start_mark.column + 1, scalar_span(node));
	else
		error_at(ld->err, ld->path, 1, 1, 1);
	return -1;
}

static struct recipe_pos
pos_of(const yaml_node_t *node)
{
	struct recipe_pos p = {(int) node->start_mark.line + 1,
						   (int) node->start_mark.column + 1};

	return p;
}

/* -------------------------------------------------------------- helpers */

static yaml_node_t *
node_at(struct loader *ld, int index)
{
	return yaml_document_get_node(ld->doc, index);
}

static const char *
scalar(const yaml_node_t *node)
{
	return (const char *) node->data.scalar.value;
}

static const char *
node_kind(const yaml_node_t *node)
{
	switch (node->type)
	{
		case YAML_SCALAR_NODE:
			return "a scalar";
		case YAML_SEQUENCE_NODE:
			return "a list";
		case YAML_MAPPING_NODE:
			return "a mapping";
		default:
			return "empty";
	}
}

static int
expect_scalar(struct loader *ld, const yaml_node_t *node, const char *what)
{
	if (node->type != YAML_SCALAR_NODE)
		return fail(ld, node, "%s must be a scalar, not %s", what,
					node_kind(node));
	return 0;
}

static int
expect_mapping(struct loader *ld, const yaml_node_t *node, const char *what)
{
	if (node->type != YAML_MAPPING_NODE)
		return fail(ld, node, "%s must be a mapping, not %s", what,
					node_kind(node));
	return 0;
}

/*
 * Check the keys of a mapping: each a scalar, known (any key when KNOWN
 * is NULL), and not repeated.  CONTEXT completes "unknown key 'x' ..." (e.g.
 * "in workload 'reads'").
 */
static int
check_keys(struct loader *ld, const yaml_node_t *map, const char *const *known,
		   const char *context)
{
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
		 pr < map->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *key = node_at(ld, pr->key);
		const char *near;
		bool ok = false;

		if (key->type != YAML_SCALAR_NODE)
			return fail(ld, key, "keys must be scalars");
		for (const char *const *k = known; k && *k; k++)
			if (strcmp(*k, scalar(key)) == 0)
				ok = true;
		if (known && !ok)
		{
			fail(ld, key, "unknown key '%s'%s%s", scalar(key),
				 context[0] ? " " : "", context);
			near = nearest_word(scalar(key), known);
			if (near)
				error_hint(ld->err, "did you mean '%s'?", near);
			return -1;
		}
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < pr; q++)
		{
			yaml_node_t *other = node_at(ld, q->key);

			if (strcmp(scalar(other), scalar(key)) == 0)
			{
				fail(ld, key, "duplicate key '%s'%s%s", scalar(key),
					 context[0] ? " " : "", context);
				error_detail(ld->err, "first given at line %d",
							 (int) other->start_mark.line + 1);
				return -1;
			}
		}
	}
	return 0;
}

static yaml_node_t *
lookup(struct loader *ld, const yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
		 pr < map->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *k = node_at(ld, pr->key);

		if (k->type == YAML_SCALAR_NODE && strcmp(scalar(k), key) == 0)
			return node_at(ld, pr->value);
	}
	return NULL;
}

static int
parse_int(struct loader *ld, const yaml_node_t *node, const char *what,
		  long min, long max, int *out)
{
	const char *s;
	char *end;
	long v;

	if (expect_scalar(ld, node, what) < 0)
		return -1;
	s = scalar(node);
	errno = 0;
	v = strtol(s, &end, 10);
	if (s[0] == '\0' || *end != '\0' || errno != 0 ||
		!(isdigit((unsigned char) s[0]) || s[0] == '-'))
		return fail(ld, node, "%s must be an integer, not \"%s\"", what, s);
	if (v < min || v > max)
		return fail(ld, node, "%s must be between %ld and %ld, not %ld", what,
					min, max, v);
	*out = (int) v;
	return 0;
}

int64_t
recipe_parse_duration_ns(const char *text)
{
	static const struct
	{
		const char *unit;
		double ns;
	} units[] = {
		{"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"min", 60e9}, {"h", 3600e9},
	};
	const char *p = text;
	const char *q;
	char *end;
	double v;

	while (isspace((unsigned char) *p))
		p++;
	if (!isdigit((unsigned char) *p))
		return -1;
	/* digits and one decimal point only: strtod would also take 0x10
	 * (16), 1e3 and inf */
	for (q = p; isdigit((unsigned char) *q); q++)
		;
	if (*q == '.')
		for (q++; isdigit((unsigned char) *q); q++)
			;
	errno = 0;
	v = strtod(p, &end);
	if (errno != 0 || end != q)
		return -1;
	while (isspace((unsigned char) *end))
		end++;
	/* a bare number is seconds; a year is more than any benchmark needs,
	 * and the bound keeps the conversion to int64 defined */
	if (*end == '\0')
		return v * 1e9 > 366 * 86400e9 ? -1 : (int64_t) (v * 1e9 + 0.5);
	for (size_t i = 0; i < lengthof(units); i++)
	{
		size_t n = strlen(units[i].unit);

		if (strncmp(end, units[i].unit, n) == 0)
		{
			const char *rest = end + n;

			while (isspace((unsigned char) *rest))
				rest++;
			if (*rest != '\0')
				return -1;
			if (v * units[i].ns > 366 * 86400e9)
				return -1;
			return (int64_t) (v * units[i].ns + 0.5);
		}
	}
	return -1;
}

static int
parse_warmup(struct loader *ld, const yaml_node_t *node, struct recipe *r)
{
	if (expect_scalar(ld, node, "warmup") < 0)
		return -1;
	if (recipe_parse_warmup(scalar(node), &r->warmup_ns, &r->warmup_stable) <
		0)
	{
		fail(ld, node, "invalid warmup \"%s\"", scalar(node));
		error_hint(ld->err, "a duration (500ms, 5s, 2min), or stable (until "
							"the throughput is stable, at most 60s) or "
							"stable:MAX");
		return -1;
	}
	return 0;
}

/* A stable warm-up's window is not known in advance: what needs it is not
 * for it (load_run refuses the same) */
static int
check_stable_warmup(struct loader *ld, const yaml_node_t *node)
{
	const struct recipe *r = ld->r;

	for (int i = 0; i < r->nworkloads; i++)
		if (r->workloads[i].rate > 0 || r->workloads[i].timed)
		{
			fail(ld, node,
				 "warmup: stable cannot be used with workload '%s''s %s",
				 r->workloads[i].name,
				 r->workloads[i].timed ? "timed event (at:)" : "rate");
			error_hint(ld->err, "their schedules count from a window known "
								"in advance: give the warm-up a duration");
			return -1;
		}
	if (r->duration_ns <= 0)
	{
		fail(ld, node, "warmup: stable needs a duration");
		error_hint(ld->err, "with transactions: there is no window to "
							"warm up for");
		return -1;
	}
	return 0;
}

static int
parse_duration(struct loader *ld, const yaml_node_t *node, const char *what,
			   bool allow_zero, int64_t *out)
{
	int64_t ns;

	if (expect_scalar(ld, node, what) < 0)
		return -1;
	ns = recipe_parse_duration_ns(scalar(node));
	if (ns < 0)
	{
		fail(ld, node, "invalid duration \"%s\" for '%s'", scalar(node), what);
		error_hint(ld->err, "write a number with a unit: 500ms, 5s, 2min, 1h");
		return -1;
	}
	if (ns == 0 && !allow_zero)
		return fail(ld, node, "'%s' must be greater than zero", what);
	*out = ns;
	return 0;
}

int
recipe_parse_warmup(const char *text, int64_t *ns, bool *stable)
{
	int64_t v;

	*stable = strncmp(text, "stable", 6) == 0;
	if (!*stable)
	{
		v = recipe_parse_duration_ns(text);
		if (v < 0)
			return -1;
		*ns = v;
		return 0;
	}
	if (text[6] == '\0')
	{
		*ns = RECIPE_WARMUP_STABLE_MAX_NS;
		return 0;
	}
	if (text[6] != ':' || (v = recipe_parse_duration_ns(text + 7)) <= 0)
		return -1;
	*ns = v;
	return 0;
}

bool
recipe_is_name(const char *s)
{
	if (!(isalpha((unsigned char) s[0]) || s[0] == '_') ||
		strlen(s) > RECIPE_NAME_MAX)
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char) *s) || *s == '_' || *s == '-'))
			return false;
	return true;
}

/*
 * A name that recipe_is_name() refuses, at NODE: too long (not echoed:
 * a 100,000-character name is not repeated whole), or which character.
 */
static int
bad_name(struct loader *ld, const yaml_node_t *node, const char *what,
		 const char *name)
{
	if (strlen(name) > RECIPE_NAME_MAX)
		return fail(ld, node, "%s name of %zu characters: at most %d", what,
					strlen(name), RECIPE_NAME_MAX);
	return fail(ld, node, "invalid %s name \"%s\" (letters, digits, _ and -)",
				what, name);
}

/*
 * Where the characters of a scalar start in the file, so that errors in
 * SQL or scripts (and server error positions) point at the recipe.  For a
 * literal block ("|") the content starts on the next line at the block's
 * indentation; quoted scalars start one column after the quote.
 */
static void
scalar_origin(struct loader *ld, const yaml_node_t *node,
			  struct script_origin *o)
{
	o->file = ld->path;
	o->first_line = (int) node->start_mark.line + 1;
	o->first_col = (int) node->start_mark.column;
	o->indent = o->first_col;
	switch (node->data.scalar.style)
	{
		case YAML_SINGLE_QUOTED_SCALAR_STYLE:
		case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
			o->first_col++;
			break;
		case YAML_LITERAL_SCALAR_STYLE:
		case YAML_FOLDED_SCALAR_STYLE:
		{
			const char *p = ld->text + node->start_mark.index;
			int ind;

			/* skip the indicator line, then blank lines, to the content */
			p = strchr(p, '\n');
			o->first_line++;
			if (p == NULL)
				break;
			p++;
			for (;;)
			{
				const char *q = p;

				ind = 0;
				while (*q == ' ')
					q++, ind++;
				if (*q == '\n')
				{
					p = q + 1;
					continue;
				}
				break;
			}
			o->first_col = o->indent = ind;
		}
		break;
		default:
			break;
	}
}

/* A list of SQL strings (or one string) for setup:/reset:. */
static int
parse_sql_list(struct loader *ld, const yaml_node_t *node, const char *what,
			   struct recipe_sql **out, int *nout)
{
	if (node->type == YAML_SCALAR_NODE)
	{
		*out = xcalloc(1, sizeof(**out));
		(*out)[0].text = xstrdup(scalar(node));
		scalar_origin(ld, node, &(*out)[0].origin);
		*nout = 1;
		return 0;
	}
	if (node->type != YAML_SEQUENCE_NODE)
		return fail(ld, node, "'%s' must be a list of SQL strings, not %s",
					what, node_kind(node));
	*out = xcalloc((size_t) (node->data.sequence.items.top -
							 node->data.sequence.items.start) +
					   1,
				   sizeof(**out));
	for (yaml_node_item_t *it = node->data.sequence.items.start;
		 it < node->data.sequence.items.top; it++)
	{
		yaml_node_t *item = node_at(ld, *it);

		if (item->type != YAML_SCALAR_NODE)
			return fail(ld, item,
						"each '%s' entry must be a SQL string, not %s", what,
						node_kind(item));
		if (scalar(item)[0] == '\0')
			return fail(ld, item, "empty SQL string in '%s'", what);
		(*out)[*nout].text = xstrdup(scalar(item));
		scalar_origin(ld, item, &(*out)[*nout].origin);
		(*nout)++;
	}
	return 0;
}

static char *resolve_beside(const char *recipe_path, const char *file);

bool
recipe_guc_name_ok(const char *name)
{
	if (name[0] == '\0')
		return false;
	for (const char *c = name; *c; c++)
		if (!(isalnum((unsigned char) *c) || *c == '_' || *c == '.'))
			return false;
	return true;
}

static int
parse_bool(struct loader *ld, const yaml_node_t *node, const char *what,
		   bool *out)
{
	const char *v;

	if (expect_scalar(ld, node, what) < 0)
		return -1;
	v = scalar(node);
	if (strcmp(v, "true") == 0 || strcmp(v, "on") == 0 ||
		strcmp(v, "yes") == 0)
		*out = true;
	else if (strcmp(v, "false") == 0 || strcmp(v, "off") == 0 ||
			 strcmp(v, "no") == 0)
		*out = false;
	else
		return fail(ld, node, "%s must be true or false, not \"%s\"", what, v);
	return 0;
}

/* profile: on | off | HZ (cpu-clock samples per second, profile.h) into
 * *HZ; off is OFF */
static int
parse_profile(struct loader *ld, const yaml_node_t *node, int *out, int off)
{
	const char *v;
	int hz;

	if (expect_scalar(ld, node, "'profile'") < 0)
		return -1;
	v = scalar(node);
	if (strcmp(v, "off") == 0 || strcmp(v, "false") == 0)
	{
		*out = off;
		return 0;
	}
	if ((hz = recipe_profile_parse(v)) <= 0)
	{
		fail(ld, node,
			 "'profile' must be on, off or a rate in Hz (1 to "
			 "10000), not \"%s\"",
			 v);
		error_hint(ld->err, "profile: on samples at %d Hz", RECIPE_PROFILE_HZ);
		return -1;
	}
	*out = hz;
	return 0;
}

/* The recipe's profile: a scalar as parse_profile() reads it, or
 * {rate: on|HZ, callgraph: fp|dwarf}. */
static int
parse_recipe_profile(struct loader *ld, const yaml_node_t *node,
					 struct recipe *r)
{
	static const char *const keys[] = {"rate", "callgraph", NULL};
	yaml_node_t *x;

	if (node->type != YAML_MAPPING_NODE)
		return parse_profile(ld, node, &r->profile_hz, 0);
	if (check_keys(ld, node, keys, "'profile'") < 0)
		return -1;
	r->profile_hz = RECIPE_PROFILE_HZ;
	if ((x = lookup(ld, node, "rate")) != NULL &&
		parse_profile(ld, x, &r->profile_hz, 0) < 0)
		return -1;
	if ((x = lookup(ld, node, "callgraph")) != NULL)
	{
		enum profile_callgraph cg;

		if (expect_scalar(ld, x, "'callgraph'") < 0)
			return -1;
		if (profile_callgraph_parse(scalar(x), &cg) < 0)
		{
			fail(ld, x, "'callgraph' must be fp or dwarf, not \"%s\"",
				 scalar(x));
			error_hint(ld->err, "dwarf unwinds any binary; fp needs one "
								"built with -fno-omit-frame-pointer");
			return -1;
		}
		r->profile_callgraph = (int) cg;
	}
	return 0;
}

int
recipe_profile_parse(const char *v)
{
	char *end;
	long hz;

	if (strcmp(v, "on") == 0 || strcmp(v, "true") == 0)
		return RECIPE_PROFILE_HZ;
	if (strcmp(v, "off") == 0 || strcmp(v, "false") == 0)
		return 0;
	errno = 0;
	hz = strtol(v, &end, 10);
	if (v[0] < '0' || v[0] > '9' || *end || errno || hz < 1 || hz > 10000)
		return -1;
	return (int) hz;
}

/* init: {pgbench: {scale: 10, ...}} or init: {sql: [...]} */
static int
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
static void *
mapping_alloc(const yaml_node_t *node, size_t size)
{
	return xcalloc((size_t) (node->data.mapping.pairs.top -
							 node->data.mapping.pairs.start) +
					   1,
				   size);
}

/* `variables:`: script variables, as pgbench's -D NAME=VALUE. */
static int
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
static int
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

static int
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
static int
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

static int
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

static char *
resolve_beside(const char *recipe_path, const char *file)
{
	char *copy, *dir, *out;

	if (file[0] == '/')
		return xstrdup(file);
	copy = xstrdup(recipe_path);
	dir = dirname(copy);
	out = xasprintf("%s/%s", dir, file);
	free(copy);
	return out;
}

/*
 * The encoding of TEXT when it is UTF-16 or UTF-32 (a byte order mark,
 * or ASCII with a NUL after or before every character), else NULL.
 */
static const char *
utf16_or_32(const char *text, size_t len)
{
	const unsigned char *u = (const unsigned char *) text;

	if (len >= 4 && u[0] == 0xFF && u[1] == 0xFE && u[2] == 0 && u[3] == 0)
		return "UTF-32LE";
	if (len >= 4 && u[0] == 0 && u[1] == 0 && u[2] == 0xFE && u[3] == 0xFF)
		return "UTF-32BE";
	if (len >= 2 && u[0] == 0xFF && u[1] == 0xFE)
		return "UTF-16LE";
	if (len >= 2 && u[0] == 0xFE && u[1] == 0xFF)
		return "UTF-16BE";
	/* no mark: "r\0e\0" or "\0r\0e" over the first characters */
	if (len >= 8 && u[0] && !u[1] && u[2] && !u[3] && u[4] && !u[5])
		return u[6] && !u[7] ? "UTF-16LE" : NULL;
	if (len >= 8 && !u[0] && u[1] && !u[2] && u[3] && !u[4] && u[5])
		return "UTF-16BE";
	return NULL;
}

/*
 * A script file's text (SHOWN: its name as the user gave it): refused when it
 * is UTF-16 or UTF-32, or holds a NUL byte (everything after it would be
 * lost), with the reason in ERR.
 */
static char *
read_script_file(const char *path, const char *shown, struct pgc_error *err)
{
	size_t len = 0;
	char *text = file_read_all(path, &len, err);
	const char *enc;

	if (text == NULL)
		return NULL;
	if ((enc = utf16_or_32(text, len)) != NULL)
	{
		error_set(err, PGC_ERR_RECIPE,
				  "script \"%s\" is %s text, not UTF-8 (iconv -f %s -t "
				  "UTF-8 converts it)",
				  shown, enc, enc);
		free(text);
		return NULL;
	}
	if (strlen(text) < len)
	{
		int line = 1;

		for (const char *p = text; *p; p++)
			line += *p == '\n';
		error_set(err, PGC_ERR_RECIPE,
				  "script \"%s\" holds a NUL byte on line %d", shown, line);
		free(text);
		return NULL;
	}
	return text;
}

/*
 * One script of workload W from mapping NODE (the workload itself, or an
 * entry of its `scripts:`): exactly one of script, file or builtin, and a
 * weight.  AT names the place of a missing script.
 */
static int
parse_script_entry(struct loader *ld, struct recipe_workload *w,
				   const yaml_node_t *at, const yaml_node_t *node, int index)
{
	struct recipe_script *rs = &w->scripts[index];
	const struct script *prev = index ? w->scripts[index - 1].script : NULL;
	yaml_node_t *script_node = lookup(ld, node, "script");
	yaml_node_t *file_node = lookup(ld, node, "file");
	yaml_node_t *builtin_node = lookup(ld, node, "builtin");
	yaml_node_t *v;
	struct script_origin origin;
	char ctx[256];
	char *text = NULL;
	const char *src;

	snprintf(ctx, sizeof(ctx), "in workload '%s'", w->name);
	rs->weight = 1;
	rs->pos = pos_of(at);
	if ((v = lookup(ld, node, "weight")) != NULL &&
		parse_int(ld, v, "'weight'", 0, INT32_MAX, &rs->weight) < 0)
		return -1;
	if ((script_node != NULL) + (file_node != NULL) + (builtin_node != NULL) >
		1)
		return fail(ld, file_node ? file_node : builtin_node,
					"give one of 'script', 'file' or 'builtin' %s", ctx);
	if (!script_node && !file_node && !builtin_node)
	{
		fail(ld, at, "workload '%s' has no script", w->name);
		error_hint(ld->err, "add 'script: |' with pgbench script text, 'file: "
							"name.sql' or 'builtin: tpcb-like'");
		return -1;
	}
	if (builtin_node)
	{
		const struct script_builtin *b;
		int nfound;

		if (expect_scalar(ld, builtin_node, "'builtin'") < 0)
			return -1;
		b = script_builtin_find(scalar(builtin_node), &nfound);
		if (b == NULL)
		{
			if (nfound == 0)
				fail(ld, builtin_node,
					 "no builtin script found for name \"%s\"",
					 scalar(builtin_node));
			else
				fail(ld, builtin_node,
					 "ambiguous builtin name: %d builtin scripts found for "
					 "prefix \"%s\"",
					 nfound, scalar(builtin_node));
			error_hint(ld->err, "the builtins: tpcb-like, simple-update, "
								"select-only");
			return -1;
		}
		rs->builtin = xstrdup(b->name);
		rs->label = xstrdup(b->desc);
		origin.file = b->desc;
		origin.first_line = 1;
		origin.first_col = 0;
		origin.indent = 0;
		src = b->text;
	}
	else if (script_node)
	{
		if (expect_scalar(ld, script_node, "'script'") < 0)
			return -1;
		scalar_origin(ld, script_node, &origin);
		rs->label = index || w->nscripts > 1
						? xasprintf("%s script %d", w->name, index + 1)
						: xstrdup(w->name);
		src = scalar(script_node);
	}
	else
	{
		if (expect_scalar(ld, file_node, "'file'") < 0)
			return -1;
		rs->file = resolve_beside(ld->path, scalar(file_node));
		text = read_script_file(rs->file, scalar(file_node), ld->err);
		if (text == NULL)
		{
			char msg[sizeof(ld->err->message)];

			memcpy(msg, ld->err->message, sizeof(msg));
			return fail(ld, file_node, "%s", msg);
		}
		rs->label = xstrdup(rs->file);
		origin.file = rs->file;
		origin.first_line = 1;
		origin.first_col = 0;
		origin.indent = 0;
		/* a UTF-8 byte order mark is no SQL: pgbench would send it */
		src = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
	}
	rs->script =
		script_parse_next(prev, index, w->name, src, &origin, ld->err);
	free(text);
	return rs->script ? 0 : -1;
}

/* A key of on_error: a named class, a SQLSTATE or a SQLSTATE class. */
static bool
error_key_ok(const char *k)
{
	static const char *const named[] = {"serialization", "deadlock",
										"recovery_conflict", "other",
										"connection"};
	size_t n = strlen(k);

	for (size_t i = 0; i < lengthof(named); i++)
		if (strcmp(k, named[i]) == 0)
			return true;
	if (n != 2 && n != 5)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char) k[i]) && !isupper((unsigned char) k[i]))
			return false;
	return true;
}

/* on_error: {serialization: retry, "23505": abort_run, ...} */
static int
parse_on_error(struct loader *ld, const yaml_node_t *node,
			   struct recipe_workload *w)
{
	static const char *const actions[] = {"retry", "continue", "abort_client",
										  "abort_run", NULL};

	if (expect_mapping(ld, node, "'on_error'") < 0)
		return -1;
	w->on_error = mapping_alloc(node, sizeof(*w->on_error));
	for (yaml_node_pair_t *pr = node->data.mapping.pairs.start;
		 pr < node->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *k = node_at(ld, pr->key);
		yaml_node_t *v = node_at(ld, pr->value);
		struct recipe_rule *rule;
		bool known = false;

		if (expect_scalar(ld, k, "an error class") < 0 ||
			expect_scalar(ld, v, "an action") < 0)
			return -1;
		if (!error_key_ok(scalar(k)))
		{
			fail(ld, k, "unknown error class \"%s\" in 'on_error'", scalar(k));
			error_hint(ld->err,
					   "serialization, deadlock, recovery_conflict, other, "
					   "connection, a "
					   "SQLSTATE such as \"23505\" or a class such as \"23\"");
			return -1;
		}
		for (int i = 0; actions[i]; i++)
			known |= strcmp(actions[i], scalar(v)) == 0;
		if (!known)
		{
			const char *near = nearest_word(scalar(v), actions);

			fail(ld, v, "unknown action \"%s\" for '%s'", scalar(v),
				 scalar(k));
			if (near)
				error_hint(ld->err, "did you mean '%s'?", near);
			else
				error_hint(ld->err,
						   "retry, continue, abort_client or abort_run");
			return -1;
		}
		if (strcmp(scalar(k), "connection") == 0 &&
			strcmp(scalar(v), "abort_client") != 0 &&
			strcmp(scalar(v), "abort_run") != 0)
		{
			fail(ld, v,
				 "a lost connection can abort the client or the run, "
				 "not \"%s\"",
				 scalar(v));
			error_hint(ld->err, "connection: abort_client (the default) or "
								"abort_run");
			return -1;
		}
		for (int i = 0; i < w->non_error; i++)
			if (strcmp(w->on_error[i].key, scalar(k)) == 0)
				return fail(ld, k,
							"error class '%s' given twice in "
							"'on_error'",
							scalar(k));
		rule = &w->on_error[w->non_error++];
		rule->key = xstrdup(scalar(k));
		rule->action = xstrdup(scalar(v));
		rule->pos = pos_of(k);
	}
	return 0;
}

static int
parse_workload(struct loader *ld, const yaml_node_t *key,
			   const yaml_node_t *node, struct recipe_workload *w)
{
	char ctx[256];
	yaml_node_t *v;

	w->name = xstrdup(scalar(key));
	w->pos = pos_of(key);
	w->clients = 1;
	w->jobs = 1;
	w->target = xstrdup("primary");
	w->protocol = RECIPE_PROTO_SIMPLE;
	if (!recipe_is_name(w->name))
		return bad_name(ld, key, "workload", w->name);
	snprintf(ctx, sizeof(ctx), "in workload '%s'", w->name);
	if (expect_mapping(ld, node, "a workload") < 0)
		return -1;
	if (check_keys(ld, node, workload_keys, ctx) < 0)
		return -1;

	if ((v = lookup(ld, node, "target")) != NULL)
	{
		if (expect_scalar(ld, v, "'target'") < 0)
			return -1;
		if (strcmp(scalar(v), "standby") == 0 &&
			ld->r->topology != RECIPE_TOPO_PRIMARY_STANDBY)
		{
			fail(ld, v,
				 "target \"standby\" %s needs topology: "
				 "primary+standby",
				 ctx);
			error_hint(ld->err, "add topology: primary+standby to the recipe");
			return -1;
		}
		if (strcmp(scalar(v), "primary") != 0 &&
			strcmp(scalar(v), "standby") != 0)
		{
			fail(ld, v, "unknown target \"%s\" %s", scalar(v), ctx);
			error_hint(ld->err, "primary or standby");
			return -1;
		}
		free(w->target);
		w->target = xstrdup(scalar(v));
	}
	if ((v = lookup(ld, node, "protocol")) != NULL)
	{
		if (expect_scalar(ld, v, "'protocol'") < 0)
			return -1;
		if (recipe_protocol_parse(scalar(v), &w->protocol) < 0)
		{
			fail(ld, v, "unknown protocol \"%s\" %s", scalar(v), ctx);
			error_hint(ld->err,
					   "use simple, extended or prepared (as pgbench -M)");
			return -1;
		}
		w->protocol_set = true;
	}
	if ((v = lookup(ld, node, "clients")) != NULL &&
		parse_int(ld, v, "'clients'", 1, MAX_CLIENTS, &w->clients) < 0)
		return -1;
	if ((v = lookup(ld, node, "jobs")) != NULL &&
		parse_int(ld, v, "'jobs'", 1, MAX_CLIENTS, &w->jobs) < 0)
		return -1;
	if ((v = lookup(ld, node, "transactions")) != NULL)
	{
		int n = 0;

		if (parse_int(ld, v, "'transactions'", 1, 1000000000, &n) < 0)
			return -1;
		w->transactions = n;
	}

	if ((v = lookup(ld, node, "at")) != NULL)
	{
		if (parse_duration(ld, v, "at", true, &w->at_ns) < 0)
			return -1;
		w->timed = true;
		w->at_pos = pos_of(v);
	}
	if ((v = lookup(ld, node, "every")) != NULL)
	{
		if (!w->timed)
			return fail(ld, v, "'every' %s needs 'at'", ctx);
		if (parse_duration(ld, v, "every", false, &w->every_ns) < 0)
			return -1;
	}
	if ((v = lookup(ld, node, "until")) != NULL)
	{
		if (!w->timed)
			return fail(ld, v, "'until' %s needs 'at'", ctx);
		if (parse_duration(ld, v, "until", false, &w->until_ns) < 0)
			return -1;
		if (w->until_ns <= w->at_ns)
			return fail(ld, v, "'until' %s must come after 'at'", ctx);
	}
	if ((v = lookup(ld, node, "rate")) != NULL)
	{
		char *end;

		if (expect_scalar(ld, v, "'rate'") < 0)
			return -1;
		errno = 0;
		w->rate = strtod(scalar(v), &end);
		if (errno || end == scalar(v) || *end || !(w->rate > 0) ||
			w->rate > 1e9)
		{
			fail(ld, v, "invalid 'rate' \"%s\" %s", scalar(v), ctx);
			error_hint(ld->err, "transactions per second over the workload's "
								"clients, as pgbench --rate: 500, 2.5");
			return -1;
		}
	}
	if ((v = lookup(ld, node, "reconnect")) != NULL &&
		parse_bool(ld, v, "'reconnect'", &w->reconnect) < 0)
		return -1;
	if ((v = lookup(ld, node, "latency_limit")) != NULL &&
		parse_duration(ld, v, "latency_limit", false, &w->latency_limit_ns) <
			0)
		return -1;
	if ((v = lookup(ld, node, "max_tries")) != NULL &&
		parse_int(ld, v, "'max_tries'", 1, 1000000, &w->max_tries) < 0)
		return -1;
	if ((v = lookup(ld, node, "on_error")) != NULL &&
		parse_on_error(ld, v, w) < 0)
		return -1;
	if ((v = lookup(ld, node, "scripts")) != NULL)
	{
		const char *single[] = {"script", "file", "builtin", "weight"};

		for (size_t i = 0; i < lengthof(single); i++)
			if (lookup(ld, node, single[i]) != NULL)
				return fail(ld, lookup(ld, node, single[i]),
							"give either 'scripts' or '%s' %s, not both",
							single[i], ctx);
		if (v->type != YAML_SEQUENCE_NODE ||
			v->data.sequence.items.top == v->data.sequence.items.start)
			return fail(ld, v, "'scripts' must be a non-empty list %s", ctx);
		w->scripts = xcalloc((size_t) (v->data.sequence.items.top -
									   v->data.sequence.items.start),
							 sizeof(*w->scripts));
		for (yaml_node_item_t *it = v->data.sequence.items.start;
			 it < v->data.sequence.items.top; it++)
		{
			yaml_node_t *item = node_at(ld, *it);

			if (expect_mapping(ld, item, "an entry of 'scripts'") < 0 ||
				check_keys(ld, item, script_keys, ctx) < 0)
				return -1;
			w->nscripts++;
			if (parse_script_entry(ld, w, item, item, w->nscripts - 1) < 0)
				return -1;
		}
		{
			int64_t total = 0;

			for (int k = 0; k < w->nscripts; k++)
				total += w->scripts[k].weight;
			if (total == 0)
				return fail(ld, v, "total script weight must not be zero %s",
							ctx);
			if (total > INT32_MAX)
				return fail(ld, v, "total script weight is too large %s", ctx);
		}
		return 0;
	}
	w->scripts = xcalloc(1, sizeof(*w->scripts));
	w->nscripts = 1;
	if (parse_script_entry(ld, w, key, node, 0) < 0)
		return -1;
	/* pgbench refuses script@0 when it is the only one: nothing would run */
	if (w->scripts[0].weight == 0)
		return fail(ld, lookup(ld, node, "weight"),
					"total script weight must not be zero %s", ctx);
	return 0;
}

static int
parse_workloads(struct loader *ld, const yaml_node_t *node)
{
	struct recipe *r = ld->r;
	size_t n;

	if (expect_mapping(ld, node, "'workloads'") < 0)
		return -1;
	n = (size_t) (node->data.mapping.pairs.top -
				  node->data.mapping.pairs.start);
	if (n == 0)
		return fail(ld, node, "'workloads' is empty");
	if (check_keys(ld, node, NULL, "in 'workloads'") < 0)
		return -1;
	r->workloads = xcalloc(n, sizeof(*r->workloads));
	for (yaml_node_pair_t *pr = node->data.mapping.pairs.start;
		 pr < node->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *k = node_at(ld, pr->key);

		if (expect_scalar(ld, k, "a workload name") < 0)
			return -1;
		r->nworkloads++;
		if (parse_workload(ld, k, node_at(ld, pr->value),
						   &r->workloads[r->nworkloads - 1]) < 0)
			return -1;
	}
	return 0;
}

static int
parse_sweep(struct loader *ld, const yaml_node_t *node)
{
	struct recipe *r = ld->r;
	yaml_node_t *v;

	if (expect_mapping(ld, node, "'sweep'") < 0)
		return -1;
	if (check_keys(ld, node, sweep_keys, "in 'sweep'") < 0)
		return -1;
	v = lookup(ld, node, "clients");
	if (v == NULL)
	{
		fail(ld, node, "'sweep' needs a 'clients' list");
		error_hint(ld->err, "for example: clients: [1, 2, 4, 8]");
		return -1;
	}
	if (v->type != YAML_SEQUENCE_NODE)
		return fail(ld, v, "sweep 'clients' must be a list, not %s",
					node_kind(v));
	if (v->data.sequence.items.top == v->data.sequence.items.start)
		return fail(ld, v, "sweep 'clients' is empty");
	r->sweep_clients = xcalloc(
		(size_t) (v->data.sequence.items.top - v->data.sequence.items.start),
		sizeof(int));
	for (yaml_node_item_t *it = v->data.sequence.items.start;
		 it < v->data.sequence.items.top; it++)
	{
		yaml_node_t *item = node_at(ld, *it);
		int c = 0;

		if (parse_int(ld, item, "sweep 'clients' entry", 1, MAX_CLIENTS, &c) <
			0)
			return -1;
		if (r->nsweep_clients > 0 &&
			c <= r->sweep_clients[r->nsweep_clients - 1])
		{
			fail(ld, item, "sweep 'clients' must be ascending: %d after %d", c,
				 r->sweep_clients[r->nsweep_clients - 1]);
			return -1;
		}
		r->sweep_clients[r->nsweep_clients++] = c;
	}

	r->sweep_jobs_eq_clients = true;
	if ((v = lookup(ld, node, "jobs")) != NULL &&
		v->type == YAML_SEQUENCE_NODE)
	{
		int n = 0;

		if (v->data.sequence.items.top - v->data.sequence.items.start !=
			r->nsweep_clients)
		{
			fail(ld, v, "sweep 'jobs' has %d entries but 'clients' has %d",
				 (int) (v->data.sequence.items.top -
						v->data.sequence.items.start),
				 r->nsweep_clients);
			error_hint(
				ld->err,
				"give one jobs value per client count, a single number, or \"clients\"");
			return -1;
		}
		r->sweep_jobs_list = xcalloc((size_t) r->nsweep_clients, sizeof(int));
		r->sweep_jobs_eq_clients = false;
		for (yaml_node_item_t *it = v->data.sequence.items.start;
			 it < v->data.sequence.items.top; it++, n++)
		{
			yaml_node_t *item = node_at(ld, *it);

			if (parse_int(ld, item, "sweep 'jobs' entry", 1, MAX_CLIENTS,
						  &r->sweep_jobs_list[n]) < 0)
				return -1;
			if (r->sweep_jobs_list[n] > r->sweep_clients[n])
				return fail(ld, item,
							"sweep 'jobs' entry %d exceeds its %d clients",
							r->sweep_jobs_list[n], r->sweep_clients[n]);
		}
	}
	else if (v != NULL)
	{
		if (expect_scalar(ld, v, "sweep 'jobs'") < 0)
			return -1;
		if (strcmp(scalar(v), "clients") == 0)
			r->sweep_jobs_eq_clients = true;
		else
		{
			if (parse_int(ld, v, "sweep 'jobs' (a number or \"clients\")", 1,
						  MAX_CLIENTS, &r->sweep_jobs) < 0)
				return -1;
			r->sweep_jobs_eq_clients = false;
		}
	}

	if ((v = lookup(ld, node, "workloads")) != NULL)
	{
		if (v->type != YAML_SEQUENCE_NODE)
			return fail(
				ld, v,
				"sweep 'workloads' must be a list of workload names, not %s",
				node_kind(v));
		for (yaml_node_item_t *it = v->data.sequence.items.start;
			 it < v->data.sequence.items.top; it++)
		{
			yaml_node_t *item = node_at(ld, *it);
			bool found = false;

			if (expect_scalar(ld, item, "a workload name") < 0)
				return -1;
			for (int i = 0; i < r->nworkloads; i++)
				if (strcmp(r->workloads[i].name, scalar(item)) == 0)
				{
					r->workloads[i].swept = true;
					found = true;
				}
			if (!found)
				return fail(ld, item, "sweep names unknown workload '%s'",
							scalar(item));
		}
	}
	else
		for (int i = 0; i < r->nworkloads; i++)
			r->workloads[i].swept = true;
	return 0;
}

/*
 * A swept workload takes clients and jobs from the sweep, so giving them
 * in the workload too would be ambiguous.
 */
static int
check_swept_workloads(struct loader *ld, const yaml_node_t *workloads)
{
	for (yaml_node_pair_t *pr = workloads->data.mapping.pairs.start;
		 pr < workloads->data.mapping.pairs.top; pr++)
	{
		yaml_node_t *k = node_at(ld, pr->key);
		yaml_node_t *w = node_at(ld, pr->value);
		const struct recipe_workload *wl =
			recipe_workload_find(ld->r, scalar(k));
		yaml_node_t *v;

		if (wl == NULL || !wl->swept)
			continue;
		if ((v = lookup(ld, w, "clients")) != NULL ||
			(v = lookup(ld, w, "jobs")) != NULL)
		{
			fail(
				ld, v,
				"workload '%s' is swept: its clients and jobs come from 'sweep'",
				wl->name);
			error_hint(
				ld->err,
				"remove this line, or leave the workload out of sweep 'workloads'");
			return -1;
		}
	}
	return 0;
}

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

static int
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
static int
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
static int
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

static int
load_root(struct loader *ld, yaml_node_t *root)
{
	struct recipe *r = ld->r;
	yaml_node_t *v, *warmup;

	if (root->type != YAML_MAPPING_NODE)
		return fail(ld, root, "a recipe must be a mapping of keys, not %s",
					node_kind(root));
	if (check_keys(ld, root, top_keys, "") < 0)
		return -1;

	if ((v = lookup(ld, root, "recipe")) == NULL)
	{
		fail(ld, root, "missing key 'recipe' (the recipe's name)");
		error_hint(ld->err, "add a first line such as: recipe: my_experiment");
		return -1;
	}
	if (expect_scalar(ld, v, "'recipe'") < 0)
		return -1;
	if (!recipe_is_name(scalar(v)))
		return bad_name(ld, v, "recipe", scalar(v));
	r->name = xstrdup(scalar(v));

	if ((v = lookup(ld, root, "description")) != NULL)
	{
		if (expect_scalar(ld, v, "'description'") < 0)
			return -1;
		r->description = xstrdup(scalar(v));
	}
	if ((v = lookup(ld, root, "source")) != NULL)
	{
		if (expect_scalar(ld, v, "'source'") < 0)
			return -1;
		if (scalar(v)[0] == '\0')
			return fail(ld, v, "empty 'source'");
		r->source = resolve_beside(ld->path, scalar(v));
		r->source_pos = pos_of(v);
	}
	r->topology = RECIPE_TOPO_PRIMARY;
	if ((v = lookup(ld, root, "topology")) != NULL)
	{
		if (expect_scalar(ld, v, "'topology'") < 0)
			return -1;
		if (strcmp(scalar(v), "primary+standby") == 0)
			r->topology = RECIPE_TOPO_PRIMARY_STANDBY;
		else if (strcmp(scalar(v), "primary") != 0)
		{
			fail(ld, v, "unsupported topology \"%s\"", scalar(v));
			error_hint(ld->err, "primary, or primary+standby");
			return -1;
		}
	}
	if ((v = lookup(ld, root, "server")) != NULL &&
		parse_gucs(ld, v, "'server'", &r->gucs, &r->ngucs) < 0)
		return -1;
	if ((v = lookup(ld, root, "primary")) != NULL &&
		parse_gucs(ld, v, "'primary'", &r->primary_gucs, &r->nprimary_gucs) <
			0)
		return -1;
	if ((v = lookup(ld, root, "standby")) != NULL)
	{
		if (r->topology != RECIPE_TOPO_PRIMARY_STANDBY)
		{
			fail(ld, v, "'standby' settings need topology: primary+standby");
			error_hint(ld->err, "add topology: primary+standby to the recipe");
			return -1;
		}
		if (parse_gucs(ld, v, "'standby'", &r->standby_gucs,
					   &r->nstandby_gucs) < 0)
			return -1;
	}
	if ((v = lookup(ld, root, "init")) != NULL && parse_init(ld, v) < 0)
		return -1;
	if ((v = lookup(ld, root, "setup")) != NULL &&
		parse_sql_list(ld, v, "setup", &r->setup, &r->nsetup) < 0)
		return -1;
	if ((v = lookup(ld, root, "reset")) != NULL &&
		parse_sql_list(ld, v, "reset", &r->reset, &r->nreset) < 0)
		return -1;

	if ((warmup = lookup(ld, root, "warmup")) != NULL &&
		parse_warmup(ld, warmup, r) < 0)
		return -1;
	r->repeat = 1;
	if ((v = lookup(ld, root, "repeat")) != NULL &&
		parse_int(ld, v, "'repeat'", 1, MAX_REPEAT, &r->repeat) < 0)
		return -1;
	if ((v = lookup(ld, root, "workloads")) == NULL)
	{
		fail(ld, root, "missing key 'workloads'");
		error_hint(ld->err,
				   "a recipe needs at least one workload with a script");
		return -1;
	}
	if (parse_workloads(ld, v) < 0)
		return -1;
	/*
	 * The order below matters: the duration is checked against the
	 * workloads' timed events (at: inside it), windows against the
	 * duration, and sweep: against the workloads it marks as swept; a key
	 * is looked up where what it depends on is known, not in file order.
	 */
	if ((v = lookup(ld, root, "duration")) != NULL)
	{
		if (parse_duration(ld, v, "duration", false, &r->duration_ns) < 0)
			return -1;
		if (r->duration_ns < RECIPE_MIN_DURATION_NS)
		{
			fail(ld, v,
				 "'duration' %s is shorter than a window can be (at least "
				 "1s)",
				 scalar(v));
			error_hint(ld->err, "a window is counted per second; pgbench's "
								"-T counts whole seconds too");
			return -1;
		}
		for (int i = 0; i < r->nworkloads; i++)
			if (r->workloads[i].timed &&
				r->workloads[i].at_ns >= r->duration_ns)
			{
				error_set(ld->err, PGC_ERR_RECIPE,
						  "'at' of workload '%s' is not inside the %g s "
						  "duration",
						  r->workloads[i].name, (double) r->duration_ns / 1e9);
				error_at(ld->err, ld->path, r->workloads[i].at_pos.line,
						 r->workloads[i].at_pos.col, 1);
				return -1;
			}
	}
	else if (check_transactions(ld, root) < 0)
		return -1;
	if (r->warmup_stable && check_stable_warmup(ld, warmup) < 0)
		return -1;
	if ((v = lookup(ld, root, "variables")) != NULL &&
		parse_variables(ld, v) < 0)
		return -1;
	if ((v = lookup(ld, root, "sweep")) != NULL)
	{
		if (parse_sweep(ld, v) < 0 ||
			check_swept_workloads(ld, lookup(ld, root, "workloads")) < 0)
			return -1;
	}
	if ((v = lookup(ld, root, "variants")) != NULL &&
		parse_variants(ld, v) < 0)
		return -1;
	if ((v = lookup(ld, root, "windows")) != NULL && parse_windows(ld, v) < 0)
		return -1;
	if ((v = lookup(ld, root, "probes")) != NULL && parse_probes(ld, v) < 0)
		return -1;
	/* a fresh server per block is the default: an instance carries an
	 * effect of its own that lasts its lifetime (see report/VERDICTS.md) */
	r->restart_per_block = true;
	if ((v = lookup(ld, root, "restart")) != NULL)
	{
		if (expect_scalar(ld, v, "'restart'") < 0)
			return -1;
		if (strcmp(scalar(v), "never") == 0)
			r->restart_per_block = false;
		else if (strcmp(scalar(v), "block") != 0)
		{
			fail(ld, v, "invalid 'restart' \"%s\"", scalar(v));
			error_hint(ld->err, "block (restart each variant's server per "
								"block) or never");
			return -1;
		}
	}
	if ((v = lookup(ld, root, "placement")) != NULL &&
		parse_placement(ld, v) < 0)
		return -1;
	if ((v = lookup(ld, root, "profile")) != NULL &&
		parse_recipe_profile(ld, v, r) < 0)
		return -1;
	if ((v = lookup(ld, root, "run_workloads")) != NULL)
	{
		if (expect_scalar(ld, v, "'run_workloads'") < 0)
			return -1;
		if (strcmp(scalar(v), "separately") == 0)
			r->separately = true;
		else if (strcmp(scalar(v), "together") != 0)
		{
			fail(ld, v, "invalid 'run_workloads' \"%s\"", scalar(v));
			error_hint(ld->err, "together (every workload of a point at once) "
								"or separately (one point per workload)");
			return -1;
		}
		for (int i = 0; r->separately && i < r->nworkloads; i++)
			if (r->workloads[i].timed)
			{
				fail(ld, v,
					 "'run_workloads: separately' and the timed workload "
					 "'%s' do not go together",
					 r->workloads[i].name);
				error_hint(ld->err, "a timed workload is an event during "
									"the others");
				return -1;
			}
	}
	if ((v = lookup(ld, root, "measure")) != NULL)
	{
		if (parse_measure(ld, v) < 0)
			return -1;
	}
	else
	{
		/* compare and gate judge the first workload's tps by default; the
		 * run stores this, so reading a run never parses its recipe */
		r->measure_workload = xstrdup(r->workloads[0].name);
		r->measure_metric = xstrdup("tps");
	}
	return 0;
}

/* What a recipe may be: libyaml's scanner is quadratic in nesting depth. */
#define RECIPE_MAX_BYTES (4 << 20)
#define RECIPE_MAX_DEPTH 64

/* Line and column (1-based) of byte OFFSET of TEXT. */
static void
offset_place(const char *text, size_t offset, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < offset && text[i]; i++)
	{
		if (text[i] == '\n')
		{
			(*line)++;
			*col = 1;
		}
		else if (((unsigned char) text[i] & 0xC0) != 0x80)
			(*col)++;
	}
}

/*
 * Refuse, before libyaml reads it, a text it would take minutes over: one
 * over RECIPE_MAX_BYTES, or nested deeper than RECIPE_MAX_DEPTH levels of
 * flow brackets, of block indentation or of "- - -" on one line (a YAML
 * sequence nested 100,000 deep took libyaml over 20 s).  Quoted scalars
 * and comments do not count.  False with ERR at the place.
 */
static bool
text_bounded(const char *path, const char *text, struct pgc_error *err)
{
	size_t len = strlen(text);
	int flow = 0, line, col;
	size_t at = 0;
	char quote = 0;

	if (len > RECIPE_MAX_BYTES)
	{
		error_set(err, PGC_ERR_RECIPE, "recipe is %zu bytes: at most %d", len,
				  RECIPE_MAX_BYTES);
		error_at(err, path, 1, 1, 1);
		return false;
	}
	for (size_t i = 0; i < len; i++)
	{
		char c = text[i];

		if (quote)
		{
			if (c == '\\' && quote == '"' && i + 1 < len)
				i++;
			else if (c == quote)
				quote = 0;
			continue;
		}
		if (c == '#' && (i == 0 || isspace((unsigned char) text[i - 1])))
		{
			i += strcspn(text + i, "\n");
			i--;
			continue;
		}
		if ((c == '"' || c == '\'') &&
			(i == 0 || strchr(" \t\n[{,:-", text[i - 1])))
			quote = c;
		else if (c == '[' || c == '{')
		{
			if (++flow > RECIPE_MAX_DEPTH)
			{
				at = i;
				break;
			}
		}
		else if ((c == ']' || c == '}') && flow > 0)
			flow--;
		else if (c == '\n' || i == 0)
		{
			/* block nesting: the indentation and the "- " after it */
			size_t j = c == '\n' ? i + 1 : i;
			int levels = 0;

			while (text[j] == ' ')
				j++, levels++;
			levels /= 2;
			while (levels <= RECIPE_MAX_DEPTH && text[j] == '-' &&
				   (text[j + 1] == ' ' || text[j + 1] == '\t'))
				j += 2, levels++;
			if (levels > RECIPE_MAX_DEPTH)
			{
				at = j;
				break;
			}
		}
	}
	if (at == 0)
		return true;
	offset_place(text, at, &line, &col);
	error_set(err, PGC_ERR_RECIPE,
			  "recipe nested too deeply (more than %d "
			  "levels)",
			  RECIPE_MAX_DEPTH);
	error_at(err, path, line, col, 1);
	return false;
}

/*
 * Whether the text holds a second YAML document (after "---"), which the
 * loader would otherwise silently ignore: an error at its start.
 */
static bool
second_document(yaml_parser_t *parser, const char *path, struct pgc_error *err)
{
	yaml_document_t next;
	yaml_node_t *root;
	bool found = false;

	if (!yaml_parser_load(parser, &next))
	{
		error_set(err, PGC_ERR_RECIPE, "invalid YAML: %s",
				  parser->problem ? parser->problem : "syntax error");
		error_at(err, path, (int) parser->problem_mark.line + 1,
				 (int) parser->problem_mark.column + 1, 1);
		return true;
	}
	if ((root = yaml_document_get_root_node(&next)) != NULL)
	{
		error_set(err, PGC_ERR_RECIPE,
				  "a second YAML document: a recipe is one document");
		error_at(err, path, (int) root->start_mark.line + 1,
				 (int) root->start_mark.column + 1, 1);
		error_hint(err, "remove the \"---\" and what follows, or make it a "
						"recipe file of its own");
		found = true;
	}
	yaml_document_delete(&next);
	return found;
}

struct recipe *
recipe_load_text(const char *path, const char *text, struct pgc_error *err)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct loader ld;
	struct recipe *r = xcalloc(1, sizeof(*r));
	yaml_node_t *root;
	int rc = -1;

	r->path = xstrdup(path);
	r->text = xstrdup(text);
	memset(&ld, 0, sizeof(ld));
	ld.path = r->path;
	ld.text = r->text;
	ld.doc = &doc;
	ld.r = r;
	ld.err = err;

	if (!text_bounded(path, r->text, err))
	{
		recipe_free(r);
		return NULL;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *) r->text,
								 strlen(r->text));
	if (!yaml_parser_load(&parser, &doc))
	{
		int line = (int) parser.problem_mark.line + 1;
		int col = (int) parser.problem_mark.column + 1;

		/* the reader (bad UTF-8, a control character) marks no place: its
		 * byte offset says where */
		if (parser.error == YAML_READER_ERROR)
			offset_place(r->text, parser.problem_offset, &line, &col);
		error_set(err, PGC_ERR_RECIPE, "invalid YAML: %s%s%s",
				  parser.problem ? parser.problem : "syntax error",
				  parser.context ? " " : "",
				  parser.context ? parser.context : "");
		error_at(err, path, line, col, 1);
		if (parser.error == YAML_READER_ERROR)
			error_hint(err, "a recipe is UTF-8 text");
		yaml_parser_delete(&parser);
		recipe_free(r);
		return NULL;
	}
	root = yaml_document_get_root_node(&doc);
	if (root == NULL)
	{
		error_set(err, PGC_ERR_RECIPE, "recipe is empty");
		error_at(err, path, 1, 1, 1);
	}
	else if (second_document(&parser, path, err))
		; /* refused: what follows "---" would be ignored otherwise */
	else
		rc = load_root(&ld, root);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (rc < 0)
	{
		recipe_free(r);
		return NULL;
	}
	return r;
}

struct recipe *
recipe_load(const char *path, struct pgc_error *err)
{
	size_t len = 0;
	char *text = file_read_all(path, &len, err);
	struct recipe *r;

	if (text == NULL)
	{
		/* a recipe that cannot be read is bad input, not a tool failure */
		err->kind = PGC_ERR_RECIPE;
		return NULL;
	}
	if (utf16_or_32(text, len) != NULL)
	{
		const char *enc = utf16_or_32(text, len);

		free(text);
		error_set(err, PGC_ERR_RECIPE, "recipe is %s text, not UTF-8", enc);
		error_at(err, path, 1, 1, 1);
		error_hint(err, "recipes are UTF-8: iconv -f %s -t UTF-8 %s", enc,
				   path);
		return NULL;
	}
	if (strlen(text) < len)
	{
		/* everything after a NUL would be ignored: say where it is */
		int line = 1, col = 1;

		for (const char *p = text; *p; p++)
		{
			col = *p == '\n' ? 1 : col + 1;
			line += *p == '\n';
		}
		free(text);
		error_set(err, PGC_ERR_RECIPE, "recipe holds a NUL byte");
		error_at(err, path, line, col, 1);
		error_hint(err, "a recipe is UTF-8 text");
		return NULL;
	}
	if (strlen(text) == 0)
	{
		free(text);
		error_set(err, PGC_ERR_RECIPE, "recipe is empty");
		error_at(err, path, 1, 1, 1);
		return NULL;
	}
	r = recipe_load_text(path, text, err);
	free(text);
	return r;
}

static void
free_sql_list(struct recipe_sql *list, int n)
{
	for (int i = 0; i < n; i++)
		free(list[i].text);
	free(list);
}

static void
free_gucs(struct recipe_guc *g, int n)
{
	for (int i = 0; i < n; i++)
	{
		free(g[i].name);
		free(g[i].value);
	}
	free(g);
}

void
recipe_free(struct recipe *r)
{
	if (r == NULL)
		return;
	free_gucs(r->gucs, r->ngucs);
	free_gucs(r->variables, r->nvariables);
	free_gucs(r->primary_gucs, r->nprimary_gucs);
	free_gucs(r->standby_gucs, r->nstandby_gucs);
	for (int i = 0; i < r->nvariants; i++)
		variant_release(&r->variants[i]);
	free(r->variants);
	for (int i = 0; i < r->nwindows; i++)
		free(r->windows[i].name);
	free(r->windows);
	for (int i = 0; i < r->nprobes; i++)
	{
		free(r->probes[i].name);
		free(r->probes[i].sql);
		free(r->probes[i].target);
		for (int k = 0; k < r->probes[i].ncounters; k++)
			free(r->probes[i].counters[k]);
		free(r->probes[i].counters);
	}
	free(r->probes);
	free_sql_list(r->setup, r->nsetup);
	free_sql_list(r->init.sql, r->init.nsql);
	free(r->init.partition_method);
	free(r->init.steps);
	free_sql_list(r->reset, r->nreset);
	for (int i = 0; i < r->nworkloads; i++)
	{
		free(r->workloads[i].name);
		free(r->workloads[i].target);
		for (int k = 0; k < r->workloads[i].nscripts; k++)
		{
			struct recipe_script *rs = &r->workloads[i].scripts[k];

			free(rs->label);
			free(rs->file);
			free(rs->builtin);
			script_free(rs->script);
		}
		free(r->workloads[i].scripts);
		for (int k = 0; k < r->workloads[i].non_error; k++)
		{
			free(r->workloads[i].on_error[k].key);
			free(r->workloads[i].on_error[k].action);
		}
		free(r->workloads[i].on_error);
	}
	free(r->workloads);
	free(r->sweep_clients);
	free(r->sweep_jobs_list);
	free(r->measure_workload);
	free(r->measure_metric);
	free(r->name);
	free(r->description);
	free(r->source);
	free(r->path);
	free(r->text);
	free(r);
}

const char *
recipe_protocol_name(enum recipe_protocol p)
{
	switch (p)
	{
		case RECIPE_PROTO_SIMPLE:
			return "simple";
		case RECIPE_PROTO_EXTENDED:
			return "extended";
		case RECIPE_PROTO_PREPARED:
			return "prepared";
	}
	return "?";
}

int
recipe_protocol_parse(const char *text, enum recipe_protocol *out)
{
	if (strcmp(text, "simple") == 0)
		*out = RECIPE_PROTO_SIMPLE;
	else if (strcmp(text, "extended") == 0)
		*out = RECIPE_PROTO_EXTENDED;
	else if (strcmp(text, "prepared") == 0)
		*out = RECIPE_PROTO_PREPARED;
	else
		return -1;
	return 0;
}

int
recipe_sweep_jobs(const struct recipe *r, int i, int clients)
{
	int jobs;

	if (r->sweep_jobs_list)
		jobs = r->sweep_jobs_list[i];
	else if (r->sweep_jobs_eq_clients)
		jobs = clients;
	else
		jobs = r->sweep_jobs;
	return jobs < clients ? jobs : clients;
}

/*
 * Row ROW of a Williams design for N treatments: a Latin square whose rows
 * put every treatment in every position once and after every other
 * treatment once (for odd N, over 2N rows: the first N and their
 * reverses).  N = 2 gives AB, BA.
 */
static int
williams(int n, int row, int pos)
{
	int r = row % (n % 2 ? 2 * n : n);
	int j = r >= n ? n - 1 - pos : pos; /* odd N: the reversed rows */
	int base = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : n - j / 2;

	return (base + r % n) % n;
}

int
recipe_plan(int nvariants, int nsweep, int blocks, uint64_t seed,
			struct recipe_plan_step **steps)
{
	int n = 0;
	int *perm = xmalloc((size_t) nsweep * sizeof(int));
	struct prng rng;

	*steps = xmalloc((size_t) nvariants * (size_t) nsweep * (size_t) blocks *
					 sizeof(**steps));
	if (nvariants == 1)
	{
		for (int si = 0; si < nsweep; si++)
			for (int b = 0; b < blocks; b++)
				(*steps)[n++] = (struct recipe_plan_step){b, 0, si, -1};
		free(perm);
		return n;
	}
	prng_seed(&rng, seed);
	for (int b = 0; b < blocks; b++)
	{
		/* Fisher-Yates with the run's generator: same seed, same plan */
		for (int i = 0; i < nsweep; i++)
			perm[i] = i;
		for (int i = nsweep - 1; i > 0; i--)
		{
			int j = (int) prng_range(&rng, 0, (uint64_t) i);
			int t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int k = 0; k < nvariants; k++)
		{
			int v = williams(nvariants, b, k);

			for (int i = 0; i < nsweep; i++)
				(*steps)[n++] = (struct recipe_plan_step){b, v, perm[i], -1};
		}
	}
	free(perm);
	return n;
}

int
recipe_plan_for(const struct recipe *r, int nvariants, int nsweep, bool swept,
				int blocks, uint64_t seed, struct recipe_plan_step **steps)
{
	struct recipe_plan_step *all;
	int n = recipe_plan(nvariants, nsweep, blocks, seed, &all), m = 0;

	if (!r->separately)
	{
		*steps = all;
		return n;
	}
	*steps = xmalloc((size_t) n * (size_t) r->nworkloads * sizeof(**steps));
	for (int i = 0; i < n; i++)
		for (int w = 0; w < r->nworkloads; w++)
		{
			/* a workload with its own clients is one point, not one per
			 * entry of the sweep */
			if (swept && !r->workloads[w].swept && all[i].sweep != 0)
				continue;
			(*steps)[m] = all[i];
			(*steps)[m++].workload = w;
		}
	free(all);
	return m;
}

const struct recipe_workload *
recipe_workload_find(const struct recipe *r, const char *name)
{
	for (int i = 0; i < r->nworkloads; i++)
		if (strcmp(r->workloads[i].name, name) == 0)
			return &r->workloads[i];
	return NULL;
}

/* ------------------------------------------------------- pgbench mode */

static int
emit_write(void *data, unsigned char *buffer, size_t size)
{
	strbuf_add(data, buffer, size);
	return 1;
}

static void
emit_scalar(yaml_emitter_t *e, const char *text)
{
	yaml_event_t ev;

	if (text == NULL)
		text = "";
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *) text,
								 (int) strlen(text), 1, 1,
								 YAML_ANY_SCALAR_STYLE);
	yaml_emitter_emit(e, &ev);
}

static void
emit_pair(yaml_emitter_t *e, const char *key, const char *value)
{
	emit_scalar(e, key);
	emit_scalar(e, value);
}

static void
emit_mapping(yaml_emitter_t *e, bool start, bool flow)
{
	yaml_event_t ev;

	if (start)
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
											flow ? YAML_FLOW_MAPPING_STYLE
												 : YAML_BLOCK_MAPPING_STYLE);
	else
		yaml_mapping_end_event_initialize(&ev);
	yaml_emitter_emit(e, &ev);
}

/*
 * R as the YAML recipe it is equivalent to, written by libyaml's emitter
 * (its quoting, not ours), for the store and for people.
 */
static char *
scripts_recipe_text(const struct recipe *r)
{
	const struct recipe_workload *w = &r->workloads[0];
	yaml_emitter_t e;
	yaml_event_t ev;
	struct strbuf sb = STRBUF_INIT;
	char num[32];

	yaml_emitter_initialize(&e);
	yaml_emitter_set_output(&e, emit_write, &sb);
	yaml_emitter_set_unicode(&e, 1);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	yaml_emitter_emit(&e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	yaml_emitter_emit(&e, &ev);
	emit_mapping(&e, true, false);
	emit_pair(&e, "recipe", r->name);
	emit_pair(&e, "description", r->description);
	if (r->duration_ns)
	{
		snprintf(num, sizeof(num), "%" PRId64 "us", r->duration_ns / 1000);
		emit_pair(&e, "duration", num);
	}
	if (r->has_init)
	{
		emit_scalar(&e, "init");
		emit_mapping(&e, true, true);
		emit_scalar(&e, "pgbench");
		emit_mapping(&e, true, true);
		snprintf(num, sizeof(num), "%d", r->init.scale);
		emit_pair(&e, "scale", num);
		emit_mapping(&e, false, true);
		emit_mapping(&e, false, true);
	}
	emit_pair(&e, "placement", "free");
	emit_scalar(&e, "workloads");
	emit_mapping(&e, true, false);
	emit_scalar(&e, w->name);
	emit_mapping(&e, true, false);
	emit_scalar(&e, "scripts");
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
										 YAML_BLOCK_SEQUENCE_STYLE);
	yaml_emitter_emit(&e, &ev);
	for (int k = 0; k < w->nscripts; k++)
	{
		emit_mapping(&e, true, true);
		if (w->scripts[k].builtin)
			emit_pair(&e, "builtin", w->scripts[k].builtin);
		else
			emit_pair(&e, "file", w->scripts[k].file);
		snprintf(num, sizeof(num), "%d", w->scripts[k].weight);
		emit_pair(&e, "weight", num);
		emit_mapping(&e, false, true);
	}
	yaml_sequence_end_event_initialize(&ev);
	yaml_emitter_emit(&e, &ev);
	if (w->transactions)
	{
		snprintf(num, sizeof(num), "%" PRId64, w->transactions);
		emit_pair(&e, "transactions", num);
	}
	emit_mapping(&e, false, false); /* the workload */
	emit_mapping(&e, false, false); /* workloads */
	emit_scalar(&e, "sweep");
	emit_mapping(&e, true, true);
	emit_scalar(&e, "clients");
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
										 YAML_FLOW_SEQUENCE_STYLE);
	yaml_emitter_emit(&e, &ev);
	emit_scalar(&e, "1");
	yaml_sequence_end_event_initialize(&ev);
	yaml_emitter_emit(&e, &ev);
	emit_pair(&e, "jobs", "1");
	emit_mapping(&e, false, true);
	emit_mapping(&e, false, false); /* the root */
	yaml_document_end_event_initialize(&ev, 1);
	yaml_emitter_emit(&e, &ev);
	yaml_stream_end_event_initialize(&ev);
	yaml_emitter_emit(&e, &ev);
	yaml_emitter_delete(&e);
	return strbuf_detach(&sb);
}

/* A recipe name from a script's file name: letters, digits, _ and -. */
static char *
name_of_script(const char *arg)
{
	const char *base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	struct strbuf sb = STRBUF_INIT;

	if (!isalpha((unsigned char) base[0]) && base[0] != '_')
		strbuf_addstr(&sb, "s_");
	for (; *base && *base != '.' && sb.len < 63; base++)
		strbuf_addch(
			&sb, isalnum((unsigned char) *base) || *base == '-' ? *base : '_');
	if (sb.len == 0 || strcmp(sb.buf, "s_") == 0)
	{
		strbuf_release(&sb);
		return xstrdup("script");
	}
	return strbuf_detach(&sb);
}

/* Script K of W from ARG: a builtin by name, or a file read whole. */
static int
script_of_arg(struct recipe_workload *w, int k,
			  const struct recipe_script_arg *arg, struct pgc_error *err)
{
	struct recipe_script *rs = &w->scripts[k];
	struct script_origin origin;
	char *text = NULL;
	const char *src;

	memset(&origin, 0, sizeof(origin));
	origin.first_line = 1;
	rs->weight = arg->weight;
	if (arg->builtin)
	{
		int nfound;
		const struct script_builtin *b =
			script_builtin_find(arg->builtin, &nfound);

		if (b == NULL)
		{
			if (nfound)
				error_set(err, PGC_ERR_USAGE,
						  "ambiguous builtin name: %d builtin scripts found "
						  "for prefix \"%s\"",
						  nfound, arg->builtin);
			else
				error_set(err, PGC_ERR_USAGE,
						  "no builtin script found for name \"%s\"",
						  arg->builtin);
			error_hint(err, "the builtins: tpcb-like, simple-update, "
							"select-only");
			return -1;
		}
		rs->builtin = xstrdup(b->name);
		rs->label = xstrdup(b->desc);
		origin.file = b->desc;
		src = b->text;
	}
	else
	{
		if ((rs->file = realpath(arg->file, NULL)) == NULL)
		{
			error_set(err, PGC_ERR_RECIPE, "could not open script \"%s\": %s",
					  arg->file, strerror(errno));
			return -1;
		}
		if ((text = read_script_file(rs->file, arg->file, err)) == NULL)
		{
			err->kind = PGC_ERR_RECIPE;
			return -1;
		}
		rs->label = xstrdup(rs->file);
		origin.file = rs->file;
		/* a UTF-8 byte order mark is no SQL: pgbench would send it */
		src = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
	}
	rs->script = script_parse_next(k ? w->scripts[k - 1].script : NULL, k,
								   w->name, src, &origin, err);
	free(text);
	return rs->script ? 0 : -1;
}

struct recipe *
recipe_from_scripts(const struct recipe_script_arg *args, int n,
					int64_t duration_ns, int64_t transactions, int init_scale,
					struct pgc_error *err)
{
	struct recipe *r = xcalloc(1, sizeof(*r));
	struct recipe_workload *w;

	r->name = name_of_script(args[0].file ? args[0].file : args[0].builtin);
	r->description = xstrdup("pgcliff run -f/-b");
	r->topology = RECIPE_TOPO_PRIMARY;
	r->repeat = 1;
	r->restart_per_block = true;
	/* pgbench's habit: the scheduler places the processes */
	r->has_placement = true;
	r->placement.mode = PLACEMENT_FREE;
	r->duration_ns = duration_ns;
	if (init_scale > 0)
	{
		r->has_init = true;
		r->init.pgbench = true;
		r->init.scale = init_scale;
		r->init.partition_method = xstrdup("range");
	}
	r->workloads = w = xcalloc(1, sizeof(*w));
	r->nworkloads = 1;
	w->name = xstrdup(r->name);
	w->target = xstrdup("primary");
	w->protocol = RECIPE_PROTO_SIMPLE;
	w->clients = 1;
	w->jobs = 1;
	w->swept = true;
	/* pgbench's default: 10 transactions per client without -T */
	w->transactions = duration_ns ? 0 : (transactions ? transactions : 10);
	w->scripts = xcalloc((size_t) n, sizeof(*w->scripts));
	for (int k = 0; k < n; k++, w->nscripts++)
		if (script_of_arg(w, k, &args[k], err) < 0)
		{
			w->nscripts++; /* freed with the rest */
			recipe_free(r);
			return NULL;
		}
	/* pgbench's defaults: one client on one thread; -c and -j apply */
	r->sweep_clients = xcalloc(1, sizeof(int));
	r->sweep_clients[0] = 1;
	r->nsweep_clients = 1;
	r->sweep_jobs = 1;
	r->measure_workload = xstrdup(w->name);
	r->measure_metric = xstrdup("tps");
	/* the last file names the recipe in errors and the store, as before */
	for (int k = 0; k < n; k++)
		if (w->scripts[k].file)
		{
			free(r->path);
			r->path = xstrdup(w->scripts[k].file);
		}
	if (r->path == NULL)
		r->path = xstrdup("(pgcliff run -b)");
	r->text = scripts_recipe_text(r);
	return r;
}
