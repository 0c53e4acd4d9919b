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
	double df;              /* degrees of freedom of the t interval */
	int n;                  /* pairs, or the smaller sample */
	double est_log, se_log; /* log of the estimate and its standard error */
	/*
	 * One-sided p-values against THETA (1 unless stats_ratio_test() set
	 * it): P_BELOW is small when the true ratio is below theta, P_ABOVE
	 * when it is above.  Each is the larger of the t test's and the
	 * bootstrap's, so P_BELOW < (1 - conf) / 2 exactly when the interval
	 * lies wholly below theta.  Both 1 when nothing can be said.
	 */
	double theta;
	double p_below, p_above;
	/* the same against 1: whether B differs from A at all */
	double p_below_one, p_above_one;
	/*
	 * The spread of one pair's log B/A (paired, N >= 2; else NAN): the
	 * sd of the log ratios, or with ADJUSTED the sd of what the covariate
	 * leaves (the residuals); SD_RAW the sd without it, SLOPE the change
	 * of log B/A per unit of the covariate.
	 */
	bool adjusted;
	double sd_unit, sd_raw, slope;
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

/* Either of the above (PAIRED: A[i] with B[i], N = min(NA, NB)), tested
 * against THETA. */
void stats_ratio_test(const double *a, int na, const double *b, int nb,
					  bool paired, double conf, uint64_t seed, double theta,
					  struct stats_ratio *out);

/*
 * B/A from N pairs as stats_ratio_test() paired, adjusted for a covariate
 * X[i] of pair i measured outside the comparison (the CPU steal of B's
 * window minus A's): log(B[i]/A[i]) = est + slope * X[i] + e[i] by least
 * squares, and the estimate is B/A at X = 0, its t interval from the
 * residuals with N - 2 degrees of freedom (the standard error of an
 * intercept: s * sqrt(1/N + mean(X)^2 / Sxx)), its bootstrap resampling
 * the pairs and refitting.  Valid when X does not depend on which side
 * is which (A/A: X is as likely reversed), so an A/A comparison is still
 * called worse at most (1 - conf) / 2 of the time.  With fewer than 4
 * pairs or X without spread, exactly stats_ratio_test() paired
 * (ADJUSTED false).
 */
void stats_ratio_adjusted(const double *a, const double *b, const double *x,
						  int n, double conf, uint64_t seed, double theta,
						  struct stats_ratio *out);

/*
 * How many more repeats would likely put R's interval wholly on one side
 * of its theta, if the estimate and the spread stayed as they are, at
 * confidence CONF over M points (Bonferroni: the worst case of Holm).
 * -1 when that is more than MAX or cannot be said (fewer than 2 repeats,
 * estimate on theta).
 */
int stats_repeats_to_decide(const struct stats_ratio *r, double conf, int m,
							int max);

/* A difference of means B - A with its interval (stats_diff_means()). */
struct stats_diff
{
	double diff;   /* mean of B - mean of A (paired: mean of B[i] - A[i]) */
	double lo, hi; /* the CONF t interval; NAN when it cannot be said */
	double df;
	int n; /* pairs, or the smaller side */
};

/*
 * B - A: PAIRED (A[i] with B[i], N = min(NA, NB)) or Welch's, with a
 * Student t interval at CONF.  Fewer than 2 values on a side (or pairs):
 * the difference alone, LO and HI NAN.  For quantities that add (shares
 * of a profile in percentage points), where B/A would not.
 */
void stats_diff_means(const double *a, int na, const double *b, int nb,
					  bool paired, double conf, struct stats_diff *out);

/*
 * Holm's step-down adjustment of M p-values: ADJ[i] is the smallest
 * family-wise level at which hypothesis i is rejected (monotone, <= 1).
 */
void stats_holm_adjust(const double *p, int m, double *adj);

#endif /* PGCLIFF_STATS_H */
