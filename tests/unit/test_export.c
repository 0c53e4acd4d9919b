/*
 * test_export.c - list and show as data (report/export.c): the JSON reads
 * back with the stored figures and the version, the CSV has its header,
 * a row per point or second, and quotes what needs quoting.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "report.h"
#include "store.h"
#include "test.h"

static int
count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

int
main(void)
{
	struct store_run_row run = {0};
	struct store_variant_row var = {0};
	struct store_point_row pts[2];
	struct store_series_row s0[3] = {{0, 100, 0, 1.5, 3.0, NULL},
									 {1, 110, 1, 1.4, 2.0, NULL},
									 {2, 90, 0, 1.6, 4.0, NULL}};
	struct store_series_row *series[2] = {s0, NULL};
	int nseries[2] = {3, 0};
	struct report_export_run x = {&run, &var, 1, pts, 2, series, nseries};
	struct strbuf sb = STRBUF_INIT;
	json_t *doc, *p0;
	json_error_t jerr;

	run.id = 7;
	run.recipe = "txid_current";
	run.command_line = "pgcliff run \"a,b\" 'x'";
	run.started_at = "2026-12-01 10:00:00";
	run.status = "running";
	run.dead = true;
	run.npoints = 2;
	run.variants = "base,slow";
	run.plan = "{\"version\": 1, \"steps\": []}";
	run.seed = 42;
	var.name = "base";
	var.kind = "managed";
	var.settings = "{\"shared_buffers\": \"128MB\"}";
	memset(pts, 0, sizeof(pts));
	pts[0].id = 11;
	pts[0].variant = "base";
	pts[0].workload = "txid";
	pts[0].clients = 4;
	pts[0].repeat_idx = 0;
	pts[0].transactions = 300;
	pts[0].tps = 100.0;
	pts[0].failures_by_class = "{\"40\": 1}";
	pts[1] = pts[0];
	pts[1].id = 12;
	pts[1].variant = "slow";
	pts[1].failures_by_class = "not json";

	report_run_export(&sb, &x);
	doc = json_loads(sb.buf, 0, &jerr);
	CHECK(doc != NULL);
	CHECK_INT(json_integer_value(json_object_get(doc, "pgcliff_run")), 1);
	CHECK_STR(json_string_value(
				  json_object_get(json_object_get(doc, "run"), "status")),
			  "dead"); /* what list and show say */
	CHECK_INT(
		json_integer_value(json_object_get(
			json_object_get(json_object_get(doc, "run"), "plan"), "version")),
		1); /* stored JSON as JSON */
	CHECK_STR(json_string_value(json_object_get(
				  json_object_get(
					  json_array_get(json_object_get(doc, "variants"), 0),
					  "settings"),
				  "shared_buffers")),
			  "128MB");
	p0 = json_array_get(json_object_get(doc, "points"), 0);
	CHECK_INT(json_integer_value(json_object_get(p0, "transactions")), 300);
	CHECK_INT(json_array_size(json_object_get(p0, "series")), 3);
	CHECK_INT(
		json_integer_value(json_object_get(
			json_array_get(json_object_get(p0, "series"), 1), "failures")),
		1);
	/* stored text that is not JSON is null, not a crash or a string */
	CHECK(json_is_null(
		json_object_get(json_array_get(json_object_get(doc, "points"), 1),
						"failures_by_class")));
	json_decref(doc);

	strbuf_reset(&sb);
	report_series_csv(&sb, &x);
	CHECK_INT(count_lines(sb.buf), 1 + 3);
	CHECK(strncmp(sb.buf, "run,point,variant,workload,clients,repeat,second,",
				  49) == 0);
	CHECK(strstr(sb.buf, "7,11,base,txid,4,1,1,110,1,1.400,2.000\r\n") !=
		  NULL);

	strbuf_reset(&sb);
	report_points_csv(&sb, &x);
	CHECK_INT(count_lines(sb.buf), 1 + 2);

	strbuf_reset(&sb);
	report_runs_export(&sb, &run, 1, true);
	CHECK_INT(count_lines(sb.buf), 2);
	/* "base,slow" holds a comma: quoted, as RFC 4180 wants */
	CHECK(strstr(sb.buf, ",dead,2,\"base,slow\"\r\n") != NULL);
	/* a name a spreadsheet would run as a formula is neutralised */
	{
		struct store_run_row evil = run;
		struct strbuf sb2 = STRBUF_INIT;

		evil.recipe = (char *) "=HYPERLINK(\"http://x\")";
		evil.variants = (char *) "@SUM(1)";
		report_runs_export(&sb2, &evil, 1, true);
		CHECK(strstr(sb2.buf, ",\"'=HYPERLINK(\"\"http://x\"\")\",") != NULL);
		CHECK(strstr(sb2.buf, ",'@SUM(1)\r\n") != NULL);
		strbuf_release(&sb2);
	}
	strbuf_reset(&sb);
	report_runs_export(&sb, &run, 1, false);
	doc = json_loads(sb.buf, 0, &jerr);
	CHECK(doc != NULL);
	CHECK_INT(
		json_array_size(json_object_get(
			json_array_get(json_object_get(doc, "runs"), 0), "variants")),
		2);
	json_decref(doc);

	/* dashboards: three repeats of one benchmark fold into their median,
	 * bounded by the lowest and highest; a point without transactions is
	 * left out; OpenMetrics escapes what a label value may not hold */
	{
		struct store_point_row d[4];
		struct report_export_run dx = {&run, &var, 1, d, 4, NULL, NULL};
		const double tps[] = {120, 100, 110, 0};
		json_t *m;

		memset(d, 0, sizeof(d));
		for (int i = 0; i < 4; i++)
		{
			d[i] = pts[0];
			d[i].repeat_idx = i;
			d[i].tps = tps[i];
			d[i].transactions = i < 3 ? 300 : 0;
			d[i].lat_avg_ms = 1.0 + i;
			d[i].lat_p99_ms = 2.0;
		}
		d[0].variant = "a \"b\"\nc";
		d[1].variant = d[2].variant = d[3].variant = d[0].variant;
		strbuf_reset(&sb);
		report_dash_export(&sb, &dx, REPORT_DASH_BMF);
		doc = json_loads(sb.buf, 0, &jerr);
		CHECK(doc != NULL);
		CHECK_INT(json_object_size(doc), 1);
		m = json_object_get(json_object_get(doc, "txid_current/txid/a "
												 "\"b\"\nc/c4"),
							"throughput");
		CHECK(json_real_value(json_object_get(m, "value")) == 110);
		CHECK(json_real_value(json_object_get(m, "lower_value")) == 100);
		CHECK(json_real_value(json_object_get(m, "upper_value")) == 120);
		/* latency in nanoseconds: the median of 1, 2 and 3 ms */
		CHECK(json_real_value(json_object_get(
				  json_object_get(json_object_get(doc, "txid_current/txid/a "
													   "\"b\"\nc/c4"),
								  "latency"),
				  "value")) == 2e6);
		json_decref(doc);
		strbuf_reset(&sb);
		report_dash_export(&sb, &dx, REPORT_DASH_OPENMETRICS);
		CHECK(strstr(sb.buf, "variant=\"a \\\"b\\\"\\nc\"") != NULL);
		CHECK_INT(count_lines(strstr(sb.buf, "# TYPE pgcliff_tps")) -
					  count_lines(strstr(sb.buf, "# TYPE pgcliff_latency")),
				  2 + 3); /* TYPE, HELP and a sample per measured repeat */
		CHECK(strcmp(sb.buf + sb.len - 6, "# EOF\n") == 0);
		strbuf_reset(&sb);
		report_dash_export(&sb, &dx, REPORT_DASH_BENCHMARK_ACTION);
		CHECK(strstr(sb.buf, "\"range\": \"± 10.000\"") != NULL);

		/* HdrHistogram's interval log: a line a point with a histogram,
		 * the windows end to end in plan order, the tag without a comma
		 * or white space, the histogram as recorded */
		{
			struct hist *h = calloc(1, sizeof(*h)),
						*back = calloc(1, sizeof(*h));
			struct strbuf enc = STRBUF_INIT;
			const char *line;
			const char *head = "#[Histogram log format version 1.3]\n"
							   "#[StartTime: 1796119200.000 (seconds since "
							   "epoch), 2026-12-01 10:00:00 UTC]\n";
			char b64[4096];

			hist_reset(h);
			hist_record(h, 250000);
			hist_record(h, 1750000);
			hist_encode(h, &enc);
			for (int i = 0; i < 4; i++)
			{
				d[i].order_idx = 3 - i;
				d[i].duration_s = 2.0;
				d[i].histogram = i == 2 ? NULL : enc.buf;
			}
			d[0].variant = d[1].variant = d[2].variant = d[3].variant =
				"a, b\tc";
			strbuf_reset(&sb);
			report_dash_export(&sb, &dx, REPORT_DASH_HDR_LOG);
			CHECK(strncmp(sb.buf, head, strlen(head)) == 0);
			CHECK(strstr(sb.buf, "\n\"StartTimestamp\",\"Interval_Length\","
								 "\"Interval_Max\",\"Interval_Compressed_"
								 "Histogram\"\n") != NULL);
			/* plan order: the last point first, the third without one */
			CHECK(strstr(sb.buf, "\nTag=a__b_c/txid/c4/r4,0.000,2.000,1.750,"
								 "HISTF") != NULL);
			CHECK(strstr(sb.buf,
						 "\n#[point 2, txid: no histogram stored]\n"
						 "Tag=a__b_c/txid/c4/r2,4.000,2.000,") != NULL);
			line = strstr(sb.buf, "Tag=a__b_c/txid/c4/r1,6.000,2.000,1.750,");
			CHECK(line != NULL);
			if (line && sscanf(line, "%*[^H]%4095[A-Za-z0-9+/=]", b64) == 1)
			{
				CHECK_INT(hist_hdr_decode(b64, back), 0);
				CHECK(memcmp(back->buckets, h->buckets, sizeof(h->buckets)) ==
					  0);
			}
			else
				CHECK(!"an interval line with its histogram");
			/* 4 of the log, a line a point */
			CHECK_INT(count_lines(sb.buf), 4 + 4);
			strbuf_release(&enc);
			free(h);
			free(back);
		}
	}
	strbuf_release(&sb);
	TEST_MAIN_END("test_export");
}
