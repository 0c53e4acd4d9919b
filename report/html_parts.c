/*
 * html_parts.c - the sections of the HTML page that read beyond the
 * points: why B differs (the profile tree), the per-second series with the
 * servers' samples, and the provenance; see html.h and html_int.h.
 */
#include "html_int.h"
#include "json_int.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report.h"

/* ---------------------------------------------------------------- why */

bool
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
	doc_raw(d, "<h4>");
	doc_esc(d, n->node);
	doc_raw(d, "</h4>\n");
	if (n->nfuncs > 0)
	{
		doc_printf(d,
				   "<p class=\"note\">CPU profile: %" PRIu64 " and %" PRIu64
				   " samples in %d and %d block%s%s.</p>\n",
				   n->a_samples, n->b_samples, n->na, n->nb,
				   n->nb == 1 ? "" : "s",
				   n->paired ? ", paired by block" : "");
		doc_raw(d, "<table class=\"why\"><thead><tr><th>function</th>"
				   "<th>module</th><th>A %</th><th>B %</th><th>B - A (pp)</th>"
				   "<th>interval</th></tr></thead><tbody>\n");
		for (int k = 0; k < n->nfuncs; k++)
		{
			const struct cmp_why_func *f = &n->funcs[k];

			doc_raw(d, "<tr><td><code>");
			doc_esc(d, f->symbol);
			doc_raw(d, "</code></td><td>");
			doc_esc(d, f->dso);
			doc_printf(d,
					   "</td><td class=\"num\">%.2f</td><td class=\"num\">%.2f"
					   "</td><td class=\"num\" style=\"color:%s\">%+.2f</td>",
					   f->a_pct, f->b_pct,
					   f->d.diff > 0 ? "#c00000" : "#006d4f", f->d.diff);
			if (isfinite(f->d.lo) && isfinite(f->d.hi))
				doc_printf(d, "<td class=\"num\">[%+.2f, %+.2f]</td></tr>\n",
						   f->d.lo, f->d.hi);
			else
				doc_printf(d, "<td>none: %d block%s</td></tr>\n", f->d.n,
						   f->d.n == 1 ? "" : "s");
		}
		doc_raw(d, "</tbody></table>\n");
	}
	if (n->nwaits > 0)
	{
		doc_raw(d,
				"<table class=\"why\"><thead><tr><th>wait event</th>"
				"<th>A per sample</th><th>B per sample</th><th>B/A</th></tr>"
				"</thead><tbody>\n");
		for (int k = 0; k < n->nwaits; k++)
		{
			const struct cmp_why_wait *w = &n->waits[k];

			doc_raw(d, "<tr><td>");
			doc_esc(d, w->event);
			doc_printf(d,
					   "</td><td class=\"num\">%.2f</td><td class=\"num\">%.2f"
					   "</td><td class=\"num\">",
					   w->a_per_s, w->b_per_s);
			if (w->a_per_s > 0 && w->b_per_s > 0)
				doc_printf(d, "&times;%.2f", w->b_per_s / w->a_per_s);
			else
				doc_raw(d, w->a_per_s > 0 ? "gone" : "new");
			doc_raw(d, "</td></tr>\n");
		}
		doc_raw(d, "</tbody></table>\n");
	}
}

