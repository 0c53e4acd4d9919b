/*
 * bisect.c - see bisect.h.
 */
#include "bisect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bisector
{
	const struct bisect_config *c;
	struct store *store;
	struct build_commit *commits;
	int64_t id;
	char good[41];
	int ncommits;
	int steps;
};

/* The most steps left to split (LO, HI] down to one commit. */
static int
steps_for(int lo, int hi)
{
	int n = 0;

	for (int span = hi - lo; span > 1; span = (span + 1) / 2)
		n++;
	return n;
}

/* The variant of commit SHA in a step's run: "rev_" and 12 hex digits. */
static char *
commit_variant(const char *sha)
{
	return xasprintf("rev_%.12s", sha);
}

static void
tell(const struct bisector *b, struct bisect_event *ev)
{
	if (b->c->on_event)
		b->c->on_event(b->c->event_arg, ev);
}

/*
 * One step: commit I against good, until decided.  *OUTCOME and the last
 * look's DETAIL (caller frees) and the run's id; -1 with ERR when the run
 * failed.
 */
static int
measure(struct bisector *b, int i, int lo, int hi, enum cmp_outcome *outcome,
		char **detail, int64_t *rid, struct pgc_error *err)
{
	const struct build_commit *cm = &b->commits[i];
	char *name = commit_variant(cm->sha);
	char *args[2];
	struct run_config rc = b->c->run;
	struct bisect_event ev;
	struct store_bisect_step row;
	struct store_look *looks = NULL;
	struct run *run;
	struct pgc_error serr;
	int nlooks = 0, result = -1;
	int64_t t0 = clock_now_ns();

	args[0] = xasprintf("good:revision=%s", b->good);
	args[1] = xasprintf("%s:revision=%s", name, cm->sha);
	rc.variant_args = args;
	rc.nvariant_args = 2;
	rc.source = b->c->source;
	rc.until.on = true;
	b->steps++;
	memset(&ev, 0, sizeof(ev));
	ev.kind = BISECT_EV_STEP_BEGIN;
	ev.commits = b->ncommits;
	ev.step = b->steps;
	/* the bad commit first: the whole search is still ahead */
	ev.steps_left = i == b->ncommits - 1 && b->steps == 1
						? steps_for(lo, hi)
						: steps_for(lo, hi) - 1;
	ev.revision = cm->sha;
	ev.subject = cm->subject;
	ev.variant = name;
	tell(b, &ev);

	*detail = NULL;
	*rid = 0;
	*outcome = CMP_OUTCOME_INCONCLUSIVE;
	if ((run = run_new(&rc, err)) == NULL)
		goto out;
	if (b->c->logs_dir)
		run_set_logs_dir(run, b->c->logs_dir);
	result = run_execute(run, b->store, b->c->command_line, err);
	*rid = run_id(run);
	if (result == 0)
	{
		*outcome = run_until_outcome(run);
		if (store_get_looks(b->store, *rid, &looks, &nlooks, err) < 0)
			result = -1;
		else if (nlooks > 0 && looks[nlooks - 1].detail)
			*detail = xstrdup(looks[nlooks - 1].detail);
		store_looks_free(looks, nlooks);
	}
	run_free(run);
	/* the step is kept whatever came of it: its run says why */
	memset(&row, 0, sizeof(row));
	row.step = b->steps;
	row.revision = cm->sha;
	row.run_id = *rid;
	row.outcome = result == 0 ? cmp_outcome_name(*outcome) : NULL;
	row.detail = *detail;
	error_clear(&serr);
	if (store_bisect_step(b->store, b->id, &row, &serr) < 0 && result == 0)
	{
		*err = serr;
		result = -1;
	}
	if (result == 0)
	{
		ev.kind = BISECT_EV_STEP_END;
		ev.run_id = *rid;
		ev.outcome = *outcome;
		ev.detail = *detail;
		ev.seconds = (double) (clock_now_ns() - t0) / 1e9;
		tell(b, &ev);
	}
out:
	free(args[0]);
	free(args[1]);
	free(name);
	return result;
}

int
bisect_execute(const struct bisect_config *c, struct store *store,
			   struct bisect_result *out, struct pgc_error *err)
{
	struct bisector b;
	struct build_options bo;
	struct store_bisect row;
	struct bisect_event ev;
	const char *status = "failed";
	char *detail = NULL;
	int lo, hi, rc = -1;
	int64_t t0 = clock_now_ns();

