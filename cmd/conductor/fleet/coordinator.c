/*
 * coordinator.c - run --workers: post a point's signed spec, wait for its
 * shares to be ready, start them at one instant and merge their results;
 * see fleet.h.
 */
#include "fleet.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POLL_NS (50 * 1000000LL)

static void
sleep_ns(int64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t) (ns / 1000000000);
	ts.tv_nsec = (long) (ns % 1000000000);
	nanosleep(&ts, NULL);
}

static void note(const struct fleet_config *c, const char *fmt, ...)
	PGC_PRINTF(2, 3);

static void
note(const struct fleet_config *c, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	struct fleet_note n;
	va_list ap;

	if (c->on_note == NULL)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	n.text = sb.buf;
	c->on_note(c->note_arg, &n);
	strbuf_release(&sb);
}

/*
 * Why the point cannot go on, from the shares as they stand: a failed
 * share, or a worker gone.  True with ERR filled.
 */
static bool
shares_broken(const struct store_work_share *sh, int n, struct pgc_error *err)
{
	for (int i = 0; i < n; i++)
	{
		if (strcmp(sh[i].state, "failed") == 0)
		{
			wire_error_read(sh[i].error, sh[i].worker, sh[i].share, n, err);
			return true;
		}
		if (sh[i].gone)
		{
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "worker %s (share %d of %d) is gone: its store session "
					  "ended before it reported its result",
					  sh[i].worker ? sh[i].worker : "?", sh[i].share + 1, n);
			error_hint(err, "the worker was killed or lost the store; its "
							"output or its host's log says which");
			return true;
		}
	}
	return false;
}

static int
count_state(const struct store_work_share *sh, int n, const char *state)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += strcmp(sh[i].state, state) == 0;
	return k;
}

/* Wait until every share is in STATE (or ends), polling; -1 with ERR. */
static int
wait_shares(const struct fleet_config *c, int64_t point_id, const char *state,
			int64_t deadline_ns, struct store_work_share **sh, int *n,
			struct pgc_error *err)
{
	for (;;)
	{
		if (store_work_shares(c->store, point_id, sh, n, err) < 0)
			return -1;
		if (shares_broken(*sh, *n, err))
			return -1;
		if (count_state(*sh, *n, state) == *n)
			return 0;
		if (c->interrupt && *c->interrupt)
		{
			error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
			return -1;
		}
		if (deadline_ns > 0 && clock_now_ns() > deadline_ns)
			return 1; /* the caller says what was missing */
		store_work_shares_free(*sh, *n);
		*sh = NULL;
		*n = 0;
		sleep_ns(POLL_NS);
	}
}

static void
missing_ready(const struct store_work_share *sh, int n, double waited_s,
			  const char *store_name, struct pgc_error *err)
{
	int open = count_state(sh, n, "open");
	struct strbuf who = STRBUF_INIT;

	for (int i = 0; i < n; i++)
		if (strcmp(sh[i].state, "claimed") == 0)
			strbuf_addf(&who, "%s%s", who.len ? ", " : "", sh[i].worker);
	error_set(err, PGC_ERR_UNAVAILABLE,
			  "only %d of %d workers were ready after %.0f s",
			  count_state(sh, n, "ready"), n, waited_s);
	if (open > 0)
		error_detail(err, "%d share%s never claimed%s%s", open,
					 open == 1 ? " was" : "s were",
					 who.len ? "; connecting: " : "", who.len ? who.buf : "");
	else
		error_detail(err, "still connecting: %s", who.buf);
	error_hint(err,
			   "start `pgcliff worker --db %s --key-file FILE` (the "
			   "run's key) on each client host, one per share, or raise "
			   "--worker-timeout",
			   store_name);
	strbuf_release(&who);
}

