/*
 * cluster_int.h - private to drivers/cluster: what cluster.c and
 * target.c share beyond the public cluster.h.
 */
#ifndef PGCLIFF_CLUSTER_INT_H
#define PGCLIFF_CLUSTER_INT_H

#include "cluster.h"

/*
 * The one value of a one-row query SQL, on a connection of its own to
 * the server of KW/VAL (WHAT names it in errors: "primary"); a NULL
 * value is "".  Caller frees.  NULL with ERR (PGC_ERR_UNAVAILABLE).
 */
char *cluster_query_one(const char *const *kw, const char *const *val,
						const char *sql, const char *what,
						struct pgc_error *err);

#endif /* PGCLIFF_CLUSTER_INT_H */
