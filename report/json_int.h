/*
 * json_int.h - private to report/: how its renderers write JSON through
 * jansson, so every document rounds numbers and lays itself out alike.
 */
#ifndef PGCLIFF_REPORT_JSON_INT_H
#define PGCLIFF_REPORT_JSON_INT_H

#include "pjson.h"

#include "base.h"

/*
 * V rounded as FMT ("%.3f", "%.6g") rounds it for the text formats, so
 * the JSON says what the tables say; not finite: null.
 */
json_t *report_json_num(double v, const char *fmt);

/* DOC, two-space indented, then a newline, into OUT; DOC is released. */
void report_json_dump(struct strbuf *out, json_t *doc);

/* Add the integers of JSON object TEXT (the samples' waits, conflicts)
 * to those of object ACC, key by key; anything else in TEXT is skipped. */
void report_json_add_counts(json_t *acc, const char *text);

#endif /* PGCLIFF_REPORT_JSON_INT_H */
