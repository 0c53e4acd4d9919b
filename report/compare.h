/*
 * compare.h - baseline A against candidate B, point by point: medians,
 * the ratio B/A with its interval, a verdict against a margin, Holm over
 * the points, and the curve facts a human reads first (peak, cliff, ratio
 * at the top, geometric mean).  Renderers for text, Markdown, JSON and
 * JUnit XML write into a strbuf.  Pure: no store, no printing.
 */
#ifndef PGCLIFF_COMPARE_H
#define PGCLIFF_COMPARE_H

#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "stats.h"
#include "store.h"

enum cmp_metric
{
	CMP_TPS,
	CMP_LAT_AVG,
	CMP_P50,
	CMP_P90,
	CMP_P95,
	CMP_P99,
	CMP_P999,
	CMP_MAX,
	/*
	 * A window's dip: the "during" window's tps over the "before"
	 * window's, per block (a recipe with windows, e.g. seed 004's long
	 * transaction).  Higher is better: 1 is no dip at all.
	 */
	CMP_DIP,
	/*
	 * A figure of the recipe's probes (recipe probes:), named
	 * "probe:PROBE.FIGURE": a column ("kax.used"), a counter's change per
	 * second ("kax.scanned/s"), or one counter over another summed over
	 * the window ("kax.scanned/snapshots": entries scanned per snapshot).
	 * Read over the "during" window when the recipe has one, else over
	 * the point, on every node the probe ran on (report_probe_value()).
	 * Per plan step: every workload of a step carries the same value.
	 * Lower is better: a probe counts a cost.
	 */
	CMP_PROBE,
	/*
	 * A function's share of a node's CPU profile (run --profile), named
	 * "profile:NODE:FUNCTION": per cent of the node's samples over the
	 * point's window in FUNCTION itself (or with its callees, when the
	 * profile has call graphs and NODE is followed by "+": "profile:
	 * standby+:GetSnapshotData"); "F+G" sums functions, so that one the
	 * compiler inlines in one build only is counted in both.  Lower is
	 * better.
	 */
	CMP_PROFILE,
	/*
	 * A counted point's work per transaction (run --count, cost.h): the
	 * primary's instructions, and its simulated first-level and last-level
	 * cache misses, by callgrind.  Work, not time: waits are invisible to
	 * them.  Lower is better; a count repeats to a few parts in 10^5, so
	 * their default margin is 1 %.
	 */
	CMP_INSTRUCTIONS,
	CMP_L1_MISSES,
	CMP_LL_MISSES
};

/* A metric's full name ("probe:kax.used"), at most this long. */
#define CMP_METRIC_NAME_MAX 128

const char *cmp_metric_name(enum cmp_metric m);
/*
 * 0, or -1 when NAME is not a metric (names as `measure:` takes them).
 * A metric with an argument (probe:, profile:) is refused here: callers
 * that take them use cmp_metric_parse_full().
 */
int cmp_metric_parse(const char *name, enum cmp_metric *out);
/*
 * NAME as any metric, "probe:..." and "profile:..." included; FULL
 * (CMP_METRIC_NAME_MAX bytes) gets the name as given.  -1 when it is
 * none, with a reason in WHY (120 bytes).
 */
int cmp_metric_parse_full(const char *name, enum cmp_metric *out, char *full,
						  char *why);
bool cmp_metric_higher_is_better(enum cmp_metric m);
/* The default margin: 3 % for tps, 5 % for latencies and the dip, 1 %
 * for counts. */
double cmp_metric_default_margin(enum cmp_metric m);

/*
 * One measured value: a point of one repeat (block) of one run, or the tps
 * of one of its windows (WINDOW not NULL: a named stretch of the series).
 */
