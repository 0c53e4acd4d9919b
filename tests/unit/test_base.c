/*
 * test_base.c - the foundation: strbuf, errors, edit distance and hints.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "test.h"

/* IN (N bytes) cut into pieces of PIECE bytes, as the terminal sees it. */
static char *
visible(const char *in, size_t n, size_t piece)
{
	struct visible v;
	struct strbuf out = STRBUF_INIT;

	memset(&v, 0, sizeof(v));
	for (size_t i = 0; i < n; i += piece)
		visible_add(&v, &out, in + i, n - i < piece ? n - i : piece);
	visible_finish(&v, &out);
	return out.buf ? strbuf_detach(&out) : strdup("");
}

/* The terminal's escaping, whole and cut at every byte. */
static void
test_visible(void)
{
	static const struct
	{
		const char *in;
		size_t n;
		const char *want;
	} cases[] = {
		{"plain text, tabs\tand\nlines", 0, "plain text, tabs\tand\nlines"},
		{"\x1b]0;pwned\x07title", 0, "\\x1b]0;pwned\\x07title"},
		{"\x1b[2J\x1b[31mred", 0, "\\x1b[2J\\x1b[31mred"},
		{"csv\r\nrow", 0, "csv\r\nrow"},
		{"over\rwrite", 0, "over\\rwrite"},
		{"ends in\r", 0, "ends in\\r"},
		{"del\x7f", 0, "del\\x7f"},
		{"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0,
		 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
		{"c1 csi \xc2\x9b"
		 "2J",
		 0, "c1 csi \\u009b2J"},
		{"nbsp \xc2\xa0.", 0, "nbsp \xc2\xa0."},
		{"bad \xff\xc3(", 0, "bad \\xff\\xc3("},
		{"cut \xe2\x82", 0, "cut \\xe2\\x82"},
		{"nul\0byte", 8, "nul\\x00byte"},
	};

	for (size_t i = 0; i < lengthof(cases); i++)
	{
		size_t n = cases[i].n ? cases[i].n : strlen(cases[i].in);

		for (size_t piece = 1; piece <= n; piece++)
		{
			char *got = visible(cases[i].in, n, piece);

			if (strcmp(got, cases[i].want) != 0)
				fprintf(stderr, "case %zu, pieces of %zu:\n", i, piece);
			CHECK_STR(got, cases[i].want);
			free(got);
		}
	}
}

int
main(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct pgc_error err;
	static const char *const keys[] = {"clients", "jobs", "protocol", NULL};
	char *p;

	test_visible();

	strbuf_addstr(&sb, "a");
	strbuf_addf(&sb, "%d-%s", 42, "x");
	for (int i = 0; i < 1000; i++)
		strbuf_addch(&sb, 'y');
	CHECK_INT(sb.len, 5 + 1000);
	CHECK(strncmp(sb.buf, "a42-xy", 6) == 0);
	strbuf_reset(&sb);
	CHECK_STR(sb.buf, "");
	strbuf_addstr(&sb, "q");
	p = strbuf_detach(&sb);
	CHECK(sb.len == 0);
	free(p);
	p = strbuf_detach(&sb); /* detaching an empty buffer gives "" */
	CHECK_STR(p, "");
	free(p);

	error_set(&err, PGC_ERR_RECIPE, "unknown key '%s'", "clinets");
	error_at(&err, "r.yaml", 3, 5, 7);
	error_hint(&err, "did you mean '%s'?", "clients");
	CHECK_STR(err.message, "unknown key 'clinets'");
	CHECK_INT(err.line, 3);
	CHECK_INT(err.span, 7);
	error_set(&err, PGC_ERR_SQL, "again");
	CHECK_INT(err.line, 0); /* error_set clears the place */
	CHECK_STR(err.hint, "");

	CHECK_INT(edit_distance("clinets", "clients"), 1); /* a transposition */
	CHECK_INT(edit_distance("lsit", "list"), 1);
	CHECK_INT(edit_distance("lsit", "init"), 2);
	CHECK_INT(edit_distance("kitten", "sitting"), 3);
	CHECK_INT(edit_distance("", "abc"), 3);
	CHECK_INT(edit_distance("jobs", "jobs"), 0);
	CHECK_STR(nearest_word("clinets", keys), "clients");
	CHECK_STR(nearest_word("job", keys), "jobs");
	CHECK(nearest_word("zzzzzz", keys) == NULL);

	CHECK(clock_now_ns() > 0);
	/* a FIFO with no writer is refused at once, not waited on forever */
	{
		char dir[] = "/tmp/pgcliff-test-base-XXXXXX";
		char fifo[64];

		CHECK(mkdtemp(dir) != NULL);
		snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
		CHECK_INT(mkfifo(fifo, 0600), 0);
		error_clear(&err);
		CHECK(file_read_all(fifo, NULL, &err) == NULL);
		CHECK(strstr(err.message, "is not a regular file") != NULL);
		unlink(fifo);
		rmdir(dir);
	}
	/* passwords, as libpq would read them, masked in place */
	{
		static const struct
		{
			const char *in, *masked;
		} cases[] = {
			{"host=db password=hunter2 user=u",
			 "host=db password=xxxxxxx user=u"},
			{"primary=password = 'a b\\'c' x=1",
			 "primary=password = 'xxxxxx' x=1"},
			{"postgresql://u:pw@h:5/db?password=zz&a=1",
			 "postgresql://u:xx@h:5/db?password=xx&a=1"},
			{"postgres://u@h/db", "postgres://u@h/db"},
			{"standby=host=x mypassword=1 passwordx=2",
			 "standby=host=x mypassword=1 passwordx=2"},
			{"--target=primary=password=", "--target=primary=password="},
			{"a:target=password=s1 password=s2",
			 "a:target=password=xx password=xx"},
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		{
			char *t = xstrdup(cases[i].in);

			conninfo_mask_passwords(t);
			CHECK_STR(t, cases[i].masked);
			free(t);
		}
	}
	/* directories made whole, files copied, owners gone */
	{
		char dir[] = "/tmp/pgcliff-test-base-XXXXXX";
		char *deep, *from, *to;
		struct stat st;
		char id[160];
		FILE *f;

		CHECK(mkdtemp(dir) != NULL);
		deep = xasprintf("%s/a/b/c", dir);
		from = xasprintf("%s/a/log", dir);
		to = xasprintf("%s/a/b/c/log", dir);
		CHECK_INT(dir_make_all(deep, 0700, &err), 0);
		CHECK(stat(deep, &st) == 0 && (st.st_mode & 0777) == 0700);
		CHECK((f = fopen(from, "w")) != NULL);
		if (f)
		{
			fputs("a server log\n", f);
			fclose(f);
		}
		CHECK_INT(file_copy(from, to, 0600, &err), 0);
		CHECK(stat(to, &st) == 0 && (st.st_mode & 0777) == 0600 &&
			  st.st_size == 13);
		CHECK_INT(file_copy(from, to, 0600, &err), -1); /* never over */
		CHECK_INT(dir_remove_tree(dir), 0);
		free(deep);
		free(from);
		free(to);

		process_identity(id, sizeof(id));
		CHECK(id[0] != '\0');
		CHECK(!process_gone(id));
		CHECK(!process_gone("garbage"));
		/* an earlier boot's process is gone */
		CHECK(process_gone("00000000-0000-0000-0000-000000000000 1 1"));
		/* this boot, a pid no process can have */
		{
			char other[200];

			snprintf(other, sizeof(other), "%.*s 2147483647 1",
					 (int) strcspn(id, " "), id);
			CHECK(process_gone(other));
		}
	}
	/* the hypervisor's steal, from /proc/stat's first line */
	{
		struct cpu_times a, b, c;

		CHECK(cpu_times_parse("cpu  100 0 50 800 10 0 0 40 0 0\n"
							  "cpu0 50 0 25 400 5 0 0 20 0 0\n",
							  &a));
		CHECK_INT(a.total, 1000);
		CHECK_INT(a.steal, 40);
		CHECK(cpu_times_parse("intr 1\ncpu  200 0 100 1500 10 0 0 190\n", &b));
		CHECK_INT(b.total, 2000);
		CHECK_NEAR(cpu_steal_pct(&a, &b), 15.0, 1e-12); /* 150 of 1000 */
		/* an old kernel's line without steal; no cpu line; time backwards */
		CHECK(cpu_times_parse("cpu  1 2 3 4\n", &c));
		CHECK_INT(c.steal, 0);
		CHECK(!cpu_times_parse("cpu0 1 2 3 4\n", &c));
		CHECK(cpu_steal_pct(&b, &a) < 0);
		/* too few ticks to read a share from: unknown, not 33 % */
		c = a;
		c.total += CPU_STEAL_MIN_TICKS - 1;
		c.steal += 30;
		CHECK(cpu_steal_pct(&a, &c) < 0);
		c.total += 1;
		CHECK_NEAR(cpu_steal_pct(&a, &c), 30.0, 1e-12);
		/* this machine's, where there is one */
		if (cpu_times_read(&c))
			CHECK(c.total >= c.steal);
	}
	TEST_MAIN_END("test_base");
}
