/*
 * profile.c - see profile.h.
 */
#include "profile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
	pid_t pid; /* perf record; 0 once reaped */
	char *data;
	char *log;
};

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

int
profile_check(char *why, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char *log =
		xasprintf("%s/pgcliff-perf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(log);
	char *argv[] = {(char *) perf_program(),
					"record",
					"-q",
					"-e",
					"cpu-clock",
					"-F",
					"10",
					"-o",
					"/dev/null",
					"--",
					"true",
					NULL};
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
	io = (struct process_io){-1, fd, fd};
	pid = process_spawn(argv, NULL, &io, &err);
	close(fd);
	if (pid < 0)
	{
		snprintf(why, size, "%s", err.message);
		unlink(log);
		free(log);
		return -1;
	}
	if ((rc = wait_ms(pid, 10000)) < 0)
	{
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		snprintf(why, size, "%s record did not finish in 10 s", argv[0]);
		unlink(log);
		free(log);
		return -1;
	}
	if (rc != 0)
	{
		char line[256];
		FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
		int paranoid = 0;

		first_line(log, line, sizeof(line));
		if (f && fscanf(f, "%d", &paranoid) != 1)
			paranoid = 0;
		if (f)
			fclose(f);
		if (rc == 127)
			snprintf(why, size,
					 "%s not found (Debian: apt-get install linux-perf)",
					 argv[0]);
		else
			snprintf(why, size,
					 "%s record failed (exit %d, perf_event_paranoid %d): %s",
					 argv[0], rc, paranoid, line);
		unlink(log);
		free(log);
		return -1;
	}
	unlink(log);
	free(log);
	return 0;
}

struct profile *
profile_start(const pid_t *pids, int npids, int hz, const char *dir,
			  const char *name, struct pgc_error *err)
{
	struct profile *p = xcalloc(1, sizeof(*p));
	struct strbuf list = STRBUF_INIT;
	char freq[16];
	char *argv[16];
	int logfd, k = 0;
	struct process_io io;

	for (int i = 0; i < npids; i++)
		strbuf_addf(&list, "%s%ld", i ? "," : "", (long) pids[i]);
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
	argv[k++] = "-p";
	argv[k++] = list.buf;
	argv[k++] = "-o";
	argv[k++] = p->data;
	argv[k] = NULL;
	io = (struct process_io){-1, logfd, logfd};
	p->pid = process_spawn(argv, NULL, &io, err);
	close(logfd);
	strbuf_release(&list);
	if (p->pid < 0)
	{
		p->pid = 0;
		profile_free(p);
		return NULL;
	}
	return p;
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

int
profile_parse(const char *text, int top, struct profile_entry **out, int *n,
			  uint64_t *total)
{
	struct profile_entry *e = NULL;
	int ne = 0, ae = 0;

	*total = 0;
	for (const char *line = text; line && *line;)
	{
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t) (nl - line) : strlen(line);
		char *l = xstrndup(line, len);
		double pct;
		unsigned long long count;
		char dso[512], kind[8];
		int used = 0;

		line = nl ? nl + 1 : NULL;
		/* "    28.51%            65  postgres  [.] GetSnapshotData" */
		if (sscanf(l, " %lf%% %llu %511s %7s %n", &pct, &count, dso, kind,
				   &used) == 4 &&
			used > 0 && kind[0] == '[' && l[used] != '\0')
		{
			char *sym = l + used;
			size_t sl = strlen(sym);

			while (sl > 0 && (sym[sl - 1] == ' ' || sym[sl - 1] == '\t'))
				sym[--sl] = '\0';
			if (ne == ae)
			{
				ae = ae ? 2 * ae : 64;
				e = xrealloc(e, (size_t) ae * sizeof(*e));
			}
			e[ne].dso = xstrdup(dso);
			e[ne].symbol = xstrdup(sym);
			e[ne].pct = pct;
			e[ne].count = count;
			*total += count;
			ne++;
		}
		free(l);
	}
	if (ne > 1)
		qsort(e, (size_t) ne, sizeof(*e), entry_cmp);
	for (int i = top > 0 ? top : ne; i < ne; i++)
		free(e[i].dso), free(e[i].symbol);
	if (top > 0 && ne > top)
		ne = top;
	*out = e;
	*n = ne;
	return 0;
}

int
profile_report(struct profile *p, int top, struct profile_entry **out, int *n,
			   uint64_t *total, struct pgc_error *err)
{
	char *report = xasprintf("%s.txt", p->data);
	char *argv[] = {(char *) perf_program(),
					"report",
					"-i",
					p->data,
					"--stdio",
					"-q",
					"--no-children",
					"--percent-limit",
					"0",
					"-F",
					"overhead,sample,dso,sym",
					NULL};
	int fd, logfd, rc;
	struct process_io io;
	pid_t pid;
	struct strbuf text = STRBUF_INIT;
	char buf[65536];
	ssize_t got;

	*out = NULL;
	*n = 0;
	*total = 0;
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
	rc = profile_parse(text.buf ? text.buf : "", top, out, n, total);
out:
	if (fd >= 0)
		close(fd);
	if (logfd >= 0)
		close(logfd);
	unlink(report);
	free(report);
	strbuf_release(&text);
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
	free(p->data);
	free(p->log);
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
