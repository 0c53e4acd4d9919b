/*
 * run.c - executes a run; see run.h.  The order of work: plan (run_new),
 * build, store the run row, bring up each variant's target with its init
 * and setup, then every plan step on the load engine, each point stored
 * as soon as it is measured.  Printing is the command's: everything it may
 * show leaves here as a struct run_event.
 */
#include "run.h"

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cluster.h"
#include "hist.h"
#include "profile.h"
#include "run_int.h"

/* One variant's servers and what the run learnt of them. */
struct run_target
{
	const struct variant *v;
	struct target *t;
	struct target_provenance prov;
	int scale; /* :scale of the scripts on this server */
	int partitions;
	enum pginit_partition partition_method;
};

struct run
{
	/* 8-byte fields first, then 4-byte, then the flags: no padding */
	struct run_config c;
	/* where servers and driver run, resolved on this machine */
	struct placement placement;
	struct cpu_mask old_cpus; /* what the driver had before it was pinned */
	struct store *store;
	const char *command_line;
	const struct recipe *recipe;
	struct variant *vars;
	struct run_target *targets;
	struct recipe_plan_step *plan;
	struct load_probe *probes;     /* the recipe's, for every point */
	const int *sweep;              /* -c's list, else the recipe's */
	struct script_define *defines; /* variables:, then -D over them */
	/* per recipe workload: its scripts, weights and failure policy */
	const struct script ***wl_scripts;
	int **wl_weights;
	struct load_policy *policies;
	int64_t run_id;
	char *run_uid; /* with --workers: signed with each point's spec */
	const char *status;
	struct report_row *rows;
	char *logs_dir; /* run_set_logs_dir() */
	/* servers' CPU profiles (profile.h): where perf writes, the step's
	 * running profiles (one per node), its target; the rate (0: none) */
	char *profile_dir;
	struct profile *prof[2];
	const struct run_target *prof_target;
	struct pgc_error finish_err;
	/* until decided: the design the blocks are judged by (alpha 0:
	 * none), the clock, the looks taken, the last outcome, a look that
	 * failed */
	struct seq_design seq;
	int64_t until_t0_ns;
	struct pgc_error until_err;
	int until_looks;
	enum cmp_outcome until_outcome;
	int nvars;
	int nplan;
	int nsweep;
	int repeat;
	int ndefines;
	int points_done;
	int nrows;
	int aborted_clients;
	enum profile_mode profile_mode;
	enum profile_callgraph profile_cg;
	int profile_hz; /* the run's rate; a variant may have its own */
	int prof_hz;    /* the step's */
	int prof_order;
	char abort_reason[1024];
	/* --count: the valgrind the primaries run under, and its version */
	char valgrind[1024];
	char valgrind_version[64];
	bool has_finish_err;
	bool pinned; /* the driver is pinned; OLD_CPUS are what it had */
	bool prof_external_said;
	bool profiling;    /* perf may sample: setup_profiles() */
	bool until_failed; /* a look could not be taken or stored */
};

/* ------------------------------------------------------------- events */

static void
emit(const struct run *r, struct run_event *ev)
{
	if (r->c.on_event)
		r->c.on_event(r->c.event_arg, ev);
}

static void emit_text(const struct run *r, enum run_event_kind kind,
					  const char *variant, const char *fmt, ...)
	PGC_PRINTF(4, 5);

static void
emit_text(const struct run *r, enum run_event_kind kind, const char *variant,
		  const char *fmt, ...)
{
	struct run_event ev;
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.variant = variant;
	ev.text = sb.buf ? sb.buf : "";
	emit(r, &ev);
	strbuf_release(&sb);
}

/* The variant's name in events, when there is more than one. */
static const char *
shown_variant(const struct run *r, const struct variant *v)
{
	return r->nvars > 1 ? v->name : NULL;
}

static void
on_build_step(void *arg, const char *line)
{
	emit_text(arg, RUN_EV_STEP, NULL, "%s", line);
}

struct init_arg
{
	const struct run *r;
	const char *variant;
};

static void
on_init_step(void *arg, const char *line)
{
	const struct init_arg *ia = arg;

	emit_text(ia->r, RUN_EV_STEP, ia->variant, "%s", line);
}

static void
on_progress(void *arg, const struct load_progress *p)
{
	struct run_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RUN_EV_PROGRESS;
	ev.progress = p;
	emit(arg, &ev);
}

/* debug() of a script, from the engine's worker threads */
static void
on_debug(void *arg, const char *line)
{
	emit_text(arg, RUN_EV_DEBUG, NULL, "%s", line);
}

/* ------------------------------------------------------------- plan */

/* Clients of workload I at sweep point SI: the one rule for both uses. */
static int
point_clients(const struct run *r, int i, int si)
{
	return r->recipe->workloads[i].swept && r->nsweep
			   ? r->sweep[si]
			   : r->recipe->workloads[i].clients;
}

/*
 * The most connections any point opens (-c lists need not ascend, so
 * every point is looked at).
 */
static int
max_clients_of_point(const struct run *r)
{
	int max = 0;

	for (int si = 0; si < (r->nsweep ? r->nsweep : 1); si++)
	{
		int total = 0;

		for (int i = 0; i < r->recipe->nworkloads; i++)
			total += point_clients(r, i, si);
		if (total > max)
			max = total;
	}
	return max;
}

static enum load_action
action_of(const char *a)
{
	return strcmp(a, "retry") == 0          ? LOAD_RETRY
		   : strcmp(a, "abort_client") == 0 ? LOAD_ABORT_CLIENT
		   : strcmp(a, "abort_run") == 0    ? LOAD_ABORT_RUN
											: LOAD_CONTINUE;
}

/*
 * A workload's failure policy: --max-tries over the recipe's max_tries
 * (0: as many as the window allows); serialization failures and deadlocks
 * are retried when more than one try is allowed (pgbench's --max-tries),
 * everything else rolls back and goes on; on_error: says otherwise.
 */
static void
make_policy(const struct run_config *c, const struct recipe_workload *w,
			struct load_policy *pol)
{
	struct load_rule *rules =
		xcalloc((size_t) w->non_error + 1, sizeof(*rules));
	int n = 0;

	pol->max_tries =
		c->max_tries >= 0 ? c->max_tries : (w->max_tries ? w->max_tries : 1);
	if (pol->max_tries == 0)
		pol->max_tries = INT32_MAX;
	pol->serialization = pol->max_tries > 1 ? LOAD_RETRY : LOAD_CONTINUE;
	pol->deadlock = pol->serialization;
	pol->recovery_conflict = LOAD_CONTINUE;
	pol->other = LOAD_CONTINUE;
	pol->connection = LOAD_ABORT_CLIENT;
	for (int i = 0; i < w->non_error; i++)
	{
		const struct recipe_rule *rr = &w->on_error[i];
		enum load_action a = action_of(rr->action);

		if (strcmp(rr->key, "serialization") == 0)
			pol->serialization = a;
		else if (strcmp(rr->key, "deadlock") == 0)
			pol->deadlock = a;
		else if (strcmp(rr->key, "recovery_conflict") == 0)
			pol->recovery_conflict = a;
		else if (strcmp(rr->key, "other") == 0)
			pol->other = a;
		else if (strcmp(rr->key, "connection") == 0)
			pol->connection = a;
		else
		{
			snprintf(rules[n].sqlstate, sizeof(rules[n].sqlstate), "%s",
					 rr->key);
			rules[n++].action = a;
		}
	}
	pol->rules = rules;
	pol->nrules = n;
}

/* The engine's view of each workload's scripts, weights and policy. */
static void
collect_scripts(struct run *r)
{
	const struct recipe *rc = r->recipe;

	r->wl_scripts = xcalloc((size_t) rc->nworkloads, sizeof(*r->wl_scripts));
	r->wl_weights = xcalloc((size_t) rc->nworkloads, sizeof(*r->wl_weights));
	r->policies = xcalloc((size_t) rc->nworkloads, sizeof(*r->policies));
	for (int i = 0; i < rc->nworkloads; i++)
	{
		const struct recipe_workload *w = &rc->workloads[i];

		r->wl_scripts[i] = xcalloc((size_t) w->nscripts, sizeof(void *));
		r->wl_weights[i] = xcalloc((size_t) w->nscripts, sizeof(int));
		for (int k = 0; k < w->nscripts; k++)
		{
			r->wl_scripts[i][k] = w->scripts[k].script;
			r->wl_weights[i][k] = w->scripts[k].weight;
		}
		make_policy(&r->c, w, &r->policies[i]);
	}
}

/*
 * The script variables of the run: the recipe's variables:, then -D over
 * them (a later -D wins); and the check that every variable a script
 * reads is assigned somewhere.
 */
