/*
 * report.h - render measured points as the tables PostgreSQL engineers
 * paste into pgsql-hackers mails.  Renders into a strbuf; never prints.
 */
#ifndef PGCLIFF_REPORT_H
#define PGCLIFF_REPORT_H

#include <stdbool.h>

#include "base.h"

/* One measured point, as the renderer needs it. */
struct report_row
{
	const char *workload;
	int clients;
	int jobs;
	double tps;
	double p50_ms;
	double p99_ms;
	unsigned long long failures;
	const char *variant; /* NULL: one variant */
	/* a counted point (run --count): instructions per transaction, which
	 * the variants' table compares instead of tps; 0: not counted */
	double instructions;
};

/*
 * Per workload, one line per client count: median tps over the repeats
 * (with min and max when there are several), median p50 and p99.  With
 * several variants: one tps column per variant (median over repeats) and
 * the ratio of each to the first, as the seeds' mails show them.
 * Rows may come in any order; variants are taken in order of appearance.
 */
void report_sweep_table(struct strbuf *out, const struct report_row *rows,
						int nrows);

/* A window of the measured stretch (the recipe's windows:): [start, end). */
struct report_window_def
{
	const char *name;
	int start_s;
	int end_s;
};

/* The figures of one window of one point. */
struct report_window
{
	const char *name; /* borrowed from the definition */
	int start_s;
	int end_s;
	double tps; /* mean transactions per second over the window */
	bool has_dip;
	double dip;        /* "during": its tps / the tps of "before" */
	double recovery_s; /* "during": seconds after its end until the tps
						* (3 s mean) is back within 5 % of "before"; -1:
						* never; NaN when there is no dip */
};

/*
 * The figures of DEFS over a per-second series TPS[0..NSECONDS): one
 * OUT entry per window the series covers (a window past its end was not
 * measured and is left out), in the order of DEFS.  OUT holds NDEFS.
 * Returns the count.  Pure; the one owner of these figures: the run
 * stores them, show and compare read them back.
 */
int report_windows(const double *tps, int nseconds,
				   const struct report_window_def *defs, int ndefs,
				   struct report_window *out);

struct store_sample_row;

/* A probe's figure for one node over one window (recipe probes:). */
struct report_probe_figure
{
	char *name;   /* "probe.column", "probe.counter/s" or "probe.errors" */
	double value; /* the mean over the seconds that have it; errors: count */
	int nseconds; /* how many seconds had it */
};

/*
 * The probe figures of node NODE over seconds [START_S, END_S) of the
 * samples ROWS[0..N) (store_get_samples): each probe column's mean (a
 * counter's change per second), in the order first seen, and for a probe
 * whose query failed in some second, "probe.errors" with their count.
 * Returns the count; *OUT is the caller's (report_probe_figures_free).
 */
int report_probe_figures(const struct store_sample_row *rows, int n,
						 const char *node, int start_s, int end_s,
						 struct report_probe_figure **out);
void report_probe_figures_free(struct report_probe_figure *f, int n);

/*
 * One probe figure SPEC ("kax.used", "kax.scanned/s" or
 * "kax.scanned/snapshots") over seconds [START_S, END_S) of ROWS[0..N), on
 * every node that has it: a column's or a counter's per-second mean as
 * report_probe_figures() gives it, or for "PROBE.A/B" with B not "s" the
 * counters A and B each summed over the window, A over B.  NAN when no
 * second has it (or B sums to 0).
 */
double report_probe_value(const struct store_sample_row *rows, int n,
						  const char *spec, int start_s, int end_s);

struct load_workload;
struct load_workload_result;
struct load_result;

/* One workload of a measured point, as pgbench's summary shows it. */
struct report_pgbench
{
	const struct load_workload *w;
	const struct load_workload_result *res;
	const struct load_result *point;
	double secs;                  /* the window the figures divide by */
	const char *const *labels;    /* each script's "transaction type" */
	const char *protocol;         /* "simple", "extended", "prepared" */
	int scale;                    /* the :scale the scripts saw */
	int partitions;               /* of pgbench_accounts; 0: none */
	const char *partition_method; /* "range" or "hash" */
	bool exact;    /* --format pgbench: pgbench 15's lines and no others */
	bool progress; /* -P was given (pgbench then prints the stddev) */
	bool failures_detailed; /* --failures-detailed: serialization and
							 * deadlock failures on lines of their own */
};

/*
 * pgbench 15's summary lines of P into OUT ("transaction type: ...",
 * "tps = ... (without initial connection time)", per-script and -r
 * statement lines), then pgcliff's own (events, aborted clients) unless
 * P->exact.
 */
void report_pgbench(struct strbuf *out, const struct report_pgbench *p);

/* Median of N values (copied and sorted; N > 0). */
double report_median(const double *values, int n);

/*
 * The hypervisor's steal over a run's windows (load_result.steal_pct per
 * point, < 0 where unknown): how many points know it, their mean and the
 * worst.  Above REPORT_STEAL_NOISY_PCT a run's figures are noisier than
 * this machine's own: the host gave that share of its CPU to others.
 */
#define REPORT_STEAL_NOISY_PCT 5.0

struct report_steal
{
	int n;
	double mean_pct;
	double max_pct;
};

void report_steal_add(struct report_steal *s, double pct);
/* "cpu steal during the windows: mean 3.1 %, worst 37.0 %" and, when
 * noisy, why it matters; nothing when no point knows it */
void report_steal_describe(const struct report_steal *s, struct strbuf *out);

/* ---------------------------------------------------------------------
 * Exports: stored runs as data for other tools (FORMATS.md, "Exports").
 * ------------------------------------------------------------------- */

struct store_run_row;
struct store_variant_row;
struct store_point_row;
struct store_series_row;

/* `list --format json|csv`: the runs as store_list_runs() gives them. */
void report_runs_export(struct strbuf *out, const struct store_run_row *rows,
						int n, bool csv);

/* One stored run, what `show --format json|csv` exports (borrowed). */
struct report_export_run
{
	const struct store_run_row *run;
	const struct store_variant_row *variants;
	int nvariants;
	const struct store_point_row *points;
	int npoints;
	/* per point its series (NULL: without them) */
	struct store_series_row *const *series;
	const int *nseries;
};

/* The run, its variants and points (and series, if given) as JSON. */
void report_run_export(struct strbuf *out, const struct report_export_run *x);

/* Its points as CSV, one row each. */
void report_points_csv(struct strbuf *out, const struct report_export_run *x);

/* Its per-second series as CSV, one row per point and second. */
void report_series_csv(struct strbuf *out, const struct report_export_run *x);

/* ---------------------------------------------------------------------
 * Dashboards: a stored run in the formats of the tools teams already run
 * (FORMATS.md, "Dashboards"), by report/dashboards.c.
 * ------------------------------------------------------------------- */

enum report_dash_format
{
	REPORT_DASH_BMF,              /* Bencher Metric Format (JSON) */
	REPORT_DASH_BENCHMARK_ACTION, /* github-action-benchmark, custom JSON */
	REPORT_DASH_OPENMETRICS,      /* OpenMetrics text */
	REPORT_DASH_HDR_LOG           /* HdrHistogram's interval log */
};

/* "bmf", "benchmark-action", "openmetrics" or "hdr-log" into *OUT; -1
 * otherwise. */
int report_dash_parse(const char *name, enum report_dash_format *out);

/* The run of X (its points; series not needed) in format F. */
void report_dash_export(struct strbuf *out, const struct report_export_run *x,
						enum report_dash_format f);

#endif /* PGCLIFF_REPORT_H */
