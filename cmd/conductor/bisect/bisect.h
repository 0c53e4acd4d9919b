/*
 * bisect.h - the first commit between a good and a bad revision of a git
 * checkout that makes a recipe's figure worse.
 *
 * Every step is a run of the recipe with two variants built from the
 * checkout: "good" (the good commit) and the commit under test, built
 * over good's tree so that make recompiles only what differs.  The run
 * adds blocks until the gate's three-way verdict is decided (the
 * sequential rule of run --until-decided, within the step's budget); a
 * step that stays INCONCLUSIVE ends the bisect as undecided with the
 * range it narrowed the search to, never with a guess.  The bad commit
 * is measured first: when it is not a regression there is nothing to
 * look for.  The bisect and each step (its commit, run and verdict) are
 * stored.
 *
 * Never prints: what happens arrives through the run's events and the
 * bisect's own (struct bisect_event).
 */
#ifndef PGCLIFF_BISECT_H
#define PGCLIFF_BISECT_H

#include <stdint.h>

#include "run.h"

enum bisect_event_kind
{
	BISECT_EV_RANGE,      /* commits, the first to measure */
	BISECT_EV_STEP_BEGIN, /* step, revision, subject, lo/hi */
	BISECT_EV_STEP_END    /* ... with run_id, outcome, detail */
};

struct bisect_event
{
	enum bisect_event_kind kind;
	int commits;          /* after good up to bad */
	int step;             /* 1-based */
	int steps_left;       /* at most, after this one */
	const char *revision; /* 40 hex digits */
	const char *subject;
	const char *variant; /* the commit's variant in the step's run */
	int64_t run_id;
	enum cmp_outcome outcome;
	const char *detail; /* the last look's verdicts */
	double seconds;     /* the step's, build included */
};

struct bisect_config
{
	/*
	 * The runs' configuration: recipe, options, events.  Each step sets
	 * its variants, source and until.on; the recipe may have no variants
	 * of its own.
	 */
	struct run_config run;
	const char *source; /* the git checkout */
	const char *good;
	const char *bad;
	const char *command_line;
	const char *logs_dir; /* run_set_logs_dir(), or NULL */
	void (*on_event)(void *arg, const struct bisect_event *ev);
	void *event_arg;
};

enum bisect_status
{
	BISECT_FOUND,         /* FIRST_BAD is the first regressed commit */
	BISECT_NO_REGRESSION, /* the bad commit is no regression of good */
	BISECT_UNDECIDED      /* a step stayed inconclusive: in (LO, HI] */
};

struct bisect_result
{
	int64_t bisect_id;
	char good[41];
	char first_bad[41]; /* FOUND */
	char lo[41];        /* UNDECIDED: the last commit known good ... */
	char hi[41];        /* ... and the first known bad (empty: none) */
	char *subject;      /* FOUND: the first bad commit's */
	char *evidence;     /* FOUND: the look that showed it bad */
	char *variant;      /* FOUND: its variant in EVIDENCE_RUN */
	int64_t evidence_run;
	double seconds;
	int commits;
	int steps;
	enum bisect_status status;
};

/*
 * Bisect, storing into STORE (open for writing).  0 with OUT filled (free
 * with bisect_result_free()), or -1 with ERR: a usage error (revisions,
 * a recipe with variants), or a step's run that failed or was
 * interrupted (the bisect is stored as failed or interrupted).
 */
int bisect_execute(const struct bisect_config *c, struct store *store,
				   struct bisect_result *out, struct pgc_error *err);
void bisect_result_free(struct bisect_result *r);

#endif /* PGCLIFF_BISECT_H */
