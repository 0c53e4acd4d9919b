/*
 * test_compare.c - verdicts, curve facts and renderers of report/compare,
 * the p-values of stats_ratio_test against its interval, and the change
 * points of report/history on series with known breaks.
 *
 *   test_compare GOLDEN_DIR [--update]
 */
#include <stdlib.h>

#include "compare.h"
#include "golden.h"
#include "history.h"
#include "stats.h"
#include "test.h"

#define NBLOCKS 5

static struct cmp_sample
sample(const char *workload, int clients, int64_t run, int block, double value,
	   double tps)
{
	struct cmp_sample s = {workload, clients, run, block, value, tps,
						   NULL,     0,       NAN, 0,     NAN};

	return s;
}

/* Per-block noise factors: small for A and most of B, large for one. */
static const double noise_a[NBLOCKS] = {1.00, 1.02, 0.98, 1.01, 0.99};
static const double noise_b[NBLOCKS] = {0.99, 1.01, 1.00, 0.98, 1.02};
static const double noise_wide[NBLOCKS] = {0.85, 1.15, 0.90, 1.10, 1.00};

struct truth
{
	int clients;
	double tps_a;
	double ratio;
	const double *noise;
};

/* seed 002's shape: 4 points, a regression, an improvement, noise, a cliff */
static const struct truth sweep[] = {
	{1, 1000, 1.00, noise_a},
	{4, 3500, 0.85, noise_b},
	{16, 5000, 1.10, noise_b},
	{64, 2000, 0.96, noise_wide},
};

static int
make_samples(struct cmp_sample *a, struct cmp_sample *b, int64_t run_a,
			 int64_t run_b, int npoints)
{
	int n = 0;

	for (int p = 0; p < npoints; p++)
		for (int k = 0; k < NBLOCKS; k++)
		{
			a[n] = sample("emit", sweep[p].clients, run_a, k,
						  sweep[p].tps_a * noise_a[k], 0);
			a[n].tps = a[n].value;
			b[n] =
				sample("emit", sweep[p].clients, run_b, k,
					   sweep[p].tps_a * sweep[p].ratio * sweep[p].noise[k], 0);
			b[n].tps = b[n].value;
			n++;
		}
	return n;
}

