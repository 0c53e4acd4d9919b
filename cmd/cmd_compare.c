/*
 * cmd_compare.c - `pgcliff compare` and `pgcliff gate`: select stored
 * points for a baseline A and a candidate B, compare them point by point
 * (report/compare) and print the result in the format asked for.  The
 * gate's exit code is the verdict: 0 no regression, 1 regression, 2
 * inconclusive.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "compare.h"
#include "store.h"

static int compare_fn(int argc, char **argv);
static int gate_fn(int argc, char **argv);

#define COMPARE_OPTIONS                                                          \
	"  A and B select stored points:\n"                                          \
	"    12                 run 12 (which must have one variant)\n"              \
	"    12:locks8          variant locks8 of run 12\n"                          \
	"    locks8             variant locks8 of the newest run that has it\n"      \
	"    'recipe=emit_message variant=locks64 last=5'\n"                         \
	"                       keys run=, recipe=, variant=, last=N (the N\n"       \
	"                       newest runs), blocks=N or N-M (repeats, 1-based)\n"  \
	"  Given one run with exactly two variants, A is its first, B its second.\n" \
	"  Points of both sides measured in the same run are paired by block.\n"     \
	"\n"                                                                         \
	"options:\n"                                                                 \
	"      --metric M          tps (default: the recipe's measure:),\n"          \
	"                          latency_avg, p50, p90, p95, p99, p999, max,\n"    \
	"                          dip (during/before of the recipe's windows,\n"    \
	"                          per block: a long transaction's cost)\n"          \
	"      --max-regression P  the margin: 3% for tps, 5% for latencies and\n"   \
	"                          the dip\n"                                        \
	"      --rule estimate|strict\n"                                             \
	"                          REGRESSION when B is worse beyond doubt and\n"    \
	"                          its estimate beyond the margin (estimate, the\n"  \
	"                          default), or only when the whole interval is\n"   \
	"                          beyond the margin (strict)\n"                     \
	"      --workload W        only this workload (default: the measure's)\n"    \
	"      --points LIST       only these client counts, e.g. 1,4,16\n"          \
	"      --on points|geomean the verdict from every point (default), or\n"     \
	"                          from each workload's geometric mean over the\n"   \
	"                          sweep (one test: more power, less detail)\n"      \
	"      --confidence C      of the intervals (default 0.95; a run made\n"     \
	"                          with --until-decided: its last look's)\n"         \
	"      --seed N            of the bootstrap (default 5432)\n"                \
	"      --format F          text, markdown, json or junit\n" CMD_HELP_DB      \
		CMD_HELP_HELP

const struct cmd cmd_compare = {
	.name = "compare",
	.summary = "compare stored points: ratios, intervals, verdicts",
	.usage =
		"usage: pgcliff compare A [B] [OPTIONS]\n"
		"\n"
		"Per sweep point: both medians, the ratio B/A with its interval, and a\n"
		"verdict against the margin (REGRESSION; SAME, FASTER or IMPROVED;\n"
		"INCONCLUSIVE with the repeats likely to decide it), Holm-corrected\n"
		"over the points; above, the curve facts (peak, cliff, top, geometric\n"
		"mean).\n"
		"\n" COMPARE_OPTIONS "      --check             exit as gate does\n"
		"\n"
		"exit codes: 0 (with --check: no regression), 1 regression (--check),\n"
		"2 inconclusive (--check), 64 usage, 70 store error.\n",
	.fn = compare_fn,
};

const struct cmd cmd_gate = {
	.name = "gate",
	.summary = "exit 1 when B regresses against A, 2 when undecided",
	.usage =
		"usage: pgcliff gate A [B] [OPTIONS]\n"
		"\n"
		"compare, with its verdict as the exit code, for CI.  A point is a\n"
		"regression only when its whole interval lies beyond the margin after\n"
		"Holm's correction: noise makes a gate inconclusive, never red.\n"
		"\n" COMPARE_OPTIONS "\n"
		"exit codes: 0 no regression, 1 regression, 2 inconclusive, 64 usage,\n"
		"70 store error.\n",
	.fn = gate_fn,
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
	bool gate;
	bool check;
	bool metric_set;
	enum cmp_metric metric;
	double margin; /* < 0: the metric's default */
	const char *workload;
	int *points;
	int npoints;
	double conf;
	bool conf_set;
	uint64_t seed;
	bool on_geomean;
	bool on_set;
	enum cmp_rule rule;
	bool rule_set;
	enum cmp_format format;
	const char *db;
	const char *args[2];
	int nargs;
};

