/*
 * cmd_recipe.c - `pgcliff recipe check`: load and validate recipes
 * (YAML, keys, types, ranges, scripts) without touching any server;
 * `pgcliff recipe explain`: print the plan a run would follow.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cmd.h"
#include "recipe.h"
#include "run.h"

static int recipe_check_fn(int argc, char **argv);

static const struct cmd_opt check_opts[] = {
	CMD_OPT_HEADING("options (as for run; what run would refuse is refused):"),
	CMD_OPT_VARIANT_ENTRY,
	CMD_OPT(CMD_OPT_SOURCE, "source", "DIR", "<dir>",
			"the source tree of variants with a build\n"
			"(over the recipe's source:)"),
	CMD_OPT_END};

const struct cmd cmd_recipe_check = {
	.name = "recipe check",
	.summary = "validate recipes without running them",
	.synopsis = "RECIPE.yaml... [--variant V]... [--source DIR]",
	.about =
		"Loads each recipe and checks its keys, types, ranges, scripts and\n"
		"variants with what run checks before it starts a server: a\n"
		"variant built from source needs --source or the recipe's\n"
		"source:.  Prints 'RECIPE: ok (N points)' per valid recipe;\n"
		"errors name file:line:col.\n",
	.opts = check_opts,
	.exits = "exit codes: 0 all are valid, 64 usage (a variant that needs a\n"
			 "source tree), 65 an invalid recipe.\n",
	.operand = "<yaml>",
	.fn = recipe_check_fn,
};

/* One recipe: loaded, its variables and variants checked as run does. */
static struct recipe *
check_one(const char *path, char *const *vargs, int nvargs, const char *source,
		  struct pgc_error *err)
{
	struct recipe *r = recipe_load(path, err);
	struct variant *vars = NULL;
	int nvars;

	if (r == NULL || recipe_check_variables(r, NULL, 0, err) < 0)
		goto fail;
	if ((nvars = variants_resolve(r, vargs, nvargs, NULL, NULL, &vars, err)) <
		0)
		goto fail;
	if (variants_check_source(vars, nvars, source ? source : r->source, err) <
		0)
	{
		error_at(err, path, 0, 0, 0); /* which recipe says it */
		variants_free(vars, nvars);
		goto fail;
	}
	variants_free(vars, nvars);
	return r;
fail:
	recipe_free(r);
	return NULL;
}

static int
recipe_check_fn(int argc, char **argv)
{
	char **vargs = NULL;
	const char *source = NULL;
	int nvargs = 0, ch, rc = EXIT_OK;

	if (cmd_wants_help(&cmd_recipe_check, argc, argv))
		return EXIT_OK;
	while ((ch = cmd_getopt(&cmd_recipe_check, argc, argv)) != -1)
	{
		switch (ch)
		{
			case CMD_OPT_VARIANT:
				vargs =
					xrealloc(vargs, (size_t) (nvargs + 1) * sizeof(char *));
				vargs[nvargs++] = optarg;
				break;
			case CMD_OPT_SOURCE:
				source = optarg;
				break;
			default:
				free(vargs);
				return cmd_option_error(&cmd_recipe_check, ch, argv);
		}
	}
	if (optind >= argc)
	{
		free(vargs);
		return cmd_usage_error(&cmd_recipe_check, "no recipe given");
	}
	for (int i = optind; i < argc; i++)
	{
		struct pgc_error err;
		struct recipe *r;
		int npoints;

		error_clear(&err);
		if ((r = check_one(argv[i], vargs, nvargs, source, &err)) == NULL)
		{
			cmd_print_error(&err);
			rc = cmd_exit_code(&err) > rc ? cmd_exit_code(&err) : rc;
			continue;
		}
		npoints = (r->nsweep_clients ? r->nsweep_clients : 1) * r->repeat *
				  (r->nvariants ? r->nvariants : 1);
		printf("%s: ok (recipe %s, %d workload%s, %d variant%s, %d point%s)\n",
			   argv[i], r->name, r->nworkloads, r->nworkloads == 1 ? "" : "s",
			   r->nvariants ? r->nvariants : 1, r->nvariants > 1 ? "s" : "",
			   npoints, npoints == 1 ? "" : "s");
		recipe_free(r);
	}
	free(vargs);
	return rc;
}

static int recipe_explain_fn(int argc, char **argv);

static const struct cmd_opt explain_opts[] = {
	CMD_OPT_HEADING("options (as for run):"),
	CMD_OPT_CLIENTS_ENTRY,
	CMD_OPT_REPEAT_ENTRY,
	CMD_OPT_VARIANT_ENTRY,
	CMD_OPT_BINDIR_ENTRY,
	CMD_OPT(CMD_OPT_TARGET, "target", "primary=CONNINFO",
			"primary=", "the server the variants run on"),
	CMD_OPT(CMD_OPT_SEED, "seed", "N", NULL,
			"the seed of the order (default: random,\n"
			"printed; give it to run for the same plan)"),
	CMD_OPT_END};

