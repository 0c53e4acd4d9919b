/*
 * test_why.c - where the time went (report/why.c): a stored run of two
 * variants, 4 interleaved blocks, with CPU profiles of the primary and
 * wait events in the samples, judged by compare_stored(); the profile
 * diff with its paired interval worked out by hand, a function missing
 * from one side's top counted as 0, a node with a profile on one side
 * only, unpaired sides, the renderings and the escaping of hostile
 * symbol names.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "compare.h"
#include "html.h"
#include "store.h"
#include "test.h"

#define NBLOCKS 4
#define NSEC    10

static const char hostile[] = "<b>x</b>&";

static int64_t
make_store(struct store *st)
{
	static const char *names[2] = {"locks8", "locks64"};
	struct store_run run = {0};
	struct pgc_error err;
	int64_t id = 0;
	int order = 0;

	run.recipe = "why";
	run.recipe_text = "recipe: why\n";
	run.recipe_sha256 = "0";
	run.command_line = "pgcliff run why.yaml --profile";
	run.seed = 1;
	run.host_cores = 2;
	CHECK_INT(store_run_begin(st, &run, &id, &err), 0);
	for (int v = 0; v < 2; v++)
	{
		struct store_variant var = {0};

		var.name = names[v];
		var.kind = "managed";
		var.server_version = "15.18";
		var.settings = "{}";
		var.gucs = "{}";
		CHECK_INT(store_variant_add(st, id, &var, &err), 0);
	}
	for (int b = 0; b < NBLOCKS; b++)
		for (int v = 0; v < 2; v++, order++)
		{
			struct store_point p = {0};
			struct store_sample_row smp[2 * NSEC];
			/* A: WaitXLog... 4.0, 4.2, 4.4, 4.6 % by block; B: 13.0 ... 13.3.
			 * XLogInsertRecord 10 % on both; hash_search only in A's top
			 * (B counts 0); the hostile name only in B's. */
			struct store_profile_row prof[5] = {
				{NULL, NULL, NULL, 100, 20000, -1, 99},
				{NULL, "postgres", "WaitXLogInsertionsToFinish",
				 v == 0 ? 4.0 + 0.2 * b : 13.0 + 0.1 * b, 900, -1, 99},
				{NULL, "postgres", "XLogInsertRecord", 10, 2000, -1, 99},
				{NULL, "postgres", v == 0 ? "hash_search" : hostile,
				 v == 0 ? 1.5 : 0.7, 300, -1, 99},
				{NULL, "[kernel.kallsyms]", "[k] 0xffffffff8100", 0.01, 2, -1,
				 99}};
			char *tps_waits =
				xasprintf("{\"LWLock:WALInsert\": %d%s}", v == 0 ? 1 : 3,
						  v == 1 ? ", \"Lock:transactionid\": 1" : "");
			/* the standby's probe: A scans 100 entries a snapshot, B
			 * 300 * (1 + 0.01 b); its used range 100 against 300 */
			char *probes = xasprintf(
				"{\"kax\":{\"used\":%d.0,\"snapshots/s\":10.0,"
				"\"scanned/s\":%g}}",
				v == 0 ? 100 : 300, v == 0 ? 1000.0 : 3000.0 * (1 + 0.01 * b));

			p.variant = names[v];
			p.workload = "writes";
			p.clients = 8;
			p.jobs = 1;
			p.repeat_idx = b;
			p.order_idx = order;
			p.protocol = "prepared";
			p.duration_s = NSEC;
			p.tps = v == 0 ? 1000 : 800;
			p.transactions = (uint64_t) p.tps * NSEC;
			p.histogram = "0;0;0;0;0;";
			CHECK_INT(store_point_add(st, id, &p, NULL, &err), 0);
			CHECK_INT(
				store_profile_add(st, id, order, "primary", prof, 5, &err), 0);
			/* the standby has a profile only in A's blocks */
			if (v == 0)
				CHECK_INT(
					store_profile_add(st, id, order, "standby", prof, 3, &err),
					0);
			for (int s = 0; s < NSEC; s++)
			{
				smp[s] = (struct store_sample_row){
					"primary", s,  true,      100, "{}", false,
					0,         -1, tps_waits, 1.0, NULL, NULL};
				/* the standby: the same waits on both sides, no change */
				smp[NSEC + s] = (struct store_sample_row){
					"standby", s,    true,
					0,         "{}", true,
					0,         0.1,  "{\"IPC:RecoveryPause\": 2}",
					1.0,       NULL, probes};
			}
			CHECK_INT(store_samples_add(st, id, order, smp, 2 * NSEC, &err),
					  0);
			free(tps_waits);
			free(probes);
		}
	CHECK_INT(store_run_finish(st, id, "ok", NULL, &err), 0);
	return id;
}

