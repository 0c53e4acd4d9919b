/*
 * engine.h - execute one measured point: N concurrent workloads, each with
 * its clients spread over its own threads, all on one monotonic clock.
 *
 * Each thread owns its connections and one epoll loop over nonblocking
 * libpq connections.  Connections open concurrently before the window;
 * once every client of the point is connected, each prepares its
 * statements (the two phases are timed apart), and the window starts when
 * all are done and lasts exactly the duration.  Only transactions
 * that end inside the window count.  Latencies go to per-thread
 * histograms merged after join; per-second counts are kept per thread and
 * summed.  Nothing is allocated per transaction.
 *
 * Scripts run with pgbench's meaning: \set, \sleep (a timer in the
 * epoll loop, no thread blocks), \if chains, \gset/\aset, pipelines,
 * \shell and \setshell (these block their thread, as in pgbench).
 *
 * Failure policy (documented in drivers/load/MEASURING.md): a SQL error fails
 * the transaction, which is counted under its SQLSTATE class; the client rolls
 * back if needed and starts its next transaction.  A lost connection or a
 * script runtime error (division by zero, \gset without a row, a pipeline
 * misuse...) aborts that client only, with pgbench's message; the point
 * goes on with the others and reports the aborted clients.
 * Connection or PREPARE failures before the window fail the point.
 */
#ifndef PGCLIFF_ENGINE_H
#define PGCLIFF_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base.h"
#include "hist.h"
#include "script.h"

enum load_protocol
{
	LOAD_PROTO_SIMPLE,
	LOAD_PROTO_EXTENDED,
	LOAD_PROTO_PREPARED
};

/* What a failed transaction does, per class of error. */
enum load_action
{
	LOAD_CONTINUE = 0, /* roll back, count it failed, start the next one */
	LOAD_RETRY,        /* roll back and run it again (up to max_tries) */
	LOAD_ABORT_CLIENT, /* the client stops; the others go on */
	LOAD_ABORT_RUN     /* the point stops; the run is stored as failed */
};

/* A SQLSTATE (5 characters) or class (2) with its action. */
struct load_rule
{
	char sqlstate[6];
	enum load_action action;
};

/*
 * The failure policy of a workload.  Errors are told apart as pgbench
 * does (40001 serialization, 40P01 deadlock) and one more way: a hot
 * standby's "canceling statement due to conflict with recovery" shares
 * 40001 but is a recovery conflict, counted and handled on its own.
 * Rules by SQLSTATE or class come first, then the named classes.
 */
struct load_policy
{
	int max_tries; /* >= 1: tries of a retried transaction, the first one too
					*/
	enum load_action serialization;
	enum load_action deadlock;
	enum load_action recovery_conflict;
	enum load_action other;
	/* a lost connection: LOAD_ABORT_CLIENT (the default; the point goes
	 * on with the others) or LOAD_ABORT_RUN */
	enum load_action connection;
	const struct load_rule *rules;
	int nrules;
};

struct load_workload
{
	const char *name;
	/*
	 * Borrowed, shared by all threads.  With several scripts each
	 * transaction runs one, chosen by weight as pgbench chooses; they share
	 * one set of variables (script_parse_next()).
	 */
	const struct script *const *scripts;
	const int *weights;
	int nscripts;
	enum load_protocol protocol;
	const char *const *conn_keywords; /* libpq, NULL-terminated */
	const char *const *conn_values;
	int clients;
	int jobs; /* clamped to clients */
	/*
	 * With transactions > 0 (pgbench's -t), each client runs that many
	 * transactions.  Either every workload of a point has them, and the
	 * window lasts until all are done (duration and warmup are ignored),
	 * or none has.
	 */
	int64_t transactions;
	/*
	 * pgbench's --rate: transactions per second over all clients of the
	 * workload, on a Poisson schedule (one per thread, as pgbench); latency
	 * then counts from each transaction's scheduled start.  0 = as fast as
	 * the clients go.
	 */
	double rate;
	/*
	 * pgbench's --latency-limit: transactions slower than this are "late";
	 * under a rate, a slot already that late is skipped, not run.  0: none.
	 */
	int64_t latency_limit_ns;
	/*
	 * A timed event (TIMED): each client of the workload runs the script
	 * once at AT_NS from the window's start, and again every EVERY_NS (if
	 * > 0) while before UNTIL_NS (if > 0, else the window's end).  Each
	 * occurrence's actual start is recorded.
	 */
	bool timed;
	int64_t at_ns;
	int64_t every_ns;
	int64_t until_ns;
	/*
	 * pgbench's -C/--connect: every transaction on a new connection (the
	 * old one closed after it), prepared statements prepared again; the
	 * connection's time is not in the latency (unless under a rate, where
	 * latency counts from the scheduled start), and is summed apart.
	 */
	bool reconnect;
	/* NULL: every failure continues (roll back, go on), max_tries 1 */
	const struct load_policy *policy;
	/* variables given from outside the script (-D, variables:) */
	const struct script_define *defines;
	int ndefines;
};

