/*
 * cluster.c - managed servers; see cluster.h for the contract.
 * Everything a child process needs is prepared before fork(), since
 * between fork() and exec() only async-signal-safe calls are allowed.
 */
#include "cluster.h"

#include "cluster_int.h"
#include "cost.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct cluster
{
	char dir[1024]; /* private directory, socket lives here */
	char datadir[1100];
	char log_path[1100];
	char initdb_log[1100];
	char bindir[1024];
	char user[128];
	char port_str[16];
	int port;
	int start_timeout_s;
	bool switch_user;
	uid_t uid;
	gid_t gid;
	pid_t pid;            /* postmaster, 0 when not running */
	char valgrind[1024];  /* counted: the valgrind it runs under, else "" */
	char count_dir[1100]; /* and where its processes' counts go */
	bool pinned;
	struct cpu_mask cpus; /* when pinned: every child runs on these */
};

/* "DIR/NAME" into OUT; false when it does not fit. */
static bool
path_join(char *out, size_t size, const char *dir, const char *name)
{
	int n = snprintf(out, size, "%s/%s", dir, name);

	return n >= 0 && (size_t) n < size;
}

/* ------------------------------------------------------------- children */

struct child_spec
{
	const struct cluster *c;
	char **argv;
	int out_fd;       /* stdout+stderr */
	bool new_session; /* setsid + parent-death signal */
	char **envp;      /* the environment, NULL: ours */
};

static void
child_fail(int fd, const char *what, int e)
{
	/* async-signal-safe reporting into the log */
	const char *msg = strerror(e);

	(void) !write(fd, "pgcliff: ", 9);
	(void) !write(fd, what, strlen(what));
	(void) !write(fd, ": ", 2);
	(void) !write(fd, msg, strlen(msg));
	(void) !write(fd, "\n", 1);
	_exit(126);
}

static pid_t
spawn(const struct child_spec *cs, struct pgc_error *err)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0)
	{
		error_set(err, PGC_ERR_IO, "could not fork: %s", strerror(errno));
		return -1;
	}
	if (pid > 0)
		return pid;

	/* child */
	if (cs->new_session)
		setsid();
	dup2(cs->out_fd, STDOUT_FILENO);
	dup2(cs->out_fd, STDERR_FILENO);
	{
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
	}
	if (cs->c->switch_user)
	{
		if (setgroups(0, NULL) != 0 || setgid(cs->c->gid) != 0)
			child_fail(STDERR_FILENO, "could not switch group", errno);
		if (setuid(cs->c->uid) != 0)
			child_fail(STDERR_FILENO, "could not switch user", errno);
	}
	if (cs->new_session)
	{
		/* after setuid: a credential change clears the death signal */
		prctl(PR_SET_PDEATHSIG, SIGQUIT);
		if (getppid() != parent)
			_exit(1);
	}
	if (cs->c->pinned && placement_apply_in_child(&cs->c->cpus) != 0)
		child_fail(STDERR_FILENO, "could not pin the server to its CPUs",
				   errno);
	if (chdir(cs->c->dir) != 0)
		child_fail(
			STDERR_FILENO,
			"cannot enter the cluster directory as the server's OS user",
			errno);
	if (cs->envp)
		execve(cs->argv[0], cs->argv, cs->envp);
	else
		execv(cs->argv[0], cs->argv);
	child_fail(STDERR_FILENO, "could not execute the server program", errno);
	return -1;
}

/* Wait for PID with a timeout; returns 0 when reaped, 1 on timeout. */
static int
wait_for(pid_t pid, int timeout_ms, int *status)
{
	for (int waited = 0;; waited += 10)
	{
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid || (r < 0 && errno == ECHILD))
			return 0;
		if (waited >= timeout_ms)
			return 1;
		usleep(10000);
	}
}

/* ------------------------------------------------------------- bindir */

