/*
 * compare.c - point-by-point comparison; see compare.h.
 *
 * The verdict of a point is a pair of one-sided tests against the
 * regression bound theta (1 - margin for tps, 1 + margin for latencies):
 * REGRESSION when the ratio is shown past theta, NO-REGRESSION when it is
 * shown on the good side of it, both Holm-corrected over the judged
 * points; anything else is INCONCLUSIVE.  With one point the verdicts are
 * exactly "the 95 % interval lies wholly beyond / within the bound".
 */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static const char *const metric_names[] = {
	[CMP_TPS] = "tps",
	[CMP_LAT_AVG] = "latency_avg",
	[CMP_P50] = "p50",
	[CMP_P90] = "p90",
	[CMP_P95] = "p95",
	[CMP_P99] = "p99",
	[CMP_P999] = "p999",
	[CMP_MAX] = "max",
	[CMP_DIP] = "dip",
	[CMP_PROBE] = "probe",
	[CMP_PROFILE] = "profile",
	[CMP_INSTRUCTIONS] = "instructions",
	[CMP_L1_MISSES] = "l1_misses",
	[CMP_LL_MISSES] = "ll_misses",
};

const char *
cmp_metric_name(enum cmp_metric m)
{
	return metric_names[m];
}

int
cmp_metric_parse(const char *name, enum cmp_metric *out)
{
	for (int i = 0; i < (int) lengthof(metric_names); i++)
		if (strcmp(name, metric_names[i]) == 0 && i != CMP_PROBE &&
			i != CMP_PROFILE)
		{
			*out = (enum cmp_metric) i;
			return 0;
		}
	return -1;
}

int
cmp_metric_parse_full(const char *name, enum cmp_metric *out, char *full,
					  char *why)
{
	const char *arg;

	why[0] = '\0';
	full[0] = '\0';
	if (cmp_metric_parse(name, out) == 0)
		return 0;
	if (strlen(name) >= CMP_METRIC_NAME_MAX)
	{
		snprintf(why, 120, "a metric name of at most %d characters",
				 CMP_METRIC_NAME_MAX - 1);
		return -1;
	}
	if (strncmp(name, "probe:", 6) == 0)
	{
		const char *dot;

		arg = name + 6;
		dot = strchr(arg, '.');
		if (dot == NULL || dot == arg || dot[1] == '\0' || dot[1] == '/' ||
			dot[strlen(dot) - 1] == '/')
		{
			snprintf(why, 120,
					 "probe:PROBE.FIGURE, e.g. probe:kax.used, "
					 "probe:kax.scanned/s or probe:kax.scanned/snapshots");
			return -1;
		}
		*out = CMP_PROBE;
	}
	else if (strncmp(name, "profile:", 8) == 0)
	{
		const char *colon;

		arg = name + 8;
		colon = strchr(arg, ':');
		if (colon == NULL || colon == arg || colon[1] == '\0')
		{
			snprintf(why, 120,
					 "profile:NODE:FUNCTION, e.g. "
					 "profile:standby:GetSnapshotData");
			return -1;
		}
		*out = CMP_PROFILE;
	}
	else
		return -1;
	snprintf(full, CMP_METRIC_NAME_MAX, "%s", name);
	return 0;
}

const char *
cmp_opts_metric(const struct cmp_opts *o)
{
	return o->metric_full[0] ? o->metric_full : cmp_metric_name(o->metric);
}

bool
cmp_metric_higher_is_better(enum cmp_metric m)
{
	return m == CMP_TPS || m == CMP_DIP;
}

double
cmp_metric_default_margin(enum cmp_metric m)
{
	if (m == CMP_INSTRUCTIONS || m == CMP_L1_MISSES || m == CMP_LL_MISSES)
		return 0.01;
	return m == CMP_TPS ? 0.03 : 0.05;
}

const char *
cmp_outcome_name(enum cmp_outcome o)
{
	switch (o)
	{
		case CMP_OUTCOME_NO_REGRESSION:
			return "NO-REGRESSION";
		case CMP_OUTCOME_REGRESSION:
			return "REGRESSION";
		case CMP_OUTCOME_INCONCLUSIVE:
			return "INCONCLUSIVE";
	}
	return "?";
}

