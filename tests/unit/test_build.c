/*
 * test_build.c - `#define` rewriting: the scan of one text (comments,
 * #if 0, conditions, look-alike names) and the rewrite of a tree (found
 * once, not found, found twice, function-like, multi-line).
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "test.h"

static int
scan(const char *text, const char *name, struct define_site **sites)
{
	return define_scan_text(text, strlen(text), name, sites);
}

static void
test_scan(void)
{
	struct define_site *s;
	int n;

	/* once, with a trailing comment that is not part of the value */
	n = scan("#include \"c.h\"\n"
			 "\n"
			 "#define NUM_XLOGINSERT_LOCKS  8\t/* see below */\n"
			 "int x;\n",
			 "NUM_XLOGINSERT_LOCKS", &s);
	CHECK_INT(n, 1);
	if (n == 1)
	{
		CHECK_INT(s[0].line, 3);
		CHECK_STR(s[0].value, "8");
		CHECK(s[0].conditions == NULL);
		CHECK(!s[0].function_like && !s[0].continued);
	}
	define_sites_free(s, n);

	/* a longer name, a use, a string and a #undef are not definitions */
	n = scan("#define NUM_XLOGINSERT_LOCKS_X 4\n"
			 "int a[NUM_XLOGINSERT_LOCKS];\n"
			 "const char *s = \"#define NUM_XLOGINSERT_LOCKS 9\";\n"
			 "#undef NUM_XLOGINSERT_LOCKS\n",
			 "NUM_XLOGINSERT_LOCKS", &s);
	CHECK_INT(n, 0);
	define_sites_free(s, n);

	/* inside comments: a block over several lines, a line comment */
	n = scan("/*\n"
			 " * #define KAX_COMPRESS_FREQUENCY 64\n"
			 " */\n"
			 "// #define KAX_COMPRESS_FREQUENCY 32\n"
			 "/* one */ # define KAX_COMPRESS_FREQUENCY 128 /* in xacts */\n",
			 "KAX_COMPRESS_FREQUENCY", &s);
	CHECK_INT(n, 1);
	if (n == 1)
	{
		CHECK_INT(s[0].line, 5);
		CHECK_STR(s[0].value, "128");
	}
	define_sites_free(s, n);

	/* #if 0 is dead, its #else is live; #ifdef is reported */
	n = scan("#if 0\n"
			 "#define LOCKS 1\n"
			 "#else\n"
			 "#define LOCKS 2\n"
			 "#endif\n"
			 "#ifdef USE_FOO\n"
			 "#define LOCKS 3\n"
			 "#endif\n",
			 "LOCKS", &s);
	CHECK_INT(n, 2);
	if (n == 2)
	{
		CHECK_STR(s[0].value, "2");
		CHECK_STR(s[0].conditions, "#if 0 (line 1), #else (line 3)");
		CHECK_STR(s[1].value, "3");
		CHECK_STR(s[1].conditions, "#ifdef USE_FOO (line 6)");
	}
	define_sites_free(s, n);

	/* the usual guard: one definition, under #ifndef */
	n = scan("#ifndef LOCKS\n#define LOCKS 8\n#endif\n", "LOCKS", &s);
	CHECK_INT(n, 1);
	if (n == 1)
		CHECK_STR(s[0].conditions, "#ifndef LOCKS (line 1)");
	define_sites_free(s, n);

	/* function-like, multi-line, and no value at all */
	n = scan("#define F(x) ((x) + 1)\n"
			 "#define M 1 + \\\n  2\n"
			 "#define E\n",
			 "F", &s);
	CHECK_INT(n, 1);
	if (n == 1)
		CHECK(s[0].function_like);
	define_sites_free(s, n);
	n = scan("#define F(x) ((x) + 1)\n#define M 1 + \\\n  2\n#define E\n", "M",
			 &s);
	CHECK_INT(n, 1);
	if (n == 1)
	{
		CHECK(s[0].continued);
		CHECK_INT(s[0].line, 2);
	}
	define_sites_free(s, n);
	n = scan("#define F(x) ((x) + 1)\n#define M 1 + \\\n  2\n#define E\n", "E",
			 &s);
	CHECK_INT(n, 1);
	if (n == 1)
	{
		CHECK_STR(s[0].value, "");
		CHECK_INT(s[0].line, 4);
	}
	define_sites_free(s, n);
}

/* ------------------------------------------------------------- a tree */

static char root[256];

static void
put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = path + strlen(root) + 1; *s; s++)
		if (*s == '/')
		{
			*s = '\0';
			mkdir(path, 0755);
			*s = '/';
		}
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static char *
get(const char *rel)
{
	char path[512];
	struct pgc_error err;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return file_read_all(path, &len, &err);
}

