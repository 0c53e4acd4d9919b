/*
 * cost.c - counting a server's work with callgrind: the wrapper, and a
 * reader of callgrind's output format (valgrind's docs, "Callgrind Format
 * Specification"; version 1, as callgrind 3.x writes it).  See cost.h.
 */
#include "cost.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * The simulated caches are fixed rather than read off the host, so that
 * counts taken on two machines agree: 32 kB 8-way first-level caches and
 * an 8 MB 16-way last level, 64-byte lines.
 */
static const char *const valgrind_opts[] = {
	"-q",
	"--tool=callgrind",
	"--zero-before=PostgresMain",
	"--cache-sim=yes",
	"--I1=32768,8,64",
	"--D1=32768,8,64",
	"--LL=8388608,16,64",
};

int
cost_valgrind_argv(const char *valgrind, const char *out_dir,
				   const char **argv, int max, char *buf, size_t bufsize)
{
	int n = 0;
	int len;

	if (max < (int) lengthof(valgrind_opts) + 2)
		return -1;
	len = snprintf(buf, bufsize, "--callgrind-out-file=%s/cg.%%p", out_dir);
	if (len < 0 || (size_t) len >= bufsize)
		return -1;
	argv[n++] = valgrind ? valgrind : "valgrind";
	for (size_t i = 0; i < lengthof(valgrind_opts); i++)
		argv[n++] = valgrind_opts[i];
	argv[n++] = buf;
	return n;
}

/* ------------------------------------------------------- finding it */

/* $PGCLIFF_VALGRIND, else valgrind on the PATH, as a path into OUT. */
static bool
valgrind_path(char *out, size_t size)
{
	const char *env = getenv("PGCLIFF_VALGRIND");
	const char *path = getenv("PATH");
	const char *p;

	if (env && *env)
	{
		snprintf(out, size, "%s", env);
		return access(out, X_OK) == 0;
	}
	if (path == NULL || *path == '\0')
		path = "/usr/bin:/bin";
	for (p = path; *p;)
	{
		size_t n = strcspn(p, ":");

		/* absolute entries only: the server starts in its own directory */
		if (n > 0 && p[0] == '/' && (int) n < 4000 &&
			snprintf(out, size, "%.*s/valgrind", (int) n, p) < (int) size &&
			access(out, X_OK) == 0)
			return true;
		p += n;
		if (*p == ':')
			p++;
	}
	return false;
}

/* Run ARGV with stdout and stderr into a temporary file; its exit status
 * and first line (LINE), or -1 when it could not run or hung. */
