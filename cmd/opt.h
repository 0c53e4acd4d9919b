/*
 * opt.h - a command's options as one table: the single source of its
 * parsing (cmd_getopt()), its --help (cmd_print_usage()), its man page
 * and the bash and zsh completions (cmd_write_man(), cmd_write_completion(),
 * run at build time by `pgcliff help --man DIR` and `--completion SHELL`).
 *
 * A table is an array of struct cmd_opt ended by CMD_OPT_END.  An entry is
 * an option (NAME set), a heading that starts a group of options, or a
 * line of text inside the options (NAME NULL, KIND says which).  An
 * option's ID is what cmd_getopt() returns for it: its short letter when
 * it has one (ID < 128), else a value >= 256; the values >= CMD_OPT_SHARED
 * belong to the options several commands share, defined once below.
 */
#ifndef PGCLIFF_OPT_H
#define PGCLIFF_OPT_H

#include <getopt.h> /* optarg, optind: what cmd_getopt() sets */
#include <stdio.h>

enum cmd_opt_kind
{
	CMD_OPTION = 0,
	CMD_HEADING, /* "pgbench's options:", a group's title */
	CMD_TEXT     /* a paragraph among the options */
};

struct cmd_opt
{
	const char *name;  /* the long name, without "--" */
	const char *arg;   /* the value's name in help ("LIST"); NULL: a flag */
	const char *help;  /* lines separated by '\n', as --help prints them */
	const char *value; /* what completes the value: NULL (anything),
						* "<file>", "<dir>", "<yaml>", "<user>", or words
						* "fp dwarf" */
	int id;            /* a short option's letter, or >= 256; 0 ends */
	enum cmd_opt_kind kind;
};

/* an option's entry: CMD_OPT('c', "clients", "LIST", NULL, "help") */
#define CMD_OPT(id_, name_, arg_, value_, help_)                              \
	{                                                                         \
		.name = (name_), .arg = (arg_), .help = (help_), .value = (value_),   \
		.id = (id_), .kind = CMD_OPTION                                       \
	}
#define CMD_OPT_END                                                           \
	{                                                                         \
		.id = 0, .kind = CMD_OPTION                                           \
	}
#define CMD_OPT_HEADING(text)                                                 \
	{                                                                         \
		.help = (text), .id = -1, .kind = CMD_HEADING                         \
	}
#define CMD_OPT_TEXT(text)                                                    \
	{                                                                         \
		.help = (text), .id = -1, .kind = CMD_TEXT                            \
	}

/* The ids of shared options: a verb's own ids stay below. */
enum
{
	CMD_OPT_SHARED = 1000,
	CMD_OPT_DB = CMD_OPT_SHARED,
	CMD_OPT_METRIC,
	CMD_OPT_MAX_REGRESSION,
	CMD_OPT_RULE,
	CMD_OPT_ADJUST,
	CMD_OPT_ON,
	CMD_OPT_BUDGET,
	CMD_OPT_MAX_REPEATS,
	CMD_OPT_COUNT,
	CMD_OPT_WARMUP,
	CMD_OPT_SEED,
	CMD_OPT_OS_USER,
	CMD_OPT_KEEP_LOGS,
	CMD_OPT_KEY_FILE,
	CMD_OPT_BUILD_CACHE,
	CMD_OPT_VARIANT,
	CMD_OPT_BINDIR,
	CMD_OPT_TARGET,
	CMD_OPT_REPEAT,
	CMD_OPT_SOURCE,
	CMD_OPT_WORKLOAD,
	CMD_OPT_POINTS,
	CMD_OPT_CONFIDENCE,
	CMD_OPT_FORMAT
};

/*
 * The shared options, one entry each: every command that takes one
 * takes it with this name, value, help and default.
 */
#define CMD_OPT_DB_ENTRY                                                      \
	CMD_OPT(CMD_OPT_DB, "db", "STORE", "<file>",                              \
			"an SQLite file, or a PostgreSQL URI or conninfo\n"               \
			"(default: $PGCLIFF_DB, else $XDG_DATA_HOME/\n"                   \
			"pgcliff/pgcliff.db or ~/.local/share/...)")
