/*
 * html.c - see html.h.  Reads what it draws from the store; every figure
 * it shows comes from its owner (medians from report_median(), peak and
 * cliff from cmp_curve_facts(), ratios and verdicts from the comparison);
 * what is computed here is only for drawing.
 */
#include "html.h"
#include "json_int.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "chart.h"
#include "report.h"
#include "store.h"

/* One curve: a variant of a run, or one side of a comparison. */
struct line
{
	char *label;
	struct store_point_row *rows; /* borrowed */
	int nrows;
};

/* The points of one line measured together (one plan step). */
struct step
{
	int line;
	int64_t run_id;
	int order_idx;
	int repeat_idx;
	char *sig; /* "reads 2 clients, writes 2 clients" */
	int clients;
};

struct result
{
	const struct cmp_result *res;
	const char *title;
};

struct doc
{
	struct store *st;
	const struct report_html_opts *o;
	struct strbuf *out;
	const char *title;
	struct line *lines;
	int nlines;
	struct result *results;
	int nresults;
	char **workloads; /* measured workloads, in order of appearance */
	int nworkloads;
	char **eventloads; /* workloads that are timed events */
	int neventloads;
	struct step *steps;
	int nsteps;
	int64_t *runs;
	int nruns;
	bool svg_done; /* the chart asked for was written */
};

/* ------------------------------------------------------------ helpers */

static void
esc(struct doc *d, const char *s)
{
	chart_escape(d->out, s);
}

static bool
in_list(char **list, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

static void
add_unique(char ***list, int *n, const char *s)
{
	if (in_list(*list, *n, s))
		return;
	*list = xrealloc(*list, (size_t) (*n + 1) * sizeof(char *));
	(*list)[(*n)++] = xstrdup(s);
}

static void
free_list(char **list, int n)
{
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *) a, y = *(const int *) b;

	return (x > y) - (x < y);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static const char *
verdict_color(enum cmp_verdict v)
{
	switch (v)
	{
		case CMP_REGRESSION:
			return "#c00000";
		case CMP_INCONCLUSIVE:
			return "#e69f00";
		case CMP_SAME:
			return "#6b6b6b";
		case CMP_FASTER:
			return "#009e73";
		case CMP_IMPROVED:
			return "#006d4f";
		default:
			return "#bbbbbb";
	}
}

static const char *
outcome_name(enum cmp_outcome o)
{
	return o == CMP_OUTCOME_REGRESSION     ? "REGRESSION"
		   : o == CMP_OUTCOME_INCONCLUSIVE ? "INCONCLUSIVE"
										   : "NO REGRESSION";
}

/* Whether D wants chart KIND of WORKLOAD (and CLIENTS) as its SVG. */
static bool
svg_wanted(struct doc *d, const char *kind, const char *workload, int clients)
{
	const struct report_html_opts *o = d->o;

	if (o->chart == NULL || d->svg_done || strcmp(o->chart, kind) != 0)
		return false;
	if (o->workload && workload && strcmp(o->workload, workload) != 0)
		return false;
	if (o->clients > 0 && clients > 0 && o->clients != clients)
		return false;
	return true;
}

/* Chart C: into the page, or as the SVG asked for. */
static void
emit(struct doc *d, const struct chart *c, const char *kind,
	 const char *workload, int clients)
{
	if (d->o->chart)
	{
		if (svg_wanted(d, kind, workload, clients))
		{
			chart_svg(d->out, c, true);
			d->svg_done = true;
		}
		return;
	}
	strbuf_addstr(d->out, "<figure>");
	chart_svg(d->out, c, false);
	strbuf_addstr(d->out, "</figure>\n");
}

static void
html(struct doc *d, const char *s)
{
	if (d->o->chart == NULL)
		strbuf_addstr(d->out, s);
}

static void PGC_PRINTF(2, 3) htmlf(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	if (d->o->chart)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(d->out, fmt, ap);
	va_end(ap);
}

static void
html_esc(struct doc *d, const char *s)
{
	if (d->o->chart == NULL)
		esc(d, s);
}

/* ------------------------------------------------------ the model */

static bool
is_event_workload(struct doc *d, const char *w)
{
	return in_list(d->eventloads, d->neventloads, w);
}

/* Workloads, timed events and plan steps of every line. */
static int
model(struct doc *d, struct pgc_error *err)
{
	for (int l = 0; l < d->nlines; l++)
		for (int i = 0; i < d->lines[l].nrows; i++)
		{
			const struct store_point_row *p = &d->lines[l].rows[i];
			struct store_event_row *ev;
			int nev;
			bool found = false;

			if (store_get_events(d->st, p->id, &ev, &nev, err) < 0)
				return -1;
			free(ev);
			if (nev > 0)
				add_unique(&d->eventloads, &d->neventloads, p->workload);
			for (int r = 0; r < d->nruns; r++)
				found |= d->runs[r] == p->run_id;
			if (!found)
			{
				d->runs = xrealloc(d->runs,
								   (size_t) (d->nruns + 1) * sizeof(int64_t));
				d->runs[d->nruns++] = p->run_id;
			}
		}
	for (int l = 0; l < d->nlines; l++)
		for (int i = 0; i < d->lines[l].nrows; i++)
			if (!is_event_workload(d, d->lines[l].rows[i].workload))
				add_unique(&d->workloads, &d->nworkloads,
						   d->lines[l].rows[i].workload);
	/* steps: the rows of one line measured at one (run, order) */
	for (int l = 0; l < d->nlines; l++)
		for (int i = 0; i < d->lines[l].nrows; i++)
		{
			const struct store_point_row *p = &d->lines[l].rows[i];
			struct step *s;
			const char **w;
			int *c;
			int n = 0, j;

			for (j = 0; j < d->nsteps; j++)
				if (d->steps[j].line == l && d->steps[j].run_id == p->run_id &&
					d->steps[j].order_idx == p->order_idx)
					break;
			if (j < d->nsteps)
				continue;
			w = xcalloc((size_t) d->lines[l].nrows + 1, sizeof(char *));
			c = xcalloc((size_t) d->lines[l].nrows + 1, sizeof(int));
			for (int k = 0; k < d->lines[l].nrows; k++)
			{
				const struct store_point_row *q = &d->lines[l].rows[k];

				if (q->run_id == p->run_id && q->order_idx == p->order_idx &&
					!is_event_workload(d, q->workload))
				{
					w[n] = q->workload;
					c[n++] = q->clients;
				}
			}
			if (n == 0)
			{
				free(w);
				free(c);
				continue;
			}
			d->steps =
				xrealloc(d->steps, (size_t) (d->nsteps + 1) * sizeof(*s));
			s = &d->steps[d->nsteps++];
			s->line = l;
			s->run_id = p->run_id;
			s->order_idx = p->order_idx;
			s->repeat_idx = p->repeat_idx;
			s->sig = cmp_step_signature(w, c, n);
			free(w);
			free(c);
			s->clients = p->clients;
		}
	return 0;
}

/* Client counts of WORKLOAD on line L, ascending, into *OUT (caller frees). */
static int
clients_of(const struct line *l, const char *workload, int **out)
{
	int *c = xmalloc((size_t) (l->nrows + 1) * sizeof(int));
	int n = 0;

	for (int i = 0; i < l->nrows; i++)
	{
		int j;

		if (strcmp(l->rows[i].workload, workload) != 0)
			continue;
		for (j = 0; j < n && c[j] != l->rows[i].clients; j++)
			;
		if (j == n)
			c[n++] = l->rows[i].clients;
	}
	qsort(c, (size_t) n, sizeof(int), cmp_int);
	*out = c;
	return n;
}

/* The values of metric M at (WORKLOAD, CLIENTS) of L into V; count. */
static int
values_at(const struct line *l, const char *workload, int clients,
		  enum cmp_metric m, double *v)
{
	int n = 0;

	for (int i = 0; i < l->nrows; i++)
	{
		double x;

		if (l->rows[i].clients != clients ||
			strcmp(l->rows[i].workload, workload) != 0 ||
			l->rows[i].aborted_clients > 0)
			continue;
		x = point_metric(&l->rows[i], m);
		if (isfinite(x))
			v[n++] = x;
	}
	return n;
}

static double
min_of(const double *v, int n)
{
	double m = INFINITY;

	for (int i = 0; i < n; i++)
		m = fmin(m, v[i]);
	return m;
}

static double
max_of(const double *v, int n)
{
	double m = -INFINITY;

	for (int i = 0; i < n; i++)
		m = fmax(m, v[i]);
	return m;
}

/* --------------------------------------------------- curves by clients */

struct curve
{
	struct chart_point *pts;
	int n;
	char **tips;
};

static void
curve_free(struct curve *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->tips[i]);
	free(c->tips);
	free(c->pts);
}

