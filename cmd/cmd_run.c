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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <unistd.h>

#include "cluster.h"
#include "cmd.h"
#include "engine.h"
#include "hist.h"
#include "pginit.h"
#include "recipe.h"
#include "compare.h"
#include "fleet.h"
#include "report.h"
#include "run.h"
#include "sequential.h"
#include "profile.h"
#include "store.h"

static int run_fn(int argc, char **argv);

struct run_opts
{
	/* 8-byte fields first, then 4-byte, then the flags: no padding */
	const char *recipe_path;
	/* pgbench's -h, -p, -U and DBNAME (after -f/-b) */
	const char *pg_host, *pg_port, *pg_user, *pg_dbname;
	char *pg_target;        /* what they make, as --target primary= */
	const char *log_prefix; /* --log-prefix */
	double sampling_rate;   /* --sampling-rate */
	/* -f FILE[@W], -b NAME[@W], -S, -N: scripts instead of a recipe, as
	 * "f:FILE" or "b:NAME" with their weights */
	char **script_args;
	int *script_weights;
	double rate;              /* -R: tps per workload; 0 = the recipe's */
	int64_t latency_limit_ns; /* -L */
	int64_t transactions;     /* -t */
	int64_t count_txns;       /* --count */
	char **defines;           /* -D NAME=VALUE, pointing into argv */
	int *clients;
	int64_t duration_ns;
	int64_t warmup_ns;
	const char *db;
	const char *bindir;
	const char *source;      /* --source: the tree build variants use */
	const char *build_cache; /* --build-cache */
	const char *os_user;
	const char *target;         /* conninfo of the primary */
	const char *standby_target; /* --target standby=CONNINFO */
	char **variant_args;        /* --variant values, pointing into argv */
	uint64_t seed;
	/* --until-decided's --budget, --max-repeats, --on, --rule, --adjust */
	struct run_until until;
	struct placement placement; /* --placement, when placement_set */
	int agg_interval_s;         /* --aggregate-interval */
	int nscript_args;
	int max_tries;  /* --max-tries; -1 = the recipe's */
	int init_scale; /* --init-scale: pgbench -i -s N first (-f/-b) */
	int scale;      /* -s: the :scale of custom scripts */
	int ndefines;
	int nclients;
	int jobs;
	int protocol; /* -1 = recipe's */
	int progress_s;
	int repeat;
	int nvariant_args;
	int profile_hz;        /* --profile[=HZ] > 0, --no-profile -1 */
	int profile_callgraph; /* --profile-callgraph: enum profile_callgraph */
	int workers;           /* --workers */
	const char *key_file;  /* --key-file, else $PGCLIFF_KEY_FILE */
	struct wire_key key;   /* its secret, with --workers */
	int64_t worker_timeout_ns;  /* --worker-timeout */
	double max_clock_offset_ms; /* --max-clock-offset */
	enum cmp_rule rule;         /* --rule: what makes a REGRESSION */
	bool progress_timestamp;    /* --progress-timestamp */
	bool shown_script;          /* --show-script: printed, exit 0 */
	bool failures_detailed;     /* --failures-detailed */
	bool reconnect;             /* -C */
	bool exit_on_abort;         /* --exit-on-abort */
	bool vacuum_all;            /* -v */
	bool no_vacuum;             /* -n: over -v, as in pgbench */
	bool log;                   /* -l */
	bool per_statement;         /* -r */
	bool verbose_errors;        /* --verbose-errors */
	bool debug;                 /* -d */
	bool warmup_set;
	bool warmup_stable;
	bool seed_set;
	bool random_seed_given; /* --random-seed: say so, as pgbench does */
	bool keep_logs;
	bool placement_set;
	bool quiet;
	bool until_decided; /* --until-decided: blocks until the gate decides */
	bool rule_set;
	bool metric_set;
	bool format_pgbench; /* --format pgbench: pgbench 15's stdout, exactly */
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

/* run's own options (the shared ones are opt.h's) */
enum
{
	OPT_PROFILE = 256,
	OPT_PROFILE_RATE,
	OPT_PROFILE_CALLGRAPH,
	OPT_NO_PROFILE,
	OPT_PLACEMENT,
	OPT_RANDOM_SEED,
	OPT_INIT_SCALE,
	OPT_MAX_TRIES,
	OPT_VERBOSE_ERRORS,
	OPT_UNTIL_DECIDED,
	OPT_PROGRESS_TIMESTAMP,
	OPT_SHOW_SCRIPT,
	OPT_FAILURES_DETAILED,
	OPT_EXIT_ON_ABORT,
	OPT_LOG_PREFIX,
	OPT_AGG_INTERVAL,
	OPT_SAMPLING_RATE,
	OPT_WORKERS,
	OPT_WORKER_TIMEOUT,
	OPT_MAX_CLOCK_OFFSET
};

static const struct cmd_opt run_opts[] = {
	CMD_OPT_CLIENTS_ENTRY,
	CMD_OPT('j', "jobs", "N", NULL,
			"threads per workload (default: the recipe's)"),
	CMD_OPT_DURATION_ENTRY,
	CMD_OPT('t', "transactions", "N", NULL,
			"N transactions per client instead (pgbench -t)"),
	CMD_OPT('D', "define", "NAME=VALUE", NULL,
			"a script variable (over the recipe's variables:)"),
	CMD_OPT_WARMUP_ENTRY,
	CMD_OPT('M', "protocol", "P", "simple extended prepared",
			"simple, extended or prepared (all workloads)"),
	CMD_OPT('P', "progress", "N", NULL,
			"progress lines on stderr every N seconds"),
	CMD_OPT_REPEAT_ENTRY,
	CMD_OPT_DB_ENTRY,
	CMD_OPT_BINDIR_ENTRY,
	CMD_OPT_OS_USER_ENTRY,
	CMD_OPT_TARGET_ENTRY,
	CMD_OPT_VARIANT_ENTRY,
	CMD_OPT(CMD_OPT_SEED, "seed", "N", NULL,
			"random seed for the scripts and the order of\n"
			"the points (default: random); scripts draw\n"
			"pgbench's values for --random-seed=N"),
	CMD_OPT(OPT_RANDOM_SEED, "random-seed", "N|time|rand", "time rand",
			"the same, with pgbench's spelling"),
	CMD_OPT(CMD_OPT_SOURCE, "source", "DIR", "<dir>",
			"the PostgreSQL source tree of variants with a\n"
			"build (over the recipe's source:); what is\n"
			"not in the build cache is built first"),
	CMD_OPT_BUILD_CACHE_ENTRY,
	CMD_OPT_KEEP_LOGS_ENTRY,
	CMD_OPT(OPT_PLACEMENT, "placement", "free|split|auto|SERVER/DRIVER",
			"free split auto",
			"the CPUs of the managed servers and of the\n"
			"driver: as the scheduler likes (free), the\n"
			"CPUs halved (split), split for points whose\n"
			"clients fit on the driver's half (auto, the\n"
			"default; free with -f/-b or --target), or\n"
			"two CPU lists such as 0/1 or 0-3/4-7"),
	CMD_OPT_COUNT_ENTRY,
	CMD_OPT(OPT_PROFILE, "profile", NULL, NULL,
			"CPU profiles of the managed servers during\n"
			"every window, by perf (linux-perf); over the\n"
			"recipe's profile:; show --profile prints them"),
	CMD_OPT(OPT_NO_PROFILE, "no-profile", NULL, NULL,
			"no profiles, whatever the recipe's profile:"),
	CMD_OPT(OPT_PROFILE_RATE, "profile-rate", "HZ", NULL,
			"cpu-clock samples a second (default 99);\n"
			"implies --profile"),
	CMD_OPT(OPT_PROFILE_CALLGRAPH, "profile-callgraph", "fp|dwarf", "fp dwarf",
			"call graphs too: each function's inclusive\n"
			"share (dwarf unwinds any binary; fp needs\n"
			"-fno-omit-frame-pointer); implies --profile"),
	CMD_OPT_HEADING("with variants, until decided:"),
	CMD_OPT(OPT_UNTIL_DECIDED, "until-decided", NULL, NULL,
			"add blocks until the first variant against\n"
			"each other one is decided (judged after every\n"
			"block with alpha spending, so looking does not\n"
			"add false alarms), then exit as gate does:\n"
			"0, 1, 2; the options below judge it as\n"
			"compare's judge a comparison"),
	CMD_OPT_BUDGET_ENTRY,
	CMD_OPT_MAX_REPEATS_ENTRY,
	CMD_OPT_ON_ENTRY,
	CMD_OPT_RULE_ENTRY,
	CMD_OPT_ADJUST_ENTRY,
	CMD_OPT_METRIC_ENTRY,
	CMD_OPT_MAX_REGRESSION_ENTRY,
	CMD_OPT_HEADING("spread over workers:"),
	CMD_OPT(OPT_WORKERS, "workers", "N", NULL,
			"spread every point's clients over N worker\n"
			"processes (pgcliff worker, on this host or\n"
			"others) that meet in the store, which must\n"
			"be PostgreSQL (--db postgresql://...)"),
	CMD_OPT_KEY_FILE_ENTRY,
	CMD_OPT(OPT_WORKER_TIMEOUT, "worker-timeout", "DUR", NULL,
			"how long the workers may take to claim and\n"
			"connect their shares (default 60s)"),
	CMD_OPT(OPT_MAX_CLOCK_OFFSET, "max-clock-offset", "MS", NULL,
			"refuse a point whose worker's clock is further\n"
			"off this host's (default 20)"),
	CMD_OPT_HEADING(
		"pgbench's options (also in recipes, see schemas/recipe/REFERENCE.md):"),
	CMD_OPT('f', "file", "SCRIPT[@W]", "<file>",
			"run a pgbench script file instead of a recipe"),
	CMD_OPT('b', "builtin", "NAME[@W]", "tpcb-like simple-update select-only",
			"or a builtin: tpcb-like, simple-update,\n"
			"select-only; several -f/-b share the\n"
			"transactions by weight W"),
	CMD_OPT('S', "select-only", NULL, NULL, "-b select-only"),
	CMD_OPT('N', "skip-some-updates", NULL, NULL, "-b simple-update"),
	CMD_OPT(OPT_INIT_SCALE, "init-scale", "N", NULL,
			"with -f/-b: pgbench -i -s N first"),
	CMD_OPT('i', "initialize", NULL, NULL,
			"pgbench -i: the same as pgcliff init, with\n"
			"init's options"),
	CMD_OPT('s', "scale", "N", NULL,
			":scale of custom scripts (builtins read it\n"
			"from pgbench_branches, as pgbench)"),
	CMD_OPT('r', "report-per-command", NULL, NULL,
			"time every command (pgbench -r); stored"),
	CMD_OPT('R', "rate", "TPS", NULL,
			"rate limit of each workload: a Poisson\n"
			"schedule over its clients; latency counts\n"
			"from the scheduled start (pgbench -R)"),
	CMD_OPT('L', "latency-limit", "MS", NULL,
			"count transactions slower than MS as late;\n"
			"with -R, skip slots already that late"),
	CMD_OPT(OPT_MAX_TRIES, "max-tries", "N", NULL,
			"tries of a transaction that fails with a\n"
			"serialization failure or deadlock (pgbench;\n"
			"0: as long as the window lasts); a recipe's\n"
			"on_error: sets other classes"),
	CMD_OPT(OPT_VERBOSE_ERRORS, "verbose-errors", NULL, NULL,
			"print each error of a retried transaction"),
	CMD_OPT(OPT_FAILURES_DETAILED, "failures-detailed", NULL, NULL,
			"serialization (40001) and deadlock (40P01)\n"
			"failures on lines of their own (pgbench)"),
	CMD_OPT(OPT_EXIT_ON_ABORT, "exit-on-abort", NULL, NULL,
			"a client that aborts stops the run (exit 75),\n"
			"as pgbench 17's; else the others go on"),
	CMD_OPT('d', "debug", NULL, NULL, "print each query as it is sent"),
	CMD_OPT(CMD_OPT_FORMAT, "format", "pgcliff|pgbench", "pgcliff pgbench",
			"pgbench: print what pgbench 15 prints for the\n"
			"same options, and nothing else (one point, one\n"
			"workload); pgcliff's own lines go to stderr"),
	CMD_OPT('q', "quiet", NULL, NULL, "no per-point summary lines"),
	CMD_OPT(OPT_PROGRESS_TIMESTAMP, "progress-timestamp", NULL, NULL,
			"progress lines say the Unix time (with -P)"),
	CMD_OPT(OPT_SHOW_SCRIPT, "show-script", "NAME",
			"tpcb-like simple-update select-only",
			"print a builtin script and exit (pgbench)"),
	CMD_OPT('C', "connect", NULL, NULL,
			"a new connection for every transaction, its\n"
			"time apart from the latency (pgbench -C)"),
	CMD_OPT('l', "log", NULL, NULL,
			"write every transaction of the window to\n"
			"PREFIX.PID (thread 0) and PREFIX.PID.N, in\n"
			"pgbench's format; .pSTEP after PID when\n"
			"the run has several points"),
	CMD_OPT(OPT_LOG_PREFIX, "log-prefix", "PREFIX", NULL,
			"the log files' prefix (default pgbench_log)"),
	CMD_OPT(OPT_AGG_INTERVAL, "aggregate-interval", "N", NULL,
			"one log line per N seconds instead"),
	CMD_OPT(OPT_SAMPLING_RATE, "sampling-rate", "F", NULL,
			"log only this share of the transactions"),
	CMD_OPT('v', "vacuum-all", NULL, NULL,
			"before each point, pgbench's vacuum of its four\n"
			"tables (history truncated); errors said, passed"),
	CMD_OPT('n', "no-vacuum", NULL, NULL,
			"accepted, as pgbench's: pgcliff never vacuums\n"
			"before a point (a recipe's reset: may)"),
	CMD_OPT_HEADING("the server, as pgbench names it:"),
	CMD_OPT('h', "host", "HOST", "<dir>",
			"host or socket directory of the server"),
	CMD_OPT('p', "port", "PORT", NULL, "its port"),
	CMD_OPT('U', "username", "USER", "<user>", "the user to connect as"),
	CMD_OPT_TEXT(
		"  DBNAME                  after -f/-b: the database (or a conninfo)\n"
		"  Any of these is --target primary=... (not both).  With -f/-b, as\n"
		"  for pgbench and init, PGHOST, PGPORT, PGUSER or PGDATABASE alone\n"
		"  also select the server; without any, a managed server is started.\n"
		"  A recipe runs on managed servers unless its command line names a\n"
		"  server: the environment alone never aims it at one (its setup may\n"
		"  drop tables).\n"),
	CMD_OPT_END};

const struct cmd cmd_run = {
	.name = "run",
	.summary = "run a recipe and store every point",
	.synopsis = "RECIPE.yaml [OPTIONS]\n"
				"-f SCRIPT.sql | -b BUILTIN ... [OPTIONS] [DBNAME]",
	.about =
		"Runs every point of the recipe (sweep x repeat) on a managed server\n"
		"started from --bindir (or on --target), prints pgbench's summary lines\n"
		"per point and a table at the end, and stores the run.  With -f or -b,\n"
		"pgbench scripts run as a one-workload recipe (10 transactions per\n"
		"client unless -T or -t says otherwise, as pgbench).\n",
	.opts = run_opts,
	.exits =
		"exit codes: 0 ok, 64 usage, 65 invalid recipe/script/SQL, 69 server\n"
		"unavailable, 70 internal or store error, 75 aborted or interrupted\n"
		"(the finished points are stored); with --until-decided, 0 no\n"
		"regression, 1 regression, 2 inconclusive, as gate.\n",
	.operand = "<yaml>",
	.fn = run_fn,
};

/*
 * pgbench's own options (-f, -b, -t, -r, -R, -L, -M, -P, -s, -D, ...), in
 * its spelling and with its messages: 0 when CH was one of them (set in
 * O), 1 when it is not, EXIT_USAGE after printing a usage error.
 */
static int
parse_pgbench_option(struct run_opts *o, int ch, char *arg)
{
	char *end;

	switch (ch)
	{
		case 'M':
		{
			enum recipe_protocol p;

			if (recipe_protocol_parse(arg, &p) < 0)
				return cmd_usage_error(
					&cmd_run,
					"invalid protocol \"%s\" (simple, extended or prepared)",
					arg);
			o->protocol = (int) p;
		}
		break;
		case 'P':
			if (!cmd_parse_count(arg, 86400, &o->progress_s))
				return cmd_usage_error(
					&cmd_run, "invalid progress interval \"%s\"", arg);
			break;
		case 't':
		{
			int n;

			if (!cmd_parse_count(arg, 1000000000, &n))
				return cmd_usage_error(
					&cmd_run, "invalid number of transactions \"%s\"", arg);
			o->transactions = n;
		}
		break;
		case 'f':
		case 'b':
		case 'S':
		case 'N':
			if (add_script_arg(o, ch, arg) < 0)
				return EXIT_USAGE;
			break;
		case 'r':
			o->per_statement = true;
			break;
		case OPT_VERBOSE_ERRORS:
			o->verbose_errors = true;
			break;
		case 'R':
		case 'L':
		{
			double v;

			errno = 0;
			v = strtod(arg, &end);
			if (errno || end == arg || *end || !(v > 0) || v > 1e9)
				return cmd_usage_error(&cmd_run, "invalid %s \"%s\"",
									   ch == 'R' ? "rate" : "latency limit",
									   arg);
			if (ch == 'R')
				o->rate = v;
			else
				o->latency_limit_ns = (int64_t) (v * 1e6); /* ms */
		}
		break;
		case 'd':
			o->debug = true;
			break;
		case OPT_MAX_TRIES:
			if (strcmp(arg, "0") == 0)
				o->max_tries = 0;
			else if (!cmd_parse_count(arg, 1000000, &o->max_tries))
				return cmd_usage_error(
					&cmd_run, "invalid number of maximum tries \"%s\"", arg);
			break;
		case 's':
		case OPT_INIT_SCALE:
			if (!cmd_parse_count(arg, 1000000000,
								 ch == 's' ? &o->scale : &o->init_scale))
				return cmd_usage_error(&cmd_run, "invalid scale factor \"%s\"",
									   arg);
			break;
		case 'D':
			if (strchr(arg, '=') == NULL || arg[0] == '=')
				return cmd_usage_error(
					&cmd_run,
					"invalid variable definition \"%s\" (want NAME=VALUE)",
					arg);
			o->defines = xrealloc(o->defines,
								  (size_t) (o->ndefines + 1) * sizeof(char *));
			o->defines[o->ndefines++] = arg;
			break;
		case OPT_RANDOM_SEED:
			if (strcmp(arg, "time") == 0)
				o->seed = (uint64_t) clock_now_ns();
			else if (strcmp(arg, "rand") == 0)
			{
				if (getrandom(&o->seed, sizeof(o->seed), 0) !=
					(ssize_t) sizeof(o->seed))
					o->seed = (uint64_t) clock_now_ns();
			}
			else
			{
				errno = 0;
				o->seed = strtoull(arg, &end, 10);
				if (*end || errno || arg[0] == '-')
					return cmd_usage_error(
						&cmd_run,
						"unrecognized random seed option \"%s\" (an "
						"unsigned integer, time or rand)",
						arg);
			}
			o->seed_set = true;
			o->random_seed_given = ch == OPT_RANDOM_SEED;
			break;
		default:
			return 1;
	}
	return 0;
}

/* What the options say together, and the recipe or scripts they name. */
/*
 * pgbench's way of naming the server: -h, -p, -U and a database name (or
 * conninfo) make the target; with -f/-b, as in pgbench, so do PGHOST,
 * PGPORT, PGUSER, PGDATABASE (or PGHOSTADDR, PGSERVICE) alone.  A recipe
 * is never aimed at a server by the environment alone: its setup may
 * drop tables.
 */
static int
pg_target_of(struct run_opts *o)
{
	static const char *const env[] = {"PGHOST", "PGHOSTADDR", "PGPORT",
									  "PGUSER", "PGDATABASE", "PGSERVICE"};
	bool given = o->pg_host || o->pg_port || o->pg_user || o->pg_dbname;
	bool from_env = false;
	struct pgc_error err;

	for (size_t i = 0; i < lengthof(env) && o->nscript_args; i++)
	{
		const char *v = getenv(env[i]);

		from_env |= v != NULL && v[0] != '\0';
	}
	if (!given && !from_env)
		return o->standby_target && !o->target
				   ? cmd_usage_error(&cmd_run, "--target standby= goes with "
											   "--target primary= (or -h)")
				   : 0;
	if (o->target)
		return cmd_usage_error(&cmd_run, "give --target or -h/-p/-U/DBNAME, "
										 "not both");
	error_clear(&err);
	o->pg_target = cluster_conninfo_merge(o->pg_dbname, o->pg_host, o->pg_port,
										  o->pg_user, &err);
	if (o->pg_target == NULL)
		return cmd_usage_error(&cmd_run, "%s", err.message);
	o->target = o->pg_target;
	return 0;
}

static int
check_options(int argc, char **argv, struct run_opts *o)
{
	/* pgbench's checks, in its words */
	if (o->sampling_rate > 0 && !o->log)
		return cmd_usage_error(&cmd_run, "log sampling (--sampling-rate) is "
										 "allowed only when logging "
										 "transactions (-l)");
	if (o->sampling_rate > 0 && o->agg_interval_s > 0)
		return cmd_usage_error(&cmd_run, "log sampling (--sampling-rate) and "
										 "aggregation (--aggregate-interval) "
										 "cannot be used at the same time");
	if (o->agg_interval_s > 0 && !o->log)
		return cmd_usage_error(&cmd_run, "log aggregation is allowed only "
										 "when actually logging transactions");
	if (o->log_prefix && !o->log)
		return cmd_usage_error(&cmd_run, "log file prefix (--log-prefix) is "
										 "allowed only when logging "
										 "transactions (-l)");
	if (o->agg_interval_s > 0 && o->duration_ns > 0 &&
		o->duration_ns % ((int64_t) o->agg_interval_s * 1000000000) != 0)
		return cmd_usage_error(&cmd_run,
							   "duration must be a multiple of "
							   "the aggregation interval (%d s)",
							   o->agg_interval_s);
	if (o->progress_timestamp && o->progress_s == 0)
		return cmd_usage_error(&cmd_run, "--progress-timestamp is allowed "
										 "only under --progress");
	if (o->max_tries == 0 && o->transactions)
		return cmd_usage_error(&cmd_run,
							   "an unlimited number of transaction tries can "
							   "only be used with a duration (-T)");
	if (o->transactions && o->duration_ns)
		return cmd_usage_error(&cmd_run,
							   "specify either a number of transactions (-t) "
							   "or a duration (-T), not both");
	if ((o->until.budget_ns || o->until.max_repeats || o->until.on_geomean ||
		 o->rule_set || (o->metric_set && !o->count_txns)) &&
		!o->until_decided)
		return cmd_usage_error(&cmd_run,
							   "--budget, --max-repeats, --on, --rule, "
							   "--adjust, --metric and --max-regression go "
							   "with --until-decided (--metric with --count "
							   "too)");
	if (o->count_txns && (o->transactions || o->duration_ns))
		return cmd_usage_error(&cmd_run,
							   "--count runs its own transactions: not with "
							   "-t or -T");
	if (o->until_decided && o->repeat)
		return cmd_usage_error(&cmd_run,
							   "--until-decided chooses the repeats: give "
							   "--max-repeats, not --repeat");
	if (o->key_file && o->workers == 0)
		return cmd_usage_error(&cmd_run, "--key-file goes with --workers");
	/* workers run only work signed with the secret they share with us */
	if (o->workers > 0)
		o->key_file = cmd_key_file(o->key_file);
	if (o->workers > 0 && o->key_file == NULL)
		return cmd_usage_error(&cmd_run,
							   "--workers needs --key-file (or "
							   "PGCLIFF_KEY_FILE): workers run only work "
							   "signed with the secret they share with the "
							   "run");
	if (o->nscript_args)
	{
		size_t n;

		/* pgbench [OPTION]... [DBNAME] */
		if (optind < argc)
		{
			n = strlen(argv[optind]);
			if ((n > 5 && strcmp(argv[optind] + n - 5, ".yaml") == 0) ||
				(n > 4 && strcmp(argv[optind] + n - 4, ".yml") == 0))
				return cmd_usage_error(&cmd_run, "give a recipe or -f/-b "
												 "scripts, not both");
			o->pg_dbname = argv[optind++];
		}
		if (optind < argc)
			return cmd_usage_error(&cmd_run, "unexpected argument '%s'",
								   argv[optind]);
		return pg_target_of(o);
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
	return pg_target_of(o);
}

/*
 * run's options into O: one case per option of its table (cmd/opt.h),
 * pgbench's and pgcliff's; long because run takes both sets, and each
 * case is a few lines of checking with its own message.
 */
static int
parse_options(int argc, char **argv, struct run_opts *o)
{
	int ch, rc;
	char *end;

	memset(o, 0, sizeof(*o));
	o->protocol = -1;
	o->max_tries = -1;
	o->until.metric = -1; /* the recipe's measure: unless --metric */
	while ((ch = cmd_getopt(&cmd_run, argc, argv)) != -1)
	{
		switch (ch)
		{
			case 'h':
				o->pg_host = optarg;
				break;
			case OPT_PROGRESS_TIMESTAMP:
				o->progress_timestamp = true;
				break;
			case OPT_FAILURES_DETAILED:
				o->failures_detailed = true;
				break;
			case 'C':
				o->reconnect = true;
				break;
			case 'v':
				o->vacuum_all = true;
				break;
			case OPT_EXIT_ON_ABORT:
				o->exit_on_abort = true;
				break;
			case 'l':
				o->log = true;
				break;
			case OPT_LOG_PREFIX:
				o->log_prefix = optarg;
				break;
			case OPT_AGG_INTERVAL:
				if (!cmd_parse_count(optarg, 86400 * 366, &o->agg_interval_s))
					return cmd_usage_error(&cmd_run,
										   "invalid number of seconds for "
										   "aggregation: \"%s\"",
										   optarg);
				break;
			case OPT_SAMPLING_RATE:
				o->sampling_rate = strtod(optarg, &end);
				if (end == optarg || *end || !(o->sampling_rate > 0) ||
					o->sampling_rate > 1)
					return cmd_usage_error(&cmd_run,
										   "invalid sampling rate \"%s\" "
										   "(more than 0, at most 1)",
										   optarg);
				break;
			case OPT_SHOW_SCRIPT:
			{
				int nfound = 0;
				const struct script_builtin *b =
					script_builtin_find(optarg, &nfound);

				if (b == NULL)
					return cmd_usage_error(
						&cmd_run, "%s builtin script \"%s\"",
						nfound ? "ambiguous" : "no", optarg);
				/* what pgbench prints, where it prints it, and exit */
				fprintf(stderr, "-- %s: %s\n%s\n", b->name, b->desc, b->text);
				o->shown_script = true;
				return -1;
			}
			case 'p':
				o->pg_port = optarg;
				break;
			case 'U':
				o->pg_user = optarg;
				break;
			case 'n':
				/* pgbench's --no-vacuum: pgcliff never vacuums before a
				 * point (a recipe's reset: may) unless -v asks */
				o->no_vacuum = true;
				break;
			case 'c':
				free(o->clients);
				if (!cmd_parse_count_list(optarg, 100000, &o->clients,
										  &o->nclients))
					return cmd_usage_error(
						&cmd_run,
						"invalid client list \"%s\" (want e.g. 1,2,4)",
						optarg);
				/* the recipe's rule for a sweep: ascending, no repeats */
				for (int i = 1; i < o->nclients; i++)
					if (o->clients[i] <= o->clients[i - 1])
						return cmd_usage_error(
							&cmd_run,
							"client counts must ascend, as a sweep's: %d "
							"after %d in \"%s\"",
							o->clients[i], o->clients[i - 1], optarg);
				break;
			case 'j':
				if (!cmd_parse_count(optarg, 100000, &o->jobs))
					return cmd_usage_error(
						&cmd_run, "invalid number of jobs \"%s\"", optarg);
				break;
			case 'T':
				o->duration_ns = recipe_parse_duration_ns(optarg);
				if (o->duration_ns > 0 &&
					o->duration_ns < RECIPE_MIN_DURATION_NS)
					return cmd_usage_error(&cmd_run,
										   "-T %s is shorter than a window "
										   "can be (at least 1s)",
										   optarg);
				if (o->duration_ns <= 0)
					return cmd_usage_error(
						&cmd_run,
						"invalid duration \"%s\" (want e.g. 5s, 90s, 2min)",
						optarg);
				break;
			case 'q':
				o->quiet = true;
				break;
			case CMD_OPT_FORMAT:
				if (strcmp(optarg, "pgbench") == 0)
					o->format_pgbench = true;
				else if (strcmp(optarg, "pgcliff") != 0)
					return cmd_usage_error(
						&cmd_run, "invalid format \"%s\" (pgcliff or pgbench)",
						optarg);
				break;
			case CMD_OPT_WARMUP:
				o->warmup_set = true;
				if (recipe_parse_warmup(optarg, &o->warmup_ns,
										&o->warmup_stable) < 0)
					return cmd_usage_error(
						&cmd_run,
						"invalid warmup \"%s\" (a duration, stable or "
						"stable:MAX)",
						optarg);
				break;
			case CMD_OPT_REPEAT:
				if (!cmd_parse_count(optarg, 1000, &o->repeat))
					return cmd_usage_error(
						&cmd_run, "invalid repeat count \"%s\"", optarg);
				break;
			case CMD_OPT_DB:
				o->db = optarg;
				break;
			case CMD_OPT_BINDIR:
				o->bindir = optarg;
				break;
			case CMD_OPT_OS_USER:
				o->os_user = optarg;
				break;
			case CMD_OPT_TARGET:
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
			case CMD_OPT_SEED:
				errno = 0;
				o->seed = strtoull(optarg, &end, 10);
				/* strtoull takes "-5" as 2^64 - 5: refuse a sign, as
				 * recipe explain does */
				if (*end || errno || optarg[0] == '-' || optarg[0] == '\0')
					return cmd_usage_error(&cmd_run, "invalid seed \"%s\"",
										   optarg);
				o->seed_set = true;
				break;
			case CMD_OPT_KEEP_LOGS:
				o->keep_logs = true;
				break;
			case OPT_WORKERS:
				if (!cmd_parse_count(optarg, 1000, &o->workers))
					return cmd_usage_error(
						&cmd_run,
						"invalid number of workers \"%s\" (1 to 1000)",
						optarg);
				break;
			case CMD_OPT_KEY_FILE:
				o->key_file = optarg;
				break;
			case OPT_WORKER_TIMEOUT:
				o->worker_timeout_ns = recipe_parse_duration_ns(optarg);
				if (o->worker_timeout_ns <= 0)
					return cmd_usage_error(
						&cmd_run,
						"invalid duration \"%s\" (want e.g. 30s, 2min)",
						optarg);
				break;
			case OPT_MAX_CLOCK_OFFSET:
			{
				char *rest;

				errno = 0;
				o->max_clock_offset_ms = strtod(optarg, &rest);
				if (errno || rest == optarg || *rest ||
					!(o->max_clock_offset_ms > 0 &&
					  o->max_clock_offset_ms <= 60000))
					return cmd_usage_error(
						&cmd_run,
						"invalid clock offset \"%s\" (milliseconds, "
						"more than 0, at most 60000)",
						optarg);
				break;
			}
			case OPT_PROFILE:
				if (o->profile_hz <= 0)
					o->profile_hz = RECIPE_PROFILE_HZ;
				break;
			case OPT_PROFILE_RATE:
				if (!cmd_parse_count(optarg, 10000, &o->profile_hz))
					return cmd_usage_error(&cmd_run,
										   "invalid --profile-rate \"%s\" "
										   "(samples a second, 1 to 10000)",
										   optarg);
				break;
			case OPT_PROFILE_CALLGRAPH:
			{
				enum profile_callgraph cg;

				if (profile_callgraph_parse(optarg, &cg) < 0)
					return cmd_usage_error(&cmd_run,
										   "invalid --profile-callgraph "
										   "\"%s\" (want fp or dwarf)",
										   optarg);
				o->profile_callgraph = (int) cg;
				if (o->profile_hz <= 0)
					o->profile_hz = RECIPE_PROFILE_HZ;
				break;
			}
			case OPT_NO_PROFILE:
				o->profile_hz = -1;
				o->profile_callgraph = -1;
				break;
			case OPT_PLACEMENT:
			{
				struct pgc_error perr;

				error_clear(&perr);
				if (placement_parse(optarg, &o->placement, &perr) < 0)
					return cmd_usage_error(&cmd_run, "%s (%s)", perr.message,
										   perr.hint);
				o->placement_set = true;
				break;
			}
			case CMD_OPT_SOURCE:
				o->source = optarg;
				break;
			case CMD_OPT_COUNT:
				if ((rc = cmd_parse_count_txns(&cmd_run, optarg,
											   &o->count_txns)) != 0)
					return rc;
				break;
			case 'i':
				/* -i or --initialize alone went to init (run_fn); here it
				 * came grouped with other letters */
				return cmd_usage_error(&cmd_run,
									   "-i (--initialize) goes on its own, "
									   "as pgbench's: pgcliff run -i [init's "
									   "options]");
			case OPT_UNTIL_DECIDED:
				o->until_decided = true;
				break;
			case CMD_OPT_BUDGET:
			case CMD_OPT_MAX_REPEATS:
			case CMD_OPT_ON:
			case CMD_OPT_RULE:
			case CMD_OPT_ADJUST:
			case CMD_OPT_METRIC:
			case CMD_OPT_MAX_REGRESSION:
				if ((rc = cmd_parse_until(&cmd_run, ch, optarg, &o->until)) !=
					0)
					return rc;
				o->rule_set = o->rule_set || ch == CMD_OPT_RULE ||
							  ch == CMD_OPT_ADJUST ||
							  ch == CMD_OPT_MAX_REGRESSION;
				o->metric_set = o->metric_set || ch == CMD_OPT_METRIC;
				break;
			case CMD_OPT_BUILD_CACHE:
				o->build_cache = optarg;
				break;
			case CMD_OPT_VARIANT:
				o->variant_args =
					xrealloc(o->variant_args,
							 (size_t) (o->nvariant_args + 1) * sizeof(char *));
				o->variant_args[o->nvariant_args++] = optarg;
				break;
			default:
				if ((rc = parse_pgbench_option(o, ch, optarg)) == 1)
					return cmd_option_error(&cmd_run, ch, argv);
				if (rc != 0)
					return rc;
		}
	}
	return check_options(argc, argv, o);
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
	free(o->pg_target);
	memset(o, 0, sizeof(*o));
}

/*
 * -f SCRIPT / -b BUILTIN: a one-workload recipe of those scripts, built
 * directly (recipe_from_scripts); without -T it runs pgbench's default of
 * 10 transactions per client.
 */
static struct recipe *
script_recipe(const struct run_opts *o, struct pgc_error *err)
{
	struct recipe_script_arg *args =
		xcalloc((size_t) o->nscript_args, sizeof(*args));
	struct recipe *r;

	for (int i = 0; i < o->nscript_args; i++)
	{
		const char *arg = o->script_args[i];

		if (arg[0] == 'b')
			args[i].builtin = arg + 2;
		else
			args[i].file = arg + 2;
		args[i].weight = o->script_weights[i];
	}
	r = recipe_from_scripts(args, o->nscript_args, o->duration_ns,
							o->transactions, o->init_scale, err);
	free(args);
	return r;
}

/* pgbench's summary lines of one workload of a measured point. */
static void
print_summary(const struct run_opts *o, const struct recipe *r,
			  const struct run_event *ev)
{
	const struct recipe_workload *rw = recipe_workload_find(r, ev->w->name);
	const char **labels = xcalloc((size_t) rw->nscripts, sizeof(char *));
	struct report_pgbench p;
	struct strbuf out = STRBUF_INIT;

	for (int k = 0; k < rw->nscripts; k++)
		labels[k] = rw->scripts[k].label;
	memset(&p, 0, sizeof(p));
	p.w = ev->w;
	p.res = ev->res;
	p.point = ev->point;
	p.secs = ev->secs;
	p.labels = labels;
	p.protocol = recipe_protocol_name((enum recipe_protocol) ev->w->protocol);
	p.scale = ev->scale;
	p.partitions = ev->partitions;
	p.partition_method = pginit_partition_name(ev->partition_method);
	p.exact = o->format_pgbench;
	p.progress = o->progress_s > 0;
	p.failures_detailed = o->failures_detailed;
	report_pgbench(&out, &p);
	fputs(out.buf ? out.buf : "", stdout);
	fflush(stdout);
	strbuf_release(&out);
	free(labels);
}

/* What the command shows of a run, as the run library reports it. */
struct run_view
{
	const struct run_opts *o;
	const struct recipe *recipe;
	const struct run *run;
	int64_t t0_ns;   /* the first point's start */
	bool live;       /* a status line on a terminal (stderr, no -P) */
	bool live_shown; /* one is on the screen, to be cleared */
	char point[160]; /* what the live line says of the point */
	int order, nplan;
	int64_t step_ns;           /* when the current step began */
	struct report_steal steal; /* the windows' steal so far */
};

/* "1:23" or "1:02:03" */
static void
clock_text(char *buf, size_t size, double s)
{
	long t = s > 0 ? (long) (s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%ld:%02ld", t / 60, t % 60);
}

/*
 * The time left in the run, the current step included: the steps so far
 * at the pace they went, or during the first, the run library's estimate.
 */
static double
time_left_s(const struct run_view *v)
{
	int64_t now = clock_now_ns();
	double in_step = (double) (now - v->step_ns) / 1e9, left;

	if (v->order > 0)
		left = (double) (v->step_ns - v->t0_ns) / 1e9 / v->order *
				   (v->nplan - v->order) -
			   in_step;
	else
		left = (double) run_block_estimate_ns(v->run) * run_nblocks(v->run) /
				   1e9 -
			   in_step;
	return left > 0 ? left : 0;
}

static void
live_clear(struct run_view *v)
{
	if (v->live_shown)
	{
		cmd_term_control("\r\033[K");
		fflush(stderr);
		v->live_shown = false;
	}
}

static void
on_event(void *arg, const struct run_event *ev)
{
	struct run_view *view = arg;
	const struct run_opts *o = view->o;
	const struct recipe *r = view->recipe;
	/* --format pgbench: pgbench's lines alone on stdout */
	FILE *own = o->format_pgbench ? stderr : stdout;

	if (ev->kind != RUN_EV_PROGRESS)
		live_clear(view);
	switch (ev->kind)
	{
		case RUN_EV_NOTE:
			fprintf(stderr, "note: %s\n", ev->text);
			break;
		case RUN_EV_STEP:
		case RUN_EV_DEBUG:
			fprintf(stderr, "%s%s%s\n", ev->variant ? ev->variant : "",
					ev->variant ? ": " : "", ev->text);
			break;
		case RUN_EV_SERVER_LOG:
			fprintf(stderr, "server log%s%s: %s\n", ev->variant ? " of " : "",
					ev->variant ? ev->variant : "", ev->text);
			break;
		case RUN_EV_LOOK:
			cmd_print_look(ev->look, ev->budget_s);
			break;
		case RUN_EV_SERVER_UP:
			if (o->format_pgbench)
				/* pgbench's printVersion(), client and server alike */
				printf("pgbench (%s)\n",
					   ev->server_version ? ev->server_version : "?");
			if (!o->quiet)
				fprintf(own,
						"pgcliff %s: run %" PRId64
						" of recipe %s%s%s on PostgreSQL %s (%s)\n",
						PGCLIFF_VERSION, ev->run_id, r->name,
						ev->variant ? ", variant " : "",
						ev->variant ? ev->variant : "",
						ev->server_version ? ev->server_version : "?",
						ev->managed ? "managed" : "external");
			break;
		case RUN_EV_POINT_BEGIN:
		{
			char el[32], left[32];

			if (ev->order == 0 || view->t0_ns == 0)
				view->t0_ns = clock_now_ns();
			view->step_ns = clock_now_ns();
			view->order = ev->order;
			view->nplan = ev->nplan;
			clock_text(el, sizeof(el),
					   (double) (clock_now_ns() - view->t0_ns) / 1e9);
			clock_text(left, sizeof(left), time_left_s(view));
			snprintf(view->point, sizeof(view->point),
					 "point %d/%d%s%s, %d clients", ev->order + 1, ev->nplan,
					 ev->variant ? " " : "", ev->variant ? ev->variant : "",
					 ev->clients);
			if (o->quiet || o->format_pgbench)
				break;
			live_clear(view);
			printf("%spoint %d of %d: %s%s%s%s%s%sclients %d, repeat %d of "
				   "%d (%s elapsed, about %s left)\n",
				   ev->order ? "\n" : "", ev->order + 1, ev->nplan,
				   ev->variant ? "variant " : "",
				   ev->variant ? ev->variant : "", ev->variant ? ", " : "",
				   ev->workload ? "workload " : "",
				   ev->workload ? ev->workload : "", ev->workload ? ", " : "",
				   ev->clients, ev->block + 1, ev->repeat, el, left);
			fflush(stdout);
			break;
		}
		case RUN_EV_POINT_RESULT:
			/* once a point: every workload's event carries the point */
			if (ev->res == &ev->point->w[0])
				report_steal_add(&view->steal, ev->point->steal_pct);
			live_clear(view);
			if (!o->quiet)
				print_summary(o, r, ev);
			if (!o->quiet && ev->cost &&
				ev->res == &ev->point->w[ev->point->nworkloads - 1])
				printf(
					"counted on the primary (callgrind): %.0f instructions, "
					"%.1f L1 misses, %.2f LL misses per transaction "
					"(work, not time)\n",
					ev->cost[0], ev->cost[1], ev->cost[2]);
			break;
		case RUN_EV_PROGRESS:
			if (view->live)
			{
				/* a terminal without -P: one line, rewritten each second */
				double tps = 0;
				char el[32], left[32];
				double elapsed = (double) (clock_now_ns() - view->t0_ns) / 1e9;

				for (int i = 0; i < ev->progress->nworkloads; i++)
					tps += ev->progress->w[i].tps;
				clock_text(el, sizeof(el), elapsed);
				clock_text(left, sizeof(left), time_left_s(view));
				cmd_term_control("\r\033[K");
				fprintf(stderr,
						"%s: %s %.1f s, %.0f tps; %s elapsed, "
						"about %s left",
						view->point,
						ev->progress->elapsed_s < 0 ? "warm-up" : "window",
						ev->progress->elapsed_s, tps, el, left);
				fflush(stderr);
				view->live_shown = true;
				break;
			}
			for (int i = 0; i < ev->progress->nworkloads; i++)
			{
				const struct load_progress_wl *w = &ev->progress->w[i];
				char when[32];

				/* pgbench: "%.3f s" of Unix time, else "%.1f s" elapsed */
				if (o->progress_timestamp)
					snprintf(when, sizeof(when), "%.3f s",
							 ev->progress->unix_s);
				else
					snprintf(when, sizeof(when), "%.1f s",
							 ev->progress->elapsed_s);
				fprintf(stderr,
						"progress: %s, %.1f tps, lat %.3f ms stddev "
						"%.3f, %" PRIu64 " failed%s%s\n",
						when, w->tps, w->lat_avg_ms, w->lat_stddev_ms,
						w->failures, ev->progress->nworkloads > 1 ? " - " : "",
						ev->progress->nworkloads > 1 ? r->workloads[i].name
													 : "");
			}
			break;
	}
}

/* What the options set over the recipe (applied to it before the run). */
static void
override_of(const struct run_opts *o, struct recipe_override *ov)
{
	memset(ov, 0, sizeof(*ov));
	ov->clients = o->clients;
	ov->nclients = o->nclients;
	ov->jobs = o->jobs;
	ov->duration_ns = o->duration_ns;
	ov->transactions = o->transactions;
	ov->warmup_ns = o->warmup_ns;
	ov->warmup_set = o->warmup_set;
	ov->warmup_stable = o->warmup_stable;
	ov->protocol = o->protocol;
	ov->repeat = o->repeat;
	ov->rate = o->rate;
	ov->latency_limit_ns = o->latency_limit_ns;
	ov->max_tries = o->max_tries;
	ov->reconnect = o->reconnect;
	ov->defines = o->defines;
	ov->ndefines = o->ndefines;
	ov->placement = o->placement_set ? &o->placement : NULL;
}

/* The run library's view of the rest of the options. */
static void
run_config_of(const struct run_opts *o, struct run_config *c)
{
	memset(c, 0, sizeof(*c));
	c->variant_args = o->variant_args;
	c->nvariant_args = o->nvariant_args;
	c->bindir = o->bindir;
	c->target = o->target;
	c->standby_target = o->standby_target;
	c->os_user = o->os_user;
	c->source = o->source;
	c->build_cache = o->build_cache;
	c->count_txns = o->count_txns;
	c->exit_on_abort = o->exit_on_abort;
	c->vacuum_all = o->vacuum_all && !o->no_vacuum;
	c->log_prefix =
		o->log ? (o->log_prefix ? o->log_prefix : "pgbench_log") : NULL;
	c->agg_interval_s = o->agg_interval_s;
	c->sampling_rate = o->sampling_rate;
	c->failures_detailed = o->failures_detailed;
	c->scale = o->scale;
	c->per_statement = o->per_statement;
	c->verbose_errors = o->verbose_errors;
	c->debug = o->debug;
	c->progress_s = o->progress_s;
	c->seed = o->seed;
	c->keep_logs = o->keep_logs;
	c->workers = o->workers;
	c->worker_key = o->workers > 0 ? &o->key : NULL;
	c->worker_timeout_ns = o->worker_timeout_ns;
	c->max_clock_offset_ms = o->max_clock_offset_ms;
	c->profile_hz = o->profile_hz;
	c->profile_callgraph = o->profile_callgraph;
	c->until = o->until;
	c->until.on = o->until_decided;
	c->interrupt = &cmd_interrupted;
	c->on_event = on_event;
}

static int
run_fn(int argc, char **argv)
{
	struct run_opts o;
	struct cmd_ctx ctx;
	struct recipe_override ov;
	struct run_config c;
	struct run_view view;
	struct recipe *recipe = NULL;
	struct run *run = NULL;
	char *cmdline = NULL;
	char logs_dir[1100];
	int rc;

	/* pgbench -i: initialize instead of running (pgcliff init's options) */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-i") == 0 || strcmp(argv[i], "--initialize") == 0)
		{
			char **rest = xcalloc((size_t) argc, sizeof(char *));
			int n = 0;

			for (int k = 0; k < argc; k++)
				if (k != i)
					rest[n++] = argv[k];
			rc = cmd_init.fn(n, rest);
			free(rest);
			return rc;
		}

	if (cmd_wants_help(&cmd_run, argc, argv))
		return EXIT_OK;
	memset(&o, 0, sizeof(o));
	if ((rc = parse_options(argc, argv, &o)) != 0)
	{
		bool shown = o.shown_script;

		run_opts_free(&o);
		return shown ? EXIT_OK : rc;
	}
	cmd_ctx_init(&ctx, &cmd_run, o.db);
	/* before any server starts */
	if (o.workers > 0 && wire_key_load(o.key_file, &o.key, &ctx.err) < 0)
		goto out;
	if (!o.seed_set)
		o.seed = cmd_draw_seed();
	if (o.random_seed_given)
		fprintf(stderr, "pgcliff: setting random seed to %" PRIu64 "\n",
				o.seed);

	recipe = o.nscript_args ? script_recipe(&o, &ctx.err)
							: recipe_load(o.recipe_path, &ctx.err);
	if (recipe == NULL)
		goto out;
	override_of(&o, &ov);
	if (recipe_override(recipe, &ov, &ctx.err) < 0)
		goto out;
	run_config_of(&o, &c);
	c.recipe = recipe;
	memset(&view, 0, sizeof(view));
	view.o = &o;
	view.recipe = recipe;
	/* a terminal and no -P: a status line, from 1 s progress reports */
	view.live =
		isatty(STDERR_FILENO) && o.progress_s == 0 && !o.format_pgbench;
	if (view.live)
		c.progress_s = 1;
	c.event_arg = &view;
	if ((run = run_new(&c, &ctx.err)) == NULL)
		goto out;
	view.run = run;
	if (o.until_decided)
	{
		struct strbuf plan = STRBUF_INIT;

		run_until_describe(run, &plan);
		fprintf(stderr, "until decided: %s\n", plan.buf);
		strbuf_release(&plan);
	}
	if (o.format_pgbench && (run_nsteps(run) != 1 || recipe->nworkloads != 1))
	{
		error_set(&ctx.err, PGC_ERR_USAGE,
				  "--format pgbench prints one point of one workload; this "
				  "run has %d point%s and %d workload%s",
				  run_nsteps(run), run_nsteps(run) == 1 ? "" : "s",
				  recipe->nworkloads, recipe->nworkloads == 1 ? "" : "s");
		goto out;
	}
	cmd_install_signals();
	if (cmd_open_store(&ctx, true) == NULL)
		goto out;
	if (store_logs_dir(ctx.db_path, logs_dir, sizeof(logs_dir)))
		run_set_logs_dir(run, logs_dir);
	cmdline = run_command_line(argc, argv);
	if (run_execute(run, ctx.store, cmdline, &ctx.err) < 0 &&
		run_finish_error(run))
	{
		live_clear(&view);
		cmd_print_error(run_finish_error(run));
	}
	live_clear(&view);
	if (o.until_decided && ctx.err.kind == PGC_ERR_NONE)
		/* as gate exits: 0 no regression, 1 regression, 2 undecided */
		ctx.exit_code = (int) run_until_outcome(run);
	if (!o.format_pgbench)
	{
		int nrows;
		const struct report_row *rows = run_rows(run, &nrows);

		if (nrows > 0)
		{
			struct strbuf table = STRBUF_INIT;

			report_sweep_table(&table, rows, nrows);
			printf("\n%s", table.buf);
			strbuf_release(&table);
		}
	}
	if (run_id(run) > 0 && run_finish_error(run))
		/* the end could not be stored: the store says "running" until
		 * list and show find the process gone (dead) */
		fprintf(o.format_pgbench ? stderr : stdout,
				"run %" PRId64 " in %s: %s, %d point%s stored, its end "
				"not (the store will call it dead)\n",
				run_id(run), ctx.db_path, run_status(run),
				run_points_done(run), run_points_done(run) == 1 ? "" : "s");
	else if (run_id(run) > 0)
		fprintf(o.format_pgbench ? stderr : stdout,
				"run %" PRId64 " stored in %s (status %s, %d point%s)\n",
				run_id(run), ctx.db_path, run_status(run),
				run_points_done(run), run_points_done(run) == 1 ? "" : "s");
	if (view.steal.n > 0 && view.steal.max_pct > REPORT_STEAL_NOISY_PCT)
	{
		struct strbuf line = STRBUF_INIT;

		report_steal_describe(&view.steal, &line);
		fprintf(stderr, "note: %s\n", line.buf);
		strbuf_release(&line);
	}

out:
	run_free(run);
	recipe_free(recipe);
	run_opts_free(&o);
	free(cmdline);
	return cmd_ctx_finish(&ctx);
}
