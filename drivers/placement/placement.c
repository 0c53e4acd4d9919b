/*
 * placement.c - CPU lists and pinning; see placement.h.
 */
#include "placement.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

bool
cpu_mask_has(const struct cpu_mask *m, int cpu)
{
	return cpu >= 0 && cpu < CPU_MASK_MAX &&
		   (m->bits[cpu / 64] >> (cpu % 64) & 1) != 0;
}

void
cpu_mask_set(struct cpu_mask *m, int cpu)
{
	if (cpu >= 0 && cpu < CPU_MASK_MAX)
		m->bits[cpu / 64] |= (uint64_t) 1 << (cpu % 64);
}

int
cpu_mask_count(const struct cpu_mask *m)
{
	int n = 0;

	for (int i = 0; i < CPU_MASK_MAX / 64; i++)
		n += __builtin_popcountll(m->bits[i]);
	return n;
}

/* A CPU number at *P: digits only, below CPU_MASK_MAX.  -1 if none. */
static int
parse_cpu(const char **p)
{
	int v = 0;

	if (**p < '0' || **p > '9')
		return -1;
	for (; **p >= '0' && **p <= '9'; (*p)++)
	{
		v = v * 10 + (**p - '0');
		if (v >= CPU_MASK_MAX)
			return -1;
	}
	return v;
}

int
cpu_mask_parse(const char *text, struct cpu_mask *m, size_t *bad,
			   struct pgc_error *err)
{
	const char *p = text;

	memset(m, 0, sizeof(*m));
	for (;;)
	{
		const char *at = p;
		int lo = parse_cpu(&p), hi;

		if (lo < 0)
			goto bad;
		hi = lo;
		if (*p == '-')
		{
			p++;
			at = p;
			if ((hi = parse_cpu(&p)) < 0 || hi < lo)
				goto bad;
		}
		for (int c = lo; c <= hi; c++)
			cpu_mask_set(m, c);
		if (*p == '\0')
			return 0;
		if (*p != ',')
		{
			at = p;
			goto bad;
		}
		p++;
		continue;
	bad:
		if (bad)
			*bad = (size_t) (at - text);
		error_set(err, PGC_ERR_USAGE, "invalid CPU list \"%s\"", text);
		error_hint(err, "CPU numbers 0-%d, ranges and commas: 0-3,8",
				   CPU_MASK_MAX - 1);
		return -1;
	}
}

void
cpu_mask_format(const struct cpu_mask *m, char *out, size_t size)
{
	size_t len = 0;

	if (size == 0)
		return;
	out[0] = '\0';
	for (int c = 0; c < CPU_MASK_MAX; c++)
	{
		int e = c;
		int n;

		if (!cpu_mask_has(m, c))
			continue;
		while (e + 1 < CPU_MASK_MAX && cpu_mask_has(m, e + 1))
			e++;
		n = e == c ? snprintf(out + len, size - len, "%s%d", len ? "," : "", c)
				   : snprintf(out + len, size - len, "%s%d-%d", len ? "," : "",
							  c, e);
		if (n < 0 || (size_t) n >= size - len)
		{
			out[len] = '\0'; /* whole entries only */
			return;
		}
		len += (size_t) n;
		c = e;
	}
}

const char *
placement_mode_name(enum placement_mode m)
{
	switch (m)
	{
		case PLACEMENT_FREE:
			return "free";
		case PLACEMENT_SPLIT:
			return "split";
		case PLACEMENT_CPUS:
			return "cpus";
		case PLACEMENT_AUTO:
			return "auto";
	}
	return "?";
}

int
placement_parse(const char *text, struct placement *p, struct pgc_error *err)
{
	const char *slash = strchr(text, '/');
	char server[256];
	size_t bad;

	memset(p, 0, sizeof(*p));
	if (strcmp(text, "free") == 0)
		return 0;
	if (strcmp(text, "split") == 0 || strcmp(text, "auto") == 0)
	{
		p->mode = text[0] == 's' ? PLACEMENT_SPLIT : PLACEMENT_AUTO;
		return 0;
	}
	if (slash == NULL || (size_t) (slash - text) >= sizeof(server))
	{
		error_set(err, PGC_ERR_USAGE, "invalid placement \"%s\"", text);
		error_hint(err, "free, split, auto, or SERVER_CPUS/DRIVER_CPUS as 0/1 "
						"or 0-3/4-7");
		return -1;
	}
	memcpy(server, text, (size_t) (slash - text));
	server[slash - text] = '\0';
	p->mode = PLACEMENT_CPUS;
	if (cpu_mask_parse(server, &p->server, &bad, err) < 0 ||
		cpu_mask_parse(slash + 1, &p->driver, &bad, err) < 0)
		return -1;
	return 0;
}

