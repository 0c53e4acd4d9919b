/*
 * points.h - the metric a comparison or a history reads off a stored
 * point (p95 from the stored histogram, the others from their columns).
 */
#ifndef PGCLIFF_POINTS_H
#define PGCLIFF_POINTS_H

#include "compare.h"
#include "store.h"

/* The metric of a stored point, in tps or ms; NAN when it has none. */
double point_metric(const struct store_point_row *p, enum cmp_metric m);

#endif /* PGCLIFF_POINTS_H */
