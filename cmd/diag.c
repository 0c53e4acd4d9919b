/*
 * diag.c - printing errors the way pgbench and compilers do, exit codes
 * and signal handling shared by the commands.
 */
#include "cmd.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile sig_atomic_t cmd_interrupted = 0;

static void
on_signal(int sig)
{
	int saved = errno; /* whatever the interrupted call was saying */

	(void) sig;
	cmd_interrupted = 1;
	errno = saved;
}

void
cmd_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

void
cmd_progress_line(void *arg, const char *line)
{
	(void) arg;
	fprintf(stderr, "%s\n", line);
	fflush(stderr);
}

void
cmd_print_look(const struct store_look *l, double budget_s)
{
	fprintf(stderr,
			"look %d after %d block%s (%.1f %% intervals, %.0f s of %.0f s "
			"budget): %s%s%s\n  %s\n",
			l->look, l->blocks, l->blocks == 1 ? "" : "s", 100 * l->confidence,
			l->elapsed_s, budget_s, l->outcome, l->stop ? ", stop: " : "",
			l->stop ? l->stop : "", l->detail ? l->detail : "");
	fflush(stderr);
}

int
cmd_exit_code(const struct pgc_error *err)
{
	switch (err->kind)
	{
		case PGC_ERR_NONE:
			return EXIT_OK;
		case PGC_ERR_USAGE:
			return EXIT_USAGE;
		case PGC_ERR_RECIPE:
		case PGC_ERR_SQL:
		case PGC_ERR_NOT_FOUND:
			return EXIT_DATAERR;
		case PGC_ERR_UNAVAILABLE:
			return EXIT_UNAVAILABLE;
		case PGC_ERR_INTERRUPTED:
		case PGC_ERR_ABORTED:
			return EXIT_TEMPFAIL;
		case PGC_ERR_STORE:
		case PGC_ERR_IO:
		case PGC_ERR_INTERNAL:
			return EXIT_SOFTWARE;
	}
	return EXIT_SOFTWARE;
}

/* The LINE-th line (1-based) of FILE, or NULL. Caller frees. */
static char *
source_line(const char *file, int line)
{
	struct pgc_error ignored;
	size_t len = 0;
	char *text = file_read_all(file, &len, &ignored);
	char *p, *out = NULL;

	if (text == NULL)
		return NULL;
	if (strlen(text) < len && line == 1)
	{
		/* UTF-16 and other binary text: no bytes echoed to a terminal */
		free(text);
		return NULL;
	}
	p = text;
	for (int l = 1; l < line && p; l++)
	{
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (p)
		out = xstrndup(p, strcspn(p, "\n"));
	free(text);
	return out;
}

void
cmd_print_error(const struct pgc_error *err)
{
	char *src = NULL;

	if (err->file[0] && err->line > 0)
	{
		fprintf(stderr, "%s:%d:%d: error: %s", err->file, err->line, err->col,
				err->message);
		src = source_line(err->file, err->line);
	}
	else if (err->file[0])
		fprintf(stderr, "%s: error: %s", err->file, err->message);
	else
		fprintf(stderr, "pgcliff: error: %s", err->message);
	if (err->sqlstate[0])
		fprintf(stderr, " (SQLSTATE %s)", err->sqlstate);
	fputc('\n', stderr);
	if (src && err->col > 0 && (size_t) err->col <= strlen(src) + 1)
	{
		/*
		 * At most EXCERPT bytes of the line around the column (a 1 MB
		 * line is not echoed whole), cut on character boundaries, with
		 * "..." where it was cut; tabs kept so the caret lines up.
		 */
		enum
		{
			EXCERPT = 160
		};
		size_t len = strlen(src), col = (size_t) err->col - 1;
		size_t from = col > EXCERPT / 2 ? col - EXCERPT / 2 : 0;
		size_t to = from + EXCERPT < len ? from + EXCERPT : len;
		int span = err->span;

		while (from > 0 && ((unsigned char) src[from] & 0xC0) == 0x80)
			from--;
		while (to < len && ((unsigned char) src[to] & 0xC0) == 0x80)
			to++;
		if (span > (int) (to - col) + 1)
			span = (int) (to - col) + 1;
		fprintf(stderr, "    %s%.*s%s\n    %s", from ? "..." : "",
				(int) (to - from), src + from, to < len ? "..." : "",
				from ? "   " : "");
		for (size_t i = from; i < col; i++)
			fputc(src[i] == '\t' ? '\t' : ' ', stderr);
		fputc('^', stderr);
		for (int i = 1; i < span; i++)
			fputc('~', stderr);
		fputc('\n', stderr);
	}
	free(src);
	if (err->detail[0])
	{
		const char *p = err->detail;

		/* multi-line details (log tails) are indented under "detail:" */
		fprintf(stderr, "detail: ");
		for (; *p; p++)
		{
			fputc(*p, stderr);
			if (*p == '\n' && p[1])
				fputs("        ", stderr);
		}
		fputc('\n', stderr);
	}
	if (err->hint[0])
		fprintf(stderr, "hint: %s\n", err->hint);
}

int
cmd_usage_error(const struct cmd *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pgcliff %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nhint: see 'pgcliff %s --help'\n", c->name);
	return EXIT_USAGE;
}

bool
cmd_parse_count(const char *text, int max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (end == text || *end != '\0' || errno != 0 || v < 1 || v > max)
		return false;
	*out = (int) v;
	return true;
}

int
cmd_option_error(const struct cmd *c, int ch, char **argv)
{
	if (ch == ':')
		return cmd_usage_error(c, "option '%s' needs a value",
							   argv[optind - 1]);
	if (ch == '?')
		return cmd_usage_error(c, "unknown option '%s'", argv[optind - 1]);
	{
		const struct cmd_opt *o = cmd_find_opt(c, ch);

		fprintf(stderr,
				"pgcliff %s: internal error: option --%s is in the table "
				"but not handled\n",
				c->name, o ? o->name : "?");
		return EXIT_SOFTWARE;
	}
}

int
cmd_wants_help(const struct cmd *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "--") == 0)
			break;
		/* -h is pgbench's --host: help is --help, or -? as in pgbench */
		if (strcmp(argv[i], "-?") == 0 || strcmp(argv[i], "--help") == 0)
		{
			cmd_print_usage(c, stdout);
			return 1;
		}
	}
	return 0;
}

