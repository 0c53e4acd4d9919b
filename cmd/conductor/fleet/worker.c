/*
 * worker.c - pgcliff worker: claim a share, refuse what is not signed or
 * not allowed, measure it from the coordinator's start instant and write
 * its result; see fleet.h.
 */
#include "fleet.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void
sleep_ns(int64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t) (ns / 1000000000);
	ts.tv_nsec = (long) (ns % 1000000000);
	nanosleep(&ts, NULL);
}

struct serve_share
{
	const struct fleet_worker_config *c;
	const struct store_work_claim *claim;
	const struct wire_share *share;
};

static void
tell(const struct fleet_worker_config *c, struct fleet_worker_info *i)
{
	if (c->on_event)
		c->on_event(c->event_arg, i);
}

/*
 * load_point.ready: report ready with the clock, then wait for the
 * coordinator's start (or its giving up), and turn its wall-clock instant
 * into this host's monotonic clock.
 */
static int
share_ready(void *arg, int64_t *start_ns, struct pgc_error *err)
{
	struct serve_share *ss = arg;
	const struct fleet_worker_config *c = ss->c;
	const struct wire_share *sh = ss->share;
	double off_us = 0, err_us = 0, coord_us, coord_err_us, against_ms,
		   against_err_ms;
	int64_t give_up;
	struct fleet_worker_info info;

	/*
	 * Both clocks are read against the store's: server = local + offset
	 * on each side, so this clock minus the coordinator's is the
	 * difference of the offsets, uncertain by the sum of their errors.
	 */
	if (store_clock_offset(c->store, &off_us, &err_us, err) < 0)
		return -1;
	wire_share_clock(sh, &coord_us, &coord_err_us);
	against_ms = (coord_us - off_us) / 1000.0;
	against_err_ms = (coord_err_us + err_us) / 1000.0;
	if (store_work_ready(c->store, ss->claim->share_id, against_ms,
						 against_err_ms, err) < 0)
		return -1;
	memset(&info, 0, sizeof(info));
	info.kind = FLEET_EV_READY;
	info.run_id = ss->claim->run_id;
	info.order = ss->claim->order;
	info.share = ss->claim->share;
	info.nshares = ss->claim->nshares;
	info.offset_ms = against_ms;
	tell(c, &info);
	/* the coordinator waits as long for the others, and then some */
	give_up = clock_now_ns() + 2 * wire_share_ready_timeout_ns(sh);
	for (;;)
	{
		char state[16];
		int64_t start_us;
		char *reason = NULL;
		bool run_gone;

		if (store_work_point(c->store, ss->claim->point_id, state, &start_us,
							 &reason, &run_gone, err) < 0)
			return -1;
		if (run_gone && strcmp(state, "open") == 0)
		{
			struct pgc_error ignored;

			free(reason);
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "the run that posted the point is gone (run %" PRId64
					  ")",
					  ss->claim->run_id);
			/* its other shares are not to be claimed either */
			(void) store_work_end(c->store, ss->claim->point_id, "failed",
								  err->message, &ignored);
			return -1;
		}
		if (strcmp(state, "started") == 0)
		{
			free(reason);
			*start_ns = clock_now_ns() + (start_us - clock_wall_us()) * 1000;
			return 0;
		}
		if (strcmp(state, "open") != 0)
		{
			error_set(err, PGC_ERR_INTERRUPTED,
					  "the coordinator gave the point up: %s",
					  reason ? reason : state);
			free(reason);
			return -1;
		}
		free(reason);
		if (c->interrupt && *c->interrupt)
		{
			error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
			return -1;
		}
		if (clock_now_ns() > give_up)
		{
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "the coordinator did not start the point");
			return -1;
		}
		sleep_ns(10 * 1000000LL);
	}
}
/* Measure one claimed share and report it; -1 only when the store fails. */
static int
serve_one(const struct fleet_worker_config *c,
		  const struct store_work_claim *claim, struct pgc_error *err)
{
	struct fleet_worker_info info;
	struct serve_share ss;
	struct wire_share *share;
	struct load_result res;
	struct pgc_error perr;
	char *doc;
	int rc;

	memset(&info, 0, sizeof(info));
	info.run_id = claim->run_id;
	info.order = claim->order;
	info.share = claim->share;
	info.nshares = claim->nshares;
	error_clear(&perr);
	memset(&res, 0, sizeof(res));
	/* nothing of a spec is read before its signature is checked */
	share = wire_verify(c->key, claim->run_uid, claim->order, claim->spec,
						claim->signature, &perr) < 0
				? NULL
				: wire_share_new(claim->spec, claim->share, &perr);
	if (share &&
		(wire_share_fresh(share, clock_wall_us(), &perr) < 0 ||
		 wire_share_check(share, &c->allow, c->allow_shell, &perr) < 0))
	{
		wire_share_free(share);
		share = NULL;
	}
	if (share)
	{
		struct load_point *lp = wire_share_point(share);

		info.kind = FLEET_EV_CLAIMED;
		info.clients = wire_share_clients(share);
		tell(c, &info);
		ss.c = c;
		ss.claim = claim;
		ss.share = share;
		lp->ready = share_ready;
		lp->ready_arg = &ss;
		lp->interrupt = c->interrupt;
		if (load_run(lp, &res, &perr) == 0)
		{
			bool taken;

			doc = wire_result(share, &res);
			rc = store_work_finish(c->store, claim->share_id, doc, NULL,
								   &taken, err);
			free(doc);
			for (int i = 0; i < res.nworkloads; i++)
				info.txns += res.w[i].txns;
			load_result_release(&res);
			wire_share_free(share);
			if (rc == 0 && !taken)
			{
				error_set(&perr, PGC_ERR_UNAVAILABLE,
						  "the point ended before this share's result came: "
						  "not counted");
				info.kind = FLEET_EV_FAILED;
				info.err = &perr;
				tell(c, &info);
			}
			else if (rc == 0)
			{
				info.kind = FLEET_EV_DONE;
				tell(c, &info);
			}
			return rc;
		}
		load_result_release(&res);
		wire_share_free(share);
	}
	doc = wire_error_doc(&perr);
	rc = store_work_finish(c->store, claim->share_id, NULL, doc, NULL, err);
	free(doc);
	info.kind = FLEET_EV_FAILED;
	info.err = &perr;
	tell(c, &info);
	if (rc == 0 && perr.kind == PGC_ERR_INTERRUPTED && c->interrupt &&
		*c->interrupt)
	{
		*err = perr;
		return -1;
	}
	return rc;
}

