/*
 * steps.c - the external steps of a build (tar, copy, git, configure,
 * make, patch, diff), each a child in a process group of its own with its
 * output in the build log; see build.h and internal.h.
 */
#include "internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <openssl/evp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ----------------------------------------------------------- the steps */

/*
 * The log's first error lines and its last lines, for an error's detail:
 * with make -j the compiler's error is rarely at the very end.
 */
static void
log_tail(const char *log_path, struct pgc_error *err)
{
	struct pgc_error ignore;
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	char *text = file_read_all(log_path, &len, &ignore);
	size_t start, budget = sizeof(err->detail) - 200;
	int lines = 0, errors = 0;

	if (text == NULL)
		return;
	for (char *line = text; line < text + len && errors < 6;)
	{
		char *eol = memchr(line, '\n', (size_t) (text + len - line));
		size_t n = eol ? (size_t) (eol - line) : (size_t) (text + len - line);

		if (memmem(line, n, "error:", 6) || memmem(line, n, "Error:", 6))
		{
			if (errors++ == 0)
				strbuf_addf(&sb, "first errors in %s:\n", log_path);
			strbuf_addf(&sb, "%.*s\n", (int) (n > 200 ? 200 : n), line);
		}
		line += n + 1;
	}
	while (len > 0 && text[len - 1] == '\n')
		len--;
	start = len;
	while (start > 0 && lines < LOG_TAIL_LINES)
		if (text[--start] == '\n')
			lines++;
	if (text[start] == '\n')
		start++;
	/* the detail holds about 2 kB: keep the end, where make stopped */
	if (sb.len + (len - start) > budget)
		start = len - (budget > sb.len ? budget - sb.len : 0);
	error_detail(err, "%slast lines of %s:\n%.*s", sb.len ? sb.buf : "",
				 log_path, (int) (len - start), text + start);
	strbuf_release(&sb);
	free(text);
}

/* A step that failed: its error, with the log's tail. */
int
step_failed(const struct job *j, const char *what, int status,
			struct pgc_error *err)
{
	if (status < 0 && j->o->interrupted && *j->o->interrupted)
	{
		error_set(err, PGC_ERR_INTERRUPTED, "build %s interrupted during %s",
				  j->label, what);
		return -1;
	}
	if (err->kind != PGC_ERR_NONE)
		return -1;
	error_set(err, PGC_ERR_UNAVAILABLE, "build %s: %s failed (exit status %d)",
			  j->label, what, status);
	log_tail(j->log_path, err);
	error_hint(err, "the whole log is %s", j->log_path);
	return -1;
}

double
seconds_since(int64_t t0)
{
	return (double) (clock_now_ns() - t0) / 1e9;
}

/*
 * How long STEP took the last time a build of the same kind ran in this
 * cache (a whole build has a configure step, a variant a change step),
 * as its build.json says; 0 when none did.  What the progress line of a
 * step says it will likely take.
 */
static double
step_estimate(const struct job *j, const char *step)
{
	bool whole = strcmp(step, "configure") == 0 ||
				 json_object_get(j->steps, "configure") != NULL;
	bool change = json_object_get(j->steps, "change") != NULL;
	DIR *d = opendir(j->cache);
	struct dirent *e;
	double best = 0;
	time_t newest = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
	{
		char *path;
		struct stat st;
		json_t *doc, *steps;

		if (strlen(e->d_name) != 16 || strcmp(e->d_name, j->key) == 0)
			continue;
		path = xasprintf("%s/%s/build.json", j->cache, e->d_name);
		if (stat(path, &st) == 0 && st.st_mtime >= newest &&
			(doc = json_load_file(path, 0, NULL)) != NULL)
		{
			steps = json_object_get(doc, "steps");
			if ((json_object_get(steps, "configure") != NULL) == whole &&
				(json_object_get(steps, "change") != NULL) == change &&
				json_is_number(json_object_get(steps, step)))
			{
				best = json_number_value(json_object_get(steps, step));
				newest = st.st_mtime;
			}
			json_decref(doc);
		}
		free(path);
	}
	closedir(d);
	return best;
}

