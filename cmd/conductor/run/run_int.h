/*
 * run_int.h - private to cmd/conductor/run: the run's state (struct run),
 * shared by its files (run.c: plan, events and the run's order of work;
 * servers.c: each variant's servers; point.c: one plan step measured and
 * stored; profiling.c: the servers' CPU profiles; count.c: counted
 * points; provenance.c: what the run row records), and the one way run/
 * turns a jansson value into stored text.
 */
#ifndef PGCLIFF_RUN_INT_H
#define PGCLIFF_RUN_INT_H

#include <inttypes.h>
#include <stdint.h>

#include "cluster.h"
#include "cost.h"
#include "engine.h"
#include "pjson.h"
#include "profile.h"
#include "run.h"

/* One variant's servers and what the run learnt of them. */
struct run_target
{
	const struct variant *v;
	struct target *t;
	struct target_provenance prov;
	int scale; /* :scale of the scripts on this server */
	int partitions;
	enum pginit_partition partition_method;
};

struct run
{
	/* 8-byte fields first, then 4-byte, then the flags: no padding */
	struct run_config c;
	/* where servers and driver run, resolved on this machine */
	struct placement placement;
	struct cpu_mask old_cpus; /* what the driver had before it was pinned */
	struct store *store;
	const char *command_line;
	const struct recipe *recipe;
	struct variant *vars;
	struct run_target *targets;
	struct recipe_plan_step *plan;
	struct load_probe *probes;     /* the recipe's, for every point */
	const int *sweep;              /* -c's list, else the recipe's */
	struct script_define *defines; /* variables: (-D applied), borrowed */
	/* per recipe workload: its scripts, weights and failure policy */
	const struct script ***wl_scripts;
	int **wl_weights;
	struct load_policy *policies;
	int64_t run_id;
	char *run_uid; /* with --workers: signed with each point's spec */
	const char *status;
	struct report_row *rows;
	char *logs_dir; /* run_set_logs_dir() */
	/* servers' CPU profiles (profile.h): where perf writes, the step's
	 * running profiles (one per node), its target; the rate (0: none) */
	char *profile_dir;
	struct profile *prof[2];
	const struct run_target *prof_target;
	struct pgc_error finish_err;
	/* until decided: the design the blocks are judged by (alpha 0:
	 * none), the clock, the looks taken, the last outcome, a look that
	 * failed */
	struct seq_design seq;
	int64_t until_t0_ns;
	struct pgc_error until_err;
	int until_looks;
	enum cmp_outcome until_outcome;
	int nvars;
	int nplan;
	int nsweep;
	int repeat;
	int ndefines;
	int points_done;
	int nrows;
	int aborted_clients;
	enum profile_mode profile_mode;
	enum profile_callgraph profile_cg;
	int profile_hz; /* the run's rate; a variant may have its own */
	int prof_hz;    /* the step's */
	int prof_order;
	char abort_reason[1024];
	/* --count: the valgrind the primaries run under, and its version */
	char valgrind[1024];
	char valgrind_version[64];
	bool has_finish_err;
	bool pinned; /* the driver is pinned; OLD_CPUS are what it had */
	bool prof_external_said;
	bool profiling;    /* perf may sample: setup_profiles() */
	bool until_failed; /* a look could not be taken or stored */
	bool streamed;     /* the step's seconds went to the store (stream.c) */
};

struct host_facts
{
	char name[256];
	char cpu[256];
	int cores;
	int64_t mem_bytes;
	char kernel[256];
};

/* The machine: host name, CPU model, online cores, memory, kernel. */
void host_facts(struct host_facts *h);

/* SHA-256 of TEXT as 64 hex digits; caller frees. */
char *sha256_hex(const char *text);

/* on_init_step()'s argument: the run and the variant as shown. */
struct init_arg
{
	const struct run *r;
	const char *variant;
};

/* J as one line of JSON ({"a": 1, "b": [2]}), released; caller frees. */
#define json_text(j) pjson_text((j), JSON_REAL_PRECISION(15))

