/*
 * cmd_run.c - `pgcliff run`: load a recipe, start (or reach) the server,
 * run setup, execute every point of the sweep, print pgbench's summary
 * lines per point and a table at the end, and store everything.
 * The run row is written first and each point as soon as it is measured,
 * so a failure or Ctrl-C leaves a stored run with its finished points.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <libpq-fe.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cluster.h"
#include "cmd.h"
#include "engine.h"
#include "hist.h"
#include "pginit.h"
#include "recipe.h"
#include "compare.h"
#include "report.h"
#include "store.h"
#include "variants.h"

static int run_fn(int argc, char **argv);

const struct cmd cmd_run = {
	.name = "run",
	.summary = "run a recipe and store every point",
	.usage =
		"usage: pgcliff run RECIPE.yaml [OPTIONS]\n"
		"       pgcliff run -f SCRIPT.sql | -b BUILTIN ... [OPTIONS]\n"
		"\n"
		"Runs every point of the recipe (sweep x repeat) on a managed server\n"
		"started from --bindir (or on --target), prints pgbench's summary lines\n"
		"per point and a table at the end, and stores the run.  With -f or -b,\n"
		"pgbench scripts run as a one-workload recipe (10 transactions per\n"
		"client unless -T or -t says otherwise, as pgbench).\n"
		"\n"
		"options:\n"
		"  -c, --clients LIST      client counts to sweep, e.g. 1,2,4 (overrides sweep)\n"
		"  -j, --jobs N            threads per workload (default: the recipe's)\n"
		"  -T, --duration DUR      measured time per point: 5s, 500ms, 2min\n"
		"  -t, --transactions N    N transactions per client instead (pgbench -t)\n"
		"  -D, --define NAME=VALUE a script variable (over the recipe's variables:)\n"
		"      --warmup DUR        unmeasured time before each window\n"
		"  -M, --protocol P        simple, extended or prepared (all workloads)\n"
		"  -P, --progress N        progress lines on stderr every N seconds\n"
		"      --repeat N          repeats per point\n"
		"      --db PATH           the store (default: $PGCLIFF_DB, else\n"
		"                          $XDG_DATA_HOME/pgcliff/pgcliff.db, else\n"
		"                          ~/.local/share/pgcliff/pgcliff.db)\n"
		"      --bindir DIR        PostgreSQL binaries for the managed server\n"
		"                          (default: pg_config --bindir, else the newest\n"
		"                          /usr/lib/postgresql/*/bin)\n"
		"      --os-user USER      run the managed server as USER (default when\n"
		"                          root: postgres)\n"
		"      --target primary=CONNINFO\n"
		"                          use an existing server instead of a managed one\n"
		"                          (conninfo or URI; PG* environment variables apply)\n"
		"      --target standby=CONNINFO\n"
		"                          and its hot standby (topology primary+standby);\n"
		"                          checked to be in recovery, streaming from it\n"
		"      --variant NAME[:KEY=VALUE]\n"
		"                          add or amend a server variant; KEY is bindir,\n"
		"                          target, server.SETTING, or for a build from\n"
		"                          --source: define.MACRO, patch, configure,\n"
		"                          build=source (the tree as it is); NAME alone\n"
		"                          is the recipe as it is: --variant base\n"
		"                          --variant slow:server.commit_delay=100\n"
		"                          --variant locks64:define.NUM_XLOGINSERT_LOCKS=64\n"
		"                          (with several variants the repeats run in\n"
		"                          counterbalanced blocks: AB, BA, ...)\n"
		"      --seed N            random seed for the scripts and the order of\n"
		"                          the points (default: random); scripts draw\n"
		"                          pgbench's values for --random-seed=N\n"
		"      --random-seed N|time|rand\n"
		"                          the same, with pgbench's spelling\n"
		"      --source DIR        the PostgreSQL source tree of variants with a\n"
		"                          build (over the recipe's source:); what is\n"
		"                          not in the build cache is built first\n"
		"      --build-cache DIR   the build cache (see pgcliff build --help)\n"
		"      --keep-logs         keep the managed server's log directory\n"
		"  -q, --quiet             no per-point summary lines\n"
		"\n"
		"exit codes: 0 ok, 64 usage, 65 invalid recipe/script/SQL, 69 server\n"
		"unavailable, 70 internal or store error, 75 aborted or interrupted\n"
		"(the finished points are stored).\n",
	.usage2 =
		"\n"
		"pgbench's options (also in recipes, see schemas/recipe/REFERENCE.md):\n"
		"  -f, --file SCRIPT[@W]   run a pgbench script file instead of a recipe\n"
		"  -b, --builtin NAME[@W]  or a builtin: tpcb-like, simple-update,\n"
		"                          select-only (-S, -N: the last two); several\n"
		"                          -f/-b share the transactions by weight W\n"
		"      --init-scale N      with -f/-b: pgbench -i -s N first\n"
		"  -s, --scale N           :scale of custom scripts (builtins read it\n"
		"                          from pgbench_branches, as pgbench)\n"
		"  -r, --report-per-command  time every command (pgbench -r); stored\n"
		"  -R, --rate TPS          rate limit of each workload: a Poisson\n"
		"                          schedule over its clients; latency counts\n"
		"                          from the scheduled start (pgbench -R)\n"
		"  -L, --latency-limit MS  count transactions slower than MS as late;\n"
		"                          with -R, skip slots already that late\n"
		"      --verbose-errors    print each error of a retried transaction\n"
		"  -d, --debug             print each query as it is sent\n"
		"      --max-tries N       tries of a transaction that fails with a\n"
		"                          serialization failure or deadlock (pgbench;\n"
		"                          0: as long as the window lasts); a recipe's\n"
		"                          on_error: sets other classes\n"
		"      --format pgbench    print what pgbench 15 prints for the same\n"
		"                          options, and nothing else (one point, one\n"
		"                          workload); pgcliff's own lines go to stderr\n",
	.fn = run_fn,
};

struct run_opts
{
	const char *recipe_path;
	/* -f FILE[@W], -b NAME[@W], -S, -N: scripts instead of a recipe, as
	 * "f:FILE" or "b:NAME" with their weights */
	char **script_args;
	int *script_weights;
	int nscript_args;
	bool per_statement;       /* -r */
	int max_tries;            /* --max-tries; -1 = the recipe's */
	bool verbose_errors;      /* --verbose-errors */
	double rate;              /* -R: tps per workload; 0 = the recipe's */
	int64_t latency_limit_us; /* -L */
	bool debug;               /* -d */
	int init_scale;           /* --init-scale: pgbench -i -s N first (-f/-b) */
	int scale;                /* -s: the :scale of custom scripts */
	int64_t transactions;     /* -t */
	char **defines;           /* -D NAME=VALUE, pointing into argv */
	int ndefines;
	int *clients;
	int nclients;
	int jobs;
	int64_t duration_us;
	int64_t warmup_us;
	bool warmup_set;
	int protocol; /* -1 = recipe's */
	int progress_s;
	int repeat;
	const char *db;
	const char *bindir;
	const char *source;      /* --source: the tree build variants use */
	const char *build_cache; /* --build-cache */
	const char *os_user;
	const char *target;         /* conninfo of the primary */
	const char *standby_target; /* --target standby=CONNINFO */
	char **variant_args;        /* --variant values, pointing into argv */
	int nvariant_args;
	bool seed_set;
	bool random_seed_given; /* --random-seed: say so, as pgbench does */
	uint64_t seed;
	bool keep_logs;
	bool quiet;
	bool format_pgbench; /* --format pgbench: pgbench 15's stdout, exactly */
};

/* One variant's server: managed (a cluster) or external. */
struct target
{
	const struct variant *v;
	struct cluster *cluster;
	const char *kw[32];
	const char *val[32];
	PQconninfoOption *target_opts;
	char *server_version;
	struct store_variant sv;
	/* topology primary+standby: the standby, managed or external */
	struct cluster *standby;
	const char *skw[32];
	const char *sval[32];
	PQconninfoOption *standby_opts;
	int scale; /* :scale of the scripts on this server */
	int partitions;
	enum pginit_partition partition_method;
};

/* Everything a run holds, released in one place. */
struct run_state
{
	struct run_opts o;
	struct recipe *recipe;
	struct store *store;
	char db_path[1024];
	int64_t run_id;
	struct variant *vars;
	struct target *targets;
	int nvars;
	struct recipe_plan_step *plan;
	int nplan;
	int points_done;
	struct report_row *rows;
	int nrows;
	int aborted_clients;
	char abort_reason[1024];
	struct script_define *defines; /* variables:, then -D over them */
	int ndefines;
	/* per recipe workload: its scripts and weights, for the engine */
	const struct script ***wl_scripts;
	int **wl_weights;
	struct load_policy *policies; /* and its failure policy */
};

/* ------------------------------------------------------------ options */

/*
 * -f FILE[@W], -b NAME[@W], -S, -N: pgbench's parseScriptWeight() and
 * findBuiltin().  -1 after printing a usage error.
 */
static int
add_script_arg(struct run_opts *o, int ch, const char *arg)
{
	const char *name = ch == 'S'   ? "select-only"
					   : ch == 'N' ? "simple-update"
								   : arg;
	const char *at = ch == 'f' || ch == 'b' ? strrchr(name, '@') : NULL;
	size_t len = at ? (size_t) (at - name) : strlen(name);
	long weight = 1;

	if (at)
	{
		char *end;

		errno = 0;
		weight = strtol(at + 1, &end, 10);
		if (errno || end == at + 1 || *end)
		{
			cmd_usage_error(&cmd_run, "invalid weight specification: %s", at);
			return -1;
		}
		if (weight < 0 || weight > INT32_MAX)
		{
			cmd_usage_error(&cmd_run,
							"weight specification out of range (0 .. %d): %ld",
							INT32_MAX, weight);
			return -1;
		}
	}
	if (ch != 'f')
	{
		char *n = xstrndup(name, len);
		int nfound;

		if (script_builtin_find(n, &nfound) == NULL)
		{
			if (nfound == 0)
				cmd_usage_error(&cmd_run,
								"no builtin script found for name \"%s\" "
								"(tpcb-like, simple-update, select-only)",
								n);
			else
				cmd_usage_error(&cmd_run,
								"ambiguous builtin name: %d builtin scripts "
								"found for prefix \"%s\"",
								nfound, n);
			free(n);
			return -1;
		}
		free(n);
	}
	o->script_args = xrealloc(o->script_args,
							  (size_t) (o->nscript_args + 1) * sizeof(char *));
	o->script_weights = xrealloc(o->script_weights,
								 (size_t) (o->nscript_args + 1) * sizeof(int));
	o->script_args[o->nscript_args] =
		xasprintf("%c:%.*s", ch == 'f' ? 'f' : 'b', (int) len, name);
	o->script_weights[o->nscript_args++] = (int) weight;
	return 0;
}

