/*
 * base.h - the foundation every pgcliff module shares: one error struct,
 * a growable string buffer, aborting allocators and a monotonic clock.
 *
 * Depends only on libc.  Nothing here prints or exits, except the
 * allocators, which abort on out-of-memory (there is nothing sane to do).
 */
#ifndef PGCLIFF_BASE_H
#define PGCLIFF_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PGCLIFF_VERSION "0.1.0"

#if defined(__GNUC__)
#define PGC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define PGC_NORETURN     __attribute__((noreturn))
#else
#define PGC_PRINTF(f, a)
#define PGC_NORETURN
#endif

#define lengthof(a) (sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------------
 * Errors
 *
 * One struct for the whole tool.  Libraries fill a caller-provided
 * struct pgc_error and return -1 (or NULL); only cmd/ turns it into text
 * and an exit code.  All strings live inside the struct (fixed buffers,
 * truncated if longer) so an error can be copied and never needs freeing.
 * ------------------------------------------------------------------- */
enum pgc_error_kind
{
	PGC_ERR_NONE = 0,
	PGC_ERR_USAGE,       /* bad command line */
	PGC_ERR_RECIPE,      /* invalid recipe or script (file:line:col) */
	PGC_ERR_SQL,         /* the server rejected the recipe's SQL */
	PGC_ERR_UNAVAILABLE, /* server/cluster could not be started/reached */
	PGC_ERR_STORE,       /* the SQLite store failed */
	PGC_ERR_IO,          /* file system or OS failure */
	PGC_ERR_INTERRUPTED, /* SIGINT/SIGTERM arrived */
	PGC_ERR_ABORTED,     /* the run went on without some clients */
	PGC_ERR_INTERNAL,    /* a bug */
	PGC_ERR_NOT_FOUND    /* no such store, run, variant or points */
};

struct pgc_error
{
	enum pgc_error_kind kind;
	char file[1024];   /* "" when the error has no place */
	int line;          /* 1-based; 0 = none */
	int col;           /* 1-based; 0 = none */
	int span;          /* length of the offending token, >= 1 */
	char sqlstate[6];  /* "" unless from PostgreSQL */
	char message[512]; /* lowercase, no final period */
	char detail[2048];
	char hint[512];
};

/* Reset to "no error". */
void error_clear(struct pgc_error *err);

/* Set kind and message; clears the place, SQLSTATE, detail and hint. */
void error_set(struct pgc_error *err, enum pgc_error_kind kind,
			   const char *fmt, ...) PGC_PRINTF(3, 4);

/* Attach a place (1-based line and column) in FILE to the error. */
void error_at(struct pgc_error *err, const char *file, int line, int col,
			  int span);
void error_detail(struct pgc_error *err, const char *fmt, ...)
	PGC_PRINTF(2, 3);
void error_hint(struct pgc_error *err, const char *fmt, ...) PGC_PRINTF(2, 3);

/* ---------------------------------------------------------------------
 * Allocation: abort with a message on failure, never return NULL.
 * ------------------------------------------------------------------- */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) PGC_PRINTF(1, 2);

/* ---------------------------------------------------------------------
 * String buffer (git's strbuf): always NUL-terminated.
 * ------------------------------------------------------------------- */
