/*
 * show.c - one stored run for people, as `pgcliff show` prints it: its
 * provenance (recipe, command, host, placement, workers, each variant's
 * server, settings and build, the plan), its points, counted figures,
 * warm-ups, details (scripts, statements, retries, rate limits), looks,
 * windows and, on request, samples, profiles and series; the builds'
 * provenance (--build); the run as JSON or CSV through export.c.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "show.h"
#include "store.h"

/* JSON TEXT parsed (NULL: not JSON, or no text); json_decref() it. */
static json_t *
json_of(const char *text)
{
	return text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
}

/* The string at KEY of object J, or NULL: borrowed from J. */
static const char *
json_str(const json_t *j, const char *key)
{
	return json_string_value(json_object_get(j, key));
}

/* Who drove the clients, when worker processes did (run --workers). */
static void
print_workers(struct strbuf *out, struct store *st, int64_t run_id)
{
	struct pgc_error err;
	char *names = NULL;
	double off = 0;
	int n = 0;

	if (store_run_workers(st, run_id, &n, &names, &off, &err) == 0 && n > 0)
		strbuf_addf(
			out,
			"workers:  %d a point, driven by %s (clocks within %.2f ms of "
			"the run's)\n",
			n, names ? names : "none", off);
	free(names);
}

/* Where the run's servers and driver ran (runs before placement: none). */
static void
print_placement(struct strbuf *out, const char *plan_text)
{
	json_t *plan = json_of(plan_text);
	const json_t *p = json_object_get(plan, "placement");
	const char *mode = json_str(p, "mode");

	if (mode && strcmp(mode, "free") == 0)
		strbuf_addf(out, "placement: free (the scheduler's)\n");
	else if (mode && strcmp(mode, "auto") == 0)
		strbuf_addf(
			out,
			"placement: auto, servers on CPU %s and driver on CPU %s for "
			"points of at most %" JSON_INTEGER_FORMAT
			" client(s), free for larger ones\n",
			json_str(p, "server") ? json_str(p, "server") : "?",
			json_str(p, "driver") ? json_str(p, "driver") : "?",
			json_integer_value(json_object_get(p, "pinned_up_to_clients")));
	else if (mode)
		strbuf_addf(out,
					"placement: %s, servers on CPU %s, driver on CPU %s\n",
					mode, json_str(p, "server") ? json_str(p, "server") : "?",
					json_str(p, "driver") ? json_str(p, "driver") : "?");
	json_decref(plan);
}

