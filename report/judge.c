/*
 * judge.c - a comparison of stored points: read each side's points,
 * their window rows, the run's measure:, build the samples and judge
 * them (compare_samples()).  The one path from the store to a verdict:
 * compare, gate and a run that stops when decided all go through it.
 * See compare.h.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compare.h"
#include "report.h"
#include "sequential.h"
#include "store.h"

/* A copy of TEXT that lives as long as SD. */
static const char *
side_keep(struct cmp_side *sd, const char *text)
{
	sd->kept = xrealloc(sd->kept, (size_t) (sd->nkept + 1) * sizeof(char *));
	return sd->kept[sd->nkept++] = xstrdup(text ? text : "");
}

/* A new, zeroed sample of SD. */
static struct cmp_sample *
side_new_sample(struct cmp_side *sd)
{
	if (sd->nsamples == sd->asamples)
	{
		sd->asamples = sd->asamples ? 2 * sd->asamples : 64;
		sd->samples = xrealloc(sd->samples,
							   (size_t) sd->asamples * sizeof(*sd->samples));
	}
	memset(&sd->samples[sd->nsamples], 0, sizeof(*sd->samples));
	return &sd->samples[sd->nsamples++];
}

/* A new sample of SD: VALUE measured at stored point P. */
static struct cmp_sample *
point_sample(struct cmp_side *sd, const struct store_point_row *p,
			 double value)
{
	struct cmp_sample *s = side_new_sample(sd);

	s->workload = p->workload;
	s->clients = p->clients;
	s->run_id = p->run_id;
	s->block = p->repeat_idx;
	s->order_idx = p->order_idx;
	s->value = value;
	s->steal = NAN; /* a window's is not known: the point's is set below */
	return s;
}

static bool
wanted_clients(const struct cmp_query *q, int clients)
{
	if (q->npoints == 0)
		return true;
	for (int i = 0; i < q->npoints; i++)
		if (q->points[i] == clients)
			return true;
	return false;
}

static void
add_run(struct cmp_side *sd, int64_t id)
{
	for (int i = 0; i < sd->nruns; i++)
		if (sd->runs[i] == id)
			return;
	sd->runs = xrealloc(sd->runs, (size_t) (sd->nruns + 1) * sizeof(int64_t));
	sd->runs[sd->nruns++] = id;
}

/*
 * Read a side's points.  A selector that leaves the variant open must
 * meet one variant per run: comparing "run 12" when it holds two
 * variants would mix them.
 */
static int
load_side(struct store *st, struct cmp_side *sd, struct pgc_error *err)
{
	if (store_select_points(st, &sd->s, &sd->rows, &sd->nrows, err) < 0)
		return -1;
	if (sd->nrows == 0)
	{
		error_set(err, PGC_ERR_NOT_FOUND, "\"%s\" matches no stored points",
				  sd->text);
		error_hint(err, "`pgcliff list` shows the stored runs and variants");
		return -1;
	}
	if (sd->s.variant == NULL)
		for (int i = 1; i < sd->nrows; i++)
			if (sd->rows[i].run_id == sd->rows[0].run_id &&
				strcmp(sd->rows[i].variant, sd->rows[0].variant) != 0)
			{
				error_set(err, PGC_ERR_USAGE,
						  "run %" PRId64 " has several variants (%s, %s, ...):"
						  " say which one \"%s\" means",
						  sd->rows[0].run_id, sd->rows[0].variant,
						  sd->rows[i].variant, sd->text);
				error_hint(err, "e.g. %" PRId64 ":%s", sd->rows[0].run_id,
						   sd->rows[0].variant);
				return -1;
			}
	return 0;
}

/*
 * The windows of one stored point, as the run stored them: a tps sample
 * per window, and on "during" the recovery time after it.
 */
static int
add_window_samples(struct store *st, struct cmp_side *sd,
				   const struct store_point_row *p, struct pgc_error *err)
{
	struct store_window_row *win = NULL;
	int n = 0;

	if (store_get_windows(st, p->id, &win, &n, err) < 0)
		return -1;
	for (int w = 0; w < n; w++)
	{
		struct cmp_sample *s;

		if (!(win[w].tps > 0))
			continue;
		s = point_sample(sd, p, win[w].tps);
		s->tps = win[w].tps;
		/* the name outlives WIN: the side's strings are the points' */
		s->window = side_keep(sd, win[w].name);
		s->window_order = w;
		s->recovery_s = win[w].has_dip ? win[w].recovery_s : NAN;
	}
	store_windows_free(win, n);
	return 0;
}

