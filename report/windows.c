/*
 * windows.c - the one place a point's window figures are computed: tps
 * per named window of the per-second series, and on "during" (with a
 * "before") the dip and the recovery time.  The run stores them with the
 * point; show and compare read them back.  See report.h.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report.h"
#include "store.h"

int
report_windows(const double *tps, int nseconds,
			   const struct report_window_def *defs, int ndefs,
			   struct report_window *out)
{
	double before = NAN;
	int n = 0, during = -1;

	for (int k = 0; k < ndefs; k++)
	{
		const struct report_window_def *d = &defs[k];
		double sum = 0;

		if (d->end_s > nseconds || d->end_s <= d->start_s)
			continue; /* -T shorter than the recipe: not measured */
		for (int s = d->start_s; s < d->end_s; s++)
			sum += tps[s];
		memset(&out[n], 0, sizeof(out[n]));
		out[n].name = d->name;
		out[n].start_s = d->start_s;
		out[n].end_s = d->end_s;
		out[n].tps = sum / (d->end_s - d->start_s);
		out[n].recovery_s = NAN;
		if (strcmp(d->name, "before") == 0)
			before = out[n].tps;
		if (strcmp(d->name, "during") == 0)
			during = n;
		n++;
	}
	/* the dip of "during" against "before", in whichever order they come */
	if (during >= 0 && !isnan(before) && before > 0)
	{
		out[during].has_dip = true;
		out[during].dip = out[during].tps / before;
		out[during].recovery_s =
			cmp_recovery_seconds(tps, nseconds, out[during].end_s, before);
	}
	return n;
}

static int
figure_slot(struct report_probe_figure **f, int *n, const char *probe,
			const char *col)
{
	char *name = xasprintf("%s.%s", probe, col);

	for (int i = 0; i < *n; i++)
		if (strcmp((*f)[i].name, name) == 0)
		{
			free(name);
			return i;
		}
	*f = xrealloc(*f, (size_t) (*n + 1) * sizeof(**f));
	(*f)[*n].name = name;
	(*f)[*n].value = 0;
	(*f)[*n].nseconds = 0;
	return (*n)++;
}

int
report_probe_figures(const struct store_sample_row *rows, int n,
					 const char *node, int start_s, int end_s,
					 struct report_probe_figure **out)
{
	struct report_probe_figure *f = NULL;
	int nf = 0;

	for (int i = 0; i < n; i++)
	{
		const struct store_sample_row *r = &rows[i];
		json_t *all, *cols;
		const char *probe, *col;
		json_t *v;

		if (strcmp(r->node, node) != 0 || r->second < start_s ||
			r->second >= end_s || r->probes == NULL)
			continue;
		all = json_loads(r->probes, 0, NULL);
		json_object_foreach(all, probe, cols)
		{
			json_object_foreach(cols, col, v)
			{
				int k;

				if (strcmp(col, "error") == 0)
				{
					k = figure_slot(&f, &nf, probe, "errors");
					f[k].value += 1;
					f[k].nseconds++;
				}
				else if (json_is_number(v))
				{
					k = figure_slot(&f, &nf, probe, col);
					f[k].value += json_number_value(v);
					f[k].nseconds++;
				}
			}
		}
		json_decref(all);
	}
	for (int i = 0; i < nf; i++)
		if (f[i].nseconds > 0 && !strstr(f[i].name, ".errors"))
			f[i].value /= f[i].nseconds;
	*out = f;
	return nf;
}

void
report_probe_figures_free(struct report_probe_figure *f, int n)
{
	for (int i = 0; i < n; i++)
		free(f[i].name);
	free(f);
}

double
report_probe_value(const struct store_sample_row *rows, int n,
				   const char *spec, int start_s, int end_s)
{
	const char *dot = strchr(spec, '.'), *slash;
	char probe[128], num[128], den[128];
	double sum_num = 0, sum_den = 0;
	int seen = 0;
	bool ratio;

	if (dot == NULL || (size_t) (dot - spec) >= sizeof(probe))
		return NAN;
	snprintf(probe, sizeof(probe), "%.*s", (int) (dot - spec), spec);
	slash = strchr(dot + 1, '/');
	ratio = slash && strcmp(slash, "/s") != 0;
	if (ratio)
	{
		/* counters are stored as their change per second: "NAME/s" */
		snprintf(num, sizeof(num), "%.*s/s", (int) (slash - dot - 1), dot + 1);
		snprintf(den, sizeof(den), "%s/s", slash + 1);
	}
	else
	{
		snprintf(num, sizeof(num), "%s", dot + 1);
		den[0] = '\0';
	}
	for (int i = 0; i < n; i++)
	{
		const struct store_sample_row *r = &rows[i];
		json_t *all, *cols, *a, *b;

		if (r->second < start_s || r->second >= end_s || r->probes == NULL)
			continue;
		all = json_loads(r->probes, 0, NULL);
		cols = json_object_get(all, probe);
		a = json_object_get(cols, num);
		b = ratio ? json_object_get(cols, den) : NULL;
		if (json_is_number(a) && (!ratio || json_is_number(b)))
		{
			sum_num += json_number_value(a);
			sum_den += ratio ? json_number_value(b) : 1;
			seen++;
		}
		json_decref(all);
	}
	if (seen == 0 || sum_den == 0)
		return NAN;
	return sum_num / sum_den;
}
