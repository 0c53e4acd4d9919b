/*
 * history_render.c - a recipe's history (series of stored runs with their
 * change points) as text, Markdown, JSON (report/FORMATS.md) or JUnit XML.
 */
#include <inttypes.h>
#include <string.h>

#include "history.h"
#include "json_int.h"

static void
print_change(struct strbuf *out, const struct history_series *s,
			 const struct history_change *c, const char *prefix, bool md)
{
	strbuf_addstr(out, prefix);
	cmp_name_add(out, s->variant, md);
	strbuf_addch(out, '/');
	cmp_name_add(out, s->workload, md);
	strbuf_addf(out, " at %d clients: from run %" PRId64 " (", s->clients,
				s->runs[c->index]);
	cmp_name_add(out, s->started[c->index], md);
	strbuf_addf(out, "): %.6g -> %.6g (%+.1f %%), p = %.3f\n", c->before,
				c->after, 100 * (c->after / c->before - 1), c->p);
}

void
history_render(struct strbuf *out, enum cmp_format f, const char *recipe,
			   enum cmp_metric m, const struct history_opts *ho,
			   const struct history_series *ss, int ns)
{
	/* tps with one decimal, milliseconds with three */
	int decimals = m == CMP_TPS ? 1 : 3;
	int total = 0;
	bool md = f == CMP_FORMAT_MARKDOWN;

	for (int i = 0; i < ns; i++)
		total += ss[i].nchanges;
	if (f == CMP_FORMAT_JSON)
	{
		json_t *series = json_array();

		for (int i = 0; i < ns; i++)
		{
			const struct history_series *s = &ss[i];
			json_t *values = json_array(), *changes = json_array();

			for (int j = 0; j < s->n; j++)
				json_array_append_new(
					values,
					json_pack("{s:I, s:o}", "run", (json_int_t) s->runs[j],
							  "value", report_json_num(s->values[j], "%.6g")));
			for (int j = 0; j < s->nchanges; j++)
			{
				const struct history_change *c = &s->changes[j];

				json_array_append_new(
					changes,
					json_pack("{s:I, s:o, s:o, s:o}", "run",
							  (json_int_t) s->runs[c->index], "before",
							  report_json_num(c->before, "%.6g"), "after",
							  report_json_num(c->after, "%.6g"), "p",
							  report_json_num(c->p, "%.4f")));
			}
			json_array_append_new(series,
								  json_pack("{s:o, s:o, s:i, s:o, s:o}",
											"variant", pjson_str(s->variant),
											"workload", pjson_str(s->workload),
											"clients", s->clients, "values",
											values, "changes", changes));
		}
		report_json_dump(
			out, json_pack("{s:i, s:o, s:s, s:o, s:i, s:o, s:i, s:o}",
						   "pgcliff_history", 1, "recipe", pjson_str(recipe),
						   "metric", cmp_metric_name(m), "min_change",
						   report_json_num(ho->min_change, "%.4f"),
						   "min_segment", ho->min_segment, "alpha",
						   report_json_num(ho->alpha, "%.3f"), "permutations",
						   ho->permutations, "series", series));
		return;
	}
	if (f == CMP_FORMAT_JUNIT)
	{
		strbuf_addf(out,
					"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
					"<testsuites name=\"pgcliff history\" tests=\"%d\" "
					"failures=\"%d\">\n  <testsuite name=\"%s\" tests=\"%d\" "
					"failures=\"%d\">\n",
					ns, total, recipe, ns, total);
		for (int i = 0; i < ns; i++)
		{
			strbuf_addf(out,
						"    <testcase classname=\"%s.%s.%s\" name=\"%s at %d "
						"clients\">\n",
						recipe, ss[i].variant, ss[i].workload,
						cmp_metric_name(m), ss[i].clients);
			for (int j = 0; j < ss[i].nchanges; j++)
			{
				struct strbuf msg = STRBUF_INIT;

				print_change(&msg, &ss[i], &ss[i].changes[j], "", false);
				msg.buf[strcspn(msg.buf, "\n")] = '\0';
				strbuf_addstr(out, "      <failure type=\"change-point\" "
								   "message=\"");
				cmp_xml_escape(out, msg.buf);
				strbuf_addstr(out, "\"/>\n");
				strbuf_release(&msg);
			}
			strbuf_addstr(out, "    </testcase>\n");
		}
		strbuf_addstr(out, "  </testsuite>\n</testsuites>\n");
		return;
	}
	strbuf_addf(out, "%spgcliff history: recipe ", md ? "### " : "");
	cmp_name_add(out, recipe, md);
	strbuf_addf(out, ", metric %s, %d series\n", cmp_metric_name(m), ns);
	for (int i = 0; i < ns; i++)
	{
		const struct history_series *s = &ss[i];

		strbuf_addf(out, "\n%svariant ", md ? "#### " : "");
		cmp_name_add(out, s->variant, md);
		strbuf_addstr(out, ", workload ");
		cmp_name_add(out, s->workload, md);
		strbuf_addf(out, ", %d clients\n\n", s->clients);
		if (f == CMP_FORMAT_MARKDOWN)
			strbuf_addstr(out,
						  "| run | started | value | |\n|--:|:--|--:|:--|\n");
		else
			strbuf_addf(out, "%8s  %-20s %12s\n", "run", "started",
						cmp_metric_name(m));
		for (int j = 0; j < s->n; j++)
		{
			const char *mark = "";

			for (int k = 0; k < s->nchanges; k++)
				if (s->changes[k].index == j)
					mark = "<- change";
			if (md)
			{
				strbuf_addf(out, "| %" PRId64 " | ", s->runs[j]);
				cmp_md_escape(out, s->started[j]);
				strbuf_addf(out, " | %.*f | %s |\n", decimals, s->values[j],
							mark);
			}
			else
				strbuf_addf(out, "%8" PRId64 "  %-20s %12.*f%s%s\n",
							s->runs[j], s->started[j], decimals, s->values[j],
							mark[0] ? "  " : "", mark);
		}
	}
	strbuf_addf(out,
				"\n%schange points (E-divisive, p < %.2f over %d "
				"permutations, at least %.1f %% and %d runs a side): %d\n",
				f == CMP_FORMAT_MARKDOWN ? "**" : "", ho->alpha,
				ho->permutations, 100 * ho->min_change, ho->min_segment,
				total);
	if (f == CMP_FORMAT_MARKDOWN && total == 0)
		strbuf_addstr(out, "\n");
	for (int i = 0; i < ns; i++)
		for (int j = 0; j < ss[i].nchanges; j++)
			print_change(out, &ss[i], &ss[i].changes[j], md ? "- " : "  ", md);
}