static int
parse_options(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{"clients", required_argument, NULL, 'c'},
		{"jobs", required_argument, NULL, 'j'},
		{"duration", required_argument, NULL, 'T'},
		{"protocol", required_argument, NULL, 'M'},
		{"progress", required_argument, NULL, 'P'},
		{"quiet", no_argument, NULL, 'q'},
		{"format", required_argument, NULL, 14},
		{"warmup", required_argument, NULL, 1},
		{"repeat", required_argument, NULL, 2},
		{"db", required_argument, NULL, 3},
		{"bindir", required_argument, NULL, 4},
		{"os-user", required_argument, NULL, 5},
		{"target", required_argument, NULL, 6},
		{"seed", required_argument, NULL, 7},
		{"keep-logs", no_argument, NULL, 8},
		{"variant", required_argument, NULL, 9},
		{"random-seed", required_argument, NULL, 10},
		{"transactions", required_argument, NULL, 't'},
		{"file", required_argument, NULL, 'f'},
		{"builtin", required_argument, NULL, 'b'},
		{"select-only", no_argument, NULL, 'S'},
		{"skip-some-updates", no_argument, NULL, 'N'},
		{"report-per-command", no_argument, NULL, 'r'},
		{"scale", required_argument, NULL, 's'},
		{"max-tries", required_argument, NULL, 12},
		{"verbose-errors", no_argument, NULL, 13},
		{"rate", required_argument, NULL, 'R'},
		{"latency-limit", required_argument, NULL, 'L'},
		{"debug", no_argument, NULL, 'd'},
		{"init-scale", required_argument, NULL, 11},
		{"define", required_argument, NULL, 'D'},
		{"source", required_argument, NULL, 15},
		{"build-cache", required_argument, NULL, 16},
		{NULL, 0, NULL, 0}};
	int ch;
	char *end;

	memset(o, 0, sizeof(*o));
	o->protocol = -1;
	o->max_tries = -1;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":c:j:T:M:P:qt:f:D:b:SNrs:dR:L:",
							 longopts, NULL)) != -1)
	{
		switch (ch)
		{
			case 'c':
				free(o->clients);
				if (!cmd_parse_count_list(optarg, 100000, &o->clients,
										  &o->nclients))
					return cmd_usage_error(
						&cmd_run,
						"invalid client list \"%s\" (want e.g. 1,2,4)",
						optarg);
				break;
			case 'j':
				if (!cmd_parse_count(optarg, 100000, &o->jobs))
					return cmd_usage_error(
						&cmd_run, "invalid number of jobs \"%s\"", optarg);
				break;
			case 'T':
				o->duration_us = recipe_parse_duration_us(optarg);
				if (o->duration_us <= 0)
					return cmd_usage_error(
						&cmd_run,
						"invalid duration \"%s\" (want e.g. 5s, 500ms, 2min)",
						optarg);
				break;
			case 'M':
			{
				enum recipe_protocol p;

				if (recipe_protocol_parse(optarg, &p) < 0)
					return cmd_usage_error(
						&cmd_run,
						"invalid protocol \"%s\" (simple, extended or prepared)",
						optarg);
				o->protocol = (int) p;
			}
			break;
			case 'P':
				if (!cmd_parse_count(optarg, 86400, &o->progress_s))
					return cmd_usage_error(
						&cmd_run, "invalid progress interval \"%s\"", optarg);
				break;
			case 'q':
				o->quiet = true;
				break;
			case 't':
			{
				int n;

				if (!cmd_parse_count(optarg, 1000000000, &n))
					return cmd_usage_error(
						&cmd_run, "invalid number of transactions \"%s\"",
						optarg);
				o->transactions = n;
			}
			break;
			case 'f':
			case 'b':
			case 'S':
			case 'N':
				if (add_script_arg(o, ch, optarg) < 0)
					return EXIT_USAGE;
				break;
			case 'r':
				o->per_statement = true;
				break;
			case 13:
				o->verbose_errors = true;
				break;
			case 14:
				if (strcmp(optarg, "pgbench") == 0)
					o->format_pgbench = true;
				else if (strcmp(optarg, "pgcliff") != 0)
					return cmd_usage_error(
						&cmd_run, "invalid format \"%s\" (pgcliff or pgbench)",
						optarg);
				break;
			case 'R':
			case 'L':
			{
				double v;

				errno = 0;
				v = strtod(optarg, &end);
				if (errno || end == optarg || *end || !(v > 0) || v > 1e9)
					return cmd_usage_error(
						&cmd_run, "invalid %s \"%s\"",
						ch == 'R' ? "rate" : "latency limit", optarg);
				if (ch == 'R')
					o->rate = v;
				else
					o->latency_limit_us = (int64_t) (v * 1000.0); /* ms */
			}
			break;
			case 'd':
				o->debug = true;
				break;
			case 12:
				if (strcmp(optarg, "0") == 0)
					o->max_tries = 0;
				else if (!cmd_parse_count(optarg, 1000000, &o->max_tries))
					return cmd_usage_error(
						&cmd_run, "invalid number of maximum tries \"%s\"",
						optarg);
				break;
			case 's':
			case 11:
				if (!cmd_parse_count(optarg, 1000000000,
									 ch == 's' ? &o->scale : &o->init_scale))
					return cmd_usage_error(
						&cmd_run, "invalid scale factor \"%s\"", optarg);
				break;
			case 'D':
				if (strchr(optarg, '=') == NULL || optarg[0] == '=')
					return cmd_usage_error(
						&cmd_run,
						"invalid variable definition \"%s\" (want NAME=VALUE)",
						optarg);
				o->defines = xrealloc(o->defines, (size_t) (o->ndefines + 1) *
													  sizeof(char *));
				o->defines[o->ndefines++] = optarg;
				break;
			case 10:
				if (strcmp(optarg, "time") == 0)
					o->seed = (uint64_t) clock_now_ns();
				else if (strcmp(optarg, "rand") == 0)
				{
					if (getrandom(&o->seed, sizeof(o->seed), 0) !=
						(ssize_t) sizeof(o->seed))
						o->seed = (uint64_t) clock_now_ns();
				}
				else
				{
					errno = 0;
					o->seed = strtoull(optarg, &end, 10);
					if (*end || errno || optarg[0] == '-')
						return cmd_usage_error(
							&cmd_run,
							"unrecognized random seed option \"%s\" (an "
							"unsigned integer, time or rand)",
							optarg);
				}
				o->seed_set = true;
				o->random_seed_given = ch == 10;
				break;
			case 1:
				o->warmup_us = recipe_parse_duration_us(optarg);
				o->warmup_set = true;
				if (o->warmup_us < 0)
					return cmd_usage_error(&cmd_run, "invalid warmup \"%s\"",
										   optarg);
				break;
			case 2:
				if (!cmd_parse_count(optarg, 1000, &o->repeat))
					return cmd_usage_error(
						&cmd_run, "invalid repeat count \"%s\"", optarg);
				break;
			case 3:
				o->db = optarg;
				break;
			case 4:
				o->bindir = optarg;
				break;
			case 5:
				o->os_user = optarg;
				break;
			case 6:
				if (strncmp(optarg, "primary=", 8) == 0)
					o->target = optarg + 8;
				else if (strncmp(optarg, "standby=", 8) == 0)
					o->standby_target = optarg + 8;
				else
					return cmd_usage_error(
						&cmd_run,
						"--target wants primary=CONNINFO or standby=CONNINFO, "
						"not \"%s\"",
						optarg);
				break;
			case 7:
				errno = 0;
				o->seed = strtoull(optarg, &end, 10);
				if (*end || errno)
					return cmd_usage_error(&cmd_run, "invalid seed \"%s\"",
										   optarg);
				o->seed_set = true;
				o->random_seed_given = ch == 10;
				break;
			case 8:
				o->keep_logs = true;
				break;
			case 15:
				o->source = optarg;
				break;
			case 16:
				o->build_cache = optarg;
				break;
			case 9:
				o->variant_args =
					xrealloc(o->variant_args,
							 (size_t) (o->nvariant_args + 1) * sizeof(char *));
				o->variant_args[o->nvariant_args++] = optarg;
				break;
			default:
				return cmd_option_error(&cmd_run, ch, argv);
		}
	}
	if (o->standby_target && !o->target)
		return cmd_usage_error(&cmd_run, "--target standby= goes with "
										 "--target primary=");
	if (o->max_tries == 0 && o->transactions)
		return cmd_usage_error(&cmd_run,
							   "an unlimited number of transaction tries can "
							   "only be used with a duration (-T)");
	if (o->transactions && o->duration_us)
		return cmd_usage_error(&cmd_run,
							   "specify either a number of transactions (-t) "
							   "or a duration (-T), not both");
	if (o->nscript_args)
	{
		if (optind < argc)
			return cmd_usage_error(&cmd_run,
								   "give a recipe or -f/-b scripts, not both");
		return 0;
	}
	if (o->init_scale)
	{
		return cmd_usage_error(&cmd_run,
							   "--init-scale goes with -f/-b; a recipe says "
							   "init: {pgbench: {scale: N}}");
	}
	if (optind >= argc)
		return cmd_usage_error(&cmd_run, "no recipe given");
	if (optind + 1 < argc)
		return cmd_usage_error(&cmd_run, "unexpected argument '%s'",
							   argv[optind + 1]);
	o->recipe_path = argv[optind];
	return 0;
}

static void
run_opts_free(struct run_opts *o)
{
	free(o->variant_args);
	free(o->defines);
	for (int i = 0; i < o->nscript_args; i++)
		free(o->script_args[i]);
	free(o->script_args);
	free(o->script_weights);
	free(o->clients);
	memset(o, 0, sizeof(*o));
}

/* --------------------------------------------------------- provenance */

static char *
sha256_hex(const char *text)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	struct strbuf sb = STRBUF_INIT;

	EVP_Digest(text, strlen(text), md, &len, EVP_sha256(), NULL);
	for (unsigned int i = 0; i < len; i++)
		strbuf_addf(&sb, "%02x", md[i]);
	return strbuf_detach(&sb);
}

/* A conninfo/URI with any password left out, for storing and printing. */
static char *
redact_conninfo(const char *conninfo)
{
	char *errmsg = NULL;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &errmsg);
	struct strbuf sb = STRBUF_INIT;

	if (opts == NULL)
	{
		PQfreemem(errmsg);
		return xstrdup("(unparsable conninfo)");
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
	{
		if (o->val == NULL || strcmp(o->keyword, "password") == 0)
			continue;
		strbuf_addf(&sb, "%s%s='", sb.len ? " " : "", o->keyword);
		for (const char *p = o->val; *p; p++)
		{
			if (*p == '\'' || *p == '\\')
				strbuf_addch(&sb, '\\');
			strbuf_addch(&sb, *p);
		}
		strbuf_addch(&sb, '\'');
	}
	PQconninfoFree(opts);
	return strbuf_detach(&sb);
}

static char *
command_line(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "pgcliff");
	for (int i = 0; i < argc; i++)
	{
		const char *a = argv[i];
		char *red = NULL;

		if (strncmp(a, "--target=primary=", 17) == 0)
		{
			char *r = redact_conninfo(a + 17);

			a = red = xasprintf("--target=primary=%s", r);
			free(r);
		}
		else if (strncmp(a, "primary=", 8) == 0 && i > 0 &&
				 strcmp(argv[i - 1], "--target") == 0)
		{
			char *r = redact_conninfo(a + 8);

			a = red = xasprintf("primary=%s", r);
			free(r);
		}
		else if (strstr(a, ":target=") != NULL &&
				 (strncmp(a, "--variant=", 10) == 0 ||
				  (i > 0 && strcmp(argv[i - 1], "--variant") == 0)))
		{
			const char *t = strstr(a, ":target=") + 8;
			char *r = redact_conninfo(t);

			a = red = xasprintf("%.*s%s", (int) (t - a), a, r);
			free(r);
		}
		strbuf_addch(&sb, ' ');
		if (strpbrk(a, " '\"\\$") || a[0] == '\0')
		{
			strbuf_addch(&sb, '\'');
			for (const char *p = a; *p; p++)
			{
				if (*p == '\'')
					strbuf_addstr(&sb, "'\\''");
				else
					strbuf_addch(&sb, *p);
			}
			strbuf_addch(&sb, '\'');
		}
		else
			strbuf_addstr(&sb, a);
		free(red);
	}
	return strbuf_detach(&sb);
}

struct host_facts
{
	char name[256];
	char cpu[256];
	int cores;
	int64_t mem_bytes;
	char kernel[256];
};