struct cmp_sample
{
	const char *workload;
	int clients;
	int64_t run_id;
	int block;
	double value;       /* the metric */
	double tps;         /* for the curve facts */
	const char *window; /* NULL: the whole point */
	int window_order;   /* windows sort by it (the recipe's order) */
	double recovery_s;  /* "during" samples: seconds from the end of the
						 * window until tps is back within 5 % of
						 * "before"; < 0 never; NAN unknown */
	int order_idx;      /* the plan step it was measured at (stored points) */
	double steal;       /* the CPU steal of its window, per cent; NAN not
						 * known (older runs, windows of a point) */
};

/*
 * What makes a REGRESSION, with margin delta and confidence conf:
 *   estimate  B is worse than A beyond doubt (the interval, Holm-adjusted,
 *             lies wholly on the worse side of 1) and the estimate is
 *             worse than the margin: what most CI gates do;
 *   strict    the whole interval lies beyond the margin: the drop is
 *             proven larger than delta.
 * Under either, an A/A comparison is called a REGRESSION at most
 * (1 - conf) / 2 of the time.  NO-REGRESSION (SAME, FASTER, IMPROVED)
 * needs the interval wholly on the better side of the margin under both.
 */
enum cmp_rule
{
	CMP_RULE_ESTIMATE = 0,
	CMP_RULE_STRICT
};

const char *cmp_rule_name(enum cmp_rule r);

/*
 * What a paired ratio is adjusted for:
 *   steal  the CPU steal of each window (a shared host's other guests):
 *          log B/A is regressed on B's steal minus A's over the blocks
 *          and B/A is read at equal steal (stats_ratio_adjusted()), when
 *          every pair knows its steal, 4 pairs or more, and the steal
 *          differs between them at all;
 *   none   the plain mean of the blocks' log B/A.
 * Steal is the hypervisor's, not the variant's, so an A/A comparison
 * keeps its guarantee either way; on this 2-vCPU guest it took the sd of
 * a block's log B/A from 0.149 to 0.084 (report/VERDICTS.md).
 */
enum cmp_adjust
{
	CMP_ADJUST_STEAL = 0,
	CMP_ADJUST_NONE
};

const char *cmp_adjust_name(enum cmp_adjust a);
/* "steal" or "none" into *OUT; -1 when neither. */
int cmp_adjust_parse(const char *text, enum cmp_adjust *out);
/* "estimate" or "strict" into *OUT; -1 when neither. */
int cmp_rule_parse(const char *text, enum cmp_rule *out);

struct cmp_opts
{
	enum cmp_metric metric;
	double margin;   /* delta, e.g. 0.03 */
	double conf;     /* e.g. 0.95 */
	uint64_t seed;   /* of the bootstraps */
	bool paired;     /* pair samples by (run, block) */
	bool on_geomean; /* the outcome from the sweep's geometric means */
	enum cmp_rule rule;
	enum cmp_adjust adjust;                /* of paired ratios */
	char metric_full[CMP_METRIC_NAME_MAX]; /* probe:, profile: as given */
};

enum cmp_verdict
{
	CMP_REGRESSION,
	CMP_INCONCLUSIVE,
	CMP_SAME,     /* no regression, no better than A either */
	CMP_FASTER,   /* no regression, B better than A (interval past 1) */
	CMP_IMPROVED, /* no regression, B better by more than the margin */
	CMP_MISSING   /* a side has no sample at this point */
};

const char *cmp_verdict_name(enum cmp_verdict v);

/* The metric O judges, as people read it: "tps", "probe:kax.used". */
const char *cmp_opts_metric(const struct cmp_opts *o);

struct cmp_point
{
	const char *workload;
	const char *window; /* NULL: the whole point */
	int window_order;
	int clients;
	int na, nb;
	bool paired; /* the interval is from NA = NB pairs */
	double median_a, median_b;
	struct stats_ratio r; /* B/A, tested against the regression bound */
	double p_regression;  /* Holm-adjusted */
	double p_no_regression;
	enum cmp_verdict verdict;
	int more_repeats; /* INCONCLUSIVE: likely repeats to decide; -1 unknown */
};

