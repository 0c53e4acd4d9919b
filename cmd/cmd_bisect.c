/*
 * cmd_bisect.c - `pgcliff bisect`: the first commit between a good and a
 * bad revision that makes a recipe's figure worse (cmd/conductor/bisect).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "cmd.h"

static int bisect_fn(int argc, char **argv);

enum
{
	OPT_GOOD = 256,
	OPT_BAD
};

static const struct cmd_opt bisect_opts[] = {
	CMD_OPT('s', "source", "DIR", "<dir>", "the git checkout (required)"),
	CMD_OPT(OPT_GOOD, "good", "REV", NULL,
			"a commit without the regression (required)"),
	CMD_OPT(OPT_BAD, "bad", "REV", NULL, "a later commit with it (required)"),
	CMD_OPT_METRIC_ENTRY,
	CMD_OPT_COUNT_ENTRY,
	CMD_OPT_MAX_REGRESSION_ENTRY,
	CMD_OPT_RULE_ENTRY,
	CMD_OPT_ADJUST_ENTRY,
	CMD_OPT_BUDGET_ENTRY,
	CMD_OPT_MAX_REPEATS_ENTRY,
	CMD_OPT_CLIENTS_ENTRY,
	CMD_OPT_DURATION_ENTRY,
	CMD_OPT_WARMUP_ENTRY,
	CMD_OPT_BUILD_CACHE_ENTRY,
	CMD_OPT_OS_USER_ENTRY,
	CMD_OPT(CMD_OPT_SEED, "seed", "N", NULL,
			"the runs' seed (default: random)"),
	CMD_OPT_KEEP_LOGS_ENTRY,
	CMD_OPT_DB_ENTRY,
	CMD_OPT('q', "quiet", NULL, NULL,
			"no build steps, only the bisect's lines"),
	CMD_OPT_END};

const struct cmd cmd_bisect = {
	.name = "bisect",
	.summary = "find the commit that made a recipe slower",
	.synopsis = "RECIPE.yaml --source GIT_TREE --good REV --bad REV",
	.about =
		"Finds the first commit after GOOD up to BAD of the git checkout\n"
		"GIT_TREE that makes the recipe's figure worse.  Each step is a run\n"
		"(stored) of two variants built from the checkout: good, and the\n"
		"commit under test, built over good's tree so that make recompiles\n"
		"only the files that differ (the build cache keeps both).  A run adds\n"
		"blocks until the gate's verdict is decided, as run --until-decided\n"
		"does; the bad commit is measured first, and a step that stays\n"
		"INCONCLUSIVE within its budget ends the bisect undecided, with the\n"
		"range it narrowed the search to: never a guess.  The recipe may not\n"
		"have variants of its own (its server: applies to both).\n",
	.opts = bisect_opts,
	.exits =
		"exit codes: 0 no regression between GOOD and BAD, 1 the first bad\n"
		"commit found, 2 undecided (a step stayed INCONCLUSIVE), 64 usage\n"
		"(revisions, a recipe with variants), 65 an invalid recipe, 69 a\n"
		"build or a server failed, 70 store, 75 interrupted.\n",
	.operand = "<yaml>",
	.fn = bisect_fn,
};

struct view
{
	bool quiet;
	int steps_done;       /* steps ended so far */
	double steps_seconds; /* what they took, builds included */
};

static void
on_run_event(void *arg, const struct run_event *ev)
{
	const struct view *v = arg;

	switch (ev->kind)
	{
		case RUN_EV_NOTE:
			fprintf(stderr, "note: %s\n", ev->text);
			break;
		case RUN_EV_STEP:
			if (!v->quiet)
				fprintf(stderr, "  %s%s%s\n", ev->variant ? ev->variant : "",
						ev->variant ? ": " : "", ev->text);
			break;
		case RUN_EV_SERVER_LOG:
			fprintf(stderr, "  server log%s%s: %s\n",
					ev->variant ? " of " : "", ev->variant ? ev->variant : "",
					ev->text);
			break;
		case RUN_EV_LOOK:
			cmd_print_look(ev->look, ev->budget_s);
			break;
		default:
			break;
	}
}

