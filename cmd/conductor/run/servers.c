/*
 * servers.c - each variant's servers: their targets, init and setup, brought
 * up and down; see run.h and run_int.h.
 */
#include "run_int.h"

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hist.h"

/* ------------------------------------------------------------ targets */

/*
 * A server that fails to start because of a setting is the recipe's (or
 * the command line's) error: point at the setting the log names.
 */
static void
blame_guc(const struct variant *v, struct pgc_error *err, const char *log_tail)
{
	for (int i = 0; i < v->ngucs; i++)
	{
		const struct variant_guc *g = &v->gucs[i];
		char quoted[300];
		const char *line;

		snprintf(quoted, sizeof(quoted), "\"%s\"", g->name);
		if ((line = strstr(log_tail, quoted)) == NULL)
			continue;
		while (line > log_tail && line[-1] != '\n')
			line--;
		if (g->origin_file)
		{
			error_set(err, PGC_ERR_RECIPE, "the server rejected setting '%s'",
					  g->name);
			error_at(err, g->origin_file, g->pos.line, g->pos.col,
					 (int) strlen(g->name));
		}
		else
			error_set(err, PGC_ERR_USAGE,
					  "the server rejected setting '%s' of --variant %s",
					  g->name, v->name);
		error_detail(err, "%.*s", (int) strcspn(line, "\n"), line);
		return;
	}
}

/*
 * The settings of a variant's managed servers: its GUCs, with
 * max_connections sized for the widest point unless it sets it (and then
 * it must be enough).
 */
static int
target_gucs(const struct run *r, const struct variant *v,
			struct cluster_guc *gucs, char *maxconn, size_t maxconn_size,
			struct pgc_error *err)
{
	int need = max_clients_of_point(r) + 5;
	bool has_maxconn = false;
	int n = 0;

	for (int i = 0; i < v->ngucs; i++)
	{
		const struct variant_guc *g = &v->gucs[i];

		gucs[n].name = g->name;
		gucs[n++].value = g->value;
		if (strcasecmp(g->name, "max_connections") != 0)
			continue;
		has_maxconn = true;
		if (atoi(g->value) >= need)
			continue;
		error_set(err, g->origin_file ? PGC_ERR_RECIPE : PGC_ERR_USAGE,
				  "max_connections %s is below the %d connections this run "
				  "needs",
				  g->value, need);
		if (g->origin_file)
			error_at(err, g->origin_file, g->pos.line, g->pos.col,
					 (int) strlen(g->name));
		error_hint(err,
				   "raise it, or leave it out: pgcliff sizes it to the sweep");
		return -1;
	}
	if (!has_maxconn)
	{
		snprintf(maxconn, maxconn_size, "%d",
				 need + 10 > 100 ? need + 10 : 100);
		gucs[n].name = "max_connections";
		gucs[n++].value = maxconn;
	}
	return n;
}

static struct cluster_guc *
recipe_gucs(const struct recipe_guc *g, int n)
{
	struct cluster_guc *out = xcalloc((size_t) n + 1, sizeof(*out));

	for (int i = 0; i < n; i++)
	{
		out[i].name = g[i].name;
		out[i].value = g[i].value;
	}
	return out;
}

/* Create (initdb) and start, or reach, the variant's servers. */
static int
open_target(struct run *r, struct run_target *rt, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	const struct variant *v = rt->v;
	struct target_spec spec;
	struct cluster_guc *gucs = xcalloc((size_t) v->ngucs + 2, sizeof(*gucs));
	struct cluster_guc *pg = recipe_gucs(rc->primary_gucs, rc->nprimary_gucs);
	struct cluster_guc *sg = recipe_gucs(rc->standby_gucs, rc->nstandby_gucs);
	char maxconn[32];
	int n = 0, result = -1;

	memset(&spec, 0, sizeof(spec));
	spec.name = v->name;
	spec.standby = rc->topology == RECIPE_TOPO_PRIMARY_STANDBY;
	if (v->target)
	{
		if (r->placement.mode != PLACEMENT_FREE &&
			r->placement.mode != PLACEMENT_AUTO)
			run_emit_text(r, RUN_EV_NOTE, NULL,
						  "placement: the server of %s is external; only the "
						  "driver is pinned",
						  v->name);
		if (rc->ngucs > 0)
			run_emit_text(r, RUN_EV_NOTE, NULL,
						  "the recipe's server settings (%s, ...) are not "
						  "applied to the external server of %s",
						  rc->gucs[0].name, v->name);
		spec.conninfo = v->target;
		spec.standby_conninfo = r->c.standby_target;
	}
	else
	{
		n = target_gucs(r, v, gucs, maxconn, sizeof(maxconn), err);
		if (n < 0)
			goto out;
		spec.bindir = v->bindir;
		spec.os_user = r->c.os_user;
		spec.gucs = gucs;
		spec.ngucs = n;
		spec.primary_gucs = pg;
		spec.nprimary_gucs = rc->nprimary_gucs;
		spec.standby_gucs = sg;
		spec.nstandby_gucs = rc->nstandby_gucs;
		spec.valgrind = r->valgrind[0] ? r->valgrind : NULL;
	}
	result = target_open(&spec, &rt->t, err);
	if (result < 0 && !v->target)
		blame_guc(v, err, err->detail);
out:
	free(gucs);
	free(pg);
	free(sg);
	return result;
}

