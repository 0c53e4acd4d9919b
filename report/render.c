/*
 * render.c - a comparison as text (the table for a mail), Markdown (a PR
 * comment, and GitHub's job summary), JSON (versioned, documented in
 * report/FORMATS.md), JUnit XML (a testcase per point, a failure per
 * regression) and GitHub's annotations (an error per regression).
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "compare.h"
#include "json_int.h"
#include "report.h"

int
cmp_format_parse(const char *name, enum cmp_format *out)
{
	if (strcmp(name, "text") == 0)
		*out = CMP_FORMAT_TEXT;
	else if (strcmp(name, "markdown") == 0 || strcmp(name, "md") == 0)
		*out = CMP_FORMAT_MARKDOWN;
	else if (strcmp(name, "json") == 0)
		*out = CMP_FORMAT_JSON;
	else if (strcmp(name, "junit") == 0)
		*out = CMP_FORMAT_JUNIT;
	else if (strcmp(name, "github") == 0)
		*out = CMP_FORMAT_GITHUB;
	else
		return -1;
	return 0;
}

void
cmp_md_escape(struct strbuf *out, const char *s)
{
	s = s ? s : "";
	for (const char *p = s; *p; p++)
	{
		if (*p == '\n' || *p == '\r')
		{
			strbuf_addch(out, ' ');
			continue;
		}
		/* inside a word (txid_current) an underscore emphasises nothing */
		if (*p == '_' && p > s && isalnum((unsigned char) p[-1]) &&
			isalnum((unsigned char) p[1]))
			;
		else if (strchr("\\`*_[]<>|~&#$", *p))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *p);
	}
}

/* S as a Markdown code span, or as escaped text when it holds what would
 * end the span or the table cell (a backtick, a bar, a line end). */
static void
md_code(struct strbuf *out, const char *s)
{
	if (s == NULL || strpbrk(s, "`|\r\n") != NULL)
	{
		cmp_md_escape(out, s);
		return;
	}
	strbuf_addch(out, '`');
	strbuf_addstr(out, s);
	strbuf_addch(out, '`');
}

void
cmp_name_add(struct strbuf *out, const char *s, bool md)
{
	if (md)
		cmp_md_escape(out, s);
	else
		strbuf_addstr(out, s);
}

/* A metric value: tps with one decimal, milliseconds with three. */
static void
add_value(struct strbuf *out, const struct cmp_result *r, double v, int width)
{
	if (isnan(v))
		strbuf_addf(out, "%*s", width, "-");
	else if (r->opts.metric == CMP_TPS)
		strbuf_addf(out, "%*.1f", width, v);
	else
		strbuf_addf(out, "%*.3f", width, v);
}

static void
add_bound(struct strbuf *out, double v)
{
	if (!isfinite(v))
		strbuf_addstr(out, "inf");
	else if (fabs(v) < 1000)
		strbuf_addf(out, "%.3f", v);
	else /* a look with 1 or 2 degrees of freedom: 1.28e+26, not 27 digits */
		strbuf_addf(out, "%.3g", v);
}

void
cmp_interval_text(struct strbuf *out, double lo, double hi)
{
	strbuf_addch(out, '[');
	add_bound(out, lo);
	strbuf_addstr(out, ", ");
	add_bound(out, hi);
	strbuf_addch(out, ']');
}

static void
add_verdict(struct strbuf *out, const struct cmp_point *p)
{
	strbuf_addstr(out, cmp_verdict_name(p->verdict));
	if (p->verdict == CMP_INCONCLUSIVE)
	{
		if (p->more_repeats > 0)
			strbuf_addf(out, " (~%d more repeat%s)", p->more_repeats,
						p->more_repeats == 1 ? "" : "s");
		else if (p->r.n < 2)
			strbuf_addstr(out, " (needs 2+ repeats a side)");
		else
			strbuf_addstr(out, " (>100 more repeats)");
	}
}

static void
add_cliff(struct strbuf *out, const struct cmp_side_curve *c)
{
	if (c->cliff_clients)
		strbuf_addf(out, "at %d clients", c->cliff_clients);
	else
		strbuf_addstr(out, "none");
}

/*
 * The spread of one block of point P: the sd of its per-block log ratios
 * (paired, two blocks or more), or of what the steal leaves of them when
 * adjusted; else NAN.  What a budget is chosen by.
 */
static double
block_sd(const struct cmp_point *p)
{
	if (!p->paired || p->r.n < 2 || !isfinite(p->r.se_log))
		return NAN;
	return p->r.sd_unit;
}

/* "spread per block: sd of log B/A 0.098 (0.071-0.130 over 4 points)" */
static void
add_spread(struct strbuf *out, const struct cmp_result *r,
		   const struct cmp_curve *c, const char *indent, const char *sep)
{
	double lo = INFINITY, hi = -INFINITY, *v, *raw, *slope;
	int n = 0, nadj = 0;

	v = xmalloc((size_t) (r->npoints + 1) * sizeof(double));
	raw = xmalloc((size_t) (r->npoints + 1) * sizeof(double));
	slope = xmalloc((size_t) (r->npoints + 1) * sizeof(double));
	for (int i = 0; i < r->npoints; i++)
	{
		const struct cmp_point *p = &r->points[i];
		double sd = block_sd(p);

		if (strcmp(p->workload, c->workload) != 0 || isnan(sd))
			continue;
		v[n++] = sd;
		lo = fmin(lo, sd);
		hi = fmax(hi, sd);
		if (p->r.adjusted)
		{
			raw[nadj] = p->r.sd_raw;
			slope[nadj++] = p->r.slope;
		}
	}
	if (n > 0)
	{
		strbuf_addf(out, "%s%sspread of one block: sd of log B/A %.3f", sep,
					indent, report_median(v, n));
		if (n > 1)
			strbuf_addf(out, " (median of %d points, %.3f to %.3f)", n, lo,
						hi);
		/* what the steal took: the spread without the adjustment */
		if (nadj > 0)
			strbuf_addf(out,
						"%s%s  at equal CPU steal%s; %.3f as measured, B/A "
						"%+.1f %% per point of B's steal over A's",
						sep, indent, nadj < n ? " where known" : "",
						report_median(raw, nadj),
						100 * (exp(report_median(slope, nadj)) - 1));
	}
	free(v);
	free(raw);
	free(slope);
}

