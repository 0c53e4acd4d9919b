/*
 * identity.c - what names a source tree: its release and a hash of its
 * content, or its git commit and tree; see build.h and internal.h.
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

/* ------------------------------------------------------------ identity */

void
identity_free(struct identity *id)
{
	free(id->text);
	free(id->material);
	json_decref(id->json);
}

/* PACKAGE_VERSION of a configure script's TEXT, or NULL. */
char *
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
char *
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
	text_sha256_hex(src, strlen(src), pathhash);
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
		text_sha256_hex(diff.buf, diff.len, dirty);
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
int
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

int
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
