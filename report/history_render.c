/*
 * history_render.c - a recipe's history (series of stored runs with their
 * change points) as text, Markdown, JSON (report/FORMATS.md) or JUnit XML.
 */
#include <inttypes.h>
#include <string.h>

#include "history.h"

static void
print_change(struct strbuf *out, const struct history_series *s,
			 const struct history_change *c, const char *prefix)
{
	strbuf_addf(out,
				"%s%s/%s at %d clients: from run %" PRId64
				" (%s): %.6g -> %.6g (%+.1f %%), p = %.3f\n",
				prefix, s->variant, s->workload, s->clients, s->runs[c->index],
				s->started[c->index], c->before, c->after,
				100 * (c->after / c->before - 1), c->p);
}

void
history_render(struct strbuf *out, enum cmp_format f, const char *recipe,
			   enum cmp_metric m, const struct history_opts *ho,
			   const struct history_series *ss, int ns)
{
	/* tps with one decimal, milliseconds with three */
	int decimals = m == CMP_TPS ? 1 : 3;
	int total = 0;

	for (int i = 0; i < ns; i++)
		total += ss[i].nchanges;
	if (f == CMP_FORMAT_JSON)
	{
		strbuf_addstr(out, "{\n  \"pgcliff_history\": 1,\n  \"recipe\": ");
		strbuf_add_json_str(out, recipe);
		strbuf_addf(out,
					",\n  \"metric\": \"%s\",\n  \"min_change\": %.4f,\n"
					"  \"min_segment\": %d,\n  \"alpha\": %.3f,\n"
					"  \"permutations\": %d,\n  \"series\": [",
					cmp_metric_name(m), ho->min_change, ho->min_segment,
					ho->alpha, ho->permutations);
		for (int i = 0; i < ns; i++)
		{
			const struct history_series *s = &ss[i];

			strbuf_addf(out, "%s\n    {\"variant\": ", i ? "," : "");
			strbuf_add_json_str(out, s->variant);
			strbuf_addstr(out, ", \"workload\": ");
			strbuf_add_json_str(out, s->workload);
			strbuf_addf(out, ", \"clients\": %d,\n     \"values\": [",
						s->clients);
			for (int j = 0; j < s->n; j++)
				strbuf_addf(out, "%s{\"run\": %" PRId64 ", \"value\": %.6g}",
							j ? ", " : "", s->runs[j], s->values[j]);
			strbuf_addstr(out, "],\n     \"changes\": [");
			for (int j = 0; j < s->nchanges; j++)
				strbuf_addf(out,
							"%s{\"run\": %" PRId64 ", \"before\": %.6g, "
							"\"after\": %.6g, \"p\": %.4f}",
							j ? ", " : "", s->runs[s->changes[j].index],
							s->changes[j].before, s->changes[j].after,
							s->changes[j].p);
			strbuf_addstr(out, "]}");
		}
		strbuf_addstr(out, "]\n}\n");
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

				print_change(&msg, &ss[i], &ss[i].changes[j], "");
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
	strbuf_addf(out, "%spgcliff history: recipe %s, metric %s, %d series\n",
				f == CMP_FORMAT_MARKDOWN ? "### " : "", recipe,
				cmp_metric_name(m), ns);
	for (int i = 0; i < ns; i++)
	{
		const struct history_series *s = &ss[i];

		strbuf_addf(out, "\n%svariant %s, workload %s, %d clients\n\n",
					f == CMP_FORMAT_MARKDOWN ? "#### " : "", s->variant,
					s->workload, s->clients);
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
			if (f == CMP_FORMAT_MARKDOWN)
				strbuf_addf(out, "| %" PRId64 " | %s | %.*f | %s |\n",
							s->runs[j], s->started[j], decimals, s->values[j],
							mark);
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
			print_change(out, &ss[i], &ss[i].changes[j],
						 f == CMP_FORMAT_MARKDOWN ? "- " : "  ");
}
