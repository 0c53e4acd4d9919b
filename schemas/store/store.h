/*
 * store.h - every run, with its provenance, points and per-second series,
 * in one SQLite file (the default) or in a PostgreSQL database shared by
 * several machines (--db postgresql://..., or a conninfo).  One schema,
 * one set of queries and migrations for both (sql.c keeps the dialects).
 * SQLite: WAL mode with a busy timeout, so several pgcliff processes may
 * write at once; PostgreSQL: any number of writers, their ids from
 * identity columns.  The schema has a version (PRAGMA user_version, or
 * the pgcliff_schema table) and ordered migrations.  Each point is written
 * in its own transaction as soon as it is measured, so a failure later
 * never loses it.  A store handle is used from one thread.
 */
#ifndef PGCLIFF_STORE_H
#define PGCLIFF_STORE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base.h"

struct store;

/* Schema version this build writes. */
#define STORE_SCHEMA_VERSION 20

/* "libpq 15.18, SQLite 3.40.1, store schema 20": what this build reads
 * and writes with, for --version. */
void store_versions(struct strbuf *out);

/*
 * The store's path: OVERRIDE (--db) if not NULL, else $PGCLIFF_DB, else
 * $XDG_DATA_HOME/pgcliff/pgcliff.db, else
 * $HOME/.local/share/pgcliff/pgcliff.db.  Returns BUF.
 */
char *store_resolve_path(const char *override, char *buf, size_t size);

/*
 * Where the runs of the store at PATH keep the server logs of a failure:
 * "PATH-logs" (run_logs_path() names a run's folder in it) into BUF;
 * for a PostgreSQL store, the default SQLite store's folder on this host
 * (logs stay on the machine whose servers wrote them); false for
 * ":memory:" (or a path too long), which keeps none.
 */
bool store_logs_dir(const char *path, char *buf, size_t size);

/* Whether PATH (--db, PGCLIFF_DB) names a PostgreSQL store. */
bool store_is_shared(const char *path);

/*
 * What messages call the open store: its path, or for PostgreSQL
 * "postgresql://USER@HOST:PORT/DB" (never a password).
 */
const char *store_name(const struct store *st);

/*
 * Open (creating the file and its directory, or the tables in the
 * PostgreSQL database's current schema) and migrate.  NULL on error.
 */
struct store *store_open(const char *path, struct pgc_error *err);

/*
 * Open an existing store to read it, and never write to it: read-only,
 * no WAL switch, no migration of the file (an older schema is read from
 * a migrated copy in memory; a PostgreSQL store of an older schema is
 * refused: a command that writes migrates it).  PostgreSQL: every
 * transaction read-only, so SELECT rights suffice.  Another program's
 * SQLite file or tables and a newer schema are refused.  Writing through the
 * handle fails (or, on the memory copy of an older schema, goes nowhere): use
 * it to read.
 */
struct store *store_open_read(const char *path, struct pgc_error *err);
void store_close(struct store *st);

/*
 * A lock another process holds on the store is waited for at most the busy
 * timeout (30 s, or what store_set_busy_timeout() set), then SQLITE_BUSY is
 * an error.  After this call, for a writer that must not lose what it
 * measured: waited for as long as it takes until *INTERRUPT is set (then the
 * timeout again); ON_WAIT (if not NULL) is told after 2 s of waiting and
 * every timeout after that, with the seconds waited.
 */
void store_wait_for_locks(struct store *st, volatile sig_atomic_t *interrupt,
						  void (*on_wait)(void *arg, double waited_s),
						  void *arg);
/* The busy timeout of an SQLite store (NS <= 0: the default, 30 s); a
 * PostgreSQL store's server waits for its own locks. */
void store_set_busy_timeout(struct store *st, int64_t ns);
/*
 * Whether an SQLite store waits for another process's lock (the default)
 * or fails at once with PGC_ERR_STORE: for writes that can come later,
 * made where waiting would delay something timed.
 */
void store_set_patient(struct store *st, bool patient);
/*
 * Holds an SQLite store's page cache to STORE_LEAN_CACHE_KIB, for a
 * process that writes for a long time and must keep a flat memory (a
 * run: its cache would otherwise grow with every page it writes, up to
 * SQLite's 2 MB); a PostgreSQL store caches nothing here.
 */
#define STORE_LEAN_CACHE_KIB 64
void store_set_lean(struct store *st);

