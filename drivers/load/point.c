/*
 * point.c - a point: its threads set up, started at one instant, sampled each
 * second, warmed up and merged (load_run()); see engine.h and engine_int.h.
 */
#include "engine_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "cluster.h"
#include "probe_int.h"

/* ------------------------------------------------------------ the point */

static void
thread_setup(struct engine *e, struct thread *t, const struct load_workload *w,
			 int wi, int first_client, int nclients, const uint64_t *seeds,
			 int64_t default_seed, uint64_t choose_seed,
			 uint64_t throttle_seed)
{
	/* the last script knows every variable of the workload */
	const struct script *s = w->scripts[w->nscripts - 1];
	int np = 1;

	for (int k = 0; k < w->nscripts; k++)
		if (w->scripts[k]->max_params > np)
			np = w->scripts[k]->max_params;
	t->ss = xcalloc((size_t) w->nscripts, sizeof(*t->ss));
	for (int k = 0; k < w->nscripts; k++)
	{
		struct load_script_result *ss = &t->ss[k];

		t->total_weight += w->weights[k];
		ss->ncmds = w->scripts[k]->ncmds;
		if (w->nscripts > 1)
		{
			ss->latency = xmalloc(sizeof(struct hist));
			hist_reset(ss->latency);
		}
		if (e->p->per_statement)
		{
			ss->cmd_lat_sum_ns = xcalloc((size_t) ss->ncmds, sizeof(double));
			ss->cmd_count = xcalloc((size_t) ss->ncmds, sizeof(uint64_t));
			ss->cmd_failures = xcalloc((size_t) ss->ncmds, sizeof(uint64_t));
			ss->cmd_retries = xcalloc((size_t) ss->ncmds, sizeof(uint64_t));
		}
	}
	prng_seed(&t->choose, choose_seed);
	prng_seed(&t->throttle, throttle_seed);
	/* the workload's rate, split evenly over its threads, as pgbench */
	if (w->rate > 0)
		t->delay_ns = 1e9 *
					  (double) (w->jobs < w->clients ? w->jobs : w->clients) /
					  w->rate;

	t->e = e;
	t->w = w;
	t->wi = wi;
	t->nclients = nclients;
	t->clients = xcalloc((size_t) nclients, sizeof(struct client));
	t->hist = xmalloc(sizeof(struct hist));
	hist_reset(t->hist);
	t->class_counts = xcalloc(NCOUNTERS, sizeof(uint32_t));
	pthread_mutex_init(&t->errs_mu, NULL);
	t->epfd = epoll_create1(EPOLL_CLOEXEC);
	for (int i = 0; i < nclients; i++)
	{
		struct client *c = &t->clients[i];

		c->id = first_client + i;
		c->fd = -1;
		c->fail_class = -1;
		c->fail_kind = 0;
		c->cur_cmd = -1;
		script_vars_init(&c->vars, s, c->id, e->p->scale,
						 (int64_t) (e->p->seed + (uint64_t) wi * 1000003u),
						 default_seed, seeds[c->id], w->defines, w->ndefines);
		c->vars.debug = e->p->debug;
		c->vars.debug_arg = e->p->debug_arg;
		c->param_buf = xmalloc((size_t) np * PARAM_WIDTH);
		c->param_values = xcalloc((size_t) np, sizeof(char *));
		strbuf_init(&c->query);
		strbuf_grow(&c->query, 256);
	}
}

static void
thread_release(struct thread *t)
{
	for (int i = 0; i < t->nclients; i++)
	{
		struct client *c = &t->clients[i];

		script_vars_release(&c->vars);
		if (c->held)
			PQclear(c->held);
		free(c->param_buf);
		free(c->param_values);
		strbuf_release(&c->query);
	}
	free(t->clients);
	free(t->hist);
	for (int k = 0; t->ss && k < t->w->nscripts; k++)
	{
		free(t->ss[k].latency);
		free(t->ss[k].cmd_lat_sum_ns);
		free(t->ss[k].cmd_count);
		free(t->ss[k].cmd_failures);
		free(t->ss[k].cmd_retries);
	}
	free(t->ss);
	free(t->errs);
	free(t->events);
	free(t->class_counts);
	if (t->e)
		pthread_mutex_destroy(&t->errs_mu);
	if (t->epfd >= 0)
		close(t->epfd);
}

/* Add thread T's event occurrences into R: the earliest start of each. */
static void
merge_events(struct load_workload_result *r, const struct thread *t)
{
	for (int i = 0; i < t->nevents; i++)
	{
		const struct load_event *te = &t->events[i];
		int k;

		for (k = 0; k < r->nevents; k++)
			if (r->events[k].seq == te->seq)
				break;
		if (k == r->nevents)
		{
			r->events = xrealloc(r->events, (size_t) (r->nevents + 1) *
												sizeof(*r->events));
			/* insertion keeps the occurrences in order */
			for (k = r->nevents; k > 0 && r->events[k - 1].seq > te->seq; k--)
				r->events[k] = r->events[k - 1];
			r->events[k] = *te;
			r->nevents++;
		}
		else if (te->actual_ns < r->events[k].actual_ns)
			r->events[k].actual_ns = te->actual_ns;
	}
}