bool
cmd_parse_count_list(const char *text, int max, int **out, int *n)
{
	const char *p = text;

	*out = NULL;
	*n = 0;
	while (*p)
	{
		char *end;
		long v = strtol(p, &end, 10);

		/* "1,2," has an empty last entry: refused, not read as "1,2" */
		if (end == p || v < 1 || v > max || (*end && *end != ',') ||
			!(*p >= '0' && *p <= '9') || (*end == ',' && end[1] == '\0'))
		{
			free(*out);
			*out = NULL;
			*n = 0;
			return false;
		}
		*out = xrealloc(*out, (size_t) (*n + 1) * sizeof(int));
		(*out)[(*n)++] = (int) v;
		p = *end ? end + 1 : end;
	}
	return *n > 0;
}

bool
cmd_parse_fraction(const char *text, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno || !isfinite(v))
		return false;
	if (*end == '%' && end[1] == '\0')
		v /= 100;
	else if (*end != '\0')
		return false;
	*out = v;
	return true;
}

static bool
all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char) s[i]))
			return false;
	return true;
}

bool
cmd_parse_run_id(const char *text, int64_t *out)
{
	char *end;
	long long v;

	if (!isdigit((unsigned char) text[0]))
		return false;
	errno = 0;
	v = strtoll(text, &end, 10);
	/* past INT64_MAX strtoll says ERANGE: no run 9223372036854775807 */
	if (*end || v < 1 || errno == ERANGE)
		return false;
	*out = v;
	return true;
}

int
cmd_parse_selector(const struct cmd *c, char *text, const char *orig,
				   struct cmd_selector *sel)
{
	char *colon = strchr(text, ':');

