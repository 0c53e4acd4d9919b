/*
 * test.h - tiny assertion macros in the style of libuv's task.h: a failed
 * check prints both values and file:line, counts, and the test goes on;
 * TEST_MAIN_END returns non-zero when anything failed.
 */
#ifndef PGCLIFF_TEST_H
#define PGCLIFF_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int test_failures;
static int test_checks;

#define CHECK(cond)                                                           \
	do                                                                        \
	{                                                                         \
		test_checks++;                                                        \
		if (!(cond))                                                          \
		{                                                                     \
			test_failures++;                                                  \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__,  \
					#cond);                                                   \
		}                                                                     \
	} while (0)

#define CHECK_INT(a, b)                                                       \
	do                                                                        \
	{                                                                         \
		long long va_ = (long long) (a), vb_ = (long long) (b);               \
		test_checks++;                                                        \
		if (va_ != vb_)                                                       \
		{                                                                     \
			test_failures++;                                                  \
			fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n",         \
					__FILE__, __LINE__, #a, #b, va_, vb_);                    \
		}                                                                     \
	} while (0)

#define CHECK_STR(a, b)                                                       \
	do                                                                        \
	{                                                                         \
		const char *sa_ = (a), *sb_ = (b);                                    \
		test_checks++;                                                        \
		if (sa_ == NULL || sb_ == NULL || strcmp(sa_, sb_) != 0)              \
		{                                                                     \
			test_failures++;                                                  \
			fprintf(                                                          \
				stderr,                                                       \
				"%s:%d: %s == %s failed:\n  got:  \"%s\"\n  want: \"%s\"\n",  \
				__FILE__, __LINE__, #a, #b, sa_ ? sa_ : "(null)",             \
				sb_ ? sb_ : "(null)");                                        \
		}                                                                     \
	} while (0)

#define CHECK_NEAR(a, b, rel)                                                 \
	do                                                                        \
	{                                                                         \
		double da_ = (double) (a), db_ = (double) (b);                        \
		test_checks++;                                                        \
		if (fabs(da_ - db_) > (rel) *fabs(db_))                               \
		{                                                                     \
			test_failures++;                                                  \
			fprintf(                                                          \
				stderr,                                                       \
				"%s:%d: %s ~ %s failed: %.6g vs %.6g (rel %.4g > %.4g)\n",    \
				__FILE__, __LINE__, #a, #b, da_, db_,                         \
				fabs(da_ - db_) / fabs(db_), (double) (rel));                 \
		}                                                                     \
	} while (0)

#define TEST_MAIN_END(name)                                                   \
	do                                                                        \
	{                                                                         \
		printf("%s: %d checks, %d failed\n", name, test_checks,               \
			   test_failures);                                                \
		return test_failures ? 1 : 0;                                         \
	} while (0)

#endif
