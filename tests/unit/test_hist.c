/*
 * test_hist.c - the histogram against exact percentiles of generated
 * data, its bucket layout, merging and its storage encoding; its
 * HdrHistogram form against what HdrHistogram's own JavaScript
 * implementation (hdr-histogram-js 3.0.1) writes for the same values, and
 * back.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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

/*
 * HdrHistogram's form: the counts HdrHistogram writes for 100, 1000 and
 * 123456 at 2 significant digits (hdr-histogram-js 3.0.1's
 * encodeIntoCompressedBase64, inflated: 100 empty, 1, 405 empty, 1, 886
 * empty, 1), the header as Java writes it, and the round trip.
 */
static void
test_hdr(void)
{
	struct hist *h = calloc(1, sizeof(*h)), *back = calloc(1, sizeof(*h));
	struct strbuf sb = STRBUF_INIT, hex = STRBUF_INIT;
	unsigned char raw[4096], enc[4096];
	uLongf elen = sizeof(enc);
	int n;

	hist_reset(h);
	hist_record(h, 100);
	hist_record(h, 1000);
	hist_record(h, 123456);
	hist_hdr_encode(h, &sb);
	CHECK(strncmp(sb.buf, "HISTF", 5) == 0); /* the cookie, in base64 */
	n = EVP_DecodeBlock(raw, (const unsigned char *) sb.buf, (int) sb.len);
	CHECK(n > 8);
	CHECK(uncompress(enc, &elen, raw + 8,
					 (uLong) raw[4] << 24 | raw[5] << 16 | raw[6] << 8 |
						 raw[7]) == Z_OK);
	CHECK_INT(elen, 40 + 9);
	for (uLongf i = 0; i < elen; i++)
		strbuf_addf(&hex, "%02x", enc[i]);
	/* cookie, payload length, offset, digits, lowest, highest (an hour
	 * in ns), ratio 1.0, the counts */
	CHECK_STR(hex.buf, "1c84931300000009000000000000000200000000000000010000"
					   "034630b8a0003ff0000000000000c70102a90602eb0d02");
	CHECK_INT(hist_hdr_decode(sb.buf, back), 0);
	CHECK_INT(back->count, 3);
	CHECK(memcmp(back->buckets, h->buckets, sizeof(h->buckets)) == 0);
	CHECK_INT(back->min_ns, 100);
	CHECK(back->max_ns >= 123456 &&
		  hist_bucket_of(back->max_ns) == hist_bucket_of(123456));
	/* hdr-histogram-js 3.0.1's own line for the same values is not read
	 * back: its header says normalizing index offset 1 (Java's readers
	 * shift the counts by it; this decoder takes only what it writes) */
	CHECK_INT(hist_hdr_decode("HISTFAAAAC94nJNpmSzMwMDAycDAwMjAwMDEAAGMDAzMbg"
							  "Y7FjDA+McZmVayMb3mZQIAcUMFmw==",
							  back),
			  -1);
	/* an empty histogram, and what is not one */
	strbuf_reset(&sb);
	hist_reset(h);
	hist_hdr_encode(h, &sb);
	CHECK_INT(hist_hdr_decode(sb.buf, back), 0);
	CHECK_INT(back->count, 0);
	CHECK_INT(hist_hdr_decode("HISTFAAAAC94nJNp", back), -1);
	CHECK_INT(hist_hdr_decode("not base64!", back), -1);
	CHECK_INT(hist_hdr_decode("", back), -1);
	/* every bucket once: the largest counts index, and runs of none */
	hist_reset(h);
	for (int i = 0; i < HIST_NBUCKETS; i += 7)
	{
		uint64_t lo, hi;

		hist_bucket_range(i, &lo, &hi);
		for (int k = 0; k <= i % 3; k++)
			hist_record(h, lo);
	}
	strbuf_reset(&sb);
	hist_hdr_encode(h, &sb);
	CHECK_INT(hist_hdr_decode(sb.buf, back), 0);
	CHECK(memcmp(back->buckets, h->buckets, sizeof(h->buckets)) == 0);
	CHECK_INT(back->count, h->count);
	strbuf_release(&sb);
	strbuf_release(&hex);
	free(h);
	free(back);
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
	test_hdr();
	TEST_MAIN_END("test_hist");
}