/*
 * A server to sample once a second during the window, on its own
 * connection: commits, wait events of client backends, recovery-conflict
 * counters, and on a standby the replay lag.
 */
struct load_node
{
	const char *name; /* "primary", "standby" */
	const char *const *conn_keywords;
	const char *const *conn_values;
};

/*
 * A probe (the recipe's probes:): SQL the sampler runs every second, after
 * its own query and on the same connection, on the node named TARGET (NULL:
 * every node).  It must return one row whose every column is a number or
 * NULL.  Columns named in COUNTERS only grow: a sample keeps their change
 * over the second (key "NAME/s"), the others their value at its end.
 */
struct load_probe
{
	const char *name;
	const char *sql;
	const char *target;
	const char *const *counters;
	int ncounters;
};

/*
 * One sample of one node, for second SECOND of the window: the counters'
 * changes over that second and what was seen at its end.  After failed
 * samples of the node, the counters' changes since its last good one
 * (ERROR then says since when, and OK stays true): what happened while it
 * did not answer is counted late, not lost.
 */
struct load_sample
{
	int node;
	int second;
	bool ok;              /* false: the node did not answer (error says why) */
	int64_t commits;      /* xact_commit of the database, over the second */
	int64_t conflicts[5]; /* snapshot, lock, bufferpin, deadlock, tablespace */
	bool standby;
	int64_t lag_bytes; /* received but not replayed WAL */
	double lag_s;      /* since the last replayed commit's timestamp */
	char *waits;       /* JSON {"LWLock:ProcArray": 3, ...} */
	/*
	 * The probes that target the node, JSON {"kax": {"used": 812,
	 * "scanned/s": 1.2e6}, ...}: a probe whose query failed has {"error":
	 * "..."} instead; NULL when no probe targets the node
	 */
	char *probes;
	double query_ms; /* what taking the sample (and its probes) cost */
	char error[160];
};

/*
 * One finished second of the window, as told to load_point.sink: each
 * workload's transactions ended in it (their latencies' sum and largest),
 * its failures and errors by class; and the nodes' samples taken since
 * the last second told (each says its own second).  A transaction
 * recorded after its second was told (its thread ran late by over a
 * second) counts in the next second told instead: the seconds add up to
 * the point's totals exactly.
 */
struct load_second_wl
{
	uint64_t txns;
	uint64_t failures;
	double lat_sum_ns;
	uint64_t lat_max_ns;
	const struct load_error_second *errors; /* all of this second */
	int nerrors;
};

struct load_second
{
	int second;
	int nworkloads;
	const struct load_second_wl *w;
	const struct load_sample *samples;
	int nsamples;
};

/* A progress report, given to the callback from the calling thread. */
struct load_progress_wl
{
	uint64_t txns; /* in the interval */
	uint64_t failures;
	double tps;
	double lat_avg_ms;
	double lat_stddev_ms;
};

struct load_progress
{
	double elapsed_s; /* since the window started (negative in
					   * warmup) */
	double unix_s;    /* when, on the wall clock (--progress-timestamp) */
	int nworkloads;
	const struct load_progress_wl *w;
};