/* Add thread T's per-script figures into R (allocated on first use). */
static void
merge_scripts(struct load_workload_result *r, const struct thread *t)
{
	const struct load_workload *w = t->w;

	if (r->scripts == NULL)
	{
		r->nscripts = w->nscripts;
		r->scripts = xcalloc((size_t) w->nscripts, sizeof(*r->scripts));
		for (int k = 0; k < w->nscripts; k++)
		{
			struct load_script_result *rs = &r->scripts[k];

			rs->ncmds = t->ss[k].ncmds;
			rs->latency = xmalloc(sizeof(struct hist));
			hist_reset(rs->latency);
			if (t->ss[k].cmd_count)
			{
				rs->cmd_lat_sum_ns =
					xcalloc((size_t) rs->ncmds, sizeof(double));
				rs->cmd_count = xcalloc((size_t) rs->ncmds, sizeof(uint64_t));
				rs->cmd_failures =
					xcalloc((size_t) rs->ncmds, sizeof(uint64_t));
				rs->cmd_retries =
					xcalloc((size_t) rs->ncmds, sizeof(uint64_t));
			}
		}
	}
	for (int k = 0; k < w->nscripts; k++)
	{
		struct load_script_result *rs = &r->scripts[k];
		const struct load_script_result *ts = &t->ss[k];

		rs->txns += ts->txns;
		rs->failures += ts->failures;
		rs->serialization_failures += ts->serialization_failures;
		rs->deadlock_failures += ts->deadlock_failures;
		r->serialization_failures += ts->serialization_failures;
		r->deadlock_failures += ts->deadlock_failures;
		rs->retried += ts->retried;
		rs->retries += ts->retries;
		/* one script: its latencies are the workload's */
		hist_add(rs->latency, ts->latency ? ts->latency : t->hist);
		for (int c = 0; rs->cmd_count && ts->cmd_count && c < rs->ncmds; c++)
		{
			rs->cmd_lat_sum_ns[c] += ts->cmd_lat_sum_ns[c];
			rs->cmd_count[c] += ts->cmd_count[c];
			rs->cmd_failures[c] += ts->cmd_failures[c];
			rs->cmd_retries[c] += ts->cmd_retries[c];
		}
	}
}

static void
merge_results(struct engine *e, struct load_result *out)
{
	const struct load_point *p = e->p;

	out->nworkloads = p->nworkloads;
	out->w = xcalloc((size_t) p->nworkloads, sizeof(*out->w));
	for (int wi = 0; wi < p->nworkloads; wi++)
	{
		struct load_workload_result *r = &out->w[wi];
		uint64_t *classes = xcalloc(NCOUNTERS, sizeof(uint64_t));
		uint64_t lag_n = 0;
		double lag_sum = 0;

		r->latency = xmalloc(sizeof(struct hist));
		hist_reset(r->latency);
		for (int ti = 0; ti < e->nthreads; ti++)
		{
			struct thread *t = &e->threads[ti];

			if (t->wi != wi)
				continue;
			r->jobs++;
			r->txns += t->txns;
			r->failures += t->failures;
			hist_add(r->latency, t->hist);
			for (size_t k = 0; k < NCOUNTERS; k++)
				classes[k] += t->class_counts[k];
			r->retried += t->retried;
			r->retries += t->retries;
			r->skipped += t->skipped;
			r->late += t->late;
			r->reconnects += t->reconnects;
			r->reconnect_ns_sum += t->reconnect_ns_sum;
			lag_n += t->lag_n;
			lag_sum += t->lag_sum_ns;
			if ((double) t->lag_max_ns / 1e6 > r->lag_max_ms)
				r->lag_max_ms = (double) t->lag_max_ns / 1e6;
			merge_events(r, t);
			merge_scripts(r, t);
			if (t->aborted && r->aborted_clients == 0)
				snprintf(r->first_error, sizeof(r->first_error), "%s",
						 t->first_error);
			r->aborted_clients += t->aborted;
		}
		r->lag_avg_ms = lag_n ? lag_sum / (double) lag_n / 1e6 : 0;
		for (size_t k = 0; k < NCOUNTERS; k++)
		{
			if (classes[k] == 0)
				continue;
			r->classes = xrealloc(r->classes, (size_t) (r->nclasses + 1) *
												  sizeof(*r->classes));
			class_name(k, r->classes[r->nclasses].sqlclass);
			r->classes[r->nclasses].count = classes[k];
			r->nclasses++;
		}
		free(classes);
	}
}

/* What the previous progress report had seen, per workload. */
struct progress_mark
{
	uint64_t txns;
	uint64_t failures;
	double lat_sum_ns;
	double lat_sumsq_ns;
};