struct store_run
{
	const char *recipe;
	const char *recipe_path;
	const char *recipe_text;
	const char *recipe_sha256;
	const char *command_line; /* passwords already removed */
	uint64_t seed;
	const char *host_name;
	const char *host_cpu;
	int host_cores;
	int64_t host_mem_bytes;
	const char *host_kernel;
	const char *plan; /* JSON: the order of the run's points, or NULL */
	/* the script files the recipe names (file:, -f), each after a
	 * "-- file: PATH" line: the recipe text alone does not hold them */
	const char *script_files;
	/* the recipe's measure: "workload.metric", "metric", or NULL (tps) */
	const char *measure;
};

struct store_variant
{
	const char *name;
	const char *kind; /* "managed" | "external" */
	const char *bindir;
	const char *defines; /* JSON object, or NULL */
	const char *gucs;    /* JSON object of the recipe's GUCs */
	const char *target;  /* conninfo without password, or NULL */
	const char *server_version;
	int server_version_num;
	const char *settings;  /* JSON: non-default pg_settings */
	const char *pg_config; /* JSON: the server's pg_config, or NULL */
	const char *build;     /* JSON: the build's provenance, or NULL */
};

struct store_series_row
{
	int second;
	uint64_t transactions;
	uint64_t failures;
	double lat_avg_ms;
	double lat_max_ms;
	const char *failures_by_class; /* JSON object, or NULL: none */
};

/* A server-side sample of one node for one second of a point's window. */
struct store_sample_row
{
	const char *node;
	int second;
	bool ok;
	int64_t commits;
	const char *conflicts; /* JSON deltas {"snapshot": 0, ...} */
	bool standby;
	int64_t lag_bytes;
	double lag_s;      /* < 0: unknown */
	const char *waits; /* JSON {"LWLock:ProcArray": 3} */
	double query_ms;
	const char *error; /* or NULL */
	/* the recipe's probes, JSON {"kax": {"used": 812}} (load_sample), or
	 * NULL */
	const char *probes;
};

/*
 * A window of a point: its tps, and on "during" (with "before") the dip
 * and the recovery time (< 0: not within the run).
 */
struct store_window_row
{
	const char *name;
	int start_s;
	int end_s;
	double tps;
	bool has_dip;
	double dip;
	double recovery_s;
};

/* One occurrence of a timed event: planned and actual start, seconds. */
struct store_event_row
{
	int seq;
	double planned_s;
	double actual_s;
};

struct store_point
{
	const char *variant;
	const char *workload;
	int clients;
	int jobs;
	int repeat_idx;
	int order_idx;
	const char *protocol;
	double duration_s;
	double warmup_s; /* the warm-up the point had */
	/*
	 * A warm-up until stable, as JSON (FORMATS.md): its bound, whether it
	 * was found stable, its last drift and the discarded throughput per
	 * tick.  NULL: a fixed warm-up.
	 */
	const char *warmup;
	uint64_t transactions;
	uint64_t failures;
	const char *failures_by_class; /* JSON object {"40": 3} */
	int aborted_clients;
	const char *abort_reason;
	double tps;
	double conn_ms;
	double prepare_ms;
	double lat_avg_ms;
	double lat_stddev_ms;
	double lat_p50_ms;
	double lat_p90_ms;
	double lat_p99_ms;
	double lat_p999_ms;
	double lat_max_ms;
	const char *histogram; /* hist_encode() text */
	/* the CPU time the hypervisor gave to others during the window, in
	 * per cent (load_result.steal_pct); < 0: not known */
	double steal_pct;
	/*
	 * A counted point (run --count, cost.h): the server's work per
	 * transaction over COUNTED transactions per client, as instructions,
	 * simulated L1 and last-level misses (enum cost_event's order).
	 * COUNTED 0: not counted, COST unused.
	 */
	double cost[3];
	uint64_t counted;
	int scale; /* the :scale the scripts saw */
	/*
	 * JSON array, one object per script of the workload: name, weight,
	 * transactions, failures, latency, and with -r its statements.
	 */
	const char *scripts;
	uint64_t retried;  /* transactions retried at least once */
	uint64_t retries;  /* retries in all */
	uint64_t skipped;  /* late for their schedule (rate + latency limit) */
	uint64_t late;     /* above the latency limit */
	double lag_avg_ms; /* schedule lag under a rate limit */
	double lag_max_ms;
	const struct store_series_row *series;
	int nseries;
	/* the series was staged instead (store_series_stage()): moved from
	 * there under the point, SERIES ignored */
	bool staged;
	const struct store_event_row *events; /* a timed event's occurrences */
	int nevents;
	const struct store_window_row *windows; /* the recipe's windows */
	int nwindows;
};