static void
on_bisect_event(void *arg, const struct bisect_event *ev)
{
	struct view *v = arg;

	switch (ev->kind)
	{
		case BISECT_EV_RANGE:
			printf("bisect: %d commit%s after good up to bad %.12s (\"%s\"); "
				   "%d step%s at most\n",
				   ev->commits, ev->commits == 1 ? "" : "s", ev->revision,
				   ev->subject, ev->steps_left,
				   ev->steps_left == 1 ? "" : "s");
			break;
		case BISECT_EV_STEP_BEGIN:
			/* the ETA: the steps left at the mean of those done */
			printf("step %d: %.12s \"%s\" against good (%d more at most",
				   ev->step, ev->revision, ev->subject, ev->steps_left);
			if (v->steps_done > 0)
				printf(", about %.0f min left at most",
					   ceil(v->steps_seconds / v->steps_done *
							(ev->steps_left + 1) / 60));
			printf(")\n");
			break;
		case BISECT_EV_STEP_END:
			printf("step %d: %.12s is %s (run %" PRId64 ", %.0f s): %s\n",
				   ev->step, ev->revision,
				   ev->outcome == CMP_OUTCOME_REGRESSION      ? "bad"
				   : ev->outcome == CMP_OUTCOME_NO_REGRESSION ? "good"
															  : "undecided",
				   ev->run_id, ev->seconds, ev->detail ? ev->detail : "");
			v->steps_done++;
			v->steps_seconds += ev->seconds;
			break;
	}
	fflush(stdout);
}

/*
 * What a finished bisect found, for people, and its exit code: the first
 * bad commit (EXIT_REGRESSION), none (EXIT_OK) or undecided
 * (EXIT_INCONCLUSIVE).
 */
static int
print_outcome(const struct bisect_config *bc, const struct bisect_result *r,
			  const char *db_path)
{
	int code = EXIT_OK;

	switch (r->status)
	{
		case BISECT_FOUND:
		{
			char margin[48] = "";

			if (bc->run.until.margin > 0)
				snprintf(margin, sizeof(margin), " --max-regression %g%%",
						 100 * bc->run.until.margin);
			printf("\nfirst bad commit: %s \"%s\"\n  evidence (run %" PRId64
				   ", %s against good): %s\n  pgcliff compare %" PRId64
				   ":good %" PRId64 ":%s%s shows it whole\n",
				   r->first_bad, r->subject, r->evidence_run, r->variant,
				   r->evidence ? r->evidence : "", r->evidence_run,
				   r->evidence_run, r->variant, margin);
			code = EXIT_REGRESSION;
			break;
		}
		case BISECT_NO_REGRESSION:
			printf("\nno regression between %s and %s\n", bc->good, bc->bad);
			code = EXIT_OK;
			break;
		case BISECT_UNDECIDED:
			if (r->hi[0])
				printf("\nundecided: the first bad commit is after %.12s, up "
					   "to %.12s\n",
					   r->lo, r->hi);
			else
				printf("\nundecided: %s against %s could not be decided\n",
					   bc->bad, bc->good);
			printf("  a larger --budget (or a longer -T) may decide it\n");
			code = EXIT_INCONCLUSIVE;
			break;
	}
	printf("bisect %" PRId64 " stored in %s: %d step%s, %.0f s\n",
		   r->bisect_id, db_path, r->steps, r->steps == 1 ? "" : "s",
		   r->seconds);
	return code;
}

/* bisect's options into BC, OV, VIEW and the rest; 0, or the exit code. */
static int
parse_options(int argc, char **argv, struct bisect_config *bc,
			  struct recipe_override *ov, struct view *view, int **clients,
			  int *nclients, const char **db, bool *seed_set)
{
	int ch, rc = 0;

	while ((ch = cmd_getopt(&cmd_bisect, argc, argv)) != -1)
	{
		switch (ch)
		{
			case 's':
				bc->source = optarg;
				break;
			case OPT_GOOD:
				bc->good = optarg;
				break;
			case OPT_BAD:
				bc->bad = optarg;
				break;
			case CMD_OPT_METRIC:
			case CMD_OPT_MAX_REGRESSION:
			case CMD_OPT_RULE:
			case CMD_OPT_BUDGET:
			case CMD_OPT_MAX_REPEATS:
			case CMD_OPT_ADJUST:
				if ((rc = cmd_parse_until(&cmd_bisect, ch, optarg,
										  &bc->run.until)) != 0)
					return rc;
				break;
			case 'c':
				free(*clients);
				*clients = NULL;
				if (!cmd_parse_count_list(optarg, 10000, clients, nclients))
				{
					rc = cmd_usage_error(&cmd_bisect,
										 "invalid client list \"%s\"", optarg);
					return rc;
				}
				break;
			case 'T':
				if ((ov->duration_ns = recipe_parse_duration_ns(optarg)) <
					RECIPE_MIN_DURATION_NS)
				{
					rc = cmd_usage_error(&cmd_bisect,
										 "invalid duration \"%s\"", optarg);
					return rc;
				}
				break;
			case CMD_OPT_WARMUP:
				if (recipe_parse_warmup(optarg, &ov->warmup_ns,
										&ov->warmup_stable) < 0)
				{
					rc = cmd_usage_error(&cmd_bisect,
										 "invalid warmup \"%s\" (a duration, "
										 "stable or stable:MAX)",
										 optarg);
					return rc;
				}
				ov->warmup_set = true;
				break;
			case CMD_OPT_BUILD_CACHE:
				bc->run.build_cache = optarg;
				break;
			case CMD_OPT_OS_USER:
				bc->run.os_user = optarg;
				break;
			case CMD_OPT_SEED:
			{
				char *end;

				bc->run.seed = strtoull(optarg, &end, 10);
				if (*optarg == '\0' || *end != '\0' || *optarg == '-')
				{
					rc = cmd_usage_error(&cmd_bisect, "invalid seed \"%s\"",
										 optarg);
					return rc;
				}
				*seed_set = true;
				break;
			}
			case CMD_OPT_KEEP_LOGS:
				bc->run.keep_logs = true;
				break;
			case CMD_OPT_COUNT:
				if ((rc = cmd_parse_count_txns(&cmd_bisect, optarg,
											   &bc->run.count_txns)) != 0)
					return rc;
				break;
			case 'q':
				view->quiet = true;
				break;
			case CMD_OPT_DB:
				*db = optarg;
				break;
			default:
				rc = cmd_option_error(&cmd_bisect, ch, argv);
				return rc;
		}
	}
	return 0;
}