static const struct cmp_why_func *
func(const struct cmp_why_node *n, const char *symbol)
{
	for (int i = 0; i < n->nfuncs; i++)
		if (strcmp(n->funcs[i].symbol, symbol) == 0)
			return &n->funcs[i];
	return NULL;
}

static void
judge(struct store *st, int64_t id, int blocks_b_from, struct cmp_side *a,
	  struct cmp_side *b, struct cmp_result *res, struct cmp_labels *labels)
{
	struct cmp_query q = {0};
	struct pgc_error err;

	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	a->text = a->s.variant = "locks8";
	b->text = b->s.variant = "locks64";
	a->s.run_id = b->s.run_id = id;
	a->block_hi = b->block_hi = -1;
	b->block_lo = blocks_b_from;
	q.conf = 0.95;
	q.conf_set = true;
	q.seed = 5432;
	CHECK_INT(compare_stored(st, a, b, &q, res, labels, &err), 0);
}

/* Judge the run on METRIC (probe:, profile:): 0 and RES, or -1. */
static int
judge_on(struct store *st, int64_t id, const char *metric, struct cmp_side *a,
		 struct cmp_side *b, struct cmp_result *res, struct cmp_labels *labels,
		 struct pgc_error *err)
{
	struct cmp_query q = {0};
	char full[CMP_METRIC_NAME_MAX], why[120];

	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	a->text = a->s.variant = "locks8";
	b->text = b->s.variant = "locks64";
	a->s.run_id = b->s.run_id = id;
	a->block_hi = b->block_hi = -1;
	q.conf = 0.95;
	q.conf_set = true;
	q.seed = 5432;
	q.no_why = true;
	CHECK_INT(cmp_metric_parse_full(metric, &q.metric, full, why), 0);
	q.metric_set = true;
	q.metric_full = full;
	return compare_stored(st, a, b, &q, res, labels, err);
}

static void
release(struct cmp_side *a, struct cmp_side *b, struct cmp_result *res)
{
	compare_result_free(res);
	cmp_side_release(a);
	cmp_side_release(b);
}

