/*
 * dashboards.c - a stored run in the formats of the dashboards teams
 * already run (report/FORMATS.md, "Dashboards"): Bencher's Metric Format,
 * github-action-benchmark's custom JSON, OpenMetrics text and
 * HdrHistogram's interval log.
 *
 * BMF and the action's JSON track a benchmark over commits, one value per
 * benchmark and run: a point's repeats are folded into their median, with
 * the lowest and highest repeat as its bounds.  OpenMetrics gives every
 * stored point, one sample per repeat, labelled so that nothing is folded.
 * The interval log holds every point's latency histogram as it was
 * recorded (hist.h: the same buckets), tagged with the point.
 */
#include "report.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hist.h"
#include "json_int.h"
#include "store.h"

int
report_dash_parse(const char *name, enum report_dash_format *out)
{
	static const char *const names[] = {
		[REPORT_DASH_BMF] = "bmf",
		[REPORT_DASH_BENCHMARK_ACTION] = "benchmark-action",
		[REPORT_DASH_OPENMETRICS] = "openmetrics",
		[REPORT_DASH_HDR_LOG] = "hdr-log",
	};

	for (size_t i = 0; i < lengthof(names); i++)
		if (strcmp(name, names[i]) == 0)
		{
			*out = (enum report_dash_format) i;
			return 0;
		}
	return -1;
}

/* One benchmark: a variant's workload at a client count, over repeats. */
struct bench
{
	const struct store_point_row *first;
	double *tps, *lat_avg, *lat_p99, *instr;
	int n, ninstr;
};

/* the lowest and highest of V's N values */
static void
bounds(const double *v, int n, double *lo, double *hi)
{
	*lo = *hi = v[0];
	for (int i = 1; i < n; i++)
	{
		*lo = fmin(*lo, v[i]);
		*hi = fmax(*hi, v[i]);
	}
}

static bool
same_bench(const struct store_point_row *a, const struct store_point_row *b)
{
	return strcmp(a->variant, b->variant) == 0 &&
		   strcmp(a->workload, b->workload) == 0 && a->clients == b->clients;
}

/*
 * The benchmarks of X in the order their first point was stored; points
 * that measured nothing (a failed or interrupted one) are left out.
 */
static struct bench *
benches_of(const struct report_export_run *x, int *nb)
{
	struct bench *b = xcalloc((size_t) x->npoints + 1, sizeof(*b));
	int n = 0;

	for (int i = 0; i < x->npoints; i++)
	{
		const struct store_point_row *p = &x->points[i];
		struct bench *t = NULL;

		if (p->transactions == 0 || !(p->tps > 0))
			continue;
		for (int k = 0; k < n && t == NULL; k++)
			if (same_bench(b[k].first, p))
				t = &b[k];
		if (t == NULL)
		{
			t = &b[n++];
			t->first = p;
			t->tps = xcalloc((size_t) x->npoints, sizeof(double));
			t->lat_avg = xcalloc((size_t) x->npoints, sizeof(double));
			t->lat_p99 = xcalloc((size_t) x->npoints, sizeof(double));
			t->instr = xcalloc((size_t) x->npoints, sizeof(double));
		}
		t->tps[t->n] = p->tps;
		t->lat_avg[t->n] = p->lat_avg_ms;
		t->lat_p99[t->n] = p->lat_p99_ms;
		t->n++;
		if (p->counted > 0 && p->cost[0] >= 0)
			t->instr[t->ninstr++] = p->cost[0];
	}
	*nb = n;
	return b;
}

static void
benches_free(struct bench *b, int n)
{
	for (int i = 0; i < n; i++)
	{
		free(b[i].tps);
		free(b[i].lat_avg);
		free(b[i].lat_p99);
		free(b[i].instr);
	}
	free(b);
}

/* "txid_current/txid/base/c8" */
static char *
bench_name(const struct report_export_run *x, const struct bench *b)
{
	return xasprintf("%s/%s/%s/c%d", x->run->recipe, b->first->workload,
					 b->first->variant, b->first->clients);
}

