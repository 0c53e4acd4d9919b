/*
 * windows.c - the one place a point's window figures are computed: tps
 * per named window of the per-second series, and on "during" (with a
 * "before") the dip and the recovery time.  The run stores them with the
 * point; show and compare read them back.  See report.h.
 */
#include <math.h>
#include <string.h>

#include "compare.h"
#include "report.h"

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
