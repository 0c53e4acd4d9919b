/*
 * fuzz_cli.c - fuzz target for what the command line's values go
 * through: counts and count lists (-c, --repeat, last=), fractions
 * (--margin), durations (-T, --budget), CPU lists and placements
 * (--placement), selectors (compare and gate: "12:a", "run=1 blocks=2-3")
 * and the password mask every argument passes at start (cmd/main.c).
 * Any input must be accepted with a value that obeys its rule, or refused;
 * never crash, leak or hang.  Each property is checked, not only survival.
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "placement.h"
#include "recipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct cmd fuzz_cmd = {.name = "fuzz"};

/* TEXT as a decimal number without sign or leading zeros, else NULL. */
static const char *
canonical_digits(const char *text)
{
	if (text[0] == '\0')
		return NULL;
	for (const char *p = text; *p; p++)
		if (!isdigit((unsigned char) *p))
			return NULL;
	while (text[0] == '0' && text[1] != '\0')
		text++;
	return text;
}

static void
check_counts(const char *t)
{
	int v, *list = NULL, n = 0;

	if (cmd_parse_count(t, 1000000, &v) && (v < 1 || v > 1000000))
		abort();
	if (cmd_parse_count_list(t, 100000, &list, &n))
	{
		if (n < 1 || strlen(t) == 0 || t[strlen(t) - 1] == ',')
			abort(); /* "1,2," is refused, not read as "1,2" */
		for (int i = 0; i < n; i++)
			if (list[i] < 1 || list[i] > 100000)
				abort();
		free(list);
	}
	else if (list != NULL || n != 0)
		abort(); /* nothing allocated on refusal */
}

static void
check_values(const char *t)
{
	double f;
	int64_t ns = recipe_parse_duration_ns(t);

	if (cmd_parse_fraction(t, &f) && !isfinite(f))
		abort();
	/* at most a year, never a wrapped or negative duration */
	if (ns < -1 || ns > (int64_t) 366 * 24 * 3600 * 1000000000)
		abort();
}

static void
check_cpus(const char *t)
{
	struct cpu_mask m, again;
	struct placement p;
	struct pgc_error err;
	size_t bad = 0;
	char out[8192];

	error_clear(&err);
	if (cpu_mask_parse(t, &m, &bad, &err) == 0)
	{
		/* what is accepted formats to a list that reads back the same */
		cpu_mask_format(&m, out, sizeof(out));
		if (cpu_mask_parse(out, &again, NULL, &err) != 0 ||
			memcmp(&m, &again, sizeof(m)) != 0)
			abort();
	}
	else if (err.message[0] == '\0' || bad > strlen(t))
		abort(); /* a refusal says why, at a place inside the text */
	error_clear(&err);
	if (placement_parse(t, &p, &err) != 0 && err.message[0] == '\0')
		abort();
}

static void
check_selector(const char *t)
{
	struct cmd_selector sel;
	char *copy = strdup(t);
	const char *digits = canonical_digits(t);

	if (cmd_parse_selector(&fuzz_cmd, copy, t, &sel) == 0)
	{
		char id[32];

		if (sel.s.run_id < 0 ||
			(sel.block_hi >= 0 && sel.block_lo > sel.block_hi))
			abort();
		/* a plain run id is that number, never a clamped one */
		snprintf(id, sizeof(id), "%lld", (long long) sel.s.run_id);
		if (digits && strcmp(id, digits) != 0)
			abort();
	}
	free(copy);
}

static void
check_mask(const char *t)
{
	char *m = strdup(t), *again;
	size_t off, len, from = 0;

	conninfo_mask_passwords(m);
	if (strlen(m) != strlen(t))
		abort(); /* the arguments' memory keeps its size */
	/* every password found is masked: only 'x' left in each */
	while (conninfo_find_password(m, from, &off, &len))
	{
		if (off + len > strlen(m))
			abort();
		for (size_t i = 0; i < len; i++)
			if (m[off + i] != 'x')
				abort();
		from = off + len + 1;
		if (from > strlen(m))
			break;
	}
	again = strdup(m);
	conninfo_mask_passwords(again);
	if (strcmp(again, m) != 0)
		abort(); /* masking twice changes nothing more */
	free(again);
	free(m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);

	memcpy(t, data, size);
	t[size] = '\0';
	check_counts(t);
	check_values(t);
	check_cpus(t);
	check_selector(t);
	check_mask(t);
	free(t);
	return 0;
}