/* {"value": median, "lower_value": min, "upper_value": max} times SCALE */
static json_t *
bmf_measure(const double *v, int n, double scale)
{
	double lo, hi;

	bounds(v, n, &lo, &hi);
	return json_pack("{s:o, s:o, s:o}", "value",
					 report_json_num(report_median(v, n) * scale, "%.6g"),
					 "lower_value", report_json_num(lo * scale, "%.6g"),
					 "upper_value", report_json_num(hi * scale, "%.6g"));
}

/*
 * Bencher Metric Format: {BENCHMARK: {MEASURE: {value, lower_value,
 * upper_value}}}; throughput in transactions a second, latency and
 * latency-p99 in nanoseconds (Bencher's unit for latency), instructions
 * per transaction for counted points.
 */
static void
write_bmf(struct strbuf *out, const struct report_export_run *x)
{
	json_t *doc = json_object();
	struct bench *b;
	int nb;

	b = benches_of(x, &nb);
	for (int i = 0; i < nb; i++)
	{
		json_t *m = json_object();
		char *name = bench_name(x, &b[i]);

		json_object_set_new(m, "throughput", bmf_measure(b[i].tps, b[i].n, 1));
		json_object_set_new(m, "latency",
							bmf_measure(b[i].lat_avg, b[i].n, 1e6));
		json_object_set_new(m, "latency-p99",
							bmf_measure(b[i].lat_p99, b[i].n, 1e6));
		if (b[i].ninstr > 0)
			json_object_set_new(m, "instructions",
								bmf_measure(b[i].instr, b[i].ninstr, 1));
		json_object_set_new(doc, name, m);
		free(name);
	}
	benches_free(b, nb);
	report_json_dump(out, doc);
}

/*
 * github-action-benchmark's custom JSON for its customBiggerIsBetter tool:
 * [{name, unit, value, range, extra}], tps only (one direction a file).
 */
static void
write_benchmark_action(struct strbuf *out, const struct report_export_run *x)
{
	json_t *doc = json_array();
	struct bench *b;
	int nb;

	b = benches_of(x, &nb);
	for (int i = 0; i < nb; i++)
	{
		char *name = bench_name(x, &b[i]);
		double med = report_median(b[i].tps, b[i].n);
		double lat = report_median(b[i].lat_avg, b[i].n);
		double p99 = report_median(b[i].lat_p99, b[i].n);
		double lo, hi;
		char range[64], extra[256];

		bounds(b[i].tps, b[i].n, &lo, &hi);
		snprintf(range, sizeof(range), "± %.3f", (hi - lo) / 2);
		snprintf(extra, sizeof(extra),
				 "run %" PRId64 ", median of %d repeat%s (min %.3f, max "
				 "%.3f); latency avg %.3f ms, p99 %.3f ms",
				 x->run->id, b[i].n, b[i].n == 1 ? "" : "s", lo, hi, lat, p99);
		json_array_append_new(
			doc, json_pack("{s:s, s:s, s:o, s:s, s:s}", "name", name, "unit",
						   "tps", "value", report_json_num(med, "%.3f"),
						   "range", range, "extra", extra));
		free(name);
	}
	benches_free(b, nb);
	report_json_dump(out, doc);
}

/* A label value of OpenMetrics: \, " and newlines escaped. */
static void
om_value(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (const char *p = s ? s : ""; *p; p++)
	{
		if (*p == '\\' || *p == '"')
			strbuf_addch(out, '\\');
		if (*p == '\n')
			strbuf_addstr(out, "\\n");
		else
			strbuf_addch(out, *p);
	}
	strbuf_addch(out, '"');
}

