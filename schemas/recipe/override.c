/*
 * override.c - the command line over a recipe, applied once (see
 * recipe.h): whatever reads the recipe afterwards (the run, its plan, the
 * engine's workloads, the store's provenance) sees one set of values.
 */
#include "recipe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* -D NAME=VALUE over the recipe's variables: (checked beforehand). */
static void
set_variable(struct recipe *r, const char *d)
{
	const char *eq = strchr(d, '=');
	char *name = xstrndup(d, (size_t) (eq - d));

	for (int i = 0; i < r->nvariables; i++)
		if (strcmp(r->variables[i].name, name) == 0)
		{
			free(name);
			free(r->variables[i].value);
			r->variables[i].value = xstrdup(eq + 1);
			return;
		}
	r->variables = xrealloc(r->variables, (size_t) (r->nvariables + 1) *
											  sizeof(*r->variables));
	memset(&r->variables[r->nvariables], 0, sizeof(*r->variables));
	r->variables[r->nvariables].name = name;
	r->variables[r->nvariables++].value = xstrdup(eq + 1);
}

int
recipe_override(struct recipe *r, const struct recipe_override *o,
				struct pgc_error *err)
{
	/* every check first: a refused override leaves the recipe whole */
	for (int i = 0; i < o->ndefines; i++)
	{
		const char *d = o->defines[i];
		const char *eq = strchr(d, '=');
		char *name = xstrndup(d, eq ? (size_t) (eq - d) : strlen(d));
		bool ok = eq != NULL && script_valid_var_name(name);

		if (!ok)
		{
			error_set(err, PGC_ERR_USAGE,
					  "invalid variable name \"%s\" in -D %s", name, d);
			free(name);
			return -1;
		}
		free(name);
	}
	if (o->duration_ns > 0)
		for (int i = 0; i < r->nwindows; i++)
			if ((int64_t) r->windows[i].end_s * 1000000000 > o->duration_ns)
			{
				error_set(err, PGC_ERR_USAGE,
						  "window '%s' of the recipe ends at %d s, past -T "
						  "%g s",
						  r->windows[i].name, r->windows[i].end_s,
						  (double) o->duration_ns / 1e9);
				return -1;
			}
	for (int i = 0; i < o->ndefines; i++)
		set_variable(r, o->defines[i]);
	if (o->placement)
	{
		r->placement = *o->placement;
		r->has_placement = true;
		memset(&r->placement_pos, 0, sizeof(r->placement_pos));
		memset(r->placement_list_pos, 0, sizeof(r->placement_list_pos));
	}
	if (o->duration_ns > 0)
		r->duration_ns = o->duration_ns;
	if (o->warmup_set)
	{
		r->warmup_ns = o->warmup_ns;
		r->warmup_stable = o->warmup_stable;
	}
	if (o->repeat > 0)
		r->repeat = o->repeat;
	if (o->nclients > 0)
	{
		free(r->sweep_clients);
		r->sweep_clients = xmalloc((size_t) o->nclients * sizeof(int));
		memcpy(r->sweep_clients, o->clients,
			   (size_t) o->nclients * sizeof(int));
		r->nsweep_clients = o->nclients;
		if (r->sweep_jobs_list)
		{
			/* the list was written for the recipe's points */
			free(r->sweep_jobs_list);
			r->sweep_jobs_list = NULL;
			r->sweep_jobs_eq_clients = true;
		}
	}
	if (o->jobs > 0)
	{
		free(r->sweep_jobs_list);
		r->sweep_jobs_list = NULL;
		r->sweep_jobs_eq_clients = false;
		r->sweep_jobs = o->jobs;
	}
	for (int i = 0; i < r->nworkloads; i++)
	{
		struct recipe_workload *w = &r->workloads[i];

		if (o->jobs > 0)
			w->jobs = o->jobs;
		if (o->protocol >= 0)
			w->protocol = (enum recipe_protocol) o->protocol;
		if (o->transactions > 0)
			w->transactions = o->transactions;
		else if (o->duration_ns > 0)
			w->transactions = 0; /* -T turns -t recipes into durations */
		if (o->rate > 0)
			w->rate = o->rate;
		if (o->latency_limit_ns > 0)
			w->latency_limit_ns = o->latency_limit_ns;
		if (o->max_tries >= 0)
			w->max_tries = o->max_tries > 0 ? o->max_tries : INT32_MAX;
		if (o->reconnect)
			w->reconnect = true;
	}
	return 0;
}
