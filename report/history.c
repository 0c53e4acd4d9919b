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
