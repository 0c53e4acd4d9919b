/*
 * test_run.c - what of cmd/conductor/run needs no server: the command line as
 * stored (passwords out), the command line over the recipe
 * (recipe_override), and planning (run_new): variants, steps, -D, with the
 * errors a command line gets.
 */
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "test.h"

static const char *const recipe_text =
	"recipe: t\n"
	"duration: 20s\n"
	"repeat: 2\n"
	"workloads:\n"
	"  w: {script: \"SELECT :n;\"}\n"
	"sweep: {clients: [1, 2, 4]}\n"
	"variables: {n: 1}\n"
	"windows: {before: [0s, 5s], during: [5s, 10s]}\n"
	"variants:\n"
	"  a: {server: {work_mem: 4MB}}\n"
	"  b: {server: {work_mem: 8MB}}\n";

static volatile sig_atomic_t never;

int
main(void)
{
	struct pgc_error err;
	struct recipe *r;
	struct run_config c;
	struct run *run;

	/* the stored command line: shell-quoted, no password of any target */
	{
		char *argv[] = {"run",
						"x.yaml",
						"--target",
						"primary=host=h password=p1",
						"--target=standby=postgresql://u:p2@h/db",
						"--variant",
						"v:target=host=h password=p3",
						"-D",
						"a=it's"};
		char *line = run_command_line((int) lengthof(argv), argv);

		CHECK(strstr(line, "p1") == NULL);
		CHECK(strstr(line, "p2") == NULL);
		CHECK(strstr(line, "p3") == NULL);
		CHECK(strncmp(line, "pgcliff run x.yaml --target ", 28) == 0);
		CHECK(strstr(line, "'a=it'\\''s'") != NULL);
		free(line);
	}

	error_clear(&err);
	r = recipe_load_text("t.yaml", recipe_text, &err);
	CHECK(r != NULL);
	memset(&c, 0, sizeof(c));
	c.recipe = r;
	c.interrupt = &never;
	c.seed = 7;

	/* two variants x three points x two repeats */
	run = run_new(&c, &err);
	CHECK(run != NULL);
	CHECK_INT(run_nvariants(run), 2);
	CHECK_INT(run_nsteps(run), 12);
	CHECK(run_id(run) == 0);
	run_free(run);

	/* -c replaces the sweep (over the recipe, once); --variant adds a
	 * third */
	{
		static const int clients[] = {8};
		char *vargs[] = {"c:server.work_mem=16MB"};
		struct recipe_override ov = {.clients = clients,
									 .nclients = 1,
									 .protocol = -1,
									 .max_tries = -1};
		struct recipe *r2 = recipe_load_text("t.yaml", recipe_text, &err);

		CHECK(r2 != NULL);
		CHECK_INT(recipe_override(r2, &ov, &err), 0);
		CHECK_INT(r2->nsweep_clients, 1);
		CHECK_INT(r2->sweep_clients[0], 8);
		c.recipe = r2;
		c.variant_args = vargs;
		c.nvariant_args = 1;
		run = run_new(&c, &err);
		CHECK(run != NULL);
		CHECK_INT(run_nvariants(run), 3);
		CHECK_INT(run_nsteps(run), 6);
		run_free(run);
		c.recipe = r;
		c.variant_args = NULL;
		c.nvariant_args = 0;
		recipe_free(r2);
	}

	/* a window past -T is a usage error, and the recipe stays as it was */
	{
		struct recipe_override ov = {
			.duration_ns = 8000000000LL, .protocol = -1, .max_tries = -1};

		error_clear(&err);
		CHECK_INT(recipe_override(r, &ov, &err), -1);
		CHECK_INT(err.kind, PGC_ERR_USAGE);
		CHECK(strstr(err.message, "window 'during'") != NULL);
		CHECK(r->duration_ns == 20000000000LL);
	}

	/*
	 * The other options over every workload: -T turns -t recipes into
	 * durations, -j gives way to nothing (the sweep's jobs list too),
	 * --max-tries 0 is unlimited, -M, -R, -L, -C, --warmup, --repeat.
	 */
	{
		static const char *const text =
			"recipe: u\n"
			"duration: 5s\n"
			"workloads:\n"
			"  w: {script: \"SELECT 1;\", transactions: 10, max_tries: 3}\n"
			"  v: {script: \"SELECT 2;\", clients: 4, jobs: 1}\n"
			"sweep: {clients: [1, 2], jobs: [1, 2], workloads: [w]}\n";
		struct recipe_override ov = {.duration_ns = 3000000000LL,
									 .jobs = 2,
									 .protocol = RECIPE_PROTO_PREPARED,
									 .max_tries = 0,
									 .rate = 50,
									 .latency_limit_ns = 7000000,
									 .warmup_ns = 1000000000LL,
									 .warmup_set = true,
									 .repeat = 3,
									 .reconnect = true};
		struct recipe *r3 = recipe_load_text("u.yaml", text, &err);

		CHECK(r3 != NULL);
		CHECK_INT(recipe_override(r3, &ov, &err), 0);
		CHECK(r3->duration_ns == 3000000000LL);
		CHECK(r3->warmup_ns == 1000000000LL);
		CHECK_INT(r3->repeat, 3);
		CHECK(r3->sweep_jobs_list == NULL);
		CHECK_INT(recipe_sweep_jobs(r3, 1, 2), 2);
		for (int i = 0; i < r3->nworkloads; i++)
		{
			const struct recipe_workload *w = &r3->workloads[i];

			CHECK(w->transactions == 0);
			CHECK_INT(w->jobs, 2);
			CHECK_INT((int) w->protocol, (int) RECIPE_PROTO_PREPARED);
			CHECK_INT(w->max_tries, INT32_MAX);
			CHECK(w->rate == 50);
			CHECK(w->latency_limit_ns == 7000000);
			CHECK(w->reconnect);
		}
		recipe_free(r3);
	}

	/* -D: a bad name is refused (the recipe unchanged); a good one is
	 * taken over variables:, a new one after them; a later -D wins */
	{
		char *bad[] = {"m=2", "1x=3"};
		char *good[] = {"n=5", "m=6", "n=7"};
		struct recipe_override ov = {
			.defines = bad, .ndefines = 2, .protocol = -1, .max_tries = -1};

		error_clear(&err);
		CHECK_INT(recipe_override(r, &ov, &err), -1);
		CHECK(strstr(err.message, "invalid variable name \"1x\"") != NULL);
		CHECK_INT(r->nvariables, 1);
		ov.defines = good;
		ov.ndefines = 3;
		CHECK_INT(recipe_override(r, &ov, &err), 0);
		CHECK_INT(r->nvariables, 2);
		CHECK_STR(r->variables[0].name, "n");
		CHECK_STR(r->variables[0].value, "7");
		CHECK_STR(r->variables[1].name, "m");
		CHECK_STR(r->variables[1].value, "6");
		run = run_new(&c, &err);
		CHECK(run != NULL);
		run_free(run);
	}

	/* --variant with a malformed key */
	{
		char *vargs[] = {"a:nonsense=1"};

		c.variant_args = vargs;
		c.nvariant_args = 1;
		error_clear(&err);
		CHECK(run_new(&c, &err) == NULL);
		CHECK_INT(err.kind, PGC_ERR_USAGE);
	}
	recipe_free(r);
	TEST_MAIN_END("test_run");
}