static void
host_facts(struct host_facts *h)
{
	FILE *f;
	char line[512];
	struct utsname u;

	memset(h, 0, sizeof(*h));
	gethostname(h->name, sizeof(h->name) - 1);
	h->cores = (int) sysconf(_SC_NPROCESSORS_ONLN);
	if (uname(&u) == 0)
		snprintf(h->kernel, sizeof(h->kernel), "%s %s", u.sysname, u.release);
	if ((f = fopen("/proc/cpuinfo", "r")) != NULL)
	{
		while (fgets(line, sizeof(line), f))
			if (strncmp(line, "model name", 10) == 0 && strchr(line, ':'))
			{
				char *v = strchr(line, ':') + 1;

				while (*v == ' ')
					v++;
				v[strcspn(v, "\n")] = '\0';
				snprintf(h->cpu, sizeof(h->cpu), "%s", v);
				break;
			}
		fclose(f);
	}
	if ((f = fopen("/proc/meminfo", "r")) != NULL)
	{
		long long kb;

		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
				h->mem_bytes = kb * 1024;
		fclose(f);
	}
}

/* --------------------------------------------------------------- SQL */

/* Byte offset of the 1-based character POS in TEXT (UTF-8). */
static size_t
char_to_byte(const char *text, int pos)
{
	size_t i = 0;
	int chars = 0;

	while (text[i] && chars < pos - 1)
	{
		i++;
		while (((unsigned char) text[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	return i;
}

/* Fill ERR from a failed result of SQL that came from ORIGIN. */
static void
sql_error(struct pgc_error *err, PGconn *conn, const PGresult *res,
		  const char *text, const struct script_origin *origin,
		  const char *what)
{
	const char *f;

	if (res == NULL)
	{
		char msg[400];

		snprintf(msg, sizeof(msg), "%s", PQerrorMessage(conn));
		msg[strcspn(msg, "\n")] = '\0';
		error_set(err, PGC_ERR_UNAVAILABLE, "%s failed: %s", what, msg);
		return;
	}
	f = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	error_set(err, PGC_ERR_SQL, "%s failed: %s", what,
			  f ? f : PQresultErrorMessage(res));
	if ((f = PQresultErrorField(res, PG_DIAG_SQLSTATE)) != NULL)
		snprintf(err->sqlstate, sizeof(err->sqlstate), "%s", f);
	if ((f = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL)) != NULL)
		error_detail(err, "%s", f);
	if ((f = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT)) != NULL)
		error_hint(err, "%s", f);
	if (origin)
	{
		const char *pos = PQresultErrorField(res, PG_DIAG_STATEMENT_POSITION);
		int line, col;

		script_origin_locate(origin, text,
							 pos ? char_to_byte(text, atoi(pos)) : 0, &line,
							 &col);
		error_at(err, origin->file, line, col, 1);
	}
	/* a lost server is not the recipe's fault */
	if (PQstatus(conn) != CONNECTION_OK)
		err->kind = PGC_ERR_UNAVAILABLE;
}

static PGconn *
connect_admin(struct target *t, struct pgc_error *err)
{
	PGconn *conn = PQconnectdbParams(t->kw, t->val, 0);

	if (PQstatus(conn) != CONNECTION_OK)
	{
		char msg[400];

		snprintf(msg, sizeof(msg), "%s", PQerrorMessage(conn));
		msg[strcspn(msg, "\n")] = '\0';
		error_set(err, PGC_ERR_UNAVAILABLE,
				  "could not connect to the primary: %s", msg);
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

static int
run_sql_list(struct target *t, const struct recipe_sql *list, int n,
			 const char *what, struct pgc_error *err)
{
	PGconn *conn;
	int rc = 0;

	if (n == 0)
		return 0;
	if ((conn = connect_admin(t, err)) == NULL)
		return -1;
	for (int i = 0; i < n && rc == 0; i++)
	{
		PGresult *res = PQexec(conn, list[i].text);
		ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;

		if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK &&
			st != PGRES_EMPTY_QUERY)
		{
			sql_error(err, conn, res, list[i].text, &list[i].origin, what);
			rc = -1;
		}
		PQclear(res);
	}
	PQfinish(conn);
	return rc;
}

/* A two-column result as a JSON object, or NULL when it failed. */
static char *
json_object_of(PGconn *conn, const char *sql)
{
	PGresult *res = PQexec(conn, sql);
	struct strbuf sb = STRBUF_INIT;

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		PQclear(res);
		return NULL;
	}
	strbuf_addch(&sb, '{');
	for (int i = 0; i < PQntuples(res); i++)
	{
		if (i)
			strbuf_addstr(&sb, ", ");
		strbuf_add_json_str(&sb, PQgetvalue(res, i, 0));
		strbuf_addstr(&sb, ": ");
		strbuf_add_json_str(&sb, PQgetvalue(res, i, 1));
	}
	strbuf_addch(&sb, '}');
	PQclear(res);
	return strbuf_detach(&sb);
}

/*
 * Server version, every setting not at its default and pg_config (the
 * view needs a superuser: NULL otherwise), as JSON.
 */
static int
server_provenance(struct target *t, struct pgc_error *err)
{
	PGconn *conn = connect_admin(t, err);
	PGresult *res;
	char *settings;

	if (conn == NULL)
		return -1;
	res = PQexec(conn, "SELECT current_setting('server_version'),"
					   " current_setting('server_version_num')::int");
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
	{
		t->server_version = xstrdup(PQgetvalue(res, 0, 0));
		t->sv.server_version_num = atoi(PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	settings =
		json_object_of(conn, "SELECT name, setting FROM pg_settings"
							 " WHERE source NOT IN ('default', 'override')"
							 " ORDER BY name");
	t->sv.settings = settings ? settings : xstrdup("{}");
	t->sv.pg_config =
		json_object_of(conn, "SELECT name, setting FROM pg_config"
							 " ORDER BY name");
	PQfinish(conn);
	t->sv.server_version = t->server_version;
	return 0;
}

/* ------------------------------------------------------------ targets */

/* The client counts to sweep: -c's list, else the recipe's; none: N = 0. */
static const int *
sweep_of(const struct recipe *r, const struct run_opts *o, int *n)
{
	*n = o->nclients ? o->nclients : r->nsweep_clients;
	return o->nclients ? o->clients : r->sweep_clients;
}

/* Clients of workload I at sweep point SI: the one rule for both uses. */
static int
point_clients(const struct recipe *r, const int *sweep, int nsweep, int i,
			  int si)
{
	return r->workloads[i].swept && nsweep ? sweep[si]
										   : r->workloads[i].clients;
}

/*
 * The most connections any point opens (-c lists need not ascend, so
 * every point is looked at).
 */
static int
max_clients_of_point(const struct recipe *r, const struct run_opts *o)
{
	int nsweep, max = 0;
	const int *sweep = sweep_of(r, o, &nsweep);

	for (int si = 0; si < (nsweep ? nsweep : 1); si++)
	{
		int total = 0;

		for (int i = 0; i < r->nworkloads; i++)
			total += point_clients(r, sweep, nsweep, i, si);
		if (total > max)
			max = total;
	}
	return max;
}

/*
 * A server that fails to start because of a setting is the recipe's (or
 * the command line's) error: point at the setting the log names.
 */
static void
blame_guc(const struct variant *v, struct pgc_error *err, const char *log_tail)
{
	for (int i = 0; i < v->ngucs; i++)
	{
		const struct variant_guc *g = &v->gucs[i];
		char quoted[300];
		const char *line;

		snprintf(quoted, sizeof(quoted), "\"%s\"", g->name);
		if ((line = strstr(log_tail, quoted)) == NULL)
			continue;
		while (line > log_tail && line[-1] != '\n')
			line--;
		if (g->origin_file)
		{
			error_set(err, PGC_ERR_RECIPE, "the server rejected setting '%s'",
					  g->name);
			error_at(err, g->origin_file, g->pos.line, g->pos.col,
					 (int) strlen(g->name));
		}
		else
			error_set(err, PGC_ERR_USAGE,
					  "the server rejected setting '%s' of --variant %s",
					  g->name, v->name);
		error_detail(err, "%.*s", (int) strcspn(line, "\n"), line);
		return;
	}
}

/* The variant's GUCs as JSON, for the store. */
static char *
gucs_json(const struct variant *v)
{
	struct strbuf gj = STRBUF_INIT;

	strbuf_addch(&gj, '{');
	for (int i = 0; i < v->ngucs; i++)
	{
		if (i)
			strbuf_addstr(&gj, ", ");
		strbuf_add_json_str(&gj, v->gucs[i].name);
		strbuf_addstr(&gj, ": ");
		strbuf_add_json_str(&gj, v->gucs[i].value);
	}
	strbuf_addch(&gj, '}');
	return strbuf_detach(&gj);
}

/* libpq keywords/values of CONNINFO into KW/VAL; OPTS keeps them. */
static int
parse_conninfo(const char *conninfo, const char *what, PQconninfoOption **opts,
			   const char **kw, const char **val, struct pgc_error *err)
{
	char *errmsg = NULL;
	int n = 0;

	*opts = PQconninfoParse(conninfo, &errmsg);
	if (*opts == NULL)
	{
		error_set(err, PGC_ERR_USAGE, "invalid conninfo of %s: %s", what,
				  errmsg ? errmsg : "out of memory");
		err->message[strcspn(err->message, "\n")] = '\0';
		PQfreemem(errmsg);
		return -1;
	}
	for (PQconninfoOption *o = *opts; o->keyword && n < 30; o++)
		if (o->val && o->val[0])
		{
			kw[n] = o->keyword;
			val[n++] = o->val;
		}
	kw[n] = NULL;
	val[n] = NULL;
	return 0;
}

static int
external_target(struct target *t, struct pgc_error *err)
{
	char what[200];

	snprintf(what, sizeof(what), "the target of %s", t->v->name);
	if (parse_conninfo(t->v->target, what, &t->target_opts, t->kw, t->val,
					   err) < 0)
		return -1;
	t->sv.kind = "external";
	t->sv.target = redact_conninfo(t->v->target);
	return 0;
}

/* One value of a one-row query, or NULL with err. */
static char *
query_one(const char *const *kw, const char *const *val, const char *sql,
		  const char *what, struct pgc_error *err)
{
	PGconn *conn = PQconnectdbParams(kw, val, 0);
	PGresult *res = NULL;
	char *out = NULL;

	if (PQstatus(conn) == CONNECTION_OK)
		res = PQexec(conn, sql);
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		out = xstrdup(PQgetisnull(res, 0, 0) ? "" : PQgetvalue(res, 0, 0));
	else
	{
		char msg[300];

		snprintf(msg, sizeof(msg), "%s", PQerrorMessage(conn));
		msg[strcspn(msg, "\n")] = '\0';
		error_set(err, PGC_ERR_UNAVAILABLE, "could not query the %s: %s", what,
				  msg);
	}
	PQclear(res);
	PQfinish(conn);
	return out;
}

/*
 * An external standby given with --target standby=: it must be in
 * recovery, streaming, and a copy of the primary (the same system
 * identifier); else a clear refusal.
 */
static int
external_standby(struct run_state *rs, struct target *t, struct pgc_error *err)
{
	char *state, *pid = NULL;
	int rc = -1;

	if (rs->o.standby_target == NULL)
	{
		error_set(err, PGC_ERR_USAGE,
				  "topology primary+standby on an external primary needs "
				  "--target standby=CONNINFO");
		return -1;
	}
	if (parse_conninfo(rs->o.standby_target, "the standby", &t->standby_opts,
					   t->skw, t->sval, err) < 0)
		return -1;
	state = query_one(t->skw, t->sval,
					  "SELECT pg_is_in_recovery()::text || ' ' ||"
					  " coalesce((SELECT status FROM pg_stat_wal_receiver),"
					  " 'none') || ' ' || system_identifier"
					  " FROM pg_control_system()",
					  "standby", err);
	if (state)
		pid = query_one(t->kw, t->val,
						"SELECT system_identifier FROM pg_control_system()",
						"primary", err);
	if (state && pid)
	{
		char rec[8] = "", status[32] = "", sysid[32] = "";

		sscanf(state, "%7s %31s %31s", rec, status, sysid);
		if (strcmp(rec, "true") != 0)
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "the --target standby= server is not in recovery: it is "
					  "no standby");
		else if (strcmp(sysid, pid) != 0)
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "the --target standby= server is not a copy of the "
					  "primary (system identifiers %s and %s)",
					  sysid, pid);
		else if (strcmp(status, "streaming") != 0)
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "the --target standby= server does not stream from the "
					  "primary (WAL receiver: %s)",
					  status);
		else
			rc = 0;
	}
	free(state);
	free(pid);
	return rc;
}

/*
 * Wait until T's standby has replayed all the WAL its primary has
 * written (the init, setup and reset of the recipe), at most 120 s.
 */
static int
wait_standby(const struct target *t, struct pgc_error *err)
{
	return cluster_wait_replay_params(t->kw, t->val, t->skw, t->sval, 120,
									  err);
}

/* Create (initdb) and start the variant's managed server. */
static int
create_target(struct run_state *rs, struct target *t, struct pgc_error *err)
{
	const struct recipe *r = rs->recipe;
	const struct variant *v = t->v;
	int need = max_clients_of_point(r, &rs->o) + 5;
	struct cluster_guc *gucs;
	int ngucs = 0;
	bool has_maxconn = false;
	char maxconn[32];
	char bindir[1024];
	char short_name[17];
	struct cluster_opts co;

	t->sv.name = v->name;
	t->sv.gucs = gucs_json(v);
	if (v->target)
	{
		if (r->ngucs > 0)
			fprintf(stderr,
					"note: the recipe's server settings (%s, ...) are not "
					"applied to the external server of %s\n",
					r->gucs[0].name, v->name);
		if (external_target(t, err) < 0)
			return -1;
		return r->topology == RECIPE_TOPO_PRIMARY_STANDBY
				   ? external_standby(rs, t, err)
				   : 0;
	}

	if (cluster_find_bindir(v->bindir, bindir, sizeof(bindir), err) < 0)
		return -1;
	gucs =
		xcalloc((size_t) (v->ngucs + r->nprimary_gucs + r->nstandby_gucs) + 1,
				sizeof(*gucs));
	for (int i = 0; i < v->ngucs; i++)
	{
		const struct variant_guc *g = &v->gucs[i];

		gucs[ngucs].name = g->name;
		gucs[ngucs++].value = g->value;
		if (strcasecmp(g->name, "max_connections") == 0)
		{
			has_maxconn = true;
			if (atoi(g->value) < need)
			{
				error_set(
					err, g->origin_file ? PGC_ERR_RECIPE : PGC_ERR_USAGE,
					"max_connections %s is below the %d connections this run needs",
					g->value, need);
				if (g->origin_file)
					error_at(err, g->origin_file, g->pos.line, g->pos.col,
							 (int) strlen(g->name));
				error_hint(
					err,
					"raise it, or leave it out: pgcliff sizes it to the sweep");
				free(gucs);
				return -1;
			}
		}
	}
	if (!has_maxconn)
	{
		snprintf(maxconn, sizeof(maxconn), "%d",
				 need + 10 > 100 ? need + 10 : 100);
		gucs[ngucs].name = "max_connections";
		gucs[ngucs++].value = maxconn;
	}
	memset(&co, 0, sizeof(co));
	co.bindir = bindir;
	co.os_user =
		rs->o.os_user ? rs->o.os_user : (geteuid() == 0 ? "postgres" : NULL);
	/* the name goes into the socket's path: keep it short */
	snprintf(short_name, sizeof(short_name), "%.16s", v->name);
	co.name = short_name;
	/* the recipe's primary: settings come after, and win */
	for (int i = 0; i < r->nprimary_gucs; i++)
	{
		gucs[ngucs + i].name = r->primary_gucs[i].name;
		gucs[ngucs + i].value = r->primary_gucs[i].value;
	}
	co.gucs = gucs;
	co.ngucs = ngucs + r->nprimary_gucs;
	t->cluster = cluster_create(&co, err);
	if (t->cluster == NULL)
	{
		free(gucs);
		return -1;
	}
	if (cluster_start(t->cluster, err) < 0)
	{
		free(gucs);
		blame_guc(v, err, err->detail);
		return -1;
	}
	cluster_conn_params(t->cluster, t->kw, t->val, 32);
	if (r->topology == RECIPE_TOPO_PRIMARY_STANDBY)
	{
		char sb_name[24];

		/* the standby: the same settings, then the recipe's standby: */
		for (int i = 0; i < r->nstandby_gucs; i++)
		{
			gucs[ngucs + i].name = r->standby_gucs[i].name;
			gucs[ngucs + i].value = r->standby_gucs[i].value;
		}
		co.ngucs = ngucs + r->nstandby_gucs;
		snprintf(sb_name, sizeof(sb_name), "%.13s-sb", v->name);
		co.name = sb_name;
		t->standby = cluster_create_standby(t->cluster, &co, err);
		if (t->standby == NULL || cluster_start(t->standby, err) < 0)
		{
			free(gucs);
			blame_guc(v, err, err->detail);
			return -1;
		}
		cluster_conn_params(t->standby, t->skw, t->sval, 32);
	}
	free(gucs);
	t->sv.kind = "managed";
	t->sv.bindir = cluster_bindir(t->cluster);
	if (v->build)
	{
		struct strbuf d = STRBUF_INIT;

		strbuf_addch(&d, '{');
		for (int i = 0; i < v->ndefines; i++)
		{
			strbuf_addstr(&d, i ? ", " : "");
			strbuf_add_json_str(&d, v->defines[i].name);
			strbuf_addstr(&d, ": ");
			strbuf_add_json_str(&d, v->defines[i].value);
		}
		strbuf_addch(&d, '}');
		t->sv.defines = strbuf_detach(&d);
		t->sv.build = v->build_json;
	}
	return 0;
}

/*
 * Bring up every variant's server once: create it, record its provenance,
 * run the recipe's setup.  With several variants taking turns, each
 * server is stopped again until its first block.
 */
static void
on_init_progress(void *arg, const char *line)
{
	const char *variant = arg;

	if (variant)
		fprintf(stderr, "%s: %s\n", variant, line);
	else
		fprintf(stderr, "%s\n", line);
}

/* init: pgbench -i with the recipe's options, or its SQL. */
static int
run_init(struct run_state *rs, struct target *t, struct pgc_error *err)
{
	const struct recipe_init *in = &rs->recipe->init;
	struct pginit_opts o;
	char steps[32], summary[512];
	PGconn *conn;
	int rc;

	if (!in->pgbench)
		return run_sql_list(t, in->sql, in->nsql, "init", err);
	memset(&o, 0, sizeof(o));
	o.scale = in->scale;
	o.fillfactor = in->fillfactor;
	o.partitions = in->partitions;
	o.method = strcmp(in->partition_method, "hash") == 0 ? PGINIT_PART_HASH
														 : PGINIT_PART_RANGE;
	o.unlogged = in->unlogged;
	snprintf(steps, sizeof(steps), "%s%s",
			 in->steps ? in->steps : PGINIT_STEPS_DEFAULT,
			 in->foreign_keys && !(in->steps && strchr(in->steps, 'f')) ? "f"
																		: "");
	o.steps = steps;
	o.quiet = true;
	o.progress = on_init_progress;
	o.progress_arg = rs->nvars > 1 ? (void *) t->v->name : NULL;
	o.interrupt = &cmd_interrupted;
	if ((conn = connect_admin(t, err)) == NULL)
		return -1;
	rc = pginit_run(conn, &o, summary, sizeof(summary), err);
	PQfinish(conn);
	if (rc < 0)
	{
		error_at(err, rs->recipe->path, in->pos.line, in->pos.col, 1);
		return -1;
	}
	on_init_progress(o.progress_arg, summary);
	return 0;
}

/*
 * The :scale of the scripts on T: with a builtin, what pgbench's
 * GetTableInfo() reads (rows of pgbench_branches, and the partitioning);
 * else -s, else the recipe's init scale, else 1.
 */
static int
find_scale(struct run_state *rs, struct target *t, struct pgc_error *err)
{
	const struct recipe *r = rs->recipe;
	PGconn *conn;
	int rc;

	t->scale = rs->o.scale
				   ? rs->o.scale
				   : (r->has_init && r->init.pgbench ? r->init.scale : 1);
	if (!recipe_uses_builtin(r))
		return 0;
	if ((conn = connect_admin(t, err)) == NULL)
		return -1;
	rc = pginit_table_info(conn, &t->scale, &t->partitions,
						   &t->partition_method, err);
	PQfinish(conn);
	if (rc == 0 && rs->o.scale && rs->o.scale != t->scale)
		fprintf(stderr,
				"note: scale option ignored, using count from "
				"pgbench_branches table (%d)\n",
				t->scale);
	return rc;
}

static int
prepare_targets(struct run_state *rs, struct pgc_error *err)
{
	bool take_turns = rs->nvars > 1 && rs->recipe->restart_per_block;

	for (int i = 0; i < rs->nvars; i++)
	{
		struct target *t = &rs->targets[i];

		if (create_target(rs, t, err) < 0 || cmd_interrupted)
			return -1;
		if (server_provenance(t, err) < 0 ||
			store_variant_add(rs->store, rs->run_id, &t->sv, err) < 0)
			return -1;
		if (rs->o.format_pgbench)
			/* pgbench's printVersion(), client and server alike */
			printf("pgbench (%s)\n",
				   t->server_version ? t->server_version : "?");
		if (!rs->o.quiet)
			fprintf(rs->o.format_pgbench ? stderr : stdout,
					"pgcliff %s: run %" PRId64
					" of recipe %s%s%s on PostgreSQL "
					"%s (%s)\n",
					PGCLIFF_VERSION, rs->run_id, rs->recipe->name,
					rs->nvars > 1 ? ", variant " : "",
					rs->nvars > 1 ? t->v->name : "",
					t->server_version ? t->server_version : "?",
					t->cluster ? "managed" : "external");
		if (rs->recipe->has_init && run_init(rs, t, err) < 0)
			return -1;
		if (run_sql_list(t, rs->recipe->setup, rs->recipe->nsetup, "setup",
						 err) < 0)
			return -1;
		if (find_scale(rs, t, err) < 0)
			return -1;
		if (rs->recipe->topology == RECIPE_TOPO_PRIMARY_STANDBY &&
			wait_standby(t, err) < 0)
			return -1;
		if (take_turns && t->standby && cluster_stop(t->standby, err) < 0)
			return -1;
		if (take_turns && t->cluster && cluster_stop(t->cluster, err) < 0)
			return -1;
	}
	return 0;
}

/* The plan as JSON, stored with the run. */
static char *
plan_json(const struct run_state *rs, const int *sweep, int nsweep)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb,
				"{\"version\": 1, \"seed\": %" PRIu64
				", \"restart\": \"%s\", \"steps\": [",
				rs->o.seed,
				rs->nvars > 1 && rs->recipe->restart_per_block ? "block"
															   : "never");
	for (int i = 0; i < rs->nplan; i++)
	{
		const struct recipe_plan_step *st = &rs->plan[i];

		strbuf_addf(&sb, "%s{\"block\": %d, \"variant\": ", i ? ", " : "",
					st->block);
		strbuf_add_json_str(&sb, rs->vars[st->variant].name);
		if (nsweep)
			strbuf_addf(&sb, ", \"clients\": %d", sweep[st->sweep]);
		if (st->workload >= 0)
		{
			strbuf_addstr(&sb, ", \"workload\": ");
			strbuf_add_json_str(&sb, rs->recipe->workloads[st->workload].name);
		}
		strbuf_addch(&sb, '}');
	}
	strbuf_addstr(&sb, "]}");
	return strbuf_detach(&sb);
}

