/*
 * expr.c - evaluate compiled pgbench expressions per client, with
 * pgbench 15's semantics (evalStandardFunc(), evalLazyFunc(), the
 * coercions, makeVariableValue()) and algorithms (its random
 * distributions over pg_prng, hash_murmur2, hash_fnv1a, permute), so that
 * every deterministic function returns pgbench's exact value and every
 * random one draws pgbench's sequence for the same seed.
 * Runs on the per-transaction path: no allocation except when a string
 * variable outgrows its buffer, no printing (debug() goes to a callback).
 */
#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_FARGS          16
#define MIN_GAUSSIAN_PARAM 2.0
#define MIN_ZIPFIAN_PARAM  1.001
#define MAX_ZIPFIAN_PARAM  1000.0
#define FNV_PRIME          UINT64_C(0x100000001b3)
#define FNV_OFFSET_BASIS   UINT64_C(0xcbf29ce484222325)
#define MM2_MUL            UINT64_C(0xc6a4a7935bd1e995)
#define MM2_MUL_TIMES_8    UINT64_C(0x35253c9ade8f4ca8)
#define MM2_ROT            47
#define DBL_DIG_PG         15

static bool eval_error(struct script_vars *v, const char *fmt, ...)
	PGC_PRINTF(2, 3);

static bool
eval_error(struct script_vars *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->errmsg, sizeof(v->errmsg), fmt, ap);
	va_end(ap);
	return false;
}

/* ------------------------------------------------------------ variables */

static void
set_int(struct script_value *out, int64_t i)
{
	out->type = SV_INT;
	out->u.i = i;
}

static void
set_double(struct script_value *out, double d)
{
	out->type = SV_DOUBLE;
	out->u.d = d;
}

static void
set_bool(struct script_value *out, bool b)
{
	out->type = SV_BOOL;
	out->u.i = 0;
	out->u.b = b;
}

static void
set_null(struct script_value *out)
{
	out->type = SV_NULL;
	out->u.i = 0;
}

void
script_var_put_string(struct script_vars *v, int slot, const char *str)
{
	struct script_var *var = &v->vars[slot];
	size_t n = strlen(str) + 1;

	if (n > var->cap)
	{
		var->cap = n < 32 ? 32 : n;
		var->str = xrealloc(var->str, var->cap);
	}
	memcpy(var->str, str, n);
	var->has_str = true;
	var->v.type = SV_NONE;
	var->isset = true;
}

void
script_var_put_value(struct script_vars *v, int slot,
					 const struct script_value *val)
{
	struct script_var *var = &v->vars[slot];

	var->v = *val;
	var->has_str = false;
	var->isset = true;
}

void
script_vars_init(struct script_vars *v, const struct script *s, int client_id,
				 int64_t scale, int64_t random_seed, int64_t default_seed,
				 uint64_t func_seed, const struct script_define *defines,
				 int ndefines)
{
	struct script_value val;

	memset(v, 0, sizeof(*v));
	v->nvars = s->nvars;
	v->vars = xcalloc((size_t) s->nvars, sizeof(*v->vars));
	v->client_id = client_id;
	for (int i = 0; i < ndefines; i++)
	{
		int slot = script_var_slot(s, defines[i].name);

		if (slot >= 0)
			script_var_put_string(v, slot, defines[i].value);
	}
	/* automatic variables, unless -D gave them (as pgbench does) */
	set_int(&val, client_id);
	if (!v->vars[SCRIPT_VAR_CLIENT_ID].isset)
		script_var_put_value(v, SCRIPT_VAR_CLIENT_ID, &val);
	set_int(&val, scale);
	if (!v->vars[SCRIPT_VAR_SCALE].isset)
		script_var_put_value(v, SCRIPT_VAR_SCALE, &val);
	set_int(&val, random_seed);
	if (!v->vars[SCRIPT_VAR_RANDOM_SEED].isset)
		script_var_put_value(v, SCRIPT_VAR_RANDOM_SEED, &val);
	set_int(&val, default_seed);
	if (!v->vars[SCRIPT_VAR_DEFAULT_SEED].isset)
		script_var_put_value(v, SCRIPT_VAR_DEFAULT_SEED, &val);
	prng_seed(&v->prng, func_seed);
}

