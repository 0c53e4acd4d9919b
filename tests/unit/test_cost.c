/*
 * test_cost.c - callgrind's output format read back: totals, self costs
 * (a call's inclusive cost line is not the caller's), compressed names,
 * relative positions, omitted trailing zeros, merging of processes, the
 * per-transaction difference, and files that are not callgrind's.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cost.h"
#include "test.h"

/* As callgrind 3.19 writes a backend's file with --cache-sim=yes. */
static const char before_txt[] =
	"# callgrind format\n"
	"version: 1\n"
	"creator: callgrind-3.19.0\n"
	"pid: 4242\n"
	"cmd:  /usr/lib/postgresql/15/bin/postgres -D data\n"
	"part: 1\n"
	"\n"
	"desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
	"desc: Timerange: Basic block 0 - 100\n"
	"desc: Trigger: Program termination\n"
	"\n"
	"positions: line\n"
	"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
	"summary: 1000 300 200 10 20 30 1 2 3\n"
	"\n"
	"\n"
	"ob=(1) /usr/lib/postgresql/15/bin/postgres\n"
	"fl=(1) ???\n"
	"fn=(1) PostgresMain\n"
	"0 100 30 20 1 2 3\n"
	"cfn=(2) exec_simple_query\n"
	"calls=5 0 \n"
	"0 700 200 150 8 15 25 1 2 3\n"
	"+2 50\n"
	"fn=(2)\n"
	"0 600 200 150 8 15 25 1 2 3\n"
	"cob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"cfn=(3) memcpy\n"
	"calls=2 0\n"
	"0 100\n"
	"ob=(2)\n"
	"fl=(2) ./string/memcpy.S\n"
	"fn=(3)\n"
	"0 100\n"
	"* 150 70 30 1 3 2\n"
	"\n"
	"totals: 1000 300 200 10 20 30 1 2 3\n";

/* The same backend's work with more transactions. */
static const char after_txt[] =
	"version: 1\n"
	"positions: line\n"
	"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
	"summary: 3000 900 600 30 60 90 1 2 3\n"
	"ob=(1) /usr/lib/postgresql/15/bin/postgres\n"
	"fn=(1) PostgresMain\n"
	"0 300 90 60 3 6 9\n"
	"fn=(2) exec_simple_query\n"
	"0 1800 600 450 24 45 75 1 2 3\n"
	"ob=(2) /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	"fn=(3) memcpy\n"
	"0 900 210 90 3 9 6\n";

static char *
write_tmp(const char *text)
{
	char *path = strdup("/tmp/pgcliff-test-cost-XXXXXX");
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK(write(fd, text, strlen(text)) == (ssize_t) strlen(text));
	close(fd);
	return path;
}

static const struct cost_fn *
find(const struct cost_counts *c, const char *name)
{
	for (int i = 0; i < c->nfns; i++)
		if (strcmp(c->fns[i].name, name) == 0)
			return &c->fns[i];
	return NULL;
}