/* -------------------------------------------------------------- points */

static void
on_progress(void *arg, const struct load_progress *p)
{
	const struct recipe *r = arg;

	for (int i = 0; i < p->nworkloads; i++)
		fprintf(stderr,
				"progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f, %" PRIu64
				" failed%s%s\n",
				p->elapsed_s, p->w[i].tps, p->w[i].lat_avg_ms,
				p->w[i].lat_stddev_ms, p->w[i].failures,
				p->nworkloads > 1 ? " - " : "",
				p->nworkloads > 1 ? r->workloads[i].name : "");
}

/* pgbench's per-script and -r statement report of one workload. */
static void
print_scripts(const struct run_state *rs, const struct load_workload *w,
			  const struct load_workload_result *res, double secs)
{
	const struct recipe_workload *rw =
		recipe_workload_find(rs->recipe, w->name);
	bool per_script = res->nscripts > 1;
	bool retries = w->policy->max_tries != 1;
	int64_t total_weight = 0;

	for (int k = 0; k < res->nscripts; k++)
		total_weight += w->weights[k];
	for (int k = 0; k < res->nscripts; k++)
	{
		const struct load_script_result *ss = &res->scripts[k];
		const struct script *sc = w->scripts[k];
		uint64_t total = ss->txns + ss->failures;

		if (per_script)
		{
			printf("SQL script %d: %s\n"
				   " - weight: %d (targets %.1f%% of total)\n"
				   " - %" PRIu64 " transactions (%.1f%% of total, tps = %f)\n",
				   k + 1, rw->scripts[k].label, w->weights[k],
				   total_weight ? 100.0 * w->weights[k] / (double) total_weight
								: 0.0,
				   ss->txns,
				   res->txns ? 100.0 * (double) ss->txns / (double) res->txns
							 : 0.0,
				   (double) ss->txns / secs);
			printf(" - number of failed transactions: %" PRIu64 " (%.3f%%)\n",
				   ss->failures,
				   total ? 100.0 * (double) ss->failures / (double) total
						 : 0.0);
			if (retries)
			{
				printf(" - number of transactions retried: %" PRIu64
					   " (%.3f%%)\n",
					   ss->retried,
					   total ? 100.0 * (double) ss->retried / (double) total
							 : 0.0);
				printf(" - total number of retries: %" PRIu64 "\n",
					   ss->retries);
			}
			if (ss->txns > 0)
			{
				printf(" - latency average = %.3f ms\n",
					   hist_mean(ss->latency) / 1e6);
				printf(" - latency stddev = %.3f ms\n",
					   hist_stddev(ss->latency) / 1e6);
			}
		}
		if (ss->cmd_count == NULL)
			continue;
		printf("%sstatement latencies in milliseconds%s:\n",
			   per_script ? " - " : "",
			   retries ? ", failures and retries" : " and failures");
		for (int c = 0; c < ss->ncmds; c++)
		{
			printf("   %11.3f  %10" PRIu64 "  ",
				   ss->cmd_count[c] ? ss->cmd_lat_sum_ns[c] /
										  (double) ss->cmd_count[c] / 1e6
									: 0.0,
				   ss->cmd_failures[c]);
			if (retries)
				printf("%10" PRIu64 "  ", ss->cmd_retries[c]);
			printf("%s\n", sc->cmds[c].first_line);
		}
	}
}