static bool
has_postgres(const char *dir)
{
	char path[1200];

	return path_join(path, sizeof(path), dir, "postgres") &&
		   access(path, X_OK) == 0;
}

int
cluster_find_bindir(const char *override, char *out, size_t size,
					struct pgc_error *err)
{
	FILE *f;
	DIR *d;
	struct dirent *de;
	int best = -1;

	if (override)
	{
		if (!has_postgres(override))
		{
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "no postgres program in \"%s\"", override);
			error_hint(err, "--bindir must name a PostgreSQL bin directory");
			return -1;
		}
		snprintf(out, size, "%s", override);
		return 0;
	}
	f = popen("pg_config --bindir 2>/dev/null", "r");
	if (f)
	{
		char line[1024];

		if (fgets(line, sizeof(line), f))
		{
			line[strcspn(line, "\n")] = '\0';
			if (has_postgres(line))
			{
				snprintf(out, size, "%s", line);
				pclose(f);
				return 0;
			}
		}
		pclose(f);
	}
	d = opendir("/usr/lib/postgresql");
	if (d)
	{
		while ((de = readdir(d)) != NULL)
		{
			char path[1200];
			int v = atoi(de->d_name);
			int n = snprintf(path, sizeof(path), "/usr/lib/postgresql/%s/bin",
							 de->d_name);

			if (n > 0 && (size_t) n < sizeof(path) && v > best &&
				has_postgres(path))
			{
				best = v;
				snprintf(out, size, "%s", path);
			}
		}
		closedir(d);
	}
	if (best >= 0)
		return 0;
	error_set(err, PGC_ERR_UNAVAILABLE, "no PostgreSQL server binaries found");
	error_hint(err, "install postgresql, or pass --bindir DIR");
	return -1;
}

/* ------------------------------------------------------------- lifecycle */

static int
write_conf(struct cluster *c, const struct cluster_opts *o,
		   struct pgc_error *err)
{
	char path[1200];
	FILE *f;

	if (!path_join(path, sizeof(path), c->datadir, "postgresql.conf"))
	{
		error_set(err, PGC_ERR_IO, "path too long: %s", c->datadir);
		return -1;
	}
	f = fopen(path, "a");
	if (f == NULL)
	{
		error_set(err, PGC_ERR_IO, "could not open \"%s\": %s", path,
				  strerror(errno));
		return -1;
	}
	fprintf(f, "\n# --- written by pgcliff ---\n");
	fprintf(f, "listen_addresses = ''\n");
	fprintf(f, "unix_socket_directories = '%s'\n", c->dir);
	fprintf(f, "port = %d\n", c->port);
	fprintf(f, "logging_collector = off\n");
	for (int i = 0; i < o->ngucs; i++)
	{
		/*
		 * One line per setting, whatever its value: a line break would
		 * start a setting of its own; inside the quotes ' is doubled and
		 * \ too, as the server's own parser undoes them (a trailing \
		 * would escape the closing quote).
		 */
		if (strpbrk(o->gucs[i].value, "\r\n") != NULL)
		{
			error_set(err, PGC_ERR_USAGE,
					  "the value of server setting '%s' holds a line break",
					  o->gucs[i].name);
			fclose(f);
			return -1;
		}
		fprintf(f, "%s = '", o->gucs[i].name);
		for (const char *p = o->gucs[i].value; *p; p++)
		{
			if (*p == '\'' || *p == '\\')
				fputc(*p, f);
			fputc(*p, f);
		}
		fprintf(f, "'\n");
	}
	if (fclose(f) != 0)
	{
		error_set(err, PGC_ERR_IO, "could not write \"%s\": %s", path,
				  strerror(errno));
		return -1;
	}
	return 0;
}

static void fail_with_log(struct pgc_error *err, const struct cluster *c,
						  const char *log_path, const char *fmt, ...)
	PGC_PRINTF(4, 5);

