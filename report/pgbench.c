/*
 * pgbench.c - pgbench 15's summary lines for one workload of a measured
 * point, byte for byte where pgbench prints the same thing (run prints
 * them per point; --format pgbench prints them alone).  See report.h.
 */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "engine.h"
#include "hist.h"
#include "report.h"

/* pgbench's per-script and -r statement report of one workload. */
/* pgbench's --failures-detailed lines, after "number of failed ..." */
static void
add_detailed(struct strbuf *out, const char *prefix, uint64_t serialization,
			 uint64_t deadlock, uint64_t total)
{
	strbuf_addf(out,
				"%snumber of serialization failures: %" PRIu64 " (%.3f%%)\n",
				prefix, serialization,
				total ? 100.0 * (double) serialization / (double) total : 0.0);
	strbuf_addf(out, "%snumber of deadlock failures: %" PRIu64 " (%.3f%%)\n",
				prefix, deadlock,
				total ? 100.0 * (double) deadlock / (double) total : 0.0);
}

static void
add_scripts(struct strbuf *out, const struct report_pgbench *p)
{
	const struct load_workload *w = p->w;
	const struct load_workload_result *res = p->res;
	double secs = p->secs;
	bool per_script = res->nscripts > 1;
	bool retries = w->policy->max_tries != 1;
	int64_t total_weight = 0;

	for (int k = 0; k < res->nscripts; k++)
		total_weight += w->weights[k];
	for (int k = 0; k < res->nscripts; k++)
	{
		const struct load_script_result *ss = &res->scripts[k];
		const struct script *sc = w->scripts[k];
		uint64_t total = ss->txns + ss->failures;

		if (per_script)
		{
			strbuf_addf(
				out,
				"SQL script %d: %s\n"
				" - weight: %d (targets %.1f%% of total)\n"
				" - %" PRIu64 " transactions (%.1f%% of total, tps = %f)\n",
				k + 1, p->labels[k], w->weights[k],
				total_weight ? 100.0 * w->weights[k] / (double) total_weight
							 : 0.0,
				ss->txns,
				res->txns ? 100.0 * (double) ss->txns / (double) res->txns
						  : 0.0,
				(double) ss->txns / secs);
			strbuf_addf(
				out,
				" - number of failed transactions: %" PRIu64 " (%.3f%%)\n",
				ss->failures,
				total ? 100.0 * (double) ss->failures / (double) total : 0.0);
			if (p->failures_detailed)
				add_detailed(out, " - ", ss->serialization_failures,
							 ss->deadlock_failures, total);
			if (retries)
			{
				strbuf_addf(out,
							" - number of transactions retried: %" PRIu64
							" (%.3f%%)\n",
							ss->retried,
							total
								? 100.0 * (double) ss->retried / (double) total
								: 0.0);
				strbuf_addf(out, " - total number of retries: %" PRIu64 "\n",
							ss->retries);
			}
			if (ss->txns > 0)
			{
				strbuf_addf(out, " - latency average = %.3f ms\n",
							hist_mean(ss->latency) / 1e6);
				strbuf_addf(out, " - latency stddev = %.3f ms\n",
							hist_stddev(ss->latency) / 1e6);
			}
		}
		if (ss->cmd_count == NULL)
			continue;
		strbuf_addf(out, "%sstatement latencies in milliseconds%s:\n",
					per_script ? " - " : "",
					retries ? ", failures and retries" : " and failures");
		for (int c = 0; c < ss->ncmds; c++)
		{
			strbuf_addf(out, "   %11.3f  %10" PRIu64 "  ",
						ss->cmd_count[c] ? ss->cmd_lat_sum_ns[c] /
											   (double) ss->cmd_count[c] / 1e6
										 : 0.0,
						ss->cmd_failures[c]);
			if (retries)
				strbuf_addf(out, "%10" PRIu64 "  ", ss->cmd_retries[c]);
			strbuf_addf(out, "%s\n", sc->cmds[c].first_line);
		}
	}
}

