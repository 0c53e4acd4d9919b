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
	script_vars_init(&v, s, 7, 1, 12345, 0, 12345, NULL, 0);
	ok = script_exec_set(s, &s->cmds[0], &v);
	if (ok)
		*out = v.vars[s->cmds[0].set_var].v.u.i;
	else
		snprintf(errbuf, errsize, "%.250s", v.errmsg);
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
		/* pgbench drops a command's leading "--" comment lines */
		CHECK_STR(s->cmds[2].sql_params, "SELECT $f$ ; $f$, \"a;b\"");
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
		/* the server's character 13, as cluster_pg_error() hands it on:
		 * byte offset 12 of the text sent */
		size_t off = script_sql_offset(s, 1, 12);
		int line, col;

		script_locate(s, off, &line, &col);
		CHECK_INT(line, 2);
		CHECK_INT(col, 15);
	}
	script_free(s);

	/* parse errors carry their position and pgbench's message */
	parse_fails("\\set x 1 +\nSELECT 1", 1, 11,
				"syntax error in command \"set\"");
	parse_fails("SELECT 1;\n  \\sleep 10 weeks\n", 2, 13,
				"unrecognized time unit, must be us, ms or s (weeks) in "
				"command \"sleep\"");
	parse_fails("\\frobnicate\nSELECT 1", 1, 1,
				"invalid command in command \"frobnicate\"");
	parse_fails("SELECT 'abc", 1, 8, "unterminated quoted string");
	parse_fails("SELECT $q$ abc", 1, 8, "unterminated dollar-quoted string");
	parse_fails("SELECT 1 /* open", 1, 10, "unterminated /* comment");
	parse_fails("\\set x nosuchfn(1)\nSELECT 1", 1, 8,
				"unexpected function name (nosuchfn) in command \"set\"");
	parse_fails("\\set x random(1)\nSELECT 1", 1, 8,
				"unexpected number of arguments (random) in command \"set\"");
	parse_fails("\\set x 99999999999999999999\nSELECT 1", 1, 8,
				"bigint constant overflow (99999999999999999999)");
	parse_fails("\\set x 1e400\n", 1, 8, "double constant overflow (1e400)");
	parse_fails("\\set x 1 < 2 < 3\n", 1, 14, "syntax error");
	parse_fails("\\set x 9223372036854775808\n", 1, 8, "syntax error");
	parse_fails("\\set x :a IS 3\n", 1, 14, "syntax error");
	parse_fails("-- nothing\n", 1, 1, "empty command list for script \"t\"");
	parse_fails("\\set\nSELECT 1", 1, 1,
				"missing argument in command \"set\"");
	parse_fails("\\set 1x 1\n", 1, 6, "invalid variable name: \"1x\"");
	parse_fails("\\if 1\nSELECT 1;\n", 1, 1, "\\if without matching \\endif");
	parse_fails("\\if 1\n\\else\n\\elif 0\n\\endif\n", 3, 1,
				"\\elif after \\else");
	parse_fails("\\gset\n", 1, 1, "\\gset must follow an SQL command");
	parse_fails("SELECT 1 \\gset a b\n", 1, 18,
				"too many arguments in command \"gset\"");
	parse_fails("\\sleep\n", 1, 1, "missing argument in command \"sleep\"");
	parse_fails("\\sleep x\n", 1, 8,
				"invalid sleep time, must be an integer (x) in command "
				"\"sleep\"");
	parse_fails("\\endpipeline x\n", 1, 14,
				"unexpected argument in command \"endpipeline\"");

	/* a variable nothing assigns: found before running */
	s = parse("SELECT :nope");
	CHECK(s != NULL);
	if (s)
	{
		struct pgc_error err;
		const char *defined[] = {"nope"};

		error_clear(&err);
		const struct script *set[] = {s};

		CHECK_INT(script_check_variables(set, 1, NULL, 0, &err), -1);
		CHECK_STR(err.message, "undefined variable \"nope\"");
		CHECK_INT(err.col, 8);
		CHECK_INT(script_check_variables(set, 1, defined, 1, &err), 0);
	}
	script_free(s);

	/* compound statements, \gset, \if structure */
	s = parse("\\; \\; SELECT 0 AS i5 \\; SELECT 5 AS i5 \\; \\; \\gset p_\n"
			  "\\if :p_i5 = 5\n\\set a 1\n\\elif false\n\\set a 2\n"
			  "\\else\n\\set a 3\n\\endif\n");
	CHECK(s != NULL);
	if (s)
	{
		CHECK_INT(s->ncmds, 8);
		CHECK_INT(s->cmds[0].nqueries, 6);
		CHECK_STR(s->cmds[0].sql_text,
				  "; ; SELECT 0 AS i5 ; SELECT 5 AS i5 ; ;");
		CHECK_INT(s->cmds[0].store, SCRIPT_STORE_GSET);
		CHECK_STR(s->cmds[0].store_prefix, "p_");
		CHECK_INT(s->cmds[1].next_branch, 3);
		CHECK_INT(s->cmds[3].next_branch, 5);
		CHECK_INT(s->cmds[5].next_branch, 7);
		CHECK_INT(s->cmds[1].endif, 7);
		CHECK_INT(s->cmds[3].endif, 7);
		CHECK_INT(s->cmds[5].endif, 7);
	}
	script_free(s);

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
	eval_is("-9223372036854775808", INT64_MIN);
	eval_is("~0 # 5", ~INT64_C(0) ^ 5);
	eval_is("1 << 62 >> 61", 2);
	eval_is("case when 1 > 2 then 1 when 2 > 1 then 2 end", 2);
	eval_is("int(7.5) + int(-7.5)", 0); /* rint: half to even */
	eval_is("hash(10, 5432)", INT64_C(-5817877081768721676));
	eval_is("hash_fnv1a(10, 5432)", INT64_C(-7793829335365542153));
	eval_is("permute(9223372036854775796, 9223372036854775797, 5432)",
			INT64_C(520382784483822430));
	eval_is("permute(9223372036854775791, 9223372036854775797, 5432)",
			INT64_C(8648551549198294572));
	eval_fails("9223372036854775807 + 1", "bigint add out of range");
	eval_fails("(-9223372036854775807 - 1) / -1", "bigint div out of range");
	eval_fails("-(-9223372036854775807 - 1)", "bigint sub out of range");
	eval_fails("4611686018427387904 * 2", "bigint mul out of range");
	eval_fails("true + 2", "cannot coerce boolean to int");
	eval_fails("not 0.0", "cannot coerce double to boolean");
	eval_fails(
		"int(1e32)",
		"double to int overflow for 100000000000000005366162204393472.000000");
	eval_fails("least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)",
			   "too many function arguments, maximum is 16");
	eval_fails(
		"random_zipfian(0, 10, 1)",
		"zipfian parameter must be in range [1.001, 1000] (not 1.000000)");
	eval_fails("permute(0, 0)",
			   "permute size parameter must be greater than zero");
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
		script_vars_init(&v1, s, 0, 1, 99, 0, 99, NULL, 0);
		script_vars_init(&v2, s, 0, 1, 99, 0, 99, NULL, 0);
		for (int i = 0; i < 10000; i++)
		{
			int64_t r1, r2;

			CHECK(script_exec_set(s, &s->cmds[0], &v1));
			CHECK(script_exec_set(s, &s->cmds[0], &v2));
			r1 = v1.vars[s->cmds[0].set_var].v.u.i;
			r2 = v2.vars[s->cmds[0].set_var].v.u.i;
			if (r1 != r2)
				same = false;
			if (r1 < -3 || r1 > 6)
				CHECK(!"random out of range");
			else
				seen[r1 + 3]++;
		}
		CHECK(same);
		for (int i = 0; i < 10; i++)
			CHECK(seen[i] > 800 && seen[i] < 1200);
		script_vars_release(&v1);
		script_vars_release(&v2);
		script_free(s);
	}

	/*
	 * pgbench --random-seed=5432 -t 1: client 0's stream is the first draw
	 * of the base sequence; its TAP test pins these four values.
	 */
	{
		struct script_vars v;
		struct prng base;
		static const int64_t want[] = {17, 104, 1498, 3};

		s = parse("\\set a random(10, 19)\n"
				  "\\set b random_exponential(100, 199, 10.0)\n"
				  "\\set c random_gaussian(1000, 1999, 10.0)\n"
				  "\\set d random_zipfian(1, 9, 1.3)\n");
		prng_seed(&base, 5432);
		script_vars_init(&v, s, 0, 1, 5432, 0, prng_next(&base), NULL, 0);
		for (int i = 0; i < 4; i++)
		{
			CHECK(script_exec_set(s, &s->cmds[i], &v));
			CHECK_INT(v.vars[s->cmds[i].set_var].v.u.i, want[i]);
		}
		script_vars_release(&v);
		script_free(s);
	}

	/* string variables (-D, \\gset) parse as pgbench's makeVariableValue */
	{
		struct script_vars v;
		struct script_define defs[] = {{"foo", "-10.1"},
									   {"bla", "fals"},
									   {"n", "NULL"},
									   {"f", "of"},
									   {"bad", "trueXXX"}};
		struct script_value out;

		s = parse("\\set a :foo * 2\n\\set b :bla\n\\set c :n\n"
				  "\\set d :f\n\\set e :bad\n");
		script_vars_init(&v, s, 0, 1, 1, 0, 1, defs, 5);
		CHECK(script_eval(s, s->cmds[0].expr, &v, &out));
		CHECK(out.type == SV_DOUBLE && out.u.d == -20.2);
		CHECK(script_eval(s, s->cmds[1].expr, &v, &out));
		CHECK(out.type == SV_BOOL && !out.u.b);
		CHECK(script_eval(s, s->cmds[2].expr, &v, &out));
		CHECK(out.type == SV_NULL);
		CHECK(script_eval(s, s->cmds[3].expr, &v, &out));
		CHECK(out.type == SV_BOOL && !out.u.b);
		CHECK(!script_eval(s, s->cmds[4].expr, &v, &out));
		CHECK_STR(v.errmsg, "malformed variable \"bad\" value: \"trueXXX\"");
		script_vars_release(&v);
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
	/* hostile sizes: bounded depth with a located error, linear time */
	{
		struct strbuf t = STRBUF_INIT;
		struct pgc_error err;

		strbuf_addstr(&t, "\\set x ");
		for (int i = 0; i < 60000; i++)
			strbuf_addch(&t, '(');
		strbuf_addch(&t, '1');
		for (int i = 0; i < 60000; i++)
			strbuf_addch(&t, ')');
		error_clear(&err);
		CHECK(script_parse("t", t.buf, &origin, &err) == NULL);
		CHECK(strstr(err.message, "nested too deeply") != NULL);
		CHECK_INT(err.line, 1);
		strbuf_reset(&t);
		strbuf_addstr(&t, "\\set x ");
		for (int i = 0; i < 1000000; i++)
			strbuf_addch(&t, '-');
		strbuf_addstr(&t, "1");
		error_clear(&err);
		CHECK(script_parse("t", t.buf, &origin, &err) == NULL);
		CHECK(strstr(err.message, "nested too deeply") != NULL);
		/* 999 levels are fine */
		strbuf_reset(&t);
		strbuf_addstr(&t, "\\set x ");
		for (int i = 0; i < 998; i++)
			strbuf_addch(&t, '(');
		strbuf_addch(&t, '7');
		for (int i = 0; i < 998; i++)
			strbuf_addch(&t, ')');
		s = parse(t.buf);
		CHECK(s != NULL);
		script_free(s);
		/* 100,000 statements, each at its line */
		strbuf_reset(&t);
		for (int i = 0; i < 100000; i++)
			strbuf_addstr(&t, "SELECT 1;\n");
		s = parse(t.buf);
		CHECK(s != NULL);
		if (s)
		{
			CHECK_INT(s->ncmds, 100000);
			CHECK_INT(s->cmds[99999].line, 100000);
		}
		script_free(s);
		/* 20,000 nested \if: every branch knows its \endif */
		strbuf_reset(&t);
		for (int i = 0; i < 20000; i++)
			strbuf_addstr(&t, "\\if 1\n");
		strbuf_addstr(&t, "SELECT 1;\n");
		for (int i = 0; i < 20000; i++)
			strbuf_addstr(&t, "\\endif\n");
		s = parse(t.buf);
		CHECK(s != NULL);
		if (s)
		{
			CHECK_INT(s->ncmds, 40001);
			CHECK_INT(s->cmds[0].endif, 40000);
			CHECK_INT(s->cmds[19999].endif, 20001);
		}
		script_free(s);
		strbuf_release(&t);
	}
	TEST_MAIN_END("test_script");
}
