/*
 * seconds.c - the window's seconds told as they pass: from the calling
 * thread, the threads' rings (struct sec_slot) and error lists and the
 * sampler's rows are taken a second at a time and given to the point's
 * sink, or kept in the result when there is none (load_point.sink).
 *
 * A thread counts second S in slot S % SEC_RING, and the reader tells S
 * once the clock is a second past its end (SEC_TELL_AFTER_NS), taking
 * the slot's growth since it last looked.  A thread that records into a
 * second already told (it ran late by more than that) leaves growth in
 * a slot behind the reader: each second told also takes what the
 * SEC_RING / 2 slots behind it gained since, so nothing is lost and the
 * seconds sum to the totals.  The slots ahead (the thread is a second or
 * two in front of the reader) are left alone.  The window's last second
 * is told only once the threads are joined, with whatever came late.
 */
#include "engine_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* How long after its end a second is told */
#define SEC_TELL_AFTER_NS 1000000000LL

/* What the reader has taken of one slot of one thread. */
struct sec_seen
{
	uint64_t txns;
	uint64_t failures;
	uint64_t lat_sum_ns;
	uint64_t lat_max_ns; /* of the second last told from the slot */
	int64_t second;      /* that second */
};

struct sec_reader
{
	struct sec_seen *seen; /* nthreads × SEC_RING */
	struct load_second_wl *w;
	struct load_error_second **errs; /* the second's, per workload */
	int *nerrs;
	int *errs_cap;
	int next; /* the next second to tell */
};

struct sec_reader *
seconds_open(const struct engine *e)
{
	struct sec_reader *r = xcalloc(1, sizeof(*r));
	int nw = e->p->nworkloads;

	r->seen =
		xcalloc((size_t) e->nthreads * SEC_RING + 1, sizeof(struct sec_seen));
	for (int i = 0; i < e->nthreads * SEC_RING; i++)
		r->seen[i].second = -1;
	r->w = xcalloc((size_t) nw + 1, sizeof(*r->w));
	r->errs = xcalloc((size_t) nw + 1, sizeof(struct load_error_second *));
	r->nerrs = xcalloc((size_t) nw + 1, sizeof(int));
	r->errs_cap = xcalloc((size_t) nw + 1, sizeof(int));
	return r;
}

void
seconds_close(struct sec_reader *r, const struct engine *e)
{
	if (r == NULL)
		return;
	for (int i = 0; i < e->p->nworkloads; i++)
		free(r->errs[i]);
	free(r->errs);
	free(r->nerrs);
	free(r->errs_cap);
	free(r->w);
	free(r->seen);
	free(r);
}

static uint64_t
grown(_Atomic uint64_t *v, uint64_t *seen)
{
	uint64_t now = atomic_load_explicit(v, memory_order_relaxed);
	uint64_t d = now - *seen;

	*seen = now;
	return d;
}

/* Take slot K of thread T (its index TI) into W as second S's counts. */
static void
take_slot(struct sec_reader *r, struct thread *t, int ti, int k, int64_t s,
		  struct load_second_wl *w)
{
	struct sec_slot *sl = &t->ring[k];
	struct sec_seen *seen = &r->seen[ti * SEC_RING + k];
	int64_t max_sec = atomic_load_explicit(&sl->max_sec, memory_order_relaxed);
	uint64_t max = atomic_load_explicit(&sl->lat_max_ns, memory_order_relaxed);

	w->txns += grown(&sl->txns, &seen->txns);
	w->failures += grown(&sl->failures, &seen->failures);
	w->lat_sum_ns += (double) grown(&sl->lat_sum_ns, &seen->lat_sum_ns);
	if (s >= 0)
	{
		/* the slot's own second: its largest latency */
		seen->second = s;
		seen->lat_max_ns = max_sec == s ? max : 0;
		if (seen->lat_max_ns > w->lat_max_ns)
			w->lat_max_ns = seen->lat_max_ns;
	}
	else if (max_sec == seen->second && max > seen->lat_max_ns)
	{
		/* a late transaction, slower than that second's largest */
		seen->lat_max_ns = max;
		if (max > w->lat_max_ns)
			w->lat_max_ns = max;
	}
}