/* Insert a run with status 'running'; sets *run_id. */
int store_run_begin(struct store *st, const struct store_run *run,
					int64_t *run_id, struct pgc_error *err);
int store_variant_add(struct store *st, int64_t run_id,
					  const struct store_variant *v, struct pgc_error *err);
/* Insert a point and its series atomically; sets *point_id if not NULL. */
int store_point_add(struct store *st, int64_t run_id,
					const struct store_point *p, int64_t *point_id,
					struct pgc_error *err);
/* STATUS: "ok" | "failed" | "interrupted"; ERROR may be NULL. */
int store_run_finish(struct store *st, int64_t run_id, const char *status,
					 const char *error, struct pgc_error *err);

/* ------------------------------------------------------------ reading */

struct store_run_row
{
	int64_t id;
	char *recipe;
	char *recipe_path;
	char *recipe_sha256;
	char *command_line;
	char *tool_version;
	int64_t seed;
	char *host; /* "name: cpu, N cores, M GiB, kernel" */
	char *started_at;
	char *ended_at;
	char *status;
	char *error;
	int npoints;
	char *variants;     /* comma-separated names */
	char *plan;         /* JSON, or NULL */
	char *script_files; /* or NULL */
	char *measure;      /* the recipe's measure:, or NULL */
	char *uid;          /* its identity in every store (push, pull) */
	/*
	 * status "running" but the process that writes it is provably gone
	 * (killed, or its machine rebooted): the run will never end.  A run
	 * written from another machine or boot cannot be told: false.
	 */
	bool dead;
};

struct store_variant_row
{
	char *name;
	char *kind;
	char *bindir;
	char *gucs;
	char *target;
	char *server_version;
	char *settings;
	char *defines;
	char *pg_config;
	char *build; /* JSON provenance of a build from source, or NULL */
};

struct store_point_row
{
	int64_t id;
	char *variant;
	char *workload;
	int clients;
	int jobs;
	int repeat_idx;
	int order_idx;
	char *protocol;
	double duration_s;
	uint64_t transactions;
	uint64_t failures;
	char *failures_by_class;
	int aborted_clients;
	double tps;
	double conn_ms;
	double prepare_ms;
	double lat_avg_ms;
	double lat_p50_ms;
	double lat_p90_ms;
	double lat_p99_ms;
	double lat_p999_ms;
	double lat_max_ms;
	int64_t run_id;
	char *histogram; /* hist_encode() text */
	int scale;       /* 0: not stored (older runs) */
	uint64_t retried;
	uint64_t retries;
	uint64_t skipped;
	uint64_t late;
	double lag_avg_ms;
	double lag_max_ms;
	double warmup_s;
	char *warmup;     /* JSON, NULL for a fixed warm-up (store_point) */
	double steal_pct; /* < 0: not stored (older runs, not Linux) */
	double cost[3];   /* counted: as store_point; < 0: not counted */
	uint64_t counted; /* 0: not counted */
};

/* One script of a point (from its stored JSON), with -r's statements. */
struct store_statement_row
{
	int line;
	char *command;
	double lat_avg_ms;
	uint64_t failures;
	uint64_t retries;
};

struct store_script_row
{
	char *name;
	int weight;
	uint64_t transactions;
	uint64_t failures;
	uint64_t retried;
	double lat_avg_ms;
	struct store_statement_row *statements;
	int nstatements;
};

/*
 * Runs, newest first; RECIPE and VARIANT filter when not NULL; LIMIT <= 0
 * means all.  The caller frees with store_runs_free().
 */
int store_list_runs(struct store *st, const char *recipe, const char *variant,
					int limit, struct store_run_row **rows, int *nrows,
					struct pgc_error *err);
void store_runs_free(struct store_run_row *rows, int n);
/* Free the fields of one row (not the row itself). */
void store_run_row_release(struct store_run_row *row);

/* One run; -1 with PGC_ERR_USAGE when it does not exist. */
int store_get_run(struct store *st, int64_t run_id, struct store_run_row *row,
				  struct pgc_error *err);

