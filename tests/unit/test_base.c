/*
 * test_base.c - the foundation: strbuf, errors, edit distance and hints.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "test.h"

int
main(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct pgc_error err;
	static const char *const keys[] = {"clients", "jobs", "protocol", NULL};
	char *p;

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
	TEST_MAIN_END("test_base");
}
