/*
 * show.h - one stored run for people: what `pgcliff show` prints.  Reads
 * the store and renders into a strbuf; never prints.  On a store error
 * the functions return -1 with ERR set, OUT holding what was rendered
 * before it (show prints that, then the error).
 */
#ifndef PGCLIFF_SHOW_H
#define PGCLIFF_SHOW_H

#include <stdbool.h>
#include <stdint.h>

#include "base.h"
#include "store.h"

/* What the text shows beyond provenance, points and their details. */
struct report_show
{
	bool series;      /* each point's per-second counts */
	bool samples;     /* the servers' samples, per node and second */
	bool profiles;    /* the servers' CPU profiles (run --profile, --count) */
	const char *logs; /* the folder of the run's kept server logs, or NULL */
};

/* RUN as text: provenance, points, counts, warm-ups, details, looks,
 * windows, and what O asks for. */
int report_show_run(struct strbuf *out, struct store *st,
					const struct store_run_row *run,
					const struct report_show *o, struct pgc_error *err);

/* show --build: the provenance of each variant built from source. */
int report_show_builds(struct strbuf *out, struct store *st, int64_t run_id,
					   struct pgc_error *err);

/* show --format json|csv: the run's document, or its points (with SERIES
 * its seconds) as CSV (report/FORMATS.md, "Exports"). */
int report_show_export(struct strbuf *out, struct store *st,
					   const struct store_run_row *run, bool series, bool csv,
					   struct pgc_error *err);

#endif /* PGCLIFF_SHOW_H */