/*
 * Line L's medians of M at each client count of WORKLOAD, with the range
 * of the blocks as the whisker (RANGE) and a tooltip.
 */
static void
curve_of(const struct line *l, const char *workload, enum cmp_metric m,
		 bool range, struct curve *c)
{
	int *clients;
	int nc = clients_of(l, workload, &clients);
	double *v = xmalloc((size_t) (l->nrows + 1) * sizeof(double));
	const char *unit = m == CMP_TPS ? "tps" : "ms";

	c->pts = xcalloc((size_t) nc + 1, sizeof(*c->pts));
	c->tips = xcalloc((size_t) nc + 1, sizeof(char *));
	c->n = 0;
	for (int j = 0; j < nc; j++)
	{
		int n = values_at(l, workload, clients[j], m, v);
		struct chart_point *p = &c->pts[c->n];
		char med[32], lo[32], hi[32];

		if (n == 0)
			continue;
		p->x = clients[j];
		p->y = report_median(v, n);
		p->lo = range && n > 1 ? min_of(v, n) : NAN;
		p->hi = range && n > 1 ? max_of(v, n) : NAN;
		chart_number(med, sizeof(med), p->y);
		chart_number(lo, sizeof(lo), min_of(v, n));
		chart_number(hi, sizeof(hi), max_of(v, n));
		c->tips[c->n] =
			n > 1 ? xasprintf("%s, %d clients: median %s %s of %d blocks "
							  "(%s to %s)",
							  l->label, clients[j], med, unit, n, lo, hi)
				  : xasprintf("%s, %d clients: %s %s", l->label, clients[j],
							  med, unit);
		p->tip = c->tips[c->n];
		c->n++;
	}
	free(v);
	free(clients);
}

static void
section_tps(struct doc *d)
{
	html(d, "<h2 id=\"tps\">Throughput against clients</h2>\n"
			"<p class=\"note\">Median tps over the blocks at every client "
			"count; the whisker spans the blocks' lowest to highest. Circled: "
			"each line's peak and, past it, its cliff (the first client count "
			"below half the peak).</p>\n");
	for (int w = 0; w < d->nworkloads; w++)
	{
		struct chart_line *cl = xcalloc((size_t) d->nlines, sizeof(*cl));
		struct curve *cv = xcalloc((size_t) d->nlines, sizeof(*cv));
		struct chart_mark *notes =
			xcalloc((size_t) d->nlines * 2 + 1, sizeof(*notes));
		int nnotes = 0;
		char *title = xasprintf("%s: tps against clients", d->workloads[w]);
		struct chart c = {.id = "tps",
						  .title = title,
						  .xlabel = "clients (log2)",
						  .ylabel = "tps",
						  .xscale = CHART_LOG2,
						  .ymin = NAN,
						  .ymax = NAN,
						  .yref = NAN};

		for (int l = 0; l < d->nlines; l++)
		{
			struct cmp_side_curve f;
			int *clients;
			double *med;

			curve_of(&d->lines[l], d->workloads[w], CMP_TPS, true, &cv[l]);
			clients = xmalloc((size_t) (cv[l].n + 1) * sizeof(int));
			med = xmalloc((size_t) (cv[l].n + 1) * sizeof(double));
			for (int i = 0; i < cv[l].n; i++)
				clients[i] = (int) cv[l].pts[i].x, med[i] = cv[l].pts[i].y;
			cmp_curve_facts(clients, med, cv[l].n, &f);
			if (cv[l].n > 1 && f.peak_clients > 0)
				notes[nnotes++] =
					(struct chart_mark){f.peak_clients, f.peak_tps, "peak"};
			for (int i = 0; i < cv[l].n && f.cliff_clients > 0; i++)
				if (clients[i] == f.cliff_clients)
					notes[nnotes++] =
						(struct chart_mark){clients[i], med[i], "cliff"};
			free(clients);
			free(med);
			cl[l] = (struct chart_line){.name = d->lines[l].label,
										.color = l,
										.pts = cv[l].pts,
										.n = cv[l].n,
										.markers = true};
		}
		c.lines = cl;
		c.nlines = d->nlines;
		c.notes = notes;
		c.nnotes = nnotes;
		emit(d, &c, "tps", d->workloads[w], 0);
		for (int l = 0; l < d->nlines; l++)
			curve_free(&cv[l]);
		free(cv);
		free(cl);
		free(notes);
		free(title);
	}
}

static void
section_latency(struct doc *d)
{
	html(d, "<h2 id=\"latency\">Latency against clients</h2>\n"
			"<p class=\"note\">Median over the blocks of each point's p50 "
			"(solid) and p99 (dashed), on a log scale.</p>\n");
	for (int w = 0; w < d->nworkloads; w++)
	{
		int n = 2 * d->nlines;
		struct chart_line *cl = xcalloc((size_t) n, sizeof(*cl));
		struct curve *cv = xcalloc((size_t) n, sizeof(*cv));
		char **names = xcalloc((size_t) n, sizeof(char *));
		char *title =
			xasprintf("%s: latency against clients", d->workloads[w]);
		struct chart c = {.id = "latency",
						  .title = title,
						  .xlabel = "clients (log2)",
						  .ylabel = "latency (ms, log10)",
						  .xscale = CHART_LOG2,
						  .yscale = CHART_LOG10,
						  .ymin = NAN,
						  .ymax = NAN,
						  .yref = NAN};

		for (int l = 0; l < d->nlines; l++)
			for (int k = 0; k < 2; k++)
			{
				int i = 2 * l + k;

				curve_of(&d->lines[l], d->workloads[w], k ? CMP_P99 : CMP_P50,
						 false, &cv[i]);
				names[i] =
					xasprintf("%s %s", d->lines[l].label, k ? "p99" : "p50");
				cl[i] = (struct chart_line){.name = names[i],
											.color = l,
											.pts = cv[i].pts,
											.n = cv[i].n,
											.markers = true,
											.dashed = k == 1};
			}
		c.lines = cl;
		c.nlines = n;
		emit(d, &c, "latency", d->workloads[w], 0);
		for (int i = 0; i < n; i++)
			curve_free(&cv[i]), free(names[i]);
		free(names);
		free(cv);
		free(cl);
		free(title);
	}
}

