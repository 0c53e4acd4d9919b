/*
 * workload.c - a recipe's workloads: their scripts (inline, files beside
 * the recipe, builtins), weights, failure policies, timed events, and the
 * sweep of client counts; see recipe.h.
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
static const char *const workload_keys[] = {
	"target",  "protocol",      "script",    "file",
	"builtin", "weight",        "scripts",   "clients",
	"jobs",    "transactions",  "max_tries", "on_error",
	"rate",    "latency_limit", "at",        "every",
	"until",   "reconnect",     NULL};
static const char *const script_keys[] = {"script", "file", "builtin",
										  "weight", NULL};
static const char *const sweep_keys[] = {"clients", "jobs", "workloads", NULL};

char *
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
const char *
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
char *
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
int
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

/*
 * Workload KEY: VALUE into the recipe: every key of a workload mapping in
 * turn (target, protocol, scripts, clients, jobs, transactions, failure
 * policy, rate, limits, and a timed event's at/every/until); long for the
 * same reason as load_root().
 */
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

int
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

int
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
int
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
