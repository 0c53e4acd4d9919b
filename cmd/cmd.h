/*
 * cmd.h - the command table and what every command shares: exit codes,
 * the compiler-style error printer and the interrupt flag.  Only cmd/
 * prints to the user and decides exit codes.
 */
#ifndef PGCLIFF_CMD_H
#define PGCLIFF_CMD_H

#include <signal.h>
#include <stdio.h>

#include "base.h"
#include "opt.h"
#include "store.h"

/* Exit codes (BSD sysexits numbering), documented in --help and README. */
enum
{
	EXIT_OK = 0,
	EXIT_REGRESSION = 1,
	EXIT_INCONCLUSIVE = 2,
	EXIT_USAGE = 64,
	EXIT_DATAERR = 65,     /* invalid recipe, script or recipe SQL */
	EXIT_UNAVAILABLE = 69, /* PostgreSQL/cluster unavailable */
	EXIT_SOFTWARE = 70,    /* internal error, store failure */
	EXIT_TEMPFAIL = 75     /* run aborted or interrupted */
};

/*
 * A command: its --help, man page and completion are made from these
 * fields and its option table (opt.h), and nothing else.
 */
struct cmd_opt;
struct cmd
{
	const char *name;     /* "run", "recipe check" */
	const char *summary;  /* one line for `pgcliff help` */
	const char *synopsis; /* after "usage: pgcliff NAME", a line per form */
	const char *about;    /* what it does, paragraphs; ends with '\n' */
	const struct cmd_opt *opts; /* ended by CMD_OPT_END; NULL: none */
	const char *exits;          /* "exit codes: ...", or NULL */
	const char *operand; /* what completes an operand (opt.h), or NULL */
	int (*fn)(int argc, char **argv);
};

extern const struct cmd cmd_run;
extern const struct cmd cmd_list;
extern const struct cmd cmd_pull;
extern const struct cmd cmd_push;
extern const struct cmd cmd_show;
extern const struct cmd cmd_recipe_check;
extern const struct cmd cmd_recipe_explain;
extern const struct cmd cmd_compare;
extern const struct cmd cmd_export;
extern const struct cmd cmd_gate;
extern const struct cmd cmd_report;
extern const struct cmd cmd_history;
extern const struct cmd cmd_init;
extern const struct cmd cmd_build;
extern const struct cmd cmd_bisect;
extern const struct cmd cmd_worker;

/*
 * Everything pgcliff writes to stdout and stderr passes the terminal's
 * escaping (visible_add(), base.h): stored text, servers' messages and
 * recipes cannot drive the reader's terminal, whatever the format or
 * verb.  Called first by main().  The control sequences pgcliff means
 * itself (the live status line of run) go through cmd_term_control().
 */
void cmd_filter_output(void);
void cmd_term_control(const char *seq);

/* Set by SIGINT/SIGTERM once cmd_install_signals() ran. */
extern volatile sig_atomic_t cmd_interrupted;
void cmd_install_signals(void);

/* Exit code for an error kind. */
int cmd_exit_code(const struct pgc_error *err);

/*
 * Print ERR to stderr, compiler style: "file:line:col: error: msg", the
 * offending line with a caret, then detail and hint lines.
 */
void cmd_print_error(const struct pgc_error *err);

/* A progress callback of the libraries: LINE on stderr, flushed. */
void cmd_progress_line(void *arg, const char *line);

/*
 * One look of a run until decided (run --until-decided, bisect) on
 * stderr: "look 2 after 3 blocks (97.5 % intervals, 40 s of 600 s
 * budget): INCONCLUSIVE" and its verdicts.
 */
struct store_look;
void cmd_print_look(const struct store_look *look, double budget_s);

/* A random seed for a run, in [0, INT64_MAX]. */
uint64_t cmd_draw_seed(void);

/*
 * An option of a run until decided, as run and bisect take them: ID is
 * its id (CMD_OPT_BUDGET, _MAX_REPEATS, _ON, _RULE, _ADJUST, _METRIC,
 * _MAX_REGRESSION), ARG its value, into U.  0; 1 when ID is none of
 * them; EXIT_USAGE after printing the error for C.
 */
struct run_until;
int cmd_parse_until(const struct cmd *c, int id, const char *arg,
					struct run_until *u);

/* --count N, as run and bisect take it, into *OUT.  0, or EXIT_USAGE after
 * printing the error for C. */
int cmd_parse_count_txns(const struct cmd *c, const char *arg, int64_t *out);

