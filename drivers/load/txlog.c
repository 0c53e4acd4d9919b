/*
 * txlog.c - -l: pgbench's per-transaction and aggregated logs; see engine.h
 * and engine_int.h.
 */
#include "engine_int.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "cluster.h"
#include "probe_int.h"

/* ------------------------------------------------------------ -l logs */

static void
txlog_reset(struct txlog *l, int64_t start_us)
{
	FILE *f = l->f;
	int64_t shift = l->shift_ns;
	struct prng sample = l->sample;

	memset(l, 0, sizeof(*l));
	l->f = f;
	l->shift_ns = shift;
	l->sample = sample;
	l->start_us = start_us;
}

/* Open thread T's log (pgbench's threadRun()); false with the point failed. */
bool
txlog_open(struct thread *t)
{
	const struct load_point *p = t->e->p;
	int tid = (int) (t - t->e->threads);
	char path[4200];
	struct timespec ts;

	if (p->log_prefix == NULL)
		return true;
	if (tid == 0)
		snprintf(path, sizeof(path), "%s", p->log_prefix);
	else
		snprintf(path, sizeof(path), "%s.%d", p->log_prefix, tid);
	if ((t->log.f = fopen(path, "w")) == NULL)
	{
		struct pgc_error err;

		error_set(&err, PGC_ERR_IO, "could not open log file \"%s\": %s", path,
				  strerror(errno));
		engine_fail(t->e, &err);
		return false;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	t->log.shift_ns =
		(int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec - clock_now_ns();
	prng_seed(&t->log.sample, p->log_seed + (uint64_t) tid);
	/* intervals from the whole second the window starts in, as pgbench
	 * measures them from the whole second its thread starts in */
	txlog_reset(&t->log, (t->e->window_start_ns + t->log.shift_ns) /
							 1000000000 * 1000000);
	return true;
}

void
txlog_close(struct thread *t)
{
	if (t->log.f)
		fclose(t->log.f);
	t->log.f = NULL;
}

static void
stat_add(double v, uint64_t n, double *sum, double *sum2, double *min,
		 double *max)
{
	if (n == 0 || v < *min)
		*min = v;
	if (n == 0 || v > *max)
		*max = v;
	*sum += v;
	*sum2 += v * v;
}

/*
 * pgbench's doLog() for one transaction of client C ending at NOW (or
 * skipped under a rate): KIND 0 done, 1 failed, 2 skipped.
 */
void
txlog_add(struct thread *t, struct client *c, int64_t now, int kind)
{
	const struct load_point *p = t->e->p;
	struct txlog *l = &t->log;
	int64_t epoch_us = (now + l->shift_ns) / 1000;
	int max_tries = t->w->policy ? t->w->policy->max_tries : 1;
	/* whole microseconds, as pgbench's pg_time_usec_t */
	int64_t lat_us = (now - c->txn_start_ns) / 1000;
	int64_t lag_us = c->txn_lag_ns / 1000;
	double lat = (double) lat_us, lag = (double) lag_us;

	if (p->sampling_rate > 0 && prng_double(&l->sample) > p->sampling_rate)
		return;
	if (p->agg_interval_s > 0)
	{
		int64_t step = (int64_t) p->agg_interval_s * 1000000;

		/* every interval that ended before now, empty ones too */
		while (l->start_us + step <= epoch_us)
		{
			fprintf(l->f,
					"%" PRId64 " %" PRIu64 " %.0f %.0f %.0f %.0f %.0f %.0f "
					"%.0f %.0f %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
					" %" PRIu64 "\n",
					l->start_us / 1000000, l->cnt, l->lat_sum, l->lat_sum2,
					l->lat_min, l->lat_max, l->lag_sum, l->lag_sum2,
					l->lag_min, l->lag_max, l->skipped, l->retried, l->retries,
					p->failures_detailed ? l->ser : 0,
					p->failures_detailed ? l->dl : 0);
			txlog_reset(l, l->start_us + step);
		}
		if (kind == 2)
		{
			l->skipped++;
			return;
		}
		if (c->tries > 1)
		{
			l->retried++;
			l->retries += (uint64_t) (c->tries - 1);
		}
		if (kind == 1)
		{
			l->ser += c->fail_kind == 1;
			l->dl += c->fail_kind == 2;
			return;
		}
		stat_add(lat, l->cnt, &l->lat_sum, &l->lat_sum2, &l->lat_min,
				 &l->lat_max);
		if (t->w->rate > 0)
			stat_add(lag, l->cnt, &l->lag_sum, &l->lag_sum2, &l->lag_min,
					 &l->lag_max);
		l->cnt++;
		return;
	}
	if (kind == 0)
		fprintf(l->f, "%d %" PRId64 " %.0f %d %" PRId64 " %" PRId64, c->id,
				c->ntx + 1, lat, c->si, epoch_us / 1000000,
				epoch_us % 1000000);
	else
		fprintf(l->f, "%d %" PRId64 " %s %d %" PRId64 " %" PRId64, c->id,
				c->ntx + 1,
				kind == 2               ? "skipped"
				: !p->failures_detailed ? "failed"
				: c->fail_kind == 1     ? "serialization"
				: c->fail_kind == 2     ? "deadlock"
										: "failed",
				c->si, epoch_us / 1000000, epoch_us % 1000000);
	if (t->w->rate > 0)
		fprintf(l->f, " %.0f", lag);
	if (max_tries != 1)
		fprintf(l->f, " %d", c->tries - 1);
	fputc('\n', l->f);
}