/* ------------------------------------------------------------- ratios */

static void
ratio_chart(struct doc *d, const struct result *r, const char *workload)
{
	const struct cmp_result *res = r->res;
	struct chart_point *pts = xcalloc((size_t) res->npoints + 1, sizeof(*pts));
	char **tips = xcalloc((size_t) res->npoints + 1, sizeof(char *));
	double margin = res->opts.margin;
	double lo_est = 1, hi_est = 1;
	int n = 0;
	struct chart_range band;
	struct chart_line line;
	char *title = xasprintf("%s: %s, B/A of %s", workload, r->title,
							cmp_opts_metric(&res->opts));
	struct chart c = {.id = "ratio",
					  .title = title,
					  .xlabel = "clients (log2)",
					  .ylabel = "B/A",
					  .xscale = CHART_LOG2,
					  .yref = 1};

	for (int i = 0; i < res->npoints; i++)
	{
		const struct cmp_point *p = &res->points[i];

		if (p->window || p->verdict == CMP_MISSING ||
			strcmp(p->workload, workload) != 0)
			continue;
		pts[n].x = p->clients;
		pts[n].y = p->r.ratio;
		pts[n].lo = p->r.lo;
		pts[n].hi = p->r.hi;
		pts[n].color = verdict_color(p->verdict);
		{
			struct strbuf tip = STRBUF_INIT;

			strbuf_addf(&tip, "%d clients: B/A %.3f ", p->clients, p->r.ratio);
			cmp_interval_text(&tip, p->r.lo, p->r.hi);
			strbuf_addf(&tip, " %s", cmp_verdict_name(p->verdict));
			tips[n] = strbuf_detach(&tip);
		}
		pts[n].tip = tips[n];
		lo_est = fmin(lo_est, p->r.ratio);
		hi_est = fmax(hi_est, p->r.ratio);
		n++;
	}
	if (n > 0)
	{
		/* room for the estimates and the band; an interval past it is cut
		 * at the plot's edge (its numbers are in the tooltip and table) */
		c.ymin =
			fmin(lo_est - 0.15 * (hi_est - lo_est) - 0.05, 1 - 2 * margin);
		c.ymax =
			fmax(hi_est + 0.15 * (hi_est - lo_est) + 0.05, 1 + 2 * margin);
		for (int i = 0; i < n; i++)
		{
			c.ymin = fmin(c.ymin, fmax(pts[i].lo, pts[i].y * 0.75));
			c.ymax = fmax(c.ymax, fmin(pts[i].hi, pts[i].y * 1.33));
		}
		c.ymin = fmax(c.ymin, 0);
		band = (struct chart_range){1 - margin, 1 + margin, "the margin"};
		line = (struct chart_line){
			.name = NULL, .color = 6, .pts = pts, .n = n, .markers = true};
		c.bands = &band;
		c.nbands = 1;
		c.lines = &line;
		c.nlines = 1;
		emit(d, &c, "ratio", workload, 0);
	}
	for (int i = 0; i < n; i++)
		free(tips[i]);
	free(tips);
	free(pts);
	free(title);
}

static void
verdict_table(struct doc *d, const struct result *r)
{
	const struct cmp_result *res = r->res;
	bool lower = !cmp_metric_higher_is_better(res->opts.metric);

	htmlf(d,
		  "<table class=\"verdicts\"><thead><tr><th>workload</th>"
		  "<th>window</th><th>clients</th><th>A (%s)</th><th>B</th>"
		  "<th>B/A</th><th>%.4g %% interval</th><th>blocks A, B</th>"
		  "<th>verdict</th></tr></thead><tbody>\n",
		  cmp_opts_metric(&res->opts), res->opts.conf * 100);
	for (int i = 0; i < res->npoints; i++)
	{
		const struct cmp_point *p = &res->points[i];
		char a[32], b[32];

		chart_number(a, sizeof(a), p->median_a);
		chart_number(b, sizeof(b), p->median_b);
		html(d, "<tr><td>");
		html_esc(d, p->workload);
		html(d, "</td><td>");
		html_esc(d, p->window ? p->window : "");
		htmlf(d, "</td><td class=\"num\">%d</td>", p->clients);
		if (p->verdict == CMP_MISSING)
			htmlf(d,
				  "<td class=\"num\">%s</td><td class=\"num\">%s</td>"
				  "<td></td><td></td><td class=\"num\">%d, %d</td>",
				  p->na ? a : "-", p->nb ? b : "-", p->na, p->nb);
		else
			htmlf(d,
				  "<td class=\"num\">%s</td><td class=\"num\">%s</td>"
				  "<td class=\"num\">%.3f</td><td class=\"num\">[%.3f, "
				  "%.3f]</td><td class=\"num\">%d, %d%s</td>",
				  a, b, p->r.ratio, p->r.lo, p->r.hi, p->na, p->nb,
				  p->paired ? " paired" : "");
		htmlf(d,
			  "<td><span class=\"verdict\" style=\"background:%s\">%s"
			  "</span></td></tr>\n",
			  verdict_color(p->verdict), cmp_verdict_name(p->verdict));
	}
	html(d, "</tbody></table>\n");
	htmlf(d,
		  "<p class=\"note\">Margin %.3g %% (%s is worse), rule %s, Holm over "
		  "%d judged point%s.</p>\n",
		  res->opts.margin * 100, lower ? "higher" : "lower",
		  cmp_rule_name(res->opts.rule), res->npoints - res->nmissing,
		  res->npoints - res->nmissing == 1 ? "" : "s");
}

static void
section_ratios(struct doc *d)
{
	if (d->nresults == 0)
		return;
	html(d,
		 "<h2 id=\"ratios\">B/A per point</h2>\n"
		 "<p class=\"note\">Each point's ratio with its interval; the grey "
		 "band is the margin. Colours: "
		 "<span class=\"verdict\" style=\"background:#c00000\">REGRESSION"
		 "</span> <span class=\"verdict\" style=\"background:#e69f00\">"
		 "INCONCLUSIVE</span> <span class=\"verdict\" "
		 "style=\"background:#6b6b6b\">SAME</span> <span class=\"verdict\" "
		 "style=\"background:#009e73\">FASTER</span> <span class=\"verdict\""
		 " style=\"background:#006d4f\">IMPROVED</span>.</p>\n");
	for (int i = 0; i < d->nresults; i++)
	{
		const struct result *r = &d->results[i];

		html(d, "<h3>");
		html_esc(d, r->title);
		htmlf(d,
			  ": <span class=\"verdict\" style=\"background:%s\">%s</span>"
			  "</h3>\n",
			  r->res->outcome == CMP_OUTCOME_REGRESSION     ? "#c00000"
			  : r->res->outcome == CMP_OUTCOME_INCONCLUSIVE ? "#e69f00"
															: "#009e73",
			  outcome_name(r->res->outcome));
		for (int w = 0; w < d->nworkloads; w++)
			ratio_chart(d, r, d->workloads[w]);
		verdict_table(d, r);
	}
}