/* Print "pgcliff <verb>: " usage error + hint; returns EXIT_USAGE. */
int cmd_usage_error(const struct cmd *c, const char *fmt, ...)
	PGC_PRINTF(2, 3);

/*
 * The usage error for what cmd_getopt() returned as CH: ':' for a missing
 * value, '?' for an unknown option.  Anything else is an option of C's
 * table that its command does not handle: an internal error, said as
 * such (EXIT_SOFTWARE), which tests/cli/options.sh looks for.
 */
int cmd_option_error(const struct cmd *c, int ch, char **argv);

/*
 * Parse TEXT as a whole decimal integer in [1, MAX] into *OUT; false on
 * anything else (trailing junk, overflow, out of range).
 */
bool cmd_parse_count(const char *text, int max, int *out);

/*
 * Parse TEXT as a comma-separated list of counts in [1, MAX] ("1,2,4")
 * into a new array *OUT of *N; false (nothing allocated) on anything else.
 */
bool cmd_parse_count_list(const char *text, int max, int **out, int *n);

/*
 * --format of list and show: "text", "json" or "csv" into *OUT; 0, or
 * EXIT_USAGE after printing the error for C.
 */
int cmd_parse_data_format(const struct cmd *c, const char *arg,
						  const char **out);

/* Parse TEXT as a run id: decimal digits only, in [1, INT64_MAX]. */
bool cmd_parse_run_id(const char *text, int64_t *out);

/*
 * A selector of stored points, as compare and gate take them: "12",
 * "12:locks8", a bare variant name (that variant in the newest run that
 * has it), or KEY=VALUE words (run, recipe, variant, last, blocks).
 */
struct cmd_selector
{
	const char *text;
	struct store_selector s;
	int block_lo, block_hi; /* 0-based, inclusive; hi < 0: all */
};

/*
 * Parse TEXT (modified; the selector's strings point into it) given as
 * ORIG into SEL.  0, or EXIT_USAGE after printing the error for C.
 */
int cmd_parse_selector(const struct cmd *c, char *text, const char *orig,
					   struct cmd_selector *sel);

/*
 * Parse TEXT as a fraction: "3%" or "0.03" into *OUT; false on anything
 * else.  The caller checks the range.
 */
bool cmd_parse_fraction(const char *text, double *out);

/*
 * What a command holds from its options to its exit: the store (opened
 * once, by cmd_open_store()), the error that ends it, and the exit code
 * when there is no error (e.g. gate's verdict).
 */
struct store;
struct cmd_ctx
{
	const struct cmd *cmd;
	const char *db; /* --db, or NULL: store_resolve_path()'s default */
	char db_path[1024];
	struct store *store;
	struct pgc_error err;
	int exit_code;
};

void cmd_ctx_init(struct cmd_ctx *ctx, const struct cmd *c, const char *db);

/*
 * The store of CTX, opened on first use from --db, $PGCLIFF_DB or the
 * default; NULL with CTX->err.  WRITE: the command stores something.
 */
struct store *cmd_open_store(struct cmd_ctx *ctx, bool write);

/* The key file of run --workers and worker: GIVEN (--key-file), else
 * $PGCLIFF_KEY_FILE, else NULL (an empty value counts as none). */
const char *cmd_key_file(const char *given);
/* $PGCLIFF_STORE_TIMEOUT, the wait for an SQLite store another process
 * holds locked (0 when unset: the store's default, 30 s); -1 and ERR when
 * it is not a duration. */
int cmd_store_timeout(struct pgc_error *err, int64_t *ns);

/*
 * The one way a command ends: print CTX->err (if set) compiler-style,
 * close the store, and return the exit code: the error's, else
 * CTX->exit_code.
 */
int cmd_ctx_finish(struct cmd_ctx *ctx);

/*
 * OUT to the file PATH (-o), replaced whole or not at all, with the
 * terminal's escaping that stdout has; to stdout when PATH is NULL.  0,
 * or -1 with ERR set.
 */
int cmd_write_output(const char *path, const struct strbuf *out,
					 struct pgc_error *err);

/*
 * A JSON document OUT as show and list print it: indented on a terminal,
 * one compact line into a pipe or file (what tools read); the text is
 * jansson's either way, numbers as rounded.
 */
void cmd_json_for_stdout(struct strbuf *out);

/* True when argv has --help or -? (-h is --host): the command prints its
 * usage. */
int cmd_wants_help(const struct cmd *c, int argc, char **argv);

#endif /* PGCLIFF_CMD_H */
