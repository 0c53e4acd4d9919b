/*
 * count.c - a counted point (run --count): the primary's work per
 * transaction, by callgrind (drivers/cost/cost.h explains the method).
 * The point runs twice on fresh connections, W then W + N transactions
 * per client; the backends of each run are read, and their difference
 * over the N transactions of every client is the point's cost.
 */
#include <string.h>

#include "cluster.h"
#include "run_int.h"

uint64_t
count_warm_txns(uint64_t n)
{
	return n / 10 > 0 ? n / 10 : 1;
}

/* Run LP with every workload at TXNS transactions per client and read
 * the work of the backends that served it into COUNTS. */
static int
count_run(const char *dir, const struct load_point *lp, uint64_t txns,
		  struct load_result *res, struct cost_counts *counts,
		  struct pgc_error *err)
{
	struct load_workload *wl = (struct load_workload *) lp->workloads;
	int clients = 0;

	for (int i = 0; i < lp->nworkloads; i++)
	{
		wl[i].transactions = (int64_t) txns;
		clients += wl[i].clients;
	}
	if (load_run(lp, res, err) < 0)
		return -1;
	/* the difference is per transaction only if each client ran them all */
	for (int i = 0; i < lp->nworkloads; i++)
		if (res->w[i].aborted_clients > 0 || res->w[i].failures > 0 ||
			res->w[i].txns != txns * (uint64_t) wl[i].clients)
		{
			error_set(err, PGC_ERR_ABORTED,
					  "a counted point needs every transaction of every "
					  "client: workload %s ran %" PRIu64 " of %" PRIu64
					  " (%d clients aborted, %" PRIu64 " failed)",
					  wl[i].name, res->w[i].txns,
					  txns * (uint64_t) wl[i].clients,
					  res->w[i].aborted_clients, res->w[i].failures);
			if (res->w[i].first_error[0])
				error_detail(err, "%s", res->w[i].first_error);
			return -1;
		}
	if (res->nbackend_pids != clients)
	{
		error_set(err, PGC_ERR_INTERNAL,
				  "a counted point knows %d of its %d clients' backends",
				  res->nbackend_pids, clients);
		return -1;
	}
	/* a backend writes its counts as it exits, which takes a moment */
	return cost_collect(dir, res->backend_pids, res->nbackend_pids, 120000,
						counts, err);
}

int
count_point(const struct target *t, const struct load_point *lp, uint64_t n,
			struct load_result *res, struct count_result *out,
			struct pgc_error *err)
{
	const char *dir = target_count_dir(t);
	struct load_result first;
	struct cost_counts a, b;
	uint64_t w = count_warm_txns(n), txns = 0;
	int rc = -1;

	memset(&first, 0, sizeof(first));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(res, 0, sizeof(*res));
	memset(out, 0, sizeof(*out));
	if (dir == NULL)
	{
		error_set(err, PGC_ERR_INTERNAL,
				  "a counted point on a server that "
				  "is not counted");
		return -1;
	}
	/*
	 * A connection first, so that neither run is the first to build the
	 * relation cache's init file (a new server, or after DDL in setup)
	 */
	if (target_exec(t, "SELECT 1", "counting", NULL, err) < 0)
		return -1;
	for (int i = 0; i < lp->nworkloads; i++)
		txns += n * (uint64_t) lp->workloads[i].clients;
	if (count_run(dir, lp, w, &first, &a, err) < 0 ||
		count_run(dir, lp, w + n, res, &b, err) < 0)
		goto out;
	out->fns = xcalloc(COUNT_TOP_FUNCTIONS, sizeof(*out->fns));
	out->nfns =
		cost_per_txn(&a, &b, txns, out->per, out->fns, COUNT_TOP_FUNCTIONS);
	if (out->nfns < 0)
	{
		error_set(err, PGC_ERR_INTERNAL,
				  "the count of %" PRIu64 " transactions per client was not "
				  "above that of %" PRIu64 " (%" PRIu64 " and %" PRIu64
				  " instructions)",
				  w + n, w, b.ev[COST_IR], a.ev[COST_IR]);
		goto out;
	}
	/* the names the shares point at live in B: keep them */
	for (int i = 0; i < out->nfns; i++)
	{
		out->fns[i].obj = xstrdup(out->fns[i].obj);
		out->fns[i].name = xstrdup(out->fns[i].name);
	}
	rc = 0;
out:
	if (rc < 0)
	{
		free(out->fns);
		out->fns = NULL;
		out->nfns = 0;
	}
	load_result_release(&first);
	cost_counts_release(&a);
	cost_counts_release(&b);
	return rc;
}

void
count_result_release(struct count_result *c)
{
	for (int i = 0; i < c->nfns; i++)
	{
		free((char *) c->fns[i].obj);
		free((char *) c->fns[i].name);
	}
	free(c->fns);
	memset(c, 0, sizeof(*c));
}