/* Per workload and side: the shape of the tps curve. */
struct cmp_side_curve
{
	double peak_tps;
	int peak_clients;
	int cliff_clients; /* first client count past the peak below 50 %; 0 */
};

/*
 * The peak and the cliff of a curve: CLIENTS ascending, MEDIAN_TPS the
 * median tps at each.  The cliff is the first client count past the peak
 * whose tps is below half the peak's.  The one definition of both.
 */
void cmp_curve_facts(const int *clients, const double *median_tps, int n,
					 struct cmp_side_curve *c);

struct cmp_curve
{
	const char *workload;
	struct cmp_side_curve a, b;
	int npoints;
	int top_clients; /* highest client count both sides have */
	const struct cmp_point *top;
	double geo_ratio, geo_lo, geo_hi; /* geometric mean of the ratios */
	bool geo_paired;
	struct stats_ratio geo_r; /* geo_paired: the test itself (its spread,
							   * its adjustment) */
	/* the geometric mean judged like a point, Holm over the workloads */
	double geo_p_regression, geo_p_no_regression;
	enum cmp_verdict geo_verdict;
};

/*
 * Per workload and client count of a recipe with windows before, during
 * and after (e.g. a long transaction): each side's medians over blocks.
 */
struct cmp_window_side
{
	double before, during, after; /* tps */
	double dip;                   /* during / before */
	double recovery_s;            /* median; < 0 never; NAN unknown */
};

struct cmp_window_facts
{
	const char *workload;
	int clients;
	struct cmp_window_side a, b;
};

/*
 * Where the time went, per plan step measured alike on both sides ("reads
 * 8 clients, writes 8 clients") and per server: the functions whose share
 * of the servers' CPU samples (run --profile) changed most, B - A in
 * percentage points with an interval over blocks, and the wait events
 * whose sampled count per second changed most (every run samples them).
 */
struct cmp_why_func
{
	char *dso;
	char *symbol;
	double a_pct, b_pct; /* mean share over the blocks */
	struct stats_diff d; /* B - A, pp */
};

struct cmp_why_wait
{
	char *event;             /* "LWLock:WALInsert" */
	double a_per_s, b_per_s; /* backends seen in it per sample, mean */
};

struct cmp_why_node
{
	char *node;
	uint64_t a_samples, b_samples; /* the profiles' samples, all blocks */
	struct cmp_why_func *funcs;    /* largest |B - A| first */
	struct cmp_why_wait *waits;    /* largest |B - A| first */
	int na, nb;                    /* blocks with a profile of this node */
	int nfuncs;
	int nwaits;
	bool paired;  /* by block of the same run */
	bool counted; /* callgrind's functions (run --count): the samples are
				   * instructions per transaction, summed over blocks */
};

struct cmp_why
{
	char *step; /* what the step measured, as above */
	struct cmp_why_node *nodes;
	int nnodes;
};

/* How many functions and wait events each node lists. */
#define CMP_WHY_FUNCS 6
#define CMP_WHY_WAITS 4

enum cmp_outcome
{
	CMP_OUTCOME_NO_REGRESSION = 0,
	CMP_OUTCOME_REGRESSION = 1,
	CMP_OUTCOME_INCONCLUSIVE = 2
};

/* "NO-REGRESSION", "REGRESSION", "INCONCLUSIVE". */
const char *cmp_outcome_name(enum cmp_outcome o);

struct cmp_result
{
	struct cmp_opts opts;
	struct cmp_point *points; /* by workload, then clients */
	int npoints;
	struct cmp_curve *curves;
	int ncurves;
	struct cmp_window_facts *windows;
	int nwindows;
	struct cmp_why *why; /* compare_stored() only; none: NULL */
	int nwhy;
	int nregressions, ninconclusive, nmissing;
	enum cmp_outcome outcome; /* from the points, or the geometric means
							   * with opts.on_geomean */
};

/*
 * Compare samples A and B.  Points are the (workload, window, clients)
 * either side has; a point missing on one side is reported, not judged.
 * Holm's correction runs over the judged points, windows included.
 */
