/*
 * cost.h - the work a server's backends do, counted by Valgrind's
 * callgrind: instructions executed and simulated cache misses, in all and
 * per function.  Counts are work, not time: what waits (locks, I/O, the
 * network, the scheduler) is invisible to them, and the same instructions
 * can take different times.  What they give instead is repeatability:
 * the same binary on the same input counts the same within a few parts
 * in a hundred thousand, whatever else the machine does.
 *
 * How a point is counted (run.c does the steps, this module the parts):
 *  - the postmaster runs under callgrind (cost_valgrind_argv()); every
 *    process it forks is counted apart, into OUT_DIR/cg.PID, written when
 *    the process exits;
 *  - a client backend zeroes its counts when it enters PostgresMain, so
 *    what it inherited from the postmaster (and its fork) never counts;
 *  - the point runs twice on fresh connections, W transactions per client
 *    and then W + N: the difference of the two, over N, is the cost of a
 *    warm transaction.  A connection's start, its first W (cold caches,
 *    plans) and its exit are in both and cancel out.
 *
 * Library code: never prints, never exits.
 */
#ifndef PGCLIFF_COST_H
#define PGCLIFF_COST_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base.h"

/* The events a count reads (callgrind's names in brackets). */
enum cost_event
{
	COST_IR = 0, /* instructions executed [Ir] */
	COST_L1,     /* simulated first-level misses [I1mr + D1mr + D1mw] */
	COST_LL,     /* simulated last-level misses [ILmr + DLmr + DLmw] */
	COST_NEVENTS
};

/* One function's self cost (not its callees'). */
struct cost_fn
{
	char *obj;  /* the object file, "/usr/lib/.../postgres" */
	char *name; /* the function, "GetSnapshotData" */
	uint64_t ev[COST_NEVENTS];
};

/* A function's part of a transaction's cost (cost_per_txn()). */
struct cost_fn_share
{
	const char *obj; /* borrowed from the counts it came from */
	const char *name;
	double ir;    /* self instructions per transaction */
	double share; /* of all the transaction's instructions, 0..1 */
};

/* What processes counted: totals and functions (unordered). */
struct cost_counts
{
	uint64_t ev[COST_NEVENTS];
	struct cost_fn *fns;
	int nfns;
	int capfns;
	int nprocs; /* files read into it */
};

/*
 * The argv prefix that runs a server under callgrind writing into
 * OUT_DIR (which must exist and be writable by the server's OS user):
 * VALGRIND (NULL: "valgrind" on the PATH) and its options, the server's
 * program and arguments to follow.  Writes at most MAX entries into ARGV
 * (strings in BUF, BUFSIZE bytes) and returns how many, or -1 when they
 * do not fit.
 */
int cost_valgrind_argv(const char *valgrind, const char *out_dir,
					   const char **argv, int max, char *buf, size_t bufsize);

/*
 * Find valgrind (the PATH, then /usr/bin) and check that it runs and has
 * callgrind: its version into VERSION ("valgrind-3.19.0").  -1 with ERR
 * (PGC_ERR_UNAVAILABLE) naming what is missing.
 */
int cost_find_valgrind(char *path, size_t pathsize, char *version,
					   size_t versionsize, struct pgc_error *err);

/*
 * Add the counts of one callgrind output file into OUT: its totals and
 * each function's self cost (merged by object and name).  -1 with ERR
 * (PGC_ERR_IO, or PGC_ERR_DATA with the file's line when it does not
 * parse).
 */
int cost_read_file(const char *path, struct cost_counts *out,
				   struct pgc_error *err);

/*
 * The counts of processes PIDS: wait (up to TIMEOUT_MS in all) until each
 * has exited and its OUT_DIR/cg.PID is complete, read them into OUT, and
 * remove the files.  -1 with ERR when one never came (PGC_ERR_UNAVAILABLE)
 * or did not parse.
 */
int cost_collect(const char *out_dir, const pid_t *pids, int npids,
				 int timeout_ms, struct cost_counts *out,
				 struct pgc_error *err);

/*
 * Per transaction: (AFTER - BEFORE) / TXNS into PER (COST_NEVENTS), and
 * the functions' differences into FNS (self instructions per transaction,
 * largest first, at most MAXFNS; names borrowed from AFTER).  Returns the
 * count of FNS, or -1 when AFTER counted fewer instructions than BEFORE
 * (the counts did not come from the same work).
 */
int cost_per_txn(const struct cost_counts *before,
				 const struct cost_counts *after, uint64_t txns, double *per,
				 struct cost_fn_share *fns, int maxfns);

void cost_counts_release(struct cost_counts *c);

#endif /* PGCLIFF_COST_H */
