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

#include "html_int.h"

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

void
doc_list_add(char ***list, int *n, const char *s)
{
	if (in_list(*list, *n, s))
		return;
	*list = xrealloc(*list, (size_t) (*n + 1) * sizeof(char *));
	(*list)[(*n)++] = xstrdup(s);
}

void
doc_list_free(char **list, int n)
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

int
doc_strcmp(const void *a, const void *b)
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
void
doc_chart(struct doc *d, const struct chart *c, const char *kind,
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

void
doc_raw(struct doc *d, const char *s)
{
	if (d->o->chart == NULL)
		strbuf_addstr(d->out, s);
}

void
doc_printf(struct doc *d, const char *fmt, ...)
{
	va_list ap;

	if (d->o->chart)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(d->out, fmt, ap);
	va_end(ap);
}

void
doc_esc(struct doc *d, const char *s)
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
				doc_list_add(&d->eventloads, &d->neventloads, p->workload);
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
				doc_list_add(&d->workloads, &d->nworkloads,
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
	doc_raw(d,
			"<h2 id=\"tps\">Throughput against clients</h2>\n"
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
		doc_chart(d, &c, "tps", d->workloads[w], 0);
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
	doc_raw(d, "<h2 id=\"latency\">Latency against clients</h2>\n"
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
		doc_chart(d, &c, "latency", d->workloads[w], 0);
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
		doc_chart(d, &c, "ratio", workload, 0);
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

	doc_printf(d,
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
		doc_raw(d, "<tr><td>");
		doc_esc(d, p->workload);
		doc_raw(d, "</td><td>");
		doc_esc(d, p->window ? p->window : "");
		doc_printf(d, "</td><td class=\"num\">%d</td>", p->clients);
		if (p->verdict == CMP_MISSING)
			doc_printf(d,
					   "<td class=\"num\">%s</td><td class=\"num\">%s</td>"
					   "<td></td><td></td><td class=\"num\">%d, %d</td>",
					   p->na ? a : "-", p->nb ? b : "-", p->na, p->nb);
		else
			doc_printf(d,
					   "<td class=\"num\">%s</td><td class=\"num\">%s</td>"
					   "<td class=\"num\">%.3f</td><td class=\"num\">[%.3f, "
					   "%.3f]</td><td class=\"num\">%d, %d%s</td>",
					   a, b, p->r.ratio, p->r.lo, p->r.hi, p->na, p->nb,
					   p->paired ? " paired" : "");
		doc_printf(d,
				   "<td><span class=\"verdict\" style=\"background:%s\">%s"
				   "</span></td></tr>\n",
				   verdict_color(p->verdict), cmp_verdict_name(p->verdict));
	}
	doc_raw(d, "</tbody></table>\n");
	doc_printf(
		d,
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
	doc_raw(
		d, "<h2 id=\"ratios\">B/A per point</h2>\n"
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

		doc_raw(d, "<h3>");
		doc_esc(d, r->title);
		doc_printf(
			d,
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
	doc_list_free(d->workloads, d->nworkloads);
	doc_list_free(d->eventloads, d->neventloads);
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
