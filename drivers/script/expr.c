/*
 * expr.c - evaluate compiled "\set" expressions per client, with
 * pgbench's int64 semantics (overflow and division errors) and its PRNG
 * (pg_prng, in drivers/base).
 * Runs on the per-transaction path: no allocation, no printing.
 */
#include "script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ variables */

void
script_vars_init(struct script_vars *v, const struct script *s, int client_id,
				 int64_t scale, uint64_t seed)
{
	memset(v, 0, sizeof(*v));
	v->nvars = s->nvars;
	v->values = xcalloc((size_t) s->nvars, sizeof(int64_t));
	v->isset = xcalloc((size_t) s->nvars, sizeof(bool));
	v->values[SCRIPT_VAR_CLIENT_ID] = client_id;
	v->values[SCRIPT_VAR_SCALE] = scale;
	v->values[SCRIPT_VAR_RANDOM_SEED] = (int64_t) seed;
	v->values[SCRIPT_VAR_DEFAULT_SEED] = (int64_t) seed;
	for (int i = 0; i < SCRIPT_NAUTOVARS; i++)
		v->isset[i] = true;
	/* each client its own stream, derived from the run's seed */
	prng_seed(&v->prng,
			  seed ^ ((uint64_t) client_id * UINT64_C(0x9E3779B97F4A7C15)));
}

void
script_vars_release(struct script_vars *v)
{
	free(v->values);
	free(v->isset);
	memset(v, 0, sizeof(*v));
}

/* ----------------------------------------------------------- evaluation */

static bool
eval_error(struct script_vars *v, const char *msg)
{
	snprintf(v->errmsg, sizeof(v->errmsg), "%s", msg);
	return false;
}

bool
script_eval(const struct script *s, int node, struct script_vars *v,
			int64_t *out)
{
	const struct script_node *n = &s->nodes[node];
	int64_t a, b;

	switch (n->kind)
	{
		case SNODE_INT:
			*out = n->ival;
			return true;
		case SNODE_VAR:
			if (!v->isset[n->var])
			{
				snprintf(v->errmsg, sizeof(v->errmsg),
						 "undefined variable \"%s\"", s->var_names[n->var]);
				return false;
			}
			*out = v->values[n->var];
			return true;
		case SNODE_NEG:
			if (!script_eval(s, n->args[0], v, &a))
				return false;
			if (a == INT64_MIN)
				return eval_error(v, "bigint out of range");
			*out = -a;
			return true;
		case SNODE_ADD:
		case SNODE_SUB:
		case SNODE_MUL:
		case SNODE_DIV:
		case SNODE_MOD:
			if (!script_eval(s, n->args[0], v, &a) ||
				!script_eval(s, n->args[1], v, &b))
				return false;
			switch (n->kind)
			{
				case SNODE_ADD:
					if (__builtin_add_overflow(a, b, out))
						return eval_error(v, "bigint out of range");
					return true;
				case SNODE_SUB:
					if (__builtin_sub_overflow(a, b, out))
						return eval_error(v, "bigint out of range");
					return true;
				case SNODE_MUL:
					if (__builtin_mul_overflow(a, b, out))
						return eval_error(v, "bigint out of range");
					return true;
				case SNODE_DIV:
					if (b == 0)
						return eval_error(v, "division by zero");
					if (b == -1)
					{
						/* pgbench: INT64_MIN / -1 overflows */
						if (a == INT64_MIN)
							return eval_error(v, "bigint out of range");
						*out = -a;
						return true;
					}
					*out = a / b;
					return true;
				default:
					if (b == 0)
						return eval_error(v, "division by zero");
					/* pgbench: x % -1 is 0, even for INT64_MIN */
					*out = b == -1 ? 0 : a % b;
					return true;
			}
		case SNODE_FUNC:
			break;
	}

	switch (n->func)
	{
		case SFUNC_ABS:
			if (!script_eval(s, n->args[0], v, &a))
				return false;
			if (a == INT64_MIN)
				return eval_error(v, "bigint out of range");
			*out = a < 0 ? -a : a;
			return true;
		case SFUNC_GREATEST:
		case SFUNC_LEAST:
			a = 0; /* the parser guarantees at least one argument */
			for (int i = 0; i < n->nargs; i++)
			{
				if (!script_eval(s, n->args[i], v, &b))
					return false;
				if (i == 0 || (n->func == SFUNC_GREATEST ? b > a : b < a))
					a = b;
			}
			*out = a;
			return true;
		case SFUNC_MOD:
			if (!script_eval(s, n->args[0], v, &a) ||
				!script_eval(s, n->args[1], v, &b))
				return false;
			if (b == 0)
				return eval_error(v, "division by zero");
			*out = b == -1 ? 0 : a % b;
			return true;
		case SFUNC_RANDOM:
			if (!script_eval(s, n->args[0], v, &a) ||
				!script_eval(s, n->args[1], v, &b))
				return false;
			/* pgbench's checks, same words */
			if (a > b)
				return eval_error(v, "empty range given to random");
			if ((uint64_t) b - (uint64_t) a >= (uint64_t) INT64_MAX)
				return eval_error(v, "random range is too large");
			/* pg_prng_int64_range(): offset from lo in unsigned space */
			*out = (int64_t) ((uint64_t) a +
							  prng_range(&v->prng, 0,
										 (uint64_t) b - (uint64_t) a));
			return true;
	}
	return eval_error(v, "internal error: unknown expression node");
}

bool
script_exec_set(const struct script *s, const struct script_cmd *c,
				struct script_vars *v)
{
	int64_t val;

	if (!script_eval(s, c->expr, v, &val))
		return false;
	v->values[c->set_var] = val;
	v->isset[c->set_var] = true;
	return true;
}
