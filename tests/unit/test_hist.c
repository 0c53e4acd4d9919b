/*
 * test_hist.c - the histogram against exact percentiles of generated
 * data, its bucket layout, merging and its storage encoding.
 */
#include <stdlib.h>

#include "hist.h"
#include "test.h"

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* The exact value of rank ceil(q*n), as hist_quantile() defines it. */
static uint64_t
exact_quantile(const uint64_t *sorted, size_t n, double q)
{
	size_t rank = (size_t) ceil(q * (double) n);

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static uint64_t
xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
check_distribution(const char *name, uint64_t *v, size_t n)
{
	static const double qs[] = {0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0};
	struct hist *h = malloc(sizeof(*h));
	double sum = 0;

	hist_reset(h);
	for (size_t i = 0; i < n; i++)
	{
		hist_record(h, v[i]);
		sum += (double) v[i];
	}
	qsort(v, n, sizeof(uint64_t), cmp_u64);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
	{
		uint64_t want = exact_quantile(v, n, qs[i]);
		uint64_t got = hist_quantile(h, qs[i]);

		/* the design's bound is 1 %; the layout promises 1/256 */
		if (fabs((double) got - (double) want) > (double) want / 256.0 + 0.5)
			fprintf(stderr, "%s q=%g: got %" PRIu64 " want %" PRIu64 "\n",
					name, qs[i], got, want);
		CHECK(fabs((double) got - (double) want) <=
			  (double) want / 256.0 + 0.5);
	}
	CHECK_INT(h->count, n);
	CHECK_INT(h->min_ns, v[0]);
	CHECK_INT(h->max_ns, v[n - 1]);
	CHECK_NEAR(hist_mean(h), sum / (double) n, 1e-9);
	free(h);
}

int
main(void)
{
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(uint64_t));
	uint64_t seed = 42;

	/* bucket layout: contiguous, monotonic, ranges contain their values */
	for (uint64_t x = 0; x < 5000000; x += 7)
	{
		uint64_t lo, hi;
		int b = hist_bucket_of(x);

		hist_bucket_range(b, &lo, &hi);
		if (x < lo || x > hi)
		{
			CHECK(x >= lo && x <= hi);
			break;
		}
	}
	CHECK_INT(hist_bucket_of(255), 255);
	CHECK_INT(hist_bucket_of(256), 256);
	CHECK(hist_bucket_of(UINT64_MAX) < HIST_NBUCKETS);
	CHECK(hist_bucket_of(UINT64_MAX) == HIST_NBUCKETS - 1);

	/* uniform over 10 us .. 10 ms */
	for (size_t i = 0; i < n; i++)
		v[i] = 10000 + xorshift(&seed) % 10000000;
	check_distribution("uniform", v, n);
	/* log-uniform over 5 decades: exercises every octave */
	for (size_t i = 0; i < n; i++)
		v[i] = (uint64_t) (1000.0 *
						   pow(10.0, (double) (xorshift(&seed) % 1000000) /
										 200000.0));
	check_distribution("log-uniform", v, n);
	/* a latency-like mixture: fast mode plus a long tail of stalls */
	for (size_t i = 0; i < n; i++)
		v[i] = (xorshift(&seed) % 100 < 97)
				   ? 40000 + xorshift(&seed) % 20000
				   : 5000000 + xorshift(&seed) % 200000000;
	check_distribution("bimodal", v, n);
	/* small exact values */
	for (size_t i = 0; i < n; i++)
		v[i] = xorshift(&seed) % 200;
	check_distribution("small", v, n);

	/* merge equals recording everything in one */
	{
		struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)),
					*all = malloc(sizeof(*all)), *dec = malloc(sizeof(*dec));
		struct strbuf sb = STRBUF_INIT;

		hist_reset(a);
		hist_reset(b);
		hist_reset(all);
		for (size_t i = 0; i < 10000; i++)
		{
			uint64_t x = xorshift(&seed) % 1000000;

			hist_record(i % 3 ? a : b, x);
			hist_record(all, x);
		}
		hist_add(a, b);
		CHECK(memcmp(a->buckets, all->buckets, sizeof(a->buckets)) == 0);
		CHECK_INT(a->count, all->count);
		CHECK_INT(a->min_ns, all->min_ns);
		CHECK_INT(a->max_ns, all->max_ns);

		/* encode/decode round trip */
		hist_encode(all, &sb);
		CHECK_INT(hist_decode(sb.buf, dec), 0);
		CHECK(memcmp(dec->buckets, all->buckets, sizeof(all->buckets)) == 0);
		CHECK_INT(dec->count, all->count);
		CHECK_INT(hist_quantile(dec, 0.99), hist_quantile(all, 0.99));
		CHECK_INT(hist_decode("3;1;2;3;3;5:1", dec), -1); /* count mismatch */
		CHECK_INT(hist_decode("garbage", dec), -1);
		strbuf_release(&sb);

		/* empty histogram */
		hist_reset(dec);
		CHECK_INT(hist_quantile(dec, 0.5), 0);
		hist_encode(dec, &sb);
		CHECK_INT(hist_decode(sb.buf, all), 0);
		CHECK_INT(all->count, 0);
		strbuf_release(&sb);
		free(a);
		free(b);
		free(all);
		free(dec);
	}
	free(v);
	TEST_MAIN_END("test_hist");
}
