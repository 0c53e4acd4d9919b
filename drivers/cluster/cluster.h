/*
 * cluster.h - managed PostgreSQL servers: initdb into a private temp
 * directory, start on a unix socket in that directory, stop, clean up.
 *
 * When pgcliff runs as root the server runs as an unprivileged OS user
 * (initdb refuses root).  The postmaster is our child in its own session,
 * so a terminal Ctrl-C reaches pgcliff only and pgcliff shuts the server
 * down in order; if pgcliff dies anyway the kernel sends the postmaster
 * SIGQUIT (PR_SET_PDEATHSIG).  Not thread-safe: drive it from one thread.
 * Also the targets of a run (managed or external, with a standby) and the
 * one mapping from a libpq failure to pgc_error (target.c).
 */
#ifndef PGCLIFF_CLUSTER_H
#define PGCLIFF_CLUSTER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base.h"
#include "placement.h"

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
	/*
	 * Count the server's work: the postmaster runs under this valgrind's
	 * callgrind (cost.h), writing into cluster_count_dir().  NULL: not.
	 */
	const char *valgrind;
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

/*
 * Copy C's log files (initdb.log, server.log, ...) into DEST, made with
 * its parents (mode 0700) if missing; the copies are 0600.  -1 with ERR.
 */
int cluster_keep_logs(const struct cluster *c, const char *dest,
					  struct pgc_error *err);

/*
 * Remove the private directories in BASE (NULL = $TMPDIR or /tmp) that a
 * pgcliff process of this user made and left when it died: only those
 * whose owner file names a process provably gone (process_gone()) and
 * whose postmaster, if any, is not running.  Appends each path removed
 * to REMOVED (", " between) and returns how many.
 */
int cluster_sweep(const char *base, struct strbuf *removed);

/* Borrowed strings, valid until cluster_destroy(). */
const char *cluster_socket_dir(const struct cluster *c);
const char *cluster_dir(const struct cluster *c);
const char *cluster_log_path(const struct cluster *c);
const char *cluster_user(const struct cluster *c);
const char *cluster_bindir(const struct cluster *c);
int cluster_port(const struct cluster *c);
pid_t cluster_pid(const struct cluster *c);
/* Where a counted server's processes write their counts; NULL if not
 * counted (cluster_opts.valgrind). */
const char *cluster_count_dir(const struct cluster *c);

/*
 * Run C's processes on M from now on: the running postmaster and its
 * children, and whatever starts later.  -1 with ERR.
 */
int cluster_set_cpus(struct cluster *c, const struct cpu_mask *m,
					 struct pgc_error *err);

/* libpq keywords/values (NULL-terminated) for connecting as superuser. */
void cluster_conn_params(const struct cluster *c, const char **keywords,
						 const char **values, int max);

/* The last NLINES lines of the server log; caller frees. */
char *cluster_log_tail(const struct cluster *c, int nlines);

/* ---------------------------------------------------------------------
 * libpq failures: the one mapping to pgc_error
 * ------------------------------------------------------------------- */
struct pg_conn;   /* libpq's PGconn */
struct pg_result; /* libpq's PGresult */

/*
 * Fill ERR from a failed libpq call.  RES NULL: PGC_ERR_UNAVAILABLE with
 * the first line of PQerrorMessage(CONN); else PGC_ERR_SQL with the
 * primary message, SQLSTATE, detail and hint (PGC_ERR_UNAVAILABLE all the
 * same when CONN is no longer OK: a lost server is not the recipe's
 * fault).  WHAT, if not NULL, prefixes the message ("setup failed: ...").
 * POS, if not NULL, gets the server's statement position as a byte offset
 * into SQL, or (size_t) -1 when there is none.  The one position rule:
 * the server counts characters, pgcliff counts bytes from here on.
 */
void cluster_pg_error(struct pgc_error *err, struct pg_conn *conn,
					  const struct pg_result *res, const char *sql,
					  const char *what, size_t *pos);

/*
 * Connect with libpq parameters; NULL with PGC_ERR_UNAVAILABLE
 * "could not connect to the WHAT: ..." on failure.  Close with
 * cluster_disconnect().
 */
struct pg_conn *cluster_connect(const char *const *kw, const char *const *val,
								const char *what, struct pgc_error *err);
void cluster_disconnect(struct pg_conn *conn);

/*
 * The same from a conninfo string or URI (libpq's environment variables
 * fill what it leaves out; "" uses them alone): "could not connect to the
 * server: ...".
 */
struct pg_conn *cluster_connect_conninfo(const char *conninfo,
										 struct pgc_error *err);

/*
 * pgbench's way of naming a server as one conninfo: DB is a database
 * name, or a conninfo or URI (then parsed); HOST, PORT and USER (each may
 * be NULL) override what it says.  What is not given is left to libpq's
 * environment (PGHOST...) and defaults.  Caller frees; NULL with ERR
 * (PGC_ERR_USAGE) when DB does not parse.
 */