/* ---------------------------------------------------------------------
 * Counted points (run --count; count.c)
 * ------------------------------------------------------------------- */

/* The functions a counted point keeps, largest first. */
#define COUNT_TOP_FUNCTIONS 200

/* The warm transactions of a count of N: a tenth of it, at least 1. */
uint64_t count_warm_txns(uint64_t n);

/* A counted point: per transaction (enum cost_event) and by function. */
struct count_result
{
	double per[COST_NEVENTS];
	struct cost_fn_share *fns; /* names owned */
	int nfns;
};

/*
 * Count LP on T's primary (started under callgrind): after one connection
 * of its own, LP at count_warm_txns(N) transactions per client, then at
 * that + N; RES gets the second run's results (load_result_release() it
 * whenever filled), OUT the difference per transaction.  LP's workloads'
 * transaction counts are overwritten.  -1 with ERR.
 */
int count_point(const struct target *t, const struct load_point *lp,
				uint64_t n, struct load_result *res, struct count_result *out,
				struct pgc_error *err);
/* Free C's functions. */
void count_result_release(struct count_result *c);

/* ---------------------------------------------------------------------
 * Events and the plan (run.c)
 * ------------------------------------------------------------------- */

/* Tell the caller EV (its on_event). */
void run_emit(const struct run *r, struct run_event *ev);

/* A text event (KIND, VARIANT: NULL or the shown name), as FMT says. */
void run_emit_text(const struct run *r, enum run_event_kind kind,
				   const char *variant, const char *fmt, ...) PGC_PRINTF(4, 5);

/* The variant's name in events, when there is more than one. */
const char *shown_variant(const struct run *r, const struct variant *v);

/* A step of init or setup, as a RUN_EV_STEP (ARG: struct init_arg). */
void on_init_step(void *arg, const char *line);

/* The engine's progress lines (-P), as RUN_EV_PROGRESS. */
void on_progress(void *arg, const struct load_progress *p);

/* debug() of a script, from the engine's worker threads */
void on_debug(void *arg, const char *line);

/* Clients of workload I at sweep point SI: the one rule for both uses. */
int point_clients(const struct run *r, int i, int si);

/*
 * The most connections any point opens (-c lists need not ascend, so
 * every point is looked at).
 */
int max_clients_of_point(const struct run *r);

/*
 * The warm-up of every point: the command line's, else the recipe's; with
 * *STABLE, until the throughput is stable and at most *NS.
 */
int64_t point_warmup(const struct run *r, bool *stable);

/* Until decided: the budget, the command line's or the default. */
int64_t until_budget_ns(const struct run *r);

/* ---------------------------------------------------------------------
 * Each variant's servers (servers.c)
 * ------------------------------------------------------------------- */

/* SQL from the recipe (init, setup, reset), failures at their place. */
int exec_sql_list(const struct run_target *rt, const struct recipe_sql *list,
				  int n, const char *what, struct pgc_error *err);

/*
 * pgbench -v before a point: its vacuum of the four tables, each error
 * said and passed over, as pgbench's tryExecuteStatement() does.
 */
void vacuum_all(struct run *r, struct run_target *rt);

/*
 * Bring up every variant's server once: create it, record its provenance,
 * run the recipe's init and setup.  With several variants taking turns,
 * each server is stopped again until its first block.
 */
int prepare_targets(struct run *r, struct pgc_error *err);

/*
 * Switch servers between stretches of the plan: with several variants
 * taking turns (restart: block), the previous variant's server stops and
 * this one's starts fresh for each block.
 */
int switch_target(struct run *r, const struct recipe_plan_step *prev,
				  const struct recipe_plan_step *st, struct pgc_error *err);

/* ---------------------------------------------------------------------
 * One plan step: its point made, measured and stored (point.c)
 * ------------------------------------------------------------------- */

/* The load engine's workloads of sweep point SI on RT, from the recipe. */
void fill_workloads(const struct run *r, const struct run_target *rt, int si,
					struct load_workload *wl);