struct strbuf
{
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT                                                           \
	{                                                                         \
		NULL, 0, 0                                                            \
	}

void strbuf_init(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
/* Detach the buffer: the caller frees the result; sb is reinitialized. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) PGC_PRINTF(2, 3);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	PGC_PRINTF(2, 0);

/*
 * Length of the valid UTF-8 sequence (RFC 3629) at P: 1 to 4, or 0 when
 * the bytes there are not one (overlong, surrogate, past U+10FFFF, cut).
 */
size_t utf8_seq_len(const unsigned char *p);

/*
 * Text as a terminal may show it without being driven by it: the one
 * escaping for the terminal medium.  Control characters (C0 but tab and
 * newline, DEL, and the C1 range U+0080..U+009F, which some terminals obey
 * in UTF-8) and bytes that are not UTF-8 are appended as "\x1b"-style
 * escapes; a carriage return stays only as part of CR LF.  Streaming: a
 * sequence cut at the end of one piece is completed by the next, so the
 * state carries up to 4 bytes between calls; visible_finish() escapes
 * what is left.  Zero a struct visible to begin.
 */
struct visible
{
	unsigned char carry[4];
	int ncarry;
};
void visible_add(struct visible *v, struct strbuf *out, const char *s,
				 size_t n);
void visible_finish(struct visible *v, struct strbuf *out);

/* ---------------------------------------------------------------------
 * Time
 * ------------------------------------------------------------------- */
/* Monotonic clock in nanoseconds (vDSO: no system call). */
int64_t clock_now_ns(void);
/* Wall clock in microseconds since the epoch (CLOCK_REALTIME). */
int64_t clock_wall_us(void);
/* Wall clock as "YYYY-MM-DD HH:MM:SS" UTC into buf (>= 20 bytes). */
void clock_wall_utc(char *buf, size_t size);

/*
 * The machine's CPU time so far, from the "cpu" line of /proc/stat (in
 * its ticks): all of it, and what the hypervisor gave to others while a
 * vCPU wanted to run (steal).  On a shared host steal is noise no design
 * can take out of a measurement; a window's share of it says how much.
 */
struct cpu_times
{
	uint64_t total;
	uint64_t steal;
};

/* Parse a /proc/stat text; false when it has no "cpu " line. */
bool cpu_times_parse(const char *text, struct cpu_times *out);
/* Read /proc/stat; false where it cannot be read (not Linux). */
bool cpu_times_read(struct cpu_times *out);
/* The fewest ticks of CPU time (all CPUs) a steal share is read over: one
 * tick is then at most 1 % of it. */
#define CPU_STEAL_MIN_TICKS 100
/* Steal over [A, B] as a percentage of the CPU time; -1 when unknown,
 * including an interval shorter than CPU_STEAL_MIN_TICKS. */
double cpu_steal_pct(const struct cpu_times *a, const struct cpu_times *b);

/* ---------------------------------------------------------------------
 * PRNG: PostgreSQL's pg_prng (xoroshiro128** seeded through splitmix64),
 * so pgbench's random() sequences can be reproduced; also what the
 * statistics use for seeded bootstraps.  Not thread-safe: one per user.
 * ------------------------------------------------------------------- */
struct prng
{
	uint64_t s0, s1;
};

void prng_seed(struct prng *p, uint64_t seed);
uint64_t prng_next(struct prng *p);
/* Uniform in [lo, hi] (pg_prng_uint64_range); 0 offset when hi <= lo. */
uint64_t prng_range(struct prng *p, uint64_t lo, uint64_t hi);
/* Uniform in [0, 1) with 53 random bits (pg_prng_double). */
double prng_double(struct prng *p);

/* ---------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------- */
/* Damerau-free Levenshtein distance, for "did you mean" hints. */
int edit_distance(const char *a, const char *b);

/*
 * Of CANDIDATES (NULL-terminated), the nearest to WORD if it is close
 * enough to be a plausible typo, else NULL.  Borrowed from candidates.
 */
const char *nearest_word(const char *word, const char *const *candidates);

/*
 * The first password in TEXT at or after byte FROM, as libpq would read
 * one: a conninfo's "password = VALUE" (quoted or not), a URI's
 * "scheme://user:PASSWORD@host", or a URI's "?password=VALUE".  Sets
 * *OFF and *LEN to the value's bytes; false when there is none.  Plain
 * text, no libpq: it errs on the side of finding one.
 */
bool conninfo_find_password(const char *text, size_t from, size_t *off,
							size_t *len);

/* Overwrite every password in TEXT (conninfo_find_password()) with 'x'. */
void conninfo_mask_passwords(char *text);

/* Whether S is a C identifier: a letter or _, then letters, digits, _. */
bool is_c_identifier(const char *s);

/*
 * Read a whole regular file; caller frees.  NULL and err filled on failure
 * (also for devices and FIFOs, which could be read forever).
 */
char *file_read_all(const char *path, size_t *len_out, struct pgc_error *err);

/* Remove a directory tree (like rm -rf).  0 on success. */
int dir_remove_tree(const char *path);

/* mkdir -p PATH; the directories it makes get MODE.  -1 with ERR. */
int dir_make_all(const char *path, mode_t mode, struct pgc_error *err);

/* Copy the file FROM to TO (which must not exist), created with MODE. */
int file_copy(const char *from, const char *to, mode_t mode,
			  struct pgc_error *err);

/* Where a child's standard streams go. */
struct process_io
{
	int in;  /* stdin, or -1: /dev/null */
	int out; /* stdout, or -1: ERR */
	int err; /* stderr */
};

/*
 * Start ARGV (found in PATH) in CWD (NULL: here), in a process group of
 * its own, killed when pgcliff dies (PR_SET_PDEATHSIG), umask 022.
 * Returns the pid, or -1 with ERR.
 */
pid_t process_spawn(char *const *argv, const char *cwd,
					const struct process_io *io, struct pgc_error *err);

/*
 * Write LEN bytes of DATA to PATH, replacing it whole or not at all: a
 * file beside it, synced, then renamed over PATH.  A failure leaves PATH
 * as it was and no temporary file.
 */
int file_write_replace(const char *path, const char *data, size_t len,
					   mode_t mode, struct pgc_error *err);

/*
 * Processes that outlive their records: the identity of the calling
 * process, "BOOT_ID PID START" (the kernel's boot id, and the process's
 * start time in clock ticks since boot, so that a reused pid or a reboot
 * is not taken for it), into OUT; "" when /proc cannot say.
 */
void process_identity(char *out, size_t size);

/*
 * Whether the process of IDENTITY (process_identity()) is alive: 1 alive,
 * 0 provably gone (this boot, and its pid is free or someone else's), -1
 * unknown (another boot or machine, or no identity).
 */
int process_alive(const char *identity);

/*
 * Whether the process of IDENTITY is provably gone from this machine:
 * this boot and not alive, or an earlier boot.  Only for records that
 * cannot come from another machine (files in this machine's $TMPDIR):
 * the boot id tells boots apart, not machines.
 */
bool process_gone(const char *identity);

/*
 * Fault injection for the tests (tests/integration/it_faults.sh): when
 * $PGCLIFF_INJECT is "PREFIX" or "PREFIX@K" and PREFIX begins POINT, the
 * process stops itself (SIGSTOP) the Kth time (default: first) such a
 * point is reached, so that a test can send a signal at exactly that
 * point and then let it go on (SIGCONT).  The
 * points: "connect" (a client is connected, the others are connecting),
 * "window" (half a second into the first measured window), "store-write"
 * (a point's rows written, not committed), "build:STEP" (before each step
 * of pgcliff build, e.g. "build:configure", "build:make install").
 */
void inject_point(const char *point);

#endif /* PGCLIFF_BASE_H */