/* {run="12",recipe="r",variant="v",workload="w",clients="8",repeat="1" */
static void
om_point_labels(struct strbuf *out, const struct report_export_run *x,
				const struct store_point_row *p)
{
	char num[32];

	strbuf_addf(out, "{run=\"%" PRId64 "\",recipe=", x->run->id);
	om_value(out, x->run->recipe);
	strbuf_addstr(out, ",variant=");
	om_value(out, p->variant);
	strbuf_addstr(out, ",workload=");
	om_value(out, p->workload);
	snprintf(num, sizeof(num), "%d", p->clients);
	strbuf_addstr(out, ",clients=");
	om_value(out, num);
	snprintf(num, sizeof(num), "%d", p->repeat_idx + 1);
	strbuf_addstr(out, ",repeat=");
	om_value(out, num);
}

static void
om_number(struct strbuf *out, double v)
{
	if (isfinite(v))
		strbuf_addf(out, " %.9g\n", v);
	else
		strbuf_addstr(out, " NaN\n");
}

/* One gauge family: its metadata, then a sample per measured point. */
static void
om_family(struct strbuf *out, const struct report_export_run *x,
		  const char *name, const char *unit, const char *help, int field)
{
	static const char *const stats[] = {"avg", "p50",  "p90",
										"p99", "p999", "max"};

	strbuf_addf(out, "# TYPE %s gauge\n", name);
	if (unit)
		strbuf_addf(out, "# UNIT %s %s\n", name, unit);
	strbuf_addf(out, "# HELP %s %s\n", name, help);
	for (int i = 0; i < x->npoints; i++)
	{
		const struct store_point_row *p = &x->points[i];
		const double lat[] = {p->lat_avg_ms, p->lat_p50_ms,  p->lat_p90_ms,
							  p->lat_p99_ms, p->lat_p999_ms, p->lat_max_ms};

		if (p->transactions == 0)
			continue;
		if (field == 1)
		{
			for (size_t s = 0; s < lengthof(stats); s++)
			{
				strbuf_addstr(out, name);
				om_point_labels(out, x, p);
				strbuf_addf(out, ",stat=\"%s\"}", stats[s]);
				om_number(out, lat[s] / 1000);
			}
			continue;
		}
		strbuf_addstr(out, name);
		om_point_labels(out, x, p);
		strbuf_addch(out, '}');
		om_number(out, field == 0   ? p->tps
					   : field == 2 ? (double) p->transactions
									: (double) p->failures);
	}
}

/*
 * OpenMetrics text: the run as an info metric, then per measured point
 * its tps, latencies (seconds) and the window's transactions and
 * failures; "# EOF" ends it.
 */
static void
write_openmetrics(struct strbuf *out, const struct report_export_run *x)
{
	strbuf_addstr(out, "# TYPE pgcliff_run info\n"
					   "# HELP pgcliff_run A stored run of pgcliff.\n"
					   "pgcliff_run_info{run=\"");
	strbuf_addf(out, "%" PRId64 "\",recipe=", x->run->id);
	om_value(out, x->run->recipe);
	strbuf_addstr(out, ",status=");
	om_value(out, x->run->dead ? "dead" : x->run->status);
	strbuf_addstr(out, ",started_at=");
	om_value(out, x->run->started_at);
	strbuf_addstr(out, ",pgcliff=");
	om_value(out, x->run->tool_version);
	strbuf_addstr(out, "} 1\n");
	om_family(out, x, "pgcliff_tps", NULL,
			  "Transactions a second of a point's measured window.", 0);
	om_family(out, x, "pgcliff_latency_seconds", "seconds",
			  "Transaction latency of a point's window: avg, percentiles, "
			  "max.",
			  1);
	om_family(out, x, "pgcliff_window_transactions", NULL,
			  "Transactions completed in a point's window.", 2);
	om_family(out, x, "pgcliff_window_failures", NULL,
			  "Transactions that failed in a point's window.", 3);
	strbuf_addstr(out, "# EOF\n");
}

/* A tag holds no comma, white space or control character. */
static void
hdr_tag_part(struct strbuf *out, const char *s)
{
	for (; s && *s; s++)
		strbuf_addch(out, (unsigned char) *s <= ' ' || *s == ',' || *s == 0x7f
							  ? '_'
							  : *s);
}

