/*
 * pjson.c - see pjson.h.
 */
#include "pjson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

json_t *
pjson_str(const char *s)
{
	const unsigned char *p = (const unsigned char *) s;
	struct strbuf sb = STRBUF_INIT;
	json_t *j;

	if (s == NULL)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	for (; *p;)
	{
		size_t n = utf8_seq_len(p);

		if (n == 0)
		{
			strbuf_addstr(&sb, "\xEF\xBF\xBD"); /* U+FFFD */
			p++;
			continue;
		}
		strbuf_add(&sb, p, n);
		p += n;
	}
	j = json_string(sb.buf ? sb.buf : "");
	strbuf_release(&sb);
	if (j == NULL)
		abort(); /* valid now: only allocation can fail */
	return j;
}

char *
pjson_text(json_t *j, size_t flags)
{
	char *text = j ? json_dumps(j, flags | JSON_ENCODE_ANY) : NULL;

	json_decref(j);
	if (text == NULL)
	{
		fprintf(stderr, "pgcliff: out of memory writing JSON\n");
		abort();
	}
	return text;
}