int
placement_allowed(struct cpu_mask *out, struct pgc_error *err)
{
	cpu_set_t set;

	memset(out, 0, sizeof(*out));
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
	{
		error_set(err, PGC_ERR_IO,
				  "could not read the CPUs pgcliff may use: %s",
				  strerror(errno));
		return -1;
	}
	for (int c = 0; c < CPU_MASK_MAX && c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpu_mask_set(out, c);
	return 0;
}

/* Every CPU of M among ALLOWED, else -1 with ERR naming the first not. */
static int
check_allowed(const struct cpu_mask *m, const struct cpu_mask *allowed,
			  const char *who, struct pgc_error *err)
{
	char list[256];

	cpu_mask_format(allowed, list, sizeof(list));
	for (int c = 0; c < CPU_MASK_MAX; c++)
		if (cpu_mask_has(m, c) && !cpu_mask_has(allowed, c))
		{
			error_set(err, PGC_ERR_USAGE,
					  "placement: CPU %d of the %s is not available here", c,
					  who);
			error_detail(err, "pgcliff may use CPU%s %s",
						 cpu_mask_count(allowed) == 1 ? "" : "s", list);
			return -1;
		}
	return 0;
}

int
placement_resolve(struct placement *p, int *side, struct pgc_error *err)
{
	struct cpu_mask allowed;
	int n, half, k = 0;

	if (side)
		*side = -1;
	if (p->mode == PLACEMENT_FREE)
		return 0;
	if (placement_allowed(&allowed, err) < 0)
		return -1;
	p->all = allowed;
	if (p->mode == PLACEMENT_AUTO && cpu_mask_count(&allowed) < 2)
	{
		p->mode = PLACEMENT_FREE; /* nothing to split */
		return 0;
	}
	if (p->mode == PLACEMENT_CPUS)
	{
		if (check_allowed(&p->server, &allowed, "servers", err) < 0)
		{
			if (side)
				*side = 0;
			return -1;
		}
		if (check_allowed(&p->driver, &allowed, "driver", err) < 0)
		{
			if (side)
				*side = 1;
			return -1;
		}
		return 0;
	}
	n = cpu_mask_count(&allowed);
	if (n < 2)
	{
		error_set(err, PGC_ERR_USAGE,
				  "placement: split needs two CPUs, pgcliff may use %d", n);
		return -1;
	}
	half = n - n / 2;
	memset(&p->server, 0, sizeof(p->server));
	memset(&p->driver, 0, sizeof(p->driver));
	for (int c = 0; c < CPU_MASK_MAX; c++)
		if (cpu_mask_has(&allowed, c))
			cpu_mask_set(k++ < half ? &p->server : &p->driver, c);
	return 0;
}

bool
placement_pins(const struct placement *p, int clients)
{
	switch (p->mode)
	{
		case PLACEMENT_FREE:
			return false;
		case PLACEMENT_AUTO:
			return clients <= cpu_mask_count(&p->driver);
		case PLACEMENT_SPLIT:
		case PLACEMENT_CPUS:
			return true;
	}
	return false;
}

static void
to_set(const struct cpu_mask *m, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (int c = 0; c < CPU_MASK_MAX && c < CPU_SETSIZE; c++)
		if (cpu_mask_has(m, c))
			CPU_SET(c, set);
}

int
placement_pin_self(const struct cpu_mask *m, struct cpu_mask *old,
				   struct pgc_error *err)
{
	cpu_set_t set;

	if (old && placement_allowed(old, err) < 0)
		return -1;
	to_set(m, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
	{
		error_set(err, PGC_ERR_IO, "could not pin the driver to its CPUs: %s",
				  strerror(errno));
		return -1;
	}
	return 0;
}

int
placement_pin_pid(int pid, const struct cpu_mask *m, struct pgc_error *err)
{
	char path[64];
	cpu_set_t set;
	FILE *f;
	int child;

	to_set(m, &set);
	if (sched_setaffinity(pid, sizeof(set), &set) != 0)
	{
		error_set(err, PGC_ERR_IO, "could not pin process %d to its CPUs: %s",
				  pid, strerror(errno));
		return -1;
	}
	/* a postmaster's children are its direct children (one thread each) */
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", pid, pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fscanf(f, "%d", &child) == 1)
		(void) sched_setaffinity(child, sizeof(set), &set);
	fclose(f);
	return 0;
}

void
placement_restore(const struct cpu_mask *old)
{
	cpu_set_t set;

	to_set(old, &set);
	(void) sched_setaffinity(0, sizeof(set), &set);
}

int
placement_apply_in_child(const struct cpu_mask *m)
{
	cpu_set_t set;

	to_set(m, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}