void compare_samples(const struct cmp_sample *a, int na,
					 const struct cmp_sample *b, int nb,
					 const struct cmp_opts *opts, struct cmp_result *out);
void compare_result_free(struct cmp_result *r);

/*
 * Recovery after an event: the seconds from FROM until the tps of a series
 * (one value per second), averaged over 3 seconds (fewer at its end),
 * first comes back to within 5 % of BEFORE; -1 when it never does.
 */
double cmp_recovery_seconds(const double *tps, int n, int from, double before);

/* "[0.912, 0.987]": a ratio's interval as every text output prints it
 * ("inf" unbounded; 3 significant digits from 1000 up). */
void cmp_interval_text(struct strbuf *out, double lo, double hi);

/* What the renderers say about each side (e.g. "run 12, variant base"). */
struct cmp_labels
{
	const char *a;
	const char *b;
	const char *recipe; /* or NULL */
};

enum cmp_format
{
	CMP_FORMAT_TEXT,
	CMP_FORMAT_MARKDOWN,
	CMP_FORMAT_JSON,
	CMP_FORMAT_JUNIT,
	CMP_FORMAT_GITHUB /* Markdown for the job summary, and the annotations */
};

int cmp_format_parse(const char *name, enum cmp_format *out);

/* JSON documents carry this version (see report/FORMATS.md). */
#define CMP_JSON_VERSION 1

/* S escaped for XML text and attributes, as chart_escape() does. */
void cmp_xml_escape(struct strbuf *out, const char *s);

/*
 * S as Markdown text that shows S and does nothing else: the ASCII
 * punctuation Markdown acts on (\ ` * _ [ ] < > | ~ & # $) gets a
 * backslash (CommonMark's escapes; GitHub's tables honour \|), but for
 * an underscore inside a word, which emphasises nothing, and line
 * ends become spaces, so that a stored name cannot open a link, an HTML
 * tag, a table cell, emphasis or a heading.  Control characters are left
 * to the terminal's escaping (visible_add()), as every byte written is.
 */
void cmp_md_escape(struct strbuf *out, const char *s);
/* S as it is, or with MD escaped for Markdown (cmp_md_escape()). */
void cmp_name_add(struct strbuf *out, const char *s, bool md);

void compare_render(struct strbuf *out, const struct cmp_result *r,
					const struct cmp_labels *labels, enum cmp_format format);

/*
 * GitHub Actions' workflow commands for a comparison, one per line: an
 * ::error:: per REGRESSION, a ::warning:: per INCONCLUSIVE or missing point
 * (per geometric mean with on_geomean), and a ::notice:: of the outcome;
 * their text escaped as the runner unescapes it (%25, %0D, %0A; %3A and
 * %2C in a title).  The job summary is compare_render()'s Markdown.
 */
void compare_annotations(struct strbuf *out, const struct cmp_result *r,
						 const struct cmp_labels *labels);

struct store_point_row;
struct store;

/*
 * One side of a comparison of stored points: what it selects (set by the
 * caller), then what compare_stored() read and made of it.
 */
struct cmp_side
{
	const char *text; /* the selector as given, for messages */
	struct store_selector s;
	int block_lo, block_hi; /* 0-based, inclusive; hi < 0: all */
	/* filled by compare_stored(); cmp_side_release() frees */
	struct store_point_row *rows;
	int nrows;
	struct cmp_sample *samples;
	int nsamples;
	int asamples;
	char **kept; /* strings the samples point at */
	int nkept;
	int64_t *runs;
	int nruns;
	int skipped_aborted; /* points with aborted clients, left out */
	char label[512];     /* "run 12, variant base, 6 samples" */
};

