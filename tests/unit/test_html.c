/*
 * test_html.c - the HTML report and its charts (report/html.c,
 * report/chart.c) on a stored run as large as the issue asks the charts
 * to stay readable at: 12 sweep points, 5 variants, 3 blocks, 3,600 s of
 * series per point, with a timed event, windows, and hostile strings in
 * the recipe, a variant's name and a setting.  Checks the escaping, the
 * number of charts and marks, that long series are decimated for drawing
 * (and only for drawing), the SVG documents and the errors.
 *
 * With a path argument the store is written there and kept, for the
 * browser test (tests/integration/it_report.sh) to render the same run.
 */
#include <stdlib.h>
#include <unistd.h>

#include "chart.h"
#include "compare.h"
#include "html.h"
#include "store.h"
#include "test.h"

#define NVARIANTS 5
#define NCLIENTS  12
#define NBLOCKS   3
#define NSECONDS  3600

static const char hostile[] = "<script>alert('x')</script>&\"";

static int
count(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

/* The tps of VARIANT at CLIENTS: a curve that peaks at 64 and is below
 * half its peak from 256 on (its cliff), each variant 2 % below the one
 * before. */
static double
tps_at(int variant, int clients)
{
	double base = clients <= 32   ? 1000.0 * clients
				  : clients < 512 ? 32000.0 * 32 / clients * 4
								  : 32000.0 * 32 / clients;

	return base * (1 - 0.02 * variant);
}

static int64_t
make_store(struct store *st)
{
	static const char *names[NVARIANTS] = {"base", "v1", "v2", "v3", "x\"<y>"};
	struct store_run run = {0};
	struct pgc_error err;
	struct store_series_row *series =
		xcalloc(NSECONDS, sizeof(struct store_series_row));
	struct store_window_row windows[3] = {
		{"before", 60, 1200, 0, false, 0, 0},
		{"during", 1200, 1800, 0, true, 0.5, 30},
		{"after", 2400, 3600, 0, false, 0, 0}};
	struct store_event_row event = {1, 1200.0, 1200.2};
	int64_t id = 0;
	int order = 0;

	run.recipe = "big";
	run.recipe_text =
		"recipe: big\ndescription: <script>alert('x')</script>\n";
	run.recipe_sha256 = "0";
	run.command_line = "pgcliff run big.yaml";
	run.seed = 1;
	run.host_cores = 2;
	CHECK_INT(store_run_begin(st, &run, &id, &err), 0);
	for (int v = 0; v < NVARIANTS; v++)
	{
		struct store_variant var = {0};
		char *settings =
			xasprintf("{\"shared_buffers\": \"%dMB\", \"fsync\": \"off\", "
					  "\"application_name\": \"%s\"}",
					  128 * (v + 1),
					  v == 4 ? "<img src=x onerror=alert(1)>" : "pgcliff");

		var.name = names[v];
		var.kind = "managed";
		var.server_version = "15.18";
		var.settings = settings;
		var.gucs = "{}";
		CHECK_INT(store_variant_add(st, id, &var, &err), 0);
		free(settings);
	}
	{
		/* a variant the run never reached (interrupted): drawn as nothing,
		 * not judged, and no reason to refuse the page */
		struct store_variant var = {0};

		var.name = "unreached";
		var.kind = "managed";
		CHECK_INT(store_variant_add(st, id, &var, &err), 0);
	}
	for (int b = 0; b < NBLOCKS; b++)
		for (int c = 0; c < NCLIENTS; c++)
			for (int v = 0; v < NVARIANTS; v++, order++)
			{
				struct store_point p = {0};
				int clients = 1 << c;
				double tps = tps_at(v, clients) * (1 + 0.01 * (b - 1));

				for (int s = 0; s < NSECONDS; s++)
				{
					/* a dip in "during", a spike every 500 s */
					double x = tps * (s >= 1200 && s < 1800 ? 0.5 : 1);

					if (s % 500 == 250)
						x *= 3;
					series[s] = (struct store_series_row){
						s, (uint64_t) x, 0, 1000.0 * clients / tps, 2.0, NULL};
				}
				p.variant = names[v];
				p.workload = "txid";
				p.clients = clients;
				p.jobs = 1;
				p.repeat_idx = b;
				p.order_idx = order;
				p.protocol = "prepared";
				p.duration_s = NSECONDS;
				p.transactions = (uint64_t) (tps * NSECONDS);
				p.tps = tps;
				p.lat_p50_ms = 1000.0 * clients / tps;
				p.lat_p99_ms = 3000.0 * clients / tps;
				p.histogram = "0;0;0;0;0;";
				p.series = series;
				p.nseries = NSECONDS;
				/* the dip of "during": 0.50 for base, 0.55 for v1, ... */
				windows[1].dip = 0.5 + 0.05 * v;
				windows[1].recovery_s = 30 - v;
				p.windows = windows;
				p.nwindows = 3;
				CHECK_INT(store_point_add(st, id, &p, NULL, &err), 0);
				/* the timed event of the same step */
				p.workload = "long_tx";
				p.clients = 1;
				p.tps = 0.02;
				p.series = NULL;
				p.nseries = 0;
				p.windows = NULL;
				p.nwindows = 0;
				p.events = &event;
				p.nevents = 1;
				CHECK_INT(store_point_add(st, id, &p, NULL, &err), 0);
			}
	CHECK_INT(store_run_finish(st, id, "ok", NULL, &err), 0);
	free(series);
	return id;
}

/* The longest path's number of points (its M and L commands). */
static int
longest_path(const char *s)
{
	int best = 0;

	for (const char *p = s; (p = strstr(p, "<path class=\"line\"")) != NULL;
		 p++)
	{
		const char *d = strstr(p, " d=\"") + 4;
		int n = 0;

		for (; *d != '"'; d++)
			n += *d == 'M' || *d == 'L';
		if (n > best)
			best = n;
	}
	return best;
}

static void
test_escape(void)
{
	struct strbuf sb = STRBUF_INIT;
	char num[32];

	chart_escape(&sb, hostile);
	CHECK_STR(sb.buf, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"
					  "&quot;");
	strbuf_reset(&sb);
	chart_escape(&sb, "a\xff"
					  "b\x01"
					  "c\xc3\xa9");
	CHECK_STR(sb.buf, "a\xEF\xBF\xBD"
					  "b\xEF\xBF\xBD"
					  "c\xc3\xa9");
	strbuf_release(&sb);
	chart_number(num, sizeof(num), 51234);
	CHECK_STR(num, "51k");
	chart_number(num, sizeof(num), 1234567);
	CHECK_STR(num, "1.23M");
	chart_number(num, sizeof(num), 0.975);
	CHECK_STR(num, "0.975");
	chart_number(num, sizeof(num), 1500);
	CHECK_STR(num, "1.5k");
}

static void
test_report(struct store *st, int64_t id)
{
	struct cmp_query q = {0};
	struct report_html_opts o = {0};
	struct strbuf sb = STRBUF_INIT;
	struct pgc_error err;
	const char *tps, *ratio;
	int rc;

	q.conf = 0.95;
	q.seed = 5432;
	rc = report_html_run(st, id, &q, &o, &sb, &err);
	CHECK_INT(rc, 0);
	if (rc != 0)
	{
		fprintf(stderr, "report: %s\n", err.message);
		return;
	}
	fprintf(stderr,
			"report of %d points x %d variants x %d blocks, %d s "
			"series: %zu bytes\n",
			NCLIENTS, NVARIANTS, NBLOCKS, NSECONDS, sb.len);
	/* no markup of anyone else's, no script of its own */
	CHECK_INT(count(sb.buf, "<script"), 0);
	CHECK_INT(count(sb.buf, "<img"), 0);
	CHECK(strstr(sb.buf, "description: &lt;script&gt;alert(&#39;x&#39;)") !=
		  NULL);
	CHECK(strstr(sb.buf, "x&quot;&lt;y&gt;") != NULL);
	CHECK(strstr(sb.buf, "Content-Security-Policy") != NULL);
	/* the charts: one tps and latency chart of the measured workload (not
	 * of the timed event), one B/A chart per variant after the first, one
	 * series chart per sweep point */
	CHECK_INT(count(sb.buf, "data-chart=\"tps\""), 1);
	CHECK_INT(count(sb.buf, "data-chart=\"latency\""), 1);
	CHECK_INT(count(sb.buf, "data-chart=\"ratio\""), NVARIANTS - 1);
	CHECK_INT(count(sb.buf, "data-chart=\"series\""), NCLIENTS);
	CHECK_INT(count(sb.buf, "data-chart=\"lag\""), 0);
	/* marks: tps 12 x 5, B/A 12 x 4, latency 12 x 5 x 2 */
	CHECK_INT(count(sb.buf, "class=\"mark\""), NCLIENTS * NVARIANTS +
												   NCLIENTS * (NVARIANTS - 1) +
												   2 * NCLIENTS * NVARIANTS);
	/* lines: one per variant on tps, two on latency, one per B/A chart;
	 * every block of every variant on its series chart, each with its
	 * event and three windows */
	CHECK_INT(count(sb.buf, "class=\"line\""),
			  NVARIANTS + 2 * NVARIANTS + (NVARIANTS - 1) +
				  NCLIENTS * NVARIANTS * NBLOCKS);
	CHECK_INT(count(sb.buf, "class=\"event\""),
			  NCLIENTS * NVARIANTS * NBLOCKS);
	CHECK_INT(count(sb.buf, "class=\"span\""), NCLIENTS * 3);
	/* the peak at 32 and the cliff at 512, circled on each line */
	tps = strstr(sb.buf, "data-chart=\"tps\"");
	ratio = strstr(sb.buf, "data-chart=\"ratio\"");
	CHECK(tps && ratio);
	CHECK_INT(count(sb.buf, "<title>peak</title>"), NVARIANTS);
	CHECK_INT(count(sb.buf, "<title>cliff</title>"), NVARIANTS);
	/* 3,600 s drawn in at most two points per pixel column of a 900 px
	 * chart, spikes kept */
	CHECK(longest_path(sb.buf) <= 2 * 900);
	CHECK(longest_path(sb.buf) > 100);
	/* 4 % and more below base: REGRESSION, 2 %: inside the margin */
	CHECK(strstr(sb.buf, "v1 against base: <span class=\"verdict\" "
						 "style=\"background:#c00000\">") == NULL);
	CHECK(strstr(sb.buf, "v2 against base: <span class=\"verdict\" "
						 "style=\"background:#c00000\">REGRESSION") != NULL);
	/* settings: those that differ, escaped; not those that are the same */
	CHECK(strstr(sb.buf, "<td>shared_buffers</td>") != NULL);
	CHECK(strstr(sb.buf, "&lt;img src=x onerror=alert(1)&gt;") != NULL);
	CHECK(strstr(sb.buf, "<td>fsync</td>") == NULL);

	/* one chart alone, as an SVG document */
	strbuf_reset(&sb);
	o.chart = "series";
	o.clients = 64;
	CHECK_INT(report_html_run(st, id, &q, &o, &sb, &err), 0);
	CHECK(strncmp(sb.buf, "<?xml", 5) == 0);
	CHECK_INT(count(sb.buf, "<svg"), 1);
	CHECK(strstr(sb.buf, "xmlns=\"http://www.w3.org/2000/svg\"") != NULL);
	CHECK(strstr(sb.buf, "txid, 64 clients: per second") != NULL);
	strbuf_reset(&sb);
	o.chart = "tps";
	o.clients = 0;
	CHECK_INT(report_html_run(st, id, &q, &o, &sb, &err), 0);
	CHECK_INT(count(sb.buf, "class=\"mark\""), NCLIENTS * NVARIANTS);
	/* what is not there is an error, not an empty file */
	strbuf_reset(&sb);
	o.chart = "lag";
	CHECK_INT(report_html_run(st, id, &q, &o, &sb, &err), -1);
	CHECK_INT(err.kind, PGC_ERR_USAGE);
	o.chart = "tps";
	o.workload = "nosuch";
	CHECK_INT(report_html_run(st, id, &q, &o, &sb, &err), -1);
	CHECK_INT(report_html_run(st, id + 1, &q, &o, &sb, &err), -1);
	CHECK_INT(err.kind, PGC_ERR_NOT_FOUND); /* no such run: exit 65 */
	strbuf_release(&sb);
}

/*
 * --metric dip: each block's stored dip, one sample per point, judged as
 * compare and gate judge (higher is better, margin 5 %); the timed
 * event's points, which have no windows, take no part.
 */
static void
test_dip(struct store *st, int64_t id)
{
	struct cmp_side a = {0}, b = {0};
	struct cmp_query q = {0};
	struct cmp_result res;
	struct cmp_labels labels;
	struct pgc_error err;

	a.text = a.s.variant = "base";
	b.text = b.s.variant = "v1";
	a.s.run_id = b.s.run_id = id;
	a.block_hi = b.block_hi = -1;
	q.metric_set = true;
	q.metric = CMP_DIP;
	q.conf = 0.95;
	q.seed = 5432;
	CHECK_INT(compare_stored(st, &a, &b, &q, &res, &labels, &err), 0);
	CHECK_INT(res.opts.metric, CMP_DIP);
	CHECK(fabs(res.opts.margin - 0.05) < 1e-12);
	CHECK_INT(res.npoints, NCLIENTS);
	for (int i = 0; i < res.npoints; i++)
	{
		CHECK_STR(res.points[i].workload, "txid");
		CHECK(res.points[i].window == NULL);
		CHECK_INT(res.points[i].na, NBLOCKS);
		CHECK(fabs(res.points[i].median_a - 0.50) < 1e-9);
		CHECK(fabs(res.points[i].median_b - 0.55) < 1e-9);
		CHECK(fabs(res.points[i].r.ratio - 1.1) < 1e-9);
		CHECK_INT(res.points[i].verdict, CMP_IMPROVED);
	}
	CHECK_INT(res.outcome, CMP_OUTCOME_NO_REGRESSION);
	/* the medians of the dips and of the recoveries, as facts */
	CHECK_INT(res.nwindows, NCLIENTS);
	{
		struct strbuf sb = STRBUF_INIT;

		compare_render(&sb, &res, &labels, CMP_FORMAT_TEXT);
		CHECK(strstr(sb.buf, "metric dip (higher is better), margin 5.0 %") !=
			  NULL);
		CHECK(strstr(sb.buf, "  64 clients: dip (during/before) A 0.500, B "
							 "0.550; recovery to within 5 % of before: A "
							 "30 s, B 29 s") != NULL);
		strbuf_reset(&sb);
		compare_render(&sb, &res, &labels, CMP_FORMAT_JSON);
		CHECK(strstr(sb.buf, "NaN") == NULL && strstr(sb.buf, "nan") == NULL);
		strbuf_release(&sb);
	}
	compare_result_free(&res);
	cmp_side_release(&a);
	cmp_side_release(&b);
	/* the other way round, a deeper dip is a regression */
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.text = a.s.variant = "v3";
	b.text = b.s.variant = "base";
	a.s.run_id = b.s.run_id = id;
	a.block_hi = b.block_hi = -1;
	CHECK_INT(compare_stored(st, &a, &b, &q, &res, &labels, &err), 0);
	CHECK_INT(res.outcome, CMP_OUTCOME_REGRESSION);
	compare_result_free(&res);
	cmp_side_release(&a);
	cmp_side_release(&b);
}

int
main(int argc, char **argv)
{
	struct pgc_error err;
	struct store *st;
	int64_t id;

	test_escape();
	if (argc > 1)
		unlink(argv[1]);
	st = store_open(argc > 1 ? argv[1] : ":memory:", &err);
	CHECK(st != NULL);
	if (st == NULL)
		return 1;
	id = make_store(st);
	test_report(st, id);
	test_dip(st, id);
	store_close(st);
	TEST_MAIN_END("html");
}
