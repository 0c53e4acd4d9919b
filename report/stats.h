/*
 * stats.h - the statistics behind comparing two sets of runs: Student's t,
 * confidence intervals for a throughput ratio B/A (paired by interleaved
 * block, or not), and Holm's step-down correction for many points.
 *
 * Ratios are handled on the log scale (throughputs are positive and their
 * noise is multiplicative); an interval is the union of the t interval and
 * a percentile bootstrap with a fixed seed, so it is never narrower than
 * the t interval and the same data always give the same answer.
 * Pure functions: no allocation visible to the caller, thread-safe.
 */
#ifndef PGCLIFF_STATS_H
#define PGCLIFF_STATS_H

#include <stdbool.h>
#include <stdint.h>

double stats_mean(const double *x, int n);
/* Sample standard deviation (n - 1 in the denominator); 0 when n < 2. */
double stats_sd(const double *x, int n);

/* Student's t distribution with DF degrees of freedom (DF > 0, real). */
double stats_t_cdf(double t, double df);
/* Its inverse: the t with cdf(t) = P, for 0 < P < 1. */
double stats_t_quantile(double p, double df);

struct stats_ratio
{
	double ratio;  /* point estimate of B/A (geometric means) */
	double lo, hi; /* the interval: union of the two below */
	double t_lo, t_hi;
	double boot_lo, boot_hi;
	double df; /* degrees of freedom of the t interval */
	int n;     /* pairs, or the smaller sample */
};

#define STATS_BOOTSTRAP_RESAMPLES 4000

/*
 * B/A from N pairs (A[i], B[i]) measured in the same block: the geometric
 * mean of B[i]/A[i] with a CONF (e.g. 0.95) interval.  Values must be
 * > 0.  With N < 2 the interval is [0, inf]: nothing can be said.
 */
void stats_ratio_paired(const double *a, const double *b, int n, double conf,
						uint64_t seed, struct stats_ratio *out);

/*
 * B/A from independent samples: the ratio of geometric means, with a
 * Welch t interval on the logs and a bootstrap resampling each side.
 */
void stats_ratio_unpaired(const double *a, int na, const double *b, int nb,
						  double conf, uint64_t seed, struct stats_ratio *out);

/*
 * Holm's step-down adjustment of M p-values: ADJ[i] is the smallest
 * family-wise level at which hypothesis i is rejected (monotone, <= 1).
 */
void stats_holm_adjust(const double *p, int m, double *adj);

#endif /* PGCLIFF_STATS_H */
