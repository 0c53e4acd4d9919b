/*
 * script.c - parse pgbench scripts: split SQL commands the way psql's
 * lexer does, turn ":name" into parameters the way pgbench's parseQuery()
 * does, parse meta-commands as pgbench's process_backslash_command() does;
 * their expressions are compiled by expr_parse.c.  Error messages are
 * pgbench's.  Evaluation lives in expr.c.
 */
#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "script_int.h"

static const char *const automatic_vars[] = {"client_id", "scale",
											 "random_seed", "default_seed"};

/* ------------------------------------------------------------- builtins */

/* pgbench 15's builtin_script[], word for word. */
const struct script_builtin script_builtins[] = {
	{"tpcb-like", "<builtin: TPC-B (sort of)>",
	 "\\set aid random(1, 100000 * :scale)\n"
	 "\\set bid random(1, 1 * :scale)\n"
	 "\\set tid random(1, 10 * :scale)\n"
	 "\\set delta random(-5000, 5000)\n"
	 "BEGIN;\n"
	 "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = "
	 ":aid;\n"
	 "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
	 "UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = "
	 ":tid;\n"
	 "UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = "
	 ":bid;\n"
	 "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, "
	 ":bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
	 "END;\n"},
	{"simple-update", "<builtin: simple update>",
	 "\\set aid random(1, 100000 * :scale)\n"
	 "\\set bid random(1, 1 * :scale)\n"
	 "\\set tid random(1, 10 * :scale)\n"
	 "\\set delta random(-5000, 5000)\n"
	 "BEGIN;\n"
	 "UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = "
	 ":aid;\n"
	 "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
	 "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, "
	 ":bid, :aid, :delta, CURRENT_TIMESTAMP);\n"
	 "END;\n"},
	{"select-only", "<builtin: select only>",
	 "\\set aid random(1, 100000 * :scale)\n"
	 "SELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"},
};
const int script_nbuiltins = (int) lengthof(script_builtins);

const struct script_builtin *
script_builtin_find(const char *name, int *nfound)
{
	const struct script_builtin *found = NULL;
	size_t len = strlen(name);

	*nfound = 0;
	for (int i = 0; i < script_nbuiltins; i++)
		if (strncmp(script_builtins[i].name, name, len) == 0)
		{
			found = &script_builtins[i];
			(*nfound)++;
		}
	return *nfound == 1 ? found : NULL;
}

/* ------------------------------------------------------------ positions */

void
script_origin_locate(const struct script_origin *origin, const char *text,
					 size_t offset, int *line, int *col)
{
	int l = 0;
	size_t linestart = 0;
	size_t len = strlen(text);

	if (offset > len)
		offset = len;
	/* "at end of input" after a final newline: stay on the last line */
	if (offset == len && len > 0 && text[len - 1] == '\n')
		offset = len - 1;
	for (size_t i = 0; i < offset; i++)
	{
		if (text[i] == '\n')
		{
			l++;
			linestart = i + 1;
		}
	}
	*line = origin->first_line + l;
	*col = (l == 0 ? origin->first_col : origin->indent) +
		   (int) (offset - linestart) + 1;
}

void
script_locate(const struct script *s, size_t offset, int *line, int *col)
{
	script_origin_locate(&s->origin, s->text, offset, line, col);
}

size_t
script_sql_offset(const struct script *s, int cmd, size_t sent_offset)
{
	const struct script_cmd *c = &s->cmds[cmd];
	size_t sent = sent_offset;
	size_t shift = 0; /* orig - sent, accumulated */

	for (int i = 0; i < c->nparams; i++)
	{
		const struct script_subst *sub = &c->substs[i];

		if (sent < sub->sent_offset)
			break;
		if (sent < sub->sent_offset + sub->sent_len)
		{
			sent = sub->sent_offset; /* inside "$n": point at ":name" */
			break;
		}
		shift += sub->orig_len - sub->sent_len;
	}
	return c->offset + sent + shift;
}

int
fail_at(struct parser *p, size_t offset, int span, const char *fmt, ...)
{
	char msg[sizeof(p->err->message)];
	va_list ap;
	int line, col;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	error_set(p->err, PGC_ERR_RECIPE, "%s", msg);
	script_locate(p->s, offset, &line, &col);
	error_at(p->err, p->s->origin.file, line, col, span > 0 ? span : 1);
	return -1;
}