static void
print_summary(const struct run_state *rs, const struct target *t,
			  const struct load_workload *w,
			  const struct load_workload_result *res,
			  const struct load_result *point, double secs)
{
	uint64_t total = res->txns + res->failures;
	const struct recipe_workload *rw =
		recipe_workload_find(rs->recipe, w->name);

	/* pgbench names a script file by its path, a builtin by its desc */
	printf("transaction type: %s\n",
		   rw->nscripts > 1 ? "multiple scripts" : rw->scripts[0].label);
	printf("scaling factor: %d\n", t->scale);
	if (t->partitions > 0)
		printf("partition method: %s\npartitions: %d\n",
			   pginit_partition_name(t->partition_method), t->partitions);
	printf("query mode: %s\n",
		   recipe_protocol_name((enum recipe_protocol) w->protocol));
	printf("number of clients: %d\n", w->clients);
	printf("number of threads: %d\n", res->jobs);
	/* pgbench leaves the line out for an unlimited number */
	if (!(rs->o.format_pgbench && w->policy->max_tries == INT32_MAX))
		printf("maximum number of tries: %d\n",
			   w->policy->max_tries == INT32_MAX ? 0 : w->policy->max_tries);
	if (w->transactions > 0)
	{
		printf("number of transactions per client: %" PRId64 "\n",
			   w->transactions);
		printf("number of transactions actually processed: %" PRIu64
			   "/%" PRId64 "\n",
			   res->txns, w->transactions * w->clients);
	}
	else if (secs == (double) (int64_t) secs)
	{
		printf("duration: %" PRId64 " s\n", (int64_t) secs);
		printf("number of transactions actually processed: %" PRIu64 "\n",
			   res->txns);
	}
	else
	{
		printf("duration: %g s\n", secs);
		printf("number of transactions actually processed: %" PRIu64 "\n",
			   res->txns);
	}
	printf("number of failed transactions: %" PRIu64 " (%.3f%%)\n",
		   res->failures,
		   total ? 100.0 * (double) res->failures / (double) total : 0.0);
	if (w->policy->max_tries != 1)
	{
		printf("number of transactions retried: %" PRIu64 " (%.3f%%)\n",
			   res->retried,
			   total ? 100.0 * (double) res->retried / (double) total : 0.0);
		printf("total number of retries: %" PRIu64 "\n", res->retries);
	}
	for (int i = 0; i < res->nclasses; i++)
		if (strcmp(res->classes[i].sqlclass, "recovery_conflict") == 0)
			printf("number of recovery conflicts: %" PRIu64 " (%.3f%%)\n",
				   res->classes[i].count,
				   total ? 100.0 * (double) res->classes[i].count /
							   (double) total
						 : 0.0);
	if (w->rate > 0 && w->latency_limit_ns > 0)
		printf("number of transactions skipped: %" PRIu64 " (%.3f%%)\n",
			   res->skipped,
			   total + res->skipped ? 100.0 * (double) res->skipped /
										  (double) (total + res->skipped)
									: 0.0);
	if (w->latency_limit_ns > 0)
		printf("number of transactions above the %.1f ms latency limit: "
			   "%" PRIu64 "/%" PRIu64 " (%.3f%%)\n",
			   (double) w->latency_limit_ns / 1e6, res->late, res->txns,
			   res->txns ? 100.0 * (double) res->late / (double) res->txns
						 : 0.0);
	if (rs->o.format_pgbench && !rs->o.progress_s && w->rate <= 0 &&
		w->latency_limit_ns <= 0)
		/* pgbench measures nothing then: it divides the run's time */
		printf("latency average = %.3f ms%s\n",
			   total + res->skipped
				   ? secs * 1e3 * w->clients / (double) (total + res->skipped)
				   : 0.0,
			   res->failures ? " (including failures)" : "");
	else
		printf("latency average = %.3f ms\n", hist_mean(res->latency) / 1e6);
	/* pgbench prints this line only with -P, -R or -L */
	if (rs->o.progress_s || w->rate > 0 || w->latency_limit_ns > 0)
		printf("latency stddev = %.3f ms\n", hist_stddev(res->latency) / 1e6);
	if (w->rate > 0)
		printf("rate limit schedule lag: avg %.3f (max %.3f) ms\n",
			   res->lag_avg_ms, res->lag_max_ms);
	printf("initial connection time = %.3f ms\n", point->conn_ms);
	if (w->protocol == LOAD_PROTO_PREPARED && !rs->o.format_pgbench)
		printf("statement preparation time = %.3f ms\n", point->prepare_ms);
	printf("tps = %f (without initial connection time)\n",
		   (double) res->txns / secs);
	print_scripts(rs, w, res, secs);
	for (int k = 0; k < res->nevents && !rs->o.format_pgbench; k++)
		printf(
			"event %d: planned at %.3f s, started at %.3f s (%+.3f ms)\n",
			res->events[k].seq + 1, (double) res->events[k].planned_ns / 1e9,
			(double) res->events[k].actual_ns / 1e9,
			(double) (res->events[k].actual_ns - res->events[k].planned_ns) /
				1e6);
	if (res->aborted_clients && !rs->o.format_pgbench)
		printf("aborted clients: %d (first: %s)\n", res->aborted_clients,
			   res->first_error);
}

/* Second SEC's errors by class as JSON ({"40": 3}), or NULL: none. */
static const char *
error_json(const struct load_workload_result *res, int sec, char **text)
{
	struct strbuf b = STRBUF_INIT;

	for (int i = 0; i < res->nerrors; i++)
	{
		if (res->errors[i].second != sec)
			continue;
		strbuf_addstr(&b, b.len ? ", " : "{");
		strbuf_add_json_str(&b, res->errors[i].sqlclass);
		strbuf_addf(&b, ": %" PRIu64, res->errors[i].count);
	}
	if (b.len == 0)
		return NULL;
	strbuf_addch(&b, '}');
	*text = strbuf_detach(&b);
	return *text;
}

/*
 * The recipe's windows over a workload's per-second series: tps in each,
 * and on "during" the dip against "before" and the recovery time (as
 * compare and show compute them).  None for a timed event.
 */
static int
window_rows(const struct recipe *r, const struct load_workload *w,
			const struct load_workload_result *res,
			struct store_window_row *out)
{
	double *tps, before = NAN;
	int n = 0, during = -1;

	if (w->timed || r->nwindows == 0)
		return 0;
	tps = xcalloc((size_t) res->nseconds + 1, sizeof(double));
	for (int s = 0; s < res->nseconds; s++)
		tps[s] = (double) res->sec_txns[s];
	for (int k = 0; k < r->nwindows; k++)
	{
		const struct recipe_window *rw = &r->windows[k];
		double sum = 0;

		if (rw->end_s > res->nseconds)
			continue; /* -T shorter than the recipe: not measured */
		for (int s = rw->start_s; s < rw->end_s; s++)
			sum += tps[s];
		out[n].name = rw->name;
		out[n].start_s = rw->start_s;
		out[n].end_s = rw->end_s;
		out[n].tps = sum / (rw->end_s - rw->start_s);
		if (strcmp(rw->name, "before") == 0)
			before = out[n].tps;
		if (strcmp(rw->name, "during") == 0)
			during = n;
		n++;
	}
	if (during >= 0 && !isnan(before) && before > 0)
	{
		out[during].has_dip = true;
		out[during].dip = out[during].tps / before;
		out[during].recovery_s = cmp_recovery_seconds(
			tps, res->nseconds, out[during].end_s, before);
	}
	free(tps);
	return n;
}

/*
 * The per-script figures of a workload as stored: a JSON array, one object
 * per script, with its statements when they were timed (-r).
 */