	memset(sel, 0, sizeof(*sel));
	sel->text = orig;
	sel->block_hi = -1;
	if (all_digits(text, strlen(text)))
		return cmd_parse_run_id(text, &sel->s.run_id)
				   ? 0
				   : cmd_usage_error(c, "invalid run id \"%s\"", orig);
	if (colon && !strchr(text, '=') &&
		all_digits(text, (size_t) (colon - text)))
	{
		*colon = '\0';
		if (!cmd_parse_run_id(text, &sel->s.run_id))
			return cmd_usage_error(c, "invalid run id in \"%s\"", orig);
		sel->s.variant = colon + 1;
		if (sel->s.variant[0] == '\0')
			return cmd_usage_error(c, "empty variant in \"%s\"", orig);
		return 0;
	}
	/* a bare name: that variant in the newest run that has it */
	if (text[0] && !strpbrk(text, "= \t:"))
	{
		sel->s.variant = text;
		sel->s.last = 1;
		return 0;
	}
	for (char *tok = strtok(text, " \t"); tok; tok = strtok(NULL, " \t"))
	{
		char *eq = strchr(tok, '=');
		char *v;

		if (eq == NULL)
			return cmd_usage_error(c,
								   "invalid selector \"%s\": \"%s\" is not "
								   "KEY=VALUE",
								   orig, tok);
		*eq = '\0';
		v = eq + 1;
		if (strcmp(tok, "run") == 0)
		{
			if (!cmd_parse_run_id(v, &sel->s.run_id))
				return cmd_usage_error(c, "invalid run=%s in \"%s\"", v, orig);
		}
		else if (strcmp(tok, "recipe") == 0 && v[0])
			sel->s.recipe = v;
		else if (strcmp(tok, "variant") == 0 && v[0])
			sel->s.variant = v;
		else if (strcmp(tok, "last") == 0)
		{
			if (!cmd_parse_count(v, 1000000, &sel->s.last))
				return cmd_usage_error(c, "invalid last=%s in \"%s\"", v,
									   orig);
		}
		else if (strcmp(tok, "blocks") == 0)
		{
			int lo, hi;
			char *dash = strchr(v, '-');

			if (dash)
				*dash = '\0';
			if (!cmd_parse_count(v, 1000, &lo) ||
				!cmd_parse_count(dash ? dash + 1 : v, 1000, &hi) || hi < lo)
				return cmd_usage_error(c, "invalid blocks= in \"%s\"", orig);
			sel->block_lo = lo - 1;
			sel->block_hi = hi - 1;
		}
		else
		{
			cmd_usage_error(c, "invalid selector key \"%s=%s\" in \"%s\"", tok,
							v, orig);
			fprintf(stderr,
					"hint: keys are run, recipe, variant, last, blocks\n");
			return EXIT_USAGE;
		}
	}
	return 0;
}

int
cmd_parse_data_format(const struct cmd *c, const char *arg, const char **out)
{
	if (strcmp(arg, "text") != 0 && strcmp(arg, "json") != 0 &&
		strcmp(arg, "csv") != 0)
		return cmd_usage_error(c, "unknown format \"%s\" (text, json or csv)",
							   arg);
	*out = arg;
	return 0;
}

/* ------------------------------------------------ the terminal's filter */

struct filtered
{
	int fd;
	struct visible v;
};

static struct filtered filters[2] = {{STDOUT_FILENO, {{0}, 0}},
									 {STDERR_FILENO, {{0}, 0}}};

/*
 * The load engine's threads write too (libpq prints a server's notices to
 * stderr from the client thread that received them). glibc holds the
 * stream's lock around a cookie's write, but that lock is its own business:
 * the filters' state is guarded here, one lock for both streams, so that
 * the order of bytes on the terminal is the order they were filtered in.
 * No signal handler writes, so the lock is never taken twice by a thread.
 */
static pthread_mutex_t filters_lock = PTHREAD_MUTEX_INITIALIZER;

static int
write_all(int fd, const char *p, size_t n)
{
	while (n > 0)
	{
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t) w;
	}
	return 0;
}

static ssize_t
filtered_write(void *cookie, const char *buf, size_t size)
{
	struct filtered *f = cookie;
	struct strbuf out = STRBUF_INIT;
	int rc = 0;

	pthread_mutex_lock(&filters_lock);
	visible_add(&f->v, &out, buf, size);
	if (out.len)
		rc = write_all(f->fd, out.buf, out.len);
	pthread_mutex_unlock(&filters_lock);
	strbuf_release(&out);
	return rc < 0 ? -1 : (ssize_t) size;
}

/* At exit: what waited for a next piece that never came. */
static void
filters_finish(void)
{
	fflush(stdout);
	fflush(stderr);
	pthread_mutex_lock(&filters_lock);
	for (size_t i = 0; i < lengthof(filters); i++)
	{
		struct strbuf out = STRBUF_INIT;

		visible_finish(&filters[i].v, &out);
		if (out.len)
			(void) write_all(filters[i].fd, out.buf, out.len);
		strbuf_release(&out);
	}
	pthread_mutex_unlock(&filters_lock);
}

void
cmd_filter_output(void)
{
	static bool installed;
	cookie_io_functions_t io = {NULL, filtered_write, NULL, NULL};
	FILE *o, *e;

	if (installed)
		return;
	fflush(stdout);
	fflush(stderr);
	o = fopencookie(&filters[0], "w", io);
	e = fopencookie(&filters[1], "w", io);
	if (o == NULL || e == NULL)
	{
		/* out of memory at start: unfiltered rather than silent */
		if (o)
			fclose(o);
		if (e)
			fclose(e);
		return;
	}
	/* as the streams they replace: a terminal's stdout by line, stderr
	 * by line too, so that a message is one write */
	setvbuf(o, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	setvbuf(e, NULL, _IOLBF, BUFSIZ);
	stdout = o;
	stderr = e;
	installed = true;
	atexit(filters_finish);
}

void
cmd_term_control(const char *seq)
{
	fflush(stderr);
	(void) write_all(STDERR_FILENO, seq, strlen(seq));
}
