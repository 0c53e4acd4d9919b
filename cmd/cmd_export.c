/*
 * cmd_export.c - `pgcliff export`: a stored run for the dashboards teams
 * already keep (report/dashboards.c): Bencher's BMF, github-action-
 * benchmark's JSON, OpenMetrics text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"
#include "store.h"

static int export_fn(int argc, char **argv);

enum
{
	OPT_OUTPUT = 'o'
};

static const struct cmd_opt export_opts[] = {
	CMD_OPT(CMD_OPT_FORMAT, "format", "F",
			"bmf benchmark-action openmetrics hdr-log",
			"bmf (Bencher Metric Format), benchmark-action\n"
			"(github-action-benchmark's customBiggerIsBetter\n"
			"JSON), openmetrics or hdr-log (HdrHistogram's\n"
			"interval log) (required)"),
	CMD_OPT(OPT_OUTPUT, "output", "FILE", "<file>",
			"write there (whole, or not at all), not to\n"
			"stdout"),
	CMD_OPT_DB_ENTRY, CMD_OPT_END};

const struct cmd cmd_export = {
	.name = "export",
	.summary = "a stored run for Bencher, github-action-benchmark, "
			   "Prometheus, HdrHistogram",
	.synopsis = "[RUN] --format FORMAT [-o FILE]",
	.about =
		"Writes the stored run RUN (default: the newest) in a dashboard's\n"
		"format.  bmf and benchmark-action track one value per benchmark\n"
		"(RECIPE/WORKLOAD/VARIANT/cCLIENTS) and run: the median of its\n"
		"repeats, with the lowest and highest as bounds; bmf has\n"
		"throughput (tps), latency and latency-p99 (nanoseconds) and, for\n"
		"counted runs, instructions; benchmark-action has tps.  openmetrics\n"
		"has every point and repeat (tps, latencies in seconds, the\n"
		"window's transactions and failures) for a Pushgateway or a\n"
		"textfile collector.  hdr-log is HdrHistogram's interval log: one\n"
		"line a point and repeat (tagged VARIANT/WORKLOAD/cCLIENTS/rN), its\n"
		"window's latency histogram in nanoseconds as recorded, for\n"
		"HistogramLogProcessor, HdrHistogram's plotters and their ports.\n"
		"report/FORMATS.md, \"Dashboards\", and the\n"
		"schemas in schemas/json/.  show --format json|csv gives the whole\n"
		"run.\n",
	.opts = export_opts,
	.exits = "exit codes: 0 written, 64 usage, 65 no such store or run, 70\n"
			 "store or write error.\n",
	.fn = export_fn,
};

static int
export_fn(int argc, char **argv)
{
	const char *db = NULL, *output = NULL;
	enum report_dash_format format = REPORT_DASH_BMF;
	bool format_set = false;
	int64_t id = 0;
	struct cmd_ctx ctx;
	struct store *st;
	struct store_run_row run;
	struct store_point_row *points = NULL;
	struct report_export_run x;
	struct strbuf out = STRBUF_INIT;
	int ch, np = 0;

	if (cmd_wants_help(&cmd_export, argc, argv))
		return EXIT_OK;
	while ((ch = cmd_getopt(&cmd_export, argc, argv)) != -1)
	{
		switch (ch)
		{
			case CMD_OPT_FORMAT:
				if (report_dash_parse(optarg, &format) < 0)
					return cmd_usage_error(&cmd_export,
										   "unknown format \"%s\" (bmf, "
										   "benchmark-action, openmetrics, "
										   "hdr-log)",
										   optarg);
				format_set = true;
				break;
			case OPT_OUTPUT:
				if (!*optarg)
					return cmd_usage_error(&cmd_export, "empty --output");
				output = optarg;
				break;
			case CMD_OPT_DB:
				db = optarg;
				break;
			default:
				return cmd_option_error(&cmd_export, ch, argv);
		}
	}
	if (!format_set)
		return cmd_usage_error(&cmd_export, "--format is required");
	if (optind < argc && !cmd_parse_run_id(argv[optind], &id))
		return cmd_usage_error(&cmd_export, "invalid run id \"%s\"",
							   argv[optind]);
	if (optind + 1 < argc)
		return cmd_usage_error(&cmd_export, "unexpected argument '%s'",
							   argv[optind + 1]);
	cmd_ctx_init(&ctx, &cmd_export, db);
	if ((st = cmd_open_store(&ctx, false)) == NULL)
		return cmd_ctx_finish(&ctx);
	if (id == 0)
	{
		struct store_run_row *rows = NULL;
		int n = 0;

		if (store_list_runs(st, NULL, NULL, 1, &rows, &n, &ctx.err) < 0)
			return cmd_ctx_finish(&ctx);
		if (n == 0)
		{
			error_set(&ctx.err, PGC_ERR_NOT_FOUND, "no run in the store");
			return cmd_ctx_finish(&ctx);
		}
		id = rows[0].id;
		store_runs_free(rows, n);
	}
	if (store_get_run(st, id, &run, &ctx.err) < 0)
		return cmd_ctx_finish(&ctx);
	if (store_get_points(st, id, &points, &np, &ctx.err) == 0)
	{
		memset(&x, 0, sizeof(x));
		x.run = &run;
		x.points = points;
		x.npoints = np;
		report_dash_export(&out, &x, format);
		cmd_write_output(output, &out, &ctx.err);
	}
	strbuf_release(&out);
	store_points_free(points, np);
	store_run_row_release(&run);
	return cmd_ctx_finish(&ctx);
}