/*
 * The dip of stored point P, as the run stored it with its windows
 * (report_windows()): *DIP and the recovery after it, NAN when the point
 * has no window with a dip (its recipe has no before and during).
 */
static int
point_dip(struct store *st, const struct store_point_row *p, double *dip,
		  double *recovery, struct pgc_error *err)
{
	struct store_window_row *win = NULL;
	int n = 0;

	*dip = *recovery = NAN;
	if (store_get_windows(st, p->id, &win, &n, err) < 0)
		return -1;
	for (int w = 0; w < n; w++)
		if (win[w].has_dip)
		{
			*dip = win[w].dip;
			*recovery = win[w].recovery_s;
		}
	store_windows_free(win, n);
	return 0;
}

/*
 * Probe figure "probe:SPEC" of stored point P: over its "during" window
 * when it has one, else over the whole point (report_probe_value()).
 */
static int
point_probe(struct store *st, const struct store_point_row *p,
			const char *full, double *v, struct pgc_error *err)
{
	struct store_window_row *win = NULL;
	struct store_sample_row *sa = NULL;
	int nwin = 0, nsa = 0, start = 0, end = INT_MAX;

	*v = NAN;
	if (store_get_windows(st, p->id, &win, &nwin, err) < 0)
		return -1;
	for (int w = 0; w < nwin; w++)
		if (strcmp(win[w].name, "during") == 0)
		{
			start = win[w].start_s;
			end = win[w].end_s;
		}
	store_windows_free(win, nwin);
	if (store_get_samples(st, p->run_id, p->order_idx, &sa, &nsa, err) < 0)
		return -1;
	*v = report_probe_value(sa, nsa, full + strlen("probe:"), start, end);
	store_samples_free(sa, nsa);
	return 0;
}

/* Whether SYMBOL is one of the '+'-separated names of LIST. */
static bool
in_list(const char *symbol, const char *list)
{
	size_t n = strlen(symbol);

	for (const char *s = list; s;
		 s = strchr(s, '+') ? strchr(s, '+') + 1 : NULL)
		if (strncmp(s, symbol, n) == 0 && (s[n] == '\0' || s[n] == '+'))
			return true;
	return false;
}

/*
 * "profile:NODE:FUNCTION[+FUNCTION...]" of stored point P: the per cent
 * of NODE's samples in those functions (self: a function the compiler
 * inlines in one build and not in another is counted either way when
 * both are named), or with "NODE+" their inclusive shares; NAN when the
 * node has no profile, 0 when none of them is among the functions stored
 * (they are the largest: the share is below the smallest of them).
 */
static int
point_profile(struct store *st, const struct store_point_row *p,
			  const char *full, double *v, struct pgc_error *err)
{
	struct store_profile_row *rows = NULL;
	char node[64];
	const char *arg = full + strlen("profile:"), *fn = strchr(arg, ':') + 1;
	bool inclusive;
	int n = 0;

	*v = NAN;
	snprintf(node, sizeof(node), "%.*s", (int) (fn - 1 - arg), arg);
	inclusive = node[0] && node[strlen(node) - 1] == '+';
	if (inclusive)
		node[strlen(node) - 1] = '\0';
	if (store_get_profile(st, p->run_id, p->order_idx, &rows, &n, err) < 0)
		return -1;
	for (int i = 0; i < n; i++)
	{
		if (strcmp(rows[i].node, node) != 0)
			continue;
		if (isnan(*v))
			*v = 0;
		if (rows[i].symbol && in_list(rows[i].symbol, fn))
			*v += inclusive ? rows[i].inclusive : rows[i].pct;
	}
	store_profile_free(rows, n);
	return 0;
}

