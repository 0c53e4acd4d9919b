/*
 * expr_parse.c - compile pgbench expressions (its exprscan.l and
 * exprparse.y, as a precedence-climbing parser with the same precedences)
 * into a script's flat node array; pgbench's error messages.  See
 * script.h; evaluation lives in expr.c.
 */
#include "script_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------- expressions */

enum tok
{
	T_END,
	T_INT,
	T_MAXINT_PLUS_ONE,
	T_DOUBLE,
	T_BOOL,
	T_NULL,
	T_VAR,
	T_FUNC,
	T_AND,
	T_OR,
	T_NOT,
	T_IS,
	T_ISNULL,
	T_NOTNULL,
	T_CASE,
	T_WHEN,
	T_THEN,
	T_ELSE,
	T_END_KW,
	T_OP /* one of the operator characters; op holds which */
};

/* Two-character operators get codes above 255. */
enum
{
	OP_NE = 256,
	OP_LE,
	OP_GE,
	OP_LS,
	OP_RS
};

struct token
{
	enum tok kind;
	int op;
	size_t start;
	size_t len;
	struct script_value value;
};

static bool
is_alpha(unsigned char c)
{
	return isalpha(c) || c == '_' || c >= 0x80;
}

static bool
is_alnum(unsigned char c)
{
	return is_alpha(c) || isdigit(c);
}

/* Skip blanks and "\" + newline continuations of the meta-command. */
void
skip_blanks(struct parser *p)
{
	for (;;)
	{
		if (p->pos < p->end && p->text[p->pos] != '\n' &&
			isspace((unsigned char) p->text[p->pos]))
			p->pos++;
		else if (p->pos + 1 < p->len && p->text[p->pos] == '\\' &&
				 (p->text[p->pos + 1] == '\n' ||
				  (p->text[p->pos + 1] == '\r' &&
				   p->text[p->pos + 2] == '\n')))
			p->pos += p->text[p->pos + 1] == '\r' ? 3 : 2;
		else
			return;
	}
}

bool
word_is(const char *t, size_t len, const char *kw)
{
	return strlen(kw) == len && strncasecmp(t, kw, len) == 0;
}