/* " (about 76 s, as the last time)" for STEP, or "" */
static void
estimate_text(const struct job *j, const char *step, char *buf, size_t size)
{
	double s = step_estimate(j, step);

	buf[0] = '\0';
	if (s >= 1)
		snprintf(buf, size, " (about %.0f s, as the last time)", s);
}

void
step_time(struct job *j, const char *step, int64_t t0)
{
	/* tenths of a second, as the progress lines say */
	json_object_set_new(j->steps, step,
						json_real(round(seconds_since(t0) * 10) / 10));
}

/*
 * Extract the tar archive that CREATE writes to its standard output into
 * DEST; WHAT names the step when it fails.  TOUCH: the files get the time
 * of extraction, not the archive's, so that make sees them newer than
 * what was built from their predecessors.
 */
static int
extract_into(struct job *j, char *const *create, const char *dest, bool touch,
			 const char *what, struct pgc_error *err)
{
	char *extract[] = {"tar", "-C", (char *) dest, "-xf", "-", NULL, NULL};
	int fds[2];
	struct process_io c = {-1, -1, j->logfd};
	struct process_io x = {-1, -1, j->logfd};
	pid_t pc, px;
	int sc, sx;

	if (touch)
		extract[5] = "-m";
	if (dir_make_all(dest, 0755, err) < 0)
		return -1;
	if (pipe2(fds, O_CLOEXEC) != 0)
	{
		error_set(err, PGC_ERR_IO, "pipe: %s", strerror(errno));
		return -1;
	}
	c.out = fds[1];
	x.in = fds[0];
	pc = process_spawn(create, NULL, &c, err);
	px = pc < 0 ? -1 : process_spawn(extract, NULL, &x, err);
	close(fds[0]);
	close(fds[1]);
	sc = pc < 0 ? -1 : wait_child(pc, j->o);
	sx = px < 0 ? -1 : wait_child(px, j->o);
	if (sc != 0 || sx != 0)
		return step_failed(j, what, sc != 0 ? sc : sx, err);
	return 0;
}

/*
 * Copy the source into DEST: the work tree without .git, or the base
 * commit when a revision is built.
 */
int
copy_source(struct job *j, const char *dest, struct pgc_error *err)
{
	char *tree[] = {"tar", "-C", j->src, "--exclude=.git",
					"-cf", "-",  ".",    NULL};
	char *commit[] = {"git",          "-C",        j->src, "archive",
					  "--format=tar", j->base_rev, NULL};

	return extract_into(j, j->spec->revision ? commit : tree, dest, false,
						"copying the source", err);
}

/*
 * Turn TREE, a copy of BASE_REV's built tree, into REV's: the files that
 * differ between the two commits replaced or removed, each one added to
 * FILES.
 */
int
revision_update(struct job *j, const char *tree, char ***files, int *nfiles,
				struct pgc_error *err)
{
	char *diff[] = {"git",
					"-C",
					j->src,
					"diff",
					"--no-renames",
					"--no-ext-diff",
					"--name-status",
					"-z",
					j->base_rev,
					j->rev,
					NULL};
	struct strbuf out = STRBUF_INIT;
	char **argv = NULL;
	int nargv = 0, nchanged = 0, nremoved = 0, rc = -1, st;

