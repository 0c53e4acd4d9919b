/*
 * history.c - E-divisive change points; see history.h.
 *
 * For a segment [lo, hi) and a split t, with m = t - lo and k = hi - t:
 *   Q(t) = m k / (m + k) * (2/(m k) X - W_l / C(m,2) - W_r / C(k,2))
 * where X sums |x_i - x_j| across the split and W_l, W_r within each side
 * (the energy distance with alpha = 1).  The sums are updated as t moves,
 * so one scan is O(n^2) and a permutation test of R shuffles O(R n^2).
 */
#include "history.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "report.h"

struct seg_ctx
{
	const double *x;
	int n;
	const struct history_opts *o;
	struct prng rng;
	int *perm; /* scratch: a shuffle of the segment's indices */
	struct history_change *found;
	int nfound;
	int max;
};

/* Best split of the values X[IDX[0..len-1]]; Q in *BEST_Q; -1: none. */
static int
best_split(const double *x, const int *idx, int len, int min_seg,
		   double *best_q)
{
	double cross = 0, wl = 0, wr = 0;
	int best = -1;

	*best_q = -INFINITY;
	if (len < 2 * min_seg)
		return -1;
	/* t = 0: everything on the right */
	for (int j = 0; j < len; j++)
		for (int k = j + 1; k < len; k++)
			wr += fabs(x[idx[j]] - x[idx[k]]);
	for (int t = 0; t < len - min_seg; t++)
	{
		/* move element t from the right side to the left */
		double to_left = 0, to_right = 0;

		for (int i = 0; i < t; i++)
			to_left += fabs(x[idx[i]] - x[idx[t]]);
		for (int j = t + 1; j < len; j++)
			to_right += fabs(x[idx[t]] - x[idx[j]]);
		wl += to_left;
		wr -= to_right;
		cross += to_right - to_left;
		{
			int m = t + 1, k = len - m;

			if (m >= min_seg && k >= min_seg)
			{
				double e = 2 * cross / ((double) m * k) -
						   wl / (m * (m - 1) / 2.0) - wr / (k * (k - 1) / 2.0);
				double q = (double) m * k / (m + k) * e;

				if (q > *best_q)
				{
					*best_q = q;
					best = m;
				}
			}
		}
	}
	return best;
}

static double
segment_median(const double *x, int lo, int hi)
{
	return report_median(x + lo, hi - lo);
}

static void
divide(struct seg_ctx *c, int lo, int hi)
{
	int len = hi - lo, split, exceed = 0;
	double q, before, after;

	if (len < 2 * c->o->min_segment || c->nfound >= c->max)
		return;
	for (int i = 0; i < len; i++)
		c->perm[i] = lo + i;
	split = best_split(c->x, c->perm, len, c->o->min_segment, &q);
	if (split < 0)
		return;
	for (int r = 0; r < c->o->permutations; r++)
	{
		double qp;

		for (int i = len - 1; i > 0; i--)
		{
			int j = (int) prng_range(&c->rng, 0, (uint64_t) i);
			int t = c->perm[i];

			c->perm[i] = c->perm[j];
			c->perm[j] = t;
		}
		best_split(c->x, c->perm, len, c->o->min_segment, &qp);
		if (qp >= q)
			exceed++;
	}
	before = segment_median(c->x, lo, lo + split);
	after = segment_median(c->x, lo + split, hi);
	{
		double p = (exceed + 1.0) / (c->o->permutations + 1.0);
		double change = before != 0 ? fabs(after / before - 1) : INFINITY;

		if (p > c->o->alpha || change < c->o->min_change)
			return;
		c->found[c->nfound].index = lo + split;
		c->found[c->nfound++].p = p;
	}
	divide(c, lo, lo + split);
	divide(c, lo + split, hi);
}

static int
cmp_change(const void *a, const void *b)
{
	const struct history_change *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

int
history_change_points(const double *x, int n, const struct history_opts *opts,
					  struct history_change *out, int max)
{
	struct seg_ctx c;

	memset(&c, 0, sizeof(c));
	c.x = x;
	c.n = n;
	c.o = opts;
	c.max = max;
	c.found = out;
	c.perm = xmalloc((size_t) (n + 1) * sizeof(int));
	prng_seed(&c.rng, opts->seed);
	divide(&c, 0, n);
	free(c.perm);
	qsort(out, (size_t) c.nfound, sizeof(*out), cmp_change);
	/* medians of the final segments on both sides of each change */
	for (int i = 0; i < c.nfound; i++)
	{
		int lo = i ? out[i - 1].index : 0;
		int hi = i + 1 < c.nfound ? out[i + 1].index : n;

		out[i].before = segment_median(x, lo, out[i].index);
		out[i].after = segment_median(x, out[i].index, hi);
	}
	return c.nfound;
}

static int
cmp_series(const void *a, const void *b)
{
	const struct history_series *x = a, *y = b;
	int c = strcmp(x->variant, y->variant);

	if (c == 0)
		c = strcmp(x->workload, y->workload);
	if (c == 0)
		c = (x->clients > y->clients) - (x->clients < y->clients);
	return c;
}

struct history_series *
history_group_points(const struct store_point_row *rows, int nrows,
					 enum cmp_metric m, const char *workload,
					 const int *points, int npoints, int *nout)
{
	struct history_series *ss = NULL;
	int ns = 0;
	double *scratch = xmalloc((size_t) (nrows + 1) * sizeof(double));

	for (int i = 0; i < nrows; i++)
	{
		const struct store_point_row *p = &rows[i];
		struct history_series *s = NULL;
		bool want = npoints == 0;
		int k = 0;

		for (int j = 0; j < npoints; j++)
			want = want || points[j] == p->clients;
		if (!want || (workload && strcmp(p->workload, workload) != 0) ||
			p->aborted_clients > 0)
			continue;
		for (int j = 0; j < ns && !s; j++)
			if (ss[j].clients == p->clients &&
				strcmp(ss[j].workload, p->workload) == 0 &&
				strcmp(ss[j].variant, p->variant) == 0)
				s = &ss[j];
		if (s == NULL)
		{
			ss = xrealloc(ss, (size_t) (ns + 1) * sizeof(*ss));
			s = &ss[ns++];
			memset(s, 0, sizeof(*s));
			s->variant = p->variant;
			s->workload = p->workload;
			s->clients = p->clients;
		}
		if (s->n > 0 && s->runs[s->n - 1] == p->run_id)
			continue; /* this run's value is already in */
		/* the median over this run's repeats of the point */
		for (int j = i; j < nrows; j++)
			if (rows[j].run_id == p->run_id && rows[j].clients == p->clients &&
				rows[j].aborted_clients == 0 &&
				strcmp(rows[j].workload, p->workload) == 0 &&
				strcmp(rows[j].variant, p->variant) == 0 &&
				isfinite(point_metric(&rows[j], m)))
				scratch[k++] = point_metric(&rows[j], m);
		if (k == 0)
			continue;
		s->runs = xrealloc(s->runs, (size_t) (s->n + 1) * sizeof(int64_t));
		s->values = xrealloc(s->values, (size_t) (s->n + 1) * sizeof(double));
		s->runs[s->n] = p->run_id;
		s->values[s->n++] = report_median(scratch, k);
	}
	free(scratch);
	if (ns > 1)
		qsort(ss, (size_t) ns, sizeof(*ss), cmp_series);
	*nout = ns;
	return ss;
}