static void
test_paired(struct store *st, int64_t id)
{
	struct cmp_side a, b;
	struct cmp_result res;
	struct cmp_labels labels;
	const struct cmp_why_node *n;
	const struct cmp_why_func *f;
	struct strbuf sb = STRBUF_INIT;

	judge(st, id, 0, &a, &b, &res, &labels);
	CHECK_INT(res.nwhy, 1);
	if (res.nwhy != 1)
	{
		release(&a, &b, &res);
		return;
	}
	CHECK_STR(res.why[0].step, "writes 8 clients");
	/* the primary (profiles and waits), the standby (a profile on A's
	 * side only, and waits that did not change): only the primary */
	CHECK_INT(res.why[0].nnodes, 1);
	n = &res.why[0].nodes[0];
	CHECK_STR(n->node, "primary");
	CHECK_INT(n->na, NBLOCKS);
	CHECK_INT(n->nb, NBLOCKS);
	CHECK(n->paired);
	CHECK_INT(n->a_samples, NBLOCKS * 20000);
	/* largest change first; XLogInsertRecord did not change: not listed,
	 * nor the kernel address below 0.05 pp */
	CHECK_INT(n->nfuncs, 3);
	CHECK_STR(n->funcs[0].symbol, "WaitXLogInsertionsToFinish");
	CHECK(func(n, "XLogInsertRecord") == NULL);
	f = func(n, "WaitXLogInsertionsToFinish");
	CHECK(f != NULL);
	if (f)
	{
		/* paired differences 9.0, 8.9, 8.8, 8.7: mean 8.85, sd 0.1291,
		 * t(0.975, 3) = 3.1824: [8.6446, 9.0554] */
		CHECK(fabs(f->a_pct - 4.3) < 1e-9);
		CHECK(fabs(f->b_pct - 13.15) < 1e-9);
		CHECK(fabs(f->d.diff - 8.85) < 1e-9);
		CHECK(fabs(f->d.lo - 8.6446) < 1e-3);
		CHECK(fabs(f->d.hi - 9.0554) < 1e-3);
		CHECK_STR(f->dso, "postgres");
	}
	/* outside B's stored top: 0 there */
	f = func(n, "hash_search");
	CHECK(f != NULL && fabs(f->d.diff + 1.5) < 1e-9 && f->d.lo == f->d.hi);
	f = func(n, hostile);
	CHECK(f != NULL && fabs(f->d.diff - 0.7) < 1e-9);
	/* waits per sample: WALInsert 1 -> 3, transactionid 0 -> 1 */
	CHECK_INT(n->nwaits, 2);
	CHECK_STR(n->waits[0].event, "LWLock:WALInsert");
	CHECK(fabs(n->waits[0].a_per_s - 1) < 1e-9);
	CHECK(fabs(n->waits[0].b_per_s - 3) < 1e-9);
	CHECK_STR(n->waits[1].event, "Lock:transactionid");
	CHECK(n->waits[1].a_per_s == 0 && fabs(n->waits[1].b_per_s - 1) < 1e-9);

	compare_render(&sb, &res, &labels, CMP_FORMAT_TEXT);
	CHECK(strstr(sb.buf, "where the time went, B against A") != NULL);
	CHECK(strstr(sb.buf, "    primary, CPU profile: 80000 and 80000 samples "
						 "in 4 and 4 blocks, paired by block\n") != NULL);
	CHECK(strstr(sb.buf,
				 "        4.30    13.15    +8.85  [+8.64, +9.06]     "
				 "    WaitXLogInsertionsToFinish (postgres)\n") != NULL);
	CHECK(strstr(sb.buf, "    primary, wait events: LWLock:WALInsert 1.00 -> "
						 "3.00 (x3.00); Lock:transactionid 0.00 -> 1.00 "
						 "(new)\n") != NULL);
	strbuf_reset(&sb);
	compare_render(&sb, &res, &labels, CMP_FORMAT_JSON);
	CHECK(strstr(sb.buf, "\"symbol\": \"WaitXLogInsertionsToFinish\"") !=
		  NULL);
	CHECK(strstr(sb.buf, "\"diff_pp\": 8.85") != NULL);
	CHECK(strstr(sb.buf, "\"lo\": 8.64") != NULL);
	CHECK(strstr(sb.buf, "\"event\": \"LWLock:WALInsert\"") != NULL);
	strbuf_reset(&sb);
	compare_render(&sb, &res, &labels, CMP_FORMAT_MARKDOWN);
	CHECK(strstr(sb.buf, "| `WaitXLogInsertionsToFinish` | postgres | 4.30 | "
						 "13.15 | +8.85 | [+8.64, +9.06] |") != NULL);
	strbuf_reset(&sb);
	{
		struct report_html_opts o = {0};
		struct pgc_error err;

		CHECK_INT(
			report_html_compare(st, &a, &b, &res, &labels, &o, &sb, &err), 0);
		CHECK(strstr(sb.buf, "id=\"why\"") != NULL);
		CHECK(strstr(sb.buf, "WaitXLogInsertionsToFinish") != NULL);
		CHECK(strstr(sb.buf, hostile) == NULL);
		CHECK(strstr(sb.buf, "&lt;b&gt;x&lt;/b&gt;&amp;") != NULL);
	}
	strbuf_release(&sb);
	release(&a, &b, &res);
}