	job_progress(j, "the files that differ between %.12s and %.12s",
				 j->base_rev, j->rev);
	if ((st = run_capture(diff, NULL, j->logfd, &out, j->o, err)) != 0)
	{
		if (err->kind == PGC_ERR_NONE)
			step_failed(j, "git diff", st, err);
		goto out;
	}
	argv = xcalloc(out.len / 2 + 16, sizeof(char *));
	argv[nargv++] = "git";
	argv[nargv++] = "--literal-pathspecs";
	argv[nargv++] = "-C";
	argv[nargv++] = j->src;
	argv[nargv++] = "archive";
	argv[nargv++] = "--format=tar";
	argv[nargv++] = j->rev;
	argv[nargv++] = "--";
	/* -z --name-status: STATUS NUL PATH NUL, ... */
	for (size_t p = 0; p < out.len;)
	{
		const char *status = out.buf + p;
		const char *path;

		p += strlen(status) + 1;
		if (p >= out.len)
			break;
		path = out.buf + p;
		p += strlen(path) + 1;
		*files = xrealloc(*files, (size_t) (*nfiles + 1) * sizeof(char *));
		(*files)[(*nfiles)++] = xstrdup(path);
		if (status[0] == 'D')
		{
			char *f = xasprintf("%s/%s", tree, path);

			if (unlink(f) != 0 && errno != ENOENT)
			{
				error_set(err, PGC_ERR_IO, "could not remove \"%s\": %s", f,
						  strerror(errno));
				free(f);
				goto out;
			}
			free(f);
			nremoved++;
		}
		else
		{
			argv[nargv++] = (char *) path;
			nchanged++;
		}
	}
	job_progress(j, "%d file%s from %.12s, %d removed", nchanged,
				 nchanged == 1 ? "" : "s", j->rev, nremoved);
	if (nchanged > 0 && extract_into(j, argv, tree, true,
									 "git archive of the revision", err) < 0)
		goto out;
	rc = 0;
out:
	free(argv);
	strbuf_release(&out);
	return rc;
}

static int
make_args(const struct job *j, char **argv, char *jobs, size_t jsize,
		  const char *target, char *prefix)
{
	int n = 0;

	snprintf(jobs, jsize, "-j%d", j->jobs);
	argv[n++] = "make";
	argv[n++] = jobs;
	/* binaries find libpq beside them: every install stands alone */
	argv[n++] = "rpath=-Wl,-rpath,'$$ORIGIN/../lib',--enable-new-dtags";
	if (target)
		argv[n++] = (char *) target;
	if (prefix)
		argv[n++] = prefix;
	argv[n] = NULL;
	return n;
}

int
run_make(struct job *j, const char *tree, const char *target,
		 const char *prefix_dir, struct pgc_error *err)
{
	char *argv[8], jobs[32];
	char *prefix = prefix_dir ? xasprintf("prefix=%s", prefix_dir) : NULL;
	int64_t t0 = clock_now_ns();
	int st;

	char eta[64];

	make_args(j, argv, jobs, sizeof(jobs), target, prefix);
	estimate_text(j, target ? "install" : "make", eta, sizeof(eta));
	job_progress(j, "make %s%s%s", target ? target : "", target ? "" : jobs,
				 eta);
	st = run_logged(argv, tree, j->logfd, j->o, err);
	free(prefix);
	if (st != 0)
		return step_failed(j, target ? "make install" : "make", st, err);
	step_time(j, target ? "install" : "make", t0);
	return 0;
}

/* Configure TREE to install into PREFIX. */
int
run_configure(struct job *j, const char *tree, const char *prefix,
			  struct pgc_error *err)
{
	int n = j->spec->nconfigure;
	char **argv = xcalloc((size_t) n + 5, sizeof(*argv));
	char *prefix_opt = xasprintf("--prefix=%s", prefix);
	int64_t t0 = clock_now_ns();
	char eta[64];
	int st;

	argv[0] = "./configure";
	argv[1] = "--enable-depend"; /* header changes rebuild their users */
	argv[2] = prefix_opt;
	for (int i = 0; i < n; i++)
		argv[3 + i] = j->spec->configure[i];
	estimate_text(j, "configure", eta, sizeof(eta));
	job_progress(j, "configure%s", eta);
	st = run_logged(argv, tree, j->logfd, j->o, err);
	free(argv);
	free(prefix_opt);
	if (st != 0)
		return step_failed(j, "configure", st, err);
	step_time(j, "configure", t0);
	return 0;
}