/* The recipe text a run was made from (*TEXT NULL: no such run). */
int store_get_recipe_text(struct store *st, int64_t run_id, char **text,
						  struct pgc_error *err);

int store_get_variants(struct store *st, int64_t run_id,
					   struct store_variant_row **rows, int *nrows,
					   struct pgc_error *err);
void store_variants_free(struct store_variant_row *rows, int n);

/* Points of a run in measurement order. */
int store_get_points(struct store *st, int64_t run_id,
					 struct store_point_row **rows, int *nrows,
					 struct pgc_error *err);
void store_points_free(struct store_point_row *rows, int n);

/* The scripts of a point, in order; none for points stored before v4. */
int store_get_scripts(struct store *st, int64_t point_id,
					  struct store_script_row **rows, int *nrows,
					  struct pgc_error *err);
void store_scripts_free(struct store_script_row *rows, int n);

/*
 * A point's series as its window runs: a long window streams its seconds
 * a block at a time (load_point.sink) instead of keeping them, staged
 * under the run, the plan step and the workload (NSECONDS × NW ROWS,
 * second by second, each in WORKLOADS' order; all or none);
 * store_point_add() with store_point.staged moves them under the point in the
 * point's transaction.  Unstage drops a step's (ORDER_IDX -1: every step's)
 * when its point is not stored.  The staged transactions per second, for the
 * point's window statistics: *TPS[0..*N) (caller frees).
 */
int store_series_stage(struct store *st, int64_t run_id, int order_idx,
					   const char *const *workloads, int nw,
					   const struct store_series_row *rows, int nseconds,
					   struct pgc_error *err);
int store_series_staged_tps(struct store *st, int64_t run_id, int order_idx,
							const char *workload, double **tps, int *n,
							struct pgc_error *err);
int store_series_unstage(struct store *st, int64_t run_id, int order_idx,
						 struct pgc_error *err);

/* The samples of the point measured at plan step ORDER_IDX of a run. */
int store_samples_add(struct store *st, int64_t run_id, int order_idx,
					  const struct store_sample_row *rows, int n,
					  struct pgc_error *err);
/* Read them back (strings owned by the rows; free with the function below). */
int store_get_samples(struct store *st, int64_t run_id, int order_idx,
					  struct store_sample_row **rows, int *nrows,
					  struct pgc_error *err);
void store_samples_free(struct store_sample_row *rows, int n);

/*
 * The windows of a point as the run stored them (report_windows()), in
 * time order; recovery_s is NaN where there is none.  Free with
 * store_windows_free().
 */
int store_get_windows(struct store *st, int64_t point_id,
					  struct store_window_row **rows, int *nrows,
					  struct pgc_error *err);
void store_windows_free(struct store_window_row *rows, int n);

/*
 * One look of a run that stops once decided (run --until-decided): after
 * BLOCKS blocks, judged at CONFIDENCE, its OUTCOME (NO-REGRESSION,
 * REGRESSION, INCONCLUSIVE) and, on the last look, why the run stopped
 * (decided, budget, max-repeats; NULL: it went on).  DETAIL: the verdicts
 * for people.
 */
struct store_look
{
	int look;
	int blocks;
	double confidence;
	double elapsed_s;
	const char *outcome;
	const char *stop;
	const char *detail;
};

/*
 * A bisect (pgcliff bisect): the recipe's name, the source tree, the good
 * and bad commits (40 hex digits) and how many commits lie after GOOD up
 * to BAD; each step is a run of its own, linked by a bisect_step row.
 * Status: running, then found, no-regression, undecided, failed or
 * interrupted; FIRST_BAD with found.
 */
struct store_bisect
{
	const char *recipe;
	const char *source;
	const char *good;
	const char *bad;
	const char *metric; /* NULL: the recipe's measure, else tps */
	const char *command_line;
	double margin; /* --max-regression; <= 0: the metric's default */
	int commits;
};

struct store_bisect_step
{
	int64_t run_id; /* 0: the step has no run (it failed before one) */
	const char *revision;
	const char *outcome; /* the run's last look: REGRESSION, ... */
	const char *detail;
	int step;
};

int store_bisect_begin(struct store *st, const struct store_bisect *b,
					   int64_t *id, struct pgc_error *err);
int store_bisect_step(struct store *st, int64_t bisect_id,
					  const struct store_bisect_step *step,
					  struct pgc_error *err);
