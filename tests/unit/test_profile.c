/*
 * test_profile.c - what profile.c reads: perf report's lines into
 * entries (one per function, its processes' lines summed; largest first,
 * the top kept, every sample counted, each share of the samples listed,
 * other lines skipped), and a process's children from /proc.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profile.h"
#include "test.h"

static const char report[] =
	"# To display the perf.data header info, please use --header\n"
	"\n"
	"     1.36%             2     2916:postgres  postgres              [.] LWLockRelease\n"
	"    50.00%            70     2916:postgres  [kernel.kallsyms]     [k] pvm_irq_enable\n"
	"    12.24%            18     2907:postgres  libc.so.6             [.] epoll_wait\n"
	"     0.68%             1     2916:postgres  postgres              [.] 0x00000000004f1a2c\n"
	"     0.68%             1     2916:postgres  postgres              [.] hash_search (inlined)\n"
	"    13.27%            23     2920:pg worker 2  [kernel.kallsyms]  [k] pvm_irq_enable\n"
	"garbage line\n"
	"     5.00%            xx     2916:postgres  postgres              [.] notanumber\n"
	"     5.00%             7     2916:postgres  postgres\n";

/* --children: inclusive, self, samples, per process; perf's shares of
 * every CPU's samples (the server's are 50 % of them here) */
static const char children[] =
	"    25.00%     0.00%             0     2916:postgres  postgres              [.] PostgresMain\n"
	"    20.00%     0.00%             0     2917:postgres  postgres              [.] PostgresMain\n"
	"    40.00%     0.00%             0     2916:postgres  postgres              [.] exec_simple_query\n"
	"    30.00%    30.00%            60     2916:postgres  [kernel.kallsyms]     [k] pvm_irq_enable\n"
	"    12.00%    10.00%            20     2917:postgres  postgres              [.] GetSnapshotData\n"
	"     6.00%     6.00%            12     2916:postgres  libc.so.6             [.] memcpy\n"
	"     4.00%     4.00%             8     2916:postgres  postgres              [.] hash_search\n"
	"    30.00%     0.00%             0     2916:postgres  postgres              [.] a self line\n";

int
main(void)
{
	struct profile_entry *e;
	int n;
	uint64_t total;
	pid_t child, *pids;
	int np;
	bool found = false;

	CHECK_INT(profile_parse(report, false, 0, &e, &n, &total), 0);
	CHECK_INT(n, 5);
	CHECK_INT(total, 115);
	/* one function of two processes (one whose command holds spaces): one
	 * entry, their samples summed */
	CHECK_STR(e[0].symbol, "pvm_irq_enable");
	CHECK_STR(e[0].dso, "[kernel.kallsyms]");
	CHECK_INT(e[0].count, 93);
	/* its share of the samples listed (the server's), not perf's 63.27 %
	 * of every CPU's */
	CHECK(fabs(e[0].pct - 100.0 * 93 / 115) < 1e-9);
	CHECK_STR(e[1].symbol, "epoll_wait");
	CHECK_STR(e[2].symbol, "LWLockRelease");
	/* a module without symbols: its address; a name with spaces, whole */
	CHECK(strcmp(e[3].symbol, "0x00000000004f1a2c") == 0 ||
		  strcmp(e[4].symbol, "0x00000000004f1a2c") == 0);
	CHECK(strcmp(e[3].symbol, "hash_search (inlined)") == 0 ||
		  strcmp(e[4].symbol, "hash_search (inlined)") == 0);
	profile_entries_free(e, n);
	/* the top 2, the total still of all */
	CHECK_INT(profile_parse(report, false, 2, &e, &n, &total), 0);
	CHECK_INT(n, 2);
	CHECK_INT(total, 115);
	profile_entries_free(e, n);
	CHECK_INT(profile_parse("", false, 10, &e, &n, &total), 0);
	CHECK_INT(n, 0);
	CHECK_INT(total, 0);
	profile_entries_free(e, n);
	/* without call graphs, no inclusive share */
	CHECK_INT(profile_parse(report, false, 1, &e, &n, &total), 0);
	CHECK(isnan(e[0].inclusive));
	profile_entries_free(e, n);

	/* call graphs: inclusive shares scaled as the self ones (perf's self
	 * shares sum to 50 %: the server's half of the samples) */
	CHECK_INT(profile_parse(children, true, 0, &e, &n, &total), 0);
	CHECK_INT(n, 7); /* PostgresMain's two processes: one entry */
	CHECK_INT(total, 100);
	CHECK_STR(e[0].symbol, "pvm_irq_enable");
	CHECK(fabs(e[0].pct - 60.0) < 1e-9);
	CHECK(fabs(e[0].inclusive - 60.0) < 1e-9);
	for (int i = 0; i < n; i++)
	{
		if (strcmp(e[i].symbol, "PostgresMain") == 0)
			CHECK(fabs(e[i].inclusive - 90.0) < 1e-9);
		if (strcmp(e[i].symbol, "GetSnapshotData") == 0)
			CHECK(fabs(e[i].inclusive - 24.0) < 1e-9 &&
				  fabs(e[i].pct - 20.0) < 1e-9);
		CHECK(e[i].inclusive >= e[i].pct - 1e-9);
	}
	profile_entries_free(e, n);
	/* the top 2 by self, and those among the top 2 by inclusive share
	 * (PostgresMain 90 %, exec_simple_query 80 %) kept after them */
	CHECK_INT(profile_parse(children, true, 2, &e, &n, &total), 0);
	CHECK_INT(n, 4);
	CHECK_STR(e[0].symbol, "pvm_irq_enable");
	CHECK_STR(e[1].symbol, "GetSnapshotData");
	CHECK(strcmp(e[2].symbol, "PostgresMain") == 0 ||
		  strcmp(e[3].symbol, "PostgresMain") == 0);
	CHECK(strcmp(e[2].symbol, "exec_simple_query") == 0 ||
		  strcmp(e[3].symbol, "exec_simple_query") == 0);
	profile_entries_free(e, n);
	/* chains past the whole (perf lost samples): self shares only */
	CHECK_INT(profile_parse(
				  "    90.00%    10.00%     5  1:postgres  postgres  [.] a\n"
				  "    10.00%    10.00%     5  1:postgres  postgres  [.] b\n",
				  true, 0, &e, &n, &total),
			  0);
	CHECK_INT(n, 2);
	CHECK(isnan(e[0].inclusive) && isnan(e[1].inclusive));
	CHECK(fabs(e[0].pct - 50.0) < 1e-9);
	profile_entries_free(e, n);

	/* this process and its child */
	if ((child = fork()) == 0)
	{
		pause();
		_exit(0);
	}
	np = profile_process_tree(getpid(), &pids);
	CHECK(np >= 2);
	CHECK_INT(pids[0], getpid());
	for (int i = 1; i < np; i++)
		found |= pids[i] == child;
	CHECK(found);
	free(pids);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	TEST_MAIN_END("profile");
}
