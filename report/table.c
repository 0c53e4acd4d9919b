/*
 * table.c - the clients x (tps, p50, p99) table printed after a run.
 * Groups the points by workload and client count; repeats are summarised
 * by their median, and min/max when there are several.
 */
#include "report.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

double
report_median(const double *values, int n)
{
	double *v = xmalloc((size_t) n * sizeof(double));
	double m;

	memcpy(v, values, (size_t) n * sizeof(double));
	qsort(v, (size_t) n, sizeof(double), cmp_double);
	m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	return m;
}

static int
cmp_row(const void *a, const void *b)
{
	const struct report_row *x = a, *y = b;
	int c = strcmp(x->workload, y->workload);

	if (c)
		return c;
	return (x->clients > y->clients) - (x->clients < y->clients);
}

static bool
same_variant(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* Median tps (instructions, when counted) of the rows of
 * WORKLOAD/CLIENTS/VARIANT, NAN when none. */
static double
median_tps(const struct report_row *rows, int nrows, const char *workload,
		   int clients, const char *variant, double *scratch)
{
	int n = 0;

	for (int i = 0; i < nrows; i++)
		if (rows[i].clients == clients &&
			strcmp(rows[i].workload, workload) == 0 &&
			same_variant(rows[i].variant, variant))
			scratch[n++] =
				rows[i].instructions > 0 ? rows[i].instructions : rows[i].tps;
	return n ? report_median(scratch, n) : NAN;
}

static void
variant_table(struct strbuf *out, const struct report_row *sorted, int nrows,
			  const char **variants, int nvariants)
{
	double *scratch = xmalloc((size_t) nrows * sizeof(double));
	double *med = xmalloc((size_t) nvariants * sizeof(double));
	int *width = xmalloc((size_t) nvariants * 2 * sizeof(int));

	/* a column as wide as its heading, at least 12 */
	for (int v = 0; v < nvariants; v++)
	{
		int w = (int) strlen(variants[v]);
		int r = w + 1 + (int) strlen(variants[0]);

		width[v] = w > 12 ? w : 12;
		width[nvariants + v] = r > 12 ? r : 12;
	}

	for (int i = 0; i < nrows; i++)
	{
		bool new_workload =
			i == 0 || strcmp(sorted[i].workload, sorted[i - 1].workload) != 0;

		if (!new_workload && sorted[i].clients == sorted[i - 1].clients)
			continue;
		if (new_workload)
		{
			strbuf_addf(out, "%sworkload %s (%s, median over repeats)\n",
						i ? "\n" : "", sorted[i].workload,
						sorted[i].instructions > 0
							? "instructions per transaction, counted"
							: "tps");
			strbuf_addstr(out, " clients");
			for (int v = 0; v < nvariants; v++)
				strbuf_addf(out, " %*s", width[v], variants[v]);
			for (int v = 1; v < nvariants; v++)
				strbuf_addf(out, " %*s/%s",
							width[nvariants + v] - 1 -
								(int) strlen(variants[0]),
							variants[v], variants[0]);
			strbuf_addch(out, '\n');
		}
		strbuf_addf(out, "%8d", sorted[i].clients);
		for (int v = 0; v < nvariants; v++)
		{
			med[v] = median_tps(sorted, nrows, sorted[i].workload,
								sorted[i].clients, variants[v], scratch);
			if (isnan(med[v]))
				strbuf_addf(out, " %*s", width[v], "-");
			else
				strbuf_addf(out, " %*.1f", width[v], med[v]);
		}
		for (int v = 1; v < nvariants; v++)
			if (isnan(med[v]) || isnan(med[0]) || med[0] <= 0)
				strbuf_addf(out, " %*s", width[nvariants + v], "-");
			else
				strbuf_addf(out, " %*.3f", width[nvariants + v],
							med[v] / med[0]);
		strbuf_addch(out, '\n');
	}
	free(scratch);
	free(med);
	free(width);
}

void
report_sweep_table(struct strbuf *out, const struct report_row *rows,
				   int nrows)
{
	struct report_row *sorted;
	double *tps, *p50, *p99;
	int maxrep = 1;
	const char **variants;
	int nvariants = 0;

	if (nrows == 0)
	{
		strbuf_addstr(out, "(no points measured)\n");
		return;
	}
	variants = xmalloc((size_t) nrows * sizeof(char *));
	for (int i = 0; i < nrows; i++)
	{
		int v = 0;

		while (v < nvariants && !same_variant(variants[v], rows[i].variant))
			v++;
		if (v == nvariants)
			variants[nvariants++] = rows[i].variant;
	}
	if (nvariants > 1)
	{
		sorted = xmalloc((size_t) nrows * sizeof(*sorted));
		memcpy(sorted, rows, (size_t) nrows * sizeof(*sorted));
		qsort(sorted, (size_t) nrows, sizeof(*sorted), cmp_row);
		variant_table(out, sorted, nrows, variants, nvariants);
		free(sorted);
		free(variants);
		return;
	}
	free(variants);
	sorted = xmalloc((size_t) nrows * sizeof(*sorted));
	memcpy(sorted, rows, (size_t) nrows * sizeof(*sorted));
	qsort(sorted, (size_t) nrows, sizeof(*sorted), cmp_row);
	tps = xmalloc((size_t) nrows * sizeof(double));
	p50 = xmalloc((size_t) nrows * sizeof(double));
	p99 = xmalloc((size_t) nrows * sizeof(double));

	for (int i = 0, j; i < nrows; i = j)
	{
		for (j = i; j < nrows && cmp_row(&sorted[i], &sorted[j]) == 0; j++)
			;
		if (j - i > maxrep)
			maxrep = j - i;
	}

	for (int i = 0, j; i < nrows; i = j)
	{
		int n;
		double lo, hi;
		unsigned long long fail = 0;

		if (i == 0 || strcmp(sorted[i].workload, sorted[i - 1].workload) != 0)
		{
			strbuf_addf(out, "%sworkload %s\n", i ? "\n" : "",
						sorted[i].workload);
			if (maxrep > 1)
				strbuf_addstr(
					out,
					" clients  jobs  repeats   tps(median)       min       max    p50 ms    p99 ms  failed\n");
			else
				strbuf_addstr(
					out,
					" clients  jobs            tps    p50 ms    p99 ms  failed\n");
		}
		for (j = i; j < nrows && cmp_row(&sorted[i], &sorted[j]) == 0; j++)
		{
			tps[j - i] = sorted[j].tps;
			p50[j - i] = sorted[j].p50_ms;
			p99[j - i] = sorted[j].p99_ms;
			fail += sorted[j].failures;
		}
		n = j - i;
		lo = hi = tps[0];
		for (int k = 1; k < n; k++)
		{
			if (tps[k] < lo)
				lo = tps[k];
			if (tps[k] > hi)
				hi = tps[k];
		}
		if (maxrep > 1)
			strbuf_addf(
				out, "%8d %5d %8d %13.1f %9.1f %9.1f %9.3f %9.3f %7llu\n",
				sorted[i].clients, sorted[i].jobs, n, report_median(tps, n),
				lo, hi, report_median(p50, n), report_median(p99, n), fail);
		else
			strbuf_addf(out, "%8d %5d %14.1f %9.3f %9.3f %7llu\n",
						sorted[i].clients, sorted[i].jobs, tps[0], p50[0],
						p99[0], fail);
	}
	free(tps);
	free(p50);
	free(p99);
	free(sorted);
}

void
report_steal_add(struct report_steal *s, double pct)
{
	if (pct < 0)
		return;
	s->mean_pct = (s->mean_pct * s->n + pct) / (s->n + 1);
	if (s->n == 0 || pct > s->max_pct)
		s->max_pct = pct;
	s->n++;
}

void
report_steal_describe(const struct report_steal *s, struct strbuf *out)
{
	if (s->n == 0)
		return;
	strbuf_addf(out,
				"cpu steal during the windows: mean %.1f %%, worst %.1f %%",
				s->mean_pct, s->max_pct);
	if (s->max_pct > REPORT_STEAL_NOISY_PCT)
		strbuf_addf(out, " (the hypervisor gave that share of this "
						 "machine's CPU to others: expect noisier figures)");
}
