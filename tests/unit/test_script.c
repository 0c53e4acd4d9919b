/*
 * test_script.c - pgbench script parsing (command splitting, ":name"
 * parameters, error positions) and expression evaluation.
 */
#include <stdlib.h>

#include "script.h"
#include "test.h"

static const struct script_origin origin = {"t.sql", 1, 0, 0};

static struct script *
parse(const char *text)
{
	struct pgc_error err;
	struct script *s;

	error_clear(&err);
	s = script_parse("t", text, &origin, &err);
	if (s == NULL)
		fprintf(stderr, "unexpected error: %d:%d: %s\n", err.line, err.col,
				err.message);
	return s;
}

/* Parse TEXT expecting an error at LINE:COL whose message starts MSG. */
static void
parse_fails(const char *text, int line, int col, const char *msg)
{
	struct pgc_error err;
	struct script *s;

	error_clear(&err);
	s = script_parse("t", text, &origin, &err);
	CHECK(s == NULL);
	script_free(s);
	CHECK_INT(err.kind, PGC_ERR_RECIPE);
	CHECK_INT(err.line, line);
	CHECK_INT(err.col, col);
	CHECK(strncmp(err.message, msg, strlen(msg)) == 0);
	if (strncmp(err.message, msg, strlen(msg)) != 0)
		fprintf(stderr, "  message: %s\n  wanted:  %s...\n", err.message, msg);
}

/* Evaluate "\set x EXPR" and return x, or fail with the runtime error. */
static int
eval(const char *expr, int64_t *out, char *errbuf, size_t errsize)
{
	char text[512];
	struct script *s;
	struct script_vars v;
	int ok;

	snprintf(text, sizeof(text), "\\set x %s\nSELECT 1;\n", expr);
	s = parse(text);
	if (s == NULL)
		return -1;
	script_vars_init(&v, s, 7, 1, 12345);
	ok = script_exec_set(s, &s->cmds[0], &v);
	if (ok)
		*out = v.values[s->cmds[0].set_var];
	else
		snprintf(errbuf, errsize, "%s", v.errmsg);
	script_vars_release(&v);
	script_free(s);
	return ok ? 0 : 1;
}

static void
eval_is(const char *expr, int64_t want)
{
	int64_t got = 0;
	char msg[256] = "";
	int rc = eval(expr, &got, msg, sizeof(msg));

	CHECK_INT(rc, 0);
	if (rc == 0 && got != want)
		fprintf(stderr, "  expression: %s\n", expr);
	CHECK_INT(got, want);
}

static void
eval_fails(const char *expr, const char *msg)
{
	int64_t got = 0;
	char err[256] = "";

	CHECK_INT(eval(expr, &got, err, sizeof(err)), 1);
	CHECK_STR(err, msg);
}