static void
scripts_json(const struct run_state *rs, const struct load_workload *w,
			 const struct load_workload_result *res, struct strbuf *out)
{
	const struct recipe_workload *rw =
		recipe_workload_find(rs->recipe, w->name);

	strbuf_addch(out, '[');
	for (int k = 0; k < res->nscripts; k++)
	{
		const struct load_script_result *ss = &res->scripts[k];

		strbuf_addstr(out, k ? ", {\"name\": " : "{\"name\": ");
		strbuf_add_json_str(out, rw->scripts[k].label);
		strbuf_addf(out,
					", \"weight\": %d, \"transactions\": %" PRIu64
					", \"failures\": %" PRIu64 ", \"retried\": %" PRIu64
					", \"latency_avg_ms\": %.6f, \"latency_stddev_ms\": %.6f",
					w->weights[k], ss->txns, ss->failures, ss->retried,
					hist_mean(ss->latency) / 1e6,
					hist_stddev(ss->latency) / 1e6);
		if (ss->cmd_count)
		{
			strbuf_addstr(out, ", \"statements\": [");
			for (int c = 0; c < ss->ncmds; c++)
			{
				const struct script_cmd *cmd = &w->scripts[k]->cmds[c];

				strbuf_addf(out,
							"%s{\"line\": %d, \"command\": ", c ? ", " : "",
							cmd->line);
				strbuf_add_json_str(out, cmd->first_line);
				strbuf_addf(
					out,
					", \"latency_avg_ms\": %.6f, \"count\": %" PRIu64
					", \"failures\": %" PRIu64 ", \"retries\": %" PRIu64 "}",
					ss->cmd_count[c] ? ss->cmd_lat_sum_ns[c] /
										   (double) ss->cmd_count[c] / 1e6
									 : 0.0,
					ss->cmd_count[c], ss->cmd_failures[c], ss->cmd_retries[c]);
			}
			strbuf_addch(out, ']');
		}
		strbuf_addch(out, '}');
	}
	strbuf_addch(out, ']');
}

static int
store_point(struct run_state *rs, const char *variant,
			const struct load_workload *w,
			const struct load_workload_result *res, int repeat_idx,
			int order_idx, const struct load_result *point, double secs,
			int scale, struct pgc_error *err)
{
	struct store_point sp;
	struct strbuf hist_text = STRBUF_INIT;
	struct strbuf classes = STRBUF_INIT;
	struct strbuf scripts = STRBUF_INIT;
	struct store_series_row *series =
		xcalloc((size_t) res->nseconds, sizeof(*series));
	char **err_texts = xcalloc((size_t) res->nseconds, sizeof(char *));
	struct store_event_row *events =
		xcalloc((size_t) res->nevents + 1, sizeof(*events));
	struct store_window_row *windows =
		xcalloc((size_t) rs->recipe->nwindows + 1, sizeof(*windows));
	int nwin;
	const struct hist *h = res->latency;
	int rc;

	scripts_json(rs, w, res, &scripts);
	for (int k = 0; k < res->nevents; k++)
	{
		events[k].seq = res->events[k].seq;
		events[k].planned_s = (double) res->events[k].planned_ns / 1e9;
		events[k].actual_s = (double) res->events[k].actual_ns / 1e9;
	}
	hist_encode(h, &hist_text);
	strbuf_addch(&classes, '{');
	for (int i = 0; i < res->nclasses; i++)
		strbuf_addf(&classes, "%s\"%s\": %" PRIu64, i ? ", " : "",
					res->classes[i].sqlclass, res->classes[i].count);
	strbuf_addch(&classes, '}');
	for (int s = 0; s < res->nseconds; s++)
	{
		series[s].second = s;
		series[s].transactions = res->sec_txns[s];
		series[s].failures = res->sec_failures[s];
		series[s].lat_avg_ms =
			res->sec_txns[s]
				? res->sec_lat_sum_ns[s] / (double) res->sec_txns[s] / 1e6
				: 0;
		series[s].lat_max_ms = (double) res->sec_lat_max_ns[s] / 1e6;
		series[s].failures_by_class = error_json(res, s, &err_texts[s]);
	}
	memset(&sp, 0, sizeof(sp));
	sp.variant = variant;
	sp.workload = w->name;
	sp.clients = w->clients;
	sp.jobs = res->jobs;
	sp.repeat_idx = repeat_idx;
	sp.order_idx = order_idx;
	sp.protocol = recipe_protocol_name((enum recipe_protocol) w->protocol);
	sp.duration_s = secs;
	sp.warmup_s =
		(double) (rs->o.warmup_set ? rs->o.warmup_us : rs->recipe->warmup_us) /
		1e6;
	sp.transactions = res->txns;
	sp.failures = res->failures;
	sp.failures_by_class = classes.buf;
	sp.aborted_clients = res->aborted_clients;
	sp.abort_reason = res->aborted_clients ? res->first_error : NULL;
	sp.tps = (double) res->txns / secs;
	sp.conn_ms = point->conn_ms;
	sp.prepare_ms = point->prepare_ms;
	sp.lat_avg_ms = hist_mean(h) / 1e6;
	sp.lat_stddev_ms = hist_stddev(h) / 1e6;
	sp.lat_p50_ms = (double) hist_quantile(h, 0.50) / 1e6;
	sp.lat_p90_ms = (double) hist_quantile(h, 0.90) / 1e6;
	sp.lat_p99_ms = (double) hist_quantile(h, 0.99) / 1e6;
	sp.lat_p999_ms = (double) hist_quantile(h, 0.999) / 1e6;
	sp.lat_max_ms = (double) h->max_ns / 1e6;
	sp.histogram = hist_text.buf;
	sp.scale = scale;
	sp.scripts = scripts.buf;
	sp.retried = res->retried;
	sp.retries = res->retries;
	sp.skipped = res->skipped;
	sp.late = res->late;
	sp.lag_avg_ms = res->lag_avg_ms;
	sp.lag_max_ms = res->lag_max_ms;
	sp.events = events;
	sp.nevents = res->nevents;
	nwin = window_rows(rs->recipe, w, res, windows);
	sp.windows = windows;
	sp.nwindows = nwin;
	sp.series = series;
	sp.nseries = res->nseconds;
	rc = store_point_add(rs->store, rs->run_id, &sp, NULL, err);
	if (rc == 0)
	{
		rs->rows =
			xrealloc(rs->rows, (size_t) (rs->nrows + 1) * sizeof(*rs->rows));
		rs->rows[rs->nrows].variant = variant;
		rs->rows[rs->nrows].workload = w->name;
		rs->rows[rs->nrows].clients = w->clients;
		rs->rows[rs->nrows].jobs = res->jobs;
		rs->rows[rs->nrows].tps = sp.tps;
		rs->rows[rs->nrows].p50_ms = sp.lat_p50_ms;
		rs->rows[rs->nrows].p99_ms = sp.lat_p99_ms;
		rs->rows[rs->nrows].failures = res->failures;
		rs->nrows++;
	}
	strbuf_release(&hist_text);
	strbuf_release(&classes);
	strbuf_release(&scripts);
	for (int s = 0; s < res->nseconds; s++)
		free(err_texts[s]);
	free(err_texts);
	free(events);
	free(windows);
	free(series);
	return rc;
}

/*
 * Switch servers between stretches of the plan: with several variants
 * taking turns (restart: block), the previous variant's server stops and
 * this one's starts fresh for each block.
 */
static int
switch_target(struct run_state *rs, const struct recipe_plan_step *prev,
			  const struct recipe_plan_step *st, struct pgc_error *err)
{
	struct target *t = &rs->targets[st->variant];

	if (rs->nvars < 2 || !rs->recipe->restart_per_block)
		return 0;
	if (prev && prev->block == st->block && prev->variant == st->variant)
		return 0;
	if (prev && rs->targets[prev->variant].standby &&
		cluster_stop(rs->targets[prev->variant].standby, err) < 0)
		return -1;
	if (prev && rs->targets[prev->variant].cluster &&
		cluster_stop(rs->targets[prev->variant].cluster, err) < 0)
		return -1;
	/*
	 * What the last server wrote (its WAL, its log) is flushed now, not
	 * by the kernel while the next variant is measured: measured here,
	 * such writeback cost the variant after a log-heavy one 2-5 %.
	 */
	sync();
	if (t->cluster && cluster_start(t->cluster, err) < 0)
		return -1;
	if (t->standby && cluster_start(t->standby, err) < 0)
		return -1;
	return 0;
}

static void
fill_workloads(const struct run_state *rs, struct target *t, int si,
			   struct load_workload *wl)
{
	const struct recipe *r = rs->recipe;
	const struct run_opts *o = &rs->o;
	int nsweep;
	const int *sweep = sweep_of(r, o, &nsweep);

	for (int i = 0; i < r->nworkloads; i++)
	{
		const struct recipe_workload *rw = &r->workloads[i];
		bool swept = rw->swept && nsweep;

		wl[i].name = rw->name;
		wl[i].scripts = rs->wl_scripts[i];
		wl[i].weights = rs->wl_weights[i];
		wl[i].nscripts = rw->nscripts;
		wl[i].protocol = (enum load_protocol)(
			o->protocol >= 0 ? o->protocol : (int) rw->protocol);
		wl[i].conn_keywords =
			strcmp(rw->target, "standby") == 0 ? t->skw : t->kw;
		wl[i].conn_values =
			strcmp(rw->target, "standby") == 0 ? t->sval : t->val;
		wl[i].clients = point_clients(r, sweep, nsweep, i, si);
		if (o->jobs)
			wl[i].jobs = o->jobs;
		else if (swept && o->nclients && r->sweep_jobs_list)
			/* -c replaced the points the jobs list was written for */
			wl[i].jobs = sweep[si];
		else if (swept)
			wl[i].jobs = recipe_sweep_jobs(r, si, sweep[si]);
		else
			wl[i].jobs = rw->jobs;
		if (wl[i].jobs > wl[i].clients)
			wl[i].jobs = wl[i].clients;
		if (o->transactions)
			wl[i].transactions = o->transactions;
		else if (o->duration_us)
			wl[i].transactions = 0; /* -T turns -t recipes into durations */
		else
			wl[i].transactions = rw->transactions;
		wl[i].policy = &rs->policies[i];
		wl[i].rate = o->rate > 0 ? o->rate : rw->rate;
		wl[i].timed = rw->timed;
		wl[i].at_ns = rw->at_us * 1000;
		wl[i].every_ns = rw->every_us * 1000;
		wl[i].until_ns = rw->until_us * 1000;
		wl[i].latency_limit_ns = (o->latency_limit_us ? o->latency_limit_us
													  : rw->latency_limit_us) *
								 1000;
		wl[i].defines = rs->defines;
		wl[i].ndefines = rs->ndefines;
	}
}

/*
 * The server-side samples of a point, with the plan step: commits, wait
 * events, conflicts and replay lag per node and second.  ERR may be NULL
 * (a point that failed: keep what there is, quietly).
 */
static int
store_samples(struct run_state *rs, const struct load_point *lp,
			  const struct load_result *res, int order, struct pgc_error *err)
{
	struct store_sample_row *rows =
		xcalloc((size_t) res->nsamples + 1, sizeof(*rows));
	char(*confl)[128] = xcalloc((size_t) res->nsamples + 1, sizeof(*confl));
	struct pgc_error ignored;
	int rc;

	for (int i = 0; i < res->nsamples; i++)
	{
		const struct load_sample *sa = &res->samples[i];

		snprintf(confl[i], sizeof(confl[i]),
				 "{\"snapshot\": %" PRId64 ", \"lock\": %" PRId64
				 ", \"bufferpin\": %" PRId64 ", \"deadlock\": %" PRId64
				 ", \"tablespace\": %" PRId64 "}",
				 sa->conflicts[0], sa->conflicts[1], sa->conflicts[2],
				 sa->conflicts[3], sa->conflicts[4]);
		rows[i].node = lp->nodes[sa->node].name;
		rows[i].second = sa->second;
		rows[i].ok = sa->ok;
		rows[i].commits = sa->commits;
		rows[i].conflicts = sa->ok ? confl[i] : NULL;
		rows[i].standby = sa->standby;
		rows[i].lag_bytes = sa->lag_bytes;
		rows[i].lag_s = sa->lag_s;
		rows[i].waits = sa->waits;
		rows[i].query_ms = sa->query_ms;
		rows[i].error = sa->error[0] ? sa->error : NULL;
	}
	rc = store_samples_add(rs->store, rs->run_id, order, rows, res->nsamples,
						   err ? err : &ignored);
	free(rows);
	free(confl);
	return err ? rc : 0;
}

