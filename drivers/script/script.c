/*
 * script.c - parse pgbench scripts: split SQL commands the way psql's
 * lexer does, turn ":name" into parameters the way pgbench's parseQuery()
 * does, and compile "\set" expressions into a flat node array.
 * Evaluation lives in expr.c.
 */
#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct parser
{
	struct script *s;
	const char *text; /* whole script */
	size_t len;
	struct pgc_error *err;
	int ncmds_alloc;
	int nnodes_alloc;
	/* expression tokenizer state */
	size_t pos; /* absolute offset */
	size_t end; /* end of the meta-command */
};

static const char *const automatic_vars[] = {"client_id", "scale",
											 "random_seed", "default_seed"};

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
script_sql_offset(const struct script *s, int cmd, int sent_position)
{
	const struct script_cmd *c = &s->cmds[cmd];
	size_t sent = sent_position > 0 ? (size_t) sent_position - 1 : 0;
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

static int fail_at(struct parser *p, size_t offset, int span, const char *fmt,
				   ...) PGC_PRINTF(4, 5);

static int
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
	error_at(p->err, p->s->origin.file, line, col, span);
	return -1;
}

/* ------------------------------------------------------------ variables */

static int
var_slot(struct script *s, const char *name, size_t len, bool create)
{
	for (int i = 0; i < s->nvars; i++)
		if (strlen(s->var_names[i]) == len &&
			memcmp(s->var_names[i], name, len) == 0)
			return i;
	if (!create)
		return -1;
	s->var_names =
		xrealloc(s->var_names, (size_t) (s->nvars + 1) * sizeof(char *));
	s->var_names[s->nvars] = xstrndup(name, len);
	return s->nvars++;
}

/*
 * pgbench's parseVariable(): a letter, '_' or non-ASCII byte, then also
 * digits, so the ":2" of "x[1:2]" is no variable.
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

/* ------------------------------------------------------------- commands */

static struct script_cmd *
new_cmd(struct parser *p, enum script_cmd_kind kind, size_t offset)
{
	struct script *s = p->s;
	struct script_cmd *c;

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
	c->set_var = -1;
	c->expr = -1;
	return c;
}

/*
 * Turn a SQL command's text into "$n" form and the simple-protocol
 * pieces.  Like pgbench, every ":name" occurrence becomes a parameter,
 * wherever it stands, and runs of colons that start no name are skipped.
 */
static int
compile_sql(struct parser *p, struct script_cmd *c, const char *sql,
			size_t len)
{
	struct strbuf out = STRBUF_INIT;
	size_t i = 0, lit_start = 0;
	int npieces_alloc = 4;
	char *orig = xstrndup(sql, len);

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
		slot = var_slot(p->s, orig + i + 1, n, false);
		if (slot < 0)
		{
			char *name = xstrndup(orig + i + 1, n);

			fail_at(p, c->offset + i, (int) n + 1, "undefined variable \"%s\"",
					name);
			error_hint(p->err, "set it with \\set %s ... before use", name);
			free(name);
			strbuf_release(&out);
			return -1;
		}
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
	c->pieces[c->npieces].text = orig + lit_start;
	c->pieces[c->npieces].len = len - lit_start;
	c->pieces[c->npieces].var = -1;
	c->npieces++;
	c->sql_params = strbuf_detach(&out);
	if (c->nparams > p->s->max_params)
		p->s->max_params = c->nparams;
	return 0;
}

/*
 * Find the end of the SQL command starting at START: the first
 * semicolon outside quotes, dollar quotes, comments and parentheses
 * (psqlscan.l's rules).  Sets *has_code when anything but blanks and
 * comments was seen.  Returns the offset of the ';' or of the end.
 */
static int
scan_sql(struct parser *p, size_t start, size_t *end_out, bool *has_code)
{
	const char *t = p->text;
	size_t i = start;
	int depth = 0;

	*has_code = false;
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
		/* only comments so far: the meta-command starts the next command */
		if (ch == '\\' && !*has_code)
			break;
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
		else if (ch == '\\')
		{
			if (t[i + 1] == ';')
				return fail_at(
					p, i, 2,
					"compound statements (\\;) are not supported yet");
			return fail_at(
				p, i, 1,
				"meta-commands after SQL on the same command (such as \\gset) are not supported yet");
		}
		i++;
	}
	*end_out = i;
	return 0;
}