/* The curve facts in one paragraph, for text and Markdown. */
static void
add_curve_facts(struct strbuf *out, const struct cmp_result *r,
				const struct cmp_curve *c, const char *indent, const char *sep)
{
	strbuf_addf(out, "%speak tps: A %.1f at %d clients, B %.1f at %d clients",
				indent, c->a.peak_tps, c->a.peak_clients, c->b.peak_tps,
				c->b.peak_clients);
	if (c->a.peak_tps > 0)
		strbuf_addf(out, " (%+.1f %%)",
					100 * (c->b.peak_tps / c->a.peak_tps - 1));
	strbuf_addf(out, "%s%scliff (below 50 %% of peak): A ", sep, indent);
	add_cliff(out, &c->a);
	strbuf_addstr(out, ", B ");
	add_cliff(out, &c->b);
	if (c->top)
	{
		strbuf_addf(out, "%s%sat the highest client count (%d): B/A %.3f ",
					sep, indent, c->top_clients, c->top->r.ratio);
		cmp_interval_text(out, c->top->r.lo, c->top->r.hi);
	}
	if (!isnan(c->geo_ratio))
	{
		strbuf_addf(out, "%s%sgeometric mean over the sweep: B/A %.3f ", sep,
					indent, c->geo_ratio);
		cmp_interval_text(out, c->geo_lo, c->geo_hi);
		strbuf_addf(out, " (%s): %s%s",
					c->geo_paired ? "paired by block" : "independent points",
					cmp_verdict_name(c->geo_verdict),
					r->opts.on_geomean ? ", gated" : "");
	}
	add_spread(out, r, c, indent, sep);
}

/*
 * The confidence as a percentage people read: "95", and a sequential
 * look's "99.977" rather than a rounded "100".
 */
static const char *
conf_pct(double conf, char *buf, size_t size)
{
	snprintf(buf, size, "%.6g", 100 * conf);
	return buf;
}

/* Of the judged points, how many were judged paired (into *JUDGED). */
static int
count_paired(const struct cmp_result *r, int *judged)
{
	int paired = 0;

	*judged = 0;
	for (int i = 0; i < r->npoints; i++)
		if (r->points[i].verdict != CMP_MISSING)
		{
			(*judged)++;
			paired += r->points[i].paired;
		}
	return paired;
}

/* Whether every judged point was judged paired (the JSON's "paired"). */
static bool
all_paired(const struct cmp_result *r)
{
	int judged, paired = count_paired(r, &judged);

	return judged > 0 && paired == judged;
}

/*
 * How the judged points were judged: "paired by block" only when every one
 * was (a point needs two blocks of both sides to pair); the same sides
 * with one block each are said to be unpaired, whatever was asked.
 */
static const char *
pairing(const struct cmp_result *r, char *buf, size_t size)
{
	int judged, paired = count_paired(r, &judged);

	int adjusted = 0;

	for (int i = 0; i < r->npoints; i++)
		adjusted +=
			r->points[i].verdict != CMP_MISSING && r->points[i].r.adjusted;
	if (judged > 0 && paired == judged && adjusted == judged)
		snprintf(buf, size, "paired by block, at equal CPU steal");
	else if (judged > 0 && paired == judged && adjusted > 0)
		snprintf(buf, size, "paired by block, at equal CPU steal at %d",
				 adjusted);
	else if (judged > 0 && paired == judged)
		snprintf(buf, size, "paired by block");
	else if (paired == 0)
		snprintf(buf, size, "unpaired%s",
				 r->opts.paired
					 ? " (under 2 blocks per point: nothing to pair)"
					 : "");
	else
		snprintf(buf, size, "paired by block at %d of %d points", paired,
				 judged);
	return buf;
}

static void
add_header_line(struct strbuf *out, const struct cmp_result *r, bool md)
{
	char pct[32], how[96];
	const struct cmp_opts *o = &r->opts;
	int judged = r->npoints - r->nmissing;

	/* the metric may name a probe or a function of the stored run */
	strbuf_addstr(out, "metric ");
	cmp_name_add(out, cmp_opts_metric(o), md);
	strbuf_addf(out,
				" (%s is better), margin %.1f %% (rule %s), %s %% "
				"intervals %s, Holm over %d point%s",
				cmp_metric_higher_is_better(o->metric) ? "higher" : "lower",
				100 * o->margin, cmp_rule_name(o->rule),
				conf_pct(o->conf, pct, sizeof(pct)),
				pairing(r, how, sizeof(how)), judged, judged == 1 ? "" : "s");
	if (o->metric == CMP_INSTRUCTIONS || o->metric == CMP_L1_MISSES ||
		o->metric == CMP_LL_MISSES)
		strbuf_addstr(out, "\n(counted by callgrind per transaction: work, "
						   "not time; waits on locks, I/O and the network "
						   "are invisible to it)");
}

static void
add_summary(struct strbuf *out, const struct cmp_result *r)
{
	strbuf_addf(out, "%s%s: %d regression%s, %d inconclusive",
				cmp_outcome_name(r->outcome),
				r->opts.on_geomean ? " (gated on the geometric mean over the "
									 "sweep); points"
								   : "",
				r->nregressions, r->nregressions == 1 ? "" : "s",
				r->ninconclusive);
	if (r->nmissing)
		strbuf_addf(out, ", %d missing on one side", r->nmissing);
	strbuf_addf(out, " of %d point%s", r->npoints, r->npoints == 1 ? "" : "s");
}

static bool
has_windows(const struct cmp_result *r, const char *workload)
{
	for (int i = 0; i < r->npoints; i++)
		if (r->points[i].window &&
			strcmp(r->points[i].workload, workload) == 0)
			return true;
	return false;
}