/* pgbench's exprscan.l, one token at p->pos. */
static int
next_token(struct parser *p, struct token *tk)
{
	const char *t = p->text;
	size_t i;

	skip_blanks(p);
	memset(tk, 0, sizeof(*tk));
	tk->start = p->pos;
	if (p->pos >= p->end)
	{
		tk->kind = T_END;
		return 0;
	}
	i = p->pos;
	if (isdigit((unsigned char) t[i]) ||
		(t[i] == '.' && isdigit((unsigned char) t[i + 1])))
	{
		size_t j = i;
		bool dbl = false;
		char *num;

		while (isdigit((unsigned char) t[j]))
			j++;
		if (t[j] == '.')
		{
			dbl = true;
			j++;
			while (isdigit((unsigned char) t[j]))
				j++;
		}
		if ((t[j] == 'e' || t[j] == 'E') &&
			(isdigit((unsigned char) t[j + 1]) ||
			 ((t[j + 1] == '+' || t[j + 1] == '-') &&
			  isdigit((unsigned char) t[j + 2]))))
		{
			dbl = true;
			j += 2;
			while (isdigit((unsigned char) t[j]))
				j++;
		}
		num = xstrndup(t + i, j - i);
		tk->len = j - i;
		p->pos = j;
		if (dbl)
		{
			char *endp;

			errno = 0;
			tk->kind = T_DOUBLE;
			tk->value.type = SV_DOUBLE;
			tk->value.u.d = strtod(num, &endp);
			if (errno != 0)
			{
				syntax_error(p, i, (int) tk->len, "double constant overflow",
							 num);
				free(num);
				return -1;
			}
		}
		else if (strcmp(num, "9223372036854775808") == 0)
			tk->kind = T_MAXINT_PLUS_ONE;
		else
		{
			int64_t v = 0;

			for (const char *d = num; *d; d++)
				if (__builtin_mul_overflow(v, 10, &v) ||
					__builtin_add_overflow(v, *d - '0', &v))
				{
					syntax_error(p, i, (int) tk->len,
								 "bigint constant overflow", num);
					free(num);
					return -1;
				}
			tk->kind = T_INT;
			tk->value.type = SV_INT;
			tk->value.u.i = v;
		}
		free(num);
		return 0;
	}
	if (t[i] == ':' && is_alnum((unsigned char) t[i + 1]))
	{
		size_t j = i + 1;

		while (j < p->end && is_alnum((unsigned char) t[j]))
			j++;
		tk->kind = T_VAR;
		tk->len = j - i;
		p->pos = j;
		return 0;
	}
	if (is_alpha((unsigned char) t[i]))
	{
		static const struct
		{
			const char *kw;
			enum tok kind;
		} kws[] = {
			{"and", T_AND},   {"or", T_OR},         {"not", T_NOT},
			{"is", T_IS},     {"isnull", T_ISNULL}, {"notnull", T_NOTNULL},
			{"case", T_CASE}, {"when", T_WHEN},     {"then", T_THEN},
			{"else", T_ELSE}, {"end", T_END_KW},    {"null", T_NULL}};
		size_t j = i;

		while (j < p->end && is_alnum((unsigned char) t[j]))
			j++;
		tk->len = j - i;
		p->pos = j;
		tk->kind = T_FUNC;
		for (size_t k = 0; k < lengthof(kws); k++)
			if (word_is(t + i, tk->len, kws[k].kw))
				tk->kind = kws[k].kind;
		if (word_is(t + i, tk->len, "true") ||
			word_is(t + i, tk->len, "false"))
		{
			tk->kind = T_BOOL;
			tk->value.type = SV_BOOL;
			tk->value.u.b = (t[i] == 't' || t[i] == 'T');
		}
		if (tk->kind == T_NULL)
			tk->value.type = SV_NULL;
		return 0;
	}
	tk->kind = T_OP;
	tk->len = 1;
	if ((t[i] == '<' && t[i + 1] == '>') || (t[i] == '!' && t[i + 1] == '='))
		tk->op = OP_NE;
	else if (t[i] == '<' && t[i + 1] == '=')
		tk->op = OP_LE;
	else if (t[i] == '>' && t[i + 1] == '=')
		tk->op = OP_GE;
	else if (t[i] == '<' && t[i + 1] == '<')
		tk->op = OP_LS;
	else if (t[i] == '>' && t[i + 1] == '>')
		tk->op = OP_RS;
	else if (strchr("+-*/%=<>|&#~(),", t[i]) && t[i] != '\0')
		tk->op = (unsigned char) t[i];
	else
	{
		char ch[8];

		snprintf(ch, sizeof(ch), "%c", t[i]);
		return syntax_error(p, i, 1, "unexpected character", ch);
	}
	if (tk->op >= 256)
		tk->len = 2;
	p->pos = i + tk->len;
	return 0;
}

static int
peek_token(struct parser *p, struct token *tk)
{
	size_t save = p->pos;
	int rc = next_token(p, tk);

	p->pos = save;
	return rc;
}

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

static int
const_node(struct parser *p, const struct script_value *v, size_t offset)
{
	int n = new_node(p, SNODE_CONST, offset);

	p->s->nodes[n].value = *v;
	return n;
}

static int
int_node(struct parser *p, int64_t i, size_t offset)
{
	struct script_value v = {.type = SV_INT, .u.i = i};

	return const_node(p, &v, offset);
}

/* A function node over ARGS (node indices), stored contiguously. */
static int
func_node(struct parser *p, enum script_func f, const int *args, int nargs,
		  size_t offset)
{
	struct script *s = p->s;
	int n;

	while (s->nargs + nargs > p->nargs_alloc)
	{
		p->nargs_alloc = p->nargs_alloc ? p->nargs_alloc * 2 : 32;
		s->args = xrealloc(s->args, (size_t) p->nargs_alloc * sizeof(int));
	}
	n = new_node(p, SNODE_FUNC, offset);
	s->nodes[n].func = f;
	s->nodes[n].nargs = nargs;
	s->nodes[n].first_arg = s->nargs;
	memcpy(s->args + s->nargs, args, (size_t) nargs * sizeof(int));
	s->nargs += nargs;
	return n;
}

static int
op2(struct parser *p, enum script_func f, int a, int b, size_t offset)
{
	int args[2] = {a, b};

	return func_node(p, f, args, 2, offset);
}

static int
op1(struct parser *p, enum script_func f, int a, size_t offset)
{
	return func_node(p, f, &a, 1, offset);
}

/* Precedences of exprparse.y, lowest first. */
enum
{
	PREC_OR = 1,
	PREC_AND,
	PREC_NOT,
	PREC_IS,
	PREC_CMP,
	PREC_BIT,
	PREC_ADD,
	PREC_MUL,
	PREC_UNARY
};