static void
test_verdicts(const char *golden_dir, bool update)
{
	struct cmp_sample a[64], b[64];
	int n = make_samples(a, b, 7, 7, 4);
	struct cmp_opts o = {
		CMP_TPS,          0.03, 0.95, 5432, true, false, CMP_RULE_ESTIMATE,
		CMP_ADJUST_STEAL, ""};
	struct cmp_result r;
	struct cmp_labels l = {"run 7, variant locks8", "run 7, variant locks64",
						   "xloginsert_locks"};
	struct strbuf sb = STRBUF_INIT;

	compare_samples(a, n, b, n, &o, &r);
	CHECK_INT(r.npoints, 4);
	CHECK_INT(r.points[0].clients, 1);
	CHECK_INT(r.points[0].verdict, CMP_SAME);
	CHECK_INT(r.points[1].verdict, CMP_REGRESSION);
	CHECK_INT(r.points[2].verdict, CMP_IMPROVED);
	CHECK_INT(r.points[3].verdict, CMP_INCONCLUSIVE);
	CHECK(r.points[3].more_repeats > 0 || r.points[3].more_repeats == -1);
	CHECK(r.points[1].paired);
	CHECK_INT(r.points[1].na, NBLOCKS);
	CHECK_NEAR(r.points[1].r.ratio, 0.85 * 0.99987, 0.01);
	/* the interval never narrower than the t interval */
	for (int i = 0; i < r.npoints; i++)
	{
		CHECK(r.points[i].r.lo <= r.points[i].r.t_lo);
		CHECK(r.points[i].r.hi >= r.points[i].r.t_hi);
	}
	CHECK_INT(r.nregressions, 1);
	CHECK_INT(r.ninconclusive, 1);
	CHECK_INT(r.outcome, CMP_OUTCOME_REGRESSION);
	/* curve facts: peak at 16 on both sides, A falls off at 64 */
	CHECK_INT(r.ncurves, 1);
	CHECK_INT(r.curves[0].a.peak_clients, 16);
	CHECK_INT(r.curves[0].b.peak_clients, 16);
	CHECK_NEAR(r.curves[0].a.peak_tps, 5000, 0.001);
	CHECK_INT(r.curves[0].a.cliff_clients, 64);
	CHECK_INT(r.curves[0].b.cliff_clients, 64);
	CHECK_INT(r.curves[0].top_clients, 64);
	CHECK(r.curves[0].geo_paired);
	CHECK(r.curves[0].geo_lo <= r.curves[0].geo_ratio &&
		  r.curves[0].geo_ratio <= r.curves[0].geo_hi);
	CHECK_NEAR(r.curves[0].geo_ratio, pow(1.00 * 0.85 * 1.10 * 0.96, 0.25),
			   0.02);

	compare_render(&sb, &r, &l, CMP_FORMAT_TEXT);
	golden(golden_dir, "compare.txt", sb.buf, update);
	strbuf_reset(&sb);
	compare_render(&sb, &r, &l, CMP_FORMAT_MARKDOWN);
	golden(golden_dir, "compare.md", sb.buf, update);
	strbuf_reset(&sb);
	compare_render(&sb, &r, &l, CMP_FORMAT_JSON);
	golden(golden_dir, "compare.json", sb.buf, update);
	strbuf_reset(&sb);
	compare_render(&sb, &r, &l, CMP_FORMAT_JUNIT);
	golden(golden_dir, "compare.junit.xml", sb.buf, update);
	strbuf_reset(&sb);
	/* GitHub: the summary is the Markdown, the annotations one per line */
	compare_render(&sb, &r, &l, CMP_FORMAT_GITHUB);
	golden(golden_dir, "compare.md", sb.buf, false);
	strbuf_reset(&sb);
	compare_annotations(&sb, &r, &l);
	golden(golden_dir, "compare.github.txt", sb.buf, update);
	strbuf_reset(&sb);
	{
		/* a label that would end the command or start another: escaped */
		struct cmp_labels hostile = {"run 1, a:b", "50%\n::error::x", "r,1"};
		const char *nl;

		compare_annotations(&sb, &r, &hostile);
		CHECK(strstr(sb.buf, "50%25%0A::error::x") != NULL);
		CHECK(strstr(sb.buf, "title=pgcliff r%2C1::") != NULL);
		/* every line is a command: no line starts inside a label */
		for (const char *s = sb.buf; s && *s; s = nl ? nl + 1 : NULL)
		{
			nl = strchr(s, '\n');
			CHECK(strncmp(s, "::error title=", 14) == 0 ||
				  strncmp(s, "::warning title=", 16) == 0 ||
				  strncmp(s, "::notice title=", 15) == 0);
		}
	}
	strbuf_release(&sb);
	compare_result_free(&r);

	/* the same data from different runs: unpaired, same verdicts here */
	make_samples(a, b, 7, 8, 4);
	compare_samples(a, n, b, n,
					&(struct cmp_opts){CMP_TPS, 0.03, 0.95, 1, false, false,
									   CMP_RULE_ESTIMATE, CMP_ADJUST_STEAL,
									   ""},
					&r);
	CHECK(!r.points[1].paired);
	CHECK_INT(r.points[1].verdict, CMP_REGRESSION);
	CHECK(!r.curves[0].geo_paired);
	compare_result_free(&r);

	/* a point only one side has is reported, not judged */
	n = make_samples(a, b, 7, 7, 4);
	compare_samples(a, n, b, n - NBLOCKS, &o, &r);
	CHECK_INT(r.points[3].verdict, CMP_MISSING);
	CHECK_INT(r.nmissing, 1);
	CHECK_INT(r.curves[0].top_clients, 16);
	compare_result_free(&r);

	/* A against itself: no regression anywhere, ratio exactly 1 */
	compare_samples(a, n, a, n, &o, &r);
	for (int i = 0; i < r.npoints; i++)
	{
		CHECK_INT(r.points[i].verdict, CMP_SAME);
		CHECK_NEAR(r.points[i].r.ratio, 1, 1e-12);
	}
	CHECK_INT(r.outcome, CMP_OUTCOME_NO_REGRESSION);
	compare_result_free(&r);
}

/*
 * Windows: a long transaction at 16 clients dips A to 40 % and B to 70 %
 * of "before"; A recovers in 12 s, B in 5 s (one block of B never does).
 */