/* Move thread T's errors of seconds up to S into the reader's W-th list. */
static void
take_errors(struct sec_reader *r, struct thread *t, int wi, int64_t s)
{
	int kept = 0;

	pthread_mutex_lock(&t->errs_mu);
	for (int i = 0; i < t->nerrs; i++)
	{
		struct load_error_second *te = &t->errs[i];
		int k;

		if (te->second > s)
		{
			t->errs[kept++] = *te;
			continue;
		}
		for (k = 0; k < r->nerrs[wi]; k++)
			if (strcmp(r->errs[wi][k].sqlclass, te->sqlclass) == 0)
				break;
		if (k == r->nerrs[wi])
		{
			if (r->nerrs[wi] == r->errs_cap[wi])
			{
				r->errs_cap[wi] = r->errs_cap[wi] ? 2 * r->errs_cap[wi] : 4;
				r->errs[wi] = xrealloc(r->errs[wi], (size_t) r->errs_cap[wi] *
														sizeof(*r->errs[wi]));
			}
			r->errs[wi][k] = *te;
			r->errs[wi][k].second = (int) s;
			r->errs[wi][k].count = 0;
			r->nerrs[wi]++;
		}
		r->errs[wi][k].count += te->count;
	}
	t->nerrs = kept;
	pthread_mutex_unlock(&t->errs_mu);
}

void
sec_kept_init(struct sec_kept *k, int nworkloads)
{
	memset(k, 0, sizeof(*k));
	k->nworkloads = nworkloads;
	k->w = xcalloc((size_t) nworkloads + 1, sizeof(*k->w));
}

/* Keep second LS for the result (a point without a sink). */
static void
sec_kept_add(struct sec_kept *k, const struct load_second *ls)
{
	if (k->n == k->cap)
	{
		k->cap = k->cap ? 2 * k->cap : 64;
		for (int i = 0; i < k->nworkloads; i++)
		{
			struct load_workload_result *w = &k->w[i];

			w->sec_txns =
				xrealloc(w->sec_txns, (size_t) k->cap * sizeof(uint64_t));
			w->sec_failures =
				xrealloc(w->sec_failures, (size_t) k->cap * sizeof(uint64_t));
			w->sec_lat_sum_ns =
				xrealloc(w->sec_lat_sum_ns, (size_t) k->cap * sizeof(double));
			w->sec_lat_max_ns = xrealloc(w->sec_lat_max_ns,
										 (size_t) k->cap * sizeof(uint64_t));
		}
	}
	for (int i = 0; i < k->nworkloads; i++)
	{
		struct load_workload_result *w = &k->w[i];
		const struct load_second_wl *sw = &ls->w[i];

		w->sec_txns[k->n] = sw->txns;
		w->sec_failures[k->n] = sw->failures;
		w->sec_lat_sum_ns[k->n] = sw->lat_sum_ns;
		w->sec_lat_max_ns[k->n] = sw->lat_max_ns;
		w->nseconds = k->n + 1;
		if (sw->nerrors > 0)
		{
			w->errors =
				xrealloc(w->errors, (size_t) (w->nerrors + sw->nerrors) *
										sizeof(*w->errors));
			memcpy(&w->errors[w->nerrors], sw->errors,
				   (size_t) sw->nerrors * sizeof(*w->errors));
			w->nerrors += sw->nerrors;
		}
	}
	k->n++;
	if (ls->nsamples > 0)
	{
		k->samples =
			xrealloc(k->samples, (size_t) (k->nsamples + ls->nsamples) *
									 sizeof(*k->samples));
		/* the rows' strings go with them */
		memcpy(&k->samples[k->nsamples], ls->samples,
			   (size_t) ls->nsamples * sizeof(*k->samples));
		k->nsamples += ls->nsamples;
	}
}

void
sec_kept_move(struct sec_kept *k, struct load_result *out)
{
	for (int i = 0; i < k->nworkloads && i < out->nworkloads; i++)
	{
		struct load_workload_result *w = &out->w[i];

		w->nseconds = k->w[i].nseconds;
		w->sec_txns = k->w[i].sec_txns;
		w->sec_failures = k->w[i].sec_failures;
		w->sec_lat_sum_ns = k->w[i].sec_lat_sum_ns;
		w->sec_lat_max_ns = k->w[i].sec_lat_max_ns;
		w->errors = k->w[i].errors;
		w->nerrors = k->w[i].nerrors;
		memset(&k->w[i], 0, sizeof(k->w[i]));
	}
	out->samples = k->samples;
	out->nsamples = k->nsamples;
	k->samples = NULL;
	k->nsamples = 0;
}