#define CMD_OPT_METRIC_ENTRY                                                   \
	CMD_OPT(                                                                   \
		CMD_OPT_METRIC, "metric", "M",                                         \
		"tps latency_avg p50 p90 p95 p99 p999 max dip instructions l1_misses " \
		"ll_misses",                                                           \
		"tps (default: the recipe's measure:),\n"                              \
		"latency_avg, p50, p90, p95, p99, p999, max,\n"                        \
		"dip (during/before of the recipe's windows,\n"                        \
		"per block: a long transaction's cost);\n"                             \
		"probe:PROBE.FIGURE (a figure of the recipe's\n"                       \
		"probes: over its during window, e.g.\n"                               \
		"probe:kax.scanned/snapshots) and\n"                                   \
		"profile:NODE:FUNCTION (FUNCTION's per cent of\n"                      \
		"NODE's CPU profile), lower is better;\n"                              \
		"instructions, l1_misses, ll_misses (a counted\n"                      \
		"run's work per transaction, run --count),\n"                          \
		"lower is better")
#define CMD_OPT_MAX_REGRESSION_ENTRY                                          \
	CMD_OPT(CMD_OPT_MAX_REGRESSION, "max-regression", "P", NULL,              \
			"the margin: 3% for tps, 5% for latencies and\n"                  \
			"the dip, 1% for counts")
#define CMD_OPT_RULE_ENTRY                                                    \
	CMD_OPT(CMD_OPT_RULE, "rule", "estimate|strict", "estimate strict",       \
			"REGRESSION when B is worse beyond doubt and\n"                   \
			"its estimate beyond the margin (estimate, the\n"                 \
			"default), or only when the whole interval is\n"                  \
			"beyond the margin (strict)")
#define CMD_OPT_ADJUST_ENTRY                                                  \
	CMD_OPT(CMD_OPT_ADJUST, "adjust", "steal|none", "steal none",             \
			"each block's B/A read at equal CPU steal (the\n"                 \
			"hypervisor's share of the window, stored per\n"                  \
			"point; the default), or as measured (none)")
#define CMD_OPT_ON_ENTRY                                                      \
	CMD_OPT(CMD_OPT_ON, "on", "points|geomean", "points geomean",             \
			"the verdict from every point (default), or\n"                    \
			"from each workload's geometric mean over the\n"                  \
			"sweep (one test: more power, less detail)")
#define CMD_OPT_BUDGET_ENTRY                                                  \
	CMD_OPT(CMD_OPT_BUDGET, "budget", "DUR", NULL,                            \
			"stop undecided after this long (20min;\n"                        \
			"builds not counted; bisect: each step)")
#define CMD_OPT_MAX_REPEATS_ENTRY                                             \
	CMD_OPT(CMD_OPT_MAX_REPEATS, "max-repeats", "N", NULL,                    \
			"blocks at most (default: what the budget\n"                      \
			"holds at the estimated length of a block)")
#define CMD_OPT_COUNT_ENTRY                                                   \
	CMD_OPT(CMD_OPT_COUNT, "count", "N", NULL,                                \
			"count the primary's work per transaction\n"                      \
			"instead of timing it: N transactions per\n"                      \
			"client (after N/10 warm) under valgrind's\n"                     \
			"callgrind give instructions, l1_misses and\n"                    \
			"ll_misses per transaction, repeatable to a\n"                    \
			"few parts in 10^5; work, not time (waits\n"                      \
			"are invisible); the metric becomes\n"                            \
			"instructions; show --profile lists the\n"                        \
			"functions")
#define CMD_OPT_WARMUP_ENTRY                                                  \
	CMD_OPT(CMD_OPT_WARMUP, "warmup", "DUR|stable[:MAX]", "stable",           \
			"unmeasured time before each window; stable:\n"                   \
			"until the throughput is stable (at most 60s)")
#define CMD_OPT_OS_USER_ENTRY                                                 \
	CMD_OPT(CMD_OPT_OS_USER, "os-user", "USER", "<user>",                     \
			"run the managed servers as USER (default when\n"                 \
			"root: postgres)")
#define CMD_OPT_KEEP_LOGS_ENTRY                                               \
	CMD_OPT(CMD_OPT_KEEP_LOGS, "keep-logs", NULL, NULL,                       \
			"keep the managed servers' logs, as a failed\n"                   \
			"run's are: in STORE-logs/run-ID/ (the\n"                         \
			"newest 20 runs'; show ID names it)")
#define CMD_OPT_KEY_FILE_ENTRY                                                \
	CMD_OPT(CMD_OPT_KEY_FILE, "key-file", "FILE", "<file>",                   \
			"the secret a run and its workers share (mode\n"                  \
			"0600; default $PGCLIFF_KEY_FILE): a worker runs\n"               \
			"only work signed with it")