/*
 * One workload's result of a point into the store: the point row, its
 * series, windows, histogram and, counted, its count (CNT).
 */
int store_point(struct run *r, const struct run_target *rt,
				const struct load_workload *w,
				const struct load_workload_result *res, int block, int order,
				const struct load_result *point,
				const struct count_result *cnt, double secs,
				struct pgc_error *err);

/*
 * The server-side samples of a point, with the plan step: commits, wait
 * events, conflicts and replay lag per node and second.  ERR may be NULL
 * (a point that failed: keep what there is, quietly).
 */
int store_samples(struct run *r, const struct load_point *lp,
				  const struct load_result *res, int order,
				  struct pgc_error *err);

/* Sample SA of LP as the store keeps it; *CONFL: its conflicts' JSON
 * (ROW points to it; caller frees), the other strings SA's. */
void sample_row(const struct load_point *lp, const struct load_sample *sa,
				struct store_sample_row *row, char **confl);

/* Errors by class ({"40": 3}) of second SEC of E[0..N) (-1: all of
 * them), or NULL: none.  Caller frees. */
char *errors_json(const struct load_error_second *e, int n, int sec);

/*
 * A point's seconds streamed to the store as its window runs (stream.c):
 * stream_begin() makes LP's sink write each second's series (staged
 * until the point is stored: store_series_stage()) and samples, a block
 * of seconds at a time; the point's result then keeps neither.
 * stream_end() writes the rest and, with KEEP, leaves the series staged
 * for store_point() (0, or -1 with ERR); without, keeps the samples
 * (quietly, as a failed point's) and drops the series.
 */
struct point_stream
{
	struct run *r;
	const struct load_point *lp;
	const char **names;            /* the workloads' */
	struct store_series_row *rows; /* buffered: by second, then workload */
	struct store_sample_row *samples;
	int order;
	int nw;
	int nrows, cap; /* seconds buffered */
	int nsamples, scap;
	int since_try; /* seconds told since the last write was tried */
};

void stream_begin(struct point_stream *ps, struct run *r,
				  struct load_point *lp, int order);
int stream_end(struct point_stream *ps, bool keep, struct pgc_error *err);

/*
 * Pin the servers and the driver apart for a point that placement pins
 * (split and CPU lists: every point; auto: one whose clients fit on the
 * driver's CPUs), else let them run anywhere.  The backends the point
 * connects are forked after this, so they follow.
 */
int place_point(struct run *r, struct run_target *rt,
				const struct load_workload *wl, int nw, struct pgc_error *err);

/*
 * Every plan step in order, each point stored as soon as it is measured;
 * until decided, a look after each block the design schedules.
 */
int run_points(struct run *r, struct pgc_error *err);

/* ---------------------------------------------------------------------
 * The servers' CPU profiles (profiling.c)
 * ------------------------------------------------------------------- */

/* Whether and how the servers are profiled; said at the start either way. */
void setup_profiles(struct run *r);

/* The rate variant V's steps are profiled at; 0: not. */
int variant_hz(const struct run *r, const struct variant *v);

/*
 * The engine's window edges (called from the run's own thread): sampling
 * every CPU, perf is already up and its events go on and off; sampling
 * per process, perf starts here, when the clients' backends are there,
 * and stops at the window's end.
 */
void on_window_edge(void *arg, bool begins);

/* Start perf on each managed node of the step's target (its processes
 * as they are now); a node perf cannot sample is said and left out. */
void start_profiles(struct run *r);

/* The step's profiles into the store (KEEP false: dropped), then freed. */
int store_profiles(struct run *r, int order, bool keep, struct pgc_error *err);

/*
 * A counted point's functions as the primary's profile, in the profile
 * table's terms: HZ 0 says the rows count instructions per transaction
 * (SAMPLES) rather than perf's samples, and PCT is the share of them.
 */
int store_count_profile(struct run *r, int order,
						const struct count_result *cnt, struct pgc_error *err);

#endif /* PGCLIFF_RUN_INT_H */
