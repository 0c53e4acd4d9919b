/*
 * hdr.c - a histogram as HdrHistogram's compressed form (hist.h says
 * why the buckets are the same).  The layout is HdrHistogram's "V2"
 * encoding, as its Java, C and JavaScript implementations write it:
 *
 *   compressed: int32 cookie 0x1c849314, int32 length, zlib of:
 *   encoded:    int32 cookie 0x1c849313, int32 payload length,
 *               int32 normalizing index offset (0), int32 significant
 *               digits (2), int64 lowest discernible value (1), int64
 *               highest trackable value, double integer-to-double ratio
 *               (1.0), then the counts from index 0 to the largest
 *               value's, each a ZigZag LEB128 (at most 9 bytes), a run
 *               of N > 1 empty ones written as -N;
 *
 * every integer big-endian, the whole in base64 on an interval line.
 */
#include <math.h>
#include <stdlib.h>
#include <openssl/evp.h>
#include <string.h>
#include <zlib.h>

#include "hist.h"

#define HDR_ENCODING_COOKIE    0x1c849313u
#define HDR_COMPRESSION_COOKIE 0x1c849314u
#define HDR_HEADER_SIZE        40
/* an hour in nanoseconds: what a reader sizes its histogram for, at least */
#define HDR_HIGHEST_TRACKABLE 3600000000000ULL

static void
put_be(struct strbuf *sb, uint64_t v, int bytes)
{
	unsigned char b[8];

	for (int i = 0; i < bytes; i++)
		b[i] = (unsigned char) (v >> (8 * (bytes - 1 - i)));
	strbuf_add(sb, b, (size_t) bytes);
}

static uint64_t
get_be(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = 0; i < bytes; i++)
		v = (v << 8) | p[i];
	return v;
}

/* HdrHistogram's ZigZagEncoding.putLong: LEB128, the 9th byte whole */
static void
put_zigzag(struct strbuf *sb, int64_t v)
{
	uint64_t z = ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
	unsigned char b;

	for (int i = 0; i < 8; i++)
	{
		if (z < 0x80)
		{
			b = (unsigned char) z;
			strbuf_add(sb, &b, 1);
			return;
		}
		b = (unsigned char) ((z & 0x7f) | 0x80);
		strbuf_add(sb, &b, 1);
		z >>= 7;
	}
	b = (unsigned char) z;
	strbuf_add(sb, &b, 1);
}

/* The next value of P (up to END) into *V: bytes read, 0 if truncated. */
static size_t
get_zigzag(const unsigned char *p, const unsigned char *end, int64_t *v)
{
	uint64_t z = 0;
	size_t n = 0;

	for (int i = 0; i < 9; i++)
	{
		if (p + n >= end)
			return 0;
		if (i == 8)
		{
			z |= (uint64_t) p[n++] << 56;
			break;
		}
		z |= (uint64_t) (p[n] & 0x7f) << (7 * i);
		if ((p[n++] & 0x80) == 0)
			break;
	}
	*v = (int64_t) (z >> 1) ^ -(int64_t) (z & 1);
	return n;
}