/* ---------------------------------------------------------------- why */

static bool
any_why(const struct doc *d)
{
	for (int i = 0; i < d->nresults; i++)
		if (d->results[i].res->nwhy > 0)
			return true;
	return false;
}

/* One node's functions and waits (cmp_why_node) as a table. */
static void
why_node(struct doc *d, const struct cmp_why_node *n)
{
	html(d, "<h4>");
	html_esc(d, n->node);
	html(d, "</h4>\n");
	if (n->nfuncs > 0)
	{
		htmlf(d,
			  "<p class=\"note\">CPU profile: %" PRIu64 " and %" PRIu64
			  " samples in %d and %d block%s%s.</p>\n",
			  n->a_samples, n->b_samples, n->na, n->nb, n->nb == 1 ? "" : "s",
			  n->paired ? ", paired by block" : "");
		html(d, "<table class=\"why\"><thead><tr><th>function</th>"
				"<th>module</th><th>A %</th><th>B %</th><th>B - A (pp)</th>"
				"<th>interval</th></tr></thead><tbody>\n");
		for (int k = 0; k < n->nfuncs; k++)
		{
			const struct cmp_why_func *f = &n->funcs[k];

			html(d, "<tr><td><code>");
			html_esc(d, f->symbol);
			html(d, "</code></td><td>");
			html_esc(d, f->dso);
			htmlf(d,
				  "</td><td class=\"num\">%.2f</td><td class=\"num\">%.2f"
				  "</td><td class=\"num\" style=\"color:%s\">%+.2f</td>",
				  f->a_pct, f->b_pct, f->d.diff > 0 ? "#c00000" : "#006d4f",
				  f->d.diff);
			if (isfinite(f->d.lo) && isfinite(f->d.hi))
				htmlf(d, "<td class=\"num\">[%+.2f, %+.2f]</td></tr>\n",
					  f->d.lo, f->d.hi);
			else
				htmlf(d, "<td>none: %d block%s</td></tr>\n", f->d.n,
					  f->d.n == 1 ? "" : "s");
		}
		html(d, "</tbody></table>\n");
	}
	if (n->nwaits > 0)
	{
		html(d, "<table class=\"why\"><thead><tr><th>wait event</th>"
				"<th>A per sample</th><th>B per sample</th><th>B/A</th></tr>"
				"</thead><tbody>\n");
		for (int k = 0; k < n->nwaits; k++)
		{
			const struct cmp_why_wait *w = &n->waits[k];

			html(d, "<tr><td>");
			html_esc(d, w->event);
			htmlf(d,
				  "</td><td class=\"num\">%.2f</td><td class=\"num\">%.2f"
				  "</td><td class=\"num\">",
				  w->a_per_s, w->b_per_s);
			if (w->a_per_s > 0 && w->b_per_s > 0)
				htmlf(d, "&times;%.2f", w->b_per_s / w->a_per_s);
			else
				html(d, w->a_per_s > 0 ? "gone" : "new");
			html(d, "</td></tr>\n");
		}
		html(d, "</tbody></table>\n");
	}
}

/* Where the time went: each result's cmp_why, per step and node. */
static void
section_why(struct doc *d)
{
	if (!any_why(d))
		return;
	htmlf(d,
		  "<h2 id=\"why\">Where the time went</h2>\n"
		  "<p class=\"note\">Per step and server: the functions whose share "
		  "of the CPU samples changed most (B - A in percentage points, "
		  "with its %.4g %% interval over blocks; a function outside a "
		  "block's stored top counts as 0 there), and the wait events whose "
		  "count per sample changed most.</p>\n",
		  d->results[0].res->opts.conf * 100);
	for (int i = 0; i < d->nresults; i++)
	{
		const struct cmp_result *res = d->results[i].res;

		if (res->nwhy == 0)
			continue;
		html(d, "<h3>");
		html_esc(d, d->results[i].title);
		html(d, "</h3>\n");
		for (int j = 0; j < res->nwhy; j++)
		{
			html(d, "<p><strong>");
			html_esc(d, res->why[j].step);
			html(d, "</strong></p>\n");
			for (int k = 0; k < res->why[j].nnodes; k++)
				why_node(d, &res->why[j].nodes[k]);
		}
	}
}

/* ------------------------------------------------------------- series */

/* The steps of every line with signature SIG, in line and repeat order. */
static int
steps_with(struct doc *d, const char *sig, const struct step **out)
{
	int n = 0;

	for (int l = 0; l < d->nlines; l++)
		for (int i = 0; i < d->nsteps; i++)
			if (d->steps[i].line == l && strcmp(d->steps[i].sig, sig) == 0)
				out[n++] = &d->steps[i];
	return n;
}

static const struct store_point_row *
row_of(const struct doc *d, const struct step *s, const char *workload)
{
	const struct line *l = &d->lines[s->line];

	for (int i = 0; i < l->nrows; i++)
		if (l->rows[i].run_id == s->run_id &&
			l->rows[i].order_idx == s->order_idx &&
			(workload == NULL || strcmp(l->rows[i].workload, workload) == 0))
			return &l->rows[i];
	return NULL;
}

struct drawn
{
	struct chart_line *lines;
	int nlines;
	struct chart_point **pts;
	char **names;
	struct chart_mark *events;
	int nevents;
	char **labels;
	int nlabels;
};

static void
drawn_free(struct drawn *x)
{
	for (int i = 0; i < x->nlines; i++)
		free(x->pts[i]), free(x->names[i]);
	for (int i = 0; i < x->nlabels; i++)
		free(x->labels[i]);
	free(x->pts);
	free(x->names);
	free(x->lines);
	free(x->events);
	free(x->labels);
	memset(x, 0, sizeof(*x));
}

static char *
keep_label(struct drawn *x, char *s)
{
	x->labels =
		xrealloc(x->labels, (size_t) (x->nlabels + 1) * sizeof(char *));
	return x->labels[x->nlabels++] = s;
}

static void
drawn_line(struct drawn *x, struct chart_point *pts, int n, char *name,
		   int color, bool faint, bool dashed)
{
	size_t k = (size_t) x->nlines + 1;

	x->lines = xrealloc(x->lines, k * sizeof(*x->lines));
	x->pts = xrealloc(x->pts, k * sizeof(struct chart_point *));
	x->names = xrealloc(x->names, k * sizeof(*x->names));
	x->pts[x->nlines] = pts;
	x->names[x->nlines] = name;
	x->lines[x->nlines] = (struct chart_line){.name = name,
											  .color = color,
											  .pts = pts,
											  .n = n,
											  .faint = faint,
											  .dashed = dashed};
	x->nlines++;
}