/* KEY's value of J (a list) as one line of JSON after LABEL. */
static void
print_json_list(struct strbuf *out, const json_t *j, const char *key,
				const char *label)
{
	const json_t *v = json_object_get(j, key);
	char *text;

	if (v == NULL)
		return;
	text = json_dumps(v, JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
	strbuf_addf(out, "  %-10s %s\n", label, text ? text : "?");
	free(text);
}

/* show --build: each built variant's provenance, for people. */
static void
print_builds(struct strbuf *out, const struct store_variant_row *vars, int nv)
{
	int shown = 0;

	for (int i = 0; i < nv; i++)
	{
		json_t *b = json_of(vars[i].build);
		static const char *const fields[] = {"key", "identity", "installed",
											 "compiler", "built_at"};
		const char *diff;

		if (b == NULL)
			continue;
		strbuf_addf(out, "%svariant %s: built from source\n",
					shown++ ? "\n" : "", vars[i].name);
		for (size_t f = 0; f < lengthof(fields); f++)
		{
			const char *v = json_str(b, fields[f]);

			strbuf_addf(out, "  %-10s %s\n", fields[f], v ? v : "?");
		}
		print_json_list(out, b, "configure", "configure");
		print_json_list(out, b, "defines", "defines");
		/* the patches' texts are in the diff: count them only */
		strbuf_addf(out, "  %-10s %zu\n", "patches",
					json_array_size(json_object_get(b, "patches")));
		diff = json_str(b, "diff");
		strbuf_addf(out, "  diff:\n%s", diff && diff[0] ? diff : "  (none)\n");
		json_decref(b);
	}
	if (shown == 0)
		strbuf_addf(out, "no variant of this run was built from source\n");
}

/* --until-decided: every look, its confidence and why the run stopped. */
static int
print_looks(struct strbuf *out, struct store *st, int64_t run_id,
			struct pgc_error *err)
{
	struct store_look *l = NULL;
	int n = 0;

	if (store_get_looks(st, run_id, &l, &n, err) < 0)
		return -1;
	if (n > 0)
		strbuf_addf(
			out,
			"\nlooks (--until-decided; intervals at the look's confidence, "
			"alpha spending):\n");
	for (int i = 0; i < n; i++)
		strbuf_addf(
			out,
			"  look %d after %d blocks, %.1f s, %.2f %%: %s%s%s\n    %s\n",
			l[i].look, l[i].blocks, l[i].elapsed_s, 100 * l[i].confidence,
			l[i].outcome, l[i].stop ? ", stop: " : "",
			l[i].stop ? l[i].stop : "", l[i].detail ? l[i].detail : "");
	store_looks_free(l, n);
	return 0;
}

static void
print_points(struct strbuf *out, const struct store_point_row *p, int n)
{
	strbuf_addf(
		out,
		"\n%5s %-12s %-12s %7s %5s %4s %12s %10s %8s %9s %9s %9s %9s %9s "
		"%8s %8s\n",
		"order", "variant", "workload", "clients", "jobs", "rep",
		"transactions", "tps", "failed", "avg ms", "p50 ms", "p90 ms",
		"p99 ms", "max ms", "conn ms", "prep ms");
	for (int i = 0; i < n; i++)
		strbuf_addf(
			out,
			"%5d %-12s %-12s %7d %5d %4d %12" PRIu64 " %10.1f %8" PRIu64
			" %9.3f %9.3f %9.3f %9.3f %9.3f %8.1f %8.1f%s%s\n",
			p[i].order_idx, p[i].variant, p[i].workload, p[i].clients,
			p[i].jobs, p[i].repeat_idx + 1, p[i].transactions, p[i].tps,
			p[i].failures, p[i].lat_avg_ms, p[i].lat_p50_ms, p[i].lat_p90_ms,
			p[i].lat_p99_ms, p[i].lat_max_ms, p[i].conn_ms, p[i].prepare_ms,
			strcmp(p[i].failures_by_class, "{}") ? "  failures " : "",
			strcmp(p[i].failures_by_class, "{}") ? p[i].failures_by_class
												 : "");
}

/* Mean of X[FROM, FROM + N) clipped to the series. */
static double
ticks_mean(const json_t *x, size_t from, size_t n)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = from; i < from + n && i < json_array_size(x); i++, k++)
		sum += json_number_value(json_array_get(x, i));
	return k ? sum / (double) k : 0;
}

/*
 * The points whose warm-up ran until stable: how long, whether it was
 * found stable, the drift last judged, and the throughput of its first
 * and last second (what was discarded).
 */
static void
print_warmups(struct strbuf *out, const struct store_point_row *p, int n)
{
	bool header = false;

	for (int i = 0; i < n; i++)
	{
		json_t *w = json_of(p[i].warmup);
		json_t *tps = json_object_get(w, "tps");
		size_t nt = json_array_size(tps);

		if (!w || !tps)
		{
			json_decref(w);
			continue;
		}
		if (!header)
		{
			strbuf_addf(
				out,
				"\nwarm-up until stable (ticks of %.0f ms; the last 2 s "
				"against the 2 s before, within %.0f %% or the noise; at "
				"most %g s):\n"
				"%5s %-12s %-12s %7s %4s %9s %7s %8s %12s %12s\n",
				json_number_value(json_object_get(w, "tick_s")) * 1000,
				json_number_value(json_object_get(w, "tolerance")) * 100,
				json_number_value(json_object_get(w, "max_s")), "order",
				"variant", "workload", "clients", "rep", "warm-up", "stable",
				"drift", "first s tps", "last s tps");
			header = true;
		}
		strbuf_addf(
			out,
			"%5d %-12s %-12s %7d %4d %7.2f s %7s %+7.1f%% %12.0f %12.0f\n",
			p[i].order_idx, p[i].variant, p[i].workload, p[i].clients,
			p[i].repeat_idx + 1, p[i].warmup_s,
			json_is_true(json_object_get(w, "stable")) ? "yes" : "no",
			json_number_value(json_object_get(w, "drift")) * 100,
			ticks_mean(tps, 0, 4), ticks_mean(tps, nt > 4 ? nt - 4 : 0, 4));
		json_decref(w);
	}
}

