/*
 * render.c - a comparison as text (the table for a mail), Markdown (a PR
 * comment), JSON (versioned, documented in report/FORMATS.md) and JUnit
 * XML (a testcase per point, a failure per regression).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"

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
	else
		return -1;
	return 0;
}

static const char *
outcome_name(enum cmp_outcome o)
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
	if (isfinite(v))
		strbuf_addf(out, "%.3f", v);
	else
		strbuf_addstr(out, "inf");
}

static void
add_interval(struct strbuf *out, double lo, double hi)
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
		add_interval(out, c->top->r.lo, c->top->r.hi);
	}
	if (!isnan(c->geo_ratio))
	{
		strbuf_addf(out, "%s%sgeometric mean over the sweep: B/A %.3f ", sep,
					indent, c->geo_ratio);
		add_interval(out, c->geo_lo, c->geo_hi);
		strbuf_addf(out, " (%s): %s%s",
					c->geo_paired ? "paired by block" : "independent points",
					cmp_verdict_name(c->geo_verdict),
					r->opts.on_geomean ? ", gated" : "");
	}
}

static void
add_header_line(struct strbuf *out, const struct cmp_result *r)
{
	const struct cmp_opts *o = &r->opts;
	int judged = r->npoints - r->nmissing;

	strbuf_addf(out,
				"metric %s (%s is better), margin %.1f %%, %.0f %% intervals "
				"%s, Holm over %d point%s",
				cmp_metric_name(o->metric),
				cmp_metric_higher_is_better(o->metric) ? "higher" : "lower",
				100 * o->margin, 100 * o->conf,
				o->paired ? "paired by block" : "unpaired", judged,
				judged == 1 ? "" : "s");
}

static void
add_summary(struct strbuf *out, const struct cmp_result *r)
{
	strbuf_addf(out, "%s%s: %d regression%s, %d inconclusive",
				outcome_name(r->outcome),
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
					"%s%d clients: dip (during/before) A %.3f, B %.3f; "
					"recovery to within 5 %% of before: A ",
					prefix, f->clients, f->a.dip, f->b.dip);
		add_recovery(out, f->a.recovery_s);
		strbuf_addstr(out, ", B ");
		add_recovery(out, f->b.recovery_s);
		strbuf_addch(out, '\n');
	}
}

/* The rows of WORKLOAD: whole points, or (WINDOWS) its windows. */
static void
text_table(struct strbuf *out, const struct cmp_result *r,
		   const char *workload, bool windows)
{
	char head[32];

	snprintf(head, sizeof(head), "[%.0f %% interval]", 100 * r->opts.conf);
	strbuf_addf(out,
				" clients%s  nA  nB            A            B   ratio"
				"  %-18s  verdict\n",
				windows ? "  window    " : "", head);
	for (int i = 0; i < r->npoints; i++)
	{
		const struct cmp_point *p = &r->points[i];
		struct strbuf iv = STRBUF_INIT;

		if (strcmp(p->workload, workload) != 0 ||
			(p->window != NULL) != windows)
			continue;
		strbuf_addf(out, "%8d", p->clients);
		if (windows)
			strbuf_addf(out, "  %-10s", p->window);
		strbuf_addf(out, " %3d %3d ", p->na, p->nb);
		add_value(out, r, p->median_a, 12);
		strbuf_addch(out, ' ');
		add_value(out, r, p->median_b, 12);
		if (p->verdict == CMP_MISSING)
			strbuf_addf(out, "  %6s  %-18s  ", "-", "");
		else
		{
			add_interval(&iv, p->r.lo, p->r.hi);
			strbuf_addf(out, "  %6.3f  %-18s  ", p->r.ratio, iv.buf);
		}
		add_verdict(out, p);
		strbuf_addch(out, '\n');
		strbuf_release(&iv);
	}
}