	memset(out, 0, sizeof(*out));
	memset(&b, 0, sizeof(b));
	b.c = c;
	b.store = store;
	if (c->run.recipe->nvariants > 0 || c->run.nvariant_args > 0)
	{
		error_set(err, PGC_ERR_USAGE,
				  "bisect makes its own variants (the good commit and the "
				  "one under test); recipe %s has variants",
				  c->run.recipe->name);
		error_hint(err, "remove its variants: section (settings for both "
						"go under server:)");
		return -1;
	}
	memset(&bo, 0, sizeof(bo));
	bo.interrupted = c->run.interrupt;
	if (build_git_range(c->source, c->good, c->bad, &bo, b.good, &b.commits,
						&b.ncommits, err) < 0)
		return -1;
	memcpy(out->good, b.good, sizeof(b.good));
	out->commits = b.ncommits;
	memset(&row, 0, sizeof(row));
	row.recipe = c->run.recipe->name;
	row.source = c->source;
	row.good = b.good;
	row.bad = b.commits[b.ncommits - 1].sha;
	row.commits = b.ncommits;
	row.metric = c->run.until.metric_full[0] ? c->run.until.metric_full
				 : c->run.until.metric >= 0
					 ? cmp_metric_name((enum cmp_metric) c->run.until.metric)
					 : NULL;
	row.margin = c->run.until.margin;
	row.command_line = c->command_line;
	if (store_bisect_begin(store, &row, &b.id, err) < 0)
		goto done;
	out->bisect_id = b.id;
	memset(&ev, 0, sizeof(ev));
	ev.kind = BISECT_EV_RANGE;
	ev.commits = b.ncommits;
	ev.steps_left = 1 + steps_for(-1, b.ncommits - 1);
	ev.revision = row.bad;
	ev.subject = b.commits[b.ncommits - 1].subject;
	tell(&b, &ev);

	/* lo: the last commit known good (-1: GOOD itself), hi: the first known
	 * bad; the bad commit first, or there is nothing to look for */
	lo = -1;
	hi = b.ncommits - 1;
	for (int probe = hi;;)
	{
		enum cmp_outcome o;
		int64_t run;

		free(detail);
		if (measure(&b, probe, lo, hi, &o, &detail, &run, err) < 0)
			goto done;
		if (o == CMP_OUTCOME_INCONCLUSIVE)
		{
			out->status = BISECT_UNDECIDED;
			status = "undecided";
			break;
		}
		if (o == CMP_OUTCOME_REGRESSION)
		{
			hi = probe;
			free(out->evidence);
			free(out->variant);
			out->evidence = detail ? xstrdup(detail) : NULL;
			out->variant = commit_variant(b.commits[probe].sha);
			out->evidence_run = run;
		}
		else if (probe == b.ncommits - 1)
		{
			out->status = BISECT_NO_REGRESSION;
			status = "no-regression";
			break;
		}
		else
			lo = probe;
		if (hi - lo <= 1)
		{
			out->status = BISECT_FOUND;
			status = "found";
			memcpy(out->first_bad, b.commits[hi].sha, 41);
			out->subject = xstrdup(b.commits[hi].subject);
			break;
		}
		probe = lo + (hi - lo) / 2;
	}
	memcpy(out->lo, lo < 0 ? b.good : b.commits[lo].sha, 41);
	if (out->status == BISECT_UNDECIDED && hi == b.ncommits - 1 &&
		!out->evidence)
		out->hi[0] = '\0'; /* the bad commit itself was not shown bad */
	else
		memcpy(out->hi, b.commits[hi].sha, 41);
	rc = 0;
done:
	if (rc < 0 && err->kind == PGC_ERR_INTERRUPTED)
		status = "interrupted";
	if (b.id > 0)
	{
		struct pgc_error ferr;
		char text[sizeof(err->message) + sizeof(err->detail) + 16];

		snprintf(text, sizeof(text), "%s%s%s", err->message,
				 err->detail[0] ? ": " : "", err->detail);
		error_clear(&ferr);
		if (store_bisect_finish(
				store, b.id, status,
				out->status == BISECT_FOUND && rc == 0 ? out->first_bad : NULL,
				rc == 0 ? NULL : text, &ferr) < 0 &&
			rc == 0)
		{
			*err = ferr;
			rc = -1;
		}
	}
	out->steps = b.steps;
	out->seconds = (double) (clock_now_ns() - t0) / 1e9;
	free(detail);
	build_commits_free(b.commits, b.ncommits);
	if (rc < 0)
	{
		int64_t id = out->bisect_id;

		bisect_result_free(out);
		out->bisect_id = id;
	}
	return rc;
}

void
bisect_result_free(struct bisect_result *r)
{
	free(r->subject);
	free(r->evidence);
	free(r->variant);
	memset(r, 0, sizeof(*r));
}
