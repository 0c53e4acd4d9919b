/*
 * dist.h - points whose clients are spread over several drivers: a
 * coordinator (run --workers N) and worker processes (pgcliff worker) on
 * this host or others, which meet in a shared PostgreSQL store.
 *
 * For each point the coordinator posts the point (its workloads, scripts,
 * targets and times: the "spec" document, owned here) in N shares; each
 * worker claims one share with FOR UPDATE SKIP LOCKED, connects its share
 * of every workload's clients, measures its clock against the store's and
 * reports ready.  When all are ready and their clocks agree with the
 * coordinator's within a bound, the coordinator names a start instant on
 * its own wall clock, every worker starts its load then, and each writes
 * its result (counts, per-second series, histograms: the "result"
 * document, owned here too); the coordinator merges them exactly as the
 * engine merges its threads (sums, hist_add, per-second sums on the common
 * clock) into one load_result that is stored like any point.  A worker that
 * dies, fails, or does not report in time fails the point with the reason.
 *
 * Who may post work: whoever can write to the store can write a spec, so
 * a worker runs only specs signed with the secret it shares with its
 * coordinators (--key-file; HMAC-SHA256 over the spec, its run's uid and
 * its plan step, refused when posted more than DIST_SPEC_MAX_AGE_NS before
 * the worker read it), connects only to hosts it allows (--allow-host, and
 * its store's host), and runs \shell only when told (--allow-shell).
 *
 * Not for starting workers (the user's ssh, Kubernetes or systemd does),
 * nor for anything a point does not measure (init, setup, servers).
 */
#ifndef PGCLIFF_DIST_H
#define PGCLIFF_DIST_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "engine.h"
#include "store.h"

/* Defaults: how long workers may take to be ready, and the clock bound. */
#define DIST_READY_TIMEOUT_NS (60 * 1000000000LL)
#define DIST_MAX_OFFSET_MS    20.0
/* How long after the window's end a worker's result may take. */
#define DIST_RESULT_GRACE_NS (30 * 1000000000LL)

/* ------------------------------------------------------ who may post work */

/* A key file's bytes: at least 16 (trailing CR/LF not counted), 4 kB at most.
 */
#define DIST_KEY_MIN 16
#define DIST_KEY_MAX 4096
/* A signature: HMAC-SHA256 in 64 lowercase hex digits. */
#define DIST_SIGNATURE_LEN 64
/* How old a spec may be when a worker reads it, beyond its ready timeout
 * (a worker claims work within that timeout, or the point has failed). */
#define DIST_SPEC_MAX_AGE_NS (600LL * 1000000000LL)

struct dist_key
{
	size_t len;
	unsigned char bytes[DIST_KEY_MAX];
};

/*
 * The secret in PATH into KEY: a regular file that only its owner may
 * read or write (mode 0600 or 0400: a key others can read is refused, as
 * ssh refuses such a private key), DIST_KEY_MIN to DIST_KEY_MAX bytes
 * after its trailing newlines.  -1 with ERR (PGC_ERR_USAGE).
 */
int dist_key_load(const char *path, struct dist_key *key,
				  struct pgc_error *err);

/*
 * KEY's signature of SPEC as posted for plan step ORDER of the run whose
 * uid is RUN_UID: HMAC-SHA256 of "pgcliff spec 1", RUN_UID, ORDER in
 * decimal and SPEC, each followed by a NUL byte, into OUT.
 */
void dist_sign(const struct dist_key *key, const char *run_uid, int order,
			   const char *spec, char out[DIST_SIGNATURE_LEN + 1]);

/*
 * Whether SIGNATURE is KEY's for SPEC of RUN_UID's step ORDER (compared in
 * constant time), and the spec's posting time (its posted_us) no older
 * than its ready timeout plus DIST_SPEC_MAX_AGE_NS at NOW_US (wall clock,
 * microseconds), nor more than that in the future.  0, or -1 with ERR
 * (PGC_ERR_UNAVAILABLE) saying which.
 */
int dist_verify(const struct dist_key *key, const char *run_uid, int order,
				const char *spec, const char *signature, int64_t now_us,
				struct pgc_error *err);

/*
 * Hosts a worker may connect to: names and addresses compared whole
 * (names without regard to case), socket directories (absolute paths)
 * with whatever lies below them.
 */
struct dist_hosts
{
	const char **host;
	int n;
};

/* Whether HOST (one of a conninfo's host or hostaddr list) is in ALLOW. */
bool dist_host_allowed(const struct dist_hosts *allow, const char *host);

/* What the coordinator tells its caller (borrowed until it returns). */
struct dist_note
{
	const char *text;
};