static void
render_text(struct strbuf *out, const struct cmp_result *r,
			const struct cmp_labels *l)
{
	strbuf_addf(out, "pgcliff compare%s%s\n", l->recipe ? ": recipe " : "",
				l->recipe ? l->recipe : "");
	strbuf_addf(out, "A (baseline):  %s\nB (candidate): %s\n", l->a, l->b);
	add_header_line(out, r);
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
	}
	strbuf_addch(out, '\n');
	add_summary(out, r);
	strbuf_addch(out, '\n');
}

static void
markdown_table(struct strbuf *out, const struct cmp_result *r,
			   const char *workload, bool windows)
{
	strbuf_addf(out,
				"| clients |%s nA | nB | A | B | B/A | %.0f %% interval | "
				"verdict |\n",
				windows ? " window |" : "", 100 * r->opts.conf);
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
			strbuf_addf(out, " %s |", p->window);
		strbuf_addf(out, " %d | %d | ", p->na, p->nb);
		add_value(out, r, p->median_a, 0);
		strbuf_addstr(out, " | ");
		add_value(out, r, p->median_b, 0);
		if (p->verdict == CMP_MISSING)
			strbuf_addstr(out, " | - | - | ");
		else
		{
			strbuf_addf(out, " | %.3f | ", p->r.ratio);
			add_interval(out, p->r.lo, p->r.hi);
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
	strbuf_addf(out, "### pgcliff compare%s%s: %s\n\n", l->recipe ? " " : "",
				l->recipe ? l->recipe : "", outcome_name(r->outcome));
	strbuf_addf(out, "**A** (baseline): %s  \n**B** (candidate): %s  \n", l->a,
				l->b);
	add_header_line(out, r);
	strbuf_addstr(out, "\n");
	for (int ci = 0; ci < r->ncurves; ci++)
	{
		const struct cmp_curve *c = &r->curves[ci];

		strbuf_addf(out, "\n#### %s\n\n", c->workload);
		add_curve_facts(out, r, c, "- ", "\n");
		strbuf_addstr(out, "\n\n");
		markdown_table(out, r, c->workload, false);
		if (has_windows(r, c->workload))
		{
			strbuf_addf(out, "\nWindows of %s (tps):\n\n", c->workload);
			markdown_table(out, r, c->workload, true);
			strbuf_addstr(out, "\n");
			add_window_facts(out, r, c->workload, "- ");
		}
	}
	strbuf_addstr(out, "\n");
	add_summary(out, r);
	strbuf_addstr(out, "\n");
}

static void
json_num(struct strbuf *out, double v, const char *fmt)
{
	if (isfinite(v))
		strbuf_addf(out, fmt, v);
	else
		strbuf_addstr(out, "null");
}

static void
json_side_curve(struct strbuf *out, const struct cmp_side_curve *c)
{
	strbuf_addstr(out, "{\"peak_tps\": ");
	json_num(out, c->peak_tps, "%.3f");
	strbuf_addf(
		out, ", \"peak_clients\": %d, \"cliff_clients\": ", c->peak_clients);
	if (c->cliff_clients)
		strbuf_addf(out, "%d}", c->cliff_clients);
	else
		strbuf_addstr(out, "null}");
}

static void
json_window_side(struct strbuf *out, const struct cmp_window_side *w)
{
	strbuf_addstr(out, "{\"before\": ");
	json_num(out, w->before, "%.3f");
	strbuf_addstr(out, ", \"during\": ");
	json_num(out, w->during, "%.3f");
	strbuf_addstr(out, ", \"after\": ");
	json_num(out, w->after, "%.3f");
	strbuf_addstr(out, ", \"dip\": ");
	json_num(out, w->dip, "%.4f");
	strbuf_addstr(out, ", \"recovery_s\": ");
	/* -1: never recovered within the window */
	json_num(out, w->recovery_s, "%.0f");
	strbuf_addch(out, '}');
}

static void
render_json(struct strbuf *out, const struct cmp_result *r,
			const struct cmp_labels *l)
{
	const struct cmp_opts *o = &r->opts;

	strbuf_addf(out, "{\n  \"pgcliff_compare\": %d,\n  \"recipe\": ",
				CMP_JSON_VERSION);
	if (l->recipe)
		strbuf_add_json_str(out, l->recipe);
	else
		strbuf_addstr(out, "null");
	strbuf_addstr(out, ",\n  \"baseline\": ");
	strbuf_add_json_str(out, l->a);
	strbuf_addstr(out, ",\n  \"candidate\": ");
	strbuf_add_json_str(out, l->b);
	strbuf_addf(out, ",\n  \"gated_on\": \"%s\"",
				o->on_geomean ? "geomean" : "points");
	strbuf_addf(out,
				",\n  \"metric\": \"%s\",\n  \"higher_is_better\": %s,\n"
				"  \"margin\": %.4f,\n  \"confidence\": %.4f,\n"
				"  \"paired\": %s,\n  \"bootstrap_seed\": %llu,\n",
				cmp_metric_name(o->metric),
				cmp_metric_higher_is_better(o->metric) ? "true" : "false",
				o->margin, o->conf, o->paired ? "true" : "false",
				(unsigned long long) o->seed);
	strbuf_addf(out,
				"  \"outcome\": \"%s\",\n  \"gate_exit_code\": %d,\n"
				"  \"regressions\": %d,\n  \"inconclusive\": %d,\n"
				"  \"missing\": %d,\n  \"workloads\": [",
				outcome_name(r->outcome), (int) r->outcome, r->nregressions,
				r->ninconclusive, r->nmissing);
	for (int ci = 0; ci < r->ncurves; ci++)
	{
		const struct cmp_curve *c = &r->curves[ci];
		bool first = true;

		strbuf_addf(out, "%s\n    {\"name\": ", ci ? "," : "");
		strbuf_add_json_str(out, c->workload);
		strbuf_addstr(out, ",\n     \"baseline_curve\": ");
		json_side_curve(out, &c->a);
		strbuf_addstr(out, ",\n     \"candidate_curve\": ");
		json_side_curve(out, &c->b);
		strbuf_addstr(out, ",\n     \"top_clients\": ");
		if (c->top)
			strbuf_addf(out, "%d", c->top_clients);
		else
			strbuf_addstr(out, "null");
		strbuf_addstr(out, ",\n     \"geomean\": {\"ratio\": ");
		json_num(out, c->geo_ratio, "%.6f");
		strbuf_addstr(out, ", \"lo\": ");
		json_num(out, c->geo_lo, "%.6f");
		strbuf_addstr(out, ", \"hi\": ");
		json_num(out, c->geo_hi, "%.6f");
		strbuf_addf(out, ", \"paired\": %s, \"p_regression\": ",
					c->geo_paired ? "true" : "false");
		json_num(out, c->geo_p_regression, "%.6g");
		strbuf_addstr(out, ", \"p_no_regression\": ");
		json_num(out, c->geo_p_no_regression, "%.6g");
		strbuf_addf(out, ", \"verdict\": \"%s\"},\n     \"points\": [",
					cmp_verdict_name(c->geo_verdict));
		for (int i = 0; i < r->npoints; i++)
		{
			const struct cmp_point *p = &r->points[i];

			if (strcmp(p->workload, c->workload) != 0)
				continue;
			strbuf_addf(out, "%s\n       {\"clients\": %d, \"window\": ",
						first ? "" : ",", p->clients);
			if (p->window)
				strbuf_add_json_str(out, p->window);
			else
				strbuf_addstr(out, "null");
			strbuf_addf(out,
						", \"n_baseline\": %d, \"n_candidate\": %d, "
						"\"paired\": %s, \"median_baseline\": ",
						p->na, p->nb, p->paired ? "true" : "false");
			first = false;
			json_num(out, p->median_a, "%.6g");
			strbuf_addstr(out, ", \"median_candidate\": ");
			json_num(out, p->median_b, "%.6g");
			strbuf_addstr(out, ", \"ratio\": ");
			json_num(out, p->verdict == CMP_MISSING ? NAN : p->r.ratio,
					 "%.6f");
			strbuf_addstr(out, ", \"lo\": ");
			json_num(out, p->verdict == CMP_MISSING ? NAN : p->r.lo, "%.6f");
			strbuf_addstr(out, ", \"hi\": ");
			json_num(out, p->verdict == CMP_MISSING ? NAN : p->r.hi, "%.6f");
			strbuf_addstr(out, ", \"p_regression\": ");
			json_num(out, p->p_regression, "%.6g");
			strbuf_addstr(out, ", \"p_no_regression\": ");
			json_num(out, p->p_no_regression, "%.6g");
			strbuf_addf(out, ", \"verdict\": \"%s\", \"more_repeats\": ",
						cmp_verdict_name(p->verdict));
			if (p->verdict == CMP_INCONCLUSIVE && p->more_repeats > 0)
				strbuf_addf(out, "%d}", p->more_repeats);
			else
				strbuf_addstr(out, "null}");
		}
		strbuf_addstr(out, "],\n     \"window_facts\": [");
		first = true;
		for (int i = 0; i < r->nwindows; i++)
		{
			const struct cmp_window_facts *f = &r->windows[i];

			if (strcmp(f->workload, c->workload) != 0)
				continue;
			strbuf_addf(out, "%s\n       {\"clients\": %d, \"baseline\": ",
						first ? "" : ",", f->clients);
			json_window_side(out, &f->a);
			strbuf_addstr(out, ", \"candidate\": ");
			json_window_side(out, &f->b);
			strbuf_addch(out, '}');
			first = false;
		}
		strbuf_addstr(out, "]}");
	}
	strbuf_addstr(out, "]\n}\n");
}

void
cmp_xml_escape(struct strbuf *out, const char *s)
{
	for (; *s; s++)
		switch (*s)
		{
			case '&':
				strbuf_addstr(out, "&amp;");
				break;
			case '<':
				strbuf_addstr(out, "&lt;");
				break;
			case '>':
				strbuf_addstr(out, "&gt;");
				break;
			case '"':
				strbuf_addstr(out, "&quot;");
				break;
			default:
				strbuf_addch(out, *s);
		}
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
	double theta = cmp_metric_higher_is_better(r->opts.metric)
					   ? 1 - r->opts.margin
					   : 1 + r->opts.margin;
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
			strbuf_reset(&msg);
			strbuf_addf(&msg, "%s: B/A %.3f ",
						cmp_verdict_name(c->geo_verdict), c->geo_ratio);
			add_interval(&msg, c->geo_lo, c->geo_hi);
			strbuf_addf(&msg, ", bound %.3f", theta);
			strbuf_reset(&name);
			strbuf_addf(&name, "%s geometric mean over the sweep",
						cmp_metric_name(r->opts.metric));
			junit_case(out, recipe, c->workload, name.buf, c->geo_verdict,
					   true, msg.buf);
		}
		for (int i = 0; i < r->npoints; i++)
		{
			const struct cmp_point *p = &r->points[i];

			if (strcmp(p->workload, c->workload) != 0)
				continue;
			strbuf_reset(&msg);
			add_verdict(&msg, p);
			if (p->verdict != CMP_MISSING)
			{
				strbuf_addf(&msg, ": B/A %.3f ", p->r.ratio);
				add_interval(&msg, p->r.lo, p->r.hi);
				strbuf_addf(&msg, ", bound %.3f", theta);
			}
			strbuf_reset(&name);
			strbuf_addf(&name, "%s%s%s at %d clients",
						cmp_metric_name(r->opts.metric), p->window ? " " : "",
						p->window ? p->window : "", p->clients);
			junit_case(out, recipe, c->workload, name.buf, p->verdict, !geo,
					   msg.buf);
		}
		strbuf_addstr(out, "  </testsuite>\n");
	}
	strbuf_addstr(out, "</testsuites>\n");
	strbuf_release(&msg);
	strbuf_release(&name);
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
