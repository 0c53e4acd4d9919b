/*
 * engine_int.h - private to drivers/load: the engine's state (a point's
 * threads, their clients, -l logs) shared by its files: engine.c (a
 * thread's steady path: send, receive, record, the epoll loop), connect.c
 * (connecting and preparing, -C's reconnects), failures.c (errors:
 * classes, retries, aborts), txlog.c (-l logs), point.c (a point's
 * threads set up, started, sampled and merged: load_run()).
 */
#ifndef PGCLIFF_ENGINE_INT_H
#define PGCLIFF_ENGINE_INT_H

#include <libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

#define CONNECT_WINDOW 8 /* connection attempts in flight per thread */
#define MAX_EVENTS     256
#define TICK_MS        100          /* longest sleep before checking flags */
#define GRACE_NS       1000000000LL /* wait for in-flight work after the window */
#define NCLASSES       ((size_t) 36 * 36) /* SQLSTATE classes: [0-9A-Z]{2} */
#define RC_CLASS       ((int) NCLASSES)   /* recovery conflicts, apart */
#define NCOUNTERS      (NCLASSES + 1)
#define PARAM_WIDTH    SCRIPT_TEXT_WIDTH
#define NO_END_NS      (INT64_MAX / 4) /* -t: the window ends when all are done */

/*
 * Client states.
 *
 *   CONNECTING -> CONNECTED -> PREPARING -> READY --(go)--> WAIT <-> (next)
 *                (all threads sync)  (prepared only)  (sync)   |  ^
 *                                                  ROLLBACK <-+  +-> SLEEP
 *   WAIT/ROLLBACK/SLEEP --(window over, or -t done)--> DONE
 *   any --(lost connection or script error)--> ABORTED
 */
enum cstate
{
	CS_IDLE,
	CS_CONNECTING,
	CS_CONNECTED,
	CS_PREPARING,
	CS_READY,
	CS_WAIT,
	CS_SLEEP,
	CS_ROLLBACK,
	CS_DONE,
	CS_ABORTED
};

struct engine;

struct client
{
	PGconn *conn;
	int fd;
	int backend_pid; /* of its connection once made (counted points) */
	int id;          /* global client id (:client_id) */
	enum cstate state;
	uint32_t ep_events; /* what epoll watches for this client */
	int si;             /* the script of the current transaction */
	int cmd;            /* current command index */
	int cur_cmd;        /* -r: the command being timed, or -1 */
	int64_t cmd_start_ns;
	int prep_si; /* next statement to prepare: script, */
	int prep;    /* and command */
	bool txn_failed;
	int64_t fail_ns; /* when its error arrived (txn_failed) */
	int fail_class;  /* class index of the first error */
	int fail_kind;   /* its SQLSTATE: 1 = 40001, 2 = 40P01, 0 other */
	int fail_cmd;    /* the command that failed */
	enum load_action fail_action;
	char fail_msg[160]; /* its SQLSTATE and message, for an abort */
	int tries;          /* of the current transaction, >= 1 */
	bool retry_pending; /* rolling back to try again */
	bool throttling;    /* CS_SLEEP until its scheduled start (rate) */
	int occurrence;     /* timed event: the next one to run */
	int64_t scheduled_ns;
	struct prng txn_prng; /* the random state at the first try */
	int64_t txn_start_ns;
	int64_t ntx;             /* transactions ended (-t) */
	int64_t sleep_until_ns;  /* CS_SLEEP */
	bool txn_conn;           /* -C: connected for the coming transaction */
	int64_t reconnect_start; /* -C: when the last connection was closed */
	int64_t txn_lag_ns;      /* under a rate: its start behind the slot */
	bool in_pipeline;
	bool ending_pipeline; /* at \endpipeline: waiting for its sync */
	int pending_syncs;    /* pipeline syncs sent, not answered yet */
	int qrynum;           /* results of the current command so far */
	PGresult *held;       /* \gset: the previous result, until the next */
	/*
	 * A FATAL the server sent outside any query (a standby's "terminating
	 * connection due to conflict with recovery" to an idle client): libpq
	 * hands it to the notice receiver, not to a result, so it is kept
	 * here as the reason the connection is then lost
	 */
	char fatal[160];
	PQnoticeReceiver notice_prev; /* libpq's, for every other notice */
	struct script_vars vars;
	char *param_buf; /* max_params * PARAM_WIDTH */
	const char **param_values;
	struct strbuf query; /* simple protocol text */
};

/* pgbench's -l: one thread's log, and the interval it aggregates */
struct txlog
{
	FILE *f;
	int64_t shift_ns; /* wall clock minus clock_now_ns() */
	struct prng sample;
	int64_t start_us; /* the interval's start, Unix time in µs */
	uint64_t cnt, skipped, retried, retries, ser, dl;
	double lat_sum, lat_sum2, lat_min, lat_max;
	double lag_sum, lag_sum2, lag_min, lag_max;
};