struct load_point
{
	const struct load_workload *workloads;
	int nworkloads;
	/*
	 * Before the window: WARMUP_NS, or with WARMUP_STABLE until the
	 * point's throughput is stable (load_series_stable over ticks of
	 * 250 ms, at TOLERANCE, 0 = 3 %) and at most WARMUP_NS.  Not with a
	 * rate, timed events, -t or -l (their schedules need the window's
	 * start in advance): load_run refuses it with PGC_ERR_USAGE.
	 */
	int64_t warmup_ns;
	int64_t duration_ns;
	double warmup_tolerance;
	/*
	 * pgbench's --random-seed: each workload's clients draw their random
	 * streams from a sequence seeded with it, in client order, and then
	 * :default_seed, as pgbench does (workload k uses seed + k * 1000003).
	 */
	uint64_t seed;
	int64_t scale;         /* the :scale variable */
	int connect_timeout_s; /* 0 = 120 */
	/* set from a signal handler to stop early: the point is interrupted */
	volatile sig_atomic_t *interrupt;
	int progress_s; /* 0 = no progress reports */
	void (*progress)(void *arg, const struct load_progress *p);
	void *progress_arg;
	/* time every command of every script (pgbench's -r) */
	bool per_statement;
	bool warmup_stable; /* see warmup_ns */
	/*
	 * pgbench's --verbose-errors (each error of a retried transaction) and
	 * -d (each query sent), written through DEBUG
	 */
	bool verbose_errors;
	bool debug_sends;
	/* pgbench 17's --exit-on-abort: a client that aborts fails the point */
	bool exit_on_abort;
	/*
	 * pgbench's -l: each thread writes the window's transactions to
	 * LOG_PREFIX (thread 0) or LOG_PREFIX.N (thread N), in pgbench 15's
	 * format: one line per transaction (a SAMPLING_RATE share of them when
	 * > 0), or with AGG_INTERVAL_S > 0 one line per interval (the last,
	 * partial one left out, as pgbench).  NULL: no log.
	 */
	const char *log_prefix;
	int agg_interval_s;
	double sampling_rate;
	uint64_t log_seed;      /* the sampling's random stream */
	bool failures_detailed; /* "serialization"/"deadlock", their columns */
	/* servers to sample every second of the window (not with -t) */
	const struct load_node *nodes;
	int nnodes;
	/* and what else to ask them each second: NPROBES of PROBES */
	int nprobes;
	const struct load_probe *probes;
	/*
	 * Told from the calling thread when the window begins (BEGINS true)
	 * and when it ends or the point stops early (false), within 20 ms;
	 * not with -t.  NULL: nobody is told.  (A profiler's start and stop.)
	 */
	void (*window_edge)(void *arg, bool begins);
	void *window_edge_arg;
	/* where debug() writes, from worker threads; NULL = nowhere */
	script_debug_fn debug;
	void *debug_arg;
	/*
	 * A common start, for points whose clients are spread over several
	 * drivers (run --workers): told once, from the calling thread, when
	 * every client of this driver is connected and prepared.  It returns
	 * 0 with *START_NS, the CLOCK_MONOTONIC time at which the load begins
	 * (the warm-up, then the window: WARMUP_NS later), and the engine
	 * waits until then; or -1 with ERR to give the point up (nothing is
	 * measured, every connection is closed).  It may block (it waits for
	 * the other drivers).  Not with a stable warm-up.  NULL: at once.
	 */
	int (*ready)(void *arg, int64_t *start_ns, struct pgc_error *err);
	void *ready_arg;
	/*
	 * Each second of the window, told from the calling thread about a
	 * second after it ends (the last ones when the load is done), in
	 * order, each once; borrowed until SINK returns.  With a sink the
	 * result keeps neither the per-second series nor the samples
	 * (nseconds, nerrors and nsamples are 0): a long window's memory
	 * stays flat.  NULL: the result keeps them.
	 */
	void (*sink)(void *arg, const struct load_second *s);
	void *sink_arg;
};

/*
 * Failures by class: a SQLSTATE class ("40", "23"...) or
 * "recovery_conflict".
 */
struct load_failure_class
{
	char sqlclass[20];
	uint64_t count;
};

/* One occurrence of a timed event: planned and actual start. */
struct load_event
{
	int seq;            /* 0, 1, ... */
	int64_t planned_ns; /* from the window's start */
	int64_t actual_ns;  /* when its first client began */
};

/* Errors of one class in one second of the window (every try counts). */
struct load_error_second
{
	int second;
	char sqlclass[20];
	uint64_t count;
};

/* One script of a workload: its transactions and, with -r, commands. */
struct load_script_result
{
	uint64_t txns;
	uint64_t failures;
	uint64_t serialization_failures; /* of FAILURES: the last error 40001 */
	uint64_t deadlock_failures;      /* and 40P01 (--failures-detailed) */
	uint64_t retried;
	uint64_t retries;
	struct hist *latency;
	int ncmds;
	double *cmd_lat_sum_ns; /* per command, with per_statement */
	uint64_t *cmd_count;
	uint64_t *cmd_failures;
	uint64_t *cmd_retries;
};

