/*
 * test_sequential.c - the sequential rule's guarantee, by simulation.
 *
 * A/A gates look after every block and judge at the confidence alpha
 * spending allows (report/sequential.h), under either rule (compare.h):
 * estimate (the interval wholly below 1 and the estimate below the
 * margin) or strict (the interval wholly below the margin).  The full
 * rule calls REGRESSION only when both the t interval and the bootstrap
 * say so (each p-value is the larger of the two: report/stats.h), so the
 * t test alone calls every REGRESSION the full rule calls: 10,000 gates
 * are simulated with the t test (fast), which bounds the full rule's
 * false alarms, and 300 gates with the full compare_samples() check that
 * bound on the same data.  The same looks at a fixed 95 % each do not
 * keep alpha.  Slowdowns of 5 and 10 % are found, the estimate rule
 * finding what strict finds and more; a 2 % drop, inside the margin, is
 * what the estimate rule may call and strict may not.  The noise is
 * log-normal: a block effect shared
 * by A and B (pairing) plus each side's own, sd 0.07 each, so the log
 * ratio of a block has sd 0.10 (a 3 s txid_current block measured here:
 * 8-12 %).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare.h"
#include "sequential.h"
#include "stats.h"
#include "test.h"

#define GATES       10000
#define FULL_GATES  300
#define MAX_BLOCKS  10
#define LONG_BLOCKS 60 /* a budget's worth: schedule against every block */
#define MAX_DRAW    LONG_BLOCKS
#define MARGIN      0.03