/* The timed events of the step S (any workload's), as event lines. */
static int
step_events(struct doc *d, const struct step *s, struct drawn *x,
			struct pgc_error *err)
{
	const struct line *l = &d->lines[s->line];

	for (int i = 0; i < l->nrows; i++)
	{
		struct store_event_row *ev;
		int nev;

		if (l->rows[i].run_id != s->run_id ||
			l->rows[i].order_idx != s->order_idx)
			continue;
		if (store_get_events(d->st, l->rows[i].id, &ev, &nev, err) < 0)
			return -1;
		for (int k = 0; k < nev; k++)
		{
			x->events = xrealloc(x->events, (size_t) (x->nevents + 1) *
												sizeof(*x->events));
			x->events[x->nevents++] = (struct chart_mark){
				ev[k].actual_s, NAN,
				keep_label(x, xasprintf("%s %d of %s, block %d: planned at "
										"%.3f s, started at %.3f s",
										l->rows[i].workload, ev[k].seq,
										l->label, s->repeat_idx + 1,
										ev[k].planned_s, ev[k].actual_s))};
		}
		free(ev);
	}
	return 0;
}

static int
series_chart(struct doc *d, const struct step *const *steps, int nsteps,
			 const char *workload, struct pgc_error *err)
{
	struct drawn x = {0};
	struct store_window_row *win = NULL;
	struct chart_range *spans = NULL;
	int nwin = 0;
	char *title = NULL;
	struct chart c = {.id = "series",
					  .xlabel = "second of the measured stretch",
					  .ylabel = "transactions per second",
					  .ymin = NAN,
					  .ymax = NAN,
					  .yref = NAN,
					  .width = 900};
	int rc = -1;

	for (int i = 0; i < nsteps; i++)
	{
		const struct store_point_row *p = row_of(d, steps[i], workload);
		struct store_series_row *sr;
		struct chart_point *pts;
		int ns;

		if (p == NULL)
			continue;
		if (store_get_series(d->st, p->id, &sr, &ns, err) < 0)
			goto out;
		pts = xcalloc((size_t) ns + 1, sizeof(*pts));
		for (int k = 0; k < ns; k++)
			pts[k] = (struct chart_point){
				sr[k].second, (double) sr[k].transactions, NAN, NAN, NULL,
				NULL};
		free(sr);
		drawn_line(&x, pts, ns, xstrdup(d->lines[steps[i]->line].label),
				   steps[i]->line, steps[i]->repeat_idx > 0, false);
		if (step_events(d, steps[i], &x, err) < 0)
			goto out;
		if (title == NULL)
		{
			title = xasprintf("%s, %d client%s: per second", workload,
							  p->clients, p->clients == 1 ? "" : "s");
			if (store_get_windows(d->st, p->id, &win, &nwin, err) < 0)
				goto out;
		}
	}
	if (x.nlines == 0)
	{
		rc = 0;
		goto out;
	}
	spans = xcalloc((size_t) nwin + 1, sizeof(*spans));
	for (int i = 0; i < nwin; i++)
		spans[i] =
			(struct chart_range){win[i].start_s, win[i].end_s, win[i].name};
	c.title = title;
	c.lines = x.lines;
	c.nlines = x.nlines;
	c.spans = spans;
	c.nspans = nwin;
	c.events = x.events;
	c.nevents = x.nevents;
	emit(d, &c, "series", workload, steps[0]->clients);
	rc = 0;
out:
	free(spans);
	store_windows_free(win, nwin);
	free(title);
	drawn_free(&x);
	return rc;
}

/* "name n, name n" of the TOP largest counts of ACC into OUT. */
static void
top_counts(struct doc *d, json_t *acc, int top)
{
	const char *best_k[8];
	json_int_t best_v[8];
	int nb = 0;
	const char *k;
	json_t *v;

	json_object_foreach(acc, k, v)
	{
		json_int_t x = json_integer_value(v);
		int i;

		if (x <= 0)
			continue;
		for (i = nb; i > 0 && best_v[i - 1] < x; i--)
			if (i < top)
				best_k[i] = best_k[i - 1], best_v[i] = best_v[i - 1];
		if (i < top)
		{
			best_k[i] = k, best_v[i] = x;
			if (nb < top)
				nb++;
		}
	}
	if (nb == 0)
		html(d, "none");
	for (int i = 0; i < nb; i++)
	{
		html(d, i ? ", " : "");
		html_esc(d, best_k[i]);
		htmlf(d, " %" PRId64, (int64_t) best_v[i]);
	}
}

/*
 * The recipe's probes of NODE in the step whose point P is, per window
 * of P ("during: kax.used 8998, ..."), or over the whole point without
 * windows.  Whether there were any.
 */
static bool
probe_cell(struct doc *d, const struct store_point_row *p,
		   const struct store_sample_row *rows, int n, const char *node)
{
	struct store_window_row *win = NULL,
							whole = {NULL, 0, INT_MAX, 0, false, 0, 0};
	struct pgc_error ignored;
	int nwin = 0;
	bool any = false;

	if (p == NULL ||
		store_get_windows(d->st, p->id, &win, &nwin, &ignored) < 0)
		nwin = 0;
	for (int w = 0; w < (nwin > 0 ? nwin : 1); w++)
	{
		const struct store_window_row *x = nwin > 0 ? &win[w] : &whole;
		struct report_probe_figure *f = NULL;
		int nf = report_probe_figures(rows, n, node, x->start_s, x->end_s, &f);

		if (nf > 0)
		{
			html(d, any ? "<br>" : "");
			if (x->name)
			{
				html_esc(d, x->name);
				html(d, ": ");
			}
			for (int i = 0; i < nf; i++)
			{
				html(d, i ? ", " : "");
				html_esc(d, f[i].name);
				htmlf(d, " %.6g", f[i].value);
			}
			any = true;
		}
		report_probe_figures_free(f, nf);
	}
	store_windows_free(win, nwin);
	return any;
}

/* The servers' samples of the first block of each line at signature SIG. */
static int
samples_part(struct doc *d, const struct step *const *steps, int nsteps,
			 struct pgc_error *err)
{
	struct drawn x = {0};
	struct strbuf table = STRBUF_INIT;
	bool any_lag = false, any = false, any_probe = false;
	bool *seen = xcalloc((size_t) d->nlines + 1, sizeof(bool));
	int rc = -1;

