/*
 * engine.c - the load engine's steady path: a thread's clients sending,
 * receiving and recording transactions in one epoll loop; see engine.h for
 * the contract and engine_int.h for the other files (a point's threads
 * are set up, started and merged in point.c).
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
#include "engine_int.h"
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

/* ----------------------------------------------------------- utilities */

/* Record the first fatal error of the point and ask everyone to stop. */
void
engine_fail(struct engine *e, const struct pgc_error *err)
{
	pthread_mutex_lock(&e->mu);
	if (e->first_err.kind == PGC_ERR_NONE)
		e->first_err = *err;
	pthread_mutex_unlock(&e->mu);
	atomic_store(&e->stop, 1);
}

void
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
int
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

void
client_watch_notices(struct client *c)
{
	c->fatal[0] = '\0';
	/* a new connection's receiver is libpq's default, whose argument is
	 * NULL (it prints through the connection's notice processor) */
	c->notice_prev = PQsetNoticeReceiver(c->conn, client_notice, c);
}

/* After a send: if libpq could not flush everything, wait for EPOLLOUT. */
bool
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

/* The second of the window of time NOW (the last, past its end). */
int64_t
second_of(struct thread *t, int64_t now)
{
	struct engine *e = t->e;
	int64_t sec = (now - e->window_start_ns) / 1000000000;

	if (!e->txmode)
		return sec >= e->nseconds ? e->nseconds - 1 : sec;
	if (sec + 1 > t->nsec_used)
		t->nsec_used = (int) sec + 1;
	return sec;
}

/* Add D to a slot's count: this thread is its only writer (sec_slot). */
static inline void
slot_add(_Atomic uint64_t *v, uint64_t d)
{
	atomic_store_explicit(v, atomic_load_explicit(v, memory_order_relaxed) + d,
						  memory_order_relaxed);
}

static inline void
slot_max(struct sec_slot *sl, int64_t sec, uint64_t lat)
{
	if (atomic_load_explicit(&sl->max_sec, memory_order_relaxed) != sec)
	{
		atomic_store_explicit(&sl->lat_max_ns, lat, memory_order_relaxed);
		atomic_store_explicit(&sl->max_sec, sec, memory_order_relaxed);
	}
	else if (lat > atomic_load_explicit(&sl->lat_max_ns, memory_order_relaxed))
		atomic_store_explicit(&sl->lat_max_ns, lat, memory_order_relaxed);
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
		slot_add(&t->ring[sec % SEC_RING].failures, 1);
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
		slot_add(&t->ring[sec % SEC_RING].txns, 1);
		slot_add(&t->ring[sec % SEC_RING].lat_sum_ns, lat);
		slot_max(&t->ring[sec % SEC_RING], sec, lat);
		t->prog_lat_local += (double) lat;
		t->prog_latsq_local += (double) lat * (double) lat;
		atomic_store_explicit(&t->prog_txns, t->txns, memory_order_relaxed);
		atomic_store_explicit(&t->prog_lat_sum_ns, t->prog_lat_local,
							  memory_order_relaxed);
		atomic_store_explicit(&t->prog_lat_sumsq_ns, t->prog_latsq_local,
							  memory_order_relaxed);
	}
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

/*
 * Run commands from c->cmd until one has to wait for the server or a
 * timer.  At the end of the script the transaction is recorded and, while
 * the window lasts, the next one starts at once (closed loop).  One switch
 * over the command kinds, as pgbench's advanceConnectionState() is: the
 * per-transaction path, kept in one function (and long) so that it reads
 * in the order a transaction runs and compiles without calls between its
 * states.
 */
void
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

void *
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
