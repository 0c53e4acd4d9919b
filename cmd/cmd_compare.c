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
	"    'recipe=emit_message variant=locks64 last=5'\n"                         \
	"                       keys run=, recipe=, variant=, last=N (the N\n"       \
	"                       newest runs), blocks=N or N-M (repeats, 1-based)\n"  \
	"  Given one run with exactly two variants, A is its first, B its second.\n" \
	"  Points of both sides measured in the same run are paired by block.\n"     \
	"\n"                                                                         \
	"options:\n"                                                                 \
	"      --metric M          tps (default: the recipe's measure:),\n"          \
	"                          latency_avg, p50, p90, p95, p99, p999, max\n"     \
	"      --max-regression P  the margin: 3% for tps, 5% for latencies\n"       \
	"      --workload W        only this workload (default: the measure's)\n"    \
	"      --points LIST       only these client counts, e.g. 1,4,16\n"          \
	"      --on points|geomean the verdict from every point (default), or\n"     \
	"                          from each workload's geometric mean over the\n"   \
	"                          sweep (one test: more power, less detail)\n"      \
	"      --confidence C      of the intervals (default 0.95)\n"                \
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

struct sel
{
	const char *text;
	struct store_selector s;
	int block_lo, block_hi; /* 0-based, inclusive; hi < 0: all */
};

static bool
all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char) s[i]))
			return false;
	return true;
}

/* Parse a selector; its strings point into TEXT's copy held by OWN. */
static int
parse_sel(const struct cmd *c, char *text, const char *orig, struct sel *sel)
{
	char *colon = strchr(text, ':');

	memset(sel, 0, sizeof(*sel));
	sel->text = orig;
	sel->block_hi = -1;
	if (all_digits(text, strlen(text)))
	{
		sel->s.run_id = strtoll(text, NULL, 10);
		return sel->s.run_id > 0 ? 0 : cmd_usage_error(c, "no run 0");
	}
	if (colon && !strchr(text, '=') &&
		all_digits(text, (size_t) (colon - text)))
	{
		*colon = '\0';
		sel->s.run_id = strtoll(text, NULL, 10);
		sel->s.variant = colon + 1;
		if (sel->s.variant[0] == '\0')
			return cmd_usage_error(c, "empty variant in \"%s\"", orig);
		return 0;
	}
	for (char *tok = strtok(text, " \t"); tok; tok = strtok(NULL, " \t"))
	{
		char *eq = strchr(tok, '=');
		char *v;

		if (eq == NULL)
			return cmd_usage_error(c,
								   "invalid selector \"%s\": \"%s\" is not "
								   "KEY=VALUE",
								   orig, tok);
		*eq = '\0';
		v = eq + 1;
		if (strcmp(tok, "run") == 0 && all_digits(v, strlen(v)))
			sel->s.run_id = strtoll(v, NULL, 10);
		else if (strcmp(tok, "recipe") == 0 && v[0])
			sel->s.recipe = v;
		else if (strcmp(tok, "variant") == 0 && v[0])
			sel->s.variant = v;
		else if (strcmp(tok, "last") == 0)
		{
			if (!cmd_parse_count(v, 1000000, &sel->s.last))
				return cmd_usage_error(c, "invalid last=%s in \"%s\"", v,
									   orig);
		}
		else if (strcmp(tok, "blocks") == 0)
		{
			int lo, hi;
			char *dash = strchr(v, '-');

			if (dash)
				*dash = '\0';
			if (!cmd_parse_count(v, 1000, &lo) ||
				!cmd_parse_count(dash ? dash + 1 : v, 1000, &hi) || hi < lo)
				return cmd_usage_error(c, "invalid blocks= in \"%s\"", orig);
			sel->block_lo = lo - 1;
			sel->block_hi = hi - 1;
		}
		else
		{
			cmd_usage_error(c, "invalid selector key \"%s=%s\" in \"%s\"", tok,
							v, orig);
			fprintf(stderr,
					"hint: keys are run, recipe, variant, last, blocks\n");
			return EXIT_USAGE;
		}
	}
	return 0;
}

struct side
{
	struct sel sel;
	char *copy;
	struct store_point_row *rows;
	int nrows;
	struct cmp_sample *samples;
	int nsamples;
	int asamples;
	char **kept; /* strings the samples point at, freed with the side */
	int nkept;
	int64_t *runs;
	int nruns;
	int skipped_aborted;
	char label[512];
};

/* A copy of TEXT that lives as long as SD. */
static const char *
side_keep(struct side *sd, const char *text)
{
	sd->kept = xrealloc(sd->kept, (size_t) (sd->nkept + 1) * sizeof(char *));
	return sd->kept[sd->nkept++] = xstrdup(text ? text : "");
}