static void
add_recovery(struct strbuf *out, double s)
{
	if (isnan(s))
		strbuf_addstr(out, "?");
	else if (s < 0)
		strbuf_addstr(out, "never");
	else
		strbuf_addf(out, "%.0f s", s);
}

/* "16 clients: dip A 0.512, B 0.640; recovery A 12 s, B 8 s" */
static void
add_window_facts(struct strbuf *out, const struct cmp_result *r,
				 const char *workload, const char *prefix)
{
	for (int i = 0; i < r->nwindows; i++)
	{
		const struct cmp_window_facts *f = &r->windows[i];

		if (strcmp(f->workload, workload) != 0)
			continue;
		strbuf_addf(out,
					"%s%d client%s: dip (during/before) A %.3f, B %.3f; "
					"recovery to within 5 %% of before: A ",
					prefix, f->clients, f->clients == 1 ? "" : "s", f->a.dip,
					f->b.dip);
		add_recovery(out, f->a.recovery_s);
		strbuf_addstr(out, ", B ");
		add_recovery(out, f->b.recovery_s);
		strbuf_addch(out, '\n');
	}
}

#define BAR_WIDTH 21

static bool
in_table(const struct cmp_point *p, const char *workload, bool windows)
{
	return strcmp(p->workload, workload) == 0 &&
		   (p->window != NULL) == windows;
}

/*
 * The scale of a table's bars: every estimate and twice the margin on
 * either side of 1, with a little room.  One scale for all its rows, so
 * that the bars compare down the table.
 */
static void
bar_scale(const struct cmp_result *r, const char *workload, bool windows,
		  double *lo, double *hi)
{
	double m = r->opts.margin;

	*lo = 1 - 2 * m;
	*hi = 1 + 2 * m;
	for (int i = 0; i < r->npoints; i++)
	{
		const struct cmp_point *p = &r->points[i];

		if (!in_table(p, workload, windows) || p->verdict == CMP_MISSING ||
			!isfinite(p->r.ratio))
			continue;
		*lo = fmin(*lo, p->r.ratio);
		*hi = fmax(*hi, p->r.ratio);
	}
	*lo -= 0.05 * (*hi - *lo);
	*hi += 0.05 * (*hi - *lo);
}

static int
bar_pos(double v, double lo, double hi)
{
	double t = (v - lo) / (hi - lo) * (BAR_WIDTH - 1);

	if (!(t >= 0))
		return isnan(t) ? -1 : 0;
	return t > BAR_WIDTH - 1 ? BAR_WIDTH - 1 : (int) lround(t);
}

/*
 * P's ratio as a bar on [LO, HI]: '|' the margin, ':' at 1, '-' the
 * interval ('<' or '>' where it runs past the scale), 'o' the estimate;
 * '.' elsewhere, so that the bar is one word for awk.
 */
static void
add_bar(struct strbuf *out, const struct cmp_point *p,
		const struct cmp_opts *o, double lo, double hi)
{
	char bar[BAR_WIDTH + 1];
	int a, b, k;

	memset(bar, '.', BAR_WIDTH);
	bar[BAR_WIDTH] = '\0';
	a = bar_pos(p->r.lo, lo, hi);
	b = bar_pos(p->r.hi, lo, hi);
	for (k = a < 0 ? 0 : a; a >= 0 && b >= 0 && k <= b; k++)
		bar[k] = '-';
	if (p->r.lo < lo)
		bar[0] = '<';
	if (!(p->r.hi <= hi))
		bar[BAR_WIDTH - 1] = '>';
	/* the margin and 1 stay visible across the interval */
	if ((k = bar_pos(1 - o->margin, lo, hi)) >= 0)
		bar[k] = '|';
	if ((k = bar_pos(1 + o->margin, lo, hi)) >= 0)
		bar[k] = '|';
	if ((k = bar_pos(1, lo, hi)) >= 0)
		bar[k] = ':';
	if ((k = bar_pos(p->r.ratio, lo, hi)) >= 0)
		bar[k] = 'o';
	strbuf_addstr(out, bar);
}

/* The rows of WORKLOAD: whole points, or (WINDOWS) its windows. */
static void
text_table(struct strbuf *out, const struct cmp_result *r,
		   const char *workload, bool windows)
{
	char head[64], pct[32], scale[BAR_WIDTH + 16];
	double lo, hi;

	bar_scale(r, workload, windows, &lo, &hi);
	snprintf(head, sizeof(head), "[%s %% interval]",
			 conf_pct(r->opts.conf, pct, sizeof(pct)));
	snprintf(scale, sizeof(scale), "%-5.2f%*.2f", lo, BAR_WIDTH - 5, hi);
	strbuf_addf(out,
				" clients%s  nA  nB            A            B   ratio"
				"  %-18s  %-*s  verdict\n",
				windows ? "  window    " : "", head, BAR_WIDTH, scale);
	for (int i = 0; i < r->npoints; i++)
	{
		const struct cmp_point *p = &r->points[i];
		struct strbuf iv = STRBUF_INIT;

		if (!in_table(p, workload, windows))
			continue;
		strbuf_addf(out, "%8d", p->clients);
		if (windows)
			strbuf_addf(out, "  %-10s", p->window);
		strbuf_addf(out, " %3d %3d ", p->na, p->nb);
		add_value(out, r, p->median_a, 12);
		strbuf_addch(out, ' ');
		add_value(out, r, p->median_b, 12);
		if (p->verdict == CMP_MISSING)
			strbuf_addf(out, "  %6s  %-18s  %-*s  ", "-", "", BAR_WIDTH, "");
		else
		{
			cmp_interval_text(&iv, p->r.lo, p->r.hi);
			strbuf_addf(out, "  %6.3f  %-18s  ", p->r.ratio, iv.buf);
			add_bar(out, p, &r->opts, lo, hi);
			strbuf_addstr(out, "  ");
		}
		add_verdict(out, p);
		strbuf_addch(out, '\n');
		strbuf_release(&iv);
	}
}

