/*
 * store_gen.c - fill a store with copies of a real run, through the
 * store's own write path, and time each copy's storing:
 *
 *     store_gen TEMPLATE_STORE RUN TARGET_STORE N
 *
 * Each copy is the template run (its recipe, variants with their
 * settings and pg_config, every point with its histogram and per-second
 * series) with a fresh identity, its tps scaled by a few percent so that
 * history has something to find.  Prints one line: how many runs and
 * points were stored, and the milliseconds one run's storing took
 * (median and 90th percentile) against the seconds of measuring it
 * represents.  A benchmark tool (tests/bench/store_scale.sh), not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	struct pgc_error err;
	struct store *src, *dst;
	struct store_run_row run;
	struct store_variant_row *vars;
	struct store_point_row *pts;
	struct store_series_row **series;
	int *nseries;
	char *recipe_text = NULL;
	int nv, np, n;
	double *ms, measured_s = 0;
	int64_t run_id;

	if (argc != 5 || (n = atoi(argv[4])) < 1)
	{
		fprintf(stderr, "usage: store_gen TEMPLATE_STORE RUN TARGET N\n");
		return 2;
	}
	error_clear(&err);
	run_id = atoll(argv[2]);
	if ((src = store_open_read(argv[1], &err)) == NULL ||
		store_get_run(src, run_id, &run, &err) < 0 ||
		store_get_recipe_text(src, run_id, &recipe_text, &err) < 0 ||
		store_get_variants(src, run_id, &vars, &nv, &err) < 0 ||
		store_get_points(src, run_id, &pts, &np, &err) < 0)
	{
		fprintf(stderr, "store_gen: %s\n", err.message);
		return 1;
	}
	series = calloc((size_t) np, sizeof(*series));
	nseries = calloc((size_t) np, sizeof(*nseries));
	for (int i = 0; i < np; i++)
	{
		if (store_get_series(src, pts[i].id, &series[i], &nseries[i], &err) <
			0)
		{
			fprintf(stderr, "store_gen: %s\n", err.message);
			return 1;
		}
		measured_s += pts[i].duration_s + pts[i].warmup_s;
	}
	if ((dst = store_open(argv[3], &err)) == NULL)
	{
		fprintf(stderr, "store_gen: %s\n", err.message);
		return 1;
	}
	ms = calloc((size_t) n, sizeof(*ms));
	for (int k = 0; k < n; k++)
	{
		struct store_run r = {0};
		int64_t id, t0 = clock_now_ns();
		/* a slow drift with a step at the middle: a change to find */
		double f =
			1.0 + 0.02 * ((k * 7919) % 11 - 5) / 5.0 - (k >= n / 2 ? 0.05 : 0);

		r.recipe = run.recipe;
		r.recipe_path = run.recipe_path;
		r.recipe_text = recipe_text;
		r.recipe_sha256 = run.recipe_sha256;
		r.command_line = run.command_line;
		r.seed = (uint64_t) run.seed + (uint64_t) k;
		r.host_name = "store-gen";
		r.host_cpu = "generated";
		r.host_cores = 2;
		r.plan = run.plan;
		r.measure = run.measure;
		if (store_run_begin(dst, &r, &id, &err) < 0)
			goto fail;
		for (int i = 0; i < nv; i++)
		{
			struct store_variant v = {0};

			v.name = vars[i].name;
			v.kind = vars[i].kind;
			v.bindir = vars[i].bindir;
			v.gucs = vars[i].gucs;
			v.target = vars[i].target;
			v.server_version = vars[i].server_version;
			v.settings = vars[i].settings;
			v.defines = vars[i].defines;
			v.pg_config = vars[i].pg_config;
			v.build = vars[i].build;
			if (store_variant_add(dst, id, &v, &err) < 0)
				goto fail;
		}
		for (int i = 0; i < np; i++)
		{
			const struct store_point_row *q = &pts[i];
			struct store_point p = {0};

			p.variant = q->variant;
			p.workload = q->workload;
			p.clients = q->clients;
			p.jobs = q->jobs;
			p.repeat_idx = q->repeat_idx;
			p.order_idx = q->order_idx;
			p.protocol = q->protocol;
			p.duration_s = q->duration_s;
			p.warmup_s = q->warmup_s;
			p.warmup = q->warmup;
			p.steal_pct = q->steal_pct;
			p.transactions = (uint64_t) ((double) q->transactions * f);
			p.failures = q->failures;
			p.failures_by_class = q->failures_by_class;
			p.tps = q->tps * f;
			p.conn_ms = q->conn_ms;
			p.prepare_ms = q->prepare_ms;
			p.lat_avg_ms = q->lat_avg_ms / f;
			p.lat_p50_ms = q->lat_p50_ms / f;
			p.lat_p90_ms = q->lat_p90_ms / f;
			p.lat_p99_ms = q->lat_p99_ms / f;
			p.lat_p999_ms = q->lat_p999_ms / f;
			p.lat_max_ms = q->lat_max_ms / f;
			p.histogram = q->histogram;
			p.scale = q->scale;
			p.series = series[i];
			p.nseries = nseries[i];
			if (store_point_add(dst, id, &p, NULL, &err) < 0)
				goto fail;
		}
		if (store_run_finish(dst, id, "ok", NULL, &err) < 0)
			goto fail;
		ms[k] = (double) (clock_now_ns() - t0) / 1e6;
	}
	qsort(ms, (size_t) n, sizeof(*ms), cmp_double);
	printf("%d runs of %d points stored into %s: %.2f ms per run (median), "
		   "%.2f ms p90; a run measures %.0f s: %.4f %% of it\n",
		   n, np, store_name(dst), ms[n / 2], ms[(n * 9) / 10], measured_s,
		   ms[n / 2] / 10.0 / measured_s);
	store_close(dst);
	store_close(src);
	return 0;

fail:
	fprintf(stderr, "store_gen: %s\n", err.message);
	store_close(dst);
	return 1;
}
