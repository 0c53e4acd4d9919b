/*
 * cluster.h - managed PostgreSQL servers: initdb into a private temp
 * directory, start on a unix socket in that directory, stop, clean up.
 *
 * When pgcliff runs as root the server runs as an unprivileged OS user
 * (initdb refuses root).  The postmaster is our child in its own session,
 * so a terminal Ctrl-C reaches pgcliff only and pgcliff shuts the server
 * down in order; if pgcliff dies anyway the kernel sends the postmaster
 * SIGQUIT (PR_SET_PDEATHSIG).  Not thread-safe: drive it from one thread.
 */
#ifndef PGCLIFF_CLUSTER_H
#define PGCLIFF_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base.h"

struct cluster_guc
{
	const char *name;
	const char *value;
};

struct cluster_opts
{
	const char *bindir;   /* directory holding initdb and postgres */
	const char *os_user;  /* run the server as; NULL = current user */
	const char *tmp_base; /* parent of the private dir; NULL = $TMPDIR
						   * or /tmp */
	const char *name;     /* "primary": names the dir and the log */
	const struct cluster_guc *gucs;
	int ngucs;
	int port;            /* 0 = 5432 (the socket dir is private) */
	int start_timeout_s; /* 0 = 60 */
};

struct cluster;

/*
 * Find a bindir: OVERRIDE if given, else `pg_config --bindir`, else the
 * newest /usr/lib/postgresql/N/bin.  Writes it into OUT.
 */
int cluster_find_bindir(const char *override, char *out, size_t size,
						struct pgc_error *err);

/*
 * Create the private directory, run initdb and write the configuration
 * (listen only on the unix socket, plus O->gucs).  The initdb output goes
 * to a log file whose path is in the error on failure.
 */
struct cluster *cluster_create(const struct cluster_opts *o,
							   struct pgc_error *err);

/*
 * A hot standby of PRIMARY (running): pg_basebackup -R (WAL streamed,
 * fast checkpoint) into a private directory of its own, with O's
 * settings over the copied configuration (hot_standby stays on, its own
 * socket directory).  Start it with cluster_start().  O->bindir and
 * O->os_user should be the primary's.
 */
struct cluster *cluster_create_standby(const struct cluster *primary,
									   const struct cluster_opts *o,
									   struct pgc_error *err);

/*
 * Wait until STANDBY has replayed all the WAL PRIMARY has written when
 * called (what init and setup wrote).  -1 with err after TIMEOUT_S.
 */
int cluster_wait_replay(const struct cluster *primary,
						const struct cluster *standby, int timeout_s,
						struct pgc_error *err);

/* The same for any pair, managed or not, given by libpq parameters. */
int cluster_wait_replay_params(const char *const *pkw, const char *const *pval,
							   const char *const *skw, const char *const *sval,
							   int timeout_s, struct pgc_error *err);

/* Start the server and wait until it accepts connections. */
int cluster_start(struct cluster *c, struct pgc_error *err);

/* Fast shutdown (then immediate, then kill) and reap.  Idempotent. */
int cluster_stop(struct cluster *c, struct pgc_error *err);

/* True while the postmaster we started has not exited. */
bool cluster_running(struct cluster *c);

/*
 * Stop if needed and free.  The data directory is always removed; the
 * log files are kept when KEEP_LOGS (their directory stays), else the
 * whole private directory goes.
 */
void cluster_destroy(struct cluster *c, bool keep_logs);

/* Borrowed strings, valid until cluster_destroy(). */
const char *cluster_socket_dir(const struct cluster *c);
const char *cluster_dir(const struct cluster *c);
const char *cluster_log_path(const struct cluster *c);
const char *cluster_user(const struct cluster *c);
const char *cluster_bindir(const struct cluster *c);
int cluster_port(const struct cluster *c);
pid_t cluster_pid(const struct cluster *c);

/* libpq keywords/values (NULL-terminated) for connecting as superuser. */
void cluster_conn_params(const struct cluster *c, const char **keywords,
						 const char **values, int max);

/* The last NLINES lines of the server log; caller frees. */
char *cluster_log_tail(const struct cluster *c, int nlines);

#endif /* PGCLIFF_CLUSTER_H */