static int
build_samples(struct store *st, struct cmp_side *sd, const struct cmp_query *q,
			  enum cmp_metric metric, const char *metric_full,
			  const char *workload, struct pgc_error *err)
{
	for (int i = 0; i < sd->nrows; i++)
	{
		const struct store_point_row *p = &sd->rows[i];
		struct cmp_sample *s;
		double v, recovery = NAN;

		if (workload && strcmp(p->workload, workload) != 0)
			continue;
		if (!wanted_clients(q, p->clients))
			continue;
		if (p->repeat_idx < sd->block_lo ||
			(sd->block_hi >= 0 && p->repeat_idx > sd->block_hi))
			continue;
		if (p->aborted_clients > 0)
		{
			/* its tps counts a window some clients left early */
			sd->skipped_aborted++;
			continue;
		}
		if (metric == CMP_DIP)
		{
			if (point_dip(st, p, &v, &recovery, err) < 0)
				return -1;
		}
		else if (metric == CMP_PROBE)
		{
			if (point_probe(st, p, metric_full, &v, err) < 0)
				return -1;
		}
		else if (metric == CMP_PROFILE)
		{
			if (point_profile(st, p, metric_full, &v, err) < 0)
				return -1;
		}
		else
			v = point_metric(p, metric);
		if (!(v > 0) || !isfinite(v))
			continue;
		s = point_sample(sd, p, v);
		s->tps = p->tps;
		s->recovery_s = recovery;
		s->steal = p->steal_pct >= 0 ? p->steal_pct : NAN;
		add_run(sd, p->run_id);
		if (metric == CMP_TPS && add_window_samples(st, sd, p, err) < 0)
			return -1;
	}
	return 0;
}

static void
make_label(struct cmp_side *sd)
{
	struct strbuf sb = STRBUF_INIT;
	const char *variant = sd->nrows ? sd->rows[0].variant : "?";

	if (sd->nruns == 1)
		strbuf_addf(&sb, "run %" PRId64, sd->runs[0]);
	else
	{
		strbuf_addf(&sb, "%d runs (", sd->nruns);
		for (int i = 0; i < sd->nruns && i < 6; i++)
			strbuf_addf(&sb, "%s%" PRId64, i ? ", " : "", sd->runs[i]);
		strbuf_addstr(&sb, sd->nruns > 6 ? ", ...)" : ")");
	}
	{
		/* what the samples are: points measured in so many blocks */
		int npts = 0, nmeas = 0, *count = NULL;
		const struct cmp_sample **first = NULL;
		bool even = true;

		for (int i = 0; i < sd->nsamples; i++)
		{
			const struct cmp_sample *x = &sd->samples[i];
			int k;

			if (x->window)
				continue;
			nmeas++;
			for (k = 0; k < npts; k++)
				if (first[k]->clients == x->clients &&
					strcmp(first[k]->workload, x->workload) == 0)
					break;
			if (k == npts)
			{
				first = xrealloc(first, (size_t) (npts + 1) *
											sizeof(const struct cmp_sample *));
				count = xrealloc(count, (size_t) (npts + 1) * sizeof(*count));
				first[npts] = x;
				count[npts++] = 0;
			}
			count[k]++;
		}
		for (int k = 1; k < npts; k++)
			even &= count[k] == count[0];
		if (npts > 0 && even)
			strbuf_addf(&sb, ", variant %s, %d point%s x %d block%s", variant,
						npts, npts == 1 ? "" : "s", count[0],
						count[0] == 1 ? "" : "s");
		else
			strbuf_addf(&sb, ", variant %s, %d measurement%s of %d point%s",
						variant, nmeas, nmeas == 1 ? "" : "s", npts,
						npts == 1 ? "" : "s");
		free(first);
		free(count);
	}
	if (sd->block_hi >= 0)
		strbuf_addf(&sb, ", blocks %d-%d", sd->block_lo + 1, sd->block_hi + 1);
	if (sd->skipped_aborted)
		strbuf_addf(&sb, " (%d point%s with aborted clients left out)",
					sd->skipped_aborted, sd->skipped_aborted == 1 ? "" : "s");
	snprintf(sd->label, sizeof(sd->label), "%s", sb.buf);
	strbuf_release(&sb);
}

/*
 * What run RUN_ID measured by default (the recipe's measure:, stored with
 * the run) into *METRIC and *WORKLOAD (NULL: every workload), its recipe
 * name into RECIPE.
 */
