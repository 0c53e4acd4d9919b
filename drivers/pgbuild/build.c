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

#define BUILD_FORMAT "pgcliff-build 1"

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

void
hex(const unsigned char *md, unsigned len, char *out)
{
	for (unsigned i = 0; i < len; i++)
		sprintf(out + (size_t) 2 * i, "%02x", md[i]);
}

/* SHA-256 of LEN bytes as 64 hex digits into OUT[65]. */
void
text_sha256_hex(const void *data, size_t len, char *out)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;

	EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
	hex(md, mdlen, out);
}

/* The text of SB, "" when nothing was added. */
const char *
sb_text(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/* ------------------------------------------------------------ children */

/*
 * Wait for PID; on an interrupt, stop its whole group.  Returns its exit
 * status (0-255), 128+N for a signal, or -1 when interrupted.
 */
int
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
int
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
int
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
		text_sha256_hex(p->text, p->len, p->sha256);
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
	text_sha256_hex(m.buf, m.len, sha);
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

void
job_progress(const struct job *j, const char *fmt, ...)
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
	job_progress(j, "waiting for another pgcliff building %s", key);
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
			job_progress(j,
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
			job_progress(j, "git archive %.12s of %s", j->base_rev, j->src);
		else
			job_progress(j, "copy %s", j->src);
		if (copy_source(j, tree, err) < 0)
			goto fail;
	}
	else
	{
		char *cp[] = {"cp", "-a", base_tree, tree, NULL};
		int st;

		job_progress(j, "copy the built tree of %s", j->base_key);
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
			job_progress(j, "#define %s %s (%s:%d, was %s)%s%s",
						 j->defs[i].name, j->defs[i].value, sites[i].file,
						 sites[i].line,
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
	job_progress(j, "done in %.1f s", seconds_since(t0));
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