static void
report_progress(struct engine *e, int64_t now, struct progress_mark *mark,
				int64_t *last_ns)
{
	const struct load_point *p = e->p;
	struct load_progress_wl *w = xcalloc((size_t) p->nworkloads, sizeof(*w));
	struct load_progress pr;
	double interval_s = (double) (now - *last_ns) / 1e9;

	for (int wi = 0; wi < p->nworkloads; wi++)
	{
		struct progress_mark cur = {0, 0, 0, 0};
		double n, mean_ns;

		for (int ti = 0; ti < e->nthreads; ti++)
		{
			struct thread *t = &e->threads[ti];

			if (t->wi != wi)
				continue;
			cur.txns +=
				atomic_load_explicit(&t->prog_txns, memory_order_relaxed);
			cur.failures +=
				atomic_load_explicit(&t->prog_failures, memory_order_relaxed);
			cur.lat_sum_ns += atomic_load_explicit(&t->prog_lat_sum_ns,
												   memory_order_relaxed);
			cur.lat_sumsq_ns += atomic_load_explicit(&t->prog_lat_sumsq_ns,
													 memory_order_relaxed);
		}
		w[wi].txns = cur.txns - mark[wi].txns;
		w[wi].failures = cur.failures - mark[wi].failures;
		w[wi].tps = interval_s > 0 ? (double) w[wi].txns / interval_s : 0;
		n = (double) w[wi].txns;
		if (n > 0)
		{
			/* pgbench's interval figures: mean and population stddev */
			double var;

			mean_ns = (cur.lat_sum_ns - mark[wi].lat_sum_ns) / n;
			var = (cur.lat_sumsq_ns - mark[wi].lat_sumsq_ns) / n -
				  mean_ns * mean_ns;
			w[wi].lat_avg_ms = mean_ns / 1e6;
			w[wi].lat_stddev_ms = var > 0 ? sqrt(var) / 1e6 : 0;
		}
		mark[wi] = cur;
	}
	*last_ns = now;
	pr.elapsed_s = (double) (now - e->window_start_ns) / 1e9;
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		pr.unix_s = (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
	}
	pr.nworkloads = p->nworkloads;
	pr.w = w;
	p->progress(p->progress_arg, &pr);
	free(w);
}

/* ---------------------------------------------------------- sampling */

#define SAMPLE_SQL                                                            \
	"SELECT (SELECT xact_commit FROM pg_stat_database"                        \
	"         WHERE datname = current_database()),"                           \
	" (SELECT json_object_agg(w, n) FROM (SELECT wait_event_type || ':' ||"   \
	"   wait_event AS w, count(*) AS n FROM pg_stat_activity"                 \
	"   WHERE wait_event IS NOT NULL AND backend_type = 'client backend'"     \
	"   AND pid <> pg_backend_pid() GROUP BY 1) x),"                          \
	" pg_is_in_recovery(),"                                                   \
	" CASE WHEN pg_is_in_recovery() THEN pg_wal_lsn_diff("                    \
	"   pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()) END,"            \
	" CASE WHEN pg_is_in_recovery() THEN extract(epoch FROM now() -"          \
	"   pg_last_xact_replay_timestamp()) END,"                                \
	" c.confl_snapshot, c.confl_lock, c.confl_bufferpin, c.confl_deadlock,"   \
	" c.confl_tablespace FROM pg_stat_database_conflicts c"                   \
	" WHERE c.datname = current_database()"

struct sampler
{
	PGconn **conns;
	int64_t *last_commits;
	int64_t (*last_conflicts)[5];
	int *last_second; /* of the last good sample: -1 the window's start,
					   * SAMPLE_BEFORE_LOAD before the load */
	bool *have_last;
	int nnodes; /* sampled: none in -t mode */
	struct probe_set probes;
	struct load_sample *rows;
	int nrows;
	int cap;
};

/* The sample taken when the sampler connects, before the load starts. */
#define SAMPLE_BEFORE_LOAD (-2)

/*
 * A sampler connection's notices: none printed.  A standby may end the
 * sampler's connection (a recovery conflict's FATAL, which libpq would
 * print on the run's terminal as a notice); the failed sample keeps the
 * error instead.
 */
static void
sampler_notice(void *arg, const PGresult *res)
{
	(void) arg;
	(void) res;
}

static PGconn *
sampler_connect(const struct load_node *n)
{
	PGconn *c = PQconnectdbParams(n->conn_keywords, n->conn_values, 0);

	if (PQstatus(c) != CONNECTION_OK)
	{
		PQfinish(c);
		return NULL;
	}
	PQsetNoticeReceiver(c, sampler_notice, NULL);
	return c;
}

/*
 * Sample every node for second SECOND (-1: the baseline at the window's
 * start, SAMPLE_BEFORE_LOAD: one before the load; neither kept).  A node
 * that does not answer gets a failed sample and a new connection next
 * time; its counters (commits, conflicts: the server's cumulative ones)
 * keep their last good values, so the next good sample counts what
 * happened since then (its error says since when) instead of losing it.
 */
