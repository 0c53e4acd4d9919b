/*
 * profiling.c - the servers' CPU profiles of a step (perf), taken and stored;
 * see run.h and run_int.h.
 */
#include "run_int.h"

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hist.h"

/* ----------------------------------------------------------- profiles */

/* Whether and how the servers are profiled; said at the start either way. */
void
setup_profiles(struct run *r)
{
	int hz = r->c.profile_hz > 0   ? r->c.profile_hz
			 : r->c.profile_hz < 0 ? 0
								   : r->recipe->profile_hz;
	char why[512];
	const char *tmp = getenv("TMPDIR");
	char *dir;
	struct strbuf per = STRBUF_INIT;
	bool any = hz > 0;
	int mode;

	/* a variant's own profile: (none under --no-profile) */
	for (int i = 0; i < r->nvars && r->c.profile_hz >= 0; i++)
		if (r->vars[i].profile_hz != 0)
		{
			any |= r->vars[i].profile_hz > 0;
			if (r->vars[i].profile_hz > 0)
				strbuf_addf(&per, ", variant %s at %d Hz", r->vars[i].name,
							r->vars[i].profile_hz);
			else
				strbuf_addf(&per, ", not variant %s", r->vars[i].name);
		}
	if (!any)
	{
		strbuf_release(&per);
		return;
	}
	if ((mode = profile_check(why, sizeof(why))) < 0)
	{
		run_emit_text(r, RUN_EV_NOTE, NULL,
					  "profiles: not taken, the run goes on without them: %s",
					  why);
		strbuf_release(&per);
		return;
	}
	dir = xasprintf("%s/pgcliff-perf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL)
	{
		run_emit_text(r, RUN_EV_NOTE, NULL,
					  "profiles: not taken: no directory for perf's files in "
					  "%s",
					  tmp && *tmp ? tmp : "/tmp");
		free(dir);
		strbuf_release(&per);
		return;
	}
	r->profile_dir = dir;
	r->profile_hz = hz;
	r->profile_mode = (enum profile_mode) mode;
	r->profile_cg =
		r->c.profile_callgraph > 0
			? (enum profile_callgraph) r->c.profile_callgraph
		: r->c.profile_callgraph < 0
			? PROFILE_CG_NONE
			: (enum profile_callgraph) r->recipe->profile_callgraph;
	r->profiling = true;
	if (hz > 0)
		snprintf(why, sizeof(why), " at %d Hz", hz);
	else
		why[0] = '\0';
	if (r->profile_cg != PROFILE_CG_NONE)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 ", call graphs (%s)", profile_callgraph_name(r->profile_cg));
	run_emit_text(
		r, RUN_EV_NOTE, NULL,
		"profiles: cpu-clock%s of each managed server's processes "
		"during every window (%s)%s",
		why,
		mode == PROFILE_CPUS
			? "perf record -a, every CPU, then their samples"
			: "perf record -p: perf may not sample every CPU here, and "
			  "sampling per process costs the servers more",
		per.buf ? per.buf : "");
	strbuf_release(&per);
}

/* The rate variant V's steps are profiled at; 0: not. */
int
variant_hz(const struct run *r, const struct variant *v)
{
	if (!r->profiling)
		return 0;
	return v->profile_hz > 0   ? v->profile_hz
		   : v->profile_hz < 0 ? 0
							   : r->profile_hz;
}

/* Start perf on each managed node of the step's target (its processes
 * as they are now); a node perf cannot sample is said and left out. */
void
start_profiles(struct run *r)
{
	static const char *const names[2] = {"primary", "standby"};

	for (int node = 0; node < 2; node++)
	{
		struct pgc_error e;
		pid_t pid = target_pid(r->prof_target->t, (enum target_node_id) node);
		pid_t *pids;
		int n;
		char name[64];

		if (pid <= 0)
		{
			if (node == 0 && !r->prof_external_said)
			{
				r->prof_external_said = true;
				run_emit_text(r, RUN_EV_NOTE, NULL,
							  "profiles: not taken of external servers "
							  "(pgcliff profiles the servers it starts)");
			}
			continue;
		}
		n = profile_process_tree(pid, &pids);
		snprintf(name, sizeof(name), "p%d-%s", r->prof_order, names[node]);
		r->prof[node] = profile_start(r->profile_mode, r->profile_cg, pids, n,
									  r->prof_hz, r->profile_dir, name, &e);
		if (r->prof[node] == NULL)
			run_emit_text(r, RUN_EV_NOTE, NULL,
						  "profiles: the %s's not taken at point %d: %s",
						  names[node], r->prof_order + 1, e.message);
		free(pids);
	}
}