/*
 * Below the table, for the points that have them: scale, retries, rate
 * limit figures, several scripts, and -r's statement latencies.
 */
static int
print_details(struct strbuf *out, struct store *st,
			  const struct store_point_row *p, int n, struct pgc_error *err)
{
	for (int i = 0; i < n; i++)
	{
		struct store_script_row *sc = NULL;
		int nsc = 0;
		bool statements = false;

		if (store_get_scripts(st, p[i].id, &sc, &nsc, err) < 0)
		{
			store_scripts_free(sc, nsc);
			return -1;
		}
		for (int k = 0; k < nsc; k++)
			statements |= sc[k].nstatements > 0;
		if (p[i].retried || p[i].skipped || p[i].late || p[i].lag_max_ms > 0 ||
			nsc > 1 || statements)
		{
			strbuf_addf(out,
						"\npoint %d (%s, %d clients, repeat %d): scale %d",
						p[i].order_idx, p[i].workload, p[i].clients,
						p[i].repeat_idx + 1, p[i].scale);
			if (p[i].retried)
				strbuf_addf(out, ", %" PRIu64 " retried (%" PRIu64 " retries)",
							p[i].retried, p[i].retries);
			if (p[i].skipped || p[i].late)
				strbuf_addf(out, ", %" PRIu64 " skipped, %" PRIu64 " late",
							p[i].skipped, p[i].late);
			if (p[i].lag_max_ms > 0)
				strbuf_addf(out, ", schedule lag avg %.3f (max %.3f) ms",
							p[i].lag_avg_ms, p[i].lag_max_ms);
			strbuf_addch(out, '\n');
			for (int k = 0; k < nsc; k++)
			{
				if (nsc > 1)
					strbuf_addf(out,
								"  script %d: %s, weight %d: %" PRIu64
								" transactions, %" PRIu64 " failed, %" PRIu64
								" retried, latency avg %.3f ms\n",
								k + 1, sc[k].name, sc[k].weight,
								sc[k].transactions, sc[k].failures,
								sc[k].retried, sc[k].lat_avg_ms);
				for (int c = 0; c < sc[k].nstatements; c++)
					strbuf_addf(out,
								"    %11.3f ms %8" PRIu64 " failed %8" PRIu64
								" retried  line %d: %s\n",
								sc[k].statements[c].lat_avg_ms,
								sc[k].statements[c].failures,
								sc[k].statements[c].retries,
								sc[k].statements[c].line,
								sc[k].statements[c].command);
			}
		}
		store_scripts_free(sc, nsc);
	}
	return 0;
}

/* Add the counts of JSON object TEXT ({"a": 1, ...}) into NAMES/COUNTS. */
static void
add_waits(const char *text, char names[][64], int64_t *counts, int *n, int max)
{
	json_t *j = json_of(text);
	const char *name;
	json_t *v;

	json_object_foreach(j, name, v)
	{
		int k;

		for (k = 0; k < *n; k++)
			if (strcmp(names[k], name) == 0)
				break;
		if (k == *n && *n < max)
			snprintf(names[(*n)++], 64, "%s", name);
		if (k < max)
			counts[k] += json_integer_value(v);
	}
	json_decref(j);
}

/* The recipe's probes of NODE over window W, one line if it had any. */
static void
print_window_probes(struct strbuf *out, const struct store_sample_row *sa,
					int n, const char *node, const struct store_window_row *w)
{
	struct report_probe_figure *f = NULL;
	int nf = report_probe_figures(sa, n, node, w->start_s, w->end_s, &f);

	if (nf > 0)
	{
		strbuf_addf(out, "    %-7s %-8s probes:", w->name, node);
		for (int i = 0; i < nf; i++)
			strbuf_addf(out, "%s %s %.6g", i ? "," : "", f[i].name,
						f[i].value);
		strbuf_addch(out, '\n');
	}
	report_probe_figures_free(f, nf);
}

