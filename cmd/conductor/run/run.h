/*
 * run.h - executes a run of a recipe: resolves its server variants,
 * builds those made from source, brings up each variant's target, runs
 * init and setup, executes every step of the plan on the load engine and
 * stores the run, its variants, points, series, windows and samples as
 * they are measured (a failure later never loses a finished point).
 *
 * It never prints: what a command shows arrives as events through one
 * callback (struct run_event), in the order things happen.  Not for
 * parsing options or rendering anything; cmd/cmd_run.c does both.
 */
#ifndef PGCLIFF_RUN_H
#define PGCLIFF_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "build.h"
#include "compare.h"
#include "fleet.h"
#include "engine.h"
#include "pginit.h"
#include "recipe.h"
#include "report.h"
#include "sequential.h"
#include "store.h"

/* ---------------------------------------------------------------------
 * A run
 * ------------------------------------------------------------------- */

struct run_event;
struct run;

/* How many runs' kept logs a logs_dir holds; older ones are removed. */
#define RUN_LOGS_KEPT 20

/*
 * A warm-up until stable ends when its last 2 s and the 2 s before do not
 * differ both beyond the noise and beyond this: the default margin of a
 * verdict, so that what drift is left cannot make a regression alone.
 */
#define RUN_WARMUP_TOLERANCE 0.03

/* The directory a run's kept logs are in: LOGS_DIR/run-ID; caller frees. */
char *run_logs_path(const char *logs_dir, int64_t run_id);

/* --until-decided's budget when none is given: 20 minutes. */
#define RUN_UNTIL_BUDGET_NS (1200 * 1000000000LL)

/*
 * Blocks until decided (run --until-decided, bisect's steps): after each
 * look the sequential design schedules, the first variant against each
 * of the others, judged as gate judges them at the confidence the design
 * gives that look; a decision, the end of the budget or the last block
 * stops the run.  Every look is stored and told (RUN_EV_LOOK).
 */
struct run_until
{
	int64_t budget_ns; /* 0: RUN_UNTIL_BUDGET_NS */
	double margin;     /* --max-regression; <= 0: the metric's default */
	int max_repeats;   /* blocks at most; 0: as many as the budget holds */
	int metric;        /* -1: the recipe's measure:, else enum cmp_metric */
	char metric_full[CMP_METRIC_NAME_MAX]; /* probe:, profile: as given */
	enum cmp_rule rule;
	enum cmp_adjust adjust; /* of the paired ratios (compare.h) */
	bool on;                /* until decided; without it the rest is unused */
	bool on_geomean;        /* decided by each workload's geometric mean */
};

/*
 * What the command line asks of a run beyond the recipe (what it sets
 * over the recipe is applied to the recipe first: recipe_override()).
 * Zero (or NULL, or -1 where said) means "the recipe's".  Pointers are
 * borrowed for the run's lifetime.
 */
struct run_config
{
	/* 8-byte fields first, then 4-byte, then the flags: no padding */
	const struct recipe *recipe;
	char *const *variant_args;
	const char *bindir;
	const char *target;         /* conninfo of the primary */
	const char *standby_target; /* and of its standby */
	const char *os_user;
	const char *source;      /* the tree build variants use */
	const char *build_cache; /* NULL: build_default_cache_dir() */
	/*
	 * --count N: every point counts the primary's work per transaction
	 * over N transactions per client under callgrind (cost.h), instead of
	 * timing a window; the run's metric becomes instructions unless said
	 * otherwise.  0: points are timed.
	 */
	int64_t count_txns;
	/* -l: transaction logs PREFIX.PID[.pSTEP][.THREAD] (NULL: none) */
	const char *log_prefix;
	double sampling_rate; /* --sampling-rate */
	uint64_t seed;
	volatile sig_atomic_t *interrupt; /* set by the command's signal handler */
	/* until.on: repeat, the design and the looks are the run's to choose */
	struct run_until until;
	/*
	 * --workers: every point's clients are spread over this many worker
	 * processes (pgcliff worker) that meet in the store, which must be
	 * PostgreSQL (fleet.h); 0: this process drives every client.  How long
	 * they may take to be ready (0: 60 s), and the bound on their clocks'
	 * offset against this host's (0: 20 ms).
	 */
	int64_t worker_timeout_ns;
	double max_clock_offset_ms;
	int workers;
	/* the secret the specs posted to the workers are signed with (wire.h;
	 * --key-file): required with workers */
	const struct wire_key *worker_key;
	void (*on_event)(void *arg, const struct run_event *ev);
	void *event_arg;
	int nvariant_args;
	int agg_interval_s; /* --aggregate-interval */
	int scale;          /* -s */
	int progress_s;
	/* --profile: > 0 servers' CPU profiles at this rate, -1 none, 0 the
	 * recipe's profile: */
	int profile_hz;
	/* --profile-callgraph: an enum profile_callgraph, -1 none, 0 the
	 * recipe's */
	int profile_callgraph;
	bool exit_on_abort; /* --exit-on-abort: a client's abort ends the run */
	bool vacuum_all; /* -v: pgbench's vacuum of its tables before each point */
	bool failures_detailed; /* in the logs' columns too */
	bool per_statement;
	bool verbose_errors;
	bool debug;
	bool keep_logs;
};

