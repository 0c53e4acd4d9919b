/*
 * internal.h - what the files of drivers/pgbuild share (build.c: the
 * cache, keys and a build's order of work; identity.c: what names a source
 * tree; steps.c: the external steps, tar, configure, make, patch, git;
 * define.c: #define overrides); not part of the module's interface (that
 * is build.h).
 */
#ifndef PGCLIFF_BUILD_INTERNAL_H
#define PGCLIFF_BUILD_INTERNAL_H

#include <sys/stat.h>

#include "base.h"
#include "build.h"
#include "pjson.h"

#define LOG_TAIL_LINES 15

/* What names a source tree, for people, for the key and in provenance. */
struct identity
{
	char *text;     /* for people: "release 15.18, content 1a2b3c4d5e6f" */
	char *material; /* for the key: everything that names the tree */
	json_t *json;   /* for provenance */
};

/* A patch of the spec, read once. */
struct patch
{
	char *path;
	char *text;
	size_t len;
	char sha256[65];
};

/* One build_ensure(): the spec, its identity, key and log. */
struct job
{
	const struct build_spec *spec;
	const struct build_options *o;
	char *cache;
	char *src;                 /* absolute */
	char *log_path;            /* of the key being built */
	struct build_define *defs; /* sorted copy */
	struct patch *patches;
	struct identity id;
	char base_key[17];
	char key[17];
	/* spec->revision: the commit built and the one its build starts from
	 * (the same when it is a base), as 40 hex digits */
	char rev[41];
	char base_rev[41];
	char rev_tree[41]; /* REV's tree: what names it in the key */
	bool rev_change;   /* REV differs from BASE_REV: a variant */
	int jobs;
	int logfd;
	char *label;   /* the name, or the key */
	json_t *steps; /* seconds per step: {"copy": 1.0, ...} */
};

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

/* ---------------------------------------------------------------------
 * What names a source tree (identity.c)
 * ------------------------------------------------------------------- */

/* PACKAGE_VERSION of a configure script's TEXT, or NULL. */
char *configure_version(const char *text);

/*
 * Resolve REV of the checkout SRC with SUFFIX ("^{commit}", "^{tree}") to
 * 40 hex digits in OUT.
 */
int git_resolve(const char *src, const char *rev, const char *suffix,
				char out[41], const struct build_options *o,
				struct pgc_error *err);

/* Free ID's fields. */
void identity_free(struct identity *id);

/*
 * The identity of the tree SRC: its git commit and tree when it is a
 * clone, else its release and a hash of its content (cached in CACHE).
 */
int source_identity(const char *cache, const char *src,
					const struct build_options *o, struct identity *id,
					struct pgc_error *err);

/* PACKAGE_VERSION of SRC/configure, or NULL. */
char *source_version(const char *src);

/* ---------------------------------------------------------------------
 * The external steps (steps.c)
 * ------------------------------------------------------------------- */

/* Apply the patches to TREE, collecting the files they touch. */
int apply_patches(struct job *j, const char *tree, char ***files, int *nfiles,
				  struct pgc_error *err);

/* The first line of `$CC --version`, CC as configure chose it. */
char *compiler_version(struct job *j, const char *tree);

/*
 * Copy the source into DEST: the work tree without .git, or the base
 * commit when a revision is built.
 */
int copy_source(struct job *j, const char *dest, struct pgc_error *err);

/* "postgres (PostgreSQL) 15.18" from the install, or NULL. */
char *installed_version(struct job *j, const char *pgsql,
						struct pgc_error *err);

/*
 * Explain why PATCH does not apply, from patch's own words: "patching
 * file F" then "Hunk #N FAILED at L", or "can't find file to patch".
 */
void patch_error(const struct patch *p, const char *out, const char *tree,
				 struct pgc_error *err);

/*
 * Turn TREE, a copy of BASE_REV's built tree, into REV's: the files that
 * differ between the two commits replaced or removed, each one added to
 * FILES.
 */
int revision_update(struct job *j, const char *tree, char ***files,
					int *nfiles, struct pgc_error *err);

/* Configure TREE to install into PREFIX. */
int run_configure(struct job *j, const char *tree, const char *prefix,
				  struct pgc_error *err);

/* make (TARGET: NULL for all, or install with PREFIX_DIR) in TREE. */
int run_make(struct job *j, const char *tree, const char *target,
			 const char *prefix_dir, struct pgc_error *err);

/* Seconds since T0 (clock_now_ns()). */
double seconds_since(int64_t t0);

/* A step that failed: its error, with the log's tail. */
int step_failed(const struct job *j, const char *what, int status,
				struct pgc_error *err);

/* Record how long STEP took since T0, for build.json and estimates. */
void step_time(struct job *j, const char *step, int64_t t0);

/* The full diff of FILES between the base tree and the variant's. */
int variant_diff(struct job *j, const char *base_tree, const char *tree,
				 char **files, int nfiles, struct strbuf *diff,
				 struct pgc_error *err);

/* ---------------------------------------------------------------------
 * The cache and a build (build.c)
 * ------------------------------------------------------------------- */

/* LEN bytes of MD as lowercase hex digits into OUT (2 LEN + 1). */
void hex(const unsigned char *md, unsigned len, char *out);

/* A progress line of J ("build: ..."), through its options' progress. */
void job_progress(const struct job *j, const char *fmt, ...) PGC_PRINTF(2, 3);

/*
 * Run ARGV in CWD and collect its stdout into OUT (stderr to ERRFD, or
 * into OUT too when ERRFD < 0).  Returns its status as wait_child().
 */
int run_capture(char *const *argv, const char *cwd, int errfd,
				struct strbuf *out, const struct build_options *o,
				struct pgc_error *err);

/* Run ARGV in CWD with its output appended to LOGFD. */
int run_logged(char *const *argv, const char *cwd, int logfd,
			   const struct build_options *o, struct pgc_error *err);

/* The text of SB, "" when nothing was added. */
const char *sb_text(const struct strbuf *sb);

/* SHA-256 of LEN bytes as 64 hex digits into OUT[65]. */
void text_sha256_hex(const void *data, size_t len, char *out);

/*
 * Wait for PID; on an interrupt, stop its whole group.  Returns its exit
 * status (0-255), 128+N for a signal, or -1 when interrupted.
 */
int wait_child(pid_t pid, const struct build_options *o);

#endif /* PGCLIFF_BUILD_INTERNAL_H */