static double
gauss(struct prng *p)
{
	double u = prng_double(p), v = prng_double(p);

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

/* N blocks of A and B with true ratio RATIO. */
static void
draw(struct prng *p, double ratio, int n, double *a, double *b)
{
	for (int k = 0; k < n; k++)
	{
		double shared = 0.07 * gauss(p);

		a[k] = 1000 * exp(shared + 0.07 * gauss(p));
		b[k] = 1000 * ratio * exp(shared + 0.07 * gauss(p));
	}
}

/*
 * The t half of RULE on the first N blocks at confidence CONF: 1
 * REGRESSION (strict: interval wholly below 1 - MARGIN; estimate: wholly
 * below 1, estimate below 1 - MARGIN), -1 NO-REGRESSION (wholly above
 * 1 - MARGIN), 0 undecided.
 */
static int
t_rule(const double *a, const double *b, int n, double conf,
	   enum cmp_rule rule)
{
	double d[MAX_DRAW], m, se, q;

	for (int k = 0; k < n; k++)
		d[k] = log(b[k] / a[k]);
	m = stats_mean(d, n);
	se = stats_sd(d, n) / sqrt(n);
	q = stats_t_quantile(1 - (1 - conf) / 2, n - 1);
	if (rule == CMP_RULE_STRICT ? m + q * se < log(1 - MARGIN)
								: m + q * se < 0 && m < log(1 - MARGIN))
		return 1;
	if (m - q * se > log(1 - MARGIN))
		return -1;
	return 0;
}

/* The full rule: compare_samples() on the first N blocks. */
static int
full_rule(const double *a, const double *b, int n, double conf,
		  enum cmp_rule rule)
{
	struct cmp_sample sa[MAX_BLOCKS], sb[MAX_BLOCKS];
	struct cmp_opts o = {CMP_TPS, MARGIN, conf, 5432, true, false, rule};
	struct cmp_result res;
	int out;

	for (int k = 0; k < n; k++)
	{
		sa[k] = (struct cmp_sample){"w", 1, 1, k, a[k], a[k], NULL, 0, NAN, 0};
		sb[k] = (struct cmp_sample){"w", 1, 1, k, b[k], b[k], NULL, 0, NAN, 0};
	}
	compare_samples(sa, n, sb, n, &o, &res);
	out = res.outcome == CMP_OUTCOME_REGRESSION      ? 1
		  : res.outcome == CMP_OUTCOME_NO_REGRESSION ? -1
													 : 0;
	compare_result_free(&res);
	return out;
}

/*
 * A gate: look after the blocks design D schedules, stop at the first
 * decision.  SPENDING: at the design's confidence, else 95 % at each of
 * the same looks.  *BLOCKS: blocks used.
 */
static int
gate(int (*judge)(const double *, const double *, int, double, enum cmp_rule),
	 enum cmp_rule rule, const struct seq_design *d, const double *a,
	 const double *b, bool spending, int *blocks)
{
	for (int n = 2; n <= d->max_blocks; n++)
	{
		int v;

		if (!seq_is_look(d, n))
			continue;
		v = judge(a, b, n, spending ? seq_conf_at(d, n) : 0.95, rule);
		*blocks = n;
		if (v != 0)
			return v;
	}
	return 0;
}

struct tally
{
	int reg, no, undecided;
	double mean_blocks;
};

static struct tally
simulate_with(const char *what, enum cmp_rule rule, const struct seq_design *d,
			  double ratio, bool spending, bool full, int gates)
{
	struct prng p;
	struct tally t = {0, 0, 0, 0};
	double a[MAX_DRAW], b[MAX_DRAW];
	long total = 0;

	prng_seed(&p, 20261201);
	for (int g = 0; g < gates; g++)
	{
		int blocks = d->max_blocks, v;

		draw(&p, ratio, d->max_blocks, a, b);
		v = gate(full ? full_rule : t_rule, rule, d, a, b, spending, &blocks);
		t.reg += v == 1;
		t.no += v == -1;
		t.undecided += v == 0;
		total += blocks;
	}
	t.mean_blocks = (double) total / gates;
	printf("%-8s %-34s ratio %.2f: REGRESSION %5d, NO-REGRESSION %5d, "
		   "undecided %5d of %d; mean blocks %.1f\n",
		   cmp_rule_name(rule), what, ratio, t.reg, t.no, t.undecided, gates,
		   t.mean_blocks);
	return t;
}

/* The default design over MAX_BLOCKS blocks. */
static struct tally
simulate(const char *what, enum cmp_rule rule, double ratio, bool spending,
		 bool full, int gates)
{
	struct seq_design d = seq_design_default(MAX_BLOCKS);

	return simulate_with(what, rule, &d, ratio, spending, full, gates);
}

int
main(void)
{
	struct seq_design d = seq_design_default(MAX_BLOCKS);
	struct tally aa[2], naive, full_t, full, slow10[2], slow5[2], inside[2];
	double sum = 0;

	/* the schedule: 2, then growing by half, and the last */
	{
		const int want[] = {2, 3, 5, 8, 10};
		int k = 0;

		for (int n = 1; n <= MAX_BLOCKS + 1; n++)
			if (seq_is_look(&d, n))
				CHECK(k < 5 && want[k++] == n);
		CHECK_INT(k, 5);
		CHECK_INT(seq_looks(&d), 5);
	}
	/* the scheduled looks' shares add up to alpha, each positive */
	for (int k = 2; k <= MAX_BLOCKS; k++)
		if (seq_is_look(&d, k))
		{
			CHECK(seq_conf_at(&d, k) < 1 && seq_conf_at(&d, k) > 0.95);
			sum += 1 - seq_conf_at(&d, k);
		}
	CHECK_NEAR(sum, d.alpha, 1e-12);
	CHECK(seq_conf_at(&d, 1) == 0 && seq_conf_at(&d, MAX_BLOCKS + 1) == 0);
	CHECK_NEAR(seq_spent(&d, MAX_BLOCKS), 0.05, 1e-12);
	/* rho 2, t = (b - 1) / 9: the first look spends alpha / 81, the one
	 * after 5 blocks alpha (16 - 4) / 81, the budget's last look after 7
	 * blocks what lies between 5 and 7 */
	CHECK_NEAR(1 - seq_conf_at(&d, 2), 0.05 / 81, 1e-12);
	CHECK_NEAR(1 - seq_conf_at(&d, 5), 0.05 * 12 / 81, 1e-12);
	CHECK_NEAR(1 - seq_conf_at(&d, 7), 0.05 * (36 - 16) / 81, 1e-12);
	/* growth 0: every block a look, as stored runs before the schedule */
	{
		struct seq_design every = d;

		every.growth = 0;
		CHECK_INT(seq_looks(&every), MAX_BLOCKS - 1);
		CHECK(seq_is_look(&every, 4));
		CHECK_NEAR(1 - seq_conf_at(&every, 4), 0.05 * (9 - 4) / 81, 1e-12);
	}

	for (int k = 0; k < 2; k++)
	{
		enum cmp_rule rule = k == 0 ? CMP_RULE_STRICT : CMP_RULE_ESTIMATE;

		/* A/A: at most alpha / 2 false REGRESSION verdicts over all the
		 * looks (one-sided) */
		aa[k] =
			simulate("A/A, alpha spending (t)", rule, 1.0, true, false, GATES);
		CHECK(aa[k].reg <= (int) (d.alpha / 2 * GATES));
		/* the same looks at a fixed 95 % each: alpha is not kept */
		naive = simulate("A/A, 95 % at every look (t)", rule, 1.0, false,
						 false, GATES);
		CHECK(naive.reg > aa[k].reg);
		/* the full rule never calls more than the t test on the same data */
		full_t = simulate("A/A, alpha spending (t)", rule, 1.0, true, false,
						  FULL_GATES);
		full = simulate("A/A, alpha spending (full rule)", rule, 1.0, true,
						true, FULL_GATES);
		CHECK(full.reg <= full_t.reg);
		/* slowdowns against the 3 % margin; a drop inside it */
		slow10[k] = simulate("10 % slower, alpha spending (t)", rule, 0.90,
							 true, false, GATES);
		CHECK(slow10[k].no <= (int) (d.alpha * GATES));
		slow5[k] = simulate("5 % slower, alpha spending (t)", rule, 0.95, true,
							false, GATES);
		inside[k] = simulate("2 % slower, alpha spending (t)", rule, 0.98,
							 true, false, GATES);
	}
	/* strict: a 10 % drop is found mostly; a 2 % one practically never */
	CHECK(slow10[0].reg >= GATES / 4);
	CHECK(inside[0].reg <= (int) (d.alpha / 2 * GATES));
	/* estimate finds what strict finds and more: here at least half again
	 * as many 5 % drops and 10 % drops in most gates */
	CHECK(slow10[1].reg >= slow10[0].reg && slow5[1].reg >= slow5[0].reg);
	CHECK(slow5[1].reg * 2 >= slow5[0].reg * 3);
	CHECK(slow10[1].reg >= GATES / 2);
	/* and neither calls a 10 % drop NO-REGRESSION beyond alpha */
	CHECK(slow10[1].no <= (int) (d.alpha * GATES));

	/*
	 * A budget of 60 blocks: looking after every block charges 59 looks
	 * in full; the schedule (13 looks) keeps the A/A bound and finds more
	 * of a 5 % drop, sooner.
	 */
	{
		struct seq_design sched = seq_design_default(LONG_BLOCKS);
		struct seq_design every = sched;
		struct tally aa_s, aa_e, s5, e5, s10, e10;

		every.growth = 0;
		aa_s =
			simulate_with("A/A, 60 blocks, scheduled looks", CMP_RULE_ESTIMATE,
						  &sched, 1.0, true, false, GATES / 2);
		aa_e = simulate_with("A/A, 60 blocks, every block", CMP_RULE_ESTIMATE,
							 &every, 1.0, true, false, GATES / 2);
		CHECK(aa_s.reg <= (int) (d.alpha / 2 * GATES / 2));
		CHECK(aa_e.reg <= (int) (d.alpha / 2 * GATES / 2));
		s5 = simulate_with("5 % slower, 60 blocks, scheduled",
						   CMP_RULE_ESTIMATE, &sched, 0.95, true, false,
						   GATES / 2);
		e5 = simulate_with("5 % slower, 60 blocks, every block",
						   CMP_RULE_ESTIMATE, &every, 0.95, true, false,
						   GATES / 2);
		s10 = simulate_with("10 % slower, 60 blocks, scheduled",
							CMP_RULE_ESTIMATE, &sched, 0.90, true, false,
							GATES / 2);
		e10 = simulate_with("10 % slower, 60 blocks, every block",
							CMP_RULE_ESTIMATE, &every, 0.90, true, false,
							GATES / 2);
		CHECK(s5.reg > e5.reg);
		CHECK(s10.reg >= e10.reg);
	}
	TEST_MAIN_END("test_sequential");
}