char *cluster_conninfo_merge(const char *db, const char *host,
							 const char *port, const char *user,
							 struct pgc_error *err);

/* CONNINFO (a conninfo or URI) without its password; caller frees. */
char *cluster_redact_conninfo(const char *conninfo);

/* ---------------------------------------------------------------------
 * Targets: the servers of one variant, managed (created and started
 * here) or external (reached by conninfo), a primary with an optional
 * hot standby.  Not thread-safe; the libpq parameters it hands out stay
 * valid until target_close().
 * ------------------------------------------------------------------- */
enum target_node_id
{
	TARGET_PRIMARY = 0,
	TARGET_STANDBY = 1
};

struct target_spec
{
	const char *name;             /* the variant: names dirs and sockets */
	const char *bindir;           /* managed: NULL = cluster_find_bindir() */
	const char *os_user;          /* managed: NULL = postgres when root */
	const char *conninfo;         /* external primary; NULL = managed */
	const char *standby_conninfo; /* external standby */
	bool standby;                 /* topology primary+standby */
	const char *valgrind;         /* managed: count the primary (cost.h) */
	/* managed: settings of both nodes, then each node's own (they win) */
	const struct cluster_guc *gucs;
	int ngucs;
	const struct cluster_guc *primary_gucs;
	int nprimary_gucs;
	const struct cluster_guc *standby_gucs;
	int nstandby_gucs;
};

/* What a target's primary is; strings owned, see _release(). */
struct target_provenance
{
	char *server_version;
	int server_version_num;
	char *settings;  /* JSON object: pg_settings not at their default */
	char *pg_config; /* JSON object, or NULL (the view needs a superuser) */
};

struct target;

/*
 * Bring up S: a managed primary (initdb, start) and its standby
 * (pg_basebackup -R, start); or check an external primary's conninfo and
 * that its standby is in recovery, streaming, and a copy of it.  *OUT is
 * set even on failure (-1 with ERR), so the caller can name the logs of
 * what did not start; always target_close() it.
 */
int target_open(const struct target_spec *s, struct target **out,
				struct pgc_error *err);

/* Stop whatever runs and free; KEEP_LOGS keeps managed servers' logs. */
void target_close(struct target *t, bool keep_logs);

/*
 * Copy the logs of T's managed servers into DEST/primary and
 * DEST/standby (cluster_keep_logs()); nothing for an external server.
 */
int target_keep_logs(const struct target *t, const char *dest,
					 struct pgc_error *err);

/* Every managed node's processes on M (cluster_set_cpus()); external:
 * nothing. */
int target_set_cpus(struct target *t, const struct cpu_mask *m,
					struct pgc_error *err);

/* Start / stop the managed nodes (between blocks); external: nothing. */
int target_start(struct target *t, struct pgc_error *err);
int target_stop(struct target *t, struct pgc_error *err);

bool target_managed(const struct target *t);
/* The postmaster of a managed NODE that runs; 0 for external or none. */
pid_t target_pid(const struct target *t, enum target_node_id node);
bool target_has_standby(const struct target *t);

/* NULL-terminated libpq parameters of NODE (empty when it has none). */
const char *const *target_keywords(const struct target *t,
								   enum target_node_id node);
const char *const *target_values(const struct target *t,
								 enum target_node_id node);

/* The managed primary's count directory, NULL when not counted. */
const char *target_count_dir(const struct target *t);

/* Borrowed until target_close(); NULL for an external target. */
const char *target_log_path(const struct target *t, enum target_node_id node);
const char *target_bindir(const struct target *t);
/* The external primary's conninfo without password; NULL when managed. */
const char *target_redacted_conninfo(const struct target *t);

/* A connection to NODE (cluster_disconnect() it), or NULL with ERR. */
struct pg_conn *target_connect(const struct target *t,
							   enum target_node_id node,
							   struct pgc_error *err);

/*
 * Run SQL on the primary on a connection of its own.  On failure -1
 * with ERR (message prefixed by WHAT) and *POS, if POS is not NULL, the
 * byte offset in SQL the server pointed at ((size_t) -1: none).
 */
int target_exec(const struct target *t, const char *sql, const char *what,
				size_t *pos, struct pgc_error *err);

/* Wait until the standby replayed what the primary wrote; no standby: 0. */
int target_wait_replay(const struct target *t, int timeout_s,
					   struct pgc_error *err);

/* Server version, non-default settings and pg_config of the primary. */
int target_provenance(const struct target *t, struct target_provenance *p,
					  struct pgc_error *err);
void target_provenance_release(struct target_provenance *p);

#endif /* PGCLIFF_CLUSTER_H */