int
main(void)
{
	struct script *s;

	/* seed 000 */
	s = parse("SELECT txid_current();\n");
	CHECK(s != NULL);
	CHECK_INT(s->ncmds, 1);
	CHECK_STR(s->cmds[0].sql_params, "SELECT txid_current()");
	CHECK_INT(s->cmds[0].nparams, 0);
	script_free(s);

	/* seed 002, exactly as posted */
	s = parse(
		"\\set id random(1, 1000000000000000)\n\n"
		"begin;\ninsert into test1\nselect i\n"
		"from generate_series(:id::int8, :id::int8 + 1000) as i;\n"
		"delete from test1 where id >= :id::int8 and id <= :id::int8 + 1000;\n"
		"end;\n");
	CHECK(s != NULL);
	CHECK_INT(s->ncmds, 5);
	CHECK_INT(s->cmds[0].kind, SCRIPT_CMD_SET);
	CHECK_STR(s->cmds[1].sql_params, "begin");
	CHECK_STR(
		s->cmds[2].sql_params,
		"insert into test1\nselect i\nfrom generate_series($1::int8, $2::int8 + 1000) as i");
	CHECK_INT(s->cmds[2].nparams, 2);
	CHECK_STR(
		s->cmds[3].sql_params,
		"delete from test1 where id >= $1::int8 and id <= $2::int8 + 1000");
	CHECK_STR(s->cmds[4].sql_params, "end");
	CHECK_INT(s->max_params, 2);
	/* simple protocol pieces: text, var, text, var, text */
	CHECK_INT(s->cmds[3].npieces, 3);
	CHECK_INT(s->cmds[3].pieces[0].var, s->cmds[0].set_var);
	script_free(s);

	/* splitting respects quotes, dollar quotes, comments, parentheses */
	s = parse(
		"SELECT ';' AS a; SELECT $$x;y$$ /* ; */; -- c;\n"
		"SELECT $f$ ; $f$, \"a;b\"; SELECT E'\\';'\n;\n-- only a comment\n");
	CHECK(s != NULL);
	if (s)
	{
		CHECK_INT(s->ncmds, 4);
		CHECK_STR(s->cmds[0].sql_params, "SELECT ';' AS a");
		CHECK_STR(s->cmds[1].sql_params, "SELECT $$x;y$$ /* ; */");
		CHECK_STR(s->cmds[2].sql_params, "-- c;\nSELECT $f$ ; $f$, \"a;b\"");
		CHECK_STR(s->cmds[3].sql_params, "SELECT E'\\';'");
	}
	script_free(s);
	s = parse(
		"CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql");
	CHECK(s != NULL && s->ncmds == 1);
	script_free(s);

	/* ":name" everywhere, "::type" and lone colons left alone (parseQuery) */
	s = parse("\\set a 1\nSELECT :a::int, ':a', x[1:2], :a");
	CHECK(s != NULL);
	if (s)
	{
		CHECK_STR(s->cmds[1].sql_params, "SELECT $1::int, '$2', x[1:2], $3");
		CHECK_INT(s->cmds[1].nparams, 3);
	}
	script_free(s);

	/* a comment-only chunk before a meta-command is no SQL command */
	s = parse("-- header comment\n\\set a 1\nSELECT :a;\n-- trailer\n");
	CHECK(s != NULL);
	if (s)
	{
		CHECK_INT(s->ncmds, 2);
		CHECK_INT(s->cmds[0].kind, SCRIPT_CMD_SET);
		CHECK_STR(s->cmds[1].sql_params, "SELECT $1");
	}
	script_free(s);

	/* automatic variables */
	s = parse("SELECT :client_id, :scale");
	CHECK(s != NULL && s->cmds[0].nparams == 2);
	script_free(s);

	/* server error positions map back through "$n" to the ":name" text */
	s = parse("\\set abc 1\nSELECT :abc + nosuch");
	CHECK(s != NULL);
	if (s)
	{
		size_t off = script_sql_offset(s, 1, 13);
		int line, col;

		script_locate(s, off, &line, &col);
		CHECK_INT(line, 2);
		CHECK_INT(col, 15);
	}
	script_free(s);

	/* parse errors carry their position */
	parse_fails("\\set x 1 +\nSELECT 1", 1, 11, "syntax error");
	parse_fails("SELECT 1;\n  \\sleep 10 ms\n", 2, 3,
				"meta-command \\sleep is not supported yet");
	parse_fails("\\frobnicate\nSELECT 1", 1, 1,
				"invalid command \\frobnicate");
	parse_fails("SELECT :nope", 1, 8, "undefined variable \"nope\"");
	parse_fails("SELECT 'abc", 1, 8, "unterminated quoted string");
	parse_fails("SELECT $q$ abc", 1, 8, "unterminated dollar-quoted string");
	parse_fails("SELECT 1 /* open", 1, 10, "unterminated /* comment");
	parse_fails("\\set x nosuchfn(1)\nSELECT 1", 1, 8,
				"unknown function or keyword \"nosuchfn\"");
	parse_fails("\\set x random(1)\nSELECT 1", 1, 8,
				"wrong number of arguments to random");
	parse_fails("\\set x 1.5\nSELECT 1", 1, 8,
				"double constants are not supported yet");
	parse_fails("\\set x 99999999999999999999\nSELECT 1", 1, 8,
				"bigint constant overflow");
	parse_fails("\\set x 1\n", 1, 1, "script \"t\" contains no SQL command");
	parse_fails("SELECT 1 \\; SELECT 2", 1, 10, "compound statements");
	parse_fails("\\set\nSELECT 1", 1, 5, "missing variable name in \\set");

	/* expressions: pgbench's int64 semantics */
	eval_is("1 + 2 * 3", 7);
	eval_is("(1 + 2) * 3", 9);
	eval_is("10 - 2 - 3", 5);
	eval_is("-7 / 2", -3);
	eval_is("-7 % 3", -1);
	eval_is("- - 4", 4);
	eval_is("+5", 5);
	eval_is("9223372036854775807", INT64_MAX);
	eval_is(":client_id * 2", 14);
	eval_is("abs(-3) + mod(7, 3) + greatest(1, 5, 3) + least(4, -2, 8)",
			3 + 1 + 5 - 2);
	eval_is("random(5, 5)", 5);
	eval_is("-9223372036854775807 - 1", INT64_MIN);
	eval_is("(-9223372036854775807 - 1) % -1", 0);
	eval_fails("9223372036854775807 + 1", "bigint out of range");
	eval_fails("(-9223372036854775807 - 1) / -1", "bigint out of range");
	eval_fails("-(-9223372036854775807 - 1)", "bigint out of range");
	eval_fails("4611686018427387904 * 2", "bigint out of range");
	eval_fails("1 / 0", "division by zero");
	eval_fails("1 % 0", "division by zero");
	eval_fails("random(5, 1)", "empty range given to random");
	eval_fails("random(-9223372036854775807, 9223372036854775807)",
			   "random range is too large");

	/* random(): within bounds, every value reached, deterministic by seed */
	{
		struct script_vars v1, v2;
		int seen[10] = {0};
		bool same = true;

		s = parse("\\set r random(-3, 6)\nSELECT :r");
		script_vars_init(&v1, s, 0, 1, 99);
		script_vars_init(&v2, s, 0, 1, 99);
		for (int i = 0; i < 10000; i++)
		{
			CHECK(script_exec_set(s, &s->cmds[0], &v1));
			CHECK(script_exec_set(s, &s->cmds[0], &v2));
			if (v1.values[s->cmds[0].set_var] != v2.values[s->cmds[0].set_var])
				same = false;
			if (v1.values[s->cmds[0].set_var] < -3 ||
				v1.values[s->cmds[0].set_var] > 6)
				CHECK(!"random out of range");
			else
				seen[v1.values[s->cmds[0].set_var] + 3]++;
		}
		CHECK(same);
		for (int i = 0; i < 10; i++)
			CHECK(seen[i] > 800 && seen[i] < 1200);
		script_vars_release(&v1);
		script_vars_release(&v2);
		script_free(s);
	}

	/* pg_prng: splitmix64 seeding and xoroshiro128** reference values */
	{
		struct prng p;

		prng_seed(&p, 0);
		/* splitmix64(0) first two outputs, the published reference */
		CHECK(p.s0 == UINT64_C(0xe220a8397b1dcdaf));
		CHECK(p.s1 == UINT64_C(0x6e789e6aa1b965f4));
		CHECK_INT(prng_range(&p, 10, 10), 10);
	}
	TEST_MAIN_END("test_script");
}