	for (int i = 0; i < nsteps; i++)
	{
		const struct step *s = steps[i];
		struct store_sample_row *rows;
		int n;
		const char *nodes[2] = {"primary", "standby"};

		if (seen[s->line])
			continue; /* the first block of each line is enough */
		seen[s->line] = true;
		if (store_get_samples(d->st, s->run_id, s->order_idx, &rows, &n, err) <
			0)
			goto out;
		for (int k = 0; k < 2; k++)
		{
			json_t *waits = json_object(), *conflicts = json_object();
			struct chart_point *pts = xcalloc((size_t) n + 1, sizeof(*pts));
			int np = 0, nrow = 0;
			int64_t commits = 0;
			bool standby = false;

			for (int r = 0; r < n; r++)
			{
				if (strcmp(rows[r].node, nodes[k]) != 0 || !rows[r].ok)
					continue;
				nrow++;
				commits += rows[r].commits;
				report_json_add_counts(waits, rows[r].waits);
				report_json_add_counts(conflicts, rows[r].conflicts);
				if (rows[r].standby)
				{
					standby = true;
					pts[np++] = (struct chart_point){
						rows[r].second,
						(double) rows[r].lag_bytes / 1024.0,
						NAN,
						NAN,
						NULL,
						NULL};
				}
			}
			if (standby && np > 0)
			{
				drawn_line(
					&x, pts, np,
					xasprintf("%s %s", d->lines[s->line].label, nodes[k]),
					s->line, false, false);
				any_lag = true;
			}
			else
				free(pts);
			if (nrow > 0 && d->o->chart == NULL)
			{
				struct doc t = *d;

				any = true;
				t.out = &table;
				html(&t, "<tr><td>");
				html_esc(&t, d->lines[s->line].label);
				htmlf(&t, "</td><td>%s</td><td class=\"num\">%.0f</td><td>",
					  nodes[k], (double) commits / nrow);
				top_counts(&t, waits, 5);
				html(&t, "</td><td>");
				top_counts(&t, conflicts, 5);
				html(&t, "</td><td>");
				any_probe |=
					probe_cell(&t, row_of(d, s, NULL), rows, n, nodes[k]);
				html(&t, "</td></tr>\n");
			}
			json_decref(waits);
			json_decref(conflicts);
		}
		store_samples_free(rows, n);
	}
	if (any_lag)
	{
		struct chart c = {.id = "lag",
						  .title = "replay lag of the standby",
						  .xlabel = "second of the measured stretch",
						  .ylabel = "replay lag (kB)",
						  .ymin = NAN,
						  .ymax = NAN,
						  .yref = NAN,
						  .lines = x.lines,
						  .nlines = x.nlines,
						  .width = 900,
						  .height = 220};

		emit(d, &c, "lag", NULL, steps[0]->clients);
	}
	if (any)
	{
		html(d, "<table class=\"samples\"><thead><tr><th>line</th>"
				"<th>node</th><th>commits/s</th><th>top wait events "
				"(samples)</th><th>recovery conflicts</th><th>");
		html(d, any_probe ? "probes (mean per window)" : "");
		html(d, "</th></tr></thead><tbody>\n");
		html(d, table.buf);
		html(d, "</tbody></table>\n");
	}
	rc = 0;
out:
	free(seen);
	strbuf_release(&table);
	drawn_free(&x);
	return rc;
}

/* The client count of the first step with signature SIG. */
static int
sig_clients(const struct doc *d, const char *sig)
{
	for (int i = 0; i < d->nsteps; i++)
		if (strcmp(d->steps[i].sig, sig) == 0)
			return d->steps[i].clients;
	return 0;
}

static int
section_series(struct doc *d, struct pgc_error *err)
{
	char **sigs = NULL;
	int nsigs = 0, rc = 0;
	const struct step **steps =
		xcalloc((size_t) d->nsteps + 1, sizeof(const struct step *));

	for (int i = 0; i < d->nsteps; i++)
		add_unique(&sigs, &nsigs, d->steps[i].sig);
	/* sweep points by their client count, as the other charts run */
	for (int i = 1; i < nsigs; i++)
		for (int j = i;
			 j > 0 && sig_clients(d, sigs[j - 1]) > sig_clients(d, sigs[j]);
			 j--)
		{
			char *t = sigs[j];

			sigs[j] = sigs[j - 1];
			sigs[j - 1] = t;
		}
	html(d, "<h2 id=\"series\">Per second</h2>\n"
			"<p class=\"note\">Every block of every sweep point: the first "
			"block bold, later ones faint. Red dashed lines: timed events "
			"(when their first client began); shaded: the recipe's windows. "
			"Long series are thinned for drawing (each pixel keeps its "
			"lowest and highest second); every figure uses all of "
			"them.</p>\n");
	for (int g = 0; g < nsigs && rc == 0; g++)
	{
		int n = steps_with(d, sigs[g], steps);

		html(d, "<h3>");
		html_esc(d, sigs[g]);
		html(d, "</h3>\n");
		for (int w = 0; w < d->nworkloads && rc == 0; w++)
			rc = series_chart(d, steps, n, d->workloads[w], err);
		if (rc == 0)
			rc = samples_part(d, steps, n, err);
	}
	free(steps);
	free_list(sigs, nsigs);
	return rc;
}

/* --------------------------------------------------------- provenance */

static void
pre(struct doc *d, const char *text)
{
	html(d, "<pre>");
	html_esc(d, text ? text : "");
	html(d, "</pre>");
}

/* JSON object TEXT's value at KEY as text (caller frees); NULL: none. */
static char *
setting_of(const char *text, const char *key)
{
	json_t *j = text ? json_loads(text, 0, NULL) : NULL;
	json_t *v = j ? json_object_get(j, key) : NULL;
	char *s = NULL;

	if (v && json_is_string(v))
		s = xstrdup(json_string_value(v));
	else if (v)
		s = json_dumps(v, JSON_ENCODE_ANY);
	json_decref(j);
	return s;
}

static void
settings_table(struct doc *d, struct store_variant_row *const *vars, int n)
{
	char **keys = NULL;
	int nkeys = 0, shown = 0;

	for (int i = 0; i < n; i++)
	{
		json_t *j =
			vars[i]->settings ? json_loads(vars[i]->settings, 0, NULL) : NULL;
		const char *k;
		json_t *v;

		if (j && json_is_object(j))
			json_object_foreach(j, k, v) add_unique(&keys, &nkeys, k);
		json_decref(j);
	}
	if (nkeys > 1)
		qsort(keys, (size_t) nkeys, sizeof(char *), cmp_str);
	html(d, "<table class=\"settings\"><thead><tr><th>setting</th>");
	for (int i = 0; i < n; i++)
	{
		html(d, "<th>");
		html_esc(d, vars[i]->name);
		html(d, "</th>");
	}
	html(d, "</tr></thead><tbody>\n");
	for (int k = 0; k < nkeys; k++)
	{
		char **vals = xcalloc((size_t) n, sizeof(char *));
		bool differ = n == 1;

		for (int i = 0; i < n; i++)
		{
			vals[i] = setting_of(vars[i]->settings, keys[k]);
			if (i > 0 && ((vals[i] == NULL) != (vals[0] == NULL) ||
						  (vals[i] && strcmp(vals[i], vals[0]) != 0)))
				differ = true;
		}
		if (differ)
		{
			shown++;
			html(d, "<tr><td>");
			html_esc(d, keys[k]);
			html(d, "</td>");
			for (int i = 0; i < n; i++)
			{
				html(d, "<td>");
				html_esc(d, vals[i] ? vals[i] : "(default)");
				html(d, "</td>");
			}
			html(d, "</tr>\n");
		}
		for (int i = 0; i < n; i++)
			free(vals[i]);
		free(vals);
	}
	if (shown == 0)
		htmlf(d,
			  "<tr><td colspan=\"%d\">the same on every variant</td></tr>\n",
			  n + 1);
	html(d, "</tbody></table>\n");
	free_list(keys, nkeys);
}

