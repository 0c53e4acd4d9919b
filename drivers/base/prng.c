/*
 * prng.c - PostgreSQL's pg_prng (src/common/pg_prng.c): xoroshiro128**
 * seeded through splitmix64.  Same algorithm, same sequences, so pgbench's
 * random() can be reproduced exactly.
 */
#include "base.h"

static inline uint64_t
rotl(uint64_t x, int bits)
{
	return (x << bits) | (x >> (64 - bits));
}

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t val = (*state += UINT64_C(0x9E3779B97f4A7C15));

	val = (val ^ (val >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	val = (val ^ (val >> 27)) * UINT64_C(0x94D049BB133111EB);
	return val ^ (val >> 31);
}

void
prng_seed(struct prng *p, uint64_t seed)
{
	p->s0 = splitmix64(&seed);
	p->s1 = splitmix64(&seed);
	/* pg_prng_seed_check(): never all zeroes */
	if (p->s0 == 0 && p->s1 == 0)
		p->s0 = UINT64_C(0x5851F42D4C957F2D);
}

uint64_t
prng_next(struct prng *p)
{
	uint64_t s0 = p->s0, sx = p->s1 ^ s0, val = rotl(s0 * 5, 7) * 9;

	p->s0 = rotl(s0, 24) ^ sx ^ (sx << 16);
	p->s1 = rotl(sx, 37);
	return val;
}

uint64_t
prng_range(struct prng *p, uint64_t lo, uint64_t hi)
{
	uint64_t val;

	if (hi > lo)
	{
		uint64_t range = hi - lo;
		int rshift = __builtin_clzll(range); /* 63 - msb */

		do
		{
			val = prng_next(p) >> rshift;
		} while (val > range);
	}
	else
		val = 0;
	return lo + val;
}

double
prng_double(struct prng *p)
{
	/* the top 53 bits, scaled to [0, 1), as pg_prng_double does */
	return (double) (prng_next(p) >> 11) * 0x1.0p-53;
}
