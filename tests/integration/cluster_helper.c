/*
 * cluster_helper.c - start a managed server through drivers/cluster for
 * tests and benchmarks that need an "external" server:
 *
 *     cluster_helper [--standby] [NAME=VALUE]...     (server settings)
 *
 * Prints "SOCKETDIR USER PID" (with --standby, a second line for a hot
 * standby streaming from it, made by pg_basebackup) and
 * keeps the server until its standard input closes (so a test that dies
 * still takes the server down), then stops it and cleans up.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"

int
main(int argc, char **argv)
{
	struct pgc_error err;
	struct cluster_opts o = {0};
	struct cluster *c, *sb = NULL;
	bool standby = argc > 1 && strcmp(argv[1], "--standby") == 0;
	char bindir[1024];
	char buf[64];
	struct cluster_guc gucs[32];
	int ngucs = 0;

	for (int i = standby ? 2 : 1; i < argc && ngucs < 32; i++)
	{
		char *eq = strchr(argv[i], '=');

		if (eq == NULL)
		{
			fprintf(stderr, "cluster_helper: want NAME=VALUE, not %s\n",
					argv[i]);
			return 2;
		}
		*eq = '\0';
		gucs[ngucs].name = argv[i];
		gucs[ngucs++].value = eq + 1;
	}

	error_clear(&err);
	if (cluster_find_bindir(NULL, bindir, sizeof(bindir), &err) < 0)
		goto fail;
	o.bindir = bindir;
	o.os_user = geteuid() == 0 ? "postgres" : NULL;
	o.name = "helper";
	o.gucs = gucs;
	o.ngucs = ngucs;
	if ((c = cluster_create(&o, &err)) == NULL)
		goto fail;
	if (cluster_start(c, &err) < 0)
	{
		cluster_destroy(c, true);
		goto fail;
	}
	printf("%s %s %d\n", cluster_socket_dir(c), cluster_user(c),
		   (int) cluster_pid(c));
	if (standby)
	{
		o.name = "helper-sb";
		if ((sb = cluster_create_standby(c, &o, &err)) == NULL ||
			cluster_start(sb, &err) < 0 ||
			cluster_wait_replay(c, sb, 60, &err) < 0)
		{
			cluster_destroy(sb, true);
			cluster_destroy(c, false);
			goto fail;
		}
		printf("%s %s %d\n", cluster_socket_dir(sb), cluster_user(sb),
			   (int) cluster_pid(sb));
	}
	fflush(stdout);
	while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
		;
	cluster_destroy(sb, false);
	cluster_destroy(c, false);
	return 0;
fail:
	fprintf(stderr, "cluster_helper: %s\n%s\n", err.message, err.detail);
	return 1;
}