/* ---------------------------------------------------------- expressions */

static int
new_node(struct parser *p, enum script_node_kind kind, size_t offset)
{
	struct script *s = p->s;

	if (s->nnodes == p->nnodes_alloc)
	{
		p->nnodes_alloc = p->nnodes_alloc ? p->nnodes_alloc * 2 : 16;
		s->nodes =
			xrealloc(s->nodes, (size_t) p->nnodes_alloc * sizeof(*s->nodes));
	}
	memset(&s->nodes[s->nnodes], 0, sizeof(s->nodes[0]));
	s->nodes[s->nnodes].kind = kind;
	s->nodes[s->nnodes].offset = offset;
	s->nodes[s->nnodes].var = -1;
	return s->nnodes++;
}

static void
skip_blanks(struct parser *p)
{
	while (p->pos < p->end &&
		   (isspace((unsigned char) p->text[p->pos]) ||
			(p->text[p->pos] == '\\' && p->pos + 1 < p->end &&
			 p->text[p->pos + 1] == '\n')))
		p->pos++;
}

static int parse_expr(struct parser *p);

static const struct
{
	const char *name;
	enum script_func func;
	int min_args;
	int max_args;
} functions[] = {
	{"abs", SFUNC_ABS, 1, 1},
	{"greatest", SFUNC_GREATEST, 1, SCRIPT_MAX_ARGS},
	{"least", SFUNC_LEAST, 1, SCRIPT_MAX_ARGS},
	{"mod", SFUNC_MOD, 2, 2},
	{"random", SFUNC_RANDOM, 2, 2},
};