/* "+9.08 [+6.80, +11.40]" or "+9.08 (no interval: 1 block)" */
static void
add_pp(struct strbuf *out, const struct stats_diff *d)
{
	if (isfinite(d->lo) && isfinite(d->hi))
		strbuf_addf(out, "%+7.2f  [%+.2f, %+.2f]", d->diff, d->lo, d->hi);
	else
		strbuf_addf(out, "%+7.2f  (no interval: %d block%s)", d->diff, d->n,
					d->n == 1 ? "" : "s");
}

/* "LWLock:WALInsert 1.20 -> 3.84 (x3.20)", SEP between */
static void
add_waits(struct strbuf *out, const struct cmp_why_node *n, const char *sep,
		  bool md)
{
	for (int i = 0; i < n->nwaits; i++)
	{
		const struct cmp_why_wait *w = &n->waits[i];

		strbuf_addstr(out, i ? sep : "");
		cmp_name_add(out, w->event, md);
		strbuf_addf(out, " %.2f -> %.2f", w->a_per_s, w->b_per_s);
		if (w->a_per_s > 0 && w->b_per_s > 0)
			strbuf_addf(out, " (x%.2f)", w->b_per_s / w->a_per_s);
		else
			strbuf_addstr(out, w->a_per_s > 0 ? " (gone)" : " (new)");
	}
}

static void
add_profile_head(struct strbuf *out, const struct cmp_why_node *n, bool md)
{
	cmp_name_add(out, n->node, md);
	if (n->counted)
		strbuf_addf(out,
					", counted by callgrind: %.0f and %.0f instructions per "
					"transaction over %d and %d block%s%s (shares of the "
					"instructions, not of CPU samples)",
					n->na ? (double) n->a_samples / n->na : 0.0,
					n->nb ? (double) n->b_samples / n->nb : 0.0, n->na, n->nb,
					n->nb == 1 ? "" : "s",
					n->paired ? ", paired by block" : "");
	else
		strbuf_addf(out,
					", CPU profile: %" PRIu64 " and %" PRIu64
					" samples in %d and %d block%s%s",
					n->a_samples, n->b_samples, n->na, n->nb,
					n->nb == 1 ? "" : "s",
					n->paired ? ", paired by block" : "");
}

/* Where the time went (cmp_why), for people. */
static void
text_why(struct strbuf *out, const struct cmp_result *r)
{
	char pct[32];

	if (r->nwhy == 0)
		return;
	strbuf_addf(
		out,
		"\nwhere the time went, B against A: shares of the servers' "
		"CPU samples\n(B - A in percentage points, %s %% interval over "
		"blocks) and wait events\n(backends seen in each, per "
		"sample)\n",
		conf_pct(r->opts.conf, pct, sizeof(pct)));
	for (int i = 0; i < r->nwhy; i++)
	{
		const struct cmp_why *w = &r->why[i];

		strbuf_addf(out, "  %s\n", w->step);
		for (int j = 0; j < w->nnodes; j++)
		{
			const struct cmp_why_node *n = &w->nodes[j];

			if (n->nfuncs > 0)
			{
				strbuf_addstr(out, "    ");
				add_profile_head(out, n, false);
				strbuf_addf(out, "\n         A %%      B %%  %-30s  %s\n",
							"  B - A pp  [interval]", "function (module)");
				for (int k = 0; k < n->nfuncs; k++)
				{
					const struct cmp_why_func *f = &n->funcs[k];
					struct strbuf d = STRBUF_INIT;

					add_pp(&d, &f->d);
					strbuf_addf(out, "      %6.2f   %6.2f  %-30s  %s (%s)\n",
								f->a_pct, f->b_pct, d.buf, f->symbol, f->dso);
					strbuf_release(&d);
				}
			}
			if (n->nwaits > 0)
			{
				strbuf_addf(out, "    %s, wait events: ", n->node);
				add_waits(out, n, "; ", false);
				strbuf_addch(out, '\n');
			}
		}
	}
}

static void
markdown_why(struct strbuf *out, const struct cmp_result *r)
{
	char pct[32];

	if (r->nwhy == 0)
		return;
	strbuf_addf(out,
				"\n#### Where the time went\n\nShares of the servers' CPU "
				"samples, B - A in percentage points with its %s %% interval "
				"over blocks; wait events as backends seen per sample.\n",
				conf_pct(r->opts.conf, pct, sizeof(pct)));
	for (int i = 0; i < r->nwhy; i++)
	{
		const struct cmp_why *w = &r->why[i];

		strbuf_addstr(out, "\n**");
		cmp_md_escape(out, w->step);
		strbuf_addstr(out, "**\n");
		for (int j = 0; j < w->nnodes; j++)
		{
			const struct cmp_why_node *n = &w->nodes[j];

			strbuf_addstr(out, "\n");
			if (n->nfuncs > 0)
			{
				add_profile_head(out, n, true);
				strbuf_addstr(out, ":\n\n| function | module | A % | B % | "
								   "B - A pp | interval |\n"
								   "|:--|:--|--:|--:|--:|:--|\n");
				for (int k = 0; k < n->nfuncs; k++)
				{
					const struct cmp_why_func *f = &n->funcs[k];

					strbuf_addstr(out, "| ");
					md_code(out, f->symbol);
					strbuf_addstr(out, " | ");
					cmp_md_escape(out, f->dso);
					strbuf_addf(out, " | %.2f | %.2f | %+.2f | ", f->a_pct,
								f->b_pct, f->d.diff);
					if (isfinite(f->d.lo) && isfinite(f->d.hi))
						strbuf_addf(out, "[%+.2f, %+.2f] |\n", f->d.lo,
									f->d.hi);
					else
						strbuf_addstr(out, "- |\n");
				}
			}
			if (n->nwaits > 0)
			{
				strbuf_addstr(out, n->nfuncs ? "\n" : "");
				cmp_md_escape(out, n->node);
				strbuf_addstr(out, ", wait events: ");
				add_waits(out, n, "; ", true);
				strbuf_addstr(out, "\n");
			}
		}
	}
}