static int
section_provenance(struct doc *d, struct pgc_error *err)
{
	struct store_variant_row **shown = NULL;
	struct store_variant_row **owned = NULL;
	int *nowned = NULL, nshown = 0;
	int rc = -1;

	html(d, "<h2 id=\"provenance\">Provenance</h2>\n");
	owned = xcalloc((size_t) d->nruns + 1, sizeof(struct store_variant_row *));
	nowned = xcalloc((size_t) d->nruns + 1, sizeof(int));
	for (int r = 0; r < d->nruns; r++)
	{
		struct store_run_row run;
		char *recipe = NULL;

		if (store_get_run(d->st, d->runs[r], &run, err) < 0)
			goto out;
		htmlf(d, "<h3>Run %" PRId64 ": ", run.id);
		html_esc(d, run.recipe);
		html(d, "</h3>\n<table class=\"kv\">");
		struct
		{
			const char *k;
			const char *v;
		} kv[] = {{"status", run.status},
				  {"error", run.error},
				  {"started", run.started_at},
				  {"ended", run.ended_at},
				  {"host", run.host},
				  {"pgcliff", run.tool_version},
				  {"command", run.command_line},
				  {"recipe file", run.recipe_path},
				  {"recipe sha256", run.recipe_sha256},
				  {"measure", run.measure}};
		for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		{
			if (kv[i].v == NULL || !*kv[i].v)
				continue;
			htmlf(d, "<tr><th>%s</th><td>", kv[i].k);
			html_esc(d, kv[i].v);
			html(d, "</td></tr>");
		}
		htmlf(d, "<tr><th>seed</th><td>%" PRId64 "</td></tr></table>\n",
			  run.seed);
		if (store_get_recipe_text(d->st, run.id, &recipe, err) < 0)
		{
			store_run_row_release(&run);
			goto out;
		}
		html(d, "<details><summary>the recipe as run</summary>");
		pre(d, recipe);
		html(d, "</details>\n");
		if (run.script_files)
		{
			html(d, "<details><summary>its script files</summary>");
			pre(d, run.script_files);
			html(d, "</details>\n");
		}
		free(recipe);
		if (store_get_variants(d->st, run.id, &owned[r], &nowned[r], err) < 0)
		{
			store_run_row_release(&run);
			goto out;
		}
		html(d, "<table class=\"variants\"><thead><tr><th>variant</th>"
				"<th>server</th><th>kind</th><th>bindir or target</th>"
				"<th>settings asked for</th><th>defines</th></tr></thead>"
				"<tbody>\n");
		for (int i = 0; i < nowned[r]; i++)
		{
			struct store_variant_row *v = &owned[r][i];
			bool used = false;

			for (int l = 0; l < d->nlines && !used; l++)
				for (int k = 0; k < d->lines[l].nrows && !used; k++)
					used = d->lines[l].rows[k].run_id == run.id &&
						   strcmp(d->lines[l].rows[k].variant, v->name) == 0;
			if (!used)
				continue;
			shown = xrealloc(shown, (size_t) (nshown + 1) *
										sizeof(struct store_variant_row *));
			shown[nshown++] = v;
			html(d, "<tr><td>");
			html_esc(d, v->name);
			html(d, "</td><td>");
			html_esc(d, v->server_version);
			html(d, "</td><td>");
			html_esc(d, v->kind);
			html(d, "</td><td>");
			html_esc(d, v->target ? v->target : v->bindir);
			html(d, "</td><td>");
			html_esc(d, v->gucs);
			html(d, "</td><td>");
			html_esc(d, v->defines);
			html(d, "</td></tr>\n");
			if (v->build)
			{
				html(d, "<tr><td></td><td colspan=\"5\"><details><summary>"
						"built from source (patches, configure, "
						"defines)</summary>");
				pre(d, v->build);
				html(d, "</details></td></tr>\n");
			}
		}
		html(d, "</tbody></table>\n");
		store_run_row_release(&run);
	}
	html(d, nshown > 1 ? "<h3>Settings that differ</h3>\n"
					   : "<h3>Settings not at their defaults</h3>\n");
	settings_table(d, shown, nshown);
	rc = 0;
out:
	for (int r = 0; r < d->nruns; r++)
		store_variants_free(owned[r], nowned[r]);
	free(owned);
	free(nowned);
	free(shown);
	return rc;
}

/* --------------------------------------------------------- the page */

