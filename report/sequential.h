/*
 * sequential.h - judging a comparison after every block without
 * inflating its error rates: alpha spending over the looks (Lan and
 * DeMets, 1983) with the power family alpha(t) = ALPHA * t^RHO.
 *
 * A run with --until-decided looks after each block from the second on,
 * up to MAX_BLOCKS: look k of L = MAX_BLOCKS - 1 is judged by the usual
 * rule (compare_samples) at the confidence 1 - a_k, where
 * a_k = alpha(k/L) - alpha((k-1)/L).  The a_k add up to ALPHA, so by the
 * union bound the chance that any look calls a false REGRESSION (or a
 * false NO-REGRESSION) is at most ALPHA / 2 each, however the looks
 * depend on one another and wherever the run stops: the guarantee needs
 * no model of the noise.  RHO > 1 spends little early (a decision on two
 * blocks needs a large effect) and keeps most for the last looks; RHO = 1
 * spends evenly (Pocock-like).  tests/unit/test_sequential.c checks the
 * guarantee by simulation.  Pure functions.
 */
#ifndef PGCLIFF_SEQUENTIAL_H
#define PGCLIFF_SEQUENTIAL_H

#include <stdbool.h>

struct seq_design
{
	double alpha;   /* spent over all looks: 1 - the confidence, 0.05 */
	int max_blocks; /* blocks at most; looks are blocks 2..max_blocks */
	double rho;     /* the spending function's power; 2 by default */
};

/* The default: alpha 0.05, rho 2, MAX_BLOCKS blocks at most. */
struct seq_design seq_design_default(int max_blocks);

/* The number of looks: blocks 2 .. max_blocks (0 when max_blocks < 2). */
int seq_looks(const struct seq_design *d);

/*
 * The confidence at which the look after block BLOCKS (2 .. max_blocks)
 * judges; 0 for a block count that is not a look.
 */
double seq_conf_at(const struct seq_design *d, int blocks);

/* The alpha spent by the looks up to BLOCKS blocks, in [0, d->alpha]. */
double seq_spent(const struct seq_design *d, int blocks);

#endif /* PGCLIFF_SEQUENTIAL_H */
