/*
 * profile.h - CPU profiles of a server's processes while a point is
 * measured, by Linux perf (Debian's linux-perf): `perf record -e
 * cpu-clock -F HZ -a -k CLOCK_MONOTONIC` (every CPU, started and ready
 * before the load: its own start reads every process's maps), then
 * `perf report --pid PIDS --time WINDOW` for each function's share of
 * the server's samples in the window (self time).  Sampling per
 * process (`-p PIDS`, started at the window's start) is the fallback
 * where perf may not sample every CPU; it costs the servers more (8 % of
 * txid_current's tps at 99 Hz here, tests/bench/profile_cost.sh).  A binary
 * without symbols still gives its module and the address; builds from source
 * keep their symbols.  perf is a process of pgcliff's: profile_free() ends it,
 * whatever happened.
 */
#ifndef PGCLIFF_PROFILE_H
#define PGCLIFF_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base.h"

/* cpu-clock samples per second of each profiled process by default */
#define PROFILE_DEFAULT_HZ 99

/* How perf samples: every CPU, or the server's processes alone. */
enum profile_mode
{
	PROFILE_CPUS = 1,  /* -a, then the server's processes' samples */
	PROFILE_PROCESSES, /* -p PIDS: where -a is not permitted */
};

/*
 * Call graphs: none, frame pointers (cheap; needs binaries built with
 * -fno-omit-frame-pointer, or the chains stop at the leaf), or DWARF
 * unwinding of each sample's copied stack (any binary with .eh_frame, as
 * Debian's are; larger files, a slower report).  With them each function
 * also gets its inclusive share: its samples and its callees'.
 */
enum profile_callgraph
{
	PROFILE_CG_NONE = 0,
	PROFILE_CG_FP,
	PROFILE_CG_DWARF
};

/* "fp" or "dwarf" into *OUT: 0, or -1. */
int profile_callgraph_parse(const char *text, enum profile_callgraph *out);
/* "fp", "dwarf", or NULL for none. */
const char *profile_callgraph_name(enum profile_callgraph cg);

/*
 * The perf to run: $PGCLIFF_PERF, else "perf" from PATH.  Whether it can
 * sample here, and how: PROFILE_CPUS, else PROFILE_PROCESSES, or -1 with
 * WHY (e.g. "perf not found (Debian: apt-get install linux-perf)",
 * "perf_event_paranoid is 3") — checked by recording `true` for a
 * moment, as the run will.
 */
int profile_check(char *why, size_t size);

struct profile;

/*
 * Start sampling PIDS (a server's postmaster first, and its children) at
 * HZ as MODE says, with call graphs CG, into a file in DIR named after
 * NAME.  NULL with ERR.
 */
struct profile *profile_start(enum profile_mode mode,
							  enum profile_callgraph cg, const pid_t *pids,
							  int npids, int hz, const char *dir,
							  const char *name, struct pgc_error *err);

/*
 * The window begins (BEGINS) or ends.  PROFILE_CPUS: its time on perf's
 * clock, the server's processes as they are (the clients' backends), and
 * whether perf still samples (it answers a ping through its control FIFO
 * in milliseconds).  PROFILE_PROCESSES: nothing (the caller starts perf
 * at the window's start, when the processes to sample are there, and
 * stops it at its end).  -1 with ERR.
 */
int profile_window(struct profile *p, bool begins, struct pgc_error *err);

/*
 * Stop sampling (SIGINT, as perf expects) and wait until it has written.
 * Sampling every CPU, the postmaster's children alive at either edge of
 * the window or at the stop are the server's processes.
 */
int profile_stop(struct profile *p, struct pgc_error *err);

/* One function of a profile: its module, its name, its share. */
struct profile_entry
{
	char *dso;    /* "postgres", "[kernel.kallsyms]", "libc.so.6" */
	char *symbol; /* a function, or "0x..." in a module without symbols */
	double pct;   /* share of the server's samples (self), 0-100 */
	/* with call graphs: the share of the samples in it or its callees,
	 * 0-100; NAN without */
	double inclusive;
	uint64_t count; /* samples */
};

/*
 * The TOP functions with the largest share of a stopped profile, largest
 * first, into *OUT (free with profile_entries_free()), and all its
 * samples into *TOTAL; with call graphs, those among the TOP by
 * inclusive share as well (after the others).
 */
int profile_report(struct profile *p, int top, struct profile_entry **out,
				   int *n, uint64_t *total, struct pgc_error *err);

/*
 * `perf report --stdio -q -F overhead,sample,pid,dso,sym` text into
 * entries, as profile_report() reads it: perf's lines are per process
 * (with the process in the sort key perf's --pid filter is exact: without
 * it, a line such as the kernel's pvm_irq_enable gathers the samples of
 * every process and is kept or dropped whole, and a server's profile
 * counted 115 of its 264 samples, or 71 of the driver's besides, in runs
 * here), one entry per function sums them; largest share first, the
 * samples summed into *TOTAL, each share its samples over that total
 * (perf's own percentages may be of every CPU's samples).  CHILDREN: the
 * text is `--children -F overhead_children,overhead,sample,pid,dso,sym`;
 * both shares are then perf's (weighed by the samples' periods) scaled to
 * the listed entries' sum, and where an inclusive share still exceeds the
 * whole none has one.  Lines that are not entries are skipped.
 */
int profile_parse(const char *text, bool children, int top,
				  struct profile_entry **out, int *n, uint64_t *total);

void profile_entries_free(struct profile_entry *e, int n);

/* End perf if it still runs, remove its files, free P (NULL: nothing). */
void profile_free(struct profile *p);

/*
 * The live processes whose parent is PID, with PID first, into *OUT
 * (caller frees); the count.  From /proc.
 */
int profile_process_tree(pid_t pid, pid_t **out);

#endif /* PGCLIFF_PROFILE_H */
