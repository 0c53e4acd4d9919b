/*
 * cmd_compare.c - `pgcliff compare`, `pgcliff gate` and `pgcliff report`:
 * select stored points for a baseline A and a candidate B, compare them
 * point by point (report/compare) and print the result in the format
 * asked for, or the HTML report of a run or a comparison (report/html).
 * The gate's exit code is the verdict: 0 no regression, 1 regression, 2
 * inconclusive.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "html.h"
#include "store.h"

static int compare_fn(int argc, char **argv);
static int gate_fn(int argc, char **argv);
static int report_fn(int argc, char **argv);

/* compare's and report's own options (the shared ones are opt.h's) */
enum
{
	OPT_CHECK = 256,
	OPT_CHART,
	OPT_CLIENTS,
	OPT_INCONCLUSIVE
};

#define SELECTORS_TEXT                                                          \
	"  A and B select stored points:\n"                                         \
	"    12                 run 12 (which must have one variant)\n"             \
	"    12:locks8          variant locks8 of run 12\n"                         \
	"    locks8             variant locks8 of the newest run that has it\n"     \
	"    'recipe=emit_message variant=locks64 last=5'\n"                        \
	"                       keys run=, recipe=, variant=, last=N (the N\n"      \
	"                       newest runs), blocks=N or N-M (repeats, 1-based)\n" \
	"  Given one run with exactly two variants, A is its first, B its "         \
	"second.\n"                                                                 \
	"  Points of both sides measured in the same run are paired by block.\n"

/* how a verdict is judged: compare, gate and report alike */
#define JUDGE_OPTS                                                            \
	CMD_OPT_METRIC_ENTRY, CMD_OPT_MAX_REGRESSION_ENTRY, CMD_OPT_RULE_ENTRY,   \
		CMD_OPT_ADJUST_ENTRY, CMD_OPT_WORKLOAD_ENTRY, CMD_OPT_POINTS_ENTRY,   \
		CMD_OPT_ON_ENTRY, CMD_OPT_CONFIDENCE_ENTRY,                           \
		CMD_OPT(CMD_OPT_SEED, "seed", "N", NULL,                              \
				"of the bootstrap (default 5432)")

#define VERDICT_OPTS                                                          \
	JUDGE_OPTS,                                                               \
		CMD_OPT(CMD_OPT_FORMAT, "format", "F",                                \
				"text markdown json junit github html svg",                   \
				"text, markdown, json, junit, github (Markdown\n"             \
				"for $GITHUB_STEP_SUMMARY, annotations), html\n"              \
				"(`pgcliff report`) or svg (its B/A chart)"),                 \
		CMD_OPT('o', "output", "FILE", "<file>",                              \
				"write there (whole, or not at all), not to\n"                \
				"stdout"),                                                    \
		CMD_OPT_DB_ENTRY

static const struct cmd_opt compare_opts[] = {
	VERDICT_OPTS, CMD_OPT(OPT_CHECK, "check", NULL, NULL, "exit as gate does"),
	CMD_OPT(OPT_INCONCLUSIVE, "inconclusive", "pass|fail", "pass fail",
			"with --check: exit 0 or 1 when undecided,\n"
			"not 2"),
	CMD_OPT_END};

static const struct cmd_opt gate_opts[] = {
	VERDICT_OPTS,
	CMD_OPT(OPT_INCONCLUSIVE, "inconclusive", "pass|fail", "pass fail",
			"exit 0 or 1 when undecided, not 2"),
	CMD_OPT_END};

static const struct cmd_opt report_opts[] = {
	CMD_OPT('o', "output", "FILE", "<file>",
			"write the page there (default: stdout)"),
	CMD_OPT(CMD_OPT_FORMAT, "format", "html|svg", "html svg",
			"the page (default), or one chart as an SVG\n"
			"file, e.g. for a pgsql-hackers mail"),
	CMD_OPT(OPT_CHART, "chart", "C", "tps ratio latency series lag",
			"with svg: tps (default), ratio, latency,\n"
			"series or lag"),
	CMD_OPT(OPT_CLIENTS, "clients", "N", NULL,
			"with svg: the series of this sweep point"),
	CMD_OPT_DB_ENTRY,
	CMD_OPT_HEADING("how the verdicts are judged, as compare:"),
	JUDGE_OPTS,
	CMD_OPT_END};

