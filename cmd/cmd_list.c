/*
 * cmd_list.c - `pgcliff list`: the stored runs, newest first.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"
#include "store.h"

static int list_fn(int argc, char **argv);

enum
{
	OPT_RECIPE = 256,
	OPT_VARIANT,
	OPT_LIMIT
};

static const struct cmd_opt list_opts[] = {
	CMD_OPT(OPT_RECIPE, "recipe", "NAME", NULL, "only runs of this recipe"),
	CMD_OPT(OPT_VARIANT, "variant", "NAME", NULL,
			"only runs with this variant"),
	CMD_OPT(OPT_LIMIT, "limit", "N", NULL, "at most N runs"),
	CMD_OPT(CMD_OPT_FORMAT, "format", "F", "text json csv",
			"text (default), json or csv (report/FORMATS.md,\n"
			"\"Exports\")"),
	CMD_OPT_DB_ENTRY,
	CMD_OPT_END};

const struct cmd cmd_list = {
	.name = "list",
	.summary = "list stored runs, newest first",
	.synopsis = "[--recipe NAME] [--variant NAME] [--limit N]\n"
				"[--format text|json|csv] [--db STORE]",
	.about = "Lists the stored runs, newest first: id, start time (UTC), "
			 "recipe,\n"
			 "status, number of points and variants.\n",
	.opts = list_opts,
	.fn = list_fn,
};

static int
list_fn(int argc, char **argv)
{
	const char *recipe = NULL, *variant = NULL, *db = NULL, *format = "text";
	int limit = 0, ch, n = 0;
	struct cmd_ctx ctx;
	struct store *st;
	struct store_run_row *rows = NULL;

	if (cmd_wants_help(&cmd_list, argc, argv))
		return EXIT_OK;
	while ((ch = cmd_getopt(&cmd_list, argc, argv)) != -1)
	{
		switch (ch)
		{
			case OPT_RECIPE:
				recipe = optarg;
				break;
			case OPT_VARIANT:
				variant = optarg;
				break;
			case OPT_LIMIT:
				if (!cmd_parse_count(optarg, 1000000000, &limit))
					return cmd_usage_error(&cmd_list, "invalid limit \"%s\"",
										   optarg);
				break;
			case CMD_OPT_FORMAT:
				if (cmd_parse_data_format(&cmd_list, optarg, &format) != 0)
					return EXIT_USAGE;
				break;
			case CMD_OPT_DB:
				db = optarg;
				break;
			default:
				return cmd_option_error(&cmd_list, ch, argv);
		}
	}
	if (optind < argc)
		return cmd_usage_error(&cmd_list, "unexpected argument '%s'",
							   argv[optind]);
	cmd_ctx_init(&ctx, &cmd_list, db);
	if ((st = cmd_open_store(&ctx, false)) == NULL ||
		store_list_runs(st, recipe, variant, limit, &rows, &n, &ctx.err) < 0)
		return cmd_ctx_finish(&ctx);
	if (strcmp(format, "text") != 0)
	{
		struct strbuf out = STRBUF_INIT;

		report_runs_export(&out, rows, n, strcmp(format, "csv") == 0);
		if (strcmp(format, "json") == 0)
			cmd_json_for_stdout(&out);
		fputs(out.buf ? out.buf : "", stdout);
		strbuf_release(&out);
		store_runs_free(rows, n);
		return cmd_ctx_finish(&ctx);
	}
	printf("%6s  %-19s  %-24s  %-11s  %6s  %s\n", "run", "started (UTC)",
		   "recipe", "status", "points", "variants");
	for (int i = 0; i < n; i++)
		printf("%6" PRId64 "  %-19s  %-24s  %-11s  %6d  %s\n", rows[i].id,
			   rows[i].started_at, rows[i].recipe,
			   rows[i].dead ? "dead" : rows[i].status, rows[i].npoints,
			   rows[i].variants);
	store_runs_free(rows, n);
	return cmd_ctx_finish(&ctx);
}