static void
render_text(struct strbuf *out, const struct cmp_result *r,
			const struct cmp_labels *l)
{
	strbuf_addf(out, "pgcliff compare%s%s\n", l->recipe ? ": recipe " : "",
				l->recipe ? l->recipe : "");
	strbuf_addf(out, "A (baseline):  %s\nB (candidate): %s\n", l->a, l->b);
	add_header_line(out, r, false);
	strbuf_addch(out, '\n');
	for (int ci = 0; ci < r->ncurves; ci++)
	{
		const struct cmp_curve *c = &r->curves[ci];

		strbuf_addf(out, "\nworkload %s\n", c->workload);
		add_curve_facts(out, r, c, "  ", "\n");
		strbuf_addstr(out, "\n\n");
		text_table(out, r, c->workload, false);
		if (has_windows(r, c->workload))
		{
			strbuf_addf(out, "\nwindows of workload %s (tps)\n", c->workload);
			text_table(out, r, c->workload, true);
			add_window_facts(out, r, c->workload, "  ");
		}
		else if (r->opts.metric == CMP_DIP)
			add_window_facts(out, r, c->workload, "  ");
	}
	strbuf_addstr(out, "\nbars: o the ratio B/A, - its interval (< or > "
					   "where it runs past the scale), | the margin, : 1\n");
	text_why(out, r);
	add_summary(out, r);
	strbuf_addch(out, '\n');
}

static void
markdown_table(struct strbuf *out, const struct cmp_result *r,
			   const char *workload, bool windows)
{
	char pct[32];

	strbuf_addf(out,
				"| clients |%s nA | nB | A | B | B/A | %s %% interval | "
				"verdict |\n",
				windows ? " window |" : "",
				conf_pct(r->opts.conf, pct, sizeof(pct)));
	strbuf_addf(out, "|--:|%s--:|--:|--:|--:|--:|:--|:--|\n",
				windows ? ":--|" : "");
	for (int i = 0; i < r->npoints; i++)
	{
		const struct cmp_point *p = &r->points[i];

		if (strcmp(p->workload, workload) != 0 ||
			(p->window != NULL) != windows)
			continue;
		strbuf_addf(out, "| %d |", p->clients);
		if (windows)
		{
			strbuf_addch(out, ' ');
			cmp_md_escape(out, p->window);
			strbuf_addstr(out, " |");
		}
		strbuf_addf(out, " %d | %d | ", p->na, p->nb);
		add_value(out, r, p->median_a, 0);
		strbuf_addstr(out, " | ");
		add_value(out, r, p->median_b, 0);
		if (p->verdict == CMP_MISSING)
			strbuf_addstr(out, " | - | - | ");
		else
		{
			strbuf_addf(out, " | %.3f | ", p->r.ratio);
			cmp_interval_text(out, p->r.lo, p->r.hi);
			strbuf_addstr(out, " | ");
		}
		if (p->verdict == CMP_REGRESSION)
			strbuf_addstr(out, "**");
		add_verdict(out, p);
		if (p->verdict == CMP_REGRESSION)
			strbuf_addstr(out, "**");
		strbuf_addstr(out, " |\n");
	}
}

static void
render_markdown(struct strbuf *out, const struct cmp_result *r,
				const struct cmp_labels *l)
{
	strbuf_addstr(out, "### pgcliff compare");
	if (l->recipe)
	{
		strbuf_addch(out, ' ');
		cmp_md_escape(out, l->recipe);
	}
	strbuf_addf(out,
				": %s\n\n**A** (baseline): ", cmp_outcome_name(r->outcome));
	cmp_md_escape(out, l->a);
	strbuf_addstr(out, "  \n**B** (candidate): ");
	cmp_md_escape(out, l->b);
	strbuf_addstr(out, "  \n");
	add_header_line(out, r, true);
	strbuf_addstr(out, "\n");
	for (int ci = 0; ci < r->ncurves; ci++)
	{
		const struct cmp_curve *c = &r->curves[ci];

		strbuf_addstr(out, "\n#### ");
		cmp_md_escape(out, c->workload);
		strbuf_addstr(out, "\n\n");
		add_curve_facts(out, r, c, "- ", "\n");
		strbuf_addstr(out, "\n\n");
		markdown_table(out, r, c->workload, false);
		if (has_windows(r, c->workload))
		{
			strbuf_addstr(out, "\nWindows of ");
			cmp_md_escape(out, c->workload);
			strbuf_addstr(out, " (tps):\n\n");
			markdown_table(out, r, c->workload, true);
			strbuf_addstr(out, "\n");
			add_window_facts(out, r, c->workload, "- ");
		}
	}
	markdown_why(out, r);
	strbuf_addstr(out, "\n");
	add_summary(out, r);
	strbuf_addstr(out, "\n");
}

json_t *
report_json_num(double v, const char *fmt)
{
	char text[64];

	if (!isfinite(v))
		return json_null();
	snprintf(text, sizeof(text), fmt, v);
	return json_real(strtod(text, NULL));
}

void
report_json_dump(struct strbuf *out, json_t *doc)
{
	/* 15 digits: what the rounding above kept, and no binary noise */
	char *text = pjson_text(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15));

	strbuf_addstr(out, text);
	strbuf_addch(out, '\n');
	free(text);
}

void
report_json_add_counts(json_t *acc, const char *text)
{
	json_t *j = text ? json_loads(text, 0, NULL) : NULL;
	const char *k;
	json_t *v;

	if (j && json_is_object(j))
		json_object_foreach(j, k, v)
		{
			json_int_t old = json_integer_value(json_object_get(acc, k));

			if (json_is_integer(v))
				json_object_set_new(acc, k,
									json_integer(old + json_integer_value(v)));
		}
	json_decref(j);
}

#define json_num report_json_num

static json_t *
json_opt_int(bool have, int v)
{
	return have ? json_integer(v) : json_null();
}

