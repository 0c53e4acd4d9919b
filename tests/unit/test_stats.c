/*
 * test_stats.c - t quantiles against published tables, Holm on a worked
 * example, ratio intervals on exact and simulated data (their coverage of
 * the true ratio), determinism of the seeded bootstrap.
 */
#include <stdlib.h>

#include "base.h"
#include "stats.h"
#include "test.h"

static double
normal(struct prng *r)
{
	/* Box-Muller; 1 - u keeps the log argument > 0 */
	double u = prng_double(r), v = prng_double(r);

	return sqrt(-2 * log(1 - u)) * cos(2 * M_PI * v);
}

/* Fraction of TRIALS simulated experiments whose interval covers 0.9. */
static double
coverage(bool paired, int n, int trials)
{
	struct prng r;
	double a[16], b[16];
	int covered = 0;

	prng_seed(&r, 2024);
	for (int t = 0; t < trials; t++)
	{
		struct stats_ratio res;

		for (int i = 0; i < n; i++)
		{
			/* block effects shared by a pair when paired */
			double block = paired ? 0.08 * normal(&r) : 0;

			a[i] = 1000 * exp(block + 0.03 * normal(&r));
			b[i] = 900 * exp(block + 0.03 * normal(&r));
		}
		if (paired)
			stats_ratio_paired(a, b, n, 0.95, (uint64_t) t, &res);
		else
			stats_ratio_unpaired(a, n, b, n, 0.95, (uint64_t) t, &res);
		if (res.lo <= 0.9 && 0.9 <= res.hi)
			covered++;
		CHECK(res.lo <= res.t_lo && res.hi >= res.t_hi);
	}
	return (double) covered / trials;
}

/*
 * Coverage of 0.9 by stats_ratio_adjusted() over TRIALS experiments of N
 * blocks whose log ratio falls 0.03 per point of steal difference X (a
 * burst on either side a third of the time).
 */
static double
coverage_adjusted(int n, int trials)
{
	struct prng r;
	double a[16], b[16], x[16];
	int covered = 0;

	prng_seed(&r, 2026);
	for (int t = 0; t < trials; t++)
	{
		struct stats_ratio res;

		for (int i = 0; i < n; i++)
		{
			double sa = prng_double(&r) < 0.33 ? 10 * prng_double(&r) : 0;
			double sb = prng_double(&r) < 0.33 ? 10 * prng_double(&r) : 0;

			x[i] = sb - sa;
			a[i] = 1000 * exp(0.05 * normal(&r) - 0.03 * sa);
			b[i] = 900 * exp(0.05 * normal(&r) - 0.03 * sb);
		}
		stats_ratio_adjusted(a, b, x, n, 0.95, (uint64_t) t, 1, &res);
		if (res.lo <= 0.9 && 0.9 <= res.hi)
			covered++;
		CHECK(res.lo <= res.t_lo && res.hi >= res.t_hi);
	}
	return (double) covered / trials;
}