/*
 * The store's session was cut (ERR says how): open a new one every
 * second, for as long as the worker waits for work.  0 when it is back;
 * -1 with ERR when it did not come back in time or on an interrupt.
 */
static int
store_back(const struct fleet_worker_config *c, struct pgc_error *err)
{
	struct fleet_worker_info info;
	int64_t lost = clock_now_ns();
	struct pgc_error last = *err;

	memset(&info, 0, sizeof(info));
	info.kind = FLEET_EV_STORE_LOST;
	info.err = &last;
	tell(c, &info);
	for (;;)
	{
		for (int k = 0; k < 10; k++)
		{
			if (c->interrupt && *c->interrupt)
			{
				error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
				return -1;
			}
			sleep_ns(100 * 1000000LL);
		}
		error_clear(&last);
		if (store_reconnect(c->store, &last) == 0)
			break;
		if (c->idle_ns > 0 && clock_now_ns() - lost > c->idle_ns)
		{
			*err = last;
			error_detail(err, "the store's session was cut %.0f s ago",
						 (double) (clock_now_ns() - lost) / 1e9);
			return -1;
		}
	}
	info.kind = FLEET_EV_STORE_BACK;
	info.waited_s = (double) (clock_now_ns() - lost) / 1e9;
	tell(c, &info);
	return 0;
}

/*
 * A share whose claim went with the store's session: whatever was
 * measured, the coordinator may have failed the point already (it saw
 * the claim's lock free), so the share is written failed.
 */
static int
share_lost(const struct fleet_worker_config *c,
		   const struct store_work_claim *claim, struct pgc_error *err)
{
	struct fleet_worker_info info;
	struct pgc_error perr;
	char *doc;
	int rc;

	error_set(&perr, PGC_ERR_STORE,
			  "the worker's store session was cut during the share, and "
			  "its claim with it: the share is not counted");
	doc = wire_error_doc(&perr);
	rc = store_work_finish(c->store, claim->share_id, NULL, doc, NULL, err);
	free(doc);
	memset(&info, 0, sizeof(info));
	info.kind = FLEET_EV_FAILED;
	info.run_id = claim->run_id;
	info.order = claim->order;
	info.share = claim->share;
	info.nshares = claim->nshares;
	info.err = &perr;
	tell(c, &info);
	return rc;
}

/* The store failed with ERR: 0 when it was a cut and it is back. */
static bool
recovered(const struct fleet_worker_config *c, struct pgc_error *err)
{
	if (!store_lost(c->store) || err->kind == PGC_ERR_INTERRUPTED)
		return false;
	return store_back(c, err) == 0;
}

int
fleet_serve(const struct fleet_worker_config *c, int *shares,
			struct pgc_error *err)
{
	int64_t poll = c->poll_ns > 0 ? c->poll_ns : 200 * 1000000LL;
	int64_t idle_since = clock_now_ns();

	*shares = 0;
	if (c->key == NULL)
	{
		error_set(err, PGC_ERR_USAGE,
				  "a worker runs only signed work: it needs a --key-file");
		return -1;
	}
	if (!store_can_coordinate(c->store))
	{
		error_set(err, PGC_ERR_USAGE,
				  "a worker needs a PostgreSQL store, not %s",
				  store_name(c->store));
		error_hint(err, "give the coordinator's --db postgresql://...");
		return -1;
	}
	for (;;)
	{
		struct store_work_claim claim;
		int got;

		if (c->interrupt && *c->interrupt)
		{
			error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
			return -1;
		}
		got = store_work_claim(c->store, c->name, &claim, err);
		if (got < 0)
		{
			if (!recovered(c, err))
				return -1;
			error_clear(err);
			idle_since = clock_now_ns();
			continue;
		}
		if (got == 0)
		{
			if (c->idle_ns > 0 && clock_now_ns() - idle_since > c->idle_ns)
				return 0;
			sleep_ns(poll);
			continue;
		}
		got = serve_one(c, &claim, err);
		if (got < 0 && recovered(c, err))
		{
			error_clear(err);
			got = share_lost(c, &claim, err);
		}
		store_work_claim_release(&claim);
		if (got < 0)
			return -1;
		(*shares)++;
		idle_since = clock_now_ns();
		if (c->max_shares > 0 && *shares >= c->max_shares)
			return 0;
	}
}