static json_t *
json_side_curve(const struct cmp_side_curve *c)
{
	return json_pack("{s:o, s:i, s:o}", "peak_tps",
					 json_num(c->peak_tps, "%.3f"), "peak_clients",
					 c->peak_clients, "cliff_clients",
					 json_opt_int(c->cliff_clients != 0, c->cliff_clients));
}

static json_t *
json_window_side(const struct cmp_window_side *w)
{
	/* recovery_s -1: never recovered within the window */
	return json_pack(
		"{s:o, s:o, s:o, s:o, s:o}", "before", json_num(w->before, "%.3f"),
		"during", json_num(w->during, "%.3f"), "after",
		json_num(w->after, "%.3f"), "dip", json_num(w->dip, "%.4f"),
		"recovery_s", json_num(w->recovery_s, "%.0f"));
}

static json_t *
json_point(const struct cmp_point *p)
{
	bool missing = p->verdict == CMP_MISSING;
	json_t *o =
		json_pack("{s:i, s:o, s:i, s:i, s:b, s:o, s:o, s:o, s:o, s:o}",
				  "clients", p->clients, "window", pjson_str(p->window),
				  "n_baseline", p->na, "n_candidate", p->nb, "paired",
				  p->paired, "median_baseline", json_num(p->median_a, "%.6g"),
				  "median_candidate", json_num(p->median_b, "%.6g"), "ratio",
				  json_num(missing ? NAN : p->r.ratio, "%.6f"), "lo",
				  json_num(missing ? NAN : p->r.lo, "%.6f"), "hi",
				  json_num(missing ? NAN : p->r.hi, "%.6f"));

	json_object_set_new(o, "block_sd", json_num(block_sd(p), "%.6g"));
	/* B/A at equal steal: the spread without it, B/A per point of steal */
	json_object_set_new(o, "steal_adjusted",
						p->r.adjusted
							? json_pack("{s:o, s:o}", "block_sd_measured",
										json_num(p->r.sd_raw, "%.6g"),
										"log_ratio_per_pct",
										json_num(p->r.slope, "%.6g"))
							: json_null());
	json_object_set_new(o, "p_regression", json_num(p->p_regression, "%.6g"));
	json_object_set_new(o, "p_no_regression",
						json_num(p->p_no_regression, "%.6g"));
	json_object_set_new(o, "verdict",
						json_string(cmp_verdict_name(p->verdict)));
	json_object_set_new(
		o, "more_repeats",
		json_opt_int(p->verdict == CMP_INCONCLUSIVE && p->more_repeats > 0,
					 p->more_repeats));
	return o;
}

static json_t *
json_workload(const struct cmp_result *r, const struct cmp_curve *c)
{
	json_t *points = json_array(), *facts = json_array();

	for (int i = 0; i < r->npoints; i++)
		if (strcmp(r->points[i].workload, c->workload) == 0)
			json_array_append_new(points, json_point(&r->points[i]));
	for (int i = 0; i < r->nwindows; i++)
	{
		const struct cmp_window_facts *f = &r->windows[i];

		if (strcmp(f->workload, c->workload) == 0)
			json_array_append_new(
				facts, json_pack("{s:i, s:o, s:o}", "clients", f->clients,
								 "baseline", json_window_side(&f->a),
								 "candidate", json_window_side(&f->b)));
	}
	return json_pack(
		"{s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o, s:b, s:o, s:o, s:s}, s:o, "
		"s:o}",
		"name", pjson_str(c->workload), "baseline_curve",
		json_side_curve(&c->a), "candidate_curve", json_side_curve(&c->b),
		"top_clients", json_opt_int(c->top, c->top_clients), "geomean",
		"ratio", json_num(c->geo_ratio, "%.6f"), "lo",
		json_num(c->geo_lo, "%.6f"), "hi", json_num(c->geo_hi, "%.6f"),
		"paired", c->geo_paired, "p_regression",
		json_num(c->geo_p_regression, "%.6g"), "p_no_regression",
		json_num(c->geo_p_no_regression, "%.6g"), "verdict",
		cmp_verdict_name(c->geo_verdict), "points", points, "window_facts",
		facts);
}

static json_t *
json_why(const struct cmp_result *r)
{
	json_t *steps = json_array();

	for (int i = 0; i < r->nwhy; i++)
	{
		const struct cmp_why *w = &r->why[i];
		json_t *nodes = json_array();

		for (int j = 0; j < w->nnodes; j++)
		{
			const struct cmp_why_node *n = &w->nodes[j];
			json_t *funcs = json_array(), *waits = json_array();

			for (int k = 0; k < n->nfuncs; k++)
			{
				const struct cmp_why_func *f = &n->funcs[k];

				json_array_append_new(
					funcs, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
									 "symbol", pjson_str(f->symbol), "module",
									 pjson_str(f->dso), "a_pct",
									 json_num(f->a_pct, "%.2f"), "b_pct",
									 json_num(f->b_pct, "%.2f"), "diff_pp",
									 json_num(f->d.diff, "%.2f"), "lo",
									 json_num(f->d.lo, "%.2f"), "hi",
									 json_num(f->d.hi, "%.2f")));
			}
			for (int k = 0; k < n->nwaits; k++)
				json_array_append_new(
					waits,
					json_pack("{s:o, s:o, s:o}", "event",
							  pjson_str(n->waits[k].event), "a_per_sample",
							  json_num(n->waits[k].a_per_s, "%.2f"),
							  "b_per_sample",
							  json_num(n->waits[k].b_per_s, "%.2f")));
			json_array_append_new(
				nodes,
				json_pack("{s:o, s:i, s:i, s:b, s:I, s:I, s:o, s:o, s:s}",
						  "node", pjson_str(n->node), "blocks_a", n->na,
						  "blocks_b", n->nb, "paired", n->paired, "samples_a",
						  (json_int_t) n->a_samples, "samples_b",
						  (json_int_t) n->b_samples, "functions", funcs,
						  "waits", waits, "profile",
						  n->counted ? "instructions" : "cpu-clock"));
		}
		json_array_append_new(steps,
							  json_pack("{s:o, s:o}", "step",
										pjson_str(w->step), "nodes", nodes));
	}
	return steps;
}

