/*
 * cmd_history.c - `pgcliff history RECIPE`: per variant, workload and
 * client count, one value per stored run (the median over its repeats) in
 * run order, with the change points report/history finds.  For triage,
 * not for gating: the exit code does not depend on what it finds.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "history.h"
#include "report.h"
#include "store.h"

static int history_fn(int argc, char **argv);

enum
{
	OPT_VARIANT = 256,
	OPT_MIN_CHANGE,
	OPT_MIN_SEGMENT,
	OPT_LAST
};

static const struct cmd_opt history_opts[] = {
	CMD_OPT(OPT_VARIANT, "variant", "V", NULL, "only this variant"),
	CMD_OPT(CMD_OPT_WORKLOAD, "workload", "W", NULL, "only this workload"),
	CMD_OPT(CMD_OPT_METRIC, "metric", "M",
			"tps latency_avg p50 p90 p95 p99 p999 max instructions l1_misses "
			"ll_misses",
			"tps (default), latency_avg, p50, p90, p95,\n"
			"p99, p999, max; instructions, l1_misses,\n"
			"ll_misses (counted runs, run --count)"),
	CMD_OPT(CMD_OPT_POINTS, "points", "LIST", NULL,
			"only these client counts"),
	CMD_OPT(OPT_MIN_CHANGE, "min-change", "P", NULL,
			"smallest change reported (default 5%)"),
	CMD_OPT(OPT_MIN_SEGMENT, "min-segment", "N", NULL,
			"runs on each side of a change (default 3)"),
	CMD_OPT(OPT_LAST, "last", "N", NULL, "only the N newest runs"),
	CMD_OPT(CMD_OPT_FORMAT, "format", "F", "text markdown json junit",
			"text, markdown, json or junit"),
	CMD_OPT_DB_ENTRY,
	CMD_OPT_END};

const struct cmd cmd_history = {
	.name = "history",
	.summary = "a recipe's stored runs over time, with change points",
	.synopsis = "RECIPE [OPTIONS]",
	.about =
		"One value per stored run and point (median over its repeats), oldest\n"
		"first, per variant, workload and client count, and the runs where a\n"
		"series changes level (E-divisive: the split with the largest energy\n"
		"distance, kept when a permutation test with a fixed seed gives\n"
		"p < 0.05 and the medians differ by --min-change; then recursively).\n"
		"For triage, not for gating: use `gate` to fail a build.\n",
	.opts = history_opts,
	.exits = "exit codes: 0 ok (whatever it finds), 64 usage, 70 store "
			 "error.\n",
	.fn = history_fn,
};

#define HISTORY_SEED 5432

struct run_info
{
	int64_t id;
	char started[32];
};

static int
cmp_run_info(const void *a, const void *b)
{
	const struct run_info *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* RI sorted by id: a binary search (history may span 10,000 runs). */
static const char *
started_of(const struct run_info *ri, int nri, int64_t id)
{
	struct run_info key = {.id = id};
	const struct run_info *r =
		bsearch(&key, ri, (size_t) nri, sizeof(*ri), cmp_run_info);

	return r ? r->started : "?";
}

