/*
 * history.c - E-divisive change points; see history.h.
 *
 * For a segment [lo, hi) and a split t, with m = t - lo and k = hi - t:
 *   Q(t) = m k / (m + k) * (2/(m k) X - W_l / C(m,2) - W_r / C(k,2))
 * where X sums |x_i - x_j| across the split and W_l, W_r within each side *
 * (the energy distance with alpha = 1).  The sums are updated as t moves: the
 * element that crosses the split is compared with each side through two
 * Fenwick trees over the values' ranks (count and sum of the values below it),
 * so one scan is O(n log n), a permutation test of R shuffles O(R n log n),
 * and a test stops as soon as its p-value cannot be below alpha any more. (The
 * direct sums made history over 10,000 runs take 80 s.)
 */
#include "history.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "report.h"

/* A set of values, by rank: Fenwick trees of their counts and sums. */
struct fen
{
	double *sum;
	int *cnt;
	int n;
	int count;    /* values in the set */
	double total; /* and their sum */
};

static void
fen_reset(struct fen *f, int n)
{
	f->n = n;
	f->count = 0;
	f->total = 0;
	memset(f->sum, 0, (size_t) (n + 1) * sizeof(double));
	memset(f->cnt, 0, (size_t) (n + 1) * sizeof(int));
}

static void
fen_add(struct fen *f, int rank, double v, int c)
{
	f->count += c;
	f->total += v;
	for (int i = rank + 1; i <= f->n; i += i & -i)
	{
		f->sum[i] += v;
		f->cnt[i] += c;
	}
}

/* The sum of |V - y| over the set's values y; V has rank RANK. */
static double
fen_distance(const struct fen *f, int rank, double v)
{
	double below = 0;
	int nbelow = 0;

	/* the values ranked at or below V are at most V; the others at least */
	for (int i = rank + 1; i > 0; i -= i & -i)
	{
		below += f->sum[i];
		nbelow += f->cnt[i];
	}
	return (v * nbelow - below) +
		   ((f->total - below) - v * (f->count - nbelow));
}

struct seg_ctx
{
	const double *x;
	int n;
	const struct history_opts *o;
	struct prng rng;
	int *perm;      /* scratch: a shuffle of the segment's indices */
	int *rank;      /* the rank of x[lo + i] within its segment */
	double *sorted; /* the segment's values in rank order */
	struct fen left, right;
	struct history_change *found;
	int nfound;
	int max;
};

/*
 * Best split of the values X[IDX[0..len-1]] (indices from LO, whose ranks
 * are C->rank[IDX - LO]); Q in *BEST_Q; -1: none.
 */
static int
best_split(struct seg_ctx *c, int lo, const int *idx, int len, int min_seg,
		   double *best_q)
{
	const double *x = c->x;
	double cross = 0, wl = 0, wr = 0;
	int best = -1;

	*best_q = -INFINITY;
	if (len < 2 * min_seg)
		return -1;
	/* t = 0: everything on the right; its pairs' distances from the
	 * sorted values, each counted against those below and above it */
	fen_reset(&c->left, len);
	fen_reset(&c->right, len);
	for (int j = 0; j < len; j++)
	{
		wr += c->sorted[j] * (2.0 * j - len + 1);
		fen_add(&c->right, c->rank[idx[j] - lo], x[idx[j]], 1);
	}
	for (int t = 0; t < len - min_seg; t++)
	{
		/* move element t from the right side to the left */
		int r = c->rank[idx[t] - lo];
		double v = x[idx[t]], to_left, to_right;

		fen_add(&c->right, r, -v, -1);
		to_right = fen_distance(&c->right, r, v);
		to_left = fen_distance(&c->left, r, v);
		fen_add(&c->left, r, v, 1);
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

struct ranked
{
	double v;
	int i;
};

static int
cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The ranks of the values of [LO, HI) and the values in rank order. */
static void
rank_segment(struct seg_ctx *c, int lo, int hi)
{
	int len = hi - lo;
	struct ranked *r = xmalloc((size_t) len * sizeof(*r));

	for (int i = 0; i < len; i++)
	{
		r[i].v = c->x[lo + i];
		r[i].i = i;
	}
	qsort(r, (size_t) len, sizeof(*r), cmp_ranked);
	for (int k = 0; k < len; k++)
	{
		c->rank[r[k].i] = k;
		c->sorted[k] = r[k].v;
	}
	free(r);
}

static void
divide(struct seg_ctx *c, int lo, int hi)
{
	int len = hi - lo, split, exceed = 0;
	double q, before, after;
	int nperm = c->o->permutations;

	if (len < 2 * c->o->min_segment || c->nfound >= c->max)
		return;
	for (int i = 0; i < len; i++)
		c->perm[i] = lo + i;
	rank_segment(c, lo, hi);
	split = best_split(c, lo, c->perm, len, c->o->min_segment, &q);
	if (split < 0)
		return;
	/* once p = (exceed + 1) / (R + 1) is past alpha, no shuffle left can
	 * bring it back: the test stops there, with the decision it would
	 * have reached */
	for (int r = 0; r < nperm && (exceed + 1.0) / (nperm + 1.0) <= c->o->alpha;
		 r++)
	{
		double qp;

		for (int i = len - 1; i > 0; i--)
		{
			int j = (int) prng_range(&c->rng, 0, (uint64_t) i);
			int t = c->perm[i];

			c->perm[i] = c->perm[j];
			c->perm[j] = t;
		}
		best_split(c, lo, c->perm, len, c->o->min_segment, &qp);
		/* a shuffle that splits the same sets has the same Q: equal up to
		 * the rounding of sums taken in another order counts as equal */
		if (qp >= q - 1e-9 * fabs(q))
			exceed++;
	}
	before = segment_median(c->x, lo, lo + split);
	after = segment_median(c->x, lo + split, hi);
	{
		double p = (exceed + 1.0) / (nperm + 1.0);
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
	c.rank = xmalloc((size_t) (n + 1) * sizeof(int));
	c.sorted = xmalloc((size_t) (n + 1) * sizeof(double));
	c.left.sum = xmalloc((size_t) (n + 2) * sizeof(double));
	c.left.cnt = xmalloc((size_t) (n + 2) * sizeof(int));
	c.right.sum = xmalloc((size_t) (n + 2) * sizeof(double));
	c.right.cnt = xmalloc((size_t) (n + 2) * sizeof(int));
	prng_seed(&c.rng, opts->seed);
	divide(&c, 0, n);
	free(c.perm);
	free(c.rank);
	free(c.sorted);
	free(c.left.sum);
	free(c.left.cnt);
	free(c.right.sum);
	free(c.right.cnt);
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