int store_bisect_finish(struct store *st, int64_t bisect_id,
						const char *status, const char *first_bad,
						const char *error, struct pgc_error *err);

int store_look_add(struct store *st, int64_t run_id,
				   const struct store_look *l, struct pgc_error *err);
/* The looks of a run in order (strings owned: store_looks_free()). */
int store_get_looks(struct store *st, int64_t run_id, struct store_look **rows,
					int *nrows, struct pgc_error *err);
void store_looks_free(struct store_look *rows, int n);

/*
 * A server's CPU profile over the window of the point measured at plan
 * step ORDER_IDX (profile.h): the first row is the whole (DSO and SYMBOL
 * NULL, PCT 100, SAMPLES all of them), then its functions by share.
 */
struct store_profile_row
{
	const char *node; /* filled when read */
	const char *dso;
	const char *symbol;
	double pct;
	uint64_t samples;
	/* with call graphs: the share of its samples and its callees'; < 0
	 * (stored NULL): none */
	double inclusive;
	int hz;
};

int store_profile_add(struct store *st, int64_t run_id, int order_idx,
					  const char *node, const struct store_profile_row *rows,
					  int n, struct pgc_error *err);
/* Every node's rows of plan step ORDER_IDX, by node and rank. */
int store_get_profile(struct store *st, int64_t run_id, int order_idx,
					  struct store_profile_row **rows, int *nrows,
					  struct pgc_error *err);
void store_profile_free(struct store_profile_row *rows, int n);

/* The occurrences of a timed event at a point (none for others). */
int store_get_events(struct store *st, int64_t point_id,
					 struct store_event_row **rows, int *nrows,
					 struct pgc_error *err);

/*
 * Which stored points a comparison takes: those of run RUN_ID (0: any),
 * of recipe RECIPE and variant VARIANT (NULL: any), from the LAST newest
 * runs that have such points (<= 0: all).
 */
struct store_selector
{
	int64_t run_id;
	const char *recipe;
	const char *variant;
	int last;
	bool no_histograms; /* leave the rows' histogram NULL (p95 needs it) */
};

/* Points matching SEL, by run and measurement order. */
int store_select_points(struct store *st, const struct store_selector *sel,
						struct store_point_row **rows, int *nrows,
						struct pgc_error *err);

/* The series of a point, by second. Caller frees *rows. */
int store_get_series(struct store *st, int64_t point_id,
					 struct store_series_row **rows, int *nrows,
					 struct pgc_error *err);

/* Schema version of an open store. */
int store_schema_version(struct store *st);

/* What store_copy_run() did. */
struct store_copy
{
	int64_t id;  /* the run's id in the store it was copied to */
	bool copied; /* false: it was there already, the same */
	int points;
};

/*
 * Copy run RUN_ID of FROM, with everything stored of it (variants,
 * points, series, events, windows, samples, looks, profiles; not the
 * bisects that name it), into TO, in one transaction of TO, under a new
 * id there.  A run has the same uid in every store: one TO holds
 * already, with the same status, end, points and recipe, is not copied
 * again (OUT->copied false); one with other contents is a conflict,
 * PGC_ERR_STORE, and TO is left as it was.  A run still running (its
 * process alive) is refused, PGC_ERR_USAGE.
 */
int store_copy_run(struct store *from, int64_t run_id, struct store *to,
				   struct store_copy *out, struct pgc_error *err);

/* ---------------------------------------------------------------------
 * Work for several drivers (run --workers, pgcliff worker): a point's
 * clients are split into shares that worker processes, on this host or
 * others, claim from a PostgreSQL store (FOR UPDATE SKIP LOCKED).  The
 * store keeps the work and every worker's result; the documents in SPEC
 * and RESULT are drivers/wire's.  A claimed share is held by a session
 * advisory lock of its worker's store connection, so a worker that dies
 * is seen at once: its share is "gone".  All of it fails with
 * PGC_ERR_USAGE on an SQLite store.
 * ------------------------------------------------------------------- */

/* Whether the open store can coordinate workers (PostgreSQL). */
bool store_can_coordinate(const struct store *st);

/*
 * Whether the store's session is gone (the server or the network cut it;
 * never for SQLite), and a new one in its place: 0, or -1 with ERR
 * (PGC_ERR_STORE).  What the old session held is gone with it: a
 * worker's claim (its lock) and any transaction.
 */