const struct cmd cmd_compare = {
	.name = "compare",
	.summary = "compare stored points: ratios, intervals, verdicts",
	.synopsis = "A [B] [OPTIONS]",
	.about =
		"Per sweep point: both medians, the ratio B/A with its interval, and a\n"
		"verdict against the margin (REGRESSION; SAME, FASTER or IMPROVED;\n"
		"INCONCLUSIVE with the repeats likely to decide it), Holm-corrected\n"
		"over the points; above, the curve facts (peak, cliff, top, geometric\n"
		"mean).  Below, where the time went: per plan step and server, the\n"
		"functions whose share of the CPU profile changed most (runs made\n"
		"with --profile; B - A in percentage points, interval over blocks)\n"
		"and the wait events whose count per sample changed most.\n"
		"\n" SELECTORS_TEXT,
	.opts = compare_opts,
	.exits =
		"exit codes: 0 (with --check: no regression), 1 regression (--check),\n"
		"2 inconclusive (--check), 64 usage, 65 no such run or variant, 70\n"
		"store error.\n",
	.fn = compare_fn,
};

const struct cmd cmd_gate = {
	.name = "gate",
	.summary = "exit 1 when B regresses against A, 2 when undecided",
	.synopsis = "A [B] [OPTIONS]",
	.about =
		"compare, with its verdict as the exit code, for CI.  A point is a\n"
		"regression only when its whole interval lies beyond the margin after\n"
		"Holm's correction: noise makes a gate inconclusive, never red.\n"
		"\n" SELECTORS_TEXT,
	.opts = gate_opts,
	.exits =
		"exit codes: 0 no regression, 1 regression, 2 inconclusive, 64 usage,\n"
		"65 no such run or variant, 70 store error.\n",
	.fn = gate_fn,
};

const struct cmd cmd_report = {
	.name = "report",
	.summary = "one HTML page of a run or a comparison, or an SVG chart",
	.synopsis = "RUN [OPTIONS]\nA B [OPTIONS]",
	.about =
		"One self-contained HTML file (inline SVG and CSS, no script, no\n"
		"network: it opens as a mail attachment or a CI artifact): tps\n"
		"against clients on a log2 axis with the peak and the cliff, B/A per\n"
		"point with its interval, the margin band and the verdict's colour,\n"
		"latency p50 and p99 against clients, the per-second series of every\n"
		"workload with its timed events and windows, the servers' samples\n"
		"(replay lag, wait events, conflicts), the verdict tables and the\n"
		"provenance (versions, settings that differ, defines, builds, the\n"
		"recipe).  With RUN, each variant after the first is judged against\n"
		"the first; with A and B (selectors as compare takes them), B against\n"
		"A.\n",
	.opts = report_opts,
	.exits =
		"exit codes: 0 written, 64 usage (a chart that does not apply), 65\n"
		"no such run or variant, 70 store or write error.\n",
	.fn = report_fn,
};

#define DEFAULT_BOOTSTRAP_SEED 5432

/* A selector as given: the text its strings point into, and the side. */
struct side
{
	struct cmd_selector sel;
	char *copy;
	struct cmp_side cs;
};

struct compare_opts
{
	double margin; /* < 0: the metric's default */
	double conf;
	uint64_t seed;
	const char *workload;
	int *points;
	const char *document; /* "html" or "svg"; NULL: FORMAT */
	const char *output;   /* -o; NULL: stdout */
	const char *chart;
	const char *db;
	const char *args[2];
	enum cmp_metric metric;
	char metric_full[CMP_METRIC_NAME_MAX];
	enum cmp_rule rule;
	enum cmp_adjust adjust;
	enum cmp_format format;
	int npoints;
	int clients;
	int nargs;
	int inconclusive_exit; /* --inconclusive: what 2 becomes */
	bool gate;
	bool check;
	bool report; /* `pgcliff report` */
	bool metric_set;
	bool conf_set;
	bool on_geomean;
	bool on_set;
	bool rule_set;
	bool adjust_set;
	bool inconclusive_set;
};

/*
 * compare's and gate's options (C says which) into O: one case per option
 * of their tables, each a few lines of checking with its own message.
 */
static int
parse_compare_options(const struct cmd *c, int argc, char **argv,
					  struct compare_opts *o)
{
	char why[120];
	int ch;
	char *end;