static int
run_defaults(struct store *st, int64_t run_id, struct cmp_side *keep,
			 bool *have_measure, enum cmp_metric *metric, char *metric_full,
			 const char **workload, const char **recipe, struct pgc_error *err)
{
	struct store_run_row run;
	const char *m;
	char why[120];

	if (store_get_run(st, run_id, &run, err) < 0)
		return -1;
	*recipe = side_keep(keep, run.recipe);
	m = run.measure;
	if (m && strchr(m, '.'))
	{
		*workload = side_keep(keep, m);
		*strchr((char *) *workload, '.') = '\0';
		m = strchr(m, '.') + 1;
	}
	*have_measure =
		m && cmp_metric_parse_full(m, metric, metric_full, why) == 0;
	if (!*have_measure)
		*workload = NULL;
	store_run_row_release(&run);
	return 0;
}

/*
 * The confidence and the "on" to judge at: Q's, or, for one run made
 * with --until-decided (its plan names the design) judged on its own
 * blocks, those of the look after the blocks it has, where Q does not
 * set them: gate then says of the stored run what the run said of itself.
 */
static void
judge_as_stored(struct store *st, const struct cmp_side *a,
				const struct cmp_side *b, const struct cmp_query *q,
				struct cmp_opts *co)
{
	struct store_run_row run;
	struct pgc_error ignored;
	json_t *plan, *seq;
	int blocks = 0;

	co->conf = q->conf;
	co->on_geomean = q->on_geomean;
	co->rule = q->rule_set ? q->rule : CMP_RULE_ESTIMATE;
	co->adjust = q->adjust_set ? q->adjust : CMP_ADJUST_STEAL;
	if ((q->conf_set && q->on_set && q->rule_set && q->adjust_set) ||
		a->nruns != 1 || b->nruns != 1 || a->runs[0] != b->runs[0] ||
		a->block_hi >= 0 || b->block_hi >= 0 ||
		store_get_run(st, a->runs[0], &run, &ignored) < 0)
		return;
	plan = run.plan ? json_loads(run.plan, 0, NULL) : NULL;
	seq = json_object_get(plan, "sequential");
	for (int i = 0; i < a->nsamples; i++)
		if (a->samples[i].block + 1 > blocks)
			blocks = a->samples[i].block + 1;
	if (json_is_object(seq))
	{
		struct seq_design d = seq_design_default(
			(int) json_integer_value(json_object_get(seq, "max_blocks")));
		const char *on = json_string_value(json_object_get(seq, "on"));
		const char *rule = json_string_value(json_object_get(seq, "rule"));
		const char *adjust = json_string_value(json_object_get(seq, "adjust"));

		d.alpha = json_real_value(json_object_get(seq, "alpha"));
		d.rho = json_real_value(json_object_get(seq, "rho"));
		/* runs stored before the schedule looked after every block */
		d.growth = json_real_value(json_object_get(seq, "growth"));
		/* a design no run can have written (a damaged or edited store)
		 * is not read: the interval would mean nothing */
		if (!(d.alpha > 0 && d.alpha < 1 && d.rho > 0 && d.rho <= 10 &&
			  d.growth >= 0 && d.growth <= 10 && d.max_blocks >= 1 &&
			  d.max_blocks <= 100000))
			d.alpha = 0;
		if (!q->conf_set && d.alpha > 0 && seq_conf_at(&d, blocks) > 0 &&
			seq_conf_at(&d, blocks) < 1)
			co->conf = seq_conf_at(&d, blocks);
		if (!q->on_set && on)
			co->on_geomean = strcmp(on, "geomean") == 0;
		/* runs from before the rule was stored judged by the strict one */
		if (!q->rule_set)
			co->rule = CMP_RULE_STRICT;
		if (!q->rule_set && rule)
			(void) cmp_rule_parse(rule, &co->rule);
		/* and before the steal adjustment was, without it */
		if (!q->adjust_set &&
			(adjust == NULL || cmp_adjust_parse(adjust, &co->adjust) < 0))
			co->adjust = CMP_ADJUST_NONE;
	}
	json_decref(plan);
	store_run_row_release(&run);
}

/*
 * The host the runs of SD ran on ("name: cpu, N cores, ..."), "several
 * hosts" if they differ; NULL if it cannot be read.  Caller frees.
 */
