/*
 * engine.c - the load engine; see engine.h for the contract.
 *
 * The steady path of a client is one send (PQsendQuery*) and one receive
 * (PQconsumeInput after epoll says readable) per SQL command; the epoll
 * set is built once and only changes when libpq cannot flush at once.
 * A thread with a single connection also pays one epoll_wait per
 * response.  A blocking recv() bounded by SO_RCVTIMEO was tried for that
 * case: 2.0 instead of 3.0 system calls per transaction, but twice the
 * context switches, more CPU and less tps on this kind of VM; so no.
 * Threads share nothing on that path but relaxed progress counters.
 */
#include "engine.h"

#include "cluster.h"
#include "probe_int.h"

#include <ctype.h>
#include <errno.h>
#include <libpq-fe.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

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
	int nsec_cap;  /* length of the sec_* arrays */
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
	struct load_error_second *errs; /* errors by second and class */
	int nerrs;
	int errs_cap;
	struct load_event *events; /* timed event: occurrences started */
	int nevents;
	uint64_t *sec_txns;
	uint64_t *sec_failures;
	double *sec_lat_sum_ns;
	uint64_t *sec_lat_max_ns;
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

/* ----------------------------------------------------------- utilities */

static int
class_index(const char *sqlstate)
{
	int idx = 0;

	if (sqlstate == NULL || strlen(sqlstate) < 2)
		return -1;
	for (int i = 0; i < 2; i++)
	{
		char ch = sqlstate[i];
		int d;

		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (ch >= 'A' && ch <= 'Z')
			d = ch - 'A' + 10;
		else
			return -1;
		idx = idx * 36 + d;
	}
	return idx;
}

static void
class_name(int idx, char out[20])
{
	static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

	if (idx == RC_CLASS)
	{
		snprintf(out, 20, "recovery_conflict");
		return;
	}
	out[0] = digits[idx / 36];
	out[1] = digits[idx % 36];
	out[2] = '\0';
}

/* Record the first fatal error of the point and ask everyone to stop. */
static void
engine_fail(struct engine *e, const struct pgc_error *err)
{
	pthread_mutex_lock(&e->mu);
	if (e->first_err.kind == PGC_ERR_NONE)
		e->first_err = *err;
	pthread_mutex_unlock(&e->mu);
	atomic_store(&e->stop, 1);
}

static void
copy_conn_error(char *dst, size_t size, PGconn *conn)
{
	/* PQerrorMessage is borrowed until the next call: copy at once */
	snprintf(dst, size, "%s", conn ? PQerrorMessage(conn) : "out of memory");
	dst[strcspn(dst, "\n")] = '\0';
}

/*
 * Register or change what epoll watches for C.  A MOD to the events
 * already registered is skipped: it would be a system call for nothing.
 */
static int
ep_set(struct thread *t, struct client *c, uint32_t events, int op)
{
	struct epoll_event ev;
	int rc;

	if (op == EPOLL_CTL_MOD && c->ep_events == events)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.events = events;
	ev.data.ptr = c;
	rc = epoll_ctl(t->epfd, op, c->fd, &ev);
	if (rc == 0)
		c->ep_events = events;
	return rc;
}

/* ---------------------------------------------------------- run phase */

static void
client_abort(struct thread *t, struct client *c, const char *why)
{
	if (t->aborted == 0)
		snprintf(t->first_error, sizeof(t->first_error), "client %d %.490s",
				 c->id, why);
	t->aborted++;
	if (c->state == CS_SLEEP)
		t->nsleeping--;
	if (c->state != CS_DONE && c->state != CS_ABORTED)
		t->active--;
	c->state = CS_ABORTED;
	if (c->held)
	{
		PQclear(c->held);
		c->held = NULL;
	}
	if (c->fd >= 0)
		epoll_ctl(t->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	if (t->e->p->exit_on_abort)
	{
		struct pgc_error err;

		error_set(&err, PGC_ERR_ABORTED,
				  "workload '%s', client %d %.400s (--exit-on-abort stops "
				  "the run)",
				  t->w->name, c->id, why);
		engine_fail(t->e, &err);
	}
}

/* pgbench's commandFailed(): "aborted in command N (WHAT) of script 0". */
static void
command_failed(struct thread *t, struct client *c, const char *what,
			   const char *msg, const char *detail)
{
	char buf[sizeof(t->first_error) + 64];

	snprintf(buf, sizeof(buf),
			 "aborted in command %d (%s) of script %d; %s%s%.400s", c->cmd,
			 what, c->vars.script_index, msg, detail ? ": " : "",
			 detail ? detail : "");
	client_abort(t, c, buf);
}

static void
client_lost(struct thread *t, struct client *c)
{
	char msg[256], buf[300];

	if (c->fatal[0])
		snprintf(msg, sizeof(msg), "%s", c->fatal);
	else
		copy_conn_error(msg, sizeof(msg), c->conn);
	snprintf(buf, sizeof(buf), "aborted: %s",
			 msg[0] ? msg : "connection lost");
	client_abort(t, c, buf);
	if (t->w->policy && t->w->policy->connection == LOAD_ABORT_RUN)
	{
		struct pgc_error err;

		error_set(&err, PGC_ERR_ABORTED,
				  "workload '%s', client %d lost its connection (the policy "
				  "aborts the run): %s",
				  t->w->name, c->id, msg[0] ? msg : "connection lost");
		engine_fail(t->e, &err);
	}
}

/* libpq's notice receiver of a client: see client.fatal. */
static void
client_notice(void *arg, const PGresult *res)
{
	struct client *c = arg;
	const char *sev = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);
	const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

	if (sev && strcmp(sev, "FATAL") == 0 && msg)
	{
		snprintf(c->fatal, sizeof(c->fatal), "FATAL:  %s", msg);
		return;
	}
	/* every other notice as pgbench leaves it: libpq prints it */
	if (c->notice_prev)
		c->notice_prev(NULL, res);
}

static void
client_watch_notices(struct client *c)
{
	c->fatal[0] = '\0';
	/* a new connection's receiver is libpq's default, whose argument is
	 * NULL (it prints through the connection's notice processor) */
	c->notice_prev = PQsetNoticeReceiver(c->conn, client_notice, c);
}

/* After a send: if libpq could not flush everything, wait for EPOLLOUT. */
static bool
client_flush(struct thread *t, struct client *c)
{
	int r = PQflush(c->conn);

	if (r < 0)
		return false;
	/* what libpq could not send yet goes out when epoll says writable */
	if (r == 1)
		ep_set(t, c, EPOLLIN | EPOLLOUT, EPOLL_CTL_MOD);
	return true;
}

/* pgbench -d: "client 0 sending UPDATE ..." (simple: the text sent). */
static void
log_send(struct thread *t, struct client *c, const struct script_cmd *cmd)
{
	char line[1024];

	if (t->w->protocol == LOAD_PROTO_SIMPLE)
		snprintf(line, sizeof(line), "client %d sending %s", c->id,
				 c->query.buf);
	else
		snprintf(line, sizeof(line), "client %d sending %s", c->id,
				 t->w->protocol == LOAD_PROTO_PREPARED ? cmd->stmt_name
													   : cmd->sql_params);
	t->e->p->debug(t->e->p->debug_arg, line);
}

static bool
client_send(struct thread *t, struct client *c, int cmdi)
{
	const struct script *s = t->w->scripts[c->si];
	const struct script_cmd *cmd = &s->cmds[cmdi];
	int ok;

	for (int i = 0; i < cmd->nparams; i++)
	{
		char *buf = c->param_buf + (size_t) i * PARAM_WIDTH;

		c->param_values[i] =
			script_var_text(&c->vars, cmd->param_vars[i], buf);
		if (c->param_values[i] == NULL)
		{
			char msg[256];

			snprintf(msg, sizeof(msg), "undefined variable \"%s\"",
					 s->var_names[cmd->param_vars[i]]);
			command_failed(t, c, "SQL", msg, NULL);
			return false;
		}
	}
	switch (t->w->protocol)
	{
		case LOAD_PROTO_PREPARED:
			ok = PQsendQueryPrepared(c->conn, cmd->stmt_name, cmd->nparams,
									 c->param_values, NULL, NULL, 0);
			break;
		case LOAD_PROTO_EXTENDED:
			ok = PQsendQueryParams(c->conn, cmd->sql_params, cmd->nparams,
								   NULL, c->param_values, NULL, NULL, 0);
			break;
		default:
			strbuf_reset(&c->query);
			for (int i = 0, p = 0; i < cmd->npieces; i++)
			{
				strbuf_add(&c->query, cmd->pieces[i].text, cmd->pieces[i].len);
				if (cmd->pieces[i].var >= 0)
					strbuf_addstr(&c->query, c->param_values[p++]);
			}
			ok = PQsendQuery(c->conn, c->query.buf);
			break;
	}
	if (!ok || !client_flush(t, c))
	{
		client_lost(t, c);
		return false;
	}
	if (t->e->p->debug_sends && t->e->p->debug)
		log_send(t, c, cmd);
	c->qrynum = 0;
	return true;
}

/* The per-second slot of time NOW, growing the arrays in -t mode. */
static int64_t
second_of(struct thread *t, int64_t now)
{
	struct engine *e = t->e;
	int64_t sec = (now - e->window_start_ns) / 1000000000;

	if (!e->txmode)
		return sec >= e->nseconds ? e->nseconds - 1 : sec;
	if (sec >= t->nsec_cap)
	{
		int cap = t->nsec_cap;

		while (sec >= cap)
			cap *= 2;
		t->sec_txns = xrealloc(t->sec_txns, (size_t) cap * sizeof(uint64_t));
		t->sec_failures =
			xrealloc(t->sec_failures, (size_t) cap * sizeof(uint64_t));
		t->sec_lat_sum_ns =
			xrealloc(t->sec_lat_sum_ns, (size_t) cap * sizeof(double));
		t->sec_lat_max_ns =
			xrealloc(t->sec_lat_max_ns, (size_t) cap * sizeof(uint64_t));
		for (int i = t->nsec_cap; i < cap; i++)
		{
			t->sec_txns[i] = t->sec_failures[i] = t->sec_lat_max_ns[i] = 0;
			t->sec_lat_sum_ns[i] = 0;
		}
		t->nsec_cap = cap;
	}
	if (sec + 1 > t->nsec_used)
		t->nsec_used = (int) sec + 1;
	return sec;
}

/* ------------------------------------------------------------ -l logs */

static void
txlog_reset(struct txlog *l, int64_t start_us)
{
	FILE *f = l->f;
	int64_t shift = l->shift_ns;
	struct prng sample = l->sample;

	memset(l, 0, sizeof(*l));
	l->f = f;
	l->shift_ns = shift;
	l->sample = sample;
	l->start_us = start_us;
}