static int
bisect_fn(int argc, char **argv)
{
	struct bisect_config bc;
	struct bisect_result res;
	struct recipe_override ov;
	struct recipe *recipe = NULL;
	struct cmd_ctx ctx;
	struct view view;
	const char *db = NULL, *recipe_path = NULL;
	char *cmdline = NULL;
	char logs_dir[1100];
	int *clients = NULL;
	int nclients = 0, rc = EXIT_OK;
	bool seed_set = false;

	if (cmd_wants_help(&cmd_bisect, argc, argv))
		return EXIT_OK;
	memset(&bc, 0, sizeof(bc));
	memset(&res, 0, sizeof(res));
	memset(&view, 0, sizeof(view));
	bc.run.until.metric = -1;
	memset(&ov, 0, sizeof(ov));
	ov.protocol = -1;
	ov.max_tries = -1;
	if ((rc = parse_options(argc, argv, &bc, &ov, &view, &clients, &nclients,
							&db, &seed_set)) != 0)
		goto out;
	if (optind < argc)
		recipe_path = argv[optind++];
	if (optind < argc)
	{
		rc = cmd_usage_error(&cmd_bisect, "unexpected argument \"%s\"",
							 argv[optind]);
		goto out;
	}
	if (recipe_path == NULL || bc.source == NULL || bc.good == NULL ||
		bc.bad == NULL)
	{
		rc = cmd_usage_error(&cmd_bisect,
							 "a recipe, --source, --good and --bad are "
							 "required");
		goto out;
	}
	if (!seed_set)
		bc.run.seed = cmd_draw_seed();
	/* a counted bisect judges the counts unless told otherwise */
	if (bc.run.count_txns > 0 && bc.run.until.metric < 0)
		bc.run.until.metric = CMP_INSTRUCTIONS;
	cmd_ctx_init(&ctx, &cmd_bisect, db);
	if ((recipe = recipe_load(recipe_path, &ctx.err)) == NULL)
		goto finish;
	ov.clients = clients;
	ov.nclients = nclients;
	if (recipe_override(recipe, &ov, &ctx.err) < 0)
		goto finish;
	bc.run.recipe = recipe;
	bc.run.interrupt = &cmd_interrupted;
	bc.run.on_event = on_run_event;
	bc.run.event_arg = &view;
	bc.on_event = on_bisect_event;
	bc.event_arg = &view;
	cmd_install_signals();
	if (cmd_open_store(&ctx, true) == NULL)
		goto finish;
	if (store_logs_dir(ctx.db_path, logs_dir, sizeof(logs_dir)))
		bc.logs_dir = logs_dir;
	cmdline = run_command_line(argc, argv);
	bc.command_line = cmdline;
	if (bisect_execute(&bc, ctx.store, &res, &ctx.err) < 0)
	{
		if (res.bisect_id > 0)
			fprintf(stderr, "bisect %" PRId64 " stored in %s, unfinished\n",
					res.bisect_id, ctx.db_path);
		goto finish;
	}
	ctx.exit_code = print_outcome(&bc, &res, ctx.db_path);
finish:
	rc = cmd_ctx_finish(&ctx);
out:
	bisect_result_free(&res);
	recipe_free(recipe);
	free(clients);
	free(cmdline);
	return rc;
}