	o->margin = -1;
	o->conf = 0.95;
	o->seed = DEFAULT_BOOTSTRAP_SEED;
	o->format = CMP_FORMAT_TEXT;
	o->inconclusive_exit = CMP_OUTCOME_INCONCLUSIVE;
	if (o->report)
		o->document = "html";
	while ((ch = cmd_getopt(c, argc, argv)) != -1)
	{
		switch (ch)
		{
			case CMD_OPT_METRIC:
				if (cmp_metric_parse_full(optarg, &o->metric, o->metric_full,
										  why) < 0)
					return cmd_usage_error(
						c, "unknown metric \"%s\" (%s)", optarg,
						why[0] ? why
							   : "tps, latency_avg, p50, p90, p95, p99, "
								 "p999, max, dip, probe:PROBE.FIGURE, "
								 "profile:NODE:FUNCTION, instructions, "
								 "l1_misses, ll_misses");
				o->metric_set = true;
				break;
			case CMD_OPT_MAX_REGRESSION:
				if (!cmd_parse_fraction(optarg, &o->margin) ||
					!(o->margin > 0 && o->margin < 1))
					return cmd_usage_error(
						c, "invalid margin \"%s\" (want e.g. 3%% or 0.03)",
						optarg);
				break;
			case CMD_OPT_WORKLOAD:
				o->workload = optarg;
				break;
			case CMD_OPT_POINTS:
				free(o->points);
				if (!cmd_parse_count_list(optarg, 100000, &o->points,
										  &o->npoints))
					return cmd_usage_error(
						c, "invalid client list \"%s\" (want e.g. 1,4,16)",
						optarg);
				break;
			case CMD_OPT_CONFIDENCE:
				errno = 0;
				o->conf = strtod(optarg, &end);
				o->conf_set = true;
				if (*end || errno || !(o->conf >= 0.5 && o->conf < 1))
					return cmd_usage_error(
						c, "invalid confidence \"%s\" (0.5 to 0.999)", optarg);
				break;
			case CMD_OPT_SEED:
				errno = 0;
				o->seed = strtoull(optarg, &end, 10);
				if (*end || errno || optarg[0] == '-')
					return cmd_usage_error(c, "invalid seed \"%s\"", optarg);
				break;
			case CMD_OPT_FORMAT:
				o->document = NULL;
				if (strcmp(optarg, "html") == 0 || strcmp(optarg, "svg") == 0)
					o->document = optarg;
				else if (o->report)
					return cmd_usage_error(
						c, "unknown format \"%s\" (html or svg)", optarg);
				else if (cmp_format_parse(optarg, &o->format) < 0)
					return cmd_usage_error(c,
										   "unknown format \"%s\" (text, "
										   "markdown, json, junit, github, "
										   "html, svg)",
										   optarg);
				break;
			case 'o':
				if (!*optarg)
					return cmd_usage_error(c, "empty --output");
				o->output = optarg;
				break;
			case OPT_CHART:
				if (!report_chart_known(optarg))
					return cmd_usage_error(c,
										   "unknown chart \"%s\" (tps, ratio, "
										   "latency, series, lag)",
										   optarg);
				o->chart = optarg;
				break;
			case OPT_CLIENTS:
				if (!cmd_parse_count(optarg, 100000, &o->clients))
					return cmd_usage_error(c, "invalid client count \"%s\"",
										   optarg);
				break;
			case CMD_OPT_DB:
				o->db = optarg;
				break;
			case OPT_CHECK:
				o->check = true;
				break;
			case CMD_OPT_ON:
				o->on_set = true;
				if (strcmp(optarg, "points") == 0)
					o->on_geomean = false;
				else if (strcmp(optarg, "geomean") == 0)
					o->on_geomean = true;
				else
					return cmd_usage_error(
						c, "invalid --on \"%s\" (points or geomean)", optarg);
				break;
			case CMD_OPT_RULE:
				if (cmp_rule_parse(optarg, &o->rule) < 0)
					return cmd_usage_error(
						c, "invalid --rule \"%s\" (estimate or strict)",
						optarg);
				o->rule_set = true;
				break;
			case OPT_INCONCLUSIVE:
				if (strcmp(optarg, "pass") == 0)
					o->inconclusive_exit = CMP_OUTCOME_NO_REGRESSION;
				else if (strcmp(optarg, "fail") == 0)
					o->inconclusive_exit = CMP_OUTCOME_REGRESSION;
				else
					return cmd_usage_error(
						c, "invalid --inconclusive \"%s\" (pass or fail)",
						optarg);
				o->inconclusive_set = true;
				break;
			case CMD_OPT_ADJUST:
				if (cmp_adjust_parse(optarg, &o->adjust) < 0)
					return cmd_usage_error(
						c, "invalid --adjust \"%s\" (steal or none)", optarg);
				o->adjust_set = true;
				break;
			default:
				return cmd_option_error(c, ch, argv);
		}
	}
	for (; optind < argc; optind++)
	{
		if (o->nargs == 2)
			return cmd_usage_error(c, "unexpected argument '%s'",
								   argv[optind]);
		o->args[o->nargs++] = argv[optind];
	}
	if (o->nargs == 0)
		return cmd_usage_error(c, o->report ? "no run given"
											: "no baseline given");
	if (o->inconclusive_set && !o->gate && !o->check)
		return cmd_usage_error(c, "--inconclusive goes with --check");
	if ((o->chart || o->clients) &&
		(o->document == NULL || strcmp(o->document, "svg") != 0))
		return cmd_usage_error(c,
							   "--chart and --clients go with --format svg");
	if (o->report && o->workload && o->document &&
		strcmp(o->document, "html") == 0)
		return cmd_usage_error(c, "--workload goes with --format svg: the "
								  "page shows every workload");
	return 0;
}

