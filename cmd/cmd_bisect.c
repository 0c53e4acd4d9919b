/*
 * cmd_bisect.c - `pgcliff bisect`: the first commit between a good and a
 * bad revision that makes a recipe's figure worse (drivers/bisect).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "cmd.h"

static int bisect_fn(int argc, char **argv);

const struct cmd cmd_bisect = {
	.name = "bisect",
	.summary = "find the commit that made a recipe slower",
	.usage =
		"usage: pgcliff bisect RECIPE.yaml --source GIT_TREE --good REV --bad "
		"REV [OPTIONS]\n"
		"\n"
		"Finds the first commit after GOOD up to BAD of the git checkout\n"
		"GIT_TREE that makes the recipe's figure worse.  Each step is a run\n"
		"(stored) of two variants built from the checkout: good, and the\n"
		"commit under test, built over good's tree so that make recompiles\n"
		"only the files that differ (the build cache keeps both).  A run adds\n"
		"blocks until the gate's verdict is decided, as run --until-decided\n"
		"does; the bad commit is measured first, and a step that stays\n"
		"INCONCLUSIVE within its budget ends the bisect undecided, with the\n"
		"range it narrowed the search to: never a guess.  The recipe may not\n"
		"have variants of its own (its server: applies to both).\n"
		"\n"
		"options:\n"
		"      --source DIR        the git checkout (required)\n"
		"      --good REV          a commit without the regression (required)\n"
		"      --bad REV           a later commit with it (required)\n"
		"      --metric M          tps (default: the recipe's measure:, else\n"
		"                          tps), latency_avg, p50 ... p999, max, dip,\n"
		"                          probe:PROBE.FIGURE, profile:NODE:FUNCTION,\n"
		"                          instructions, l1_misses, ll_misses\n"
		"      --count N           each step counts the work per transaction\n"
		"                          over N transactions per client under\n"
		"                          callgrind (see run --help); the metric\n"
		"                          becomes instructions\n"
		"      --max-regression P  the margin (default 3% for tps, 5% for\n"
		"                          latencies and the dip, 1% for counts)\n"
		"      --rule estimate|strict\n"
		"                          what is a REGRESSION (see compare --help)\n"
		"      --adjust steal|none what each block's B/A is adjusted for (see\n"
		"                          compare --help; default steal)\n"
		"      --budget DUR        each step's measuring at most (default\n"
		"                          10min; builds not counted)\n"
		"      --max-repeats N     each step's blocks at most\n"
		"  -c, --clients LIST      client counts (over the recipe's sweep)\n"
		"  -T, --duration DUR      each point's window\n"
		"      --warmup DUR|stable[:MAX]\n"
		"                          unmeasured time before each window; stable:\n"
		"                          until the throughput is stable (at most 60s)\n"
		"      --build-cache DIR   the build cache (see pgcliff build --help)\n"
		"      --os-user USER      run the managed servers as USER\n"
		"      --seed N            the runs' seed (default: random)\n"
		"      --keep-logs         keep the servers' logs (STORE-logs/)\n" CMD_HELP_DB
		"  -q, --quiet             no build steps, only the bisect's lines\n"
		"\n"
		"exit codes: 0 no regression between GOOD and BAD, 1 the first bad\n"
		"commit found, 2 undecided (a step stayed INCONCLUSIVE), 64 usage\n"
		"(revisions, a recipe with variants), 65 an invalid recipe, 69 a\n"
		"build or a server failed, 70 store, 75 interrupted.\n",
	.fn = bisect_fn,
};

struct view
{
	bool quiet;
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
	(void) arg;
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
			printf("step %d: %.12s \"%s\" against good (%d more at most)\n",
				   ev->step, ev->revision, ev->subject, ev->steps_left);
			break;
		case BISECT_EV_STEP_END:
			printf("step %d: %.12s is %s (run %" PRId64 ", %.0f s): %s\n",
				   ev->step, ev->revision,
				   ev->outcome == CMP_OUTCOME_REGRESSION      ? "bad"
				   : ev->outcome == CMP_OUTCOME_NO_REGRESSION ? "good"
															  : "undecided",
				   ev->run_id, ev->seconds, ev->detail ? ev->detail : "");
			break;
	}
	fflush(stdout);
}

static int
bisect_fn(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"source", required_argument, NULL, 's'},
		{"good", required_argument, NULL, 1},
		{"bad", required_argument, NULL, 2},
		{"metric", required_argument, NULL, 3},
		{"max-regression", required_argument, NULL, 4},
		{"rule", required_argument, NULL, 5},
		{"budget", required_argument, NULL, 6},
		{"max-repeats", required_argument, NULL, 7},
		{"adjust", required_argument, NULL, 13},
		{"clients", required_argument, NULL, 'c'},
		{"duration", required_argument, NULL, 'T'},
		{"warmup", required_argument, NULL, 8},
		{"build-cache", required_argument, NULL, 9},
		{"os-user", required_argument, NULL, 10},
		{"seed", required_argument, NULL, 11},
		{"keep-logs", no_argument, NULL, 12},
		{"count", required_argument, NULL, 14},
		{"quiet", no_argument, NULL, 'q'},
		CMD_LONGOPT_DB,
		{NULL, 0, NULL, 0}};
	struct bisect_config bc;
	struct bisect_result res;
	struct recipe *recipe = NULL;
	struct cmd_ctx ctx;
	struct view view;
	const char *db = NULL, *recipe_path = NULL;
	char *cmdline = NULL;
	char logs_dir[1100];
	int *clients = NULL;
	int nclients = 0, ch, rc = EXIT_OK;
	bool seed_set = false;

	if (cmd_wants_help(&cmd_bisect, argc, argv))
		return EXIT_OK;
	memset(&bc, 0, sizeof(bc));
	memset(&res, 0, sizeof(res));
	memset(&view, 0, sizeof(view));
	bc.run.until.metric = -1;
	bc.run.until.budget_ns = 600 * 1000000000LL;
	bc.run.protocol = -1;
	bc.run.max_tries = -1;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":s:c:T:q", longopts, NULL)) != -1)
	{
		switch (ch)
		{
			case 's':
				bc.source = optarg;
				break;
			case 1:
				bc.good = optarg;
				break;
			case 2:
				bc.bad = optarg;
				break;
			case 3:
			case 4:
			case 5:
			case 6:
			case 7:
			case 13:
			{
				static const char *const names[] = {"metric", "max-regression",
													"rule", "budget",
													"max-repeats"};

				if ((rc = cmd_parse_until(&cmd_bisect,
										  ch == 13 ? "adjust" : names[ch - 3],
										  optarg, &bc.run.until)) != 0)
					goto out;
				break;
			}
			case 'c':
				free(clients);
				clients = NULL;
				if (!cmd_parse_count_list(optarg, 10000, &clients, &nclients))
				{
					rc = cmd_usage_error(&cmd_bisect,
										 "invalid client list \"%s\"", optarg);
					goto out;
				}
				break;
			case 'T':
				if ((bc.run.duration_ns = recipe_parse_duration_ns(optarg)) <
					RECIPE_MIN_DURATION_NS)
				{
					rc = cmd_usage_error(&cmd_bisect,
										 "invalid duration \"%s\"", optarg);
					goto out;
				}
				break;
			case 8:
				if (recipe_parse_warmup(optarg, &bc.run.warmup_ns,
										&bc.run.warmup_stable) < 0)
				{
					rc = cmd_usage_error(&cmd_bisect,
										 "invalid warmup \"%s\" (a duration, "
										 "stable or stable:MAX)",
										 optarg);
					goto out;
				}
				bc.run.warmup_set = true;
				break;
			case 9:
				bc.run.build_cache = optarg;
				break;
			case 10:
				bc.run.os_user = optarg;
				break;
			case 11:
			{
				char *end;

				bc.run.seed = strtoull(optarg, &end, 10);
				if (*optarg == '\0' || *end != '\0' || *optarg == '-')
				{
					rc = cmd_usage_error(&cmd_bisect, "invalid seed \"%s\"",
										 optarg);
					goto out;
				}
				seed_set = true;
				break;
			}
			case 12:
				bc.run.keep_logs = true;
				break;
			case 14:
				if ((rc = cmd_parse_count_txns(&cmd_bisect, optarg,
											   &bc.run.count_txns)) != 0)
					goto out;
				break;
			case 'q':
				view.quiet = true;
				break;
			case CMD_OPT_DB:
				db = optarg;
				break;
			default:
				rc = cmd_option_error(&cmd_bisect, ch, argv);
				goto out;
		}
	}
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
	bc.run.recipe = recipe;
	bc.run.clients = clients;
	bc.run.nclients = nclients;
	bc.run.interrupt = &cmd_interrupted;
	bc.run.on_event = on_run_event;
	bc.run.event_arg = &view;
	bc.on_event = on_bisect_event;
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
	switch (res.status)
	{
		case BISECT_FOUND:
		{
			char margin[48] = "";

			if (bc.run.until.margin > 0)
				snprintf(margin, sizeof(margin), " --max-regression %g%%",
						 100 * bc.run.until.margin);
			printf("\nfirst bad commit: %s \"%s\"\n  evidence (run %" PRId64
				   ", %s against good): %s\n  pgcliff compare %" PRId64
				   ":good %" PRId64 ":%s%s shows it whole\n",
				   res.first_bad, res.subject, res.evidence_run, res.variant,
				   res.evidence ? res.evidence : "", res.evidence_run,
				   res.evidence_run, res.variant, margin);
			ctx.exit_code = EXIT_REGRESSION;
			break;
		}
		case BISECT_NO_REGRESSION:
			printf("\nno regression between %s and %s\n", bc.good, bc.bad);
			ctx.exit_code = EXIT_OK;
			break;
		case BISECT_UNDECIDED:
			if (res.hi[0])
				printf("\nundecided: the first bad commit is after %.12s, up "
					   "to %.12s\n",
					   res.lo, res.hi);
			else
				printf("\nundecided: %s against %s could not be decided\n",
					   bc.bad, bc.good);
			printf("  a larger --budget (or a longer -T) may decide it\n");
			ctx.exit_code = EXIT_INCONCLUSIVE;
			break;
	}
	printf("bisect %" PRId64 " stored in %s: %d step%s, %.0f s\n",
		   res.bisect_id, ctx.db_path, res.steps, res.steps == 1 ? "" : "s",
		   res.seconds);
finish:
	rc = cmd_ctx_finish(&ctx);
out:
	bisect_result_free(&res);
	recipe_free(recipe);
	free(clients);
	free(cmdline);
	return rc;
}
