/*
 * hist.h - log-linear latency histogram in the HdrHistogram style.
 *
 * Values are nanoseconds.  Each power of two is split into 128 linear
 * sub-buckets, so any recorded value is known to within 1/256 of itself
 * (bucket midpoint), well inside the 1 % the design asks for.  These are
 * HdrHistogram's buckets at 2 significant digits and a lowest discernible
 * value of 1 ns (values below 256 exact, then 128 an octave), bucket i
 * its counts index i: hist_hdr_encode() writes a histogram as HdrHistogram
 * reads it, nothing rounded.  Recording
 * is a few instructions and never allocates; one histogram per thread,
 * merged with hist_add() after the threads are joined.
 */
#ifndef PGCLIFF_HIST_H
#define PGCLIFF_HIST_H

#include <stdint.h>

#include "base.h"

#define HIST_SUB_BITS  7
#define HIST_SUB_COUNT (1 << HIST_SUB_BITS)
/* values up to 2^63: shift 0..56, bucket = shift*128 + (v >> shift) */
#define HIST_NBUCKETS ((64 - HIST_SUB_BITS) * HIST_SUB_COUNT + HIST_SUB_COUNT)

struct hist
{
	uint64_t count;
	uint64_t min_ns;
	uint64_t max_ns;
	double sum_ns;
	double sumsq_ns; /* for the stddev pgbench prints */
	uint64_t buckets[HIST_NBUCKETS];
};

/* Zero a histogram (it is a plain struct: allocate it as you like). */
void hist_reset(struct hist *h);

/* Record one value; not thread-safe (one histogram per thread). */
void hist_record(struct hist *h, uint64_t value_ns);

/* dst += src. */
void hist_add(struct hist *dst, const struct hist *src);

/*
 * The value at quantile q (0 < q <= 1): the midpoint of the bucket that
 * holds the ceil(q*count)-th smallest value, clamped to [min, max].
 * 0 when empty.
 */
uint64_t hist_quantile(const struct hist *h, double q);
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);

/* Bucket index of a value, and the [lo, hi] range of a bucket. */
int hist_bucket_of(uint64_t value_ns);
void hist_bucket_range(int bucket, uint64_t *lo, uint64_t *hi);

/*
 * Compact text form for storage: "count;min;max;sum;sumsq;b:n,b:n,..."
 * with only non-empty buckets.  hist_decode() fills h or returns -1.
 */
void hist_encode(const struct hist *h, struct strbuf *out);
int hist_decode(const char *text, struct hist *h);

/*
 * H in HdrHistogram's compressed base64 form, what a line of an interval
 * log holds (hdr.c: the "V2" encoding, zlib, base64), values in
 * nanoseconds; appended to OUT.  hist_hdr_decode() reads that form back
 * (2 significant digits, lowest value 1, as written here), each bucket's
 * midpoint standing for its values in the sum, min and max its bucket's
 * bounds; -1 for anything else.
 */
void hist_hdr_encode(const struct hist *h, struct strbuf *out);
int hist_hdr_decode(const char *text, struct hist *h);

#endif /* PGCLIFF_HIST_H */