static void
test_windows(const char *golden_dir, bool update)
{
	struct cmp_sample a[4 * NBLOCKS], b[4 * NBLOCKS];
	static const char *const win[] = {NULL, "before", "during", "after"};
	const double tps_a[] = {16000, 20000, 8000, 19800};
	const double tps_b[] = {17500, 20000, 14000, 19900};
	const double rec_b[NBLOCKS] = {5, 4, 6, -1, 5};
	struct cmp_opts o = {
		CMP_TPS,          0.03, 0.95, 5432, true, false, CMP_RULE_ESTIMATE,
		CMP_ADJUST_STEAL, ""};
	struct cmp_labels l = {"run 3, variant kax32", "run 3, variant kax1024",
						   "kax_compress"};
	struct cmp_result r;
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	for (int w = 0; w < 4; w++)
		for (int k = 0; k < NBLOCKS; k++, n++)
		{
			a[n] = sample("reads", 16, 3, k, tps_a[w] * noise_a[k], 0);
			b[n] = sample("reads", 16, 3, k, tps_b[w] * noise_b[k], 0);
			a[n].tps = a[n].value;
			b[n].tps = b[n].value;
			a[n].window = b[n].window = win[w];
			a[n].window_order = b[n].window_order = w;
			if (w == 2)
			{
				a[n].recovery_s = 12;
				b[n].recovery_s = rec_b[k];
			}
		}
	compare_samples(a, n, b, n, &o, &r);
	CHECK_INT(r.npoints, 4);
	CHECK(r.points[0].window == NULL);
	CHECK_STR(r.points[1].window, "before");
	CHECK_STR(r.points[2].window, "during");
	CHECK_STR(r.points[3].window, "after");
	CHECK_INT(r.points[2].verdict, CMP_IMPROVED);
	CHECK(r.points[1].verdict != CMP_REGRESSION);
	CHECK_INT(r.nwindows, 1);
	CHECK_NEAR(r.windows[0].a.dip, 0.4, 0.02);
	CHECK_NEAR(r.windows[0].b.dip, 0.7, 0.02);
	CHECK_NEAR(r.windows[0].a.recovery_s, 12, 0);
	CHECK_NEAR(r.windows[0].b.recovery_s, 5, 0);
	/* the curve facts ignore the windows */
	CHECK_NEAR(r.curves[0].a.peak_tps, 16000, 0.03);
	CHECK(r.curves[0].top == &r.points[0]);
	compare_render(&sb, &r, &l, CMP_FORMAT_TEXT);
	golden(golden_dir, "compare_windows.txt", sb.buf, update);
	strbuf_reset(&sb);
	compare_render(&sb, &r, &l, CMP_FORMAT_MARKDOWN);
	golden(golden_dir, "compare_windows.md", sb.buf, update);
	strbuf_reset(&sb);
	compare_render(&sb, &r, &l, CMP_FORMAT_JSON);
	golden(golden_dir, "compare_windows.json", sb.buf, update);
	strbuf_release(&sb);
	compare_result_free(&r);
}

static void
test_recovery(void)
{
	/* before 100 tps; the event ends at second 4 */
	const double tps[] = {100, 100, 40, 40, 60, 80, 90, 97, 99, 100, 98, 101};
	const double never[] = {100, 100, 40, 40, 60, 70, 70, 70};

	/* 3-second averages from 4: 76.7, 89, 95.3 -> 2 s */
	CHECK_NEAR(cmp_recovery_seconds(tps, 12, 4, 100), 2, 0);
	CHECK_NEAR(cmp_recovery_seconds(tps, 12, 0, 100), 6, 0);
	CHECK_NEAR(cmp_recovery_seconds(never, 8, 4, 100), -1, 0);
	/* the last seconds average over what is left */
	CHECK_NEAR(cmp_recovery_seconds((const double[]){50, 50, 96}, 3, 0, 100),
			   2, 0);
}

/*
 * Gating on the geometric mean: every point drops 10 % under noise that
 * leaves each point undecided, but averages out over the sweep.
 */
