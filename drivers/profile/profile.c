/*
 * profile.c - see profile.h.
 */
#include "profile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct profile
{
	char *data;
	char *log;
	char *ctl, *ack; /* PROFILE_CPUS: perf's control FIFOs */
	pid_t *pids;     /* the server's processes */
	pid_t pid;       /* perf record; 0 once reaped */
	int npids;
	int ctl_fd, ack_fd;
	enum profile_mode mode;
	enum profile_callgraph cg;
	struct timespec begin, end; /* the window, on perf's clock */
};

int
profile_callgraph_parse(const char *text, enum profile_callgraph *out)
{
	if (strcmp(text, "fp") == 0)
		*out = PROFILE_CG_FP;
	else if (strcmp(text, "dwarf") == 0)
		*out = PROFILE_CG_DWARF;
	else
		return -1;
	return 0;
}

const char *
profile_callgraph_name(enum profile_callgraph cg)
{
	return cg == PROFILE_CG_FP      ? "fp"
		   : cg == PROFILE_CG_DWARF ? "dwarf"
									: NULL;
}

static const char *
perf_program(void)
{
	const char *p = getenv("PGCLIFF_PERF");

	return p && *p ? p : "perf";
}

/* Wait for PID at most MS milliseconds; its status, or -1 if it still runs. */
static int
wait_ms(pid_t pid, int ms)
{
	for (int waited = 0;; waited += 10)
	{
		int status;
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status)
									 : 128 + WTERMSIG(status);
		if (r < 0 && errno != EINTR)
			return 255;
		if (waited >= ms)
			return -1;
		{
			struct timespec ts = {0, 10L * 1000 * 1000};

			nanosleep(&ts, NULL);
		}
	}
}

/* The first line of FILE (at most SIZE bytes) into BUF; "" if none. */
static void
first_line(const char *file, char *buf, size_t size)
{
	FILE *f = fopen(file, "r");

	buf[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(buf, (int) size, f))
	{
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] && strncmp(buf, "WARNING", 7) != 0)
			break;
	}
	fclose(f);
}

/* Record `true` with perf in MODE: 0, its exit status with WHY, or -1
 * with WHY when perf could not be run at all. */