/*
 * The engine's window edges (called from the run's own thread): sampling
 * every CPU, perf is already up and its events go on and off; sampling
 * per process, perf starts here, when the clients' backends are there,
 * and stops at the window's end.
 */
void
on_window_edge(void *arg, bool begins)
{
	struct run *r = arg;
	static const char *const names[2] = {"primary", "standby"};

	if (begins && r->profile_mode == PROFILE_PROCESSES)
	{
		start_profiles(r);
		return;
	}
	for (int node = 0; node < 2; node++)
	{
		struct pgc_error e;
		int rc;

		if (r->prof[node] == NULL)
			continue;
		rc = r->profile_mode == PROFILE_CPUS
				 ? profile_window(r->prof[node], begins, &e)
				 : profile_stop(r->prof[node], &e);
		if (rc < 0)
		{
			run_emit_text(r, RUN_EV_NOTE, NULL,
						  "profiles: the %s's at point %d is lost: %s",
						  names[node], r->prof_order + 1, e.message);
			profile_free(r->prof[node]);
			r->prof[node] = NULL;
		}
	}
}

/*
 * Functions kept per node and step.  40 left a function near 0.3 % of a
 * standby's samples (GetSnapshotData under seed 004's fix) in some blocks
 * and out of others, so profile:NODE:FUNCTION had nothing to divide by;
 * 200 reach down to a few samples of a 40 s window at 99 Hz.
 */
#define PROFILE_TOP 200

/* The step's profiles into the store (KEEP false: dropped), then freed. */
int
store_profiles(struct run *r, int order, bool keep, struct pgc_error *err)
{
	static const char *const names[2] = {"primary", "standby"};
	int rc = 0;

	for (int node = 0; node < 2; node++)
	{
		struct profile_entry *e = NULL;
		struct store_profile_row *rows;
		uint64_t total = 0;
		int n = 0;
		struct pgc_error perr;

		if (r->prof[node] == NULL)
			continue;
		if (keep && rc == 0 &&
			(profile_stop(r->prof[node], &perr) < 0 ||
			 profile_report(r->prof[node], PROFILE_TOP, &e, &n, &total,
							&perr) < 0))
			run_emit_text(r, RUN_EV_NOTE, NULL,
						  "profiles: the %s's at point %d is lost: %s",
						  names[node], order + 1, perr.message);
		else if (keep && rc == 0)
		{
			bool cg = false;

			rows = xcalloc((size_t) n + 1, sizeof(*rows));
			/* call graphs where perf's add up (profile_parse()) */
			for (int i = 0; i < n; i++)
				cg = cg || !isnan(e[i].inclusive);
			if (r->profile_cg != PROFILE_CG_NONE && !cg && n > 0)
				run_emit_text(
					r, RUN_EV_NOTE, NULL,
					"profiles: the %s's call graphs at point %d do not "
					"add up (perf lost samples?): its self shares "
					"only",
					names[node], order + 1);
			rows[0] = (struct store_profile_row){
				NULL, NULL, NULL, 100.0, total, cg ? 100.0 : -1, r->prof_hz};
			for (int i = 0; i < n; i++)
				rows[i + 1] = (struct store_profile_row){
					NULL,        e[i].dso,
					e[i].symbol, e[i].pct,
					e[i].count,  isnan(e[i].inclusive) ? -1 : e[i].inclusive,
					r->prof_hz};
			rc = store_profile_add(r->store, r->run_id, order, names[node],
								   rows, n + 1, err);
			free(rows);
		}
		profile_entries_free(e, n);
		profile_free(r->prof[node]);
		r->prof[node] = NULL;
	}
	return rc;
}

/*
 * A counted point's functions as the primary's profile, in the profile
 * table's terms: HZ 0 says the rows count instructions per transaction
 * (SAMPLES) rather than perf's samples, and PCT is the share of them.
 */
int
store_count_profile(struct run *r, int order, const struct count_result *cnt,
					struct pgc_error *err)
{
	struct store_profile_row *rows =
		xcalloc((size_t) cnt->nfns + 1, sizeof(*rows));
	int rc;

	rows[0] = (struct store_profile_row){
		NULL, NULL, NULL, 100.0, (uint64_t) llround(cnt->per[COST_IR]), -1, 0};
	for (int i = 0; i < cnt->nfns; i++)
	{
		const char *slash = strrchr(cnt->fns[i].obj, '/');

		rows[i + 1] =
			(struct store_profile_row){NULL,
									   slash ? slash + 1 : cnt->fns[i].obj,
									   cnt->fns[i].name,
									   100.0 * cnt->fns[i].share,
									   (uint64_t) llround(cnt->fns[i].ir),
									   -1,
									   0};
	}
	rc = store_profile_add(r->store, r->run_id, order, "primary", rows,
						   cnt->nfns + 1, err);
	free(rows);
	return rc;
}