#define NARGS_VARIABLE (-1)
#define NARGS_HASH     (-2)
#define NARGS_PERMUTE  (-3)

static const struct
{
	const char *name;
	int nargs;
	enum script_func func;
} functions[] = {
	{"abs", 1, SF_ABS},
	{"least", NARGS_VARIABLE, SF_LEAST},
	{"greatest", NARGS_VARIABLE, SF_GREATEST},
	{"debug", 1, SF_DEBUG},
	{"pi", 0, SF_PI},
	{"sqrt", 1, SF_SQRT},
	{"ln", 1, SF_LN},
	{"exp", 1, SF_EXP},
	{"int", 1, SF_INT},
	{"double", 1, SF_DOUBLE},
	{"random", 2, SF_RANDOM},
	{"random_gaussian", 3, SF_RANDOM_GAUSSIAN},
	{"random_exponential", 3, SF_RANDOM_EXPONENTIAL},
	{"random_zipfian", 3, SF_RANDOM_ZIPFIAN},
	{"pow", 2, SF_POW},
	{"power", 2, SF_POW},
	{"mod", 2, SF_MOD},
	{"hash", NARGS_HASH, SF_HASH_MURMUR2},
	{"hash_murmur2", NARGS_HASH, SF_HASH_MURMUR2},
	{"hash_fnv1a", NARGS_HASH, SF_HASH_FNV1A},
	{"permute", NARGS_PERMUTE, SF_PERMUTE},
};

static int parse_expr(struct parser *p, int min_prec);

static int
default_seed_node(struct parser *p, size_t offset)
{
	int n = new_node(p, SNODE_VAR, offset);

	p->s->nodes[n].var = SCRIPT_VAR_DEFAULT_SEED;
	return n;
}

static int
parse_call(struct parser *p, const struct token *name)
{
	char *fname = xstrndup(p->text + name->start, name->len);
	int fi = -1, nargs = 0, nalloc = 8, node;
	int *args;
	struct token tk;

	for (size_t i = 0; i < lengthof(functions); i++)
		if (strcasecmp(functions[i].name, fname) == 0)
			fi = (int) i;
	if (fi < 0)
	{
		syntax_error(p, name->start, (int) name->len,
					 "unexpected function name", fname);
		free(fname);
		return -1;
	}
	free(fname);
	if (next_token(p, &tk) < 0)
		return -1;
	if (tk.kind != T_OP || tk.op != '(')
		return syntax_error(p, tk.start, (int) tk.len, "syntax error", NULL);
	args = xmalloc((size_t) nalloc * sizeof(int));
	if (peek_token(p, &tk) < 0)
		goto fail;
	if (tk.kind == T_OP && tk.op == ')')
		next_token(p, &tk);
	else
		for (;;)
		{
			int a = parse_expr(p, 0);

			if (a < 0)
				goto fail;
			if (nargs + 2 > nalloc)
			{
				nalloc *= 2;
				args = xrealloc(args, (size_t) nalloc * sizeof(int));
			}
			args[nargs++] = a;
			if (next_token(p, &tk) < 0)
				goto fail;
			if (tk.kind == T_OP && tk.op == ',')
				continue;
			if (tk.kind == T_OP && tk.op == ')')
				break;
			syntax_error(p, tk.start, (int) tk.len, "syntax error", NULL);
			goto fail;
		}
	switch (functions[fi].nargs)
	{
		case NARGS_VARIABLE:
			if (nargs == 0)
			{
				syntax_error(p, name->start, (int) name->len,
							 "at least one argument expected",
							 functions[fi].name);
				goto fail;
			}
			break;
		case NARGS_HASH:
		case NARGS_PERMUTE:
		{
			int min = functions[fi].nargs == NARGS_HASH ? 1 : 2;

			if (nargs < min || nargs > min + 1)
			{
				syntax_error(p, name->start, (int) name->len,
							 "unexpected number of arguments",
							 functions[fi].name);
				goto fail;
			}
			if (nargs == min)
				args[nargs++] = default_seed_node(p, name->start);
			break;
		}
		default:
			if (nargs != functions[fi].nargs)
			{
				syntax_error(p, name->start, (int) name->len,
							 "unexpected number of arguments",
							 functions[fi].name);
				goto fail;
			}
	}
	node = func_node(p, functions[fi].func, args, nargs, name->start);
	free(args);
	return node;
fail:
	free(args);
	return -1;
}