static void
fail_with_log(struct pgc_error *err, const struct cluster *c,
			  const char *log_path, const char *fmt, ...)
{
	char msg[sizeof(err->message)];
	va_list ap;
	char *tail;
	struct cluster tmp = *c;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(tmp.log_path, sizeof(tmp.log_path), "%s", log_path);
	tail = cluster_log_tail(&tmp, 12);
	error_set(err, PGC_ERR_UNAVAILABLE, "%s", msg);
	error_detail(err, "log file: %s\n%s", log_path, tail);
	free(tail);
}

/* The file that says whose a private directory is (cluster_sweep()). */
#define OWNER_FILE "pgcliff.owner"

static int
write_owner(const char *dir)
{
	char path[1100], id[160];
	FILE *f;
	int rc;

	process_identity(id, sizeof(id));
	if (!path_join(path, sizeof(path), dir, OWNER_FILE))
		return -1;
	if ((f = fopen(path, "wx")) == NULL)
		return -1;
	rc = fprintf(f, "%s\n", id) < 0 ? -1 : 0;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/*
 * The part of a cluster before its data: the OS user, the private
 * directory (given to that user) and the paths in it.  NULL with err.
 */
static struct cluster *
cluster_prepare(const struct cluster_opts *o, struct pgc_error *err)
{
	struct cluster *c = xcalloc(1, sizeof(*c));
	const char *base = o->tmp_base;
	char tmpl[1024];

	snprintf(c->bindir, sizeof(c->bindir), "%s", o->bindir);
	c->port = o->port ? o->port : 5432;
	snprintf(c->port_str, sizeof(c->port_str), "%d", c->port);
	c->start_timeout_s = o->start_timeout_s ? o->start_timeout_s : 60;
	if (o->valgrind)
		snprintf(c->valgrind, sizeof(c->valgrind), "%s", o->valgrind);

	if (o->os_user)
	{
		struct passwd *pw = getpwnam(o->os_user);

		if (pw == NULL)
		{
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "OS user \"%s\" does not exist", o->os_user);
			error_hint(
				err,
				"a server cannot run as root: create the user or pass --os-user");
			free(c);
			return NULL;
		}
		c->uid = pw->pw_uid;
		c->gid = pw->pw_gid;
		c->switch_user = pw->pw_uid != geteuid();
		snprintf(c->user, sizeof(c->user), "%s", o->os_user);
	}
	else
	{
		struct passwd *pw = getpwuid(geteuid());

		if (geteuid() == 0)
		{
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "cannot run a PostgreSQL server as root");
			error_hint(err, "pass --os-user (default when root: postgres)");
			free(c);
			return NULL;
		}
		snprintf(c->user, sizeof(c->user), "%s",
				 pw ? pw->pw_name : "postgres");
	}

	if (base == NULL)
		base = getenv("TMPDIR");
	if (base == NULL || base[0] == '\0')
		base = "/tmp";
	snprintf(tmpl, sizeof(tmpl), "%s/pgcliff-%s-XXXXXX", base,
			 o->name ? o->name : "server");
	if (mkdtemp(tmpl) == NULL)
	{
		error_set(err, PGC_ERR_IO,
				  "could not create a directory in \"%s\": %s", base,
				  strerror(errno));
		free(c);
		return NULL;
	}
	snprintf(c->dir, sizeof(c->dir), "%s", tmpl);
	if (write_owner(c->dir) < 0)
	{
		error_set(err, PGC_ERR_IO, "could not write in \"%s\": %s", c->dir,
				  strerror(errno));
		dir_remove_tree(c->dir);
		free(c);
		return NULL;
	}
	if (strlen(c->dir) > 80)
	{
		/* sun_path holds 108 bytes, with "/.s.PGSQL.NNNNN" on top */
		error_set(err, PGC_ERR_IO,
				  "temporary directory path too long for a unix socket: %s",
				  c->dir);
		error_hint(err, "set TMPDIR to a shorter path");
		dir_remove_tree(c->dir);
		free(c);
		return NULL;
	}
	/* the directory is at most 80 bytes: these fit */
	path_join(c->datadir, sizeof(c->datadir), c->dir, "data");
	path_join(c->log_path, sizeof(c->log_path), c->dir, "server.log");
	path_join(c->initdb_log, sizeof(c->initdb_log), c->dir, "initdb.log");
	if (c->valgrind[0])
		path_join(c->count_dir, sizeof(c->count_dir), c->dir, "counts");
	if (c->switch_user && chown(c->dir, c->uid, c->gid) != 0)
	{
		error_set(err, PGC_ERR_IO, "could not give \"%s\" to user %s: %s",
				  c->dir, c->user, strerror(errno));
		cluster_destroy(c, false);
		return NULL;
	}
	return c;
}

