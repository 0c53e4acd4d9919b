/*
 * html_int.h - private to report/: the HTML page being written, shared by
 * html.c (the model, the curves, the ratios, the page) and html_parts.c
 * (the why tree, the per-second series, the provenance).
 */
#ifndef PGCLIFF_REPORT_HTML_INT_H
#define PGCLIFF_REPORT_HTML_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "chart.h"
#include "compare.h"
#include "html.h"
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

/* Add S to LIST (*N entries) unless it is there. */
void doc_list_add(char ***list, int *n, const char *s);

/* Free LIST's N strings and LIST. */
void doc_list_free(char **list, int n);

/* qsort() order of strings (char **), bytewise. */
int doc_strcmp(const void *a, const void *b);

/* Chart C: into the page, or as the SVG asked for. */
void doc_chart(struct doc *d, const struct chart *c, const char *kind,
			   const char *workload, int clients);

/* S into the page as it is (nothing when only a chart is asked for). */
void doc_raw(struct doc *d, const char *s);

/* S into the page, escaped for HTML (nothing for a chart alone). */
void doc_esc(struct doc *d, const char *s);

/* Whether any comparison has a "where the time went" (cmp_why) part. */
bool any_why(const struct doc *d);

/* Where the time went: each result's cmp_why, per step and node. */
void section_why(struct doc *d);

/* The per-second series of every step, with the servers' samples. */
int section_series(struct doc *d, struct pgc_error *err);

/* The runs' provenance: hosts, servers, settings, builds, recipes. */
int section_provenance(struct doc *d, struct pgc_error *err);

/* FMT into the page (nothing when only a chart is asked for). */
void doc_printf(struct doc *d, const char *fmt, ...) PGC_PRINTF(2, 3);

#endif /* PGCLIFF_REPORT_HTML_INT_H */