/*
 * A thread's counts of the window's seconds, in a ring the calling thread
 * reads as the seconds pass (seconds.c): second S counts in slot
 * S % SEC_RING.  Each slot's counts only grow, over every second that
 * maps to it, and only the thread writes them (relaxed atomic loads and
 * stores: plain moves on x86, no lock); the reader keeps what it has
 * taken and takes the difference.  LAT_MAX_NS is second MAX_SEC's.
 */
#define SEC_RING 64

struct sec_slot
{
	_Atomic uint64_t txns;
	_Atomic uint64_t failures;
	_Atomic uint64_t lat_sum_ns;
	_Atomic uint64_t lat_max_ns;
	_Atomic int64_t max_sec;
};

struct thread
{
	pthread_t tid;
	struct engine *e;
	const struct load_workload *w;
	int wi; /* workload index */
	struct client *clients;
	int nclients;
	int epfd;
	int active;    /* clients not DONE/ABORTED */
	int nsleeping; /* clients in CS_SLEEP */
	int nsec_used; /* seconds with a transaction, -t mode */
	struct hist *hist;
	uint64_t txns;
	uint64_t failures;
	struct load_script_result *ss; /* per script */
	struct prng choose;            /* pgbench's ts_choose_rs */
	int64_t total_weight;
	uint32_t *class_counts; /* NCOUNTERS */
	uint64_t retried;
	uint64_t retries;
	/* rate limit: pgbench's per-thread Poisson schedule */
	struct prng throttle;
	double delay_ns;    /* mean gap between this thread's slots */
	int64_t trigger_ns; /* the last slot handed out */
	uint64_t skipped;
	uint64_t late;
	uint64_t reconnects; /* -C */
	double reconnect_ns_sum;
	struct txlog log; /* -l */
	uint64_t lag_n;
	double lag_sum_ns;
	int64_t lag_max_ns;
	/*
	 * Errors by second and class, under errs_mu: the calling thread takes
	 * them as it tells each second (seconds.c)
	 */
	pthread_mutex_t errs_mu;
	struct load_error_second *errs;
	int nerrs;
	int errs_cap;
	struct load_event *events; /* timed event: occurrences started */
	int nevents;
	struct sec_slot ring[SEC_RING]; /* the window's seconds, as they pass */
	int aborted;
	char first_error[512];
	/* read by the main thread for progress reports */
	_Atomic uint64_t prog_txns;
	_Atomic uint64_t prog_failures;
	/* transactions done before the window (a stable warm-up watches) */
	_Atomic uint64_t warm_txns;
	uint64_t warm_local;
	_Atomic double prog_lat_sum_ns;
	_Atomic double prog_lat_sumsq_ns; /* for pgbench's stddev */
	double prog_lat_local;
	double prog_latsq_local;
	_Atomic int finished;
};

struct engine
{
	const struct load_point *p;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int nthreads; /* set up */
	int nstarted; /* of those, created: the ones to wait for and join */
	/*
	 * Setup runs in phases so that connecting and preparing are timed
	 * apart: arrived[k] counts the threads done with phase k (connect,
	 * prepare), and the main thread moves `phase` on once all have.
	 */
	int arrived[2];
	int phase;
	_Atomic int stop; /* interrupt or failure: leave now */
	/*
	 * Atomic: a stable warm-up (load_point.warmup_stable) sets the window
	 * while the threads run; until then both are NO_END_NS.
	 */
	_Atomic int64_t window_start_ns;
	_Atomic int64_t window_end_ns;
	int nseconds;
	bool txmode; /* every workload runs a number of transactions */
	struct thread *threads;
	struct pgc_error first_err; /* under mu */
};

/*
 * A stable warm-up's watch, kept by the main thread: the point's
 * throughput in ticks of LOAD_WARM_TICK_NS from the warm-up's start.
 */
#define WARM_Z 2.0 /* standard errors: a drift beyond the noise */

struct warm_watch
{
	bool on;
	int64_t began_ns;
	int64_t next_ns; /* the end of the current tick */
	int64_t last_ns; /* when the last tick was taken */
	uint64_t last;   /* transactions counted at the last tick */
	double *tps;
	int n, cap;
};

/* ---------------------------------------------------------------------
 * A thread's steady path (engine.c)
 * ------------------------------------------------------------------- */

/*
 * Run commands from c->cmd until one has to wait for the server or a
 * timer.  At the end of the script the transaction is recorded and, while
 * the window lasts, the next one starts at once (closed loop).
 */
void client_advance(struct thread *t, struct client *c);

/* After a send: if libpq could not flush everything, wait for EPOLLOUT. */
bool client_flush(struct thread *t, struct client *c);

/* Catch C's connection's notices (a FATAL one says why it was lost). */
void client_watch_notices(struct client *c);

/* CONN's error message, its first line, into DST. */
void copy_conn_error(char *dst, size_t size, PGconn *conn);

/* Record the first fatal error of the point and ask everyone to stop. */
void engine_fail(struct engine *e, const struct pgc_error *err);

/*
 * Register or change what epoll watches for C.  A MOD to the events
 * already registered is skipped: it would be a system call for nothing.
 */
int ep_set(struct thread *t, struct client *c, uint32_t events, int op);

