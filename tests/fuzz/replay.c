/*
 * replay.c - a plain main() for the fuzz targets, so their corpora run
 * under ctest in every build (ASan, TSan) without libFuzzer:
 *
 *     fuzz_xxx_replay FILE_OR_DIR...
 *
 * Feeds every file (directories: every file in them) to the target once.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int nrun;

static void
replay(const char *path)
{
	struct stat st;
	struct pgc_error err;
	size_t len;
	char *data;

	if (stat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode))
	{
		DIR *d = opendir(path);
		struct dirent *de;

		while (d && (de = readdir(d)) != NULL)
		{
			char *sub;

			if (de->d_name[0] == '.')
				continue;
			sub = xasprintf("%s/%s", path, de->d_name);
			replay(sub);
			free(sub);
		}
		if (d)
			closedir(d);
		return;
	}
	if ((data = file_read_all(path, &len, &err)) == NULL)
		return;
	LLVMFuzzerTestOneInput((const uint8_t *) data, len);
	free(data);
	nrun++;
}

int
main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		replay(argv[i]);
	printf("replayed %d inputs\n", nrun);
	return nrun > 0 ? 0 : 1;
}
