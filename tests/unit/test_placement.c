/*
 * test_placement.c - drivers/placement: CPU lists parse and print back
 * as Linux writes them, bad lists are refused at their character, split
 * halves what this process may use, and a CPU it may not use is refused.
 */
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "placement.h"
#include "test.h"

static void
list_round_trip(const char *in, const char *out, int count)
{
	struct cpu_mask m;
	struct pgc_error err;
	char buf[256];

	error_clear(&err);
	CHECK(cpu_mask_parse(in, &m, NULL, &err) == 0);
	cpu_mask_format(&m, buf, sizeof(buf));
	CHECK_STR(buf, out);
	CHECK(cpu_mask_count(&m) == count);
}

static void
list_bad(const char *in, size_t at)
{
	struct cpu_mask m;
	struct pgc_error err;
	size_t bad = 999;

	error_clear(&err);
	CHECK(cpu_mask_parse(in, &m, &bad, &err) == -1);
	CHECK(err.kind == PGC_ERR_USAGE);
	CHECK(bad == at);
}

/* A new thread's CPUs into ARG; its result is checked after the join
 * (CHECK counts in a global the main thread also counts in). */
static void *
thread_cpus(void *arg)
{
	struct pgc_error err;

	error_clear(&err);
	return placement_allowed(arg, &err) == 0 ? arg : NULL;
}

int
main(void)
{
	struct placement p;
	struct pgc_error err;
	struct cpu_mask allowed, old, seen;
	char buf[64];
	int n, first = -1;

	list_round_trip("0", "0", 1);
	list_round_trip("3,1,2", "1-3", 3);
	list_round_trip("0-3,8,10-11", "0-3,8,10-11", 7);
	list_round_trip("1023", "1023", 1);
	list_bad("", 0);
	list_bad("1,", 2);
	list_bad("a", 0);
	list_bad("3-1", 2);
	list_bad("0 1", 1);
	list_bad("1024", 0);
	list_bad("-1", 0);

	error_clear(&err);
	CHECK(placement_parse("free", &p, &err) == 0 && p.mode == PLACEMENT_FREE);
	CHECK(placement_parse("split", &p, &err) == 0 &&
		  p.mode == PLACEMENT_SPLIT);
	CHECK(placement_parse("0/1", &p, &err) == 0 && p.mode == PLACEMENT_CPUS);
	CHECK(cpu_mask_has(&p.server, 0) && !cpu_mask_has(&p.server, 1));
	CHECK(cpu_mask_has(&p.driver, 1) && cpu_mask_count(&p.driver) == 1);
	CHECK(placement_parse("pinned", &p, &err) == -1);
	CHECK(placement_parse("0/", &p, &err) == -1);
	CHECK(placement_parse("0/x", &p, &err) == -1);
	CHECK(strcmp(placement_mode_name(PLACEMENT_SPLIT), "split") == 0);

	CHECK(placement_allowed(&allowed, &err) == 0);
	n = cpu_mask_count(&allowed);
	CHECK(n >= 1);
	for (int c = 0; c < CPU_MASK_MAX && first < 0; c++)
		if (cpu_mask_has(&allowed, c))
			first = c;

	/* split: disjoint halves whose union is what may be used */
	CHECK(placement_parse("split", &p, &err) == 0);
	if (n >= 2)
	{
		struct cpu_mask both = p.server;

		CHECK(placement_resolve(&p, NULL, &err) == 0);
		CHECK(cpu_mask_count(&p.server) == n - n / 2);
		CHECK(cpu_mask_count(&p.driver) == n / 2);
		for (int i = 0; i < CPU_MASK_MAX / 64; i++)
		{
			CHECK((p.server.bits[i] & p.driver.bits[i]) == 0);
			both.bits[i] = p.server.bits[i] | p.driver.bits[i];
		}
		CHECK(memcmp(&both, &allowed, sizeof(both)) == 0);
	}
	else
		CHECK(placement_resolve(&p, NULL, &err) == -1);

	/* auto: split CPUs, pinned only while the clients fit the driver's */
	CHECK(placement_parse("auto", &p, &err) == 0 && p.mode == PLACEMENT_AUTO);
	CHECK(placement_resolve(&p, NULL, &err) == 0);
	CHECK(memcmp(&p.all, &allowed, sizeof(allowed)) == 0);
	if (n >= 2)
	{
		CHECK(p.mode == PLACEMENT_AUTO);
		CHECK(cpu_mask_count(&p.driver) == n / 2);
		CHECK(placement_pins(&p, 1));
		CHECK(placement_pins(&p, n / 2));
		CHECK(!placement_pins(&p, n / 2 + 1));
	}
	else
		CHECK(p.mode == PLACEMENT_FREE); /* one CPU: nothing to split */
	CHECK(placement_parse("split", &p, &err) == 0 && placement_pins(&p, 999));
	CHECK(placement_parse("free", &p, &err) == 0 && !placement_pins(&p, 1));

	/* a CPU that may not be used is refused, naming it and what may */
	CHECK(placement_parse("0/1023", &p, &err) == 0);
	if (!cpu_mask_has(&allowed, 1023))
	{
		int side = 9;

		error_clear(&err);
		CHECK(placement_resolve(&p, &side, &err) == -1);
		CHECK(side == 1);
		CHECK(err.kind == PGC_ERR_USAGE);
		CHECK(strstr(err.message, "CPU 1023 of the driver") != NULL);
		cpu_mask_format(&allowed, buf, sizeof(buf));
		CHECK(strstr(err.detail, buf) != NULL);
	}

	/* pinning the calling thread: threads it creates inherit it, and
	 * restore gives the old CPUs back */
	{
		struct cpu_mask one;
		pthread_t t;
		void *got = NULL;
		int rc;

		memset(&one, 0, sizeof(one));
		cpu_mask_set(&one, first);
		CHECK(placement_pin_self(&one, &old, &err) == 0);
		CHECK(memcmp(&old, &allowed, sizeof(old)) == 0);
		rc = pthread_create(&t, NULL, thread_cpus, &seen);
		CHECK(rc == 0);
		if (rc == 0)
			CHECK(pthread_join(t, &got) == 0 && got == &seen);
		CHECK(memcmp(&seen, &one, sizeof(seen)) == 0);
		placement_restore(&old);
		CHECK(placement_allowed(&seen, &err) == 0);
		CHECK(memcmp(&seen, &allowed, sizeof(seen)) == 0);
	}
	TEST_MAIN_END("test_placement");
}