/* The second of the window of time NOW (the last, past its end). */
int64_t second_of(struct thread *t, int64_t now);

/* A thread (ARG: its struct thread): connect, prepare, run, close. */
void *thread_main(void *arg);

/* ---------------------------------------------------------------------
 * The window's seconds, told as they pass (seconds.c)
 * ------------------------------------------------------------------- */

/* What a point without a sink keeps of its seconds for the result. */
struct sec_kept
{
	struct load_workload_result *w; /* the series and errors, by workload */
	int nworkloads;
	int n, cap;
	struct load_sample *samples;
	int nsamples;
};

struct sec_reader;

/* A reader of E's threads' seconds, once they are set up. */
struct sec_reader *seconds_open(const struct engine *e);
void seconds_close(struct sec_reader *r, const struct engine *e);

/*
 * From the calling thread: tell every second whose end is a second past
 * at NOW, or with DONE (the threads joined; -t: e->nseconds set) every
 * second left.  The sampler's ROWS (*NROWS of them, in order) go with the
 * second they belong to; those told are removed (their strings freed, or
 * kept in KEPT), and with DONE every row is (-t: those after the last
 * second told are dropped).  Without a sink the seconds go to KEPT.
 */
void seconds_tell(struct engine *e, struct sec_reader *r, int64_t now,
				  bool done, struct load_sample *rows, int *nrows,
				  struct sec_kept *kept);

void sec_kept_init(struct sec_kept *k, int nworkloads);
/* Move the series, errors and samples kept into OUT (its w allocated). */
void sec_kept_move(struct sec_kept *k, struct load_result *out);
void sec_kept_release(struct sec_kept *k);

/* ---------------------------------------------------------------------
 * -l logs (txlog.c)
 * ------------------------------------------------------------------- */

/*
 * pgbench's doLog() for one transaction of client C ending at NOW (or
 * skipped under a rate): KIND 0 done, 1 failed, 2 skipped.
 */
void txlog_add(struct thread *t, struct client *c, int64_t now, int kind);

/* Close thread T's log, if open. */
void txlog_close(struct thread *t);

/* Open thread T's log (pgbench's threadRun()); false with the point failed. */
bool txlog_open(struct thread *t);

/* ---------------------------------------------------------------------
 * Errors and the failure policy (failures.c)
 * ------------------------------------------------------------------- */

/* The counter of SQLSTATE's class ([0-9A-Z]{2}); -1 for none. */
int class_index(const char *sqlstate);

/* Counter IDX's name: the class ("40"), or recovery_conflict. */
void class_name(int idx, char out[20]);

/*
 * The counter of an error (its SQLSTATE class, or RC_CLASS for a recovery
 * conflict) and what the policy does with it.
 */
int classify(const struct thread *t, const PGresult *res,
			 enum load_action *act);

/* Client C stops for good, WHY kept as the thread's first error. */
void client_abort(struct thread *t, struct client *c, const char *why);

/* A failed command: roll back if a transaction block is open, else go on. */
void client_after_error(struct thread *t, struct client *c);

/*
 * A transaction failed: do what the policy says for its error.  Returns
 * false when the client (or the point) stops.
 */
bool client_apply_policy(struct thread *t, struct client *c);

/* The failed transaction is over: next one, or its try again. */
void client_failed_done(struct thread *t, struct client *c);

/* C's connection is gone: aborted, with libpq's or the server's reason. */
void client_lost(struct thread *t, struct client *c);

/*
 * Try the transaction again from its first command, as pgbench does: the
 * same script, the random state of the first try, the latency still
 * counted from the first try's start.
 */
void client_retry(struct thread *t, struct client *c);

/* pgbench's commandFailed(): "aborted in command N (WHAT) of script 0". */
void command_failed(struct thread *t, struct client *c, const char *what,
					const char *msg, const char *detail);

/* The failure policy of T's workload (pgbench's, when it has none). */
const struct load_policy *policy_of(const struct thread *t);

/* Count an error of class K in the current second (every try counts). */
void record_error(struct thread *t, int k, int64_t now);

/* ---------------------------------------------------------------------
 * Connecting and preparing, -C (connect.c)
 * ------------------------------------------------------------------- */

/* Handle an event during the prepare phase; 1 when C is ready. */
int client_prepare_event(struct thread *t, struct client *c);

/* -C: every statement prepared again on a new connection; true when
 * there is none to prepare (then C is ready at once). */
bool client_prepare_start(struct thread *t, struct client *c);

/* -C: an event of a client that connects, then prepares, mid-window. */
void client_reconnect_event(struct thread *t, struct client *c);

/*
 * -C: close C's connection and start a new one for the transaction about
 * to begin (pgbench's CSTATE_START_TX with is_connect).  Its events come
 * to client_reconnect_event().
 */
void client_reconnect_start(struct thread *t, struct client *c);

/* Connect every client of T, CONNECT_WINDOW at a time; -1 on failure. */
int thread_connect(struct thread *t);

/* Prepare every SQL command on every connection (prepared protocol). */
int thread_prepare(struct thread *t);

#endif /* PGCLIFF_ENGINE_INT_H */
