/*
 * sequential.h - judging a comparison while its blocks come in, without
 * inflating its error rates: alpha spending over the looks (Lan and
 * DeMets, 1983) with the power family alpha(t) = ALPHA * t^RHO.
 *
 * A run with --until-decided looks after scheduled blocks, up to
 * MAX_BLOCKS = N: the second, and then each time the blocks have grown by
 * GROWTH (2, 3, 5, 8, 12, 18, 27, ... with 1.5), and the last.  With
 * t(b) = (b - 1) / (N - 1), the information after b blocks, the look after
 * b blocks is judged by the usual rule (compare_samples) at the
 * confidence 1 - a with a = alpha(t(b)) - alpha(t(p)), p the look before
 * (or 1).  The a add up to at most ALPHA, so by the union bound the
 * chance that any look calls a false REGRESSION (or a false
 * NO-REGRESSION) is at most ALPHA / 2 each, however the looks depend on
 * one another and wherever the run stops: the guarantee needs no model of
 * the noise.  A run may also look once more, unscheduled, when its budget
 * ends (a stop decided by the clock, not by the data), spending what lies
 * between its last look and then.
 *
 * Why not every block: the union bound charges every look in full, so
 * ninety looks leave each a sliver of alpha (99.9 % intervals at the end)
 * while a tenth as many, spaced as the information grows, lose little of
 * it.  RHO > 1 spends little early and keeps most for the last looks.
 * GROWTH 0 looks after every block (runs stored before the schedule).
 * tests/unit/test_sequential.c checks the guarantee by simulation.  Pure
 * functions.
 */
#ifndef PGCLIFF_SEQUENTIAL_H
#define PGCLIFF_SEQUENTIAL_H

#include <stdbool.h>

struct seq_design
{
	double alpha;   /* spent over all looks: 1 - the confidence, 0.05 */
	int max_blocks; /* blocks at most (N) */
	double rho;     /* the spending function's power; 2 by default */
	double growth;  /* looks when the blocks grew by this; 0: every block */
};

#define SEQ_GROWTH 1.5

/* The default: alpha 0.05, rho 2, growth 1.5, MAX_BLOCKS blocks at most. */
struct seq_design seq_design_default(int max_blocks);

/* Whether the design looks after BLOCKS blocks (its schedule). */
bool seq_is_look(const struct seq_design *d, int blocks);

/* The number of scheduled looks (0 when max_blocks < 2). */
int seq_looks(const struct seq_design *d);

/*
 * The confidence at which a look after BLOCKS blocks (2 .. max_blocks)
 * judges: the alpha between the scheduled look before it and BLOCKS; 0
 * outside 2 .. max_blocks.  For a block count off the schedule this is
 * the budget's last look.
 */
double seq_conf_at(const struct seq_design *d, int blocks);

/* alpha(t(BLOCKS)): spent by the scheduled looks up to BLOCKS, if BLOCKS
 * is one. */
double seq_spent(const struct seq_design *d, int blocks);

#endif /* PGCLIFF_SEQUENTIAL_H */
