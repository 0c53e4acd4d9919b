/*
 * placement.h - which CPUs the managed servers and the load driver run
 * on.  On a small machine one client's tps swings with where the
 * scheduler puts the driver and its backend (measured here: CV 11.6 %
 * placed freely, 5.0 % with the server and the driver on different
 * CPUs), so a run may pin them apart:
 *
 *   free           the scheduler decides
 *   split          the CPUs pgcliff may use, halved: the first half
 *                  (rounded up) for the servers, the rest for the driver
 *   auto           split for a point whose clients fit on the driver's
 *                  half (one client on two CPUs), free for larger ones:
 *                  measured here, split cut the A/A spread of one client
 *                  to a third and did nothing for four but halve the tps
 *   SERVER/DRIVER  two CPU lists in Linux's cpulist syntax: "0/1",
 *                  "0-3/4-7", "0,2/1,3"
 *
 * A server's processes inherit its postmaster's CPUs (placement_pin_pid()
 * moves a running one and its children); the driver's threads inherit
 * those of the thread that pins itself before creating them.  Linux only
 * (sched_setaffinity).
 */
#ifndef PGCLIFF_PLACEMENT_H
#define PGCLIFF_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base.h"

#define CPU_MASK_MAX 1024 /* CPUs 0 ... 1023, as glibc's cpu_set_t */

struct cpu_mask
{
	uint64_t bits[CPU_MASK_MAX / 64];
};

/*
 * Parse a cpulist ("0-3,8,10-11") into M.  -1 with ERR (PGC_ERR_USAGE)
 * naming the first bad character's byte offset in *BAD (may be NULL).
 */
int cpu_mask_parse(const char *text, struct cpu_mask *m, size_t *bad,
				   struct pgc_error *err);

/* M as a cpulist, "0-3,8" ("" when empty); what fits SIZE, whole entries. */
void cpu_mask_format(const struct cpu_mask *m, char *out, size_t size);

int cpu_mask_count(const struct cpu_mask *m);
bool cpu_mask_has(const struct cpu_mask *m, int cpu);
void cpu_mask_set(struct cpu_mask *m, int cpu);

enum placement_mode
{
	PLACEMENT_FREE,
	PLACEMENT_SPLIT,
	PLACEMENT_CPUS,
	PLACEMENT_AUTO
};

struct placement
{
	enum placement_mode mode;
	/* PLACEMENT_CPUS as given; after placement_resolve() what applies */
	struct cpu_mask server;
	struct cpu_mask driver;
	struct cpu_mask all; /* after placement_resolve(): what may be used */
};

/* "free", "split", "auto" or "SERVER/DRIVER".  -1 with ERR. */
int placement_parse(const char *text, struct placement *p,
					struct pgc_error *err);

/* The mode's name: "free", "split", "cpus", "auto". */
const char *placement_mode_name(enum placement_mode m);

/* The CPUs this process may run on (sched_getaffinity). */
int placement_allowed(struct cpu_mask *out, struct pgc_error *err);

/*
 * Turn P into the CPUs it means on this machine: split halves the allowed
 * CPUs (two at least); auto too, or is free with one; explicit lists must
 * name allowed CPUs only.  -1
 * with ERR (PGC_ERR_USAGE) saying which CPU is not available and which
 * are, and *SIDE (may be NULL) which list it is in: 0 the servers', 1
 * the driver's, -1 neither (split).  Free: nothing to do.
 */
int placement_resolve(struct placement *p, int *side, struct pgc_error *err);

/*
 * Whether a point of CLIENTS clients runs pinned under P (resolved): auto
 * pins one whose clients are no more than the driver's CPUs.
 */
bool placement_pins(const struct placement *p, int clients);

/*
 * Pin process PID and its children (a running postmaster and what it has
 * forked) to M.  -1 with ERR when PID itself cannot be pinned; children
 * that exit meanwhile are skipped.
 */
int placement_pin_pid(int pid, const struct cpu_mask *m,
					  struct pgc_error *err);

/*
 * Pin the calling thread (and every thread it creates from now on) to M;
 * what it had before goes into OLD (may be NULL), for placement_restore().
 */
int placement_pin_self(const struct cpu_mask *m, struct cpu_mask *old,
					   struct pgc_error *err);

/* Back to OLD (best effort: a failure leaves the thread where it is). */
void placement_restore(const struct cpu_mask *old);

/*
 * Apply M to the calling process between fork() and exec(): a raw
 * system call, async-signal-safe.  -1 (errno set) on failure.
 */
int placement_apply_in_child(const struct cpu_mask *m);

#endif