#define CMD_OPT_BUILD_CACHE_ENTRY                                             \
	CMD_OPT(CMD_OPT_BUILD_CACHE, "build-cache", "DIR", "<dir>",               \
			"the build cache (see pgcliff build --help)")
#define CMD_OPT_BINDIR_ENTRY                                                  \
	CMD_OPT(CMD_OPT_BINDIR, "bindir", "DIR", "<dir>",                         \
			"PostgreSQL binaries for the managed server\n"                    \
			"(default: pg_config --bindir, else the newest\n"                 \
			"/usr/lib/postgresql/*/bin)")
#define CMD_OPT_REPEAT_ENTRY                                                  \
	CMD_OPT(CMD_OPT_REPEAT, "repeat", "N", NULL, "repeats per point (blocks)")
#define CMD_OPT_TARGET_ENTRY                                                  \
	CMD_OPT(CMD_OPT_TARGET, "target", "ROLE=CONNINFO", "primary= standby=",   \
			"an existing server instead of a managed one:\n"                  \
			"primary=CONNINFO (a conninfo or URI; PG*\n"                      \
			"environment variables apply), and with it\n"                     \
			"standby=CONNINFO, its hot standby (topology\n"                   \
			"primary+standby), checked to be in recovery\n"                   \
			"and streaming from it")
#define CMD_OPT_VARIANT_ENTRY                                                 \
	CMD_OPT(CMD_OPT_VARIANT, "variant", "NAME[:KEY=VALUE]", NULL,             \
			"add or amend a server variant; KEY is bindir,\n"                 \
			"target, server.SETTING, profile (on, off,\n"                     \
			"HZ: its own), or for a build from\n"                             \
			"--source: define.MACRO, patch, configure,\n"                     \
			"build=source (the tree as it is), revision\n"                    \
			"(a commit of a git checkout); NAME alone\n"                      \
			"is the recipe as it is: --variant base\n"                        \
			"--variant slow:server.commit_delay=100\n"                        \
			"--variant locks64:define.NUM_XLOGINSERT_LOCKS=64\n"              \
			"(with several variants the repeats run in\n"                     \
			"counterbalanced blocks: AB, BA, ...)")
#define CMD_OPT_CLIENTS_ENTRY                                                 \
	CMD_OPT('c', "clients", "LIST", NULL,                                     \
			"client counts to sweep, e.g. 1,2,4 (overrides\n"                 \
			"the recipe's sweep)")
#define CMD_OPT_DURATION_ENTRY                                                \
	CMD_OPT('T', "duration", "DUR", NULL,                                     \
			"measured time per point: 5s, 90s, 2min")
#define CMD_OPT_WORKLOAD_ENTRY                                                \
	CMD_OPT(CMD_OPT_WORKLOAD, "workload", "W", NULL,                          \
			"only this workload (default: the measure's)")
#define CMD_OPT_POINTS_ENTRY                                                  \
	CMD_OPT(CMD_OPT_POINTS, "points", "LIST", NULL,                           \
			"only these client counts, e.g. 1,4,16")
#define CMD_OPT_CONFIDENCE_ENTRY                                              \
	CMD_OPT(CMD_OPT_CONFIDENCE, "confidence", "C", NULL,                      \
			"of the intervals (default 0.95; a run made\n"                    \
			"with --until-decided: its last look's)")

struct cmd;

/*
 * getopt_long() over C's table: the next option's id, -1 after the last
 * one (optind is then the first operand), ':' for a missing value and
 * '?' for an unknown option (cmd_option_error() prints both).  optarg is
 * the value.  Starts over when C is not the last command it parsed.
 */
int cmd_getopt(const struct cmd *c, int argc, char **argv);

/* The option of C with id ID, or NULL. */
const struct cmd_opt *cmd_find_opt(const struct cmd *c, int id);

/* C's --help: usage lines, what it does, the options, the exit codes. */
void cmd_print_usage(const struct cmd *c, FILE *f);

/*
 * The man pages of COMMANDS (N of them, sorted) as troff: pgcliff.1 (the
 * commands, STORE, the EXITS table, the environment) and one
 * pgcliff-VERB.1 each, written into directory DIR (made if need be).  -1 with
 * errno set when a file cannot be written.
 */
int cmd_write_man(const char *dir, const struct cmd *const *commands, size_t n,
				  const char *version, const char *store, const char *exits);

/* The completion script of SHELL ("bash" or "zsh") for COMMANDS on F;
 * -1 for another shell. */
int cmd_write_completion(FILE *f, const char *shell,
						 const struct cmd *const *commands, size_t n);

#endif /* PGCLIFF_OPT_H */
