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

#include "recipe_int.h"

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

int
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

struct recipe_pos
pos_of(const yaml_node_t *node)
{
	struct recipe_pos p = {(int) node->start_mark.line + 1,
						   (int) node->start_mark.column + 1};

	return p;
}

/* -------------------------------------------------------------- helpers */

yaml_node_t *
node_at(struct loader *ld, int index)
{
	return yaml_document_get_node(ld->doc, index);
}

const char *
scalar(const yaml_node_t *node)
{
	return (const char *) node->data.scalar.value;
}

const char *
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

int
expect_scalar(struct loader *ld, const yaml_node_t *node, const char *what)
{
	if (node->type != YAML_SCALAR_NODE)
		return fail(ld, node, "%s must be a scalar, not %s", what,
					node_kind(node));
	return 0;
}

int
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
int
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

yaml_node_t *
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

int
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

int
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
int
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
void
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
int
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

int
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
int
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

/*
 * The recipe's top level into ld->r: every key of the reference, one
 * after another in the order their checks depend on (workloads before
 * duration, sweep and measure after the workloads, variants after
 * server:).  Long because the top level has that many keys; what is more
 * than a few lines per key has a function of its own.
 */
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