/* A new, zeroed sample of SD. */
static struct cmp_sample *
side_new_sample(struct side *sd)
{
	if (sd->nsamples == sd->asamples)
	{
		sd->asamples = sd->asamples ? 2 * sd->asamples : 64;
		sd->samples = xrealloc(sd->samples,
							   (size_t) sd->asamples * sizeof(*sd->samples));
	}
	memset(&sd->samples[sd->nsamples], 0, sizeof(*sd->samples));
	return &sd->samples[sd->nsamples++];
}

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
	uint64_t seed;
	bool on_geomean;
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
						"p95, p99, p999, max)",
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
				if (strcmp(optarg, "points") == 0)
					o->on_geomean = false;
				else if (strcmp(optarg, "geomean") == 0)
					o->on_geomean = true;
				else
					return cmd_usage_error(
						c, "invalid --on \"%s\" (points or geomean)", optarg);
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

static bool
wanted_clients(const struct compare_opts *o, int clients)
{
	if (o->npoints == 0)
		return true;
	for (int i = 0; i < o->npoints; i++)
		if (o->points[i] == clients)
			return true;
	return false;
}

static void
add_run(struct side *sd, int64_t id)
{
	for (int i = 0; i < sd->nruns; i++)
		if (sd->runs[i] == id)
			return;
	sd->runs = xrealloc(sd->runs, (size_t) (sd->nruns + 1) * sizeof(int64_t));
	sd->runs[sd->nruns++] = id;
}

/*
 * Read a side's points.  A selector that leaves the variant open must
 * meet one variant per run: comparing "run 12" when it holds two
 * variants would mix them.
 */
static int
load_side(struct store *st, struct side *sd, struct pgc_error *err)
{
	if (store_select_points(st, &sd->sel.s, &sd->rows, &sd->nrows, err) < 0)
		return -1;
	if (sd->nrows == 0)
	{
		error_set(err, PGC_ERR_USAGE, "\"%s\" matches no stored points",
				  sd->sel.text);
		error_hint(err, "`pgcliff list` shows the stored runs and variants");
		return -1;
	}
	if (sd->sel.s.variant == NULL)
		for (int i = 1; i < sd->nrows; i++)
			if (sd->rows[i].run_id == sd->rows[0].run_id &&
				strcmp(sd->rows[i].variant, sd->rows[0].variant) != 0)
			{
				error_set(err, PGC_ERR_USAGE,
						  "run %" PRId64 " has several variants (%s, %s, ...):"
						  " say which one \"%s\" means",
						  sd->rows[0].run_id, sd->rows[0].variant,
						  sd->rows[i].variant, sd->sel.text);
				error_hint(err, "e.g. %" PRId64 ":%s", sd->rows[0].run_id,
						   sd->rows[0].variant);
				return -1;
			}
	return 0;
}

/*
 * The windows of one stored point, as the run stored them: a tps sample
 * per window, and on "during" the recovery time after it.
 */
static int
add_window_samples(struct store *st, struct side *sd,
				   const struct store_point_row *p, struct pgc_error *err)
{
	struct store_window_row *win = NULL;
	int n = 0;

	if (store_get_windows(st, p->id, &win, &n, err) < 0)
		return -1;
	for (int w = 0; w < n; w++)
	{
		struct cmp_sample *s;

		if (!(win[w].tps > 0))
			continue;
		s = side_new_sample(sd);
		s->workload = p->workload;
		s->clients = p->clients;
		s->run_id = p->run_id;
		s->block = p->repeat_idx;
		s->value = s->tps = win[w].tps;
		/* the name outlives WIN: the side's strings are the points' */
		s->window = side_keep(sd, win[w].name);
		s->window_order = w;
		s->recovery_s = win[w].has_dip ? win[w].recovery_s : NAN;
	}
	store_windows_free(win, n);
	return 0;
}

static int
build_samples(struct store *st, struct side *sd, const struct compare_opts *o,
			  const char *workload, struct pgc_error *err)
{
	for (int i = 0; i < sd->nrows; i++)
	{
		const struct store_point_row *p = &sd->rows[i];
		struct cmp_sample *s;
		double v;

		if (workload && strcmp(p->workload, workload) != 0)
			continue;
		if (!wanted_clients(o, p->clients))
			continue;
		if (p->repeat_idx < sd->sel.block_lo ||
			(sd->sel.block_hi >= 0 && p->repeat_idx > sd->sel.block_hi))
			continue;
		if (p->aborted_clients > 0)
		{
			/* its tps counts a window some clients left early */
			sd->skipped_aborted++;
			continue;
		}
		v = point_metric(p, o->metric);
		if (!(v > 0) || !isfinite(v))
			continue;
		s = side_new_sample(sd);
		s->workload = p->workload;
		s->clients = p->clients;
		s->run_id = p->run_id;
		s->block = p->repeat_idx;
		s->value = v;
		s->tps = p->tps;
		s->recovery_s = NAN;
		add_run(sd, p->run_id);
		if (o->metric == CMP_TPS && add_window_samples(st, sd, p, err) < 0)
			return -1;
	}
	return 0;
}