static const char style[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;"
	"max-width:960px;padding:0 16px;color:#1a1a1a}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:"
	"1px solid #ccc}h3{font-size:15px}h4{font-size:14px;margin:10px 0 4px}"
	"figure{margin:12px 0}svg.chart{max-width:100%;height:auto}"
	"table{border-collapse:collapse;margin:8px 0;font-size:13px}"
	"td,th{border:1px solid #ddd;padding:3px 7px;text-align:left;"
	"vertical-align:top}td.num{text-align:right;"
	"font-variant-numeric:tabular-nums}"
	".verdict{color:#fff;padding:1px 6px;border-radius:3px;font-weight:600;"
	"white-space:nowrap}.note{color:#555;font-size:13px}"
	"pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;"
	"padding:8px;font-size:12px}nav a{margin-right:12px}";

static int
render(struct doc *d, struct pgc_error *err)
{
	if (model(d, err) < 0)
		return -1;
	if (d->o->chart == NULL)
	{
		strbuf_addstr(
			d->out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
					"<meta charset=\"utf-8\">\n"
					"<meta http-equiv=\"Content-Security-Policy\" "
					"content=\"default-src 'none'; style-src "
					"'unsafe-inline'\">\n"
					"<meta name=\"viewport\" content=\"width=device-width\">\n"
					"<meta name=\"generator\" content=\"pgcliff report, "
					"format 1\">\n<title>");
		esc(d, d->title);
		strbuf_addf(d->out,
					"</title>\n<style>%s</style>\n</head>\n<body>\n"
					"<h1>",
					style);
		esc(d, d->title);
		strbuf_addstr(d->out, "</h1>\n");
		for (int i = 0; i < d->nresults; i++)
		{
			strbuf_addstr(d->out, "<p>");
			esc(d, d->results[i].title);
			strbuf_addf(d->out,
						": <span class=\"verdict\" style=\"background:%s\">%s"
						"</span> (%d regression%s, %d inconclusive)</p>\n",
						d->results[i].res->outcome == CMP_OUTCOME_REGRESSION
							? "#c00000"
						: d->results[i].res->outcome ==
								CMP_OUTCOME_INCONCLUSIVE
							? "#e69f00"
							: "#009e73",
						outcome_name(d->results[i].res->outcome),
						d->results[i].res->nregressions,
						d->results[i].res->nregressions == 1 ? "" : "s",
						d->results[i].res->ninconclusive);
		}
		if (d->nworkloads == 0)
			strbuf_addstr(d->out, "<p><strong>No measured point was stored."
								  "</strong> The provenance below says "
								  "what the run did.</p>\n");
		strbuf_addstr(d->out, "<nav><a href=\"#tps\">throughput</a>");
		if (d->nresults)
			strbuf_addstr(d->out, "<a href=\"#ratios\">B/A</a>");
		if (any_why(d))
			strbuf_addstr(d->out, "<a href=\"#why\">why</a>");
		strbuf_addstr(d->out,
					  "<a href=\"#latency\">latency</a>"
					  "<a href=\"#series\">per second</a>"
					  "<a href=\"#provenance\">provenance</a></nav>\n");
	}
	section_tps(d);
	section_ratios(d);
	section_why(d);
	section_latency(d);
	if (section_series(d, err) < 0)
		return -1;
	if (d->o->chart == NULL)
	{
		if (section_provenance(d, err) < 0)
			return -1;
		strbuf_addstr(d->out, "</body>\n</html>\n");
	}
	else if (!d->svg_done)
	{
		error_set(err, PGC_ERR_USAGE, "no %s chart%s%s%s here", d->o->chart,
				  d->o->workload ? " of workload " : "",
				  d->o->workload ? d->o->workload : "",
				  d->o->clients > 0 ? " at that client count" : "");
		error_hint(err, "charts: tps, ratio (with two variants or sides), "
						"latency, series, lag (a standby's samples)");
		return -1;
	}
	return 0;
}

static void
doc_free(struct doc *d)
{
	for (int i = 0; i < d->nsteps; i++)
		free(d->steps[i].sig);
	free(d->steps);
	free_list(d->workloads, d->nworkloads);
	free_list(d->eventloads, d->neventloads);
	free(d->runs);
}

bool
report_chart_known(const char *name)
{
	static const char *const names[] = {"tps", "ratio", "latency", "series",
										"lag"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

int
report_html_compare(struct store *st, const struct cmp_side *a,
					const struct cmp_side *b, const struct cmp_result *res,
					const struct cmp_labels *labels,
					const struct report_html_opts *o, struct strbuf *out,
					struct pgc_error *err)
{
	struct doc d = {0};
	struct line lines[2];
	struct result r;
	char *la = xasprintf("A: %s", labels->a),
		 *lb = xasprintf("B: %s", labels->b);
	char *title =
		xasprintf("%s%sA against B", labels->recipe ? labels->recipe : "",
				  labels->recipe ? ": " : "");
	int rc;

	lines[0] = (struct line){la, a->rows, a->nrows};
	lines[1] = (struct line){lb, b->rows, b->nrows};
	r.res = res;
	r.title = "B against A";
	d.st = st;
	d.o = o;
	d.out = out;
	d.title = title;
	d.lines = lines;
	d.nlines = 2;
	d.results = &r;
	d.nresults = 1;
	rc = render(&d, err);
	doc_free(&d);
	free(la);
	free(lb);
	free(title);
	return rc;
}

int
report_html_run(struct store *st, int64_t run_id, const struct cmp_query *q,
				const struct report_html_opts *o, struct strbuf *out,
				struct pgc_error *err)
{
	struct store_run_row run;
	struct store_variant_row *vars = NULL;
	struct store_point_row *rows = NULL;
	int nvars = 0, nrows = 0, rc = -1;
	struct doc d = {0};
	struct line *lines = NULL;
	struct result *results = NULL;
	struct cmp_result *res = NULL;
	struct cmp_side *sides = NULL;
	struct store_point_row **byvar = NULL;
	char *title = NULL;
	int nres = 0;

	if (store_get_run(st, run_id, &run, err) < 0)
		return -1;
	if (store_get_variants(st, run_id, &vars, &nvars, err) < 0 ||
		store_get_points(st, run_id, &rows, &nrows, err) < 0)
		goto out;
	lines = xcalloc((size_t) nvars + 1, sizeof(*lines));
	byvar = xcalloc((size_t) nvars + 1, sizeof(struct store_point_row *));
	for (int v = 0; v < nvars; v++)
	{
		int n = 0;

		byvar[v] = xcalloc((size_t) nrows + 1, sizeof(**byvar));
		/* shallow copies: the rows stay owned by ROWS */
		for (int i = 0; i < nrows; i++)
			if (strcmp(rows[i].variant, vars[v].name) == 0)
				byvar[v][n++] = rows[i];
		lines[v] = (struct line){vars[v].name, byvar[v], n};
	}
	/* every variant after the first against the first, as compare would */
	res = xcalloc((size_t) nvars + 1, sizeof(*res));
	results = xcalloc((size_t) nvars + 1, sizeof(*results));
	sides = xcalloc(2 * (size_t) nvars + 2, sizeof(*sides));
	for (int v = 1; v < nvars; v++)
	{
		struct cmp_side *sa = &sides[2 * (size_t) v];
		struct cmp_side *sb = &sides[2 * (size_t) v + 1];
		struct cmp_labels labels;

		sa->text = vars[0].name;
		sa->s.run_id = run_id;
		sa->s.variant = vars[0].name;
		sa->block_hi = -1;
		sb->text = vars[v].name;
		sb->s.run_id = run_id;
		sb->s.variant = vars[v].name;
		sb->block_hi = -1;
		if (compare_stored(st, sa, sb, q, &res[nres], &labels, err) < 0)
		{
			/* a variant with nothing to judge (an interrupted run, or no
			 * samples of the metric) is drawn, not judged */
			if (err->kind != PGC_ERR_USAGE && err->kind != PGC_ERR_NOT_FOUND)
				goto out;
			compare_result_free(&res[nres]);
			error_clear(err);
			continue;
		}
		results[nres].res = &res[nres];
		results[nres].title = title =
			xasprintf("%s against %s", vars[v].name, vars[0].name);
		/* the titles are freed with the sides' labels below */
		sb->kept =
			xrealloc(sb->kept, (size_t) (sb->nkept + 1) * sizeof(char *));
		sb->kept[sb->nkept++] = title;
		title = NULL;
		nres++;
	}
	title = xasprintf("%s, run %" PRId64, run.recipe, run_id);
	/* its provenance even when no point was stored */
	d.runs = xmalloc(sizeof(int64_t));
	d.runs[0] = run_id;
	d.nruns = 1;
	d.st = st;
	d.o = o;
	d.out = out;
	d.title = title;
	d.lines = lines;
	d.nlines = nvars;
	d.results = results;
	d.nresults = nres;
	rc = render(&d, err);
out:
	doc_free(&d);
	for (int i = 0; i < nres; i++)
		compare_result_free(&res[i]);
	for (int i = 0; sides && i < 2 * nvars + 2; i++)
		cmp_side_release(&sides[i]);
	for (int v = 0; byvar && v < nvars; v++)
		free(byvar[v]);
	free(byvar);
	free(sides);
	free(results);
	free(res);
	free(lines);
	free(title);
	store_points_free(rows, nrows);
	store_variants_free(vars, nvars);
	store_run_row_release(&run);
	return rc;
}
