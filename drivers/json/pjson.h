/*
 * pjson.h - the one way pgcliff writes JSON: jansson, behind two helpers
 * that every module uses for text it did not make itself.  jansson
 * refuses strings that are not UTF-8 (json_string() returns NULL), and a
 * script line, a patch, a path or a server setting may be anything, so
 * such text goes in through pjson_str(), which keeps every valid sequence
 * and replaces each invalid byte with U+FFFD.  Reading JSON is jansson's
 * json_loads() as it is.
 */
#ifndef PGCLIFF_PJSON_H
#define PGCLIFF_PJSON_H

#include <jansson.h>

/* S as a JSON string (NULL: JSON null); never NULL itself. */
json_t *pjson_str(const char *s);

/*
 * J dumped (jansson's FLAGS; keys in insertion order always) and J
 * released; caller frees.  Aborts only when memory runs out.
 */
char *pjson_text(json_t *j, size_t flags);

#endif /* PGCLIFF_PJSON_H */
