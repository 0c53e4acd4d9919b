/*
 * base.c - error struct, allocators, string buffer, clock and the small
 * helpers every module needs.  libc only; see base.h for the contract.
 */
#include "base.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- errors */

void
error_clear(struct pgc_error *err)
{
	memset(err, 0, sizeof(*err));
}

void
error_set(struct pgc_error *err, enum pgc_error_kind kind, const char *fmt,
		  ...)
{
	va_list ap;

	error_clear(err);
	err->kind = kind;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

void
error_at(struct pgc_error *err, const char *file, int line, int col, int span)
{
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = line;
	err->col = col;
	err->span = span > 0 ? span : 1;
}

void
error_detail(struct pgc_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof(err->detail), fmt, ap);
	va_end(ap);
}

void
error_hint(struct pgc_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->hint, sizeof(err->hint), fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ allocation */

PGC_NORETURN static void
out_of_memory(size_t n)
{
	fprintf(stderr, "pgcliff: out of memory (%zu bytes)\n", n);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		out_of_memory(n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		out_of_memory(n * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		out_of_memory(n);
	return q;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb);
}

/* --------------------------------------------------------------- strbuf */

static char strbuf_empty[1];

void
strbuf_init(struct strbuf *sb)
{
	sb->buf = strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void
strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void
strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

char *
strbuf_detach(struct strbuf *sb)
{
	char *p;

	if (!sb->alloc)
		strbuf_grow(sb, 0);
	p = sb->buf;
	strbuf_init(sb);
	return p;
}

void
strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (sb->buf == NULL)
		strbuf_init(sb);
	if (need <= sb->alloc)
		return;
	if (need < sb->alloc * 2)
		need = sb->alloc * 2;
	if (need < 64)
		need = 64;
	if (sb->alloc)
		sb->buf = xrealloc(sb->buf, need);
	else
	{
		sb->buf = xmalloc(need);
		sb->buf[0] = '\0';
	}
	sb->alloc = need;
}

void
strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	strbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	strbuf_grow(sb, 64);
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t) n >= sb->alloc - sb->len)
	{
		strbuf_grow(sb, (size_t) n);
		va_copy(cp, ap);
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
		va_end(cp);
	}
	sb->len += (size_t) n;
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* ----------------------------------------------------------------- time */

int64_t
clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t
clock_wall_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

bool
cpu_times_parse(const char *text, struct cpu_times *out)
{
	/* user nice system idle iowait irq softirq steal [guest guest_nice] */
	unsigned long long v[8] = {0};
	const char *line = text;
	int n;

	while (line && strncmp(line, "cpu ", 4) != 0)
	{
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (line == NULL)
		return false;
	n = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	if (n < 4)
		return false;
	out->total = 0;
	for (int i = 0; i < 8; i++)
		out->total += v[i]; /* guest time is already in user and nice */
	out->steal = n >= 8 ? v[7] : 0;
	return true;
}

bool
cpu_times_read(struct cpu_times *out)
{
	char buf[4096];
	FILE *f = fopen("/proc/stat", "r");
	size_t n;

	if (f == NULL)
		return false;
	/* the "cpu " line comes first */
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return cpu_times_parse(buf, out);
}

double
cpu_steal_pct(const struct cpu_times *a, const struct cpu_times *b)
{
	if (b->total <= a->total || b->steal < a->steal)
		return -1;
	/* /proc/stat counts whole ticks: over a few of them one stolen tick
	 * reads as tens of per cent (a 0.1 s window read 33 %) */
	if (b->total - a->total < CPU_STEAL_MIN_TICKS)
		return -1;
	return 100.0 * (double) (b->steal - a->steal) /
		   (double) (b->total - a->total);
}

void
clock_wall_utc(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
}

/* -------------------------------------------------------------- helpers */

/*
 * Optimal string alignment distance: insertions, deletions, substitutions
 * and transpositions of neighbours ("lsit" is one step from "list").
 */
int
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), w = lb + 1;
	int *d = xmalloc((la + 1) * w * sizeof(int));
	int result;

	for (size_t i = 0; i <= la; i++)
		d[i * w] = (int) i;
	for (size_t j = 0; j <= lb; j++)
		d[j] = (int) j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++)
		{
			int best = d[(i - 1) * w + j - 1] + (a[i - 1] != b[j - 1]);

			if (d[(i - 1) * w + j] + 1 < best)
				best = d[(i - 1) * w + j] + 1;
			if (d[i * w + j - 1] + 1 < best)
				best = d[i * w + j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
				a[i - 2] == b[j - 1] && d[(i - 2) * w + j - 2] + 1 < best)
				best = d[(i - 2) * w + j - 2] + 1;
			d[i * w + j] = best;
		}
	result = d[la * w + lb];
	free(d);
	return result;
}