static void
test_geomean_gate(const char *golden_dir, bool update)
{
	struct cmp_sample a[4 * NBLOCKS], b[4 * NBLOCKS];
	struct cmp_opts o = {
		CMP_TPS,          0.03, 0.95, 5432, true, true, CMP_RULE_ESTIMATE,
		CMP_ADJUST_STEAL, ""};
	struct cmp_labels l = {"run 5, variant a", "run 5, variant slow",
						   "txid_current"};
	struct cmp_result r;
	struct strbuf sb = STRBUF_INIT;
	int n = 0;

	for (int p = 0; p < 4; p++)
		for (int k = 0; k < NBLOCKS; k++, n++)
		{
			a[n] = sample("txid", 1 << p, 5, k, 1000, 1000);
			b[n] = sample("txid", 1 << p, 5, k,
						  900 * noise_wide[(k + p) % NBLOCKS], 900);
		}
	compare_samples(a, n, b, n, &o, &r);
	CHECK_INT(r.nregressions, 0);
	CHECK_INT(r.ninconclusive, 4);
	CHECK_INT(r.curves[0].geo_verdict, CMP_REGRESSION);
	CHECK(r.curves[0].geo_hi < 0.97);
	CHECK_INT(r.outcome, CMP_OUTCOME_REGRESSION);
	compare_render(&sb, &r, &l, CMP_FORMAT_JUNIT);
	golden(golden_dir, "compare_geomean.junit.xml", sb.buf, update);
	strbuf_reset(&sb);
	compare_render(&sb, &r, &l, CMP_FORMAT_TEXT);
	golden(golden_dir, "compare_geomean.txt", sb.buf, update);
	strbuf_reset(&sb);
	compare_annotations(&sb, &r, &l);
	golden(golden_dir, "compare_geomean.github.txt", sb.buf, update);
	strbuf_release(&sb);
	compare_result_free(&r);
	/* the same data gated per point: nothing decided */
	o.on_geomean = false;
	compare_samples(a, n, b, n, &o, &r);
	CHECK_INT(r.outcome, CMP_OUTCOME_INCONCLUSIVE);
	compare_result_free(&r);
}

/* Latencies: lower is better, so B 20 % higher is the regression. */
static void
test_latency(void)
{
	struct cmp_sample a[NBLOCKS], b[NBLOCKS];
	struct cmp_result r;
	struct cmp_opts o = {CMP_P99,
						 cmp_metric_default_margin(CMP_P99),
						 0.95,
						 1,
						 true,
						 false,
						 CMP_RULE_ESTIMATE,
						 CMP_ADJUST_STEAL,
						 ""};

	for (int k = 0; k < NBLOCKS; k++)
	{
		a[k] = sample("w", 8, 1, k, 2.0 * noise_a[k], 1000);
		b[k] = sample("w", 8, 1, k, 2.4 * noise_b[k], 900);
	}
	CHECK(!cmp_metric_higher_is_better(CMP_P99));
	CHECK_NEAR(o.margin, 0.05, 0);
	compare_samples(a, NBLOCKS, b, NBLOCKS, &o, &r);
	CHECK_INT(r.points[0].verdict, CMP_REGRESSION);
	compare_result_free(&r);
	/* and 20 % lower is an improvement */
	compare_samples(b, NBLOCKS, a, NBLOCKS, &o, &r);
	CHECK_INT(r.points[0].verdict, CMP_IMPROVED);
	compare_result_free(&r);
}

/*
 * Holm: one point alone whose p-value is just under alpha/2 is a
 * regression; next to points with no evidence it is not (its adjusted
 * p-value is m times larger).
 */