void
sec_kept_release(struct sec_kept *k)
{
	for (int i = 0; i < k->nworkloads; i++)
	{
		free(k->w[i].sec_txns);
		free(k->w[i].sec_failures);
		free(k->w[i].sec_lat_sum_ns);
		free(k->w[i].sec_lat_max_ns);
		free(k->w[i].errors);
	}
	free(k->w);
	for (int i = 0; i < k->nsamples; i++)
	{
		free(k->samples[i].waits);
		free(k->samples[i].probes);
	}
	free(k->samples);
	memset(k, 0, sizeof(*k));
}

/*
 * Tell second S, with ROWS[0..NROWS) of the sampler.  With ALL, the last
 * second of all: every other slot's growth came late, and counts in it.
 */
static void
tell_second(struct engine *e, struct sec_reader *r, int64_t s, bool all,
			struct load_sample *rows, int nrows, struct sec_kept *kept)
{
	const struct load_point *p = e->p;
	struct load_second ls;

	memset(r->w, 0, (size_t) p->nworkloads * sizeof(*r->w));
	for (int wi = 0; wi < p->nworkloads; wi++)
		r->nerrs[wi] = 0;
	for (int ti = 0; ti < e->nthreads; ti++)
	{
		struct thread *t = &e->threads[ti];
		struct load_second_wl *w = &r->w[t->wi];

		take_slot(r, t, ti, (int) (s % SEC_RING), s, w);
		/* what came late to the seconds told before */
		for (int64_t b = s - 1;
			 b >= 0 && b > s - (all ? SEC_RING : SEC_RING / 2); b--)
			take_slot(r, t, ti, (int) (b % SEC_RING), -1, w);
		take_errors(r, t, t->wi, s);
	}
	for (int wi = 0; wi < p->nworkloads; wi++)
	{
		r->w[wi].errors = r->errs[wi];
		r->w[wi].nerrors = r->nerrs[wi];
	}
	ls.second = (int) s;
	ls.nworkloads = p->nworkloads;
	ls.w = r->w;
	ls.samples = rows;
	ls.nsamples = nrows;
	if (p->sink)
	{
		p->sink(p->sink_arg, &ls);
		for (int i = 0; i < nrows; i++)
		{
			free(rows[i].waits);
			free(rows[i].probes);
		}
	}
	else
		sec_kept_add(kept, &ls);
	r->next = (int) s + 1;
}

/* Whether any thread's slot grew since the reader last took it. */
static bool
late_growth(const struct engine *e, const struct sec_reader *r)
{
	for (int ti = 0; ti < e->nthreads; ti++)
		for (int k = 0; k < SEC_RING; k++)
		{
			struct sec_slot *sl = &e->threads[ti].ring[k];
			const struct sec_seen *seen = &r->seen[ti * SEC_RING + k];

			if (atomic_load(&sl->txns) != seen->txns ||
				atomic_load(&sl->failures) != seen->failures)
				return true;
		}
	return false;
}

void
seconds_tell(struct engine *e, struct sec_reader *r, int64_t now, bool done,
			 struct load_sample *rows, int *nrows, struct sec_kept *kept)
{
	int64_t start = atomic_load(&e->window_start_ns);
	int64_t last; /* the last second to tell now */
	int taken = 0;

	if (done)
	{
		last = e->nseconds - 1;
		/* -t, where the reader ran ahead of the last transaction: what
		 * came late after that gets a second of its own */
		if (last < r->next)
			last = late_growth(e, r) ? r->next : r->next - 1;
	}
	else
	{
		if (start == NO_END_NS || now < start)
			return;
		last = (now - start - SEC_TELL_AFTER_NS) / 1000000000 - 1;
		/* the window's last second waits for the threads to be done */
		if (!e->txmode && last > e->nseconds - 2)
			last = e->nseconds - 2;
	}
	for (int64_t s = r->next; s <= last; s++)
	{
		int n = 0;

		/* the samples of the seconds up to S (in order, by node); the
		 * last second told takes the rest */
		while (taken + n < *nrows &&
			   (rows[taken + n].second <= s || (done && s == last)))
			n++;
		tell_second(e, r, s, done && s == last, rows + taken, n, kept);
		taken += n;
	}
	if (done)
	{
		/* -t, every second told before: samples past the last
		 * transaction's second are outside the window */
		for (int i = taken; i < *nrows; i++)
		{
			free(rows[i].waits);
			free(rows[i].probes);
		}
		taken = *nrows;
	}
	if (taken > 0)
	{
		memmove(rows, rows + taken, (size_t) (*nrows - taken) * sizeof(*rows));
		*nrows -= taken;
	}
}
