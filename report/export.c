/*
 * export.c - stored runs as data for other tools: list and show in JSON
 * and CSV, and the per-second series (report/FORMATS.md, "Exports").
 * Every figure is the stored one; nothing is derived here.
 */
#include "report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_int.h"
#include "store.h"

#define EXPORT_VERSION 1

/* ------------------------------------------------------------------ CSV */

/* One CSV field (RFC 4180): quoted when it holds a comma, quote or EOL. */
static void
csv_field(struct strbuf *out, const char *s, bool last)
{
	if (s == NULL)
		s = "";
	if (strpbrk(s, ",\"\r\n") == NULL)
		strbuf_addstr(out, s);
	else
	{
		strbuf_addch(out, '"');
		for (const char *p = s; *p; p++)
		{
			if (*p == '"')
				strbuf_addch(out, '"');
			strbuf_addch(out, *p);
		}
		strbuf_addch(out, '"');
	}
	strbuf_addstr(out, last ? "\r\n" : ",");
}

/*
 * A text field (a name, a recipe, a status): one that a spreadsheet would
 * take for a formula (=, +, -, @, tab or CR first) gets a leading
 * apostrophe, as OWASP's CSV-injection advice has it, so that opening an
 * export never runs what a store holds.  Numbers go through csv_num().
 */
static void
csv_text(struct strbuf *out, const char *s, bool last)
{
	if (s && *s && strchr("=+-@\t\r", *s))
	{
		char *t = xasprintf("'%s", s);

		csv_field(out, t, last);
		free(t);
		return;
	}
	csv_field(out, s, last);
}

static void
csv_num(struct strbuf *out, const char *fmt, double v, bool last)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	csv_field(out, buf, last);
}

static void
csv_int(struct strbuf *out, int64_t v, bool last)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRId64, v);
	csv_field(out, buf, last);
}

/* ----------------------------------------------------------------- JSON */

/* Stored JSON text as JSON (not as a string); null when it is not JSON. */
static json_t *
stored_json(const char *text)
{
	json_t *j = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;

	return j ? j : json_null();
}

static const char *
status_of(const struct store_run_row *r)
{
	return r->dead ? "dead" : r->status;
}

/* The variants' names, "a,b" in the store, as a JSON array. */
static json_t *
names_array(const char *csv)
{
	json_t *a = json_array();
	const char *p = csv ? csv : "";

	while (*p)
	{
		size_t n = strcspn(p, ",");

		if (n > 0)
		{
			char *name = xstrndup(p, n);

			json_array_append_new(a, pjson_str(name));
			free(name);
		}
		p += n + (p[n] == ',');
	}
	return a;
}

static json_t *
run_object(const struct store_run_row *r)
{
	return json_pack(
		"{s:I, s:o, s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:i, "
		"s:o, s:o, s:o}",
		"id", (json_int_t) r->id, "recipe", pjson_str(r->recipe),
		"recipe_path", pjson_str(r->recipe_path), "recipe_sha256",
		pjson_str(r->recipe_sha256), "command_line",
		pjson_str(r->command_line), "pgcliff", pjson_str(r->tool_version),
		"seed", (json_int_t) r->seed, "host", pjson_str(r->host), "started_at",
		pjson_str(r->started_at), "ended_at", pjson_str(r->ended_at), "status",
		pjson_str(status_of(r)), "error", pjson_str(r->error), "points",
		r->npoints, "variants", names_array(r->variants), "plan",
		stored_json(r->plan), "measure", pjson_str(r->measure));
}

void
report_runs_export(struct strbuf *out, const struct store_run_row *rows, int n,
				   bool csv)
{
	json_t *runs;

	if (csv)
	{
		static const char *const head[] = {"id",      "started_at", "ended_at",
										   "recipe",  "status",     "points",
										   "variants"};

		for (size_t i = 0; i < lengthof(head); i++)
			csv_field(out, head[i], i + 1 == lengthof(head));
		for (int i = 0; i < n; i++)
		{
			csv_int(out, rows[i].id, false);
			csv_text(out, rows[i].started_at, false);
			csv_text(out, rows[i].ended_at, false);
			csv_text(out, rows[i].recipe, false);
			csv_text(out, status_of(&rows[i]), false);
			csv_int(out, rows[i].npoints, false);
			csv_text(out, rows[i].variants, true);
		}
		return;
	}
	runs = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(runs, run_object(&rows[i]));
	report_json_dump(out, json_pack("{s:i, s:o}", "pgcliff_list",
									EXPORT_VERSION, "runs", runs));
}