/* The plan step's samples of each node over each window: the top waits. */
static int
print_window_samples(struct strbuf *out, struct store *st, int64_t run_id,
					 int order_idx, const struct store_window_row *win,
					 int nwin, struct pgc_error *err)
{
	struct store_sample_row *sa = NULL;
	int n = 0;

	if (store_get_samples(st, run_id, order_idx, &sa, &n, err) < 0)
		return -1;
	for (int w = 0; w < nwin; w++)
		for (int i = 0; i < n; i++)
		{
			char names[32][64];
			int64_t counts[32] = {0}, lagmax = 0, commits = 0;
			int nn = 0, k;
			const char *node = sa[i].node;

			if (i > 0 && strcmp(sa[i - 1].node, node) == 0)
				continue; /* once per node */
			for (k = i; k < n && strcmp(sa[k].node, node) == 0; k++)
				if (sa[k].second >= win[w].start_s &&
					sa[k].second < win[w].end_s && sa[k].ok)
				{
					add_waits(sa[k].waits, names, counts, &nn, 32);
					commits += sa[k].commits;
					if (sa[k].lag_bytes > lagmax)
						lagmax = sa[k].lag_bytes;
				}
			strbuf_addf(out, "    %-7s %-8s commits/s %.0f", win[w].name, node,
						(double) commits / (win[w].end_s - win[w].start_s));
			if (strcmp(node, "standby") == 0)
				strbuf_addf(out, ", replay lag max %" PRId64 " bytes", lagmax);
			strbuf_addf(out, ", waits:");
			/* the three most seen, in sample-seconds */
			for (int top = 0; top < 3; top++)
			{
				int best = -1;

				for (int j = 0; j < nn; j++)
					if (counts[j] > 0 &&
						(best < 0 || counts[j] > counts[best]))
						best = j;
				if (best < 0)
					break;
				strbuf_addf(out, " %s %" PRId64, names[best], counts[best]);
				counts[best] = -counts[best];
			}
			strbuf_addch(out, '\n');
			print_window_probes(out, sa, n, node, &win[w]);
		}
	store_samples_free(sa, n);
	return 0;
}

/*
 * The windows of each point, as the run stored them: tps in each, and
 * with before and during the dip (during/before) and the recovery time
 * (seconds after "during" until the 3-second tps is back within 5 % of
 * "before"); then each plan step's server samples over the same windows.
 */