static int
parse_primary(struct parser *p)
{
	const char *t = p->text;
	size_t start;
	int node;

	skip_blanks(p);
	start = p->pos;
	if (p->pos >= p->end)
		return fail_at(p, p->pos, 1, "syntax error: expression expected");
	if (t[p->pos] == '(')
	{
		p->pos++;
		node = parse_expr(p);
		if (node < 0)
			return -1;
		skip_blanks(p);
		if (p->pos >= p->end || t[p->pos] != ')')
			return fail_at(p, p->pos, 1, "syntax error: \")\" expected");
		p->pos++;
		return node;
	}
	if (isdigit((unsigned char) t[p->pos]))
	{
		int64_t v = 0;

		while (p->pos < p->end && isdigit((unsigned char) t[p->pos]))
		{
			if (__builtin_mul_overflow(v, 10, &v) ||
				__builtin_add_overflow(v, t[p->pos] - '0', &v))
				return fail_at(p, start, 1, "bigint constant overflow");
			p->pos++;
		}
		if (p->pos < p->end &&
			(t[p->pos] == '.' || t[p->pos] == 'e' || t[p->pos] == 'E'))
			return fail_at(p, start, (int) (p->pos - start) + 1,
						   "double constants are not supported yet");
		node = new_node(p, SNODE_INT, start);
		p->s->nodes[node].ival = v;
		return node;
	}
	if (t[p->pos] == ':')
	{
		size_t n = var_name_len(t + p->pos + 1);
		int slot;

		if (n == 0)
			return fail_at(p, start, 1,
						   "syntax error: variable name expected after \":\"");
		slot = var_slot(p->s, t + p->pos + 1, n, false);
		if (slot < 0)
		{
			char *name = xstrndup(t + p->pos + 1, n);

			fail_at(p, start, (int) n + 1, "undefined variable \"%s\"", name);
			free(name);
			return -1;
		}
		node = new_node(p, SNODE_VAR, start);
		p->s->nodes[node].var = slot;
		p->pos += n + 1;
		return node;
	}
	if (isalpha((unsigned char) t[p->pos]) || t[p->pos] == '_')
	{
		size_t n = 0;
		int fi = -1;
		struct script_node *fn;

		while (
			p->pos + n < p->end &&
			(isalnum((unsigned char) t[p->pos + n]) || t[p->pos + n] == '_'))
			n++;
		for (size_t i = 0; i < lengthof(functions); i++)
			if (strlen(functions[i].name) == n &&
				strncasecmp(functions[i].name, t + p->pos, n) == 0)
				fi = (int) i;
		if (fi < 0)
		{
			char *word = xstrndup(t + p->pos, n);

			fail_at(p, start, (int) n, "unknown function or keyword \"%s\"",
					word);
			error_hint(
				p->err,
				"this version supports abs, greatest, least, mod and random; write variables as :name");
			free(word);
			return -1;
		}
		p->pos += n;
		skip_blanks(p);
		if (p->pos >= p->end || t[p->pos] != '(')
			return fail_at(p, p->pos, 1,
						   "syntax error: \"(\" expected after %s",
						   functions[fi].name);
		p->pos++;
		node = new_node(p, SNODE_FUNC, start);
		p->s->nodes[node].func = functions[fi].func;
		for (;;)
		{
			int arg;

			if (p->s->nodes[node].nargs == SCRIPT_MAX_ARGS)
				return fail_at(p, p->pos, 1, "too many arguments to %s",
							   functions[fi].name);
			arg = parse_expr(p);
			if (arg < 0)
				return -1;
			fn = &p->s->nodes[node];
			fn->args[fn->nargs++] = arg;
			skip_blanks(p);
			if (p->pos < p->end && t[p->pos] == ',')
			{
				p->pos++;
				continue;
			}
			if (p->pos < p->end && t[p->pos] == ')')
			{
				p->pos++;
				break;
			}
			return fail_at(p, p->pos, 1,
						   "syntax error: \",\" or \")\" expected");
		}
		fn = &p->s->nodes[node];
		if (fn->nargs < functions[fi].min_args ||
			fn->nargs > functions[fi].max_args)
			return fail_at(p, start, (int) n,
						   "wrong number of arguments to %s: %d",
						   functions[fi].name, fn->nargs);
		return node;
	}
	return fail_at(p, start, 1, "syntax error: unexpected character \"%c\"",
				   t[p->pos]);
}

static int
parse_unary(struct parser *p)
{
	skip_blanks(p);
	if (p->pos < p->end && (p->text[p->pos] == '-' || p->text[p->pos] == '+'))
	{
		size_t start = p->pos;
		bool neg = p->text[p->pos] == '-';
		int arg, node;

		p->pos++;
		arg = parse_unary(p);
		if (arg < 0)
			return -1;
		if (!neg)
			return arg;
		node = new_node(p, SNODE_NEG, start);
		p->s->nodes[node].args[0] = arg;
		p->s->nodes[node].nargs = 1;
		return node;
	}
	return parse_primary(p);
}

static int
parse_binary(struct parser *p, int level)
{
	int left = level == 0 ? parse_binary(p, 1) : parse_unary(p);

	if (left < 0)
		return -1;
	for (;;)
	{
		char op;
		enum script_node_kind kind;
		size_t start;
		int right, node;

		skip_blanks(p);
		if (p->pos >= p->end)
			return left;
		op = p->text[p->pos];
		if (level == 0 && op == '+')
			kind = SNODE_ADD;
		else if (level == 0 && op == '-')
			kind = SNODE_SUB;
		else if (level == 1 && op == '*')
			kind = SNODE_MUL;
		else if (level == 1 && op == '/')
			kind = SNODE_DIV;
		else if (level == 1 && op == '%')
			kind = SNODE_MOD;
		else
			return left;
		start = p->pos++;
		right = level == 0 ? parse_binary(p, 1) : parse_unary(p);
		if (right < 0)
			return -1;
		node = new_node(p, kind, start);
		p->s->nodes[node].args[0] = left;
		p->s->nodes[node].args[1] = right;
		p->s->nodes[node].nargs = 2;
		left = node;
	}
}

static int
parse_expr(struct parser *p)
{
	return parse_binary(p, 0);
}