static int
collect_defines(struct run *r, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	int n = rc->nvariables + r->c.ndefines;
	const char **names = xcalloc((size_t) n + 1, sizeof(char *));
	int result;

	r->defines = xcalloc((size_t) n + 1, sizeof(*r->defines));
	for (int i = 0; i < n; i++)
	{
		const char *name, *value;
		int k;

		if (i < rc->nvariables)
		{
			name = xstrdup(rc->variables[i].name);
			value = rc->variables[i].value;
		}
		else
		{
			const char *d = r->c.defines[i - rc->nvariables];
			const char *eq = strchr(d, '=');

			name = xstrndup(d, (size_t) (eq - d));
			value = eq + 1;
			if (!script_valid_var_name(name))
			{
				error_set(err, PGC_ERR_USAGE,
						  "invalid variable name \"%s\" in -D %s", name, d);
				free((char *) name);
				free(names);
				return -1;
			}
		}
		for (k = 0; k < r->ndefines; k++)
			if (strcmp(r->defines[k].name, name) == 0)
				break;
		if (k < r->ndefines)
			free((char *) r->defines[k].name);
		else
			r->ndefines++;
		r->defines[k].name = name;
		r->defines[k].value = value;
	}
	for (int i = 0; i < r->ndefines; i++)
		names[i] = r->defines[i].name;
	result = recipe_check_variables(rc, names, r->ndefines, err);
	free(names);
	return result;
}

/*
 * The placement of the run: --placement over the recipe's, turned into
 * CPUs of this machine.  A recipe's that cannot be met is an error at its
 * line; with external servers only the driver can be pinned.
 */
static int
resolve_placement(struct run *r, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	bool from_recipe = r->c.placement == NULL && rc->has_placement;
	int side;

	if (r->c.placement)
		r->placement = *r->c.placement;
	else if (rc->has_placement)
		r->placement = rc->placement;
	else
	{
		/* the default: auto for managed servers (what helped here,
		 * drivers/cluster/SERVERS.md, "Placement"), free when a server is not
		 * ours */
		r->placement.mode = PLACEMENT_AUTO;
		for (int i = 0; i < r->nvars; i++)
			if (r->vars[i].target)
				r->placement.mode = PLACEMENT_FREE;
	}
	if (placement_resolve(&r->placement, &side, err) < 0)
	{
		if (from_recipe)
		{
			const struct recipe_pos *at =
				side >= 0 ? &rc->placement_list_pos[side] : &rc->placement_pos;

			err->kind = PGC_ERR_RECIPE;
			error_at(err, rc->path, at->line, at->col, 1);
		}
		return -1;
	}
	return 0;
}

/*
 * The warm-up of every point: the command line's, else the recipe's; with
 * *STABLE, until the throughput is stable and at most *NS.
 */
static int64_t
point_warmup(const struct run *r, bool *stable)
{
	if (r->c.warmup_set)
	{
		*stable = r->c.warmup_stable;
		return r->c.warmup_ns;
	}
	*stable = r->recipe->warmup_stable;
	return r->recipe->warmup_ns;
}

/*
 * A warm-up until stable has no window known in advance: what counts from
 * one is refused before anything starts (load_run would refuse it too).
 */
static int
check_stable_warmup(const struct run *r, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	const char *why = NULL;
	bool stable;

	(void) point_warmup(r, &stable);
	if (!stable)
		return 0;
	if (r->c.transactions > 0 || (!r->c.duration_ns && rc->duration_ns <= 0))
		why = "a number of transactions (-t)";
	else if (r->c.rate > 0)
		why = "a rate (-R)";
	else if (r->c.log_prefix)
		why = "transaction logs (-l)";
	for (int i = 0; i < rc->nworkloads && !why; i++)
		if (rc->workloads[i].rate > 0)
			why = "a workload's rate";
		else if (rc->workloads[i].timed)
			why = "a timed event (at:)";
	if (!why)
		return 0;
	error_set(err, PGC_ERR_USAGE, "--warmup stable cannot be used with %s",
			  why);
	error_hint(err, "their schedules count from a window known in advance: "
					"give the warm-up a duration");
	return -1;
}

/*
 * Several drivers (--workers): what needs one driver's view of the
 * window is refused before anything starts.
 */
static int
check_workers(const struct run *r, struct pgc_error *err)
{
	const struct run_config *c = &r->c;
	bool stable = false;
	const char *why = NULL;

	if (c->workers <= 0)
		return 0;
	(void) point_warmup(r, &stable);
	if (stable)
		why = "a warm-up until stable (each driver would judge its own)";
	else if (c->log_prefix)
		why = "transaction logs (-l), which are written where the "
			  "transactions run";
	else if (c->profile_hz > 0 || r->recipe->profile_hz > 0)
		why = "servers' CPU profiles (--profile), whose window edges are "
			  "one driver's";
	for (int i = 0; i < r->recipe->nvariants && !why; i++)
		if (r->recipe->variants[i].profile_hz > 0)
			why = "a variant's profile:";
	if (!why)
		return 0;
	error_set(err, PGC_ERR_USAGE, "--workers cannot be used with %s", why);
	return -1;
}

/*
 * --count: what a counted point cannot be (cost.h): spread over workers,
 * on a standby, a connection per transaction, a timed event, profiled by
 * perf.  The recipe's tps measure becomes instructions.
 */
static int
check_count(struct run *r, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	const char *why = NULL;

	if (r->c.count_txns <= 0)
		return 0;
	if (r->c.workers > 0)
		why = "its clients spread over workers";
	else if (r->c.reconnect)
		why = "a connection per transaction (-C)";
	else if (r->c.profile_hz > 0)
		why = "perf profiles (--profile): callgrind's own are stored";
	for (int i = 0; i < rc->nworkloads && why == NULL; i++)
	{
		const struct recipe_workload *w = &rc->workloads[i];

		if (strcmp(w->target, "standby") == 0)
			why = "a workload on the standby (the primary is counted)";
		else if (w->reconnect)
			why = "a connection per transaction (reconnect:)";
		else if (w->timed)
			why = "a timed event (at:)";
	}
	if (why)
	{
		error_set(err, PGC_ERR_USAGE, "--count cannot count %s", why);
		return -1;
	}
	if (r->c.until.metric < 0 &&
		(rc->measure_metric == NULL || strcmp(rc->measure_metric, "tps") == 0))
		r->c.until.metric = CMP_INSTRUCTIONS;
	return 0;
}

static int64_t
until_budget_ns(const struct run *r)
{
	return r->c.until.budget_ns ? r->c.until.budget_ns : RUN_UNTIL_BUDGET_NS;
}

struct run *
run_new(const struct run_config *c, struct pgc_error *err)
{
	struct run *r = xcalloc(1, sizeof(*r));
	const struct recipe *rc = c->recipe;

	r->c = *c;
	r->recipe = rc;
	r->status = "failed";
	if (collect_defines(r, err) < 0)
		goto fail;
	collect_scripts(r);
	for (int i = 0; i < rc->nwindows; i++)
		if (c->duration_ns &&
			(int64_t) rc->windows[i].end_s * 1000000000 > c->duration_ns)
		{
			error_set(err, PGC_ERR_USAGE,
					  "window '%s' of the recipe ends at %d s, past -T %g s",
					  rc->windows[i].name, rc->windows[i].end_s,
					  (double) c->duration_ns / 1e9);
			goto fail;
		}
	if (check_stable_warmup(r, err) < 0 || check_workers(r, err) < 0 ||
		check_count(r, err) < 0)
		goto fail;
	r->nvars = variants_resolve(rc, c->variant_args, c->nvariant_args,
								c->bindir, c->target, &r->vars, err);
	if (r->nvars < 0)
	{
		r->nvars = 0;
		goto fail;
	}
	r->targets = xcalloc((size_t) r->nvars, sizeof(*r->targets));
	for (int i = 0; i < r->nvars; i++)
		r->targets[i].v = &r->vars[i];
	for (int i = 0; i < r->nvars && c->count_txns > 0; i++)
		if (r->vars[i].target)
		{
			error_set(err, PGC_ERR_USAGE,
					  "--count counts the servers pgcliff starts: variant "
					  "%s is external",
					  r->vars[i].name);
			goto fail;
		}
	if (resolve_placement(r, err) < 0)
		goto fail;
	r->nsweep = c->nclients ? c->nclients : rc->nsweep_clients;
	r->sweep = c->nclients ? c->clients : rc->sweep_clients;
	r->repeat = c->repeat ? c->repeat : rc->repeat;
	r->until_outcome = CMP_OUTCOME_INCONCLUSIVE;
	if (c->until.on)
	{
		if (r->nvars < 2)
		{
			error_set(err, PGC_ERR_USAGE,
					  "--until-decided compares variants: this run has one");
			error_hint(err, "add one, e.g. --variant base --variant "
							"slow:server.commit_delay=100");
			goto fail;
		}
		/* the plan holds the most blocks; the looks stop it earlier */
		r->repeat = c->until.max_repeats ? c->until.max_repeats : 2;
		r->seq = seq_design_default(r->repeat);
	}
	r->nplan = recipe_plan_for(rc, r->nvars, r->nsweep ? r->nsweep : 1,
							   r->nsweep > 0, r->repeat, c->seed, &r->plan);
	if (c->until.on && c->until.max_repeats == 0)
	{
		/* as many blocks as the budget holds at the estimated length of a
		 * block (at least 2, at most 1000; 10 when it cannot be said); the
		 * design's looks are spread over them, so they are fixed now */
		int64_t block = run_block_estimate_ns(r);
		int64_t fit = block > 0 ? until_budget_ns(r) / block : 10;

		run_set_blocks(r, fit < 2 ? 2 : fit > 1000 ? 1000 : (int) fit);
	}
	return r;
fail:
	run_free(r);
	return NULL;
}