/* The variant's row in the store: what it asked for and what it ran. */
static int
store_variant_of(struct run *r, const struct run_target *rt,
				 struct pgc_error *err)
{
	const struct variant *v = rt->v;
	struct store_variant sv;
	json_t *g = json_object(), *d = json_object();
	char *gucs, *defines;
	int result;

	for (int i = 0; i < v->ngucs; i++)
		json_object_set_new(g, v->gucs[i].name, pjson_str(v->gucs[i].value));
	for (int i = 0; i < v->spec.ndefines; i++)
		json_object_set_new(d, v->spec.defines[i].name,
							pjson_str(v->spec.defines[i].value));
	gucs = json_text(g);
	defines = json_text(d);
	memset(&sv, 0, sizeof(sv));
	sv.name = v->name;
	sv.kind = target_managed(rt->t) ? "managed" : "external";
	sv.bindir = target_bindir(rt->t);
	sv.target = target_redacted_conninfo(rt->t);
	sv.gucs = gucs;
	sv.defines = v->build && target_managed(rt->t) ? defines : NULL;
	sv.build = v->build && target_managed(rt->t) ? v->build_json : NULL;
	sv.server_version = rt->prov.server_version;
	sv.server_version_num = rt->prov.server_version_num;
	sv.settings = rt->prov.settings;
	sv.pg_config = rt->prov.pg_config;
	result = store_variant_add(r->store, r->run_id, &sv, err);
	free(gucs);
	free(defines);
	return result;
}

/* SQL from the recipe (init, setup, reset), failures at their place. */
int
exec_sql_list(const struct run_target *rt, const struct recipe_sql *list,
			  int n, const char *what, struct pgc_error *err)
{
	for (int i = 0; i < n; i++)
	{
		size_t pos;
		int line, col;

		if (target_exec(rt->t, list[i].text, what, &pos, err) == 0)
			continue;
		if (err->kind == PGC_ERR_SQL)
		{
			script_origin_locate(&list[i].origin, list[i].text,
								 pos == (size_t) -1 ? 0 : pos, &line, &col);
			error_at(err, list[i].origin.file, line, col, 1);
		}
		return -1;
	}
	return 0;
}

/*
 * pgbench -v before a point: its vacuum of the four tables, each error
 * said and passed over, as pgbench's tryExecuteStatement() does.
 */
void
vacuum_all(struct run *r, struct run_target *rt)
{
	static const char *const sql[] = {
		"vacuum pgbench_branches", "vacuum pgbench_tellers",
		"truncate pgbench_history", "vacuum analyze pgbench_accounts"};
	const char *variant = shown_variant(r, rt->v);

	for (size_t i = 0; i < lengthof(sql); i++)
	{
		struct pgc_error e;
		size_t pos;

		error_clear(&e);
		if (target_exec(rt->t, sql[i], "-v", &pos, &e) < 0)
			run_emit_text(r, RUN_EV_NOTE, variant,
						  "%s: %s (ignoring this error and continuing anyway)",
						  sql[i], e.message);
		if (i == 2)
			run_emit_text(r, RUN_EV_STEP, variant, "starting vacuum...end.");
	}
	run_emit_text(r, RUN_EV_STEP, variant,
				  "starting vacuum pgbench_accounts...end.");
}