static void
sample_nodes(const struct load_point *p, struct sampler *sm, int second)
{
	for (int i = 0; i < p->nnodes; i++)
	{
		int64_t t0 = clock_now_ns();
		struct load_sample row;
		PGresult *res = NULL;

		memset(&row, 0, sizeof(row));
		row.node = i;
		row.second = second;
		if (sm->conns[i] == NULL)
			sm->conns[i] = sampler_connect(&p->nodes[i]);
		if (sm->conns[i])
			res = sampler_exec(sm->conns[i], SAMPLE_SQL);
		if (res && PQresultStatus(res) == PGRES_TUPLES_OK &&
			PQntuples(res) == 1)
		{
			int64_t commits = atoll(PQgetvalue(res, 0, 0));
			int64_t confl[5];
			bool went_back;

			for (int k = 0; k < 5; k++)
				confl[k] = atoll(PQgetvalue(res, 0, 5 + k));
			row.ok = sm->have_last[i];
			row.commits = commits - sm->last_commits[i];
			went_back = row.commits < 0;
			for (int k = 0; k < 5; k++)
			{
				row.conflicts[k] = confl[k] - sm->last_conflicts[i][k];
				went_back |= row.conflicts[k] < 0;
			}
			if (row.ok && went_back)
			{
				/* the counters went back: not the same server's */
				row.ok = false;
				snprintf(row.error, sizeof(row.error),
						 "the server's counters went back (restarted?)");
			}
			else if (row.ok && second >= 0 && sm->last_second[i] < second - 1)
			{
				if (sm->last_second[i] < 0)
					snprintf(row.error, sizeof(row.error),
							 "counts since %s: the samples between failed",
							 sm->last_second[i] == SAMPLE_BEFORE_LOAD
								 ? "before the load"
								 : "the window's start");
				else
					snprintf(row.error, sizeof(row.error),
							 "counts since second %d: the samples between "
							 "failed",
							 sm->last_second[i]);
			}
			row.standby = strcmp(PQgetvalue(res, 0, 2), "t") == 0;
			row.lag_bytes = atoll(PQgetvalue(res, 0, 3));
			row.lag_s =
				PQgetisnull(res, 0, 4) ? -1 : atof(PQgetvalue(res, 0, 4));
			row.waits =
				xstrdup(PQgetisnull(res, 0, 1) ? "{}" : PQgetvalue(res, 0, 1));
			sm->last_commits[i] = commits;
			memcpy(sm->last_conflicts[i], confl, sizeof(confl));
			sm->last_second[i] = second;
			sm->have_last[i] = true;
			row.probes =
				probe_sample(&sm->probes, sm->conns[i], &p->nodes[i], i);
			if (!row.ok && second >= 0 && row.error[0] == '\0')
				snprintf(row.error, sizeof(row.error),
						 "no earlier sample to count from");
		}
		else
		{
			snprintf(row.error, sizeof(row.error), "%s",
					 sm->conns[i] ? PQerrorMessage(sm->conns[i])
								  : "could not connect");
			row.error[strcspn(row.error, "\n")] = '\0';
			if (sm->conns[i] && PQstatus(sm->conns[i]) != CONNECTION_OK)
			{
				PQfinish(sm->conns[i]);
				sm->conns[i] = NULL;
			}
			probe_set_forget(&sm->probes, i);
		}
		PQclear(res);
		row.query_ms = (double) (clock_now_ns() - t0) / 1e6;
		if (second < 0)
		{
			free(row.waits);
			free(row.probes);
			continue;
		}
		if (sm->nrows == sm->cap)
		{
			sm->cap = sm->cap ? sm->cap * 2 : 64;
			sm->rows =
				xrealloc(sm->rows, (size_t) sm->cap * sizeof(*sm->rows));
		}
		sm->rows[sm->nrows++] = row;
	}
}

/*
 * With e->mu held, wait until every started thread has finished setup
 * phase STEP, watching for an interrupt meanwhile.
 */
static void
wait_arrived(struct engine *e, int step, bool *interrupted)
{
	const struct load_point *p = e->p;

	while (e->arrived[step] < e->nstarted)
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50L * 1000000;
		if (ts.tv_nsec >= 1000000000)
		{
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&e->cv, &e->mu, &ts);
		if (p->interrupt && *p->interrupt && !*interrupted)
		{
			*interrupted = true;
			atomic_store(&e->stop, 1);
		}
	}
}

/*
 * A common start (load_point.ready): ask when the load begins and wait
 * for it, watching for an interrupt; returns that time (or now, when the
 * point is given up).  Called without e->mu.
 */
static int64_t
common_start(struct engine *e, bool *interrupted)
{
	const struct load_point *p = e->p;
	struct pgc_error rerr;
	int64_t start_ns = 0, now;

	error_clear(&rerr);
	if (p->ready(p->ready_arg, &start_ns, &rerr) < 0)
	{
		if (rerr.kind == PGC_ERR_NONE)
			error_set(&rerr, PGC_ERR_INTERNAL, "the point was given up");
		engine_fail(e, &rerr);
		return clock_now_ns();
	}
	while ((now = clock_now_ns()) < start_ns)
	{
		int64_t left = start_ns - now;
		struct timespec ts;

		if (p->interrupt && *p->interrupt)
		{
			*interrupted = true;
			atomic_store(&e->stop, 1);
			return now;
		}
		if (left > 20000000)
			left = 20000000;
		ts.tv_sec = 0;
		ts.tv_nsec = (long) left;
		nanosleep(&ts, NULL);
	}
	/* every driver counts from the agreed instant, not from its wake-up */
	return start_ns;
}