/*
 * pgbench's syntax_error(): MSG, " (MORE)" when given, and " in command
 * "NAME"" inside a meta-command.
 */
int
syntax_error(struct parser *p, size_t offset, int span, const char *msg,
			 const char *more)
{
	char buf[400];

	snprintf(buf, sizeof(buf), "%s", msg);
	if (more)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " (%s)", more);
	if (p->cmdname)
		return fail_at(p, offset, span, "%s in command \"%s\"", buf,
					   p->cmdname);
	return fail_at(p, offset, span, "%s", buf);
}

/* ------------------------------------------------------------ variables */

int
var_slot(struct script *s, const char *name, size_t len, size_t use)
{
	for (int i = 0; i < s->nvars; i++)
		if (strlen(s->var_names[i]) == len &&
			memcmp(s->var_names[i], name, len) == 0)
		{
			if (s->var_first_use[i] == (size_t) -1)
				s->var_first_use[i] = use;
			return i;
		}
	s->var_names =
		xrealloc(s->var_names, (size_t) (s->nvars + 1) * sizeof(char *));
	s->var_assigned =
		xrealloc(s->var_assigned, (size_t) (s->nvars + 1) * sizeof(bool));
	s->var_first_use =
		xrealloc(s->var_first_use, (size_t) (s->nvars + 1) * sizeof(size_t));
	s->var_names[s->nvars] = xstrndup(name, len);
	s->var_assigned[s->nvars] = false;
	s->var_first_use[s->nvars] = use;
	return s->nvars++;
}

int
script_var_slot(const struct script *s, const char *name)
{
	for (int i = 0; i < s->nvars; i++)
		if (strcmp(s->var_names[i], name) == 0)
			return i;
	return -1;
}

bool
script_valid_var_name(const char *name)
{
	const unsigned char *p = (const unsigned char *) name;

	if (*p == '\0' || isdigit(*p))
		return false;
	for (; *p; p++)
		if (!(isalnum(*p) || *p == '_' || (*p & 0x80)))
			return false;
	return true;
}

/*
 * pgbench's parseVariable() for SQL: a letter, '_' or non-ASCII byte,
 * then also digits, so the ":2" of "x[1:2]" is no variable.
 */
static size_t
var_name_len(const char *p)
{
	size_t n = 0;

	if (isdigit((unsigned char) p[0]))
		return 0;
	while (isalnum((unsigned char) p[n]) || p[n] == '_' ||
		   ((unsigned char) p[n] & 0x80))
		n++;
	return n;
}

/* Whether some script of the set assigns variable NAME. */
static bool
assigned_anywhere(const struct script *const *scripts, int nscripts,
				  const char *name)
{
	for (int k = 0; k < nscripts; k++)
	{
		int slot = script_var_slot(scripts[k], name);

		if (scripts[k]->has_store ||
			(slot >= 0 && scripts[k]->var_assigned[slot]))
			return true;
	}
	return false;
}