/* init: pgbench -i with the recipe's options, or its SQL. */
static int
run_init(struct run *r, struct run_target *rt, struct pgc_error *err)
{
	const struct recipe_init *in = &r->recipe->init;
	struct pginit_opts o;
	struct init_arg ia = {r, shown_variant(r, rt->v)};
	char steps[32], summary[512];
	struct pg_conn *conn;
	int result;

	if (!in->pgbench)
		return exec_sql_list(rt, in->sql, in->nsql, "init", err);
	memset(&o, 0, sizeof(o));
	o.scale = in->scale;
	o.fillfactor = in->fillfactor;
	o.partitions = in->partitions;
	o.method = strcmp(in->partition_method, "hash") == 0 ? PGINIT_PART_HASH
														 : PGINIT_PART_RANGE;
	o.unlogged = in->unlogged;
	snprintf(steps, sizeof(steps), "%s%s",
			 in->steps ? in->steps : PGINIT_STEPS_DEFAULT,
			 in->foreign_keys && !(in->steps && strchr(in->steps, 'f')) ? "f"
																		: "");
	o.steps = steps;
	o.quiet = true;
	o.progress = on_init_step;
	o.progress_arg = &ia;
	o.interrupt = r->c.interrupt;
	if ((conn = target_connect(rt->t, TARGET_PRIMARY, err)) == NULL)
		return -1;
	result = pginit_run(conn, &o, summary, sizeof(summary), err);
	cluster_disconnect(conn);
	if (result < 0)
	{
		error_at(err, r->recipe->path, in->pos.line, in->pos.col, 1);
		return -1;
	}
	on_init_step(&ia, summary);
	return 0;
}

/*
 * The :scale of the scripts on RT: with a builtin, what pgbench's
 * GetTableInfo() reads (rows of pgbench_branches, and the partitioning);
 * else -s, else the recipe's init scale, else 1.
 */
static int
find_scale(struct run *r, struct run_target *rt, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	struct pg_conn *conn;
	int result;

	rt->scale = r->c.scale
					? r->c.scale
					: (rc->has_init && rc->init.pgbench ? rc->init.scale : 1);
	if (!recipe_uses_builtin(rc))
		return 0;
	if ((conn = target_connect(rt->t, TARGET_PRIMARY, err)) == NULL)
		return -1;
	result = pginit_table_info(conn, &rt->scale, &rt->partitions,
							   &rt->partition_method, err);
	cluster_disconnect(conn);
	if (result == 0 && r->c.scale && r->c.scale != rt->scale)
		run_emit_text(r, RUN_EV_NOTE, NULL,
					  "scale option ignored, using count from "
					  "pgbench_branches table (%d)",
					  rt->scale);
	return result;
}

/*
 * Bring up every variant's server once: create it, record its provenance,
 * run the recipe's init and setup.  With several variants taking turns,
 * each server is stopped again until its first block.
 */
int
prepare_targets(struct run *r, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	bool take_turns = r->nvars > 1 && rc->restart_per_block;

	for (int i = 0; i < r->nvars; i++)
	{
		struct run_target *rt = &r->targets[i];
		struct run_event ev;

		if (open_target(r, rt, err) < 0 || *r->c.interrupt)
			return -1;
		if (target_provenance(rt->t, &rt->prov, err) < 0 ||
			store_variant_of(r, rt, err) < 0)
			return -1;
		memset(&ev, 0, sizeof(ev));
		ev.kind = RUN_EV_SERVER_UP;
		ev.variant = shown_variant(r, rt->v);
		ev.run_id = r->run_id;
		ev.server_version = rt->prov.server_version;
		ev.managed = target_managed(rt->t);
		run_emit(r, &ev);
		if (rc->has_init && run_init(r, rt, err) < 0)
			return -1;
		if (exec_sql_list(rt, rc->setup, rc->nsetup, "setup", err) < 0)
			return -1;
		if (find_scale(r, rt, err) < 0)
			return -1;
		if (target_wait_replay(rt->t, 120, err) < 0)
			return -1;
		if (take_turns && target_stop(rt->t, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * Switch servers between stretches of the plan: with several variants
 * taking turns (restart: block), the previous variant's server stops and
 * this one's starts fresh for each block.
 */
int
switch_target(struct run *r, const struct recipe_plan_step *prev,
			  const struct recipe_plan_step *st, struct pgc_error *err)
{
	if (r->nvars < 2 || !r->recipe->restart_per_block)
		return 0;
	if (prev && prev->block == st->block && prev->variant == st->variant)
		return 0;
	if (prev && target_stop(r->targets[prev->variant].t, err) < 0)
		return -1;
	/*
	 * What the last server wrote (its WAL, its log) is flushed now, not
	 * by the kernel while the next variant is measured: measured here,
	 * such writeback cost the variant after a log-heavy one 2-5 %.
	 */
	sync();
	return target_start(r->targets[st->variant].t, err);
}
