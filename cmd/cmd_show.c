/*
 * cmd_show.c - `pgcliff show RUN`: its options, the store opened, and
 * what report/show.c renders (one run's provenance, its points and, with
 * --series, the per-second counts of every point) printed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "run.h"
#include "show.h"
#include "store.h"

static int show_fn(int argc, char **argv);

enum
{
	OPT_SERIES = 256,
	OPT_SCRIPTS,
	OPT_SAMPLES,
	OPT_PROFILE,
	OPT_BUILD,
	OPT_RECIPE
};

static const struct cmd_opt show_opts[] = {
	CMD_OPT(OPT_SERIES, "series", NULL, NULL,
			"the per-second transaction counts of every\n"
			"point"),
	CMD_OPT(OPT_SAMPLES, "samples", NULL, NULL,
			"the servers' own samples, per node and second\n"
			"(commits, replay lag, wait events, recovery\n"
			"conflicts, and what each sample cost)"),
	CMD_OPT(OPT_PROFILE, "profile", NULL, NULL,
			"the servers' CPU profiles of each plan step's\n"
			"window (run --profile), per node its samples\n"
			"and the functions with the largest share; of\n"
			"a counted run (run --count), its functions"),
	CMD_OPT(OPT_SCRIPTS, "scripts", NULL, NULL,
			"only the script files the run used, as they\n"
			"were, each after a \"-- file: PATH\" line"),
	CMD_OPT(OPT_BUILD, "build", NULL, NULL,
			"only the provenance of the variants built\n"
			"from source (pgcliff build): source tree,\n"
			"configure options, compiler, each #define\n"
			"with its file and old value, each patch, and\n"
			"the full diff applied"),
	CMD_OPT(OPT_RECIPE, "recipe", NULL, NULL,
			"only the recipe's text as it was stored"),
	CMD_OPT(CMD_OPT_FORMAT, "format", "F", "text json csv",
			"text (default); json: the run, its variants\n"
			"(settings as SHOW prints them) and its\n"
			"points, with --series each point's seconds;\n"
			"csv: one row per point, or with --series one\n"
			"per point and second (report/FORMATS.md,\n"
			"\"Exports\")"),
	CMD_OPT_DB_ENTRY,
	CMD_OPT_END};

const struct cmd cmd_show = {
	.name = "show",
	.summary = "show one stored run: provenance, points, series",
	.synopsis = "RUN [OPTIONS]",
	.about =
		"Prints the run's provenance (recipe, command line, host, server\n"
		"version and non-default settings) and every point with tps and\n"
		"latency percentiles (and, where there are, its retries, "
		"rate-limit\n"
		"figures, scripts and statement latencies).\n",
	.opts = show_opts,
	.exits = "exit codes: 0 ok, 64 usage, 65 no such run, 70 store error.\n",
	.fn = show_fn,
};

/* The folder holding the run's kept server logs, or NULL; caller frees. */
static char *
kept_logs(const char *db_path, int64_t id)
{
	char dir[1100];
	char *path;
	struct stat st;

	if (!store_logs_dir(db_path, dir, sizeof(dir)))
		return NULL;
	path = run_logs_path(dir, id);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return path;
	free(path);
	return NULL;
}

static int
show_fn(int argc, char **argv)
{
	const char *db = NULL, *format = "text";
	struct report_show o = {0};
	bool scripts = false, builds = false, recipe = false;
	int ch;
	int64_t id;
	struct cmd_ctx ctx;
	struct pgc_error *err = &ctx.err;
	struct store *st;
	struct store_run_row run;
	struct strbuf out = STRBUF_INIT;
	char *logs = NULL;

	if (cmd_wants_help(&cmd_show, argc, argv))
		return EXIT_OK;
	while ((ch = cmd_getopt(&cmd_show, argc, argv)) != -1)
	{
		switch (ch)
		{
			case OPT_SERIES:
				o.series = true;
				break;
			case OPT_SCRIPTS:
				scripts = true;
				break;
			case OPT_SAMPLES:
				o.samples = true;
				break;
			case OPT_PROFILE:
				o.profiles = true;
				break;
			case OPT_BUILD:
				builds = true;
				break;
			case OPT_RECIPE:
				recipe = true;
				break;
			case CMD_OPT_FORMAT:
				if (cmd_parse_data_format(&cmd_show, optarg, &format) != 0)
					return EXIT_USAGE;
				break;
			case CMD_OPT_DB:
				db = optarg;
				break;
			default:
				return cmd_option_error(&cmd_show, ch, argv);
		}
	}
	if (optind >= argc)
		return cmd_usage_error(&cmd_show, "no run given");
	if (!cmd_parse_run_id(argv[optind], &id))
		return cmd_usage_error(&cmd_show, "invalid run id \"%s\"",
							   argv[optind]);
	if (optind + 1 < argc)
		return cmd_usage_error(&cmd_show, "unexpected argument '%s'",
							   argv[optind + 1]);

	cmd_ctx_init(&ctx, &cmd_show, db);
	if ((st = cmd_open_store(&ctx, false)) == NULL ||
		store_get_run(st, id, &run, err) < 0)
		return cmd_ctx_finish(&ctx);
	/* a store error leaves its message in ctx.err, which cmd_ctx_finish()
	 * prints after what was rendered before it */
	if (strcmp(format, "text") != 0)
	{
		if (report_show_export(&out, st, &run, o.series,
							   strcmp(format, "csv") == 0, err) == 0 &&
			strcmp(format, "json") == 0)
			cmd_json_for_stdout(&out);
	}
	else if (recipe)
	{
		char *text = NULL;

		if (store_get_recipe_text(st, id, &text, err) == 0 && text)
			strbuf_addstr(&out, text);
		free(text);
	}
	else if (scripts)
	{
		/* the script files as they were run, nothing else */
		if (run.script_files)
			strbuf_addstr(&out, run.script_files);
		else
			fprintf(stderr,
					"run %" PRId64 " used no script files: its "
					"scripts are in its recipe (show %" PRId64 " --recipe)\n",
					run.id, run.id);
	}
	else if (builds)
		(void) report_show_builds(&out, st, id, err);
	else
	{
		o.logs = logs = kept_logs(ctx.db_path, run.id);
		(void) report_show_run(&out, st, &run, &o, err);
	}
	if (out.len)
		fputs(out.buf, stdout);
	strbuf_release(&out);
	free(logs);
	store_run_row_release(&run);
	return cmd_ctx_finish(&ctx);
}