void
script_vars_release(struct script_vars *v)
{
	for (int i = 0; i < v->nvars; i++)
		free(v->vars[i].str);
	free(v->vars);
	memset(v, 0, sizeof(*v));
}

static int
format_value(const struct script_value *val, char *buf)
{
	switch (val->type)
	{
		case SV_NULL:
			return snprintf(buf, SCRIPT_TEXT_WIDTH, "NULL");
		case SV_BOOL:
			return snprintf(buf, SCRIPT_TEXT_WIDTH, "%s",
							val->u.b ? "true" : "false");
		case SV_INT:
		{
			char tmp[24];
			int n = 0, k = 0;
			uint64_t u = val->u.i < 0 ? (uint64_t) 0 - (uint64_t) val->u.i
									  : (uint64_t) val->u.i;

			do
			{
				tmp[n++] = (char) ('0' + u % 10);
				u /= 10;
			} while (u);
			if (val->u.i < 0)
				buf[k++] = '-';
			while (n)
				buf[k++] = tmp[--n];
			buf[k] = '\0';
			return k;
		}
		case SV_DOUBLE:
			return snprintf(buf, SCRIPT_TEXT_WIDTH, "%.*g", DBL_DIG_PG,
							val->u.d);
		default:
			buf[0] = '\0';
			return 0;
	}
}

const char *
script_var_text(struct script_vars *v, int slot, char *buf)
{
	struct script_var *var = &v->vars[slot];

	if (!var->isset)
		return NULL;
	if (var->has_str)
		return var->str;
	format_value(&var->v, buf);
	return buf;
}

/* pgbench's is_an_int(): "^\s*[-+]?[0-9]+$" */
static bool
is_an_int(const char *str)
{
	const char *p = str;

	while (*p && isspace((unsigned char) *p))
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (*p && !isdigit((unsigned char) *p))
		return false;
	while (*p && isdigit((unsigned char) *p))
		p++;
	return *p == '\0';
}

/* pgbench's strtoint64(), trailing blanks allowed. */
static bool
str_to_int64(const char *str, int64_t *out)
{
	const char *p = str;
	int64_t tmp = 0;
	bool neg = false;

	while (*p && isspace((unsigned char) *p))
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!isdigit((unsigned char) *p))
		return false;
	while (isdigit((unsigned char) *p))
		if (__builtin_mul_overflow(tmp, 10, &tmp) ||
			__builtin_sub_overflow(tmp, *p++ - '0', &tmp))
			return false;
	while (*p && isspace((unsigned char) *p))
		p++;
	if (*p != '\0')
		return false;
	if (!neg)
	{
		if (tmp == INT64_MIN)
			return false;
		tmp = -tmp;
	}
	*out = tmp;
	return true;
}

/* pgbench's makeVariableValue(): parse a string variable once. */
static bool
make_value(struct script_vars *v, const struct script *s, int slot)
{
	struct script_var *var = &v->vars[slot];
	const char *str = var->str;
	size_t len;

	if (var->v.type != SV_NONE)
		return true;
	len = strlen(str);
	if (len == 0)
		return eval_error(v, "malformed variable \"%s\" value: \"\"",
						  s->var_names[slot]);
	if (strcasecmp(str, "null") == 0)
		set_null(&var->v);
	else if (strncasecmp(str, "true", len) == 0 ||
			 strncasecmp(str, "yes", len) == 0 || strcasecmp(str, "on") == 0)
		set_bool(&var->v, true);
	else if (strncasecmp(str, "false", len) == 0 ||
			 strncasecmp(str, "no", len) == 0 || strcasecmp(str, "off") == 0 ||
			 strcasecmp(str, "of") == 0)
		set_bool(&var->v, false);
	else if (is_an_int(str))
	{
		int64_t i;

		if (!str_to_int64(str, &i))
			return eval_error(
				v, "value \"%s\" is out of range for type bigint", str);
		set_int(&var->v, i);
	}
	else
	{
		char *end;
		double d;

		errno = 0;
		d = strtod(str, &end);
		if (errno != 0 || end == str || *end != '\0')
			return eval_error(v, "malformed variable \"%s\" value: \"%s\"",
							  s->var_names[slot], str);
		set_double(&var->v, d);
	}
	return true;
}

/* ------------------------------------------------------------ coercions */

