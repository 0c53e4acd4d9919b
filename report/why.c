/*
 * why.c - where the time went between two sides of a comparison: per
 * plan step measured alike on both sides and per server, the functions
 * whose share of the CPU profile changed most (B - A in percentage
 * points, an interval over blocks) and the wait events whose sampled
 * count changed most.  The one owner of those figures; render.c and
 * html.c print them.  See compare.h.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "json_int.h"
#include "store.h"

/* A plan step of one side: what its samples measured there. */
struct wstep
{
	int64_t run_id;
	int order_idx;
	int block;
	char *sig;
	/* read from the store */
	struct store_profile_row *prof;
	int nprof;
	struct store_sample_row *smp;
	int nsmp;
};

struct wside
{
	struct wstep *steps;
	int nsteps;
};

static int
cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

char *
cmp_step_signature(const char *const *workloads, const int *clients, int n)
{
	char **parts = xcalloc((size_t) n + 1, sizeof(char *));
	int nparts = 0;
	struct strbuf sig = STRBUF_INIT;

	for (int k = 0; k < n; k++)
	{
		char *part = xasprintf("%s %d client%s", workloads[k], clients[k],
							   clients[k] == 1 ? "" : "s");
		bool seen = false;

		for (int j = 0; j < nparts && !seen; j++)
			seen = strcmp(parts[j], part) == 0;
		if (seen)
			free(part);
		else
			parts[nparts++] = part;
	}
	qsort(parts, (size_t) nparts, sizeof(char *), cmp_cstr);
	for (int k = 0; k < nparts; k++)
	{
		strbuf_addstr(&sig, k ? ", " : "");
		strbuf_addstr(&sig, parts[k]);
		free(parts[k]);
	}
	free(parts);
	return strbuf_detach(&sig);
}

/* The steps of side SD's samples (windows left out), each with its sig. */
static void
side_steps(const struct cmp_side *sd, struct wside *out)
{
	const char **w = xcalloc((size_t) sd->nsamples + 1, sizeof(char *));
	int *c = xcalloc((size_t) sd->nsamples + 1, sizeof(int));

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < sd->nsamples; i++)
	{
		const struct cmp_sample *x = &sd->samples[i];
		int n = 0, j;
		struct wstep *s;

		if (x->window)
			continue;
		for (j = 0; j < out->nsteps; j++)
			if (out->steps[j].run_id == x->run_id &&
				out->steps[j].order_idx == x->order_idx)
				break;
		if (j < out->nsteps)
			continue;
		for (int k = 0; k < sd->nsamples; k++)
		{
			const struct cmp_sample *y = &sd->samples[k];

			if (!y->window && y->run_id == x->run_id &&
				y->order_idx == x->order_idx)
			{
				w[n] = y->workload;
				c[n++] = y->clients;
			}
		}
		out->steps = xrealloc(out->steps, (size_t) (out->nsteps + 1) *
											  sizeof(*out->steps));
		s = &out->steps[out->nsteps++];
		memset(s, 0, sizeof(*s));
		s->run_id = x->run_id;
		s->order_idx = x->order_idx;
		s->block = x->block;
		s->sig = cmp_step_signature(w, c, n);
	}
	free(w);
	free(c);
}

static void
side_free(struct wside *w)
{
	for (int i = 0; i < w->nsteps; i++)
	{
		free(w->steps[i].sig);
		store_profile_free(w->steps[i].prof, w->steps[i].nprof);
		store_samples_free(w->steps[i].smp, w->steps[i].nsmp);
	}
	free(w->steps);
}

static int
read_step(struct store *st, struct wstep *s, struct pgc_error *err)
{
	if (s->prof || s->smp)
		return 0;
	if (store_get_profile(st, s->run_id, s->order_idx, &s->prof, &s->nprof,
						  err) < 0 ||
		store_get_samples(st, s->run_id, s->order_idx, &s->smp, &s->nsmp,
						  err) < 0)
		return -1;
	return 0;
}

static const char *
nz(const char *s)
{
	return s ? s : "";
}

/* Index of NAME in LIST, added when absent. */
static int
intern(char ***list, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (strcmp((*list)[i], name) == 0)
			return i;
	*list = xrealloc(*list, (size_t) (*n + 1) * sizeof(char *));
	(*list)[*n] = xstrdup(name);
	return (*n)++;
}