const struct cmd cmd_recipe_explain = {
	.name = "recipe explain",
	.summary = "print the plan of a run: variants, blocks, order",
	.synopsis = "RECIPE.yaml [OPTIONS]",
	.about =
		"Prints the variants (with their server settings), the workloads and\n"
		"the order in which `pgcliff run` with the same options would measure\n"
		"the points: with several variants, counterbalanced blocks (AB, BA,\n"
		"...; a Williams design for three or more) with the sweep points of\n"
		"each block in a seeded random order.\n",
	.opts = explain_opts,
	.exits = "exit codes: 0 ok, 64 usage, 65 an invalid recipe.\n",
	.operand = "<yaml>",
	.fn = recipe_explain_fn,
};

/* How long the run will likely take, as run sizes its budget. */
static void
print_estimate(const struct recipe *r, char *const *vargs, int nvargs,
			   const char *bindir, const char *target, uint64_t seed)
{
	struct run_config c;
	struct pgc_error err;
	struct run *run;
	int64_t block_ns;

	memset(&c, 0, sizeof(c));
	c.recipe = r;
	c.variant_args = vargs;
	c.nvariant_args = nvargs;
	c.bindir = bindir;
	c.target = target;
	c.seed = seed;
	error_clear(&err);
	if ((run = run_new(&c, &err)) == NULL)
		return;
	block_ns = run_block_estimate_ns(run);
	if (block_ns > 0)
	{
		double s = (double) block_ns * run_nblocks(run) / 1e9;

		printf("\nestimated: about %.0f %s (%d block%s of about %.1f s: "
			   "windows, warm-ups, connections, restarts; builds, init and "
			   "setup not counted)\n",
			   s >= 120 ? s / 60 : s, s >= 120 ? "min" : "s", run_nblocks(run),
			   run_nblocks(run) == 1 ? "" : "s", (double) block_ns / 1e9);
	}
	else
		printf("\nestimated: as long as the transactions take (-t)\n");
	run_free(run);
}

static void
print_plan(const struct recipe *r, const struct variant *vars, int nvars,
		   const int *sweep, int nsweep, int repeat, uint64_t seed)
{
	struct recipe_plan_step *steps;
	int n = recipe_plan_for(r, nvars, nsweep ? nsweep : 1, nsweep > 0, repeat,
							seed, &steps);
	int64_t dur = r->duration_ns + (r->warmup_stable ? 0 : r->warmup_ns);
	/* a block's points of one variant: the sweep, and the workloads
	 * measured apart with clients of their own */
	int npoints = nvars > 0 && repeat > 0 ? n / (nvars * repeat) : n;

	printf("recipe %s: %d variant%s x %d point%s x %d repeat%s = %d "
		   "measurement%s of %.3g s%s, seed %" PRIu64 "\n",
		   r->name, nvars, nvars == 1 ? "" : "s", npoints,
		   npoints == 1 ? "" : "s", repeat, repeat == 1 ? "" : "s", n,
		   n == 1 ? "" : "s", (double) dur / 1e9,
		   r->warmup_stable ? " after a warm-up until stable" : "", seed);
	printf("\nvariants:\n");
	if (variants_need_source(vars, nvars))
		printf("  (built from %s; pgcliff run builds what the cache lacks)\n",
			   r->source ? r->source : "--source DIR");
	for (int i = 0; i < nvars; i++)
	{
		struct strbuf g = STRBUF_INIT;

		struct strbuf b = STRBUF_INIT;

		variant_describe_gucs(&vars[i], &g);
		variant_describe_build(&vars[i], &b);
		printf("  %-12s %s%s%s%s%s%s%s\n", vars[i].name,
			   vars[i].target ? "external" : "managed",
			   vars[i].bindir ? ", bindir " : "",
			   vars[i].bindir ? vars[i].bindir : "",
			   b.len ? ", built from source: " : "", b.buf ? b.buf : "",
			   g.len ? ", server: " : "", g.len ? g.buf : "");
		strbuf_release(&g);
		strbuf_release(&b);
	}
	printf("\nworkloads (%s):\n", r->separately
									  ? "measured separately, one point each"
									  : "measured together, at once");
	for (int i = 0; i < r->nworkloads; i++)
		printf("  %-12s %s, %s\n", r->workloads[i].name,
			   recipe_protocol_name(r->workloads[i].protocol),
			   r->workloads[i].swept && nsweep ? "swept" : "fixed clients");
	if (r->nwindows)
	{
		printf("\nwindows (seconds of each measured window):\n");
		for (int i = 0; i < r->nwindows; i++)
			printf("  %-12s [%d, %d)\n", r->windows[i].name,
				   r->windows[i].start_s, r->windows[i].end_s);
	}
	if (nvars > 1)
		printf("\nblocks (%s):\n",
			   r->restart_per_block
				   ? "each variant's server restarted for each block"
				   : "servers stay up for the whole run");
	else
		printf("\norder:\n");
	for (int i = 0; r->separately && i < n; i++)
		printf("  block %d  %-12s %-14s clients %d\n", steps[i].block + 1,
			   vars[steps[i].variant].name,
			   r->workloads[steps[i].workload].name,
			   r->workloads[steps[i].workload].swept && nsweep
				   ? sweep[steps[i].sweep]
				   : r->workloads[steps[i].workload].clients);
	for (int i = 0; !r->separately && i < n;)
	{
		int j = i;

		printf("  block %d  %-12s clients", steps[i].block + 1,
			   vars[steps[i].variant].name);
		for (; j < n && steps[j].block == steps[i].block &&
			   steps[j].variant == steps[i].variant &&
			   (nvars > 1 || steps[j].sweep == steps[i].sweep);
			 j++)
			if (nvars > 1 || j == i)
				printf(" %d", nsweep ? sweep[steps[j].sweep] : 0);
		printf("\n");
		i = j;
	}
	free(steps);
}

