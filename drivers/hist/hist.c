/*
 * hist.c - log-linear histogram; see hist.h.  The bucket layout is the
 * classic HDR one with 128 sub-buckets per power of two: for v < 256
 * the bucket is v itself (exact), above it the low bits are dropped.
 */
#include "hist.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
hist_reset(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

int
hist_bucket_of(uint64_t v)
{
	int shift;

	if (v < (uint64_t) 2 * HIST_SUB_COUNT)
		return (int) v;
	shift = (63 - __builtin_clzll(v)) - HIST_SUB_BITS;
	return shift * HIST_SUB_COUNT + (int) (v >> shift);
}

void
hist_bucket_range(int bucket, uint64_t *lo, uint64_t *hi)
{
	int shift;
	uint64_t sub;

	if (bucket < 2 * HIST_SUB_COUNT)
	{
		*lo = *hi = (uint64_t) bucket;
		return;
	}
	/* bucket = shift*128 + sub with sub in [128, 256) */
	shift = bucket / HIST_SUB_COUNT - 1;
	sub = (uint64_t) (bucket - shift * HIST_SUB_COUNT);
	*lo = sub << shift;
	*hi = ((sub + 1) << shift) - 1;
}

void
hist_record(struct hist *h, uint64_t v)
{
	double d = (double) v;

	h->buckets[hist_bucket_of(v)]++;
	h->count++;
	h->sum_ns += d;
	h->sumsq_ns += d * d;
	if (v < h->min_ns)
		h->min_ns = v;
	if (v > h->max_ns)
		h->max_ns = v;
}

void
hist_add(struct hist *dst, const struct hist *src)
{
	if (src->count == 0)
		return;
	for (int i = 0; i < HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	dst->sumsq_ns += src->sumsq_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

uint64_t
hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (h->count == 0)
		return 0;
	if (q >= 1.0)
		return h->max_ns;
	rank = (uint64_t) ceil(q * (double) h->count);
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < HIST_NBUCKETS; i++)
	{
		seen += h->buckets[i];
		if (seen >= rank)
		{
			uint64_t lo, hi, mid;

			hist_bucket_range(i, &lo, &hi);
			mid = lo + (hi - lo) / 2;
			if (mid < h->min_ns)
				mid = h->min_ns;
			if (mid > h->max_ns)
				mid = h->max_ns;
			return mid;
		}
	}
	return h->max_ns;
}

double
hist_mean(const struct hist *h)
{
	return h->count ? h->sum_ns / (double) h->count : 0.0;
}

double
hist_stddev(const struct hist *h)
{
	double mean, var;

	if (h->count < 2)
		return 0.0;
	mean = hist_mean(h);
	var = h->sumsq_ns / (double) h->count - mean * mean;
	return var > 0 ? sqrt(var) : 0.0;
}

void
hist_encode(const struct hist *h, struct strbuf *out)
{
	bool first = true;

	strbuf_addf(out, "%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%.17g;%.17g;",
				h->count, h->count ? h->min_ns : 0, h->max_ns, h->sum_ns,
				h->sumsq_ns);
	for (int i = 0; i < HIST_NBUCKETS; i++)
	{
		if (h->buckets[i] == 0)
			continue;
		strbuf_addf(out, "%s%d:%" PRIu64, first ? "" : ",", i, h->buckets[i]);
		first = false;
	}
}

int
hist_decode(const char *text, struct hist *h)
{
	char *end;
	const char *p = text;
	uint64_t total = 0;

	hist_reset(h);
	h->count = strtoull(p, &end, 10);
	if (*end != ';')
		return -1;
	h->min_ns = strtoull(end + 1, &end, 10);
	if (*end != ';')
		return -1;
	h->max_ns = strtoull(end + 1, &end, 10);
	if (*end != ';')
		return -1;
	h->sum_ns = strtod(end + 1, &end);
	if (*end != ';')
		return -1;
	h->sumsq_ns = strtod(end + 1, &end);
	if (*end != ';')
		return -1;
	p = end + 1;
	while (*p)
	{
		long b = strtol(p, &end, 10);
		uint64_t n;

		if (end == p || *end != ':' || b < 0 || b >= HIST_NBUCKETS)
			return -1;
		p = end + 1;
		n = strtoull(p, &end, 10);
		if (end == p)
			return -1;
		h->buckets[b] += n;
		total += n;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	if (total != h->count)
		return -1;
	if (h->count == 0)
		h->min_ns = UINT64_MAX;
	return 0;
}