static const char *
type_name(const struct script_value *val)
{
	switch (val->type)
	{
		case SV_NULL:
			return "null";
		case SV_BOOL:
			return "boolean";
		case SV_INT:
			return "int";
		case SV_DOUBLE:
			return "double";
		default:
			return "none";
	}
}

static bool
to_bool(struct script_vars *v, const struct script_value *val, bool *out)
{
	if (val->type == SV_BOOL)
	{
		*out = val->u.b;
		return true;
	}
	*out = false;
	return eval_error(v, "cannot coerce %s to boolean", type_name(val));
}

bool
script_value_truth(const struct script_value *val)
{
	switch (val->type)
	{
		case SV_BOOL:
			return val->u.b;
		case SV_INT:
			return val->u.i != 0;
		case SV_DOUBLE:
			return val->u.d != 0.0;
		default:
			return false;
	}
}

static bool
to_int(struct script_vars *v, const struct script_value *val, int64_t *out)
{
	*out = 0;
	if (val->type == SV_INT)
	{
		*out = val->u.i;
		return true;
	}
	if (val->type == SV_DOUBLE)
	{
		double d = rint(val->u.d);

		if (isnan(d) || !(d >= (double) INT64_MIN && d < -(double) INT64_MIN))
			return eval_error(v, "double to int overflow for %f", d);
		*out = (int64_t) d;
		return true;
	}
	return eval_error(v, "cannot coerce %s to int", type_name(val));
}

static bool
to_double(struct script_vars *v, const struct script_value *val, double *out)
{
	*out = 0;
	if (val->type == SV_DOUBLE)
	{
		*out = val->u.d;
		return true;
	}
	if (val->type == SV_INT)
	{
		*out = (double) val->u.i;
		return true;
	}
	return eval_error(v, "cannot coerce %s to double", type_name(val));
}

/* ---------------------------------------------------- pgbench algorithms */

static int64_t
exponential_rand(struct prng *rs, int64_t min, int64_t max, double parameter)
{
	double cut = exp(-parameter);
	double uniform = 1.0 - prng_double(rs);
	double rand = -log(cut + (1.0 - cut) * uniform) / parameter;

	return min + (int64_t) ((double) (max - min + 1) * rand);
}

static int64_t
gaussian_rand(struct prng *rs, int64_t min, int64_t max, double parameter)
{
	double stdev, rand;

	do
	{
		double rand1 = 1.0 - prng_double(rs);
		double rand2 = 1.0 - prng_double(rs);
		double var_sqrt = sqrt(-2.0 * log(rand1));

		stdev = var_sqrt * sin(2.0 * M_PI * rand2);
	} while (stdev < -parameter || stdev >= parameter);
	rand = (stdev + parameter) / (parameter * 2.0);
	return min + (int64_t) ((double) (max - min + 1) * rand);
}

/* Devroye's rejection method, as pgbench's computeIterativeZipfian(). */
static int64_t
zipfian_rand(struct prng *rs, int64_t min, int64_t max, double s)
{
	int64_t n = max - min + 1;
	double b = pow(2.0, s - 1.0);
	double x, t, u, w;

	if (n <= 1)
		return min;
	for (;;)
	{
		u = prng_double(rs);
		w = prng_double(rs);
		x = floor(pow(u, -1.0 / (s - 1.0)));
		t = pow(1.0 + 1.0 / x, s - 1.0);
		if (w * x * (t - 1.0) / (b - 1.0) <= t / b && x <= (double) n)
			break;
	}
	return min - 1 + (int64_t) x;
}

static int64_t
hash_fnv1a(int64_t val, uint64_t seed)
{
	uint64_t result = FNV_OFFSET_BASIS ^ seed;
	uint64_t u = (uint64_t) val;

	for (int i = 0; i < 8; ++i)
	{
		uint64_t octet = u & 0xff;

		u >>= 8;
		result ^= octet;
		result *= FNV_PRIME;
	}
	return (int64_t) result;
}

static int64_t
hash_murmur2(int64_t val, uint64_t seed)
{
	uint64_t result = seed ^ MM2_MUL_TIMES_8;
	uint64_t k = (uint64_t) val;

	k *= MM2_MUL;
	k ^= k >> MM2_ROT;
	k *= MM2_MUL;
	result ^= k;
	result *= MM2_MUL;
	result ^= result >> MM2_ROT;
	result *= MM2_MUL;
	result ^= result >> MM2_ROT;
	return (int64_t) result;
}