enum run_event_kind
{
	RUN_EV_NOTE,         /* text: something the user should know */
	RUN_EV_STEP,         /* text: a build or init step (variant, if any) */
	RUN_EV_SERVER_UP,    /* a variant's target is up: server_version */
	RUN_EV_POINT_BEGIN,  /* a plan step starts */
	RUN_EV_POINT_RESULT, /* one workload of a measured step */
	RUN_EV_PROGRESS,     /* -P: the engine's progress */
	RUN_EV_DEBUG,        /* text: -d, a statement as sent */
	RUN_EV_SERVER_LOG,   /* text: the path of a server log that is kept */
	RUN_EV_LOOK          /* until decided: a look, stored (look) */
};

/*
 * An event.  Everything it points at is borrowed until the callback
 * returns.  VARIANT is the variant's name when the run has several
 * (NULL otherwise).
 */
struct run_event
{
	enum run_event_kind kind;
	const char *variant;
	const char *text;
	/* RUN_EV_SERVER_UP */
	int64_t run_id;
	const char *server_version;
	bool managed;
	/* RUN_EV_POINT_BEGIN / _RESULT: plan step ORDER of NPLAN */
	int order;
	int nplan;
	int block;  /* the repeat */
	int repeat; /* repeats in all */
	int clients;
	const char *workload; /* POINT_BEGIN: set when workloads run apart */
	/* RUN_EV_POINT_RESULT */
	const struct load_workload *w;
	const struct load_workload_result *res;
	const struct load_result *point;
	/* a counted point: per transaction, enum cost_event order; else NULL */
	const double *cost;
	double secs; /* the window the figures divide by */
	int scale;
	int partitions;
	enum pginit_partition partition_method;
	/* RUN_EV_PROGRESS */
	const struct load_progress *progress;
	/* RUN_EV_LOOK: the look as stored, and the budget it is taken in */
	const struct store_look *look;
	double budget_s;
};

struct run;

/*
 * Check C against its recipe and plan it: script variables (-D over
 * variables:), failure policies, variants, the order of the points.
 * Starts nothing and writes nothing.  NULL with ERR.
 */
struct run *run_new(const struct run_config *c, struct pgc_error *err);

/* The plan's size: steps, and the workloads each measures. */
int run_nsteps(const struct run *r);
int run_nvariants(const struct run *r);
/* Variant I's name (0 <= I < run_nvariants()); borrowed until run_free(). */
const char *run_variant_name(const struct run *r, int i);
/* The blocks (repeats) the plan holds at most. */
int run_nblocks(const struct run *r);

/*
 * How long one block of the plan will likely take: each point's warm-up,
 * window and connections, and a server restart per variant when they take
 * turns (builds, init and setup not counted).  0 when it cannot be said
 * (transactions instead of a duration).
 */
int64_t run_block_estimate_ns(const struct run *r);

/*
 * Plan BLOCKS blocks instead (before run_execute()), with the same seed;
 * a sequential design then spreads its looks over them.
 */
void run_set_blocks(struct run *r, int blocks);

/*
 * Keep the logs of a failure (or all, with keep_logs) in DIR (copied;
 * before run_execute()): DIR/run-ID/VARIANT/{primary,standby}/, the
 * newest RUN_LOGS_KEPT runs' only.  Without it they stay in the servers'
 * directories in $TMPDIR.
 */
void run_set_logs_dir(struct run *r, const char *dir);

/* The run's sequential design (alpha 0: none); borrowed. */
const struct seq_design *run_design(const struct run *r);

/*
 * Until decided: the plan for people ("at most 40 blocks (1200 s budget,
 * a block ~30 s), 6 looks"), appended to OUT; nothing without until.on.
 */
void run_until_describe(const struct run *r, struct strbuf *out);

/*
 * Until decided, after run_execute(): the last look's outcome, as gate
 * exits (0 no regression, 1 regression, 2 undecided; also 2 when no look
 * was taken).
 */
enum cmp_outcome run_until_outcome(const struct run *r);

/*
 * Execute: build, store the run row in STORE (open for writing) with
 * COMMAND_LINE (as run_command_line() made it), bring up every target,
 * run init and setup, measure every plan step, and store the outcome with
 * its status (ok | failed | interrupted).  -1 with ERR when the run did
 * not finish well; what was measured is stored all the same.  Every
 * server is down when it returns.  Once per run.
 */
int run_execute(struct run *r, struct store *store, const char *command_line,
				struct pgc_error *err);

/* After run_execute(): 0 when the run row was never written. */
int64_t run_id(const struct run *r);
const char *run_status(const struct run *r);
int run_points_done(const struct run *r);
/* The measured points as table rows; borrowed until run_free(). */
const struct report_row *run_rows(const struct run *r, int *n);
/*
 * A failure to record the run's end in the store, when there was one
 * besides the run's own error (NULL: none).
 */
const struct pgc_error *run_finish_error(const struct run *r);

void run_free(struct run *r);

/*
 * The command line as stored: "pgcliff ARGS..." shell-quoted, with the
 * password of every conninfo left out.  Caller frees.
 */
char *run_command_line(int argc, char **argv);

#endif /* PGCLIFF_RUN_H */