/* The versioned JSON document (report/FORMATS.md), written by jansson. */
static void
render_json(struct strbuf *out, const struct cmp_result *r,
			const struct cmp_labels *l)
{
	const struct cmp_opts *o = &r->opts;
	json_t *workloads = json_array();
	json_t *doc;

	for (int ci = 0; ci < r->ncurves; ci++)
		json_array_append_new(workloads, json_workload(r, &r->curves[ci]));
	doc = json_pack(
		"{s:i, s:o, s:o, s:o, s:s, s:o, s:b, s:o, s:o, s:b, s:I}",
		"pgcliff_compare", CMP_JSON_VERSION, "recipe", pjson_str(l->recipe),
		"baseline", pjson_str(l->a), "candidate", pjson_str(l->b), "gated_on",
		o->on_geomean ? "geomean" : "points", "metric",
		pjson_str(cmp_opts_metric(o)), "higher_is_better",
		cmp_metric_higher_is_better(o->metric), "margin",
		json_num(o->margin, "%.4f"), "confidence", json_num(o->conf, "%.4f"),
		"paired", all_paired(r), "bootstrap_seed", (json_int_t) o->seed);
	json_object_set_new(doc, "rule", json_string(cmp_rule_name(o->rule)));
	json_object_set_new(doc, "adjust",
						json_string(cmp_adjust_name(o->adjust)));
	json_object_set_new(doc, "outcome",
						json_string(cmp_outcome_name(r->outcome)));
	json_object_set_new(doc, "gate_exit_code", json_integer((int) r->outcome));
	json_object_set_new(doc, "regressions", json_integer(r->nregressions));
	json_object_set_new(doc, "inconclusive", json_integer(r->ninconclusive));
	json_object_set_new(doc, "missing", json_integer(r->nmissing));
	json_object_set_new(doc, "workloads", workloads);
	json_object_set_new(doc, "why", json_why(r));
	report_json_dump(out, doc);
}

void
cmp_xml_escape(struct strbuf *out, const char *s)
{
	chart_escape(out, s); /* the one escaper of markup */
}

/* The bound a ratio is judged against: 1 - margin, or 1 + margin. */
static double
regression_bound(const struct cmp_result *r)
{
	return cmp_metric_higher_is_better(r->opts.metric) ? 1 - r->opts.margin
													   : 1 + r->opts.margin;
}

/* "REGRESSION: B/A 0.912 [0.880, 0.945], bound 0.970" of a geometric mean
 * (P NULL) or of point P; NAME: "tps at 4 clients". */
static void
verdict_message(struct strbuf *msg, struct strbuf *name,
				const struct cmp_result *r, const struct cmp_curve *c,
				const struct cmp_point *p)
{
	strbuf_reset(msg);
	strbuf_reset(name);
	if (p == NULL)
	{
		strbuf_addf(msg, "%s: B/A %.3f ", cmp_verdict_name(c->geo_verdict),
					c->geo_ratio);
		cmp_interval_text(msg, c->geo_lo, c->geo_hi);
		strbuf_addf(msg, ", bound %.3f", regression_bound(r));
		strbuf_addf(name, "%s geometric mean over the sweep",
					cmp_opts_metric(&r->opts));
		return;
	}
	add_verdict(msg, p);
	if (p->verdict != CMP_MISSING)
	{
		strbuf_addf(msg, ": B/A %.3f ", p->r.ratio);
		cmp_interval_text(msg, p->r.lo, p->r.hi);
		strbuf_addf(msg, ", bound %.3f", regression_bound(r));
	}
	strbuf_addf(name, "%s%s%s at %d clients", cmp_opts_metric(&r->opts),
				p->window ? " " : "", p->window ? p->window : "", p->clients);
}

/* One <testcase>: a failure for REGRESSION, skipped when undecided. */
static void
junit_case(struct strbuf *out, const char *recipe, const char *workload,
		   const char *name, enum cmp_verdict v, bool gated, const char *msg)
{
	strbuf_addstr(out, "    <testcase classname=\"");
	cmp_xml_escape(out, recipe);
	strbuf_addch(out, '.');
	cmp_xml_escape(out, workload);
	strbuf_addstr(out, "\" name=\"");
	cmp_xml_escape(out, name);
	if (gated && v == CMP_REGRESSION)
		strbuf_addstr(out,
					  "\">\n      <failure type=\"regression\" message=\"");
	else if (gated && (v == CMP_INCONCLUSIVE || v == CMP_MISSING))
		strbuf_addstr(out, "\">\n      <skipped message=\"");
	else
		strbuf_addstr(out, "\">\n      <system-out>");
	cmp_xml_escape(out, msg);
	if (gated && v != CMP_SAME && v != CMP_FASTER && v != CMP_IMPROVED)
		strbuf_addstr(out, "\"/>\n    </testcase>\n");
	else
		strbuf_addstr(out, "</system-out>\n    </testcase>\n");
}

