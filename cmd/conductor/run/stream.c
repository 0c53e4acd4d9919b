/*
 * stream.c - a point's seconds streamed to the store as its window runs
 * (load_point.sink): each second's series rows and the servers' samples
 * are written a block of STREAM_BLOCK_S seconds at a time, so a long
 * window's memory stays flat; the series is staged until the point is
 * stored (store_series_stage()).  See run_int.h.
 */
#include "run_int.h"

#include <stdlib.h>
#include <string.h>

/* Seconds written to the store together */
#define STREAM_BLOCK_S 10

static void
free_samples(struct point_stream *ps)
{
	for (int i = 0; i < ps->nsamples; i++)
	{
		struct store_sample_row *sr = &ps->samples[i];

		free((char *) sr->conflicts);
		free((char *) sr->waits);
		free((char *) sr->error);
		free((char *) sr->probes);
	}
	ps->nsamples = 0;
}

/*
 * Write what is buffered: the series rows staged, then the samples, each
 * all or none (what went in is not written again).  PATIENT: wait for a
 * lock held elsewhere (the window is over); else fail at once and keep
 * the rows for a later try, so that the window's clock (its samples and
 * edges) never waits on another process.  0, or -1 with ERR.
 */
static int
flush(struct point_stream *ps, bool patient, struct pgc_error *err)
{
	struct store *st = ps->r->store;
	int rc = 0;

	store_set_patient(st, patient);
	if (ps->nrows > 0)
	{
		rc = store_series_stage(st, ps->r->run_id, ps->order, ps->names,
								ps->nw, ps->rows, ps->nrows, err);
		if (rc == 0)
		{
			for (int i = 0; i < ps->nrows * ps->nw; i++)
				free((char *) ps->rows[i].failures_by_class);
			ps->nrows = 0;
		}
	}
	if (rc == 0 && ps->nsamples > 0)
	{
		rc = store_samples_add(st, ps->r->run_id, ps->order, ps->samples,
							   ps->nsamples, err);
		if (rc == 0)
			free_samples(ps);
	}
	store_set_patient(st, true);
	return rc;
}

static void
on_second(void *arg, const struct load_second *ls)
{
	struct point_stream *ps = arg;
	struct pgc_error ignored;

	if (ps->nrows == ps->cap)
	{
		ps->cap = ps->cap ? 2 * ps->cap : STREAM_BLOCK_S;
		ps->rows =
			xrealloc(ps->rows, (size_t) ps->cap * ps->nw * sizeof(*ps->rows));
	}
	for (int wi = 0; wi < ps->nw; wi++)
	{
		const struct load_second_wl *w = &ls->w[wi];
		struct store_series_row *row = &ps->rows[ps->nrows * ps->nw + wi];

		row->second = ls->second;
		row->transactions = w->txns;
		row->failures = w->failures;
		row->lat_avg_ms = w->txns ? w->lat_sum_ns / (double) w->txns / 1e6 : 0;
		row->lat_max_ms = (double) w->lat_max_ns / 1e6;
		row->failures_by_class = errors_json(w->errors, w->nerrors, -1);
	}
	ps->nrows++;
	for (int i = 0; i < ls->nsamples; i++)
	{
		struct store_sample_row *sr;
		char *confl;

		if (ps->nsamples == ps->scap)
		{
			ps->scap = ps->scap ? 2 * ps->scap : 4 * STREAM_BLOCK_S;
			ps->samples = xrealloc(ps->samples,
								   (size_t) ps->scap * sizeof(*ps->samples));
		}
		sr = &ps->samples[ps->nsamples++];
		sample_row(ps->lp, &ls->samples[i], sr, &confl);
		/* the row's strings are the engine's until this returns */
		sr->conflicts = confl;
		sr->waits = sr->waits ? xstrdup(sr->waits) : NULL;
		sr->error = sr->error ? xstrdup(sr->error) : NULL;
		sr->probes = sr->probes ? xstrdup(sr->probes) : NULL;
	}
	/* a block; when the store was busy, tried again a block later */
	if (++ps->since_try >= STREAM_BLOCK_S)
	{
		ps->since_try = 0;
		(void) flush(ps, false, &ignored);
	}
}

void
stream_begin(struct point_stream *ps, struct run *r, struct load_point *lp,
			 int order)
{
	memset(ps, 0, sizeof(*ps));
	ps->r = r;
	ps->lp = lp;
	ps->order = order;
	ps->nw = lp->nworkloads;
	ps->names = xcalloc((size_t) ps->nw + 1, sizeof(char *));
	for (int i = 0; i < ps->nw; i++)
		ps->names[i] = lp->workloads[i].name;
	lp->sink = on_second;
	lp->sink_arg = ps;
}

int
stream_end(struct point_stream *ps, bool keep, struct pgc_error *err)
{
	struct pgc_error ignored;
	int rc = 0;

	if (ps->r == NULL)
		return 0;
	if (keep)
		rc = flush(ps, true, err);
	else
	{
		/* the samples of a point that failed are kept; its series not */
		(void) store_samples_add(ps->r->store, ps->r->run_id, ps->order,
								 ps->samples, ps->nsamples, &ignored);
		(void) store_series_unstage(ps->r->store, ps->r->run_id, ps->order,
									&ignored);
	}
	for (int i = 0; i < ps->nrows * ps->nw; i++)
		free((char *) ps->rows[i].failures_by_class);
	free_samples(ps);
	free(ps->names);
	free(ps->rows);
	free(ps->samples);
	memset(ps, 0, sizeof(*ps));
	return rc;
}
