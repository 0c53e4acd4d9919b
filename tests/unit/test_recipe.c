/*
 * test_recipe.c - data-driven recipe loader tests.
 *
 *   test_recipe BAD_DIR GOOD_DIR...
 *
 * Every BAD_DIR/NAME.yaml starts with comment lines naming its exact
 * diagnostic ("# error: LINE:COL: MESSAGE", optional "# hint: HINT");
 * adding a case is adding a file.  Every *.yaml in the GOOD_DIRs must
 * load.  Also unit checks of durations and the loaded model.
 */
#include <dirent.h>
#include <stdlib.h>

#include "recipe.h"
#include "test.h"

/* Value of the "# KEY: " header line in TEXT, or NULL. Caller frees. */
static char *
header(const char *text, const char *key)
{
	char prefix[64];
	const char *p = text;

	snprintf(prefix, sizeof(prefix), "# %s: ", key);
	while (p && *p == '#')
	{
		if (strncmp(p, prefix, strlen(prefix)) == 0)
		{
			p += strlen(prefix);
			return xstrndup(p, strcspn(p, "\n"));
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static int
yaml_files(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	*out = NULL;
	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
	{
		size_t len = strlen(de->d_name);

		if (len < 6 || strcmp(de->d_name + len - 5, ".yaml") != 0)
			continue;
		*out = xrealloc(*out, (size_t) (n + 1) * sizeof(char *));
		(*out)[n++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	return n;
}

static int nbad;

static void
check_bad(const char *path)
{
	struct pgc_error err;
	char *text = file_read_all(path, NULL, &err);
	char *want = text ? header(text, "error") : NULL;
	char *want_hint = text ? header(text, "hint") : NULL;
	char got[1200];
	struct recipe *r;

	CHECK(want != NULL);
	if (want == NULL)
	{
		fprintf(stderr, "  %s: no '# error:' header\n", path);
		free(text);
		return;
	}
	error_clear(&err);
	r = recipe_load(path, &err);
	if (r && recipe_check_variables(r, NULL, 0, &err) < 0)
	{
		recipe_free(r);
		r = NULL;
	}
	CHECK(r == NULL);
	recipe_free(r);
	snprintf(got, sizeof(got), "%d:%d: %s", err.line, err.col, err.message);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "  in %s\n", path);
	CHECK_STR(got, want);
	CHECK(err.kind == PGC_ERR_RECIPE || err.kind == PGC_ERR_IO);
	if (want_hint || err.hint[0])
	{
		if (strcmp(err.hint, want_hint ? want_hint : "") != 0)
			fprintf(stderr, "  in %s\n", path);
		CHECK_STR(err.hint, want_hint ? want_hint : "");
	}
	nbad++;
	free(want);
	free(want_hint);
	free(text);
}

/*
 * The plan: every block holds every variant once with one order of the
 * points; over a full cycle of blocks (N for even N, 2N for odd) each
 * variant takes each position equally often and follows each other
 * variant equally often (a Williams design); two variants alternate AB, BA.
 */
static void
test_plan(void)
{
	struct recipe_plan_step *st;
	int n;

	for (int nv = 2; nv <= 7; nv++)
	{
		int cycle = nv % 2 ? 2 * nv : nv;
		int pos[8][8] = {{0}}, follows[8][8] = {{0}};

		n = recipe_plan(nv, 3, cycle, 42, &st);
		CHECK_INT(n, nv * 3 * cycle);
		for (int b = 0; b < cycle; b++)
		{
			const struct recipe_plan_step *blk = &st[b * nv * 3];
			int seen = 0;

			for (int k = 0; k < nv; k++)
			{
				int v = blk[k * 3].variant;

				seen |= 1 << v;
				pos[v][k]++;
				if (k > 0)
					follows[blk[(k - 1) * 3].variant][v]++;
				for (int i = 0; i < 3; i++)
				{
					CHECK_INT(blk[k * 3 + i].block, b);
					CHECK_INT(blk[k * 3 + i].variant, v);
					CHECK_INT(blk[k * 3 + i].sweep, blk[i].sweep);
				}
			}
			CHECK_INT(seen, (1 << nv) - 1);
		}
		for (int v = 0; v < nv; v++)
			for (int w = 0; w < nv; w++)
			{
				CHECK_INT(pos[v][w], cycle / nv);
				if (v != w)
					CHECK_INT(follows[v][w], cycle / nv);
			}
		free(st);
	}
	/* two variants: AB, BA, AB */
	n = recipe_plan(2, 1, 3, 7, &st);
	CHECK_INT(n, 6);
	CHECK_INT(st[0].variant * 100000 + st[1].variant * 10000 +
				  st[2].variant * 1000 + st[3].variant * 100 +
				  st[4].variant * 10 + st[5].variant,
			  11001); /* 01 10 01 */
	free(st);
	/* the same seed, the same plan; one variant: points in order, repeats
	 * in a row */
	{
		struct recipe_plan_step *a, *b;

		recipe_plan(3, 5, 4, 99, &a);
		recipe_plan(3, 5, 4, 99, &b);
		CHECK(memcmp(a, b, 60 * sizeof(*a)) == 0);
		free(a);
		free(b);
		n = recipe_plan(1, 2, 2, 99, &a);
		CHECK_INT(a[0].sweep * 1000 + a[1].sweep * 100 + a[2].sweep * 10 +
					  a[3].sweep,
				  11);
		CHECK_INT(a[1].block, 1);
		free(a);
	}
}

int
main(int argc, char **argv)
{
	char **files;
	int n;
	struct pgc_error err;
	struct recipe *r;

	if (argc < 2)
	{
		fprintf(stderr, "usage: test_recipe BAD_DIR [GOOD_DIR...]\n");
		return 2;
	}
	n = yaml_files(argv[1], &files);
	for (int i = 0; i < n; i++)
	{
		check_bad(files[i]);
		free(files[i]);
	}
	free(files);
	printf("bad recipes checked: %d\n", nbad);
	CHECK(nbad >= 25);

	for (int d = 2; d < argc; d++)
	{
		n = yaml_files(argv[d], &files);
		CHECK(n > 0);
		for (int i = 0; i < n; i++)
		{
			error_clear(&err);
			r = recipe_load(files[i], &err);
			if (r == NULL)
				fprintf(stderr, "  %s:%d:%d: %s\n", files[i], err.line,
						err.col, err.message);
			CHECK(r != NULL);
			recipe_free(r);
			free(files[i]);
		}
		free(files);
	}

	/* durations */
	/* nanoseconds: the one time unit from the recipe to the engine */
	CHECK_INT(recipe_parse_duration_ns("5s"), 5000000000LL);
	CHECK_INT(recipe_parse_duration_ns("500ms"), 500000000);
	CHECK_INT(recipe_parse_duration_ns("2min"), 120000000000LL);
	CHECK_INT(recipe_parse_duration_ns("1h"), 3600000000000LL);
	CHECK_INT(recipe_parse_duration_ns("90"), 90000000000LL);
	CHECK_INT(recipe_parse_duration_ns("1.5s"), 1500000000);
	CHECK_INT(recipe_parse_duration_ns("250us"), 250000);
	CHECK_INT(recipe_parse_duration_ns("5 s"), 5000000000LL);
	/* no hex, exponents or infinities; nothing past a year */
	CHECK_INT(recipe_parse_duration_ns("0x10"), -1);
	CHECK_INT(recipe_parse_duration_ns("1e3s"), -1);
	CHECK_INT(recipe_parse_duration_ns("9000000000000"), -1);
	CHECK_INT(recipe_parse_duration_ns("400d"), -1);
	CHECK_INT(recipe_parse_duration_ns("8000h"), 8000 * 3600000000000LL);
	CHECK_INT(recipe_parse_duration_ns("9000000h"), -1);
	CHECK_INT(recipe_parse_duration_ns("5x"), -1);
	CHECK_INT(recipe_parse_duration_ns("-5s"), -1);
	CHECK_INT(recipe_parse_duration_ns("s"), -1);
	CHECK_INT(recipe_parse_duration_ns(""), -1);
	CHECK_INT(recipe_parse_duration_ns("5sec"), -1);

	/* the model of a full recipe */
	error_clear(&err);
	r = recipe_load_text(
		"mem.yaml",
		"recipe: m\n"
		"server: {fsync: 'off', max_connections: 500}\n"
		"setup: create table t(a int)\n"
		"duration: 3s\nwarmup: 1s\nrepeat: 2\n"
		"workloads:\n"
		"  a: {protocol: extended, script: 'SELECT 1'}\n"
		"  b:\n    clients: 3\n    jobs: 2\n    script: |\n"
		"      \\set x random(1, 9)\n      SELECT :x\n"
		"sweep: {clients: [1, 8, 64], jobs: [1, 2, 4], workloads: [a]}\n"
		"measure: b.p99\n",
		&err);
	CHECK(r != NULL);
	if (r)
	{
		CHECK_STR(r->name, "m");
		CHECK_INT(r->ngucs, 2);
		CHECK_STR(r->gucs[0].name, "fsync");
		CHECK_STR(r->gucs[0].value, "off");
		CHECK_INT(r->gucs[1].pos.line, 2);
		CHECK_INT(r->nsetup, 1);
		CHECK_INT(r->duration_ns, 3000000000LL);
		CHECK_INT(r->warmup_ns, 1000000000);
		CHECK_INT(r->repeat, 2);
		CHECK_INT(r->nworkloads, 2);
		CHECK_INT(r->workloads[0].protocol, RECIPE_PROTO_EXTENDED);
		CHECK(r->workloads[0].swept);
		CHECK(!r->workloads[1].swept);
		CHECK_INT(r->workloads[1].clients, 3);
		CHECK_INT(r->workloads[1].jobs, 2);
		/* the literal block's script maps to its lines in the file */
		CHECK_INT(r->workloads[1].scripts[0].script->origin.first_line, 13);
		CHECK_INT(r->workloads[1].scripts[0].script->origin.indent, 6);
		CHECK_INT(r->nsweep_clients, 3);
		CHECK_INT(recipe_sweep_jobs(r, 2, 64), 4);
		CHECK_STR(r->measure_workload, "b");
		CHECK_STR(r->measure_metric, "p99");
		recipe_free(r);
	}
	test_plan();
	TEST_MAIN_END("test_recipe");
}
