/*
 * test_run.c - what of cmd/conductor/run needs no server: the command line as
 * stored (passwords out), and planning (run_new): variants, steps, -D and
 * windows against -T, with the errors a command line gets.
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
	c.protocol = -1;
	c.max_tries = -1;
	c.interrupt = &never;
	c.seed = 7;

	/* two variants x three points x two repeats */
	run = run_new(&c, &err);
	CHECK(run != NULL);
	CHECK_INT(run_nvariants(run), 2);
	CHECK_INT(run_nsteps(run), 12);
	CHECK(run_id(run) == 0);
	run_free(run);

	/* -c replaces the sweep; --variant adds a third */
	{
		static const int clients[] = {8};
		char *vargs[] = {"c:server.work_mem=16MB"};

		c.clients = clients;
		c.nclients = 1;
		c.variant_args = vargs;
		c.nvariant_args = 1;
		run = run_new(&c, &err);
		CHECK(run != NULL);
		CHECK_INT(run_nvariants(run), 3);
		CHECK_INT(run_nsteps(run), 6);
		run_free(run);
		c.clients = NULL;
		c.nclients = 0;
		c.variant_args = NULL;
		c.nvariant_args = 0;
	}

	/* a window past -T is a usage error */
	c.duration_ns = 8000000000LL;
	error_clear(&err);
	CHECK(run_new(&c, &err) == NULL);
	CHECK_INT(err.kind, PGC_ERR_USAGE);
	CHECK(strstr(err.message, "window 'during'") != NULL);
	c.duration_ns = 0;

	/* -D: a bad name is refused; a good one is taken over variables: */
	{
		char *bad[] = {"1x=3"};
		char *good[] = {"n=5"};

		c.defines = bad;
		c.ndefines = 1;
		error_clear(&err);
		CHECK(run_new(&c, &err) == NULL);
		CHECK(strstr(err.message, "invalid variable name") != NULL);
		c.defines = good;
		run = run_new(&c, &err);
		CHECK(run != NULL);
		run_free(run);
		c.defines = NULL;
		c.ndefines = 0;
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