/* pgbench's permute(): six rounds of bijections, then a random offset. */
static int64_t
permute(int64_t val, int64_t isize, int64_t seed)
{
	struct prng state;
	uint64_t size, v, mask;
	int masklen;

	if (isize < 2)
		return 0;
	prng_seed(&state, (uint64_t) seed);
	size = (uint64_t) isize;
	v = (uint64_t) val % size;
	masklen = 63 - __builtin_clzll(size);
	mask = (((uint64_t) 1) << masklen) - 1;
	for (int i = 0; i < 6; i++)
	{
		uint64_t m, r, t;

		m = (prng_next(&state) & mask) | 1;
		r = prng_next(&state) & mask;
		if (v <= mask)
		{
			v = ((v * m) ^ r) & mask;
			v = ((v << 1) & mask) | (v >> (masklen - 1));
		}
		m = (prng_next(&state) & mask) | 1;
		r = prng_next(&state) & mask;
		t = size - 1 - v;
		if (t <= mask)
		{
			t = ((t * m) ^ r) & mask;
			t = ((t << 1) & mask) | (t >> (masklen - 1));
			v = size - 1 - t;
		}
		r = prng_range(&state, 0, size - 1);
		v = (v + r) % size;
	}
	return (int64_t) v;
}

/* ----------------------------------------------------------- evaluation */

static bool eval_node(const struct script *s, int node, struct script_vars *v,
					  struct script_value *out);

static const int *
node_args(const struct script *s, const struct script_node *n)
{
	return s->args + n->first_arg;
}

/* AND, OR and CASE evaluate only what they need (pgbench's evalLazyFunc). */
static bool
eval_lazy(const struct script *s, const struct script_node *n,
		  struct script_vars *v, struct script_value *out)
{
	const int *args = node_args(s, n);
	struct script_value a1 = {0}, a2 = {0};
	bool b1, b2;

	if (n->func == SF_CASE)
	{
		int i;

		for (i = 0; i + 1 < n->nargs; i += 2)
		{
			if (!eval_node(s, args[i], v, &a1))
				return false;
			if (script_value_truth(&a1))
				return eval_node(s, args[i + 1], v, out);
		}
		return eval_node(s, args[i], v, out);
	}
	if (!eval_node(s, args[0], v, &a1))
		return false;
	if (a1.type == SV_NULL)
	{
		set_null(out);
		return true;
	}
	if (!to_bool(v, &a1, &b1))
		return false;
	if (n->func == SF_AND ? !b1 : b1)
	{
		set_bool(out, b1);
		return true;
	}
	if (!eval_node(s, args[1], v, &a2))
		return false;
	if (a2.type == SV_NULL)
	{
		set_null(out);
		return true;
	}
	if (!to_bool(v, &a2, &b2))
		return false;
	set_bool(out, b2);
	return true;
}

static bool
eval_arith(struct script_vars *v, enum script_func f,
		   const struct script_value *l, const struct script_value *r,
		   struct script_value *out)
{
	if ((l->type == SV_DOUBLE || r->type == SV_DOUBLE) && f != SF_MOD)
	{
		double ld, rd;

		if (!to_double(v, l, &ld) || !to_double(v, r, &rd))
			return false;
		switch (f)
		{
			case SF_ADD:
				set_double(out, ld + rd);
				break;
			case SF_SUB:
				set_double(out, ld - rd);
				break;
			case SF_MUL:
				set_double(out, ld * rd);
				break;
			case SF_DIV:
				set_double(out, ld / rd);
				break;
			case SF_EQ:
				set_bool(out, ld == rd);
				break;
			case SF_NE:
				set_bool(out, ld != rd);
				break;
			case SF_LE:
				set_bool(out, ld <= rd);
				break;
			default: /* SF_LT */
				set_bool(out, ld < rd);
				break;
		}
		return true;
	}
	{
		int64_t li, ri, res;

		if (!to_int(v, l, &li) || !to_int(v, r, &ri))
			return false;
		switch (f)
		{
			case SF_ADD:
				if (__builtin_add_overflow(li, ri, &res))
					return eval_error(v, "bigint add out of range");
				set_int(out, res);
				return true;
			case SF_SUB:
				if (__builtin_sub_overflow(li, ri, &res))
					return eval_error(v, "bigint sub out of range");
				set_int(out, res);
				return true;
			case SF_MUL:
				if (__builtin_mul_overflow(li, ri, &res))
					return eval_error(v, "bigint mul out of range");
				set_int(out, res);
				return true;
			case SF_EQ:
				set_bool(out, li == ri);
				return true;
			case SF_NE:
				set_bool(out, li != ri);
				return true;
			case SF_LE:
				set_bool(out, li <= ri);
				return true;
			case SF_LT:
				set_bool(out, li < ri);
				return true;
			default: /* SF_DIV, SF_MOD */
				if (ri == 0)
					return eval_error(v, "division by zero");
				if (ri == -1)
				{
					if (f == SF_MOD)
						set_int(out, 0);
					else if (li == INT64_MIN)
						return eval_error(v, "bigint div out of range");
					else
						set_int(out, -li);
					return true;
				}
				set_int(out, f == SF_DIV ? li / ri : li % ri);
				return true;
		}
	}
}

