/*
 * report.h - render measured points as the tables PostgreSQL engineers
 * paste into pgsql-hackers mails.  Renders into a strbuf; never prints.
 */
#ifndef PGCLIFF_REPORT_H
#define PGCLIFF_REPORT_H

#include "base.h"

/* One measured point, as the renderer needs it. */
struct report_row
{
	const char *workload;
	int clients;
	int jobs;
	double tps;
	double p50_ms;
	double p99_ms;
	unsigned long long failures;
	const char *variant; /* NULL: one variant */
};

/*
 * Per workload, one line per client count: median tps over the repeats
 * (with min and max when there are several), median p50 and p99.  With
 * several variants: one tps column per variant (median over repeats) and
 * the ratio of each to the first, as the seeds' mails show them.
 * Rows may come in any order; variants are taken in order of appearance.
 */
void report_sweep_table(struct strbuf *out, const struct report_row *rows,
						int nrows);

/* Median of N values (copied and sorted; N > 0). */
double report_median(const double *values, int n);

#endif /* PGCLIFF_REPORT_H */