static bool
all_finished(struct engine *e)
{
	for (int i = 0; i < e->nstarted; i++)
		if (!atomic_load(&e->threads[i].finished))
			return false;
	return true;
}

/* ----------------------------------------------- warm-up until stable */

bool
load_series_stable(const double *x, int n, int half, double tolerance,
				   double *drift)
{
	const double *y;
	int m = 2 * half;
	double tm = (m - 1) / 2.0, ym = 0, sxx = 0, sxy = 0, rss = 0, b, se;

	*drift = 0;
	if (half < 2 || n < m)
		return false;
	y = x + n - m;
	for (int i = 0; i < m; i++)
		ym += y[i];
	ym /= m;
	if (ym <= 0)
		return false; /* nothing done: not a throughput to measure */
	for (int i = 0; i < m; i++)
	{
		sxx += (i - tm) * (i - tm);
		sxy += (i - tm) * (y[i] - ym);
	}
	b = sxy / sxx;
	for (int i = 0; i < m; i++)
	{
		double r = y[i] - ym - b * (i - tm);

		rss += r * r;
	}
	/*
	 * The trend over the last 2 × HALF ticks, as the change from one half
	 * to the next (HALF ticks of slope), relative to their mean; its
	 * standard error from the residuals around the line, so that a ramp
	 * is not taken for noise.
	 */
	*drift = b * half / ym;
	se = sqrt(rss / (m - 2) / sxx);
	return fabs(*drift) <= tolerance || fabs(b) <= WARM_Z * se;
}

static bool
warmup_stable_allowed(const struct load_point *p, bool txmode,
					  struct pgc_error *err)
{
	const char *why = NULL;

	if (txmode)
		why = "a number of transactions per client";
	else if (p->ready)
		why = "several drivers (--workers)";
	else if (p->log_prefix)
		why = "transaction logs (-l)";
	for (int wi = 0; wi < p->nworkloads && !why; wi++)
		if (p->workloads[wi].rate > 0)
			why = "a rate (-R)";
		else if (p->workloads[wi].timed)
			why = "a timed event (at:)";
	if (!why)
		return true;
	error_set(err, PGC_ERR_USAGE,
			  "a warm-up until stable cannot be used with %s: their "
			  "schedules count from a window known in advance",
			  why);
	return false;
}

/*
 * One tick of a stable warm-up: the point's throughput over the tick
 * appended, then judged.  True when the window has begun (stable, or the
 * longest warm-up spent): it ends DURATION later.
 */
static bool
warm_tick(struct engine *e, struct warm_watch *ww, int64_t now,
		  struct load_result *out)
{
	const struct load_point *p = e->p;
	uint64_t total = 0;
	double drift = 0;
	bool stable;

	for (int i = 0; i < e->nthreads; i++)
		total += atomic_load_explicit(&e->threads[i].warm_txns,
									  memory_order_relaxed);
	if (ww->n == ww->cap)
	{
		ww->cap = ww->cap ? ww->cap * 2 : 64;
		ww->tps = xrealloc(ww->tps, (size_t) ww->cap * sizeof(double));
	}
	ww->tps[ww->n++] =
		(double) (total - ww->last) * 1e9 / (double) (now - ww->last_ns);
	ww->last = total;
	ww->last_ns = now;
	ww->next_ns +=
		LOAD_WARM_TICK_NS; /* on the warm-up's own clock: no drift */
	stable = load_series_stable(
		ww->tps, ww->n, LOAD_WARM_HALF_TICKS,
		p->warmup_tolerance > 0 ? p->warmup_tolerance : 0.03, &drift);
	if (!stable && now - ww->began_ns < p->warmup_ns)
		return false;
	/* the end first: a thread that sees the new start sees a real end */
	atomic_store(&e->window_end_ns, now + p->duration_ns);
	atomic_store(&e->window_start_ns, now);
	ww->on = false;
	out->warmup_ns = now - ww->began_ns;
	out->warm_stable = stable;
	out->warm_drift = drift;
	out->warm_tps = ww->tps;
	out->nwarm = ww->n;
	ww->tps = NULL;
	return true;
}

/*
 * The point's threads (a workload's jobs, no more than its clients) and
 * their clients.  pgbench's split: the first (clients % jobs) threads take
 * one more.  pgbench's seeding: a base sequence from the seed gives each
 * client's random stream in client order, then :default_seed.
 */