static bool
eval_random(struct script_vars *v, enum script_func f,
			const struct script_value *a, struct script_value *out)
{
	int64_t imin, imax, delta;
	double param;

	if (!to_int(v, &a[0], &imin) || !to_int(v, &a[1], &imax))
		return false;
	if (imin > imax)
		return eval_error(v, "empty range given to random");
	if (__builtin_sub_overflow(imax, imin, &delta) ||
		__builtin_add_overflow(delta, 1, &delta))
		return eval_error(v, "random range is too large");
	if (f == SF_RANDOM)
	{
		set_int(out, imin + (int64_t) prng_range(&v->prng, 0,
												 (uint64_t) (imax - imin)));
		return true;
	}
	if (!to_double(v, &a[2], &param))
		return false;
	if (f == SF_RANDOM_GAUSSIAN)
	{
		if (param < MIN_GAUSSIAN_PARAM)
			return eval_error(
				v, "gaussian parameter must be at least %f (not %f)",
				MIN_GAUSSIAN_PARAM, param);
		set_int(out, gaussian_rand(&v->prng, imin, imax, param));
	}
	else if (f == SF_RANDOM_ZIPFIAN)
	{
		if (param < MIN_ZIPFIAN_PARAM || param > MAX_ZIPFIAN_PARAM)
			return eval_error(
				v, "zipfian parameter must be in range [%.3f, %.0f] (not %f)",
				MIN_ZIPFIAN_PARAM, MAX_ZIPFIAN_PARAM, param);
		set_int(out, zipfian_rand(&v->prng, imin, imax, param));
	}
	else
	{
		if (param <= 0.0)
			return eval_error(
				v, "exponential parameter must be greater than zero (not %f)",
				param);
		set_int(out, exponential_rand(&v->prng, imin, imax, param));
	}
	return true;
}

static void
debug_value(struct script_vars *v, const struct script_value *val)
{
	char line[160];
	int n = snprintf(line, sizeof(line),
					 "debug(script=%d,command=%d): ", v->script_index,
					 v->cmd_index + 1);

	switch (val->type)
	{
		case SV_NULL:
			snprintf(line + n, sizeof(line) - (size_t) n, "null");
			break;
		case SV_BOOL:
			snprintf(line + n, sizeof(line) - (size_t) n, "boolean %s",
					 val->u.b ? "true" : "false");
			break;
		case SV_INT:
			snprintf(line + n, sizeof(line) - (size_t) n, "int %" PRId64,
					 val->u.i);
			break;
		default:
			snprintf(line + n, sizeof(line) - (size_t) n, "double %.*g",
					 DBL_DIG_PG, val->u.d);
			break;
	}
	if (v->debug)
		v->debug(v->debug_arg, line);
}

/*
 * Evaluate function node N: one switch over pgbench's functions, in the
 * order and with the semantics of its evalStandardFunc() and
 * evalLazyFunc(), kept whole so the two can be read side by side (it is
 * long for that reason).
 */
static bool
eval_func(const struct script *s, const struct script_node *n,
		  struct script_vars *v, struct script_value *out)
{
	struct script_value a[MAX_FARGS];
	const int *args = node_args(s, n);
	bool has_null = false;
	enum script_func f = n->func;