static int
run_capture(char *const *argv, char *line, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	char *log = xasprintf("%s/pgcliff-vg-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(log);
	struct process_io io;
	struct pgc_error err;
	pid_t pid;
	int rc = -1;

	line[0] = '\0';
	if (fd < 0)
	{
		free(log);
		return -1;
	}
	io = (struct process_io){-1, fd, fd};
	pid = process_spawn(argv, NULL, &io, &err);
	close(fd);
	if (pid > 0)
	{
		int status;

		for (int waited = 0; waited < 30000; waited += 10)
		{
			struct timespec ts = {0, 10L * 1000 * 1000};
			pid_t r = waitpid(pid, &status, WNOHANG);

			if (r == pid)
			{
				rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
				break;
			}
			nanosleep(&ts, NULL);
		}
		if (rc < 0)
		{
			kill(-pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		else
		{
			FILE *f = fopen(log, "r");

			if (f && fgets(line, (int) size, f))
				line[strcspn(line, "\n")] = '\0';
			if (f)
				fclose(f);
		}
	}
	unlink(log);
	free(log);
	return rc;
}

int
cost_find_valgrind(char *path, size_t pathsize, char *version,
				   size_t versionsize, struct pgc_error *err)
{
	char line[256];

	if (!valgrind_path(path, pathsize))
	{
		error_set(err, PGC_ERR_UNAVAILABLE,
				  "counting needs valgrind, and none was found on the PATH "
				  "(or in $PGCLIFF_VALGRIND)");
		error_hint(err, "Debian: apt-get install valgrind");
		return -1;
	}
	{
		char *argv[] = {path, "--version", NULL};

		if (run_capture(argv, line, sizeof(line)) != 0 ||
			strncmp(line, "valgrind-", 9) != 0)
		{
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "%s --version did not answer as valgrind does: %s", path,
					  line[0] ? line : "(nothing)");
			return -1;
		}
		snprintf(version, versionsize, "%s", line);
	}
	{
		char *argv[] = {
			path,   "-q", "--tool=callgrind", "--callgrind-out-file=/dev/null",
			"true", NULL};

		if (run_capture(argv, line, sizeof(line)) != 0)
		{
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "%s cannot run its callgrind tool: %s", path,
					  line[0] ? line : "(no message)");
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------- counts */

static uint64_t
hash_str(const char *a, const char *b)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *a; a++)
		h = (h ^ (unsigned char) *a) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (; *b; b++)
		h = (h ^ (unsigned char) *b) * 1099511628211ULL;
	return h;
}

/* The index table: open addressing over fns, rebuilt when half full. */
struct fn_index
{
	int *slot; /* index into fns + 1; 0 empty */
	int nslot;
};

static void
index_put(struct fn_index *ix, const struct cost_counts *c, int i)
{
	uint64_t h = hash_str(c->fns[i].obj, c->fns[i].name);
	int s = (int) (h & (uint64_t) (ix->nslot - 1));

	while (ix->slot[s])
		s = (s + 1) & (ix->nslot - 1);
	ix->slot[s] = i + 1;
}

static void
index_grow(struct fn_index *ix, const struct cost_counts *c)
{
	free(ix->slot);
	ix->nslot = ix->nslot ? ix->nslot * 2 : 1024;
	while (ix->nslot < 2 * (c->nfns + 1))
		ix->nslot *= 2;
	ix->slot = xcalloc((size_t) ix->nslot, sizeof(int));
	for (int i = 0; i < c->nfns; i++)
		index_put(ix, c, i);
}

/* The function OBJ:NAME of C, added when new. */
static struct cost_fn *
fn_get(struct cost_counts *c, struct fn_index *ix, const char *obj,
	   const char *name)
{
	uint64_t h = hash_str(obj, name);
	int s;

	if (2 * (c->nfns + 1) > ix->nslot)
		index_grow(ix, c);
	s = (int) (h & (uint64_t) (ix->nslot - 1));
	while (ix->slot[s])
	{
		struct cost_fn *f = &c->fns[ix->slot[s] - 1];

		if (strcmp(f->name, name) == 0 && strcmp(f->obj, obj) == 0)
			return f;
		s = (s + 1) & (ix->nslot - 1);
	}
	if (c->nfns == c->capfns)
	{
		c->capfns = c->capfns ? c->capfns * 2 : 256;
		c->fns = xrealloc(c->fns, (size_t) c->capfns * sizeof(*c->fns));
	}
	memset(&c->fns[c->nfns], 0, sizeof(c->fns[0]));
	c->fns[c->nfns].obj = xstrdup(obj);
	c->fns[c->nfns].name = xstrdup(name);
	ix->slot[s] = ++c->nfns;
	return &c->fns[c->nfns - 1];
}

/* callgrind's compressed names: "(N) name" defines N, "(N)" refers to it */
struct names
{
	char **v;
	int n;
};

static const char *
name_of(struct names *t, const char *spec)
{
	char *end;
	long id;

	if (spec[0] != '(')
		return spec; /* not compressed */
	id = strtol(spec + 1, &end, 10);
	if (*end != ')' || id < 0 || id > 10000000)
		return NULL;
	if (id >= t->n)
	{
		int n = (int) id + 64;

		t->v = xrealloc(t->v, (size_t) n * sizeof(char *));
		memset(t->v + t->n, 0, (size_t) (n - t->n) * sizeof(char *));
		t->n = n;
	}
	end++;
	if (*end == ' ')
	{
		free(t->v[id]);
		t->v[id] = xstrdup(end + 1);
	}
	return t->v[id];
}

static void
names_free(struct names *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
}

/* Where each of our events is among the file's ("events:" line); -1 none */
struct event_map
{
	int ir;
	int l1[3];
	int ll[3];
	int n; /* the file's events */
};

static void
map_events(const char *list, struct event_map *m)
{
	static const char *const l1[] = {"I1mr", "D1mr", "D1mw"};
	static const char *const ll[] = {"ILmr", "DLmr", "DLmw"};
	char name[32];
	int k = 0;

	m->ir = -1;
	for (int i = 0; i < 3; i++)
		m->l1[i] = m->ll[i] = -1;
	while (sscanf(list, " %31s", name) == 1)
	{
		if (strcmp(name, "Ir") == 0)
			m->ir = k;
		for (int i = 0; i < 3; i++)
		{
			if (strcmp(name, l1[i]) == 0)
				m->l1[i] = k;
			if (strcmp(name, ll[i]) == 0)
				m->ll[i] = k;
		}
		k++;
		list += strspn(list, " ");
		list += strcspn(list, " ");
	}
	m->n = k;
}

/* The counts of a cost line after its NPOS positions into EV; false when
 * it is not one. */
static bool
cost_line(const char *line, int npos, const struct event_map *m, uint64_t *ev)
{
	uint64_t v[64];
	const char *p = line;
	int k = 0;

	for (int i = 0; i < npos; i++)
	{
		p += strspn(p, " ");
		if (*p == '\0')
			return false;
		p += strcspn(p, " ");
	}
	while (k < m->n && k < (int) lengthof(v))
	{
		char *end;

		p += strspn(p, " ");
		if (*p == '\0')
			break;
		errno = 0;
		v[k] = strtoull(p, &end, 10);
		if (end == p || errno != 0)
			return false;
		p = end;
		k++;
	}
	for (; k < m->n && k < (int) lengthof(v); k++)
		v[k] = 0; /* trailing zeros may be left out */
	ev[COST_IR] = m->ir >= 0 ? v[m->ir] : 0;
	ev[COST_L1] = ev[COST_LL] = 0;
	for (int i = 0; i < 3; i++)
	{
		if (m->l1[i] >= 0)
			ev[COST_L1] += v[m->l1[i]];
		if (m->ll[i] >= 0)
			ev[COST_LL] += v[m->ll[i]];
	}
	return true;
}

static bool
starts(const char *line, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);

	if (strncmp(line, prefix, n) != 0)
		return false;
	*rest = line + n;
	return true;
}

int
cost_read_file(const char *path, struct cost_counts *out,
			   struct pgc_error *err)
{
	FILE *f = fopen(path, "r");
	struct names obs = {NULL, 0}, fns = {NULL, 0};
	struct event_map m = {-1, {-1, -1, -1}, {-1, -1, -1}, 0};
	struct fn_index ix = {NULL, 0};
	struct cost_fn *cur = NULL;
	const char *obj = "???";
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, npos = 1, rc = -1;
	bool skip_next = false, have_summary = false;
	uint64_t total[COST_NEVENTS] = {0};

	if (f == NULL)
	{
		error_set(err, PGC_ERR_IO, "could not open \"%s\": %s", path,
				  strerror(errno));
		return -1;
	}
	index_grow(&ix, out);
	while ((len = getline(&line, &cap, f)) >= 0)
	{
		const char *rest;
		uint64_t ev[COST_NEVENTS];

		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if (starts(line, "events: ", &rest))
			map_events(rest, &m);
		else if (starts(line, "positions: ", &rest))
		{
			npos = 0;
			for (const char *p = rest; *p;)
			{
				p += strspn(p, " ");
				if (*p)
					npos++;
				p += strcspn(p, " ");
			}
		}
		else if (starts(line, "summary: ", &rest) ||
				 starts(line, "totals: ", &rest))
		{
			if (!have_summary && cost_line(rest, 0, &m, total))
				have_summary = true;
		}
		else if (starts(line, "ob=", &rest))
			obj = name_of(&obs, rest);
		else if (starts(line, "cob=", &rest))
			(void) name_of(&obs, rest);
		else if (starts(line, "fn=", &rest))
		{
			const char *name = name_of(&fns, rest);

			if (name == NULL || obj == NULL)
				goto bad;
			cur = fn_get(out, &ix, obj, name);
			skip_next = false;
		}
		else if (starts(line, "cfn=", &rest))
			(void) name_of(&fns, rest);
		else if (starts(line, "calls=", &rest))
			skip_next = true; /* the next cost line is the call's */
		else if ((line[0] >= '0' && line[0] <= '9') || line[0] == '+' ||
				 line[0] == '-' || line[0] == '*')
		{
			if (m.n == 0 || !cost_line(line, npos, &m, ev))
				goto bad;
			if (skip_next)
				skip_next = false;
			else if (cur)
				for (int i = 0; i < COST_NEVENTS; i++)
					cur->ev[i] += ev[i];
		}
		/* version:, creator:, pid:, cmd:, part:, desc:, fl=, fi=, fe=,
		 * cfi=, cfl=, jump=, jcnd=: nothing to count */
	}
	if (ferror(f))
	{
		error_set(err, PGC_ERR_IO, "could not read \"%s\": %s", path,
				  strerror(errno));
		goto out;
	}
	if (!have_summary || m.ir < 0)
	{
		error_set(err, PGC_ERR_IO,
				  "\"%s\" is not a complete callgrind output file (no %s)",
				  path, m.ir < 0 ? "Ir event" : "summary line");
		goto out;
	}
	for (int i = 0; i < COST_NEVENTS; i++)
		out->ev[i] += total[i];
	out->nprocs++;
	rc = 0;
	goto out;
bad:
	error_set(err, PGC_ERR_IO, "not callgrind's output format: \"%.60s\"",
			  line);
	error_at(err, path, lineno, 1, 1);
out:
	free(line);
	free(ix.slot);
	names_free(&obs);
	names_free(&fns);
	fclose(f);
	return rc;
}

/* ------------------------------------------------------- collecting */

static bool
process_exited(pid_t pid)
{
	return kill(pid, 0) != 0 && errno == ESRCH;
}

/*
 * Whether PATH is a whole dump: callgrind ends one with its "totals:"
 * line.  (Not the process's exit alone: its pid may be another's by the
 * time it is looked at.)
 */
static bool
dump_complete(const char *path)
{
	char tail[256];
	FILE *f = fopen(path, "r");
	long size;
	size_t n;
	bool done = false;

	if (f == NULL)
		return false;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0)
	{
		long from = size > (long) sizeof(tail) - 1
						? size - (long) sizeof(tail) + 1
						: 0;

		if (fseek(f, from, SEEK_SET) == 0)
		{
			char *last;

			n = fread(tail, 1, sizeof(tail) - 1, f);
			tail[n] = '\0';
			while (n > 0 && tail[n - 1] == '\n')
				tail[--n] = '\0';
			last = strrchr(tail, '\n');
			done = strncmp(last ? last + 1 : tail, "totals:", 7) == 0;
		}
	}
	fclose(f);
	return done;
}

