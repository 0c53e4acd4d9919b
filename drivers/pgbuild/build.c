/*
 * build.c - the build cache (see build.h).
 *
 * Every external step (tar, configure, make, patch, diff, git) runs as a
 * child in a process group of its own, so that an interrupt stops make and
 * all its compilers at once; their output goes to the build log.
 */
#include "build.h"

#include "pjson.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define BUILD_FORMAT   "pgcliff-build 1"
#define LOG_TAIL_LINES 15

/* ------------------------------------------------------------ the walk */

static int
name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int
walk_dir(const char *root, const char *rel, bool skip_hidden, walk_fn fn,
		 void *arg, struct pgc_error *err)
{
	char *dir = rel[0] ? xasprintf("%s/%s", root, rel) : xstrdup(root);
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, name_cmp);
	int rc = 0;

	if (n < 0)
	{
		error_set(err, PGC_ERR_IO, "could not read directory \"%s\": %s", dir,
				  strerror(errno));
		free(dir);
		return -1;
	}
	for (int i = 0; i < n; i++)
	{
		const char *name = ents[i]->d_name;
		char *r, *path;
		struct stat st;

		if (rc == 0 && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
			!(skip_hidden && name[0] == '.'))
		{
			r = rel[0] ? xasprintf("%s/%s", rel, name) : xstrdup(name);
			path = xasprintf("%s/%s", dir, name);
			if (lstat(path, &st) != 0)
			{
				error_set(err, PGC_ERR_IO, "could not stat \"%s\": %s", path,
						  strerror(errno));
				rc = -1;
			}
			else if (S_ISDIR(st.st_mode))
				rc = walk_dir(root, r, skip_hidden, fn, arg, err);
			else if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
				rc = fn(arg, r, path, &st);
			free(r);
			free(path);
		}
		free(ents[i]);
	}
	free(ents);
	free(dir);
	return rc;
}

int
walk_tree(const char *root, bool skip_hidden, walk_fn fn, void *arg,
		  struct pgc_error *err)
{
	return walk_dir(root, "", skip_hidden, fn, arg, err);
}

/* ------------------------------------------------------------- hashing */

static void
hex(const unsigned char *md, unsigned len, char *out)
{
	for (unsigned i = 0; i < len; i++)
		sprintf(out + (size_t) 2 * i, "%02x", md[i]);
}

/* SHA-256 of LEN bytes as 64 hex digits into OUT[65]. */
static void
sha256_hex(const void *data, size_t len, char *out)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;

	EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
	hex(md, mdlen, out);
}