	if (f == SF_AND || f == SF_OR || f == SF_CASE)
		return eval_lazy(s, n, v, out);
	/* the parser checked the arity; this keeps the analyzer sure of it */
	memset(a, 0, 3 * sizeof(a[0]));
	for (int i = 0; i < n->nargs; i++)
	{
		if (i == MAX_FARGS)
			return eval_error(v, "too many function arguments, maximum is %d",
							  MAX_FARGS);
		if (!eval_node(s, args[i], v, &a[i]))
			return false;
		has_null |= a[i].type == SV_NULL;
	}
	if (has_null && f != SF_IS && f != SF_DEBUG)
	{
		set_null(out);
		return true;
	}
	switch (f)
	{
		case SF_ADD:
		case SF_SUB:
		case SF_MUL:
		case SF_DIV:
		case SF_MOD:
		case SF_EQ:
		case SF_NE:
		case SF_LE:
		case SF_LT:
			return eval_arith(v, f, &a[0], &a[1], out);
		case SF_BITAND:
		case SF_BITOR:
		case SF_BITXOR:
		case SF_LSHIFT:
		case SF_RSHIFT:
		{
			int64_t li, ri;

			if (!to_int(v, &a[0], &li) || !to_int(v, &a[1], &ri))
				return false;
			if (f == SF_BITAND)
				set_int(out, li & ri);
			else if (f == SF_BITOR)
				set_int(out, li | ri);
			else if (f == SF_BITXOR)
				set_int(out, li ^ ri);
			/* as on x86, where pgbench runs: the count is taken mod 64 */
			else if (f == SF_LSHIFT)
				set_int(out, (int64_t) ((uint64_t) li << (ri & 63)));
			else
				set_int(out, li >> (ri & 63));
			return true;
		}
		case SF_NOT:
		{
			bool b;

			if (!to_bool(v, &a[0], &b))
				return false;
			set_bool(out, !b);
			return true;
		}
		case SF_PI:
			set_double(out, M_PI);
			return true;
		case SF_ABS:
			if (a[0].type == SV_INT)
				set_int(out, a[0].u.i < 0 ? (int64_t) ((uint64_t) 0 -
													   (uint64_t) a[0].u.i)
										  : a[0].u.i);
			else if (a[0].type == SV_DOUBLE)
				set_double(out, a[0].u.d < 0.0 ? -a[0].u.d : a[0].u.d);
			else
				return eval_error(v, "cannot coerce %s to double",
								  type_name(&a[0]));
			return true;
		case SF_DEBUG:
			debug_value(v, &a[0]);
			*out = a[0];
			return true;
		case SF_DOUBLE:
		case SF_SQRT:
		case SF_LN:
		case SF_EXP:
		{
			double d;

			if (!to_double(v, &a[0], &d))
				return false;
			if (f == SF_SQRT)
				d = sqrt(d);
			else if (f == SF_LN)
				d = log(d);
			else if (f == SF_EXP)
				d = exp(d);
			set_double(out, d);
			return true;
		}
		case SF_INT:
		{
			int64_t i;

			if (!to_int(v, &a[0], &i))
				return false;
			set_int(out, i);
			return true;
		}
		case SF_LEAST:
		case SF_GREATEST:
		{
			bool havedouble = false;

			for (int i = 0; i < n->nargs; i++)
				havedouble |= a[i].type == SV_DOUBLE;
			if (havedouble)
			{
				double ext, d;

				if (!to_double(v, &a[0], &ext))
					return false;
				for (int i = 1; i < n->nargs; i++)
				{
					if (!to_double(v, &a[i], &d))
						return false;
					if (f == SF_LEAST ? d < ext : d > ext)
						ext = d;
				}
				set_double(out, ext);
			}
			else
			{
				int64_t ext, x;

				if (!to_int(v, &a[0], &ext))
					return false;
				for (int i = 1; i < n->nargs; i++)
				{
					if (!to_int(v, &a[i], &x))
						return false;
					if (f == SF_LEAST ? x < ext : x > ext)
						ext = x;
				}
				set_int(out, ext);
			}
			return true;
		}
		case SF_RANDOM:
		case SF_RANDOM_GAUSSIAN:
		case SF_RANDOM_EXPONENTIAL:
		case SF_RANDOM_ZIPFIAN:
			return eval_random(v, f, a, out);
		case SF_POW:
		{
			double ld, rd;

			if (!to_double(v, &a[0], &ld) || !to_double(v, &a[1], &rd))
				return false;
			set_double(out, pow(ld, rd));
			return true;
		}
		case SF_IS:
			/* pgbench's permissive IS: same type and same boolean bits */
			set_bool(out, a[0].type == a[1].type &&
							  (a[0].type == SV_NULL || a[0].u.b == a[1].u.b));
			return true;
		case SF_HASH_MURMUR2:
		case SF_HASH_FNV1A:
		{
			int64_t val, seed;

			if (!to_int(v, &a[0], &val) || !to_int(v, &a[1], &seed))
				return false;
			set_int(out, f == SF_HASH_MURMUR2
							 ? hash_murmur2(val, (uint64_t) seed)
							 : hash_fnv1a(val, (uint64_t) seed));
			return true;
		}
		case SF_PERMUTE:
		{
			int64_t val, size, seed;

			if (!to_int(v, &a[0], &val) || !to_int(v, &a[1], &size) ||
				!to_int(v, &a[2], &seed))
				return false;
			if (size <= 0)
				return eval_error(
					v, "permute size parameter must be greater than zero");
			set_int(out, permute(val, size, seed));
			return true;
		}
		default:
			return eval_error(v, "internal error: function %d", (int) f);
	}
}

