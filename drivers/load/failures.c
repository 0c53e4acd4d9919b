/*
 * failures.c - a client's errors: SQLSTATE classes, the failure policy (retry,
 * skip, abort), a lost connection; see engine.h and engine_int.h.
 */
#include "engine_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "cluster.h"
#include "probe_int.h"

static const struct load_policy default_policy = {1,
												  LOAD_CONTINUE,
												  LOAD_CONTINUE,
												  LOAD_CONTINUE,
												  LOAD_CONTINUE,
												  LOAD_ABORT_CLIENT,
												  NULL,
												  0};

int
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

void
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

void
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
void
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

void
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

const struct load_policy *
policy_of(const struct thread *t)
{
	return t->w->policy ? t->w->policy : &default_policy;
}

/*
 * The counter of an error (its SQLSTATE class, or RC_CLASS for a recovery
 * conflict) and what the policy does with it.
 */
int
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
void
record_error(struct thread *t, int k, int64_t now)
{
	struct engine *e = t->e;
	int sec;

	if (k < 0 || now < e->window_start_ns || now > e->window_end_ns)
		return;
	sec = (int) second_of(t, now);
	pthread_mutex_lock(&t->errs_mu);
	/* this thread's clock only moves on: this second's entries are last */
	for (int i = t->nerrs - 1; i >= 0 && t->errs[i].second == sec; i--)
	{
		char name[20];

		class_name(k, name);
		if (strcmp(t->errs[i].sqlclass, name) == 0)
		{
			t->errs[i].count++;
			pthread_mutex_unlock(&t->errs_mu);
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
	pthread_mutex_unlock(&t->errs_mu);
}

/*
 * Try the transaction again from its first command, as pgbench does: the
 * same script, the random state of the first try, the latency still
 * counted from the first try's start.
 */
void
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
void
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
bool
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
void
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