/* `compare 12` with two variants in run 12: A its first, B its second. */
static int
split_run(struct store *st, struct side *a, struct side *b,
		  struct pgc_error *err)
{
	struct store_variant_row *vars;
	int nvars;

	if (a->sel.s.run_id == 0 || a->sel.s.variant || a->sel.s.recipe ||
		a->sel.s.last)
	{
		error_set(err, PGC_ERR_USAGE,
				  "one selector must be a run with two "
				  "variants");
		error_hint(err, "give A and B");
		return -1;
	}
	if (store_get_variants(st, a->sel.s.run_id, &vars, &nvars, err) < 0)
		return -1;
	if (nvars != 2)
	{
		error_set(err, PGC_ERR_USAGE,
				  "run %" PRId64 " has %d variant%s: give A and B",
				  a->sel.s.run_id, nvars, nvars == 1 ? "" : "s");
		if (nvars > 2)
			error_hint(err, "e.g. %" PRId64 ":%s %" PRId64 ":%s",
					   a->sel.s.run_id, vars[0].name, a->sel.s.run_id,
					   vars[1].name);
		store_variants_free(vars, nvars);
		return -1;
	}
	b->copy = xstrdup(vars[1].name);
	a->copy = xstrdup(vars[0].name);
	store_variants_free(vars, nvars);
	b->sel = a->sel;
	a->sel.s.variant = a->copy;
	b->sel.s.variant = b->copy;
	return 0;
}

/* OUT to -o's file (replaced whole) or stdout; EXIT_OK, else ERR set. */
static int
write_out(const struct compare_opts *o, const struct strbuf *out,
		  struct pgc_error *err)
{
	return cmd_write_output(o->output, out, err) < 0 ? EXIT_SOFTWARE : EXIT_OK;
}

/*
 * --format github: the Markdown to -o, else appended to the job summary
 * ($GITHUB_STEP_SUMMARY, as GitHub Actions sets it), else to stdout; in
 * GitHub Actions ($GITHUB_ACTIONS=true) the annotations to stdout, where
 * the runner reads workflow commands.  Outside it, stdout is Markdown.
 */
static int
write_github(const struct compare_opts *o, const struct cmp_result *res,
			 const struct cmp_labels *labels, const struct strbuf *summary,
			 struct pgc_error *err)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	const char *actions = getenv("GITHUB_ACTIONS");
	int rc;

	if (o->output == NULL && path && *path)
	{
		struct visible v;
		struct strbuf safe = STRBUF_INIT;
		FILE *f = fopen(path, "a");

		memset(&v, 0, sizeof(v));
		visible_add(&v, &safe, summary->buf ? summary->buf : "", summary->len);
		visible_finish(&v, &safe);
		rc = f && fwrite(safe.buf ? safe.buf : "", 1, safe.len, f) == safe.len
				 ? EXIT_OK
				 : EXIT_SOFTWARE;
		if (f && fclose(f) != 0)
			rc = EXIT_SOFTWARE;
		if (rc != EXIT_OK)
			error_set(err, PGC_ERR_IO,
					  "could not append to GITHUB_STEP_SUMMARY \"%s\": %s",
					  path, strerror(errno));
		strbuf_release(&safe);
	}
	else
		rc = write_out(o, summary, err);
	if (rc == EXIT_OK && actions && strcmp(actions, "true") == 0)
	{
		struct strbuf notes = STRBUF_INIT;

		compare_annotations(&notes, res, labels);
		fputs(notes.buf ? notes.buf : "", stdout);
		fflush(stdout);
		strbuf_release(&notes);
	}
	return rc;
}

