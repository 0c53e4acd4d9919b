/*
 * replay_looks.c - what `run --until-decided` would have said of stored
 * runs of fixed length, with and without the steal adjustment, judged by
 * the one path every verdict takes (compare_stored()):
 *
 *     replay_looks STORE MAX_BLOCKS [FIRST_RUN]
 *
 * For each run of STORE (from FIRST_RUN on) with variants a and b and at
 * least MAX_BLOCKS blocks: the looks the default design over MAX_BLOCKS
 * blocks schedules (2, 3, 5, 8, 12, ...), each judged on the first blocks
 * only at that look's confidence, stopping at the first decision — a
 * sequential gate replayed on the blocks as they came — and the fixed
 * gate, every MAX_BLOCKS blocks at 95 % (`gate` without --until-decided).
 * One line per run, then the tallies: verdicts, blocks to the decision
 * (mean), and the sd of a block's log B/A as measured and at equal steal.
 * A benchmark tool (tests/bench/aa_replay.sh), not a test.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "sequential.h"
#include "store.h"

struct tally
{
	int n[3]; /* by enum cmp_outcome */
	long blocks;
};

/* Run RUN's a against b over its first BLOCKS blocks at CONF. */
static int
judge(struct store *st, int64_t run, int blocks, double conf,
	  enum cmp_adjust adjust, struct cmp_result *res, struct pgc_error *err)
{
	struct cmp_side a, b;
	struct cmp_query q;
	struct cmp_labels labels;
	int rc;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&q, 0, sizeof(q));
	a.text = a.s.variant = "a";
	b.text = b.s.variant = "b";
	a.s.run_id = b.s.run_id = run;
	a.block_hi = b.block_hi = blocks - 1;
	q.conf = conf;
	q.conf_set = q.on_set = q.rule_set = q.adjust_set = true;
	q.rule = CMP_RULE_ESTIMATE;
	q.adjust = adjust;
	q.seed = 5432;
	q.no_why = true;
	rc = compare_stored(st, &a, &b, &q, res, &labels, err);
	cmp_side_release(&a);
	cmp_side_release(&b);
	return rc;
}

/* The sequential replay of RUN: its outcome, *AT the blocks it took. */
static int
replay(struct store *st, int64_t run, const struct seq_design *d,
	   enum cmp_adjust adjust, enum cmp_outcome *out, int *at,
	   struct pgc_error *err)
{
	for (int n = 2; n <= d->max_blocks; n++)
	{
		struct cmp_result res;

		if (!seq_is_look(d, n))
			continue;
		if (judge(st, run, n, seq_conf_at(d, n), adjust, &res, err) < 0)
			return -1;
		*out = res.outcome;
		*at = n;
		compare_result_free(&res);
		if (*out != CMP_OUTCOME_INCONCLUSIVE)
			break;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct pgc_error err;
	struct store *st;
	struct store_run_row *runs = NULL;
	int nruns = 0, max_blocks, gates = 0;
	int64_t first = argc > 3 ? strtoll(argv[3], NULL, 10) : 0;
	struct tally seq[2], fixed[2];
	double sd_sum[2] = {0, 0};
	struct seq_design d;

	if (argc < 3 || (max_blocks = atoi(argv[2])) < 2)
	{
		fprintf(stderr, "usage: replay_looks STORE MAX_BLOCKS [FIRST_RUN]\n");
		return 64;
	}
	d = seq_design_default(max_blocks);
	memset(seq, 0, sizeof(seq));
	memset(fixed, 0, sizeof(fixed));
	if ((st = store_open_read(argv[1], &err)) == NULL ||
		store_list_runs(st, NULL, NULL, 0, &runs, &nruns, &err) < 0)
	{
		fprintf(stderr, "replay_looks: %s\n", err.message);
		return 1;
	}
	printf("%-5s %-28s %-28s %-16s %-16s %s\n", "run", "sequential, steal",
		   "sequential, none", "fixed, steal", "fixed, none",
		   "block sd (steal/none)");
	for (int i = nruns - 1; i >= 0; i--)
	{
		int64_t id = runs[i].id;
		char cell[4][64];
		double sd[2] = {NAN, NAN};
		bool ok = id >= first;

		for (int k = 0; k < 2 && ok; k++)
		{
			enum cmp_adjust adj = k == 0 ? CMP_ADJUST_STEAL : CMP_ADJUST_NONE;
			enum cmp_outcome o = CMP_OUTCOME_INCONCLUSIVE;
			struct cmp_result res;
			int at = 0;

			/* a run shorter than the design, or without a and b: left out */
			if (judge(st, id, max_blocks, 0.95, adj, &res, &err) < 0 ||
				res.npoints != 1 || res.points[0].na < max_blocks)
			{
				if (res.npoints)
					compare_result_free(&res);
				ok = false;
				break;
			}
			fixed[k].n[res.outcome]++;
			sd[k] = res.points[0].r.sd_unit;
			snprintf(cell[2 + k], sizeof(cell[0]), "%.3f %s",
					 res.points[0].r.ratio, cmp_outcome_name(res.outcome));
			compare_result_free(&res);
			if (replay(st, id, &d, adj, &o, &at, &err) < 0)
			{
				fprintf(stderr, "replay_looks: run %" PRId64 ": %s\n", id,
						err.message);
				return 1;
			}
			seq[k].n[o]++;
			seq[k].blocks += at;
			snprintf(cell[k], sizeof(cell[0]), "%s at %d", cmp_outcome_name(o),
					 at);
		}
		if (!ok)
			continue;
		gates++;
		sd_sum[0] += sd[0] * sd[0];
		sd_sum[1] += sd[1] * sd[1];
		printf("%-5" PRId64 " %-28s %-28s %-16s %-16s %.3f / %.3f\n", id,
			   cell[0], cell[1], cell[2], cell[3], sd[0], sd[1]);
	}
	for (int k = 0; k < 2 && gates > 0; k++)
		printf("%s: sequential (looks at the default design's schedule over "
			   "%d blocks): REGRESSION %d, NO-REGRESSION %d, INCONCLUSIVE %d "
			   "of %d, mean blocks %.1f; fixed %d blocks at 95 %%: "
			   "REGRESSION %d, NO-REGRESSION %d, INCONCLUSIVE %d; block sd "
			   "(rms over runs) %.3f\n",
			   k == 0 ? "adjust steal" : "adjust none ", max_blocks,
			   seq[k].n[CMP_OUTCOME_REGRESSION],
			   seq[k].n[CMP_OUTCOME_NO_REGRESSION],
			   seq[k].n[CMP_OUTCOME_INCONCLUSIVE], gates,
			   (double) seq[k].blocks / gates, max_blocks,
			   fixed[k].n[CMP_OUTCOME_REGRESSION],
			   fixed[k].n[CMP_OUTCOME_NO_REGRESSION],
			   fixed[k].n[CMP_OUTCOME_INCONCLUSIVE], sqrt(sd_sum[k] / gates));
	store_runs_free(runs, nruns);
	store_close(st);
	return 0;
}