static int
history_fn(int argc, char **argv)
{
	const struct cmd *c = &cmd_history;
	struct store_selector sel;
	struct history_opts ho = {3, 0.05, 0.05, 199, HISTORY_SEED};
	enum cmp_metric metric = CMP_TPS;
	enum cmp_format format = CMP_FORMAT_TEXT;
	const char *workload = NULL, *db = NULL;
	int *points = NULL, npoints = 0, ch, rc = EXIT_OK, nrows = 0, ns = 0;
	int nri = 0;
	struct store *st = NULL;
	struct store_point_row *rows = NULL;
	struct history_series *ss = NULL;
	struct run_info *ri = NULL;
	struct cmd_ctx ctx;
	struct strbuf out = STRBUF_INIT;

	if (cmd_wants_help(c, argc, argv))
		return EXIT_OK;
	memset(&sel, 0, sizeof(sel));
	while (rc == EXIT_OK && (ch = cmd_getopt(c, argc, argv)) != -1)
	{
		switch (ch)
		{
			case OPT_VARIANT:
				sel.variant = optarg;
				break;
			case CMD_OPT_WORKLOAD:
				workload = optarg;
				break;
			case CMD_OPT_METRIC:
				if (cmp_metric_parse(optarg, &metric) < 0)
					rc = cmd_usage_error(
						c,
						"unknown metric \"%s\" (tps, latency_avg, p50, p90, "
						"p95, p99, p999, max, instructions, l1_misses, "
						"ll_misses)",
						optarg);
				else if (metric == CMP_DIP)
					rc = cmd_usage_error(c, "history follows a point's "
											"figures; the dip is judged by "
											"compare and gate");
				break;
			case CMD_OPT_POINTS:
				free(points);
				if (!cmd_parse_count_list(optarg, 100000, &points, &npoints))
					rc = cmd_usage_error(c, "invalid client list \"%s\"",
										 optarg);
				break;
			case OPT_MIN_CHANGE:
				if (!cmd_parse_fraction(optarg, &ho.min_change) ||
					!(ho.min_change >= 0 && ho.min_change < 10))
					rc = cmd_usage_error(c, "invalid --min-change \"%s\"",
										 optarg);
				break;
			case OPT_MIN_SEGMENT:
				if (!cmd_parse_count(optarg, 1000, &ho.min_segment) ||
					ho.min_segment < 2)
					rc = cmd_usage_error(
						c, "invalid --min-segment \"%s\" (2+)", optarg);
				break;
			case OPT_LAST:
				if (!cmd_parse_count(optarg, 1000000, &sel.last))
					rc = cmd_usage_error(c, "invalid --last \"%s\"", optarg);
				break;
			case CMD_OPT_FORMAT:
				if (cmp_format_parse(optarg, &format) < 0 ||
					format == CMP_FORMAT_GITHUB)
					rc = cmd_usage_error(
						c,
						"unknown format \"%s\" (text, markdown, json, junit)",
						optarg);
				break;
			case CMD_OPT_DB:
				db = optarg;
				break;
			default:
				rc = cmd_option_error(c, ch, argv);
		}
	}
	if (rc == EXIT_OK && optind + 1 != argc)
		rc = cmd_usage_error(c, optind >= argc ? "no recipe given"
											   : "give one recipe name");
	if (rc != EXIT_OK)
	{
		free(points);
		return rc;
	}
	sel.recipe = argv[optind];
	/* only p95 is read from the histograms; the other metrics have columns */
	sel.no_histograms = metric != CMP_P95;
	cmd_ctx_init(&ctx, c, db);
	if ((st = cmd_open_store(&ctx, false)) == NULL ||
		store_select_points(st, &sel, &rows, &nrows, &ctx.err) < 0)
		goto done;
	if (nrows == 0)
	{
		error_set(&ctx.err, PGC_ERR_NOT_FOUND,
				  "no stored points of recipe %s%s%s", sel.recipe,
				  sel.variant ? " variant " : "",
				  sel.variant ? sel.variant : "");
		error_hint(&ctx.err, "`pgcliff list` shows the stored runs");
		goto done;
	}
	{
		/* every run's start in one query, not one query a run */
		struct store_run_row *runs = NULL;
		int nruns = 0;

		if (store_list_runs(st, sel.recipe, NULL, 0, &runs, &nruns, &ctx.err) <
			0)
			goto done;
		ri = xcalloc((size_t) nruns + 1, sizeof(*ri));
		for (int i = 0; i < nruns; i++)
		{
			const char *at = runs[i].started_at ? runs[i].started_at : "?";

			ri[nri].id = runs[i].id;
			/* "2026-11-30T19:01:02Z" -> "2026-11-30 19:01:02" */
			snprintf(ri[nri].started, sizeof(ri[nri].started), "%.10s %.8s",
					 at, strlen(at) > 11 ? at + 11 : "");
			nri++;
		}
		store_runs_free(runs, nruns);
		qsort(ri, (size_t) nri, sizeof(*ri), cmp_run_info);
	}
	ss = history_group_points(rows, nrows, metric, workload, points, npoints,
							  &ns);
	for (int i = 0; i < ns; i++)
	{
		ss[i].started = xmalloc((size_t) ss[i].n * sizeof(char *) + 1);
		for (int j = 0; j < ss[i].n; j++)
			ss[i].started[j] = started_of(ri, nri, ss[i].runs[j]);
		ss[i].nchanges = history_change_points(
			ss[i].values, ss[i].n, &ho, ss[i].changes, HISTORY_MAX_CHANGES);
	}
	history_render(&out, format, sel.recipe, metric, &ho, ss, ns);
	fputs(out.buf, stdout);
	goto done;

done:
	strbuf_release(&out);
	for (int i = 0; i < ns; i++)
	{
		free(ss[i].runs);
		free(ss[i].values);
		free(ss[i].started);
	}
	free(ss);
	free(ri);
	store_points_free(rows, nrows);
	free(points);
	return cmd_ctx_finish(&ctx);
}