/* The clocks: every worker's against the coordinator's, within the bound. */
static int
check_clocks(const struct fleet_config *c, const struct store_work_share *sh,
			 int n, struct pgc_error *err)
{
	double bound =
		c->max_offset_ms > 0 ? c->max_offset_ms : FLEET_MAX_OFFSET_MS;
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++)
	{
		double off = sh[i].offset_ms;
		double unc = sh[i].offset_err_ms;

		strbuf_addf(&sb, "%s%s %+.2f ms (±%.2f)", i ? ", " : "", sh[i].worker,
					off, unc);
		if (off > bound || off < -bound)
		{
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "worker %s's clock is %+.1f ms off the coordinator's "
					  "(bound %.1f ms)",
					  sh[i].worker, off, bound);
			error_detail(err, "measured through the store's clock, ±%.2f ms",
						 unc);
			error_hint(err, "synchronise the hosts' clocks (chrony, NTP), or "
							"raise --max-clock-offset");
			strbuf_release(&sb);
			return -1;
		}
	}
	note(c, "workers ready, clocks against the coordinator's: %s", sb.buf);
	strbuf_release(&sb);
	return 0;
}

int
fleet_run(const struct fleet_config *c, const struct load_point *lp, int order,
		  struct load_result *out, struct pgc_error *err)
{
	int64_t ready_ns =
		c->ready_timeout_ns > 0 ? c->ready_timeout_ns : WIRE_READY_TIMEOUT_NS;
	struct store_work_share *sh = NULL;
	const char **docs = NULL;
	struct pgc_error endless;
	double my_off = 0, my_err = 0;
	int64_t point_id, posted, start_us, end_ns;
	char *spec, sig[WIRE_SIGNATURE_LEN + 1];
	bool txmode = true;
	int n = 0, rc;

	memset(out, 0, sizeof(*out));
	if (c->key == NULL || c->run_uid == NULL)
	{
		error_set(err, PGC_ERR_USAGE,
				  "workers run only signed work: --workers needs a "
				  "--key-file");
		return -1;
	}
	for (int i = 0; i < lp->nworkloads; i++)
		if (lp->workloads[i].transactions <= 0)
			txmode = false;
	if (store_clock_offset(c->store, &my_off, &my_err, err) < 0)
		return -1;
	spec = wire_spec(lp, c->workers, ready_ns, my_off, my_err);
	wire_sign(c->key, c->run_uid, order, spec, sig);
	point_id = store_work_post(c->store, c->run_id, order, spec, sig,
							   c->workers, err);
	free(spec);
	if (point_id < 0)
		return -1;
	posted = clock_now_ns();
	note(c, "waiting for %d worker%s", c->workers, c->workers == 1 ? "" : "s");
	rc = wait_shares(c, point_id, "ready", posted + ready_ns, &sh, &n, err);
	if (rc > 0)
		missing_ready(sh, n, (double) ready_ns / 1e9, store_name(c->store),
					  err);
	if (rc != 0 || check_clocks(c, sh, n, err) < 0)
		goto fail;
	store_work_shares_free(sh, n);
	sh = NULL;
	/* far enough ahead for every worker to read it at its 10 ms polls */
	start_us = clock_wall_us() + 300000;
	if (store_work_start(c->store, point_id, start_us, err) < 0)
		goto fail;
	end_ns = txmode ? 0
					: clock_now_ns() + (start_us - clock_wall_us()) * 1000 +
						  lp->warmup_ns + lp->duration_ns +
						  FLEET_RESULT_GRACE_NS + lp->duration_ns / 10;
	rc = wait_shares(c, point_id, "done", end_ns, &sh, &n, err);
	if (rc > 0)
	{
		int k = 0;

		while (k < n && strcmp(sh[k].state, "done") == 0)
			k++;
		error_set(err, PGC_ERR_UNAVAILABLE,
				  "worker %s (share %d of %d) did not report its result "
				  "within %.0f s of the window's end",
				  k < n ? sh[k].worker : "?", k + 1, n,
				  (double) FLEET_RESULT_GRACE_NS / 1e9 +
					  (double) lp->duration_ns / 1e10);
		goto fail;
	}
	if (rc < 0)
		goto fail;
	docs = xcalloc((size_t) n, sizeof(char *));
	for (int i = 0; i < n; i++)
		docs[i] = sh[i].result;
	if (wire_merge(docs, n, lp->nworkloads, out, err) < 0)
		goto fail;
	free(docs);
	store_work_shares_free(sh, n);
	return store_work_end(c->store, point_id, "done", NULL, err);
fail:
	free(docs);
	store_work_shares_free(sh, n);
	/* the workers waiting to start read this and give up */
	error_clear(&endless);
	(void) store_work_end(c->store, point_id, "failed", err->message,
						  &endless);
	return -1;
}
