/*
 * fuzz_script.c - fuzz target for the pgbench script parser and the
 * expression evaluator: parse the input; if it parses, run every \set a
 * few times (random, overflow, division paths) and map every command's
 * offsets back to positions.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct script_origin origin = {"fuzz.sql", 1, 0, 0};
	char *text = malloc(size + 1);
	struct pgc_error err;
	struct script *s;

	memcpy(text, data, size);
	text[size] = '\0';
	error_clear(&err);
	s = script_parse("fuzz", text, &origin, &err);
	if (s == NULL && err.message[0] == '\0')
		abort();
	if (s)
	{
		struct script_vars v;
		int line, col;

		script_vars_init(&v, s, 3, 1, 42, 42, 42, NULL, 0);
		for (int round = 0; round < 3; round++)
			for (int i = 0; i < s->ncmds; i++)
				if (s->cmds[i].kind == SCRIPT_CMD_SET)
					(void) script_exec_set(s, &s->cmds[i], &v);
		/* positions of the first and last 128 commands: locating is a
		 * scan of the text, made once per error in pgcliff, and all of
		 * 13,000 commands would time the harness out, not the parser */
		for (int i = 0; i < s->ncmds; i++)
		{
			if (i >= 128 && i < s->ncmds - 128)
				continue;
			script_locate(s, s->cmds[i].offset, &line, &col);
			if (s->cmds[i].kind == SCRIPT_CMD_SQL)
				(void) script_sql_offset(s, i, (int) (size % 97) + 1);
		}
		script_vars_release(&v);
	}
	script_free(s);
	free(text);
	return 0;
}
