/*
 * define.c - find and rewrite the one `#define NAME value` of a source
 * tree (see build.h).
 *
 * The scan is a small C preprocessor lexer: block and line comments are
 * blanked, string and character literals kept whole, backslash-newline
 * joins lines, and a stack of #if/#ifdef/#ifndef/#elif/#else/#endif tells
 * which conditions enclose a definition and whether it sits in an `#if 0`
 * block (dead, like a comment).  It does not evaluate other conditions: a
 * definition under `#ifdef X` is live, and reported with its condition.
 */
#include "build.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* One enclosing conditional. */
struct cond
{
	char *text; /* "#ifdef FOO (line 12)" */
	bool zero;  /* #if 0, and not yet past its #else/#elif */
};

/* A logical line with comments blanked, and where each byte came from. */
struct logical
{
	struct strbuf code;
	size_t *from; /* offset in the text of each byte of code */
	size_t cap;
	bool continued;
};

static void
logical_add(struct logical *l, char c, size_t at)
{
	if (l->code.len + 1 > l->cap)
	{
		l->cap = l->cap ? 2 * l->cap : 256;
		l->from = xrealloc(l->from, l->cap * sizeof(*l->from));
	}
	l->from[l->code.len] = at;
	strbuf_addch(&l->code, c);
}

/*
 * Read the logical line at *POS (up to an unescaped newline) into L, with
 * comments replaced by one space; *IN_COMMENT carries a block comment from
 * line to line.  Leaves *POS after the newline.
 */
static void
read_logical(const char *t, size_t len, size_t *pos, bool *in_comment,
			 struct logical *l)
{
	size_t p = *pos;

	strbuf_reset(&l->code);
	l->continued = false;
	while (p < len && t[p] != '\n')
	{
		if (*in_comment)
		{
			if (t[p] == '*' && p + 1 < len && t[p + 1] == '/')
			{
				*in_comment = false;
				logical_add(l, ' ', p);
				p += 2;
			}
			else
				p++;
			continue;
		}
		if (t[p] == '\\' && p + 1 < len && t[p + 1] == '\n')
		{
			l->continued = true;
			logical_add(l, ' ', p);
			p += 2;
			continue;
		}
		if (t[p] == '/' && p + 1 < len && t[p + 1] == '*')
		{
			*in_comment = true;
			p += 2;
			continue;
		}
		if (t[p] == '/' && p + 1 < len && t[p + 1] == '/')
		{
			while (p < len && t[p] != '\n')
				p++;
			break;
		}
		if (t[p] == '"' || t[p] == '\'')
		{
			char q = t[p];

			logical_add(l, t[p], p);
			p++;
			while (p < len && t[p] != '\n' && t[p] != q)
			{
				if (t[p] == '\\' && p + 1 < len && t[p + 1] != '\n')
				{
					logical_add(l, t[p], p);
					p++;
				}
				logical_add(l, t[p], p);
				p++;
			}
			if (p < len && t[p] == q)
			{
				logical_add(l, t[p], p);
				p++;
			}
			continue;
		}
		logical_add(l, t[p], p);
		p++;
	}
	*pos = p < len ? p + 1 : p;
}

static bool
is_ident(char c)
{
	return isalnum((unsigned char) c) || c == '_';
}

/* The directive of CODE ("define", "ifdef"...) and what follows it. */
static bool
directive(const char *code, const char **word, size_t *wlen, const char **rest)
{
	const char *s = code;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '#')
		return false;
	s++;
	while (*s == ' ' || *s == '\t')
		s++;
	*word = s;
	while (is_ident(*s))
		s++;
	*wlen = (size_t) (s - *word);
	while (*s == ' ' || *s == '\t')
		s++;
	*rest = s;
	return true;
}

static bool
word_is(const char *w, size_t n, const char *what)
{
	return strlen(what) == n && strncmp(w, what, n) == 0;
}

static char *
trimmed(const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char) s[n - 1]))
		n--;
	return xstrndup(s, n);
}

static char *
describe_conditions(const struct cond *stack, int depth)
{
	struct strbuf sb = STRBUF_INIT;

	if (depth == 0)
		return NULL;
	for (int i = 0; i < depth; i++)
	{
		if (i > 0)
			strbuf_addstr(&sb, "; ");
		strbuf_addstr(&sb, stack[i].text);
	}
	return strbuf_detach(&sb);
}

