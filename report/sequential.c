/*
 * sequential.c - alpha spending for looks after every block; see
 * sequential.h for the design and its guarantee.
 */
#include "sequential.h"

#include <math.h>

struct seq_design
seq_design_default(int max_blocks)
{
	struct seq_design d = {0.05, max_blocks, 2.0};

	return d;
}

int
seq_looks(const struct seq_design *d)
{
	return d->max_blocks >= 2 ? d->max_blocks - 1 : 0;
}

double
seq_spent(const struct seq_design *d, int blocks)
{
	int looks = seq_looks(d);
	int k = blocks - 1; /* the look after block 2 is the first */

	if (looks == 0 || k <= 0)
		return 0;
	if (k >= looks)
		return d->alpha;
	return d->alpha * pow((double) k / looks, d->rho);
}

double
seq_conf_at(const struct seq_design *d, int blocks)
{
	if (blocks < 2 || blocks > d->max_blocks)
		return 0;
	return 1 - (seq_spent(d, blocks) - seq_spent(d, blocks - 1));
}