/* B from blocks 3-4 only: not every A block has its pair, so Welch. */
static void
test_unpaired(struct store *st, int64_t id)
{
	struct cmp_side a, b;
	struct cmp_result res;
	struct cmp_labels labels;
	const struct cmp_why_func *f;

	judge(st, id, 2, &a, &b, &res, &labels);
	CHECK_INT(res.nwhy, 1);
	if (res.nwhy == 1)
	{
		const struct cmp_why_node *n = &res.why[0].nodes[0];

		CHECK(!n->paired);
		CHECK_INT(n->na, NBLOCKS);
		CHECK_INT(n->nb, 2);
		f = func(n, "WaitXLogInsertionsToFinish");
		CHECK(f != NULL);
		/* 13.25 - 4.3; Welch: va = 0.0667/4, vb = 0.005/2 */
		if (f)
		{
			double va = (0.2 * 0.2 * 5 / 3) / 4, vb = 0.005 / 2;
			double df = pow(va + vb, 2) / (va * va / 3 + vb * vb / 1);

			CHECK(fabs(f->d.diff - 8.95) < 1e-9);
			CHECK(fabs(f->d.df - df) < 1e-9);
			CHECK(f->d.lo < 8.95 && f->d.hi > 8.95);
		}
	}
	release(&a, &b, &res);
}

/*
 * Metrics of the mechanism: a probe's ratio of counters over the window,
 * its column, and a profile share summed over two functions; a function
 * outside one side's stored top has no ratio to give.
 */
static void
test_mechanism_metrics(struct store *st, int64_t id)
{
	struct cmp_side a, b;
	struct cmp_result res;
	struct cmp_labels labels;
	struct pgc_error err;
	struct strbuf sb = STRBUF_INIT;

	CHECK_INT(judge_on(st, id, "probe:kax.scanned/snapshots", &a, &b, &res,
					   &labels, &err),
			  0);
	CHECK_INT(res.npoints, 1);
	CHECK(!cmp_metric_higher_is_better(res.opts.metric));
	CHECK_STR(cmp_opts_metric(&res.opts), "probe:kax.scanned/snapshots");
	/* A 100 a snapshot, B 300 * 1.00 ... 1.03: medians 100 and 304.5 */
	CHECK(fabs(res.points[0].median_a - 100) < 1e-9);
	CHECK(fabs(res.points[0].median_b - 304.5) < 1e-9);
	CHECK_INT(res.points[0].verdict, CMP_REGRESSION);
	compare_render(&sb, &res, &labels, CMP_FORMAT_TEXT);
	CHECK(strstr(sb.buf, "metric probe:kax.scanned/snapshots (lower is "
						 "better)") != NULL);
	strbuf_release(&sb);
	release(&a, &b, &res);

	CHECK_INT(judge_on(st, id, "probe:kax.used", &a, &b, &res, &labels, &err),
			  0);
	CHECK(fabs(res.points[0].median_b / res.points[0].median_a - 3) < 1e-9);
	release(&a, &b, &res);

	/* 4.0 + 0.2 b + 10 against 13.0 + 0.1 b + 10 */
	CHECK_INT(judge_on(st, id,
					   "profile:primary:WaitXLogInsertionsToFinish+"
					   "XLogInsertRecord",
					   &a, &b, &res, &labels, &err),
			  0);
	CHECK(fabs(res.points[0].median_a - 14.3) < 1e-9);
	CHECK(fabs(res.points[0].median_b - 23.15) < 1e-9);
	CHECK_INT(res.points[0].verdict, CMP_REGRESSION);
	release(&a, &b, &res);

	/* hash_search is in A's top only: B has no share to divide */
	CHECK_INT(judge_on(st, id, "profile:primary:hash_search", &a, &b, &res,
					   &labels, &err),
			  -1);
	CHECK(strstr(err.message, "no profile:primary:hash_search samples left "
							  "on side B") != NULL);
	cmp_side_release(&a);
	cmp_side_release(&b);
}

int
main(int argc, char **argv)
{
	struct pgc_error err;
	struct store *st;
	int64_t id;

	(void) argc;
	(void) argv;
	st = store_open(":memory:", &err);
	CHECK(st != NULL);
	if (st == NULL)
		return 1;
	id = make_store(st);
	test_paired(st, id);
	test_mechanism_metrics(st, id);
	test_unpaired(st, id);
	store_close(st);
	TEST_MAIN_END("why");
}
