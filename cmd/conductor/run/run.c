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

/* ------------------------------------------------------------- events */

void
run_emit(const struct run *r, struct run_event *ev)
{
	if (r->c.on_event)
		r->c.on_event(r->c.event_arg, ev);
}

void
run_emit_text(const struct run *r, enum run_event_kind kind,
			  const char *variant, const char *fmt, ...)
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
	run_emit(r, &ev);
	strbuf_release(&sb);
}

/* The variant's name in events, when there is more than one. */
const char *
shown_variant(const struct run *r, const struct variant *v)
{
	return r->nvars > 1 ? v->name : NULL;
}

static void
on_build_step(void *arg, const char *line)
{
	run_emit_text(arg, RUN_EV_STEP, NULL, "%s", line);
}

void
on_init_step(void *arg, const char *line)
{
	const struct init_arg *ia = arg;

	run_emit_text(ia->r, RUN_EV_STEP, ia->variant, "%s", line);
}

void
on_progress(void *arg, const struct load_progress *p)
{
	struct run_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = RUN_EV_PROGRESS;
	ev.progress = p;
	run_emit(arg, &ev);
}

/* debug() of a script, from the engine's worker threads */
void
on_debug(void *arg, const char *line)
{
	run_emit_text(arg, RUN_EV_DEBUG, NULL, "%s", line);
}

/* ------------------------------------------------------------- plan */

/* Clients of workload I at sweep point SI: the one rule for both uses. */
int
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
int
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
 * A workload's failure policy: its max_tries (--max-tries applied;
 * INT32_MAX: as many as the window allows); serialization failures and
 * deadlocks are retried when more than one try is allowed (pgbench's
 * --max-tries), everything else rolls back and goes on; on_error: says
 * otherwise.
 */
static void
make_policy(const struct recipe_workload *w, struct load_policy *pol)
{
	struct load_rule *rules =
		xcalloc((size_t) w->non_error + 1, sizeof(*rules));
	int n = 0;

	pol->max_tries = w->max_tries ? w->max_tries : 1;
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
		make_policy(w, &r->policies[i]);
	}
}

/*
 * The script variables of the run: the recipe's variables: (with -D over
 * them, recipe_override()); and the check that every variable a script
 * reads is assigned somewhere.
 */
static int
collect_defines(struct run *r, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	const char **names = xcalloc((size_t) rc->nvariables + 1, sizeof(char *));
	int result;

	r->defines = xcalloc((size_t) rc->nvariables + 1, sizeof(*r->defines));
	for (int i = 0; i < rc->nvariables; i++)
	{
		r->defines[i].name = rc->variables[i].name;
		r->defines[i].value = rc->variables[i].value;
		names[i] = rc->variables[i].name;
	}
	r->ndefines = rc->nvariables;
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
	/* --placement over the recipe has no place in its file */
	bool from_recipe = rc->has_placement && rc->placement_pos.line > 0;
	int side;

	if (rc->has_placement)
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
 * The warm-up of every point, the recipe's (--warmup applied to it); with
 * *STABLE, until the throughput is stable and at most *NS.
 */
int64_t
point_warmup(const struct run *r, bool *stable)
{
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
	if (rc->duration_ns <= 0)
		why = "a number of transactions (-t)";
	else if (r->c.log_prefix)
		why = "transaction logs (-l)";
	for (int i = 0; i < rc->nworkloads && !why; i++)
		if (rc->workloads[i].transactions > 0)
			why = "a number of transactions (-t, transactions:)";
		else if (rc->workloads[i].rate > 0)
			why = "a rate (-R, rate:)";
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
	else if (r->c.profile_hz > 0)
		why = "perf profiles (--profile): callgrind's own are stored";
	for (int i = 0; i < rc->nworkloads && why == NULL; i++)
	{
		const struct recipe_workload *w = &rc->workloads[i];

		if (strcmp(w->target, "standby") == 0)
			why = "a workload on the standby (the primary is counted)";
		else if (w->reconnect)
			why = "a connection per transaction (-C, reconnect:)";
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

int64_t
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
	r->nsweep = rc->nsweep_clients;
	r->sweep = rc->sweep_clients;
	r->repeat = rc->repeat;
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
	int64_t window =
		rc->duration_ns + (stable && warmup > least ? least : warmup);
	int64_t total = 0;

	for (int w = 0; w < rc->nworkloads; w++)
		if (rc->workloads[w].transactions > 0)
			return 0; /* -t: as long as the transactions take */
	if (window <= 0)
		return 0;
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
	/* a run writes for as long as it lasts: its memory stays flat */
	store_set_lean(r->store);
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
		run_emit_text(r, RUN_EV_SERVER_LOG, shown_variant(r, rt->v),
					  "%s/primary/server.log", dest);
	else
	{
		dir_remove_tree(dest); /* no half copy */
		run_emit_text(r, RUN_EV_NOTE, shown_variant(r, rt->v),
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
			run_emit_text(r, RUN_EV_SERVER_LOG, shown_variant(r, rt->v), "%s",
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
	run_emit_text(arg, RUN_EV_NOTE, NULL,
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
		run_emit_text(r, RUN_EV_NOTE, NULL,
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
		run_emit_text(
			r, RUN_EV_NOTE, NULL,
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
			run_emit_text(r, RUN_EV_NOTE, NULL,
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
	free(r->defines); /* the names and values are the recipe's */
	free(r->rows);
	free(r->logs_dir);
	free(r);
}