const char *
cmp_verdict_name(enum cmp_verdict v)
{
	switch (v)
	{
		case CMP_REGRESSION:
			return "REGRESSION";
		case CMP_INCONCLUSIVE:
			return "INCONCLUSIVE";
		case CMP_SAME:
			return "SAME";
		case CMP_FASTER:
			return "FASTER";
		case CMP_IMPROVED:
			return "IMPROVED";
		case CMP_MISSING:
			return "MISSING";
	}
	return "?";
}

/* ------------------------------------------------------------- points */

struct key
{
	const char *workload;
	const char *window;
	int clients;
	int window_order;
};

/* NULL (the whole point) first, then windows by name. */
static int
cmp_window(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int
cmp_key(const void *x, const void *y)
{
	const struct key *a = x, *b = y;
	int c = strcmp(a->workload, b->workload);

	/* the whole point, then its windows in the recipe's order */
	if (c == 0 && a->window && b->window)
		c = (a->window_order > b->window_order) -
			(a->window_order < b->window_order);
	if (c == 0)
		c = cmp_window(a->window, b->window);
	if (c)
		return c;
	return (a->clients > b->clients) - (a->clients < b->clients);
}

static bool
at_key(const struct cmp_sample *s, const struct key *k)
{
	return s->clients == k->clients && strcmp(s->workload, k->workload) == 0 &&
		   cmp_window(s->window, k->window) == 0;
}

/* The distinct (workload, clients) of both sides, sorted. */
static struct key *
collect_keys(const struct cmp_sample *a, int na, const struct cmp_sample *b,
			 int nb, int *nkeys)
{
	struct key *keys = xmalloc((size_t) (na + nb + 1) * sizeof(*keys));
	int n = 0;

	for (int i = 0; i < na + nb; i++)
	{
		const struct cmp_sample *s = i < na ? &a[i] : &b[i - na];
		struct key k = {s->workload, s->window, s->clients, s->window_order};
		bool seen = false;

		for (int j = 0; j < n && !seen; j++)
			seen = cmp_key(&keys[j], &k) == 0;
		if (!seen)
			keys[n++] = k;
	}
	qsort(keys, (size_t) n, sizeof(*keys), cmp_key);
	*nkeys = n;
	return keys;
}

/* Values of side S at K into OUT. */
static int
gather(const struct cmp_sample *s, int ns, const struct key *k, double *out)
{
	int n = 0;

	for (int i = 0; i < ns; i++)
		if (at_key(&s[i], k))
			out[n++] = s[i].value;
	return n;
}

/* The sample of side S at K in block BLOCK of run RUN, NULL when none. */
static const struct cmp_sample *
sample_at(const struct cmp_sample *s, int ns, const struct key *k, int64_t run,
		  int block)
{
	for (int i = 0; i < ns; i++)
		if (s[i].run_id == run && s[i].block == block && at_key(&s[i], k))
			return &s[i];
	return NULL;
}

/*
 * The pairs at K: A's values and B's of the same (run, block), and into
 * DX each pair's steal, B's minus A's (NAN when either is not known).
 */
static int
gather_pairs(const struct cmp_sample *a, int na, const struct cmp_sample *b,
			 int nb, const struct key *k, double *va, double *vb, double *dx)
{
	int n = 0;

	for (int i = 0; i < na; i++)
	{
		const struct cmp_sample *x;

		if (!at_key(&a[i], k))
			continue;
		x = sample_at(b, nb, k, a[i].run_id, a[i].block);
		if (x)
		{
			va[n] = a[i].value;
			dx[n] = x->steal - a[i].steal;
			vb[n++] = x->value;
		}
	}
	return n;
}

/* Whether every one of the N pairs' covariates DX is known. */
static bool
all_known(const double *dx, int n)
{
	for (int i = 0; i < n; i++)
		if (!isfinite(dx[i]))
			return false;
	return true;
}

/*
 * Whether a window's CPU steal moves metric M: the time a whole point took
 * does; the dip (its windows share the point's steal), what a probe
 * counts and a profile's shares do not.
 */
static bool
steal_moves(enum cmp_metric m)
{
	return m != CMP_DIP && m != CMP_PROBE && m != CMP_PROFILE &&
		   m != CMP_INSTRUCTIONS && m != CMP_L1_MISSES && m != CMP_LL_MISSES;
}

/*
 * A paired ratio of the N pairs (VA, VB) as O says: adjusted for the
 * steal differences DX where O asks for it and each pair knows its own
 * (never for windows of a point, nor where steal_moves() says no).
 */
static void
paired_ratio(const struct cmp_opts *o, const double *va, const double *vb,
			 const double *dx, int n, bool whole_point, double theta,
			 struct stats_ratio *r)
{
	if (o->adjust == CMP_ADJUST_STEAL && whole_point &&
		steal_moves(o->metric) && all_known(dx, n))
		stats_ratio_adjusted(va, vb, dx, n, o->conf, o->seed, theta, r);
	else
		stats_ratio_test(va, n, vb, n, true, o->conf, o->seed, theta, r);
}

const char *
cmp_rule_name(enum cmp_rule r)
{
	return r == CMP_RULE_STRICT ? "strict" : "estimate";
}

const char *
cmp_adjust_name(enum cmp_adjust a)
{
	return a == CMP_ADJUST_NONE ? "none" : "steal";
}

int
cmp_adjust_parse(const char *text, enum cmp_adjust *out)
{
	if (strcmp(text, "steal") == 0)
		*out = CMP_ADJUST_STEAL;
	else if (strcmp(text, "none") == 0)
		*out = CMP_ADJUST_NONE;
	else
		return -1;
	return 0;
}

int
cmp_rule_parse(const char *text, enum cmp_rule *out)
{
	if (strcmp(text, "estimate") == 0)
		*out = CMP_RULE_ESTIMATE;
	else if (strcmp(text, "strict") == 0)
		*out = CMP_RULE_STRICT;
	else
		return -1;
	return 0;
}

/*
 * The p-value of "B is worse" under the rule: against the margin's bound
 * (P_THETA, strict), or against 1 (P_ONE) when the estimate EST_LOG is
 * itself beyond the bound LOG_THETA (estimate), else 1.
 */
static double
regression_p(const struct cmp_opts *o, double est_log, double log_theta,
			 double p_theta, double p_one)
{
	bool higher = cmp_metric_higher_is_better(o->metric);

	if (o->rule == CMP_RULE_STRICT)
		return p_theta;
	return (higher ? est_log < log_theta : est_log > log_theta) ? p_one : 1;
}

static void
judge_point(const struct cmp_sample *a, int na, const struct cmp_sample *b,
			int nb, const struct key *k, const struct cmp_opts *o, double *va,
			double *vb, double *dx, struct cmp_point *p)
{
	bool higher = cmp_metric_higher_is_better(o->metric);
	double theta = higher ? 1 - o->margin : 1 + o->margin;
	int npairs = 0;

	memset(p, 0, sizeof(*p));
	p->workload = k->workload;
	p->window = k->window;
	p->window_order = k->window_order;
	p->clients = k->clients;
	p->more_repeats = -1;
	p->na = gather(a, na, k, va);
	p->median_a = p->na ? report_median(va, p->na) : NAN;
	p->nb = gather(b, nb, k, vb);
	p->median_b = p->nb ? report_median(vb, p->nb) : NAN;
	if (p->na == 0 || p->nb == 0)
	{
		p->verdict = CMP_MISSING;
		p->p_regression = p->p_no_regression = 1;
		return;
	}
	if (o->paired)
		npairs = gather_pairs(a, na, b, nb, k, va, vb, dx);
	if (o->paired && npairs >= 2)
	{
		p->paired = true;
		p->na = p->nb = npairs;
		paired_ratio(o, va, vb, dx, npairs, k->window == NULL, theta, &p->r);
	}
	else
	{
		p->na = gather(a, na, k, va);
		p->nb = gather(b, nb, k, vb);
		stats_ratio_test(va, p->na, vb, p->nb, false, o->conf, o->seed, theta,
						 &p->r);
	}
	p->p_regression = regression_p(
		o, p->r.est_log, log(theta), higher ? p->r.p_below : p->r.p_above,
		higher ? p->r.p_below_one : p->r.p_above_one);
	p->p_no_regression = higher ? p->r.p_above : p->r.p_below;
}

/* The verdict from Holm-adjusted p-values and the interval [LO, HI]. */
static enum cmp_verdict
decide(const struct cmp_opts *o, double adj_reg, double adj_no, double lo,
	   double hi)
{
	bool higher = cmp_metric_higher_is_better(o->metric);
	double half_alpha = (1 - o->conf) / 2;

	if (adj_reg < half_alpha)
		return CMP_REGRESSION;
	if (adj_no < half_alpha)
	{
		if (higher ? lo > 1 + o->margin : hi < 1 - o->margin)
			return CMP_IMPROVED;
		return (higher ? lo > 1 : hi < 1) ? CMP_FASTER : CMP_SAME;
	}
	return CMP_INCONCLUSIVE;
}

static void
verdicts(struct cmp_result *res)
{
	const struct cmp_opts *o = &res->opts;
	int m = 0;
	double *preg = xmalloc((size_t) (res->npoints + 1) * sizeof(double));
	double *pno = xmalloc((size_t) (res->npoints + 1) * sizeof(double));
	double *adj_reg = xmalloc((size_t) (res->npoints + 1) * sizeof(double));
	double *adj_no = xmalloc((size_t) (res->npoints + 1) * sizeof(double));

	for (int i = 0; i < res->npoints; i++)
		if (res->points[i].verdict != CMP_MISSING)
		{
			preg[m] = res->points[i].p_regression;
			pno[m++] = res->points[i].p_no_regression;
		}
	stats_holm_adjust(preg, m, adj_reg);
	stats_holm_adjust(pno, m, adj_no);
	for (int i = 0, j = 0; i < res->npoints; i++)
	{
		struct cmp_point *p = &res->points[i];

		if (p->verdict == CMP_MISSING)
		{
			res->nmissing++;
			continue;
		}
		p->p_regression = adj_reg[j];
		p->p_no_regression = adj_no[j++];
		p->verdict =
			decide(o, p->p_regression, p->p_no_regression, p->r.lo, p->r.hi);
		if (p->verdict == CMP_REGRESSION)
			res->nregressions++;
		else if (p->verdict == CMP_INCONCLUSIVE)
		{
			/* under the estimate rule an estimate past the margin is
			 * decided by the interval leaving 1 */
			struct stats_ratio r = p->r;
			bool higher = cmp_metric_higher_is_better(o->metric);

			if (o->rule == CMP_RULE_ESTIMATE &&
				(higher ? r.ratio < r.theta : r.ratio > r.theta))
				r.theta = 1;
			p->more_repeats = stats_repeats_to_decide(&r, o->conf, m, 100);
			res->ninconclusive++;
		}
	}
	free(preg);
	free(pno);
	free(adj_reg);
	free(adj_no);
}

/* ------------------------------------------------------------- curves */

void
cmp_curve_facts(const int *clients, const double *median_tps, int n,
				struct cmp_side_curve *c)
{
	memset(c, 0, sizeof(*c));
	for (int j = 0; j < n; j++)
		if (median_tps[j] > c->peak_tps)
		{
			c->peak_tps = median_tps[j];
			c->peak_clients = clients[j];
		}
	for (int j = 0; j < n; j++)
		if (clients[j] > c->peak_clients && median_tps[j] < c->peak_tps / 2)
		{
			c->cliff_clients = clients[j];
			break;
		}
}

static void
side_curve(const struct cmp_sample *s, int ns, const char *workload,
		   double *scratch, struct cmp_side_curve *c)
{
	int *clients = xmalloc((size_t) (ns + 1) * sizeof(int));
	double *med = xmalloc((size_t) (ns + 1) * sizeof(double));
	int n = 0;

	memset(c, 0, sizeof(*c));
	/* client counts of this workload, ascending */
	for (int i = 0; i < ns; i++)
	{
		int j;

		if (strcmp(s[i].workload, workload) != 0 || s[i].window)
			continue;
		for (j = 0; j < n && clients[j] != s[i].clients; j++)
			;
		if (j == n)
		{
			int k = n++;

			while (k > 0 && clients[k - 1] > s[i].clients)
			{
				clients[k] = clients[k - 1];
				k--;
			}
			clients[k] = s[i].clients;
		}
	}
	for (int j = 0; j < n; j++)
	{
		int m = 0;

		for (int i = 0; i < ns; i++)
			if (s[i].clients == clients[j] && s[i].window == NULL &&
				strcmp(s[i].workload, workload) == 0)
				scratch[m++] = s[i].tps;
		med[j] = report_median(scratch, m);
	}
	cmp_curve_facts(clients, med, n, c);
	free(clients);
	free(med);
}

/*
 * Geometric mean of the ratios over a workload's judged points.  Paired:
 * per block, the geometric mean of each side over the points, then the
 * paired interval over the blocks (so that points measured in one block
 * count as one piece of evidence).  Otherwise the mean of the log ratios
 * with the standard errors added as if independent.
 */
static void
geo_mean(const struct cmp_sample *a, int na, const struct cmp_sample *b,
		 int nb, const struct cmp_result *res, struct cmp_curve *c)
{
	const struct cmp_opts *o = &res->opts;
	bool higher = cmp_metric_higher_is_better(o->metric);
	double theta = higher ? 1 - o->margin : 1 + o->margin;
	double *ga = xmalloc((size_t) (na + 1) * sizeof(double));
	double *gb = xmalloc((size_t) (na + 1) * sizeof(double));
	double *gx = xmalloc((size_t) (na + 1) * sizeof(double));
	int nblocks = 0, m = 0;
	double sum = 0, var = 0, df = INFINITY;

	for (int i = 0; i < res->npoints; i++)
		if (res->points[i].verdict != CMP_MISSING &&
			res->points[i].window == NULL &&
			strcmp(res->points[i].workload, c->workload) == 0)
			m++;
	c->geo_ratio = NAN;
	c->geo_lo = 0;
	c->geo_hi = INFINITY;
	c->geo_p_regression = c->geo_p_no_regression = 1;
	c->geo_verdict = CMP_MISSING;
	if (m == 0)
		goto out;
	c->geo_verdict = CMP_INCONCLUSIVE;
	if (o->paired)
	{
		/* blocks (run, block) of A in which every judged point has a pair */
		for (int i = 0; i < na; i++)
		{
			double la = 0, lb = 0, x = 0;
			int have = 0;
			bool dup = false;

			for (int j = 0; j < i && !dup; j++)
				dup = a[j].run_id == a[i].run_id && a[j].block == a[i].block;
			if (dup)
				continue;
			for (int p = 0; p < res->npoints; p++)
			{
				const struct cmp_point *pt = &res->points[p];
				struct key k = {pt->workload, NULL, pt->clients, 0};
				const struct cmp_sample *sa, *sb;

				if (pt->verdict == CMP_MISSING || pt->window ||
					strcmp(pt->workload, c->workload) != 0)
					continue;
				sa = sample_at(a, na, &k, a[i].run_id, a[i].block);
				sb = sample_at(b, nb, &k, a[i].run_id, a[i].block);
				if (!sa || !sb || !(sa->value > 0) || !(sb->value > 0))
					break;
				la += log(sa->value);
				lb += log(sb->value);
				x += sb->steal - sa->steal;
				have++;
			}
			if (have == m)
			{
				ga[nblocks] = exp(la / m);
				gx[nblocks] = x / m; /* the block's mean steal difference */
				gb[nblocks++] = exp(lb / m);
			}
		}
		if (nblocks >= 2)
		{
			struct stats_ratio r;

			paired_ratio(o, ga, gb, gx, nblocks, true, theta, &r);
			c->geo_r = r;
			c->geo_paired = true;
			c->geo_ratio = r.ratio;
			c->geo_lo = r.lo;
			c->geo_hi = r.hi;
			c->geo_p_regression = regression_p(
				o, r.est_log, log(theta), higher ? r.p_below : r.p_above,
				higher ? r.p_below_one : r.p_above_one);
			c->geo_p_no_regression = higher ? r.p_above : r.p_below;
			goto out;
		}
	}
	for (int i = 0; i < res->npoints; i++)
	{
		const struct cmp_point *pt = &res->points[i];

		if (pt->verdict == CMP_MISSING || pt->window ||
			strcmp(pt->workload, c->workload) != 0)
			continue;
		sum += pt->r.est_log;
		var += pt->r.se_log * pt->r.se_log;
		if (pt->r.df > 0 && pt->r.df < df)
			df = pt->r.df;
	}
	c->geo_ratio = exp(sum / m);
	if (isfinite(var) && isfinite(df))
	{
		double tq = stats_t_quantile(1 - (1 - o->conf) / 2, df);
		double se = sqrt(var) / m;

		c->geo_lo = exp(sum / m - tq * se);
		c->geo_hi = exp(sum / m + tq * se);
		if (se > 0)
		{
			double below = stats_t_cdf((sum / m - log(theta)) / se, df);
			double below_one = stats_t_cdf(sum / m / se, df);

			c->geo_p_regression = regression_p(
				o, sum / m, log(theta), higher ? below : 1 - below,
				higher ? below_one : 1 - below_one);
			c->geo_p_no_regression = higher ? 1 - below : below;
		}
	}
out:
	free(ga);
	free(gb);
	free(gx);
}

/* The geometric means judged like points, Holm over the workloads. */
static void
geo_verdicts(struct cmp_result *res)
{
	int n = res->ncurves;
	double *pr = xmalloc((size_t) (n + 1) * sizeof(double));
	double *pn = xmalloc((size_t) (n + 1) * sizeof(double));
	double *ar = xmalloc((size_t) (n + 1) * sizeof(double));
	double *an = xmalloc((size_t) (n + 1) * sizeof(double));

	for (int i = 0; i < n; i++)
	{
		pr[i] = res->curves[i].geo_p_regression;
		pn[i] = res->curves[i].geo_p_no_regression;
	}
	stats_holm_adjust(pr, n, ar);
	stats_holm_adjust(pn, n, an);
	for (int i = 0; i < n; i++)
	{
		struct cmp_curve *c = &res->curves[i];

		c->geo_p_regression = ar[i];
		c->geo_p_no_regression = an[i];
		if (c->geo_verdict != CMP_MISSING)
			c->geo_verdict =
				decide(&res->opts, ar[i], an[i], c->geo_lo, c->geo_hi);
	}
	free(pr);
	free(pn);
	free(ar);
	free(an);
}

static void
curves(const struct cmp_sample *a, int na, const struct cmp_sample *b, int nb,
	   struct cmp_result *res)
{
	double *scratch = xmalloc((size_t) (na + nb + 1) * sizeof(double));

	res->curves = xcalloc((size_t) res->npoints + 1, sizeof(*res->curves));
	for (int i = 0; i < res->npoints; i++)
	{
		const struct cmp_point *p = &res->points[i];
		struct cmp_curve *c;

		if (i == 0 || strcmp(p->workload, res->points[i - 1].workload) != 0)
		{
			c = &res->curves[res->ncurves++];
			c->workload = p->workload;
			side_curve(a, na, p->workload, scratch, &c->a);
			side_curve(b, nb, p->workload, scratch, &c->b);
		}
		c = &res->curves[res->ncurves - 1];
		c->npoints++;
		if (p->verdict != CMP_MISSING && p->window == NULL &&
			p->clients >= c->top_clients)
		{
			c->top_clients = p->clients;
			c->top = p;
		}
	}
	for (int i = 0; i < res->ncurves; i++)
		geo_mean(a, na, b, nb, res, &res->curves[i]);
	geo_verdicts(res);
	free(scratch);
}

/* Median of the window WINDOW's tps at a point, NAN without samples. */
static double
window_median(const struct cmp_sample *s, int ns, const char *workload,
			  int clients, const char *window, double *scratch, bool recovery)
{
	int n = 0;

	for (int i = 0; i < ns; i++)
		if (s[i].clients == clients &&
			(window ? s[i].window && strcmp(s[i].window, window) == 0
					: s[i].window == NULL) &&
			strcmp(s[i].workload, workload) == 0 &&
			!(recovery && isnan(s[i].recovery_s)))
			/* a recovery that never came counts as the longest */
			scratch[n++] =
				recovery ? (s[i].recovery_s < 0 ? INFINITY : s[i].recovery_s)
						 : s[i].value;
	return n ? report_median(scratch, n) : NAN;
}

static void
window_side(const struct cmp_sample *s, int ns, const char *workload,
			int clients, double *scratch, struct cmp_window_side *w)
{
	w->before =
		window_median(s, ns, workload, clients, "before", scratch, false);
	w->during =
		window_median(s, ns, workload, clients, "during", scratch, false);
	w->after =
		window_median(s, ns, workload, clients, "after", scratch, false);
	w->dip = w->before > 0 ? w->during / w->before : NAN;
	w->recovery_s =
		window_median(s, ns, workload, clients, "during", scratch, true);
	if (isinf(w->recovery_s))
		w->recovery_s = -1;
}

/* The facts of a point judged on its dip: the samples are the dips. */
static void
dip_side(const struct cmp_sample *s, int ns, const char *workload, int clients,
		 double *scratch, struct cmp_window_side *w)
{
	w->before = w->during = w->after = NAN;
	w->dip = window_median(s, ns, workload, clients, NULL, scratch, false);
	w->recovery_s =
		window_median(s, ns, workload, clients, NULL, scratch, true);
	if (isinf(w->recovery_s))
		w->recovery_s = -1;
}

/*
 * Facts for every point with a "during" window on either side, or, when
 * the metric is the dip, for every point.
 */
static void
window_facts(const struct cmp_sample *a, int na, const struct cmp_sample *b,
			 int nb, struct cmp_result *res)
{
	double *scratch = xmalloc((size_t) (na + nb + 1) * sizeof(double));
	bool dip = res->opts.metric == CMP_DIP;

	res->windows = xcalloc((size_t) res->npoints + 1, sizeof(*res->windows));
	for (int i = 0; i < res->npoints; i++)
	{
		const struct cmp_point *p = &res->points[i];
		struct cmp_window_facts *f;

		if (dip && p->window == NULL)
		{
			f = &res->windows[res->nwindows++];
			f->workload = p->workload;
			f->clients = p->clients;
			dip_side(a, na, p->workload, p->clients, scratch, &f->a);
			dip_side(b, nb, p->workload, p->clients, scratch, &f->b);
			continue;
		}
		if (p->window == NULL || strcmp(p->window, "during") != 0)
			continue;
		f = &res->windows[res->nwindows++];
		f->workload = p->workload;
		f->clients = p->clients;
		window_side(a, na, p->workload, p->clients, scratch, &f->a);
		window_side(b, nb, p->workload, p->clients, scratch, &f->b);
	}
	free(scratch);
}

double
cmp_recovery_seconds(const double *tps, int n, int from, double before)
{
	for (int s = from < 0 ? 0 : from; s < n; s++)
	{
		double sum = 0;
		int k = 0;

		for (; k < 3 && s + k < n; k++)
			sum += tps[s + k];
		if (sum / k >= 0.95 * before)
			return s - from;
	}
	return -1;
}

void
compare_samples(const struct cmp_sample *a, int na, const struct cmp_sample *b,
				int nb, const struct cmp_opts *opts, struct cmp_result *out)
{
	int nkeys;
	struct key *keys = collect_keys(a, na, b, nb, &nkeys);
	double *va = xmalloc((size_t) (na + 1) * sizeof(double));
	double *vb = xmalloc((size_t) (nb + 1) * sizeof(double));
	double *dx = xmalloc((size_t) (na + 1) * sizeof(double));

	memset(out, 0, sizeof(*out));
	out->opts = *opts;
	out->points = xcalloc((size_t) nkeys + 1, sizeof(*out->points));
	out->npoints = nkeys;
	for (int i = 0; i < nkeys; i++)
		judge_point(a, na, b, nb, &keys[i], opts, va, vb, dx, &out->points[i]);
	verdicts(out);
	curves(a, na, b, nb, out);
	window_facts(a, na, b, nb, out);
	if (opts->on_geomean)
	{
		bool reg = false, undecided = out->ncurves == 0;

		for (int i = 0; i < out->ncurves; i++)
		{
			reg = reg || out->curves[i].geo_verdict == CMP_REGRESSION;
			undecided = undecided ||
						out->curves[i].geo_verdict == CMP_INCONCLUSIVE ||
						out->curves[i].geo_verdict == CMP_MISSING;
		}
		out->outcome = reg         ? CMP_OUTCOME_REGRESSION
					   : undecided ? CMP_OUTCOME_INCONCLUSIVE
								   : CMP_OUTCOME_NO_REGRESSION;
	}
	else if (out->nregressions)
		out->outcome = CMP_OUTCOME_REGRESSION;
	else if (out->ninconclusive || out->nmissing || out->npoints == 0)
		out->outcome = CMP_OUTCOME_INCONCLUSIVE;
	else
		out->outcome = CMP_OUTCOME_NO_REGRESSION;
	free(keys);
	free(va);
	free(vb);
	free(dx);
}

void
compare_result_free(struct cmp_result *r)
{
	free(r->points);
	free(r->curves);
	free(r->windows);
	cmp_why_free(r->why, r->nwhy);
	memset(r, 0, sizeof(*r));
}
