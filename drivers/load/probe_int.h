/*
 * probe_int.h - the recipe's probes (load_probe) as the sampler runs them:
 * one query per probe and node each second, counters turned into changes
 * over the second.  Private to drivers/load; used by point.c's sampler.
 */
#ifndef PGCLIFF_PROBE_INT_H
#define PGCLIFF_PROBE_INT_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "engine.h"

/* What one probe saw last on one node: its columns and their values. */
struct probe_last
{
	int ncols;
	char **names;
	double *values;
	bool *valid;
};

/* The probes of a point, and what each saw last on each node. */
struct probe_set
{
	const struct load_probe *probes;
	int nprobes;
	int nnodes;
	struct probe_last *last; /* [node * nprobes + probe] */
};

void probe_set_init(struct probe_set *ps, const struct load_probe *probes,
					int nprobes, int nnodes);
void probe_set_release(struct probe_set *ps);

/*
 * Run the probes that target NODE (index NODE_IDX) on CONN.  Returns the
 * sample's JSON (caller frees), or NULL when no probe targets the node.
 * Counters are told as their change since the last call for this node;
 * the first call after probe_set_forget() has none to tell.
 */
char *probe_sample(struct probe_set *ps, PGconn *conn,
				   const struct load_node *node, int node_idx);

/*
 * PQexec(CONN, SQL), once more when a hot standby cancelled it for a
 * recovery conflict (SQLSTATE 40001 there): the conflict was the replay
 * of one record, and a new snapshot taken after it does not conflict.  A
 * sampler must not lose the very seconds in which a standby cancels its
 * queries.
 */
PGresult *sampler_exec(PGconn *conn, const char *sql);

/* The node's connection was lost: no counter change spans the gap. */
void probe_set_forget(struct probe_set *ps, int node_idx);

#endif /* PGCLIFF_PROBE_INT_H */