const char *
nearest_word(const char *word, const char *const *candidates)
{
	const char *best = NULL;
	int best_d = 1 << 30;
	int limit = (int) strlen(word) / 3 + 1;

	if (limit > 3)
		limit = 3;
	for (; *candidates; candidates++)
	{
		int d = edit_distance(word, *candidates);

		if (d < best_d)
		{
			best_d = d;
			best = *candidates;
		}
	}
	return best_d <= limit ? best : NULL;
}

/* A URI's password: "postgres[ql]://user:PASSWORD@"; S at the scheme. */
static bool
uri_password(const char *s, size_t *off, size_t *len)
{
	const char *p = strstr(s, "://"), *colon = NULL;

	if (p == NULL)
		return false;
	for (p += 3; *p && *p != '@'; p++)
	{
		if (*p == '/' || *p == '?' || isspace((unsigned char) *p))
			return false; /* no userinfo */
		if (*p == ':' && colon == NULL)
			colon = p;
	}
	if (*p != '@' || colon == NULL)
		return false;
	*off = (size_t) (colon + 1 - s);
	*len = (size_t) (p - colon - 1);
	return true;
}

bool
conninfo_find_password(const char *text, size_t from, size_t *off, size_t *len)
{
	size_t n = strlen(text);

	for (size_t i = from; i < n; i++)
	{
		const char *p = text + i;

		if ((strncmp(p, "postgresql://", 13) == 0 ||
			 strncmp(p, "postgres://", 11) == 0) &&
			uri_password(p, off, len))
		{
			*off += i;
			return true;
		}
		if (strncmp(p, "password", 8) == 0 &&
			(i == 0 || !(isalnum((unsigned char) p[-1]) || p[-1] == '_')))
		{
			const char *v = p + 8;

			while (*v == ' ' || *v == '\t')
				v++;
			if (*v != '=')
				continue;
			v++;
			while (*v == ' ' || *v == '\t')
				v++;
			*off = (size_t) (v - text);
			if (*v == '\'')
			{
				const char *q = v + 1;

				while (*q && *q != '\'')
					q += q[0] == '\\' && q[1] ? 2 : 1;
				*off += 1;
				*len = (size_t) (q - v - 1);
			}
			else
			{
				const char *q = v;

				while (*q && !isspace((unsigned char) *q) && *q != '&')
					q += q[0] == '\\' && q[1] ? 2 : 1;
				*len = (size_t) (q - v);
			}
			return true;
		}
	}
	return false;
}

void
conninfo_mask_passwords(char *text)
{
	size_t off, len, from = 0;

	while (conninfo_find_password(text, from, &off, &len))
	{
		memset(text + off, 'x', len);
		from = off + len + 1;
		if (from > strlen(text))
			break;
	}
}