int
script_check_variables(const struct script *const *scripts, int nscripts,
					   const char *const *defined, int ndefined,
					   struct pgc_error *err)
{
	for (int k = 0; k < nscripts; k++)
	{
		const struct script *s = scripts[k];

		for (int i = SCRIPT_NAUTOVARS; i < s->nvars; i++)
		{
			bool ok = assigned_anywhere(scripts, nscripts, s->var_names[i]);
			int line, col;

			for (int d = 0; !ok && d < ndefined; d++)
				ok = strcmp(defined[d], s->var_names[i]) == 0;
			/* a slot inherited from an earlier script is not a use here */
			if (ok || s->var_first_use[i] == (size_t) -1)
				continue;
			error_set(err, PGC_ERR_RECIPE, "undefined variable \"%s\"",
					  s->var_names[i]);
			script_locate(s, s->var_first_use[i], &line, &col);
			error_at(err, s->origin.file, line, col,
					 (int) strlen(s->var_names[i]) + 1);
			error_hint(
				err,
				"set it with \\set %s ... in the script, -D %s=VALUE or "
				"the recipe's variables:",
				s->var_names[i], s->var_names[i]);
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------- commands */

static int
script_line_of(struct parser *p, size_t offset)
{
	const char *text = p->s->text;

	if (offset < p->line_at || p->line_no == 0)
	{
		p->line_at = 0;
		p->line_no = 1;
	}
	for (; p->line_at < offset && text[p->line_at]; p->line_at++)
		if (text[p->line_at] == '\n')
			p->line_no++;
	return p->line_no;
}

static struct script_cmd *
new_cmd(struct parser *p, enum script_cmd_kind kind, size_t offset)
{
	struct script *s = p->s;
	struct script_cmd *c;
	size_t eol;

	if (s->ncmds == p->ncmds_alloc)
	{
		p->ncmds_alloc = p->ncmds_alloc ? p->ncmds_alloc * 2 : 8;
		s->cmds =
			xrealloc(s->cmds, (size_t) p->ncmds_alloc * sizeof(*s->cmds));
	}
	c = &s->cmds[s->ncmds++];
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->offset = offset;
	c->line = script_line_of(p, offset);
	eol = strcspn(p->text + offset, "\r\n");
	c->first_line = xstrndup(p->text + offset, eol);
	c->set_var = -1;
	c->expr = -1;
	c->next_branch = -1;
	c->endif = -1;
	c->nqueries = 1;
	c->sleep_unit_us = 1000000;
	return c;
}

/*
 * Turn a SQL command's text into "$n" form and the simple-protocol
 * pieces.  Like pgbench, every ":name" occurrence becomes a parameter,
 * wherever it stands, and runs of colons that start no name are skipped.
 * Each "\;" recorded by scan_sql becomes ";".
 */
static int
compile_sql(struct parser *p, struct script_cmd *c, size_t start, size_t len)
{
	struct strbuf out = STRBUF_INIT;
	struct strbuf orig_buf = STRBUF_INIT;
	size_t i = 0, lit_start = 0, k = 0;
	int npieces_alloc = 4;
	char *orig;
	size_t *origmap; /* byte of orig -> offset in the script */

	/* the text as sent: "\;" turned into ";" */
	origmap = xmalloc((len + 1) * sizeof(size_t));
	for (size_t j = 0; j < len; j++)
	{
		if (k < (size_t) p->nsemis && p->semis[k] == start + j)
		{
			k++;
			continue; /* drop the backslash */
		}
		origmap[orig_buf.len] = start + j;
		strbuf_addch(&orig_buf, p->text[start + j]);
	}
	origmap[orig_buf.len] = start + len;
	len = orig_buf.len;
	orig = strbuf_detach(&orig_buf);
	c->nqueries = 1 + p->nsemis;

	c->sql_text = orig;
	c->pieces = xmalloc((size_t) npieces_alloc * sizeof(*c->pieces));
	while (i < len)
	{
		size_t n;
		int slot;

		if (orig[i] != ':')
		{
			strbuf_addch(&out, orig[i++]);
			continue;
		}
		n = var_name_len(orig + i + 1);
		if (n == 0)
		{
			while (i < len && orig[i] == ':')
				strbuf_addch(&out, orig[i++]);
			continue;
		}
		if (c->nparams >= MAX_ARGS - 1)
		{
			size_t at = origmap[i];

			free(origmap);
			strbuf_release(&out);
			return fail_at(p, at, (int) n + 1,
						   "statement has too many arguments (maximum is %d)",
						   MAX_ARGS - 1);
		}
		slot = var_slot(p->s, orig + i + 1, n, origmap[i]);
		c->param_vars =
			xrealloc(c->param_vars, (size_t) (c->nparams + 1) * sizeof(int));
		c->substs = xrealloc(c->substs,
							 (size_t) (c->nparams + 1) * sizeof(*c->substs));
		c->param_vars[c->nparams] = slot;
		c->substs[c->nparams].sent_offset = out.len;
		strbuf_addf(&out, "$%d", c->nparams + 1);
		c->substs[c->nparams].sent_len =
			out.len - c->substs[c->nparams].sent_offset;
		c->substs[c->nparams].orig_len = n + 1;
		c->nparams++;

		if (c->npieces + 2 > npieces_alloc)
		{
			npieces_alloc *= 2;
			c->pieces = xrealloc(c->pieces,
								 (size_t) npieces_alloc * sizeof(*c->pieces));
		}
		c->pieces[c->npieces].text = orig + lit_start;
		c->pieces[c->npieces].len = i - lit_start;
		c->pieces[c->npieces].var = slot;
		c->npieces++;
		i += n + 1;
		lit_start = i;
	}
	free(origmap);
	c->pieces[c->npieces].text = orig + lit_start;
	c->pieces[c->npieces].len = len - lit_start;
	c->pieces[c->npieces].var = -1;
	c->npieces++;
	c->sql_params = strbuf_detach(&out);
	if (c->nparams > p->s->max_params)
		p->s->max_params = c->nparams;
	return 0;
}

static void
add_semi(struct parser *p, size_t at)
{
	if (p->nsemis == p->semis_alloc)
	{
		p->semis_alloc = p->semis_alloc ? p->semis_alloc * 2 : 4;
		p->semis =
			xrealloc(p->semis, (size_t) p->semis_alloc * sizeof(size_t));
	}
	p->semis[p->nsemis++] = at;
}

/*
 * Find the end of the SQL command starting at START: the first
 * semicolon outside quotes, dollar quotes, comments and parentheses, or
 * the backslash of a meta-command (psqlscan.l's rules; "\;" is a
 * semicolon that does not end the command).  Sets *has_code when
 * anything but blanks and comments was seen.  Returns the offset of the
 * ';', the '\' or the end.
 */
static int
scan_sql(struct parser *p, size_t start, size_t *end_out, bool *has_code)
{
	const char *t = p->text;
	size_t i = start;
	int depth = 0;

	*has_code = false;
	p->nsemis = 0;
	while (i < p->len)
	{
		char ch = t[i];

		if (ch == '-' && t[i + 1] == '-')
		{
			while (i < p->len && t[i] != '\n')
				i++;
			continue;
		}
		if (ch == '/' && t[i + 1] == '*')
		{
			int nest = 1;
			size_t open = i;

			i += 2;
			while (i < p->len && nest > 0)
			{
				if (t[i] == '/' && t[i + 1] == '*')
					nest++, i += 2;
				else if (t[i] == '*' && t[i + 1] == '/')
					nest--, i += 2;
				else
					i++;
			}
			if (nest > 0)
				return fail_at(p, open, 2, "unterminated /* comment");
			continue;
		}
		if (isspace((unsigned char) ch))
		{
			i++;
			continue;
		}
		if (ch == '\\')
		{
			if (t[i + 1] == ';')
			{
				add_semi(p, i);
				*has_code = true;
				i += 2;
				continue;
			}
			break; /* a meta-command ends the SQL command */
		}
		*has_code = true;
		if (ch == '\'' || ch == '"')
		{
			size_t open = i;
			bool escapes = ch == '\'' && i > start &&
						   (t[i - 1] == 'E' || t[i - 1] == 'e');

			i++;
			for (;;)
			{
				if (i >= p->len)
					return fail_at(p, open, 1, "unterminated quoted %s",
								   ch == '\'' ? "string" : "identifier");
				/* an escaped character, or a doubled quote */
				if ((escapes && t[i] == '\\' && i + 1 < p->len) ||
					(t[i] == ch && t[i + 1] == ch))
					i += 2;
				else if (t[i] == ch)
				{
					i++;
					break;
				}
				else
					i++;
			}
			continue;
		}
		if (ch == '$' && (i == start || !isalnum((unsigned char) t[i - 1])))
		{
			size_t j = i + 1;

			while (j < p->len &&
				   (isalnum((unsigned char) t[j]) || t[j] == '_') &&
				   !(j == i + 1 && isdigit((unsigned char) t[j])))
				j++;
			if (j < p->len && t[j] == '$')
			{
				size_t taglen = j - i + 1;
				const char *close;

				close = NULL;
				for (size_t k = j + 1; k + taglen <= p->len; k++)
					if (memcmp(t + k, t + i, taglen) == 0)
					{
						close = t + k;
						break;
					}
				if (close == NULL)
					return fail_at(p, i, (int) taglen,
								   "unterminated dollar-quoted string");
				i = (size_t) (close - t) + taglen;
				continue;
			}
		}
		if (ch == '(')
			depth++;
		else if (ch == ')' && depth > 0)
			depth--;
		else if (ch == ';' && depth == 0)
			break;
		i++;
	}
	*end_out = i;
	return 0;
}

/* --------------------------------------------------------- meta-commands */

/* One blank-separated word of a meta-command (exprscan.l's INITIAL). */
static bool
next_word(struct parser *p, size_t *start, size_t *len)
{
	skip_blanks(p);
	if (p->pos >= p->end)
		return false;
	*start = p->pos;
	while (p->pos < p->end && !isspace((unsigned char) p->text[p->pos]))
	{
		/* "word\" + newline: the continuation is not part of the word */
		if (p->text[p->pos] == '\\' &&
			(p->text[p->pos + 1] == '\n' ||
			 (p->text[p->pos + 1] == '\r' && p->text[p->pos + 2] == '\n')))
			break;
		p->pos++;
	}
	*len = p->pos - *start;
	return true;
}

static void
add_word(struct parser *p, struct script_cmd *c, size_t start, size_t len)
{
	const char *w = p->text + start;
	struct script_word *wd;

	c->words = xrealloc(c->words, (size_t) (c->nwords + 1) * sizeof(*wd));
	wd = &c->words[c->nwords++];
	wd->var = -1;
	if (len > 1 && w[0] == ':' && w[1] == ':')
		wd->text = xstrndup(w + 1, len - 1);
	else if (len > 1 && w[0] == ':')
	{
		wd->text = xstrndup(w, len);
		wd->var = var_slot(p->s, w + 1, len - 1, start);
	}
	else
		wd->text = xstrndup(w, len);
}

static int
parse_sleep(struct parser *p, struct script_cmd *c, size_t start)
{
	size_t ws[4], wl[4];
	int n = 0;
	size_t unit_start = 0, unit_len = 0;

	while (n < 4 && next_word(p, &ws[n], &wl[n]))
		n++;
	if (n == 0)
		return syntax_error(p, start, 6, "missing argument", NULL);
	if (n > 2)
		return syntax_error(p, ws[2], (int) wl[2], "too many arguments", NULL);
	if (p->text[ws[0]] == ':')
		add_word(p, c, ws[0], wl[0]);
	else
	{
		const char *w = p->text + ws[0];
		size_t i = 0;
		bool digit = false;

		if (w[i] == '+' || w[i] == '-')
			i++;
		while (i < wl[0] && isdigit((unsigned char) w[i]))
			i++, digit = true;
		if (i < wl[0])
		{
			if (n == 1 && digit)
			{
				unit_start = ws[0] + i;
				unit_len = wl[0] - i;
			}
			else
			{
				char *more = xstrndup(w, wl[0]);

				syntax_error(p, ws[0], (int) wl[0],
							 "invalid sleep time, must be an integer", more);
				free(more);
				return -1;
			}
		}
		add_word(p, c, ws[0], i);
	}
	if (n == 2)
	{
		unit_start = ws[1];
		unit_len = wl[1];
	}
	if (unit_len > 0)
	{
		const char *u = p->text + unit_start;

		if (word_is(u, unit_len, "us"))
			c->sleep_unit_us = 1;
		else if (word_is(u, unit_len, "ms"))
			c->sleep_unit_us = 1000;
		else if (word_is(u, unit_len, "s"))
			c->sleep_unit_us = 1000000;
		else
		{
			char *more = xstrndup(u, unit_len);

			syntax_error(p, unit_start, (int) unit_len,
						 "unrecognized time unit, must be us, ms or s", more);
			free(more);
			return -1;
		}
	}
	return 0;
}

/* Merge \gset/\aset into the SQL command before it. */
static int
parse_store(struct parser *p, enum script_store store, size_t start)
{
	struct script *s = p->s;
	struct script_cmd *prev = s->ncmds ? &s->cmds[s->ncmds - 1] : NULL;
	size_t ws, wl;

	if (prev == NULL || prev->kind != SCRIPT_CMD_SQL ||
		prev->store != SCRIPT_STORE_NONE)
	{
		p->cmdname = NULL;
		return syntax_error(p, start, 5, "\\gset must follow an SQL command",
							prev ? prev->first_line : NULL);
	}
	prev->store = store;
	prev->store_prefix = xstrdup("");
	if (next_word(p, &ws, &wl))
	{
		size_t ws2, wl2;

		if (next_word(p, &ws2, &wl2))
			return syntax_error(p, ws2, (int) wl2, "too many arguments", NULL);
		free(prev->store_prefix);
		prev->store_prefix = xstrndup(p->text + ws, wl);
	}
	s->has_store = true;
	return 0;
}

/* The variable a \set or \setshell assigns: its slot, or -1. */
static int
assigned_var(struct parser *p, size_t ws, size_t wl)
{
	char *var = xstrndup(p->text + ws, wl);
	int slot = -1;

	if (!script_valid_var_name(var))
		fail_at(p, ws, (int) wl, "invalid variable name: \"%s\"", var);
	else
	{
		slot = var_slot(p->s, p->text + ws, wl, ws);
		p->s->var_assigned[slot] = true;
	}
	free(var);
	return slot;
}

static int
parse_meta(struct parser *p, size_t start, size_t end)
{
	static const struct
	{
		const char *name;
		enum script_cmd_kind kind;
	} metas[] = {{"set", SCRIPT_CMD_SET},
				 {"setshell", SCRIPT_CMD_SETSHELL},
				 {"shell", SCRIPT_CMD_SHELL},
				 {"sleep", SCRIPT_CMD_SLEEP},
				 {"if", SCRIPT_CMD_IF},
				 {"elif", SCRIPT_CMD_ELIF},
				 {"else", SCRIPT_CMD_ELSE},
				 {"endif", SCRIPT_CMD_ENDIF},
				 {"startpipeline", SCRIPT_CMD_STARTPIPELINE},
				 {"syncpipeline", SCRIPT_CMD_SYNCPIPELINE},
				 {"endpipeline", SCRIPT_CMD_ENDPIPELINE}};
	size_t ws, wl;
	int mi = -1;
	struct script_cmd *c;
	char *name;
	int rc = 0;

	p->pos = start + 1;
	p->end = end;
	if (!next_word(p, &ws, &wl))
		return 0; /* a lone backslash: pgbench ignores it */
	name = xstrndup(p->text + ws, wl);
	for (size_t i = 0; i < lengthof(metas); i++)
		if (strcasecmp(metas[i].name, name) == 0)
			mi = (int) i;
	p->cmdname = name;
	if (strcasecmp(name, "gset") == 0 || strcasecmp(name, "aset") == 0)
	{
		rc = parse_store(p,
						 tolower((unsigned char) name[0]) == 'g'
							 ? SCRIPT_STORE_GSET
							 : SCRIPT_STORE_ASET,
						 start);
		goto out;
	}
	if (mi < 0)
	{
		rc = syntax_error(p, start, (int) wl + 1, "invalid command", NULL);
		goto out;
	}
	c = new_cmd(p, metas[mi].kind, start);
	switch (c->kind)
	{
		case SCRIPT_CMD_SET:
			if (!next_word(p, &ws, &wl))
			{
				rc = syntax_error(p, start, 4, "missing argument", NULL);
				goto out;
			}
			if ((rc = assigned_var(p, ws, wl)) < 0)
				goto out;
			p->s->cmds[p->s->ncmds - 1].set_var = rc;
			rc = 0;
			__attribute__((fallthrough));
		case SCRIPT_CMD_IF:
		case SCRIPT_CMD_ELIF:
		{
			int e = parse_full_expr(p);

			if (e < 0)
			{
				rc = -1;
				goto out;
			}
			/* the array may have moved: re-fetch the command */
			p->s->cmds[p->s->ncmds - 1].expr = e;
		}
		break;
		case SCRIPT_CMD_SLEEP:
			rc = parse_sleep(p, c, start);
			break;
		case SCRIPT_CMD_SETSHELL:
		case SCRIPT_CMD_SHELL:
		{
			int nw = 1; /* the command name */

			while (next_word(p, &ws, &wl))
			{
				if (++nw > MAX_ARGS)
				{
					rc = syntax_error(p, ws, (int) wl, "too many arguments",
									  NULL);
					goto out;
				}
				c = &p->s->cmds[p->s->ncmds - 1];
				if (c->kind == SCRIPT_CMD_SETSHELL && c->set_var < 0)
				{
					if ((rc = assigned_var(p, ws, wl)) < 0)
						goto out;
					c = &p->s->cmds[p->s->ncmds - 1];
					c->set_var = rc;
					rc = 0;
					continue;
				}
				add_word(p, c, ws, wl);
			}
			c = &p->s->cmds[p->s->ncmds - 1];
			if (c->kind == SCRIPT_CMD_SETSHELL && c->nwords == 0)
				rc = syntax_error(p, start, (int) (end - start),
								  "missing argument", NULL);
			else if (c->kind == SCRIPT_CMD_SHELL && c->nwords == 0)
				rc = syntax_error(p, start, (int) (end - start),
								  "missing command", NULL);
			if (c->nwords > p->s->max_words)
				p->s->max_words = c->nwords;
		}
		break;
		default:
			if (next_word(p, &ws, &wl))
				rc =
					syntax_error(p, ws, (int) wl, "unexpected argument", NULL);
			break;
	}
out:
	p->cmdname = NULL;
	free(name);
	return rc;
}

/*
 * pgbench's CheckConditional(), and the jump targets: each \if and \elif
 * goes to the next branch when false, and each \elif and \else reached
 * from a branch that ran goes past its \endif.
 */
static int
link_conditionals(struct parser *p)
{
	struct script *s = p->s;
	int *stack = xmalloc((size_t) (s->ncmds + 1) * sizeof(int));
	int *ifs = xmalloc((size_t) (s->ncmds + 1) * sizeof(int)); /* each \if */
	int depth = 0, rc = 0;

	for (int i = 0; i < s->ncmds && rc == 0; i++)
	{
		struct script_cmd *c = &s->cmds[i];
		struct script_cmd *top = depth ? &s->cmds[stack[depth - 1]] : NULL;

		switch (c->kind)
		{
			case SCRIPT_CMD_IF:
				ifs[depth] = i;
				stack[depth++] = i;
				break;
			case SCRIPT_CMD_ELIF:
			case SCRIPT_CMD_ELSE:
			{
				const char *what =
					c->kind == SCRIPT_CMD_ELIF ? "\\elif" : "\\else";

				if (top == NULL)
					rc = fail_at(p, c->offset, 1, "%s without matching \\if",
								 what);
				else if (top->kind == SCRIPT_CMD_ELSE)
					rc = fail_at(p, c->offset, 1, "%s after \\else", what);
				else
				{
					top->next_branch = i;
					stack[depth - 1] = i;
				}
				break;
			}
			case SCRIPT_CMD_ENDIF:
				if (top == NULL)
				{
					rc = fail_at(p, c->offset, 1,
								 "\\endif without matching \\if");
					break;
				}
				top->next_branch = i;
				depth--;
				/*
				 * every branch of this \if ends here: follow its chain of
				 * branches, not every command back to it (nested \ifs made
				 * that quadratic)
				 */
				for (int k = ifs[depth]; k != i; k = s->cmds[k].next_branch)
					s->cmds[k].endif = i;
				break;
			default:
				break;
		}
	}
	if (rc == 0 && depth > 0)
		rc = fail_at(p, s->cmds[stack[depth - 1]].offset, 1,
					 "\\if without matching \\endif");
	free(stack);
	free(ifs);
	return rc;
}

/* ----------------------------------------------------------------- main */

/* The end of a meta-command starting at I: end of line, "\\\n" continues. */
static size_t
meta_end(const struct parser *p, size_t i)
{
	size_t end = i;

	while (end < p->len && p->text[end] != '\n')
	{
		if (p->text[end] == '\\' &&
			(p->text[end + 1] == '\n' ||
			 (p->text[end + 1] == '\r' && p->text[end + 2] == '\n')))
			end += p->text[end + 1] == '\r' ? 2 : 1;
		end++;
	}
	return end;
}

struct script *
script_parse(const char *name, const char *text,
			 const struct script_origin *origin, struct pgc_error *err)
{
	return script_parse_next(NULL, 0, name, text, origin, err);
}

struct script *
script_parse_next(const struct script *prev, int index, const char *name,
				  const char *text, const struct script_origin *origin,
				  struct pgc_error *err)
{
	struct parser p;
	struct script *s = xcalloc(1, sizeof(*s));
	size_t i = 0;

	s->name = xstrdup(name);
	s->text = xstrdup(text);
	s->origin = *origin;
	s->origin_file = xstrdup(origin->file ? origin->file : "");
	s->origin.file = s->origin_file;
	for (size_t k = 0; k < lengthof(automatic_vars); k++)
	{
		int slot =
			var_slot(s, automatic_vars[k], strlen(automatic_vars[k]), 0);

		s->var_assigned[slot] = true;
	}
	/* the workload's earlier scripts fix the slots of their variables */
	for (int k = SCRIPT_NAUTOVARS; prev && k < prev->nvars; k++)
		var_slot(s, prev->var_names[k], strlen(prev->var_names[k]),
				 (size_t) -1);

	memset(&p, 0, sizeof(p));
	p.s = s;
	p.text = s->text;
	p.len = strlen(s->text);
	p.err = err;
	p.index = index;

	while (i < p.len)
	{
		if (isspace((unsigned char) p.text[i]))
		{
			i++;
			continue;
		}
		if (p.text[i] == '\\' && p.text[i + 1] != ';')
		{
			size_t end = meta_end(&p, i);

			if (parse_meta(&p, i, end) < 0)
				goto fail;
			i = end;
			continue;
		}
		{
			size_t end = p.len;
			size_t stop;
			bool has_code;
			struct script_cmd *c;
			size_t from;

			if (scan_sql(&p, i, &end, &has_code) < 0)
				goto fail;
			stop = end;
			while (stop > i && isspace((unsigned char) p.text[stop - 1]))
				stop--;
			from = i;
			if (has_code)
			{
				/* pgbench drops leading blanks and "--" comments */
				for (;;)
				{
					while (from < stop &&
						   isspace((unsigned char) p.text[from]))
						from++;
					if (from + 1 < stop && p.text[from] == '-' &&
						p.text[from + 1] == '-')
						from += strcspn(p.text + from, "\n");
					else
						break;
				}
				/* a comment may run past the command's end (found by
				 * fuzzing: the length wrapped to SIZE_MAX): then only
				 * comments were there, and there is no command */
				if (from > stop)
					from = stop;
			}
			if (has_code && from < stop)
			{
				c = new_cmd(&p, SCRIPT_CMD_SQL, from);
				if (compile_sql(&p, c, from, stop - from) < 0)
					goto fail;
				c = &s->cmds[s->ncmds - 1];
				c->stmt_name = xasprintf("P%d_%d", p.index, s->ncmds - 1);
				s->nsql++;
			}
			/* step over the ';', but not over a meta-command's backslash */
			i = end < p.len && p.text[end] == ';' ? end + 1 : end;
		}
	}
	if (s->ncmds == 0)
	{
		error_set(err, PGC_ERR_RECIPE, "empty command list for script \"%s\"",
				  name);
		error_at(err, origin->file, origin->first_line, origin->first_col + 1,
				 1);
		goto fail;
	}
	if (link_conditionals(&p) < 0)
		goto fail;
	free(p.semis);
	return s;

fail:
	free(p.semis);
	script_free(s);
	return NULL;
}

void
script_free(struct script *s)
{
	if (s == NULL)
		return;
	for (int i = 0; i < s->ncmds; i++)
	{
		struct script_cmd *c = &s->cmds[i];

		free(c->sql_params);
		free(c->param_vars);
		free(c->substs);
		free(c->sql_text);
		free(c->pieces);
		free(c->stmt_name);
		free(c->first_line);
		free(c->store_prefix);
		for (int k = 0; k < c->nwords; k++)
			free(c->words[k].text);
		free(c->words);
	}
	for (int i = 0; i < s->nvars; i++)
		free(s->var_names[i]);
	free(s->var_names);
	free(s->var_assigned);
	free(s->var_first_use);
	free(s->cmds);
	free(s->nodes);
	free(s->args);
	free(s->name);
	free(s->text);
	free(s->origin_file);
	free(s);
}