static void
split_clients(struct engine *e)
{
	const struct load_point *p = e->p;
	int ti = 0;

	for (int wi = 0; wi < p->nworkloads; wi++)
	{
		int jobs = p->workloads[wi].jobs;

		if (jobs > p->workloads[wi].clients)
			jobs = p->workloads[wi].clients;
		e->nthreads += jobs < 1 ? 1 : jobs;
	}
	e->threads = xcalloc((size_t) e->nthreads, sizeof(struct thread));
	for (int wi = 0; wi < p->nworkloads; wi++)
	{
		const struct load_workload *w = &p->workloads[wi];
		int jobs = w->jobs > w->clients ? w->clients : w->jobs;
		uint64_t *seeds = xmalloc((size_t) w->clients * sizeof(uint64_t));
		struct prng base;
		int64_t default_seed;
		int client_base = 0;

		prng_seed(&base, p->seed + (uint64_t) wi * 1000003u);
		for (int i = 0; i < w->clients; i++)
			seeds[i] = prng_next(&base);
		default_seed = (int64_t) prng_next(&base);
		if (jobs < 1)
			jobs = 1;
		for (int j = 0; j < jobs; j++)
		{
			int n = w->clients / jobs + (j < w->clients % jobs);
			/* pgbench's per-thread choose, throttle and sample streams */
			uint64_t choose = prng_next(&base);
			uint64_t throttle = prng_next(&base);

			(void) prng_next(&base); /* sampling: no logs here */
			thread_setup(e, &e->threads[ti++], w, wi, client_base, n, seeds,
						 default_seed, choose, throttle);
			client_base += n;
		}
		free(seeds);
	}
}

/* Start the point's threads; one that cannot start fails the point. */
static void
start_threads(struct engine *e)
{
	pthread_attr_t attr;
	sigset_t all, old_mask;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, (size_t) 512 * 1024);
	/*
	 * The threads are born with every signal blocked, so that SIGINT and
	 * SIGTERM always reach the calling thread: a handler that ran on a
	 * worker would race with the flag's reader here.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old_mask);
	for (int i = 0; i < e->nthreads; i++)
	{
		int prc = pthread_create(&e->threads[i].tid, &attr, thread_main,
								 &e->threads[i]);

		if (prc != 0)
		{
			struct pgc_error perr;

			error_set(&perr, PGC_ERR_INTERNAL,
					  "could not create thread %d of %d: %s", i + 1,
					  e->nthreads, strerror(prc));
			engine_fail(e, &perr);
			break;
		}
		e->nstarted++;
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
}

/*
 * The connect phase, then the prepare phase, each timed from T_CONNECT
 * into OUT; then, after the coordinator's start when the point has one,
 * the window (or, warming up until stable, WW's watch) opens and the
 * threads are told to run.  Returns that instant.
 */
static int64_t
open_window(struct engine *e, int64_t t_connect, struct load_result *out,
			struct warm_watch *ww, bool *interrupted)
{
	const struct load_point *p = e->p;
	int64_t now, t_prepare;

	pthread_mutex_lock(&e->mu);
	wait_arrived(e, 0, interrupted);
	now = clock_now_ns();
	out->conn_ms = (double) (now - t_connect) / 1e6;
	e->phase = 1;
	pthread_cond_broadcast(&e->cv);
	wait_arrived(e, 1, interrupted);
	t_prepare = now;
	now = clock_now_ns();
	out->prepare_ms = (double) (now - t_prepare) / 1e6;
	if (p->ready && !atomic_load(&e->stop))
	{
		pthread_mutex_unlock(&e->mu);
		now = common_start(e, interrupted);
		pthread_mutex_lock(&e->mu);
	}
	if (e->txmode)
	{
		e->window_start_ns = now;
		e->window_end_ns = NO_END_NS;
	}
	else if (p->warmup_stable)
	{
		/* no window until the throughput is stable (warm_tick) */
		e->window_start_ns = NO_END_NS;
		e->window_end_ns = NO_END_NS;
		ww->on = true;
		ww->began_ns = now;
		ww->last_ns = now;
		ww->next_ns = now + LOAD_WARM_TICK_NS;
	}
	else
	{
		e->window_start_ns = now + p->warmup_ns;
		e->window_end_ns = e->window_start_ns + p->duration_ns;
	}
	out->warmup_ns = e->txmode ? 0 : p->warmup_ns;
	e->phase = 2;
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	return now;
}

/*
 * The sampler of the point's servers (none with -t: no window to sample),
 * connected, with a first sample before the load starts: the baseline of
 * the counters, should the one at the window's start fail.
 */
static void
sampler_open(const struct engine *e, struct sampler *sm)
{
	const struct load_point *p = e->p;
	int nodes = e->txmode ? 0 : p->nnodes;

	memset(sm, 0, sizeof(*sm));
	sm->nnodes = nodes;
	if (nodes == 0)
		return;
	sm->conns = xcalloc((size_t) nodes, sizeof(PGconn *));
	sm->last_commits = xcalloc((size_t) nodes, sizeof(int64_t));
	sm->last_conflicts = xcalloc((size_t) nodes, sizeof(*sm->last_conflicts));
	sm->last_second = xcalloc((size_t) nodes, sizeof(int));
	sm->have_last = xcalloc((size_t) nodes, sizeof(bool));
	probe_set_init(&sm->probes, p->probes, p->nprobes, nodes);
	for (int i = 0; i < nodes; i++)
		sm->conns[i] = sampler_connect(&p->nodes[i]);
	sample_nodes(p, sm, SAMPLE_BEFORE_LOAD);
}