bool
is_c_identifier(const char *s)
{
	if (!(isalpha((unsigned char) *s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!(isalnum((unsigned char) *s) || *s == '_'))
			return false;
	return true;
}

char *
file_read_all(const char *path, size_t *len_out, struct pgc_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[65536];
	ssize_t n;
	struct stat st;
	/*
	 * O_NONBLOCK: open() of a FIFO with no writer blocks forever before
	 * the check below could refuse it; a regular file ignores the flag
	 */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
	{
		error_set(err, PGC_ERR_IO, "could not open \"%s\": %s", path,
				  strerror(errno));
		return NULL;
	}
	/* a device or a FIFO could be read forever */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
	{
		error_set(err, PGC_ERR_IO, "\"%s\" is not a regular file", path);
		close(fd);
		return NULL;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) != 0)
	{
		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			error_set(err, PGC_ERR_IO, "could not read \"%s\": %s", path,
					  strerror(errno));
			close(fd);
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_add(&sb, chunk, (size_t) n);
	}
	close(fd);
	if (len_out)
		*len_out = sb.len;
	return strbuf_detach(&sb);
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void) st;
	(void) flag;
	(void) ftw;
	return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

int
dir_remove_tree(const char *path)
{
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int
dir_make_all(const char *path, mode_t mode, struct pgc_error *err)
{
	char *p = xstrdup(path);

	for (char *s = p + 1;; s++)
	{
		if (*s == '/' || *s == '\0')
		{
			char c = *s;

			*s = '\0';
			if (mkdir(p, mode) == 0)
				chmod(p, mode); /* whatever the umask */
			else if (errno != EEXIST)
			{
				error_set(err, PGC_ERR_IO, "could not create \"%s\": %s", p,
						  strerror(errno));
				free(p);
				return -1;
			}
			*s = c;
			if (c == '\0')
				break;
		}
	}
	free(p);
	return 0;
}

int
file_copy(const char *from, const char *to, mode_t mode, struct pgc_error *err)
{
	char buf[65536];
	int in, out;
	ssize_t n = 0;
	bool ok = true;

	if ((in = open(from, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
	{
		error_set(err, PGC_ERR_IO, "could not open \"%s\": %s", from,
				  strerror(errno));
		return -1;
	}
	if ((out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)) < 0)
	{
		error_set(err, PGC_ERR_IO, "could not create \"%s\": %s", to,
				  strerror(errno));
		close(in);
		return -1;
	}
	while (ok && (n = read(in, buf, sizeof(buf))) > 0)
		for (ssize_t done = 0, w; ok && done < n; done += w)
			if ((w = write(out, buf + done, (size_t) (n - done))) < 0)
				ok = false;
	if (n < 0)
		ok = false;
	if (close(out) != 0)
		ok = false;
	if (!ok)
	{
		error_set(err, PGC_ERR_IO, "could not copy \"%s\" to \"%s\": %s", from,
				  to, strerror(errno));
		close(in);
		unlink(to);
		return -1;
	}
	close(in);
	return 0;
}

int
file_write_replace(const char *path, const char *data, size_t len, mode_t mode,
				   struct pgc_error *err)
{
	char *tmp = xasprintf("%s.tmp%ld", path, (long) getpid());
	int fd;
	bool ok = true;
	int saved = 0;

	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)) < 0)
	{
		error_set(err, PGC_ERR_IO, "could not write \"%s\": %s", path,
				  strerror(errno));
		free(tmp);
		return -1;
	}
	for (size_t done = 0; ok && done < len;)
	{
		ssize_t w = write(fd, data + done, len - done);

		if (w < 0)
			ok = false, saved = errno;
		else
			done += (size_t) w;
	}
	if (ok && fsync(fd) != 0)
		ok = false, saved = errno;
	if (close(fd) != 0 && ok)
		ok = false, saved = errno;
	if (ok && rename(tmp, path) != 0)
		ok = false, saved = errno;
	if (!ok)
	{
		error_set(err, PGC_ERR_IO, "could not write \"%s\": %s", path,
				  strerror(saved));
		unlink(tmp);
	}
	free(tmp);
	return ok ? 0 : -1;
}

/* ------------------------------------------------------- children */

pid_t
process_spawn(char *const *argv, const char *cwd, const struct process_io *io,
			  struct pgc_error *err)
{
	pid_t pid = fork();

	if (pid < 0)
	{
		error_set(err, PGC_ERR_IO, "could not start %s: %s", argv[0],
				  strerror(errno));
		return -1;
	}
	if (pid == 0)
	{
		int devnull = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		/* a killed pgcliff takes its children down with it */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		umask(022); /* servers run as another user: keep it readable */
		dup2(io->in >= 0 ? io->in : devnull, 0);
		dup2(io->out >= 0 ? io->out : io->err, 1);
		dup2(io->err, 2);
		if (cwd && chdir(cwd) != 0)
		{
			dprintf(2, "pgcliff: cannot enter %s: %s\n", cwd, strerror(errno));
			_exit(127);
		}
		execvp(argv[0], argv);
		dprintf(2, "pgcliff: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid); /* both sides: a kill of the group never misses */
	return pid;
}

/* ------------------------------------------------------- fault injection */

void
inject_point(const char *point)
{
	static atomic_int reached;
	const char *want = getenv("PGCLIFF_INJECT");
	const char *at;
	size_t len;
	int k = 1;

	if (want == NULL || want[0] == '\0')
		return;
	at = strrchr(want, '@');
	len = at ? (size_t) (at - want) : strlen(want);
	if (at && (k = atoi(at + 1)) < 1)
		k = 1;
	if (strncmp(point, want, len) != 0 ||
		atomic_fetch_add(&reached, 1) + 1 != k)
		return;
	raise(SIGSTOP);
}

/* ------------------------------------------------------------ processes */

static bool
boot_id(char *out, size_t size)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	bool ok;

	if (f == NULL)
		return false;
	ok = fgets(out, (int) size, f) != NULL;
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
	return ok && out[0] != '\0' && strchr(out, ' ') == NULL;
}

/* Field 22 of /proc/PID/stat, the start time; 0 when PID is not alive. */
static unsigned long long
start_time_of(long pid)
{
	char path[64], buf[1024];
	unsigned long long start = 0;
	const char *p;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the command may hold spaces and parentheses: fields follow the last
	 * ')'; field 3 (state) is the first after it */
	if ((p = strrchr(buf, ')')) == NULL)
		return 0;
	p++; /* the space before field 3, the state */
	if (p[0] != ' ' || p[1] == '\0' || p[1] == 'Z' || p[1] == 'X')
		return 0; /* a zombie has died */
	for (int field = 3; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (p == NULL || sscanf(p, " %llu", &start) != 1)
		return 0;
	return start;
}

void
process_identity(char *out, size_t size)
{
	char boot[64];
	unsigned long long start = start_time_of((long) getpid());

	if (!boot_id(boot, sizeof(boot)) || start == 0)
	{
		out[0] = '\0';
		return;
	}
	snprintf(out, size, "%s %ld %llu", boot, (long) getpid(), start);
}

/* IDENTITY's process: 1 alive, 0 gone (this boot), -1 an earlier boot or
 * another machine, -2 no identity to go by */
static int
identity_state(const char *identity)
{
	char boot[64], here[64];
	long pid;
	unsigned long long start;

	if (identity == NULL ||
		sscanf(identity, "%63s %ld %llu", boot, &pid, &start) != 3 ||
		!boot_id(here, sizeof(here)))
		return -2;
	if (strcmp(boot, here) != 0)
		return -1;
	return start_time_of(pid) == start ? 1 : 0;
}

bool
process_gone(const char *identity)
{
	int st = identity_state(identity);

	return st == 0 || st == -1;
}

int
process_alive(const char *identity)
{
	int st = identity_state(identity);

	return st < 0 ? -1 : st;
}

/* ---------------------------------------------------------- UTF-8 */

/* Escape the bytes B[0..N) one by one: "\x1b". */
static void
visible_escape(struct strbuf *out, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, "\\x%02x", b[i]);
}

/* How long the sequence its lead byte C announces is; 0: not a lead. */
static size_t
utf8_lead_len(unsigned char c)
{
	return c < 0x80                 ? 1
		   : c >= 0xC2 && c <= 0xDF ? 2
		   : c >= 0xE0 && c <= 0xEF ? 3
		   : c >= 0xF0 && c <= 0xF4 ? 4
									: 0;
}

void
visible_add(struct visible *v, struct strbuf *out, const char *s, size_t n)
{
	unsigned char *buf = xmalloc((size_t) v->ncarry + n + 4);
	size_t len = (size_t) v->ncarry, i = 0;

	memcpy(buf, v->carry, len);
	memcpy(buf + len, s, n);
	len += n;
	memset(buf + len, 0, 4); /* utf8_seq_len() may look past a cut */
	v->ncarry = 0;
	while (i < len)
	{
		unsigned char c = buf[i];
		size_t k;

		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7F))
		{
			/* a run of plain bytes at once */
			size_t j = i + 1;

			while (j < len && (buf[j] == '\n' || buf[j] == '\t' ||
							   (buf[j] >= 0x20 && buf[j] < 0x7F)))
				j++;
			strbuf_add(out, buf + i, j - i);
			i = j;
			continue;
		}
		if (c == '\r')
		{
			if (i + 1 == len)
				break; /* CR LF cut in two: decided by the next piece */
			if (buf[i + 1] == '\n')
				strbuf_add(out, "\r\n", 2), i += 2;
			else
				strbuf_addstr(out, "\\r"), i++;
			continue;
		}
		if (c < 0x80)
		{
			visible_escape(out, &c, 1); /* C0, DEL */
			i++;
			continue;
		}
		k = utf8_lead_len(c);
		if (k > 1 && i + k > len)
		{
			/* maybe a sequence the next piece completes */
			bool so_far = true;

			for (size_t j = i + 1; j < len; j++)
				so_far = so_far && (buf[j] & 0xC0) == 0x80;
			if (so_far)
				break;
		}
		if (k == 0 || utf8_seq_len(buf + i) != k)
		{
			visible_escape(out, &c, 1);
			i++;
			continue;
		}
		if (c == 0xC2 && buf[i + 1] < 0xA0)
			strbuf_addf(out, "\\u%04x", buf[i + 1]); /* C1 */
		else
			strbuf_add(out, buf + i, k);
		i += k;
	}
	if (i < len)
	{
		v->ncarry = (int) (len - i);
		memcpy(v->carry, buf + i, len - i);
	}
	free(buf);
}

void
visible_finish(struct visible *v, struct strbuf *out)
{
	/* what waited for a next piece never had one */
	for (int i = 0; i < v->ncarry; i++)
	{
		if (v->carry[i] == '\r')
			strbuf_addstr(out, "\\r");
		else
			visible_escape(out, &v->carry[i], 1);
	}
	v->ncarry = 0;
}

size_t
utf8_seq_len(const unsigned char *p)
{
	unsigned char c = p[0];
	size_t n;
	unsigned int cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++)
	{
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	/* overlong forms, surrogates and past U+10FFFF are not UTF-8 */
	if ((n == 3 && cp < 0x800) ||
		(n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		(cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}
