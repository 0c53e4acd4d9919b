/*
 * test_profile.c - what profile.c reads: perf report's lines into
 * entries (largest first, the top kept, every sample counted, each share
 * of the samples listed, other lines skipped), and a process's children
 * from /proc.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "profile.h"
#include "test.h"

static const char report[] =
	"# To display the perf.data header info, please use --header\n"
	"\n"
	"     1.36%             2  postgres              [.] LWLockRelease\n"
	"    63.27%            93  [kernel.kallsyms]     [k] pvm_irq_enable\n"
	"    12.24%            18  libc.so.6             [.] epoll_wait\n"
	"     0.68%             1  postgres              [.] 0x00000000004f1a2c\n"
	"     0.68%             1  postgres              [.] hash_search (inlined)\n"
	"garbage line\n"
	"     5.00%            xx  postgres              [.] notanumber\n";

int
main(void)
{
	struct profile_entry *e;
	int n;
	uint64_t total;
	pid_t child, *pids;
	int np;
	bool found = false;

	CHECK_INT(profile_parse(report, 0, &e, &n, &total), 0);
	CHECK_INT(n, 5);
	CHECK_INT(total, 115);
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
	CHECK_INT(profile_parse(report, 2, &e, &n, &total), 0);
	CHECK_INT(n, 2);
	CHECK_INT(total, 115);
	profile_entries_free(e, n);
	CHECK_INT(profile_parse("", 10, &e, &n, &total), 0);
	CHECK_INT(n, 0);
	CHECK_INT(total, 0);
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