static int
recipe_explain_fn(int argc, char **argv)
{
	const struct cmd *c = &cmd_recipe_explain;
	int *clients = NULL, nclients = 0, repeat = 0, ch, nvars;
	char **vargs = NULL;
	int nvargs = 0;
	const char *bindir = NULL, *target = NULL;
	uint64_t seed = 0;
	bool seed_set = false;
	char *end;
	struct recipe *r;
	struct variant *vars = NULL;
	struct recipe_override ov;
	struct cmd_ctx ctx;
	int rc = EXIT_OK;

	if (cmd_wants_help(c, argc, argv))
		return EXIT_OK;
	memset(&ov, 0, sizeof(ov));
	while ((ch = cmd_getopt(&cmd_recipe_explain, argc, argv)) != -1)
	{
		switch (ch)
		{
			case 'c':
				free(clients);
				if (!cmd_parse_count_list(optarg, 100000, &clients, &nclients))
				{
					free(vargs);
					return cmd_usage_error(c, "invalid client list \"%s\"",
										   optarg);
				}
				break;
			case CMD_OPT_REPEAT:
				if (!cmd_parse_count(optarg, 1000, &repeat))
					rc = cmd_usage_error(c, "invalid repeat count \"%s\"",
										 optarg);
				break;
			case CMD_OPT_VARIANT:
				vargs =
					xrealloc(vargs, (size_t) (nvargs + 1) * sizeof(char *));
				vargs[nvargs++] = optarg;
				break;
			case CMD_OPT_BINDIR:
				bindir = optarg;
				break;
			case CMD_OPT_TARGET:
				if (strncmp(optarg, "primary=", 8) != 0)
					rc = cmd_usage_error(c, "--target wants primary=CONNINFO");
				target = optarg + 8;
				break;
			case CMD_OPT_SEED:
				errno = 0;
				seed = strtoull(optarg, &end, 10);
				if (*end || errno || optarg[0] == '-')
					rc = cmd_usage_error(c, "invalid seed \"%s\"", optarg);
				seed_set = true;
				break;
			default:
				rc = cmd_option_error(c, ch, argv);
		}
		if (rc)
		{
			free(clients);
			free(vargs);
			return rc;
		}
	}
	if (optind + 1 != argc)
	{
		free(clients);
		free(vargs);
		return cmd_usage_error(c, optind >= argc ? "no recipe given"
												 : "give one recipe");
	}
	if (!seed_set &&
		getrandom(&seed, sizeof(seed), 0) != (ssize_t) sizeof(seed))
		seed = 1;
	seed &= INT64_MAX; /* as run stores it */
	cmd_ctx_init(&ctx, &cmd_recipe_explain, NULL);
	r = recipe_load(argv[optind], &ctx.err);
	ov.clients = clients;
	ov.nclients = nclients;
	ov.repeat = repeat;
	ov.protocol = -1;
	ov.max_tries = -1;
	if (r != NULL && recipe_override(r, &ov, &ctx.err) == 0 &&
		(nvars = variants_resolve(r, vargs, nvargs, bindir, target, &vars,
								  &ctx.err)) >= 0)
	{
		print_plan(r, vars, nvars, r->sweep_clients, r->nsweep_clients,
				   r->repeat, seed);
		variants_free(vars, nvars);
		print_estimate(r, vargs, nvargs, bindir, target, seed);
	}
	recipe_free(r);
	free(clients);
	free(vargs);
	ctx.exit_code = rc;
	return cmd_ctx_finish(&ctx);
}