struct dist_config
{
	struct store *store; /* a PostgreSQL store, open for writing */
	int64_t run_id;
	const char *run_uid;        /* the run's uid, signed with each spec */
	const struct dist_key *key; /* what the specs are signed with */
	int64_t ready_timeout_ns;   /* 0: DIST_READY_TIMEOUT_NS */
	double max_offset_ms;       /* 0: DIST_MAX_OFFSET_MS */
	volatile sig_atomic_t *interrupt;
	void (*on_note)(void *arg, const struct dist_note *n);
	void *note_arg;
	int workers; /* shares per point */
};

/*
 * Run point LP (plan step ORDER) on the configured workers and merge
 * their results into OUT as load_run() fills it (release it with
 * load_result_release()).  0, or -1 with ERR: PGC_ERR_UNAVAILABLE for a
 * worker that failed, died, did not report or whose clock is off (the
 * point's work is stored failed with the reason), PGC_ERR_INTERRUPTED,
 * PGC_ERR_STORE; a worker's own SQL or recipe error keeps its kind.
 * LP's progress, logs, window edges and stable warm-up are not used.
 */
int dist_run(const struct dist_config *c, const struct load_point *lp,
			 int order, struct load_result *out, struct pgc_error *err);

/* What a worker tells its caller, from the calling thread. */
enum dist_worker_event
{
	DIST_EV_CLAIMED, /* share SHARE of NSHARES of RUN_ID's step ORDER */
	DIST_EV_READY,   /* connected; OFFSET_MS: this clock minus the run's */
	DIST_EV_DONE,    /* result written: TXNS transactions */
	DIST_EV_FAILED   /* the share failed: ERR */
};

struct dist_worker_info
{
	enum dist_worker_event kind;
	int64_t run_id;
	int order;
	int share;
	int nshares;
	int clients;
	double offset_ms;
	uint64_t txns;
	const struct pgc_error *err;
};

struct dist_worker_config
{
	struct store *store; /* a PostgreSQL store, open for writing */
	const char *name;    /* how the store names this worker */
	int64_t idle_ns; /* return after this long with nothing to do; 0 never */
	int64_t poll_ns; /* how often to look for work; 0: 200 ms */
	volatile sig_atomic_t *interrupt;
	void (*on_event)(void *arg, const struct dist_worker_info *i);
	void *event_arg;
	int max_shares; /* return after this many shares; 0: no limit */
	/* a spec not signed with this key is refused, nothing of it runs */
	const struct dist_key *key;
	/* a share whose connections name another host is refused before it
	 * connects anywhere (a host the spec chose would get the worker's
	 * password); the caller lists the store's host among them */
	struct dist_hosts allow;
	/*
	 * Run the scripts' \shell and \setshell.  Off, a share whose scripts
	 * have one fails with the reason and nothing of it runs: whoever may
	 * write to the store writes the scripts.
	 */
	bool allow_shell;
};

/*
 * Serve: claim shares and measure them until idle, max_shares or an
 * interrupt.  A share that fails is reported failed and serving goes on;
 * -1 with ERR only when the store fails (or, PGC_ERR_INTERRUPTED, on an
 * interrupt).  *SHARES counts the shares measured.
 */
int dist_serve(const struct dist_worker_config *c, int *shares,
			   struct pgc_error *err);

/* ------------------------------------------------ the documents, for tests */

/*
 * The spec of LP for NSHARES shares (the password of every conninfo left
 * out: workers bring their own, PGPASSWORD or .pgpass), with the
 * coordinator's clock against the store's (store_clock_offset()).
 * Caller frees.
 */
char *dist_spec(const struct load_point *lp, int nshares,
				int64_t ready_timeout_ns, double clock_offset_us,
				double clock_err_us);

/* A share of a spec, as a worker runs it. */
struct dist_share;

/*
 * Share SHARE of SPEC: NULL with ERR (PGC_ERR_INTERNAL for a document
 * this pgcliff cannot read, PGC_ERR_RECIPE for a script it cannot parse).
 */
struct dist_share *dist_share_new(const char *spec, int share,
								  struct pgc_error *err);
void dist_share_free(struct dist_share *s);
/* The share's point, for load_run(); borrowed until dist_share_free(). */
struct load_point *dist_share_point(struct dist_share *s);
int dist_share_clients(const struct dist_share *s);

/* The result document of a share's load_run(); caller frees. */
char *dist_result(const struct dist_share *s, const struct load_result *res);

/*
 * Merge N result documents of a point of NWORKLOADS workloads into OUT.
 * -1 with ERR for a document this pgcliff cannot read.
 */
int dist_merge(const char *const *results, int n, int nworkloads,
			   struct load_result *out, struct pgc_error *err);

#endif /* PGCLIFF_DIST_H */
