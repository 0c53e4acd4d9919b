/*
 * wire.h - what travels between a coordinator (run --workers N) and its
 * workers (pgcliff worker) through a shared store: the documents and the
 * rules a worker applies to them.  The loops that post, claim and wait
 * are the conductor's (cmd/conductor/fleet); this module knows no store.
 *
 * The "spec" document is a point (its workloads, scripts, targets and
 * times) to be run in N shares, with the coordinator's clock against the
 * store's; a worker reads its share of it back into a load_point.  The
 * "result" document is what one share measured (counts, per-second
 * series, histograms); wire_merge() adds N of them up exactly as the
 * engine merges its threads (sums, hist_add, per-second sums on the
 * common clock) into one load_result.  The "error" document is a share's
 * failure.  Each document has its one codec here.
 *
 * Who may post work: whoever can write to the store can write a spec, so
 * a worker runs only specs signed with the secret it shares with its
 * coordinators (a key file; HMAC-SHA256 over the spec, its run's uid and
 * its plan step, refused when posted more than WIRE_SPEC_MAX_AGE_NS before
 * the worker read it), connects only to hosts it allows, and runs \shell
 * only when told (wire_share_check()).
 */
#ifndef PGCLIFF_WIRE_H
#define PGCLIFF_WIRE_H

#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "engine.h"

/* How long workers may take to be ready when a spec does not say. */
#define WIRE_READY_TIMEOUT_NS (60 * 1000000000LL)

/* ------------------------------------------------------ who may post work */

/* A key file's bytes: at least 16 (trailing CR/LF not counted), 4 kB at most.
 */
#define WIRE_KEY_MIN 16
#define WIRE_KEY_MAX 4096
/* A signature: HMAC-SHA256 in 64 lowercase hex digits. */
#define WIRE_SIGNATURE_LEN 64
/* How old a spec may be when a worker reads it, beyond its ready timeout
 * (a worker claims work within that timeout, or the point has failed). */
#define WIRE_SPEC_MAX_AGE_NS (600LL * 1000000000LL)

struct wire_key
{
	size_t len;
	unsigned char bytes[WIRE_KEY_MAX];
};

/*
 * The secret in PATH into KEY: a regular file that only its owner may
 * read or write (mode 0600 or 0400: a key others can read is refused, as
 * ssh refuses such a private key), WIRE_KEY_MIN to WIRE_KEY_MAX bytes
 * after its trailing newlines.  -1 with ERR (PGC_ERR_USAGE).
 */
int wire_key_load(const char *path, struct wire_key *key,
				  struct pgc_error *err);

/*
 * KEY's signature of SPEC as posted for plan step ORDER of the run whose
 * uid is RUN_UID: HMAC-SHA256 of "pgcliff spec 1", RUN_UID, ORDER in
 * decimal and SPEC, each followed by a NUL byte, into OUT.
 */
void wire_sign(const struct wire_key *key, const char *run_uid, int order,
			   const char *spec, char out[WIRE_SIGNATURE_LEN + 1]);

/*
 * Whether SIGNATURE is KEY's for SPEC of RUN_UID's step ORDER, compared in
 * constant time; nothing of SPEC is read.  0, or -1 with ERR
 * (PGC_ERR_UNAVAILABLE) saying which.  A signed spec is read by
 * wire_share_new(), and its age checked by wire_share_fresh().
 */
int wire_verify(const struct wire_key *key, const char *run_uid, int order,
				const char *spec, const char *signature,
				struct pgc_error *err);

/*
 * Hosts a worker may connect to: names and addresses compared whole
 * (names without regard to case), socket directories (absolute paths)
 * with whatever lies below them.
 */
struct wire_hosts
{
	const char **host;
	int n;
};

/* Whether HOST (one of a conninfo's host or hostaddr list) is in ALLOW. */
bool wire_host_allowed(const struct wire_hosts *allow, const char *host);

/* --------------------------------------------------------- the documents */

/*
 * The spec of LP for NSHARES shares (the password of every conninfo left
 * out: workers bring their own, PGPASSWORD or .pgpass), with the
 * coordinator's clock against the store's (store_clock_offset()).
 * Caller frees.
 */
char *wire_spec(const struct load_point *lp, int nshares,
				int64_t ready_timeout_ns, double clock_offset_us,
				double clock_err_us);

/* A share of a spec, as a worker runs it. */
struct wire_share;

/*
 * Share SHARE of SPEC: NULL with ERR (PGC_ERR_INTERNAL for a document
 * this pgcliff cannot read, PGC_ERR_RECIPE for a script it cannot parse).
 */
struct wire_share *wire_share_new(const char *spec, int share,
								  struct pgc_error *err);
void wire_share_free(struct wire_share *s);
/* The share's point, for load_run(); borrowed until wire_share_free(). */
struct load_point *wire_share_point(struct wire_share *s);
int wire_share_clients(const struct wire_share *s);

/* The result document of a share's load_run(); caller frees. */
char *wire_result(const struct wire_share *s, const struct load_result *res);

/*
 * Merge N result documents of a point of NWORKLOADS workloads into OUT.
 * -1 with ERR for a document this pgcliff cannot read.
 */
int wire_merge(const char *const *results, int n, int nworkloads,
			   struct load_result *out, struct pgc_error *err);

/* A failure as a share's error document; caller frees. */
char *wire_error_doc(const struct pgc_error *e);

/*
 * The error document DOC (or, not a document, its text) of share SHARE of
 * NSHARES, run by WORKER, into ERR: the worker's SQL and script errors
 * keep their kind, anything else is PGC_ERR_UNAVAILABLE.
 */
void wire_error_read(const char *doc, const char *worker, int share,
					 int nshares, struct pgc_error *err);

/* ----------------------------------------------- what a worker will run */

/*
 * Whether a worker that allows the hosts ALLOW (and \shell only when
 * ALLOW_SHELL) runs SHARE: 0, or -1 with ERR naming the first connection
 * to a host not allowed, or to a service (PGC_ERR_UNAVAILABLE: a host the
 * spec chose would get the worker's password), or the first \shell or
 * \setshell (PGC_ERR_RECIPE).  Nothing of the share has connected yet.
 */
int wire_share_check(const struct wire_share *share,
					 const struct wire_hosts *allow, bool allow_shell,
					 struct pgc_error *err);

/* The coordinator's clock against the store's, as the spec gave it. */
void wire_share_clock(const struct wire_share *s, double *offset_us,
					  double *err_us);

/*
 * Whether SHARE's spec was posted (its posted_us) no longer ago than its
 * ready timeout plus WIRE_SPEC_MAX_AGE_NS at NOW_US (wall clock,
 * microseconds), nor more than that in the future: an old spec posted
 * again is refused.  0, or -1 with ERR (PGC_ERR_UNAVAILABLE).
 */
int wire_share_fresh(const struct wire_share *share, int64_t now_us,
					 struct pgc_error *err);

/* How long the coordinator waits for every share to be ready. */
int64_t wire_share_ready_timeout_ns(const struct wire_share *s);

#endif /* PGCLIFF_WIRE_H */