/* --------------------------------------------------------- meta-commands */

static int
parse_meta(struct parser *p, size_t start, size_t end)
{
	const char *t = p->text;
	size_t i = start + 1, wl;
	struct script_cmd *c;

	wl = 0;
	while (i + wl < end && isalpha((unsigned char) t[i + wl]))
		wl++;
	if (wl == 3 && strncmp(t + i, "set", 3) == 0)
	{
		size_t n;
		int expr;

		p->pos = i + 3;
		p->end = end;
		skip_blanks(p);
		n = var_name_len(t + p->pos);
		if (n == 0)
			return fail_at(p, p->pos, 1, "missing variable name in \\set");
		c = new_cmd(p, SCRIPT_CMD_SET, start);
		c->set_var = var_slot(p->s, t + p->pos, n, true);
		p->pos += n;
		expr = parse_expr(p);
		if (expr < 0)
			return -1;
		skip_blanks(p);
		if (p->pos < end)
			return fail_at(p, p->pos, 1,
						   "syntax error: unexpected \"%c\" after expression",
						   t[p->pos]);
		/* the slot array may have moved: re-fetch the command */
		p->s->cmds[p->s->ncmds - 1].expr = expr;
		return 0;
	}
	{
		static const char *const pgbench_meta[] = {
			"sleep",       "setshell",     "shell", "if",   "elif",
			"else",        "endif",        "gset",  "aset", "startpipeline",
			"endpipeline", "syncpipeline", NULL};
		char *word = xstrndup(t + i, wl);

		for (int k = 0; pgbench_meta[k]; k++)
			if (strcmp(word, pgbench_meta[k]) == 0)
			{
				fail_at(p, start, (int) wl + 1,
						"meta-command \\%s is not supported yet", word);
				error_hint(p->err, "this version runs SQL commands and \\set");
				free(word);
				return -1;
			}
		fail_at(p, start, (int) wl + 1, "invalid command \\%s", word);
		free(word);
		return -1;
	}
}

/* ----------------------------------------------------------------- main */

struct script *
script_parse(const char *name, const char *text,
			 const struct script_origin *origin, struct pgc_error *err)
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
		var_slot(s, automatic_vars[k], strlen(automatic_vars[k]), true);

	memset(&p, 0, sizeof(p));
	p.s = s;
	p.text = s->text;
	p.len = strlen(s->text);
	p.err = err;

	while (i < p.len)
	{
		if (isspace((unsigned char) p.text[i]))
		{
			i++;
			continue;
		}
		if (p.text[i] == '\\')
		{
			size_t end = i;

			/* a meta-command runs to the end of line; "\\\n" continues */
			while (end < p.len && p.text[end] != '\n')
			{
				if (p.text[end] == '\\' && p.text[end + 1] == '\n')
					end++;
				end++;
			}
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

			if (scan_sql(&p, i, &end, &has_code) < 0)
				goto fail;
			stop = end;
			while (stop > i && isspace((unsigned char) p.text[stop - 1]))
				stop--;
			if (has_code)
			{
				c = new_cmd(&p, SCRIPT_CMD_SQL, i);
				if (compile_sql(&p, c, p.text + i, stop - i) < 0)
					goto fail;
				c->stmt_name = xasprintf("P%d", s->ncmds - 1);
				s->nsql++;
			}
			/* step over the ';', but not over a meta-command's backslash */
			i = end < p.len && p.text[end] == ';' ? end + 1 : end;
		}
	}
	if (s->ncmds == 0 || s->nsql == 0)
	{
		error_set(err, PGC_ERR_RECIPE, "script \"%s\" contains no SQL command",
				  name);
		error_at(err, origin->file, origin->first_line, origin->first_col + 1,
				 1);
		goto fail;
	}
	return s;

fail:
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
	}
	for (int i = 0; i < s->nvars; i++)
		free(s->var_names[i]);
	free(s->var_names);
	free(s->cmds);
	free(s->nodes);
	free(s->name);
	free(s->text);
	free(s->origin_file);
	free(s);
}