static void
make_label(struct side *sd)
{
	struct strbuf sb = STRBUF_INIT;
	const char *variant = sd->nrows ? sd->rows[0].variant : "?";

	if (sd->nruns == 1)
		strbuf_addf(&sb, "run %" PRId64, sd->runs[0]);
	else
	{
		strbuf_addf(&sb, "%d runs (", sd->nruns);
		for (int i = 0; i < sd->nruns && i < 6; i++)
			strbuf_addf(&sb, "%s%" PRId64, i ? ", " : "", sd->runs[i]);
		strbuf_addstr(&sb, sd->nruns > 6 ? ", ...)" : ")");
	}
	strbuf_addf(&sb, ", variant %s, %d sample%s", variant, sd->nsamples,
				sd->nsamples == 1 ? "" : "s");
	if (sd->sel.block_hi >= 0)
		strbuf_addf(&sb, ", blocks %d-%d", sd->sel.block_lo + 1,
					sd->sel.block_hi + 1);
	if (sd->skipped_aborted)
		strbuf_addf(&sb, " (%d point%s with aborted clients left out)",
					sd->skipped_aborted, sd->skipped_aborted == 1 ? "" : "s");
	snprintf(sd->label, sizeof(sd->label), "%s", sb.buf);
	strbuf_release(&sb);
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

/*
 * What run RUN_ID measured by default (the recipe's measure:, stored with
 * the run) into *METRIC and *WORKLOAD (NULL: every workload), its recipe
 * name into RECIPE.
 */
static int
run_defaults(struct store *st, int64_t run_id, struct side *keep,
			 bool *have_measure, enum cmp_metric *metric,
			 const char **workload, const char **recipe, struct pgc_error *err)
{
	struct store_run_row run;
	const char *m;

	if (store_get_run(st, run_id, &run, err) < 0)
		return -1;
	*recipe = side_keep(keep, run.recipe);
	m = run.measure;
	if (m && strchr(m, '.'))
	{
		*workload = side_keep(keep, m);
		*strchr((char *) *workload, '.') = '\0';
		m = strchr(m, '.') + 1;
	}
	*have_measure = m && cmp_metric_parse(m, metric) == 0;
	if (!*have_measure)
		*workload = NULL;
	store_run_row_release(&run);
	return 0;
}

static int
compare_main(const struct cmd *c, int argc, char **argv, bool gate)
{
	struct compare_opts o;
	struct side a, b;
	struct store *st = NULL;
	struct cmd_ctx ctx;
	const char *recipe = NULL, *measure_workload = NULL;
	enum cmp_metric measure_metric = CMP_TPS;
	bool have_measure = false;
	struct cmp_result res;
	struct cmp_opts co;
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
	if ((rc = parse_sel(c, a.copy, o.args[0], &a.sel)) != 0)
		goto done;
	if (o.nargs == 2)
	{
		b.copy = xstrdup(o.args[1]);
		if ((rc = parse_sel(c, b.copy, o.args[1], &b.sel)) != 0)
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
	if (load_side(st, &a, &ctx.err) < 0 || load_side(st, &b, &ctx.err) < 0)
		goto done;

	if (run_defaults(st, b.rows[0].run_id, &b, &have_measure, &measure_metric,
					 &measure_workload, &recipe, &ctx.err) < 0)
		goto done;
	if (!o.metric_set)
		o.metric = have_measure ? measure_metric : CMP_TPS;
	if (o.workload == NULL && have_measure)
		o.workload = measure_workload;
	if (build_samples(st, &a, &o, o.workload, &ctx.err) < 0 ||
		build_samples(st, &b, &o, o.workload, &ctx.err) < 0)
		goto done;
	if (a.nsamples == 0 || b.nsamples == 0)
	{
		error_set(&ctx.err, PGC_ERR_USAGE, "no %s samples left on side %s%s%s",
				  cmp_metric_name(o.metric), a.nsamples ? "B" : "A",
				  o.workload ? " for workload " : "",
				  o.workload ? o.workload : "");
		error_hint(&ctx.err, "check --workload, --points and blocks=");
		goto done;
	}
	make_label(&a);
	make_label(&b);

	/* paired when both sides come from the same runs */
	co.paired = a.nruns == b.nruns;
	for (int i = 0; i < a.nruns && co.paired; i++)
	{
		bool found = false;

		for (int j = 0; j < b.nruns; j++)
			found = found || a.runs[i] == b.runs[j];
		co.paired = found;
	}
	co.metric = o.metric;
	co.margin = o.margin > 0 ? o.margin : cmp_metric_default_margin(o.metric);
	co.conf = o.conf;
	co.seed = o.seed;
	co.on_geomean = o.on_geomean;
	compare_samples(a.samples, a.nsamples, b.samples, b.nsamples, &co, &res);
	labels.a = a.label;
	labels.b = b.label;
	labels.recipe = recipe;
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

		store_points_free(sd->rows, sd->nrows);
		free(sd->samples);
		free(sd->runs);
		free(sd->copy);
		for (int k = 0; k < sd->nkept; k++)
			free(sd->kept[k]);
		free(sd->kept);
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