bool store_lost(const struct store *st);
int store_reconnect(struct store *st, struct pgc_error *err);

/*
 * The host a PostgreSQL store's connection reached (libpq's PQhost: a
 * name, an address or a socket directory), and its hostaddr if one was
 * given (else NULL); NULL for SQLite.  Borrowed from the store.
 */
const char *store_host(const struct store *st);
const char *store_hostaddr(const struct store *st);

/*
 * Post the work of plan step ORDER of RUN_ID: NSHARES open shares of
 * SPEC, with the coordinator's SIGNATURE of it.  Its id, or -1 with ERR.
 */
int64_t store_work_post(struct store *st, int64_t run_id, int order,
						const char *spec, const char *signature, int nshares,
						struct pgc_error *err);

/* One share as the coordinator sees it. */
struct store_work_share
{
	int share;
	char *state;  /* open | claimed | ready | done | failed */
	char *worker; /* the worker's name, or NULL while open */
	bool gone;    /* claimed, not finished, and its worker's session ended */
	bool has_offset;
	double offset_ms;     /* ready: the worker's clock minus the run's */
	double offset_err_ms; /* and the measurement's uncertainty */
	char *result;         /* done: the worker's result document */
	char *error;          /* failed: why */
};

/* The shares of POINT_ID in share order; free with store_work_shares_free. */
int store_work_shares(struct store *st, int64_t point_id,
					  struct store_work_share **rows, int *nrows,
					  struct pgc_error *err);
void store_work_shares_free(struct store_work_share *rows, int nrows);

/*
 * The coordinator: the point starts at START_US (microseconds since the
 * epoch on the coordinator's clock), or ends: STATE "done" or "failed"
 * (with REASON); shares still open are closed with it.
 */
int store_work_start(struct store *st, int64_t point_id, int64_t start_us,
					 struct pgc_error *err);
int store_work_end(struct store *st, int64_t point_id, const char *state,
				   const char *reason, struct pgc_error *err);

/* A share a worker has claimed; release with store_work_claim_release. */
struct store_work_claim
{
	int64_t share_id;
	int64_t point_id;
	int64_t run_id;
	int order;
	int share;
	int nshares;
	char *spec;
	char *signature; /* as posted, or NULL */
	char *run_uid;   /* the run's (store_run_row.uid) */
};

/*
 * A worker: claim the oldest open share of an open point for WORKER and
 * hold it (the session lock) until store_work_finish().  1 with OUT
 * filled, 0 when nothing is open, -1 with ERR.
 */
int store_work_claim(struct store *st, const char *worker,
					 struct store_work_claim *out, struct pgc_error *err);
void store_work_claim_release(struct store_work_claim *c);

/* Connected and prepared: ready, with the clock's offset (see above). */
int store_work_ready(struct store *st, int64_t share_id, double offset_ms,
					 double offset_err_ms, struct pgc_error *err);

/*
 * The point's state ("open", "started", "done", "failed") into STATE, its
 * start (0 while none), failed, its reason (caller frees; NULL if none),
 * and whether the run that posted it is gone (its session ended).
 */
int store_work_point(struct store *st, int64_t point_id, char state[16],
					 int64_t *start_us, char **reason, bool *run_gone,
					 struct pgc_error *err);

/*
 * The share is done (RESULT) or failed (ERROR, RESULT NULL); the claim's
 * lock is released.  Only a share still claimed or ready is written: a
 * share the coordinator ended (or that another worker took) keeps what
 * it has, and *TAKEN (may be NULL) says whether this write was.
 */
int store_work_finish(struct store *st, int64_t share_id, const char *result,
					  const char *error, bool *taken, struct pgc_error *err);

/*
 * How RUN_ID's points were driven: *NSHARES workers a point (0: by the
 * run itself), *NAMES the workers that took part ("w1, w2, w3"; caller
 * frees; NULL with none) and the largest clock offset among them.
 */
int store_run_workers(struct store *st, int64_t run_id, int *nshares,
					  char **names, double *max_offset_ms,
					  struct pgc_error *err);

/*
 * This host's wall clock against the store server's: the offset (server
 * minus local, microseconds) of the quickest of a few round trips, and
 * half that round trip, the offset's uncertainty.
 */
int store_clock_offset(struct store *st, double *offset_us, double *err_us,
					   struct pgc_error *err);

#endif /* PGCLIFF_STORE_H */