static int
parse_case(struct parser *p, const struct token *kw)
{
	int nalloc = 8, n = 0, node;
	int *args = xmalloc((size_t) nalloc * sizeof(int));
	struct token tk;

	for (;;)
	{
		int cond, then;

		if (next_token(p, &tk) < 0)
			goto fail;
		if (tk.kind != T_WHEN)
		{
			if (n == 0 || (tk.kind != T_ELSE && tk.kind != T_END_KW))
			{
				syntax_error(p, tk.start, (int) tk.len, "syntax error", NULL);
				goto fail;
			}
			break;
		}
		if ((cond = parse_expr(p, 0)) < 0)
			goto fail;
		if (next_token(p, &tk) < 0)
			goto fail;
		if (tk.kind != T_THEN)
		{
			syntax_error(p, tk.start, (int) tk.len, "syntax error", NULL);
			goto fail;
		}
		if ((then = parse_expr(p, 0)) < 0)
			goto fail;
		if (n + 3 > nalloc)
		{
			nalloc *= 2;
			args = xrealloc(args, (size_t) nalloc * sizeof(int));
		}
		args[n++] = cond;
		args[n++] = then;
	}
	if (tk.kind == T_ELSE)
	{
		int e = parse_expr(p, 0);

		if (e < 0)
			goto fail;
		args[n++] = e;
		if (next_token(p, &tk) < 0)
			goto fail;
		if (tk.kind != T_END_KW)
		{
			syntax_error(p, tk.start, (int) tk.len, "syntax error", NULL);
			goto fail;
		}
	}
	else
	{
		struct script_value null = {.type = SV_NULL};

		args[n++] = const_node(p, &null, tk.start);
	}
	node = func_node(p, SF_CASE, args, n, kw->start);
	free(args);
	return node;
fail:
	free(args);
	return -1;
}

static int
parse_prefix(struct parser *p)
{
	struct token tk;
	int a;

	if (next_token(p, &tk) < 0)
		return -1;
	switch (tk.kind)
	{
		case T_INT:
		case T_DOUBLE:
		case T_BOOL:
		case T_NULL:
			return const_node(p, &tk.value, tk.start);
		case T_VAR:
		{
			int n = new_node(p, SNODE_VAR, tk.start);

			p->s->nodes[n].var =
				var_slot(p->s, p->text + tk.start + 1, tk.len - 1, tk.start);
			return n;
		}
		case T_FUNC:
			return parse_call(p, &tk);
		case T_CASE:
			return parse_case(p, &tk);
		case T_NOT:
			if ((a = parse_expr(p, PREC_NOT + 1)) < 0)
				return -1;
			return op1(p, SF_NOT, a, tk.start);
		case T_OP:
			if (tk.op == '(')
			{
				struct token close;

				if ((a = parse_expr(p, 0)) < 0 || next_token(p, &close) < 0)
					return -1;
				if (close.kind != T_OP || close.op != ')')
					return syntax_error(p, close.start, (int) close.len,
										"syntax error", NULL);
				return a;
			}
			if (tk.op == '+')
				return parse_expr(p, PREC_UNARY);
			if (tk.op == '-')
			{
				struct token next;

				if (peek_token(p, &next) < 0)
					return -1;
				if (next.kind == T_MAXINT_PLUS_ONE)
				{
					next_token(p, &next);
					return int_node(p, INT64_MIN, tk.start);
				}
				if ((a = parse_expr(p, PREC_UNARY)) < 0)
					return -1;
				return op2(p, SF_SUB, int_node(p, 0, tk.start), a, tk.start);
			}
			if (tk.op == '~')
			{
				if ((a = parse_expr(p, PREC_BIT + 1)) < 0)
					return -1;
				return op2(p, SF_BITXOR, int_node(p, ~INT64_C(0), tk.start), a,
						   tk.start);
			}
			break;
		default:
			break;
	}
	return syntax_error(p, tk.start, (int) tk.len, "syntax error", NULL);
}