void
report_pgbench(struct strbuf *out, const struct report_pgbench *p)
{
	const struct load_workload *w = p->w;
	const struct load_workload_result *res = p->res;
	double secs = p->secs;
	uint64_t total = res->txns + res->failures;

	/* pgbench names a script file by its path, a builtin by its desc */
	strbuf_addf(out, "transaction type: %s\n",
				res->nscripts > 1 ? "multiple scripts" : p->labels[0]);
	strbuf_addf(out, "scaling factor: %d\n", p->scale);
	if (p->partitions > 0)
		strbuf_addf(out, "partition method: %s\npartitions: %d\n",
					p->partition_method, p->partitions);
	strbuf_addf(out, "query mode: %s\n", p->protocol);
	strbuf_addf(out, "number of clients: %d\n", w->clients);
	strbuf_addf(out, "number of threads: %d\n", res->jobs);
	/* pgbench leaves the line out for an unlimited number */
	if (!(p->exact && w->policy->max_tries == INT32_MAX))
		strbuf_addf(out, "maximum number of tries: %d\n",
					w->policy->max_tries == INT32_MAX ? 0
													  : w->policy->max_tries);
	if (w->transactions > 0)
	{
		strbuf_addf(out, "number of transactions per client: %" PRId64 "\n",
					w->transactions);
		strbuf_addf(out,
					"number of transactions actually processed: %" PRIu64
					"/%" PRId64 "\n",
					res->txns, w->transactions * w->clients);
	}
	else if (secs == (double) (int64_t) secs)
	{
		strbuf_addf(out, "duration: %" PRId64 " s\n", (int64_t) secs);
		strbuf_addf(out,
					"number of transactions actually processed: %" PRIu64 "\n",
					res->txns);
	}
	else
	{
		strbuf_addf(out, "duration: %g s\n", secs);
		strbuf_addf(out,
					"number of transactions actually processed: %" PRIu64 "\n",
					res->txns);
	}
	strbuf_addf(out, "number of failed transactions: %" PRIu64 " (%.3f%%)\n",
				res->failures,
				total ? 100.0 * (double) res->failures / (double) total : 0.0);
	if (p->failures_detailed)
		add_detailed(out, "", res->serialization_failures,
					 res->deadlock_failures, total);
	if (w->policy->max_tries != 1)
	{
		strbuf_addf(
			out, "number of transactions retried: %" PRIu64 " (%.3f%%)\n",
			res->retried,
			total ? 100.0 * (double) res->retried / (double) total : 0.0);
		strbuf_addf(out, "total number of retries: %" PRIu64 "\n",
					res->retries);
	}
	for (int i = 0; i < res->nclasses; i++)
		if (strcmp(res->classes[i].sqlclass, "recovery_conflict") == 0)
			strbuf_addf(
				out, "number of recovery conflicts: %" PRIu64 " (%.3f%%)\n",
				res->classes[i].count,
				total ? 100.0 * (double) res->classes[i].count / (double) total
					  : 0.0);
	if (w->rate > 0 && w->latency_limit_ns > 0)
		strbuf_addf(out,
					"number of transactions skipped: %" PRIu64 " (%.3f%%)\n",
					res->skipped,
					total + res->skipped ? 100.0 * (double) res->skipped /
											   (double) (total + res->skipped)
										 : 0.0);
	if (w->latency_limit_ns > 0)
		strbuf_addf(out,
					"number of transactions above the %.1f ms latency limit: "
					"%" PRIu64 "/%" PRIu64 " (%.3f%%)\n",
					(double) w->latency_limit_ns / 1e6, res->late, res->txns,
					res->txns ? 100.0 * (double) res->late / (double) res->txns
							  : 0.0);
	if (p->exact && !p->progress && w->rate <= 0 && w->latency_limit_ns <= 0)
		/* pgbench measures nothing then: it divides the run's time */
		strbuf_addf(out, "latency average = %.3f ms%s\n",
					total + res->skipped ? secs * 1e3 * w->clients /
											   (double) (total + res->skipped)
										 : 0.0,
					res->failures ? " (including failures)" : "");
	else
		strbuf_addf(out, "latency average = %.3f ms\n",
					hist_mean(res->latency) / 1e6);
	/* pgbench prints this line only with -P, -R or -L */
	if (p->progress || w->rate > 0 || w->latency_limit_ns > 0)
		strbuf_addf(out, "latency stddev = %.3f ms\n",
					hist_stddev(res->latency) / 1e6);
	if (w->rate > 0)
		strbuf_addf(out, "rate limit schedule lag: avg %.3f (max %.3f) ms\n",
					res->lag_avg_ms, res->lag_max_ms);
	if (w->reconnect)
	{
		/* -C: pgbench divides the connections' time by the transactions */
		uint64_t n = res->txns + res->failures;

		strbuf_addf(out, "average connection time = %.3f ms\n",
					n ? res->reconnect_ns_sum / (double) n / 1e6 : 0.0);
		strbuf_addf(out, "tps = %f (including reconnection times)\n",
					(double) res->txns / secs);
	}
	else
	{
		strbuf_addf(out, "initial connection time = %.3f ms\n",
					p->point->conn_ms);
		if (w->protocol == LOAD_PROTO_PREPARED && !p->exact)
			strbuf_addf(out, "statement preparation time = %.3f ms\n",
						p->point->prepare_ms);
		strbuf_addf(out, "tps = %f (without initial connection time)\n",
					(double) res->txns / secs);
	}
	add_scripts(out, p);
	for (int k = 0; k < res->nevents && !p->exact; k++)
		strbuf_addf(
			out, "event %d: planned at %.3f s, started at %.3f s (%+.3f ms)\n",
			res->events[k].seq + 1, (double) res->events[k].planned_ns / 1e9,
			(double) res->events[k].actual_ns / 1e9,
			(double) (res->events[k].actual_ns - res->events[k].planned_ns) /
				1e6);
	if (res->aborted_clients && !p->exact)
		strbuf_addf(out, "aborted clients: %d (first: %s)\n",
					res->aborted_clients, res->first_error);
}