/* The text of SB, "" when nothing was added. */
static const char *
sb_text(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/* ------------------------------------------------------------ children */

/*
 * Wait for PID; on an interrupt, stop its whole group.  Returns its exit
 * status (0-255), 128+N for a signal, or -1 when interrupted.
 */
static int
wait_child(pid_t pid, const struct build_options *o)
{
	int status;
	bool killed = false;

	for (;;)
	{
		pid_t r = waitpid(pid, &status, killed ? 0 : WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!killed && o->interrupted && *o->interrupted)
		{
			kill(-pid, SIGTERM);
			killed = true;
			continue;
		}
		if (r == 0)
		{
			struct timespec ts = {0, 50L * 1000 * 1000};

			nanosleep(&ts, NULL);
		}
	}
	if (killed)
	{
		kill(-pid, SIGKILL); /* whatever of the group is left */
		return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* Run ARGV in CWD with its output appended to LOGFD. */
static int
run_logged(char *const *argv, const char *cwd, int logfd,
		   const struct build_options *o, struct pgc_error *err)
{
	struct process_io io = {-1, -1, logfd};
	pid_t pid;

	dprintf(logfd, "$ ");
	for (int i = 0; argv[i]; i++)
		dprintf(logfd, "%s%s", i ? " " : "", argv[i]);
	dprintf(logfd, "\n");
	if ((pid = process_spawn(argv, cwd, &io, err)) < 0)
		return -1;
	return wait_child(pid, o);
}

/*
 * Run ARGV in CWD and collect its stdout into OUT (stderr to ERRFD, or
 * into OUT too when ERRFD < 0).  Returns its status as wait_child().
 */
static int
run_capture(char *const *argv, const char *cwd, int errfd, struct strbuf *out,
			const struct build_options *o, struct pgc_error *err)
{
	int fds[2];
	struct process_io io;
	pid_t pid;
	char buf[65536];

	if (pipe2(fds, O_CLOEXEC) != 0)
	{
		error_set(err, PGC_ERR_IO, "pipe: %s", strerror(errno));
		return -1;
	}
	io.in = -1;
	io.out = fds[1];
	io.err = errfd >= 0 ? errfd : fds[1];
	pid = process_spawn(argv, cwd, &io, err);
	close(fds[1]);
	if (pid < 0)
	{
		close(fds[0]);
		return -1;
	}
	for (;;)
	{
		struct pollfd p = {fds[0], POLLIN, 0};
		ssize_t n;

		if (o->interrupted && *o->interrupted)
			break;
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(fds[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(out, buf, (size_t) n);
	}
	close(fds[0]);
	return wait_child(pid, o);
}

/* ------------------------------------------------------------ identity */

struct identity
{
	char *text;     /* for people: "release 15.18, content 1a2b3c4d5e6f" */
	char *material; /* for the key: everything that names the tree */
	json_t *json;   /* for provenance */
};

static void
identity_free(struct identity *id)
{
	free(id->text);
	free(id->material);
	json_decref(id->json);
}

/* PACKAGE_VERSION of a configure script's TEXT, or NULL. */
static char *
configure_version(const char *text)
{
	for (const char *l = text; l && *l;
		 l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, "PACKAGE_VERSION='", 17) == 0)
		{
			const char *end = strpbrk(l + 17, "'\n");

			if (end && *end == '\'')
				return xstrndup(l + 17, (size_t) (end - l - 17));
		}
	return NULL;
}

/* PACKAGE_VERSION of SRC/configure, or NULL. */
static char *
source_version(const char *src)
{
	char *path = xasprintf("%s/configure", src);
	struct pgc_error ignore;
	char *text = file_read_all(path, NULL, &ignore);
	char *version = text ? configure_version(text) : NULL;

	free(path);
	free(text);
	return version;
}

struct hashwalk
{
	EVP_MD_CTX *ctx;
	bool contents; /* hash contents, else only what stat() says */
	struct pgc_error *err;
};

static int
hash_entry(void *arg, const char *rel, const char *path, const struct stat *st)
{
	struct hashwalk *h = arg;

	EVP_DigestUpdate(h->ctx, rel, strlen(rel) + 1);
	if (!h->contents)
	{
		long long meta[5] = {(long long) st->st_size,
							 (long long) st->st_mtim.tv_sec,
							 (long long) st->st_mtim.tv_nsec,
							 (long long) st->st_ino, (long long) st->st_mode};

		EVP_DigestUpdate(h->ctx, meta, sizeof(meta));
		return 0;
	}
	if (S_ISLNK(st->st_mode))
	{
		char target[4096];
		ssize_t n = readlink(path, target, sizeof(target));

		if (n > 0)
			EVP_DigestUpdate(h->ctx, target, (size_t) n);
		return 0;
	}
	{
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		char buf[65536];
		ssize_t n;

		if (fd < 0)
		{
			error_set(h->err, PGC_ERR_IO, "could not read \"%s\": %s", path,
					  strerror(errno));
			return -1;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			EVP_DigestUpdate(h->ctx, buf, (size_t) n);
		close(fd);
		EVP_DigestUpdate(h->ctx, (mode_t[]){st->st_mode & 0111},
						 sizeof(mode_t));
	}
	return 0;
}

static int
hash_tree(const char *src, bool contents, char *out, struct pgc_error *err)
{
	struct hashwalk h = {EVP_MD_CTX_new(), contents, err};
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	int rc;

	EVP_DigestInit_ex(h.ctx, EVP_sha256(), NULL);
	/* .git and quilt's .pc are not the tree's content */
	rc = walk_tree(src, true, hash_entry, &h, err);
	EVP_DigestFinal_ex(h.ctx, md, &mdlen);
	EVP_MD_CTX_free(h.ctx);
	hex(md, mdlen, out);
	return rc;
}

/*
 * The content hash of a release tree.  Reading 150 MB each time would not
 * make a cache hit instant, so the hash is remembered with a hash of every
 * file's size, mtime and inode (CACHE/.identity/HASH-OF-PATH): while those
 * stay the same, so do the contents.
 */
static int
release_content_hash(const char *cache, const char *src, char *out,
					 struct pgc_error *err)
{
	char meta[65], pathhash[65], memo_meta[65], memo_hash[65];
	char *memo;
	FILE *f;
	bool hit = false;

	if (hash_tree(src, false, meta, err) < 0)
		return -1;
	sha256_hex(src, strlen(src), pathhash);
	memo = xasprintf("%s/.identity/%.16s", cache, pathhash);
	if ((f = fopen(memo, "r")) != NULL)
	{
		hit = fscanf(f, "%64s %64s", memo_meta, memo_hash) == 2 &&
			  strcmp(memo_meta, meta) == 0;
		fclose(f);
	}
	if (hit)
		memcpy(out, memo_hash, 65);
	else if (hash_tree(src, true, out, err) < 0)
	{
		free(memo);
		return -1;
	}
	else
	{
		char *tmp = xasprintf("%s.%d", memo, (int) getpid());

		/* a memo that cannot be written only costs time */
		if ((f = fopen(tmp, "w")) != NULL)
		{
			fprintf(f, "%s %s\n", meta, out);
			if (fclose(f) == 0)
				rename(tmp, memo);
		}
		unlink(tmp);
		free(tmp);
	}
	free(memo);
	return 0;
}

static int
git_identity(const char *src, const char *version,
			 const struct build_options *o, struct identity *id,
			 struct pgc_error *err)
{
	char *head_argv[] = {"git", "-C", (char *) src, "rev-parse", "HEAD", NULL};
	char *diff_argv[] = {"git",  "-C",       (char *) src, "diff",
						 "HEAD", "--binary", NULL};
	char *untracked_argv[] = {
		"git", "-C",       (char *) src,         "ls-files",
		"-z",  "--others", "--exclude-standard", NULL};
	struct strbuf head = STRBUF_INIT, diff = STRBUF_INIT,
				  untracked = STRBUF_INIT;
	char dirty[65] = "";
	int rc = -1;

	if (run_capture(head_argv, NULL, -1, &head, o, err) != 0 ||
		run_capture(diff_argv, NULL, -1, &diff, o, err) != 0 ||
		run_capture(untracked_argv, NULL, -1, &untracked, o, err) != 0)
	{
		if (err->kind == PGC_ERR_NONE)
		{
			error_set(err, PGC_ERR_USAGE,
					  "could not read the git state of \"%s\"", src);
			error_detail(err, "%s%s", sb_text(&head), sb_text(&diff));
		}
		goto out;
	}
	while (head.len > 0 && isspace((unsigned char) head.buf[head.len - 1]))
		head.buf[--head.len] = '\0';
	/* untracked files: their names and contents join the diff */
	for (size_t p = 0; p < untracked.len;)
	{
		const char *rel = untracked.buf + p;
		char *path = xasprintf("%s/%s", src, rel);
		size_t len;
		struct pgc_error ignore;
		char *text = file_read_all(path, &len, &ignore);

		strbuf_addf(&diff, "\nuntracked %s\n", rel);
		if (text)
			strbuf_add(&diff, text, len);
		free(text);
		free(path);
		p += strlen(rel) + 1;
	}
	if (diff.len > 0)
		sha256_hex(diff.buf, diff.len, dirty);
	id->text = xasprintf("git %.12s%s%.12s%s%s%s", sb_text(&head),
						 dirty[0] ? " + uncommitted " : "", dirty,
						 version ? " (" : "", version ? version : "",
						 version ? ")" : "");
	id->material = xasprintf("git %s %s", sb_text(&head), dirty);
	id->json = json_pack("{s:s, s:o, s:o, s:o, s:o}", "kind", "git", "dir",
						 pjson_str(src), "commit", pjson_str(sb_text(&head)),
						 "uncommitted_sha256",
						 dirty[0] ? json_string(dirty) : json_null(),
						 "version", pjson_str(version ? version : ""));
	rc = 0;
out:
	strbuf_release(&head);
	strbuf_release(&diff);
	strbuf_release(&untracked);
	return rc;
}

/*
 * Resolve REV of the checkout SRC with SUFFIX ("^{commit}", "^{tree}") to
 * 40 hex digits in OUT.
 */
static int
git_resolve(const char *src, const char *rev, const char *suffix, char out[41],
			const struct build_options *o, struct pgc_error *err)
{
	char *spec = xasprintf("%s%s", rev, suffix);
	char *argv[] = {"git",      "-C",      (char *) src,       "rev-parse",
					"--verify", "--quiet", "--end-of-options", spec,
					NULL};
	struct strbuf sb = STRBUF_INIT;
	int st = run_capture(argv, NULL, -1, &sb, o, err);
	int rc = -1;

	while (sb.len > 0 && isspace((unsigned char) sb.buf[sb.len - 1]))
		sb.buf[--sb.len] = '\0';
	if (st == 0 && sb.len == 40 && strspn(sb.buf, "0123456789abcdef") == 40)
	{
		memcpy(out, sb.buf, 41);
		rc = 0;
	}
	else if (err->kind == PGC_ERR_NONE)
	{
		error_set(err, PGC_ERR_USAGE, "no commit \"%s\" in \"%s\"", rev, src);
		error_hint(err, "a revision is built from a git checkout given as "
						"the source; git rev-parse must know it");
	}
	free(spec);
	strbuf_release(&sb);
	return rc;
}

static int
source_identity(const char *cache, const char *src,
				const struct build_options *o, struct identity *id,
				struct pgc_error *err)
{
	char *gitdir = xasprintf("%s/.git", src);
	char *version = source_version(src);
	struct stat st;
	char content[65];
	int rc = 0;
	bool git = lstat(gitdir, &st) == 0;

	free(gitdir);
	if (version == NULL)
	{
		error_set(err, PGC_ERR_USAGE,
				  "\"%s\" is not a PostgreSQL source tree: no configure "
				  "script with a PACKAGE_VERSION",
				  src);
		error_hint(err, "give the top directory of a git checkout or of an "
						"unpacked release (apt-get source postgresql-15)");
		return -1;
	}
	if (git)
		rc = git_identity(src, version, o, id, err);
	else if ((rc = release_content_hash(cache, src, content, err)) == 0)
	{
		id->text = xasprintf("release %s, content %.12s", version, content);
		id->material = xasprintf("release %s %s", version, content);
		id->json = json_pack("{s:s, s:o, s:o, s:s}", "kind", "release", "dir",
							 pjson_str(src), "version", pjson_str(version),
							 "content_sha256", content);
	}
	free(version);
	return rc;
}

/* ---------------------------------------------------------------- spec */

static int
define_cmp(const void *a, const void *b)
{
	return strcmp(((const struct build_define *) a)->name,
				  ((const struct build_define *) b)->name);
}

/* pgcliff decides where a build installs: configure must not be told. */
static bool
configure_opt_ok(const char *opt)
{
	static const char *const refused[] = {
		"--prefix",  "--exec-prefix", "--bindir",
		"--libdir",  "--datadir",     "--datarootdir",
		"--sbindir", "--libexecdir",  "--includedir"};

	for (size_t i = 0; i < lengthof(refused); i++)
	{
		size_t n = strlen(refused[i]);

		if (strncmp(opt, refused[i], n) == 0 &&
			(opt[n] == '\0' || opt[n] == '='))
			return false;
	}
	return true;
}

struct patch
{
	char *path;
	char *text;
	size_t len;
	char sha256[65];
};

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
 * The identity of SPEC->revision's build: the base commit's tree names it
 * (clones of one history share builds), its text and provenance name the
 * commits.
 */
static int
revision_identity(struct job *j, struct pgc_error *err)
{
	const struct build_spec *s = j->spec;
	char base_tree[41];
	char *show = NULL;
	char *show_argv[] = {"git", "-C", j->src, "show", NULL, NULL};
	struct strbuf conf = STRBUF_INIT;
	char *version = NULL;
	int rc = -1;

	if (git_resolve(j->src, s->revision, "^{commit}", j->rev, j->o, err) < 0 ||
		git_resolve(j->src, s->base_revision ? s->base_revision : s->revision,
					"^{commit}", j->base_rev, j->o, err) < 0 ||
		git_resolve(j->src, j->base_rev, "^{tree}", base_tree, j->o, err) <
			0 ||
		git_resolve(j->src, j->rev, "^{tree}", j->rev_tree, j->o, err) < 0)
		return -1;
	j->rev_change = strcmp(j->rev, j->base_rev) != 0;
	show = xasprintf("%s:configure", j->base_rev);
	show_argv[4] = show;
	if (run_capture(show_argv, NULL, -1, &conf, j->o, err) != 0 ||
		(version = configure_version(sb_text(&conf))) == NULL)
	{
		if (err->kind == PGC_ERR_NONE)
			error_set(err, PGC_ERR_USAGE,
					  "commit %.12s of \"%s\" is not a PostgreSQL source "
					  "tree: no configure script with a PACKAGE_VERSION",
					  j->base_rev, j->src);
		goto out;
	}
	if (j->rev_change)
		j->id.text = xasprintf("git %.12s over %.12s (%s)", j->rev,
							   j->base_rev, version);
	else
		j->id.text = xasprintf("git %.12s (%s)", j->rev, version);
	j->id.material = xasprintf("git tree %s", base_tree);
	j->id.json = json_pack("{s:s, s:o, s:s, s:s, s:o}", "kind", "git-commit",
						   "dir", pjson_str(j->src), "commit", j->base_rev,
						   "tree", base_tree, "version", pjson_str(version));
	rc = 0;
out:
	free(show);
	free(version);
	strbuf_release(&conf);
	return rc;
}

static int
check_spec(struct job *j, struct pgc_error *err)
{
	const struct build_spec *s = j->spec;

	for (int i = 0; i < s->ndefines; i++)
	{
		if (!is_c_identifier(s->defines[i].name))
		{
			error_set(err, PGC_ERR_USAGE,
					  "invalid --define name \"%s\": want a C identifier",
					  s->defines[i].name);
			return -1;
		}
		if (s->defines[i].value[0] == '\0' ||
			strpbrk(s->defines[i].value, "\n\r\\") != NULL)
		{
			error_set(err, PGC_ERR_USAGE,
					  "invalid --define value for %s: want one line without "
					  "backslashes",
					  s->defines[i].name);
			return -1;
		}
		for (int k = 0; k < i; k++)
			if (strcmp(s->defines[k].name, s->defines[i].name) == 0)
			{
				error_set(err, PGC_ERR_USAGE, "--define %s is given twice",
						  s->defines[i].name);
				return -1;
			}
	}
	for (int i = 0; i < s->nconfigure; i++)
		if (!configure_opt_ok(s->configure[i]))
		{
			error_set(err, PGC_ERR_USAGE,
					  "configure option \"%s\" is pgcliff's to choose",
					  s->configure[i]);
			error_hint(err, "each build installs into its own cache "
							"directory; give other options only");
			return -1;
		}
	j->defs = xcalloc((size_t) s->ndefines + 1, sizeof(*j->defs));
	for (int i = 0; i < s->ndefines; i++)
		j->defs[i] = s->defines[i];
	qsort(j->defs, (size_t) s->ndefines, sizeof(*j->defs), define_cmp);
	j->patches = xcalloc((size_t) s->npatches + 1, sizeof(*j->patches));
	for (int i = 0; i < s->npatches; i++)
	{
		struct patch *p = &j->patches[i];

		p->path = realpath(s->patches[i], NULL);
		if (p->path == NULL)
		{
			error_set(err, PGC_ERR_USAGE, "patch \"%s\": %s", s->patches[i],
					  strerror(errno));
			return -1;
		}
		if ((p->text = file_read_all(p->path, &p->len, err)) == NULL)
			return -1;
		sha256_hex(p->text, p->len, p->sha256);
	}
	return 0;
}

/* The key of the tree with configure options (BASE) or of the whole spec. */
static void
compute_key(const struct job *j, bool base, char *out)
{
	struct strbuf m = STRBUF_INIT;
	char sha[65];

	strbuf_addf(&m, "%s\nsource %s\n", BUILD_FORMAT, j->id.material);
	for (int i = 0; i < j->spec->nconfigure; i++)
		strbuf_addf(&m, "configure %s\n", j->spec->configure[i]);
	if (!base)
	{
		for (int i = 0; i < j->spec->ndefines; i++)
			strbuf_addf(&m, "define %s=%s\n", j->defs[i].name,
						j->defs[i].value);
		for (int i = 0; i < j->spec->npatches; i++)
			strbuf_addf(&m, "patch %s\n", j->patches[i].sha256);
		if (j->rev_change)
			strbuf_addf(&m, "revision tree %s\n", j->rev_tree);
	}
	sha256_hex(m.buf, m.len, sha);
	memcpy(out, sha, 16);
	out[16] = '\0';
	strbuf_release(&m);
}

/* ----------------------------------------------------------- the cache */

char *
build_default_cache_dir(char *buf, size_t size)
{
	const char *env = getenv("PGCLIFF_BUILD_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (env && env[0])
		snprintf(buf, size, "%s", env);
	else if (geteuid() == 0)
		snprintf(buf, size, "/var/cache/pgcliff/builds");
	else if (xdg && xdg[0] == '/')
		snprintf(buf, size, "%s/pgcliff/builds", xdg);
	else
	{
		if (home == NULL || home[0] == '\0')
		{
			struct passwd *pw = getpwuid(geteuid());

			home = pw ? pw->pw_dir : "/tmp";
		}
		snprintf(buf, size, "%s/.cache/pgcliff/builds", home);
	}
	return buf;
}

/*
 * As root, servers run as another user: every directory above the cache
 * must let others through.
 */
static int
check_reachable(const char *cache, struct pgc_error *err)
{
	char *p = xstrdup(cache);

	if (geteuid() != 0)
	{
		free(p);
		return 0;
	}
	for (char *slash = p + strlen(p); slash > p;
		 slash = strrchr(p, '/'), *slash = '\0')
	{
		struct stat st;

		if (stat(p, &st) == 0 && (st.st_mode & S_IXOTH) == 0)
		{
			error_set(err, PGC_ERR_USAGE,
					  "build cache \"%s\" is out of reach of the servers' "
					  "user: \"%s\" is closed to others",
					  cache, p);
			error_hint(err, "as root, servers run as an unprivileged user; "
							"choose a cache they can reach (--cache or "
							"PGCLIFF_BUILD_CACHE)");
			free(p);
			return -1;
		}
	}
	free(p);
	return 0;
}

static bool
is_built(const char *cache, const char *key)
{
	char *path = xasprintf("%s/%s/build.json", cache, key);
	bool ok = access(path, F_OK) == 0;

	free(path);
	return ok;
}

static void progress(const struct job *j, const char *fmt, ...)
	PGC_PRINTF(2, 3);

static void
progress(const struct job *j, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	strbuf_addf(&sb, "build:");
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	inject_point(sb.buf);
	if (j->o->progress)
	{
		char *line = xasprintf("build %s: %s", j->label, sb.buf + 6);

		j->o->progress(j->o->progress_arg, line);
		free(line);
	}
	strbuf_release(&sb);
}

/* Take the lock of KEY; the fd, or -1. */
static int
lock_key(const struct job *j, const char *key, struct pgc_error *err)
{
	char *path = xasprintf("%s/.locks/%s", j->cache, key);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
	{
		error_set(err, PGC_ERR_IO, "could not open lock \"%s\": %s", path,
				  strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	if (flock(fd, LOCK_EX | LOCK_NB) == 0)
		return fd;
	progress(j, "waiting for another pgcliff building %s", key);
	while (flock(fd, LOCK_EX) != 0)
	{
		if (errno != EINTR || (j->o->interrupted && *j->o->interrupted))
		{
			error_set(err, PGC_ERR_INTERRUPTED,
					  "interrupted while waiting for the build lock");
			close(fd);
			return -1;
		}
	}
	return fd;
}

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
static int
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

static double
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

static void
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
static int
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
static int
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

	progress(j, "the files that differ between %.12s and %.12s", j->base_rev,
			 j->rev);
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
	progress(j, "%d file%s from %.12s, %d removed", nchanged,
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

static int
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
	progress(j, "make %s%s%s", target ? target : "", target ? "" : jobs, eta);
	st = run_logged(argv, tree, j->logfd, j->o, err);
	free(prefix);
	if (st != 0)
		return step_failed(j, target ? "make install" : "make", st, err);
	step_time(j, target ? "install" : "make", t0);
	return 0;
}

/* Configure TREE to install into PREFIX. */
static int
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
	progress(j, "configure%s", eta);
	st = run_logged(argv, tree, j->logfd, j->o, err);
	free(argv);
	free(prefix_opt);
	if (st != 0)
		return step_failed(j, "configure", st, err);
	step_time(j, "configure", t0);
	return 0;
}

/* "postgres (PostgreSQL) 15.18" from the install, or NULL. */
static char *
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
static char *
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
static void
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
static int
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

		progress(j, "patch %s", p->path);
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
static int
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

/* --------------------------------------------------------- provenance */

/*
 * build.json: what was built from what, for the store and for people;
 * one jansson document (show --build and the store read it back).
 */
static char *
provenance_json(struct job *j, const char *version, const char *compiler,
				const struct define_site *sites, const char *diff,
				bool incremental, double seconds)
{
	json_t *configure = json_pack("[s]", "--enable-depend");
	json_t *defines = json_array(), *patches = json_array(), *doc;
	char when[64];
	char *text;

	clock_wall_utc(when, sizeof(when));
	for (int i = 0; i < j->spec->nconfigure; i++)
		json_array_append_new(configure, pjson_str(j->spec->configure[i]));
	for (int i = 0; i < j->spec->ndefines; i++)
		json_array_append_new(
			defines, json_pack("{s:o, s:o, s:o, s:o, s:i, s:o}", "name",
							   pjson_str(j->defs[i].name), "value",
							   pjson_str(j->defs[i].value), "was",
							   pjson_str(sites[i].value), "file",
							   pjson_str(sites[i].file), "line", sites[i].line,
							   "conditions", pjson_str(sites[i].conditions)));
	for (int i = 0; i < j->spec->npatches; i++)
		json_array_append_new(patches,
							  json_pack("{s:o, s:s, s:o}", "file",
										pjson_str(j->patches[i].path),
										"sha256", j->patches[i].sha256, "text",
										pjson_str(j->patches[i].text)));
	doc = json_pack("{s:s, s:s, s:o, s:O, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
					"format", BUILD_FORMAT, "key", j->key, "name",
					pjson_str(j->spec->name), "source", j->id.json, "identity",
					pjson_str(j->id.text), "installed", pjson_str(version),
					"configure", configure, "compiler", pjson_str(compiler),
					"defines", defines, "patches", patches, "diff",
					pjson_str(diff));
	if (j->spec->revision)
	{
		json_object_set_new(doc, "revision", json_string(j->rev));
		json_object_set_new(doc, "revision_tree", json_string(j->rev_tree));
		json_object_set_new(doc, "base_revision", json_string(j->base_rev));
	}
	json_object_set_new(doc, "base_key", json_string(j->base_key));
	json_object_set_new(doc, "incremental", json_boolean(incremental));
	json_object_set_new(doc, "built_at", json_string(when));
	json_object_set_new(doc, "seconds", json_real(round(seconds * 10) / 10));
	json_object_set_new(doc, "steps", json_incref(j->steps));
	text = pjson_text(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(15));
	return text;
}

static int
write_file_atomic(const char *path, const char *text, struct pgc_error *err)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	bool ok = f != NULL && fputs(text, f) >= 0 && fflush(f) == 0 &&
			  fsync(fileno(f)) == 0;

	if (f != NULL && fclose(f) != 0)
		ok = false;
	if (!ok || rename(tmp, path) != 0)
	{
		error_set(err, PGC_ERR_IO, "could not write \"%s\": %s", path,
				  strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	chmod(path, 0644);
	free(tmp);
	return 0;
}

/* ------------------------------------------------------------- a build */

/* The logs of failed attempts the cache keeps (failed/). */
#define FAILED_LOGS_KEPT 10

static int
str_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *) a, *y = *(char *const *) b;
	const char *tx = strchr(x, '.'), *ty = strchr(y, '.');

	/* by the time in the name (KEY.YYYYmmddTHHMMSSZ.log) */
	return strcmp(tx ? tx : x, ty ? ty : y);
}

/* Remove all but the newest FAILED_LOGS_KEPT logs in DIR. */
static void
prune_failed_logs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
		{
			names = xrealloc(names, (size_t) (n + 1) * sizeof(*names));
			names[n++] = xstrdup(e->d_name);
		}
	closedir(d);
	if (n > 0)
		qsort(names, (size_t) n, sizeof(*names), str_cmp);
	for (int i = 0; i < n; i++)
	{
		if (i < n - FAILED_LOGS_KEPT)
		{
			char *p = xasprintf("%s/%s", dir, names[i]);

			unlink(p);
			free(p);
		}
		free(names[i]);
	}
	free(names);
}

/*
 * A log left by an attempt that did not finish (no build.json beside it)
 * goes to the cache's failed/ before the key is built again: a retry
 * must not erase why the last attempt failed.
 */
static void
keep_failed_log(struct job *j, const char *dir, const char *log_path)
{
	char *json = xasprintf("%s/build.json", dir);
	char *failed = xasprintf("%s/failed", j->cache);
	struct stat st;
	struct pgc_error ignore;

	if (stat(log_path, &st) == 0 && st.st_size > 0 &&
		access(json, F_OK) != 0 && dir_make_all(failed, 0755, &ignore) == 0)
	{
		char stamp[32], *to;
		struct tm tm;
		time_t t = st.st_mtime;

		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		to = xasprintf("%s/%s.%s.log", failed,
					   strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir, stamp);
		if (rename(log_path, to) == 0)
			progress(j,
					 "the log of the last attempt, which did not finish, "
					 "is kept: %s",
					 to);
		free(to);
		prune_failed_logs(failed);
	}
	free(json);
	free(failed);
}

/* Start KEY's directory afresh, with its log open. */
static int
start_dir(struct job *j, const char *dir, const char *log_path,
		  struct pgc_error *err)
{
	keep_failed_log(j, dir, log_path);
	if (access(dir, F_OK) == 0 && dir_remove_tree(dir) != 0)
	{
		error_set(err, PGC_ERR_IO, "could not clear \"%s\": %s", dir,
				  strerror(errno));
		return -1;
	}
	if (dir_make_all(dir, 0755, err) < 0)
		return -1;
	j->logfd = open(log_path,
					O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (j->logfd < 0)
	{
		error_set(err, PGC_ERR_IO, "could not create \"%s\": %s", log_path,
				  strerror(errno));
		return -1;
	}
	json_object_clear(j->steps);
	return 0;
}

/* After a failure: keep only the log, so nothing looks built. */
static void
discard_dir(const char *dir)
{
	const char *parts[] = {"tree", "pgsql"};

	for (size_t i = 0; i < lengthof(parts); i++)
	{
		char *p = xasprintf("%s/%s", dir, parts[i]);

		dir_remove_tree(p);
		free(p);
	}
}

/*
 * Build KEY (the base, or the variant over the built base) in its own
 * directory; the caller holds its lock.
 */
static int
build_key(struct job *j, bool base, struct build_result *out,
		  struct pgc_error *err)
{
	const char *key = base ? j->base_key : j->key;
	char *dir = xasprintf("%s/%s", j->cache, key);
	char *tree = xasprintf("%s/tree", dir);
	char *pgsql = xasprintf("%s/pgsql", dir);
	char *log_path = xasprintf("%s/build.log", dir);
	char *base_tree = xasprintf("%s/%s/tree", j->cache, j->base_key);
	char *json_path = xasprintf("%s/build.json", dir);
	struct define_site *sites =
		xcalloc((size_t) j->spec->ndefines + 1, sizeof(*sites));
	struct strbuf diff = STRBUF_INIT;
	char **files = NULL;
	int nfiles = 0, rc = -1;
	char *version = NULL, *compiler = NULL, *json = NULL;
	int64_t t0 = clock_now_ns(), ts;

	j->logfd = -1;
	j->log_path = log_path;
	if (start_dir(j, dir, log_path, err) < 0)
		goto out;
	ts = clock_now_ns();
	if (base)
	{
		if (j->spec->revision)
			progress(j, "git archive %.12s of %s", j->base_rev, j->src);
		else
			progress(j, "copy %s", j->src);
		if (copy_source(j, tree, err) < 0)
			goto fail;
	}
	else
	{
		char *cp[] = {"cp", "-a", base_tree, tree, NULL};
		int st;

		progress(j, "copy the built tree of %s", j->base_key);
		if ((st = run_logged(cp, NULL, j->logfd, j->o, err)) != 0)
		{
			step_failed(j, "copying the base tree", st, err);
			goto fail;
		}
	}
	step_time(j, "copy", ts);
	if (!base)
	{
		ts = clock_now_ns();
		if (j->rev_change &&
			revision_update(j, tree, &files, &nfiles, err) < 0)
			goto fail;
		if (apply_patches(j, tree, &files, &nfiles, err) < 0)
			goto fail;
		for (int i = 0; i < j->spec->ndefines; i++)
		{
			if (define_rewrite_tree(tree, j->defs[i].name, j->defs[i].value,
									&sites[i], err) < 0)
				goto fail;
			progress(j, "#define %s %s (%s:%d, was %s)%s%s", j->defs[i].name,
					 j->defs[i].value, sites[i].file, sites[i].line,
					 sites[i].value[0] ? sites[i].value : "empty",
					 sites[i].conditions ? " under " : "",
					 sites[i].conditions ? sites[i].conditions : "");
			files = xrealloc(files, (size_t) (nfiles + 1) * sizeof(char *));
			files[nfiles++] = xstrdup(sites[i].file);
		}
		if (variant_diff(j, base_tree, tree, files, nfiles, &diff, err) < 0)
			goto fail;
		step_time(j, "change", ts);
	}
	else if (run_configure(j, tree, pgsql, err) < 0)
		goto fail;
	if (run_make(j, tree, NULL, NULL, err) < 0 ||
		run_make(j, tree, "install", base ? NULL : pgsql, err) < 0)
		goto fail;
	if ((version = installed_version(j, pgsql, err)) == NULL)
		goto fail;
	compiler = compiler_version(j, tree);
	if (!base)
	{
		/* the base keeps its tree for the next variant; a variant's is
		 * only a copy */
		char *t = xasprintf("%s/tree", dir);

		dir_remove_tree(t);
		free(t);
	}
	json = provenance_json(j, version, compiler, sites, sb_text(&diff), !base,
						   seconds_since(t0));
	if (write_file_atomic(json_path, json, err) < 0)
		goto fail;
	if (out)
	{
		out->incremental = !base;
		out->seconds = seconds_since(t0);
		out->provenance = json;
		json = NULL;
	}
	progress(j, "done in %.1f s", seconds_since(t0));
	rc = 0;
	goto out;
fail:
	discard_dir(dir);
out:
	if (j->logfd >= 0)
		close(j->logfd);
	j->logfd = -1;
	for (int i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	define_sites_free(sites, j->spec->ndefines);
	strbuf_release(&diff);
	free(dir);
	free(tree);
	free(pgsql);
	free(log_path);
	free(base_tree);
	free(json_path);
	free(version);
	free(compiler);
	free(json);
	return rc;
}

/* Point CACHE/names/NAME at KEY. */
static void
name_build(const struct job *j)
{
	char *names = xasprintf("%s/names", j->cache);
	char *link = xasprintf("%s/%s", names, j->spec->name);
	char *tmp = xasprintf("%s.%d", link, (int) getpid());
	char *target = xasprintf("../%s", j->key);
	struct pgc_error ignore;

	if (dir_make_all(names, 0755, &ignore) == 0 && symlink(target, tmp) == 0 &&
		rename(tmp, link) != 0)
		unlink(tmp);
	free(names);
	free(link);
	free(tmp);
	free(target);
}

static int
read_provenance(const char *cache, const char *key, char **out,
				struct pgc_error *err)
{
	char *path = xasprintf("%s/%s/build.json", cache, key);
	size_t len;

	*out = file_read_all(path, &len, err);
	free(path);
	return *out ? 0 : -1;
}

int
build_ensure(const struct build_spec *spec, const struct build_options *o,
			 struct build_result *out, struct pgc_error *err)
{
	char cache_buf[1024];
	const char *cache = o->cache_dir;
	struct job j;
	int rc = -1, lockfd = -1, baselock = -1;
	bool variant;
	char *dirs;

	memset(out, 0, sizeof(*out));
	memset(&j, 0, sizeof(j));
	j.logfd = -1;
	j.steps = json_object();
	if (cache == NULL)
		cache = build_default_cache_dir(cache_buf, sizeof(cache_buf));
	j.spec = spec;
	j.o = o;
	j.jobs = o->jobs > 0 ? o->jobs : (int) sysconf(_SC_NPROCESSORS_ONLN);
	if (j.jobs < 1)
		j.jobs = 1;
	if (dir_make_all(cache, 0755, err) < 0)
		return -1;
	if ((j.cache = realpath(cache, NULL)) == NULL)
	{
		error_set(err, PGC_ERR_IO, "build cache \"%s\": %s", cache,
				  strerror(errno));
		goto out;
	}
	if ((j.src = realpath(spec->source, NULL)) == NULL)
	{
		error_set(err, PGC_ERR_USAGE, "source \"%s\": %s", spec->source,
				  strerror(errno));
		goto out;
	}
	dirs = xasprintf("%s/.locks", j.cache);
	rc = dir_make_all(dirs, 0755, err);
	free(dirs);
	dirs = xasprintf("%s/.identity", j.cache);
	if (rc == 0)
		rc = dir_make_all(dirs, 0755, err);
	free(dirs);
	if (rc < 0 || check_spec(&j, err) < 0 ||
		(spec->revision
			 ? revision_identity(&j, err)
			 : source_identity(j.cache, j.src, o, &j.id, err)) < 0 ||
		check_reachable(j.cache, err) < 0)
	{
		rc = -1;
		goto out;
	}
	rc = -1;
	variant = spec->ndefines > 0 || spec->npatches > 0 || j.rev_change;
	compute_key(&j, true, j.base_key);
	if (variant)
		compute_key(&j, false, j.key);
	else
		memcpy(j.key, j.base_key, sizeof(j.key));
	j.label = xstrdup(spec->name ? spec->name : j.key);
	memcpy(out->key, j.key, sizeof(out->key));
	out->dir = xasprintf("%s/%s", j.cache, j.key);
	out->bindir = xasprintf("%s/pgsql/bin", out->dir);
	out->log_path = xasprintf("%s/build.log", out->dir);
	out->identity = xstrdup(j.id.text);

	if (!is_built(j.cache, j.key))
	{
		if ((lockfd = lock_key(&j, j.key, err)) < 0)
			goto out;
		/* another pgcliff may have built it while this one waited */
		if (!is_built(j.cache, j.key))
		{
			if (variant && !is_built(j.cache, j.base_key))
			{
				if ((baselock = lock_key(&j, j.base_key, err)) < 0)
					goto out;
				if (!is_built(j.cache, j.base_key))
				{
					char *label = j.label;
					int brc;

					j.label = xasprintf("%s (base %s)", label, j.base_key);
					brc = build_key(&j, true, NULL, err);
					free(j.label);
					j.label = label;
					if (brc < 0)
						goto out;
				}
				close(baselock);
				baselock = -1;
			}
			if (build_key(&j, !variant, out, err) < 0)
				goto out;
		}
	}
	if (out->provenance == NULL)
	{
		out->cached = true;
		if (read_provenance(j.cache, j.key, &out->provenance, err) < 0)
			goto out;
	}
	if (spec->name)
		name_build(&j);
	rc = 0;
out:
	if (lockfd >= 0)
		close(lockfd);
	if (baselock >= 0)
		close(baselock);
	if (rc < 0)
		build_result_free(out);
	for (int i = 0; j.patches && i < spec->npatches; i++)
	{
		free(j.patches[i].path);
		free(j.patches[i].text);
	}
	free(j.patches);
	free(j.defs);
	identity_free(&j.id);
	free(j.label);
	free(j.src);
	free(j.cache);
	json_decref(j.steps);
	return rc;
}

int
build_git_range(const char *source, const char *good, const char *bad,
				const struct build_options *o, char good_sha[41],
				struct build_commit **out, int *n, struct pgc_error *err)
{
	char bad_sha[41];
	char *range = NULL;
	char *is_anc[] = {"git",           "-C",     (char *) source, "merge-base",
					  "--is-ancestor", good_sha, bad_sha,         NULL};
	char *list[] = {"git",
					"-C",
					(char *) source,
					"log",
					"--reverse",
					"--topo-order",
					"--ancestry-path",
					"--format=%H %s",
					NULL,
					NULL};
	struct strbuf sb = STRBUF_INIT;
	int st, rc = -1;

	*out = NULL;
	*n = 0;
	if (git_resolve(source, good, "^{commit}", good_sha, o, err) < 0 ||
		git_resolve(source, bad, "^{commit}", bad_sha, o, err) < 0)
		return -1;
	st = run_capture(is_anc, NULL, -1, &sb, o, err);
	if (st != 0)
	{
		if (err->kind == PGC_ERR_NONE)
		{
			error_set(err, PGC_ERR_USAGE,
					  "the good commit %.12s (%s) is not an ancestor of the "
					  "bad one %.12s (%s)",
					  good_sha, good, bad_sha, bad);
			error_hint(err, "give --good an older commit of the same "
							"history as --bad");
		}
		goto out;
	}
	range = xasprintf("%s..%s", good_sha, bad_sha);
	list[8] = range;
	strbuf_reset(&sb);
	if (run_capture(list, NULL, -1, &sb, o, err) != 0)
	{
		if (err->kind == PGC_ERR_NONE)
		{
			error_set(err, PGC_ERR_USAGE, "git log %s failed", range);
			error_detail(err, "%s", sb_text(&sb));
		}
		goto out;
	}
	for (char *line = sb.buf; line && *line;)
	{
		char *end = strchr(line, '\n');
		struct build_commit *c;

		if (end)
			*end = '\0';
		if (strlen(line) >= 40)
		{
			*out = xrealloc(*out, (size_t) (*n + 1) * sizeof(**out));
			c = &(*out)[(*n)++];
			memcpy(c->sha, line, 40);
			c->sha[40] = '\0';
			c->subject = xstrdup(line[40] == ' ' ? line + 41 : "");
		}
		line = end ? end + 1 : NULL;
	}
	if (*n == 0 || strcmp((*out)[*n - 1].sha, bad_sha) != 0)
	{
		error_set(err, PGC_ERR_USAGE,
				  "no commit after the good %.12s up to the bad %.12s",
				  good_sha, bad_sha);
		build_commits_free(*out, *n);
		*out = NULL;
		*n = 0;
		goto out;
	}
	rc = 0;
out:
	free(range);
	strbuf_release(&sb);
	return rc;
}

void
build_commits_free(struct build_commit *c, int n)
{
	for (int i = 0; i < n; i++)
		free(c[i].subject);
	free(c);
}

void
build_result_free(struct build_result *r)
{
	free(r->dir);
	free(r->bindir);
	free(r->log_path);
	free(r->provenance);
	free(r->identity);
	memset(r, 0, sizeof(*r));
}
