/*
 * test_json.c - drivers/json: what pgcliff writes into JSON is valid JSON
 * whatever the bytes it was given, and reads back as what was meant.
 */
#include <stdlib.h>
#include <string.h>

#include "pjson.h"
#include "test.h"

/* TEXT through pjson_str, dumped and parsed again: its string value. */
static char *
round_trip(const char *text)
{
	char *dump = pjson_text(json_pack("{s:o}", "v", pjson_str(text)), 0);
	json_t *back = json_loads(dump, 0, NULL);
	char *out;

	CHECK(back != NULL);
	out = strdup(json_string_value(json_object_get(back, "v")));
	json_decref(back);
	free(dump);
	return out;
}

int
main(void)
{
	char *s, *dump;

	/* escaping is jansson's: quotes, backslashes, control characters */
	dump = pjson_text(pjson_str("q\"\\\n\t\x01"), 0);
	CHECK_STR(dump, "\"q\\\"\\\\\\n\\t\\u0001\"");
	free(dump);
	s = round_trip("q\"\\\n\t\x01 ünïcødé €");
	CHECK_STR(s, "q\"\\\n\t\x01 ünïcødé €");
	free(s);

	/* a \u escape reads back whole, not cut to one byte */
	{
		json_t *j = json_loads("{\"v\": \"caf\\u00e9 \\u20ac\"}", 0, NULL);

		CHECK_STR(json_string_value(json_object_get(j, "v")),
				  "caf\xc3\xa9 \xe2\x82\xac");
		json_decref(j);
	}

	/* bytes that are not UTF-8 (a Latin-1 script line, a stray byte, an
	 * overlong form, a surrogate) become U+FFFD; the rest is kept */
	s = round_trip("caf\xe9 ok");
	CHECK_STR(s, "caf\xef\xbf\xbd ok");
	free(s);
	s = round_trip("\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x82");
	CHECK_STR(s, "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf"
				 "\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
				 "\xef\xbf\xbd\xef\xbf\xbd");
	free(s);

	/* NULL is JSON null; keys keep the order they were set in */
	dump = pjson_text(
		json_pack("{s:o, s:i, s:s}", "z", pjson_str(NULL), "a", 1, "m", "x"),
		0);
	CHECK_STR(dump, "{\"z\": null, \"a\": 1, \"m\": \"x\"}");
	free(dump);
	TEST_MAIN_END("test_json");
}