static int
compare_main(const struct cmd *c, int argc, char **argv, bool gate)
{
	struct compare_opts o;
	struct side a, b;
	struct store *st = NULL;
	struct cmd_ctx ctx;
	struct cmp_result res;
	struct cmp_query q;
	struct cmp_labels labels;
	struct strbuf out = STRBUF_INIT;
	struct report_html_opts ro;
	int rc = EXIT_OK;

	if (cmd_wants_help(c, argc, argv))
		return EXIT_OK;
	memset(&o, 0, sizeof(o));
	memset(&ro, 0, sizeof(ro));
	o.report = c == &cmd_report;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&res, 0, sizeof(res));
	cmd_ctx_init(&ctx, c, NULL);
	o.gate = gate;
	if ((rc = parse_compare_options(c, argc, argv, &o)) != 0)
		goto done;
	a.copy = xstrdup(o.args[0]);
	if ((rc = cmd_parse_selector(c, a.copy, o.args[0], &a.sel)) != 0)
		goto done;
	if (o.nargs == 2)
	{
		b.copy = xstrdup(o.args[1]);
		if ((rc = cmd_parse_selector(c, b.copy, o.args[1], &b.sel)) != 0)
			goto done;
	}

	memset(&q, 0, sizeof(q));
	q.metric_set = o.metric_set;
	q.metric = o.metric;
	q.metric_full = o.metric_full;
	q.workload = o.workload;
	q.points = o.points;
	q.npoints = o.npoints;
	q.margin = o.margin;
	q.conf = o.conf;
	q.conf_set = o.conf_set;
	q.seed = o.seed;
	q.on_geomean = o.on_geomean;
	q.on_set = o.on_set;
	q.rule = o.rule;
	q.rule_set = o.rule_set;
	q.adjust = o.adjust;
	q.adjust_set = o.adjust_set;
	ro.chart = o.document && strcmp(o.document, "svg") == 0
				   ? (o.chart    ? o.chart
					  : o.report ? "tps"
								 : "ratio")
				   : NULL;
	ro.workload = o.workload;
	ro.clients = o.clients;

	ctx.db = o.db;
	if ((st = cmd_open_store(&ctx, false)) == NULL)
		goto done;
	if (o.report && o.nargs == 1)
	{
		const struct store_selector *s = &a.sel.s;

		if (s->run_id == 0 || s->variant || s->recipe || s->last ||
			a.sel.block_lo > 0 || a.sel.block_hi >= 0)
		{
			rc = cmd_usage_error(c, "report takes a run (e.g. 12), or A and B "
									"as compare takes them");
			goto done;
		}
		if (report_html_run(st, s->run_id, &q, &ro, &out, &ctx.err) < 0)
			goto done;
		rc = write_out(&o, &out, &ctx.err);
		goto done;
	}
	if (o.nargs == 1)
	{
		char *keep = a.copy;

		if (split_run(st, &a, &b, &ctx.err) < 0)
			goto done;
		free(keep); /* the selector kept only its run id */
	}
	for (int i = 0; i < 2; i++)
	{
		struct side *sd = i ? &b : &a;

		sd->cs.text = sd->sel.text;
		sd->cs.s = sd->sel.s;
		sd->cs.block_lo = sd->sel.block_lo;
		sd->cs.block_hi = sd->sel.block_hi;
	}
	if (compare_stored(st, &a.cs, &b.cs, &q, &res, &labels, &ctx.err) < 0)
		goto done;
	if (o.document)
	{
		if (report_html_compare(st, &a.cs, &b.cs, &res, &labels, &ro, &out,
								&ctx.err) < 0)
			goto done;
	}
	else
		compare_render(&out, &res, &labels, o.format);
	rc = o.format == CMP_FORMAT_GITHUB && !o.document
			 ? write_github(&o, &res, &labels, &out, &ctx.err)
			 : write_out(&o, &out, &ctx.err);
	if (rc != EXIT_OK)
		goto done;
	rc = gate || o.check ? (int) res.outcome : EXIT_OK;
	if (rc == CMP_OUTCOME_INCONCLUSIVE)
		rc = o.inconclusive_exit;
	goto done;

done:
	strbuf_release(&out);
	compare_result_free(&res);
	for (int i = 0; i < 2; i++)
	{
		struct side *sd = i ? &b : &a;

		cmp_side_release(&sd->cs);
		free(sd->copy);
	}
	free(o.points);
	ctx.exit_code = rc;
	return cmd_ctx_finish(&ctx);
}

static int
compare_fn(int argc, char **argv)
{
	return compare_main(&cmd_compare, argc, argv, false);
}

static int
gate_fn(int argc, char **argv)
{
	return compare_main(&cmd_gate, argc, argv, true);
}

static int
report_fn(int argc, char **argv)
{
	return compare_main(&cmd_report, argc, argv, false);
}