/* Run PROGRAM (in the bindir) with ARGS as the server's user, output to LOG.
 */
static int
run_tool(struct cluster *c, const char *program, char **args, const char *log,
		 struct pgc_error *err)
{
	char path[1100];
	char *argv[24];
	int n = 0, status = 0;
	int logfd;
	pid_t pid;

	if (!path_join(path, sizeof(path), c->bindir, program))
	{
		error_set(err, PGC_ERR_IO, "path too long: %s", c->bindir);
		return -1;
	}
	logfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (logfd < 0)
	{
		error_set(err, PGC_ERR_IO, "could not create \"%s\": %s", log,
				  strerror(errno));
		return -1;
	}
	argv[n++] = path;
	for (int i = 0; args[i] && n < (int) lengthof(argv) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	{
		/* its own session too: a terminal Ctrl-C is pgcliff's to handle */
		struct child_spec cs = {c, argv, logfd, true, NULL};

		pid = spawn(&cs, err);
	}
	close(logfd);
	if (pid < 0)
		return -1;
	wait_for(pid, 300000, &status);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
	{
		fail_with_log(err, c, log, "%s failed (exit status %d)", program,
					  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return 0;
}

struct cluster *
cluster_create(const struct cluster_opts *o, struct pgc_error *err)
{
	struct cluster *c = cluster_prepare(o, err);

	if (c == NULL)
		return NULL;
	{
		char *args[] = {"-D",         c->datadir,     "-U",
						c->user,      "--auth=trust", "--encoding=UTF8",
						"--locale=C", "--no-sync",    "--no-instructions",
						NULL};

		if (run_tool(c, "initdb", args, c->initdb_log, err) < 0)
			goto fail;
	}
	if (write_conf(c, o, err) < 0)
		goto fail;
	return c;

fail:
	cluster_destroy(c, true);
	return NULL;
}

struct cluster *
cluster_create_standby(const struct cluster *primary,
					   const struct cluster_opts *o, struct pgc_error *err)
{
	struct cluster *c = cluster_prepare(o, err);

	if (c == NULL)
		return NULL;
	path_join(c->initdb_log, sizeof(c->initdb_log), c->dir, "basebackup.log");
	{
		char *args[] = {"-D",     c->datadir,
						"-R",     "-X",
						"stream", "-c",
						"fast",   "--no-sync",
						"-h",     (char *) primary->dir,
						"-p",     (char *) primary->port_str,
						"-U",     (char *) primary->user,
						NULL};

		if (run_tool(c, "pg_basebackup", args, c->initdb_log, err) < 0)
			goto fail;
	}
	/* the copy holds the primary's lines: this cluster's come after */
	if (write_conf(c, o, err) < 0)
		goto fail;
	return c;

fail:
	cluster_destroy(c, true);
	return NULL;
}

int
cluster_wait_replay_params(const char *const *pkw, const char *const *pval,
						   const char *const *skw, const char *const *sval,
						   int timeout_s, struct pgc_error *err)
{
	char *lsn = cluster_query_one(pkw, pval, "SELECT pg_current_wal_lsn()",
								  "primary", err);
	char sql[160];
	int64_t deadline = clock_now_ns() + (int64_t) timeout_s * 1000000000;

	if (lsn == NULL)
		return -1;
	snprintf(sql, sizeof(sql),
			 "SELECT pg_last_wal_replay_lsn() >= '%s'::pg_lsn", lsn);
	for (;;)
	{
		char *done = cluster_query_one(skw, sval, sql, "standby", err);
		bool ok = done && strcmp(done, "t") == 0;

		free(done);
		if (ok)
		{
			free(lsn);
			return 0;
		}
		if (clock_now_ns() > deadline)
		{
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "the standby did not replay up to %s within %d s", lsn,
					  timeout_s);
			free(lsn);
			return -1;
		}
		usleep(20000);
	}
}

int
cluster_wait_replay(const struct cluster *primary,
					const struct cluster *standby, int timeout_s,
					struct pgc_error *err)
{
	const char *pkw[8], *pval[8], *skw[8], *sval[8];

	cluster_conn_params(primary, pkw, pval, 8);
	cluster_conn_params(standby, skw, sval, 8);
	return cluster_wait_replay_params(pkw, pval, skw, sval, timeout_s, err);
}

extern char **environ;

/* Our environment with TMPDIR=DIR (before fork: allocates). */
static char **
env_with_tmpdir(const char *dir)
{
	int n = 0, k = 0;
	char **envp;

	while (environ[n])
		n++;
	envp = xcalloc((size_t) n + 2, sizeof(char *));
	for (int i = 0; i < n; i++)
		if (strncmp(environ[i], "TMPDIR=", 7) != 0)
			envp[k++] = xstrdup(environ[i]);
	envp[k++] = xasprintf("TMPDIR=%s", dir);
	envp[k] = NULL;
	return envp;
}

static void
env_free(char **envp)
{
	for (int i = 0; envp && envp[i]; i++)
		free(envp[i]);
	free(envp);
}

/* The count directory, the server's user's (counts are written there). */
static int
make_count_dir(const struct cluster *c, struct pgc_error *err)
{
	if (mkdir(c->count_dir, 0700) != 0 && errno != EEXIST)
	{
		error_set(err, PGC_ERR_IO, "could not create \"%s\": %s", c->count_dir,
				  strerror(errno));
		return -1;
	}
	if (c->switch_user && chown(c->count_dir, c->uid, c->gid) != 0)
	{
		error_set(err, PGC_ERR_IO, "could not give \"%s\" to user %s: %s",
				  c->count_dir, c->user, strerror(errno));
		return -1;
	}
	return 0;
}

int
cluster_start(struct cluster *c, struct pgc_error *err)
{
	char postgres[1100];
	int logfd;
	const char *kw[8];
	const char *val[8];
	int64_t deadline;

	if (c->pid > 0)
		return 0;
	logfd = open(c->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (logfd < 0)
	{
		error_set(err, PGC_ERR_IO, "could not open \"%s\": %s", c->log_path,
				  strerror(errno));
		return -1;
	}
	if (!path_join(postgres, sizeof(postgres), c->bindir, "postgres"))
	{
		close(logfd);
		error_set(err, PGC_ERR_IO, "path too long: %s", c->bindir);
		return -1;
	}
	if (c->valgrind[0] && make_count_dir(c, err) < 0)
	{
		close(logfd);
		return -1;
	}
	{
		/* counted: valgrind's callgrind, then the server's own argv */
		const char *argv[24];
		char outfile[1200];
		int n = 0;

		if (c->valgrind[0])
			n = cost_valgrind_argv(c->valgrind, c->count_dir, argv, 20,
								   outfile, sizeof(outfile));
		if (n < 0)
		{
			close(logfd);
			error_set(err, PGC_ERR_IO, "path too long: %s", c->count_dir);
			return -1;
		}
		argv[n++] = postgres;
		argv[n++] = "-D";
		argv[n++] = c->datadir;
		argv[n] = NULL;
		{
			/* valgrind's own temporary files go where the server's user
			 * may write: TMPDIR is the count directory */
			char **envp =
				c->valgrind[0] ? env_with_tmpdir(c->count_dir) : NULL;
			struct child_spec cs = {c, (char **) argv, logfd, true, envp};

			c->pid = spawn(&cs, err);
			env_free(envp);
		}
	}
	close(logfd);
	if (c->pid < 0)
	{
		c->pid = 0;
		return -1;
	}

	cluster_conn_params(c, kw, val, 8);
	deadline = clock_now_ns() + (int64_t) c->start_timeout_s * 1000000000;
	for (;;)
	{
		int status;
		PGPing ping = PQpingParams(kw, val, 0);

		if (ping == PQPING_OK)
			return 0;
		if (waitpid(c->pid, &status, WNOHANG) == c->pid)
		{
			c->pid = 0;
			fail_with_log(err, c, c->log_path, "the server failed to start");
			return -1;
		}
		if (clock_now_ns() > deadline)
		{
			fail_with_log(err, c, c->log_path,
						  "the server did not accept connections within %d s",
						  c->start_timeout_s);
			cluster_stop(c, NULL);
			return -1;
		}
		usleep(20000);
	}
}

int
cluster_stop(struct cluster *c, struct pgc_error *err)
{
	/* fast shutdown, then immediate, then kill: never leave it behind */
	static const struct
	{
		int sig;
		int timeout_ms;
	} steps[] = {{SIGINT, 60000}, {SIGQUIT, 10000}, {SIGKILL, 10000}};
	int status;

	if (c->pid <= 0)
		return 0;
	for (size_t i = 0; i < lengthof(steps); i++)
	{
		if (kill(c->pid, steps[i].sig) != 0 && errno == ESRCH)
			break;
		if (wait_for(c->pid, steps[i].timeout_ms, &status) == 0)
		{
			c->pid = 0;
			return 0;
		}
	}
	if (err)
		error_set(err, PGC_ERR_UNAVAILABLE, "server process %d did not exit",
				  (int) c->pid);
	return -1;
}

bool
cluster_running(struct cluster *c)
{
	int status;

	if (c->pid <= 0)
		return false;
	if (waitpid(c->pid, &status, WNOHANG) == c->pid)
	{
		c->pid = 0;
		return false;
	}
	return true;
}

void
cluster_destroy(struct cluster *c, bool keep_logs)
{
	if (c == NULL)
		return;
	cluster_stop(c, NULL);
	dir_remove_tree(c->datadir);
	if (!keep_logs)
		dir_remove_tree(c->dir);
	free(c);
}

/* Whether NAME is what cluster_prepare() names a directory: pgcliff-*-XXXXXX
 */
static bool
private_dir_name(const char *name)
{
	size_t n = strlen(name);

	return strncmp(name, "pgcliff-", 8) == 0 && n > 15 && name[n - 7] == '-';
}

/* The postmaster pid in DIR/data/postmaster.pid, 0 when none. */
static long
postmaster_of(const char *dir)
{
	char path[1200];
	long pid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/data/postmaster.pid", dir);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid;
}

int
cluster_sweep(const char *base, struct strbuf *removed)
{
	DIR *d;
	struct dirent *e;
	int n = 0;

	if (base == NULL)
		base = getenv("TMPDIR");
	if (base == NULL || base[0] == '\0')
		base = "/tmp";
	if ((d = opendir(base)) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
	{
		char dir[1024], owner[1100], id[160] = "";
		struct stat st;
		FILE *f;
		long pm;

		if (!private_dir_name(e->d_name) ||
			!path_join(dir, sizeof(dir), base, e->d_name) ||
			!path_join(owner, sizeof(owner), dir, OWNER_FILE))
			continue;
		/* ours: the owner file is a regular file this user wrote */
		if (lstat(owner, &st) != 0 || !S_ISREG(st.st_mode) ||
			st.st_uid != geteuid() || (f = fopen(owner, "r")) == NULL)
			continue;
		if (fgets(id, sizeof(id), f) == NULL)
			id[0] = '\0';
		fclose(f);
		id[strcspn(id, "\n")] = '\0';
		if (!process_gone(id))
			continue;
		/* a postmaster that outlived its pgcliff (it should not: it gets
		 * SIGQUIT at our death) keeps its directory */
		if ((pm = postmaster_of(dir)) > 0 && kill((pid_t) pm, 0) == 0)
			continue;
		if (dir_remove_tree(dir) == 0)
		{
			if (removed)
				strbuf_addf(removed, "%s%s", n ? ", " : "", dir);
			n++;
		}
	}
	closedir(d);
	return n;
}

int
cluster_keep_logs(const struct cluster *c, const char *dest,
				  struct pgc_error *err)
{
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (dir_make_all(dest, 0700, err) < 0)
		return -1;
	if ((d = opendir(c->dir)) == NULL)
	{
		error_set(err, PGC_ERR_IO, "could not read \"%s\": %s", c->dir,
				  strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = readdir(d)) != NULL)
	{
		char from[1100], to[2100];
		struct stat st;
		size_t n = strlen(e->d_name);

		/* the logs: not the socket, its lock file, the data or the owner */
		if (n < 5 || strcmp(e->d_name + n - 4, ".log") != 0 ||
			!path_join(from, sizeof(from), c->dir, e->d_name) ||
			lstat(from, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (!path_join(to, sizeof(to), dest, e->d_name))
		{
			error_set(err, PGC_ERR_IO, "path too long: %s", dest);
			rc = -1;
		}
		else
			rc = file_copy(from, to, 0600, err);
	}
	closedir(d);
	return rc;
}

const char *
cluster_socket_dir(const struct cluster *c)
{
	return c->dir;
}

const char *
cluster_dir(const struct cluster *c)
{
	return c->dir;
}

const char *
cluster_log_path(const struct cluster *c)
{
	return c->log_path;
}

const char *
cluster_user(const struct cluster *c)
{
	return c->user;
}

const char *
cluster_bindir(const struct cluster *c)
{
	return c->bindir;
}

int
cluster_port(const struct cluster *c)
{
	return c->port;
}

int
cluster_set_cpus(struct cluster *c, const struct cpu_mask *m,
				 struct pgc_error *err)
{
	c->pinned = true;
	c->cpus = *m;
	return c->pid > 0 ? placement_pin_pid(c->pid, m, err) : 0;
}

pid_t
cluster_pid(const struct cluster *c)
{
	return c->pid;
}

const char *
cluster_count_dir(const struct cluster *c)
{
	return c->valgrind[0] ? c->count_dir : NULL;
}

void
cluster_conn_params(const struct cluster *c, const char **kw, const char **val,
					int max)
{
	int n = 0;

	(void) max;
	kw[n] = "host";
	val[n++] = c->dir;
	kw[n] = "port";
	val[n++] = c->port_str;
	kw[n] = "user";
	val[n++] = c->user;
	kw[n] = "dbname";
	val[n++] = "postgres";
	kw[n] = "application_name";
	val[n++] = "pgcliff";
	kw[n] = NULL;
	val[n] = NULL;
}

char *
cluster_log_tail(const struct cluster *c, int nlines)
{
	struct pgc_error err;
	size_t len;
	char *text = file_read_all(c->log_path, &len, &err);
	size_t start;
	int seen = 0;
	char *out;

	if (text == NULL)
		return xstrdup("(no log)");
	start = len;
	while (start > 0)
	{
		if (text[start - 1] == '\n' && start != len && ++seen >= nlines)
			break;
		start--;
	}
	out = xstrdup(text + start);
	free(text);
	len = strlen(out);
	while (len > 0 && out[len - 1] == '\n')
		out[--len] = '\0';
	return out;
}
