/*
 * golden.h - compare a rendered text with tests/golden/NAME, or rewrite
 * the file when UPDATE (then review the diff before committing it).
 * Include after test.h's macros are wanted: it uses CHECK and CHECK_STR.
 */
#ifndef PGCLIFF_GOLDEN_H
#define PGCLIFF_GOLDEN_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "base.h"
#include "test.h"

static inline void
golden(const char *dir, const char *name, const char *got, bool update)
{
	char path[1024];
	struct pgc_error err;
	char *want;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (update)
	{
		FILE *f = fopen(path, "w");

		CHECK(f != NULL);
		if (f)
		{
			fputs(got, f);
			fclose(f);
		}
		return;
	}
	want = file_read_all(path, NULL, &err);
	CHECK(want != NULL);
	if (want)
		CHECK_STR(got, want);
	free(want);
}

#endif /* PGCLIFF_GOLDEN_H */