/* The binary operator TK: its function, precedence; false if none. */
static bool
binary_op(const struct token *tk, enum script_func *f, int *prec, bool *swap)
{
	*swap = false;
	if (tk->kind == T_AND)
		return *f = SF_AND, *prec = PREC_AND, true;
	if (tk->kind == T_OR)
		return *f = SF_OR, *prec = PREC_OR, true;
	if (tk->kind != T_OP)
		return false;
	switch (tk->op)
	{
		case '+':
			return *f = SF_ADD, *prec = PREC_ADD, true;
		case '-':
			return *f = SF_SUB, *prec = PREC_ADD, true;
		case '*':
			return *f = SF_MUL, *prec = PREC_MUL, true;
		case '/':
			return *f = SF_DIV, *prec = PREC_MUL, true;
		case '%':
			return *f = SF_MOD, *prec = PREC_MUL, true;
		case '&':
			return *f = SF_BITAND, *prec = PREC_BIT, true;
		case '|':
			return *f = SF_BITOR, *prec = PREC_BIT, true;
		case '#':
			return *f = SF_BITXOR, *prec = PREC_BIT, true;
		case OP_LS:
			return *f = SF_LSHIFT, *prec = PREC_BIT, true;
		case OP_RS:
			return *f = SF_RSHIFT, *prec = PREC_BIT, true;
		case '=':
			return *f = SF_EQ, *prec = PREC_CMP, true;
		case OP_NE:
			return *f = SF_NE, *prec = PREC_CMP, true;
		case '<':
			return *f = SF_LT, *prec = PREC_CMP, true;
		case OP_LE:
			return *f = SF_LE, *prec = PREC_CMP, true;
		case '>':
			return *swap = true, *f = SF_LT, *prec = PREC_CMP, true;
		case OP_GE:
			return *swap = true, *f = SF_LE, *prec = PREC_CMP, true;
		default:
			return false;
	}
}

/* "x IS [NOT] NULL|TRUE|FALSE", "x ISNULL", "x NOTNULL". */
static int
parse_is(struct parser *p, int left, const struct token *op)
{
	struct token tk;
	bool negate = false;
	struct script_value v = {.type = SV_NULL};
	int n;

	if (op->kind == T_IS)
	{
		if (next_token(p, &tk) < 0)
			return -1;
		if (tk.kind == T_NOT)
		{
			negate = true;
			if (next_token(p, &tk) < 0)
				return -1;
		}
		if (tk.kind != T_NULL && tk.kind != T_BOOL)
			return syntax_error(p, tk.start, (int) tk.len, "syntax error",
								NULL);
		v = tk.value;
	}
	else
		negate = op->kind == T_NOTNULL;
	n = op2(p, SF_IS, left, const_node(p, &v, op->start), op->start);
	return negate ? op1(p, SF_NOT, n, op->start) : n;
}

static int parse_expr_at(struct parser *p, int min_prec);

/* parse_expr_at() one level deeper, refused past SCRIPT_MAX_DEPTH. */
static int
parse_expr(struct parser *p, int min_prec)
{
	int e;

	if (p->depth >= SCRIPT_MAX_DEPTH)
		return fail_at(p, p->pos, 1,
					   "expression nested too deeply (more than %d levels)",
					   SCRIPT_MAX_DEPTH);
	p->depth++;
	e = parse_expr_at(p, min_prec);
	p->depth--;
	return e;
}

static int
parse_expr_at(struct parser *p, int min_prec)
{
	int left = parse_prefix(p);
	int last_nonassoc = 0; /* precedence of a nonassoc operator just used */

	if (left < 0)
		return -1;
	for (;;)
	{
		struct token tk;
		enum script_func f;
		int prec, right;
		bool swap;

		if (peek_token(p, &tk) < 0)
			return -1;
		if (tk.kind == T_IS || tk.kind == T_ISNULL || tk.kind == T_NOTNULL)
		{
			if (PREC_IS < min_prec)
				return left;
			if (last_nonassoc == PREC_IS)
				return syntax_error(p, tk.start, (int) tk.len, "syntax error",
									NULL);
			next_token(p, &tk);
			if ((left = parse_is(p, left, &tk)) < 0)
				return -1;
			last_nonassoc = PREC_IS;
			continue;
		}
		if (!binary_op(&tk, &f, &prec, &swap) || prec < min_prec)
			return left;
		if (prec == PREC_CMP && last_nonassoc == PREC_CMP)
			return syntax_error(p, tk.start, (int) tk.len, "syntax error",
								NULL);
		next_token(p, &tk);
		if ((right = parse_expr(p, prec + 1)) < 0)
			return -1;
		left = swap ? op2(p, f, right, left, tk.start)
					: op2(p, f, left, right, tk.start);
		last_nonassoc = prec == PREC_CMP ? PREC_CMP : 0;
	}
}

/* Parse the expression from p->pos to p->end entirely. */
int
parse_full_expr(struct parser *p)
{
	struct token tk;
	int e = parse_expr(p, 0);

	if (e < 0)
		return -1;
	if (next_token(p, &tk) < 0)
		return -1;
	if (tk.kind != T_END)
		return syntax_error(p, tk.start, (int) tk.len, "syntax error", NULL);
	return e;
}