static void
test_holm(void)
{
	struct cmp_sample a[4 * NBLOCKS], b[4 * NBLOCKS];
	struct cmp_result r;
	struct cmp_opts o = {
		CMP_TPS,          0.03, 0.95, 1, true, false, CMP_RULE_STRICT,
		CMP_ADJUST_STEAL, ""};
	/* a drop to 0.925 with ~3 % noise: decided alone, not among 4 */
	const double nb[NBLOCKS] = {0.96, 1.03, 0.99, 1.02, 0.97};
	double p_alone;

	for (int k = 0; k < NBLOCKS; k++)
	{
		a[k] = sample("w", 1, 1, k, 100, 100);
		b[k] = sample("w", 1, 1, k, 92.5 * nb[k], 92.5);
	}
	compare_samples(a, NBLOCKS, b, NBLOCKS, &o, &r);
	CHECK_INT(r.points[0].verdict, CMP_REGRESSION);
	p_alone = r.points[0].p_regression;
	compare_result_free(&r);
	for (int c = 1; c < 4; c++)
		for (int k = 0; k < NBLOCKS; k++)
		{
			a[c * NBLOCKS + k] = sample("w", 1 << c, 1, k, 100 * nb[k], 100);
			b[c * NBLOCKS + k] =
				sample("w", 1 << c, 1, k, 100 * nb[4 - k], 100);
		}
	compare_samples(a, 4 * NBLOCKS, b, 4 * NBLOCKS, &o, &r);
	CHECK_NEAR(r.points[0].p_regression, 4 * p_alone, 1e-9);
	CHECK_INT(r.points[0].verdict, CMP_INCONCLUSIVE);
	compare_result_free(&r);
}

/* The verdict of one point of NBLOCKS pairs: B = A * RATIO * noise. */
static enum cmp_verdict
one_point(enum cmp_metric m, enum cmp_rule rule, double ratio)
{
	const double nz[NBLOCKS] = {0.995, 1.004, 0.998, 1.003, 1.0};
	struct cmp_sample a[NBLOCKS], b[NBLOCKS];
	struct cmp_opts o = {m,    cmp_metric_default_margin(m),
						 0.95, 1,
						 true, false,
						 rule, CMP_ADJUST_STEAL,
						 ""};
	struct cmp_result r;
	enum cmp_verdict v;

	for (int k = 0; k < NBLOCKS; k++)
	{
		a[k] = sample("w", 1, 1, k, 100, 100);
		b[k] = sample("w", 1, 1, k, 100 * ratio * nz[k], 100);
	}
	compare_samples(a, NBLOCKS, b, NBLOCKS, &o, &r);
	v = r.points[0].verdict;
	compare_result_free(&r);
	return v;
}

/*
 * The rules: estimate calls a drop beyond the margin that is beyond doubt
 * (interval wholly below 1) a REGRESSION; strict only one whose interval
 * lies wholly beyond the margin.  A drop inside the margin is never one
 * under estimate, even beyond doubt; a drop much larger than the margin
 * is one under both.  Latencies mirror it (higher is worse, margin 5 %).
 */
static void
test_rules(void)
{
	enum cmp_rule est = CMP_RULE_ESTIMATE, strict = CMP_RULE_STRICT;
	enum cmp_rule parsed;

	/* 3.2 % slower, ~0.4 % noise: the interval straddles 0.97 */
	CHECK_INT(one_point(CMP_TPS, est, 0.968), CMP_REGRESSION);
	CHECK_INT(one_point(CMP_TPS, strict, 0.968), CMP_INCONCLUSIVE);
	/* 2 % slower beyond doubt: inside the margin, not a regression */
	CHECK_INT(one_point(CMP_TPS, est, 0.98), CMP_SAME);
	CHECK_INT(one_point(CMP_TPS, strict, 0.98), CMP_SAME);
	/* 10 % slower: both */
	CHECK_INT(one_point(CMP_TPS, est, 0.90), CMP_REGRESSION);
	CHECK_INT(one_point(CMP_TPS, strict, 0.90), CMP_REGRESSION);
	/* p99 5.2 % higher (margin 5 %): estimate only */
	CHECK_INT(one_point(CMP_P99, est, 1.052), CMP_REGRESSION);
	CHECK_INT(one_point(CMP_P99, strict, 1.052), CMP_INCONCLUSIVE);
	CHECK_INT(one_point(CMP_P99, est, 0.90), CMP_IMPROVED);
	CHECK(cmp_rule_parse("strict", &parsed) == 0 && parsed == strict);
	CHECK(cmp_rule_parse("estimate", &parsed) == 0 && parsed == est);
	CHECK(cmp_rule_parse("loose", &parsed) == -1);
	CHECK_STR(cmp_rule_name(strict), "strict");
}

