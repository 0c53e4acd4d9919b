/*
 * fleet.h - points whose clients are spread over several drivers: a
 * coordinator (run --workers N) and worker processes (pgcliff worker) on
 * this host or others, which meet in a shared PostgreSQL store.
 *
 * For each point the coordinator posts the point's spec (drivers/wire)
 * signed, in N shares; each worker claims one share with FOR UPDATE SKIP
 * LOCKED, checks its signature and what it would run and connect to,
 * connects its share of every workload's clients, measures its clock
 * against the store's and reports ready.  When all are ready and their
 * clocks agree with the coordinator's within a bound, the coordinator
 * names a start instant on its own wall clock, every worker starts its
 * load then, and each writes its result document; the coordinator merges
 * them (wire_merge()) into one load_result that is stored like any point.
 * A worker that dies, fails, or does not report in time fails the point
 * with the reason.
 *
 * Not for starting workers (the user's ssh, Kubernetes or systemd does),
 * nor for anything a point does not measure (init, setup, servers).
 */
#ifndef PGCLIFF_FLEET_H
#define PGCLIFF_FLEET_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "engine.h"
#include "store.h"
#include "wire.h"

/* The bound on the workers' clocks against the coordinator's. */
#define FLEET_MAX_OFFSET_MS 20.0
/* How long after the window's end a worker's result may take. */
#define FLEET_RESULT_GRACE_NS (30 * 1000000000LL)

/* What the coordinator tells its caller (borrowed until it returns). */
struct fleet_note
{
	const char *text;
};

struct fleet_config
{
	struct store *store; /* a PostgreSQL store, open for writing */
	int64_t run_id;
	const char *run_uid;        /* the run's uid, signed with each spec */
	const struct wire_key *key; /* what the specs are signed with */
	int64_t ready_timeout_ns;   /* 0: WIRE_READY_TIMEOUT_NS */
	double max_offset_ms;       /* 0: FLEET_MAX_OFFSET_MS */
	volatile sig_atomic_t *interrupt;
	void (*on_note)(void *arg, const struct fleet_note *n);
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
int fleet_run(const struct fleet_config *c, const struct load_point *lp,
			  int order, struct load_result *out, struct pgc_error *err);

/* What a worker tells its caller, from the calling thread. */
enum fleet_worker_event
{
	FLEET_EV_CLAIMED,    /* share SHARE of NSHARES of RUN_ID's step ORDER */
	FLEET_EV_READY,      /* connected; OFFSET_MS: this clock minus the run's */
	FLEET_EV_DONE,       /* result written: TXNS transactions */
	FLEET_EV_FAILED,     /* the share failed: ERR */
	FLEET_EV_STORE_LOST, /* the store's session is gone (ERR): waiting */
	FLEET_EV_STORE_BACK  /* and a new one opened after WAITED_S */
};

struct fleet_worker_info
{
	enum fleet_worker_event kind;
	int64_t run_id;
	int order;
	int share;
	int nshares;
	int clients;
	double offset_ms;
	uint64_t txns;
	double waited_s;
	const struct pgc_error *err;
};

struct fleet_worker_config
{
	struct store *store; /* a PostgreSQL store, open for writing */
	const char *name;    /* how the store names this worker */
	int64_t idle_ns; /* return after this long with nothing to do; 0 never */
	int64_t poll_ns; /* how often to look for work; 0: 200 ms */
	volatile sig_atomic_t *interrupt;
	void (*on_event)(void *arg, const struct fleet_worker_info *i);
	void *event_arg;
	int max_shares; /* return after this many shares; 0: no limit */
	/* a spec not signed with this key is refused, nothing of it runs */
	const struct wire_key *key;
	/* a share whose connections name another host is refused before it
	 * connects anywhere (a host the spec chose would get the worker's
	 * password); the caller lists the store's host among them */
	struct wire_hosts allow;
	/*
	 * Run the scripts' \shell and \setshell.  Off, a share whose scripts
	 * have one fails with the reason and nothing of it runs: whoever may
	 * write to the store writes the scripts.
	 */
	bool allow_shell;
};

/*
 * Serve: claim shares and measure them until idle, max_shares or an
 * interrupt.  A share that fails is reported failed and serving goes on.
 * When the store's session is cut, the worker opens a new one every
 * second for as long as it would wait for work (IDLE_NS; forever at 0);
 * a share it held then has lost its claim, and the coordinator may have
 * failed the point already: it is written failed, its result never
 * counted.  -1 with ERR when the store fails otherwise or does not come
 * back (or, PGC_ERR_INTERRUPTED, on an interrupt).  *SHARES counts the
 * shares measured.
 */
int fleet_serve(const struct fleet_worker_config *c, int *shares,
				struct pgc_error *err);

#endif /* PGCLIFF_FLEET_H */