/* "postgres (PostgreSQL) 15.18" from the install, or NULL. */
char *
installed_version(struct job *j, const char *pgsql, struct pgc_error *err)
{
	char *postgres = xasprintf("%s/bin/postgres", pgsql);
	char *argv[] = {postgres, "--version", NULL};
	struct strbuf out = STRBUF_INIT;
	int st = run_capture(argv, NULL, -1, &out, j->o, err);

	free(postgres);
	while (out.len > 0 && isspace((unsigned char) out.buf[out.len - 1]))
		out.buf[--out.len] = '\0';
	if (st != 0 || strstr(sb_text(&out), "PostgreSQL") == NULL)
	{
		if (err->kind == PGC_ERR_NONE)
			error_set(err, PGC_ERR_UNAVAILABLE,
					  "build %s: the installed postgres does not run: %s",
					  j->label, sb_text(&out));
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out);
}

/* The first line of `$CC --version`, CC as configure chose it. */
char *
compiler_version(struct job *j, const char *tree)
{
	char *path = xasprintf("%s/src/Makefile.global", tree);
	FILE *f = fopen(path, "r");
	char line[1024], cc[256] = "cc";
	struct strbuf out = STRBUF_INIT;
	struct pgc_error ignore;
	char *nl;

	free(path);
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "CC = ", 5) == 0)
		{
			sscanf(line + 5, "%255s", cc);
			break;
		}
	if (f)
		fclose(f);
	{
		char *argv[] = {cc, "--version", NULL};

		error_clear(&ignore);
		run_capture(argv, NULL, -1, &out, j->o, &ignore);
	}
	if (out.buf && (nl = strchr(out.buf, '\n')) != NULL)
		*nl = '\0';
	return strbuf_detach(&out);
}

/* ------------------------------------------------------------ patches */

/*
 * Where hunk HUNK (1-based) of FILE starts in the patch text: the line of
 * its "@@", or 0.
 */
static int
hunk_line(const struct patch *p, const char *file, int hunk)
{
	const char *t = p->text;
	int line = 1, seen = 0;
	bool in_file = false;

	for (size_t i = 0; i < p->len;)
	{
		const char *eol = memchr(t + i, '\n', p->len - i);
		size_t n = eol ? (size_t) (eol - (t + i)) : p->len - i;

		if (n > 4 && strncmp(t + i, "+++ ", 4) == 0)
		{
			/* "+++ b/src/x.c\t..." names the file with one level to strip */
			const char *name = t + i + 4;
			const char *slash = memchr(name, '/', n - 4);
			size_t flen = strlen(file);

			if (slash && (size_t) (t + i + n - (slash + 1)) >= flen &&
				strncmp(slash + 1, file, flen) == 0 &&
				(slash[1 + flen] == '\n' || slash[1 + flen] == '\t' ||
				 slash[1 + flen] == ' ' || slash + 1 + flen == t + i + n))
			{
				in_file = true;
				seen = 0;
			}
			else
				in_file = false;
		}
		else if (in_file && n >= 2 && strncmp(t + i, "@@", 2) == 0 &&
				 ++seen == hunk)
			return line;
		i += n + 1;
		line++;
	}
	return 0;
}

/*
 * Explain why PATCH does not apply, from patch's own words: "patching
 * file F" then "Hunk #N FAILED at L", or "can't find file to patch".
 */
void
patch_error(const struct patch *p, const char *out, const char *tree,
			struct pgc_error *err)
{
	char file[1024] = "";
	const char *s = out;
	/* which PostgreSQL it failed on: a patch is written for one */
	char *version = source_version(tree);
	char *on =
		xasprintf("PostgreSQL %s", version ? version : "(version unknown)");