static char *
side_host(struct store *st, const struct cmp_side *sd, struct pgc_error *err)
{
	char *host = NULL;

	for (int i = 0; i < sd->nruns; i++)
	{
		struct store_run_row run;

		if (store_get_run(st, sd->runs[i], &run, err) < 0)
		{
			free(host);
			return NULL;
		}
		if (host == NULL)
			host = xstrdup(run.host);
		else if (strcmp(host, run.host) != 0)
		{
			free(host);
			store_run_row_release(&run);
			return xstrdup("several hosts");
		}
		store_run_row_release(&run);
	}
	return host;
}

/* Runs of one machine against another's: each label says which. */
static int
label_hosts(struct store *st, struct cmp_side *a, struct cmp_side *b,
			struct pgc_error *err)
{
	char *ha = side_host(st, a, err), *hb = ha ? side_host(st, b, err) : NULL;
	size_t n;

	if (ha == NULL || hb == NULL)
	{
		free(ha);
		return -1;
	}
	if (strcmp(ha, hb) != 0)
	{
		n = strlen(a->label);
		snprintf(a->label + n, sizeof(a->label) - n, ", on %s", ha);
		n = strlen(b->label);
		snprintf(b->label + n, sizeof(b->label) - n, ", on %s", hb);
	}
	free(ha);
	free(hb);
	return 0;
}

int
compare_stored(struct store *st, struct cmp_side *a, struct cmp_side *b,
			   const struct cmp_query *q, struct cmp_result *res,
			   struct cmp_labels *labels, struct pgc_error *err)
{
	const char *recipe = NULL, *measure_workload = NULL;
	enum cmp_metric metric = CMP_TPS, measure_metric = CMP_TPS;
	char measure_full[CMP_METRIC_NAME_MAX] = "";
	const char *metric_full;
	const char *workload = q->workload;
	bool have_measure = false;
	struct cmp_opts co;

	memset(&co, 0, sizeof(co));
	memset(res, 0, sizeof(*res));
	if (load_side(st, a, err) < 0 || load_side(st, b, err) < 0)
		return -1;
	if (run_defaults(st, b->rows[0].run_id, b, &have_measure, &measure_metric,
					 measure_full, &measure_workload, &recipe, err) < 0)
		return -1;
	metric =
		q->metric_set ? q->metric : (have_measure ? measure_metric : CMP_TPS);
	metric_full = q->metric_set ? (q->metric_full ? q->metric_full : "")
								: (have_measure ? measure_full : "");
	if (workload == NULL && have_measure)
		workload = measure_workload;
	if (build_samples(st, a, q, metric, metric_full, workload, err) < 0 ||
		build_samples(st, b, q, metric, metric_full, workload, err) < 0)
		return -1;
	if (a->nsamples == 0 || b->nsamples == 0)
	{
		error_set(err, PGC_ERR_USAGE, "no %s samples left on side %s%s%s",
				  metric_full[0] ? metric_full : cmp_metric_name(metric),
				  a->nsamples ? "B" : "A", workload ? " for workload " : "",
				  workload ? workload : "");
		error_hint(err, "check --workload, --points and blocks=");
		return -1;
	}
	make_label(a);
	make_label(b);
	if (label_hosts(st, a, b, err) < 0)
		return -1;

	/* paired when both sides come from the same runs */
	co.paired = a->nruns == b->nruns;
	for (int i = 0; i < a->nruns && co.paired; i++)
	{
		bool found = false;

		for (int j = 0; j < b->nruns; j++)
			found = found || a->runs[i] == b->runs[j];
		co.paired = found;
	}
	co.metric = metric;
	snprintf(co.metric_full, sizeof(co.metric_full), "%s", metric_full);
	co.margin = q->margin > 0 ? q->margin : cmp_metric_default_margin(metric);
	judge_as_stored(st, a, b, q, &co);
	co.seed = q->seed;
	compare_samples(a->samples, a->nsamples, b->samples, b->nsamples, &co,
					res);
	if (!q->no_why && cmp_why_stored(st, a, b, co.conf, res, err) < 0)
	{
		compare_result_free(res);
		return -1;
	}
	labels->a = a->label;
	labels->b = b->label;
	labels->recipe = recipe;
	return 0;
}