static void
add_site(struct define_site **sites, int *n, const struct logical *l,
		 const char *after_name, int line, const struct cond *stack, int depth)
{
	const char *code = l->code.buf;
	struct define_site *s;
	size_t vs = (size_t) (after_name - code);
	size_t ve = l->code.len;

	*sites = xrealloc(*sites, (size_t) (*n + 1) * sizeof(**sites));
	s = &(*sites)[(*n)++];
	memset(s, 0, sizeof(*s));
	s->line = line;
	s->function_like = *after_name == '(';
	s->continued = l->continued;
	s->conditions = describe_conditions(stack, depth);
	while (vs < ve && isspace((unsigned char) code[vs]))
		vs++;
	while (ve > vs && isspace((unsigned char) code[ve - 1]))
		ve--;
	s->value = xstrndup(code + vs, ve - vs);
	if (vs == ve)
	{
		/* no value: the rewrite goes right after the name */
		size_t at = (size_t) (after_name - code);

		s->value_start = s->value_end =
			at > 0 ? l->from[at - 1] + 1 : l->from[0];
	}
	else
	{
		s->value_start = l->from[vs];
		s->value_end = l->from[ve - 1] + 1;
	}
}

int
define_scan_text(const char *text, size_t len, const char *name,
				 struct define_site **sites)
{
	struct logical l = {STRBUF_INIT, NULL, 0, false};
	struct cond *stack = NULL;
	int depth = 0, cap = 0, n = 0, line = 1;
	size_t pos = 0, namelen = strlen(name);
	bool in_comment = false;

	*sites = NULL;
	while (pos < len)
	{
		size_t start = pos;
		int first_line = line;
		const char *w, *rest;
		size_t wl;
		bool dead = false;

		read_logical(text, len, &pos, &in_comment, &l);
		for (size_t i = start; i < pos; i++)
			if (text[i] == '\n')
				line++;
		if (l.code.len == 0 || !directive(l.code.buf, &w, &wl, &rest))
			continue;
		for (int i = 0; i < depth; i++)
			dead = dead || stack[i].zero;
		if (word_is(w, wl, "if") || word_is(w, wl, "ifdef") ||
			word_is(w, wl, "ifndef"))
		{
			char *cond = trimmed(rest);

			if (depth == cap)
			{
				cap = cap ? 2 * cap : 8;
				stack = xrealloc(stack, (size_t) cap * sizeof(*stack));
			}
			stack[depth].zero = word_is(w, wl, "if") && strcmp(cond, "0") == 0;
			stack[depth].text =
				xasprintf("#%.*s %s (line %d)", (int) wl, w, cond, first_line);
			free(cond);
			depth++;
		}
		else if ((word_is(w, wl, "elif") || word_is(w, wl, "else")) &&
				 depth > 0)
		{
			char *cond = trimmed(rest);
			char *old = stack[depth - 1].text;

			/* past an #if 0, the other branch is live */
			stack[depth - 1].zero = false;
			stack[depth - 1].text =
				xasprintf("%s, #%.*s%s%s (line %d)", old, (int) wl, w,
						  cond[0] ? " " : "", cond, first_line);
			free(old);
			free(cond);
		}
		else if (word_is(w, wl, "endif") && depth > 0)
			free(stack[--depth].text);
		else if (word_is(w, wl, "define") && !dead &&
				 strncmp(rest, name, namelen) == 0 && !is_ident(rest[namelen]))
			add_site(sites, &n, &l, rest + namelen, first_line, stack, depth);
	}
	while (depth > 0)
		free(stack[--depth].text);
	free(stack);
	free(l.from);
	strbuf_release(&l.code);
	return n;
}

void
define_site_clear(struct define_site *site)
{
	free(site->file);
	free(site->value);
	free(site->conditions);
	memset(site, 0, sizeof(*site));
}

void
define_sites_free(struct define_site *sites, int n)
{
	for (int i = 0; i < n; i++)
		define_site_clear(&sites[i]);
	free(sites);
}

/* ------------------------------------------------------------ the tree */

struct scan
{
	const char *name;
	struct define_site *sites;
	int n;
	int files;
	struct pgc_error *err;
};

static bool
c_source(const char *rel)
{
	size_t n = strlen(rel);

	return n > 2 && rel[n - 2] == '.' &&
		   (rel[n - 1] == 'c' || rel[n - 1] == 'h');
}