/* What to judge; zero fields take the stored run's defaults. */
struct cmp_query
{
	bool metric_set;
	enum cmp_metric metric;  /* else the run's measure:, else tps */
	const char *metric_full; /* probe:, profile: as given */
	const char *workload;    /* NULL: the measure's workload, or all */
	const int *points;       /* only these client counts (NPOINTS > 0) */
	int npoints;
	double margin; /* <= 0: the metric's default */
	enum cmp_rule rule;
	/* false: a sequential run's own rule, else estimate (the default) */
	bool rule_set;
	double conf;
	/*
	 * false: a run made with --until-decided is judged at the confidence
	 * its design gives the blocks it has (sequential.h), as it judged
	 * itself; CONF otherwise
	 */
	bool conf_set;
	uint64_t seed;
	bool on_geomean;
	bool on_set; /* false: a sequential run's own "on" (points, geomean) */
	enum cmp_adjust adjust;
	/* false: a sequential run's own (none before it was stored), else
	 * steal (the default) */
	bool adjust_set;
	bool no_why; /* true: leave cmp_result.why empty (a run's own looks) */
};

/*
 * Judge side B against side A from the store: points (a selector that
 * leaves the variant open must meet one variant per run), windows, and
 * the measure: of B's first run; paired when both sides come from the
 * same runs.  Fills RES (free with compare_result_free()) and LABELS
 * (borrowed from A and B until cmp_side_release()).  -1 with ERR
 * (PGC_ERR_USAGE for a selection with nothing to judge).
 */
int compare_stored(struct store *st, struct cmp_side *a, struct cmp_side *b,
				   const struct cmp_query *q, struct cmp_result *res,
				   struct cmp_labels *labels, struct pgc_error *err);
void cmp_side_release(struct cmp_side *sd);

/*
 * Where the time went between sides A and B as compare_stored() read
 * them: for each plan step signature both sides' samples have, each
 * node's profile diff and wait-event diff (struct cmp_why), at
 * confidence CONF, into OUT->why.  Nothing stored to say: none.  -1 with
 * ERR.
 */
int cmp_why_stored(struct store *st, const struct cmp_side *a,
				   const struct cmp_side *b, double conf,
				   struct cmp_result *out, struct pgc_error *err);
/* Free N of them (compare_result_free() frees a result's). */
void cmp_why_free(struct cmp_why *why, int n);

/*
 * What a plan step measured, as people read it: "reads 8 clients, writes
 * 8 clients", one "WORKLOAD N client(s)" per distinct part of the N
 * given, sorted.  The one spelling of a step (cmp_why, the HTML report's
 * per-second sections).  Caller frees.
 */
char *cmp_step_signature(const char *const *workloads, const int *clients,
						 int n);

/* How a look judges (run --until-decided, bisect's steps). */
struct cmp_look
{
	double conf;
	double margin; /* <= 0: the metric's default */
	int metric;    /* -1: the run's measure:, else an enum cmp_metric */
	char metric_full[CMP_METRIC_NAME_MAX]; /* probe:, profile: as given */
	enum cmp_rule rule;
	bool on_geomean; /* each workload's geometric mean, not each point */
	enum cmp_adjust adjust;
};

/*
 * One look of run RUN_ID (run --until-decided): VARIANTS[0] against each
 * of VARIANTS[1..] as HOW says, as gate judges them.  *OUTCOME:
 * REGRESSION if any is, NO-REGRESSION if all are, INCONCLUSIVE
 * otherwise; each pair's verdicts for people appended to DETAIL.  -1
 * with ERR.
 */
int compare_look(struct store *st, int64_t run_id, const char *const *variants,
				 int nvariants, const struct cmp_look *how,
				 enum cmp_outcome *outcome, struct strbuf *detail,
				 struct pgc_error *err);

/*
 * The metric M of a stored point, in tps or ms (p95 decoded from its
 * histogram); NAN when it has none, and for CMP_DIP, which is read off
 * the point's stored windows (compare_stored()).  The one reading of a
 * point's metric.
 */
double point_metric(const struct store_point_row *p, enum cmp_metric m);

#endif /* PGCLIFF_COMPARE_H */
