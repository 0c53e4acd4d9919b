/*
 * points.c - the metric a comparison or a history reads off a stored
 * point (p95 from the stored histogram, the others from their columns).
 * See compare.h.
 */
#include "compare.h"

#include <math.h>
#include <stdlib.h>

#include "hist.h"
#include "store.h"

double
point_metric(const struct store_point_row *p, enum cmp_metric m)
{
	switch (m)
	{
		case CMP_TPS:
			return p->tps;
		case CMP_LAT_AVG:
			return p->lat_avg_ms;
		case CMP_P50:
			return p->lat_p50_ms;
		case CMP_P90:
			return p->lat_p90_ms;
		case CMP_P95:
		{
			struct hist *h = xcalloc(1, sizeof(*h));
			double v = NAN;

			if (p->histogram && hist_decode(p->histogram, h) == 0 &&
				h->count > 0)
				v = (double) hist_quantile(h, 0.95) / 1e6;
			free(h);
			return v;
		}
		case CMP_P99:
			return p->lat_p99_ms;
		case CMP_P999:
			return p->lat_p999_ms;
		case CMP_MAX:
			return p->lat_max_ms;
		case CMP_INSTRUCTIONS:
		case CMP_L1_MISSES:
		case CMP_LL_MISSES:
			/* counted points only (run --count) */
			return p->counted > 0 ? p->cost[m - CMP_INSTRUCTIONS] : NAN;
		case CMP_DIP:
		case CMP_PROBE:
		case CMP_PROFILE:
			return NAN; /* a window's or a step's, not a column's */
	}
	return NAN;
}
