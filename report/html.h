/*
 * html.h - stored runs as one self-contained HTML page (inline SVG and
 * CSS, no script, no network: a mail attachment or a CI artifact opens
 * as it is), or one of its charts alone as an SVG file.  The one owner of
 * the report's document format (FORMATS.md, "The HTML report").
 *
 * The page holds, per workload, tps against clients on a log2 axis (one
 * line per variant or side, the range of its blocks at every point, the
 * peak and the cliff marked); B/A per point with its interval, the margin
 * band and each verdict's colour; latency p50 and p99 against clients;
 * per sweep point the per-second series of every workload, its timed
 * events and windows, and the servers' samples (replay lag, wait events,
 * conflicts); then the verdict tables and the provenance (runs, versions,
 * the settings that differ, defines, builds, the recipe).  Every stored
 * string is escaped.  Series are decimated for drawing only.
 */
#ifndef PGCLIFF_HTML_H
#define PGCLIFF_HTML_H

#include <stdint.h>

#include "base.h"
#include "compare.h"

struct store;

struct report_html_opts
{
	/*
	 * NULL: the whole page.  "tps", "ratio", "latency" or "series": that
	 * chart alone, as a standalone SVG document.
	 */
	const char *chart;
	const char *workload; /* the chart's workload (NULL: the first) */
	int clients;          /* a series chart's sweep point (0: the first) */
};

/* Is NAME one of the charts report_html_opts.chart takes? */
bool report_chart_known(const char *name);

/*
 * Run RUN_ID: every variant, and each variant after the first judged
 * against the first as `compare RUN:first RUN:other` would (Q).  -1 with
 * ERR (PGC_ERR_USAGE: no such run, no such chart).
 */
int report_html_run(struct store *st, int64_t run_id,
					const struct cmp_query *q,
					const struct report_html_opts *o, struct strbuf *out,
					struct pgc_error *err);

/*
 * A comparison already judged by compare_stored() (A, B, RES and LABELS
 * as it filled them): both sides' points, the verdicts and the runs
 * they came from.
 */
int report_html_compare(struct store *st, const struct cmp_side *a,
						const struct cmp_side *b, const struct cmp_result *res,
						const struct cmp_labels *labels,
						const struct report_html_opts *o, struct strbuf *out,
						struct pgc_error *err);

#endif /* PGCLIFF_HTML_H */