	while (s && *s)
	{
		int hunk, at;

		/* "patching file F" (or "checking file F" in a dry run) sets FILE */
		bool names_file = sscanf(s, "patching file %1023[^\n]", file) == 1 ||
						  sscanf(s, "checking file %1023[^\n]", file) == 1;

		if (!names_file && sscanf(s, "Hunk #%d FAILED at %d", &hunk, &at) == 2)
		{
			int pl = hunk_line(p, file, hunk);

			error_set(err, PGC_ERR_RECIPE,
					  "patch %s: hunk #%d of %s does not apply to %s (at "
					  "its line %d)",
					  p->path, hunk, file, on, at);
			if (pl > 0)
			{
				snprintf(err->file, sizeof(err->file), "%s", p->path);
				err->line = pl;
				err->col = 1;
				err->span = 2;
			}
			error_detail(err, "%s", out);
			free(version);
			free(on);
			return;
		}
		if (!names_file && strncmp(s, "can't find file to patch", 24) == 0)
			break;
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	error_set(err, PGC_ERR_RECIPE, "patch %s does not apply to %s", p->path,
			  on);
	free(version);
	free(on);
	error_detail(err, "%s", out);
	error_hint(err, "patches apply with -p1 from the top of the tree, as "
					"git format-patch writes them");
}

/* Apply the patches to TREE, collecting the files they touch. */
int
apply_patches(struct job *j, const char *tree, char ***files, int *nfiles,
			  struct pgc_error *err)
{
	for (int i = 0; i < j->spec->npatches; i++)
	{
		struct patch *p = &j->patches[i];
		/* --fuzz=0: a hunk whose context differs is not the change that
		 * was measured elsewhere; lines may move, not change */
		char *dry[] = {"patch",     "-p1", "--forward", "--batch", "--fuzz=0",
					   "--dry-run", "-i",  p->path,     NULL};
		char *apply[] = {"patch",    "-p1", "--forward", "--batch",
						 "--fuzz=0", "-i",  p->path,     NULL};
		struct strbuf out = STRBUF_INIT;
		int st;

		job_progress(j, "patch %s", p->path);
		/* a dry run first: a patch applies whole or not at all */
		st = run_capture(dry, tree, -1, &out, j->o, err);
		if (st != 0)
		{
			if (st < 0 && err->kind == PGC_ERR_NONE)
				error_set(err, PGC_ERR_INTERRUPTED, "interrupted");
			else if (err->kind == PGC_ERR_NONE)
				patch_error(p, sb_text(&out), tree, err);
			strbuf_release(&out);
			return -1;
		}
		strbuf_reset(&out);
		st = run_capture(apply, tree, -1, &out, j->o, err);
		dprintf(j->logfd, "$ patch -p1 -i %s\n%s", p->path, sb_text(&out));
		if (st != 0)
		{
			if (err->kind == PGC_ERR_NONE)
				patch_error(p, sb_text(&out), tree, err);
			strbuf_release(&out);
			return -1;
		}
		for (const char *s = out.buf; s && *s;)
		{
			char file[1024];

			if (sscanf(s, "patching file %1023[^\n]", file) == 1)
			{
				*files =
					xrealloc(*files, (size_t) (*nfiles + 1) * sizeof(char *));
				(*files)[(*nfiles)++] = xstrdup(file);
			}
			s = strchr(s, '\n');
			if (s)
				s++;
		}
		strbuf_release(&out);
	}
	return 0;
}

/* The full diff of FILES between the base tree and the variant's. */
int
variant_diff(struct job *j, const char *base_tree, const char *tree,
			 char **files, int nfiles, struct strbuf *diff,
			 struct pgc_error *err)
{
	for (int i = 0; i < nfiles; i++)
	{
		bool dup = false;

		for (int k = 0; k < i; k++)
			dup = dup || strcmp(files[k], files[i]) == 0;
		if (dup)
			continue;
		{
			char *a = xasprintf("%s/%s", base_tree, files[i]);
			char *b = xasprintf("%s/%s", tree, files[i]);
			char *la = xasprintf("a/%s", files[i]);
			char *lb = xasprintf("b/%s", files[i]);
			char *argv[] = {"diff", "-uN", "--label", la,  "--label",
							lb,     a,     b,         NULL};
			int st = run_capture(argv, NULL, j->logfd, diff, j->o, err);

			free(a);
			free(b);
			free(la);
			free(lb);
			if (st != 0 && st != 1)
				return step_failed(j, "diff", st, err);
		}
	}
	return 0;
}
