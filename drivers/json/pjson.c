/*
 * pjson.c - see pjson.h.
 */
#include "pjson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* Length of the valid UTF-8 sequence at P (0: not one), as RFC 3629. */
static size_t
utf8_seq(const unsigned char *p)
{
	unsigned char c = p[0];
	size_t n;
	unsigned int cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++)
	{
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	/* overlong forms, surrogates and past U+10FFFF are not UTF-8 */
	if ((n == 3 && cp < 0x800) ||
		(n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		(cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

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
		size_t n = utf8_seq(p);

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