void
run_until_describe(const struct run *r, struct strbuf *out)
{
	if (!r->c.until.on)
		return;
	strbuf_addf(out,
				"at most %d blocks (%s%.0f s budget, a block ~%.0f s), %d "
				"looks",
				r->repeat, r->c.until.max_repeats ? "--max-repeats; " : "",
				(double) until_budget_ns(r) / 1e9,
				(double) run_block_estimate_ns(r) / 1e9, seq_looks(&r->seq));
}

enum cmp_outcome
run_until_outcome(const struct run *r)
{
	return r->until_outcome;
}

int
run_nsteps(const struct run *r)
{
	return r->nplan;
}

int
run_nvariants(const struct run *r)
{
	return r->nvars;
}

const char *
run_variant_name(const struct run *r, int i)
{
	return r->vars[i].name;
}

int
run_nblocks(const struct run *r)
{
	return r->repeat;
}

const struct seq_design *
run_design(const struct run *r)
{
	return &r->seq;
}

/*
 * What a block costs besides its windows, measured on this machine: a
 * managed server's stop, sync and start (0.1 s for a small database; the
 * shutdown checkpoint of a larger one costs more), and each client's
 * connection (2-15 ms).
 */
#define RESTART_ESTIMATE_NS (250 * 1000000LL)
#define CONNECT_ESTIMATE_NS (10 * 1000000LL)

int64_t
run_block_estimate_ns(const struct run *r)
{
	const struct recipe *rc = r->recipe;
	bool stable;
	int64_t warmup = point_warmup(r, &stable);
	/* a stable warm-up lasts at least its two halves: counted so */
	int64_t least = (int64_t) 2 * LOAD_WARM_HALF_TICKS * LOAD_WARM_TICK_NS;
	int64_t window = (r->c.duration_ns ? r->c.duration_ns : rc->duration_ns) +
					 (stable && warmup > least ? least : warmup);
	int64_t total = 0;

	if (window <= 0 || r->c.transactions)
		return 0; /* -t: as long as the transactions take */
	for (int i = 0; i < r->nplan; i++)
	{
		const struct recipe_plan_step *st = &r->plan[i];

		if (st->block != 0)
			continue;
		total += window;
		for (int w = 0; w < rc->nworkloads; w++)
			if (st->workload < 0 || st->workload == w)
				total += point_clients(r, w, st->sweep) * CONNECT_ESTIMATE_NS;
	}
	if (r->nvars > 1 && rc->restart_per_block)
		total += r->nvars * RESTART_ESTIMATE_NS;
	return total;
}

void
run_set_blocks(struct run *r, int blocks)
{
	free(r->plan);
	r->repeat = blocks;
	if (r->seq.alpha > 0)
		r->seq.max_blocks = blocks;
	r->nplan = recipe_plan_for(r->recipe, r->nvars, r->nsweep ? r->nsweep : 1,
							   r->nsweep > 0, r->repeat, r->c.seed, &r->plan);
}