void
cmp_side_release(struct cmp_side *sd)
{
	store_points_free(sd->rows, sd->nrows);
	free(sd->samples);
	free(sd->runs);
	for (int k = 0; k < sd->nkept; k++)
		free(sd->kept[k]);
	free(sd->kept);
	sd->rows = NULL;
	sd->nrows = sd->nsamples = sd->asamples = sd->nkept = sd->nruns = 0;
	sd->samples = NULL;
	sd->runs = NULL;
	sd->kept = NULL;
	sd->skipped_aborted = 0;
}

/* One candidate against the baseline at CONF, its verdicts into DETAIL. */
static int
look_pair(struct store *st, int64_t run_id, const char *base, const char *cand,
		  const struct cmp_look *how, enum cmp_outcome *outcome,
		  struct strbuf *detail, struct pgc_error *err)
{
	struct cmp_side a, b;
	struct cmp_query q;
	struct cmp_result res;
	struct cmp_labels labels;
	int rc;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&q, 0, sizeof(q));
	a.text = a.s.variant = base;
	b.text = b.s.variant = cand;
	a.s.run_id = b.s.run_id = run_id;
	a.block_hi = b.block_hi = -1;
	q.conf = how->conf;
	q.conf_set = true;
	q.on_geomean = how->on_geomean;
	q.on_set = true;
	q.rule = how->rule;
	q.rule_set = true;
	q.adjust = how->adjust;
	q.adjust_set = true;
	q.margin = how->margin;
	if (how->metric >= 0)
	{
		q.metric_full = how->metric_full;
		q.metric = (enum cmp_metric) how->metric;
		q.metric_set = true;
	}
	q.seed = 5432;   /* gate's default: the stored run is judged alike */
	q.no_why = true; /* a look decides; nobody reads why here */
	rc = compare_stored(st, &a, &b, &q, &res, &labels, err);
	if (rc == 0)
	{
		*outcome = res.outcome;
		strbuf_addf(detail, "%s%s/%s %s", detail->len ? "; " : "", cand, base,
					cmp_outcome_name(res.outcome));
		for (int i = 0; i < res.npoints; i++)
		{
			const struct cmp_point *p = &res.points[i];

			if (p->verdict == CMP_MISSING)
				continue;
			strbuf_addf(detail, ", %s%s%s %d: %.3f ", p->workload,
						p->window ? " " : "", p->window ? p->window : "",
						p->clients, p->r.ratio);
			cmp_interval_text(detail, p->r.lo, p->r.hi);
			strbuf_addf(detail, " %s", cmp_verdict_name(p->verdict));
			/* the variance the look saw, stored with it */
			if (p->r.adjusted)
				strbuf_addf(detail,
							" (at equal steal; block sd %.3f, %.3f as "
							"measured)",
							p->r.sd_unit, p->r.sd_raw);
			else if (p->paired && isfinite(p->r.sd_unit))
				strbuf_addf(detail, " (block sd %.3f)", p->r.sd_unit);
		}
		for (int i = 0; i < res.ncurves && how->on_geomean; i++)
		{
			strbuf_addf(detail, ", geomean %s: %.3f ", res.curves[i].workload,
						res.curves[i].geo_ratio);
			cmp_interval_text(detail, res.curves[i].geo_lo,
							  res.curves[i].geo_hi);
			strbuf_addf(detail, " %s",
						cmp_verdict_name(res.curves[i].geo_verdict));
		}
		compare_result_free(&res);
	}
	cmp_side_release(&a);
	cmp_side_release(&b);
	return rc;
}

int
compare_look(struct store *st, int64_t run_id, const char *const *variants,
			 int nvariants, const struct cmp_look *how,
			 enum cmp_outcome *outcome, struct strbuf *detail,
			 struct pgc_error *err)
{
	bool any_regression = false, all_decided_no = true;

	for (int v = 1; v < nvariants; v++)
	{
		enum cmp_outcome o;

		if (look_pair(st, run_id, variants[0], variants[v], how, &o, detail,
					  err) < 0)
			return -1;
		any_regression = any_regression || o == CMP_OUTCOME_REGRESSION;
		all_decided_no = all_decided_no && o == CMP_OUTCOME_NO_REGRESSION;
	}
	*outcome = any_regression   ? CMP_OUTCOME_REGRESSION
			   : all_decided_no ? CMP_OUTCOME_NO_REGRESSION
								: CMP_OUTCOME_INCONCLUSIVE;
	return 0;
}