static void
free_names(char **list, int n)
{
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* Does step S have a profile of NODE?  Its whole (rank 0) row, or NULL. */
static const struct store_profile_row *
profile_whole(const struct wstep *s, const char *node)
{
	for (int i = 0; i < s->nprof; i++)
		if (strcmp(s->prof[i].node, node) == 0 && s->prof[i].dso == NULL &&
			s->prof[i].symbol == NULL)
			return &s->prof[i];
	return NULL;
}

/* The share of function (DSO, SYMBOL) at NODE in step S: 0 when it is
 * not among the stored top (its share is below the last stored one's). */
static double
share_of(const struct wstep *s, const char *node, const char *dso,
		 const char *symbol)
{
	for (int i = 0; i < s->nprof; i++)
		if (strcmp(s->prof[i].node, node) == 0 &&
			(s->prof[i].dso || s->prof[i].symbol) &&
			strcmp(nz(s->prof[i].dso), dso) == 0 &&
			strcmp(nz(s->prof[i].symbol), symbol) == 0)
			return s->prof[i].pct;
	return 0;
}

/*
 * The A and B steps of SIG that have a profile of NODE into PA and PB
 * (NA, NB), B in the order of its A partners when every A step has one
 * (same run, same block): then *PAIRED.
 */
static void
profiled(const struct wside *a, const struct wside *b, const char *sig,
		 const char *node, const struct wstep **pa, int *na,
		 const struct wstep **pb, int *nb, bool *paired)
{
	*na = *nb = 0;
	for (int i = 0; i < a->nsteps; i++)
		if (strcmp(a->steps[i].sig, sig) == 0 &&
			profile_whole(&a->steps[i], node))
			pa[(*na)++] = &a->steps[i];
	for (int i = 0; i < b->nsteps; i++)
		if (strcmp(b->steps[i].sig, sig) == 0 &&
			profile_whole(&b->steps[i], node))
			pb[(*nb)++] = &b->steps[i];
	*paired = *na == *nb && *na > 0;
	for (int i = 0; i < *na && *paired; i++)
	{
		int j;

		for (j = i; j < *nb; j++)
			if (pb[j]->run_id == pa[i]->run_id && pb[j]->block == pa[i]->block)
				break;
		if (j == *nb)
			*paired = false;
		else
		{
			const struct wstep *t = pb[i];

			pb[i] = pb[j];
			pb[j] = t;
		}
	}
}

static int
by_func_change(const void *x, const void *y)
{
	const struct cmp_why_func *a = x, *b = y;
	double da = fabs(a->d.diff), db = fabs(b->d.diff);

	return da < db ? 1 : da > db ? -1 : strcmp(a->symbol, b->symbol);
}

static int
by_wait_change(const void *x, const void *y)
{
	const struct cmp_why_wait *a = x, *b = y;
	double da = fabs(a->b_per_s - a->a_per_s),
		   db = fabs(b->b_per_s - b->a_per_s);

	return da < db ? 1 : da > db ? -1 : strcmp(a->event, b->event);
}

/* A change smaller than this (pp, or waits per sample) is not listed. */
#define MIN_PP    0.05
#define MIN_WAITS 0.05

static void
node_funcs(const struct wside *a, const struct wside *b, const char *sig,
		   const char *node, double conf, struct cmp_why_node *out)
{
	const struct wstep **pa =
		xcalloc((size_t) a->nsteps + 1, sizeof(const struct wstep *));
	const struct wstep **pb =
		xcalloc((size_t) b->nsteps + 1, sizeof(const struct wstep *));
	char **keys = NULL; /* "dso\037symbol" */
	int nkeys = 0, na, nb;
	double *va, *vb;
	struct cmp_why_func *f;
	int nf = 0;

	profiled(a, b, sig, node, pa, &na, pb, &nb, &out->paired);
	out->na = na;
	out->nb = nb;
	if (na == 0 || nb == 0)
	{
		out->paired = false;
		goto out;
	}
	for (int i = 0; i < na + nb; i++)
	{
		const struct wstep *s = i < na ? pa[i] : pb[i - na];

		for (int r = 0; r < s->nprof; r++)
		{
			const struct store_profile_row *p = &s->prof[r];
			char *k;

			if (strcmp(p->node, node) != 0)
				continue;
			if (!p->dso && !p->symbol)
			{
				*(i < na ? &out->a_samples : &out->b_samples) += p->samples;
				out->counted = p->hz == 0;
				continue;
			}
			k = xasprintf("%s\037%s", nz(p->dso), nz(p->symbol));
			(void) intern(&keys, &nkeys, k);
			free(k);
		}
	}
	va = xcalloc((size_t) na, sizeof(double));
	vb = xcalloc((size_t) nb, sizeof(double));
	f = xcalloc((size_t) nkeys + 1, sizeof(*f));
	for (int k = 0; k < nkeys; k++)
	{
		char *sep = strchr(keys[k], '\037');

		*sep = '\0';
		for (int i = 0; i < na; i++)
			va[i] = share_of(pa[i], node, keys[k], sep + 1);
		for (int i = 0; i < nb; i++)
			vb[i] = share_of(pb[i], node, keys[k], sep + 1);
		f[nf].a_pct = stats_mean(va, na);
		f[nf].b_pct = stats_mean(vb, nb);
		stats_diff_means(va, na, vb, nb, out->paired, conf, &f[nf].d);
		if (!(fabs(f[nf].d.diff) >= MIN_PP))
			continue;
		f[nf].dso = xstrdup(keys[k]);
		f[nf].symbol = xstrdup(sep + 1);
		nf++;
	}
	qsort(f, (size_t) nf, sizeof(*f), by_func_change);
	for (int i = CMP_WHY_FUNCS; i < nf; i++)
	{
		free(f[i].dso);
		free(f[i].symbol);
	}
	out->nfuncs = nf < CMP_WHY_FUNCS ? nf : CMP_WHY_FUNCS;
	out->funcs = f;
	free(va);
	free(vb);
out:
	free_names(keys, nkeys);
	free(pa);
	free(pb);
}

/*
 * Per wait event, the mean over SIG's steps of one side (those with
 * samples of NODE) of the backends seen in it per sample: a JSON object
 * event -> real, and the number of steps into *NSTEPS.
 */
static json_t *
side_waits(const struct wside *w, const char *sig, const char *node,
		   int *nsteps)
{
	json_t *out = json_object();
	const char *k;
	json_t *v;

	*nsteps = 0;
	for (int i = 0; i < w->nsteps; i++)
	{
		const struct wstep *s = &w->steps[i];
		json_t *acc;
		int nok = 0;

		if (strcmp(s->sig, sig) != 0)
			continue;
		acc = json_object();
		for (int r = 0; r < s->nsmp; r++)
			if (s->smp[r].ok && strcmp(s->smp[r].node, node) == 0)
			{
				report_json_add_counts(acc, s->smp[r].waits);
				nok++;
			}
		if (nok > 0)
		{
			(*nsteps)++;
			json_object_foreach(acc, k, v)
			{
				double old = json_real_value(json_object_get(out, k));

				json_object_set_new(
					out, k,
					json_real(old + (double) json_integer_value(v) / nok));
			}
		}
		json_decref(acc);
	}
	return out;
}

static void
node_waits(const struct wside *a, const struct wside *b, const char *sig,
		   const char *node, struct cmp_why_node *out)
{
	int sa, sb, nw = 0;
	json_t *wa = side_waits(a, sig, node, &sa);
	json_t *wb = side_waits(b, sig, node, &sb);
	json_t *all = json_object();
	struct cmp_why_wait *w;
	const char *k;
	json_t *v;

	if (sa == 0 || sb == 0)
		goto out;
	json_object_update(all, wa);
	json_object_update(all, wb);
	w = xcalloc(json_object_size(all) + 1, sizeof(*w));
	json_object_foreach(all, k, v)
	{
		double x = json_real_value(json_object_get(wa, k)) / sa;
		double y = json_real_value(json_object_get(wb, k)) / sb;

		if (!((x > y ? x : y) >= MIN_WAITS) || x == y)
			continue;
		w[nw].event = xstrdup(k);
		w[nw].a_per_s = x;
		w[nw].b_per_s = y;
		nw++;
	}
	qsort(w, (size_t) nw, sizeof(*w), by_wait_change);
	for (int i = CMP_WHY_WAITS; i < nw; i++)
		free(w[i].event);
	out->nwaits = nw < CMP_WHY_WAITS ? nw : CMP_WHY_WAITS;
	out->waits = w;
out:
	json_decref(all);
	json_decref(wa);
	json_decref(wb);
}

/* The nodes either side's steps of SIG have profiles or samples of. */
static void
nodes_of(const struct wside *w, const char *sig, char ***nodes, int *n)
{
	for (int i = 0; i < w->nsteps; i++)
	{
		const struct wstep *s = &w->steps[i];

		if (strcmp(s->sig, sig) != 0)
			continue;
		for (int r = 0; r < s->nprof; r++)
			(void) intern(nodes, n, s->prof[r].node);
		for (int r = 0; r < s->nsmp; r++)
			(void) intern(nodes, n, s->smp[r].node);
	}
}

static void
why_node_release(struct cmp_why_node *n)
{
	for (int i = 0; i < n->nfuncs; i++)
	{
		free(n->funcs[i].dso);
		free(n->funcs[i].symbol);
	}
	for (int i = 0; i < n->nwaits; i++)
		free(n->waits[i].event);
	free(n->funcs);
	free(n->waits);
	free(n->node);
}

void
cmp_why_free(struct cmp_why *why, int n)
{
	for (int i = 0; i < n; i++)
	{
		for (int j = 0; j < why[i].nnodes; j++)
			why_node_release(&why[i].nodes[j]);
		free(why[i].nodes);
		free(why[i].step);
	}
	free(why);
}

int
cmp_why_stored(struct store *st, const struct cmp_side *a,
			   const struct cmp_side *b, double conf, struct cmp_result *out,
			   struct pgc_error *err)
{
	struct wside wa, wb;
	char **sigs = NULL;
	int nsigs = 0, rc = -1;

	side_steps(a, &wa);
	side_steps(b, &wb);
	/* the signatures both sides measured, in A's order */
	for (int i = 0; i < wa.nsteps; i++)
		for (int j = 0; j < wb.nsteps; j++)
			if (strcmp(wa.steps[i].sig, wb.steps[j].sig) == 0)
			{
				(void) intern(&sigs, &nsigs, wa.steps[i].sig);
				break;
			}
	for (int i = 0; i < wa.nsteps + wb.nsteps; i++)
	{
		struct wstep *s =
			i < wa.nsteps ? &wa.steps[i] : &wb.steps[i - wa.nsteps];
		bool wanted = false;

		for (int k = 0; k < nsigs; k++)
			wanted |= strcmp(sigs[k], s->sig) == 0;
		if (wanted && read_step(st, s, err) < 0)
			goto out;
	}
	for (int k = 0; k < nsigs; k++)
	{
		char **nodes = NULL;
		int nnodes = 0;
		struct cmp_why *w;

		nodes_of(&wa, sigs[k], &nodes, &nnodes);
		nodes_of(&wb, sigs[k], &nodes, &nnodes);
		out->why = xrealloc(out->why, (size_t) (out->nwhy + 1) * sizeof(*w));
		w = &out->why[out->nwhy];
		memset(w, 0, sizeof(*w));
		w->nodes = xcalloc((size_t) nnodes + 1, sizeof(*w->nodes));
		for (int j = 0; j < nnodes; j++)
		{
			struct cmp_why_node *n = &w->nodes[w->nnodes];

			node_funcs(&wa, &wb, sigs[k], nodes[j], conf, n);
			node_waits(&wa, &wb, sigs[k], nodes[j], n);
			if (n->nfuncs == 0 && n->nwaits == 0)
			{
				why_node_release(n);
				memset(n, 0, sizeof(*n));
				continue;
			}
			n->node = xstrdup(nodes[j]);
			w->nnodes++;
		}
		free_names(nodes, nnodes);
		if (w->nnodes == 0)
		{
			free(w->nodes);
			continue;
		}
		w->step = xstrdup(sigs[k]);
		out->nwhy++;
	}
	rc = 0;
out:
	free_names(sigs, nsigs);
	side_free(&wa);
	side_free(&wb);
	return rc;
}