static int
try_record(enum profile_mode mode, char *why, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char *log =
		xasprintf("%s/pgcliff-perf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(log);
	char *argv[16] = {(char *) perf_program(),
					  "record",
					  "-q",
					  "-e",
					  "cpu-clock",
					  "-F",
					  "10"};
	int k = 7;
	struct process_io io;
	struct pgc_error err;
	pid_t pid;
	int rc;

	if (fd < 0)
	{
		snprintf(why, size, "no temporary file for perf's messages: %s",
				 strerror(errno));
		free(log);
		return -1;
	}
	if (mode == PROFILE_CPUS)
		argv[k++] = "-a";
	argv[k++] = "-o";
	argv[k++] = "/dev/null";
	argv[k++] = "--";
	argv[k++] = "true";
	argv[k] = NULL;
	io = (struct process_io){-1, fd, fd};
	pid = process_spawn(argv, NULL, &io, &err);
	close(fd);
	if (pid < 0)
	{
		snprintf(why, size, "%s", err.message);
		rc = -1;
	}
	else if ((rc = wait_ms(pid, 10000)) < 0)
	{
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		snprintf(why, size, "%s record did not finish in 10 s", argv[0]);
		rc = -1;
	}
	else if (rc == 127)
	{
		snprintf(why, size,
				 "%s not found (Debian: apt-get install linux-perf)", argv[0]);
		rc = -1;
	}
	else if (rc != 0)
	{
		char line[256];
		FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
		int paranoid = 0;

		first_line(log, line, sizeof(line));
		if (f && fscanf(f, "%d", &paranoid) != 1)
			paranoid = 0;
		if (f)
			fclose(f);
		snprintf(why, size,
				 "%s record failed (exit %d, perf_event_paranoid %d): %s",
				 argv[0], rc, paranoid, line);
	}
	unlink(log);
	free(log);
	return rc;
}

int
profile_check(char *why, size_t size)
{
	int rc = try_record(PROFILE_CPUS, why, size);

	if (rc == 0)
		return PROFILE_CPUS;
	if (rc < 0)
		return -1; /* no perf at all */
	return try_record(PROFILE_PROCESSES, why, size) == 0 ? PROFILE_PROCESSES
														 : -1;
}

/* "12,34,56", as perf's -p and --pid take them */
static void
pid_list(struct strbuf *sb, const pid_t *pids, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_addf(sb, "%s%ld", i ? "," : "", (long) pids[i]);
}

/* Sampling every CPU: the postmaster's children now alive count too. */
static void
add_children(struct profile *p)
{
	pid_t *now;
	int n;

	if (p->mode != PROFILE_CPUS || p->npids == 0)
		return;
	n = profile_process_tree(p->pids[0], &now);
	for (int i = 0; i < n; i++)
	{
		bool known = false;

		for (int j = 0; j < p->npids && !known; j++)
			known = p->pids[j] == now[i];
		if (known)
			continue;
		p->pids = xrealloc(p->pids, (size_t) (p->npids + 1) * sizeof(pid_t));
		p->pids[p->npids++] = now[i];
	}
	free(now);
}

/*
 * Send perf control command CMD and wait for its "ack", MS milliseconds
 * at most (perf answers in milliseconds once started).  -1 with ERR,
 * naming perf's first message when it died.
 */
static int
command(struct profile *p, const char *cmd, int ms, struct pgc_error *err)
{
	char buf[64], line[256];
	size_t len = strlen(cmd);
	struct timespec ts = {0, 5L * 1000 * 1000};

	/* a stale ack (a command that timed out) is dropped */
	while (read(p->ack_fd, buf, sizeof(buf)) > 0)
		;
	if (write(p->ctl_fd, cmd, len) != (ssize_t) len ||
		write(p->ctl_fd, "\n", 1) != 1)
	{
		error_set(err, PGC_ERR_IO, "perf's control FIFO: %s", strerror(errno));
		return -1;
	}
	for (int waited = 0; waited < ms; waited += 5)
	{
		ssize_t got = read(p->ack_fd, buf, sizeof(buf) - 1);
		int status;

		if (got > 0)
		{
			buf[got] = '\0';
			if (strstr(buf, "ack"))
				return 0;
		}
		if (p->pid > 0 && waitpid(p->pid, &status, WNOHANG) == p->pid)
		{
			p->pid = 0;
			first_line(p->log, line, sizeof(line));
			error_set(err, PGC_ERR_IO, "perf record ended (%s): %s", cmd,
					  line[0] ? line : "no message");
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	error_set(err, PGC_ERR_IO, "perf record did not answer \"%s\" in %d s",
			  cmd, ms / 1000);
	return -1;
}

struct profile *
profile_start(enum profile_mode mode, enum profile_callgraph cg,
			  const pid_t *pids, int npids, int hz, const char *dir,
			  const char *name, struct pgc_error *err)
{
	struct profile *p = xcalloc(1, sizeof(*p));
	struct strbuf list = STRBUF_INIT;
	char freq[16];
	char *argv[24];
	char *control = NULL;
	int logfd, k = 0;
	struct process_io io;

	p->mode = mode;
	p->cg = cg;
	p->ctl_fd = p->ack_fd = -1;
	p->pids = xmalloc((size_t) (npids > 0 ? npids : 1) * sizeof(pid_t));
	memcpy(p->pids, pids, (size_t) npids * sizeof(pid_t));
	p->npids = npids;
	pid_list(&list, pids, npids);
	snprintf(freq, sizeof(freq), "%d", hz > 0 ? hz : PROFILE_DEFAULT_HZ);
	p->data = xasprintf("%s/perf-%s.data", dir, name);
	p->log = xasprintf("%s/perf-%s.log", dir, name);
	if ((logfd =
			 open(p->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
	{
		error_set(err, PGC_ERR_IO, "could not create \"%s\": %s", p->log,
				  strerror(errno));
		strbuf_release(&list);
		profile_free(p);
		return NULL;
	}
	argv[k++] = (char *) perf_program();
	argv[k++] = "record";
	argv[k++] = "-q";
	argv[k++] = "-e";
	argv[k++] = "cpu-clock";
	argv[k++] = "-F";
	argv[k++] = freq;
	/* no build-ids: nothing written to ~/.debug, a faster stop */
	argv[k++] = "-B";
	argv[k++] = "-N";
	if (cg != PROFILE_CG_NONE)
	{
		/* 8 KB of each sample's stack is enough for a backend's chain
		 * down from main() */
		argv[k++] = "--call-graph";
		argv[k++] = cg == PROFILE_CG_FP ? "fp" : "dwarf,8192";
	}
	if (mode == PROFILE_CPUS)
	{
		/* every CPU, from before the load; the window is cut out of it at
		 * report time (--time), its control FIFO says when it is ready */
		p->ctl = xasprintf("%s/perf-%s.ctl", dir, name);
		p->ack = xasprintf("%s/perf-%s.ack", dir, name);
		if (mkfifo(p->ctl, 0600) < 0 || mkfifo(p->ack, 0600) < 0 ||
			(p->ctl_fd = open(p->ctl, O_RDWR | O_CLOEXEC)) < 0 ||
			(p->ack_fd = open(p->ack, O_RDWR | O_CLOEXEC | O_NONBLOCK)) < 0)
		{
			error_set(err, PGC_ERR_IO,
					  "could not make perf's control FIFOs "
					  "in \"%s\": %s",
					  dir, strerror(errno));
			close(logfd);
			strbuf_release(&list);
			profile_free(p);
			return NULL;
		}
		control = xasprintf("fifo:%s,%s", p->ctl, p->ack);
		argv[k++] = "-a";
		argv[k++] = "-k";
		argv[k++] = "CLOCK_MONOTONIC";
		argv[k++] = "--control";
		argv[k++] = control;
	}
	else
	{
		argv[k++] = "-p";
		argv[k++] = list.buf;
	}
	argv[k++] = "-o";
	argv[k++] = p->data;
	argv[k] = NULL;
	io = (struct process_io){-1, logfd, logfd};
	p->pid = process_spawn(argv, NULL, &io, err);
	close(logfd);
	strbuf_release(&list);
	free(control);
	if (p->pid < 0)
	{
		p->pid = 0;
		profile_free(p);
		return NULL;
	}
	/* ready once it answers: its start (reading every process's maps)
	 * must not fall in the window */
	if (mode == PROFILE_CPUS && command(p, "ping", 60000, err) < 0)
	{
		profile_free(p);
		return NULL;
	}
	return p;
}

int
profile_window(struct profile *p, bool begins, struct pgc_error *err)
{
	struct timespec now;

	if (p->mode != PROFILE_CPUS)
		return 0;
	/* the clients' backends, there at both edges */
	add_children(p);
	clock_gettime(CLOCK_MONOTONIC, &now);
	*(begins ? &p->begin : &p->end) = now;
	/* still sampling? */
	return command(p, "ping", 10000, err);
}

int
profile_stop(struct profile *p, struct pgc_error *err)
{
	int rc;

	if (p->pid == 0)
		return 0;
	kill(p->pid, SIGINT);
	rc = wait_ms(p->pid, 30000);
	if (rc < 0)
	{
		kill(-p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
		p->pid = 0;
		error_set(err, PGC_ERR_IO, "perf record did not stop in 30 s");
		return -1;
	}
	p->pid = 0;
	add_children(p);
	/* perf record exits 0 on SIGINT, or with the signal's status */
	if (rc != 0 && rc != 128 + SIGINT && rc != 130)
	{
		char line[256];

		first_line(p->log, line, sizeof(line));
		error_set(err, PGC_ERR_IO, "perf record failed (exit %d): %s", rc,
				  line);
		return -1;
	}
	return 0;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct profile_entry *x = a, *y = b;

	return (x->count < y->count) - (x->count > y->count);
}

static int
double_desc(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x < y) - (x > y);
}

/* Entries of the same function (module and name) next to each other. */
static int
entry_name_cmp(const void *a, const void *b)
{
	const struct profile_entry *x = a, *y = b;
	int c = strcmp(x->dso, y->dso);

	return c ? c : strcmp(x->symbol, y->symbol);
}

/*
 * One line of perf report's into E: "  28.51%  65  2916:postgres  postgres
 * [.] GetSnapshotData", with CHILDREN the inclusive share first.  The
 * command (after "PID:") may hold spaces, a module does not: the module is
 * the word before the first " [x] ", the function all after it.  false for
 * a line that is not an entry.
 */
static bool
parse_line(const char *l, bool children, struct profile_entry *e)
{
	double pct, incl = NAN;
	unsigned long long count;
	long pid;
	int used = 0;
	const char *rest, *kind = NULL, *dso;
	size_t sl;

	if (children
			? sscanf(l, " %lf%% %lf%% %llu %ld:%n", &incl, &pct, &count, &pid,
					 &used) != 4
			: sscanf(l, " %lf%% %llu %ld:%n", &pct, &count, &pid, &used) != 3)
		return false;
	if (used == 0)
		return false;
	rest = l + used;
	for (const char *c = rest; c[0] && c[1] && c[2] && c[3] && c[4]; c++)
		if (c[0] == ' ' && c[1] == '[' && c[3] == ']' && c[4] == ' ')
		{
			kind = c;
			break;
		}
	if (kind == NULL)
		return false;
	for (dso = kind; dso > rest && dso[-1] == ' '; dso--)
		;
	for (sl = 0; dso > rest && dso[-1] != ' '; dso--, sl++)
		;
	if (sl == 0)
		return false;
	e->dso = xstrndup(dso, sl);
	for (l = kind + 4; *l == ' '; l++)
		;
	sl = strlen(l);
	while (sl > 0 && (l[sl - 1] == ' ' || l[sl - 1] == '\t'))
		sl--;
	if (sl == 0)
	{
		free(e->dso);
		return false;
	}
	e->symbol = xstrndup(l, sl);
	e->pct = pct;
	e->inclusive = incl;
	e->count = count;
	return true;
}

int
profile_parse(const char *text, bool children, int top,
			  struct profile_entry **out, int *n, uint64_t *total)
{
	struct profile_entry *e = NULL;
	int ne = 0, ae = 0, merged = 0;
	double self_sum = 0; /* perf's self shares: the filtered samples' */
	bool consistent = true;

	*total = 0;
	for (const char *line = text; line && *line;)
	{
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t) (nl - line) : strlen(line);
		char *l = xstrndup(line, len);

		line = nl ? nl + 1 : NULL;
		if (ne == ae)
		{
			ae = ae ? 2 * ae : 64;
			e = xrealloc(e, (size_t) ae * sizeof(*e));
		}
		if (parse_line(l, children, &e[ne]))
		{
			*total += e[ne].count;
			self_sum += e[ne].pct;
			ne++;
		}
		free(l);
	}
	/* one entry per function: perf's are per process (its samples belong
	 * to one process each, so the shares add up) */
	if (ne > 1)
		qsort(e, (size_t) ne, sizeof(*e), entry_name_cmp);
	for (int i = 0; i < ne; i++)
	{
		if (merged > 0 && entry_name_cmp(&e[merged - 1], &e[i]) == 0)
		{
			e[merged - 1].pct += e[i].pct;
			e[merged - 1].inclusive += e[i].inclusive;
			e[merged - 1].count += e[i].count;
			free(e[i].dso), free(e[i].symbol);
		}
		else
			e[merged++] = e[i];
	}
	ne = merged;
	/* shares of these samples: perf's are of every CPU's with --pid; the
	 * inclusive ones scale as the self ones sum */
	for (int i = 0; i < ne; i++)
	{
		/* with call graphs perf weighs samples by their period: both
		 * shares so, that one reads against the other */
		if (children && self_sum > 0)
		{
			e[i].pct = e[i].pct * 100 / self_sum;
			e[i].inclusive = e[i].inclusive * 100 / self_sum;
			consistent = consistent && e[i].inclusive <= 100.5;
		}
		else
		{
			e[i].pct = 100.0 * (double) e[i].count / (double) *total;
			e[i].inclusive = NAN;
		}
	}
	/* shares past the whole: perf's chains do not add up (lines kept or
	 * dropped whole by --pid did that before the process was in the sort
	 * key); the self shares stand, the inclusive ones are none */
	for (int i = 0; i < ne && !consistent; i++)
		e[i].inclusive = NAN;
	if (ne > 1)
		qsort(e, (size_t) ne, sizeof(*e), entry_cmp);
	if (top > 0 && ne > top)
	{
		int keep = top;

		/* and those among the TOP by inclusive share that are not */
		if (children)
		{
			double *incl = xmalloc((size_t) ne * sizeof(double));
			double least;

			for (int i = 0; i < ne; i++)
				incl[i] = isnan(e[i].inclusive) ? -1 : e[i].inclusive;
			qsort(incl, (size_t) ne, sizeof(double), double_desc);
			least = incl[top - 1];
			free(incl);
			for (int i = top; i < ne && keep < 2 * top; i++)
				if (e[i].inclusive >= least && e[i].inclusive > 0)
				{
					struct profile_entry t = e[keep];

					e[keep] = e[i];
					e[i] = t;
					keep++;
				}
		}
		for (int i = keep; i < ne; i++)
			free(e[i].dso), free(e[i].symbol);
		ne = keep;
	}
	*out = e;
	*n = ne;
	return 0;
}

int
profile_report(struct profile *p, int top, struct profile_entry **out, int *n,
			   uint64_t *total, struct pgc_error *err)
{
	char *report = xasprintf("%s.txt", p->data);
	struct strbuf list = STRBUF_INIT;
	char times[64];
	bool children = p->cg != PROFILE_CG_NONE;
	char *argv[20] = {(char *) perf_program(),
					  "report",
					  "-i",
					  p->data,
					  "--stdio",
					  "-q",
					  children ? "--children" : "--no-children",
					  "--percent-limit",
					  "0",
					  "-F",
					  children
						  ? "overhead_children,overhead,sample,pid,dso,sym"
						  : "overhead,sample,pid,dso,sym"};
	int k = 11;
	int fd, logfd, rc;
	struct process_io io;
	pid_t pid;
	struct strbuf text = STRBUF_INIT;
	char buf[65536];
	ssize_t got;

	*out = NULL;
	*n = 0;
	*total = 0;
	if (p->mode == PROFILE_CPUS)
	{
		/* the server's samples of the window only: perf sampled every
		 * process, from before the window began */
		pid_list(&list, p->pids, p->npids);
		snprintf(times, sizeof(times), "%lld.%09ld,%lld.%09ld",
				 (long long) p->begin.tv_sec, p->begin.tv_nsec,
				 (long long) p->end.tv_sec, p->end.tv_nsec);
		argv[k++] = "--pid";
		argv[k++] = list.buf;
		argv[k++] = "--time";
		argv[k++] = times;
	}
	if (children)
	{
		/* the inclusive shares, not the chains */
		argv[k++] = "-g";
		argv[k++] = "none";
	}
	argv[k] = NULL;
	fd = open(report, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	logfd = open(p->log, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || logfd < 0)
	{
		error_set(err, PGC_ERR_IO, "could not create \"%s\": %s", report,
				  strerror(errno));
		rc = -1;
		goto out;
	}
	io = (struct process_io){-1, fd, logfd};
	if ((pid = process_spawn(argv, NULL, &io, err)) < 0)
	{
		rc = -1;
		goto out;
	}
	if ((rc = wait_ms(pid, 120000)) != 0)
	{
		char line[256];

		if (rc < 0)
		{
			kill(-pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		first_line(p->log, line, sizeof(line));
		error_set(err, PGC_ERR_IO, "perf report failed (exit %d): %s", rc,
				  line);
		rc = -1;
		goto out;
	}
	close(fd);
	fd = open(report, O_RDONLY | O_CLOEXEC);
	while (fd >= 0 && (got = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(&text, buf, (size_t) got);
	rc = profile_parse(text.buf ? text.buf : "", children, top, out, n, total);
out:
	if (fd >= 0)
		close(fd);
	if (logfd >= 0)
		close(logfd);
	unlink(report);
	free(report);
	strbuf_release(&text);
	strbuf_release(&list);
	return rc;
}

void
profile_entries_free(struct profile_entry *e, int n)
{
	for (int i = 0; i < n; i++)
		free(e[i].dso), free(e[i].symbol);
	free(e);
}

void
profile_free(struct profile *p)
{
	if (p == NULL)
		return;
	if (p->pid > 0)
	{
		kill(-p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
	}
	if (p->data)
		unlink(p->data);
	if (p->log)
		unlink(p->log);
	if (p->ctl_fd >= 0)
		close(p->ctl_fd);
	if (p->ack_fd >= 0)
		close(p->ack_fd);
	if (p->ctl)
		unlink(p->ctl);
	if (p->ack)
		unlink(p->ack);
	free(p->data);
	free(p->log);
	free(p->ctl);
	free(p->ack);
	free(p->pids);
	free(p);
}

int
profile_process_tree(pid_t pid, pid_t **out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t *v = xmalloc(sizeof(pid_t));
	int n = 0, a = 1;

	v[n++] = pid;
	while (d && (de = readdir(d)) != NULL)
	{
		char path[64], buf[512];
		FILE *f;
		long child, parent;
		char state;
		char *close_paren;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fgets(buf, sizeof(buf), f) == NULL)
			buf[0] = '\0';
		fclose(f);
		/* "PID (COMM) STATE PPID ...": COMM may hold spaces and parens */
		if ((close_paren = strrchr(buf, ')')) == NULL ||
			sscanf(buf, "%ld", &child) != 1 ||
			sscanf(close_paren + 1, " %c %ld", &state, &parent) != 2)
			continue;
		if (parent != (long) pid || state == 'Z')
			continue;
		if (n == a)
			v = xrealloc(v, (size_t) (a *= 2) * sizeof(pid_t));
		v[n++] = (pid_t) child;
	}
	if (d)
		closedir(d);
	*out = v;
	return n;
}
