/*
 * point.c - one plan step: its load point made from the recipe, measured and
 * stored; see run.h and run_int.h.
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

/* ------------------------------------------------------------ points */

void
fill_workloads(const struct run *r, const struct run_target *rt, int si,
			   struct load_workload *wl)
{
	const struct recipe *rc = r->recipe;

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
		wl[i].protocol = (enum load_protocol) rw->protocol;
		wl[i].conn_keywords = target_keywords(rt->t, node);
		wl[i].conn_values = target_values(rt->t, node);
		wl[i].clients = point_clients(r, i, si);
		if (swept)
			wl[i].jobs = recipe_sweep_jobs(rc, si, r->sweep[si]);
		else
			wl[i].jobs = rw->jobs;
		if (wl[i].jobs > wl[i].clients)
			wl[i].jobs = wl[i].clients;
		wl[i].transactions = rw->transactions;
		wl[i].policy = &r->policies[i];
		wl[i].rate = rw->rate;
		wl[i].reconnect = rw->reconnect;
		wl[i].timed = rw->timed;
		wl[i].at_ns = rw->at_ns;
		wl[i].every_ns = rw->every_ns;
		wl[i].until_ns = rw->until_ns;
		wl[i].latency_limit_ns = rw->latency_limit_ns;
		wl[i].defines = r->defines;
		wl[i].ndefines = r->ndefines;
	}
}

/*
 * The recipe's windows over a workload's per-second series, as
 * report_windows() computes them (none for a timed event).
 */
static int
window_rows(struct run *r, const struct load_workload *w,
			const struct load_workload_result *res, int order,
			struct store_window_row *out, struct pgc_error *err)
{
	const struct recipe *rc = r->recipe;
	struct report_window_def *defs;
	struct report_window *win;
	double *tps;
	int n, nsec = res->nseconds;