static int
point_order_cmp(const void *a, const void *b)
{
	const struct store_point_row *x =
		*(const struct store_point_row *const *) a;
	const struct store_point_row *y =
		*(const struct store_point_row *const *) b;

	if (x->order_idx != y->order_idx)
		return x->order_idx < y->order_idx ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/*
 * HdrHistogram's interval log (format 1.3): one line a point, its
 * window's latencies in nanoseconds, tagged VARIANT/WORKLOAD/cCLIENTS/rN.
 * The windows are laid end to end in plan order from the run's start (a
 * plan step's workloads share one), without the warm-ups and restarts
 * between them: a log's readers place intervals on a time line, and the
 * store keeps each window's length, not its instant.  Interval_Max is in
 * milliseconds, as HistogramLogProcessor's -outputValueUnitRatio 1000000
 * reads nanoseconds.
 */
static void
write_hdr_log(struct strbuf *out, const struct report_export_run *x)
{
	const struct store_point_row **p =
		xcalloc((size_t) x->npoints + 1, sizeof(struct store_point_row *));
	struct tm tm;
	double at = 0, step_len = 0;
	int last_order = -1;

	memset(&tm, 0, sizeof(tm));
	strbuf_addstr(out, "#[Histogram log format version 1.3]\n");
	if (x->run->started_at && sscanf(x->run->started_at, "%d-%d-%d %d:%d:%d",
									 &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
									 &tm.tm_hour, &tm.tm_min, &tm.tm_sec) == 6)
	{
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		strbuf_addf(out,
					"#[StartTime: %lld.000 (seconds since epoch), %s UTC]\n",
					(long long) timegm(&tm), x->run->started_at);
	}
	strbuf_addf(out, "#[pgcliff run %" PRId64 ", recipe ", x->run->id);
	hdr_tag_part(out, x->run->recipe);
	strbuf_addstr(out, ": each point's window, in plan order, laid end to "
					   "end; latencies in nanoseconds]\n");
	strbuf_addstr(out,
				  "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
				  "\"Interval_Compressed_Histogram\"\n");
	for (int i = 0; i < x->npoints; i++)
		p[i] = &x->points[i];
	if (x->npoints > 1)
		qsort(p, (size_t) x->npoints, sizeof(struct store_point_row *),
			  point_order_cmp);
	for (int i = 0; i < x->npoints; i++)
	{
		struct hist *h;

		if (p[i]->order_idx != last_order)
		{
			at += step_len;
			step_len = 0;
			last_order = p[i]->order_idx;
		}
		if (p[i]->duration_s > step_len)
			step_len = p[i]->duration_s;
		h = xmalloc(sizeof(*h));
		if (p[i]->histogram == NULL || hist_decode(p[i]->histogram, h) < 0)
		{
			strbuf_addf(out, "#[point %d, %s: no histogram stored]\n",
						p[i]->order_idx + 1, p[i]->workload);
			free(h);
			continue;
		}
		strbuf_addstr(out, "Tag=");
		hdr_tag_part(out, p[i]->variant);
		strbuf_addch(out, '/');
		hdr_tag_part(out, p[i]->workload);
		strbuf_addf(out, "/c%d/r%d,%.3f,%.3f,%.3f,", p[i]->clients,
					p[i]->repeat_idx + 1, at, p[i]->duration_s,
					(double) h->max_ns / 1e6);
		hist_hdr_encode(h, out);
		strbuf_addch(out, '\n');
		free(h);
	}
	free(p);
}

void
report_dash_export(struct strbuf *out, const struct report_export_run *x,
				   enum report_dash_format f)
{
	switch (f)
	{
		case REPORT_DASH_BMF:
			write_bmf(out, x);
			break;
		case REPORT_DASH_BENCHMARK_ACTION:
			write_benchmark_action(out, x);
			break;
		case REPORT_DASH_OPENMETRICS:
			write_openmetrics(out, x);
			break;
		case REPORT_DASH_HDR_LOG:
			write_hdr_log(out, x);
			break;
	}
}