static int
scan_file(void *arg, const char *rel, const char *path, const struct stat *st)
{
	struct scan *sc = arg;
	struct define_site *found;
	size_t len;
	char *text;
	int n;

	if (!S_ISREG(st->st_mode) || !c_source(rel))
		return 0;
	sc->files++;
	if ((text = file_read_all(path, &len, sc->err)) == NULL)
		return -1;
	if (memmem(text, len, sc->name, strlen(sc->name)) == NULL)
	{
		free(text);
		return 0;
	}
	n = define_scan_text(text, len, sc->name, &found);
	free(text);
	if (n == 0)
		return 0;
	sc->sites = xrealloc(sc->sites, (size_t) (sc->n + n) * sizeof(*found));
	for (int i = 0; i < n; i++)
	{
		found[i].file = xstrdup(rel);
		sc->sites[sc->n++] = found[i];
	}
	free(found);
	return 0;
}

static void
describe_site(struct strbuf *sb, const struct define_site *s, const char *name)
{
	strbuf_addf(sb, "%s:%d: #define %s%s%s", s->file, s->line, name,
				s->value[0] ? " " : "", s->value);
	if (s->conditions)
		strbuf_addf(sb, "  [under %s]", s->conditions);
}

/* Write TEXT to PATH through a temporary file and rename(). */
static int
replace_file(const char *path, const char *text, size_t len, mode_t mode,
			 struct pgc_error *err)
{
	char *tmp = xasprintf("%s.pgcliff-tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode & 07777);
	size_t done = 0;

	if (fd < 0)
		goto fail;
	while (done < len)
	{
		ssize_t w = write(fd, text + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
		{
			close(fd);
			goto fail;
		}
		done += (size_t) w;
	}
	if (close(fd) != 0 || rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return 0;
fail:
	error_set(err, PGC_ERR_IO, "could not rewrite \"%s\": %s", path,
			  strerror(errno));
	unlink(tmp);
	free(tmp);
	return -1;
}

int
define_rewrite_tree(const char *root, const char *name, const char *value,
					struct define_site *site, struct pgc_error *err)
{
	struct scan sc = {name, NULL, 0, 0, err};
	struct define_site *s;
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	char *path = NULL, *text = NULL;
	size_t len;
	int rc = -1;

	memset(site, 0, sizeof(*site));
	if (walk_tree(root, true, scan_file, &sc, err) < 0)
		goto out;
	if (sc.n != 1)
	{
		if (sc.n == 0)
		{
			error_set(err, PGC_ERR_RECIPE,
					  "--define %s: no #define %s in the source tree", name,
					  name);
			error_detail(err, "looked in %d .c and .h files under %s",
						 sc.files, root);
			error_hint(err, "names are case-sensitive; a setting of "
							"configure or a GUC is not a #define");
			goto out;
		}
		for (int i = 0; i < sc.n; i++)
		{
			if (i > 0)
				strbuf_addch(&sb, '\n');
			describe_site(&sb, &sc.sites[i], name);
		}
		error_set(err, PGC_ERR_RECIPE,
				  "--define %s: #define %s is found %d times in the source "
				  "tree",
				  name, name, sc.n);
		error_detail(err, "%s", sb.buf);
		error_hint(err, "rewrite only one of them: make that change with "
						"a patch (--patch) instead");
		goto out;
	}
	s = &sc.sites[0];
	if (s->function_like || s->continued)
	{
		describe_site(&sb, s, name);
		error_set(err, PGC_ERR_RECIPE,
				  "--define %s: %s is a %s macro; only a one-line "
				  "#define NAME value can be rewritten",
				  name, name,
				  s->function_like ? "function-like" : "multi-line");
		error_detail(err, "%s", sb.buf);
		error_hint(err, "make that change with a patch (--patch)");
		goto out;
	}
	path = xasprintf("%s/%s", root, s->file);
	if (strcmp(s->value, value) != 0)
	{
		struct strbuf out = STRBUF_INIT;

		if ((text = file_read_all(path, &len, err)) == NULL ||
			stat(path, &st) != 0)
		{
			if (text)
				error_set(err, PGC_ERR_IO, "could not stat \"%s\"", path);
			strbuf_release(&out);
			goto out;
		}
		strbuf_add(&out, text, s->value_start);
		if (s->value[0] == '\0')
			strbuf_addch(&out, ' ');
		strbuf_addstr(&out, value);
		strbuf_add(&out, text + s->value_end, len - s->value_end);
		rc = replace_file(path, out.buf, out.len, st.st_mode, err);
		strbuf_release(&out);
		if (rc < 0)
			goto out;
	}
	*site = *s;
	s->file = s->value = s->conditions = NULL;
	rc = 0;
out:
	define_sites_free(sc.sites, sc.n);
	strbuf_release(&sb);
	free(path);
	free(text);
	return rc;
}