/* p < alpha/2 exactly when the interval is wholly on that side of theta */
static void
test_pvalues_agree_with_interval(void)
{
	const double base[6] = {100, 104, 97, 101, 99, 103};
	const double wiggle[6] = {1.03, 0.98, 1.01, 0.97, 1.02, 0.99};

	for (double ratio = 0.80; ratio < 1.2; ratio += 0.01)
		for (int paired = 0; paired < 2; paired++)
		{
			double b[6];
			struct stats_ratio r;

			for (int i = 0; i < 6; i++)
				b[i] = base[i] * ratio * wiggle[i];
			stats_ratio_test(base, 6, b, 6, paired, 0.95, 42, 0.97, &r);
			CHECK((r.p_below < 0.025) == (r.hi < 0.97));
			CHECK((r.p_above < 0.025) == (r.lo > 0.97));
			CHECK(r.p_below + r.p_above >= 1 - 1e-9);
		}
}

static void
test_repeats_to_decide(void)
{
	struct stats_ratio r;
	const double a[3] = {100, 110, 90};
	const double b[3] = {92, 99, 84};
	int more;

	stats_ratio_test(a, 3, b, 3, true, 0.95, 1, 0.97, &r);
	more = stats_repeats_to_decide(&r, 0.95, 1, 100);
	CHECK(more >= 1 && more <= 100);
	/* after that many more repeats, with the same spread, it is decided */
	CHECK(stats_t_quantile(0.975, r.n + more - 1) * r.se_log * sqrt(r.n) /
			  sqrt(r.n + more) <
		  fabs(r.est_log - log(0.97)));
	/* one pair: cannot be said */
	stats_ratio_test(a, 1, b, 1, true, 0.95, 1, 0.97, &r);
	CHECK_INT(stats_repeats_to_decide(&r, 0.95, 1, 100), -1);
}

static void
test_history(void)
{
	struct history_opts o = {3, 0.05, 0.05, 199, 5432};
	struct history_change ch[8];
	double x[30];
	/* a fixed +-1 % wiggle that is not a change */
	const double w[10] = {1.006, 0.993, 1.010, 0.998, 0.989,
						  1.004, 0.996, 1.008, 0.991, 1.002};
	int n;

	/* one break: 100 -> 90 at index 10 */
	for (int i = 0; i < 20; i++)
		x[i] = (i < 10 ? 100 : 90) * w[i % 10];
	n = history_change_points(x, 20, &o, ch, 8);
	CHECK_INT(n, 1);
	CHECK_INT(ch[0].index, 10);
	CHECK_NEAR(ch[0].before, 100, 0.01);
	CHECK_NEAR(ch[0].after, 90, 0.01);
	CHECK(ch[0].p <= 0.05);

	/* two breaks: 100 -> 90 at 8, 90 -> 110 at 16 */
	for (int i = 0; i < 24; i++)
		x[i] = (i < 8 ? 100 : i < 16 ? 90 : 110) * w[(i * 3) % 10];
	n = history_change_points(x, 24, &o, ch, 8);
	CHECK_INT(n, 2);
	CHECK_INT(ch[0].index, 8);
	CHECK_INT(ch[1].index, 16);
	CHECK_NEAR(ch[1].after, 110, 0.02);

	/* noise only: nothing */
	for (int i = 0; i < 30; i++)
		x[i] = 100 * w[(i * 7) % 10];
	CHECK_INT(history_change_points(x, 30, &o, ch, 8), 0);

	/* a real but small step is below the minimum magnitude */
	for (int i = 0; i < 20; i++)
		x[i] = (i < 10 ? 100 : 97) * (1 + (w[i % 10] - 1) / 10);
	CHECK_INT(history_change_points(x, 20, &o, ch, 8), 0);
	o.min_change = 0.02;
	CHECK_INT(history_change_points(x, 20, &o, ch, 8), 1);

	/* a step at the edge, shorter than the minimum segment: not reported */
	o.min_change = 0.05;
	for (int i = 0; i < 12; i++)
		x[i] = (i < 10 ? 100 : 50) * w[i % 10];
	CHECK_INT(history_change_points(x, 12, &o, ch, 8), 0);
	/* too short a series */
	CHECK_INT(history_change_points(x, 5, &o, ch, 8), 0);
}