void
hist_hdr_encode(const struct hist *h, struct strbuf *out)
{
	struct strbuf enc = STRBUF_INIT, payload = STRBUF_INIT;
	struct strbuf comp = STRBUF_INIT;
	uint64_t highest =
		h->max_ns > HDR_HIGHEST_TRACKABLE ? h->max_ns : HDR_HIGHEST_TRACKABLE;
	int limit = h->count ? hist_bucket_of(h->max_ns) + 1 : 0;
	uLongf zlen;
	unsigned char *b64;
	double one = 1.0;
	uint64_t one_bits;

	for (int i = 0; i < limit;)
	{
		int zeros = 0;

		while (i + zeros < limit && h->buckets[i + zeros] == 0)
			zeros++;
		if (zeros > 1)
			put_zigzag(&payload, -(int64_t) zeros);
		else
			put_zigzag(&payload, (int64_t) h->buckets[i]);
		i += zeros > 1 ? zeros : 1;
	}
	memcpy(&one_bits, &one, sizeof(one_bits));
	put_be(&enc, HDR_ENCODING_COOKIE, 4);
	put_be(&enc, payload.len, 4);
	put_be(&enc, 0, 4); /* normalizing index offset */
	put_be(&enc, 2, 4); /* significant digits: 128 buckets an octave */
	put_be(&enc, 1, 8); /* lowest discernible value: 1 ns */
	put_be(&enc, highest, 8);
	put_be(&enc, one_bits, 8);
	strbuf_add(&enc, payload.buf ? payload.buf : "", payload.len);

	zlen = compressBound((uLong) enc.len);
	put_be(&comp, HDR_COMPRESSION_COOKIE, 4);
	put_be(&comp, 0, 4); /* the compressed length, below */
	strbuf_grow(&comp, zlen);
	if (compress((Bytef *) comp.buf + 8, &zlen, (const Bytef *) enc.buf,
				 (uLong) enc.len) != Z_OK)
		abort(); /* Z_MEM_ERROR or a buffer compressBound() made too small */
	comp.len = 8 + zlen;
	for (int i = 0; i < 4; i++)
		comp.buf[4 + i] = (char) (zlen >> (8 * (3 - i)));

	b64 = xmalloc(4 * ((comp.len + 2) / 3) + 1);
	EVP_EncodeBlock(b64, (const unsigned char *) comp.buf, (int) comp.len);
	strbuf_addstr(out, (const char *) b64);
	free(b64);
	strbuf_release(&enc);
	strbuf_release(&payload);
	strbuf_release(&comp);
}

int
hist_hdr_decode(const char *text, struct hist *h)
{
	size_t tlen = strlen(text), n;
	unsigned char *raw = xmalloc(tlen / 4 * 3 + 3), *enc = NULL;
	const unsigned char *p, *end;
	uLongf elen;
	int len, idx = 0, rc = -1;

	hist_reset(h);
	if (tlen % 4 != 0 || tlen < 12)
		goto out;
	len = EVP_DecodeBlock(raw, (const unsigned char *) text, (int) tlen);
	/* EVP_DecodeBlock counts the padding's bytes too */
	if (len < 8 || get_be(raw, 4) != HDR_COMPRESSION_COOKIE ||
		get_be(raw + 4, 4) > (uint64_t) len - 8)
		goto out;
	/* a count is 9 bytes at most */
	elen = HDR_HEADER_SIZE + 9 * (uLongf) HIST_NBUCKETS;
	enc = xmalloc(elen);
	if (uncompress(enc, &elen, raw + 8, (uLong) get_be(raw + 4, 4)) != Z_OK ||
		elen < HDR_HEADER_SIZE || get_be(enc, 4) != HDR_ENCODING_COOKIE ||
		get_be(enc + 8, 4) != 0 || get_be(enc + 12, 4) != 2 ||
		get_be(enc + 16, 8) != 1 ||
		get_be(enc + 4, 4) > (uint64_t) elen - HDR_HEADER_SIZE)
		goto out;
	p = enc + HDR_HEADER_SIZE;
	end = p + get_be(enc + 4, 4);
	while (p < end)
	{
		int64_t v;

		if ((n = get_zigzag(p, end, &v)) == 0)
			goto out;
		p += n;
		if (v < 0)
		{
			/* -v empty buckets, at most those left (v may be INT64_MIN) */
			if (v < (int64_t) idx - HIST_NBUCKETS)
				goto out;
			idx += (int) -v;
			continue;
		}
		if (idx >= HIST_NBUCKETS)
			goto out;
		if (v > 0)
		{
			uint64_t lo, hi;

			hist_bucket_range(idx, &lo, &hi);
			if (h->count == 0)
				h->min_ns = lo;
			h->max_ns = hi;
			h->count += (uint64_t) v;
			h->buckets[idx] = (uint64_t) v;
			/* the bucket's midpoint stands for its values */
			h->sum_ns += (double) v * ((double) lo + (double) (hi - lo) / 2);
			h->sumsq_ns +=
				(double) v * pow((double) lo + (double) (hi - lo) / 2, 2);
		}
		idx++;
	}
	rc = 0;
out:
	if (rc < 0)
		hist_reset(h);
	free(raw);
	free(enc);
	return rc;
}