/* debug() of a script: one line on stderr, as pgbench prints it. */
static void
on_debug(void *arg, const char *line)
{
	(void) arg;
	fprintf(stderr, "%s\n", line);
}

static int
run_points(struct run_state *rs, struct pgc_error *err)
{
	const struct recipe *r = rs->recipe;
	const struct run_opts *o = &rs->o;
	int repeat = o->repeat ? o->repeat : r->repeat;
	struct load_workload *wl = xcalloc((size_t) r->nworkloads, sizeof(*wl));
	int rc = 0, nw;

	for (int order = 0; order < rs->nplan && rc == 0; order++)
	{
		const struct recipe_plan_step *st = &rs->plan[order];
		struct target *t = &rs->targets[st->variant];
		struct load_point lp;
		struct load_result res;
		struct load_node nodes[2];
		double secs;

		if (cmd_interrupted)
		{
			error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
			rc = -1;
			break;
		}
		if (switch_target(rs, order ? &rs->plan[order - 1] : NULL, st, err) <
			0)
		{
			rc = -1;
			break;
		}
		fill_workloads(rs, t, st->sweep, wl);
		nw = r->nworkloads;
		if (st->workload >= 0)
		{
			/* run_workloads: separately: this point measures one */
			wl[0] = wl[st->workload];
			nw = 1;
		}
		if (run_sql_list(t, r->reset, r->nreset, "reset", err) < 0 ||
			(r->topology == RECIPE_TOPO_PRIMARY_STANDBY &&
			 wait_standby(t, err) < 0))
		{
			rc = -1;
			break;
		}
		memset(&lp, 0, sizeof(lp));
		lp.workloads = wl;
		lp.nworkloads = nw;
		lp.warmup_ns = (o->warmup_set ? o->warmup_us : r->warmup_us) * 1000;
		lp.duration_ns =
			(o->duration_us ? o->duration_us : r->duration_us) * 1000;
		lp.seed = rs->o.seed + (uint64_t) order * 7919u;
		lp.scale = t->scale;
		lp.per_statement = o->per_statement;
		lp.interrupt = &cmd_interrupted;
		lp.progress_s = o->progress_s;
		lp.progress = on_progress;
		lp.progress_arg = rs->recipe;
		lp.debug = on_debug;
		nodes[0].name = "primary";
		nodes[0].conn_keywords = t->kw;
		nodes[0].conn_values = t->val;
		nodes[1].name = "standby";
		nodes[1].conn_keywords = t->skw;
		nodes[1].conn_values = t->sval;
		lp.nodes = nodes;
		lp.nnodes = r->topology == RECIPE_TOPO_PRIMARY_STANDBY ? 2 : 1;
		lp.verbose_errors = o->verbose_errors;
		lp.debug_sends = o->debug;
		if (!o->quiet && !o->format_pgbench)
		{
			printf("%spoint %d of %d: %s%s%s%s%s%sclients %d, repeat %d of "
				   "%d\n",
				   order ? "\n" : "", order + 1, rs->nplan,
				   rs->nvars > 1 ? "variant " : "",
				   rs->nvars > 1 ? t->v->name : "", rs->nvars > 1 ? ", " : "",
				   st->workload >= 0 ? "workload " : "",
				   st->workload >= 0 ? wl[0].name : "",
				   st->workload >= 0 ? ", " : "", wl[0].clients, st->block + 1,
				   repeat);
			fflush(stdout);
		}
		if (load_run(&lp, &res, err) < 0)
		{
			if (res.w)
				store_samples(rs, &lp, &res, order, NULL);
			load_result_release(&res);
			rc = -1;
			break;
		}
		/* with -t, the window lasted until the last transaction */
		secs = wl[0].transactions > 0 ? (double) res.window_ns / 1e9
									  : (double) lp.duration_ns / 1e9;
		if (secs <= 0)
			secs = 1e-9;
		for (int i = 0; i < nw && rc == 0; i++)
		{
			if (!o->quiet)
				print_summary(rs, t, &wl[i], &res.w[i], &res, secs);
			rc = store_point(rs, t->v->name, &wl[i], &res.w[i], st->block,
							 order, &res, secs, t->scale, err);
			if (res.w[i].aborted_clients)
			{
				if (rs->aborted_clients == 0)
					snprintf(rs->abort_reason, sizeof(rs->abort_reason),
							 "%s%sworkload %s: %s",
							 rs->nvars > 1 ? t->v->name : "",
							 rs->nvars > 1 ? ", " : "", wl[i].name,
							 res.w[i].first_error);
				rs->aborted_clients += res.w[i].aborted_clients;
			}
		}
		if (rc == 0)
			rc = store_samples(rs, &lp, &res, order, err);
		fflush(stdout);
		load_result_release(&res);
		if (rc == 0)
			rs->points_done++;
	}
	free(wl);
	return rc;
}

/* ---------------------------------------------------------------- run */

