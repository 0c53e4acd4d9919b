/*
 * build.h - PostgreSQL built from source into a cache, one install per
 * variant.
 *
 * A build is a source tree (a git checkout or an unpacked release), the
 * `#define` overrides and patches applied to it, and configure options.
 * Its key hashes all four (the tree by its git commit and uncommitted
 * changes, or by its version and contents), so asking again is instant.
 *
 * The cache holds one directory per key:
 *
 *   KEY/pgsql/      the install (bin, lib, share): what servers run
 *   KEY/tree/       the built tree, kept for the plain (base) builds only
 *   KEY/build.log   every step's output
 *   KEY/build.json  provenance; written last, so its presence is the
 *                   mark of a complete build
 *   names/NAME      a symbolic link to the key a --name last gave
 *   failed/KEY.UTC.log  the log of an attempt that failed or was killed,
 *                   moved there when the key is built again (the newest
 *                   FAILED_LOGS_KEPT are kept)
 *
 * A variant (defines or patches) starts from a copy of its base build's
 * tree, so make recompiles only what the change touches.  A commit of a
 * git checkout (REVISION) is built from `git archive`; one built over
 * another commit's build (BASE_REVISION: what bisect does) is a variant of
 * it whose change is the files that differ between the two commits.  Builds of
 * one key are serialized by a lock file (.locks/KEY); a build that fails or is
 * killed leaves no build.json, and the next one starts over.
 *
 * Libraries never print: progress goes through a callback.
 */
#ifndef PGCLIFF_BUILD_H
#define PGCLIFF_BUILD_H

#include <signal.h>
#include <stdbool.h>

#include "base.h"

struct build_define
{
	char *name;
	char *value;
};

/*
 * What to build.  A variant holds one (schemas/recipe's struct variant)
 * and owns its arrays; build_ensure() only reads it.
 */
struct build_spec
{
	const char *source; /* the source tree */
	struct build_define *defines;
	int ndefines;
	char **patches; /* patch files, applied in order with -p1 */
	int npatches;
	char **configure; /* extra configure options */
	int nconfigure;
	const char *name; /* a label for progress and names/, or NULL */
	/*
	 * A commit of the git checkout SOURCE to build instead of its work
	 * tree (a hash, a tag, "HEAD~3": anything git rev-parse reads), or
	 * NULL.  Such a build is keyed by the commit's tree, so two clones
	 * of one history share it.
	 */
	char *revision;
	/*
	 * With REVISION: the commit whose build this one starts from (a copy
	 * of its built tree, the files that differ between the two commits
	 * replaced, so make recompiles only what they touch); NULL or the
	 * same commit: REVISION is built afresh as a base.  Borrowed.
	 */
	const char *base_revision;
};

struct build_options
{
	const char *cache_dir; /* NULL: build_default_cache_dir() */
	int jobs;              /* make -j; 0: the online CPUs */
	/* one line per step ("make -j2", "make -j2: done in 4.9 s") */
	void (*progress)(void *arg, const char *line);
	void *progress_arg;
	/* set by a signal handler: stop the build (and its children) */
	volatile sig_atomic_t *interrupted;
};

struct build_result
{
	char key[17];     /* 16 hex digits */
	char *dir;        /* CACHE/KEY */
	char *bindir;     /* CACHE/KEY/pgsql/bin */
	char *log_path;   /* CACHE/KEY/build.log */
	char *provenance; /* build.json: JSON, see REFERENCE.md */
	char *identity;   /* "release 15.18, content 1a2b3c4d5e6f" */
	bool cached;      /* already built: nothing ran */
	bool incremental; /* built from a copy of its base build's tree */
	double seconds;   /* this call's build time (0 when cached) */
};

/*
 * Build SPEC, or find it built.  Returns 0 with *OUT filled (free it with
 * build_result_free), or -1 with ERR: PGC_ERR_USAGE (bad source or
 * option), PGC_ERR_RECIPE (a define not found exactly once, a patch that
 * does not apply: the error names the file, line and hunk),
 * PGC_ERR_UNAVAILABLE (configure or make failed: the detail holds the
 * log's last lines), PGC_ERR_IO, PGC_ERR_INTERRUPTED.
 */
int build_ensure(const struct build_spec *spec, const struct build_options *o,
				 struct build_result *out, struct pgc_error *err);
void build_result_free(struct build_result *r);

/*
 * The cache directory: $PGCLIFF_BUILD_CACHE, else for root
 * /var/cache/pgcliff/builds (servers run as another user, who must reach
 * the install), else $XDG_CACHE_HOME/pgcliff/builds, else
 * $HOME/.cache/pgcliff/builds.  Returns BUF.
 */
char *build_default_cache_dir(char *buf, size_t size);

/* A commit of a git checkout: its hash and the first line of its message. */
struct build_commit
{
	char sha[41];
	char *subject;
};

/*
 * The commits of the git checkout SOURCE after GOOD up to BAD, oldest
 * first, BAD last (the ancestry path, in topological order), with GOOD
 * resolved into GOOD_SHA.  -1 with ERR (PGC_ERR_USAGE): a revision git
 * does not know, GOOD not an ancestor of BAD, or nothing between them.
 */
int build_git_range(const char *source, const char *good, const char *bad,
					const struct build_options *o, char good_sha[41],
					struct build_commit **out, int *n, struct pgc_error *err);
void build_commits_free(struct build_commit *c, int n);

/* ------------------------------------------------------ define rewriting */

/* Where a `#define NAME ...` is, in one file. */
struct define_site
{
	char *file; /* relative to the tree; NULL for define_scan_text() */
	int line;   /* 1-based */
	char *value;
	/* enclosing #if/#ifdef/#ifndef lines, "; "-separated, or NULL */
	char *conditions;
	bool function_like; /* #define NAME(args) */
	bool continued;     /* the definition goes on past a backslash */
	/* the byte range of the value in the file, for the rewrite */
	size_t value_start;
	size_t value_end;
};

/*
 * Find every live `#define NAME` in TEXT: not inside a comment, not in an
 * `#if 0` block, not another name that starts with NAME.  Returns the
 * count; *SITES (caller frees with define_sites_free) has them.
 */
int define_scan_text(const char *text, size_t len, const char *name,
					 struct define_site **sites);
void define_sites_free(struct define_site *sites, int n);
void define_site_clear(struct define_site *site);

/*
 * Rewrite the one definition of NAME under ROOT (its .c and .h files) to
 * VALUE.  *SITE (free with define_site_clear) says where and
 * what it was.  -1 with ERR (PGC_ERR_RECIPE) when NAME is defined nowhere
 * or more than once (the error names every place), or is a function-like
 * or multi-line macro.  A value that is already VALUE leaves the file
 * untouched, so make rebuilds nothing.
 */
int define_rewrite_tree(const char *root, const char *name, const char *value,
						struct define_site *site, struct pgc_error *err);

#endif /* PGCLIFF_BUILD_H */