/* Close SM's connections (its rows are told with the last seconds). */
static void
sampler_close(struct sampler *sm)
{
	for (int i = 0; i < sm->nnodes; i++)
		PQfinish(sm->conns[i]);
	free(sm->conns);
	free(sm->last_commits);
	free(sm->last_conflicts);
	free(sm->last_second);
	free(sm->have_last);
	if (sm->nnodes > 0)
		probe_set_release(&sm->probes);
}

/*
 * While the threads run, from the calling thread: the warm-up's watch,
 * the window's edges (the caller's profiler) and the host's steal at
 * them, fault injection, the interrupt, -P progress, and the servers'
 * samples on the window's second boundaries.  Returns when every thread
 * is done, with the steal, the warm-up's series and the samples in OUT;
 * *NOW is when it saw them done.
 */
static void
watch_window(struct engine *e, struct sampler *sm, struct load_result *out,
			 struct warm_watch *ww, struct sec_reader *rd,
			 struct sec_kept *kept, bool *interrupted, int64_t *now_out)
{
	const struct load_point *p = e->p;
	bool injected = false;
	bool edge_begun = false, edge_ended = false;
	bool steal_begun = false, steal_ended = false;
	struct cpu_times steal_a, steal_b;
	struct progress_mark *mark;
	int64_t last_ns, next_sample, next_progress, now = clock_now_ns();

	mark = xcalloc((size_t) p->nworkloads, sizeof(*mark));
	last_ns = e->window_start_ns;
	next_sample = e->window_start_ns;
	next_progress = e->window_start_ns + (int64_t) p->progress_s * 1000000000;
	while (!all_finished(e))
	{
		usleep(20000);
		now = clock_now_ns();
		if (ww->on && now >= ww->next_ns && !atomic_load(&e->stop) &&
			warm_tick(e, ww, now, out))
		{
			/* the window begins now; sampling and progress with it */
			next_sample = e->window_start_ns;
			next_progress =
				e->window_start_ns + (int64_t) p->progress_s * 1000000000;
			last_ns = e->window_start_ns;
		}
		if (p->window_edge && !e->txmode && !edge_begun &&
			now >= e->window_start_ns && now < e->window_end_ns &&
			!atomic_load(&e->stop))
		{
			edge_begun = true;
			p->window_edge(p->window_edge_arg, true);
		}
		if (edge_begun && !edge_ended &&
			(now >= e->window_end_ns || atomic_load(&e->stop)))
		{
			edge_ended = true;
			p->window_edge(p->window_edge_arg, false);
		}
		/* the hypervisor's steal over the window, read at its edges */
		if (!steal_begun && now >= atomic_load(&e->window_start_ns) &&
			!atomic_load(&e->stop))
			steal_begun = cpu_times_read(&steal_a);
		if (steal_begun && !steal_ended &&
			now >= atomic_load(&e->window_end_ns))
			steal_ended = cpu_times_read(&steal_b);
		if (!injected && now >= e->window_start_ns + 500000000)
		{
			injected = true;
			inject_point("window");
		}
		if (p->interrupt && *p->interrupt && !*interrupted)
		{
			*interrupted = true;
			atomic_store(&e->stop, 1);
		}
		if (p->progress && p->progress_s > 0 && !atomic_load(&e->stop) &&
			now >= next_progress && now <= e->window_end_ns + 500000000)
		{
			report_progress(e, now, mark, &last_ns);
			next_progress += (int64_t) p->progress_s * 1000000000;
		}
		/* samples on the window's second boundaries: the first is the
		 * baseline the counters of second 0 are taken from */
		if (sm->nnodes > 0 && now >= next_sample &&
			next_sample <= e->window_end_ns && !atomic_load(&e->stop))
		{
			int second =
				(int) ((next_sample - e->window_start_ns) / 1000000000) - 1;

			if (second < e->nseconds)
				sample_nodes(p, sm, second);
			next_sample += 1000000000;
		}
		seconds_tell(e, rd, now, false, sm->rows, &sm->nrows, kept);
	}
	if (edge_begun && !edge_ended)
		p->window_edge(p->window_edge_arg, false);
	/* -t, or stopped early: the window ended with the load */
	if (steal_begun && !steal_ended)
		steal_ended = cpu_times_read(&steal_b);
	out->steal_pct = steal_ended ? cpu_steal_pct(&steal_a, &steal_b) : -1.0;
	if (ww->on)
	{
		/* stopped before the throughput was stable: no window at all */
		out->warmup_ns = now - ww->began_ns;
		out->warm_tps = ww->tps;
		out->nwarm = ww->n;
		ww->tps = NULL;
	}
	free(mark);
	*now_out = now;
}

