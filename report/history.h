/*
 * history.h - change points in a series of stored runs, E-divisive style
 * (Matteson and James, 2014): the split that maximises the energy
 * distance between the two sides, kept when a permutation test with a
 * fixed seed says it is unlikely under no change and the medians of the
 * two sides differ by at least a minimum magnitude; then the same on each
 * side, recursively.  For triage: which run did a series move at.
 */
#ifndef PGCLIFF_HISTORY_H
#define PGCLIFF_HISTORY_H

#include <stdint.h>

#include "base.h"
#include "compare.h"
#include "store.h"

struct history_opts
{
	int min_segment;   /* values on each side of a change, >= 2 */
	double min_change; /* |after/before - 1| of the medians, e.g. 0.05 */
	double alpha;      /* significance of the permutation test, e.g. 0.05 */
	int permutations;  /* e.g. 199 */
	uint64_t seed;
};

struct history_change
{
	int index;     /* first value of the new segment */
	double before; /* median of the segment before it */
	double after;  /* median of the segment from it to the next change */
	double p;      /* permutation p-value when it was found */
};

/*
 * Change points of X[0..N-1] in order of index; at most MAX are written
 * to OUT.  Returns how many were found.
 */
int history_change_points(const double *x, int n,
						  const struct history_opts *opts,
						  struct history_change *out, int max);

/* ------------------------------------------------------------ render */

#define HISTORY_MAX_CHANGES 64

/* One series: a variant's workload at a client count, one value per run. */
struct history_series
{
	const char *variant;
	const char *workload;
	int clients;
	int64_t *runs;
	const char **started; /* when each run started, "YYYY-MM-DD HH:MM:SS" */
	double *values;
	int n;
	struct history_change changes[HISTORY_MAX_CHANGES];
	int nchanges;
};

/* FORMAT: text, Markdown, JSON (version 1) or JUnit XML. */
void history_render(struct strbuf *out, enum cmp_format format,
					const char *recipe, enum cmp_metric metric,
					const struct history_opts *opts,
					const struct history_series *series, int nseries);

/*
 * Group stored points (by run, in run order) into series: one per
 * variant, workload and client count, one value per run (the median of
 * metric M over its repeats; points with aborted clients and without the
 * metric left out).  WORKLOAD and POINTS (NPOINTS client counts) filter
 * when given.  The series borrow strings from ROWS; sorted by variant,
 * workload, clients.  *NOUT series; caller frees each runs and values and
 * the array.
 */
struct history_series *history_group_points(const struct store_point_row *rows,
											int nrows, enum cmp_metric m,
											const char *workload,
											const int *points, int npoints,
											int *nout);

#endif /* PGCLIFF_HISTORY_H */