static int
parse_compare_options(const struct cmd *c, int argc, char **argv,
					  struct compare_opts *o)
{
	static const struct option longopts[] = {
		{"metric", required_argument, NULL, 1},
		{"max-regression", required_argument, NULL, 2},
		{"margin", required_argument, NULL, 2},
		{"workload", required_argument, NULL, 3},
		{"points", required_argument, NULL, 4},
		{"confidence", required_argument, NULL, 5},
		{"seed", required_argument, NULL, 6},
		{"format", required_argument, NULL, 7},
		CMD_LONGOPT_DB,
		{"check", no_argument, NULL, 9},
		{"on", required_argument, NULL, 10},
		{"rule", required_argument, NULL, 11},
		{NULL, 0, NULL, 0}};
	int ch;
	char *end;

	o->margin = -1;
	o->conf = 0.95;
	o->seed = DEFAULT_BOOTSTRAP_SEED;
	o->format = CMP_FORMAT_TEXT;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":", longopts, NULL)) != -1)
	{
		switch (ch)
		{
			case 1:
				if (cmp_metric_parse(optarg, &o->metric) < 0)
					return cmd_usage_error(
						c,
						"unknown metric \"%s\" (tps, latency_avg, p50, p90, "
						"p95, p99, p999, max, dip)",
						optarg);
				o->metric_set = true;
				break;
			case 2:
				if (!cmd_parse_fraction(optarg, &o->margin) ||
					!(o->margin > 0 && o->margin < 1))
					return cmd_usage_error(
						c, "invalid margin \"%s\" (want e.g. 3%% or 0.03)",
						optarg);
				break;
			case 3:
				o->workload = optarg;
				break;
			case 4:
				free(o->points);
				if (!cmd_parse_count_list(optarg, 100000, &o->points,
										  &o->npoints))
					return cmd_usage_error(
						c, "invalid client list \"%s\" (want e.g. 1,4,16)",
						optarg);
				break;
			case 5:
				errno = 0;
				o->conf = strtod(optarg, &end);
				o->conf_set = true;
				if (*end || errno || !(o->conf >= 0.5 && o->conf < 1))
					return cmd_usage_error(
						c, "invalid confidence \"%s\" (0.5 to 0.999)", optarg);
				break;
			case 6:
				errno = 0;
				o->seed = strtoull(optarg, &end, 10);
				if (*end || errno || optarg[0] == '-')
					return cmd_usage_error(c, "invalid seed \"%s\"", optarg);
				break;
			case 7:
				if (cmp_format_parse(optarg, &o->format) < 0)
					return cmd_usage_error(
						c,
						"unknown format \"%s\" (text, markdown, json, junit)",
						optarg);
				break;
			case CMD_OPT_DB:
				o->db = optarg;
				break;
			case 9:
				if (o->gate)
					return cmd_option_error(c, '?', argv);
				o->check = true;
				break;
			case 10:
				o->on_set = true;
				if (strcmp(optarg, "points") == 0)
					o->on_geomean = false;
				else if (strcmp(optarg, "geomean") == 0)
					o->on_geomean = true;
				else
					return cmd_usage_error(
						c, "invalid --on \"%s\" (points or geomean)", optarg);
				break;
			case 11:
				if (cmp_rule_parse(optarg, &o->rule) < 0)
					return cmd_usage_error(
						c, "invalid --rule \"%s\" (estimate or strict)",
						optarg);
				o->rule_set = true;
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
		return cmd_usage_error(c, "no baseline given");
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
	int rc = EXIT_OK;

	if (cmd_wants_help(c, argc, argv))
		return EXIT_OK;
	memset(&o, 0, sizeof(o));
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

	ctx.db = o.db;
	if ((st = cmd_open_store(&ctx, false)) == NULL)
		goto done;
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
	memset(&q, 0, sizeof(q));
	q.metric_set = o.metric_set;
	q.metric = o.metric;
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
	if (compare_stored(st, &a.cs, &b.cs, &q, &res, &labels, &ctx.err) < 0)
		goto done;
	compare_render(&out, &res, &labels, o.format);
	fputs(out.buf, stdout);
	fflush(stdout);
	rc = gate || o.check ? (int) res.outcome : EXIT_OK;
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