/* Open thread T's log (pgbench's threadRun()); false with the point failed. */
static bool
txlog_open(struct thread *t)
{
	const struct load_point *p = t->e->p;
	int tid = (int) (t - t->e->threads);
	char path[4200];
	struct timespec ts;

	if (p->log_prefix == NULL)
		return true;
	if (tid == 0)
		snprintf(path, sizeof(path), "%s", p->log_prefix);
	else
		snprintf(path, sizeof(path), "%s.%d", p->log_prefix, tid);
	if ((t->log.f = fopen(path, "w")) == NULL)
	{
		struct pgc_error err;

		error_set(&err, PGC_ERR_IO, "could not open log file \"%s\": %s", path,
				  strerror(errno));
		engine_fail(t->e, &err);
		return false;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	t->log.shift_ns =
		(int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec - clock_now_ns();
	prng_seed(&t->log.sample, p->log_seed + (uint64_t) tid);
	/* intervals from the whole second the window starts in, as pgbench
	 * measures them from the whole second its thread starts in */
	txlog_reset(&t->log, (t->e->window_start_ns + t->log.shift_ns) /
							 1000000000 * 1000000);
	return true;
}

static void
txlog_close(struct thread *t)
{
	if (t->log.f)
		fclose(t->log.f);
	t->log.f = NULL;
}

static void
stat_add(double v, uint64_t n, double *sum, double *sum2, double *min,
		 double *max)
{
	if (n == 0 || v < *min)
		*min = v;
	if (n == 0 || v > *max)
		*max = v;
	*sum += v;
	*sum2 += v * v;
}

/*
 * pgbench's doLog() for one transaction of client C ending at NOW (or
 * skipped under a rate): KIND 0 done, 1 failed, 2 skipped.
 */
static void
txlog_add(struct thread *t, struct client *c, int64_t now, int kind)
{
	const struct load_point *p = t->e->p;
	struct txlog *l = &t->log;
	int64_t epoch_us = (now + l->shift_ns) / 1000;
	int max_tries = t->w->policy ? t->w->policy->max_tries : 1;
	/* whole microseconds, as pgbench's pg_time_usec_t */
	int64_t lat_us = (now - c->txn_start_ns) / 1000;
	int64_t lag_us = c->txn_lag_ns / 1000;
	double lat = (double) lat_us, lag = (double) lag_us;

	if (p->sampling_rate > 0 && prng_double(&l->sample) > p->sampling_rate)
		return;
	if (p->agg_interval_s > 0)
	{
		int64_t step = (int64_t) p->agg_interval_s * 1000000;

		/* every interval that ended before now, empty ones too */
		while (l->start_us + step <= epoch_us)
		{
			fprintf(l->f,
					"%" PRId64 " %" PRIu64 " %.0f %.0f %.0f %.0f %.0f %.0f "
					"%.0f %.0f %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
					" %" PRIu64 "\n",
					l->start_us / 1000000, l->cnt, l->lat_sum, l->lat_sum2,
					l->lat_min, l->lat_max, l->lag_sum, l->lag_sum2,
					l->lag_min, l->lag_max, l->skipped, l->retried, l->retries,
					p->failures_detailed ? l->ser : 0,
					p->failures_detailed ? l->dl : 0);
			txlog_reset(l, l->start_us + step);
		}
		if (kind == 2)
		{
			l->skipped++;
			return;
		}
		if (c->tries > 1)
		{
			l->retried++;
			l->retries += (uint64_t) (c->tries - 1);
		}
		if (kind == 1)
		{
			l->ser += c->fail_kind == 1;
			l->dl += c->fail_kind == 2;
			return;
		}
		stat_add(lat, l->cnt, &l->lat_sum, &l->lat_sum2, &l->lat_min,
				 &l->lat_max);
		if (t->w->rate > 0)
			stat_add(lag, l->cnt, &l->lag_sum, &l->lag_sum2, &l->lag_min,
					 &l->lag_max);
		l->cnt++;
		return;
	}
	if (kind == 0)
		fprintf(l->f, "%d %" PRId64 " %.0f %d %" PRId64 " %" PRId64, c->id,
				c->ntx + 1, lat, c->si, epoch_us / 1000000,
				epoch_us % 1000000);
	else
		fprintf(l->f, "%d %" PRId64 " %s %d %" PRId64 " %" PRId64, c->id,
				c->ntx + 1,
				kind == 2               ? "skipped"
				: !p->failures_detailed ? "failed"
				: c->fail_kind == 1     ? "serialization"
				: c->fail_kind == 2     ? "deadlock"
										: "failed",
				c->si, epoch_us / 1000000, epoch_us % 1000000);
	if (t->w->rate > 0)
		fprintf(l->f, " %.0f", lag);
	if (max_tries != 1)
		fprintf(l->f, " %d", c->tries - 1);
	fputc('\n', l->f);
}

static void
record_txn(struct thread *t, struct client *c, int64_t now)
{
	struct engine *e = t->e;
	/*
	 * A failure counts at its error, where its class was counted: the two
	 * then agree second by second, also when the window closes between
	 * the error and the end of the transaction's rollback.
	 */
	int64_t at = c->txn_failed ? c->fail_ns : now;
	int64_t sec;

	if (at < e->window_start_ns)
	{
		if (!c->txn_failed)
			atomic_store_explicit(&t->warm_txns, ++t->warm_local,
								  memory_order_relaxed);
		return;
	}
	if (at > e->window_end_ns)
		return;
	if (t->log.f)
		txlog_add(t, c, now, c->txn_failed ? 1 : 0);
	sec = second_of(t, at);
	if (c->tries > 1)
	{
		t->retried++;
		t->retries += (uint64_t) (c->tries - 1);
		t->ss[c->si].retried++;
		t->ss[c->si].retries += (uint64_t) (c->tries - 1);
	}
	if (c->txn_failed)
	{
		t->failures++;
		t->ss[c->si].failures++;
		t->sec_failures[sec]++;
		if (c->fail_class >= 0)
			t->class_counts[c->fail_class]++;
		if (c->fail_kind == 1)
			t->ss[c->si].serialization_failures++;
		else if (c->fail_kind == 2)
			t->ss[c->si].deadlock_failures++;
		atomic_store_explicit(&t->prog_failures, t->failures,
							  memory_order_relaxed);
	}
	else
	{
		uint64_t lat = (uint64_t) (now - c->txn_start_ns);

		t->txns++;
		if (t->w->latency_limit_ns > 0 &&
			lat > (uint64_t) t->w->latency_limit_ns)
			t->late++;
		hist_record(t->hist, lat);
		t->ss[c->si].txns++;
		if (t->w->nscripts > 1)
			hist_record(t->ss[c->si].latency, lat);
		t->sec_txns[sec]++;
		t->sec_lat_sum_ns[sec] += (double) lat;
		if (lat > t->sec_lat_max_ns[sec])
			t->sec_lat_max_ns[sec] = lat;
		t->prog_lat_local += (double) lat;
		t->prog_latsq_local += (double) lat * (double) lat;
		atomic_store_explicit(&t->prog_txns, t->txns, memory_order_relaxed);
		atomic_store_explicit(&t->prog_lat_sum_ns, t->prog_lat_local,
							  memory_order_relaxed);
		atomic_store_explicit(&t->prog_lat_sumsq_ns, t->prog_latsq_local,
							  memory_order_relaxed);
	}
}

static const struct load_policy default_policy = {1,
												  LOAD_CONTINUE,
												  LOAD_CONTINUE,
												  LOAD_CONTINUE,
												  LOAD_CONTINUE,
												  LOAD_ABORT_CLIENT,
												  NULL,
												  0};

static const struct load_policy *
policy_of(const struct thread *t)
{
	return t->w->policy ? t->w->policy : &default_policy;
}

/*
 * The counter of an error (its SQLSTATE class, or RC_CLASS for a recovery
 * conflict) and what the policy does with it.
 */
static int
classify(const struct thread *t, const PGresult *res, enum load_action *act)
{
	const struct load_policy *pol = policy_of(t);
	const char *st = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	bool rc = msg && strstr(msg, "due to conflict with recovery") != NULL;

	if (st == NULL)
		st = "";
	for (int i = 0; i < pol->nrules; i++)
	{
		const char *r = pol->rules[i].sqlstate;

		if (strcmp(r, st) == 0 || (strlen(r) == 2 && strncmp(r, st, 2) == 0))
		{
			*act = pol->rules[i].action;
			return rc ? RC_CLASS : class_index(st);
		}
	}
	if (rc)
		*act = pol->recovery_conflict;
	else if (strcmp(st, "40001") == 0)
		*act = pol->serialization;
	else if (strcmp(st, "40P01") == 0)
		*act = pol->deadlock;
	else
		*act = pol->other;
	return rc ? RC_CLASS : class_index(st);
}

/* Count an error of class K in the current second (every try counts). */
static void
record_error(struct thread *t, int k, int64_t now)
{
	struct engine *e = t->e;
	int sec;

	if (k < 0 || now < e->window_start_ns || now > e->window_end_ns)
		return;
	sec = (int) second_of(t, now);
	/* this thread's clock only moves on: this second's entries are last */
	for (int i = t->nerrs - 1; i >= 0 && t->errs[i].second == sec; i--)
	{
		char name[20];

		class_name(k, name);
		if (strcmp(t->errs[i].sqlclass, name) == 0)
		{
			t->errs[i].count++;
			return;
		}
	}
	if (t->nerrs == t->errs_cap)
	{
		t->errs_cap = t->errs_cap ? t->errs_cap * 2 : 16;
		t->errs = xrealloc(t->errs, (size_t) t->errs_cap * sizeof(*t->errs));
	}
	t->errs[t->nerrs].second = sec;
	class_name(k, t->errs[t->nerrs].sqlclass);
	t->errs[t->nerrs].count = 1;
	t->nerrs++;
}

/* \shell and \setshell, as pgbench's runShellCommand(). */
static bool
client_shell(struct thread *t, struct client *c, const struct script_cmd *cmd)
{
	const char *what = cmd->kind == SCRIPT_CMD_SHELL ? "shell" : "setshell";
	char line[SCRIPT_SHELL_SIZE], res[64], *end;
	FILE *fp;
	long val;
	struct script_value v;

	if (!script_shell_line(cmd, &c->vars, line, sizeof(line)))
	{
		command_failed(t, c, what, "execution of meta-command failed",
					   c->vars.errmsg);
		return false;
	}
	if (cmd->kind == SCRIPT_CMD_SHELL)
	{
		if (system(line) != 0)
		{
			command_failed(t, c, what, "execution of meta-command failed",
						   "shell: could not launch shell command");
			return false;
		}
		return true;
	}
	if ((fp = popen(line, "r")) == NULL)
	{
		command_failed(t, c, what, "execution of meta-command failed",
					   "setshell: could not launch shell command");
		return false;
	}
	if (fgets(res, sizeof(res), fp) == NULL)
	{
		pclose(fp);
		command_failed(t, c, what, "execution of meta-command failed",
					   "setshell: could not read result of shell command");
		return false;
	}
	pclose(fp);
	val = strtol(res, &end, 10);
	while (*end != '\0' && isspace((unsigned char) *end))
		end++;
	if (*res == '\0' || *end != '\0')
	{
		char msg[128];

		res[strcspn(res, "\n")] = '\0';
		snprintf(msg, sizeof(msg),
				 "setshell: shell command must return an integer (not \"%s\")",
				 res);
		command_failed(t, c, what, "execution of meta-command failed", msg);
		return false;
	}
	v.type = SV_INT;
	v.u.i = (int) val; /* pgbench keeps an int */
	script_var_put_value(&c->vars, cmd->set_var, &v);
	return true;
}

/* Evaluate an \if or \elif condition; -1 on error (client aborted). */
static int
client_condition(struct thread *t, struct client *c, int cmdi)
{
	const struct script *s = t->w->scripts[c->si];
	struct script_value v;

	c->cmd = cmdi;
	c->vars.cmd_index = cmdi;
	if (!script_eval(s, s->cmds[cmdi].expr, &c->vars, &v))
	{
		command_failed(t, c,
					   s->cmds[cmdi].kind == SCRIPT_CMD_IF ? "if" : "elif",
					   "evaluation of meta-command failed", c->vars.errmsg);
		return -1;
	}
	return script_value_truth(&v) ? 1 : 0;
}

/* pgbench's chooseScript(): a script drawn by weight. */
static int
choose_script(struct thread *t)
{
	int64_t w;
	int i = 0;

	if (t->w->nscripts == 1)
		return 0;
	w = (int64_t) prng_range(&t->choose, 0, (uint64_t) t->total_weight - 1);
	do
		w -= t->w->weights[i++];
	while (w >= 0);
	return i - 1;
}

/*
 * -r: the command the client was on is over; time it, and start timing
 * NEXT (-1: none).
 */
static void
time_command(struct thread *t, struct client *c, int next)
{
	int64_t now = clock_now_ns();

	if (c->cur_cmd >= 0)
	{
		struct load_script_result *ss = &t->ss[c->si];

		ss->cmd_lat_sum_ns[c->cur_cmd] += (double) (now - c->cmd_start_ns);
		ss->cmd_count[c->cur_cmd]++;
	}
	c->cur_cmd = next;
	c->cmd_start_ns = now;
}

static void
client_done(struct thread *t, struct client *c)
{
	c->state = CS_DONE;
	t->active--;
}

static void
record_lag(struct thread *t, struct client *c, int64_t now)
{
	int64_t lag = now - c->scheduled_ns;

	c->txn_lag_ns = lag;
	if (now < t->e->window_start_ns || now > t->e->window_end_ns)
		return;
	t->lag_n++;
	t->lag_sum_ns += (double) lag;
	if (lag > t->lag_max_ns)
		t->lag_max_ns = lag;
}

/*
 * Under a rate: the client's slot in its thread's Poisson schedule
 * (pgbench's CSTATE_PREPARE_THROTTLE), slots already later than the
 * latency limit skipped.  True to start now; false when the client sleeps
 * until its slot, or is done.
 */
static bool
client_throttle(struct thread *t, struct client *c, int64_t now)
{
	struct engine *e = t->e;
	int64_t limit = t->w->latency_limit_ns;

	for (;;)
	{
		/* pgbench's getPoissonRand(): mean delay_ns, rounded */
		double u = 1.0 - prng_double(&t->throttle);

		t->trigger_ns += (int64_t) (-log(u) * t->delay_ns + 0.5);
		c->scheduled_ns = t->trigger_ns;
		if (limit <= 0 || t->trigger_ns >= now - limit)
			break;
		if (now >= e->window_start_ns && now <= e->window_end_ns)
		{
			t->skipped++;
			if (t->log.f)
				txlog_add(t, c, now, 2);
		}
		c->ntx++;
		if (now >= e->window_end_ns ||
			(e->txmode && c->ntx >= t->w->transactions))
		{
			client_done(t, c);
			return false;
		}
	}
	if (c->scheduled_ns > e->window_end_ns)
	{
		client_done(t, c);
		return false;
	}
	c->txn_start_ns = c->scheduled_ns; /* latency from the schedule */
	if (c->scheduled_ns > now)
	{
		c->throttling = true;
		c->sleep_until_ns = c->scheduled_ns;
		c->state = CS_SLEEP;
		t->nsleeping++;
		return false;
	}
	record_lag(t, c, now);
	return true;
}

/*
 * A timed event: the client waits for its next occurrence, or is done
 * when there is none left in the window.  Always false (it sleeps).
 */
static bool
client_event(struct thread *t, struct client *c, int64_t now)
{
	const struct load_workload *w = t->w;
	struct engine *e = t->e;
	int64_t planned = w->at_ns + (int64_t) c->occurrence * w->every_ns;
	int64_t end =
		w->until_ns > 0 ? w->until_ns : e->window_end_ns - e->window_start_ns;

	if ((c->occurrence > 0 && w->every_ns <= 0) || planned >= end)
	{
		client_done(t, c);
		return false;
	}
	c->scheduled_ns = e->window_start_ns + planned;
	c->throttling = true;
	c->sleep_until_ns = c->scheduled_ns;
	c->state = CS_SLEEP;
	t->nsleeping++;
	(void) now;
	return false;
}

/* A timed event's occurrence began now: keep the earliest start. */
static void
record_event(struct thread *t, struct client *c, int64_t now)
{
	struct load_event *ev = NULL;

	for (int i = 0; i < t->nevents; i++)
		if (t->events[i].seq == c->occurrence)
			ev = &t->events[i];
	if (ev == NULL)
	{
		t->events = xrealloc(t->events,
							 (size_t) (t->nevents + 1) * sizeof(*t->events));
		ev = &t->events[t->nevents++];
		ev->seq = c->occurrence;
		ev->planned_ns = c->scheduled_ns - t->e->window_start_ns;
		ev->actual_ns = now - t->e->window_start_ns;
	}
	else if (now - t->e->window_start_ns < ev->actual_ns)
		ev->actual_ns = now - t->e->window_start_ns;
	c->occurrence++;
}

/*
 * Begin a transaction: a script by weight, the random state saved for
 * retries, and under a rate its scheduled start.  False when the client
 * waits for its slot, or is done.
 */
static bool
client_start_txn(struct thread *t, struct client *c, int64_t now)
{
	c->si = choose_script(t);
	c->cmd = 0;
	c->txn_failed = false;
	c->fail_class = -1;
	c->fail_kind = 0;
	c->txn_start_ns = now;
	c->tries = 1;
	c->txn_prng = c->vars.prng;
	if (t->w->timed)
		return client_event(t, c, now);
	return t->w->rate > 0 ? client_throttle(t, c, now) : true;
}

/* Start the next transaction, or finish: false when the client is done. */
static bool
client_next_txn(struct thread *t, struct client *c)
{
	int64_t now = clock_now_ns();

	record_txn(t, c, now);
	c->ntx++;
	c->txn_conn = false; /* -C: the next one gets a new connection */
	if (now >= t->e->window_end_ns ||
		(t->e->txmode && c->ntx >= t->w->transactions) ||
		atomic_load_explicit(&t->e->stop, memory_order_relaxed))
	{
		client_done(t, c);
		return false;
	}
	return client_start_txn(t, c, now);
}

static void client_advance(struct thread *t, struct client *c);

/*
 * -C: close C's connection and start a new one for the transaction about
 * to begin (pgbench's CSTATE_START_TX with is_connect).  Its events come
 * to client_reconnect_event().
 */
static void
client_reconnect_start(struct thread *t, struct client *c)
{
	c->reconnect_start = clock_now_ns();
	if (c->fd >= 0)
		epoll_ctl(t->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	c->fd = -1;
	c->ep_events = 0;
	PQfinish(c->conn);
	c->conn = PQconnectStartParams(t->w->conn_keywords, t->w->conn_values, 0);
	if (c->conn == NULL || PQstatus(c->conn) == CONNECTION_BAD)
	{
		client_lost(t, c);
		return;
	}
	client_watch_notices(c);
	c->fd = PQsocket(c->conn);
	c->state = CS_CONNECTING;
	if (ep_set(t, c, EPOLLOUT, EPOLL_CTL_ADD) != 0)
		client_lost(t, c);
}

static bool client_prepare_start(struct thread *t, struct client *c);
static int client_prepare_event(struct thread *t, struct client *c);

/* -C: connected (and prepared): the transaction starts now. */
static void
client_reconnected(struct thread *t, struct client *c)
{
	int64_t now = clock_now_ns();

	c->txn_conn = true;
	c->state = CS_READY;
	/* under a rate or as a timed event, latency counts from the slot */
	if (t->w->rate <= 0 && !t->w->timed)
		c->txn_start_ns = now;
	c->cmd_start_ns = now;
	client_advance(t, c);
}

/* -C: an event of a client that connects, then prepares, mid-window. */
static void
client_reconnect_event(struct thread *t, struct client *c)
{
	if (c->state == CS_CONNECTING)
	{
		PostgresPollingStatusType st = PQconnectPoll(c->conn);
		int fd = PQsocket(c->conn);
		int64_t now;

		if (st == PGRES_POLLING_FAILED)
		{
			client_lost(t, c);
			return;
		}
		if (fd != c->fd)
		{
			epoll_ctl(t->epfd, EPOLL_CTL_DEL, c->fd, NULL);
			c->fd = fd;
			c->ep_events = 0;
			ep_set(t, c, EPOLLOUT, EPOLL_CTL_ADD);
		}
		if (st == PGRES_POLLING_READING)
		{
			ep_set(t, c, EPOLLIN, EPOLL_CTL_MOD);
			return;
		}
		if (st == PGRES_POLLING_WRITING)
		{
			ep_set(t, c, EPOLLOUT, EPOLL_CTL_MOD);
			return;
		}
		PQsetnonblocking(c->conn, 1);
		ep_set(t, c, EPOLLIN, EPOLL_CTL_MOD);
		now = clock_now_ns();
		if (now >= t->e->window_start_ns && now <= t->e->window_end_ns)
		{
			t->reconnects++;
			t->reconnect_ns_sum += (double) (now - c->reconnect_start);
		}
		if (t->w->protocol == LOAD_PROTO_PREPARED)
		{
			if (client_prepare_start(t, c))
				client_reconnected(t, c);
			return;
		}
		client_reconnected(t, c);
		return;
	}
	if (c->state == CS_PREPARING && client_prepare_event(t, c) == 1)
		client_reconnected(t, c);
}

/*
 * Run commands from c->cmd until one has to wait for the server or a
 * timer.  At the end of the script the transaction is recorded and, while
 * the window lasts, the next one starts at once (closed loop).
 */
static void
client_advance(struct thread *t, struct client *c)
{
	const struct script *s = t->w->scripts[c->si];

	/* a loop over commands; the script changes between transactions */

	for (;;)
	{
		const struct script_cmd *cmd;

		if (t->e->p->per_statement && c->cur_cmd != c->cmd)
			time_command(t, c, c->cmd < s->ncmds ? c->cmd : -1);
		if (c->cmd >= s->ncmds)
		{
			PGTransactionStatusType ts = PQtransactionStatus(c->conn);

			if (c->in_pipeline)
			{
				client_abort(
					t, c, "aborted: end of script reached with pipeline open");
				return;
			}
			if (ts == PQTRANS_INTRANS && !c->txn_failed)
			{
				/* as pgbench: the transaction counts, then the client stops */
				record_txn(t, c, clock_now_ns());
				client_abort(t, c,
							 "aborted: end of script reached without "
							 "completing the last transaction");
				return;
			}
			if (!client_next_txn(t, c))
				return;
			s = t->w->scripts[c->si];
			if (t->e->p->per_statement)
				time_command(t, c, 0);
		}
		if (t->w->reconnect && !c->txn_conn && c->cmd == 0)
		{
			client_reconnect_start(t, c);
			return;
		}
		cmd = &s->cmds[c->cmd];
		c->vars.cmd_index = c->cmd;
		switch (cmd->kind)
		{
			case SCRIPT_CMD_SQL:
				if (c->in_pipeline && cmd->store != SCRIPT_STORE_NONE)
				{
					command_failed(
						t, c,
						cmd->store == SCRIPT_STORE_GSET ? "gset" : "aset",
						cmd->store == SCRIPT_STORE_GSET
							? "\\gset is not allowed in pipeline mode"
							: "\\aset is not allowed in pipeline mode",
						NULL);
					return;
				}
				if (!client_send(t, c, c->cmd))
					return;
				if (c->in_pipeline)
				{
					c->cmd++; /* results are read at \endpipeline */
					continue;
				}
				c->state = CS_WAIT;
				return;
			case SCRIPT_CMD_SET:
				if (!script_exec_set(s, cmd, &c->vars))
				{
					command_failed(t, c, "set",
								   "evaluation of meta-command failed",
								   c->vars.errmsg);
					return;
				}
				c->cmd++;
				continue;
			case SCRIPT_CMD_IF:
			{
				int b = c->cmd, r;

				/* the first true branch runs; else \else, else none */
				while ((r = client_condition(t, c, b)) == 0)
				{
					b = s->cmds[b].next_branch;
					if (s->cmds[b].kind != SCRIPT_CMD_ELIF)
						break;
				}
				if (r < 0)
					return;
				c->cmd = b + 1;
				continue;
			}
			case SCRIPT_CMD_ELIF:
			case SCRIPT_CMD_ELSE:
				/* reached from a branch that ran: skip to the \endif */
				c->cmd = cmd->endif + 1;
				continue;
			case SCRIPT_CMD_ENDIF:
				c->cmd++;
				continue;
			case SCRIPT_CMD_SLEEP:
			{
				int64_t us;

				if (!script_sleep_us(cmd, &c->vars, &us))
				{
					command_failed(t, c, "sleep",
								   "execution of meta-command failed",
								   c->vars.errmsg);
					return;
				}
				c->sleep_until_ns = clock_now_ns() + us * 1000;
				c->state = CS_SLEEP;
				t->nsleeping++;
				return;
			}
			case SCRIPT_CMD_SHELL:
			case SCRIPT_CMD_SETSHELL:
				if (!client_shell(t, c, cmd))
					return;
				c->cmd++;
				continue;
			case SCRIPT_CMD_STARTPIPELINE:
				if (t->w->protocol == LOAD_PROTO_SIMPLE)
				{
					command_failed(
						t, c, "startpipeline",
						"cannot use pipeline mode with the simple query protocol",
						NULL);
					return;
				}
				if (c->in_pipeline)
				{
					command_failed(t, c, "startpipeline",
								   "already in pipeline mode", NULL);
					return;
				}
				if (PQenterPipelineMode(c->conn) != 1)
				{
					command_failed(t, c, "startpipeline",
								   "failed to enter pipeline mode", NULL);
					return;
				}
				c->in_pipeline = true;
				c->pending_syncs = 0;
				c->cmd++;
				continue;
			case SCRIPT_CMD_SYNCPIPELINE:
			case SCRIPT_CMD_ENDPIPELINE:
			{
				const char *what = cmd->kind == SCRIPT_CMD_ENDPIPELINE
									   ? "endpipeline"
									   : "syncpipeline";

				if (!c->in_pipeline)
				{
					command_failed(t, c, what, "not in pipeline mode", NULL);
					return;
				}
				if (PQpipelineSync(c->conn) != 1 || !client_flush(t, c))
				{
					command_failed(t, c, what,
								   "failed to send a pipeline sync", NULL);
					return;
				}
				c->pending_syncs++;
				if (cmd->kind == SCRIPT_CMD_SYNCPIPELINE)
				{
					c->cmd++;
					continue;
				}
				c->ending_pipeline = true;
				c->state = CS_WAIT;
				return;
			}
		}
	}
}

/*
 * Try the transaction again from its first command, as pgbench does: the
 * same script, the random state of the first try, the latency still
 * counted from the first try's start.
 */
static void
client_retry(struct thread *t, struct client *c)
{
	c->retry_pending = false;
	c->tries++;
	c->cmd = 0;
	c->txn_failed = false;
	c->fail_class = -1;
	c->fail_kind = 0;
	c->vars.prng = c->txn_prng;
	client_advance(t, c);
}

/* The failed transaction is over: next one, or its try again. */
static void
client_failed_done(struct thread *t, struct client *c)
{
	if (c->retry_pending)
		client_retry(t, c);
	else
	{
		c->cmd = t->w->scripts[c->si]->ncmds; /* skip the rest */
		client_advance(t, c);
	}
}

/*
 * A transaction failed: do what the policy says for its error.  Returns
 * false when the client (or the point) stops.
 */
static bool
client_apply_policy(struct thread *t, struct client *c)
{
	const struct load_policy *pol = policy_of(t);
	struct load_script_result *ss = &t->ss[c->si];
	char msg[300];

	switch (c->fail_action)
	{
		case LOAD_RETRY:
			if (c->tries < pol->max_tries && !c->in_pipeline &&
				clock_now_ns() < t->e->window_end_ns &&
				!atomic_load_explicit(&t->e->stop, memory_order_relaxed))
			{
				c->retry_pending = true;
				if (ss->cmd_retries)
					ss->cmd_retries[c->fail_cmd]++;
				return true;
			}
			break;
		case LOAD_ABORT_CLIENT:
			snprintf(msg, sizeof(msg),
					 "aborted in command %d (SQL) of script %d: %s",
					 c->fail_cmd, c->si, c->fail_msg);
			client_abort(t, c, msg);
			return false;
		case LOAD_ABORT_RUN:
		{
			struct pgc_error err;

			error_set(&err, PGC_ERR_ABORTED,
					  "workload '%s', client %d: %s (the policy aborts the "
					  "run on this error)",
					  t->w->name, c->id, c->fail_msg);
			snprintf(msg, sizeof(msg), "aborted the run: %s", c->fail_msg);
			client_abort(t, c, msg);
			engine_fail(t->e, &err);
			return false;
		}
		default:
			break;
	}
	if (ss->cmd_failures)
		ss->cmd_failures[c->fail_cmd]++;
	return true;
}

/* A failed command: roll back if a transaction block is open, else go on. */
static void
client_after_error(struct thread *t, struct client *c)
{
	PGTransactionStatusType ts = PQtransactionStatus(c->conn);

	if (ts == PQTRANS_INERROR || ts == PQTRANS_INTRANS)
	{
		if (!PQsendQuery(c->conn, "ROLLBACK") || !client_flush(t, c))
		{
			client_lost(t, c);
			return;
		}
		c->state = CS_ROLLBACK;
		return;
	}
	if (ts == PQTRANS_UNKNOWN)
	{
		client_lost(t, c);
		return;
	}
	client_failed_done(t, c);
}

/*
 * \gset / \aset: store a result's last row into variables named after
 * its columns (with the prefix).  false when the client was aborted.
 */
static bool
store_result(struct thread *t, struct client *c, const struct script_cmd *cmd,
			 PGresult *res, bool is_last)
{
	const struct script *s = t->w->scripts[c->si];
	ExecStatusType st = PQresultStatus(res);
	int ntuples = st == PGRES_TUPLES_OK ? PQntuples(res) : 0;
	char msg[400];

	if (cmd->store == SCRIPT_STORE_GSET && !is_last)
		return true;
	if (cmd->store == SCRIPT_STORE_GSET && ntuples != 1)
	{
		snprintf(msg, sizeof(msg),
				 "script %d command %d query %d: expected one row, got %d",
				 c->vars.script_index, c->cmd, c->qrynum, ntuples);
		command_failed(t, c, "gset", "execution of meta-command failed", msg);
		return false;
	}
	if (ntuples <= 0)
		return true; /* \aset skips empty results */
	for (int f = 0; f < PQnfields(res); f++)
	{
		char name[200];
		int slot;

		snprintf(name, sizeof(name), "%s%s", cmd->store_prefix,
				 PQfname(res, f));
		if (!script_valid_var_name(name))
		{
			snprintf(msg, sizeof(msg),
					 "script %d command %d query %d: error storing into "
					 "variable %s",
					 c->vars.script_index, c->cmd, c->qrynum, name);
			command_failed(t, c,
						   cmd->store == SCRIPT_STORE_GSET ? "gset" : "aset",
						   "execution of meta-command failed", msg);
			return false;
		}
		/* a name the script never reads needs no slot */
		if ((slot = script_var_slot(s, name)) >= 0)
			script_var_put_string(&c->vars, slot,
								  PQgetvalue(res, ntuples - 1, f));
	}
	return true;
}

/* One result of the command the client waits for; false if it aborted. */
static bool
client_result(struct thread *t, struct client *c, PGresult *res)
{
	const struct script_cmd *cmd = &t->w->scripts[c->si]->cmds[c->cmd];

	switch (PQresultStatus(res))
	{
		case PGRES_COMMAND_OK:
		case PGRES_TUPLES_OK:
		case PGRES_EMPTY_QUERY:
			if (c->state == CS_WAIT && !c->in_pipeline && !c->txn_failed &&
				cmd->kind == SCRIPT_CMD_SQL && cmd->store != SCRIPT_STORE_NONE)
			{
				/* \gset needs the last result: keep this one until then */
				bool ok = true;

				if (c->held)
				{
					ok = store_result(t, c, cmd, c->held, false);
					PQclear(c->held);
				}
				c->held = res;
				c->qrynum++;
				return ok;
			}
			break;
		case PGRES_PIPELINE_SYNC:
			c->pending_syncs--;
			break;
		case PGRES_PIPELINE_ABORTED:
			break;
		case PGRES_COPY_IN:
		case PGRES_COPY_OUT:
		case PGRES_COPY_BOTH:
			PQclear(res);
			client_abort(
				t, c, "aborted: COPY is not supported in pgbench, aborting");
			return false;
		default:
			if ((c->state == CS_WAIT || c->state == CS_SLEEP) &&
				!c->txn_failed)
			{
				const char *st = PQresultErrorField(res, PG_DIAG_SQLSTATE);
				const char *m =
					PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

				c->txn_failed = true;
				c->fail_class = classify(t, res, &c->fail_action);
				/* pgbench's --failures-detailed: by SQLSTATE, as it
				 * tells serialization from deadlock failures */
				c->fail_kind = st && strcmp(st, "40001") == 0   ? 1
							   : st && strcmp(st, "40P01") == 0 ? 2
																: 0;
				c->fail_cmd = c->cmd;
				snprintf(c->fail_msg, sizeof(c->fail_msg), "%s %s",
						 st ? st : "-", m ? m : "error");
				c->fail_ns = clock_now_ns();
				record_error(t, c->fail_class, c->fail_ns);
				if (t->e->p->verbose_errors && t->e->p->debug &&
					c->fail_action == LOAD_RETRY)
				{
					char line[700];

					snprintf(line, sizeof(line),
							 "client %d got an error in command %d (SQL) of "
							 "script %d; %.600s",
							 c->id, c->cmd, c->si, PQresultErrorMessage(res));
					line[strcspn(line, "\n")] = '\0';
					t->e->p->debug(t->e->p->debug_arg, line);
				}
			}
			break;
	}
	c->qrynum++;
	PQclear(res);
	return true;
}

/*
 * The command the client waited for is over: after a failure, what the
 * policy says (retry, roll back and go on, abort); else the next command.
 */
static void
client_next_command(struct thread *t, struct client *c)
{
	if (!c->txn_failed)
	{
		c->cmd++;
		client_advance(t, c);
	}
	else if (client_apply_policy(t, c))
		client_after_error(t, c);
}

/* The command the client waited for is complete. */
static void
client_command_done(struct thread *t, struct client *c)
{
	const struct script_cmd *cmd = &t->w->scripts[c->si]->cmds[c->cmd];

	if (c->state == CS_ROLLBACK)
	{
		client_failed_done(t, c);
		return;
	}
	if (c->held)
	{
		bool ok = c->txn_failed || store_result(t, c, cmd, c->held, true);

		PQclear(c->held);
		c->held = NULL;
		if (!ok)
			return;
	}
	else if (cmd->kind == SCRIPT_CMD_SQL && cmd->store == SCRIPT_STORE_GSET &&
			 !c->txn_failed)
	{
		char msg[200];

		snprintf(msg, sizeof(msg),
				 "script %d command %d query %d: expected one row, got 0",
				 c->vars.script_index, c->cmd, c->qrynum);
		command_failed(t, c, "gset", "execution of meta-command failed", msg);
		return;
	}
	client_next_command(t, c);
}

static void
client_readable(struct thread *t, struct client *c)
{
	int nulls = 0;

	if (!PQconsumeInput(c->conn))
	{
		client_lost(t, c);
		return;
	}
	if (c->state == CS_SLEEP)
		return; /* pipeline results wait in libpq for \endpipeline */
	while (!PQisBusy(c->conn))
	{
		PGresult *res = PQgetResult(c->conn);

		if (res == NULL)
		{
			if (!c->in_pipeline)
			{
				client_command_done(t, c);
				return;
			}
			/* pipeline: NULL ends one query's results; two: nothing more */
			if (++nulls > 1)
				return;
			continue;
		}
		nulls = 0;
		if (!client_result(t, c, res))
			return;
		if (c->in_pipeline && c->ending_pipeline && c->pending_syncs == 0)
		{
			PQexitPipelineMode(c->conn);
			c->in_pipeline = false;
			c->ending_pipeline = false;
			client_next_command(t, c);
			return;
		}
		/*
		 * A lost connection needs no check here: its error result is
		 * followed by NULL, and client_after_error() sees the unknown
		 * transaction status; or the next PQconsumeInput() fails.
		 */
	}
}

/* Wake the clients whose \sleep is over. */
static void
wake_sleepers(struct thread *t, int64_t now)
{
	for (int i = 0; i < t->nclients && t->nsleeping > 0; i++)
	{
		struct client *c = &t->clients[i];

		if (c->state == CS_SLEEP && c->sleep_until_ns <= now)
		{
			t->nsleeping--;
			c->state = CS_WAIT;
			if (c->throttling)
			{
				/* its scheduled start has come: begin the transaction */
				c->throttling = false;
				if (now >= t->e->window_end_ns ||
					atomic_load_explicit(&t->e->stop, memory_order_relaxed))
				{
					client_done(t, c);
					continue;
				}
				if (t->w->timed)
				{
					record_event(t, c, now);
					c->txn_start_ns = now; /* latency from its start */
				}
				else
					record_lag(t, c, now);
			}
			else
				c->cmd++;
			client_advance(t, c);
		}
	}
}

/* Nanoseconds until the first sleeper wakes, or INT64_MAX. */
static int64_t
next_wakeup(const struct thread *t, int64_t now)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < t->nclients && t->nsleeping > 0; i++)
	{
		const struct client *c = &t->clients[i];

		if (c->state == CS_SLEEP && c->sleep_until_ns - now < best)
			best = c->sleep_until_ns - now;
	}
	return best < 0 ? 0 : best;
}

/* ------------------------------------------------------ connect phase */

static void
thread_fail_conn(struct thread *t, struct client *c, const char *what)
{
	struct pgc_error err;
	char msg[400];

	copy_conn_error(msg, sizeof(msg), c->conn);
	error_set(&err, PGC_ERR_UNAVAILABLE, "%s for workload '%s': %s", what,
			  t->w->name, msg);
	engine_fail(t->e, &err);
}

static int
client_connect_start(struct thread *t, struct client *c)
{
	c->conn = PQconnectStartParams(t->w->conn_keywords, t->w->conn_values, 0);
	if (c->conn == NULL || PQstatus(c->conn) == CONNECTION_BAD)
	{
		thread_fail_conn(t, c, "could not connect");
		return -1;
	}
	client_watch_notices(c);
	c->fd = PQsocket(c->conn);
	c->state = CS_CONNECTING;
	/* libpq: consider the first state PGRES_POLLING_WRITING */
	if (ep_set(t, c, EPOLLOUT, EPOLL_CTL_ADD) != 0)
	{
		struct pgc_error err;

		error_set(&err, PGC_ERR_IO, "epoll_ctl: %s", strerror(errno));
		engine_fail(t->e, &err);
		return -1;
	}
	return 0;
}

static int
client_prepare_next(struct thread *t, struct client *c)
{
	const struct script *s;

	/* every SQL command of every script, script by script */
	for (;;)
	{
		if (c->prep_si >= t->w->nscripts)
		{
			c->state = CS_READY;
			return 1;
		}
		s = t->w->scripts[c->prep_si];
		while (c->prep < s->ncmds && s->cmds[c->prep].kind != SCRIPT_CMD_SQL)
			c->prep++;
		if (c->prep < s->ncmds)
			break;
		c->prep_si++;
		c->prep = 0;
	}
	if (!PQsendPrepare(c->conn, s->cmds[c->prep].stmt_name,
					   s->cmds[c->prep].sql_params, s->cmds[c->prep].nparams,
					   NULL) ||
		PQflush(c->conn) != 0)
	{
		thread_fail_conn(t, c, "could not prepare");
		return -1;
	}
	c->state = CS_PREPARING;
	return 0;
}

/* -C: every statement prepared again on a new connection; true when
 * there is none to prepare (then C is ready at once). */
static bool
client_prepare_start(struct thread *t, struct client *c)
{
	c->prep_si = 0;
	c->prep = 0;
	return client_prepare_next(t, c) == 1;
}

/* A PREPARE was refused: report it at its place in the script. */
static void
prepare_failed(struct thread *t, struct client *c, PGresult *res)
{
	const struct script *s = t->w->scripts[c->prep_si];
	const struct script_cmd *cmd = &s->cmds[c->prep];
	struct pgc_error err;
	size_t pos;
	int line, col;

	/* the one mapping; POS is a byte offset into the text sent */
	cluster_pg_error(&err, c->conn, res, cmd->sql_params, NULL, &pos);
	script_locate(s,
				  pos != (size_t) -1 ? script_sql_offset(s, c->prep, pos)
									 : cmd->offset,
				  &line, &col);
	error_at(&err, s->origin.file, line, col, 1);
	engine_fail(t->e, &err);
}

/* Handle an event during the connect phase; 1 when C is connected. */
static int
client_connect_event(struct thread *t, struct client *c)
{
	if (c->state == CS_CONNECTING)
	{
		PostgresPollingStatusType st = PQconnectPoll(c->conn);
		int fd = PQsocket(c->conn);

		if (st == PGRES_POLLING_FAILED)
		{
			thread_fail_conn(t, c, "could not connect");
			return -1;
		}
		if (fd != c->fd)
		{
			/* libpq moved to another address: follow its socket */
			epoll_ctl(t->epfd, EPOLL_CTL_DEL, c->fd, NULL);
			c->fd = fd;
			ep_set(t, c, EPOLLOUT, EPOLL_CTL_ADD);
		}
		if (st == PGRES_POLLING_READING)
			return ep_set(t, c, EPOLLIN, EPOLL_CTL_MOD), 0;
		if (st == PGRES_POLLING_WRITING)
			return ep_set(t, c, EPOLLOUT, EPOLL_CTL_MOD), 0;
		/* PGRES_POLLING_OK */
		c->backend_pid = PQbackendPID(c->conn);
		PQsetnonblocking(c->conn, 1);
		ep_set(t, c, EPOLLIN, EPOLL_CTL_MOD);
		c->state = CS_CONNECTED;
		return 1;
	}
	return 0;
}

/* Handle an event during the prepare phase; 1 when C is ready. */
static int
client_prepare_event(struct thread *t, struct client *c)
{
	if (c->state == CS_PREPARING)
	{
		if (!PQconsumeInput(c->conn))
		{
			thread_fail_conn(t, c, "lost connection while preparing");
			return -1;
		}
		while (!PQisBusy(c->conn))
		{
			PGresult *res = PQgetResult(c->conn);

			if (res == NULL)
			{
				c->prep++;
				return client_prepare_next(t, c);
			}
			if (PQresultStatus(res) != PGRES_COMMAND_OK)
			{
				prepare_failed(t, c, res);
				PQclear(res);
				return -1;
			}
			PQclear(res);
		}
	}
	return 0;
}

/* Has the setup phase WHAT run past DEADLINE?  Fails the point if so. */
static bool
phase_timed_out(struct thread *t, int64_t deadline, const char *what, int done)
{
	struct pgc_error err;

	if (clock_now_ns() <= deadline)
		return false;
	error_set(&err, PGC_ERR_UNAVAILABLE,
			  "timed out %s for workload '%s' (%d of %d done)", what,
			  t->w->name, done, t->nclients);
	engine_fail(t->e, &err);
	return true;
}

static int64_t
phase_deadline(const struct thread *t)
{
	int s = t->e->p->connect_timeout_s ? t->e->p->connect_timeout_s : 120;

	return clock_now_ns() + (int64_t) s * 1000000000;
}

/* Prepare every SQL command on every connection (prepared protocol). */
static int
thread_prepare(struct thread *t)
{
	struct epoll_event events[MAX_EVENTS];
	int ready = 0;
	int64_t deadline = phase_deadline(t);

	for (int i = 0; i < t->nclients; i++)
	{
		struct client *c = &t->clients[i];
		int r;

		if (t->w->protocol != LOAD_PROTO_PREPARED)
		{
			c->state = CS_READY;
			ready++;
			continue;
		}
		if ((r = client_prepare_next(t, c)) < 0)
			return -1;
		ready += r;
	}
	while (ready < t->nclients)
	{
		int n;

		if (atomic_load(&t->e->stop) ||
			phase_timed_out(t, deadline, "preparing statements", ready))
			return -1;
		n = epoll_wait(t->epfd, events, MAX_EVENTS, TICK_MS);
		for (int i = 0; i < n; i++)
		{
			int r = client_prepare_event(t, events[i].data.ptr);

			if (r < 0)
				return -1;
			ready += r;
		}
	}
	return 0;
}

static int
thread_connect(struct thread *t)
{
	struct epoll_event events[MAX_EVENTS];
	int next = 0, inflight = 0, ready = 0;
	int64_t deadline = phase_deadline(t);

	while (ready < t->nclients)
	{
		int n;

		while (inflight < CONNECT_WINDOW && next < t->nclients)
		{
			if (client_connect_start(t, &t->clients[next++]) < 0)
				return -1;
			inflight++;
		}
		if (atomic_load(&t->e->stop) ||
			phase_timed_out(t, deadline, "opening connections", ready))
			return -1;
		n = epoll_wait(t->epfd, events, MAX_EVENTS, TICK_MS);
		for (int i = 0; i < n; i++)
		{
			struct client *c = events[i].data.ptr;
			int r = client_connect_event(t, c);

			if (r < 0)
				return -1;
			if (r == 1)
			{
				ready++;
				inflight--;
				if (ready == 1 && t == &t->e->threads[0])
					inject_point("connect");
			}
		}
	}
	return 0;
}

/* ---------------------------------------------------------- the thread */

/* Cancel what still runs on the server (a long query), then close all. */
static void
thread_close(struct thread *t)
{
	for (int i = 0; i < t->nclients; i++)
	{
		struct client *c = &t->clients[i];

		if (c->conn == NULL)
			continue;
		if (PQstatus(c->conn) == CONNECTION_OK &&
			PQtransactionStatus(c->conn) == PQTRANS_ACTIVE)
		{
			PGcancel *cn = PQgetCancel(c->conn);
			char buf[256];

			if (cn)
			{
				PQcancel(cn, buf, sizeof(buf));
				PQfreeCancel(cn);
			}
		}
		PQfinish(c->conn);
		c->conn = NULL;
	}
}

static void
thread_run(struct thread *t)
{
	struct engine *e = t->e;
	struct epoll_event events[MAX_EVENTS];
	int64_t now = clock_now_ns();

	t->active = t->nclients;
	t->trigger_ns =
		e->window_start_ns; /* the schedule starts with the window */
	for (int i = 0; i < t->nclients; i++)
	{
		struct client *c = &t->clients[i];

		if (client_start_txn(t, c, now))
			client_advance(t, c);
	}
	while (t->active > 0)
	{
		int n;
		int64_t timeout_ns;

		if (atomic_load_explicit(&e->stop, memory_order_relaxed))
			break;
		now = clock_now_ns();
		if (now >= e->window_end_ns + GRACE_NS)
			break;
		/* wake up at the window's end, and often enough to see flags */
		if (now < e->window_end_ns)
			timeout_ns = e->window_end_ns - now;
		else
			timeout_ns = e->window_end_ns + GRACE_NS - now;
		if (t->nsleeping > 0)
		{
			int64_t w = next_wakeup(t, now);

			if (w < timeout_ns)
				timeout_ns = w;
		}
		if (timeout_ns > (int64_t) TICK_MS * 1000000)
			timeout_ns = (int64_t) TICK_MS * 1000000;
		n = epoll_wait(t->epfd, events, MAX_EVENTS,
					   (int) ((timeout_ns + 999999) / 1000000));
		for (int i = 0; i < n; i++)
		{
			struct client *c = events[i].data.ptr;

			if (c->state == CS_CONNECTING || c->state == CS_PREPARING)
			{
				client_reconnect_event(t, c); /* -C */
				continue;
			}
			if (c->state != CS_WAIT && c->state != CS_ROLLBACK &&
				c->state != CS_SLEEP)
				continue;
			if ((events[i].events & EPOLLOUT) && (c->ep_events & EPOLLOUT))
			{
				int r = PQflush(c->conn);

				if (r < 0)
				{
					client_lost(t, c);
					continue;
				}
				if (r == 0)
					ep_set(t, c, EPOLLIN, EPOLL_CTL_MOD);
			}
			if (events[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
				client_readable(t, c);
		}
		if (t->nsleeping > 0)
			wake_sleepers(t, clock_now_ns());
	}
}

/* Say phase STEP is done, and wait until the main thread moves past it. */
static void
thread_sync(struct engine *e, int step)
{
	pthread_mutex_lock(&e->mu);
	e->arrived[step]++;
	pthread_cond_broadcast(&e->cv);
	while (e->phase <= step)
		pthread_cond_wait(&e->cv, &e->mu);
	pthread_mutex_unlock(&e->mu);
}

static void *
thread_main(void *arg)
{
	struct thread *t = arg;
	struct engine *e = t->e;
	int rc = thread_connect(t);

	thread_sync(e, 0);
	if (rc == 0 && !atomic_load(&e->stop))
		rc = thread_prepare(t);
	thread_sync(e, 1);
	if (rc == 0 && !atomic_load(&e->stop) && txlog_open(t))
		thread_run(t);
	txlog_close(t);
	thread_close(t);
	atomic_store(&t->finished, 1);
	return NULL;
}

/* ------------------------------------------------------------ the point */

static void
thread_setup(struct engine *e, struct thread *t, const struct load_workload *w,
			 int wi, int first_client, int nclients, const uint64_t *seeds,
			 int64_t default_seed, uint64_t choose_seed,
			 uint64_t throttle_seed)
{
	/* the last script knows every variable of the workload */
	const struct script *s = w->scripts[w->nscripts - 1];
	int np = 1;

	for (int k = 0; k < w->nscripts; k++)
		if (w->scripts[k]->max_params > np)
			np = w->scripts[k]->max_params;
	t->ss = xcalloc((size_t) w->nscripts, sizeof(*t->ss));
	for (int k = 0; k < w->nscripts; k++)
	{
		struct load_script_result *ss = &t->ss[k];

		t->total_weight += w->weights[k];
		ss->ncmds = w->scripts[k]->ncmds;
		if (w->nscripts > 1)
		{
			ss->latency = xmalloc(sizeof(struct hist));
			hist_reset(ss->latency);
		}
		if (e->p->per_statement)
		{
			ss->cmd_lat_sum_ns = xcalloc((size_t) ss->ncmds, sizeof(double));
			ss->cmd_count = xcalloc((size_t) ss->ncmds, sizeof(uint64_t));
			ss->cmd_failures = xcalloc((size_t) ss->ncmds, sizeof(uint64_t));
			ss->cmd_retries = xcalloc((size_t) ss->ncmds, sizeof(uint64_t));
		}
	}
	prng_seed(&t->choose, choose_seed);
	prng_seed(&t->throttle, throttle_seed);
	/* the workload's rate, split evenly over its threads, as pgbench */
	if (w->rate > 0)
		t->delay_ns = 1e9 *
					  (double) (w->jobs < w->clients ? w->jobs : w->clients) /
					  w->rate;

	t->e = e;
	t->w = w;
	t->wi = wi;
	t->nclients = nclients;
	t->clients = xcalloc((size_t) nclients, sizeof(struct client));
	t->hist = xmalloc(sizeof(struct hist));
	hist_reset(t->hist);
	t->class_counts = xcalloc(NCOUNTERS, sizeof(uint32_t));
	t->nsec_cap = e->nseconds;
	t->sec_txns = xcalloc((size_t) e->nseconds, sizeof(uint64_t));
	t->sec_failures = xcalloc((size_t) e->nseconds, sizeof(uint64_t));
	t->sec_lat_sum_ns = xcalloc((size_t) e->nseconds, sizeof(double));
	t->sec_lat_max_ns = xcalloc((size_t) e->nseconds, sizeof(uint64_t));
	t->epfd = epoll_create1(EPOLL_CLOEXEC);
	for (int i = 0; i < nclients; i++)
	{
		struct client *c = &t->clients[i];

		c->id = first_client + i;
		c->fd = -1;
		c->fail_class = -1;
		c->fail_kind = 0;
		c->cur_cmd = -1;
		script_vars_init(&c->vars, s, c->id, e->p->scale,
						 (int64_t) (e->p->seed + (uint64_t) wi * 1000003u),
						 default_seed, seeds[c->id], w->defines, w->ndefines);
		c->vars.debug = e->p->debug;
		c->vars.debug_arg = e->p->debug_arg;
		c->param_buf = xmalloc((size_t) np * PARAM_WIDTH);
		c->param_values = xcalloc((size_t) np, sizeof(char *));
		strbuf_init(&c->query);
		strbuf_grow(&c->query, 256);
	}
}

static void
thread_release(struct thread *t)
{
	for (int i = 0; i < t->nclients; i++)
	{
		struct client *c = &t->clients[i];

		script_vars_release(&c->vars);
		if (c->held)
			PQclear(c->held);
		free(c->param_buf);
		free(c->param_values);
		strbuf_release(&c->query);
	}
	free(t->clients);
	free(t->hist);
	for (int k = 0; t->ss && k < t->w->nscripts; k++)
	{
		free(t->ss[k].latency);
		free(t->ss[k].cmd_lat_sum_ns);
		free(t->ss[k].cmd_count);
		free(t->ss[k].cmd_failures);
		free(t->ss[k].cmd_retries);
	}
	free(t->ss);
	free(t->errs);
	free(t->events);
	free(t->class_counts);
	free(t->sec_txns);
	free(t->sec_failures);
	free(t->sec_lat_sum_ns);
	free(t->sec_lat_max_ns);
	if (t->epfd >= 0)
		close(t->epfd);
}

/* Add thread T's event occurrences into R: the earliest start of each. */
static void
merge_events(struct load_workload_result *r, const struct thread *t)
{
	for (int i = 0; i < t->nevents; i++)
	{
		const struct load_event *te = &t->events[i];
		int k;

		for (k = 0; k < r->nevents; k++)
			if (r->events[k].seq == te->seq)
				break;
		if (k == r->nevents)
		{
			r->events = xrealloc(r->events, (size_t) (r->nevents + 1) *
												sizeof(*r->events));
			/* insertion keeps the occurrences in order */
			for (k = r->nevents; k > 0 && r->events[k - 1].seq > te->seq; k--)
				r->events[k] = r->events[k - 1];
			r->events[k] = *te;
			r->nevents++;
		}
		else if (te->actual_ns < r->events[k].actual_ns)
			r->events[k].actual_ns = te->actual_ns;
	}
}

/* Add thread T's errors by second into R, kept ordered by second. */
static void
merge_errors(struct load_workload_result *r, const struct thread *t)
{
	for (int i = 0; i < t->nerrs; i++)
	{
		const struct load_error_second *te = &t->errs[i];
		int k;

		for (k = 0; k < r->nerrors; k++)
			if (r->errors[k].second == te->second &&
				strcmp(r->errors[k].sqlclass, te->sqlclass) == 0)
				break;
		if (k < r->nerrors)
		{
			r->errors[k].count += te->count;
			continue;
		}
		r->errors = xrealloc(r->errors,
							 (size_t) (r->nerrors + 1) * sizeof(*r->errors));
		/* insertion keeps the seconds in order */
		for (k = r->nerrors; k > 0 && r->errors[k - 1].second > te->second;
			 k--)
			r->errors[k] = r->errors[k - 1];
		r->errors[k] = *te;
		r->nerrors++;
	}
}

/* Add thread T's per-script figures into R (allocated on first use). */
static void
merge_scripts(struct load_workload_result *r, const struct thread *t)
{
	const struct load_workload *w = t->w;

	if (r->scripts == NULL)
	{
		r->nscripts = w->nscripts;
		r->scripts = xcalloc((size_t) w->nscripts, sizeof(*r->scripts));
		for (int k = 0; k < w->nscripts; k++)
		{
			struct load_script_result *rs = &r->scripts[k];

			rs->ncmds = t->ss[k].ncmds;
			rs->latency = xmalloc(sizeof(struct hist));
			hist_reset(rs->latency);
			if (t->ss[k].cmd_count)
			{
				rs->cmd_lat_sum_ns =
					xcalloc((size_t) rs->ncmds, sizeof(double));
				rs->cmd_count = xcalloc((size_t) rs->ncmds, sizeof(uint64_t));
				rs->cmd_failures =
					xcalloc((size_t) rs->ncmds, sizeof(uint64_t));
				rs->cmd_retries =
					xcalloc((size_t) rs->ncmds, sizeof(uint64_t));
			}
		}
	}
	for (int k = 0; k < w->nscripts; k++)
	{
		struct load_script_result *rs = &r->scripts[k];
		const struct load_script_result *ts = &t->ss[k];

		rs->txns += ts->txns;
		rs->failures += ts->failures;
		rs->serialization_failures += ts->serialization_failures;
		rs->deadlock_failures += ts->deadlock_failures;
		r->serialization_failures += ts->serialization_failures;
		r->deadlock_failures += ts->deadlock_failures;
		rs->retried += ts->retried;
		rs->retries += ts->retries;
		/* one script: its latencies are the workload's */
		hist_add(rs->latency, ts->latency ? ts->latency : t->hist);
		for (int c = 0; rs->cmd_count && ts->cmd_count && c < rs->ncmds; c++)
		{
			rs->cmd_lat_sum_ns[c] += ts->cmd_lat_sum_ns[c];
			rs->cmd_count[c] += ts->cmd_count[c];
			rs->cmd_failures[c] += ts->cmd_failures[c];
			rs->cmd_retries[c] += ts->cmd_retries[c];
		}
	}
}

static void
merge_results(struct engine *e, struct load_result *out)
{
	const struct load_point *p = e->p;

	out->nworkloads = p->nworkloads;
	out->w = xcalloc((size_t) p->nworkloads, sizeof(*out->w));
	for (int wi = 0; wi < p->nworkloads; wi++)
	{
		struct load_workload_result *r = &out->w[wi];
		uint64_t *classes = xcalloc(NCOUNTERS, sizeof(uint64_t));
		uint64_t lag_n = 0;
		double lag_sum = 0;

		r->latency = xmalloc(sizeof(struct hist));
		hist_reset(r->latency);
		r->nseconds = e->nseconds;
		r->sec_txns = xcalloc((size_t) e->nseconds, sizeof(uint64_t));
		r->sec_failures = xcalloc((size_t) e->nseconds, sizeof(uint64_t));
		r->sec_lat_sum_ns = xcalloc((size_t) e->nseconds, sizeof(double));
		r->sec_lat_max_ns = xcalloc((size_t) e->nseconds, sizeof(uint64_t));
		for (int ti = 0; ti < e->nthreads; ti++)
		{
			struct thread *t = &e->threads[ti];

			if (t->wi != wi)
				continue;
			r->jobs++;
			r->txns += t->txns;
			r->failures += t->failures;
			hist_add(r->latency, t->hist);
			for (int s = 0; s < e->nseconds && s < t->nsec_cap; s++)
			{
				r->sec_txns[s] += t->sec_txns[s];
				r->sec_failures[s] += t->sec_failures[s];
				r->sec_lat_sum_ns[s] += t->sec_lat_sum_ns[s];
				if (t->sec_lat_max_ns[s] > r->sec_lat_max_ns[s])
					r->sec_lat_max_ns[s] = t->sec_lat_max_ns[s];
			}
			for (size_t k = 0; k < NCOUNTERS; k++)
				classes[k] += t->class_counts[k];
			r->retried += t->retried;
			r->retries += t->retries;
			r->skipped += t->skipped;
			r->late += t->late;
			r->reconnects += t->reconnects;
			r->reconnect_ns_sum += t->reconnect_ns_sum;
			lag_n += t->lag_n;
			lag_sum += t->lag_sum_ns;
			if ((double) t->lag_max_ns / 1e6 > r->lag_max_ms)
				r->lag_max_ms = (double) t->lag_max_ns / 1e6;
			merge_errors(r, t);
			merge_events(r, t);
			merge_scripts(r, t);
			if (t->aborted && r->aborted_clients == 0)
				snprintf(r->first_error, sizeof(r->first_error), "%s",
						 t->first_error);
			r->aborted_clients += t->aborted;
		}
		r->lag_avg_ms = lag_n ? lag_sum / (double) lag_n / 1e6 : 0;
		for (size_t k = 0; k < NCOUNTERS; k++)
		{
			if (classes[k] == 0)
				continue;
			r->classes = xrealloc(r->classes, (size_t) (r->nclasses + 1) *
												  sizeof(*r->classes));
			class_name(k, r->classes[r->nclasses].sqlclass);
			r->classes[r->nclasses].count = classes[k];
			r->nclasses++;
		}
		free(classes);
	}
}

/* What the previous progress report had seen, per workload. */
struct progress_mark
{
	uint64_t txns;
	uint64_t failures;
	double lat_sum_ns;
	double lat_sumsq_ns;
};

static void
report_progress(struct engine *e, int64_t now, struct progress_mark *mark,
				int64_t *last_ns)
{
	const struct load_point *p = e->p;
	struct load_progress_wl *w = xcalloc((size_t) p->nworkloads, sizeof(*w));
	struct load_progress pr;
	double interval_s = (double) (now - *last_ns) / 1e9;

	for (int wi = 0; wi < p->nworkloads; wi++)
	{
		struct progress_mark cur = {0, 0, 0, 0};
		double n, mean_ns;

		for (int ti = 0; ti < e->nthreads; ti++)
		{
			struct thread *t = &e->threads[ti];

			if (t->wi != wi)
				continue;
			cur.txns +=
				atomic_load_explicit(&t->prog_txns, memory_order_relaxed);
			cur.failures +=
				atomic_load_explicit(&t->prog_failures, memory_order_relaxed);
			cur.lat_sum_ns += atomic_load_explicit(&t->prog_lat_sum_ns,
												   memory_order_relaxed);
			cur.lat_sumsq_ns += atomic_load_explicit(&t->prog_lat_sumsq_ns,
													 memory_order_relaxed);
		}
		w[wi].txns = cur.txns - mark[wi].txns;
		w[wi].failures = cur.failures - mark[wi].failures;
		w[wi].tps = interval_s > 0 ? (double) w[wi].txns / interval_s : 0;
		n = (double) w[wi].txns;
		if (n > 0)
		{
			/* pgbench's interval figures: mean and population stddev */
			double var;

			mean_ns = (cur.lat_sum_ns - mark[wi].lat_sum_ns) / n;
			var = (cur.lat_sumsq_ns - mark[wi].lat_sumsq_ns) / n -
				  mean_ns * mean_ns;
			w[wi].lat_avg_ms = mean_ns / 1e6;
			w[wi].lat_stddev_ms = var > 0 ? sqrt(var) / 1e6 : 0;
		}
		mark[wi] = cur;
	}
	*last_ns = now;
	pr.elapsed_s = (double) (now - e->window_start_ns) / 1e9;
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		pr.unix_s = (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
	}
	pr.nworkloads = p->nworkloads;
	pr.w = w;
	p->progress(p->progress_arg, &pr);
	free(w);
}

/* ---------------------------------------------------------- sampling */

#define SAMPLE_SQL                                                            \
	"SELECT (SELECT xact_commit FROM pg_stat_database"                        \
	"         WHERE datname = current_database()),"                           \
	" (SELECT json_object_agg(w, n) FROM (SELECT wait_event_type || ':' ||"   \
	"   wait_event AS w, count(*) AS n FROM pg_stat_activity"                 \
	"   WHERE wait_event IS NOT NULL AND backend_type = 'client backend'"     \
	"   AND pid <> pg_backend_pid() GROUP BY 1) x),"                          \
	" pg_is_in_recovery(),"                                                   \
	" CASE WHEN pg_is_in_recovery() THEN pg_wal_lsn_diff("                    \
	"   pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()) END,"            \
	" CASE WHEN pg_is_in_recovery() THEN extract(epoch FROM now() -"          \
	"   pg_last_xact_replay_timestamp()) END,"                                \
	" c.confl_snapshot, c.confl_lock, c.confl_bufferpin, c.confl_deadlock,"   \
	" c.confl_tablespace FROM pg_stat_database_conflicts c"                   \
	" WHERE c.datname = current_database()"

struct sampler
{
	PGconn **conns;
	int64_t *last_commits;
	int64_t (*last_conflicts)[5];
	bool *have_last;
	struct probe_set probes;
	struct load_sample *rows;
	int nrows;
	int cap;
};

static PGconn *
sampler_connect(const struct load_node *n)
{
	PGconn *c = PQconnectdbParams(n->conn_keywords, n->conn_values, 0);

	if (PQstatus(c) != CONNECTION_OK)
	{
		PQfinish(c);
		return NULL;
	}
	return c;
}

/*
 * Sample every node for second SECOND (-1: the baseline at the window's
 * start, not kept).  A node that does not answer gets a failed sample and
 * a new connection next time.
 */
static void
sample_nodes(const struct load_point *p, struct sampler *sm, int second)
{
	for (int i = 0; i < p->nnodes; i++)
	{
		int64_t t0 = clock_now_ns();
		struct load_sample row;
		PGresult *res = NULL;

		memset(&row, 0, sizeof(row));
		row.node = i;
		row.second = second;
		if (sm->conns[i] == NULL)
			sm->conns[i] = sampler_connect(&p->nodes[i]);
		if (sm->conns[i])
			res = sampler_exec(sm->conns[i], SAMPLE_SQL);
		if (res && PQresultStatus(res) == PGRES_TUPLES_OK &&
			PQntuples(res) == 1)
		{
			int64_t commits = atoll(PQgetvalue(res, 0, 0));
			int64_t confl[5];

			for (int k = 0; k < 5; k++)
				confl[k] = atoll(PQgetvalue(res, 0, 5 + k));
			row.ok = sm->have_last[i];
			row.commits = commits - sm->last_commits[i];
			for (int k = 0; k < 5; k++)
				row.conflicts[k] = confl[k] - sm->last_conflicts[i][k];
			row.standby = strcmp(PQgetvalue(res, 0, 2), "t") == 0;
			row.lag_bytes = atoll(PQgetvalue(res, 0, 3));
			row.lag_s =
				PQgetisnull(res, 0, 4) ? -1 : atof(PQgetvalue(res, 0, 4));
			row.waits =
				xstrdup(PQgetisnull(res, 0, 1) ? "{}" : PQgetvalue(res, 0, 1));
			sm->last_commits[i] = commits;
			memcpy(sm->last_conflicts[i], confl, sizeof(confl));
			sm->have_last[i] = true;
			row.probes =
				probe_sample(&sm->probes, sm->conns[i], &p->nodes[i], i);
			if (!row.ok && second >= 0)
				snprintf(row.error, sizeof(row.error),
						 "no earlier sample to count from");
		}
		else
		{
			snprintf(row.error, sizeof(row.error), "%s",
					 sm->conns[i] ? PQerrorMessage(sm->conns[i])
								  : "could not connect");
			row.error[strcspn(row.error, "\n")] = '\0';
			if (sm->conns[i] && PQstatus(sm->conns[i]) != CONNECTION_OK)
			{
				PQfinish(sm->conns[i]);
				sm->conns[i] = NULL;
			}
			sm->have_last[i] = false;
			probe_set_forget(&sm->probes, i);
		}
		PQclear(res);
		row.query_ms = (double) (clock_now_ns() - t0) / 1e6;
		if (second < 0)
		{
			free(row.waits);
			free(row.probes);
			continue;
		}
		if (sm->nrows == sm->cap)
		{
			sm->cap = sm->cap ? sm->cap * 2 : 64;
			sm->rows =
				xrealloc(sm->rows, (size_t) sm->cap * sizeof(*sm->rows));
		}
		sm->rows[sm->nrows++] = row;
	}
}

/*
 * With e->mu held, wait until every started thread has finished setup
 * phase STEP, watching for an interrupt meanwhile.
 */
static void
wait_arrived(struct engine *e, int step, bool *interrupted)
{
	const struct load_point *p = e->p;

	while (e->arrived[step] < e->nstarted)
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50L * 1000000;
		if (ts.tv_nsec >= 1000000000)
		{
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&e->cv, &e->mu, &ts);
		if (p->interrupt && *p->interrupt && !*interrupted)
		{
			*interrupted = true;
			atomic_store(&e->stop, 1);
		}
	}
}

/*
 * A common start (load_point.ready): ask when the load begins and wait
 * for it, watching for an interrupt; returns that time (or now, when the
 * point is given up).  Called without e->mu.
 */
static int64_t
common_start(struct engine *e, bool *interrupted)
{
	const struct load_point *p = e->p;
	struct pgc_error rerr;
	int64_t start_ns = 0, now;

	error_clear(&rerr);
	if (p->ready(p->ready_arg, &start_ns, &rerr) < 0)
	{
		if (rerr.kind == PGC_ERR_NONE)
			error_set(&rerr, PGC_ERR_INTERNAL, "the point was given up");
		engine_fail(e, &rerr);
		return clock_now_ns();
	}
	while ((now = clock_now_ns()) < start_ns)
	{
		int64_t left = start_ns - now;
		struct timespec ts;

		if (p->interrupt && *p->interrupt)
		{
			*interrupted = true;
			atomic_store(&e->stop, 1);
			return now;
		}
		if (left > 20000000)
			left = 20000000;
		ts.tv_sec = 0;
		ts.tv_nsec = (long) left;
		nanosleep(&ts, NULL);
	}
	/* every driver counts from the agreed instant, not from its wake-up */
	return start_ns;
}

static bool
all_finished(struct engine *e)
{
	for (int i = 0; i < e->nstarted; i++)
		if (!atomic_load(&e->threads[i].finished))
			return false;
	return true;
}

/* ----------------------------------------------- warm-up until stable */

bool
load_series_stable(const double *x, int n, int half, double tolerance,
				   double *drift)
{
	const double *y;
	int m = 2 * half;
	double tm = (m - 1) / 2.0, ym = 0, sxx = 0, sxy = 0, rss = 0, b, se;

	*drift = 0;
	if (half < 2 || n < m)
		return false;
	y = x + n - m;
	for (int i = 0; i < m; i++)
		ym += y[i];
	ym /= m;
	if (ym <= 0)
		return false; /* nothing done: not a throughput to measure */
	for (int i = 0; i < m; i++)
	{
		sxx += (i - tm) * (i - tm);
		sxy += (i - tm) * (y[i] - ym);
	}
	b = sxy / sxx;
	for (int i = 0; i < m; i++)
	{
		double r = y[i] - ym - b * (i - tm);

		rss += r * r;
	}
	/*
	 * The trend over the last 2 × HALF ticks, as the change from one half
	 * to the next (HALF ticks of slope), relative to their mean; its
	 * standard error from the residuals around the line, so that a ramp
	 * is not taken for noise.
	 */
	*drift = b * half / ym;
	se = sqrt(rss / (m - 2) / sxx);
	return fabs(*drift) <= tolerance || fabs(b) <= WARM_Z * se;
}

static bool
warmup_stable_allowed(const struct load_point *p, bool txmode,
					  struct pgc_error *err)
{
	const char *why = NULL;

	if (txmode)
		why = "a number of transactions per client";
	else if (p->ready)
		why = "several drivers (--workers)";
	else if (p->log_prefix)
		why = "transaction logs (-l)";
	for (int wi = 0; wi < p->nworkloads && !why; wi++)
		if (p->workloads[wi].rate > 0)
			why = "a rate (-R)";
		else if (p->workloads[wi].timed)
			why = "a timed event (at:)";
	if (!why)
		return true;
	error_set(err, PGC_ERR_USAGE,
			  "a warm-up until stable cannot be used with %s: their "
			  "schedules count from a window known in advance",
			  why);
	return false;
}

/*
 * One tick of a stable warm-up: the point's throughput over the tick
 * appended, then judged.  True when the window has begun (stable, or the
 * longest warm-up spent): it ends DURATION later.
 */
static bool
warm_tick(struct engine *e, struct warm_watch *ww, int64_t now,
		  struct load_result *out)
{
	const struct load_point *p = e->p;
	uint64_t total = 0;
	double drift = 0;
	bool stable;

	for (int i = 0; i < e->nthreads; i++)
		total += atomic_load_explicit(&e->threads[i].warm_txns,
									  memory_order_relaxed);
	if (ww->n == ww->cap)
	{
		ww->cap = ww->cap ? ww->cap * 2 : 64;
		ww->tps = xrealloc(ww->tps, (size_t) ww->cap * sizeof(double));
	}
	ww->tps[ww->n++] =
		(double) (total - ww->last) * 1e9 / (double) (now - ww->last_ns);
	ww->last = total;
	ww->last_ns = now;
	ww->next_ns +=
		LOAD_WARM_TICK_NS; /* on the warm-up's own clock: no drift */
	stable = load_series_stable(
		ww->tps, ww->n, LOAD_WARM_HALF_TICKS,
		p->warmup_tolerance > 0 ? p->warmup_tolerance : 0.03, &drift);
	if (!stable && now - ww->began_ns < p->warmup_ns)
		return false;
	/* the end first: a thread that sees the new start sees a real end */
	atomic_store(&e->window_end_ns, now + p->duration_ns);
	atomic_store(&e->window_start_ns, now);
	ww->on = false;
	out->warmup_ns = now - ww->began_ns;
	out->warm_stable = stable;
	out->warm_drift = drift;
	out->warm_tps = ww->tps;
	out->nwarm = ww->n;
	ww->tps = NULL;
	return true;
}

int
load_run(const struct load_point *p, struct load_result *out,
		 struct pgc_error *err)
{
	struct engine e;
	pthread_attr_t attr;
	sigset_t all, old_mask;
	int ti = 0, client_base = 0;
	int64_t t_prepare, t_connect, now, next_progress;
	bool interrupted = false, injected = false;
	bool edge_begun = false, edge_ended = false;
	bool steal_begun = false, steal_ended = false;
	struct cpu_times steal_a, steal_b;
	struct progress_mark *mark;
	int64_t last_ns, next_sample;
	struct sampler sm;
	struct warm_watch ww;
	int nodes;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->steal_pct = -1.0;
	memset(&e, 0, sizeof(e));
	memset(&ww, 0, sizeof(ww));
	e.p = p;
	e.txmode = p->nworkloads > 0;
	for (int wi = 0; wi < p->nworkloads; wi++)
		if (p->workloads[wi].transactions <= 0)
			e.txmode = false;
	if (p->warmup_stable && !warmup_stable_allowed(p, e.txmode, err))
		return -1;
	pthread_mutex_init(&e.mu, NULL);
	pthread_cond_init(&e.cv, NULL);
	e.nseconds = e.txmode ? 16 /* grows per thread as the seconds pass */
						  : (int) ((p->duration_ns + 999999999) / 1000000000);
	if (e.nseconds < 1)
		e.nseconds = 1;
	for (int wi = 0; wi < p->nworkloads; wi++)
	{
		int jobs = p->workloads[wi].jobs;

		if (jobs > p->workloads[wi].clients)
			jobs = p->workloads[wi].clients;
		e.nthreads += jobs < 1 ? 1 : jobs;
	}
	e.threads = xcalloc((size_t) e.nthreads, sizeof(struct thread));

	/*
	 * pgbench's split: the first (clients % jobs) threads take one more.
	 * pgbench's seeding: a base sequence from the seed gives each client's
	 * random stream in client order, then :default_seed.
	 */
	for (int wi = 0; wi < p->nworkloads; wi++)
	{
		const struct load_workload *w = &p->workloads[wi];
		int jobs = w->jobs > w->clients ? w->clients : w->jobs;
		uint64_t *seeds = xmalloc((size_t) w->clients * sizeof(uint64_t));
		struct prng base;
		int64_t default_seed;

		prng_seed(&base, p->seed + (uint64_t) wi * 1000003u);
		for (int i = 0; i < w->clients; i++)
			seeds[i] = prng_next(&base);
		default_seed = (int64_t) prng_next(&base);
		if (jobs < 1)
			jobs = 1;
		for (int j = 0; j < jobs; j++)
		{
			int n = w->clients / jobs + (j < w->clients % jobs);
			/* pgbench's per-thread choose, throttle and sample streams */
			uint64_t choose = prng_next(&base);
			uint64_t throttle = prng_next(&base);

			(void) prng_next(&base); /* sampling: no logs here */
			thread_setup(&e, &e.threads[ti++], w, wi, client_base, n, seeds,
						 default_seed, choose, throttle);
			client_base += n;
		}
		client_base = 0;
		free(seeds);
	}

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, (size_t) 512 * 1024);
	/*
	 * The threads are born with every signal blocked, so that SIGINT and
	 * SIGTERM always reach the calling thread: a handler that ran on a
	 * worker would race with the flag's reader here.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old_mask);
	t_connect = clock_now_ns();
	for (int i = 0; i < e.nthreads; i++)
	{
		int prc = pthread_create(&e.threads[i].tid, &attr, thread_main,
								 &e.threads[i]);

		if (prc != 0)
		{
			struct pgc_error perr;

			error_set(&perr, PGC_ERR_INTERNAL,
					  "could not create thread %d of %d: %s", i + 1,
					  e.nthreads, strerror(prc));
			engine_fail(&e, &perr);
			break;
		}
		e.nstarted++;
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);

	/* connect phase, then prepare phase, each timed; then the window */
	pthread_mutex_lock(&e.mu);
	wait_arrived(&e, 0, &interrupted);
	now = clock_now_ns();
	out->conn_ms = (double) (now - t_connect) / 1e6;
	e.phase = 1;
	pthread_cond_broadcast(&e.cv);
	wait_arrived(&e, 1, &interrupted);
	t_prepare = now;
	now = clock_now_ns();
	out->prepare_ms = (double) (now - t_prepare) / 1e6;
	if (p->ready && !atomic_load(&e.stop))
	{
		pthread_mutex_unlock(&e.mu);
		now = common_start(&e, &interrupted);
		pthread_mutex_lock(&e.mu);
	}
	if (e.txmode)
	{
		e.window_start_ns = now;
		e.window_end_ns = NO_END_NS;
	}
	else if (p->warmup_stable)
	{
		/* no window until the throughput is stable (warm_tick) */
		e.window_start_ns = NO_END_NS;
		e.window_end_ns = NO_END_NS;
		ww.on = true;
		ww.began_ns = now;
		ww.last_ns = now;
		ww.next_ns = now + LOAD_WARM_TICK_NS;
	}
	else
	{
		e.window_start_ns = now + p->warmup_ns;
		e.window_end_ns = e.window_start_ns + p->duration_ns;
	}
	out->warmup_ns = e.txmode ? 0 : p->warmup_ns;
	e.phase = 2;
	pthread_cond_broadcast(&e.cv);
	pthread_mutex_unlock(&e.mu);

	mark = xcalloc((size_t) p->nworkloads, sizeof(*mark));
	last_ns = e.window_start_ns;
	memset(&sm, 0, sizeof(sm));
	nodes = e.txmode ? 0 : p->nnodes;
	if (nodes > 0)
	{
		sm.conns = xcalloc((size_t) nodes, sizeof(PGconn *));
		sm.last_commits = xcalloc((size_t) nodes, sizeof(int64_t));
		sm.last_conflicts =
			xcalloc((size_t) nodes, sizeof(*sm.last_conflicts));
		sm.have_last = xcalloc((size_t) nodes, sizeof(bool));
		probe_set_init(&sm.probes, p->probes, p->nprobes, nodes);
		for (int i = 0; i < nodes; i++)
			sm.conns[i] = sampler_connect(&p->nodes[i]);
	}
	next_sample = e.window_start_ns;
	next_progress = e.window_start_ns + (int64_t) p->progress_s * 1000000000;
	while (!all_finished(&e))
	{
		usleep(20000);
		now = clock_now_ns();
		if (ww.on && now >= ww.next_ns && !atomic_load(&e.stop) &&
			warm_tick(&e, &ww, now, out))
		{
			/* the window begins now; sampling and progress with it */
			next_sample = e.window_start_ns;
			next_progress =
				e.window_start_ns + (int64_t) p->progress_s * 1000000000;
			last_ns = e.window_start_ns;
		}
		if (p->window_edge && !e.txmode && !edge_begun &&
			now >= e.window_start_ns && now < e.window_end_ns &&
			!atomic_load(&e.stop))
		{
			edge_begun = true;
			p->window_edge(p->window_edge_arg, true);
		}
		if (edge_begun && !edge_ended &&
			(now >= e.window_end_ns || atomic_load(&e.stop)))
		{
			edge_ended = true;
			p->window_edge(p->window_edge_arg, false);
		}
		/* the hypervisor's steal over the window, read at its edges */
		if (!steal_begun && now >= atomic_load(&e.window_start_ns) &&
			!atomic_load(&e.stop))
			steal_begun = cpu_times_read(&steal_a);
		if (steal_begun && !steal_ended &&
			now >= atomic_load(&e.window_end_ns))
			steal_ended = cpu_times_read(&steal_b);
		if (!injected && now >= e.window_start_ns + 500000000)
		{
			injected = true;
			inject_point("window");
		}
		if (p->interrupt && *p->interrupt && !interrupted)
		{
			interrupted = true;
			atomic_store(&e.stop, 1);
		}
		if (p->progress && p->progress_s > 0 && !atomic_load(&e.stop) &&
			now >= next_progress && now <= e.window_end_ns + 500000000)
		{
			report_progress(&e, now, mark, &last_ns);
			next_progress += (int64_t) p->progress_s * 1000000000;
		}
		/* samples on the window's second boundaries: the first is the
		 * baseline the counters of second 0 are taken from */
		if (nodes > 0 && now >= next_sample &&
			next_sample <= e.window_end_ns && !atomic_load(&e.stop))
		{
			int second =
				(int) ((next_sample - e.window_start_ns) / 1000000000) - 1;

			if (second < e.nseconds)
				sample_nodes(p, &sm, second);
			next_sample += 1000000000;
		}
	}
	if (edge_begun && !edge_ended)
		p->window_edge(p->window_edge_arg, false);
	/* -t, or stopped early: the window ended with the load */
	if (steal_begun && !steal_ended)
		steal_ended = cpu_times_read(&steal_b);
	out->steal_pct = steal_ended ? cpu_steal_pct(&steal_a, &steal_b) : -1.0;
	if (ww.on)
	{
		/* stopped before the throughput was stable: no window at all */
		out->warmup_ns = now - ww.began_ns;
		out->warm_tps = ww.tps;
		out->nwarm = ww.n;
		ww.tps = NULL;
	}
	for (int i = 0; i < nodes; i++)
		PQfinish(sm.conns[i]);
	free(sm.conns);
	free(sm.last_commits);
	free(sm.last_conflicts);
	free(sm.have_last);
	probe_set_release(&sm.probes);
	out->samples = sm.rows;
	out->nsamples = sm.nrows;
	for (int i = 0; i < e.nstarted; i++)
		pthread_join(e.threads[i].tid, NULL);
	free(mark);

	now = clock_now_ns();
	out->window_ns = (now < e.window_end_ns ? now : e.window_end_ns) -
					 atomic_load(&e.window_start_ns);
	if (out->window_ns < 0)
		out->window_ns = 0;
	if (!interrupted && !e.txmode)
		out->window_ns = p->duration_ns;
	if (e.txmode)
	{
		/* the window lasted until the last client was done */
		e.nseconds = 1;
		for (int i = 0; i < e.nstarted; i++)
			if (e.threads[i].nsec_used > e.nseconds)
				e.nseconds = e.threads[i].nsec_used;
	}

	if (e.first_err.kind != PGC_ERR_NONE)
	{
		*err = e.first_err;
		rc = -1;
	}
	else if (interrupted)
	{
		error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
		out->interrupted = true;
		merge_results(&e, out);
		rc = -1;
	}
	else
		merge_results(&e, out);

	/* the backends that served the clients: a counted point reads theirs */
	{
		int nall = 0;

		for (int i = 0; i < e.nthreads; i++)
			nall += e.threads[i].nclients;
		out->backend_pids = xcalloc((size_t) nall + 1, sizeof(pid_t));
	}
	for (int i = 0; i < e.nthreads; i++)
		for (int k = 0; k < e.threads[i].nclients; k++)
			if (e.threads[i].clients[k].backend_pid > 0)
				out->backend_pids[out->nbackend_pids++] =
					e.threads[i].clients[k].backend_pid;
	for (int i = 0; i < e.nthreads; i++)
		thread_release(&e.threads[i]);
	free(e.threads);
	pthread_mutex_destroy(&e.mu);
	pthread_cond_destroy(&e.cv);
	return rc;
}

void
load_result_release(struct load_result *r)
{
	free(r->backend_pids);
	r->backend_pids = NULL;
	r->nbackend_pids = 0;
	for (int i = 0; i < r->nworkloads; i++)
	{
		struct load_workload_result *w = &r->w[i];

		free(w->classes);
		free(w->latency);
		for (int k = 0; k < w->nscripts; k++)
		{
			free(w->scripts[k].latency);
			free(w->scripts[k].cmd_lat_sum_ns);
			free(w->scripts[k].cmd_count);
			free(w->scripts[k].cmd_failures);
			free(w->scripts[k].cmd_retries);
		}
		free(w->scripts);
		free(w->errors);
		free(w->events);
		free(w->sec_txns);
		free(w->sec_failures);
		free(w->sec_lat_sum_ns);
		free(w->sec_lat_max_ns);
	}
	free(r->w);
	for (int i = 0; i < r->nsamples; i++)
	{
		free(r->samples[i].waits);
		free(r->samples[i].probes);
	}
	free(r->samples);
	free(r->warm_tps);
	memset(r, 0, sizeof(*r));
}

uint64_t
load_result_sum_seconds(const struct load_workload_result *w)
{
	uint64_t sum = 0;

	for (int i = 0; i < w->nseconds; i++)
		sum += w->sec_txns[i];
	return sum;
}
