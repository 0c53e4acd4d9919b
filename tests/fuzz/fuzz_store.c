/*
 * fuzz_store.c - fuzz target for the readers of text a store holds: a
 * store is another file on disk, and may be old, damaged or written by
 * hand.  The input's NUL-separated fields become a run's plan (JSON: the
 * sequential design gate reads back), its measure ("workload.metric"),
 * and every point's histogram (hist_encode() text), failures by class
 * and scripts (JSON); then the run is judged (compare_stored(): points,
 * histograms, the plan's design, windows) and rendered in every format,
 * and each histogram is decoded alone.  Nothing may crash, leak or hang;
 * a verdict or an error, always.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "hist.h"
#include "report.h"
#include "store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Field I of the NUL-separated input (NULL when there are fewer). */
static const char *
field(const char *buf, size_t size, int i)
{
	size_t at = 0;

	for (int k = 0; k < i; k++)
	{
		const char *nul = memchr(buf + at, '\0', size - at);

		if (nul == NULL)
			return NULL;
		at = (size_t) (nul - buf) + 1;
		if (at >= size)
			return NULL;
	}
	return buf + at;
}

static void
judge(struct store *st, int64_t run)
{
	struct cmp_side a, b;
	struct cmp_query q;
	struct cmp_result res;
	struct cmp_labels labels;
	struct pgc_error err;
	static const enum cmp_format formats[] = {
		CMP_FORMAT_TEXT, CMP_FORMAT_MARKDOWN, CMP_FORMAT_JSON,
		CMP_FORMAT_JUNIT};

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&q, 0, sizeof(q));
	a.s.run_id = b.s.run_id = run;
	a.s.variant = "a";
	b.s.variant = "b";
	a.block_hi = b.block_hi = -1;
	a.text = "1:a";
	b.text = "1:b";
	q.seed = 5432;
	error_clear(&err);
	if (compare_stored(st, &a, &b, &q, &res, &labels, &err) == 0)
	{
		for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++)
		{
			struct strbuf sb = STRBUF_INIT;

			compare_render(&sb, &res, &labels, formats[f]);
			strbuf_release(&sb);
		}
		compare_result_free(&res);
	}
	else if (err.message[0] == '\0')
		abort(); /* a refusal says why */
	cmp_side_release(&a);
	cmp_side_release(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	const char *plan, *measure, *histo, *fails, *scripts;
	struct store_run run;
	struct store *st;
	struct pgc_error err;
	struct hist *h;
	int64_t id;

	memcpy(buf, data, size);
	buf[size] = '\0';
	plan = field(buf, size + 1, 0);
	measure = field(buf, size + 1, 1);
	histo = field(buf, size + 1, 2);
	fails = field(buf, size + 1, 3);
	scripts = field(buf, size + 1, 4);

	h = malloc(sizeof(*h));
	hist_reset(h);
	/* a histogram read back is one a quantile can be taken of */
	if (histo && hist_decode(histo, h) == 0 && h->count > 0 &&
		hist_quantile(h, 0.99) < hist_quantile(h, 0.5))
		abort();
	free(h);

	error_clear(&err);
	if ((st = store_open(":memory:", &err)) == NULL)
		abort();
	memset(&run, 0, sizeof(run));
	run.recipe = "fuzz";
	run.recipe_sha256 = "0";
	run.recipe_text = "recipe: fuzz";
	run.recipe_path = "fuzz.yaml";
	run.host_cpu = "cpu";
	run.host_kernel = "k";
	run.command_line = "pgcliff run fuzz.yaml";
	run.host_name = "h";
	run.plan = plan;
	run.measure = measure;
	if (store_run_begin(st, &run, &id, &err) < 0)
	{
		fprintf(stderr, "fuzz_store: %s\n", err.message);
		abort();
	}
	for (int block = 0; block < 3; block++)
		for (int v = 0; v < 2; v++)
			for (int c = 1; c <= 2; c++)
			{
				struct store_point p;

				memset(&p, 0, sizeof(p));
				p.variant = v ? "b" : "a";
				p.workload = "txid";
				p.clients = c;
				p.jobs = 1;
				p.repeat_idx = block;
				p.order_idx = block * 4 + v * 2 + c - 1;
				p.protocol = "simple";
				p.duration_s = 1;
				p.transactions = 1000 + (uint64_t) (block * 7 + v * 3 + c);
				p.tps = (double) p.transactions;
				p.lat_avg_ms = 1;
				p.histogram = histo;
				p.failures_by_class = fails;
				p.scripts = scripts;
				(void) store_point_add(st, id, &p, NULL, &err);
			}
	(void) store_run_finish(st, id, "ok", NULL, &err);
	judge(st, id);
	store_close(st);
	free(buf);
	return 0;
}
