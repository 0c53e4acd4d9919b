/*
 * cmd_recipe.c - `pgcliff recipe check`: load and validate recipes
 * (YAML, keys, types, ranges, scripts) without touching any server.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "recipe.h"

static int recipe_check_fn(int argc, char **argv);

const struct cmd cmd_recipe_check = {
	.name = "recipe check",
	.summary = "validate recipes without running them",
	.usage =
		"usage: pgcliff recipe check RECIPE.yaml...\n"
		"\n"
		"Loads each recipe and checks its keys, types, ranges and scripts.\n"
		"Prints 'RECIPE: ok (N points)' per valid recipe; errors name\n"
		"file:line:col.  Exit 0 when all are valid, 65 otherwise.\n",
	.fn = recipe_check_fn,
};

static int
recipe_check_fn(int argc, char **argv)
{
	int rc = EXIT_OK;

	if (cmd_wants_help(&cmd_recipe_check, argc, argv))
		return EXIT_OK;
	if (argc < 2)
		return cmd_usage_error(&cmd_recipe_check, "no recipe given");
	for (int i = 1; i < argc; i++)
	{
		struct pgc_error err;
		struct recipe *r;
		int npoints;

		if (argv[i][0] == '-')
			return cmd_usage_error(&cmd_recipe_check, "unknown option '%s'",
								   argv[i]);
		error_clear(&err);
		r = recipe_load(argv[i], &err);
		if (r == NULL)
		{
			cmd_print_error(&err);
			rc = cmd_exit_code(&err) > rc ? cmd_exit_code(&err) : rc;
			continue;
		}
		npoints = (r->nsweep_clients ? r->nsweep_clients : 1) * r->repeat;
		printf("%s: ok (recipe %s, %d workload%s, %d point%s)\n", argv[i],
			   r->name, r->nworkloads, r->nworkloads == 1 ? "" : "s", npoints,
			   npoints == 1 ? "" : "s");
		recipe_free(r);
	}
	return rc;
}