struct load_workload_result
{
	uint64_t txns;     /* ended inside the window, successful */
	uint64_t failures; /* failed transactions inside the window */
	uint64_t serialization_failures; /* of them: the last error 40001 */
	uint64_t deadlock_failures;      /* and 40P01 */
	uint64_t retried;        /* transactions that needed more than one try */
	uint64_t retries;        /* the extra tries, all together */
	uint64_t skipped;        /* rate + latency limit: slots too late to run */
	uint64_t late;           /* above the latency limit */
	double lag_avg_ms;       /* rate: start behind the schedule */
	uint64_t reconnects;     /* -C: connections made in the window */
	double reconnect_ns_sum; /* and their time, closing the last included */
	double lag_max_ms;
	struct load_error_second *errors; /* by second, then class */
	int nerrors;
	struct load_failure_class *classes;
	int nclasses;
	struct hist *latency; /* successful transactions in the window */
	int nseconds;
	uint64_t *sec_txns; /* per second of the window */
	uint64_t *sec_failures;
	double *sec_lat_sum_ns;
	uint64_t *sec_lat_max_ns;
	int aborted_clients;
	char first_error[512]; /* why the first client aborted */
	int jobs;              /* as actually run */
	struct load_script_result *scripts;
	int nscripts;
	struct load_event *events; /* a timed event's occurrences */
	int nevents;
};

struct load_result
{
	struct load_workload_result *w;
	int nworkloads;
	double conn_ms;    /* all connections of the point open */
	double prepare_ms; /* then all statements prepared (prepared only) */
	int64_t window_ns; /* the window actually measured */
	int64_t warmup_ns; /* the warm-up it had */
	/*
	 * A stable warm-up: its throughput per 250 ms tick (NWARM of them,
	 * discarded), whether it was found stable (else the longest warm-up
	 * was spent) and the last drift judged (second half over first, − 1)
	 */
	double *warm_tps;
	int nwarm;
	bool warm_stable;
	double warm_drift;
	struct load_sample *samples; /* per node and second */
	int nsamples;
	/*
	 * The machine's CPU time the hypervisor gave to others during the
	 * window, in per cent of all of it (cpu_steal_pct(); -1 unknown)
	 */
	double steal_pct;
	/*
	 * The server processes of the clients' connections (PQbackendPID; with
	 * -C the last of each client's), for counting their work (cost.h)
	 */
	pid_t *backend_pids;
	int nbackend_pids;
	bool interrupted;
};

/*
 * Run one point.  0 on success (including aborted clients, see above);
 * -1 with err filled when the point could not run: PGC_ERR_UNAVAILABLE
 * (connect), PGC_ERR_SQL (PREPARE failed: err has the SQLSTATE and the
 * script position), PGC_ERR_INTERRUPTED (out is filled with what was
 * measured until then and out->interrupted is set).
 * Release OUT with load_result_release() whenever it was filled.
 */
int load_run(const struct load_point *p, struct load_result *out,
			 struct pgc_error *err);
void load_result_release(struct load_result *r);

/*
 * A stable warm-up counts the point's transactions every tick and judges
 * the last 2 × HALF ticks (2 s against the 2 s before): it lasts at least
 * 2 × HALF ticks.
 */
#define LOAD_WARM_TICK_NS    (250 * 1000000LL)
#define LOAD_WARM_HALF_TICKS 8

/*
 * Is the throughput series X (N equal ticks, oldest first) stable?  A
 * line fitted to its last 2 × HALF ticks must not change, from one half
 * to the next, both beyond TOLERANCE (relative to their mean) and beyond
 * two standard errors of its slope (from the residuals): a drift keeps
 * the warm-up going only when it is real and material, as a regression
 * must be both.  *DRIFT: that change (HALF ticks of slope over the mean).
 * False while fewer than 2 × HALF ticks, or when nothing was done.
 */
bool load_series_stable(const double *x, int n, int half, double tolerance,
						double *drift);

/* Sum of a workload's per-second transactions (for checks). */
uint64_t load_result_sum_seconds(const struct load_workload_result *w);

#endif /* PGCLIFF_ENGINE_H */