int
main(void)
{
	/* two-sided 95 % and one-sided 95 % points of Student's t */
	CHECK_NEAR(stats_t_quantile(0.975, 1), 12.706204736174698, 1e-9);
	CHECK_NEAR(stats_t_quantile(0.975, 2), 4.302652729749464, 1e-9);
	CHECK_NEAR(stats_t_quantile(0.975, 5), 2.5705818356363146, 1e-9);
	CHECK_NEAR(stats_t_quantile(0.975, 10), 2.228138851986274, 1e-9);
	CHECK_NEAR(stats_t_quantile(0.975, 30), 2.0422724563012373, 1e-9);
	CHECK_NEAR(stats_t_quantile(0.975, 1000), 1.9623390808264078, 1e-9);
	CHECK_NEAR(stats_t_quantile(0.95, 4), 2.131846786326649, 1e-9);
	CHECK_NEAR(stats_t_quantile(0.025, 5), -2.5705818356363146, 1e-9);
	CHECK_NEAR(stats_t_cdf(0, 3), 0.5, 1e-12);
	CHECK_NEAR(stats_t_cdf(2.228138851986274, 10), 0.975, 1e-9);
	CHECK_NEAR(stats_t_cdf(-1.5, 7) + stats_t_cdf(1.5, 7), 1.0, 1e-12);

	CHECK_NEAR(stats_mean((double[]){1, 2, 3, 4}, 4), 2.5, 1e-15);
	CHECK_NEAR(stats_sd((double[]){2, 4, 4, 4, 5, 5, 7, 9}, 8),
			   2.138089935299395, 1e-12);
	CHECK(stats_sd((double[]){5}, 1) == 0);

	/* Holm: p sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1, monotone */
	{
		double p[] = {0.01, 0.04, 0.03, 0.005}, adj[4];

		stats_holm_adjust(p, 4, adj);
		CHECK_NEAR(adj[0], 0.03, 1e-12);
		CHECK_NEAR(adj[1], 0.06, 1e-12);
		CHECK_NEAR(adj[2], 0.06, 1e-12);
		CHECK_NEAR(adj[3], 0.02, 1e-12);
		p[0] = 0.5; /* the largest p keeps multiplier 1 */
		stats_holm_adjust(p, 4, adj);
		CHECK_NEAR(adj[0], 0.5, 1e-12);
		CHECK_NEAR(adj[2], 0.09, 1e-12);
	}
	{
		double p[] = {0.6, 0.7}, adj[2];

		stats_holm_adjust(p, 2, adj); /* 0.6 x 2 = 1.2: capped at 1 */
		CHECK_NEAR(adj[0], 1.0, 1e-12);
		CHECK_NEAR(adj[1], 1.0, 1e-12);
	}

	/* an exact 10 % drop in every block: the interval is the point */
	{
		double a[] = {1000, 1200, 800, 1100}, b[4];
		struct stats_ratio r1, r2;

		for (int i = 0; i < 4; i++)
			b[i] = 0.9 * a[i];
		stats_ratio_paired(a, b, 4, 0.95, 1, &r1);
		CHECK_NEAR(r1.ratio, 0.9, 1e-12);
		CHECK_NEAR(r1.lo, 0.9, 1e-12);
		CHECK_NEAR(r1.hi, 0.9, 1e-12);
		CHECK_INT(r1.n, 4);
		/* the same data unpaired: block spread makes it wide */
		stats_ratio_unpaired(a, 4, b, 4, 0.95, 1, &r2);
		CHECK_NEAR(r2.ratio, 0.9, 1e-12);
		CHECK(r2.lo < 0.8 && r2.hi > 1.0);
	}

	/* one pair or one run per side: nothing can be said */
	{
		struct stats_ratio r;

		stats_ratio_paired((double[]){100}, (double[]){90}, 1, 0.95, 1, &r);
		CHECK_NEAR(r.ratio, 0.9, 1e-12);
		CHECK(r.lo == 0 && isinf(r.hi));
		stats_ratio_unpaired((double[]){100, 110}, 2, (double[]){90}, 1, 0.95,
							 1, &r);
		CHECK(r.lo == 0 && isinf(r.hi));
	}

	/* same data and seed, same interval; the t interval is inside */
	{
		double a[] = {1000, 1040, 990, 1010, 1025},
			   b[] = {950, 1000, 930, 990, 940};
		struct stats_ratio r1, r2;

		stats_ratio_paired(a, b, 5, 0.95, 77, &r1);
		stats_ratio_paired(a, b, 5, 0.95, 77, &r2);
		CHECK(r1.lo == r2.lo && r1.hi == r2.hi);
		CHECK(r1.lo <= r1.t_lo && r1.hi >= r1.t_hi);
		CHECK(r1.lo < r1.ratio && r1.ratio < r1.hi);
		CHECK_NEAR(r1.df, 4, 0);
		/* known values: the paired t interval computed by hand (mean and
		 * sd of the log ratios, t(0.975, 4) = 2.7764451), and the
		 * bootstrap's percentiles for seed 77, which must never change */
		CHECK_NEAR(r1.ratio, 0.9494042375210298, 1e-12);
		CHECK_NEAR(r1.t_lo, 0.9204238895397593, 1e-9);
		CHECK_NEAR(r1.t_hi, 0.9792970570044638, 1e-9);
		CHECK_NEAR(r1.boot_lo, 0.930261989086611, 1e-12);
		CHECK_NEAR(r1.boot_hi, 0.968169005921586, 1e-12);
		/* one-sided p-values against 0.97: t(4) cdf of -1.923 */
		stats_ratio_test(a, 5, b, 5, true, 0.95, 77, 0.97, &r2);
		CHECK_NEAR(r2.p_below, 0.0634806439434806, 1e-9);
		CHECK_NEAR(r2.p_above, 0.9865, 1e-12);
	}

	/*
	 * Adjusted for a covariate: log B/A on a line -0.05 - 0.03 x with
	 * residuals 0.01 (1, -1, -1, 1), orthogonal to 1 and to x, so that
	 * the intercept is exactly -0.05, the residual sd sqrt(4e-4 / 2), and
	 * its standard error that sd times sqrt(1/4 + 1.5^2 / 5).
	 */
	{
		const double x[4] = {0, 1, 2, 3}, e[4] = {1, -1, -1, 1};
		double a[4], b[4];
		struct stats_ratio r, p;
		double sd = sqrt(4e-4 / 2), se = sd * sqrt(0.25 + 2.25 / 5);

		for (int i = 0; i < 4; i++)
		{
			a[i] = 1000;
			b[i] = 1000 * exp(-0.05 - 0.03 * x[i] + 0.01 * e[i]);
		}
		stats_ratio_adjusted(a, b, x, 4, 0.95, 7, 0.97, &r);
		CHECK(r.adjusted);
		CHECK_NEAR(r.est_log, -0.05, 1e-12);
		CHECK_NEAR(r.slope, -0.03, 1e-12);
		CHECK_NEAR(r.sd_unit, sd, 1e-12);
		CHECK_NEAR(r.se_log, se, 1e-12);
		CHECK_NEAR(r.df, 2, 0);
		CHECK_NEAR(r.t_lo, exp(-0.05 - 4.302652729749464 * se), 1e-9);
		CHECK_NEAR(r.t_hi, exp(-0.05 + 4.302652729749464 * se), 1e-9);
		CHECK(r.sd_raw > 0.04); /* the steal's part: 0.03 x of x's spread */
		/* the plain mean of the same pairs reads the steal as the variant */
		stats_ratio_test(a, 4, b, 4, true, 0.95, 7, 0.97, &p);
		CHECK(!p.adjusted && p.est_log < -0.09);
		CHECK_NEAR(p.sd_unit, p.sd_raw, 0);
		/* a covariate without spread, or fewer than 4 pairs: exactly the
		 * paired ratio */
		{
			const double flat[4] = {2, 2, 2, 2};
			struct stats_ratio f;

			stats_ratio_adjusted(a, b, flat, 4, 0.95, 7, 0.97, &f);
			CHECK(!f.adjusted);
			CHECK(f.ratio == p.ratio && f.lo == p.lo && f.hi == p.hi &&
				  f.p_below == p.p_below);
			stats_ratio_adjusted(a, b, x, 3, 0.95, 7, 0.97, &f);
			stats_ratio_test(a, 3, b, 3, true, 0.95, 7, 0.97, &p);
			CHECK(!f.adjusted && f.lo == p.lo && f.hi == p.hi);
		}
	}

	/* coverage of the true ratio over simulated experiments */
	{
		double cp5 = coverage(true, 5, 400), cu5 = coverage(false, 5, 400);
		double cp3 = coverage(true, 3, 400);
		double ca8 = coverage_adjusted(8, 400);

		printf("coverage: paired n=5 %.3f, unpaired n=5 %.3f, paired n=3 "
			   "%.3f, adjusted for steal n=8 %.3f\n",
			   cp5, cu5, cp3, ca8);
		CHECK(ca8 >= 0.92 && ca8 <= 0.995);
		CHECK(cp5 >= 0.92 && cp5 <= 0.995);
		CHECK(cu5 >= 0.92 && cu5 <= 0.995);
		CHECK(cp3 >= 0.92 && cp3 <= 0.995);
	}
	TEST_MAIN_END("test_stats");
}
