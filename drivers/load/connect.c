/*
 * connect.c - connecting and preparing a thread's clients, and -C's reconnect
 * per transaction; see engine.h and engine_int.h.
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

/*
 * -C: close C's connection and start a new one for the transaction about
 * to begin (pgbench's CSTATE_START_TX with is_connect).  Its events come
 * to client_reconnect_event().
 */
void
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
void
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
bool
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
int
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
int
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

int
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