static int
print_windows(struct strbuf *out, struct store *st,
			  const struct store_run_row *run, const struct store_point_row *p,
			  int n, struct pgc_error *err)
{
	bool several = run->variants && strchr(run->variants, ',') != NULL;
	bool header = false, done_step = false;

	for (int i = 0; i < n; i++)
	{
		struct store_window_row *win = NULL;
		int nwin = 0;

		if (store_get_windows(st, p[i].id, &win, &nwin, err) < 0)
			return -1;
		if (nwin == 0)
		{
			store_windows_free(win, nwin);
			continue; /* a timed event, or no windows: nothing to say */
		}
		if (!header)
			strbuf_addf(
				out,
				"\nwindows (tps per window; dip = during/before; recovery "
				"after during):\n");
		header = true;
		strbuf_addf(out, "  point %d %-12s %5d clients:", p[i].order_idx,
					p[i].workload, p[i].clients);
		for (int w = 0; w < nwin; w++)
			strbuf_addf(out, "  %s %.1f", win[w].name, win[w].tps);
		for (int w = 0; w < nwin; w++)
			if (win[w].has_dip)
			{
				strbuf_addf(out, "  dip %.3f", win[w].dip);
				if (win[w].recovery_s >= 0)
					strbuf_addf(out, "  recovery %.0f s", win[w].recovery_s);
				else
					strbuf_addf(out, "  recovery: not within the run");
			}
		if (several)
			strbuf_addf(out, "  (%s)", p[i].variant);
		strbuf_addch(out, '\n');
		store_windows_free(win, nwin);
	}
	/* each plan step's samples over the windows of its points */
	for (int i = 0; i < n && header; i++)
	{
		struct store_window_row *win = NULL;
		int nwin = 0, rc;

		if (i > 0 && p[i - 1].order_idx == p[i].order_idx && done_step)
			continue;
		if (store_get_windows(st, p[i].id, &win, &nwin, err) < 0)
			return -1;
		rc = nwin ? print_window_samples(out, st, run->id, p[i].order_idx, win,
										 nwin, err)
				  : 0;
		done_step = nwin > 0;
		store_windows_free(win, nwin);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* show --samples: every sample of every plan step. */
static int
print_samples(struct strbuf *out, struct store *st, int64_t run_id,
			  const struct store_point_row *p, int np, struct pgc_error *err)
{
	for (int i = 0; i < np; i++)
	{
		struct store_sample_row *sa = NULL;
		int n = 0;

		if (i > 0 && p[i - 1].order_idx == p[i].order_idx)
			continue;
		if (store_get_samples(st, run_id, p[i].order_idx, &sa, &n, err) < 0)
			return -1;
		if (n > 0)
			strbuf_addf(
				out,
				"\nsamples of plan step %d:\n%-8s %6s %8s %10s %8s %7s  %s\n",
				p[i].order_idx, "node", "second", "commits", "lag bytes",
				"lag s", "cost ms", "waits / conflicts");
		for (int k = 0; k < n; k++)
		{
			if (!sa[k].ok)
			{
				strbuf_addf(out, "%-8s %6d  %s\n", sa[k].node, sa[k].second,
							sa[k].error ? sa[k].error : "no sample");
				continue;
			}
			strbuf_addf(out, "%-8s %6d %8" PRId64, sa[k].node, sa[k].second,
						sa[k].commits);
			if (sa[k].standby)
				strbuf_addf(out, " %10" PRId64 " %8.3f", sa[k].lag_bytes,
							sa[k].lag_s);
			else
				strbuf_addf(out, " %10s %8s", "-", "-");
			strbuf_addf(out, " %7.2f  %s %s%s%s\n", sa[k].query_ms,
						sa[k].waits ? sa[k].waits : "",
						sa[k].conflicts ? sa[k].conflicts : "",
						sa[k].probes ? " probes " : "",
						sa[k].probes ? sa[k].probes : "");
		}
		store_samples_free(sa, n);
	}
	return 0;
}

/* How many functions of each node's profile show --profile prints. */
#define SHOW_PROFILE_TOP 20

static int
by_inclusive(const void *a, const void *b)
{
	const struct store_profile_row *x =
		*(const struct store_profile_row *const *) a;
	const struct store_profile_row *y =
		*(const struct store_profile_row *const *) b;

	return (x->inclusive < y->inclusive) - (x->inclusive > y->inclusive);
}

/* One node's functions (ROWS[0..N), after its whole): by self share, and
 * with call graphs by inclusive share too. */
static void
print_node_profile(struct strbuf *out, const struct store_profile_row *rows,
				   int n, bool cg)
{
	const struct store_profile_row **incl;
	int shown = 0;

	strbuf_addf(out, "  %7s %s%8s  %-20s %s\n", "self", cg ? "    incl " : "",
				"samples", "module", "function");
	for (int k = 0; k < n && shown < SHOW_PROFILE_TOP; k++, shown++)
	{
		if (cg && rows[k].inclusive >= 0)
			strbuf_addf(out, "  %6.2f%%  %6.2f%% %8" PRIu64 "  %-20s %s\n",
						rows[k].pct, rows[k].inclusive, rows[k].samples,
						rows[k].dso, rows[k].symbol);
		else
			strbuf_addf(out, "  %6.2f%% %s%8" PRIu64 "  %-20s %s\n",
						rows[k].pct, cg ? "        - " : "", rows[k].samples,
						rows[k].dso, rows[k].symbol);
	}
	if (!cg || n == 0)
		return;
	incl = xcalloc((size_t) n, sizeof(const struct store_profile_row *));
	for (int k = 0; k < n; k++)
		incl[k] = &rows[k];
	qsort(incl, (size_t) n, sizeof(const struct store_profile_row *),
		  by_inclusive);
	strbuf_addf(out, "  by inclusive share (its samples and its callees'):\n");
	for (int k = 0; k < n && k < SHOW_PROFILE_TOP && incl[k]->inclusive >= 0;
		 k++)
		strbuf_addf(out, "  %6.2f%%  %6.2f%% %8" PRIu64 "  %-20s %s\n",
					incl[k]->pct, incl[k]->inclusive, incl[k]->samples,
					incl[k]->dso, incl[k]->symbol);
	free(incl);
}

/* A counted run's figures per point (run --count, cost.h). */
static void
print_counts(struct strbuf *out, const struct store_run_row *run,
			 const struct store_point_row *p, int np)
{
	bool any = false;

	for (int i = 0; i < np && !any; i++)
		any = p[i].counted > 0;
	if (!any)
		return;
	{
		json_t *plan = json_of(run->plan);
		json_t *count = json_object_get(plan, "count");

		strbuf_addf(
			out,
			"\ncounted on the primary per transaction, by %s's callgrind "
			"(%s), over %" PRIu64 " transactions per client after %" PRIu64
			" warm:\nwork, not time: waits on locks, I/O and the network "
			"are invisible to it\n",
			json_str(count, "valgrind") ? json_str(count, "valgrind")
										: "valgrind",
			json_str(count, "tool") ? json_str(count, "tool") : "callgrind",
			p[0].counted,
			(uint64_t) json_integer_value(json_object_get(count, "warm")));
		json_decref(plan);
	}
	strbuf_addf(out, "%5s %-12s %-12s %7s %4s %14s %11s %11s\n", "order",
				"variant", "workload", "clients", "rep", "instructions",
				"l1_misses", "ll_misses");
	for (int i = 0; i < np; i++)
		if (p[i].counted > 0)
			strbuf_addf(out, "%5d %-12s %-12s %7d %4d %14.1f %11.2f %11.3f\n",
						p[i].order_idx, p[i].variant, p[i].workload,
						p[i].clients, p[i].repeat_idx + 1, p[i].cost[0],
						p[i].cost[1], p[i].cost[2]);
}

/* show --profile: each plan step's profile, per node. */
static int
print_profiles(struct strbuf *out, struct store *st, int64_t run_id,
			   const struct store_point_row *p, int np, struct pgc_error *err)
{
	bool any = false;

	for (int i = 0; i < np; i++)
	{
		struct store_profile_row *pr = NULL;
		int n = 0;

		if (i > 0 && p[i - 1].order_idx == p[i].order_idx)
			continue;
		if (store_get_profile(st, run_id, p[i].order_idx, &pr, &n, err) < 0)
			return -1;
		for (int k = 0; k < n; k++)
		{
			int end = k + 1;

			if (pr[k].dso != NULL)
				continue;
			any = true;
			while (end < n && pr[end].dso != NULL)
				end++;
			if (pr[k].hz == 0)
				/* a counted point's (run --count): not perf's samples */
				strbuf_addf(
					out,
					"\nfunctions of plan step %d (%s, %d clients), %s: "
					"%" PRIu64 " instructions per transaction, counted "
					"by callgrind (self: not their callees'); the "
					"counts column is instructions per transaction\n",
					p[i].order_idx, p[i].variant, p[i].clients, pr[k].node,
					pr[k].samples);
			else
				strbuf_addf(out,
							"\nprofile of plan step %d (%s, %d clients), %s: "
							"%" PRIu64 " samples at %d Hz%s%s\n",
							p[i].order_idx, p[i].variant, p[i].clients,
							pr[k].node, pr[k].samples, pr[k].hz,
							pr[k].inclusive >= 0 ? ", with call graphs" : "",
							pr[k].samples ? ""
										  : " (none: the server was idle)");
			if (pr[k].samples)
				print_node_profile(out, pr + k + 1, end - k - 1,
								   pr[k].inclusive >= 0);
			k = end - 1;
		}
		store_profile_free(pr, n);
	}
	if (!any)
		strbuf_addf(
			out, "\nno profiles: the run was made without --profile (or perf "
				 "could not sample; its start said why)\n");
	return 0;
}

/*
 * show --format json|csv: RUN's variants, points (and series) through
 * the one owner of these documents, report/export.c.
 */
int
report_show_export(struct strbuf *out, struct store *st,
				   const struct store_run_row *run, bool series, bool csv,
				   struct pgc_error *err)
{
	struct report_export_run x;
	struct store_variant_row *vars = NULL;
	struct store_point_row *points = NULL;
	struct store_series_row **ser = NULL;
	int *nser = NULL, nv = 0, np = 0, rc = -1;

	memset(&x, 0, sizeof(x));
	if (store_get_variants(st, run->id, &vars, &nv, err) < 0 ||
		store_get_points(st, run->id, &points, &np, err) < 0)
		goto done;
	if (series)
	{
		ser = xcalloc((size_t) np + 1, sizeof(struct store_series_row *));
		nser = xcalloc((size_t) np + 1, sizeof(*nser));
		for (int i = 0; i < np; i++)
			if (store_get_series(st, points[i].id, &ser[i], &nser[i], err) < 0)
				goto done;
	}
	x.run = run;
	x.variants = vars;
	x.nvariants = nv;
	x.points = points;
	x.npoints = np;
	x.series = ser;
	x.nseries = nser;
	if (!csv)
		report_run_export(out, &x);
	else if (series)
		report_series_csv(out, &x);
	else
		report_points_csv(out, &x);

	rc = 0;
done:
	for (int i = 0; ser && i < np; i++)
		free(ser[i]);
	free(ser);
	free(nser);
	store_points_free(points, np);
	store_variants_free(vars, nv);
	return rc;
}

/*
 * The run's provenance for people: status, times, recipe, command,
 * scripts, host, placement, workers, each variant's server, settings and
 * build, and the plan.  A store error is left in ERR.
 */
static int
print_run(struct strbuf *out, struct store *st, const struct report_show *o,
		  const struct store_run_row *r, struct pgc_error *err)
{
	struct store_variant_row *vars = NULL;
	int nv = 0, rc;

	strbuf_addf(out, "run %" PRId64 ": recipe %s, status %s\n", r->id,
				r->recipe, r->dead ? "dead" : r->status);
	if (r->error)
		strbuf_addf(out, "error:    %s\n", r->error);
	strbuf_addf(out, "started:  %s UTC\nended:    %s%s\n", r->started_at,
				r->ended_at ? r->ended_at
				: r->dead ? "never: the process writing it died (status dead)"
						  : "not yet (running)",
				r->ended_at ? " UTC" : "");
	strbuf_addf(out, "recipe:   %s (sha256 %s)\n",
				r->recipe_path ? r->recipe_path : "?", r->recipe_sha256);
	strbuf_addf(out, "command:  %s\n", r->command_line);
	if (o->logs)
		strbuf_addf(out, "logs:     %s (the servers' logs, kept)\n", o->logs);
	if (r->script_files)
	{
		int nfiles = 0;

		for (const char *f = r->script_files; (f = strstr(f, "-- file: "));
			 f++)
			nfiles++;
		strbuf_addf(
			out, "scripts:  %d file%s stored with the run (show --scripts)\n",
			nfiles, nfiles == 1 ? "" : "s");
	}
	strbuf_addf(out, "pgcliff:  %s, seed %" PRIu64 "\n", r->tool_version,
				(uint64_t) r->seed);
	strbuf_addf(out, "host:     %s\n", r->host);
	print_placement(out, r->plan);
	print_workers(out, st, r->id);
	if ((rc = store_get_variants(st, r->id, &vars, &nv, err)) == 0)
		for (int i = 0; i < nv; i++)
		{
			strbuf_addf(out, "variant %s (%s): PostgreSQL %s%s%s%s%s\n",
						vars[i].name, vars[i].kind,
						vars[i].server_version ? vars[i].server_version : "?",
						vars[i].bindir ? ", bindir " : "",
						vars[i].bindir ? vars[i].bindir : "",
						vars[i].target ? ", target " : "",
						vars[i].target ? vars[i].target : "");
			strbuf_addf(out, "  recipe settings:      %s\n",
						vars[i].gucs ? vars[i].gucs : "{}");
			strbuf_addf(out, "  non-default settings: %s\n",
						vars[i].settings ? vars[i].settings : "{}");
			if (vars[i].pg_config)
				strbuf_addf(out, "  pg_config:            %s\n",
							vars[i].pg_config);
			if (vars[i].build)
			{
				json_t *b = json_of(vars[i].build);
				const char *ident = json_str(b, "identity");
				const char *key = json_str(b, "key");

				strbuf_addf(out,
							"  build:                %s, %s, defines %s "
							"(show --build)\n",
							key ? key : "?", ident ? ident : "?",
							vars[i].defines ? vars[i].defines : "{}");
				json_decref(b);
			}
		}
	if (nv > 1)
	{
		json_t *plan = json_of(r->plan);
		const char *restart = json_str(plan, "restart");

		strbuf_addf(
			out,
			"plan:     %d variants in counterbalanced blocks (AB, BA, ...), "
			"points shuffled with seed %" PRId64 "%s\n",
			nv, r->seed,
			restart && strcmp(restart, "block") == 0
				? ", each server restarted per block"
				: "");
		json_decref(plan);
	}
	store_variants_free(vars, nv);
	return rc;
}

/* Each point's per-second series, with its timed events' starts marked. */
static int
print_series(struct strbuf *out, struct store *st,
			 const struct store_point_row *points, int np,
			 struct pgc_error *err)
{
	for (int i = 0; i < np; i++)
	{
		struct store_series_row *s = NULL;
		struct store_event_row *ev = NULL;
		int ns = 0, nev = 0;

		if (store_get_series(st, points[i].id, &s, &ns, err) < 0)
		{
			free(s); /* the rows read before the error */
			return -1;
		}
		strbuf_addf(out,
					"\nseries of point %d (%s, %d clients, repeat %d):\n"
					"%6s %12s %8s %9s %9s\n",
					points[i].order_idx, points[i].workload, points[i].clients,
					points[i].repeat_idx + 1, "second", "transactions",
					"failed", "avg ms", "max ms");
		if (store_get_events(st, points[i].id, &ev, &nev, err) < 0)
		{
			free(s);
			free(ev);
			return -1;
		}
		for (int k = 0; k < ns; k++)
		{
			strbuf_addf(out, "%6d %12" PRIu64 " %8" PRIu64 " %9.3f %9.3f",
						s[k].second, s[k].transactions, s[k].failures,
						s[k].lat_avg_ms, s[k].lat_max_ms);
			/* a timed event's starts, marked on their second */
			for (int e = 0; e < nev; e++)
				if ((int) ev[e].actual_s == s[k].second)
					strbuf_addf(out,
								"  <- event %d started at %.3f s "
								"(planned %.3f s)",
								ev[e].seq + 1, ev[e].actual_s,
								ev[e].planned_s);
			strbuf_addch(out, '\n');
		}
		free(s);
		free(ev);
	}
	return 0;
}

int
report_show_builds(struct strbuf *out, struct store *st, int64_t run_id,
				   struct pgc_error *err)
{
	struct store_variant_row *vars = NULL;
	int nv = 0, rc;

	if ((rc = store_get_variants(st, run_id, &vars, &nv, err)) == 0)
		print_builds(out, vars, nv);
	store_variants_free(vars, nv);
	return rc;
}

int
report_show_run(struct strbuf *out, struct store *st,
				const struct store_run_row *run, const struct report_show *o,
				struct pgc_error *err)
{
	struct store_point_row *points = NULL;
	struct report_steal steal = {0};
	struct strbuf line = STRBUF_INIT;
	int np = 0, rc = -1;

	if (print_run(out, st, o, run, err) < 0 ||
		store_get_points(st, run->id, &points, &np, err) < 0)
		return -1;
	print_points(out, points, np);
	print_counts(out, run, points, np);
	print_warmups(out, points, np);
	for (int i = 0; i < np; i++)
		report_steal_add(&steal, points[i].steal_pct);
	report_steal_describe(&steal, &line);
	if (line.len)
		strbuf_addf(out, "%s\n", line.buf);
	strbuf_release(&line);
	if (print_details(out, st, points, np, err) == 0 &&
		print_looks(out, st, run->id, err) == 0 &&
		print_windows(out, st, run, points, np, err) == 0 &&
		(!o->samples ||
		 print_samples(out, st, run->id, points, np, err) == 0) &&
		(!o->profiles ||
		 print_profiles(out, st, run->id, points, np, err) == 0))
	{
		rc = 0;
		if (o->series && print_series(out, st, points, np, err) < 0)
			rc = -1;
	}
	store_points_free(points, np);
	return rc;
}