static void
render_junit(struct strbuf *out, const struct cmp_result *r,
			 const struct cmp_labels *l)
{
	const char *recipe = l->recipe ? l->recipe : "compare";
	bool geo = r->opts.on_geomean;
	struct strbuf msg = STRBUF_INIT, name = STRBUF_INIT;
	int tests = 0, failures = 0, skipped = 0;

	for (int ci = 0; ci < r->ncurves; ci++)
	{
		enum cmp_verdict v = r->curves[ci].geo_verdict;

		tests += geo ? 1 : 0;
		failures += geo && v == CMP_REGRESSION;
		skipped += geo && (v == CMP_INCONCLUSIVE || v == CMP_MISSING);
	}
	tests += r->npoints;
	if (!geo)
	{
		failures = r->nregressions;
		skipped = r->ninconclusive + r->nmissing;
	}
	strbuf_addstr(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(out,
				"<testsuites name=\"pgcliff gate\" tests=\"%d\" "
				"failures=\"%d\" skipped=\"%d\">\n",
				tests, failures, skipped);
	for (int ci = 0; ci < r->ncurves; ci++)
	{
		const struct cmp_curve *c = &r->curves[ci];
		int n = geo ? 1 : 0, fail = 0, skip = 0;

		if (geo)
		{
			fail = c->geo_verdict == CMP_REGRESSION;
			skip = c->geo_verdict == CMP_INCONCLUSIVE ||
				   c->geo_verdict == CMP_MISSING;
		}
		for (int i = 0; i < r->npoints; i++)
			if (strcmp(r->points[i].workload, c->workload) == 0)
			{
				n++;
				fail += !geo && r->points[i].verdict == CMP_REGRESSION;
				skip += !geo && (r->points[i].verdict == CMP_INCONCLUSIVE ||
								 r->points[i].verdict == CMP_MISSING);
			}
		strbuf_addstr(out, "  <testsuite name=\"");
		cmp_xml_escape(out, recipe);
		strbuf_addch(out, '.');
		cmp_xml_escape(out, c->workload);
		strbuf_addf(out, "\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
					n, fail, skip);
		strbuf_addstr(
			out,
			"    <properties>\n      <property name=\"baseline\" value=\"");
		cmp_xml_escape(out, l->a);
		strbuf_addstr(out,
					  "\"/>\n      <property name=\"candidate\" value=\"");
		cmp_xml_escape(out, l->b);
		strbuf_addstr(out, "\"/>\n    </properties>\n");
		if (geo)
		{
			verdict_message(&msg, &name, r, c, NULL);
			junit_case(out, recipe, c->workload, name.buf, c->geo_verdict,
					   true, msg.buf);
		}
		for (int i = 0; i < r->npoints; i++)
		{
			const struct cmp_point *p = &r->points[i];

			if (strcmp(p->workload, c->workload) != 0)
				continue;
			verdict_message(&msg, &name, r, c, p);
			junit_case(out, recipe, c->workload, name.buf, p->verdict, !geo,
					   msg.buf);
		}
		strbuf_addstr(out, "  </testsuite>\n");
	}
	strbuf_addstr(out, "</testsuites>\n");
	strbuf_release(&msg);
	strbuf_release(&name);
}

/* S as a workflow command's data (PROPERTY: a property's value), as
 * GitHub's runner unescapes it. */
static void
github_escape(struct strbuf *out, const char *s, bool property)
{
	for (; *s; s++)
	{
		if (*s == '%')
			strbuf_addstr(out, "%25");
		else if (*s == '\r')
			strbuf_addstr(out, "%0D");
		else if (*s == '\n')
			strbuf_addstr(out, "%0A");
		else if (property && *s == ':')
			strbuf_addstr(out, "%3A");
		else if (property && *s == ',')
			strbuf_addstr(out, "%2C");
		else
			strbuf_addch(out, *s);
	}
}

static void
github_command(struct strbuf *out, const char *level, const char *title,
			   const char *workload, const char *name, const char *msg,
			   const struct cmp_labels *l)
{
	struct strbuf t = STRBUF_INIT, m = STRBUF_INIT;

	strbuf_addf(&t, "pgcliff %s: %s", title, workload);
	strbuf_addf(&m, "%s, %s; A: %s, B: %s", name, msg, l->a, l->b);
	strbuf_addf(out, "::%s title=", level);
	github_escape(out, t.buf, true);
	strbuf_addstr(out, "::");
	github_escape(out, m.buf, false);
	strbuf_addch(out, '\n');
	strbuf_release(&t);
	strbuf_release(&m);
}

/* An error per REGRESSION, a warning per undecided or missing point (or
 * geometric mean, with --on geomean), and a notice of the outcome. */
static void
render_github_annotations(struct strbuf *out, const struct cmp_result *r,
						  const struct cmp_labels *l)
{
	struct strbuf msg = STRBUF_INIT, name = STRBUF_INIT, all = STRBUF_INIT;
	bool geo = r->opts.on_geomean;

	for (int ci = 0; ci < r->ncurves; ci++)
	{
		const struct cmp_curve *c = &r->curves[ci];

		for (int i = -1; i < r->npoints; i++)
		{
			const struct cmp_point *p = i < 0 ? NULL : &r->points[i];
			enum cmp_verdict v = p ? p->verdict : c->geo_verdict;

			if ((p == NULL) != geo ||
				(p && strcmp(p->workload, c->workload) != 0))
				continue;
			if (v != CMP_REGRESSION && v != CMP_INCONCLUSIVE &&
				v != CMP_MISSING)
				continue;
			verdict_message(&msg, &name, r, c, p);
			github_command(out, v == CMP_REGRESSION ? "error" : "warning",
						   v == CMP_REGRESSION ? "regression" : "undecided",
						   c->workload, name.buf, msg.buf, l);
		}
	}
	strbuf_addf(&all, "%s: %s against %s", cmp_outcome_name(r->outcome), l->b,
				l->a);
	strbuf_addstr(out, "::notice title=pgcliff ");
	github_escape(out, l->recipe ? l->recipe : "compare", true);
	strbuf_addstr(out, "::");
	github_escape(out, all.buf, false);
	strbuf_addch(out, '\n');
	strbuf_release(&msg);
	strbuf_release(&name);
	strbuf_release(&all);
}

void
compare_annotations(struct strbuf *out, const struct cmp_result *r,
					const struct cmp_labels *labels)
{
	render_github_annotations(out, r, labels);
}

void
compare_render(struct strbuf *out, const struct cmp_result *r,
			   const struct cmp_labels *labels, enum cmp_format format)
{
	switch (format)
	{
		case CMP_FORMAT_TEXT:
			render_text(out, r, labels);
			break;
		case CMP_FORMAT_MARKDOWN:
		case CMP_FORMAT_GITHUB: /* the job summary; compare_annotations() */
			render_markdown(out, r, labels);
			break;
		case CMP_FORMAT_JSON:
			render_json(out, r, labels);
			break;
		case CMP_FORMAT_JUNIT:
			render_junit(out, r, labels);
			break;
	}
}