/* The history renderers on two fixed series, one with a change. */
static void
test_history_render(const char *golden_dir, bool update)
{
	struct history_opts o = {3, 0.05, 0.05, 199, 5432};
	int64_t runs[8] = {3, 4, 5, 6, 9, 10, 11, 12};
	const char *started[8] = {"2026-11-01 10:00:00", "2026-11-02 10:00:00",
							  "2026-11-03 10:00:00", "2026-11-04 10:00:00",
							  "2026-11-05 10:00:00", "2026-11-06 10:00:00",
							  "2026-11-07 10:00:00", "2026-11-08 10:00:00"};
	double flat[8] = {20100, 19900, 20050, 19950, 20020, 19980, 20010, 19990};
	double step[8] = {28000, 28200, 27900, 28100, 25100, 25300, 24900, 25200};
	struct history_series ss[2];
	struct strbuf sb = STRBUF_INIT;
	static const enum cmp_format formats[] = {
		CMP_FORMAT_TEXT, CMP_FORMAT_MARKDOWN, CMP_FORMAT_JSON,
		CMP_FORMAT_JUNIT};
	static const char *const names[] = {"history.txt", "history.md",
										"history.json", "history.junit.xml"};

	memset(ss, 0, sizeof(ss));
	for (int i = 0; i < 2; i++)
	{
		ss[i].variant = "default";
		ss[i].workload = "txid";
		ss[i].clients = i ? 16 : 1;
		ss[i].runs = runs;
		ss[i].started = started;
		ss[i].values = i ? step : flat;
		ss[i].n = 8;
		ss[i].nchanges = history_change_points(
			ss[i].values, 8, &o, ss[i].changes, HISTORY_MAX_CHANGES);
	}
	CHECK_INT(ss[0].nchanges, 0);
	CHECK_INT(ss[1].nchanges, 1);
	CHECK_INT(ss[1].changes[0].index, 4);
	for (int f = 0; f < 4; f++)
	{
		strbuf_reset(&sb);
		history_render(&sb, formats[f], "txid_current", CMP_TPS, &o, ss, 2);
		golden(golden_dir, names[f], sb.buf, update);
	}
	strbuf_release(&sb);
}

/*
 * A variant 5 % slower on a host that steals CPU now and then: B's
 * blocks with B's steal over A's read lower.  Adjusted (the default) the
 * point and the geometric mean read B/A at equal steal and their spread is
 * what the steal leaves; --adjust none, or a block without its steal,
 * reads the plain mean; windows of a point are never adjusted.
 */
static void
test_steal_adjusted(void)
{
	static const double steal_a[8] = {0, 0, 12, 0, 1, 0, 0, 3};
	static const double steal_b[8] = {0, 9, 0, 0, 0, 15, 2, 0};
	static const double noise[8] = {1.01, 0.99, 1.00, 1.02,
									0.98, 1.00, 1.01, 0.99};
	struct cmp_sample a[8], b[8];
	struct cmp_opts o = {
		CMP_TPS,          0.03, 0.95, 5432, true, false, CMP_RULE_ESTIMATE,
		CMP_ADJUST_STEAL, ""};
	struct cmp_result adj, raw;

	for (int k = 0; k < 8; k++)
	{
		a[k] = sample("txid", 1, 1, k, 10000 * exp(-0.03 * steal_a[k]), 0);
		b[k] = sample("txid", 1, 1, k,
					  9500 * noise[k] * exp(-0.03 * steal_b[k]), 0);
		a[k].steal = steal_a[k];
		b[k].steal = steal_b[k];
	}
	compare_samples(a, 8, b, 8, &o, &adj);
	CHECK(adj.points[0].r.adjusted);
	CHECK_NEAR(adj.points[0].r.slope, -0.03, 0.005);
	CHECK_NEAR(adj.points[0].r.ratio, 0.95, 0.01);
	CHECK(adj.points[0].r.sd_unit < adj.points[0].r.sd_raw / 3);
	CHECK_INT(adj.points[0].verdict, CMP_REGRESSION);
	CHECK(adj.curves[0].geo_r.adjusted);
	CHECK_NEAR(adj.curves[0].geo_ratio, adj.points[0].r.ratio, 1e-12);
	o.adjust = CMP_ADJUST_NONE;
	compare_samples(a, 8, b, 8, &o, &raw);
	CHECK(!raw.points[0].r.adjusted && !raw.curves[0].geo_r.adjusted);
	/* the plain mean: the steal's blocks widen it past a decision */
	CHECK(raw.points[0].r.hi - raw.points[0].r.lo >
		  2 * (adj.points[0].r.hi - adj.points[0].r.lo));
	CHECK(raw.points[0].verdict != CMP_REGRESSION);
	compare_result_free(&raw);
	/* one block without its steal: nothing to adjust by */
	o.adjust = CMP_ADJUST_STEAL;
	b[3].steal = NAN;
	compare_samples(a, 8, b, 8, &o, &raw);
	CHECK(!raw.points[0].r.adjusted);
	compare_result_free(&raw);
	compare_result_free(&adj);
}