/* The backends that served the clients: a counted point reads theirs. */
static void
collect_backends(const struct engine *e, struct load_result *out)
{
	int nall = 0;

	for (int i = 0; i < e->nthreads; i++)
		nall += e->threads[i].nclients;
	out->backend_pids = xcalloc((size_t) nall + 1, sizeof(pid_t));
	for (int i = 0; i < e->nthreads; i++)
		for (int k = 0; k < e->threads[i].nclients; k++)
			if (e->threads[i].clients[k].backend_pid > 0)
				out->backend_pids[out->nbackend_pids++] =
					e->threads[i].clients[k].backend_pid;
}

int
load_run(const struct load_point *p, struct load_result *out,
		 struct pgc_error *err)
{
	struct engine e;
	int64_t t_connect, now;
	bool interrupted = false;
	struct warm_watch ww;
	struct sampler sm;
	struct sec_reader *rd;
	struct sec_kept kept;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->steal_pct = -1.0;
	memset(&e, 0, sizeof(e));
	memset(&ww, 0, sizeof(ww));
	e.p = p;
	e.txmode = p->nworkloads > 0;
	for (int wi = 0; wi < p->nworkloads; wi++)
		if (p->workloads[wi].transactions <= 0)
			e.txmode = false;
	if (p->warmup_stable && !warmup_stable_allowed(p, e.txmode, err))
		return -1;
	pthread_mutex_init(&e.mu, NULL);
	pthread_cond_init(&e.cv, NULL);
	e.nseconds = e.txmode ? 16 /* grows per thread as the seconds pass */
						  : (int) ((p->duration_ns + 999999999) / 1000000000);
	if (e.nseconds < 1)
		e.nseconds = 1;
	split_clients(&e);
	rd = seconds_open(&e);
	sec_kept_init(&kept, p->nworkloads);
	/* the servers' sampler connects and takes its baseline before the
	 * clients connect: its backend's start is not theirs to pay for, nor
	 * part of the connection time they report */
	sampler_open(&e, &sm);
	t_connect = clock_now_ns();
	start_threads(&e);
	(void) open_window(&e, t_connect, out, &ww, &interrupted);
	watch_window(&e, &sm, out, &ww, rd, &kept, &interrupted, &now);
	sampler_close(&sm);
	for (int i = 0; i < e.nstarted; i++)
		pthread_join(e.threads[i].tid, NULL);

	now = clock_now_ns();
	out->window_ns = (now < e.window_end_ns ? now : e.window_end_ns) -
					 atomic_load(&e.window_start_ns);
	if (out->window_ns < 0)
		out->window_ns = 0;
	if (!interrupted && !e.txmode)
		out->window_ns = p->duration_ns;
	if (e.txmode)
	{
		/* the window lasted until the last client was done */
		e.nseconds = 1;
		for (int i = 0; i < e.nstarted; i++)
			if (e.threads[i].nsec_used > e.nseconds)
				e.nseconds = e.threads[i].nsec_used;
	}
	/* the seconds left, and what came late, with the last samples */
	seconds_tell(&e, rd, now, true, sm.rows, &sm.nrows, &kept);
	free(sm.rows);
	seconds_close(rd, &e);

	if (e.first_err.kind != PGC_ERR_NONE)
	{
		*err = e.first_err;
		rc = -1;
	}
	else if (interrupted)
	{
		error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
		out->interrupted = true;
		merge_results(&e, out);
		sec_kept_move(&kept, out);
		rc = -1;
	}
	else
	{
		merge_results(&e, out);
		sec_kept_move(&kept, out);
	}
	sec_kept_release(&kept);
	collect_backends(&e, out);
	for (int i = 0; i < e.nthreads; i++)
		thread_release(&e.threads[i]);
	free(e.threads);
	pthread_mutex_destroy(&e.mu);
	pthread_cond_destroy(&e.cv);
	return rc;
}

void
load_result_release(struct load_result *r)
{
	free(r->backend_pids);
	r->backend_pids = NULL;
	r->nbackend_pids = 0;
	for (int i = 0; i < r->nworkloads; i++)
	{
		struct load_workload_result *w = &r->w[i];

		free(w->classes);
		free(w->latency);
		for (int k = 0; k < w->nscripts; k++)
		{
			free(w->scripts[k].latency);
			free(w->scripts[k].cmd_lat_sum_ns);
			free(w->scripts[k].cmd_count);
			free(w->scripts[k].cmd_failures);
			free(w->scripts[k].cmd_retries);
		}
		free(w->scripts);
		free(w->errors);
		free(w->events);
		free(w->sec_txns);
		free(w->sec_failures);
		free(w->sec_lat_sum_ns);
		free(w->sec_lat_max_ns);
	}
	free(r->w);
	for (int i = 0; i < r->nsamples; i++)
	{
		free(r->samples[i].waits);
		free(r->samples[i].probes);
	}
	free(r->samples);
	free(r->warm_tps);
	memset(r, 0, sizeof(*r));
}

uint64_t
load_result_sum_seconds(const struct load_workload_result *w)
{
	uint64_t sum = 0;

	for (int i = 0; i < w->nseconds; i++)
		sum += w->sec_txns[i];
	return sum;
}