/* Where the time went: each result's cmp_why, per step and node. */
void
section_why(struct doc *d)
{
	if (!any_why(d))
		return;
	doc_printf(
		d,
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
		doc_raw(d, "<h3>");
		doc_esc(d, d->results[i].title);
		doc_raw(d, "</h3>\n");
		for (int j = 0; j < res->nwhy; j++)
		{
			doc_raw(d, "<p><strong>");
			doc_esc(d, res->why[j].step);
			doc_raw(d, "</strong></p>\n");
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
	doc_chart(d, &c, "series", workload, steps[0]->clients);
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
		doc_raw(d, "none");
	for (int i = 0; i < nb; i++)
	{
		doc_raw(d, i ? ", " : "");
		doc_esc(d, best_k[i]);
		doc_printf(d, " %" PRId64, (int64_t) best_v[i]);
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
			doc_raw(d, any ? "<br>" : "");
			if (x->name)
			{
				doc_esc(d, x->name);
				doc_raw(d, ": ");
			}
			for (int i = 0; i < nf; i++)
			{
				doc_raw(d, i ? ", " : "");
				doc_esc(d, f[i].name);
				doc_printf(d, " %.6g", f[i].value);
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
				doc_raw(&t, "<tr><td>");
				doc_esc(&t, d->lines[s->line].label);
				doc_printf(&t,
						   "</td><td>%s</td><td class=\"num\">%.0f</td><td>",
						   nodes[k], (double) commits / nrow);
				top_counts(&t, waits, 5);
				doc_raw(&t, "</td><td>");
				top_counts(&t, conflicts, 5);
				doc_raw(&t, "</td><td>");
				any_probe |=
					probe_cell(&t, row_of(d, s, NULL), rows, n, nodes[k]);
				doc_raw(&t, "</td></tr>\n");
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

		doc_chart(d, &c, "lag", NULL, steps[0]->clients);
	}
	if (any)
	{
		doc_raw(d, "<table class=\"samples\"><thead><tr><th>line</th>"
				   "<th>node</th><th>commits/s</th><th>top wait events "
				   "(samples)</th><th>recovery conflicts</th><th>");
		doc_raw(d, any_probe ? "probes (mean per window)" : "");
		doc_raw(d, "</th></tr></thead><tbody>\n");
		doc_raw(d, table.buf);
		doc_raw(d, "</tbody></table>\n");
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

int
section_series(struct doc *d, struct pgc_error *err)
{
	char **sigs = NULL;
	int nsigs = 0, rc = 0;
	const struct step **steps =
		xcalloc((size_t) d->nsteps + 1, sizeof(const struct step *));

	for (int i = 0; i < d->nsteps; i++)
		doc_list_add(&sigs, &nsigs, d->steps[i].sig);
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
	doc_raw(d,
			"<h2 id=\"series\">Per second</h2>\n"
			"<p class=\"note\">Every block of every sweep point: the first "
			"block bold, later ones faint. Red dashed lines: timed events "
			"(when their first client began); shaded: the recipe's windows. "
			"Long series are thinned for drawing (each pixel keeps its "
			"lowest and highest second); every figure uses all of "
			"them.</p>\n");
	for (int g = 0; g < nsigs && rc == 0; g++)
	{
		int n = steps_with(d, sigs[g], steps);

		doc_raw(d, "<h3>");
		doc_esc(d, sigs[g]);
		doc_raw(d, "</h3>\n");
		for (int w = 0; w < d->nworkloads && rc == 0; w++)
			rc = series_chart(d, steps, n, d->workloads[w], err);
		if (rc == 0)
			rc = samples_part(d, steps, n, err);
	}
	free(steps);
	doc_list_free(sigs, nsigs);
	return rc;
}

/* --------------------------------------------------------- provenance */

static void
pre(struct doc *d, const char *text)
{
	doc_raw(d, "<pre>");
	doc_esc(d, text ? text : "");
	doc_raw(d, "</pre>");
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
			json_object_foreach(j, k, v) doc_list_add(&keys, &nkeys, k);
		json_decref(j);
	}
	if (nkeys > 1)
		qsort(keys, (size_t) nkeys, sizeof(char *), doc_strcmp);
	doc_raw(d, "<table class=\"settings\"><thead><tr><th>setting</th>");
	for (int i = 0; i < n; i++)
	{
		doc_raw(d, "<th>");
		doc_esc(d, vars[i]->name);
		doc_raw(d, "</th>");
	}
	doc_raw(d, "</tr></thead><tbody>\n");
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
			doc_raw(d, "<tr><td>");
			doc_esc(d, keys[k]);
			doc_raw(d, "</td>");
			for (int i = 0; i < n; i++)
			{
				doc_raw(d, "<td>");
				doc_esc(d, vals[i] ? vals[i] : "(default)");
				doc_raw(d, "</td>");
			}
			doc_raw(d, "</tr>\n");
		}
		for (int i = 0; i < n; i++)
			free(vals[i]);
		free(vals);
	}
	if (shown == 0)
		doc_printf(
			d, "<tr><td colspan=\"%d\">the same on every variant</td></tr>\n",
			n + 1);
	doc_raw(d, "</tbody></table>\n");
	doc_list_free(keys, nkeys);
}

int
section_provenance(struct doc *d, struct pgc_error *err)
{
	struct store_variant_row **shown = NULL;
	struct store_variant_row **owned = NULL;
	int *nowned = NULL, nshown = 0;
	int rc = -1;

	doc_raw(d, "<h2 id=\"provenance\">Provenance</h2>\n");
	owned = xcalloc((size_t) d->nruns + 1, sizeof(struct store_variant_row *));
	nowned = xcalloc((size_t) d->nruns + 1, sizeof(int));
	for (int r = 0; r < d->nruns; r++)
	{
		struct store_run_row run;
		char *recipe = NULL;

		if (store_get_run(d->st, d->runs[r], &run, err) < 0)
			goto out;
		doc_printf(d, "<h3>Run %" PRId64 ": ", run.id);
		doc_esc(d, run.recipe);
		doc_raw(d, "</h3>\n<table class=\"kv\">");
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
			doc_printf(d, "<tr><th>%s</th><td>", kv[i].k);
			doc_esc(d, kv[i].v);
			doc_raw(d, "</td></tr>");
		}
		doc_printf(d, "<tr><th>seed</th><td>%" PRId64 "</td></tr></table>\n",
				   run.seed);
		if (store_get_recipe_text(d->st, run.id, &recipe, err) < 0)
		{
			store_run_row_release(&run);
			goto out;
		}
		doc_raw(d, "<details><summary>the recipe as run</summary>");
		pre(d, recipe);
		doc_raw(d, "</details>\n");
		if (run.script_files)
		{
			doc_raw(d, "<details><summary>its script files</summary>");
			pre(d, run.script_files);
			doc_raw(d, "</details>\n");
		}
		free(recipe);
		if (store_get_variants(d->st, run.id, &owned[r], &nowned[r], err) < 0)
		{
			store_run_row_release(&run);
			goto out;
		}
		doc_raw(d, "<table class=\"variants\"><thead><tr><th>variant</th>"
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
			doc_raw(d, "<tr><td>");
			doc_esc(d, v->name);
			doc_raw(d, "</td><td>");
			doc_esc(d, v->server_version);
			doc_raw(d, "</td><td>");
			doc_esc(d, v->kind);
			doc_raw(d, "</td><td>");
			doc_esc(d, v->target ? v->target : v->bindir);
			doc_raw(d, "</td><td>");
			doc_esc(d, v->gucs);
			doc_raw(d, "</td><td>");
			doc_esc(d, v->defines);
			doc_raw(d, "</td></tr>\n");
			if (v->build)
			{
				doc_raw(d, "<tr><td></td><td colspan=\"5\"><details><summary>"
						   "built from source (patches, configure, "
						   "defines)</summary>");
				pre(d, v->build);
				doc_raw(d, "</details></td></tr>\n");
			}
		}
		doc_raw(d, "</tbody></table>\n");
		store_run_row_release(&run);
	}
	doc_raw(d, nshown > 1 ? "<h3>Settings that differ</h3>\n"
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