void
run_set_logs_dir(struct run *r, const char *dir)
{
	free(r->logs_dir);
	r->logs_dir = dir ? xstrdup(dir) : NULL;
}

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
			emit_text(r, RUN_EV_NOTE, NULL,
					  "placement: the server of %s is external; only the "
					  "driver is pinned",
					  v->name);
		if (rc->ngucs > 0)
			emit_text(r, RUN_EV_NOTE, NULL,
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
static int
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
static void
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
			emit_text(r, RUN_EV_NOTE, variant,
					  "%s: %s (ignoring this error and continuing anyway)",
					  sql[i], e.message);
		if (i == 2)
			emit_text(r, RUN_EV_STEP, variant, "starting vacuum...end.");
	}
	emit_text(r, RUN_EV_STEP, variant,
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
		emit_text(r, RUN_EV_NOTE, NULL,
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
static int
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
		emit(r, &ev);
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
static int
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

/* ------------------------------------------------------------ points */

static void
fill_workloads(const struct run *r, const struct run_target *rt, int si,
			   struct load_workload *wl)
{
	const struct recipe *rc = r->recipe;
	const struct run_config *c = &r->c;

	for (int i = 0; i < rc->nworkloads; i++)
	{
		const struct recipe_workload *rw = &rc->workloads[i];
		bool swept = rw->swept && r->nsweep;
		enum target_node_id node = strcmp(rw->target, "standby") == 0
									   ? TARGET_STANDBY
									   : TARGET_PRIMARY;

		wl[i].name = rw->name;
		wl[i].scripts = r->wl_scripts[i];
		wl[i].weights = r->wl_weights[i];
		wl[i].nscripts = rw->nscripts;
		wl[i].protocol = (enum load_protocol)(
			c->protocol >= 0 ? c->protocol : (int) rw->protocol);
		wl[i].conn_keywords = target_keywords(rt->t, node);
		wl[i].conn_values = target_values(rt->t, node);
		wl[i].clients = point_clients(r, i, si);
		if (c->jobs)
			wl[i].jobs = c->jobs;
		else if (swept && c->nclients && rc->sweep_jobs_list)
			/* -c replaced the points the jobs list was written for */
			wl[i].jobs = r->sweep[si];
		else if (swept)
			wl[i].jobs = recipe_sweep_jobs(rc, si, r->sweep[si]);
		else
			wl[i].jobs = rw->jobs;
		if (wl[i].jobs > wl[i].clients)
			wl[i].jobs = wl[i].clients;
		if (c->transactions)
			wl[i].transactions = c->transactions;
		else if (c->duration_ns)
			wl[i].transactions = 0; /* -T turns -t recipes into durations */
		else
			wl[i].transactions = rw->transactions;
		wl[i].policy = &r->policies[i];
		wl[i].rate = c->rate > 0 ? c->rate : rw->rate;
		wl[i].reconnect = c->reconnect || rw->reconnect;
		wl[i].timed = rw->timed;
		wl[i].at_ns = rw->at_ns;
		wl[i].every_ns = rw->every_ns;
		wl[i].until_ns = rw->until_ns;
		wl[i].latency_limit_ns =
			c->latency_limit_ns ? c->latency_limit_ns : rw->latency_limit_ns;
		wl[i].defines = r->defines;
		wl[i].ndefines = r->ndefines;
	}
}

/*
 * The recipe's windows over a workload's per-second series, as
 * report_windows() computes them (none for a timed event).
 */
static int
window_rows(const struct recipe *rc, const struct load_workload *w,
			const struct load_workload_result *res,
			struct store_window_row *out)
{
	struct report_window_def *defs;
	struct report_window *win;
	double *tps;
	int n;

	if (w->timed || rc->nwindows == 0)
		return 0;
	defs = xcalloc((size_t) rc->nwindows, sizeof(*defs));
	win = xcalloc((size_t) rc->nwindows, sizeof(*win));
	tps = xcalloc((size_t) res->nseconds + 1, sizeof(double));
	for (int k = 0; k < rc->nwindows; k++)
	{
		defs[k].name = rc->windows[k].name;
		defs[k].start_s = rc->windows[k].start_s;
		defs[k].end_s = rc->windows[k].end_s;
	}
	for (int s = 0; s < res->nseconds; s++)
		tps[s] = (double) res->sec_txns[s];
	n = report_windows(tps, res->nseconds, defs, rc->nwindows, win);
	for (int k = 0; k < n; k++)
	{
		out[k].name = win[k].name;
		out[k].start_s = win[k].start_s;
		out[k].end_s = win[k].end_s;
		out[k].tps = win[k].tps;
		out[k].has_dip = win[k].has_dip;
		out[k].dip = win[k].dip;
		out[k].recovery_s = win[k].recovery_s;
	}
	free(defs);
	free(win);
	free(tps);
	return n;
}

/* Second SEC's errors by class ({"40": 3}), or NULL: none. */
static char *
errors_of_second(const struct load_workload_result *res, int sec)
{
	json_t *d = json_object();

	for (int i = 0; i < res->nerrors; i++)
		if (res->errors[i].second == sec)
			json_object_set_new(
				d, res->errors[i].sqlclass,
				json_integer((json_int_t) res->errors[i].count));
	if (json_object_size(d) == 0)
	{
		json_decref(d);
		return NULL;
	}
	return json_text(d);
}

/*
 * The per-script figures of a workload as stored: a JSON array, one object
 * per script, with its statements when they were timed (-r).
 */
static char *
scripts_json(const struct recipe *rc, const struct load_workload *w,
			 const struct load_workload_result *res)
{
	const struct recipe_workload *rw = recipe_workload_find(rc, w->name);
	json_t *arr = json_array();

	for (int k = 0; k < res->nscripts; k++)
	{
		const struct load_script_result *ss = &res->scripts[k];
		json_t *o = json_pack(
			"{s:o, s:i, s:I, s:I, s:I, s:f, s:f}", "name",
			pjson_str(rw->scripts[k].label), "weight", w->weights[k],
			"transactions", (json_int_t) ss->txns, "failures",
			(json_int_t) ss->failures, "retried", (json_int_t) ss->retried,
			"latency_avg_ms", hist_mean(ss->latency) / 1e6,
			"latency_stddev_ms", hist_stddev(ss->latency) / 1e6);

		if (ss->cmd_count)
		{
			json_t *stmts = json_array();

			for (int c = 0; c < ss->ncmds; c++)
			{
				const struct script_cmd *cmd = &w->scripts[k]->cmds[c];

				json_array_append_new(
					stmts,
					json_pack("{s:i, s:o, s:f, s:I, s:I, s:I}", "line",
							  cmd->line, "command", pjson_str(cmd->first_line),
							  "latency_avg_ms",
							  ss->cmd_count[c]
								  ? ss->cmd_lat_sum_ns[c] /
										(double) ss->cmd_count[c] / 1e6
								  : 0.0,
							  "count", (json_int_t) ss->cmd_count[c],
							  "failures", (json_int_t) ss->cmd_failures[c],
							  "retries", (json_int_t) ss->cmd_retries[c]));
			}
			json_object_set_new(o, "statements", stmts);
		}
		json_array_append_new(arr, o);
	}
	return json_text(arr);
}

/* A warm-up until stable as stored (FORMATS.md); NULL for a fixed one. */
static char *
warmup_json(const struct run *r, const struct load_result *point)
{
	bool stable;
	int64_t max_ns = point_warmup(r, &stable);
	json_t *o, *tps;

	if (!stable)
		return NULL;
	tps = json_array();
	for (int i = 0; i < point->nwarm; i++)
		json_array_append_new(tps, json_real(point->warm_tps[i]));
	o = json_pack("{s:s, s:f, s:f, s:f, s:b, s:f, s:o}", "until", "stable",
				  "max_s", (double) max_ns / 1e9, "tolerance",
				  RUN_WARMUP_TOLERANCE, "tick_s",
				  (double) LOAD_WARM_TICK_NS / 1e9, "stable",
				  point->warm_stable, "drift", point->warm_drift, "tps", tps);
	return json_text(o);
}

static int
store_point(struct run *r, const struct run_target *rt,
			const struct load_workload *w,
			const struct load_workload_result *res, int block, int order,
			const struct load_result *point, const struct count_result *cnt,
			double secs, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	struct store_point sp;
	struct strbuf hist_text = STRBUF_INIT;
	json_t *cj = json_object();
	char *classes;
	struct store_series_row *series =
		xcalloc((size_t) res->nseconds + 1, sizeof(*series));
	char **err_texts = xcalloc((size_t) res->nseconds + 1, sizeof(char *));
	struct store_event_row *events =
		xcalloc((size_t) res->nevents + 1, sizeof(*events));
	struct store_window_row *windows =
		xcalloc((size_t) rc->nwindows + 1, sizeof(*windows));
	char *scripts = scripts_json(rc, w, res);
	char *warmup = warmup_json(r, point);
	const struct hist *h = res->latency;
	int result;

	for (int k = 0; k < res->nevents; k++)
	{
		events[k].seq = res->events[k].seq;
		events[k].planned_s = (double) res->events[k].planned_ns / 1e9;
		events[k].actual_s = (double) res->events[k].actual_ns / 1e9;
	}
	hist_encode(h, &hist_text);
	for (int i = 0; i < res->nclasses; i++)
		json_object_set_new(cj, res->classes[i].sqlclass,
							json_integer((json_int_t) res->classes[i].count));
	classes = json_text(cj);
	for (int s = 0; s < res->nseconds; s++)
	{
		series[s].second = s;
		series[s].transactions = res->sec_txns[s];
		series[s].failures = res->sec_failures[s];
		series[s].lat_avg_ms =
			res->sec_txns[s]
				? res->sec_lat_sum_ns[s] / (double) res->sec_txns[s] / 1e6
				: 0;
		series[s].lat_max_ms = (double) res->sec_lat_max_ns[s] / 1e6;
		series[s].failures_by_class = err_texts[s] = errors_of_second(res, s);
	}
	memset(&sp, 0, sizeof(sp));
	sp.variant = rt->v->name;
	sp.workload = w->name;
	sp.clients = w->clients;
	sp.jobs = res->jobs;
	sp.repeat_idx = block;
	sp.order_idx = order;
	sp.protocol = recipe_protocol_name((enum recipe_protocol) w->protocol);
	sp.duration_s = secs;
	sp.warmup_s = (double) point->warmup_ns / 1e9;
	sp.warmup = warmup;
	sp.steal_pct = point->steal_pct;
	if (cnt)
	{
		for (int k = 0; k < 3; k++)
			sp.cost[k] = cnt->per[k];
		sp.counted = (uint64_t) r->c.count_txns;
	}
	sp.transactions = res->txns;
	sp.failures = res->failures;
	sp.failures_by_class = classes;
	sp.aborted_clients = res->aborted_clients;
	sp.abort_reason = res->aborted_clients ? res->first_error : NULL;
	sp.tps = (double) res->txns / secs;
	sp.conn_ms = point->conn_ms;
	sp.prepare_ms = point->prepare_ms;
	sp.lat_avg_ms = hist_mean(h) / 1e6;
	sp.lat_stddev_ms = hist_stddev(h) / 1e6;
	sp.lat_p50_ms = (double) hist_quantile(h, 0.50) / 1e6;
	sp.lat_p90_ms = (double) hist_quantile(h, 0.90) / 1e6;
	sp.lat_p99_ms = (double) hist_quantile(h, 0.99) / 1e6;
	sp.lat_p999_ms = (double) hist_quantile(h, 0.999) / 1e6;
	sp.lat_max_ms = (double) h->max_ns / 1e6;
	sp.histogram = hist_text.buf;
	sp.scale = rt->scale;
	sp.scripts = scripts;
	sp.retried = res->retried;
	sp.retries = res->retries;
	sp.skipped = res->skipped;
	sp.late = res->late;
	sp.lag_avg_ms = res->lag_avg_ms;
	sp.lag_max_ms = res->lag_max_ms;
	sp.events = events;
	sp.nevents = res->nevents;
	sp.windows = windows;
	sp.nwindows = window_rows(rc, w, res, windows);
	sp.series = series;
	sp.nseries = res->nseconds;
	result = store_point_add(r->store, r->run_id, &sp, NULL, err);
	if (result == 0)
	{
		struct report_row *row;

		r->rows =
			xrealloc(r->rows, (size_t) (r->nrows + 1) * sizeof(*r->rows));
		row = &r->rows[r->nrows++];
		row->variant = rt->v->name;
		row->workload = w->name;
		row->clients = w->clients;
		row->jobs = res->jobs;
		row->tps = sp.tps;
		row->p50_ms = sp.lat_p50_ms;
		row->p99_ms = sp.lat_p99_ms;
		row->failures = res->failures;
		row->instructions = cnt ? cnt->per[COST_IR] : 0;
	}
	strbuf_release(&hist_text);
	free(classes);
	free(scripts);
	free(warmup);
	for (int s = 0; s < res->nseconds; s++)
		free(err_texts[s]);
	free(err_texts);
	free(events);
	free(windows);
	free(series);
	return result;
}

/*
 * The server-side samples of a point, with the plan step: commits, wait
 * events, conflicts and replay lag per node and second.  ERR may be NULL
 * (a point that failed: keep what there is, quietly).
 */
static int
store_samples(struct run *r, const struct load_point *lp,
			  const struct load_result *res, int order, struct pgc_error *err)
{
	struct store_sample_row *rows =
		xcalloc((size_t) res->nsamples + 1, sizeof(*rows));
	char **confl = xcalloc((size_t) res->nsamples + 1, sizeof(char *));
	static const char *const kinds[5] = {"snapshot", "lock", "bufferpin",
										 "deadlock", "tablespace"};
	struct pgc_error ignored;
	int result;

	for (int i = 0; i < res->nsamples; i++)
	{
		const struct load_sample *sa = &res->samples[i];
		json_t *d = json_object();

		for (int k = 0; k < 5; k++)
			json_object_set_new(d, kinds[k],
								json_integer((json_int_t) sa->conflicts[k]));
		confl[i] = json_text(d);
		rows[i].node = lp->nodes[sa->node].name;
		rows[i].second = sa->second;
		rows[i].ok = sa->ok;
		rows[i].commits = sa->commits;
		rows[i].conflicts = sa->ok ? confl[i] : NULL;
		rows[i].standby = sa->standby;
		rows[i].lag_bytes = sa->lag_bytes;
		rows[i].lag_s = sa->lag_s;
		rows[i].waits = sa->waits;
		rows[i].query_ms = sa->query_ms;
		rows[i].error = sa->error[0] ? sa->error : NULL;
		rows[i].probes = sa->probes;
	}
	result = store_samples_add(r->store, r->run_id, order, rows, res->nsamples,
							   err ? err : &ignored);
	for (int i = 0; i < res->nsamples; i++)
		free(confl[i]);
	free(confl);
	free(rows);
	return err ? result : 0;
}

/*
 * Pin the servers and the driver apart for a point that placement pins
 * (split and CPU lists: every point; auto: one whose clients fit on the
 * driver's CPUs), else let them run anywhere.  The backends the point
 * connects are forked after this, so they follow.
 */
static int
place_point(struct run *r, struct run_target *rt,
			const struct load_workload *wl, int nw, struct pgc_error *err)
{
	const struct placement *p = &r->placement;
	int clients = 0;
	bool pin;

	if (p->mode == PLACEMENT_FREE)
		return 0;
	for (int i = 0; i < nw; i++)
		clients += wl[i].clients;
	pin = placement_pins(p, clients);
	if (placement_pin_self(pin ? &p->driver : &p->all, NULL, err) < 0)
		return -1;
	return target_set_cpus(rt->t, pin ? &p->server : &p->all, err);
}

/* Plan step ORDER, measured and stored; -1 with ERR stops the run. */
/* ----------------------------------------------------------- profiles */

/* Whether and how the servers are profiled; said at the start either way. */
static void
setup_profiles(struct run *r)
{
	int hz = r->c.profile_hz > 0   ? r->c.profile_hz
			 : r->c.profile_hz < 0 ? 0
								   : r->recipe->profile_hz;
	char why[512];
	const char *tmp = getenv("TMPDIR");
	char *dir;
	struct strbuf per = STRBUF_INIT;
	bool any = hz > 0;
	int mode;

	/* a variant's own profile: (none under --no-profile) */
	for (int i = 0; i < r->nvars && r->c.profile_hz >= 0; i++)
		if (r->vars[i].profile_hz != 0)
		{
			any |= r->vars[i].profile_hz > 0;
			if (r->vars[i].profile_hz > 0)
				strbuf_addf(&per, ", variant %s at %d Hz", r->vars[i].name,
							r->vars[i].profile_hz);
			else
				strbuf_addf(&per, ", not variant %s", r->vars[i].name);
		}
	if (!any)
	{
		strbuf_release(&per);
		return;
	}
	if ((mode = profile_check(why, sizeof(why))) < 0)
	{
		emit_text(r, RUN_EV_NOTE, NULL,
				  "profiles: not taken, the run goes on without them: %s",
				  why);
		strbuf_release(&per);
		return;
	}
	dir = xasprintf("%s/pgcliff-perf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL)
	{
		emit_text(r, RUN_EV_NOTE, NULL,
				  "profiles: not taken: no directory for perf's files in "
				  "%s",
				  tmp && *tmp ? tmp : "/tmp");
		free(dir);
		strbuf_release(&per);
		return;
	}
	r->profile_dir = dir;
	r->profile_hz = hz;
	r->profile_mode = (enum profile_mode) mode;
	r->profile_cg =
		r->c.profile_callgraph > 0
			? (enum profile_callgraph) r->c.profile_callgraph
		: r->c.profile_callgraph < 0
			? PROFILE_CG_NONE
			: (enum profile_callgraph) r->recipe->profile_callgraph;
	r->profiling = true;
	if (hz > 0)
		snprintf(why, sizeof(why), " at %d Hz", hz);
	else
		why[0] = '\0';
	if (r->profile_cg != PROFILE_CG_NONE)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 ", call graphs (%s)", profile_callgraph_name(r->profile_cg));
	emit_text(r, RUN_EV_NOTE, NULL,
			  "profiles: cpu-clock%s of each managed server's processes "
			  "during every window (%s)%s",
			  why,
			  mode == PROFILE_CPUS
				  ? "perf record -a, every CPU, then their samples"
				  : "perf record -p: perf may not sample every CPU here, and "
					"sampling per process costs the servers more",
			  per.buf ? per.buf : "");
	strbuf_release(&per);
}

/* The rate variant V's steps are profiled at; 0: not. */
static int
variant_hz(const struct run *r, const struct variant *v)
{
	if (!r->profiling)
		return 0;
	return v->profile_hz > 0   ? v->profile_hz
		   : v->profile_hz < 0 ? 0
							   : r->profile_hz;
}

/* Start perf on each managed node of the step's target (its processes
 * as they are now); a node perf cannot sample is said and left out. */
static void
start_profiles(struct run *r)
{
	static const char *const names[2] = {"primary", "standby"};

	for (int node = 0; node < 2; node++)
	{
		struct pgc_error e;
		pid_t pid = target_pid(r->prof_target->t, (enum target_node_id) node);
		pid_t *pids;
		int n;
		char name[64];

		if (pid <= 0)
		{
			if (node == 0 && !r->prof_external_said)
			{
				r->prof_external_said = true;
				emit_text(r, RUN_EV_NOTE, NULL,
						  "profiles: not taken of external servers "
						  "(pgcliff profiles the servers it starts)");
			}
			continue;
		}
		n = profile_process_tree(pid, &pids);
		snprintf(name, sizeof(name), "p%d-%s", r->prof_order, names[node]);
		r->prof[node] = profile_start(r->profile_mode, r->profile_cg, pids, n,
									  r->prof_hz, r->profile_dir, name, &e);
		if (r->prof[node] == NULL)
			emit_text(r, RUN_EV_NOTE, NULL,
					  "profiles: the %s's not taken at point %d: %s",
					  names[node], r->prof_order + 1, e.message);
		free(pids);
	}
}

/*
 * The engine's window edges (called from the run's own thread): sampling
 * every CPU, perf is already up and its events go on and off; sampling
 * per process, perf starts here, when the clients' backends are there,
 * and stops at the window's end.
 */
static void
on_window_edge(void *arg, bool begins)
{
	struct run *r = arg;
	static const char *const names[2] = {"primary", "standby"};

	if (begins && r->profile_mode == PROFILE_PROCESSES)
	{
		start_profiles(r);
		return;
	}
	for (int node = 0; node < 2; node++)
	{
		struct pgc_error e;
		int rc;

		if (r->prof[node] == NULL)
			continue;
		rc = r->profile_mode == PROFILE_CPUS
				 ? profile_window(r->prof[node], begins, &e)
				 : profile_stop(r->prof[node], &e);
		if (rc < 0)
		{
			emit_text(r, RUN_EV_NOTE, NULL,
					  "profiles: the %s's at point %d is lost: %s",
					  names[node], r->prof_order + 1, e.message);
			profile_free(r->prof[node]);
			r->prof[node] = NULL;
		}
	}
}

/*
 * Functions kept per node and step.  40 left a function near 0.3 % of a
 * standby's samples (GetSnapshotData under seed 004's fix) in some blocks
 * and out of others, so profile:NODE:FUNCTION had nothing to divide by;
 * 200 reach down to a few samples of a 40 s window at 99 Hz.
 */
#define PROFILE_TOP 200

/* The step's profiles into the store (KEEP false: dropped), then freed. */
static int
store_profiles(struct run *r, int order, bool keep, struct pgc_error *err)
{
	static const char *const names[2] = {"primary", "standby"};
	int rc = 0;

	for (int node = 0; node < 2; node++)
	{
		struct profile_entry *e = NULL;
		struct store_profile_row *rows;
		uint64_t total = 0;
		int n = 0;
		struct pgc_error perr;

		if (r->prof[node] == NULL)
			continue;
		if (keep && rc == 0 &&
			(profile_stop(r->prof[node], &perr) < 0 ||
			 profile_report(r->prof[node], PROFILE_TOP, &e, &n, &total,
							&perr) < 0))
			emit_text(r, RUN_EV_NOTE, NULL,
					  "profiles: the %s's at point %d is lost: %s",
					  names[node], order + 1, perr.message);
		else if (keep && rc == 0)
		{
			bool cg = false;

			rows = xcalloc((size_t) n + 1, sizeof(*rows));
			/* call graphs where perf's add up (profile_parse()) */
			for (int i = 0; i < n; i++)
				cg = cg || !isnan(e[i].inclusive);
			if (r->profile_cg != PROFILE_CG_NONE && !cg && n > 0)
				emit_text(r, RUN_EV_NOTE, NULL,
						  "profiles: the %s's call graphs at point %d do not "
						  "add up (perf lost samples?): its self shares "
						  "only",
						  names[node], order + 1);
			rows[0] = (struct store_profile_row){
				NULL, NULL, NULL, 100.0, total, cg ? 100.0 : -1, r->prof_hz};
			for (int i = 0; i < n; i++)
				rows[i + 1] = (struct store_profile_row){
					NULL,        e[i].dso,
					e[i].symbol, e[i].pct,
					e[i].count,  isnan(e[i].inclusive) ? -1 : e[i].inclusive,
					r->prof_hz};
			rc = store_profile_add(r->store, r->run_id, order, names[node],
								   rows, n + 1, err);
			free(rows);
		}
		profile_entries_free(e, n);
		profile_free(r->prof[node]);
		r->prof[node] = NULL;
	}
	return rc;
}

/*
 * A counted point's functions as the primary's profile, in the profile
 * table's terms: HZ 0 says the rows count instructions per transaction
 * (SAMPLES) rather than perf's samples, and PCT is the share of them.
 */
static int
store_count_profile(struct run *r, int order, const struct count_result *cnt,
					struct pgc_error *err)
{
	struct store_profile_row *rows =
		xcalloc((size_t) cnt->nfns + 1, sizeof(*rows));
	int rc;

	rows[0] = (struct store_profile_row){
		NULL, NULL, NULL, 100.0, (uint64_t) llround(cnt->per[COST_IR]), -1, 0};
	for (int i = 0; i < cnt->nfns; i++)
	{
		const char *slash = strrchr(cnt->fns[i].obj, '/');

		rows[i + 1] =
			(struct store_profile_row){NULL,
									   slash ? slash + 1 : cnt->fns[i].obj,
									   cnt->fns[i].name,
									   100.0 * cnt->fns[i].share,
									   (uint64_t) llround(cnt->fns[i].ir),
									   -1,
									   0};
	}
	rc = store_profile_add(r->store, r->run_id, order, "primary", rows,
						   cnt->nfns + 1, err);
	free(rows);
	return rc;
}

static void
on_dist_note(void *arg, const struct fleet_note *n)
{
	const struct run *r = arg;

	emit_text(r, RUN_EV_NOTE, NULL, "%s", n->text);
}

/* One point: on this process's engine, or spread over the workers. */
static int
measure_point(struct run *r, const struct load_point *lp, int order,
			  struct load_result *res, struct pgc_error *err)
{
	struct fleet_config dc;

	if (r->c.workers <= 0)
		return load_run(lp, res, err);
	memset(res, 0, sizeof(*res)); /* as load_run() leaves it on failure */
	if (r->run_uid == NULL)
	{
		struct store_run_row row;

		if (store_get_run(r->store, r->run_id, &row, err) < 0)
			return -1;
		r->run_uid = xstrdup(row.uid ? row.uid : "");
		store_run_row_release(&row);
	}
	memset(&dc, 0, sizeof(dc));
	dc.store = r->store;
	dc.run_id = r->run_id;
	dc.run_uid = r->run_uid;
	dc.key = r->c.worker_key;
	dc.workers = r->c.workers;
	dc.ready_timeout_ns = r->c.worker_timeout_ns;
	dc.max_offset_ms = r->c.max_clock_offset_ms;
	dc.interrupt = r->c.interrupt;
	dc.on_note = on_dist_note;
	dc.note_arg = r;
	return fleet_run(&dc, lp, order, res, err);
}

static int
run_step(struct run *r, int order, struct load_workload *wl,
		 struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	const struct run_config *c = &r->c;
	char log_prefix[4096];
	const struct recipe_plan_step *st = &r->plan[order];
	struct run_target *rt = &r->targets[st->variant];
	struct load_point lp;
	struct load_result res;
	struct load_node nodes[2];
	struct run_event ev;
	struct count_result cnt;
	bool counted = c->count_txns > 0;
	double secs;
	int nw = rc->nworkloads, result = 0;

	memset(&cnt, 0, sizeof(cnt));

	if (switch_target(r, order ? &r->plan[order - 1] : NULL, st, err) < 0)
		return -1;
	fill_workloads(r, rt, st->sweep, wl);
	if (st->workload >= 0)
	{
		/* run_workloads: separately: this point measures one */
		wl[0] = wl[st->workload];
		nw = 1;
	}
	if (exec_sql_list(rt, rc->reset, rc->nreset, "reset", err) < 0)
		return -1;
	if (c->vacuum_all)
		vacuum_all(r, rt);
	if (target_wait_replay(rt->t, 120, err) < 0 ||
		place_point(r, rt, wl, nw, err) < 0)
		return -1;
	memset(&lp, 0, sizeof(lp));
	lp.workloads = wl;
	lp.nworkloads = nw;
	/* a counted point's warm transactions are its warm-up (count.c) */
	lp.warmup_ns = counted ? 0 : point_warmup(r, &lp.warmup_stable);
	lp.warmup_tolerance = RUN_WARMUP_TOLERANCE;
	lp.duration_ns = c->duration_ns ? c->duration_ns : rc->duration_ns;
	lp.seed = c->seed + (uint64_t) order * 7919u;
	lp.scale = rt->scale;
	lp.per_statement = c->per_statement;
	lp.interrupt = c->interrupt;
	lp.progress_s = c->progress_s;
	lp.progress = on_progress;
	lp.progress_arg = r;
	lp.debug = on_debug;
	lp.debug_arg = r;
	nodes[0].name = "primary";
	nodes[0].conn_keywords = target_keywords(rt->t, TARGET_PRIMARY);
	nodes[0].conn_values = target_values(rt->t, TARGET_PRIMARY);
	nodes[1].name = "standby";
	nodes[1].conn_keywords = target_keywords(rt->t, TARGET_STANDBY);
	nodes[1].conn_values = target_values(rt->t, TARGET_STANDBY);
	lp.nodes = nodes;
	lp.nnodes = target_has_standby(rt->t) ? 2 : 1;
	if (r->probes == NULL && rc->nprobes > 0)
	{
		r->probes = xcalloc((size_t) rc->nprobes, sizeof(*r->probes));
		for (int i = 0; i < rc->nprobes; i++)
		{
			r->probes[i].name = rc->probes[i].name;
			r->probes[i].sql = rc->probes[i].sql;
			r->probes[i].target = rc->probes[i].target;
			r->probes[i].counters =
				(const char *const *) rc->probes[i].counters;
			r->probes[i].ncounters = rc->probes[i].ncounters;
		}
	}
	lp.probes = r->probes;
	lp.nprobes = rc->nprobes;
	lp.verbose_errors = c->verbose_errors;
	lp.exit_on_abort = c->exit_on_abort;
	lp.debug_sends = c->debug;
	/* -l: pgbench's PREFIX.PID, and .pSTEP when the plan has several */
	if (c->log_prefix)
	{
		if (r->nplan > 1)
			snprintf(log_prefix, sizeof(log_prefix), "%s.%ld.p%d",
					 c->log_prefix, (long) getpid(), order + 1);
		else
			snprintf(log_prefix, sizeof(log_prefix), "%s.%ld", c->log_prefix,
					 (long) getpid());
		lp.log_prefix = log_prefix;
		lp.agg_interval_s = c->agg_interval_s;
		lp.sampling_rate = c->sampling_rate;
		lp.log_seed = lp.seed ^ 0x6c6f67u;
	}
	lp.failures_detailed = c->failures_detailed;
	r->prof_hz = variant_hz(r, rt->v);
	if (r->prof_hz > 0)
	{
		r->prof_target = rt;
		r->prof_order = order;
		lp.window_edge = on_window_edge;
		lp.window_edge_arg = r;
		/* up and ready before the load, off until the window */
		if (r->profile_mode == PROFILE_CPUS)
			start_profiles(r);
	}

	memset(&ev, 0, sizeof(ev));
	ev.kind = RUN_EV_POINT_BEGIN;
	ev.variant = shown_variant(r, rt->v);
	ev.order = order;
	ev.nplan = r->nplan;
	ev.block = st->block;
	ev.repeat = r->repeat;
	ev.clients = wl[0].clients;
	ev.workload = st->workload >= 0 ? wl[0].name : NULL;
	emit(r, &ev);

	if ((counted ? count_point(rt->t, &lp, (uint64_t) c->count_txns, &res,
							   &cnt, err)
				 : measure_point(r, &lp, order, &res, err)) < 0)
	{
		if (res.w)
			store_samples(r, &lp, &res, order, NULL);
		store_profiles(r, order, false, NULL);
		load_result_release(&res);
		return -1;
	}
	if (store_profiles(r, order, true, err) < 0 ||
		(counted && store_count_profile(r, order, &cnt, err) < 0))
	{
		load_result_release(&res);
		count_result_release(&cnt);
		return -1;
	}
	/* with -t, the window lasted until the last transaction */
	secs = wl[0].transactions > 0 ? (double) res.window_ns / 1e9
								  : (double) lp.duration_ns / 1e9;
	if (secs <= 0)
		secs = 1e-9;
	for (int i = 0; i < nw && result == 0; i++)
	{
		ev.kind = RUN_EV_POINT_RESULT;
		ev.w = &wl[i];
		ev.res = &res.w[i];
		ev.point = &res;
		ev.secs = secs;
		ev.scale = rt->scale;
		ev.partitions = rt->partitions;
		ev.partition_method = rt->partition_method;
		ev.clients = wl[i].clients;
		ev.cost = counted ? cnt.per : NULL;
		emit(r, &ev);
		result = store_point(r, rt, &wl[i], &res.w[i], st->block, order, &res,
							 counted ? &cnt : NULL, secs, err);
		if (res.w[i].aborted_clients)
		{
			if (r->aborted_clients == 0)
				snprintf(r->abort_reason, sizeof(r->abort_reason),
						 "%s%sworkload %s: %s",
						 r->nvars > 1 ? rt->v->name : "",
						 r->nvars > 1 ? ", " : "", wl[i].name,
						 res.w[i].first_error);
			r->aborted_clients += res.w[i].aborted_clients;
		}
	}
	if (result == 0)
		result = store_samples(r, &lp, &res, order, err);
	load_result_release(&res);
	count_result_release(&cnt);
	if (result == 0)
		r->points_done++;
	return result;
}

/*
 * Until decided, after block BLOCKS: a look when the design schedules one
 * or the budget is about to end; true stops the run there, as finished.
 */
static bool
until_block_done(struct run *r, int blocks)
{
	int64_t now = clock_now_ns();
	int64_t spent = now - r->until_t0_ns;
	double conf = seq_conf_at(&r->seq, blocks);
	struct strbuf detail = STRBUF_INIT;
	struct store_look look;
	struct cmp_look how;
	struct run_event ev;
	const char **names;
	bool last = blocks >= r->repeat;
	/* another block would take about as long as the blocks so far did */
	bool over = spent + spent / blocks > until_budget_ns(r);
	const char *stop = NULL;

	/* one block says nothing of its spread; between the scheduled looks
	 * only the end of the budget makes one (the clock's call, not the
	 * data's) */
	if (blocks < 2 || (!seq_is_look(&r->seq, blocks) && !over))
		return false;
	names = xcalloc((size_t) r->nvars, sizeof(char *));
	for (int v = 0; v < r->nvars; v++)
		names[v] = r->vars[v].name;
	memset(&how, 0, sizeof(how));
	how.conf = conf;
	how.margin = r->c.until.margin;
	how.metric = r->c.until.metric;
	memcpy(how.metric_full, r->c.until.metric_full, sizeof(how.metric_full));
	how.rule = r->c.until.rule;
	how.adjust = r->c.until.adjust;
	how.on_geomean = r->c.until.on_geomean;
	if (compare_look(r->store, r->run_id, names, r->nvars, &how,
					 &r->until_outcome, &detail, &r->until_err) < 0)
	{
		free(names);
		strbuf_release(&detail);
		r->until_failed = true;
		return true; /* the store failed: stop, say so at the end */
	}
	free(names);
	if (r->until_outcome != CMP_OUTCOME_INCONCLUSIVE)
		stop = "decided";
	else if (last)
		stop = "max-repeats";
	else if (over)
		stop = "budget";
	memset(&look, 0, sizeof(look));
	look.look = ++r->until_looks;
	look.blocks = blocks;
	look.confidence = conf;
	look.elapsed_s = (double) spent / 1e9;
	look.outcome = cmp_outcome_name(r->until_outcome);
	look.stop = stop;
	look.detail = detail.buf;
	/* a look that cannot be stored stops the run: nothing is lost quietly */
	if (store_look_add(r->store, r->run_id, &look, &r->until_err) < 0)
	{
		look.stop = stop = "store failed";
		r->until_failed = true;
	}
	memset(&ev, 0, sizeof(ev));
	ev.kind = RUN_EV_LOOK;
	ev.run_id = r->run_id;
	ev.look = &look;
	ev.budget_s = (double) until_budget_ns(r) / 1e9;
	emit(r, &ev);
	strbuf_release(&detail);
	return stop != NULL;
}

static int
run_points(struct run *r, struct pgc_error *err)
{
	struct load_workload *wl =
		xcalloc((size_t) r->recipe->nworkloads, sizeof(*wl));
	int result = 0;

	for (int order = 0; order < r->nplan && result == 0; order++)
	{
		int block = r->plan[order].block;

		if (*r->c.interrupt)
		{
			error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
			result = -1;
			break;
		}
		result = run_step(r, order, wl, err);
		/* a block ends where the next step belongs to another, or last */
		if (result == 0 && r->c.until.on &&
			(order + 1 == r->nplan || r->plan[order + 1].block != block) &&
			until_block_done(r, block + 1))
			break;
	}
	free(wl);
	return result;
}

/* ---------------------------------------------------------------- run */

static void
raise_nofile(void)
{
	struct rlimit rl;

	/* 1,000+ clients need 1,000+ sockets; the soft limit is often 1024 */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
	{
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * Build what the variants with a build: need, from --source or the
 * recipe's source:, before any server starts: one progress line per step.
 */
static int
build_variants(struct run *r, struct pgc_error *err)
{
	const char *source = r->c.source ? r->c.source : r->recipe->source;
	struct build_options bo;

	if (!variants_need_source(r->vars, r->nvars))
		return 0;
	if (variants_check_source(r->vars, r->nvars, source, err) < 0)
		return -1;
	memset(&bo, 0, sizeof(bo));
	bo.cache_dir = r->c.build_cache;
	bo.progress = on_build_step;
	bo.progress_arg = r;
	bo.interrupted = r->c.interrupt;
	return variants_build(r->vars, r->nvars, source, &bo, err);
}

/* {"mode": "split", "server": "0", "driver": "1"}; free: the mode alone */
static json_t *
placement_json(const struct placement *p)
{
	json_t *o = json_pack("{s:s}", "mode", placement_mode_name(p->mode));
	char list[512];

	if (p->mode == PLACEMENT_FREE)
		return o;
	cpu_mask_format(&p->server, list, sizeof(list));
	json_object_set_new(o, "server", json_string(list));
	cpu_mask_format(&p->driver, list, sizeof(list));
	json_object_set_new(o, "driver", json_string(list));
	if (p->mode == PLACEMENT_AUTO)
		json_object_set_new(o, "pinned_up_to_clients",
							json_integer(cpu_mask_count(&p->driver)));
	return o;
}

/* The plan as JSON, stored with the run. */
static char *
plan_json(const struct run *r)
{
	json_t *doc;
	json_t *steps = json_array();

	for (int i = 0; i < r->nplan; i++)
	{
		const struct recipe_plan_step *st = &r->plan[i];
		json_t *o = json_pack("{s:i, s:o}", "block", st->block, "variant",
							  pjson_str(r->vars[st->variant].name));

		if (r->nsweep)
			json_object_set_new(o, "clients",
								json_integer(r->sweep[st->sweep]));
		if (st->workload >= 0)
			json_object_set_new(
				o, "workload",
				pjson_str(r->recipe->workloads[st->workload].name));
		json_array_append_new(steps, o);
	}
	/* the seed as the run row keeps it: its 64-bit pattern */
	doc = json_pack("{s:i, s:I, s:s, s:o}", "version", 1, "seed",
					(json_int_t) r->c.seed, "restart",
					r->nvars > 1 && r->recipe->restart_per_block ? "block"
																 : "never",
					"steps", steps);
	json_object_set_new(doc, "placement", placement_json(&r->placement));
	/* how the blocks are judged, for gate to judge the run the same way */
	if (r->seq.alpha > 0)
		json_object_set_new(
			doc, "sequential",
			json_pack("{s:f, s:f, s:f, s:i, s:s, s:s, s:s}", "alpha",
					  r->seq.alpha, "rho", r->seq.rho, "growth", r->seq.growth,
					  "max_blocks", r->repeat, "on",
					  r->c.until.on_geomean ? "geomean" : "points", "rule",
					  cmp_rule_name(r->c.until.rule), "adjust",
					  cmp_adjust_name(r->c.until.adjust)));
	/* counted points: how (cost.h), so that a reader can say what counted */
	if (r->c.count_txns > 0)
		json_object_set_new(
			doc, "count",
			json_pack("{s:I, s:I, s:s, s:s}", "transactions",
					  (json_int_t) r->c.count_txns, "warm",
					  (json_int_t) count_warm_txns((uint64_t) r->c.count_txns),
					  "valgrind", r->valgrind_version, "tool",
					  "callgrind --cache-sim=yes, I1/D1 32768,8,64, "
					  "LL 8388608,16,64"));
	return json_text(doc);
}

/*
 * The script files a recipe names, for the store: each after a
 * "-- file: PATH" line (NULL when there are none).
 */
static char *
script_files_text(const struct recipe *rc)
{
	struct strbuf b = STRBUF_INIT;

	for (int i = 0; i < rc->nworkloads; i++)
		for (int k = 0; k < rc->workloads[i].nscripts; k++)
		{
			const struct recipe_script *s = &rc->workloads[i].scripts[k];

			if (s->file == NULL)
				continue;
			strbuf_addf(&b, "-- file: %s\n%s", s->file, s->script->text);
			if (b.len && b.buf[b.len - 1] != '\n')
				strbuf_addch(&b, '\n');
		}
	return b.len ? strbuf_detach(&b) : (strbuf_release(&b), NULL);
}

/* The run row: the recipe, the command, the host, the plan. */
static int
begin_run(struct run *r, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	struct host_facts host;
	struct store_run run;
	char *sha = sha256_hex(rc->text);
	char *plan = plan_json(r);
	char *files = script_files_text(rc);
	char measure[256];
	bool decided;
	int result;

	host_facts(&host);
	snprintf(measure, sizeof(measure), "%s%s%s",
			 rc->measure_workload ? rc->measure_workload : "",
			 rc->measure_workload ? "." : "",
			 rc->measure_metric ? rc->measure_metric : "");
	/* decided on --metric: the stored measure says so, and gate on the
	 * stored run judges what the run judged */
	decided = (r->c.until.on || r->c.count_txns > 0) && r->c.until.metric >= 0;
	if (decided)
		snprintf(measure, sizeof(measure), "%s.%s",
				 rc->measure_workload ? rc->measure_workload
									  : rc->workloads[0].name,
				 r->c.until.metric_full[0]
					 ? r->c.until.metric_full
					 : cmp_metric_name((enum cmp_metric) r->c.until.metric));
	memset(&run, 0, sizeof(run));
	run.recipe = rc->name;
	run.recipe_path = rc->path;
	run.recipe_text = rc->text;
	run.recipe_sha256 = sha;
	run.command_line = r->command_line;
	run.seed = (int64_t) r->c.seed;
	run.host_name = host.name;
	run.host_cpu = host.cpu;
	run.host_cores = host.cores;
	run.host_mem_bytes = host.mem_bytes;
	run.host_kernel = host.kernel;
	run.plan = plan;
	run.script_files = files;
	run.measure = rc->measure_metric || decided ? measure : NULL;
	result = store_run_begin(r->store, &run, &r->run_id, err);
	free(sha);
	free(plan);
	free(files);
	return result;
}

char *
run_logs_path(const char *logs_dir, int64_t run_id)
{
	return xasprintf("%s/run-%" PRId64, logs_dir, run_id);
}

static int
cmp_int64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

/* Remove all but the newest RUN_LOGS_KEPT run-ID directories of DIR. */
static void
prune_logs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int64_t *ids = NULL;
	int n = 0, cap = 0;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
	{
		long long id;
		int used = 0;

		if (sscanf(e->d_name, "run-%lld%n", &id, &used) != 1 ||
			e->d_name[used] != '\0' || id <= 0)
			continue;
		if (n == cap)
		{
			cap = cap ? 2 * cap : 32;
			ids = xrealloc(ids, (size_t) cap * sizeof(*ids));
		}
		ids[n++] = id;
	}
	closedir(d);
	if (n > 0)
		qsort(ids, (size_t) n, sizeof(*ids), cmp_int64);
	for (int i = 0; i < n - RUN_LOGS_KEPT; i++)
	{
		char *path = run_logs_path(dir, ids[i]);

		dir_remove_tree(path);
		free(path);
	}
	free(ids);
}

/*
 * Copy RT's logs to the run's logs directory; true when they are there.
 * The error, if any, becomes a note: the logs then stay where they are.
 */
static bool
keep_logs_of(struct run *r, struct run_target *rt)
{
	struct pgc_error e;
	char *runs, *dest;
	bool ok;

	if (r->logs_dir == NULL || r->run_id <= 0 || !target_managed(rt->t))
		return false;
	error_clear(&e);
	runs = run_logs_path(r->logs_dir, r->run_id);
	dest = xasprintf("%s/%s", runs, rt->v->name);
	ok = dir_make_all(r->logs_dir, 0700, &e) == 0 &&
		 target_keep_logs(rt->t, dest, &e) == 0;
	if (ok)
		emit_text(r, RUN_EV_SERVER_LOG, shown_variant(r, rt->v),
				  "%s/primary/server.log", dest);
	else
	{
		dir_remove_tree(dest); /* no half copy */
		emit_text(r, RUN_EV_NOTE, shown_variant(r, rt->v),
				  "the server logs stay in %s: %s",
				  target_log_path(rt->t, TARGET_PRIMARY), e.message);
	}
	free(runs);
	free(dest);
	return ok;
}

/*
 * Every server down and its directory removed; the logs of a failure
 * kept (in logs_dir, else in place) and named.
 */
static void
close_targets(struct run *r, bool failed)
{
	bool keep = r->c.keep_logs || failed;
	bool kept = false;

	for (int i = 0; i < r->nvars; i++)
	{
		struct run_target *rt = &r->targets[i];
		const char *log;
		bool moved = false;

		if (rt->t == NULL)
			continue;
		/* stopped first: the log is whole when it is copied */
		target_stop(rt->t, NULL);
		if (keep && (moved = keep_logs_of(r, rt)))
			kept = true;
		else if (keep &&
				 (log = target_log_path(rt->t, TARGET_PRIMARY)) != NULL)
			emit_text(r, RUN_EV_SERVER_LOG, shown_variant(r, rt->v), "%s",
					  log);
		target_close(rt->t, keep && !moved);
		rt->t = NULL;
	}
	if (kept)
		prune_logs(r->logs_dir);
}

static void
on_store_wait(void *arg, double waited_s)
{
	emit_text(arg, RUN_EV_NOTE, NULL,
			  "the store is locked by another process: waiting (%.0f s so "
			  "far; what was measured is kept until it can be stored, "
			  "Ctrl-C gives up)",
			  waited_s);
}

/* What pgcliff processes that died left in $TMPDIR goes (cluster_sweep). */
static void
sweep_leftovers(struct run *r)
{
	struct strbuf sb = STRBUF_INIT;
	int n = cluster_sweep(NULL, &sb);

	if (n > 0)
		emit_text(r, RUN_EV_NOTE, NULL,
				  "removed %d server director%s left by pgcliff processes "
				  "that are gone: %s",
				  n, n == 1 ? "y" : "ies", sb.buf);
	strbuf_release(&sb);
}

int
run_execute(struct run *r, struct store *store, const char *command_line,
			struct pgc_error *err)
{
	int result = -1;

	r->store = store;
	r->command_line = command_line;
	r->until_t0_ns = clock_now_ns();
	raise_nofile();
	sweep_leftovers(r);
	store_wait_for_locks(store, r->c.interrupt, on_store_wait, r);
	if (r->c.workers > 0 && !store_can_coordinate(store))
	{
		error_set(err, PGC_ERR_USAGE,
				  "--workers needs a PostgreSQL store, not %s",
				  store_name(store));
		error_hint(err, "give --db postgresql://... (or PGCLIFF_DB), and "
						"the same to every `pgcliff worker`");
		goto out;
	}
	if (r->c.count_txns > 0)
	{
		/* before any build: a run that cannot count stops at once */
		if (cost_find_valgrind(r->valgrind, sizeof(r->valgrind),
							   r->valgrind_version,
							   sizeof(r->valgrind_version), err) < 0)
			goto out;
		emit_text(r, RUN_EV_NOTE, NULL,
				  "counting: each point's primary work per transaction over "
				  "%" PRId64 " transactions per client (after %" PRIu64
				  " warm), under %s's callgrind; the servers run ~50x "
				  "slower, and what is counted is work, not time",
				  r->c.count_txns, count_warm_txns((uint64_t) r->c.count_txns),
				  r->valgrind_version);
	}
	if (build_variants(r, err) < 0)
		goto out;
	/* until decided: the budget is the measuring's, builds not counted */
	r->until_t0_ns = clock_now_ns();
	if (begin_run(r, err) < 0)
		goto out;
	if (r->c.count_txns > 0)
	{
		if (r->recipe->profile_hz > 0)
			emit_text(r, RUN_EV_NOTE, NULL,
					  "profiles: not taken by perf in a counted run; "
					  "callgrind's functions are stored instead");
	}
	else
		setup_profiles(r);
	/* after the builds (they use every CPU), before any server starts:
	 * the engine's threads and the servers' children inherit this */
	if (r->placement.mode != PLACEMENT_FREE)
	{
		if (placement_pin_self(&r->placement.all, &r->old_cpus, err) < 0)
			goto out;
		r->pinned = true;
	}
	if (prepare_targets(r, err) < 0)
	{
		/* a Ctrl-C while a server starts is an interruption, whatever
		 * else went wrong because of it */
		if (*r->c.interrupt)
			error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
		goto out;
	}
	if (run_points(r, err) < 0)
		goto out;
	if (r->aborted_clients)
	{
		error_set(err, PGC_ERR_ABORTED, "%d client%s aborted during the run",
				  r->aborted_clients, r->aborted_clients == 1 ? "" : "s");
		error_detail(err, "%s", r->abort_reason);
		goto out;
	}
	r->status = "ok";
	result = 0;
	if (r->until_failed)
	{
		/* the blocks are whole; the look that stopped them is not */
		*err = r->until_err;
		result = -1;
	}
out:
	if (err->kind == PGC_ERR_INTERRUPTED)
		r->status = "interrupted";
	close_targets(r, result < 0);
	for (int node = 0; node < 2; node++)
	{
		profile_free(r->prof[node]);
		r->prof[node] = NULL;
	}
	if (r->profile_dir)
	{
		dir_remove_tree(r->profile_dir);
		free(r->profile_dir);
		r->profile_dir = NULL;
	}
	if (r->pinned)
	{
		placement_restore(&r->old_cpus);
		r->pinned = false;
	}
	if (r->run_id > 0)
	{
		char text[sizeof(err->message) + sizeof(err->detail) + 16];

		snprintf(text, sizeof(text), "%s%s%s", err->message,
				 err->detail[0] ? ": " : "", err->detail);
		error_clear(&r->finish_err);
		if (store_run_finish(r->store, r->run_id, r->status,
							 result == 0 ? NULL : text, &r->finish_err) < 0)
		{
			r->has_finish_err = true;
			if (result == 0)
			{
				*err = r->finish_err;
				r->has_finish_err = false;
				result = -1;
			}
		}
	}
	store_wait_for_locks(store, NULL, NULL, NULL); /* R may go first */
	return result;
}

int64_t
run_id(const struct run *r)
{
	return r->run_id;
}

const char *
run_status(const struct run *r)
{
	return r->status;
}

int
run_points_done(const struct run *r)
{
	return r->points_done;
}

const struct report_row *
run_rows(const struct run *r, int *n)
{
	*n = r->nrows;
	return r->rows;
}

const struct pgc_error *
run_finish_error(const struct run *r)
{
	return r->has_finish_err ? &r->finish_err : NULL;
}

void
run_free(struct run *r)
{
	if (r == NULL)
		return;
	close_targets(r, true);
	for (int i = 0; i < r->nvars; i++)
		target_provenance_release(&r->targets[i].prov);
	free(r->run_uid);
	free(r->targets);
	variants_free(r->vars, r->nvars);
	for (int i = 0; r->wl_scripts && i < r->recipe->nworkloads; i++)
	{
		free(r->wl_scripts[i]);
		free(r->wl_weights[i]);
		free((void *) r->policies[i].rules);
	}
	free(r->wl_scripts);
	free(r->wl_weights);
	free(r->policies);
	free(r->plan);
	free(r->probes);
	for (int i = 0; i < r->ndefines; i++)
		free((char *) r->defines[i].name);
	free(r->defines);
	free(r->rows);
	free(r->logs_dir);
	free(r);
}