static json_t *
variant_object(const struct store_variant_row *v)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "name",
					 pjson_str(v->name), "kind", pjson_str(v->kind), "bindir",
					 pjson_str(v->bindir), "target", pjson_str(v->target),
					 "server_version", pjson_str(v->server_version), "gucs",
					 stored_json(v->gucs), "settings",
					 stored_json(v->settings), "defines",
					 stored_json(v->defines), "build", stored_json(v->build));
}

static json_t *
point_object(const struct store_point_row *p,
			 const struct store_series_row *series, int nseries)
{
	json_t *o = json_pack(
		"{s:I, s:o, s:o, s:i, s:i, s:i, s:i, s:o, s:o, s:I, s:I, s:o, s:i, "
		"s:o, s:o, s:o}",
		"id", (json_int_t) p->id, "variant", pjson_str(p->variant), "workload",
		pjson_str(p->workload), "clients", p->clients, "jobs", p->jobs,
		"repeat", p->repeat_idx + 1, "order", p->order_idx + 1, "protocol",
		pjson_str(p->protocol), "duration_s",
		report_json_num(p->duration_s, "%.3f"), "transactions",
		(json_int_t) p->transactions, "failures", (json_int_t) p->failures,
		"failures_by_class", stored_json(p->failures_by_class),
		"aborted_clients", p->aborted_clients, "tps",
		report_json_num(p->tps, "%.3f"), "conn_ms",
		report_json_num(p->conn_ms, "%.3f"), "latency_ms",
		json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "avg",
				  report_json_num(p->lat_avg_ms, "%.3f"), "p50",
				  report_json_num(p->lat_p50_ms, "%.3f"), "p90",
				  report_json_num(p->lat_p90_ms, "%.3f"), "p99",
				  report_json_num(p->lat_p99_ms, "%.3f"), "p999",
				  report_json_num(p->lat_p999_ms, "%.3f"), "max",
				  report_json_num(p->lat_max_ms, "%.3f")));

	json_object_set_new(o, "warmup_s", report_json_num(p->warmup_s, "%.3f"));
	json_object_set_new(o, "warmup", stored_json(p->warmup));
	json_object_set_new(o, "steal_pct",
						p->steal_pct >= 0
							? report_json_num(p->steal_pct, "%.2f")
							: json_null());
	/* a counted point (run --count): its work per transaction, else null */
	json_object_set_new(
		o, "counted",
		p->counted > 0
			? json_pack("{s:I, s:o, s:o, s:o}", "transactions",
						(json_int_t) p->counted, "instructions",
						report_json_num(p->cost[0], "%.1f"), "l1_misses",
						report_json_num(p->cost[1], "%.2f"), "ll_misses",
						report_json_num(p->cost[2], "%.3f"))
			: json_null());
	json_object_set_new(o, "retries",
						json_pack("{s:I, s:I}", "retried",
								  (json_int_t) p->retried, "retries",
								  (json_int_t) p->retries));
	json_object_set_new(
		o, "rate",
		json_pack("{s:I, s:I, s:o, s:o}", "skipped", (json_int_t) p->skipped,
				  "late", (json_int_t) p->late, "lag_avg_ms",
				  report_json_num(p->lag_avg_ms, "%.3f"), "lag_max_ms",
				  report_json_num(p->lag_max_ms, "%.3f")));
	if (series)
	{
		json_t *a = json_array();

		for (int i = 0; i < nseries; i++)
			json_array_append_new(
				a, json_pack("{s:i, s:I, s:I, s:o, s:o}", "second",
							 series[i].second, "transactions",
							 (json_int_t) series[i].transactions, "failures",
							 (json_int_t) series[i].failures, "lat_avg_ms",
							 report_json_num(series[i].lat_avg_ms, "%.3f"),
							 "lat_max_ms",
							 report_json_num(series[i].lat_max_ms, "%.3f")));
		json_object_set_new(o, "series", a);
	}
	return o;
}

