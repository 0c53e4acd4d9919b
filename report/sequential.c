/*
 * sequential.c - alpha spending over scheduled looks; see sequential.h
 * for the design and its guarantee.
 */
#include "sequential.h"

#include <math.h>

struct seq_design
seq_design_default(int max_blocks)
{
	struct seq_design d = {0.05, max_blocks, 2.0, SEQ_GROWTH};

	return d;
}

/* The scheduled look after LOOK (2, then each GROWTH times the last). */
static int
next_look(const struct seq_design *d, int look)
{
	int next;

	if (d->growth <= 1)
		return look + 1;
	next = (int) ceil(look * d->growth);
	return next > look ? next : look + 1;
}

bool
seq_is_look(const struct seq_design *d, int blocks)
{
	if (blocks < 2 || blocks > d->max_blocks)
		return false;
	if (blocks == d->max_blocks)
		return true;
	for (int b = 2; b <= blocks; b = next_look(d, b))
		if (b == blocks)
			return true;
	return false;
}

int
seq_looks(const struct seq_design *d)
{
	int n = 0;

	if (d->max_blocks < 2)
		return 0;
	for (int b = 2; b < d->max_blocks; b = next_look(d, b))
		n++;
	return n + 1; /* the last block is always one */
}

double
seq_spent(const struct seq_design *d, int blocks)
{
	if (d->max_blocks < 2 || blocks <= 1)
		return 0;
	if (blocks >= d->max_blocks)
		return d->alpha;
	return d->alpha * pow((double) (blocks - 1) / (d->max_blocks - 1), d->rho);
}

double
seq_conf_at(const struct seq_design *d, int blocks)
{
	int prev = 1;

	if (blocks < 2 || blocks > d->max_blocks)
		return 0;
	for (int b = 2; b < blocks; b = next_look(d, b))
		prev = b;
	return 1 - (seq_spent(d, blocks) - seq_spent(d, prev));
}