int
cost_collect(const char *out_dir, const pid_t *pids, int npids, int timeout_ms,
			 struct cost_counts *out, struct pgc_error *err)
{
	int64_t deadline = clock_now_ns() + (int64_t) timeout_ms * 1000000;

	for (int i = 0; i < npids; i++)
	{
		char *path = xasprintf("%s/cg.%ld", out_dir, (long) pids[i]);
		int64_t gone_ns = 0;
		int rc;

		/*
		 * Written whole as the backend exits: wait for its last line.  A
		 * backend that is gone and left no whole dump within a second (it
		 * crashed) is read as it is, and the reader says what is missing.
		 */
		while (!dump_complete(path))
		{
			struct timespec ts = {0, 20L * 1000 * 1000};
			int64_t now = clock_now_ns();

			if (process_exited(pids[i]))
			{
				if (gone_ns == 0)
					gone_ns = now;
				else if (now - gone_ns > 1000000000LL)
					break;
			}
			if (now > deadline)
			{
				error_set(err, PGC_ERR_UNAVAILABLE,
						  "the count of backend %ld never came: the backend "
						  "still runs (%s)",
						  (long) pids[i], path);
				free(path);
				return -1;
			}
			nanosleep(&ts, NULL);
		}
		rc = cost_read_file(path, out, err);
		unlink(path);
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------- per transaction */

static int
by_ir_desc(const void *a, const void *b)
{
	const struct cost_fn_share *x = a, *y = b;

	return (x->ir < y->ir) - (x->ir > y->ir);
}

int
cost_per_txn(const struct cost_counts *before, const struct cost_counts *after,
			 uint64_t txns, double *per, struct cost_fn_share *fns, int maxfns)
{
	struct fn_index ix = {NULL, 0};
	struct cost_fn_share *all;
	int n = 0;
	double total;

	if (txns == 0 || after->ev[COST_IR] <= before->ev[COST_IR])
		return -1;
	for (int i = 0; i < COST_NEVENTS; i++)
		per[i] =
			((double) after->ev[i] - (double) before->ev[i]) / (double) txns;
	total = per[COST_IR];
	/* index BEFORE's functions, then each of AFTER's minus its own */
	index_grow(&ix, before);
	all = xcalloc((size_t) after->nfns + 1, sizeof(*all));
	for (int i = 0; i < after->nfns; i++)
	{
		const struct cost_fn *a = &after->fns[i];
		uint64_t h = hash_str(a->obj, a->name);
		int s = (int) (h & (uint64_t) (ix.nslot - 1));
		double b = 0;

		while (ix.slot[s])
		{
			const struct cost_fn *f = &before->fns[ix.slot[s] - 1];

			if (strcmp(f->name, a->name) == 0 && strcmp(f->obj, a->obj) == 0)
			{
				b = (double) f->ev[COST_IR];
				break;
			}
			s = (s + 1) & (ix.nslot - 1);
		}
		if ((double) a->ev[COST_IR] - b <= 0)
			continue;
		all[n].obj = a->obj;
		all[n].name = a->name;
		all[n].ir = ((double) a->ev[COST_IR] - b) / (double) txns;
		all[n].share = all[n].ir / total;
		n++;
	}
	qsort(all, (size_t) n, sizeof(*all), by_ir_desc);
	if (n > maxfns)
		n = maxfns;
	memcpy(fns, all, (size_t) n * sizeof(*fns));
	free(all);
	free(ix.slot);
	return n;
}

void
cost_counts_release(struct cost_counts *c)
{
	for (int i = 0; i < c->nfns; i++)
	{
		free(c->fns[i].obj);
		free(c->fns[i].name);
	}
	free(c->fns);
	memset(c, 0, sizeof(*c));
}