void
report_run_export(struct strbuf *out, const struct report_export_run *x)
{
	json_t *vars = json_array(), *points = json_array();

	for (int i = 0; i < x->nvariants; i++)
		json_array_append_new(vars, variant_object(&x->variants[i]));
	for (int i = 0; i < x->npoints; i++)
		json_array_append_new(points,
							  point_object(&x->points[i],
										   x->series ? x->series[i] : NULL,
										   x->series ? x->nseries[i] : 0));
	report_json_dump(out, json_pack("{s:i, s:o, s:o, s:o}", "pgcliff_run",
									EXPORT_VERSION, "run", run_object(x->run),
									"variants", vars, "points", points));
}

void
report_series_csv(struct strbuf *out, const struct report_export_run *x)
{
	static const char *const head[] = {
		"run",      "point",      "variant",   "workload",
		"clients",  "repeat",     "second",    "transactions",
		"failures", "lat_avg_ms", "lat_max_ms"};

	for (size_t i = 0; i < lengthof(head); i++)
		csv_field(out, head[i], i + 1 == lengthof(head));
	for (int i = 0; i < x->npoints && x->series; i++)
	{
		const struct store_point_row *p = &x->points[i];

		for (int k = 0; k < x->nseries[i]; k++)
		{
			const struct store_series_row *s = &x->series[i][k];

			csv_int(out, x->run->id, false);
			csv_int(out, p->id, false);
			csv_text(out, p->variant, false);
			csv_text(out, p->workload, false);
			csv_int(out, p->clients, false);
			csv_int(out, p->repeat_idx + 1, false);
			csv_int(out, s->second, false);
			csv_int(out, (int64_t) s->transactions, false);
			csv_int(out, (int64_t) s->failures, false);
			csv_num(out, "%.3f", s->lat_avg_ms, false);
			csv_num(out, "%.3f", s->lat_max_ms, true);
		}
	}
}

void
report_points_csv(struct strbuf *out, const struct report_export_run *x)
{
	static const char *const head[] = {"run",
									   "point",
									   "variant",
									   "workload",
									   "clients",
									   "jobs",
									   "repeat",
									   "order",
									   "protocol",
									   "duration_s",
									   "transactions",
									   "failures",
									   "aborted_clients",
									   "tps",
									   "conn_ms",
									   "lat_avg_ms",
									   "lat_p50_ms",
									   "lat_p90_ms",
									   "lat_p99_ms",
									   "lat_p999_ms",
									   "lat_max_ms"};

	for (size_t i = 0; i < lengthof(head); i++)
		csv_field(out, head[i], i + 1 == lengthof(head));
	for (int i = 0; i < x->npoints; i++)
	{
		const struct store_point_row *p = &x->points[i];

		csv_int(out, x->run->id, false);
		csv_int(out, p->id, false);
		csv_text(out, p->variant, false);
		csv_text(out, p->workload, false);
		csv_int(out, p->clients, false);
		csv_int(out, p->jobs, false);
		csv_int(out, p->repeat_idx + 1, false);
		csv_int(out, p->order_idx + 1, false);
		csv_text(out, p->protocol, false);
		csv_num(out, "%.3f", p->duration_s, false);
		csv_int(out, (int64_t) p->transactions, false);
		csv_int(out, (int64_t) p->failures, false);
		csv_int(out, p->aborted_clients, false);
		csv_num(out, "%.3f", p->tps, false);
		csv_num(out, "%.3f", p->conn_ms, false);
		csv_num(out, "%.3f", p->lat_avg_ms, false);
		csv_num(out, "%.3f", p->lat_p50_ms, false);
		csv_num(out, "%.3f", p->lat_p90_ms, false);
		csv_num(out, "%.3f", p->lat_p99_ms, false);
		csv_num(out, "%.3f", p->lat_p999_ms, false);
		csv_num(out, "%.3f", p->lat_max_ms, true);
	}
}
