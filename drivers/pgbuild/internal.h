/*
 * internal.h - what build.c and define.c share; not part of the module's
 * interface (that is build.h).
 */
#ifndef PGCLIFF_BUILD_INTERNAL_H
#define PGCLIFF_BUILD_INTERNAL_H

#include <sys/stat.h>

#include "base.h"

/*
 * Visit every regular file and symbolic link under ROOT in a fixed order
 * (names sorted bytewise, depth first), skipping entries whose name starts
 * with '.' when SKIP_HIDDEN.  FN gets the path relative to ROOT, the full
 * path and lstat(); it returns 0 to go on, -1 to stop (the walk returns
 * -1).  Returns -1 with ERR when a directory cannot be read.
 */
typedef int (*walk_fn)(void *arg, const char *rel, const char *path,
					   const struct stat *st);
int walk_tree(const char *root, bool skip_hidden, walk_fn fn, void *arg,
			  struct pgc_error *err);

#endif /* PGCLIFF_BUILD_INTERNAL_H */