static void
test_tree(void)
{
	struct define_site site;
	struct pgc_error err;
	struct stat before, after;
	char path[512];
	char *text;
	int rc;

	snprintf(root, sizeof(root), "%s/pgcliff-test-build-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(root) == NULL)
	{
		CHECK(!"mkdtemp");
		return;
	}
	put("src/backend/access/transam/xlog.c",
		"/* a comment: #define NUM_XLOGINSERT_LOCKS 4 */\n"
		"#define NUM_XLOGINSERT_LOCKS  8\n"
		"int locks[NUM_XLOGINSERT_LOCKS];\n");
	put("src/include/twice.h", "#ifdef A\n#define TWICE 1\n#else\n"
							   "#define TWICE 2\n#endif\n");
	put("src/other/twice.c", "#define TWICE 3\n");
	put("src/include/fn.h", "#define FN(x) (x)\n");
	put("src/include/empty.h", "#define EMPTY\n");
	put("README", "#define NUM_XLOGINSERT_LOCKS 99 (not a C file)\n");
	put(".pc/patch/src/backend/access/transam/xlog.c",
		"#define NUM_XLOGINSERT_LOCKS 8\n"); /* quilt's copy: hidden */

	/* found once: rewritten in place, comments left alone */
	error_clear(&err);
	rc = define_rewrite_tree(root, "NUM_XLOGINSERT_LOCKS", "64", &site, &err);
	CHECK_INT(rc, 0);
	if (rc == 0)
	{
		CHECK_STR(site.file, "src/backend/access/transam/xlog.c");
		CHECK_INT(site.line, 2);
		CHECK_STR(site.value, "8");
		define_site_clear(&site);
	}
	text = get("src/backend/access/transam/xlog.c");
	CHECK_STR(text, "/* a comment: #define NUM_XLOGINSERT_LOCKS 4 */\n"
					"#define NUM_XLOGINSERT_LOCKS  64\n"
					"int locks[NUM_XLOGINSERT_LOCKS];\n");
	free(text);

	/* the same value again: the file is not touched (make rebuilds
	 * nothing) */
	snprintf(path, sizeof(path), "%s/src/backend/access/transam/xlog.c", root);
	stat(path, &before);
	sleep(1);
	rc = define_rewrite_tree(root, "NUM_XLOGINSERT_LOCKS", "64", &site, &err);
	CHECK_INT(rc, 0);
	if (rc == 0)
	{
		CHECK_STR(site.value, "64");
		define_site_clear(&site);
	}
	stat(path, &after);
	CHECK(before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
		  before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);

	/* not found */
	error_clear(&err);
	rc = define_rewrite_tree(root, "NO_SUCH_DEFINE", "1", &site, &err);
	CHECK_INT(rc, -1);
	CHECK_INT(err.kind, PGC_ERR_RECIPE);
	CHECK_STR(err.message, "--define NO_SUCH_DEFINE: no #define "
						   "NO_SUCH_DEFINE in the source tree");

	/* found three times, in two files and in #ifdef branches: every
	 * place is named, and nothing is rewritten */
	error_clear(&err);
	rc = define_rewrite_tree(root, "TWICE", "5", &site, &err);
	CHECK_INT(rc, -1);
	CHECK_STR(err.message, "--define TWICE: #define TWICE is found 3 times "
						   "in the source tree");
	CHECK_STR(err.detail, "src/include/twice.h:2: #define TWICE 1  [under "
						  "#ifdef A (line 1)]\n"
						  "src/include/twice.h:4: #define TWICE 2  [under "
						  "#ifdef A (line 1), #else (line 3)]\n"
						  "src/other/twice.c:1: #define TWICE 3");
	text = get("src/other/twice.c");
	CHECK_STR(text, "#define TWICE 3\n");
	free(text);

	/* function-like: refused */
	error_clear(&err);
	rc = define_rewrite_tree(root, "FN", "1", &site, &err);
	CHECK_INT(rc, -1);
	CHECK(strstr(err.message, "function-like") != NULL);

	/* a define without a value gets one */
	error_clear(&err);
	rc = define_rewrite_tree(root, "EMPTY", "1", &site, &err);
	CHECK_INT(rc, 0);
	if (rc == 0)
		define_site_clear(&site);
	text = get("src/include/empty.h");
	CHECK_STR(text, "#define EMPTY 1\n");
	free(text);

	CHECK(is_c_identifier("NUM_XLOGINSERT_LOCKS"));
	CHECK(!is_c_identifier("9LOCKS"));
	CHECK(!is_c_identifier("A-B"));
	CHECK(!is_c_identifier(""));
	dir_remove_tree(root);
}

int
main(void)
{
	test_scan();
	test_tree();
	TEST_MAIN_END("test_build");
}