int
main(void)
{
	char *b = write_tmp(before_txt), *a = write_tmp(after_txt);
	struct cost_counts cb, ca;
	struct pgc_error err;
	const struct cost_fn *f;

	memset(&cb, 0, sizeof(cb));
	memset(&ca, 0, sizeof(ca));
	error_clear(&err);
	CHECK_INT(cost_read_file(b, &cb, &err), 0);
	CHECK_INT(cb.nprocs, 1);
	CHECK_INT(cb.ev[COST_IR], 1000);
	CHECK_INT(cb.ev[COST_L1], 60);
	CHECK_INT(cb.ev[COST_LL], 6);
	CHECK_INT(cb.nfns, 3);
	/* self only: the lines after calls= are the callees' */
	f = find(&cb, "PostgresMain");
	CHECK(f != NULL);
	if (f)
	{
		CHECK_INT(f->ev[COST_IR], 150);
		CHECK_INT(f->ev[COST_L1], 6);
		CHECK_STR(f->obj, "/usr/lib/postgresql/15/bin/postgres");
	}
	f = find(&cb, "exec_simple_query");
	CHECK(f != NULL && f->ev[COST_IR] == 600 && f->ev[COST_LL] == 6);
	/* compressed names refer back; "*" and "+2" are positions */
	f = find(&cb, "memcpy");
	CHECK(f != NULL);
	if (f)
	{
		CHECK_INT(f->ev[COST_IR], 250);
		CHECK_STR(f->obj, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	}

	/* two processes merge by function */
	CHECK_INT(cost_read_file(a, &ca, &err), 0);
	CHECK_INT(cost_read_file(b, &ca, &err), 0);
	CHECK_INT(ca.nprocs, 2);
	CHECK_INT(ca.ev[COST_IR], 4000);
	CHECK_INT(ca.nfns, 3);
	f = find(&ca, "exec_simple_query");
	CHECK(f != NULL && f->ev[COST_IR] == 2400);

	/* per transaction: (after - before) / txns, functions by cost */
	{
		double per[COST_NEVENTS];
		struct cost_fn_share fns[8];
		int n = cost_per_txn(&cb, &ca, 10, per, fns, 8);

		CHECK_INT(n, 3);
		CHECK_NEAR(per[COST_IR], 300.0, 1e-12);
		CHECK_NEAR(per[COST_L1], 18.0, 1e-12);
		if (n == 3)
		{
			CHECK_STR(fns[0].name, "exec_simple_query");
			CHECK_NEAR(fns[0].ir, 180.0, 1e-12);
			CHECK_NEAR(fns[0].share, 0.6, 1e-12);
			CHECK_STR(fns[1].name, "memcpy");
			CHECK_STR(fns[2].name, "PostgresMain");
		}
		CHECK_INT(cost_per_txn(&cb, &ca, 10, per, fns, 1), 1);
		/* the wrong way round: not the same work */
		CHECK_INT(cost_per_txn(&ca, &cb, 10, per, fns, 8), -1);
		CHECK_INT(cost_per_txn(&cb, &ca, 0, per, fns, 8), -1);
	}
	cost_counts_release(&ca);
	cost_counts_release(&cb);

	/* not callgrind's: located; cut short: no summary */
	{
		char *bad = write_tmp("events: Ir\nsummary: 10\nfn=(1) f\n0 x\n");
		char *cut = write_tmp("version: 1\nevents: Ir\nfn=(1) f\n0 5\n");

		CHECK_INT(cost_read_file(bad, &cb, &err), -1);
		CHECK(strstr(err.message, "not callgrind's output format") != NULL);
		CHECK_INT(err.line, 4);
		cost_counts_release(&cb);
		CHECK_INT(cost_read_file(cut, &cb, &err), -1);
		CHECK(strstr(err.message, "summary") != NULL);
		CHECK_INT(cost_read_file("/nonexistent/cg.1", &cb, &err), -1);
		cost_counts_release(&cb);
		unlink(bad);
		unlink(cut);
		free(bad);
		free(cut);
	}

	/* collecting: a dead backend's whole dump (its totals line last) is
	 * read at once and removed; one without a totals line is waited for a
	 * second after its process is gone, then read as it is */
	{
		char dir[] = "/tmp/pgcliff-test-cost-dir-XXXXXX";
		pid_t pids[2];
		struct cost_counts c;
		char path[128];
		FILE *fp;

		CHECK(mkdtemp(dir) != NULL);
		for (int i = 0; i < 2; i++)
		{
			pids[i] = fork();
			if (pids[i] == 0)
				_exit(0);
			waitpid(pids[i], NULL, 0);
			snprintf(path, sizeof(path), "%s/cg.%ld", dir, (long) pids[i]);
			fp = fopen(path, "w");
			CHECK(fp != NULL);
			if (fp)
			{
				fputs(i == 0 ? before_txt : after_txt, fp);
				fclose(fp);
			}
		}
		memset(&c, 0, sizeof(c));
		CHECK_INT(cost_collect(dir, pids, 1, 10000, &c, &err), 0);
		CHECK_INT(c.ev[COST_IR], 1000);
		snprintf(path, sizeof(path), "%s/cg.%ld", dir, (long) pids[0]);
		CHECK(access(path, F_OK) != 0); /* removed once read */
		CHECK_INT(cost_collect(dir, pids + 1, 1, 10000, &c, &err), 0);
		CHECK_INT(c.nprocs, 2); /* read as it is: it has a summary */
		cost_counts_release(&c);
		rmdir(dir);
	}

	/* the wrapper: valgrind's options, the output file last */
	{
		const char *argv[16];
		char buf[256];
		int n = cost_valgrind_argv("/usr/bin/valgrind", "/tmp/x", argv, 16,
								   buf, sizeof(buf));

		CHECK(n > 3);
		if (n > 3)
		{
			CHECK_STR(argv[0], "/usr/bin/valgrind");
			CHECK_STR(argv[n - 1], "--callgrind-out-file=/tmp/x/cg.%p");
		}
		CHECK_INT(cost_valgrind_argv("v", "/tmp/x", argv, 3, buf, sizeof(buf)),
				  -1);
		CHECK_INT(cost_valgrind_argv("v", "/tmp/x", argv, 16, buf, 8), -1);
	}
	unlink(a);
	unlink(b);
	free(a);
	free(b);
	TEST_MAIN_END("test_cost");
}