static bool
eval_node(const struct script *s, int node, struct script_vars *v,
		  struct script_value *out)
{
	const struct script_node *n = &s->nodes[node];

	switch (n->kind)
	{
		case SNODE_CONST:
			*out = n->value;
			return true;
		case SNODE_VAR:
			if (!v->vars[n->var].isset)
				return eval_error(v, "undefined variable \"%s\"",
								  s->var_names[n->var]);
			if (!make_value(v, s, n->var))
				return false;
			*out = v->vars[n->var].v;
			return true;
		default:
			return eval_func(s, n, v, out);
	}
}

bool
script_eval(const struct script *s, int node, struct script_vars *v,
			struct script_value *out)
{
	return eval_node(s, node, v, out);
}

bool
script_exec_set(const struct script *s, const struct script_cmd *c,
				struct script_vars *v)
{
	struct script_value val;

	if (!eval_node(s, c->expr, v, &val))
		return false;
	script_var_put_value(v, c->set_var, &val);
	return true;
}

/* -------------------------------------------------- \sleep and \shell */

bool
script_sleep_us(const struct script_cmd *c, struct script_vars *v, int64_t *us)
{
	const struct script_word *w = &c->words[0];
	int64_t n;

	if (w->var >= 0)
	{
		char buf[SCRIPT_TEXT_WIDTH];
		const char *t = script_var_text(v, w->var, buf);

		if (t == NULL)
			return eval_error(v, "sleep: undefined variable \"%s\"",
							  w->text + 1);
		n = atoi(t);
		if (n == 0 && !isdigit((unsigned char) *t))
			return eval_error(v,
							  "sleep: invalid sleep time \"%s\" for variable "
							  "\"%s\"",
							  t, w->text + 1);
	}
	else
		n = atoi(w->text);
	*us = n * c->sleep_unit_us;
	return true;
}

bool
script_shell_line(const struct script_cmd *c, struct script_vars *v, char *out,
				  size_t size)
{
	const char *what = c->kind == SCRIPT_CMD_SHELL ? "shell" : "setshell";
	size_t len = 0;

	for (int i = 0; i < c->nwords; i++)
	{
		char buf[SCRIPT_TEXT_WIDTH];
		const char *arg = c->words[i].text;
		size_t arglen;

		if (c->words[i].var >= 0 &&
			(arg = script_var_text(v, c->words[i].var, buf)) == NULL)
			return eval_error(v, "%s: undefined variable \"%s\"", what,
							  c->words[i].text);
		arglen = strlen(arg);
		if (len + arglen + (i > 0 ? 1 : 0) >= size - 1)
			return eval_error(v, "%s: shell command is too long", what);
		if (i > 0)
			out[len++] = ' ';
		memcpy(out + len, arg, arglen);
		len += arglen;
	}
	out[len] = '\0';
	return true;
}