/* a look with 2 blocks has an interval up to 1e26: printed short */
/* Markdown shows a name and does nothing else (cmp_md_escape()). */
static void
test_md_escape(void)
{
	static const struct
	{
		const char *in, *want;
	} cases[] = {
		{"txid_current", "txid_current"}, /* inside a word: nothing */
		{"_a_ *b*", "\\_a\\_ \\*b\\*"},
		{"<script>x</script>", "\\<script\\>x\\</script\\>"},
		{"[a](http://e) ![i](x)", "\\[a\\](http://e) !\\[i\\](x)"},
		{"a|b\nc\rd", "a\\|b c d"},
		{"`x` ~~y~~ &amp; # $1$ \\",
		 "\\`x\\` \\~\\~y\\~\\~ \\&amp; \\# \\$1\\$ \\\\"},
		{"", ""},
	};
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		strbuf_reset(&sb);
		cmp_md_escape(&sb, cases[i].in);
		CHECK_STR(sb.buf, cases[i].want);
	}
	strbuf_reset(&sb);
	cmp_md_escape(&sb, NULL);
	CHECK_STR(sb.buf, "");
	strbuf_release(&sb);
}

static void
test_interval_text(void)
{
	struct strbuf sb = STRBUF_INIT;

	cmp_interval_text(&sb, 0.912, 0.987);
	CHECK_STR(sb.buf, "[0.912, 0.987]");
	strbuf_reset(&sb);
	cmp_interval_text(&sb, 0.0, 127953471454280659710771200.0);
	CHECK_STR(sb.buf, "[0.000, 1.28e+26]");
	strbuf_reset(&sb);
	cmp_interval_text(&sb, 0.0, INFINITY);
	CHECK_STR(sb.buf, "[0.000, inf]");
	strbuf_release(&sb);
}

/* The counted metrics (run --count): names, direction, margin, columns. */
static void
test_count_metrics(void)
{
	static const char *const names[] = {"instructions", "l1_misses",
										"ll_misses"};
	struct store_point_row p;

	memset(&p, 0, sizeof(p));
	p.cost[0] = 27303.5;
	p.cost[1] = 1531.25;
	p.cost[2] = 0.5;
	for (int i = 0; i < 3; i++)
	{
		enum cmp_metric m;

		CHECK_INT(cmp_metric_parse(names[i], &m), 0);
		CHECK_INT(m, CMP_INSTRUCTIONS + i);
		CHECK_STR(cmp_metric_name(m), names[i]);
		CHECK(!cmp_metric_higher_is_better(m));
		CHECK_NEAR(cmp_metric_default_margin(m), 0.01, 1e-12);
		/* not counted: no value, so the point is left out */
		CHECK(isnan(point_metric(&p, m)));
	}
	p.counted = 1000;
	CHECK_NEAR(point_metric(&p, CMP_INSTRUCTIONS), 27303.5, 1e-12);
	CHECK_NEAR(point_metric(&p, CMP_LL_MISSES), 0.5, 1e-12);
}

int
main(int argc, char **argv)
{
	bool update = argc > 2 && strcmp(argv[2], "--update") == 0;

	if (argc < 2)
	{
		fprintf(stderr, "usage: test_compare GOLDEN_DIR [--update]\n");
		return 2;
	}
	test_count_metrics();
	test_verdicts(argv[1], update);
	test_windows(argv[1], update);
	test_recovery();
	test_geomean_gate(argv[1], update);
	test_latency();
	test_holm();
	test_rules();
	test_steal_adjusted();
	test_interval_text();
	test_md_escape();
	test_pvalues_agree_with_interval();
	test_repeats_to_decide();
	test_history();
	test_history_render(argv[1], update);
	TEST_MAIN_END("test_compare");
}