static void
raise_nofile(void)
{
	struct rlimit rl;

	/* 1,000+ clients need 1,000+ sockets; the soft limit is often 1024 */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
	{
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * -f SCRIPT: a one-workload recipe around a pgbench script file, stored
 * like any other (its text names the file).  Without -T it runs
 * pgbench's default of 10 transactions per client.
 */
static struct recipe *
script_recipe(const struct run_opts *o, struct pgc_error *err)
{
	struct strbuf yaml = STRBUF_INIT;
	char name[64];
	char *path = NULL;
	struct recipe *r;
	size_t n = 0;
	const char *base = o->script_args[0] + 2;

	/* a recipe name from the first script: letters, digits, _ and - */
	if (strrchr(base, '/'))
		base = strrchr(base, '/') + 1;
	if (!isalpha((unsigned char) base[0]) && base[0] != '_')
		name[n++] = 's', name[n++] = '_';
	for (; *base && *base != '.' && n < sizeof(name) - 1; base++)
		name[n++] =
			isalnum((unsigned char) *base) || *base == '-' ? *base : '_';
	name[n] = '\0';
	if (n == 0 || strcmp(name, "s_") == 0)
		snprintf(name, sizeof(name), "script");
	strbuf_addf(&yaml, "recipe: %s\ndescription: pgcliff run -f/-b\n", name);
	if (o->duration_us)
		strbuf_addf(&yaml, "duration: %" PRId64 "us\n", o->duration_us);
	if (o->init_scale)
		strbuf_addf(&yaml, "init: {pgbench: {scale: %d}}\n", o->init_scale);
	strbuf_addf(&yaml, "workloads:\n  %s:\n    scripts:\n", name);
	for (int i = 0; i < o->nscript_args; i++)
	{
		const char *arg = o->script_args[i];

		if (arg[0] == 'b')
		{
			strbuf_addf(&yaml, "      - {builtin: %s, weight: %d}\n", arg + 2,
						o->script_weights[i]);
			continue;
		}
		free(path);
		if ((path = realpath(arg + 2, NULL)) == NULL)
		{
			error_set(err, PGC_ERR_RECIPE, "could not open script \"%s\": %s",
					  arg + 2, strerror(errno));
			strbuf_release(&yaml);
			return NULL;
		}
		strbuf_addstr(&yaml, "      - {file: \"");
		for (const char *p = path; *p; p++)
		{
			if (*p == '"' || *p == '\\')
				strbuf_addch(&yaml, '\\');
			strbuf_addch(&yaml, *p);
		}
		strbuf_addf(&yaml, "\", weight: %d}\n", o->script_weights[i]);
	}
	if (!o->duration_us)
		strbuf_addf(&yaml, "    transactions: %" PRId64 "\n",
					o->transactions ? o->transactions : 10);
	/* pgbench's defaults: one client on one thread; -c and -j apply */
	strbuf_addstr(&yaml, "sweep: {clients: [1], jobs: 1}\n");
	r = recipe_load_text(path ? path : "(pgcliff run -b)", yaml.buf, err);
	strbuf_release(&yaml);
	free(path);
	return r;
}

static enum load_action
action_of(const char *a)
{
	return strcmp(a, "retry") == 0          ? LOAD_RETRY
		   : strcmp(a, "abort_client") == 0 ? LOAD_ABORT_CLIENT
		   : strcmp(a, "abort_run") == 0    ? LOAD_ABORT_RUN
											: LOAD_CONTINUE;
}

/*
 * A workload's failure policy: --max-tries over the recipe's max_tries
 * (0: as many as the window allows); serialization failures and deadlocks
 * are retried when more than one try is allowed (pgbench's --max-tries),
 * everything else rolls back and goes on; on_error: says otherwise.
 */
static void
make_policy(const struct run_opts *o, const struct recipe_workload *w,
			struct load_policy *pol)
{
	struct load_rule *rules =
		xcalloc((size_t) w->non_error + 1, sizeof(*rules));
	int n = 0;

	pol->max_tries =
		o->max_tries >= 0 ? o->max_tries : (w->max_tries ? w->max_tries : 1);
	if (pol->max_tries == 0)
		pol->max_tries = INT32_MAX;
	pol->serialization = pol->max_tries > 1 ? LOAD_RETRY : LOAD_CONTINUE;
	pol->deadlock = pol->serialization;
	pol->recovery_conflict = LOAD_CONTINUE;
	pol->other = LOAD_CONTINUE;
	pol->connection = LOAD_ABORT_CLIENT;
	for (int i = 0; i < w->non_error; i++)
	{
		const struct recipe_rule *r = &w->on_error[i];
		enum load_action a = action_of(r->action);

		if (strcmp(r->key, "serialization") == 0)
			pol->serialization = a;
		else if (strcmp(r->key, "deadlock") == 0)
			pol->deadlock = a;
		else if (strcmp(r->key, "recovery_conflict") == 0)
			pol->recovery_conflict = a;
		else if (strcmp(r->key, "other") == 0)
			pol->other = a;
		else if (strcmp(r->key, "connection") == 0)
			pol->connection = a;
		else
		{
			snprintf(rules[n].sqlstate, sizeof(rules[n].sqlstate), "%s",
					 r->key);
			rules[n++].action = a;
		}
	}
	pol->rules = rules;
	pol->nrules = n;
}

/*
 * The script files a recipe names, for the store: each after a
 * "-- file: PATH" line (NULL when there are none).
 */
static char *
script_files_text(const struct recipe *r)
{
	struct strbuf b = STRBUF_INIT;

	for (int i = 0; i < r->nworkloads; i++)
		for (int k = 0; k < r->workloads[i].nscripts; k++)
		{
			const struct recipe_script *rs = &r->workloads[i].scripts[k];

			if (rs->file == NULL)
				continue;
			strbuf_addf(&b, "-- file: %s\n%s", rs->file, rs->script->text);
			if (b.len && b.buf[b.len - 1] != '\n')
				strbuf_addch(&b, '\n');
		}
	return b.len ? strbuf_detach(&b) : (strbuf_release(&b), NULL);
}

/*
 * Build what the variants with a build: need, from --source or the
 * recipe's source:, before any server starts: one progress line per step.
 */
static int
build_variants(struct run_state *rs, struct pgc_error *err)
{
	const char *source = rs->o.source ? rs->o.source : rs->recipe->source;
	struct build_options bo;

	if (!variants_need_source(rs->vars, rs->nvars))
		return 0;
	if (source == NULL)
	{
		for (int i = 0; i < rs->nvars; i++)
			if (rs->vars[i].build)
			{
				error_set(err, PGC_ERR_USAGE,
						  "variant '%s' is built from source, but no source "
						  "tree is given",
						  rs->vars[i].name);
				break;
			}
		error_hint(err, "give --source DIR, or source: in the recipe");
		return -1;
	}
	memset(&bo, 0, sizeof(bo));
	bo.cache_dir = rs->o.build_cache;
	bo.progress = cmd_progress_line;
	bo.interrupted = &cmd_interrupted;
	return variants_build(rs->vars, rs->nvars, source, &bo, err);
}

/* The engine's view of each workload's scripts and weights. */
static void
collect_scripts(struct run_state *rs)
{
	const struct recipe *r = rs->recipe;

	rs->wl_scripts = xcalloc((size_t) r->nworkloads, sizeof(*rs->wl_scripts));
	rs->wl_weights = xcalloc((size_t) r->nworkloads, sizeof(*rs->wl_weights));
	for (int i = 0; i < r->nworkloads; i++)
	{
		const struct recipe_workload *w = &r->workloads[i];

		rs->wl_scripts[i] = xcalloc((size_t) w->nscripts, sizeof(void *));
		rs->wl_weights[i] = xcalloc((size_t) w->nscripts, sizeof(int));
		for (int k = 0; k < w->nscripts; k++)
		{
			rs->wl_scripts[i][k] = w->scripts[k].script;
			rs->wl_weights[i][k] = w->scripts[k].weight;
		}
	}
	rs->policies = xcalloc((size_t) r->nworkloads, sizeof(*rs->policies));
	for (int i = 0; i < r->nworkloads; i++)
		make_policy(&rs->o, &r->workloads[i], &rs->policies[i]);
}

/*
 * The script variables of the run: the recipe's variables:, then -D over
 * them (a later -D wins); and the check that every variable a script
 * reads is assigned somewhere.
 */
static int
collect_defines(struct run_state *rs, struct pgc_error *err)
{
	const struct recipe *r = rs->recipe;
	int n = r->nvariables + rs->o.ndefines;
	const char **names = xcalloc((size_t) n + 1, sizeof(char *));
	int rc;

	rs->defines = xcalloc((size_t) n + 1, sizeof(*rs->defines));
	for (int i = 0; i < n; i++)
	{
		const char *name, *value;
		char *eq = NULL;
		int k;

		if (i < r->nvariables)
		{
			name = xstrdup(r->variables[i].name);
			value = r->variables[i].value;
		}
		else
		{
			const char *d = rs->o.defines[i - r->nvariables];

			eq = strchr(d, '=');
			name = xstrndup(d, (size_t) (eq - d));
			value = eq + 1;
			if (!script_valid_var_name(name))
			{
				error_set(err, PGC_ERR_USAGE,
						  "invalid variable name \"%s\" in -D %s", name, d);
				free((char *) name);
				free(names);
				return -1;
			}
		}
		for (k = 0; k < rs->ndefines; k++)
			if (strcmp(rs->defines[k].name, name) == 0)
				break;
		if (k < rs->ndefines)
			free((char *) rs->defines[k].name);
		else
			rs->ndefines++;
		rs->defines[k].name = name;
		rs->defines[k].value = value;
	}
	for (int i = 0; i < rs->ndefines; i++)
		names[i] = rs->defines[i].name;
	rc = recipe_check_variables(r, names, rs->ndefines, err);
	free(names);
	return rc;
}

static int
run_fn(int argc, char **argv)
{
	struct run_state rs;
	struct pgc_error err;
	struct host_facts host;
	struct store_run run;
	char *cmdline = NULL, *sha = NULL, *plan = NULL, *script_files = NULL;
	int nsweep, repeat;
	const int *sweep;
	int rc;
	bool run_started = false;
	const char *status = "failed";

	if (cmd_wants_help(&cmd_run, argc, argv))
		return EXIT_OK;
	memset(&rs, 0, sizeof(rs));
	error_clear(&err);
	if ((rc = parse_options(argc, argv, &rs.o)) != 0)
	{
		run_opts_free(&rs.o);
		return rc;
	}
	if (!rs.o.seed_set)
	{
		if (getrandom(&rs.o.seed, sizeof(rs.o.seed), 0) !=
			(ssize_t) sizeof(rs.o.seed))
			rs.o.seed = (uint64_t) clock_now_ns();
		/* a drawn seed stays positive in SQLite; a given one is kept whole
		 * (pgbench's --random-seed is 64 bits), stored as its bit pattern */
		rs.o.seed &= INT64_MAX;
	}
	if (rs.o.random_seed_given)
		fprintf(stderr, "pgcliff: setting random seed to %" PRIu64 "\n",
				rs.o.seed);

	rs.recipe = rs.o.nscript_args ? script_recipe(&rs.o, &err)
								  : recipe_load(rs.o.recipe_path, &err);
	if (rs.recipe == NULL)
		goto out;
	if (collect_defines(&rs, &err) < 0)
		goto out;
	collect_scripts(&rs);
	for (int i = 0; i < rs.recipe->nwindows; i++)
		if (rs.o.duration_us &&
			(int64_t) rs.recipe->windows[i].end_s * 1000000 > rs.o.duration_us)
		{
			error_set(&err, PGC_ERR_USAGE,
					  "window '%s' of the recipe ends at %d s, past -T %g s",
					  rs.recipe->windows[i].name, rs.recipe->windows[i].end_s,
					  (double) rs.o.duration_us / 1e6);
			goto out;
		}
	rs.nvars =
		variants_resolve(rs.recipe, rs.o.variant_args, rs.o.nvariant_args,
						 rs.o.bindir, rs.o.target, &rs.vars, &err);
	if (rs.nvars < 0)
	{
		rs.nvars = 0;
		goto out;
	}
	rs.targets = xcalloc((size_t) rs.nvars, sizeof(*rs.targets));
	for (int i = 0; i < rs.nvars; i++)
		rs.targets[i].v = &rs.vars[i];
	sweep = sweep_of(rs.recipe, &rs.o, &nsweep);
	repeat = rs.o.repeat ? rs.o.repeat : rs.recipe->repeat;
	rs.nplan = recipe_plan_for(rs.recipe, rs.nvars, nsweep ? nsweep : 1,
							   nsweep > 0, repeat, rs.o.seed, &rs.plan);
	if (rs.o.format_pgbench && (rs.nplan != 1 || rs.recipe->nworkloads != 1))
	{
		error_set(&err, PGC_ERR_USAGE,
				  "--format pgbench prints one point of one workload; this "
				  "run has %d point%s and %d workload%s",
				  rs.nplan, rs.nplan == 1 ? "" : "s", rs.recipe->nworkloads,
				  rs.recipe->nworkloads == 1 ? "" : "s");
		goto out;
	}
	raise_nofile();
	cmd_install_signals();
	if (build_variants(&rs, &err) < 0)
		goto out;

	store_resolve_path(rs.o.db, rs.db_path, sizeof(rs.db_path));
	if ((rs.store = store_open(rs.db_path, &err)) == NULL)
		goto out;

	host_facts(&host);
	cmdline = command_line(argc, argv);
	sha = sha256_hex(rs.recipe->text);
	memset(&run, 0, sizeof(run));
	run.recipe = rs.recipe->name;
	run.recipe_path = rs.recipe->path;
	run.recipe_text = rs.recipe->text;
	run.recipe_sha256 = sha;
	run.command_line = cmdline;
	run.seed = (int64_t) rs.o.seed;
	run.host_name = host.name;
	run.host_cpu = host.cpu;
	run.host_cores = host.cores;
	run.host_mem_bytes = host.mem_bytes;
	run.host_kernel = host.kernel;
	plan = plan_json(&rs, sweep, nsweep);
	run.plan = plan;
	script_files = script_files_text(rs.recipe);
	run.script_files = script_files;
	if (store_run_begin(rs.store, &run, &rs.run_id, &err) < 0)
		goto out;
	run_started = true;

	if (prepare_targets(&rs, &err) < 0)
	{
		/* a Ctrl-C while a server starts is an interruption, whatever
		 * else went wrong because of it */
		if (cmd_interrupted)
			error_set(&err, PGC_ERR_INTERRUPTED, "interrupted");
		goto out;
	}
	if (run_points(&rs, &err) < 0)
		goto out;

	if (rs.aborted_clients)
	{
		error_set(&err, PGC_ERR_ABORTED, "%d client%s aborted during the run",
				  rs.aborted_clients, rs.aborted_clients == 1 ? "" : "s");
		error_detail(&err, "%s", rs.abort_reason);
		goto out;
	}
	status = "ok";

out:
	if (err.kind == PGC_ERR_INTERRUPTED)
		status = "interrupted";
	for (int i = 0; i < rs.nvars; i++)
	{
		struct target *t = &rs.targets[i];
		bool keep = rs.o.keep_logs || err.kind != PGC_ERR_NONE;

		if (t->standby)
		{
			cluster_destroy(t->standby,
							rs.o.keep_logs || err.kind != PGC_ERR_NONE);
			t->standby = NULL;
		}
		if (t->cluster == NULL)
			continue;
		if (keep)
			fprintf(stderr, "server log%s%s: %s\n", rs.nvars > 1 ? " of " : "",
					rs.nvars > 1 ? t->v->name : "",
					cluster_log_path(t->cluster));
		cluster_destroy(t->cluster, keep);
		t->cluster = NULL;
	}
	if (rs.nrows > 0 && !rs.o.format_pgbench)
	{
		struct strbuf table = STRBUF_INIT;

		report_sweep_table(&table, rs.rows, rs.nrows);
		printf("\n%s", table.buf);
		strbuf_release(&table);
	}
	if (run_started)
	{
		struct pgc_error ferr;
		char errtext[sizeof(err.message) + sizeof(err.detail) + 16];

		snprintf(errtext, sizeof(errtext), "%s%s%s", err.message,
				 err.detail[0] ? ": " : "", err.detail);
		error_clear(&ferr);
		if (store_run_finish(rs.store, rs.run_id, status,
							 err.kind == PGC_ERR_NONE ? NULL : errtext,
							 &ferr) < 0)
		{
			cmd_print_error(&ferr);
			if (err.kind == PGC_ERR_NONE)
				err = ferr;
		}
		fprintf(rs.o.format_pgbench ? stderr : stdout,
				"run %" PRId64 " stored in %s (status %s, %d point%s)\n",
				rs.run_id, rs.db_path, status, rs.points_done,
				rs.points_done == 1 ? "" : "s");
	}
	fflush(stdout);
	if (err.kind != PGC_ERR_NONE)
		cmd_print_error(&err);
	rc = cmd_exit_code(&err);

	store_close(rs.store);
	for (int i = 0; i < rs.nvars; i++)
	{
		struct target *t = &rs.targets[i];

		if (t->target_opts)
			PQconninfoFree(t->target_opts);
		if (t->standby_opts)
			PQconninfoFree(t->standby_opts);
		free((char *) t->sv.settings);
		free((char *) t->sv.pg_config);
		free((char *) t->sv.gucs);
		free((char *) t->sv.defines);
		free((char *) t->sv.target);
		free(t->server_version);
	}
	free(rs.targets);
	variants_free(rs.vars, rs.nvars);
	for (int i = 0; rs.wl_scripts && i < rs.recipe->nworkloads; i++)
	{
		free(rs.wl_scripts[i]);
		free(rs.wl_weights[i]);
	}
	free(rs.wl_scripts);
	free(rs.wl_weights);
	for (int i = 0; rs.policies && i < rs.recipe->nworkloads; i++)
		free((void *) rs.policies[i].rules);
	free(rs.policies);
	recipe_free(rs.recipe);
	free(rs.plan);
	free(plan);
	free(script_files);
	run_opts_free(&rs.o);

	for (int i = 0; i < rs.ndefines; i++)
		free((char *) rs.defines[i].name);
	free(rs.defines);
	free(rs.rows);
	free(cmdline);
	free(sha);
	return rc;
}