	if (w->timed || rc->nwindows == 0)
		return 0;
	if (r->streamed)
	{
		/* the series went to the store as the window ran */
		if (store_series_staged_tps(r->store, r->run_id, order, w->name, &tps,
									&nsec, err) < 0)
			return -1;
	}
	else
	{
		tps = xcalloc((size_t) nsec + 1, sizeof(double));
		for (int s = 0; s < nsec; s++)
			tps[s] = (double) res->sec_txns[s];
	}
	defs = xcalloc((size_t) rc->nwindows, sizeof(*defs));
	win = xcalloc((size_t) rc->nwindows, sizeof(*win));
	for (int k = 0; k < rc->nwindows; k++)
	{
		defs[k].name = rc->windows[k].name;
		defs[k].start_s = rc->windows[k].start_s;
		defs[k].end_s = rc->windows[k].end_s;
	}
	n = report_windows(tps, nsec, defs, rc->nwindows, win);
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

char *
errors_json(const struct load_error_second *e, int n, int sec)
{
	json_t *d = json_object();

	for (int i = 0; i < n; i++)
		if (sec < 0 || e[i].second == sec)
			json_object_set_new(d, e[i].sqlclass,
								json_integer((json_int_t) e[i].count));
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

int
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
		series[s].failures_by_class = err_texts[s] =
			errors_json(res->errors, res->nerrors, s);
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
	sp.nwindows = window_rows(r, w, res, order, windows, err);
	sp.series = series;
	sp.nseries = res->nseconds;
	sp.staged = r->streamed;
	result = sp.nwindows < 0
				 ? -1
				 : store_point_add(r->store, r->run_id, &sp, NULL, err);
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

void
sample_row(const struct load_point *lp, const struct load_sample *sa,
		   struct store_sample_row *row, char **confl)
{
	static const char *const kinds[5] = {"snapshot", "lock", "bufferpin",
										 "deadlock", "tablespace"};
	json_t *d = json_object();

	for (int k = 0; k < 5; k++)
		json_object_set_new(d, kinds[k],
							json_integer((json_int_t) sa->conflicts[k]));
	*confl = json_text(d);
	memset(row, 0, sizeof(*row));
	row->node = lp->nodes[sa->node].name;
	row->second = sa->second;
	row->ok = sa->ok;
	row->commits = sa->commits;
	row->conflicts = sa->ok ? *confl : NULL;
	row->standby = sa->standby;
	row->lag_bytes = sa->lag_bytes;
	row->lag_s = sa->lag_s;
	row->waits = sa->waits;
	row->query_ms = sa->query_ms;
	row->error = sa->error[0] ? sa->error : NULL;
	row->probes = sa->probes;
}

/*
 * The server-side samples of a point, with the plan step: commits, wait
 * events, conflicts and replay lag per node and second.  ERR may be NULL
 * (a point that failed: keep what there is, quietly).
 */
int
store_samples(struct run *r, const struct load_point *lp,
			  const struct load_result *res, int order, struct pgc_error *err)
{
	struct store_sample_row *rows =
		xcalloc((size_t) res->nsamples + 1, sizeof(*rows));
	char **confl = xcalloc((size_t) res->nsamples + 1, sizeof(char *));
	struct pgc_error ignored;
	int result;

	for (int i = 0; i < res->nsamples; i++)
		sample_row(lp, &res->samples[i], &rows[i], &confl[i]);
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
int
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

static void
on_fleet_note(void *arg, const struct fleet_note *n)
{
	const struct run *r = arg;

	run_emit_text(r, RUN_EV_NOTE, NULL, "%s", n->text);
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
	dc.on_note = on_fleet_note;
	dc.note_arg = r;
	return fleet_run(&dc, lp, order, res, err);
}

/*
 * The load point of plan step ORDER on RT: its NW workloads WL, warm-up
 * and window, seed, the servers it samples (NODES), probes and -l logs
 * (LOG_PREFIX, LOG_SIZE bytes, holds the name).
 */
static void
make_point(struct run *r, int order, const struct run_target *rt,
		   struct load_workload *wl, int nw, struct load_point *lp,
		   struct load_node nodes[2], char *log_prefix, size_t log_size)
{
	const struct recipe *rc = r->recipe;
	const struct run_config *c = &r->c;
	bool counted = c->count_txns > 0;

	memset(lp, 0, sizeof(*lp));
	lp->workloads = wl;
	lp->nworkloads = nw;
	/* a counted point's warm transactions are its warm-up (count.c) */
	lp->warmup_ns = counted ? 0 : point_warmup(r, &lp->warmup_stable);
	lp->warmup_tolerance = RUN_WARMUP_TOLERANCE;
	lp->duration_ns = rc->duration_ns;
	lp->seed = c->seed + (uint64_t) order * 7919u;
	lp->scale = rt->scale;
	lp->per_statement = c->per_statement;
	lp->interrupt = c->interrupt;
	lp->progress_s = c->progress_s;
	lp->progress = on_progress;
	lp->progress_arg = r;
	lp->debug = on_debug;
	lp->debug_arg = r;
	nodes[0].name = "primary";
	nodes[0].conn_keywords = target_keywords(rt->t, TARGET_PRIMARY);
	nodes[0].conn_values = target_values(rt->t, TARGET_PRIMARY);
	nodes[1].name = "standby";
	nodes[1].conn_keywords = target_keywords(rt->t, TARGET_STANDBY);
	nodes[1].conn_values = target_values(rt->t, TARGET_STANDBY);
	lp->nodes = nodes;
	lp->nnodes = target_has_standby(rt->t) ? 2 : 1;
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
	lp->probes = r->probes;
	lp->nprobes = rc->nprobes;
	lp->verbose_errors = c->verbose_errors;
	lp->exit_on_abort = c->exit_on_abort;
	lp->debug_sends = c->debug;
	/* -l: pgbench's PREFIX.PID, and .pSTEP when the plan has several */
	if (c->log_prefix)
	{
		if (r->nplan > 1)
			snprintf(log_prefix, log_size, "%s.%ld.p%d", c->log_prefix,
					 (long) getpid(), order + 1);
		else
			snprintf(log_prefix, log_size, "%s.%ld", c->log_prefix,
					 (long) getpid());
		lp->log_prefix = log_prefix;
		lp->agg_interval_s = c->agg_interval_s;
		lp->sampling_rate = c->sampling_rate;
		lp->log_seed = lp->seed ^ 0x6c6f67u;
	}
	lp->failures_detailed = c->failures_detailed;
}

/*
 * Plan step ORDER: its variant's server switched in, reset, placed, the
 * point measured (or counted) and stored with its samples and profiles.
 */
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
	struct point_stream stream;
	bool counted = c->count_txns > 0;
	double secs;
	int nw = rc->nworkloads, result = 0;

	memset(&cnt, 0, sizeof(cnt));
	memset(&stream, 0, sizeof(stream));

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
	make_point(r, order, rt, wl, nw, &lp, nodes, log_prefix,
			   sizeof(log_prefix));
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
	run_emit(r, &ev);

	/* a point this process measures streams its seconds to the store
	 * (counted ones are short; the workers' come back as documents) */
	r->streamed = !counted && c->workers <= 0;
	if (r->streamed)
		stream_begin(&stream, r, &lp, order);
	if ((counted ? count_point(rt->t, &lp, (uint64_t) c->count_txns, &res,
							   &cnt, err)
				 : measure_point(r, &lp, order, &res, err)) < 0)
	{
		(void) stream_end(&stream, false, NULL);
		if (res.w)
			store_samples(r, &lp, &res, order, NULL);
		store_profiles(r, order, false, NULL);
		load_result_release(&res);
		return -1;
	}
	if (stream_end(&stream, true, err) < 0 ||
		store_profiles(r, order, true, err) < 0 ||
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
		run_emit(r, &ev);
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
	run_emit(r, &ev);
	strbuf_release(&detail);
	return stop != NULL;
}

int
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
